//! A CA directory as every subcommand that acts for a CA sees it: `DIR/ca.pem`,
//! `DIR/ca.key` and `DIR/ca.db` (or where `ca_db.rs` finds its records), plus the argument forms they share (times, serials).

use super::error::{CliError, CliResult};
use super::io;
use super::key_file::{load_private_key, load_private_key_with_flag};
use pkit::der::Time;
use pkit::pki::backend::pkcs11::key_uri_in;
use pkit::pki::backend::Backend;
use pkit::pki::ca::ca_files::{self, CaFilesError, LoadError};
use pkit::pki::ca::issuer::{CaError, Issuer};
use pkit::pki::ca::settings::{CaSettings, SettingsError};
use std::path::Path;

impl From<CaError> for CliError {
    fn from(e: CaError) -> Self {
        match e {
            CaError::Parse(m) => CliError::parse(m),
            CaError::Backend(b) => b.into(),
            CaError::Refused(m) => CliError::negative(m),
            CaError::Request(m) => CliError::usage(m),
            CaError::Lint(findings) => {
                let refused: Vec<String> = findings
                    .iter()
                    .filter(|f| f.level == pkit::lint::Level::Error)
                    .map(super::lint::finding_text)
                    .collect();
                CliError::negative(format!(
                    "the lint gate refused to sign (nothing was signed or recorded; --lint warn \
                     signs anyway): {}",
                    refused.join("; ")
                ))
            }
            CaError::Forbidden(r) => CliError::negative(format!(
                "the CA refused to sign (nothing was signed or recorded): {r}"
            )),
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

/// The CA in `dir`, ready to sign (`ca_files::load_issuer`: its settings and chain
/// check in place); `DIR/ca.key` is a key file, or the URI of a key in a PKCS#11 token,
/// reached with `pin`.
pub fn load_issuer(
    be: &Backend,
    dir: &Path,
    passin: Option<&str>,
    pin: Option<&str>,
) -> CliResult<Issuer> {
    load_issuer_with_flag(be, dir, passin, pin, "--passin")
}

/// [`load_issuer`] for a CA whose key's password the flag `passin_flag` gives (`issue ca
/// --parent`'s `--parent-passin`), which a hint for a missing password names.
pub fn load_issuer_with_flag(
    be: &Backend,
    dir: &Path,
    passin: Option<&str>,
    pin: Option<&str>,
    passin_flag: &str,
) -> CliResult<Issuer> {
    let key = |path: &Path| load_private_key_with_flag(be, path, passin, pin, passin_flag);
    ca_files::load_issuer(be, dir, key).map_err(|e| match e {
        LoadError::Files(e) => files_err(e),
        LoadError::Settings(e) => settings_err(e),
        LoadError::Key(e) => e,
        LoadError::Ca(e) => e.into(),
    })
}

/// The CA directory's files' errors, naming the file.
pub fn files_err(e: CaFilesError) -> CliError {
    use std::io::ErrorKind;
    match e {
        // No ca.pem where one was asked for: most likely a --ca that is no CA directory.
        CaFilesError::Io { path, error }
            if path.file_name().is_some_and(|n| n == "ca.pem")
                && matches!(error.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) =>
        {
            let dir = path.parent().unwrap_or(&path);
            not_a_ca_dir(dir, &format!("{}: {error}", path.display()))
        }
        CaFilesError::Io { path, error } => CliError::io_at(&path.display().to_string(), &error),
        e => CliError::parse(e.to_string()),
    }
}

/// A --ca (or --dir) that names no CA directory: an I/O error (4), as a missing file is,
/// saying what would make one.
fn not_a_ca_dir(dir: &Path, why: &str) -> CliError {
    let d = dir.display();
    CliError::io(format!(
        "{d}: not a CA directory ({why}; `pkit issue ca --dir {d}` makes one)"
    ))
}

/// Every certificate above what the CA in `dir` signs (`ca_files::chain_to_anchor`).
pub fn chain_to_anchor(dir: &Path) -> CliResult<Vec<Vec<u8>>> {
    ca_files::chain_to_anchor(dir).map_err(files_err)
}

/// The chain a certificate issued by the CA in `dir` is served with
/// (`ca_files::served_chain`).
pub fn ca_chain(dir: &Path) -> CliResult<Vec<Vec<u8>>> {
    ca_files::served_chain(dir).map_err(files_err)
}

/// The file holding the chain the CA's certificates are served with (`DIR/chain.pem`, or
/// `ca.pem` for an intermediate without one; none for a root).
pub fn ca_chain_file(dir: &Path) -> CliResult<Option<std::path::PathBuf>> {
    ca_files::served_chain_file(dir).map_err(files_err)
}

/// `DIR/ca.json`: what the CA applies to everything it issues.
pub fn load_settings(dir: &Path) -> CliResult<CaSettings> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::io(format!(
            "{}: not a CA directory (a file; --ca names the directory `pkit issue ca --dir` \
             made)",
            dir.display()
        )));
    }
    if !dir.exists() {
        return Err(not_a_ca_dir(dir, "no such directory"));
    }
    CaSettings::load(dir).map_err(settings_err)
}

/// A ca.json that could not be read (4) or was read and found wrong (3).
fn settings_err(e: SettingsError) -> CliError {
    match e.io {
        true => CliError::io(e.to_string()),
        false => CliError::parse(e.to_string()),
    }
}

/// The DER of `DIR/ca.pem` alone (for those that act for the CA without its key).
pub fn load_ca_cert(dir: &Path) -> CliResult<Vec<u8>> {
    ca_files::ca_certificate(dir).map_err(files_err)
}

/// A duration argument: a number with a unit, `90s`, `30m`, `1h`, `7d`, `4w`.
pub fn parse_duration(flag: &str, s: &str) -> CliResult<i64> {
    let bad = || {
        CliError::usage(format!(
            "{flag} {s}: expected a duration like 90s, 30m, 1h, 7d or 4w"
        ))
    };
    let split = s.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let n: i64 = s[..split].parse().map_err(|_| bad())?;
    let unit = match &s[split..] {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return Err(bad()),
    };
    n.checked_mul(unit).filter(|v| *v > 0).ok_or_else(bad)
}

/// A serial number argument: hex, optionally with colons (as OpenSSL prints them); a
/// leading 00 sign octet is kept as given.
pub fn parse_serial(s: &str) -> CliResult<Vec<u8>> {
    // An odd count of digits without colons (`1`, `abc`) is a number written without
    // its leading zero; with colons each group is an octet already (`0a:bc`).
    let even = if !s.contains(':') && s.len() % 2 == 1 {
        format!("0{s}")
    } else {
        s.to_string()
    };
    pkit::der::parse_hex(&even, |c| c == ':')
        .filter(|b| !b.is_empty())
        .ok_or_else(|| CliError::usage(format!("{s}: expected a hex serial number")))
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
    /// Whether the file holds the key in clear (not encrypted, not in a token).
    pub in_clear: bool,
}

/// How a new CA's key file is protected.
#[derive(Debug, Clone, Copy)]
pub enum Passout<'a> {
    /// Encrypted under the password from this source (`pass:`, `env:`, `file:`, `fd:`).
    Source(&'a str),
    /// Encrypted under a passphrase asked for twice at the terminal; in clear when there
    /// is no terminal to ask at.
    Ask,
    /// In clear, as asked.
    Clear,
}

/// `--key FILE|URI` when given (its algorithm must agree with `--alg`, if that was
/// given too), else a new key of `alg` (`default_alg` when neither says); its file text
/// protected as `passout` says (a key in a token needs no password: its PIN guards it).
pub fn new_ca_key(
    be: &Backend,
    existing: &ExistingKeyArgs,
    alg: Option<pkit::pki::alg::Algorithm>,
    default_alg: pkit::pki::alg::Algorithm,
    passout: Passout<'_>,
    key_file: &Path,
) -> CliResult<NewCaKey> {
    let (passin, pin) = (existing.passin.as_deref(), existing.pin.as_deref());
    // A URI given as such, or held in the file given (another token CA's ca.key).
    let uri_text = existing.key.as_deref().and_then(key_uri_in);
    if let Some(text) = &uri_text {
        if matches!(passout, Passout::Source(_)) {
            return Err(CliError::usage(
                "--passout: a key in a PKCS#11 token is protected by the token's PIN, not a \
                 password",
            ));
        }
        let spec = existing.key.as_deref().unwrap_or_default();
        let key = load_private_key(be, Path::new(spec), passin, pin)?;
        check_alg(alg, key.as_ref())?;
        let file_text = super::request::SecretText::new(format!(
            "{}\n",
            super::token::parse_uri(text)?.without_pin()
        ));
        return Ok(NewCaKey {
            key,
            file_text,
            in_clear: false,
        });
    }
    let key = match existing.key.as_deref() {
        Some(spec) => {
            let key = load_private_key(be, Path::new(spec), passin, pin)?;
            check_alg(alg, key.as_ref())?;
            key
        }
        None => super::request::generate(be, alg.unwrap_or(default_alg))?,
    };
    let mut password = match passout {
        Passout::Source(spec) => Some(io::read_secret(spec)?),
        Passout::Ask => io::ask_new_passphrase(&key_file.display().to_string())?,
        Passout::Clear => None,
    };
    let file_text = super::request::key_pem_with(be, key.as_ref(), password.as_deref());
    if let Some(pw) = password.as_mut() {
        pw.fill(0);
    }
    Ok(NewCaKey {
        key,
        file_text: file_text?,
        in_clear: password.is_none(),
    })
}

/// `--alg`, when given, must name the algorithm of the key given with `--key`.
fn check_alg(
    alg: Option<pkit::pki::alg::Algorithm>,
    key: &dyn pkit::pki::backend::PrivateKey,
) -> CliResult {
    match alg.filter(|&a| a != key.algorithm()) {
        Some(want) => Err(CliError::usage(format!(
            "--alg {want}: the key given with --key is {}",
            key.algorithm()
        ))),
        None => Ok(()),
    }
}

/// Say on stderr that a CA's key file was written in clear, when it was not asked for.
pub fn note_clear_key(key: &NewCaKey, passout: Passout<'_>, key_file: &Path) {
    if key.in_clear && matches!(passout, Passout::Ask) {
        note!(
            "pkit: warning: {} holds the CA's key unencrypted (there was no terminal to ask \
             for a passphrase); give --passout SRC to encrypt it, or --no-passout to say you \
             mean it",
            key_file.display()
        );
    }
}

/// Create a new CA directory, readable by its owner only (0700: it holds the CA's key and
/// database); one that exists already is used as it is (`pkit::pki::ca::dir::create`).
pub fn create_ca_dir(dir: &Path) -> CliResult {
    pkit::pki::ca::dir::create(dir).map_err(|e| CliError::io_at(&dir.display().to_string(), &e))
}

/// Say on stderr what the lint gate found and let through.
pub fn note_findings(findings: &[pkit::lint::Finding]) {
    for f in findings {
        note!("pkit: lint: {}", super::lint::finding_text(f));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serials_are_hex_with_or_without_their_leading_zero() {
        assert_eq!(parse_serial("01").unwrap(), [1]);
        assert_eq!(parse_serial("1").unwrap(), [1]);
        assert_eq!(parse_serial("abc").unwrap(), [0x0a, 0xbc]);
        assert_eq!(parse_serial("0a:bc").unwrap(), [0x0a, 0xbc]);
        for bad in ["", ":", "xy", "0g", "ab:c"] {
            assert!(parse_serial(bad).is_err(), "{bad}");
        }
    }
}
