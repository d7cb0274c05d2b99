//! One worker's accept loop and its connections: HTTP/1.x from hyper, and the limits that
//! keep hostile clients from starving the others.
//!
//! Why hyper, not tiny_http (which these servers used first): tiny_http 0.12 answered an
//! HTTP/1.0 request carrying `Connection: keep-alive` without saying `Connection:
//! keep-alive` and then kept the socket open, so a client that took HTTP/1.0 at its word
//! (ab -k) waited for a close that never came; it gave every connection a thread of its
//! own with no upper bound (500 connections that never finished their header: 497
//! threads, none ever reclaimed), had no header timeout, and read a header line of any
//! length into memory (one 100 MiB line: 326 MB resident). hyper keeps both HTTP
//! versions' persistent connections right and has a header timeout, header size and
//! count limits and a bounded read buffer; tokio gives connections that cost no thread.
//! What is ours is the policy: how many connections, how long, how large a body.

use super::answer::Answerer;
use super::api::{Body, Handler, Limits, Reply, Request};
use super::error::ServeError;
use super::log::{self, log_line};
use crate::der::Time;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Body as _, Bytes, Incoming};
use hyper::header::{HeaderName, HeaderValue, CONNECTION, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::StatusCode;
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::{json, Value};
use std::cell::Cell;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::pin;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio_io_timeout::TimeoutStream;

/// A request header (request line included) past this gets 431: pkit's requests are a
/// line and a few headers, and a GET carrying an OCSP request in its path is a few
/// hundred bytes.
const MAX_HEADER: usize = 16 * 1024;

/// hyper's read buffer per connection (its floor is 8 KiB; its default, about 400 KiB,
/// times the connection limit would be a lot of memory for nothing).
const READ_BUFFER: usize = 2 * MAX_HEADER;

/// After a stop, how long connections have to finish the answers in hand.
const GRACE: Duration = Duration::from_secs(5);

/// After a stop, how long a connection with no request in hand has to finish sending the
/// answer it may just have made.
const LAST_WRITE: Duration = Duration::from_millis(250);

/// After a failed accept (file descriptors or memory ran out), how long to wait before
/// the next, so that the failure is not retried in a busy loop.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Run one worker on this thread until `stopped` says stop: accept from every listener,
/// serve, then give the connections in hand [`GRACE`] to finish.
pub(crate) fn worker<H: Handler + Send>(
    listeners: Vec<(std::net::TcpListener, Option<tokio_rustls::TlsAcceptor>)>,
    handler: H,
    limits: &Limits,
    permits: Arc<Semaphore>,
    stopped: watch::Receiver<bool>,
) -> Result<(), ServeError> {
    log::gather();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .on_thread_park(log::flush)
        .build()
        .map_err(|e| ServeError::io("starting a worker", e))?;
    let local = tokio::task::LocalSet::new();
    let answer = Answerer::new(handler, limits.beside)
        .map_err(|e| ServeError::io("starting a worker's handler thread", e))?;
    let shared = Rc::new(Shared {
        answer,
        builder: builder(limits.header_timeout),
        header_timeout: limits.header_timeout,
        max_body: limits.max_body,
    });
    local.block_on(&rt, async {
        let mut loops = Vec::with_capacity(listeners.len());
        for (endpoint, (listener, tls)) in listeners.into_iter().enumerate() {
            let listener = TcpListener::from_std(listener)
                .map_err(|e| ServeError::io("registering the listening socket", e))?;
            let on = Endpoint {
                index: endpoint,
                tls,
            };
            loops.push(tokio::task::spawn_local(accept_loop(
                listener,
                on,
                Rc::clone(&shared),
                Arc::clone(&permits),
                stopped.clone(),
            )));
        }
        for l in loops {
            let _ = l.await;
        }
        Ok::<(), ServeError>(())
    })?;
    // The connections were told to stop with the accept loops; `local` completes when the
    // last of them has.
    rt.block_on(async {
        let _ = tokio::time::timeout(GRACE, local).await;
    });
    log::flush();
    Ok(())
}

/// What a worker's connections share.
struct Shared<H> {
    answer: Answerer<H>,
    builder: http1::Builder,
    header_timeout: Duration,
    max_body: usize,
}

/// Which of the server's endpoints a connection came in on, and its TLS when it speaks
/// HTTPS.
#[derive(Clone)]
struct Endpoint {
    index: usize,
    tls: Option<tokio_rustls::TlsAcceptor>,
}

fn builder(header_timeout: Duration) -> http1::Builder {
    let mut b = http1::Builder::new();
    b.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_header_size(MAX_HEADER)
        .max_buf_size(READ_BUFFER);
    b
}

async fn accept_loop<H: Handler>(
    listener: TcpListener,
    on: Endpoint,
    shared: Rc<Shared<H>>,
    permits: Arc<Semaphore>,
    mut stopped: watch::Receiver<bool>,
) {
    loop {
        // A permit first: at the limit, clients wait in the kernel's accept queue, costing
        // this process nothing.
        let permit = tokio::select! {
            biased;
            _ = stopped.changed() => return,
            p = Arc::clone(&permits).acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => return,
            },
        };
        let accepted = tokio::select! {
            biased;
            _ = stopped.changed() => return,
            a = listener.accept() => a,
        };
        match accepted {
            Ok((sock, peer)) => {
                tokio::task::spawn_local(connection(
                    sock,
                    peer,
                    on.clone(),
                    Rc::clone(&shared),
                    permit,
                    stopped.clone(),
                ));
            }
            Err(e) => {
                log_line(&json!({"time": Time::now().to_string(), "event": "error",
                                 "error": format!("accepting a connection: {e}")}));
                tokio::time::sleep(ACCEPT_BACKOFF).await;
            }
        }
    }
}

/// Serve one connection until the client closes it, a limit closes it, or a stop.
async fn connection<H: Handler>(
    sock: TcpStream,
    peer: SocketAddr,
    on: Endpoint,
    shared: Rc<Shared<H>>,
    permit: OwnedSemaphorePermit,
    mut stopped: watch::Receiver<bool>,
) {
    // Each answer goes out in one write; without this a client's delayed acknowledgement
    // could hold the next answer on a persistent connection (Nagle).
    let _ = sock.set_nodelay(true);
    // Whether a request is being read or answered, for a stop to wait for it.
    let in_hand = Rc::new(Cell::new(false));
    let endpoint = on.index;
    let service = {
        let (shared, in_hand) = (Rc::clone(&shared), Rc::clone(&in_hand));
        service_fn(move |rq| {
            let (shared, in_hand) = (Rc::clone(&shared), Rc::clone(&in_hand));
            in_hand.set(true);
            async move {
                let r = exchange(&shared, rq, peer, endpoint).await;
                in_hand.set(false);
                Ok::<_, Infallible>(r)
            }
        })
    };
    // hyper times a request's header but not its own writes: a client that sends requests
    // and never reads the answers would hold its connection forever.
    let mut io = TimeoutStream::new(sock);
    io.set_write_timeout(Some(shared.header_timeout));
    let io = Box::pin(io);
    match &on.tls {
        None => serve_io(TokioIo::new(io), &shared, service, &in_hand, &mut stopped).await,
        Some(acceptor) => {
            // The handshake within the header timeout, or the connection is closed: a
            // client that opens and says nothing costs no more under TLS.
            if let Ok(Ok(tls)) =
                tokio::time::timeout(shared.header_timeout, acceptor.accept(io)).await
            {
                serve_io(TokioIo::new(tls), &shared, service, &in_hand, &mut stopped).await;
            }
        }
    }
    drop(permit);
}

/// HTTP/1 on one connection's stream (plain or TLS) until it ends or the server stops.
async fn serve_io<H, I, S>(
    io: I,
    shared: &Shared<H>,
    service: S,
    in_hand: &Cell<bool>,
    stopped: &mut watch::Receiver<bool>,
) where
    H: Handler,
    I: hyper::rt::Read + hyper::rt::Write + Unpin + 'static,
    S: hyper::service::HttpService<Incoming, ResBody = Full<Bytes>>,
{
    let mut conn = pin!(shared.builder.serve_connection(io, service));
    tokio::select! {
        // A connection that fails (a timeout, a client gone) is simply closed.
        _ = conn.as_mut() => {}
        _ = stopped.changed() => {
            // Answer what is in hand and close. hyper closes an idle persistent
            // connection at once but would go on reading a header that has not ended (or
            // not begun) until the header timeout: such a connection gets only the time to
            // send an answer already made.
            conn.as_mut().graceful_shutdown();
            if in_hand.get() {
                let _ = conn.await;
            } else {
                let _ = tokio::time::timeout(LAST_WRITE, conn).await;
            }
        }
    }
}

/// One request: its body read within the limits, then the handler's answer.
async fn exchange<H: Handler>(
    shared: &Shared<H>,
    rq: hyper::Request<Incoming>,
    peer: SocketAddr,
    endpoint: usize,
) -> hyper::Response<Full<Bytes>> {
    let received = Instant::now();
    let (parts, body) = rq.into_parts();
    let body = read_body(body, shared.max_body, shared.header_timeout).await;
    // Whatever the client sent after a body that was not read whole cannot be trusted to
    // start a request.
    let close = !matches!(body, Body::Read(_));
    let mut reply = shared
        .answer
        .answer(Request {
            method: &parts.method,
            target: parts.uri.path_and_query().map_or("/", |p| p.as_str()),
            content_type: parts
                .headers
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok()),
            accept: parts
                .headers
                .get(hyper::header::ACCEPT)
                .and_then(|v| v.to_str().ok()),
            peer,
            endpoint,
            body,
            received,
        })
        .await;
    for line in std::mem::take(&mut reply.log) {
        log_line(&stamped(line));
    }
    response(reply, close)
}

/// A handler's log line with the time first, when the handler left it out: every line a
/// server writes says when, whoever made it.
fn stamped(line: Value) -> Value {
    match line {
        Value::Object(fields) if !fields.contains_key("time") => {
            let mut out = serde_json::Map::with_capacity(fields.len() + 1);
            out.insert("time".into(), Time::now().to_string().into());
            out.extend(fields);
            Value::Object(out)
        }
        other => other,
    }
}

/// The body, at most `max` bytes within `timeout`: refused unread when its Content-Length
/// says it is longer.
async fn read_body(body: Incoming, max: usize, timeout: Duration) -> Body {
    if body.is_end_stream() {
        return Body::Read(Bytes::new());
    }
    if body.size_hint().lower() > max as u64 {
        return Body::TooLarge;
    }
    match tokio::time::timeout(timeout, Limited::new(body, max).collect()).await {
        Err(_) => Body::TooSlow,
        Ok(Ok(collected)) => Body::Read(collected.to_bytes()),
        Ok(Err(e)) if e.is::<LengthLimitError>() => Body::TooLarge,
        Ok(Err(_)) => Body::Broken,
    }
}

fn response(reply: Reply, close: bool) -> hyper::Response<Full<Bytes>> {
    let mut r = hyper::Response::new(Full::new(reply.body));
    *r.status_mut() =
        StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
    for (name, value) in reply.headers {
        if let Ok(name) = HeaderName::from_bytes(name.as_bytes()) {
            h.insert(name, HeaderValue::from_static(value));
        }
    }
    for (name, value) in reply.made_headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&value),
        ) {
            h.append(name, value);
        }
    }
    if close {
        h.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_says_when() {
        let line = stamped(json!({"event": "request", "status": 200}));
        let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["time", "event", "status"]);
        let kept = stamped(json!({"time": "2026-01-01T00:00:00Z", "event": "x"}));
        assert_eq!(kept["time"], "2026-01-01T00:00:00Z");
    }
}
