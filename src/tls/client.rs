//! A TLS client handshake over a byte stream the caller opened, for the chain a server
//! sends (`pkit verify --connect`). OpenSSL runs the handshake into a memory BIO pair
//! and this file moves the bytes between the pair and the stream, so the backend does
//! no network I/O of its own and any stream (a TCP socket, a test pipe) will do.
//!
//! The chain is taken, not judged: peer verification is off here because
//! `pki::verify` decides trust, with its own rules and reasons.

#![forbid(unsafe_code)]

use native_ossl::bio::Bio;
use native_ossl::ssl::{Client, SslCtxBuilder, SslIoError, SslVerifyMode};
use std::ffi::CString;
use std::fmt;
use std::io::{Read, Write};

/// Why no chain came back, sorted by whose doing it was.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientError {
    /// The server hung up, spoke no TLS, failed the handshake, or the stream failed: a
    /// chain that could not be had, like an unreachable server.
    Peer(String),
    /// OpenSSL failed one of its own steps (a context, a buffer): not the server's doing.
    Local(String),
    /// The server name cannot be offered (it holds a NUL).
    BadName(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Peer(m) | ClientError::Local(m) | ClientError::BadName(m) => {
                f.write_str(m)
            }
        }
    }
}

impl std::error::Error for ClientError {}

/// Round trips a handshake may take before it is given up: a few are normal, a server
/// that keeps asking for more is not.
const MAX_ROUNDS: usize = 64;

/// The certificates the server sent (leaf first, DER), after a handshake that offers
/// `server_name` as SNI.
pub fn peer_chain<S: Read + Write + ?Sized>(
    stream: &mut S,
    server_name: Option<&str>,
) -> Result<Vec<Vec<u8>>, ClientError> {
    let tls = |what: &str, e: &dyn fmt::Display| ClientError::Local(format!("TLS {what}: {e}"));
    let builder = SslCtxBuilder::<Client>::new().map_err(|e| tls("context", &e))?;
    let ctx = builder.build().map_err(|e| tls("context", &e))?;
    ctx.set_verify(SslVerifyMode::NONE);
    let mut ssl = ctx.new_ssl().map_err(|e| tls("session", &e))?;
    if let Some(name) = server_name {
        let name = CString::new(name)
            .map_err(|_| ClientError::BadName(format!("server name {name:?} holds a NUL")))?;
        ssl.set_hostname(&name)
            .map_err(|e| tls("server name", &e))?;
    }
    let (inner, mut net) = Bio::new_pair().map_err(|e| tls("buffers", &e))?;
    ssl.set_bio_duplex(inner);
    ssl.set_connect_state();
    // What the server did (hung up, spoke no TLS, failed the handshake) is a chain that
    // could not be had, like an unreachable server (exit 4); OpenSSL failing its own
    // steps stays a library failure.
    let io = |e: std::io::Error| ClientError::Peer(format!("TLS connection: {e}"));
    let mut buf = vec![0u8; 16 * 1024];
    // Bytes read from the stream that the pair has not taken yet.
    let mut inbound: Vec<u8> = Vec::new();
    for _ in 0..MAX_ROUNDS {
        if !inbound.is_empty() {
            let n = net.write(&inbound).map_err(|e| tls("buffers", &e))?;
            inbound.drain(..n);
        }
        let step = ssl.do_handshake();
        while net.pending() > 0 {
            let n = net.read(&mut buf).map_err(|e| tls("buffers", &e))?;
            stream.write_all(&buf[..n]).map_err(io)?;
        }
        stream.flush().map_err(io)?;
        match step {
            Ok(()) => {
                let chain = ssl
                    .peer_cert_chain()
                    .or_else(|| ssl.peer_certificate().map(|c| vec![c]))
                    .unwrap_or_default();
                return chain
                    .iter()
                    .map(|c| c.to_der().map_err(|e| tls("certificate", &e)))
                    .collect();
            }
            Err(SslIoError::WantRead) if inbound.is_empty() => {
                let n = stream.read(&mut buf).map_err(io)?;
                if n == 0 {
                    return Err(ClientError::Peer(
                        "TLS handshake: the server closed the connection".into(),
                    ));
                }
                inbound.extend_from_slice(&buf[..n]);
            }
            Err(SslIoError::WantRead | SslIoError::WantWrite) => {}
            Err(e) => return Err(ClientError::Peer(format!("TLS handshake: {e}"))),
        }
    }
    Err(ClientError::Peer(format!(
        "TLS handshake: not done after {MAX_ROUNDS} round trips"
    )))
}
