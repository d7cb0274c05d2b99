//! Loading a private key to sign with. The key file is read here once, all of it:
//! decrypted if it is encrypted, unwrapped if it is a traditional RSA or EC key, its
//! algorithm and (for ML-DSA) its form checked. The backend then gets a PKCS#8 key whose
//! algorithm is known and turns it into a signing key.

use super::encrypted::{is_encrypted, EncryptedPrivateKeyInfo};
use super::inner::{is_dsa_private_key, wrap_traditional};
use super::kind::{bad_key, key_kind, unsupported, KeyKind};
use super::ml_dsa::MlDsaPrivateKey;
use super::pbe::{prf_hash, Kdf, PbeScheme};
use super::pkcs8::PrivateKeyInfo;
use crate::alg::Algorithm;
use crate::backend::pbe::{Hash, PbeCipher};
use crate::backend::{Backend, BackendError, PrivateKey, Result};
use crate::der::oid_registry as oids;
use crate::der::Reader;

/// PEM labels a private key may carry. The traditional ones hold an `RSAPrivateKey` or
/// `ECPrivateKey`, which [`load_private`] wraps.
pub const PRIVATE_KEY_LABELS: [&str; 4] = [
    "PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "RSA PRIVATE KEY",
    "EC PRIVATE KEY",
];

/// Whether an object of a key file, with this PEM label (`None`: DER or base64, which
/// carry none), may be the key: a key file's first such object is its key, and the
/// certificates a bundle holds beside it are passed over.
pub fn may_be_private_key(label: Option<&str>) -> bool {
    label.is_none_or(|l| PRIVATE_KEY_LABELS.contains(&l))
}

/// Whether a private key object is encrypted, so that a password is needed before
/// [`load_private`]: its PEM label says so, or its DER is an `EncryptedPrivateKeyInfo`.
pub fn is_encrypted_key(label: Option<&str>, der: &[u8]) -> bool {
    label == Some("ENCRYPTED PRIVATE KEY") || is_encrypted(der)
}

/// Load a private key from DER: `PrivateKeyInfo`/`OneAsymmetricKey`, a traditional
/// `RSAPrivateKey` or `ECPrivateKey`, or `EncryptedPrivateKeyInfo` when a password is
/// given. ML-DSA keys in seed, expanded or both forms.
pub fn load_private(
    backend: &Backend,
    der: &[u8],
    password: Option<&[u8]>,
) -> Result<Box<dyn PrivateKey>> {
    if !is_encrypted(der) {
        return load_plain(backend, der);
    }
    let Some(password) = password else {
        return Err(BadPasswordKind::Missing.into());
    };
    let mut plain = decrypt(backend, der, password)?;
    let key = match load_plain(backend, &plain) {
        // Decrypting with a wrong password yields random bytes that, about once in
        // 256 tries, still end in valid CBC padding.
        Err(BackendError::BadKey(_) | BackendError::BadKeyAt(_)) => {
            Err(BadPasswordKind::Wrong.into())
        }
        r => r,
    };
    plain.fill(0);
    key
}

/// An unencrypted key, PKCS#8 or traditional.
fn load_plain(backend: &Backend, der: &[u8]) -> Result<Box<dyn PrivateKey>> {
    match PrivateKeyInfo::from_der(der) {
        Ok(info) => load_pkcs8(backend, &info),
        Err(e) => {
            let Some(mut wrapped) = wrap_traditional(der) else {
                if is_dsa_private_key(der) {
                    return Err(unsupported("key algorithm", oids::DSA.id()));
                }
                return Err(bad_key(e));
            };
            let key = PrivateKeyInfo::from_der(&wrapped)
                .map_err(bad_key)
                .and_then(|info| load_pkcs8(backend, &info));
            wrapped.fill(0);
            key
        }
    }
}

fn load_pkcs8(backend: &Backend, info: &PrivateKeyInfo<'_>) -> Result<Box<dyn PrivateKey>> {
    let mut algid = Reader::new(info.algorithm.raw);
    let mut content = algid.read_sequence().map_err(bad_key)?;
    let alg = match key_kind(&mut content)? {
        KeyKind::Rsa => match info.rsa_bits().map_err(bad_key)? {
            2048 => Algorithm::Rsa2048,
            3072 => Algorithm::Rsa3072,
            4096 => Algorithm::Rsa4096,
            bits => {
                return Err(BackendError::Unsupported(format!(
                    "RSA-{bits} keys are not supported; pkit handles RSA 2048, 3072 and 4096"
                )))
            }
        },
        KeyKind::Dsa => {
            return Err(BackendError::Unsupported(format!(
                "DSA private keys are not supported (pkit verifies DSA signatures only); \
                 pkit handles {}",
                Algorithm::names_list()
            )))
        }
        KeyKind::Fixed(alg) => {
            backend.require(alg)?;
            if alg.is_ml_dsa() {
                MlDsaPrivateKey::read(Reader::new(info.private_key), alg)
                    .map_err(|e| BackendError::BadKey(format!("{alg} private key: {e}")))?;
            }
            alg
        }
    };
    backend.private_key_from_pkcs8(info.raw, alg)
}

/// Decrypt an `EncryptedPrivateKeyInfo` to its `OneAsymmetricKey` DER.
fn decrypt(backend: &Backend, der: &[u8], password: &[u8]) -> Result<Vec<u8>> {
    let invalid = |e| BackendError::BadKey(format!("not a valid encrypted private key: {e}"));
    let epki = EncryptedPrivateKeyInfo::from_der(der).map_err(invalid)?;
    let scheme = epki.scheme().map_err(invalid)?;
    if let Some(name) = unimplemented(&scheme) {
        // The backend derives the key as the file says: bounded first as pkit's own
        // derivations are, or one file could ask for 2^31 iterations (minutes of CPU).
        bound_work(&scheme)?;
        return backend.pbe().decrypt_other_pkcs8(der, password, &name);
    }
    match scheme.decrypt(
        backend,
        &crate::key::cost::Allowance::new(),
        Some(password),
        epki.encrypted_data,
    ) {
        Err(BackendError::BadPassword(_)) => Err(BadPasswordKind::Wrong.into()),
        r => r,
    }
}

/// The key derivation `scheme` asks for, refused past pkit's limits (`key::cost`).
fn bound_work(scheme: &PbeScheme<'_>) -> Result<()> {
    use crate::key::cost::{bound_iterations, bound_scrypt};
    match scheme {
        PbeScheme::Pbes2 { kdf, .. } => match kdf {
            Kdf::Pbkdf2 { iterations, .. } => bound_iterations(*iterations, "PBKDF2"),
            Kdf::Scrypt {
                cost,
                block_size,
                parallelization,
                ..
            } => bound_scrypt(*cost, *block_size, *parallelization),
            Kdf::Unknown(_) => Ok(()),
        },
        PbeScheme::Pkcs12 { iterations, .. } => bound_iterations(*iterations, "PKCS#12 PBE"),
        PbeScheme::Pbes1 { iterations, .. } => bound_iterations(*iterations, "PBES1"),
        PbeScheme::Unknown(_) => Ok(()),
    }
}

/// The name of a scheme this path leaves to the backend's own decoder, for messages.
/// Keys to sign with are decrypted here when they use PBES2 with PBKDF2 (an HMAC over
/// SHA-1 or SHA-2) or scrypt, and AES-CBC or triple DES: what pkit and common tools
/// write. Everything else (PBES1, the PKCS#12 PBEs, rarer PBES2 choices) goes to the
/// backend, so which of those files open, and what a failure says, is the backend's.
fn unimplemented(scheme: &PbeScheme<'_>) -> Option<String> {
    match scheme {
        PbeScheme::Pbes2 {
            kdf,
            encryption_scheme,
            cipher,
            ..
        } => match kdf {
            Kdf::Pbkdf2 { salt: None, .. } => Some("PBKDF2 with salt otherSource".into()),
            Kdf::Pbkdf2 { prf: Some(p), .. }
                if !matches!(
                    prf_hash(Some(p)),
                    Some(Hash::Sha1 | Hash::Sha224 | Hash::Sha256 | Hash::Sha384 | Hash::Sha512)
                ) =>
            {
                Some(format!("PBKDF2 with PRF {}", p.oid.name_or_dotted()))
            }
            Kdf::Unknown(a) => Some(format!("PBES2 with KDF {}", a.oid.name_or_dotted())),
            _ if !matches!(
                cipher,
                Some(
                    PbeCipher::Aes128Cbc
                        | PbeCipher::Aes192Cbc
                        | PbeCipher::Aes256Cbc
                        | PbeCipher::DesEde3Cbc
                )
            ) =>
            {
                Some(format!(
                    "PBES2 with cipher {}",
                    encryption_scheme.oid.name_or_dotted()
                ))
            }
            _ => None,
        },
        PbeScheme::Pkcs12 { algorithm, .. } | PbeScheme::Pbes1 { algorithm, .. } => {
            Some(algorithm.name_or_dotted())
        }
        PbeScheme::Unknown(a) => Some(a.oid.name_or_dotted()),
    }
}

/// Why a password did not open a key.
enum BadPasswordKind {
    Missing,
    Wrong,
}

impl From<BadPasswordKind> for BackendError {
    fn from(k: BadPasswordKind) -> Self {
        BackendError::BadPassword(
            match k {
                BadPasswordKind::Missing => "the private key is encrypted and a password is needed",
                BadPasswordKind::Wrong => "wrong password: the private key does not decrypt",
            }
            .into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_objects_of_a_key_file_are_keys() {
        for label in PRIVATE_KEY_LABELS {
            assert!(may_be_private_key(Some(label)), "{label}");
        }
        assert!(may_be_private_key(None), "DER or base64 has no label");
        assert!(!may_be_private_key(Some("CERTIFICATE")));
        assert!(!may_be_private_key(Some("PUBLIC KEY")));
        assert!(is_encrypted_key(Some("ENCRYPTED PRIVATE KEY"), &[]));
        assert!(!is_encrypted_key(Some("PRIVATE KEY"), &[0x30, 0x00]));
        assert!(!is_encrypted_key(None, &[0x30, 0x00]));
    }
}
