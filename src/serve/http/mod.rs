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

mod answer;
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

/// One address a server listens on.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// Address to listen on, e.g. `127.0.0.1:8080`.
    pub listen: String,
    /// Speak HTTPS there with this certificate chain and key (PEM): see [`TlsIdentity`].
    pub tls: Option<TlsIdentity>,
}

/// How a server listens and holds its clients to account.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Where to listen: one endpoint or more, each plain HTTP or HTTPS, all answered by
    /// the same workers and handlers ([`Request::endpoint`] says which one a request
    /// came in on).
    pub endpoints: Vec<Endpoint>,
    /// Worker threads, each with its own handler; `None`: one per CPU.
    pub threads: Option<usize>,
    /// Connections open at once; further clients wait in the kernel's accept queue.
    pub max_connections: usize,
    /// How long a client has to send a whole request header (and as long again for the
    /// body), and how long an answer may wait for a client that does not read it.
    pub header_timeout: Duration,
    /// The handlers wait on a database server (their state on PostgreSQL): each runs on
    /// a thread of its own beside its worker instead of on it (`answer.rs` says why).
    pub blocking: bool,
}

impl ServerOptions {
    /// Options for one plain HTTP endpoint at `listen`.
    pub fn plain(
        listen: &str,
        threads: Option<usize>,
        max_connections: usize,
        header_timeout: Duration,
    ) -> ServerOptions {
        ServerOptions {
            endpoints: vec![Endpoint {
                listen: listen.to_string(),
                tls: None,
            }],
            threads,
            max_connections,
            header_timeout,
            blocking: false,
        }
    }
}

/// Where a server listens, and with how many workers, for its `listening` line.
pub struct Listening {
    /// The first endpoint's address (its port the system's choice when `listen` asked
    /// for port 0).
    pub addr: SocketAddr,
    /// Every endpoint's address, in the order of [`ServerOptions::endpoints`].
    pub addrs: Vec<SocketAddr>,
    /// How many worker threads answer, each with its own handler.
    pub threads: usize,
}

/// Serve `opts.listen` with one handler per worker thread until SIGINT or SIGTERM. The
/// sockets are bound first, then `make` is called once per worker, before any
/// connection is taken: a handler that cannot be made is an error up front, and set-up
/// that must not be done for nothing (`ca serve` signs its first CRLs in the first call)
/// comes only once the addresses are known to be free. `listening` runs once both are
/// done. The signal that stopped the server, if one did.
pub fn serve<H: Handler + Send, E: From<ServeError>>(
    opts: &ServerOptions,
    mut make: impl FnMut() -> Result<H, E>,
    listening: impl FnOnce(&Listening),
) -> Result<Option<i32>, E> {
    let limits = Limits {
        header_timeout: opts.header_timeout,
        max_body: MAX_BODY,
        beside: opts.blocking,
    };
    let acceptors = opts
        .endpoints
        .iter()
        .map(|e| e.tls.as_ref().map(tls::acceptor).transpose())
        .collect::<Result<Vec<_>, ServeError>>()?;
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let listeners = opts
        .endpoints
        .iter()
        .map(|e| bind(&e.listen))
        .collect::<Result<Vec<_>, ServeError>>()?;
    let handlers = (0..threads)
        .map(|_| make())
        .collect::<Result<Vec<H>, E>>()?;
    let addrs = listeners
        .iter()
        .zip(&opts.endpoints)
        .map(|(l, e)| {
            l.local_addr().map_err(|source| ServeError::Bind {
                listen: e.listen.clone(),
                source,
            })
        })
        .collect::<Result<Vec<_>, ServeError>>()?;
    let Some(&addr) = addrs.first() else {
        return Err(ServeError::NoEndpoint.into());
    };
    let (stop, stopped) = watch::channel(false);
    let stop = Arc::new(stop);
    let watch = {
        let stop = Arc::clone(&stop);
        SignalWatch::start(move || {
            // No receiver left means every worker has stopped already.
            let _ = stop.send(true);
        })?
    };
    listening(&Listening {
        addr,
        addrs: addrs.clone(),
        threads,
    });
    let permits = Arc::new(Semaphore::new(opts.max_connections));
    let results: Vec<Result<(), ServeError>> = std::thread::scope(|s| {
        let workers = handlers
            .into_iter()
            .enumerate()
            .map(|(i, handler)| {
                let mine = listeners
                    .iter()
                    .zip(&acceptors)
                    .map(|(l, tls)| l.try_clone().map(|l| (l, tls.clone())))
                    .collect::<std::io::Result<Vec<_>>>();
                let (permits, stopped, stop) = (Arc::clone(&permits), stopped.clone(), &stop);
                let limits = &limits;
                // Named, so that `top -H` and scripts/bench-acme tell the workers from
                // the validators and the checkpointer.
                std::thread::Builder::new()
                    .name(format!("http-{i}"))
                    .spawn_scoped(s, move || {
                        let r = mine
                            .map_err(|e| ServeError::io("sharing the listening socket", e))
                            .and_then(|l| conn::worker(l, handler, limits, permits, stopped));
                        if r.is_err() {
                            // One worker down stops them all: better no server than half
                            // of one.
                            let _ = stop.send(true);
                        }
                        r
                    })
            })
            .collect::<Vec<_>>();
        if workers.iter().any(Result::is_err) {
            // A thread the system would not start: those started stop too.
            let _ = stop.send(true);
        }
        workers
            .into_iter()
            .map(|w| match w {
                Ok(w) => w.join().unwrap_or(Err(ServeError::WorkerFailed)),
                Err(e) => Err(ServeError::io("starting a worker", e)),
            })
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
