//! `pkit ocsp serve`'s answers: an OCSP responder over HTTP (RFC 6960 Appendix A).
//!
//! POST with an `application/ocsp-request` body, or GET with the base64 request
//! (URL-encoded) as the path; the answer is `application/ocsp-response`. Whatever cannot
//! be answered gets an HTTP error status with an OCSPResponse of the matching
//! responseStatus as its body (malformedRequest, but internalError for a store or
//! signing failure), so clients that look at either the HTTP status or the OCSP status see
//! the same thing, and the server keeps going. Every request gets one JSON log line.
//!
//! Each worker thread holds its own [`OcspHandler`]: its own signer and database
//! connection; the responder and the cache of signed responses are shared, so a
//! certificate's response is signed once whichever worker is asked.

use super::http::{Body, Clock, Handler, Method, Reply, Request};
use pkit_ca::ocsp::{error_response, Responder};
use pkit_ca::ocsp_answer::{answer, AnswerError, Answered};
use pkit_ca::ocsp_cache::ResponseCache;
use pkit_ca::store::CaStore;
use pkit_x509::backend::Signer;
use pkit_x509::ocsp::{decode_get_path, OcspRequest, ResponseStatus};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The media types of RFC 6960 Appendix A.
const REQUEST_TYPE: &str = "application/ocsp-request";
const RESPONSE_TYPE: &str = "application/ocsp-response";

/// One worker's responder: the shared parts, and its own signer and store.
pub struct OcspHandler {
    /// The responder's certificate and settings, shared by every worker.
    pub responder: Arc<Responder>,
    /// This worker's handle on the responder's key.
    pub signer: Box<dyn Signer>,
    /// This worker's connection to the CA's records, where statuses are read.
    pub store: Box<dyn CaStore>,
    /// How long a response stands, in seconds (nextUpdate = now + this).
    pub lifetime: i64,
    /// Signed responses, shared by every worker, served again while young enough.
    pub cache: Arc<ResponseCache>,
    /// The time responses are made and judged at.
    pub clock: Clock,
}

impl Handler for OcspHandler {
    fn handle(&mut self, rq: Request<'_>) -> Reply {
        self.respond(&rq).0
    }
}

/// What one answer said, for a server that counts its answers.
pub struct OcspOutcome {
    /// good / revoked / unknown per certificate (comma-separated), or the responseStatus
    /// name of a failed answer.
    pub status: String,
    /// How long it took, when it was signed rather than served from the cache.
    pub signed_in: Option<Duration>,
}

impl OcspHandler {
    /// The reply to one request, and what it said.
    pub fn respond(&mut self, rq: &Request<'_>) -> (Reply, OcspOutcome) {
        let mut log = Vec::new();
        let started = Instant::now();
        let (code, answered) = self.answer(rq, &mut log);
        let signed_in = (code == 200 && !answered.cached && !answered.serials.is_empty())
            .then(|| started.elapsed());
        log.push(json!({
            "time": self.clock.now().to_string(),
            // As every server's request lines say it (`ca serve` routes here for OCSP).
            "event": "request",
            "route": "ocsp",
            "peer": rq.peer.to_string(),
            "method": rq.method.as_str(),
            "serial": serial_json(&answered.serials),
            "certificates": answered.serials.len(),
            "status": logged_statuses(&answered.status),
            "http": code,
            "cached": answered.cached,
            "us": rq.received.elapsed().as_micros() as u64,
        }));
        let made_headers = if code == 200 && *rq.method == Method::GET {
            caching_headers(&answered, self.clock.now())
        } else {
            Vec::new()
        };
        let reply = Reply {
            status: code,
            content_type: RESPONSE_TYPE,
            headers: if code == 405 {
                &[("allow", "GET, POST")]
            } else {
                &[]
            },
            made_headers,
            body: answered.der.into(),
            log,
        };
        let outcome = OcspOutcome {
            status: answered.status,
            signed_in,
        };
        (reply, outcome)
    }

    /// The DER request a GET or POST carries, if it carries one.
    pub fn request_der(rq: &Request<'_>) -> Option<Vec<u8>> {
        match (rq.method, &rq.body) {
            (&Method::POST, Body::Read(b)) if is_request_type(rq.content_type) => Some(b.to_vec()),
            (&Method::GET, _) => decode_get_path(rq.target),
            _ => None,
        }
    }

    /// Whether this responder's CA issued the certificates `der` (an OCSPRequest) asks
    /// about: a server answering for several CAs at one URL picks the responder so.
    pub fn answers_for(&self, der: &[u8]) -> bool {
        OcspRequest::from_der(der).is_ok_and(|req| {
            matches!(
                self.responder.read(&req),
                Ok(pkit_ca::ocsp::Asked::Ours { .. })
            )
        })
    }
}

impl OcspHandler {
    /// The HTTP status and the OCSP answer for one HTTP request.
    fn answer(&mut self, rq: &Request<'_>, log: &mut Vec<Value>) -> (u16, Answered) {
        let der = match (rq.method, &rq.body) {
            (_, Body::TooLarge) => Err(413),
            (_, Body::TooSlow) => Err(408),
            (_, Body::Broken) => Err(400),
            (&Method::POST, Body::Read(_)) if !is_request_type(rq.content_type) => Err(415),
            (&Method::POST, Body::Read(b)) => Ok(b.to_vec()),
            (&Method::GET, _) => decode_get_path(rq.target).ok_or(400),
            _ => Err(405),
        };
        let der = match der {
            Ok(d) => d,
            Err(code) => return (code, failed(ResponseStatus::MalformedRequest)),
        };
        let Ok(req) = OcspRequest::from_der(&der) else {
            return (400, failed(ResponseStatus::MalformedRequest));
        };
        let now = self.clock.now();
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
                log.push(json!({"time": now.to_string(), "event": "error", "message": m}));
                (200, failed(ResponseStatus::InternalError))
            }
        }
    }
}

/// RFC 5019 §6.2: what lets an HTTP cache (a CDN in front of the responder) keep a
/// successful response to a GET until the certificates' status may have changed —
/// `Last-Modified` (thisUpdate), `Expires` (nextUpdate), an `ETag` of the response, and
/// `Cache-Control: max-age` up to nextUpdate, `public, no-transform, must-revalidate`.
/// The times are those the response was signed with ([`Answered::validity`]; one pair
/// for every certificate it covers); none for an answer without them (not successful).
/// POSTs are not kept by HTTP caches, so they get none either.
fn caching_headers(answered: &Answered, now: pkit_der::Time) -> Vec<(&'static str, String)> {
    let Some((this, next)) = answered.validity else {
        return Vec::new();
    };
    let http_date = |t: pkit_der::Time| {
        let secs = u64::try_from(t.unix).unwrap_or(0);
        httpdate::fmt_http_date(std::time::UNIX_EPOCH + Duration::from_secs(secs))
    };
    let digest = <sha2::Sha256 as sha2::Digest>::digest(&answered.der);
    let tag: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    let max_age = (next.unix - now.unix).max(0);
    vec![
        ("last-modified", http_date(this)),
        ("expires", http_date(next)),
        ("etag", format!("\"{tag}\"")),
        (
            "cache-control",
            format!("max-age={max_age}, public, no-transform, must-revalidate"),
        ),
    ]
}

/// Serials (or statuses) a log line names at most: a request may ask about hundreds of
/// certificates, and a line per request that grows with it would let a client fill the
/// log's disk at 20 KB a request. `certificates` says how many there were.
const LOGGED: usize = 16;

/// Serial numbers as the logs print them: one string, an array (the first [`LOGGED`]),
/// or null.
pub(crate) fn serial_json(serials: &[String]) -> Value {
    match serials {
        [] => Value::Null,
        [one] => one.clone().into(),
        many => many
            .iter()
            .take(LOGGED)
            .map(|s| Value::from(s.as_str()))
            .collect(),
    }
}

/// The comma-separated statuses, the first [`LOGGED`] of them.
fn logged_statuses(status: &str) -> String {
    match status.match_indices(',').nth(LOGGED - 1) {
        Some((at, _)) => format!("{},…", &status[..at]),
        None => status.to_string(),
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
        validity: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request about many certificates logs the first few, and how many there were.
    #[test]
    fn a_log_line_names_a_bounded_number_of_certificates() {
        let serials: Vec<String> = (0..600).map(|i| format!("{i:04x}")).collect();
        assert_eq!(serial_json(&serials).as_array().unwrap().len(), LOGGED);
        assert_eq!(serial_json(&serials[..1]), "0000");
        let statuses = vec!["good"; 600].join(",");
        let logged = logged_statuses(&statuses);
        assert_eq!(logged.matches("good").count(), LOGGED, "{logged}");
        assert!(logged.ends_with(",…"), "{logged}");
        assert_eq!(logged_statuses("good,revoked"), "good,revoked");
    }

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
