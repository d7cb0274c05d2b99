//! `pkit ocsp serve`: an OCSP responder over HTTP (RFC 6960 Appendix A).
//!
//! POST with an `application/ocsp-request` body, or GET with the base64 request
//! (URL-encoded) as the path; the answer is `application/ocsp-response`. Whatever cannot
//! be answered gets an HTTP error status with an OCSPResponse of the matching
//! responseStatus as its body (malformedRequest, but internalError for a store or
//! signing failure), so clients that look at either the HTTP status or the OCSP status see
//! the same thing, and the server keeps going. Every request is logged as one JSON line on
//! stderr.
//!
//! Each worker thread (`cmd/http`) holds its own signer and database connection; the
//! responder and the cache of signed responses are shared, so a certificate's response is
//! signed once whichever worker is asked.

use super::responder::{load_responder, serial_json, SignerArgs};
use crate::cmd::error::{CliResult, Exit};
use crate::cmd::http::{self, Body, HttpArgs, Reply, Request};
use clap::Args;
use pkit::der::Time;
use pkit::pki::backend::Signer;
use pkit::pki::ca::ocsp::{error_response, Responder};
use pkit::pki::ca::ocsp_answer::{answer, AnswerError, Answered};
use pkit::pki::ca::ocsp_cache::ResponseCache;
use pkit::pki::ca::store::CaStore;
use pkit::pki::ocsp::{decode_get_path, OcspRequest, ResponseStatus};
use serde_json::json;
use std::sync::Arc;

/// Distinct certificates whose responses are kept signed.
const CACHE_ENTRIES: usize = 100_000;

/// The media types of RFC 6960 Appendix A.
const REQUEST_TYPE: &str = "application/ocsp-request";
const RESPONSE_TYPE: &str = "application/ocsp-response";

#[derive(Args, Debug)]
#[command(after_long_help = http::BEHAVIOUR_HELP)]
pub struct ServeArgs {
    #[command(flatten)]
    pub signer: SignerArgs,
    #[command(flatten)]
    pub http: HttpArgs,
}

/// One worker's responder: the shared parts, and its own signer and store.
struct Worker {
    responder: Arc<Responder>,
    signer: Box<dyn Signer>,
    store: Box<dyn CaStore>,
    lifetime: i64,
    cache: Arc<ResponseCache>,
}

pub fn run(a: ServeArgs) -> CliResult<Exit> {
    let (responder, store, lifetime) = load_responder(&a.signer, Time::now())?;
    let responder = Arc::new(responder);
    let cache = Arc::new(ResponseCache::new(CACHE_ENTRIES));
    // The store opened with the responder serves the first worker; the others open theirs.
    let mut first = Some(store);
    let make = || {
        let store = match first.take() {
            Some(s) => s,
            None => crate::cmd::ca_db::open_store(&a.signer.ca, &a.signer.db)?,
        };
        Ok(Worker {
            responder: Arc::clone(&responder),
            signer: responder.signer()?,
            store,
            lifetime,
            cache: Arc::clone(&cache),
        })
    };
    let sig = http::serve(&a.http, make, |l| {
        http::log_line(
            &json!({"time": Time::now().to_string(), "event": "listening",
                               "listen": l.addr.to_string(), "threads": l.threads}),
        );
    })?;
    http::log_line(&json!({"time": Time::now().to_string(), "event": "shutdown", "signal": sig}));
    Ok(Exit::Ok)
}

impl http::Handler for Worker {
    fn handle(&mut self, rq: Request<'_>) -> Reply {
        let (code, answered) = self.answer(&rq);
        http::log_line(&json!({
            "time": Time::now().to_string(),
            "peer": rq.peer.to_string(),
            "method": rq.method.as_str(),
            "serial": serial_json(&answered.serials),
            "status": answered.status,
            "http": code,
            "cached": answered.cached,
            "us": rq.received.elapsed().as_micros() as u64,
        }));
        Reply {
            status: code,
            content_type: RESPONSE_TYPE,
            headers: if code == 405 {
                &[("allow", "GET, POST")]
            } else {
                &[]
            },
            body: answered.der,
        }
    }
}

impl Worker {
    /// The HTTP status and the OCSP answer for one HTTP request.
    fn answer(&mut self, rq: &Request<'_>) -> (u16, Answered) {
        let der = match (rq.method, &rq.body) {
            (_, Body::TooLarge) => Err(413),
            (_, Body::TooSlow) => Err(408),
            (_, Body::Broken) => Err(400),
            (&http::Method::POST, Body::Read(_)) if !is_request_type(rq.content_type) => Err(415),
            (&http::Method::POST, Body::Read(b)) => Ok(b.to_vec()),
            (&http::Method::GET, _) => decode_get_path(rq.target).ok_or(400),
            _ => Err(405),
        };
        let der = match der {
            Ok(d) => d,
            Err(code) => return (code, failed(ResponseStatus::MalformedRequest)),
        };
        let Ok(req) = OcspRequest::from_der(&der) else {
            return (400, failed(ResponseStatus::MalformedRequest));
        };
        let now = Time::now();
        match answer(
            &self.responder,
            self.signer.as_mut(),
            &*self.store,
            &req,
            now,
            self.lifetime,
            Some(&self.cache),
        ) {
            Ok(a) => (200, a),
            Err(AnswerError::Malformed(_)) => (400, failed(ResponseStatus::MalformedRequest)),
            Err(e) => {
                let m = e.to_string();
                http::log_line(&json!({"time": now.to_string(), "event": "error", "message": m}));
                (200, failed(ResponseStatus::InternalError))
            }
        }
    }
}

/// A POST's Content-Type: `application/ocsp-request` (parameters and case aside), or
/// none at all (RFC 9110 §8.3 lets the recipient look at the data then); anything else is
/// a client posting something that is not an OCSP request.
fn is_request_type(content_type: Option<&str>) -> bool {
    content_type.is_none_or(|t| {
        t.split(';')
            .next()
            .is_some_and(|m| m.trim().eq_ignore_ascii_case(REQUEST_TYPE))
    })
}

fn failed(status: ResponseStatus) -> Answered {
    Answered {
        der: error_response(status),
        serials: Vec::new(),
        status: status.name().unwrap_or("error").to_string(),
        cached: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        for ok in [
            None,
            Some("application/ocsp-request"),
            Some("Application/OCSP-Request; charset=binary"),
        ] {
            assert!(is_request_type(ok), "{ok:?}");
        }
        for bad in [
            Some(""),
            Some("application/x-www-form-urlencoded"),
            Some("application/ocsp-response"),
            Some("application/ocsp-requests"),
        ] {
            assert!(!is_request_type(bad), "{bad:?}");
        }
    }
}
