//! Certificates a batch committed but never delivered (see
//! [`crate::store::DeliveryNote`]): finding them, for `pkit issue list|export --undelivered`,
//! `pkit crl revoke --undelivered` and the warning `pkit issue batch` prints; writing
//! their certificate files again ([`Survey::export`]) and revoking them ([`revoke_all`]).
//!
//! The store knows which chunks were being delivered when their process stopped; the
//! files tell the rest. A certificate counts as delivered when `<n>.key` in its output
//! directory holds its key and `<n>.pem` holds it: the files are written whole or not at
//! all, but the directory may also hold files of the same names from another run, which
//! is why the key is checked against the certificate and not just looked for.

#![forbid(unsafe_code)]

use crate::der::pem;
use crate::store::{CaStore, Pending, Result, RevokeOutcome, StoreError, Undelivered};
use pkit_store::process;
use pkit_x509::backend::Backend;
use pkit_x509::cert::Certificate;
use pkit_x509::key::load::load_private;
use pkit_x509::split::{split, Form, Item};
use std::fmt;
use std::path::{Path, PathBuf};

/// What an expected file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileState {
    /// It is there and belongs to the certificate.
    Present,
    /// No such file.
    Missing,
    /// A file of that name holds something else (another run's), or cannot be read.
    Replaced,
}

impl FileState {
    /// The state as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            FileState::Present => "present",
            FileState::Missing => "missing",
            FileState::Replaced => "replaced",
        }
    }
}

/// One undelivered certificate and what its output directory holds for it.
#[derive(Debug)]
pub struct Found {
    /// The certificate, as the store knows it.
    pub item: Undelivered,
    /// What is at its key file's path.
    pub key: FileState,
    /// What is at its certificate file's path.
    pub cert: FileState,
}

impl Found {
    /// Where its private key is delivered: `<n>.key` in the batch's directory.
    pub fn key_path(&self) -> PathBuf {
        Path::new(&self.item.destination).join(format!("{}.key", self.item.n))
    }
    /// Where its certificate is delivered: `<n>.pem` in the batch's directory.
    pub fn cert_path(&self) -> PathBuf {
        Path::new(&self.item.destination).join(format!("{}.pem", self.item.n))
    }
}

/// What the store and the files say.
pub struct Survey {
    /// Certificates not delivered, in batch order.
    pub found: Vec<Found>,
    /// Certificates a running batch is delivering right now.
    pub in_flight: usize,
    /// Notes of deliveries that ended (their processes are gone).
    ended_chunks: Vec<i64>,
    /// Certificates recorded as undelivered that turn out delivered.
    now_delivered: Vec<i64>,
}

/// Look at the CA's undelivered certificates and their files. Reads only; see
/// [`Survey::save`].
pub fn survey(be: &Backend, store: &dyn CaStore) -> Result<Survey> {
    let mut s = Survey {
        found: Vec::new(),
        in_flight: 0,
        ended_chunks: Vec::new(),
        now_delivered: Vec::new(),
    };
    for item in store.undelivered()? {
        if let Pending::Chunk { id, owner } = &item.pending {
            if process::owner_alive(owner) {
                s.in_flight += 1;
                continue;
            }
            if s.ended_chunks.last() != Some(id) {
                s.ended_chunks.push(*id);
            }
        }
        let found = inspect(be, item);
        if found.key == FileState::Present && found.cert == FileState::Present {
            if found.item.pending == Pending::Found {
                s.now_delivered.push(found.item.id);
            }
        } else {
            s.found.push(found);
        }
    }
    Ok(s)
}

impl Survey {
    /// Record what was found: ended deliveries become the certificates still undelivered,
    /// and those delivered since are forgotten. Plus `settled`: ids of certificates just
    /// delivered or revoked.
    pub fn save(&self, store: &mut dyn CaStore, settled: &[i64]) -> Result<()> {
        if self.ended_chunks.is_empty() && self.now_delivered.is_empty() && settled.is_empty() {
            return Ok(());
        }
        let still: Vec<&Undelivered> = self.found.iter().map(|f| &f.item).collect();
        let forget: Vec<i64> = self.now_delivered.iter().chain(settled).copied().collect();
        store.settle_deliveries(&self.ended_chunks, &still, &forget)
    }
}

/// What `pkit issue export --undelivered` does with one certificate found undelivered.
#[derive(Debug)]
pub enum Export<'a> {
    /// Its batch's directory holds another run's files of its names: neither replaced nor
    /// given a certificate that does not go with them (it may be written elsewhere).
    Foreign(&'a Found),
    /// Its certificate file is to be written.
    Write(Rewrite<'a>),
}

/// A certificate file to write again.
#[derive(Debug)]
pub struct Rewrite<'a> {
    /// The certificate.
    pub found: &'a Found,
    /// The directory: its batch's, or the one asked for.
    pub dir: PathBuf,
    /// The file: `<n>.pem` in `dir`.
    pub path: PathBuf,
    /// Whether a file already there may be replaced: in its batch's directory (whose file
    /// of that name is missing or already this certificate), or when asked.
    pub replace: bool,
    /// Whether writing it delivers the certificate: written beside its key, in place. It
    /// is then forgotten as undelivered ([`Survey::save`]).
    pub delivers: bool,
}

impl Survey {
    /// What exporting the certificates found does with each, in batch order: its
    /// certificate file written into its batch's directory, or into `out_dir` when given
    /// (replacing a file there only with `force`).
    pub fn exports(&self, out_dir: Option<&Path>, force: bool) -> Vec<Export<'_>> {
        self.found
            .iter()
            .map(|f| {
                let dir = match out_dir {
                    Some(d) => d.to_path_buf(),
                    None if f.key == FileState::Replaced || f.cert == FileState::Replaced => {
                        return Export::Foreign(f);
                    }
                    None => PathBuf::from(&f.item.destination),
                };
                Export::Write(Rewrite {
                    found: f,
                    path: dir.join(format!("{}.pem", f.item.n)),
                    dir,
                    replace: out_dir.is_none() || force,
                    delivers: out_dir.is_none() && f.key == FileState::Present,
                })
            })
            .collect()
    }
}

/// What [`Survey::export`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Exported {
    /// Certificate files written.
    pub written: usize,
    /// Of them, those that delivered their certificate (beside its key, in place): no
    /// longer undelivered.
    pub delivered: usize,
}

/// Why an export stopped (what it wrote before stays written; what it delivered is not
/// recorded as such, and a later survey finds it delivered).
#[derive(Debug)]
pub enum ExportError<E> {
    /// The records could not be updated.
    Store(StoreError),
    /// A directory to write into could not be made.
    Dir {
        /// The directory.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// A certificate file could not be written (`AlreadyExists`: one is there that the
    /// export may not replace).
    File {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The caller's report of a certificate failed.
    Report(E),
}

impl<E: fmt::Display> fmt::Display for ExportError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Store(e) => write!(f, "{e}"),
            ExportError::Dir { path, error } | ExportError::File { path, error } => {
                write!(f, "{}: {error}", path.display())
            }
            ExportError::Report(e) => write!(f, "{e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ExportError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExportError::Store(e) => Some(e),
            ExportError::Dir { error, .. } | ExportError::File { error, .. } => Some(error),
            ExportError::Report(e) => Some(e),
        }
    }
}

impl Survey {
    /// `pkit issue export --undelivered`: each certificate found, in batch order, as
    /// [`Survey::exports`] says — its PEM file written (whole or not at all, its
    /// directory made when missing), or left alone beside another run's files — and
    /// reported to `each` once done; then what it delivered is recorded, with what the
    /// survey found ([`Survey::save`]). Stops at the first failure.
    pub fn export<E>(
        &self,
        store: &mut dyn CaStore,
        out_dir: Option<&Path>,
        force: bool,
        each: &mut dyn FnMut(&Export<'_>) -> std::result::Result<(), E>,
    ) -> std::result::Result<Exported, ExportError<E>> {
        let mut delivered = Vec::new();
        let mut written = 0;
        for export in self.exports(out_dir, force) {
            if let Export::Write(w) = &export {
                std::fs::create_dir_all(&w.dir).map_err(|error| ExportError::Dir {
                    path: w.dir.clone(),
                    error,
                })?;
                pkit_store::atomic_file::create(&w.path, w.replace, false, |out| {
                    pem::write(out, "CERTIFICATE", &w.found.item.cert.der)
                })
                .map_err(|error| ExportError::File {
                    path: w.path.clone(),
                    error,
                })?;
                written += 1;
                if w.delivers {
                    delivered.push(w.found.item.id);
                }
            }
            each(&export).map_err(ExportError::Report)?;
        }
        self.save(store, &delivered).map_err(ExportError::Store)?;
        Ok(Exported {
            written,
            delivered: delivered.len(),
        })
    }
}

/// Settled revocations recorded per transaction: a revocation of many cut short keeps
/// what it did, and one commit per certificate would make it crawl.
const SETTLE_EVERY: usize = 1024;

/// Revoke every certificate a batch committed but never delivered (`pkit crl revoke
/// --undelivered`), at `at` with `reason`, and forget each as undelivered once revoked.
/// `each` hears every certificate and what its revocation did. Certificates a running
/// batch is still delivering are left alone: the survey returned counts them.
pub fn revoke_all(
    be: &Backend,
    store: &mut dyn CaStore,
    at: i64,
    reason: Option<u8>,
    each: &mut dyn FnMut(&Found, &RevokeOutcome),
) -> Result<Survey> {
    let survey = survey(be, store)?;
    // Ended deliveries first become certificates found undelivered, so that a revocation
    // cut short leaves the rest listed.
    survey.save(store, &[])?;
    let mut settled = Vec::new();
    for f in &survey.found {
        let outcome = store.revoke(&f.item.cert.serial, at, reason)?;
        each(f, &outcome);
        settled.push(f.item.id);
        if settled.len() == SETTLE_EVERY {
            store.settle_deliveries(&[], &[], &settled)?;
            settled.clear();
        }
    }
    store.settle_deliveries(&[], &[], &settled)?;
    Ok(survey)
}

fn inspect(be: &Backend, item: Undelivered) -> Found {
    let mut f = Found {
        item,
        key: FileState::Missing,
        cert: FileState::Missing,
    };
    f.cert = file_state(&f.cert_path(), |path| {
        Some(first_item(path)?.der == f.item.cert.der)
    });
    f.key = file_state(&f.key_path(), |path| {
        let cert = Certificate::from_der(&f.item.cert.der).ok()?;
        let key = load_private(be, &first_item(path)?.der, None).ok()?;
        cert.certifies_key(key.as_ref()).ok()
    });
    f
}

/// The first object in the file at `path` (PEM, DER or base64), as the batch wrote it.
fn first_item(path: &Path) -> Option<Item> {
    let data = std::fs::read(path).ok()?;
    split(data, Form::Auto).into_iter().next()?.ok()
}

/// Missing when `path` does not exist; Present when `belongs` says it holds the
/// certificate's own; Replaced otherwise.
fn file_state(path: &Path, belongs: impl FnOnce(&Path) -> Option<bool>) -> FileState {
    if !path.exists() {
        return FileState::Missing;
    }
    match belongs(path) {
        Some(true) => FileState::Present,
        _ => FileState::Replaced,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::CertRecord;

    fn found(n: u64, key: FileState, cert: FileState) -> Found {
        Found {
            item: Undelivered {
                id: n as i64,
                n,
                destination: "/batch".into(),
                pending: Pending::Found,
                cert: CertRecord {
                    serial: vec![n as u8; 20],
                    subject: "CN=x".into(),
                    not_before: 0,
                    not_after: 1,
                    profile: "server".into(),
                    key_algorithm: "ecdsa-p256".into(),
                    status: "valid".into(),
                    issued_at: 0,
                    der: vec![0x30, 0],
                },
            },
            key,
            cert,
        }
    }

    fn survey() -> Survey {
        use FileState::*;
        Survey {
            found: vec![
                found(1, Present, Missing),
                found(2, Missing, Missing),
                found(3, Replaced, Missing),
                found(4, Present, Replaced),
            ],
            in_flight: 0,
            ended_chunks: Vec::new(),
            now_delivered: Vec::new(),
        }
    }

    #[test]
    fn exports_in_place_deliver_what_has_its_key_and_spare_foreign_files() {
        let s = survey();
        let plan = s.exports(None, false);
        let Export::Write(w) = &plan[0] else {
            panic!("1 is written")
        };
        assert_eq!(w.path, Path::new("/batch/1.pem"));
        assert!(w.replace && w.delivers, "its key is there: delivered now");
        let Export::Write(w) = &plan[1] else {
            panic!("2 is written")
        };
        assert!(!w.delivers, "no key: still undelivered");
        assert!(matches!(plan[2], Export::Foreign(f) if f.item.n == 3));
        assert!(matches!(plan[3], Export::Foreign(f) if f.item.n == 4));
    }

    #[test]
    fn exports_elsewhere_deliver_nothing_and_replace_only_when_forced() {
        let s = survey();
        for force in [false, true] {
            let plan = s.exports(Some(Path::new("/elsewhere")), force);
            assert_eq!(plan.len(), 4);
            for (e, n) in plan.iter().zip(1..) {
                let Export::Write(w) = e else {
                    panic!("everything is written elsewhere")
                };
                assert_eq!(w.path, Path::new("/elsewhere").join(format!("{n}.pem")));
                assert_eq!(w.replace, force);
                assert!(!w.delivers);
            }
        }
    }

    #[test]
    fn an_export_writes_reports_and_records_what_it_delivered() {
        use FileState::*;
        let d = tempfile::tempdir().unwrap();
        let batch = d.path().join("batch");
        let in_batch = |n, key, cert| {
            let mut f = found(n, key, cert);
            f.item.destination = batch.display().to_string();
            f
        };
        let s = Survey {
            found: vec![
                in_batch(1, Present, Missing),
                in_batch(2, Missing, Missing),
                in_batch(3, Replaced, Missing),
            ],
            in_flight: 0,
            ended_chunks: Vec::new(),
            now_delivered: Vec::new(),
        };
        let mut store = crate::store::SqliteCaStore::open(&d.path().join("ca.db")).unwrap();
        let mut heard = Vec::new();
        let done = s
            .export(&mut store, None, false, &mut |e| {
                heard.push(match e {
                    Export::Write(w) => (w.found.item.n, true),
                    Export::Foreign(f) => (f.item.n, false),
                });
                Ok::<(), ()>(())
            })
            .unwrap();
        assert_eq!(
            done,
            Exported {
                written: 2,
                delivered: 1
            }
        );
        assert_eq!(heard, [(1, true), (2, true), (3, false)]);
        let pem_text = std::fs::read_to_string(batch.join("1.pem")).unwrap();
        assert_eq!(pem_text, pem::encode("CERTIFICATE", &[0x30, 0]));
        assert!(batch.join("2.pem").exists() && !batch.join("3.pem").exists());

        // Elsewhere, a file already there is replaced only when forced.
        let elsewhere = d.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("1.pem"), "mine").unwrap();
        let e = s
            .export(&mut store, Some(&elsewhere), false, &mut |_| {
                Ok::<(), ()>(())
            })
            .unwrap_err();
        assert!(
            matches!(&e, ExportError::File { path, error }
                if path.ends_with("1.pem") && error.kind() == std::io::ErrorKind::AlreadyExists),
            "{e:?}"
        );
        assert_eq!(
            std::fs::read_to_string(elsewhere.join("1.pem")).unwrap(),
            "mine"
        );
        let done = s
            .export(
                &mut store,
                Some(&elsewhere),
                true,
                &mut |_| Ok::<(), ()>(()),
            )
            .unwrap();
        assert_eq!(
            done,
            Exported {
                written: 3,
                delivered: 0
            }
        );
        // The caller's report stops it.
        let e = s
            .export(&mut store, None, false, &mut |_| Err("stdout closed"))
            .unwrap_err();
        assert!(matches!(e, ExportError::Report("stdout closed")));
    }
}
