//! The certificates in a CA directory: `ca.pem` (the CA's own), `chain.pem` (an
//! intermediate's chain, its own certificate first, what issued certificates are served
//! with) and `root.pem` (the trust anchor above that chain, which `issue ca --parent`
//! keeps beside it so that what the CA signs is validated up to the anchor); and the CA
//! loaded from its directory to sign ([`load_issuer`]), with its settings and that chain
//! check in place, so that no front end can leave them out.

use crate::issuer::{CaError, Issuer};
use crate::settings::{CaSettings, SettingsError};
use pkit_verify::preissue::PreIssue;
use pkit_x509::backend::{Backend, PrivateKey};
use pkit_x509::cert::Certificate;
use pkit_x509::split::{split, Form};
use std::fmt;
use std::path::{Path, PathBuf};

/// The CA's key: PEM PKCS#8 (perhaps encrypted), or the URI of a key in a token.
pub const KEY_FILE: &str = "ca.key";
/// The CA's own certificate.
pub const CA_CERT_FILE: &str = "ca.pem";
/// An intermediate's chain up to (not including) its root, its own certificate first.
pub const CHAIN_FILE: &str = "chain.pem";
/// The trust anchor above an intermediate's chain.
pub const ROOT_FILE: &str = "root.pem";

/// Why a CA directory's certificates could not be read.
#[derive(Debug)]
pub enum CaFilesError {
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// A file holds something that does not decode.
    Malformed {
        /// The file (`FILE#N` for its N-th object).
        name: String,
        /// The byte offset where it goes wrong.
        offset: usize,
        /// What was expected there.
        message: String,
    },
    /// `ca.pem` holds no certificate.
    Empty(PathBuf),
}

impl fmt::Display for CaFilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaFilesError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            CaFilesError::Malformed {
                name,
                offset,
                message,
            } => write!(f, "{name}: offset {offset}: {message}"),
            CaFilesError::Empty(path) => write!(f, "{}: no certificate", path.display()),
        }
    }
}

impl std::error::Error for CaFilesError {}

/// Every object of the file at `path`, as DER (PEM, DER or base64).
fn objects(path: &Path) -> Result<Vec<Vec<u8>>, CaFilesError> {
    let data = std::fs::read(path).map_err(|error| CaFilesError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let items = split(data, Form::Auto);
    let multi = items.len() > 1;
    items
        .into_iter()
        .enumerate()
        .map(|(i, it)| {
            it.map(|it| it.der).map_err(|e| CaFilesError::Malformed {
                name: if multi {
                    format!("{}#{}", path.display(), i + 1)
                } else {
                    path.display().to_string()
                },
                offset: e.offset,
                message: e.message,
            })
        })
        .collect()
}

/// The DER of `DIR/ca.pem` (its first object).
pub fn ca_certificate(dir: &Path) -> Result<Vec<u8>, CaFilesError> {
    let path = dir.join(CA_CERT_FILE);
    objects(&path)?
        .into_iter()
        .next()
        .ok_or(CaFilesError::Empty(path))
}

/// The chain a certificate issued by the CA in `dir` is served with: `DIR/chain.pem`
/// when the CA has one; else its own certificate when it is not self-issued (an
/// intermediate made elsewhere); else nothing (a root).
pub fn served_chain(dir: &Path) -> Result<Vec<Vec<u8>>, CaFilesError> {
    Ok(match served_chain_file(dir)? {
        Some(p) if p.ends_with(CHAIN_FILE) => objects(&p)?,
        Some(_) => vec![ca_certificate(dir)?],
        None => Vec::new(),
    })
}

/// The file holding [`served_chain`]: `DIR/chain.pem`, or `DIR/ca.pem` for an
/// intermediate without one; `None` for a root (what a deploy hook points a server at).
pub fn served_chain_file(dir: &Path) -> Result<Option<PathBuf>, CaFilesError> {
    let chain = dir.join(CHAIN_FILE);
    if chain.exists() {
        return Ok(Some(chain));
    }
    let der = ca_certificate(dir)?;
    let c = Certificate::from_der(&der).map_err(|e| CaFilesError::Malformed {
        name: dir.join(CA_CERT_FILE).display().to_string(),
        offset: e.offset,
        message: e.to_string(),
    })?;
    Ok((!c.is_self_issued()).then(|| dir.join(CA_CERT_FILE)))
}

/// Every certificate above what the CA in `dir` signs: its own (`ca.pem`), the others
/// of `chain.pem`, then `root.pem`, each once. Without `root.pem` the highest certificate
/// the CA has stands for the anchor (its constraints still apply: pkit applies an
/// anchor's).
pub fn chain_to_anchor(dir: &Path) -> Result<Vec<Vec<u8>>, CaFilesError> {
    let own = ca_certificate(dir)?;
    let mut all = vec![own];
    let root = dir.join(ROOT_FILE);
    let above = served_chain(dir)?.into_iter().chain(if root.exists() {
        objects(&root)?
    } else {
        Vec::new()
    });
    for der in above {
        if !all.contains(&der) {
            all.push(der);
        }
    }
    Ok(all)
}

/// Why the CA in a directory could not be loaded to sign ([`load_issuer`]).
#[derive(Debug)]
pub enum LoadError<E> {
    /// Its certificates could not be read.
    Files(CaFilesError),
    /// Its settings (`ca.json`) could not be read.
    Settings(SettingsError),
    /// Its key could not be loaded: the caller's loader's error.
    Key(E),
    /// The key is not the certificate's, the certificate is not a CA's, or its chain
    /// does not validate ([`CaError::Forbidden`]).
    Ca(CaError),
}

impl<E: fmt::Display> fmt::Display for LoadError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Files(e) => write!(f, "{e}"),
            LoadError::Settings(e) => write!(f, "{e}"),
            LoadError::Key(e) => write!(f, "{e}"),
            LoadError::Ca(e) => write!(f, "{e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for LoadError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Files(e) => Some(e),
            LoadError::Settings(e) => Some(e),
            LoadError::Key(e) => Some(e),
            LoadError::Ca(e) => Some(e),
        }
    }
}

/// The CA in `dir`, ready to sign: its certificate (`ca.pem`), its settings (`ca.json`:
/// pointers, lint rules, policy), the key `key` loads from `DIR/ca.key` (a file, or a
/// token the file names: the caller knows how to ask for passwords and PINs), and its
/// chain ([`chain_to_anchor`]) installed as the pre-issuance check, so that everything
/// it signs is first validated as a relying party would. Read in that order: a
/// directory without a certificate is refused before anyone is asked for a password.
pub fn load_issuer<E>(
    be: &Backend,
    dir: &Path,
    key: impl FnOnce(&Path) -> Result<Box<dyn PrivateKey>, E>,
) -> Result<Issuer, LoadError<E>> {
    let cert = ca_certificate(dir).map_err(LoadError::Files)?;
    let settings = CaSettings::load(dir).map_err(LoadError::Settings)?;
    let key = key(&dir.join(KEY_FILE)).map_err(LoadError::Key)?;
    let mut issuer = Issuer::new(cert, key).map_err(LoadError::Ca)?;
    issuer.pointers = settings.pointers;
    issuer.crl_shards = settings.crl_shards;
    issuer.gate.rules = settings.lint_rules;
    issuer.policy = settings.policy;
    let chain = chain_to_anchor(dir).map_err(LoadError::Files)?;
    let chain = PreIssue::new(be, chain).map_err(|r| LoadError::Ca(CaError::Forbidden(r)))?;
    issuer.chain = Some(chain);
    Ok(issuer)
}

#[cfg(test)]
mod tests;
