//! Keys in PKCS#11 tokens, as the commands reach them: a `pkcs11:` URI (RFC 7512) where
//! a key file would go, or in a CA directory's `ca.key`; the PIN from `--pin SRC`, else
//! the URI's `pin-value`, else its `pin-source`. A PIN is never printed: messages show
//! the URI without `pin-value`.

use super::error::{CliError, CliResult};
use super::io;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::pkcs11::scratch::{self, BenchToken};
use pkit::pki::backend::pkcs11::{KeyUri, NewKey, NewKeyError, Pkcs11Backend, TokenKey};
use pkit::pki::backend::{openssl, Backend, PrivateKey};

pub use pkit::pki::backend::pkcs11::is_pkcs11_uri;

/// Parse a key URI; a malformed one is a usage error naming it (without its PIN).
pub fn parse_uri(text: &str) -> CliResult<KeyUri> {
    KeyUri::parse(text.trim()).map_err(|e| CliError::usage(format!("{}: {e}", shown(text))))
}

/// A URI as messages may show it: parsed and printed without its PIN, or, when it does
/// not parse, not at all (a PIN could be anywhere in it).
pub fn shown(text: &str) -> String {
    match KeyUri::parse(text.trim()) {
        Ok(u) => u.to_string(),
        Err(_) => "the pkcs11: URI given".to_string(),
    }
}

/// The PIN for `uri`: `--pin`, else `pin-value`, else `pin-source` (a `--pin` form or
/// a file path, as RFC 7512 §2.3 has it). `None` when nothing gives one.
pub fn pin_for(uri: &KeyUri, pin: Option<&str>) -> CliResult<Option<Vec<u8>>> {
    if pin.is_some() {
        return pin_flag(pin);
    }
    if let Some(v) = &uri.pin_value {
        return Ok(Some(v.as_bytes().to_vec()));
    }
    if let Some(src) = &uri.pin_source {
        let spec = if ["pass:", "env:", "file:", "fd:"]
            .iter()
            .any(|p| src.starts_with(p))
        {
            src.clone()
        } else {
            format!("file:{src}")
        };
        return io::read_secret(&spec).map(Some);
    }
    Ok(None)
}

/// The PIN `--pin` gives, if any.
fn pin_flag(pin: Option<&str>) -> CliResult<Option<Vec<u8>>> {
    pin.map(|spec| io::read_secret(spec).map_err(|e| with_flag("--pin", e)))
        .transpose()
}

fn with_flag(flag: &str, mut e: CliError) -> CliError {
    e.message = format!(
        "{flag}: {}",
        e.message.replace("password source", "PIN source")
    );
    e
}

/// The backend on the token `uri` names, logged in.
pub fn open(uri: &KeyUri, pin: Option<&str>) -> CliResult<Pkcs11Backend> {
    let mut secret = pin_for(uri, pin)?;
    let opened = Pkcs11Backend::open(uri, None, secret.as_deref(), openssl::backend());
    if let Some(s) = secret.as_mut() {
        s.fill(0);
    }
    Ok(opened?)
}

/// The signing key a URI names.
pub fn load_key(text: &str, pin: Option<&str>) -> CliResult<Box<dyn PrivateKey>> {
    let uri = parse_uri(text)?;
    let key = open(&uri, pin)?.find_key(&uri)?;
    Ok(Box::new(key))
}

/// A new key pair in the token `text` names, kept there under its `object` label (and
/// `id`, when given). A key already under that name is not replaced (exit 4, as for an
/// output file that exists): `Pkcs11Backend::generate_new`.
pub fn generate_key(text: &str, alg: Algorithm, pin: Option<&str>) -> CliResult<TokenKey> {
    let uri = parse_uri(text)?;
    let new_key_err = |e: NewKeyError| match e {
        NewKeyError::NoLabel => CliError::usage(format!("{uri}: {e}")),
        NewKeyError::Exists { .. } => CliError::io(format!("{uri}: {e}")),
        NewKeyError::Backend(e) => e.into(),
    };
    let new = NewKey::for_uri(&uri).map_err(new_key_err)?;
    let backend = open(&uri, pin)?;
    backend.generate_new(alg, &uri, &new).map_err(new_key_err)
}

/// `--backend` of the benchmarks: software, or a PKCS#11 module on a scratch token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendChoice {
    /// OpenSSL, linked in (the default).
    Openssl,
    /// NSS's softoken through PKCS#11 (a throwaway database unless --nss-db names one).
    Nss,
    /// SoftHSM2 through PKCS#11 (a throwaway token).
    Softhsm,
}

impl BackendChoice {
    pub fn name(self) -> &'static str {
        match self {
            BackendChoice::Openssl => "OpenSSL",
            BackendChoice::Nss => "NSS",
            BackendChoice::Softhsm => "SoftHSM2",
        }
    }
}

/// A backend for a benchmark run. The token backends live on scratch tokens in `dir`
/// (NSS: `nss_db` instead when given, logged into with `pin`):
/// `pkit::pki::backend::pkcs11::scratch::bench_token`.
pub fn bench_backend(
    choice: BackendChoice,
    dir: &std::path::Path,
    nss_db: Option<&std::path::Path>,
    pin: Option<&str>,
) -> CliResult<Backend> {
    let soft = openssl::backend();
    let which = match choice {
        BackendChoice::Openssl => return Ok(soft.clone()),
        BackendChoice::Softhsm => BenchToken::Softhsm,
        BackendChoice::Nss => BenchToken::Nss { db: nss_db },
    };
    let token = scratch::bench_token(which, dir, || pin_flag(pin))?;
    Ok(Pkcs11Backend::on(token, soft).into_backend())
}
