//! What a server and the HTTP layer under it exchange: a [`Request`] with its body read,
//! a [`Reply`], the [`Handler`] that turns one into the other, and the limits.

use crate::der::Time;
use hyper::body::Bytes;
use hyper::Method;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Bodies past this are refused (413): an OCSP request is a few hundred bytes, and the
/// log serves GETs only.
pub const MAX_BODY: usize = 64 * 1024;

/// One request, its body read (or refused) already.
pub struct Request<'a> {
    pub method: &'a Method,
    /// The request target as sent: path and query.
    pub target: &'a str,
    /// The Content-Type header, when present and readable.
    pub content_type: Option<&'a str>,
    pub peer: SocketAddr,
    pub body: Body,
    /// When the header had arrived, for the log's timings.
    pub received: Instant,
}

/// A request's body, or why there is none to read.
pub enum Body {
    Read(Bytes),
    /// Longer than [`MAX_BODY`], by its Content-Length or once read that far.
    TooLarge,
    /// Not all there within the header timeout.
    TooSlow,
    /// Broken off, or broken chunked framing.
    Broken,
}

/// What a handler answers.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    /// More headers, by lower-case name (Cache-Control, Allow …).
    pub headers: &'static [(&'static str, &'static str)],
    /// Headers made for this answer (Replay-Nonce, Location, Link …); a name may repeat.
    pub made_headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
    /// The JSON lines the server's log gets for this request, in order (the HTTP layer
    /// writes them, so a handler does no I/O of its own).
    pub log: Vec<Value>,
}

/// Where a handler's "now" comes from: the system clock, or a fixed instant (the fuzz
/// targets, so that an input replays alike whatever the date).
#[derive(Debug, Clone, Copy)]
pub enum Clock {
    System,
    Fixed(Time),
}

impl Clock {
    pub fn now(self) -> Time {
        match self {
            Clock::System => Time::now(),
            Clock::Fixed(t) => t,
        }
    }
}

/// One server's requests to answers: one per worker thread, so `&mut self` is its own.
pub trait Handler: 'static {
    fn handle(&mut self, rq: Request<'_>) -> Reply;
}

/// The limits a worker holds its connections to.
pub(crate) struct Limits {
    pub header_timeout: Duration,
    pub max_body: usize,
    /// Set when connections speak TLS.
    pub tls: Option<tokio_rustls::TlsAcceptor>,
}
