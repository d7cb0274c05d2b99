//! `--connect HOST[:PORT]` (`pkit verify`, `pkit parse`): the certificates a TLS server
//! presents, fetched by `pkit::tls::connect` through the backend's handshake; here only
//! the argument read and the errors given their exit codes.

use super::error::{CliError, CliResult};
use pkit::tls::connect::Target;

/// The TLS handshake's time limit, connection included.
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// `--connect HOST[:PORT]` (IPv6 in brackets).
pub fn target(arg: &str) -> CliResult<Target<'_>> {
    Target::parse(arg).map_err(|e| CliError::usage(format!("--connect {arg}: {e}")))
}

/// The certificates a TLS server presents (leaf first), and `HOST:PORT` to name them.
pub fn peer_chain(
    backend: &pkit::pki::backend::Backend,
    arg: &str,
) -> CliResult<(String, Vec<Vec<u8>>)> {
    let target = target(arg)?;
    let name = target.to_string();
    let ders = pkit::tls::connect::peer_chain(&target, CONNECT_TIMEOUT, |stream, sni| {
        backend.tls_peer_chain(stream, sni)
    })
    .map_err(|e| CliError::io(format!("{name}: {e}")))?;
    Ok((name, ders))
}
