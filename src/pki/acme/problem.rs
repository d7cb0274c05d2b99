//! ACME errors as problem documents (RFC 7807, RFC 8555 §6.7): a type under
//! `urn:ietf:params:acme:error:`, a detail line and the HTTP status.

use crate::jose::JoseError;
use serde_json::{json, Value};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The ACME error type without its URN prefix (`badNonce`, `malformed` …).
    pub kind: &'static str,
    pub status: u16,
    pub detail: String,
    /// Seconds after which to try again (a Retry-After header), for `rateLimited`.
    pub retry_after: Option<i64>,
    /// One problem per identifier it concerns (RFC 8555 §6.7.1), each with its
    /// `identifier`.
    pub subproblems: Vec<Value>,
}

impl Problem {
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
    pub fn jose(e: JoseError) -> Problem {
        Problem::new(e.kind, 400, e.detail)
    }

    /// The server's own failure: its detail is for the log as much as the client.
    pub fn server(detail: impl Into<String>) -> Problem {
        Problem::new("serverInternal", 500, detail)
    }

    pub fn db(e: crate::store::StoreError) -> Problem {
        Problem::server(format!("database: {e}"))
    }

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

    pub fn body(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(&self.json()).unwrap_or_default()
    }
}
