//! The HTTP layer pkit's servers (`ocsp serve`, `mtc serve`) share: the listening socket, the
//! worker threads, and every defence against hostile clients, so that each server only
//! turns a [`Request`] into a [`Reply`].
//!
//! The model: [`ServerOptions::threads`] workers, each a single-threaded tokio runtime that accepts
//! from the one listening socket and owns one [`Handler`] (its own database connection,
//! its own signer), so handlers take no locks. Connections are tasks, not threads: an
//! idle or slow client costs a buffer and one of [`ServerOptions::max_connections`] permits, never a
//! thread. A handler runs synchronously on its worker: an answer is CPU work (a look-up,
//! an indexed query, at most one signature), and handing it to another thread would
//! cost more than it takes.
//!
//! HTTP/1.0 and 1.1 themselves are hyper's (see `conn.rs` for why, and for the limits);
//! HTTPS, where asked, is rustls's ([`tls`]).

mod api;
mod conn;
mod error;
mod log;
mod signal;
mod tls;

use api::Limits;
pub use api::{Body, Clock, Handler, Reply, Request, MAX_BODY};
pub use error::ServeError;
pub use hyper::Method;
pub use log::log_line;
use signal::SignalWatch;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;
pub use tls::TlsIdentity;
use tokio::sync::{watch, Semaphore};

/// How a server listens and holds its clients to account.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Address to listen on, e.g. `127.0.0.1:8080`.
    pub listen: String,
    /// Worker threads, each with its own handler; `None`: one per CPU.
    pub threads: Option<usize>,
    /// Connections open at once; further clients wait in the kernel's accept queue.
    pub max_connections: usize,
    /// How long a client has to send a whole request header (and as long again for the
    /// body), and how long an answer may wait for a client that does not read it.
    pub header_timeout: Duration,
    /// Speak HTTPS with this certificate chain and key (PEM): see [`TlsIdentity`](tls::TlsIdentity).
    pub tls: Option<tls::TlsIdentity>,
}

/// Where a server listens, and with how many workers, for its `listening` line.
pub struct Listening {
    /// The address bound (its port the system's choice when `listen` asked for port 0).
    pub addr: SocketAddr,
    /// How many worker threads answer, each with its own handler.
    pub threads: usize,
}

/// Serve `opts.listen` with one handler per worker thread (`make` is called once per
/// worker, before listening, so a handler that cannot be made is an error up front) until
/// SIGINT or SIGTERM; `listening` runs once the socket is bound. The signal that stopped
/// the server, if one did.
pub fn serve<H: Handler + Send, E: From<ServeError>>(
    opts: &ServerOptions,
    mut make: impl FnMut() -> Result<H, E>,
    listening: impl FnOnce(&Listening),
) -> Result<Option<i32>, E> {
    let limits = Limits {
        header_timeout: opts.header_timeout,
        max_body: MAX_BODY,
        tls: opts.tls.as_ref().map(tls::acceptor).transpose()?,
    };
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let handlers = (0..threads)
        .map(|_| make())
        .collect::<Result<Vec<H>, E>>()?;
    let listener = bind(&opts.listen)?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind {
        listen: opts.listen.clone(),
        source,
    })?;
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
    let permits = Arc::new(Semaphore::new(opts.max_connections));
    let results: Vec<Result<(), ServeError>> = std::thread::scope(|s| {
        let workers: Vec<_> = handlers
            .into_iter()
            .map(|handler| {
                let listener = listener.try_clone();
                let (permits, stopped, stop) = (Arc::clone(&permits), stopped.clone(), &stop);
                let limits = &limits;
                s.spawn(move || {
                    let r = listener
                        .map_err(|e| ServeError::io("sharing the listening socket", e))
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
            .map(|w| w.join().unwrap_or(Err(ServeError::WorkerFailed)))
            .collect()
    });
    let sig = watch.finish();
    results
        .into_iter()
        .collect::<Result<Vec<()>, ServeError>>()?;
    Ok(sig)
}

/// The listening socket, non-blocking for tokio.
fn bind(listen: &str) -> Result<TcpListener, ServeError> {
    let failed = |source| ServeError::Bind {
        listen: listen.to_string(),
        source,
    };
    let listener = TcpListener::bind(listen).map_err(failed)?;
    listener.set_nonblocking(true).map_err(failed)?;
    Ok(listener)
}
