//! `pkit mtc serve`: the issuance log over HTTP as a tiled transparency log
//! (c2sp.org/tlog-tiles, with c2sp.org/mtc-tlog's landmark list): `checkpoint`,
//! `landmarks`, `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]` under `--prefix`.
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
//! other than GET or HEAD 405, a request body over 64 KiB 413. Worker threads (`cmd/http`)
//! each hold a database connection. Every request is logged as one JSON line on stderr.

use super::common::{mtc_err, open_store};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::http::{self, Body, HttpArgs, Method, Reply, Request};
use clap::Args;
use pkit::der::Time;
use pkit::mtc::publish::{self, Resource};
use pkit::mtc::store::LogStore;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(after_long_help = http::BEHAVIOUR_HELP)]
pub struct ServeArgs {
    /// The MTC CA directory.
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// The log's path on the server (mtc-tlog: the CA prefix URL's path and the log
    /// number, e.g. /mtc/1). Default: the root.
    #[arg(long, value_name = "PATH", default_value = "")]
    pub prefix: String,
    #[command(flatten)]
    pub http: HttpArgs,
}

/// `--prefix` as a path that requests start with: "" or "/a/b" (no trailing slash).
fn normalize_prefix(p: &str) -> CliResult<String> {
    let p = p.trim_end_matches('/');
    if p.is_empty() {
        return Ok(String::new());
    }
    let ok = p.starts_with('/')
        && p.split('/')
            .skip(1)
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
        && p.bytes()
            .all(|b| b.is_ascii_graphic() && b != b'?' && b != b'#');
    if !ok {
        return Err(CliError::usage(format!(
            "--prefix {p}: a path such as /mtc/1 (segments of printable characters, no . or ..)"
        )));
    }
    Ok(p.to_string())
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

/// The answer to `method url` from `store`.
fn answer(store: &dyn LogStore, prefix: &str, method: &Method, url: &str) -> Answer {
    if !matches!(*method, Method::GET | Method::HEAD) {
        return Answer::error(405, "only GET and HEAD");
    }
    let r = match publish::route(prefix, url) {
        Ok(r) => r,
        Err(e) => return Answer::error(e.status, &e.why),
    };
    let now = u64::try_from(Time::now().unix).unwrap_or(0);
    match publish::read(store, &r, now) {
        Ok(Some(body)) => Answer {
            status: 200,
            body,
            resource: Some(r),
        },
        Ok(None) => Answer::error(404, "not in the log's latest checkpoint"),
        Err(e) => {
            http::log_line(&json!({"time": Time::now().to_string(), "event": "error",
                                   "path": r.path(), "error": e.to_string()}));
            Answer::error(500, "the log could not be read")
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

/// One worker: its own connection to the log.
struct Worker {
    store: Box<dyn LogStore>,
    prefix: String,
}

impl http::Handler for Worker {
    fn handle(&mut self, rq: Request<'_>) -> Reply {
        let a = match rq.body {
            Body::TooLarge => Answer::error(413, "request bodies are limited to 64 KiB"),
            Body::TooSlow => Answer::error(408, "the request body came too slowly"),
            Body::Broken => Answer::error(400, "the request body was cut short"),
            Body::Read(_) => answer(self.store.as_ref(), &self.prefix, rq.method, rq.target),
        };
        http::log_line(&json!({
            "time": Time::now().to_string(),
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
            body: a.body,
        }
    }
}

pub fn run(a: ServeArgs) -> CliResult<Exit> {
    let prefix = normalize_prefix(&a.prefix)?;
    // Opened here first so that a missing or foreign database is an error before
    // listening; that connection serves the first worker.
    let (store, name) = open_store(&a.dir, &a.db)?;
    let origin = publish::checkpoint(store.as_ref())
        .map_err(mtc_err(&name))?
        .and_then(|(_, note)| note.lines().next().map(str::to_string));
    let mut first = Some(store);
    let make = || {
        let store = match first.take() {
            Some(s) => s,
            None => open_store(&a.dir, &a.db)?.0,
        };
        Ok(Worker {
            store,
            prefix: prefix.clone(),
        })
    };
    let sig = http::serve(&a.http, make, |l| {
        http::log_line(
            &json!({"time": Time::now().to_string(), "event": "listening",
               "listen": l.addr.to_string(),
               "prefix": if prefix.is_empty() { "/" } else { prefix.as_str() },
               "origin": origin, "threads": l.threads}),
        );
    })?;
    http::log_line(&json!({"time": Time::now().to_string(), "event": "shutdown", "signal": sig}));
    Ok(Exit::Ok)
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
            assert!(normalize_prefix(bad).is_err(), "{bad}");
        }
    }
}
