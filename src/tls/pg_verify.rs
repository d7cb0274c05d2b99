//! What a PostgreSQL server must prove over TLS before the client sends it anything
//! (libpq's `sslmode=verify-ca` and `verify-full`): its chain verifies to the roots the
//! user gave, and for `verify-full` its certificate names the host connected to.
//!
//! OpenSSL decides both during the handshake, as libpq has it do: `SSL_VERIFY_PEER` with
//! the roots in the context (so the TLS server purpose applies), and the host or IP
//! address handed to `SSL_set1_host`, whose check is OpenSSL's (subjectAltName dNSName or
//! iPAddress); pkit matches no name itself. A refused handshake only says "certificate
//! verify failed", so `Trust::explain` asks `X509_verify_cert` again about the chain
//! the server sent, with the same roots — the chain alone first, then the name — to say
//! in one line which failed and why.

use super::ffi;
use native_ossl::error::ErrorStack;
use native_ossl::ssl::{Client, Ssl, SslCtx, SslCtxBuilder};
use native_ossl::x509::{GeneralName, X509Store, X509StoreCtx, X509};
use std::net::IpAddr;
use std::path::PathBuf;

/// `X509_V_ERR_HOSTNAME_MISMATCH` and `X509_V_ERR_IP_ADDRESS_MISMATCH`
/// (`<openssl/x509_vfy.h>`): the chain is good, the name is not.
const NAME_MISMATCH: [i32; 2] = [62, 64];

/// The certificates a server's chain must end at (`sslrootcert`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Roots {
    /// CA certificates in a PEM file.
    File(PathBuf),
    /// The system's trusted certificates (OpenSSL's default paths).
    System,
}

/// What the server must prove: libpq's `verify-ca`, and with `host` its `verify-full`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verify {
    /// The CA certificates the server's chain must verify to.
    pub roots: Roots,
    /// Whether the server's certificate must also name the host connected to
    /// (`verify-full`).
    pub host: bool,
}

/// Why a connection could not be set up to check the server as [`Verify`] asks. The
/// message is one line; OpenSSL's reason is part of it, so `source` gives nothing more.
#[derive(Debug)]
pub(crate) enum SetupError {
    /// `verify-full` with no host name in the connection string to check against.
    NoHost,
    /// OpenSSL could not make the client context.
    Context(ErrorStack),
    /// The root file could not be read or loaded: the file as shown, and why.
    RootFile(String, RootFileError),
    /// OpenSSL could not load the system's trusted certificates.
    SystemRoots(ErrorStack),
    /// OpenSSL refused the host name to check the certificate against.
    HostName(String, ErrorStack),
}

/// What is wrong with a root file (`sslrootcert`).
#[derive(Debug)]
pub(crate) enum RootFileError {
    /// It could not be read.
    Read(std::io::Error),
    /// It is not PEM.
    NotPem(pkit_der::pem::PemError),
    /// It has no `CERTIFICATE` block.
    NoCertificate,
    /// A `CERTIFICATE` block (numbered from 1) that OpenSSL could not parse.
    Certificate(usize, ErrorStack),
    /// OpenSSL would not add a certificate to the context.
    Load(ErrorStack),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::NoHost => f.write_str(
                "sslmode=verify-full needs a host name to check the server's \
                            certificate against",
            ),
            SetupError::Context(e) => write!(f, "TLS context: {e}"),
            SetupError::RootFile(shown, e) => write!(f, "sslrootcert {shown}: {e}"),
            SetupError::SystemRoots(e) => write!(f, "the system's trusted certificates: {e}"),
            SetupError::HostName(h, e) => write!(f, "the host name {h:?} to check: {e}"),
        }
    }
}

impl std::error::Error for SetupError {}

impl std::fmt::Display for RootFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RootFileError::Read(e) => write!(f, "{e}"),
            RootFileError::NotPem(e) => write!(f, "not PEM: {e}"),
            RootFileError::NoCertificate => f.write_str("no PEM certificate in it"),
            RootFileError::Certificate(n, e) => write!(f, "certificate {n}: {e}"),
            RootFileError::Load(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RootFileError {}

/// The roots loaded for one connection to `host`, and the names it checks.
pub(super) struct Trust {
    /// The roots as messages name them.
    shown: String,
    /// The certificates of a root file (empty for the system's).
    certs: Vec<X509>,
    /// `verify-full`: the host (or IP address) the certificate must name.
    host: Option<String>,
}

impl Verify {
    /// A client context that refuses a server failing `self` when it connects to `domain`
    /// (the URL's host), and what explains a refusal. The error is one line.
    pub(super) fn context(&self, domain: &str) -> Result<(SslCtx, Trust), SetupError> {
        let host = if self.host {
            if domain.is_empty() {
                return Err(SetupError::NoHost);
            }
            Some(domain.to_string())
        } else {
            None
        };
        let builder = SslCtxBuilder::<Client>::new().map_err(SetupError::Context)?;
        let (builder, shown, certs) = match &self.roots {
            Roots::File(path) => {
                let shown = path.display().to_string();
                let certs = match read_roots(path) {
                    Ok(certs) => certs,
                    Err(e) => return Err(SetupError::RootFile(shown, e)),
                };
                let builder = match certs.iter().try_fold(builder, |b, c| b.ca_cert(c)) {
                    Ok(b) => b,
                    Err(e) => return Err(SetupError::RootFile(shown, RootFileError::Load(e))),
                };
                (builder, shown, certs)
            }
            Roots::System => {
                let builder = builder
                    .default_ca_paths()
                    .map_err(SetupError::SystemRoots)?;
                (
                    builder,
                    "the system's trusted certificates".into(),
                    Vec::new(),
                )
            }
        };
        let ctx = builder.verify_peer().build().map_err(SetupError::Context)?;
        Ok((ctx, Trust { shown, certs, host }))
    }
}

/// The certificates in the PEM file `path`: at least one, every one readable.
fn read_roots(path: &std::path::Path) -> Result<Vec<X509>, RootFileError> {
    let text = std::fs::read(path).map_err(RootFileError::Read)?;
    let blocks = pkit_der::pem::blocks(&text)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(RootFileError::NotPem)?;
    let certs = blocks
        .iter()
        .filter(|b| b.label == "CERTIFICATE")
        .enumerate()
        .map(|(i, b)| X509::from_der(&b.der).map_err(|e| RootFileError::Certificate(i + 1, e)))
        .collect::<Result<Vec<_>, _>>()?;
    if certs.is_empty() {
        return Err(RootFileError::NoCertificate);
    }
    Ok(certs)
}

impl Trust {
    /// Have OpenSSL check the name on `ssl`, for `verify-full`.
    pub(super) fn expect_name(&self, ssl: &mut Ssl) -> Result<(), SetupError> {
        match &self.host {
            // An IP address is checked as one (SSL_set1_host tells them apart).
            Some(h) => ssl
                .set_verify_hostname(h)
                .map_err(|e| SetupError::HostName(h.clone(), e)),
            None => Ok(()),
        }
    }

    /// Why the server's certificate on the refused session `ssl` was not accepted, when
    /// asking OpenSSL again tells: `None` when the server sent no certificate or the
    /// question passes outside the handshake.
    pub(super) fn explain(&self, ssl: &Ssl) -> Option<String> {
        let chain = ssl.peer_cert_chain()?;
        let (leaf, rest) = chain.split_first()?;
        let mut store = X509Store::new().ok()?;
        if self.certs.is_empty() {
            store.set_default_paths().ok()?;
        }
        for c in &self.certs {
            store.add_cert(c).ok()?;
        }
        let code = verify_code(&store, leaf, rest, None)?;
        if code != 0 {
            return Some(format!(
                "the server's certificate does not verify to {}: {}",
                self.shown,
                reason(code)
            ));
        }
        let host = self.host.as_deref()?;
        match verify_code(&store, leaf, rest, Some(host))? {
            0 => None,
            c if NAME_MISMATCH.contains(&c) => Some(format!(
                "the server's certificate is for {}, not {host}",
                names(leaf)
            )),
            c => Some(format!(
                "the server's certificate does not verify for {host}: {}",
                reason(c)
            )),
        }
    }
}

/// OpenSSL's verdict on `leaf` (with the untrusted `rest`) against `store`, and on its
/// name when `host` is given: 0 (`X509_V_OK`) or the error code. `None` when it could
/// not be asked.
fn verify_code(store: &X509Store, leaf: &X509, rest: &[X509], host: Option<&str>) -> Option<i32> {
    let mut ctx = X509StoreCtx::new().ok()?;
    ctx.init_with_chain(store, leaf, rest).ok()?;
    match host {
        Some(h) if h.parse::<IpAddr>().is_ok() => ctx.set_ip(h).ok()?,
        Some(h) => ctx.set_host(h).ok()?,
        None => {}
    }
    match ctx.verify() {
        Ok(true) => Some(0),
        Ok(false) => Some(ctx.error()),
        Err(_) => None,
    }
}

/// OpenSSL's text for a verification error code.
fn reason(code: i32) -> String {
    // SAFETY: X509_verify_cert_error_string takes any code and returns a static string
    // (a fixed text for codes it does not know).
    let text = unsafe { ffi::X509_verify_cert_error_string(std::ffi::c_long::from(code)) };
    if text.is_null() {
        return format!("verification error {code}");
    }
    // SAFETY: non-null, NUL-terminated and static (above).
    unsafe { std::ffi::CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

/// The host names and IP addresses `cert` is for (its subjectAltName), or its subject
/// when it names none there, for a message.
fn names(cert: &X509) -> String {
    let names: Vec<String> = cert
        .subject_alt_names()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|n| match n {
            GeneralName::Dns(d) => Some(d),
            GeneralName::IpAddress(b) => match b.len() {
                4 => <[u8; 4]>::try_from(b.as_slice())
                    .ok()
                    .map(|a| IpAddr::from(a).to_string()),
                16 => <[u8; 16]>::try_from(b.as_slice())
                    .ok()
                    .map(|a| IpAddr::from(a).to_string()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    if names.is_empty() {
        let subject = cert.subject_name().to_string().unwrap_or_default();
        format!("{subject} (no host name or address in a subjectAltName)")
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_openssls_texts() {
        assert_eq!(reason(18), "self-signed certificate");
        assert_eq!(reason(62), "hostname mismatch");
        assert!(!reason(-12345).is_empty());
    }

    #[test]
    fn roots_that_cannot_be_used_are_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let verify = |path: &std::path::Path, host| Verify {
            roots: Roots::File(path.to_path_buf()),
            host,
        };
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "no certificate here\n").unwrap();
        let e = verify(&empty, false)
            .context("db.example")
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            e,
            Some(format!(
                "sslrootcert {}: no PEM certificate in it",
                empty.display()
            ))
        );
        let bad = dir.path().join("bad.pem");
        std::fs::write(&bad, pkit_der::pem::encode("CERTIFICATE", &[0x30])).unwrap();
        let e = verify(&bad, false)
            .context("db.example")
            .err()
            .map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("certificate 1")));
        // verify-full with no host to check (a unix socket) is refused, not waved through.
        let e = verify(&empty, true)
            .context("")
            .err()
            .map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("needs a host name")));
    }
}
