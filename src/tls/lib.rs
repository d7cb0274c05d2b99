//! TLS on the OpenSSL pkit links, for the two places pkit speaks it as a client:
//!
//! - [`client`]: a handshake over a byte stream the caller opened, for the chain a
//!   server sends (`pkit verify --connect`); the chain is taken, not judged;
//! - [`connect`]: that stream opened: `HOST[:PORT]`, the TCP connection to it within a
//!   time limit, and the chain a handshake over it brings back;
//! - [`pg`]: the `MakeTlsConnect` pkit hands the `postgres` client, with
//!   [`pg_verify`] deciding, during the handshake and as libpq's
//!   `sslmode=verify-ca|verify-full` would, whether the server may be talked to.
//!
//! OpenSSL runs over memory BIO pairs in [`client`] and [`pg`], so the handshakes do no
//! network I/O of their own; the one connection this crate opens is [`connect`]'s.
//! `unsafe` is allowed here, as in the backends: one FFI call, in the private `ffi`
//! module.
//!
//! A server that speaks no TLS ends the handshake with an error naming whose doing it
//! was:
//!
//! ```
//! use pkit_tls::client::{peer_chain, ClientError};
//! use std::io::Cursor;
//!
//! // A "server" that answers the ClientHello with 11 bytes of plain text.
//! struct Plain(Cursor<Vec<u8>>);
//! impl std::io::Read for Plain {
//!     fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> { self.0.read(b) }
//! }
//! impl std::io::Write for Plain {
//!     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { Ok(b.len()) }
//!     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! }
//! let mut server = Plain(Cursor::new(b"hello world".to_vec()));
//! let err = peer_chain(&mut server, Some("example.com")).unwrap_err();
//! assert!(matches!(err, ClientError::Peer(_)), "{err}");
//! ```

#![deny(missing_docs, unreachable_pub)]

pub mod client;
pub mod connect;
// Only the PostgreSQL check explains a refused certificate, with OpenSSL's own text.
#[cfg(feature = "postgres")]
mod ffi;
#[cfg(feature = "postgres")]
pub mod pg;
#[cfg(feature = "postgres")]
pub mod pg_connect;
#[cfg(feature = "postgres")]
pub mod pg_verify;
