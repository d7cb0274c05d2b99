//! Trust anchors from the paths `--roots` names, read as `openssl verify -CApath` reads a
//! certificate directory: a file named on the command line must hold certificates; in a
//! directory, every regular file that holds certificates (found by content, whatever its
//! name: hash links, `*.pem`, `*.crt`, a bundle) gives them, and everything else there
//! (a Java keystore, CRLs, a README, subdirectories) is skipped. The same certificate
//! found twice — a hash link beside the file it points to, a bundle beside its parts — is
//! kept once.

use super::error::{CliError, CliResult};
use super::io::{self, InForm};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// What a set of trust-store paths held.
#[derive(Debug, Default)]
pub struct TrustStore {
    /// (where it was found, DER), each certificate once, in the order found.
    pub certs: Vec<(String, Vec<u8>)>,
    /// Files in directories that held no certificate, and why.
    pub skipped: Vec<String>,
    /// Certificates found again (counted once).
    pub duplicates: usize,
}

impl TrustStore {
    /// Read `paths` (`flag` names them in messages).
    pub fn read(paths: &[PathBuf], flag: &str) -> CliResult<TrustStore> {
        let mut store = TrustStore::default();
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        for p in paths {
            if p.is_dir() {
                store.read_dir(p, &mut seen)?;
                continue;
            }
            let shown = p.display().to_string();
            let certs = certificates_in(p).map_err(|e| {
                // An I/O failure stays one; what does not decode is no certificate.
                if e.exit != super::error::Exit::Parse {
                    return e;
                }
                let why = e
                    .message
                    .strip_prefix(&format!("{shown}: "))
                    .unwrap_or(&e.message);
                CliError::parse(format!("{flag} {shown}: holds no certificate ({why})"))
            })?;
            if certs.is_empty() {
                return Err(CliError::parse(format!(
                    "{flag} {shown}: holds no certificate"
                )));
            }
            store.keep(certs, &mut seen);
        }
        Ok(store)
    }

    fn read_dir(&mut self, dir: &Path, seen: &mut HashSet<Vec<u8>>) -> CliResult {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| CliError::io_at(&dir.display().to_string(), &e))?
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
                Err(e) => self.skipped.push(e.message),
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

/// The certificates a file holds (PEM blocks of other kinds are passed over); an error
/// when it cannot be read or a certificate in it does not decode.
fn certificates_in(path: &Path) -> CliResult<Vec<(String, Vec<u8>)>> {
    let src = io::read_source(path)?;
    let mut out = Vec::new();
    for item in io::split_items(src, InForm::Auto) {
        let item = item?;
        let parsed = pkit::pki::cert::Certificate::from_der(&item.der);
        match item.label.as_deref() {
            // A certificate by its label must decode; one by its shape is one if it does.
            Some("CERTIFICATE" | "TRUSTED CERTIFICATE" | "X509 CERTIFICATE") => {
                parsed.map_err(|e| CliError::der(&item.name, &e))?;
            }
            Some(_) => continue,
            None if parsed.is_err() => continue,
            None => {}
        }
        out.push((item.name, item.der));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_is_read_by_content_and_duplicates_count_once() {
        let d = tempfile::tempdir().unwrap();
        let be = pkit::pki::backend::openssl::backend();
        let key = be.generate(pkit::pki::alg::Algorithm::Ed25519).unwrap();
        let now = pkit::der::Time::now();
        let name = pkit::pki::ca::subject::parse_subject("CN=Store Root").unwrap();
        let der = pkit::pki::ca::issuer::self_signed(&*key, &name, now, now, None).unwrap();
        let root = io::pem_encode("CERTIFICATE", &der);
        std::fs::write(d.path().join("a.pem"), &root).unwrap();
        std::os::unix::fs::symlink(d.path().join("a.pem"), d.path().join("1a2b3c4d.0")).unwrap();
        std::fs::write(d.path().join("README"), "not a certificate\n").unwrap();
        std::fs::write(
            d.path().join("cacerts"),
            [0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2],
        )
        .unwrap();
        std::fs::create_dir(d.path().join("java")).unwrap();
        let s = TrustStore::read(&[d.path().to_path_buf()], "--roots").unwrap();
        assert_eq!((s.certs.len(), s.duplicates), (1, 1));
        assert_eq!(s.skipped.len(), 3, "{:?}", s.skipped);
        // A file named on the command line must hold certificates.
        let e = TrustStore::read(&[d.path().join("README")], "--roots").unwrap_err();
        assert!(e.message.contains("holds no certificate"), "{}", e.message);
    }
}
