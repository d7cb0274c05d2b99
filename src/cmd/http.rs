//! The listening socket of pkit's HTTP servers (`ocsp serve`, `mtc serve`).
//!
//! tiny_http writes a response's head and body in separate writes. With Nagle's
//! algorithm on, the body then waits for the client to acknowledge the head, and a client
//! that delays its acknowledgement (Linux: up to 40 ms) holds every answer on a
//! persistent connection that long — 25 requests a second per connection. The listening
//! socket gets TCP_NODELAY, which Linux passes on to the connections it accepts.

use super::error::{CliError, CliResult};
use std::net::TcpListener;
use std::thread::JoinHandle;
use tiny_http::Server;

/// An HTTP server listening on `listen` (ADDR:PORT).
pub fn server(listen: &str) -> CliResult<Server> {
    let failed = |e: &dyn std::fmt::Display| CliError::io(format!("--listen {listen}: {e}"));
    let listener = TcpListener::bind(listen).map_err(|e| failed(&e))?;
    #[cfg(target_os = "linux")]
    rustix::net::sockopt::set_tcp_nodelay(&listener, true).map_err(|e| failed(&e))?;
    Server::from_listener(listener, None).map_err(|e| failed(&e))
}

/// Watches for SIGINT and SIGTERM while a server runs: on the first, `stop` runs (it
/// unblocks the server's receivers). [`SignalWatch::finish`] ends the watch and says
/// which signal came, if one did.
pub struct SignalWatch {
    handle: signal_hook::iterator::Handle,
    thread: JoinHandle<Option<i32>>,
}

impl SignalWatch {
    pub fn start(stop: impl FnOnce() + Send + 'static) -> CliResult<SignalWatch> {
        let mut signals = signal_hook::iterator::Signals::new([
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
        ])
        .map_err(|e| CliError::io(format!("installing signal handlers: {e}")))?;
        let handle = signals.handle();
        let thread = std::thread::spawn(move || {
            let sig = signals.forever().next();
            if sig.is_some() {
                stop();
            }
            sig
        });
        Ok(SignalWatch { handle, thread })
    }

    /// Stop watching; the signal that stopped the server, if any.
    pub fn finish(self) -> Option<i32> {
        self.handle.close();
        self.thread.join().ok().flatten()
    }
}
