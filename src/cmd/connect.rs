//! `--connect HOST[:PORT]` (`pkit verify`, `pkit parse`): a TCP connection to a TLS
//! server and the certificates it presents, through the backend's handshake. Only this
//! file and the backend touch the network for it.

use super::error::{CliError, CliResult};

/// The TLS handshake's time limit, connection included.
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// `HOST[:PORT]` (IPv6 in brackets) as host and port.
pub fn host_port(target: &str) -> CliResult<(&str, u16)> {
    let bad = || CliError::usage(format!("--connect {target}: expected HOST[:PORT]"));
    let (host, port) = match target.strip_prefix('[') {
        Some(rest) => {
            let (h, after) = rest.split_once(']').ok_or_else(bad)?;
            (h, after.strip_prefix(':'))
        }
        None => match target.rsplit_once(':') {
            Some((h, p)) if !h.contains(':') => (h, Some(p)),
            _ => (target, None),
        },
    };
    let port = port.map_or(Ok(443), |p| p.parse().map_err(|_| bad()))?;
    if host.is_empty() {
        return Err(bad());
    }
    Ok((host, port))
}

/// The certificates a TLS server presents (leaf first), and `HOST:PORT` to name them.
pub fn peer_chain(
    backend: &pkit::pki::backend::Backend,
    target: &str,
) -> CliResult<(String, Vec<Vec<u8>>)> {
    use std::net::{IpAddr, TcpStream, ToSocketAddrs};
    let (host, port) = host_port(target)?;
    let name = format!("{host}:{port}");
    let failed = |m: String| CliError::io(format!("{name}: {m}"));
    // Each address the name has, in turn (localhost may be ::1 before 127.0.0.1).
    let mut last = failed("the name has no address".into());
    let mut stream = None;
    for addr in (host, port)
        .to_socket_addrs()
        .map_err(|e| failed(e.to_string()))?
    {
        match TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = failed(e.to_string()),
        }
    }
    let mut stream = stream.ok_or(last)?;
    stream
        .set_read_timeout(Some(CONNECT_TIMEOUT))
        .and_then(|()| stream.set_write_timeout(Some(CONNECT_TIMEOUT)))
        .map_err(|e| failed(e.to_string()))?;
    // SNI carries host names only (RFC 6066 §3).
    let sni = host.parse::<IpAddr>().is_err().then_some(host);
    let ders = backend
        .tls_peer_chain(&mut stream, sni)
        .map_err(|e| failed(e.to_string()))?;
    if ders.is_empty() {
        return Err(failed("the server sent no certificate".into()));
    }
    Ok((name, ders))
}
