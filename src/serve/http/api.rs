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
    /// The HTTP method.
    pub method: &'a Method,
    /// The request target as sent: path and query.
    pub target: &'a str,
    /// The Content-Type header, when present and readable.
    pub content_type: Option<&'a str>,
    /// The Accept header, when present and readable (`/metrics` answers in the format
    /// asked for).
    pub accept: Option<&'a str>,
    /// The client's address, for the log.
    pub peer: SocketAddr,
    /// Which of [`ServerOptions::endpoints`](super::ServerOptions::endpoints) the
    /// connection came in on (0 for a server with one).
    pub endpoint: usize,
    /// The body, read whole within [`MAX_BODY`] and the header timeout, or why not.
    pub body: Body,
    /// When the header had arrived, for the log's timings.
    pub received: Instant,
}

/// A request's body, or why there is none to read.
pub enum Body {
    /// The whole body (empty when the request had none).
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
    /// The HTTP status code.
    pub status: u16,
    /// The Content-Type of `body`.
    pub content_type: &'static str,
    /// More headers, by lower-case name (Cache-Control, Allow …).
    pub headers: &'static [(&'static str, &'static str)],
    /// Headers made for this answer (Replay-Nonce, Location, Link …); a name may repeat.
    pub made_headers: Vec<(&'static str, String)>,
    /// The body, sent with its Content-Length (none for HEAD). `Bytes`, so that a large
    /// body served to many clients (a CRL) is shared, not copied per request.
    pub body: Bytes,
    /// The JSON lines the server's log gets for this request, in order (the HTTP layer
    /// writes them, so a handler does no I/O of its own).
    pub log: Vec<Value>,
}

/// Where a handler's "now" comes from: the system clock, or a fixed instant (the fuzz
/// targets, so that an input replays alike whatever the date).
#[derive(Debug, Clone, Copy)]
pub enum Clock {
    /// The system's clock, read at each request.
    System,
    /// Always this instant.
    Fixed(Time),
}

impl Clock {
    /// The time a handler answers at.
    pub fn now(self) -> Time {
        match self {
            Clock::System => Time::now(),
            Clock::Fixed(t) => t,
        }
    }
}

/// One server's requests to answers: one per worker thread, so `&mut self` is its own.
pub trait Handler: 'static {
    /// The answer to one request; errors are answers too (a 4xx or 5xx [`Reply`]).
    fn handle(&mut self, rq: Request<'_>) -> Reply;
}

/// The limits a worker holds its connections to.
pub(crate) struct Limits {
    pub header_timeout: Duration,
    pub max_body: usize,
    /// [`ServerOptions::blocking`](super::ServerOptions::blocking).
    pub beside: bool,
}
