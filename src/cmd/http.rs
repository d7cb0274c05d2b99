//! The listening socket of pkit's HTTP servers (`ocsp serve`, `mtc serve`).
//!
//! tiny_http writes a response's head and body in separate writes. With Nagle's
//! algorithm on, the body then waits for the client to acknowledge the head, and a client
//! that delays its acknowledgement (Linux: up to 40 ms) holds every answer on a
//! persistent connection that long — 25 requests a second per connection. The listening
//! socket gets TCP_NODELAY, which Linux passes on to the connections it accepts.

use super::error::{CliError, CliResult};
use std::net::TcpListener;
use tiny_http::Server;

/// An HTTP server listening on `listen` (ADDR:PORT).
pub fn server(listen: &str) -> CliResult<Server> {
    let failed = |e: &dyn std::fmt::Display| CliError::io(format!("--listen {listen}: {e}"));
    let listener = TcpListener::bind(listen).map_err(|e| failed(&e))?;
    #[cfg(target_os = "linux")]
    rustix::net::sockopt::set_tcp_nodelay(&listener, true).map_err(|e| failed(&e))?;
    Server::from_listener(listener, None).map_err(|e| failed(&e))
}
