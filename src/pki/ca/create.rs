//! Making a CA: a root (its certificate self-signed through a lint gate with the rules it
//! will apply) or an intermediate (signed by its parent CA, which records it), then its
//! directory written — the records created (`ca.db`, or the URL of a database server in
//! `db.url`), `ca.key`, `ca.json`, an intermediate's `chain.pem` and `root.pem`, and
//! `ca.pem` last, each file whole or not at all. `pkit issue ca` runs this; the key, and
//! how its file is protected, are the caller's.

use super::ca_files::{self, CaFilesError, CA_CERT_FILE, CHAIN_FILE, KEY_FILE, ROOT_FILE};
use super::dir::{self, URL_FILE};
use super::gate::{GateMode, LintGate};
use super::issue_one::{IssueError, RecordAs};
use super::issuer::{self, CaError, Issuer, Request};
use super::profile::Profile;
use super::settings::{self, CaSettings};
use super::store::{self, CaStore, StoreError};
use super::validity;
use crate::der::pem;
use crate::der::Time;
use pkit_lint::Finding;
use pkit_store::atomic_file;
use pkit_x509::backend::PrivateKey;
use pkit_x509::cert::Certificate;
use std::path::{Path, PathBuf};

/// The CA's records, when they are not on a database server.
pub const DB_FILE: &str = "ca.db";
/// Every file of a CA directory: a new CA is never made where any of them is.
pub const FILES: [&str; 7] = [
    CA_CERT_FILE,
    KEY_FILE,
    DB_FILE,
    URL_FILE,
    settings::FILE,
    CHAIN_FILE,
    ROOT_FILE,
];
/// A root's validity when none is asked for: ten years.
pub const ROOT_DAYS: u32 = 3650;

/// Why a CA could not be made.
#[non_exhaustive]
#[derive(Debug)]
pub enum CreateError {
    /// Its subject is empty: a CA must be named.
    EmptySubject,
    /// Its settings apply the TLS Baseline Requirements in full (`cabf-tls`) without the
    /// caIssuers and CRL pointers every certificate it issues must then carry (BR
    /// §7.1.2.7.7, §7.1.2.11.2).
    PublicTrustPointers,
    /// This file of a CA is there already: a CA is never replaced.
    Exists(PathBuf),
    /// The database meant for its records holds this many certificates of another CA
    /// (one CA per database).
    RecordsInUse(i64),
    /// Its certificate could not be made: refused by the parent or the lint gate, or the
    /// key failed.
    Ca(CaError),
    /// The parent's records refused its certificate.
    ParentStore(StoreError),
    /// The parent directory's certificates could not be read.
    ParentFiles(CaFilesError),
    /// The certificate at the top of the parent's chain (read from this file) does not
    /// decode.
    ParentCertificate(PathBuf, crate::der::Error),
    /// Its own records could not be created.
    Store(StoreError),
    /// This file could not be read or written (`AlreadyExists`: it appeared meanwhile).
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for CreateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CreateError::EmptySubject => f.write_str("a CA needs a non-empty subject"),
            CreateError::PublicTrustPointers => f.write_str(
                "a CA meant for public trust needs caIssuers and CRL pointers (its \
                 certificates must carry caIssuers and cRLDistributionPoints)",
            ),
            CreateError::Exists(p) => {
                write!(
                    f,
                    "{}: already exists; refusing to replace a CA",
                    p.display()
                )
            }
            CreateError::RecordsInUse(n) => write!(
                f,
                "already holds another CA's {n} certificates (one CA per database)"
            ),
            CreateError::Ca(e) => write!(f, "{e}"),
            CreateError::ParentStore(e) | CreateError::Store(e) => write!(f, "{e}"),
            CreateError::ParentFiles(e) => write!(f, "{e}"),
            CreateError::ParentCertificate(p, e) => write!(f, "{}: {e}", p.display()),
            CreateError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for CreateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CreateError::Ca(e) => Some(e),
            CreateError::ParentStore(e) | CreateError::Store(e) => Some(e),
            CreateError::ParentFiles(e) => Some(e),
            CreateError::ParentCertificate(_, e) => Some(e),
            CreateError::Io(_, e) => Some(e),
            CreateError::EmptySubject
            | CreateError::PublicTrustPointers
            | CreateError::Exists(_)
            | CreateError::RecordsInUse(_) => None,
        }
    }
}

impl From<CaError> for CreateError {
    fn from(e: CaError) -> Self {
        CreateError::Ca(e)
    }
}

/// Refuse a directory that holds any file of a CA ([`FILES`]).
pub fn check_free(dir: &Path) -> Result<(), CreateError> {
    match FILES.iter().map(|f| dir.join(f)).find(|p| p.exists()) {
        Some(p) => Err(CreateError::Exists(p)),
        None => Ok(()),
    }
}

/// Refuse a database server's records for a new CA when they hold certificates already
/// (another CA's: one CA per database). Asked before anything is made, so that a wrong
/// database changes nothing.
pub fn check_unused(records: &dyn CaStore) -> Result<(), CreateError> {
    match records.count().map_err(CreateError::Store)? {
        0 => Ok(()),
        n => Err(CreateError::RecordsInUse(n)),
    }
}

/// What a new CA is to be.
#[derive(Debug, Clone)]
pub struct NewCa {
    /// Its subject Name DER.
    pub subject: Vec<u8>,
    /// Its subject as written, for its parent's records.
    pub subject_text: String,
    /// What it applies to everything it issues (its `ca.json`).
    pub settings: CaSettings,
    /// Its pathLenConstraint.
    pub path_len: Option<u32>,
    /// Its nameConstraints value ([`crate::name_constraints::encode`]).
    pub name_constraints: Option<Vec<u8>>,
    /// The start of its validity.
    pub not_before: Time,
    /// Its validity in days; by default [`ROOT_DAYS`] for a root, the CA profile's
    /// ([`validity::default_days`]) for an intermediate.
    pub days: Option<u32>,
    /// Under a parent: cut a validity that reaches past the parent's to end with it,
    /// instead of refusing.
    pub clip: bool,
    /// What a root's lint gate does with what it finds in the root's own certificate (an
    /// intermediate's is its parent's gate's to judge).
    pub lint: GateMode,
}

/// A new CA's certificate, and the files that go with it.
#[derive(Debug, Clone)]
pub struct Certified {
    /// Its DER.
    pub der: Vec<u8>,
    /// What the lint gate found and let through.
    pub findings: Vec<Finding>,
    /// An intermediate's `chain.pem`: its certificate, then its parent's chain (nothing
    /// more under a root: relying parties hold the root, and a served chain leaves it out).
    pub chain: Option<String>,
    /// An intermediate's `root.pem`: its parent's, or the parent itself when that is a
    /// root; none when the parent is an intermediate that has none.
    pub root: Option<String>,
}

/// Where a new CA's files were written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// `ca.pem`.
    pub certificate: PathBuf,
    /// `ca.key`.
    pub key: PathBuf,
    /// `ca.json`.
    pub settings: PathBuf,
    /// `chain.pem`, for an intermediate.
    pub chain: Option<PathBuf>,
    /// `root.pem`, for an intermediate whose anchor is known.
    pub root: Option<PathBuf>,
}

impl NewCa {
    /// Refuse what no CA may be, before anything is made: an empty subject, public
    /// trust without the pointers it requires.
    pub fn check(&self) -> Result<(), CreateError> {
        if self.subject == [0x30, 0x00] {
            return Err(CreateError::EmptySubject);
        }
        let p = &self.settings.pointers;
        if self.settings.lint_rules.cabf_tls && (p.ca_issuers.is_empty() || p.crl.is_empty()) {
            return Err(CreateError::PublicTrustPointers);
        }
        Ok(())
    }

    /// The end of its validity, as a root or under a parent.
    pub fn not_after(&self, intermediate: bool) -> Time {
        let default = if intermediate {
            validity::default_days(Profile::Ca, self.not_before)
        } else {
            ROOT_DAYS
        };
        validity::not_after_for(self.not_before, self.days.unwrap_or(default))
    }

    /// Certify `key` as a root: self-signed, linted with the rules it will apply to what
    /// it signs.
    pub fn self_signed(&self, key: &dyn PrivateKey) -> Result<Certified, CreateError> {
        let gate = LintGate {
            rules: self.settings.lint_rules,
            mode: self.lint,
        };
        let (der, findings) = issuer::self_signed_with(
            key,
            &self.subject,
            self.not_before,
            self.not_after(false),
            self.path_len,
            self.name_constraints.as_deref(),
            &gate,
        )?;
        Ok(Certified {
            der,
            findings,
            chain: None,
            root: None,
        })
    }

    /// Certify `key` as an intermediate of `parent`, the CA in `parent_dir`, recording
    /// it in the parent's records (`parent_store`).
    pub fn under(
        &self,
        key: &dyn PrivateKey,
        parent: &Issuer,
        parent_dir: &Path,
        parent_store: &mut dyn CaStore,
    ) -> Result<Certified, CreateError> {
        let alg = key.algorithm();
        let req = Request {
            key_alg: Some(alg),
            path_len: self.path_len,
            name_constraints: self.name_constraints.clone(),
            clip: self.clip,
            ..Request::new(
                self.subject.clone(),
                key.public_key_der().map_err(CaError::from)?,
                Profile::Ca,
                self.not_before,
                self.not_after(true),
            )
        };
        let mut signer = parent.key.signer().map_err(CaError::from)?;
        // Recorded under the subject as it was given (`issue list` shows it so).
        let record = RecordAs {
            subject: Some(&self.subject_text),
            renews: None,
        };
        let issued = parent
            .issue_and_record(signer.as_mut(), &req, parent_store, record)
            .map_err(|e| match e {
                IssueError::Ca(e) => CreateError::Ca(e),
                IssueError::Store(e) => CreateError::ParentStore(e),
            })?;
        Ok(Certified {
            chain: Some(chain_below(parent_dir, &issued.der)?),
            root: anchor_of(parent_dir)?,
            der: issued.der,
            findings: issued.findings,
        })
    }

    /// Write the CA's directory `dir` (created, readable by its owner only): its records
    /// (`ca.db`, or `server`'s URL in `db.url`: that server's records were made when
    /// they were opened), `ca.key` holding `key_file`, `ca.json`, an intermediate's chain
    /// and root, and `ca.pem` last. A file that appears meanwhile is not replaced.
    pub fn write(
        &self,
        dir: &Path,
        cert: &Certified,
        key_file: &[u8],
        server: Option<&str>,
    ) -> Result<Written, CreateError> {
        dir::create(dir).map_err(|e| CreateError::Io(dir.to_path_buf(), e))?;
        match server {
            Some(url) => new_file(
                &dir.join(URL_FILE),
                dir::url_file_text(url).as_bytes(),
                false,
            )?,
            None => drop(store::open(&dir.join(DB_FILE)).map_err(CreateError::Store)?),
        }
        let key = dir.join(KEY_FILE);
        new_file(&key, key_file, true)?;
        let settings = dir.join(settings::FILE);
        new_file(&settings, self.settings.to_json().as_bytes(), false)?;
        let mut written = Written {
            certificate: dir.join(CA_CERT_FILE),
            key,
            settings,
            chain: None,
            root: None,
        };
        if let Some(chain) = &cert.chain {
            let path = dir.join(CHAIN_FILE);
            new_file(&path, chain.as_bytes(), false)?;
            written.chain = Some(path);
            if let Some(root) = &cert.root {
                let path = dir.join(ROOT_FILE);
                new_file(&path, root.as_bytes(), false)?;
                written.root = Some(path);
            }
        }
        let pem = pem::encode("CERTIFICATE", &cert.der);
        new_file(&written.certificate, pem.as_bytes(), false)?;
        Ok(written)
    }
}

/// Write a new file whole (mode 0600 when `private`), never replacing one.
fn new_file(path: &Path, bytes: &[u8], private: bool) -> Result<(), CreateError> {
    atomic_file::create(path, false, private, |w| w.write_all(bytes))
        .map_err(|e| CreateError::Io(path.to_path_buf(), e))
}

/// `root.pem` of a new intermediate of the CA in `parent`: its parent's anchor, or the
/// parent itself when it is a root (self-issued); none when the parent is an
/// intermediate that has none.
fn anchor_of(parent: &Path) -> Result<Option<String>, CreateError> {
    let above = ca_files::chain_to_anchor(parent).map_err(CreateError::ParentFiles)?;
    let Some(top) = above.last() else {
        return Ok(None);
    };
    let self_issued = Certificate::from_der(top)
        .map_err(|e| CreateError::ParentCertificate(parent.join(CA_CERT_FILE), e))?
        .is_self_issued();
    Ok(self_issued.then(|| pem::encode("CERTIFICATE", top)))
}

/// `chain.pem` of a new intermediate of the CA in `parent`: its certificate, then the
/// parent's chain.
fn chain_below(parent: &Path, cert_der: &[u8]) -> Result<String, CreateError> {
    let mut text = pem::encode("CERTIFICATE", cert_der);
    let path = parent.join(CHAIN_FILE);
    match std::fs::read_to_string(&path) {
        Ok(t) => text.push_str(&t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(CreateError::Io(path, e)),
    }
    Ok(text)
}

#[cfg(test)]
mod tests;
