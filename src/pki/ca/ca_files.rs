//! The certificates in a CA directory: `ca.pem` (the CA's own), `chain.pem` (an
//! intermediate's chain, its own certificate first, what issued certificates are served
//! with) and `root.pem` (the trust anchor above that chain, which `issue ca --parent`
//! keeps beside it so that what the CA signs is validated up to the anchor).

use pkit_x509::cert::Certificate;
use pkit_x509::split::{split, Form};
use std::fmt;
use std::path::{Path, PathBuf};

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
    let chain = dir.join(CHAIN_FILE);
    if chain.exists() {
        return objects(&chain);
    }
    let der = ca_certificate(dir)?;
    let c = Certificate::from_der(&der).map_err(|e| CaFilesError::Malformed {
        name: dir.join(CA_CERT_FILE).display().to_string(),
        offset: e.offset,
        message: e.to_string(),
    })?;
    Ok(if c.is_self_issued() {
        Vec::new()
    } else {
        vec![der]
    })
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
