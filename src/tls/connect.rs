//! A server's chain fetched over the network (`pkit verify --connect`, `pkit parse
//! --connect`): `HOST[:PORT]` read as a [`Target`], a TCP connection to it (each of the
//! name's addresses in turn, within a time limit), and a handshake over that connection
//! that offers the host as SNI. The handshake is the caller's (the crypto backend's
//! `TlsClient`, which runs [`crate::client::peer_chain`] on OpenSSL), so that the chain
//! is taken as every other use of the backend takes it; this file holds the rest.

#![forbid(unsafe_code)]

use std::fmt;
use std::io;
use std::net::{IpAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The port a target without one is reached at: HTTPS's.
pub const DEFAULT_PORT: u16 = 443;

/// A server to connect to: `HOST[:PORT]`, an IPv6 address in brackets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target<'a> {
    /// The host name or address, without brackets.
    pub host: &'a str,
    /// The port ([`DEFAULT_PORT`] when none was given).
    pub port: u16,
}

/// A target that is not `HOST[:PORT]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadTarget;

impl fmt::Display for BadTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected HOST[:PORT]")
    }
}

impl std::error::Error for BadTarget {}

impl<'a> Target<'a> {
    /// Read `HOST[:PORT]` (`[V6ADDR][:PORT]` for an IPv6 address; a bare IPv6 address,
    /// which has colons of its own, is all host).
    pub fn parse(s: &'a str) -> Result<Target<'a>, BadTarget> {
        let (host, port) = match s.strip_prefix('[') {
            Some(rest) => {
                let (h, after) = rest.split_once(']').ok_or(BadTarget)?;
                (h, after.strip_prefix(':'))
            }
            None => match s.rsplit_once(':') {
                Some((h, p)) if !h.contains(':') => (h, Some(p)),
                _ => (s, None),
            },
        };
        let port = match port {
            Some(p) => p.parse().map_err(|_| BadTarget)?,
            None => DEFAULT_PORT,
        };
        if host.is_empty() {
            return Err(BadTarget);
        }
        Ok(Target { host, port })
    }

    /// The name to offer in the handshake: the host, when it is a name; SNI carries host
    /// names only (RFC 6066 §3), so an address offers none.
    pub fn server_name(&self) -> Option<&'a str> {
        self.host.parse::<IpAddr>().is_err().then_some(self.host)
    }
}

impl fmt::Display for Target<'_> {
    /// `HOST:PORT`, as messages name the server.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.host, self.port)
    }
}

/// Why no chain came back from a server.
#[derive(Debug)]
#[non_exhaustive]
pub enum FetchError {
    /// The host name resolves to no address.
    NoAddress,
    /// Resolving, connecting or setting the time limits failed (the last address's
    /// error when none could be reached).
    Io(io::Error),
    /// The handshake failed: the handshake's own message.
    Handshake(String),
    /// The server finished the handshake without a certificate.
    NoCertificate,
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::NoAddress => f.write_str("the name has no address"),
            FetchError::Io(e) => write!(f, "{e}"),
            FetchError::Handshake(m) => f.write_str(m),
            FetchError::NoCertificate => f.write_str("the server sent no certificate"),
        }
    }
}

impl std::error::Error for FetchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FetchError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// A TCP connection to `target`, trying each address its host has in turn (localhost
/// may be ::1 before 127.0.0.1), each within `timeout`, which then bounds every read and
/// write on it too.
pub fn connect(target: &Target<'_>, timeout: Duration) -> Result<TcpStream, FetchError> {
    let mut last = FetchError::NoAddress;
    let addrs = (target.host, target.port)
        .to_socket_addrs()
        .map_err(FetchError::Io)?;
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(stream) => {
                stream
                    .set_read_timeout(Some(timeout))
                    .and_then(|()| stream.set_write_timeout(Some(timeout)))
                    .map_err(FetchError::Io)?;
                return Ok(stream);
            }
            Err(e) => last = FetchError::Io(e),
        }
    }
    Err(last)
}

/// The certificates the server at `target` presents (leaf first, DER, not judged): a
/// connection within `timeout` ([`connect`]), then `handshake` over it offering
/// [`Target::server_name`]. A server that presents none is an error: there is no chain
/// to read or verify.
pub fn peer_chain<E: fmt::Display>(
    target: &Target<'_>,
    timeout: Duration,
    handshake: impl FnOnce(&mut TcpStream, Option<&str>) -> Result<Vec<Vec<u8>>, E>,
) -> Result<Vec<Vec<u8>>, FetchError> {
    let mut stream = connect(target, timeout)?;
    let ders = handshake(&mut stream, target.server_name())
        .map_err(|e| FetchError::Handshake(e.to_string()))?;
    if ders.is_empty() {
        return Err(FetchError::NoCertificate);
    }
    Ok(ders)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn targets() {
        let t = |s| Target::parse(s).map(|t| (t.host, t.port));
        assert_eq!(t("example.com"), Ok(("example.com", 443)));
        assert_eq!(t("example.com:8443"), Ok(("example.com", 8443)));
        assert_eq!(t("[::1]:8443"), Ok(("::1", 8443)));
        assert_eq!(t("[::1]"), Ok(("::1", 443)));
        // A bare IPv6 address is all host.
        assert_eq!(t("::1"), Ok(("::1", 443)));
        for bad in [
            "",
            ":443",
            "example.com:https",
            "example.com:70000",
            "[::1",
            "[]:1",
        ] {
            assert_eq!(t(bad), Err(BadTarget), "{bad}");
        }
        let name = Target::parse("example.com").unwrap();
        assert_eq!(name.to_string(), "example.com:443");
        assert_eq!(name.server_name(), Some("example.com"));
        assert_eq!(Target::parse("[::1]:1").unwrap().server_name(), None);
        assert_eq!(Target::parse("10.0.0.1").unwrap().server_name(), None);
    }

    #[test]
    fn the_handshake_runs_over_the_connection_with_the_name() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let target = Target {
            host: "localhost",
            port,
        };
        let timeout = Duration::from_secs(10);
        let got = peer_chain(&target, timeout, |stream, name| {
            assert_eq!(stream.peer_addr().unwrap().port(), port);
            assert_eq!(name, Some("localhost"));
            Ok::<_, String>(vec![b"leaf".to_vec()])
        });
        assert_eq!(got.unwrap(), [b"leaf".to_vec()]);
        // No certificate, and a failed handshake, are errors saying so.
        let none = peer_chain(&target, timeout, |_, _| Ok::<_, String>(Vec::new()));
        assert!(matches!(none, Err(FetchError::NoCertificate)));
        let failed = peer_chain(&target, timeout, |_, _| Err("TLS connection: reset"));
        assert_eq!(failed.unwrap_err().to_string(), "TLS connection: reset");
    }

    #[test]
    fn a_closed_port_is_an_io_error() {
        // Bound, then closed: nothing listens there now.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let target = Target {
            host: "127.0.0.1",
            port,
        };
        let r = peer_chain(&target, Duration::from_secs(10), |_, _| {
            Ok::<_, String>(vec![Vec::new()])
        });
        assert!(matches!(r, Err(FetchError::Io(_))), "{r:?}");
    }
}
