//! Trust anchors from files and directories, read as `openssl verify -CApath` reads a
//! certificate directory: a file named by the caller must hold certificates; in a
//! directory, every regular file that holds certificates (found by content, whatever its
//! name: hash links, `*.pem`, `*.crt`, a bundle) gives them, and everything else there
//! (a Java keystore, CRLs, a README, subdirectories) is skipped. The same certificate
//! found twice — a hash link beside the file it points to, a bundle beside its parts — is
//! kept once. `pkit verify --roots` and `pkit bench` read their roots here.

use pkit_x509::cert::Certificate;
use pkit_x509::split::{split, Form};
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// The system's root store on Debian and its derivatives (and where most distributions
/// link a bundle): the default of `pkit verify` and `pkit bench`.
pub const SYSTEM_ROOTS: &str = "/etc/ssl/certs/ca-certificates.crt";

/// Where the roots are when the caller names none, as OpenSSL looks for them:
/// `SSL_CERT_FILE`, and each directory of `SSL_CERT_DIR` (colon-separated); else
/// [`SYSTEM_ROOTS`].
pub fn default_paths() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    if let Some(f) = std::env::var_os("SSL_CERT_FILE") {
        paths.push(PathBuf::from(f));
    }
    if let Some(d) = std::env::var_os("SSL_CERT_DIR") {
        paths.extend(std::env::split_paths(&d).filter(|p| p.is_dir()));
    }
    if paths.is_empty() {
        paths.push(PathBuf::from(SYSTEM_ROOTS));
    }
    paths
}

/// What a set of trust-store paths held.
#[derive(Debug, Default)]
pub struct TrustStore {
    /// (where it was found, DER), each certificate once, in the order found. A bundle's
    /// certificates are named `FILE#N`.
    pub certs: Vec<(String, Vec<u8>)>,
    /// Files in directories that held no certificate, and why.
    pub skipped: Vec<String>,
    /// Certificates found again (counted once).
    pub duplicates: usize,
}

/// Why a trust store could not be read.
#[derive(Debug)]
pub enum TrustStoreError {
    /// A file or directory could not be read.
    Io {
        /// The path.
        path: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// PEM or base64 in a file that is broken.
    Malformed {
        /// The object's name (`FILE`, or `FILE#N` in a bundle).
        name: String,
        /// The byte offset in the file where it goes wrong.
        offset: usize,
        /// What was expected there.
        message: String,
    },
    /// A block labelled as a certificate that does not decode as one.
    Certificate {
        /// The object's name (`FILE`, or `FILE#N` in a bundle).
        name: String,
        /// Where in its DER and why.
        error: pkit_der::Error,
    },
    /// A file the caller named holds no certificate.
    NoCertificate {
        /// The file.
        path: String,
        /// What it was read as instead, when something failed.
        why: Option<String>,
    },
}

impl fmt::Display for TrustStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrustStoreError::Io { path, error } => write!(f, "{path}: {error}"),
            TrustStoreError::Malformed {
                name,
                offset,
                message,
            } => write!(f, "{name}: offset {offset}: {message}"),
            TrustStoreError::Certificate { name, error } => write!(f, "{name}: {error}"),
            TrustStoreError::NoCertificate { path, why: None } => {
                write!(f, "{path}: holds no certificate")
            }
            TrustStoreError::NoCertificate {
                path,
                why: Some(why),
            } => write!(f, "{path}: holds no certificate ({why})"),
        }
    }
}

impl std::error::Error for TrustStoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TrustStoreError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl TrustStore {
    /// Read `paths`: files must hold certificates; directories give what their files
    /// hold.
    pub fn read(paths: &[PathBuf]) -> Result<TrustStore, TrustStoreError> {
        let mut store = TrustStore::default();
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        for p in paths {
            if p.is_dir() {
                store.read_dir(p, &mut seen)?;
                continue;
            }
            let path = p.display().to_string();
            let certs = certificates_in(p).map_err(|e| match e {
                // An I/O failure stays one; what does not decode is no certificate.
                e @ TrustStoreError::Io { .. } => e,
                e => {
                    let text = e.to_string();
                    let why = text.strip_prefix(&format!("{path}: ")).unwrap_or(&text);
                    TrustStoreError::NoCertificate {
                        path: path.clone(),
                        why: Some(why.to_string()),
                    }
                }
            })?;
            if certs.is_empty() {
                return Err(TrustStoreError::NoCertificate { path, why: None });
            }
            store.keep(certs, &mut seen);
        }
        Ok(store)
    }

    fn read_dir(&mut self, dir: &Path, seen: &mut HashSet<Vec<u8>>) -> Result<(), TrustStoreError> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|error| TrustStoreError::Io {
                path: dir.display().to_string(),
                error,
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            // `is_file` follows links: a hash link to a certificate is read (and then
            // found to be a duplicate of the file it names).
            if !p.is_file() {
                self.skipped
                    .push(format!("{}: not a regular file", p.display()));
                continue;
            }
            match certificates_in(&p) {
                Ok(certs) if !certs.is_empty() => self.keep(certs, seen),
                Ok(_) => self
                    .skipped
                    .push(format!("{}: holds no certificate", p.display())),
                Err(e) => self.skipped.push(e.to_string()),
            }
        }
        Ok(())
    }

    fn keep(&mut self, certs: Vec<(String, Vec<u8>)>, seen: &mut HashSet<Vec<u8>>) {
        for (name, der) in certs {
            if seen.insert(der.clone()) {
                self.certs.push((name, der));
            } else {
                self.duplicates += 1;
            }
        }
    }
}

/// Whether `roots`, the trusted roots, can anchor a path: a trust anchor issues, and a
/// pinned self-signed certificate anchors itself, so at least one must be a CA or
/// self-issued. Roots of end-entity certificates issued by others are a mistake (the
/// wrong file), not a store to verify against.
pub fn holds_an_anchor<'c, 'a: 'c>(roots: impl IntoIterator<Item = &'c Certificate<'a>>) -> bool {
    roots.into_iter().any(|c| c.is_ca() || c.is_self_issued())
}

/// The certificates a file holds — PEM (blocks of other kinds passed over), DER or
/// base64 — each named `FILE` (or `FILE#N` when the file holds several objects); an
/// error when it cannot be read or a certificate in it does not decode.
pub fn certificates_in(path: &Path) -> Result<Vec<(String, Vec<u8>)>, TrustStoreError> {
    let file = path.display().to_string();
    let data = std::fs::read(path).map_err(|error| TrustStoreError::Io {
        path: file.clone(),
        error,
    })?;
    let items = split(data, Form::Auto);
    let multi = items.len() > 1;
    let mut out = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let name = if multi {
            format!("{file}#{}", i + 1)
        } else {
            file.clone()
        };
        let item = item.map_err(|e| TrustStoreError::Malformed {
            name: name.clone(),
            offset: e.offset,
            message: e.message,
        })?;
        let parsed = Certificate::from_der(&item.der);
        match item.label.as_deref() {
            // A certificate by its label must decode; one by its shape is one if it does.
            Some("CERTIFICATE" | "TRUSTED CERTIFICATE" | "X509 CERTIFICATE") => {
                if let Err(error) = parsed {
                    return Err(TrustStoreError::Certificate { name, error });
                }
            }
            Some(_) => continue,
            None if parsed.is_err() => continue,
            None => {}
        }
        out.push((name, item.der));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkit_openssl as openssl;

    #[test]
    fn roots_of_leaves_issued_by_others_anchor_nothing() {
        use crate::der::oid_registry as oids;
        use crate::testcert::{cert, utf8_name};
        // testcert's certificates are issued by "Test CA".
        let leaf = cert(&utf8_name(&[(oids::AT_COMMON_NAME, "leaf")]), &[]);
        let pinned = cert(&utf8_name(&[(oids::AT_COMMON_NAME, "Test CA")]), &[]);
        let leaf = Certificate::from_der(&leaf).unwrap();
        let pinned = Certificate::from_der(&pinned).unwrap();
        assert!(!holds_an_anchor([&leaf]));
        assert!(!holds_an_anchor(std::iter::empty::<&Certificate<'_>>()));
        // A self-issued one anchors (itself), however many leaves are beside it.
        assert!(holds_an_anchor([&leaf, &pinned]));
    }

    #[test]
    fn a_directory_is_read_by_content_and_duplicates_count_once() {
        let d = tempfile::tempdir().unwrap();
        let key = openssl::backend()
            .generate(pkit_x509::alg::Algorithm::Ed25519)
            .unwrap();
        let now = pkit_der::Time::now();
        let name = pkit_x509::subject::parse_subject("CN=Store Root").unwrap();
        let der = pkit_ca::issuer::self_signed(&*key, &name, now, now, None).unwrap();
        let root = pkit_x509::der::pem::encode("CERTIFICATE", &der);
        std::fs::write(d.path().join("a.pem"), &root).unwrap();
        std::os::unix::fs::symlink(d.path().join("a.pem"), d.path().join("1a2b3c4d.0")).unwrap();
        std::fs::write(d.path().join("README"), "not a certificate\n").unwrap();
        std::fs::write(
            d.path().join("cacerts"),
            [0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2],
        )
        .unwrap();
        std::fs::create_dir(d.path().join("java")).unwrap();
        let s = TrustStore::read(&[d.path().to_path_buf()]).unwrap();
        assert_eq!((s.certs.len(), s.duplicates), (1, 1));
        assert_eq!(s.skipped.len(), 3, "{:?}", s.skipped);
        // A file named by the caller must hold certificates.
        let e = TrustStore::read(&[d.path().join("README")]).unwrap_err();
        assert!(matches!(e, TrustStoreError::NoCertificate { .. }), "{e}");
        // A block labelled CERTIFICATE must be one, at the offset where it breaks.
        let bad = pkit_x509::der::pem::encode("CERTIFICATE", &[0x30, 0x03, 0x02, 0x01]);
        std::fs::write(d.path().join("bad.pem"), bad).unwrap();
        let e = certificates_in(&d.path().join("bad.pem")).unwrap_err();
        assert!(matches!(e, TrustStoreError::Certificate { .. }), "{e}");
    }
}
