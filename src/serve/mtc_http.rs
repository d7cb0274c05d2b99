//! `pkit mtc serve`'s answers: the issuance log over HTTP as a tiled transparency log
//! (c2sp.org/tlog-tiles, with c2sp.org/mtc-tlog's landmark list): `checkpoint`,
//! `landmarks`, `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]` under a prefix.
//!
//! Everything comes from `mtc.db` (no file is ever opened from a request's path) and is
//! bounded by the latest checkpoint, read afresh per request: `pkit mtc add` and
//! `pkit mtc checkpoint` may run in other processes meanwhile (SQLite's WAL lets readers
//! and one writer work at once), and a client always finds the tiles that back the
//! checkpoint it was given — tiles hold complete nodes only, which never change.
//!
//! Tiles and bundles are immutable (`Cache-Control: public, max-age=31536000,
//! immutable`); the checkpoint may be cached for a few seconds and the landmark list for a
//! minute. A path that is not a resource gets 404, a malformed tile path 400, a method
//! other than GET or HEAD 405, a request body over 64 KiB 413. Each worker thread
//! holds its own [`MtcHandler`], with its own database connection. Every request gets
//! one JSON log line.

use super::http::{Body, Clock, Handler, Method, Reply, Request};
use pkit_mtc::publish::{self, Resource};
use pkit_mtc::store::LogStore;
use serde_json::{json, Value};

/// A prefix as requests start with it: "" or "/a/b" (no trailing slash); `None` when it
/// is not a path such as /mtc/1 (segments of printable characters, no . or ..).
pub fn normalize_prefix(p: &str) -> Option<String> {
    let p = p.trim_end_matches('/');
    if p.is_empty() {
        return Some(String::new());
    }
    let ok = p.starts_with('/')
        && p.split('/')
            .skip(1)
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
        && p.bytes()
            .all(|b| b.is_ascii_graphic() && b != b'?' && b != b'#');
    ok.then(|| p.to_string())
}

/// What one request gets: status, body, and the resource's headers when found.
struct Answer {
    status: u16,
    body: Vec<u8>,
    resource: Option<Resource>,
}

impl Answer {
    fn error(status: u16, why: &str) -> Answer {
        Answer {
            status,
            body: format!("{why}\n").into_bytes(),
            resource: None,
        }
    }
}

/// Content-Type and the other headers of an answer: tlog-tiles wants the checkpoint as
/// text and tiles and bundles as octets (mtc-tlog's landmark list is text); every tile
/// and bundle is immutable (a partial one is named by its width).
fn headers_of(
    status: u16,
    r: Option<&Resource>,
) -> (&'static str, &'static [(&'static str, &'static str)]) {
    const TEXT: &str = "text/plain; charset=utf-8";
    match r {
        Some(Resource::Tile(_)) => (
            "application/octet-stream",
            &[("cache-control", "public, max-age=31536000, immutable")],
        ),
        Some(Resource::Checkpoint) => (TEXT, &[("cache-control", "public, max-age=2")]),
        Some(Resource::Landmarks) => (TEXT, &[("cache-control", "public, max-age=60")]),
        None if status == 405 => (
            TEXT,
            &[("cache-control", "no-store"), ("allow", "GET, HEAD")],
        ),
        None => (TEXT, &[("cache-control", "no-store")]),
    }
}

/// One worker: its own connection to the log, and the prefix (from
/// [`normalize_prefix`]) it serves under.
pub struct MtcHandler {
    /// This worker's connection to the log's records.
    pub store: Box<dyn LogStore>,
    /// The path the log is served under (`/log`; empty for the root).
    pub prefix: String,
    /// The time checkpoints and landmarks are judged at.
    pub clock: Clock,
}

impl MtcHandler {
    /// The answer to `method url` from the log.
    fn answer(&self, method: &Method, url: &str, log: &mut Vec<Value>) -> Answer {
        if !matches!(*method, Method::GET | Method::HEAD) {
            return Answer::error(405, "only GET and HEAD");
        }
        let r = match publish::route(&self.prefix, url) {
            Ok(r) => r,
            Err(e) => return Answer::error(e.status, &e.why),
        };
        let now = self.clock.now();
        match publish::read(
            self.store.as_ref(),
            &r,
            u64::try_from(now.unix).unwrap_or(0),
        ) {
            Ok(Some(body)) => Answer {
                status: 200,
                body,
                resource: Some(r),
            },
            Ok(None) => Answer::error(404, "not in the log's latest checkpoint"),
            Err(e) => {
                log.push(json!({"time": now.to_string(), "event": "error",
                                "path": r.path(), "error": e.to_string()}));
                Answer::error(500, "the log could not be read")
            }
        }
    }
}

impl Handler for MtcHandler {
    fn handle(&mut self, rq: Request<'_>) -> Reply {
        let mut log = Vec::new();
        let a = match rq.body {
            Body::TooLarge => Answer::error(413, "request bodies are limited to 64 KiB"),
            Body::TooSlow => Answer::error(408, "the request body came too slowly"),
            Body::Broken => Answer::error(400, "the request body was cut short"),
            Body::Read(_) => self.answer(rq.method, rq.target, &mut log),
        };
        log.push(json!({
            "time": self.clock.now().to_string(),
            "peer": rq.peer.to_string(),
            "method": rq.method.as_str(),
            "path": rq.target,
            "http": a.status,
            "bytes": a.body.len(),
            "us": rq.received.elapsed().as_micros() as u64,
        }));
        // For HEAD, the server sends the headers GET would (Content-Length included) and
        // leaves the body out itself.
        let (content_type, headers) = headers_of(a.status, a.resource.as_ref());
        Reply {
            status: a.status,
            content_type,
            headers,
            made_headers: Vec::new(),
            body: a.body.into(),
            log,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        assert_eq!(normalize_prefix("").unwrap(), "");
        assert_eq!(normalize_prefix("/").unwrap(), "");
        assert_eq!(normalize_prefix("/mtc/1/").unwrap(), "/mtc/1");
        for bad in ["mtc", "/a/../b", "/a//b", "/a b", "/a?x", "/./a"] {
            assert!(normalize_prefix(bad).is_none(), "{bad}");
        }
    }
}
