//! What a new certificate is made of on the command line, shared by `pkit issue` and
//! `pkit mtc add`: the subject and SAN arguments, a CSR read and checked, and
//! a new key and its PEM.

use crate::cmd::error::{CliError, CliResult};
use crate::cmd::io::{self, InForm};
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::{Backend, PrivateKey};
use pkit::pki::csr::{read_checked, CsrError, Requested};
use pkit::pki::key::encrypted::{encrypt_private_key, KdfChoice};
use pkit::pki::key::ml_dsa::MlDsaKeyFormat;
use pkit::pki::san::parse_san;
use pkit::pki::subject::parse_subject;
use std::path::Path;

pub fn subject(s: &str) -> CliResult<Vec<u8>> {
    parse_subject(s).map_err(|e| CliError::usage(format!("--subject: {e}")))
}

pub fn sans(list: &[String]) -> CliResult<Vec<Vec<u8>>> {
    list.iter()
        .map(|s| {
            parse_san(s)
                .map(|x| x.der)
                .map_err(|e| CliError::usage(format!("--san {e}")))
        })
        .collect()
}

/// Text holding a private key (its PEM): overwritten with zeros when dropped, so that the
/// plaintext does not linger in freed memory.
pub struct SecretText(String);

impl SecretText {
    pub fn new(text: String) -> SecretText {
        SecretText(text)
    }
}

impl std::ops::Deref for SecretText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Drop for SecretText {
    fn drop(&mut self) {
        // The String's own buffer, taken without a copy, cleared before it is freed.
        std::mem::take(&mut self.0).into_bytes().fill(0);
    }
}

/// `key` as PEM: PKCS#8, or encrypted PKCS#8 with a password from `passout`.
pub fn key_pem(be: &Backend, key: &dyn PrivateKey, passout: Option<&str>) -> CliResult<SecretText> {
    let mut pw = passout.map(io::read_secret).transpose()?;
    let pem = key_pem_with(be, key, pw.as_deref());
    if let Some(pw) = pw.as_mut() {
        pw.fill(0);
    }
    pem
}

/// `key` as PEM: PKCS#8, or encrypted PKCS#8 under `password`.
pub fn key_pem_with(
    be: &Backend,
    key: &dyn PrivateKey,
    password: Option<&[u8]>,
) -> CliResult<SecretText> {
    Ok(SecretText(match password {
        Some(pw) => {
            let der =
                encrypt_private_key(be, key, pw, KdfChoice::default(), MlDsaKeyFormat::default());
            io::pem_encode("ENCRYPTED PRIVATE KEY", &der?)
        }
        None => {
            let mut der = key.to_pkcs8_der(MlDsaKeyFormat::default())?;
            let pem = io::pem_encode("PRIVATE KEY", &der);
            der.fill(0);
            pem
        }
    }))
}

pub fn generate(be: &Backend, alg: Algorithm) -> CliResult<Box<dyn PrivateKey>> {
    Ok(be.generate(alg)?)
}

/// The CSR in the file at `path`: what it asks for, its signature checked
/// (`pkit::pki::csr::read_checked`).
pub fn read_csr(be: &Backend, path: &Path) -> CliResult<Requested> {
    let src = io::read_source(path)?;
    let item = io::split_items(src, InForm::Auto)
        .into_iter()
        .next()
        .ok_or_else(|| CliError::parse(format!("{}: empty", path.display())))??;
    read_checked(be, &item.der).map_err(|e| match e {
        CsrError::Der(e) => CliError::der(&item.name, &e),
        CsrError::UnsupportedAlgorithm(_) => CliError::unsupported(format!("{}: {e}", item.name)),
        CsrError::BadSignature => CliError::negative(format!("{}: {e}", item.name)),
        CsrError::Backend(e) => e.into(),
        other => CliError::internal(format!("{}: {other}", item.name)),
    })
}
