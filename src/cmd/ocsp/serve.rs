//! `pkit ocsp serve`: an OCSP responder over HTTP (RFC 6960 Appendix A).
//!
//! POST with an `application/ocsp-request` body, or GET with the base64 request
//! (URL-encoded) as the path; the answer is `application/ocsp-response`. A request that
//! cannot be read gets HTTP 400 with a malformedRequest OCSPResponse as its body, so
//! clients that look at either the HTTP status or the OCSP status see the same thing, and
//! the server keeps going. Requests are answered one at a time on one thread (tiny_http
//! reads connections on its own threads), which keeps one signer and one database
//! connection. SIGINT or SIGTERM stops accepting, finishes the request in hand and
//! exits 0. Every request is logged as one JSON line on stderr.

use super::responder::{load_responder, serial_json, SignerArgs};
use crate::cmd::error::{CliError, CliResult, Exit};
use clap::Args;
use pkit::der::Time;
use pkit::pki::backend::Signer;
use pkit::pki::ca::ocsp::{error_response, Responder};
use pkit::pki::ca::ocsp_answer::{answer, AnswerError, Answered};
use pkit::pki::ca::ocsp_cache::ResponseCache;
use pkit::pki::ca::store::CaStore;
use pkit::pki::ocsp::{decode_get_path, OcspRequest, ResponseStatus};
use serde_json::json;
use std::io::Read;
use std::sync::Arc;
use std::time::Instant;
use tiny_http::{Header, Method, Response};

/// Requests are a few hundred bytes; anything far larger is not one.
const MAX_REQUEST: u64 = 64 * 1024;

/// Distinct certificates whose responses are kept signed.
const CACHE_ENTRIES: usize = 100_000;

#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub signer: SignerArgs,
    /// Address to listen on, e.g. 127.0.0.1:8080.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: String,
}

struct Ctx {
    responder: Responder,
    signer: Box<dyn Signer>,
    store: Box<dyn CaStore>,
    lifetime: i64,
    cache: ResponseCache,
}

pub fn run(a: ServeArgs) -> CliResult<Exit> {
    let (responder, store, lifetime) = load_responder(&a.signer, Time::now())?;
    let signer = responder.signer()?;
    let mut ctx = Ctx {
        responder,
        signer,
        store,
        lifetime,
        cache: ResponseCache::new(CACHE_ENTRIES),
    };
    let server = Arc::new(crate::cmd::http::server(&a.listen)?);
    let watch = {
        let server = Arc::clone(&server);
        crate::cmd::http::SignalWatch::start(move || server.unblock())?
    };
    let addr = server
        .server_addr()
        .to_ip()
        .map_or_else(|| a.listen.clone(), |s| s.to_string());
    eprintln!(
        "{}",
        json!({"time": Time::now().to_string(), "event": "listening", "listen": addr})
    );
    // Built once, not per request.
    let content_type = Header::from_bytes(&b"Content-Type"[..], &b"application/ocsp-response"[..])
        .map_err(|()| CliError::io("building the Content-Type header"))?;
    for mut rq in server.incoming_requests() {
        let start = Instant::now();
        let method = rq.method().to_string();
        let peer = rq.remote_addr().map(|p| p.to_string());
        let (http, answered) = handle(&mut ctx, &mut rq);
        // A client that went away before reading its answer is its own problem.
        let _ = rq.respond(
            Response::from_data(answered.der)
                .with_status_code(http)
                .with_header(content_type.clone()),
        );
        eprintln!(
            "{}",
            json!({
                "time": Time::now().to_string(),
                "peer": peer,
                "method": method,
                "serial": serial_json(&answered.serials),
                "status": answered.status,
                "http": http,
                "cached": answered.cached,
                "us": start.elapsed().as_micros() as u64,
            })
        );
    }
    let sig = watch.finish();
    eprintln!(
        "{}",
        json!({"time": Time::now().to_string(), "event": "shutdown", "signal": sig})
    );
    Ok(Exit::Ok)
}

/// The HTTP status and the OCSP answer for one HTTP request.
fn handle(ctx: &mut Ctx, rq: &mut tiny_http::Request) -> (u16, Answered) {
    let body = match rq.method() {
        Method::Post => {
            let mut v = Vec::new();
            match rq.as_reader().take(MAX_REQUEST + 1).read_to_end(&mut v) {
                Ok(_) if v.len() as u64 > MAX_REQUEST => Err(413),
                Ok(_) => Ok(v),
                Err(_) => Err(400),
            }
        }
        Method::Get => decode_get_path(rq.url()).ok_or(400),
        _ => Err(405),
    };
    let der = match body {
        Ok(d) => d,
        Err(code) => return (code, failed(ResponseStatus::MalformedRequest)),
    };
    let Ok(req) = OcspRequest::from_der(&der) else {
        return (400, failed(ResponseStatus::MalformedRequest));
    };
    let now = Time::now();
    match answer(
        &ctx.responder,
        ctx.signer.as_mut(),
        &*ctx.store,
        &req,
        now,
        ctx.lifetime,
        Some(&mut ctx.cache),
    ) {
        Ok(a) => (200, a),
        Err(AnswerError::Malformed(_)) => (400, failed(ResponseStatus::MalformedRequest)),
        Err(AnswerError::Internal(m)) => {
            eprintln!(
                "{}",
                json!({"time": now.to_string(), "event": "error", "message": m})
            );
            (200, failed(ResponseStatus::InternalError))
        }
    }
}

fn failed(status: ResponseStatus) -> Answered {
    Answered {
        der: error_response(status),
        serials: Vec::new(),
        status: status.name().unwrap_or("error").to_string(),
        cached: false,
    }
}
