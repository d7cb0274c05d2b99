//! A CA directory as every subcommand that acts for a CA sees it: `DIR/ca.pem`,
//! `DIR/ca.key` and `DIR/ca.db` (or where `ca_db.rs` finds its records), plus the argument forms they share (times, serials).

use super::error::{CliError, CliResult};
use super::io::{self, InForm};
use super::key::load_private_key;
use pkit::der::Time;
use pkit::pki::backend::Backend;
use pkit::pki::ca::issuer::{CaError, Issuer};
use std::path::Path;

impl From<CaError> for CliError {
    fn from(e: CaError) -> Self {
        match e {
            CaError::Parse(m) => CliError::parse(m),
            CaError::Backend(b) => b.into(),
            CaError::Refused(m) => CliError::negative(m),
            other => CliError::internal(other.to_string()),
        }
    }
}

pub fn parse_time(flag: &str, s: &Option<String>) -> CliResult<Option<Time>> {
    s.as_ref()
        .map(|v| {
            Time::parse_rfc3339(v)
                .ok_or_else(|| CliError::usage(format!("{flag} {v}: expected an RFC 3339 time")))
        })
        .transpose()
}

/// Load `DIR/ca.pem` and `DIR/ca.key` (a key file, or the URI of a key in a PKCS#11
/// token, reached with `pin`).
pub fn load_issuer(
    be: &Backend,
    dir: &Path,
    passin: Option<&str>,
    pin: Option<&str>,
) -> CliResult<Issuer> {
    let cert = load_ca_cert(dir)?;
    let key = load_private_key(be, &dir.join("ca.key"), passin, pin)?;
    Ok(Issuer::new(cert, key)?)
}

/// The DER of `DIR/ca.pem` alone (for those that act for the CA without its key).
pub fn load_ca_cert(dir: &Path) -> CliResult<Vec<u8>> {
    let pem_path = dir.join("ca.pem");
    let src = io::read_source(&pem_path)?;
    let cert = io::split_items(src, InForm::Auto)
        .into_iter()
        .next()
        .ok_or_else(|| CliError::parse(format!("{}: no certificate", pem_path.display())))??;
    Ok(cert.der)
}

/// A duration argument: a number with a unit, `90s`, `30m`, `1h`, `7d`.
pub fn parse_duration(flag: &str, s: &str) -> CliResult<i64> {
    let bad = || {
        CliError::usage(format!(
            "{flag} {s}: expected a duration like 90s, 30m, 1h or 7d"
        ))
    };
    let split = s.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let n: i64 = s[..split].parse().map_err(|_| bad())?;
    let unit = match &s[split..] {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(bad()),
    };
    n.checked_mul(unit).filter(|v| *v > 0).ok_or_else(bad)
}

/// Hex (with optional colons) to bytes; a leading 00 sign octet is kept as given.
fn decode_hex(s: &str) -> Option<Vec<u8>> {
    let h: String = s.chars().filter(|c| *c != ':').collect();
    if h.is_empty() || h.len() % 2 != 0 {
        return None;
    }
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(h.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A serial number argument: hex, optionally with colons (as OpenSSL prints them).
pub fn parse_serial(s: &str) -> CliResult<Vec<u8>> {
    decode_hex(s).ok_or_else(|| CliError::usage(format!("{s}: expected a hex serial number")))
}

/// `--key`, `--passin`, `--pin`: an existing key for a new CA (`issue ca`, `mtc ca new`).
#[derive(clap::Args, Debug)]
pub struct ExistingKeyArgs {
    /// The key instead of a new one: a PKCS#8 file, or a key in a PKCS#11 token
    /// (`pkcs11:token=…;object=…?module-path=…`), whose URI the CA's key file then holds.
    #[arg(long, value_name = "FILE|URI")]
    pub key: Option<String>,
    /// Password source of the --key file.
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// PIN of the token holding the --key (pass:, env:, file:, fd:); default: the URI's
    /// pin-value or pin-source.
    #[arg(long, value_name = "SRC")]
    pub pin: Option<String>,
}

/// The key of a new CA (`issue ca`, `mtc ca new`) and what its directory keeps of it.
pub struct NewCaKey {
    pub key: Box<dyn pkit::pki::backend::PrivateKey>,
    /// The text of the key file: the key as PEM PKCS#8, or, for a key in a PKCS#11
    /// token, its URI (without any PIN).
    pub file_text: super::request::SecretText,
}

/// `--key FILE|URI` when given (its algorithm must agree with `--alg`, if that was
/// given too), else a new key of `alg` (`default_alg` when neither says).
pub fn new_ca_key(
    be: &Backend,
    existing: &ExistingKeyArgs,
    alg: Option<pkit::pki::alg::Algorithm>,
    default_alg: pkit::pki::alg::Algorithm,
    passout: Option<&str>,
) -> CliResult<NewCaKey> {
    let (passin, pin) = (existing.passin.as_deref(), existing.pin.as_deref());
    let Some(spec) = existing.key.as_deref() else {
        let key = super::request::generate(be, alg.unwrap_or(default_alg))?;
        let file_text = super::request::key_pem(be, key.as_ref(), passout)?;
        return Ok(NewCaKey { key, file_text });
    };
    // A URI given as such, or held in the file given (another token CA's ca.key).
    let uri_text = if super::token::is_pkcs11_uri(spec) {
        Some(spec.to_string())
    } else {
        std::fs::read_to_string(spec)
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| super::token::is_pkcs11_uri(t))
    };
    let is_uri = uri_text.is_some();
    if is_uri && passout.is_some() {
        return Err(CliError::usage(
            "--passout: a key in a PKCS#11 token is protected by the token's PIN, not a password",
        ));
    }
    let loaded = load_private_key(be, Path::new(spec), passin, pin)?;
    if let Some(want) = alg.filter(|&a| a != loaded.algorithm()) {
        return Err(CliError::usage(format!(
            "--alg {want}: the key given with --key is {}",
            loaded.algorithm()
        )));
    }
    let file_text = if let Some(text) = &uri_text {
        super::request::SecretText::new(format!(
            "{}\n",
            super::token::parse_uri(text)?.without_pin()
        ))
    } else {
        super::request::key_pem(be, loaded.as_ref(), passout)?
    };
    Ok(NewCaKey {
        key: loaded,
        file_text,
    })
}

/// Create a new CA directory, readable by its owner only (0700: it holds the CA's key and
/// database); one that exists already is used as it is (`pkit::pki::ca::dir::create`).
pub fn create_ca_dir(dir: &Path) -> CliResult {
    pkit::pki::ca::dir::create(dir).map_err(|e| CliError::io_at(&dir.display().to_string(), &e))
}
