//! TLS to a PostgreSQL server on the OpenSSL pkit links (a `MakeTlsConnect` for the
//! `postgres` client), instead of `postgres-openssl`, which would link the system's
//! OpenSSL beside the static one.
//!
//! As in `client.rs`, OpenSSL runs over a memory BIO pair and this file moves the bytes
//! between the pair and the client's socket, here without blocking: each poll feeds what
//! the socket delivered, lets OpenSSL work, and sends what it produced.
//!
//! Without a [`Verify`], libpq's `sslmode=require`: the connection is encrypted and the
//! server's certificate is not checked. With one (libpq's `verify-ca`/`verify-full`, taken
//! out of the URL by `pkit::store::pg_ssl` and handed over by the caller), OpenSSL refuses
//! during the handshake a server whose chain does not verify to the roots or whose
//! certificate does not name the host (`pg_verify`), before the client has sent it a
//! password or a query; the refusal is one line saying why. `sslmode=prefer`, the
//! default, falls back to plain text when the server offers no TLS.

#![forbid(unsafe_code)]

use super::pg_verify::{Trust, Verify};
use native_ossl::bio::Bio;
use native_ossl::ssl::{Ssl, SslCtx, SslIoError, SslVerifyMode};
use postgres::config::SslMode;
use postgres::tls::{ChannelBinding, MakeTlsConnect, TlsConnect, TlsStream};
use postgres::{Client, Config, NoTls, Socket};
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Bytes moved between the socket and OpenSSL at a time (a TLS record's worth).
const CHUNK: usize = 16 * 1024;

/// Ciphertext kept waiting for the socket before a write waits for it to drain.
const MAX_QUEUED: usize = 4 * CHUNK;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Connect as `config` says: in plain text for `sslmode=disable`, else over TLS on the
/// linked OpenSSL (falling back to plain text under `prefer` when the server has none),
/// checking the server as `verify` says.
pub fn connect(config: &Config, verify: Option<&Verify>) -> Result<Client, postgres::Error> {
    match config.get_ssl_mode() {
        SslMode::Disable => config.connect(NoTls),
        _ => config.connect(MakeOpensslTls {
            verify: verify.cloned(),
        }),
    }
}

/// Makes a TLS connector per connection, offering the host name as SNI and loading the
/// roots a [`Verify`] names.
#[derive(Debug, Clone)]
struct MakeOpensslTls {
    verify: Option<Verify>,
}

impl MakeTlsConnect<Socket> for MakeOpensslTls {
    type Stream = OpensslTlsStream;
    type TlsConnect = OpensslTlsConnect;
    type Error = BoxError;

    fn make_tls_connect(&mut self, domain: &str) -> Result<OpensslTlsConnect, BoxError> {
        let (ctx, trust) = match &self.verify {
            Some(v) => {
                let (ctx, trust) = v.context(domain)?;
                (ctx, Some(trust))
            }
            None => {
                let ctx = SslCtx::new_client().map_err(|e| tls_error("context", e))?;
                ctx.set_verify(SslVerifyMode::NONE);
                (ctx, None)
            }
        };
        Ok(OpensslTlsConnect {
            domain: domain.to_string(),
            ctx,
            trust,
        })
    }
}

struct OpensslTlsConnect {
    domain: String,
    ctx: SslCtx,
    /// What the server must prove, when anything.
    trust: Option<Trust>,
}

impl TlsConnect<Socket> for OpensslTlsConnect {
    type Stream = OpensslTlsStream;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<OpensslTlsStream, BoxError>> + Send>>;

    fn connect(self, socket: Socket) -> Self::Future {
        Box::pin(async move {
            let mut stream = OpensslTlsStream::new(socket, &self.ctx, &self.domain)?;
            if let Some(t) = &self.trust {
                t.expect_name(&mut stream.ssl)?;
            }
            let done = match std::future::poll_fn(|cx| stream.poll_ssl(cx, Ssl::connect)).await {
                Ok(done) => done,
                // A refused certificate says why, not only "certificate verify failed".
                Err(e) => {
                    let why = self.trust.as_ref().and_then(|t| t.explain(&stream.ssl));
                    return Err(why.unwrap_or_else(|| e.to_string()).into());
                }
            };
            if done.is_none() {
                return Err("TLS handshake: the server closed the connection".into());
            }
            std::future::poll_fn(|cx| stream.poll_send(cx)).await?;
            Ok(stream)
        })
    }
}

/// A TLS session over the client's socket.
struct OpensslTlsStream {
    ssl: Ssl,
    /// The network end of the BIO pair whose other end OpenSSL reads and writes.
    net: Bio,
    socket: Socket,
    /// Ciphertext read from the socket that the pair has not taken yet.
    inbound: Vec<u8>,
    /// Ciphertext OpenSSL produced that the socket has not taken yet.
    outbound: Vec<u8>,
    shut_down: bool,
}

fn tls_error(what: &str, e: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!("TLS {what}: {e}"))
}

impl OpensslTlsStream {
    fn new(socket: Socket, ctx: &SslCtx, domain: &str) -> Result<OpensslTlsStream, BoxError> {
        let mut ssl = ctx.new_ssl().map_err(|e| tls_error("session", e))?;
        // SNI names a host, not an address or a socket directory.
        if !domain.is_empty()
            && !domain.starts_with('/')
            && domain.parse::<std::net::IpAddr>().is_err()
        {
            if let Ok(name) = std::ffi::CString::new(domain) {
                ssl.set_hostname(&name)
                    .map_err(|e| tls_error("server name", e))?;
            }
        }
        let (inner, net) = Bio::new_pair().map_err(|e| tls_error("buffers", e))?;
        ssl.set_bio_duplex(inner);
        ssl.set_connect_state();
        Ok(OpensslTlsStream {
            ssl,
            net,
            socket,
            inbound: Vec::new(),
            outbound: Vec::new(),
            shut_down: false,
        })
    }

    /// Take what OpenSSL produced, then hand the socket as much of it as it accepts;
    /// ready once all of it went.
    fn poll_send(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut buf = [0u8; CHUNK];
        while self.net.pending() > 0 {
            let n = self
                .net
                .read(&mut buf)
                .map_err(|e| tls_error("buffers", e))?;
            self.outbound.extend_from_slice(&buf[..n]);
        }
        while !self.outbound.is_empty() {
            let n = ready!(Pin::new(&mut self.socket).poll_write(cx, &self.outbound))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.outbound.drain(..n);
        }
        Poll::Ready(Ok(()))
    }

    /// Run `op` until OpenSSL can finish it, feeding it what the socket delivers and
    /// sending what it produces. `None` when the server closed the connection.
    fn poll_ssl<T>(
        &mut self,
        cx: &mut Context<'_>,
        mut op: impl FnMut(&mut Ssl) -> Result<T, SslIoError>,
    ) -> Poll<io::Result<Option<T>>> {
        loop {
            if !self.inbound.is_empty() {
                let n = self
                    .net
                    .write(&self.inbound)
                    .map_err(|e| tls_error("buffers", e))?;
                self.inbound.drain(..n);
            }
            match op(&mut self.ssl) {
                Ok(v) => {
                    // What it produced goes when the socket takes it; the next write or
                    // flush sends the rest.
                    if let Poll::Ready(Err(e)) = self.poll_send(cx) {
                        return Poll::Ready(Err(e));
                    }
                    return Poll::Ready(Ok(Some(v)));
                }
                Err(SslIoError::WantRead) => {
                    ready!(self.poll_send(cx))?;
                    if !self.inbound.is_empty() {
                        continue;
                    }
                    let mut buf = [0u8; CHUNK];
                    let mut rb = ReadBuf::new(&mut buf);
                    ready!(Pin::new(&mut self.socket).poll_read(cx, &mut rb))?;
                    if rb.filled().is_empty() {
                        return Poll::Ready(Ok(None));
                    }
                    self.inbound.extend_from_slice(rb.filled());
                }
                Err(SslIoError::WantWrite) => ready!(self.poll_send(cx))?,
                Err(SslIoError::ZeroReturn) => return Poll::Ready(Ok(None)),
                Err(e) => return Poll::Ready(Err(tls_error("connection", e))),
            }
        }
    }
}

impl AsyncRead for OpensslTlsStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let dst = buf.initialize_unfilled();
        let n = ready!(this.poll_ssl(cx, |ssl| ssl.read(dst)))?;
        // `None`: the end of the stream, read as zero bytes.
        buf.advance(n.unwrap_or(0));
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for OpensslTlsStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.outbound.len() > MAX_QUEUED {
            ready!(this.poll_send(cx))?;
        }
        match ready!(this.poll_ssl(cx, |ssl| ssl.write(buf)))? {
            Some(n) => Poll::Ready(Ok(n)),
            None => Poll::Ready(Err(io::ErrorKind::BrokenPipe.into())),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_send(cx))?;
        Pin::new(&mut this.socket).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.shut_down {
            this.shut_down = true;
            // close_notify is a courtesy: the server ends the session on the socket's
            // close either way.
            let _ = this.ssl.shutdown();
        }
        ready!(this.poll_send(cx))?;
        Pin::new(&mut this.socket).poll_shutdown(cx)
    }
}

impl TlsStream for OpensslTlsStream {
    /// No channel binding: SCRAM authenticates without it (`channel_binding=prefer`).
    fn channel_binding(&self) -> ChannelBinding {
        ChannelBinding::none()
    }
}
