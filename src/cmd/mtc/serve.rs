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
//! other than GET or HEAD 405. Worker threads each hold a database connection; SIGINT or
//! SIGTERM stops accepting, finishes the requests in hand and exits 0. Every request is
//! logged as one JSON line on stderr.

use super::common::{mtc_err, open_store};
use crate::cmd::error::{CliError, CliResult, Exit};
use clap::Args;
use pkit::der::Time;
use pkit::mtc::publish::{self, Resource};
use pkit::mtc::store::LogStore;
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tiny_http::{Header, Method, Response, Server};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The MTC CA directory.
    #[arg(long)]
    pub dir: PathBuf,
    /// Address to listen on, e.g. 127.0.0.1:8080.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: String,
    /// The log's path on the server (mtc-tlog: the CA prefix URL's path and the log
    /// number, e.g. /mtc/1). Default: the root.
    #[arg(long, value_name = "PATH", default_value = "")]
    pub prefix: String,
    /// Worker threads, each with its own database connection (default: twice the CPUs).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=512))]
    pub threads: Option<u16>,
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
    if !matches!(method, Method::Get | Method::Head) {
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
            eprintln!(
                "{}",
                json!({"time": Time::now().to_string(), "event": "error", "path": r.path(), "error": e.to_string()})
            );
            Answer::error(500, "the log could not be read")
        }
    }
}

/// The response headers, built (and checked) once, not per request: tlog-tiles wants the
/// checkpoint as text and tiles and bundles as octets (mtc-tlog's landmark list is
/// text); every tile and bundle is immutable (a partial one is named by its width).
struct Headers {
    text: Header,
    octets: Header,
    immutable: Header,
    checkpoint: Header,
    landmarks: Header,
    no_store: Header,
}

impl Headers {
    fn new() -> CliResult<Headers> {
        let h = |name: &str, value: &str| {
            Header::from_bytes(name.as_bytes(), value.as_bytes())
                .map_err(|()| CliError::io(format!("building the {name} header")))
        };
        Ok(Headers {
            text: h("Content-Type", "text/plain; charset=utf-8")?,
            octets: h("Content-Type", "application/octet-stream")?,
            immutable: h("Cache-Control", "public, max-age=31536000, immutable")?,
            checkpoint: h("Cache-Control", "public, max-age=2")?,
            landmarks: h("Cache-Control", "public, max-age=60")?,
            no_store: h("Cache-Control", "no-store")?,
        })
    }

    /// Content-Type and Cache-Control of an answer: the resource's, or an error's.
    fn of(&self, r: Option<&Resource>) -> [Header; 2] {
        match r {
            Some(Resource::Tile(_)) => [self.octets.clone(), self.immutable.clone()],
            Some(Resource::Checkpoint) => [self.text.clone(), self.checkpoint.clone()],
            Some(Resource::Landmarks) => [self.text.clone(), self.landmarks.clone()],
            None => [self.text.clone(), self.no_store.clone()],
        }
    }
}

/// Why the workers stop: a signal, or the server failing to accept connections.
struct Stop {
    requested: AtomicBool,
    threads: usize,
}

impl Stop {
    fn now(&self, server: &Server) {
        self.requested.store(true, Ordering::SeqCst);
        // One wake-up per worker blocked in recv.
        for _ in 0..self.threads {
            server.unblock();
        }
    }
}

/// One worker: its own connection, requests until the server is stopped. A failure to
/// receive that no stop asked for (tiny_http's accept loop gives up when, say, file
/// descriptors run out) stops every worker and is returned, so the process exits
/// non-zero instead of staying up and serving nothing.
fn work(
    server: &Server,
    stop: &Stop,
    headers: &Headers,
    dir: &std::path::Path,
    prefix: &str,
) -> CliResult<()> {
    let store = match open_store(dir) {
        Ok((store, _)) => store,
        Err(e) => {
            stop.now(server);
            return Err(e);
        }
    };
    loop {
        let rq = match server.recv() {
            Ok(rq) => rq,
            Err(_) if stop.requested.load(Ordering::SeqCst) => return Ok(()),
            Err(e) => {
                eprintln!(
                    "{}",
                    json!({"time": Time::now().to_string(), "event": "error", "error": e.to_string()})
                );
                stop.now(server);
                return Err(CliError::io(format!("receiving requests: {e}")));
            }
        };
        let start = Instant::now();
        let method = rq.method().clone();
        let url = rq.url().to_string();
        let peer = rq.remote_addr().map(|p| p.to_string());
        let a = answer(store.as_ref(), prefix, &method, &url);
        let len = a.body.len();
        // For HEAD, tiny_http sends the headers GET would (Content-Length included) and
        // leaves the body out itself.
        let mut resp = Response::from_data(a.body).with_status_code(a.status);
        for h in headers.of(a.resource.as_ref()) {
            resp.add_header(h);
        }
        // A client that went away before reading its answer is its own problem.
        let _ = rq.respond(resp);
        // The whole line in one write: stderr is unbuffered, and workers share it.
        let line = format!(
            "{}\n",
            json!({
                "time": Time::now().to_string(),
                "peer": peer,
                "method": method.to_string(),
                "path": url,
                "http": a.status,
                "bytes": len,
                "us": start.elapsed().as_micros() as u64,
            })
        );
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    }
}

pub fn run(a: ServeArgs) -> CliResult<Exit> {
    let prefix = normalize_prefix(&a.prefix)?;
    // Opened once here so that a missing or foreign database is an error before listening.
    let (store, name) = open_store(&a.dir)?;
    let origin = publish::checkpoint(store.as_ref())
        .map_err(mtc_err(&name))?
        .and_then(|(_, note)| note.lines().next().map(str::to_string));
    drop(store);
    let threads = a.threads.map_or_else(
        || std::thread::available_parallelism().map_or(2, |n| n.get() * 2),
        usize::from,
    );
    let headers = Headers::new()?;
    let server = Arc::new(crate::cmd::http::server(&a.listen)?);
    let stop = Arc::new(Stop {
        requested: AtomicBool::new(false),
        threads,
    });
    let watch = {
        let (server, stop) = (Arc::clone(&server), Arc::clone(&stop));
        crate::cmd::http::SignalWatch::start(move || stop.now(&server))?
    };
    let addr = server
        .server_addr()
        .to_ip()
        .map_or_else(|| a.listen.clone(), |s| s.to_string());
    eprintln!(
        "{}",
        json!({"time": Time::now().to_string(), "event": "listening", "listen": addr,
               "prefix": if prefix.is_empty() { "/" } else { prefix.as_str() },
               "origin": origin, "threads": threads})
    );
    let results: Vec<CliResult<()>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| s.spawn(|| work(&server, &stop, &headers, &a.dir, &prefix)))
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(CliError::io("a worker thread failed")))
            })
            .collect()
    });
    let sig = watch.finish();
    eprintln!(
        "{}",
        json!({"time": Time::now().to_string(), "event": "shutdown", "signal": sig})
    );
    results.into_iter().collect::<CliResult<Vec<()>>>()?;
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
