//! What pkit's HTTP servers (`ocsp serve`, `mtc serve`) share: the listening socket, the
//! worker threads, and every defence against hostile clients, so that each server only
//! turns a [`Request`] into a [`Reply`].
//!
//! The model: `--threads` workers, each a single-threaded tokio runtime that accepts
//! from the one listening socket and owns one [`Handler`] (its own database connection,
//! its own signer), so handlers take no locks. Connections are tasks, not threads: an
//! idle or slow client costs a buffer and one of `--max-connections` permits, never a
//! thread. A handler runs synchronously on its worker: an answer is CPU work (a look-up,
//! an indexed query, at most one signature), and handing it to another thread would
//! cost more than it takes.
//!
//! HTTP/1.0 and 1.1 themselves are hyper's (see `conn.rs` for why, and for the limits).

mod api;
mod conn;
mod log;
mod signal;

use super::ca_dir::parse_duration;
use super::error::{CliError, CliResult};
use api::Limits;
pub use api::{Body, Handler, Reply, Request, MAX_BODY};
use clap::Args;
pub use hyper::Method;
pub use log::log_line;
use signal::SignalWatch;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// The server options both servers take.
#[derive(Args, Debug)]
pub struct HttpArgs {
    /// Address to listen on, e.g. 127.0.0.1:8080.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: String,
    /// Worker threads, each with its own database connection (and, for `ocsp serve`,
    /// its own signer); connections are spread over them (default: one per CPU).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=512))]
    pub threads: Option<u16>,
    /// Connections open at once; further clients wait in the kernel's accept queue
    /// until one closes. This bounds memory: a connection holds at most a 32 KiB read
    /// buffer, a 64 KiB request body and the answer it is sending.
    #[arg(long, value_name = "N", default_value_t = 512,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_connections: u32,
    /// How long a client has to send a whole request header, counted from the
    /// connection's opening or from the previous answer (and as long again for the
    /// body), and how long an answer may wait for a client that does not read it; past
    /// it the connection is closed.
    #[arg(long, value_name = "DURATION", default_value = "10s")]
    pub header_timeout: String,
}

/// The text every server's man page carries on how it meets clients.
pub const BEHAVIOUR_HELP: &str = "HTTP: HTTP/1.1 and HTTP/1.0, persistent connections \
for both (HTTP/1.0 with `Connection: keep-alive`, as `ab -k` sends it, is answered with \
`Connection: keep-alive` and a Content-Length). Limits against hostile clients: a request \
header must arrive within --header-timeout of the connection opening or of the previous \
answer (and its body within as long again), else the connection is closed without an \
answer, and so is one whose answers have not been read for as long; a header over 16 KiB \
gets 431; a body over 64 KiB gets 413 — from Content-Length \
before any of it is read, or once a chunked body passes the limit — and the connection is \
closed; an unparsable request line or header gets 400 and the connection is closed; at \
most --max-connections connections are open at once, more wait in the kernel's queue. \
SIGINT or SIGTERM stops accepting, finishes the answers in hand (waiting at most 5 s), \
closes the connections with none and exits 0.";

/// Where a server listens, and with how many workers, for its `listening` line.
pub struct Listening {
    pub addr: SocketAddr,
    pub threads: usize,
}

/// Serve `args.listen` with one handler per worker thread (`make` is called once per
/// worker, before listening, so a handler that cannot be made is an error up front) until
/// SIGINT or SIGTERM; `listening` runs once the socket is bound. The signal that stopped
/// the server, if one did.
pub fn serve<H: Handler + Send>(
    args: &HttpArgs,
    mut make: impl FnMut() -> CliResult<H>,
    listening: impl FnOnce(&Listening),
) -> CliResult<Option<i32>> {
    let header_timeout = parse_duration("--header-timeout", &args.header_timeout)?;
    let limits = Limits {
        header_timeout: Duration::from_secs(header_timeout.unsigned_abs()),
        max_body: MAX_BODY,
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(2, |n| n.get()),
        usize::from,
    );
    let handlers = (0..threads)
        .map(|_| make())
        .collect::<CliResult<Vec<H>>>()?;
    let listener = bind(&args.listen)?;
    let addr = listener
        .local_addr()
        .map_err(|e| CliError::io(format!("--listen {}: {e}", args.listen)))?;
    let (stop, stopped) = watch::channel(false);
    let stop = Arc::new(stop);
    let watch = {
        let stop = Arc::clone(&stop);
        SignalWatch::start(move || {
            // No receiver left means every worker has stopped already.
            let _ = stop.send(true);
        })?
    };
    listening(&Listening { addr, threads });
    let permits = Arc::new(Semaphore::new(args.max_connections as usize));
    let results: Vec<CliResult<()>> = std::thread::scope(|s| {
        let workers: Vec<_> = handlers
            .into_iter()
            .map(|handler| {
                let listener = listener.try_clone();
                let (permits, stopped, stop) = (Arc::clone(&permits), stopped.clone(), &stop);
                let limits = &limits;
                s.spawn(move || {
                    let r = listener
                        .map_err(|e| CliError::io(format!("sharing the listening socket: {e}")))
                        .and_then(|l| conn::worker(l, handler, limits, permits, stopped));
                    if r.is_err() {
                        // One worker down stops them all: better no server than half of one.
                        let _ = stop.send(true);
                    }
                    r
                })
            })
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
    results.into_iter().collect::<CliResult<Vec<()>>>()?;
    Ok(sig)
}

/// The listening socket, non-blocking for tokio.
fn bind(listen: &str) -> CliResult<TcpListener> {
    let failed = |e: std::io::Error| CliError::io(format!("--listen {listen}: {e}"));
    let listener = TcpListener::bind(listen).map_err(failed)?;
    listener.set_nonblocking(true).map_err(failed)?;
    Ok(listener)
}
