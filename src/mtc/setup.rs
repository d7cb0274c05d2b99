//! Setting up an MTC CA (`pkit mtc ca new`): its directory ([`CaFiles`]: the CA
//! certificate, the cosigner key, the log), its §5.5 CA certificate with the serial range
//! of its log, the log's own record of whose it is — the CA's ID, the log's number and the
//! cosigner's algorithm, kept in the log store's `meta` so that every later command (and
//! `acme serve --mtc`) knows the log without the certificate — and the directory made in
//! an order a crash cannot leave half a CA behind ([`create`]), then loaded again
//! ([`load_ca`]).

use crate::cert::{ca_certificate, CaCertInput};
use crate::cosign::{Cosigner, COSIGNER_ALGORITHMS};
use crate::error::{MtcError, Result};
use crate::ids::TrustAnchorId;
use crate::issuer::MtcCa;
use crate::limits::UINT48_MAX;
use crate::store::LogStore;
use pkit_der::Time;
use pkit_store::atomic_file;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::PrivateKey;
use std::fmt;
use std::path::{Path, PathBuf};

/// The files of an MTC CA directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaFiles {
    /// `DIR/mtc-ca.pem`: the §5.5 CA certificate (PEM), what relying parties and ACME
    /// clients are given; written last ([`create`]), so a directory with it is a whole CA.
    pub cert: PathBuf,
    /// `DIR/cosigner.key` (0600): the key that signs checkpoints and subtrees, or the
    /// `pkcs11:` URI of one in a token.
    pub key: PathBuf,
    /// `DIR/mtc.db`: the log, unless it is on a database server.
    pub log: PathBuf,
}

impl CaFiles {
    /// The CA certificate's file name.
    pub const CERT: &'static str = "mtc-ca.pem";
    /// The cosigner key's file name.
    pub const KEY: &'static str = "cosigner.key";
    /// The log's file name (SQLite).
    pub const LOG: &'static str = "mtc.db";

    /// The files of the CA directory `dir`.
    pub fn in_dir(dir: &Path) -> CaFiles {
        CaFiles {
            cert: dir.join(Self::CERT),
            key: dir.join(Self::KEY),
            log: dir.join(Self::LOG),
        }
    }

    /// The first of the files that exists already (certificate, key, log): a directory
    /// holding any of them is not made into a CA again.
    pub fn existing(&self) -> Option<&Path> {
        [&self.cert, &self.key, &self.log]
            .into_iter()
            .map(PathBuf::as_path)
            .find(|p| p.exists())
    }
}

/// Where a new CA's log goes.
pub enum NewLog {
    /// `DIR/mtc.db`, made by [`create`].
    File,
    /// A database server's, opened by the caller with nothing written to it yet.
    Server {
        /// The log there.
        store: Box<dyn LogStore>,
        /// Its name in messages (the URL without its password).
        name: String,
        /// The file in the CA directory that records the server's URL (`db.url`).
        url_file: PathBuf,
        /// That file's text.
        url_text: String,
    },
}

/// Why [`create`] made no CA, or only part of one: nothing is written before the log
/// was reached, and the certificate, which says the CA is whole, only after the rest.
#[derive(Debug)]
pub enum SetupError {
    /// The server's database (named) already holds a log: one log per database.
    AnotherLog(String),
    /// The log (named) failed.
    Log {
        /// The log's name in messages.
        name: String,
        /// What failed.
        error: MtcError,
    },
    /// A file could not be written; one that exists already is
    /// [`std::io::ErrorKind::AlreadyExists`].
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::AnotherLog(name) => write!(
                f,
                "{name}: already holds another MTC CA's log (one log per database)"
            ),
            SetupError::Log { name, error } => write!(f, "{name}: {error}"),
            SetupError::Write { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SetupError::Log { error, .. } => Some(error),
            SetupError::Write { error, .. } => Some(error),
            SetupError::AnotherLog(_) => None,
        }
    }
}

/// Write `bytes` to the new file `path` whole or not at all, never over one that exists
/// (`private`: mode 0600).
fn write_new(path: &Path, bytes: &[u8], private: bool) -> std::result::Result<(), SetupError> {
    let failed = |error| SetupError::Write {
        path: path.to_path_buf(),
        error,
    };
    if path.exists() {
        return Err(failed(std::io::ErrorKind::AlreadyExists.into()));
    }
    atomic_file::create(path, false, private, |w| w.write_all(bytes)).map_err(failed)
}

/// Make the CA `ca` in the directory of `files` (which must exist): the cosigner key's
/// file (`key_file`, its text), the log with its record ([`record_log`]), and last the CA
/// certificate `cert_der` ([`new_ca_certificate`]). A log on a server is checked empty
/// before anything is written, so that a database holding another log changes nothing;
/// the certificate comes last, so that a run cut short leaves no directory that looks
/// like a whole CA.
pub fn create(
    files: &CaFiles,
    ca: &NewMtcCa<'_>,
    cert_der: &[u8],
    key_file: &[u8],
    log: NewLog,
) -> std::result::Result<(), SetupError> {
    let log_err = |name: &str| {
        let name = name.to_string();
        move |error| SetupError::Log { name, error }
    };
    let (mut store, name, url) = match log {
        NewLog::Server {
            store,
            name,
            url_file,
            url_text,
        } => {
            if holds_a_log(store.as_ref()).map_err(log_err(&name))? {
                return Err(SetupError::AnotherLog(name));
            }
            (store, name, Some((url_file, url_text)))
        }
        NewLog::File => {
            let name = files.log.display().to_string();
            write_new(&files.key, key_file, true)?;
            let store = crate::store::open(&files.log).map_err(log_err(&name))?;
            (store, name, None)
        }
    };
    if let Some((url_file, url_text)) = url {
        write_new(&files.key, key_file, true)?;
        write_new(&url_file, url_text.as_bytes(), false)?;
    }
    record_log(store.as_mut(), ca).map_err(log_err(&name))?;
    let pem = pkit_der::pem::encode("CERTIFICATE", cert_der);
    write_new(&files.cert, pem.as_bytes(), false)
}

/// Why [`load_ca`] has no CA: the log's record, reading the key (the caller's error), or
/// the key as a cosigner's.
#[derive(Debug)]
pub enum LoadCaError<E> {
    /// The log is not an MTC CA's ([`log_of_store`]).
    Log(MtcError),
    /// The key could not be read.
    Key(E),
    /// The key is not one a cosigner signs with.
    Cosigner(MtcError),
}

/// The CA whose log is `store`, with its cosigner key: the CA's ID and log number from
/// the log's record, then the key `read_key` reads from `files.key` (a key file, or a
/// token's URI).
pub fn load_ca<E>(
    store: &dyn LogStore,
    files: &CaFiles,
    read_key: impl FnOnce(&Path) -> std::result::Result<Box<dyn PrivateKey>, E>,
) -> std::result::Result<MtcCa, LoadCaError<E>> {
    let (ca_id, log) = log_of_store(store).map_err(LoadCaError::Log)?;
    let key = read_key(&files.key).map_err(LoadCaError::Key)?;
    let cosigner = Cosigner::new(ca_id.clone(), key).map_err(LoadCaError::Cosigner)?;
    Ok(MtcCa {
        ca_id,
        log,
        cosigner,
    })
}

/// The `meta` keys of a log's record.
const META_CA_ID: &str = "ca_id";
const META_LOG: &str = "log";
const META_ALG: &str = "alg";

/// A new MTC CA, as `pkit mtc ca new` is asked for it.
#[derive(Debug, Clone)]
pub struct NewMtcCa<'a> {
    /// The CA's trust anchor ID.
    pub ca_id: &'a TrustAnchorId,
    /// The log's number under the CA: 1 to 65535.
    pub log: u16,
    /// The cosigner key's SubjectPublicKeyInfo.
    pub spki: &'a [u8],
    /// The cosigner key's algorithm: one of [`COSIGNER_ALGORITHMS`].
    pub alg: Algorithm,
    /// The start of the CA certificate's validity.
    pub not_before: Time,
    /// How many days the CA certificate stands.
    pub days: u32,
}

/// The serial range of log `log`: the log number in the top 16 bits of a 64-bit serial,
/// the entry's index (48 bits) below (draft §5.4).
pub fn serial_range(log: u16) -> (u64, u64) {
    let base = u64::from(log) << 48;
    (base, base | UINT48_MAX)
}

/// The CA certificate (DER) of `ca`; a log number of 0 or an algorithm no cosigner uses
/// is refused ([`MtcError::Invalid`]).
pub fn new_ca_certificate(ca: &NewMtcCa<'_>) -> Result<Vec<u8>> {
    if ca.log == 0 {
        return Err(MtcError::Invalid("log numbers are 1..65535".into()));
    }
    if !COSIGNER_ALGORITHMS.contains(&ca.alg) {
        return Err(MtcError::Invalid(format!(
            "a {} key; MTC cosigners use ecdsa-p256, ed25519, ml-dsa-44, ml-dsa-65 or ml-dsa-87",
            ca.alg
        )));
    }
    let (min_serial, max_serial) = serial_range(ca.log);
    Ok(ca_certificate(&CaCertInput {
        ca_id: ca.ca_id,
        spki: ca.spki,
        alg: ca.alg,
        not_before: ca.not_before,
        not_after: ca.not_before.plus_seconds(i64::from(ca.days) * 86_400),
        min_serial,
        max_serial,
    }))
}

/// Whether `store` already holds a log (another CA's, or this one's): one log per
/// database.
pub fn holds_a_log(store: &dyn LogStore) -> Result<bool> {
    Ok(store.meta(META_CA_ID)?.is_some() || store.size() > 0)
}

/// Record in a new log's store whose log it is.
pub fn record_log(store: &mut dyn LogStore, ca: &NewMtcCa<'_>) -> Result<()> {
    for (k, v) in [
        (META_CA_ID, ca.ca_id.dotted().to_string()),
        (META_LOG, ca.log.to_string()),
        (META_ALG, ca.alg.name().to_string()),
    ] {
        store.set_meta(k, &v)?;
    }
    Ok(())
}

/// The CA's ID and the log's number, as the store records them; a store without them is
/// malformed (not a log `pkit mtc ca new` made).
pub fn log_of_store(store: &dyn LogStore) -> Result<(TrustAnchorId, u16)> {
    let get = |k: &str| -> Result<String> {
        store
            .meta(k)?
            .ok_or_else(|| MtcError::malformed(0, format!("{k} in the log's meta")))
    };
    let id = TrustAnchorId::parse(&get(META_CA_ID)?)?;
    let log = get(META_LOG)?
        .parse()
        .map_err(|_| MtcError::malformed(0, "a log number (1..65535) in the log's meta"))?;
    Ok((id, log))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkit_openssl as openssl;

    fn new_ca<'a>(id: &'a TrustAnchorId, spki: &'a [u8]) -> NewMtcCa<'a> {
        NewMtcCa {
            ca_id: id,
            log: 7,
            spki,
            alg: Algorithm::Ed25519,
            not_before: Time {
                unix: 1_800_000_000,
            },
            days: 10,
        }
    }

    #[test]
    fn a_new_ca_directory_is_written_whole_then_loaded() {
        let be = openssl::backend();
        let dir = tempfile::tempdir().unwrap();
        let files = CaFiles::in_dir(dir.path());
        assert_eq!(files.cert, dir.path().join("mtc-ca.pem"));
        assert_eq!(files.existing(), None);
        let key = be.generate(Algorithm::Ed25519).unwrap();
        let spki = key.public_key_der().unwrap();
        let pkcs8 = key.to_pkcs8_der(Default::default()).unwrap();
        let id = TrustAnchorId::parse("32473.1").unwrap();
        let ca = new_ca(&id, &spki);
        let der = new_ca_certificate(&ca).unwrap();
        create(&files, &ca, &der, b"KEY", NewLog::File).unwrap();
        assert_eq!(std::fs::read(&files.key).unwrap(), b"KEY");
        let pem = std::fs::read(&files.cert).unwrap();
        assert!(pem.starts_with(b"-----BEGIN CERTIFICATE-----"));
        assert_eq!(files.existing(), Some(files.cert.as_path()));
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&files.key).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let store = crate::store::open(&files.log).unwrap();
        assert_eq!(log_of_store(store.as_ref()).unwrap(), (id.clone(), 7));

        // Loaded again with its key: the ID and log from the log's record.
        let read = |p: &Path| -> std::result::Result<Box<dyn PrivateKey>, String> {
            assert_eq!(p, files.key);
            be.private_key_from_pkcs8(&pkcs8, Algorithm::Ed25519)
                .map_err(|e| e.to_string())
        };
        let loaded = load_ca(store.as_ref(), &files, read).unwrap();
        assert_eq!((loaded.ca_id, loaded.log), (id.clone(), 7));
        assert_eq!(loaded.cosigner.public.spki, spki);
        // The key is read only once the log is known to be a CA's.
        let empty = crate::store::open(&dir.path().join("other.db")).unwrap();
        let never = |_: &Path| -> std::result::Result<Box<dyn PrivateKey>, String> {
            panic!("the key was read for a log that is no CA's")
        };
        assert!(matches!(
            load_ca(empty.as_ref(), &files, never),
            Err(LoadCaError::Log(_))
        ));
        let refused =
            |_: &Path| -> std::result::Result<Box<dyn PrivateKey>, String> { Err("no key".into()) };
        assert!(matches!(
            load_ca(store.as_ref(), &files, refused),
            Err(LoadCaError::Key(e)) if e == "no key"
        ));

        // Made again over itself: refused at the key, nothing replaced.
        let again = create(&files, &ca, &der, b"OTHER", NewLog::File).unwrap_err();
        assert!(
            matches!(&again, SetupError::Write { path, error }
                if *path == files.key && error.kind() == std::io::ErrorKind::AlreadyExists),
            "{again}"
        );
        assert_eq!(std::fs::read(&files.key).unwrap(), b"KEY");
    }

    #[test]
    fn a_database_holding_a_log_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let files = CaFiles::in_dir(dir.path());
        let id = TrustAnchorId::parse("32473.1").unwrap();
        let spki = openssl::backend()
            .generate(Algorithm::Ed25519)
            .unwrap()
            .public_key_der()
            .unwrap();
        let ca = new_ca(&id, &spki);
        let der = new_ca_certificate(&ca).unwrap();
        // A "server" that already holds another CA's log (a SQLite store stands in).
        let mut other = crate::store::open(&dir.path().join("server.db")).unwrap();
        record_log(other.as_mut(), &ca).unwrap();
        let log = NewLog::Server {
            store: other,
            name: "postgres://db/x".into(),
            url_file: dir.path().join("db.url"),
            url_text: "postgres://db/x\n".into(),
        };
        let e = create(&files, &ca, &der, b"KEY", log).unwrap_err();
        assert_eq!(
            e.to_string(),
            "postgres://db/x: already holds another MTC CA's log (one log per database)"
        );
        assert_eq!(files.existing(), None);
        assert!(!dir.path().join("db.url").exists());

        // An empty one: the key, the URL's record, the log's record, the certificate.
        let empty = crate::store::open(&dir.path().join("empty.db")).unwrap();
        let log = NewLog::Server {
            store: empty,
            name: "postgres://db/y".into(),
            url_file: dir.path().join("db.url"),
            url_text: "postgres://db/y\n".into(),
        };
        create(&files, &ca, &der, b"KEY", log).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("db.url")).unwrap(),
            "postgres://db/y\n"
        );
        assert!(files.cert.is_file() && files.key.is_file() && !files.log.exists());
        let back = crate::store::open(&dir.path().join("empty.db")).unwrap();
        assert_eq!(log_of_store(back.as_ref()).unwrap(), (id, 7));
    }
}
