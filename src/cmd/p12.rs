//! `pkit key p12`: a key, its certificate and a chain as one PKCS#12 file, for Java
//! keystores, Windows and browsers (the library writes it: `pkit::pki::pkcs12::write`).

use super::error::{CliError, CliResult, Exit};
use super::io::{self, InForm};
use super::key_file::load_private_key;
use clap::Args;
use pkit::pki::backend::{Backend, PrivateKey};
use pkit::pki::cert::Certificate;
use pkit::pki::key::ml_dsa::MlDsaKeyFormat;
use pkit::pki::pkcs12::write::{default_friendly_name, encode_pfx, Contents, Protection};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct P12Args {
    /// The certificate (PEM or DER); when the file holds more, the rest are its chain.
    #[arg(long, value_name = "FILE")]
    pub cert: PathBuf,
    /// Its private key (PKCS#8, encrypted or not, or a traditional RSA/EC key).
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// Password source of an encrypted --key.
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// Intermediate certificates to include (a PEM bundle; repeatable).
    #[arg(long, value_name = "FILE")]
    pub chain: Vec<PathBuf>,
    /// Password for the PKCS#12 file (pass:, env:, file:, fd:); asked for twice at a
    /// terminal when not given.
    #[arg(long, value_name = "SRC")]
    pub passout: Option<String>,
    /// The alias keytool and the Windows store show (default: the certificate's subject).
    #[arg(long)]
    pub name: Option<String>,
    /// Protect the file as old readers need (Windows Server 2016 and earlier, Java before
    /// 8u301): PBE-SHA1-3DES for the key and certificates and a SHA-1 MAC, instead of
    /// AES-256 and SHA-256. Weak: only for those readers.
    #[arg(long)]
    pub legacy: bool,
    /// The PKCS#12 file to write (mode 0600).
    #[arg(short, long, value_name = "FILE")]
    pub out: PathBuf,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(be: &Backend, a: P12Args) -> CliResult<Exit> {
    super::created::check_free(&[Some(&a.out)], a.force)?;
    let mut certs = read_certs(&a.cert)?;
    for c in &a.chain {
        certs.extend(read_certs(c)?);
    }
    let leaf = certs.remove(0);
    let key = load_private_key(be, &a.key, a.passin.as_deref(), None)?;
    let cert_name = a.cert.display().to_string();
    let c = Certificate::from_der(&leaf).map_err(|e| CliError::der(&cert_name, &e))?;
    if !c.certifies_key(key.as_ref())? {
        return Err(CliError::usage(format!(
            "{}: the key does not match the certificate {cert_name}",
            a.key.display()
        )));
    }
    let contents = P12 {
        key: key.as_ref(),
        cert: &leaf,
        chain: &certs,
        name: a.name.as_deref(),
    };
    write_pkcs12(
        be,
        &contents,
        a.passout.as_deref(),
        protection(a.legacy),
        &a.out,
        a.force,
    )?;
    super::created::say_created(
        format_args!(
            "PKCS#12 file (key, certificate and {} chain certificate{})",
            certs.len(),
            if certs.len() == 1 { "" } else { "s" }
        ),
        Some(&a.out),
    );
    Ok(Exit::Ok)
}

/// Every certificate in a file, in order; at least one.
fn read_certs(path: &Path) -> CliResult<Vec<Vec<u8>>> {
    let name = path.display().to_string();
    let items = io::split_items(io::read_source(path)?, InForm::Auto);
    let mut out = Vec::new();
    for it in items {
        let it = it?;
        Certificate::from_der(&it.der).map_err(|e| CliError::der(&name, &e))?;
        out.push(it.der);
    }
    if out.is_empty() {
        return Err(CliError::parse(format!("{name}: no certificate")));
    }
    Ok(out)
}

/// What goes in a PKCS#12 file: a key, its certificate, the chain, and the alias
/// (default: `default_friendly_name`, the certificate's subject).
pub struct P12<'a> {
    pub key: &'a dyn PrivateKey,
    pub cert: &'a [u8],
    pub chain: &'a [Vec<u8>],
    pub name: Option<&'a str>,
}

/// The protection a `--legacy` (`--p12-legacy`) flag asks for.
pub fn protection(legacy: bool) -> Protection {
    if legacy {
        Protection::Legacy
    } else {
        Protection::Modern
    }
}

/// Write `p` as a PKCS#12 file, its password from `passout` (or asked for at a
/// terminal), protected as `protection` says (the legacy form with a warning).
pub fn write_pkcs12(
    be: &Backend,
    p: &P12<'_>,
    passout: Option<&str>,
    protection: Protection,
    out: &Path,
    force: bool,
) -> CliResult {
    let name = p
        .name
        .map_or_else(|| default_friendly_name(p.cert), str::to_string);
    let mut password = match passout {
        Some(src) => io::read_secret(src)?,
        None => io::ask_new_passphrase(&out.display().to_string())?.ok_or_else(|| {
            CliError::usage(format!(
                "{}: a PKCS#12 file needs a password: give --passout SRC (pass:, env:, \
                     file:, fd:)",
                out.display()
            ))
        })?,
    };
    let mut pkcs8 = p.key.to_pkcs8_der(MlDsaKeyFormat::default())?;
    let der = encode_pfx(
        be,
        &Contents {
            key_pkcs8: &pkcs8,
            cert: p.cert,
            chain: p.chain,
            friendly_name: &name,
        },
        &password,
        protection,
    );
    pkcs8.fill(0);
    password.fill(0);
    io::write_file_atomic(out, &der?, force, true)?;
    if protection == Protection::Legacy {
        note!(
            "pkit: warning: {}: PBE-SHA1-3DES and a SHA-1 MAC are weak; use this file only \
             for old Windows or Java that cannot read AES-256",
            out.display()
        );
    }
    Ok(())
}
