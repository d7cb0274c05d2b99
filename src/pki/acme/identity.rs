//! The ACME server's own HTTPS identity when the operator gives none: a certificate the
//! CA issues for the server's host, kept in the CA directory ([`CERT_FILE`], and the key
//! in [`KEY_FILE`], mode 0600) and used again at the next start while it still fits —
//! the same host, the same CA chain, its key, and over a third of its validity left — so
//! that restarting the server neither signs a new certificate nor adds one to the CA's
//! records each time.

use crate::ca::Ca;
use crate::finalize::server_identity;
use crate::problem::Problem;
use pkit_ca::store::CaStore;
use pkit_store::atomic_file;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;
use pkit_x509::cert::Certificate;
use pkit_x509::der::{pem, Time};
use pkit_x509::san::sans_of;
use std::path::Path;

/// The certificate chain, PEM, leaf first.
pub const CERT_FILE: &str = "acme-tls.pem";
/// Its private key, PKCS#8 PEM.
pub const KEY_FILE: &str = "acme-tls.key";

/// The server's certificate chain and key, and whether they were kept from before.
#[derive(Debug, Clone)]
pub struct ServerIdentity {
    /// The chain, PEM, leaf first.
    pub chain_pem: String,
    /// The leaf's private key, PKCS#8 PEM.
    pub key_pem: String,
    /// Read back from the CA directory rather than issued now.
    pub reused: bool,
}

/// Why the server has no identity.
#[derive(Debug)]
pub enum IdentityError {
    /// The CA would not issue it.
    Issue(Problem),
    /// It could not be kept in the CA directory.
    Write(std::io::Error),
}

impl std::fmt::Display for IdentityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IdentityError::Issue(p) => f.write_str(&p.detail),
            IdentityError::Write(e) => write!(f, "keeping it in the CA directory: {e}"),
        }
    }
}

impl std::error::Error for IdentityError {}

/// The identity kept in `dir` when it still fits `host` and `ca` at `now`; else a new
/// one issued by `ca` (recorded in `store`) and kept in `dir` for the next start.
pub fn load_or_issue(
    dir: &Path,
    ca: &Ca,
    store: &mut dyn CaStore,
    host: &str,
    backend: &Backend,
    now: Time,
) -> Result<ServerIdentity, IdentityError> {
    let (cert_file, key_file) = (dir.join(CERT_FILE), dir.join(KEY_FILE));
    if let (Ok(chain_pem), Ok(key_pem)) = (
        std::fs::read_to_string(&cert_file),
        std::fs::read_to_string(&key_file),
    ) {
        if fits(&chain_pem, &key_pem, ca, host, backend, now) {
            return Ok(ServerIdentity {
                chain_pem,
                key_pem,
                reused: true,
            });
        }
    }
    let (chain_pem, key_pem) =
        server_identity(ca, store, host, backend, now).map_err(IdentityError::Issue)?;
    // The key first: a certificate on disk is only ever beside its own key.
    let write = |path: &Path, text: &str, private: bool| {
        atomic_file::create(path, true, private, |w| w.write_all(text.as_bytes()))
    };
    write(&key_file, &key_pem, true).map_err(IdentityError::Write)?;
    write(&cert_file, &chain_pem, false).map_err(IdentityError::Write)?;
    Ok(ServerIdentity {
        chain_pem,
        key_pem,
        reused: false,
    })
}

/// Whether a kept chain and key still serve: the leaf names `host`, the rest is `ca`'s
/// served chain, the key is the leaf's, and over a third of its validity is left at `now`
/// (renewed well before clients would see it expire, as ACME clients renew).
fn fits(chain_pem: &str, key_pem: &str, ca: &Ca, host: &str, backend: &Backend, now: Time) -> bool {
    let blocks: Vec<Vec<u8>> = pem::blocks(chain_pem.as_bytes())
        .into_iter()
        .filter_map(Result::ok)
        .map(|b| b.der)
        .collect();
    let Some((leaf_der, rest)) = blocks.split_first() else {
        return false;
    };
    if rest != ca.chain.as_slice() {
        return false;
    }
    let Ok(leaf) = Certificate::from_der(leaf_der) else {
        return false;
    };
    let Ok((not_before, not_after)) = leaf.validity() else {
        return false;
    };
    let third = (not_after.unix - not_before.unix) / 3;
    if now.unix < not_before.unix || now.unix > not_after.unix - third {
        return false;
    }
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let names = sans_of(&leaf);
    let named = names.iter().any(|n| {
        n.strip_prefix("DNS:")
            .is_some_and(|d| d.eq_ignore_ascii_case(host))
            || n.strip_prefix("IP:").is_some_and(|ip| ip == host)
    });
    if !named {
        return false;
    }
    let Ok(key) = pem::decode(key_pem.as_bytes()) else {
        return false;
    };
    backend
        .private_key_from_pkcs8(&key.der, Algorithm::EcdsaP256)
        .and_then(|k| leaf.certifies_key(k.as_ref()))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkit_ca::issuer::{self_signed, Issuer};
    use pkit_openssl as openssl;
    use pkit_x509::subject::parse_subject;
    use std::os::unix::fs::PermissionsExt;

    fn ca(backend: &Backend, now: Time) -> Ca {
        let key = backend.generate(Algorithm::EcdsaP256).unwrap();
        let der = self_signed(
            &*key,
            &parse_subject("CN=Identity Test CA").unwrap(),
            now.plus_seconds(-3600),
            now.plus_seconds(86_400 * 730),
            None,
        )
        .unwrap();
        Ca {
            issuer: Issuer::new(der.clone(), key).unwrap(),
            chain: vec![der],
        }
    }

    #[test]
    fn kept_while_it_fits_then_issued_again() {
        let be = openssl::backend();
        let dir = tempfile::tempdir().unwrap();
        let now = Time::now();
        let ca = ca(be, now);
        let mut store = pkit_ca::store::open(&dir.path().join("ca.db")).unwrap();
        let mut get = |host: &str, at: Time| {
            load_or_issue(dir.path(), &ca, store.as_mut(), host, be, at).unwrap()
        };
        let first = get("acme.example", now);
        assert!(!first.reused);
        let mode = std::fs::metadata(dir.path().join(KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        // The next start: the same certificate, nothing new signed.
        let again = get("ACME.example", now.plus_seconds(60));
        assert!(again.reused);
        assert_eq!(again.chain_pem, first.chain_pem);
        // Another host, or two thirds of its validity gone: a new one.
        let leaf = pem::blocks(first.chain_pem.as_bytes())
            .remove(0)
            .unwrap()
            .der;
        let (_, not_after) = Certificate::from_der(&leaf).unwrap().validity().unwrap();
        let late = get("acme.example", not_after.plus_seconds(-3600));
        assert!(!late.reused);
        assert!(!get("127.0.0.1", now).reused);
        assert!(get("[127.0.0.1]", now).reused);
        assert_eq!(store.count().unwrap(), 3);
        // A damaged file is replaced, not served.
        std::fs::write(dir.path().join(CERT_FILE), "not a certificate").unwrap();
        let fresh = load_or_issue(dir.path(), &ca, store.as_mut(), "127.0.0.1", be, now).unwrap();
        assert!(!fresh.reused);
    }
}
