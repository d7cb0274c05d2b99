//! A CA directory as every subcommand that acts for a CA sees it: `DIR/ca.pem`,
//! `DIR/ca.key` and `DIR/ca.db`, plus the argument forms they share (times, serials).

use super::error::{CliError, CliResult};
use super::io::{self, InForm};
use super::key::load_private_key;
use pkit::der::Time;
use pkit::pki::ca::issuer::{CaError, Issuer};
use pkit::pki::ca::store::{self, CaStore, StoreError};
use std::path::Path;

impl From<CaError> for CliError {
    fn from(e: CaError) -> Self {
        match e {
            CaError::Parse(m) => CliError::parse(m),
            CaError::Backend(b) => b.into(),
            CaError::Refused(m) => CliError::negative(m),
        }
    }
}

pub fn db_err(dir: &Path) -> impl Fn(StoreError) -> CliError + '_ {
    move |e| CliError::io(format!("{}: {e}", dir.join("ca.db").display()))
}

pub fn parse_time(flag: &str, s: &Option<String>) -> CliResult<Option<Time>> {
    s.as_ref()
        .map(|v| {
            Time::parse_rfc3339(v)
                .ok_or_else(|| CliError::usage(format!("{flag} {v}: expected an RFC 3339 time")))
        })
        .transpose()
}

/// Load `DIR/ca.pem` and `DIR/ca.key`.
pub fn load_issuer(dir: &Path, passin: Option<&str>) -> CliResult<Issuer> {
    let cert = load_ca_cert(dir)?;
    let key = load_private_key(&dir.join("ca.key"), passin)?;
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

/// Open `DIR/ca.db`, which must already exist: a typo in `--ca` is an error, not a new
/// empty CA database.
pub fn open_store(dir: &Path) -> CliResult<Box<dyn CaStore>> {
    let path = dir.join("ca.db");
    if !path.is_file() {
        return Err(CliError::io(format!(
            "{}: no CA database (create the CA with `pkit issue ca --dir {}`)",
            path.display(),
            dir.display()
        )));
    }
    store::open(&path).map_err(db_err(dir))
}

/// A serial number argument: hex, optionally with colons (as OpenSSL prints them).
pub fn parse_serial(s: &str) -> CliResult<Vec<u8>> {
    decode_hex(s).ok_or_else(|| CliError::usage(format!("{s}: expected a hex serial number")))
}
