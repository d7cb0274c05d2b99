//! ACME errors as problem documents (RFC 7807, RFC 8555 §6.7): a type under
//! `urn:ietf:params:acme:error:`, a detail line and the HTTP status.

use crate::jose::JoseError;
use serde_json::{json, Value};

/// An error answered to a client as a problem document: what a refused request gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The ACME error type without its URN prefix (`badNonce`, `malformed` …).
    pub kind: &'static str,
    /// The HTTP status it is answered with.
    pub status: u16,
    /// What went wrong, in words, for the client (and the log).
    pub detail: String,
    /// Seconds after which to try again (a Retry-After header), for `rateLimited`.
    pub retry_after: Option<i64>,
    /// One problem per identifier it concerns (RFC 8555 §6.7.1), each with its
    /// `identifier`.
    pub subproblems: Vec<Value>,
}

impl Problem {
    /// A problem of ACME error type `kind` (`badNonce`, `malformed`, …).
    pub fn new(kind: &'static str, status: u16, detail: impl Into<String>) -> Problem {
        Problem {
            kind,
            status,
            detail: detail.into(),
            retry_after: None,
            subproblems: Vec::new(),
        }
    }

    /// A refused JWS.
    pub(crate) fn jose(e: JoseError) -> Problem {
        Problem::new(e.kind, 400, e.detail)
    }

    /// The server's own failure: its detail is for the log as much as the client.
    pub(crate) fn server(detail: impl Into<String>) -> Problem {
        Problem::new("serverInternal", 500, detail)
    }

    /// The state's failure: the server's own.
    pub(crate) fn db(e: crate::store::StoreError) -> Problem {
        Problem::server(format!("database: {e}"))
    }

    /// The problem document (RFC 7807 §3.1): `type`, `detail`, `status` and any
    /// `subproblems`.
    pub fn json(&self) -> Value {
        let mut v = json!({
            "type": format!("urn:ietf:params:acme:error:{}", self.kind),
            "detail": self.detail,
            "status": self.status,
        });
        if !self.subproblems.is_empty() {
            v["subproblems"] = Value::Array(self.subproblems.clone());
        }
        v
    }

    /// [`Problem::json`] as the bytes of an `application/problem+json` body.
    pub fn body(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(&self.json()).unwrap_or_default()
    }
}
