//! Signature verification with a public key from its SubjectPublicKeyInfo.

use super::ed25519_batch;
use super::linked::{crypto, digest_name, reason, require};
use native_ossl::pkey::{Pkey, Public, SignInit, Verifier};
use pkit_x509::alg::{Algorithm, SignatureScheme};
use pkit_x509::backend::VerifyItem;
use pkit_x509::backend::{BackendError, Result};
use pkit_x509::der::oid_registry as oids;
use pkit_x509::key::kind::{spki_key_kind, KeyKind};
use pkit_x509::spki::Spki;

/// `Backend::verify`: `Ok(false)` for a signature that does not verify, including one
/// under a scheme this key's type cannot make.
pub(super) fn verify(
    spki_der: &[u8],
    scheme: SignatureScheme,
    message: &[u8],
    signature: &[u8],
) -> Result<bool> {
    let kind = spki_key_kind(spki_der)?;
    let fits = match (kind, scheme) {
        (KeyKind::Rsa, s) => matches!(
            s,
            SignatureScheme::RsaPkcs1Sha1
                | SignatureScheme::RsaPkcs1Sha256
                | SignatureScheme::RsaPkcs1Sha384
                | SignatureScheme::RsaPkcs1Sha512
                | SignatureScheme::RsaPss { .. }
        ),
        (KeyKind::Fixed(Algorithm::EcdsaP256 | Algorithm::EcdsaP384), s) => matches!(
            s,
            SignatureScheme::EcdsaSha1
                | SignatureScheme::EcdsaSha256
                | SignatureScheme::EcdsaSha384
                | SignatureScheme::EcdsaSha512
        ),
        // DSA (FIPS 186-4) through OpenSSL's EVP, as any other scheme: RFC 5280 paths
        // may still hold DSA keys (NIST PKITS 4.1.4, 4.1.5). The `webpki` rules refuse
        // DSA keys before any signature is checked (BR §6.1.5).
        (KeyKind::Dsa, s) => matches!(
            s,
            SignatureScheme::DsaSha1 | SignatureScheme::DsaSha224 | SignatureScheme::DsaSha256
        ),
        (KeyKind::Fixed(a), s) => a.default_scheme() == s,
    };
    if !fits {
        // A key of another type did not make this signature: a negative answer, the
        // same as any other signature that does not verify under this key.
        return Ok(false);
    }
    if let KeyKind::Fixed(a) = kind {
        require(a)?;
    }
    let key = public_key(spki_der)?;
    let md = match scheme.digest() {
        Some(d) => Some(
            native_ossl::digest::cached(digest_name(d))
                .ok_or_else(|| BackendError::Crypto(format!("{d:?} is not available")))?,
        ),
        None => None,
    };
    let pss = match (scheme, &md) {
        (SignatureScheme::RsaPss { salt_len, .. }, Some(md)) => {
            let salt = i32::try_from(salt_len).map_err(|_| {
                BackendError::BadKey(format!("RSA-PSS salt length {salt_len} is out of range"))
            })?;
            Some(native_ossl::pkey::rsa_pss_params(md, salt).map_err(crypto("RSA-PSS"))?)
        }
        _ => None,
    };
    let mut v = Verifier::new(&key, &SignInit::new(md.as_ref(), pss.as_ref()))
        .map_err(crypto("verification"))?;
    // A malformed signature (bad DER in an ECDSA value, wrong length) is a signature
    // that does not verify, not a failure of the verifier.
    Ok(v.verify_oneshot(message, signature).unwrap_or(false))
}

/// `Backend::verify_batch`: Ed25519 signatures through [`ed25519_batch`], the rest —
/// and any the batch leaves undecided — one by one through [`verify`].
pub(super) fn verify_batch(items: &[VerifyItem<'_>]) -> Vec<Result<bool>> {
    let mut at = Vec::new();
    let mut ed = Vec::new();
    for (i, it) in items.iter().enumerate() {
        if let Some(e) = ed25519_item(it) {
            at.push(i);
            ed.push(e);
        }
    }
    let mut decided = vec![None; items.len()];
    for (i, v) in at.into_iter().zip(ed25519_batch::verify(&ed)) {
        decided[i] = v;
    }
    items
        .iter()
        .zip(decided)
        .map(|(it, d)| match d {
            Some(v) => Ok(v),
            None => verify(it.spki_der, it.scheme, it.message, it.signature),
        })
        .collect()
}

/// `it` as a batchable Ed25519 signature: an Ed25519 key under the Ed25519 scheme, with
/// a 32-byte key and a 64-byte signature (anything else is for [`verify`] to judge).
fn ed25519_item<'a>(it: &VerifyItem<'a>) -> Option<ed25519_batch::Item<'a>> {
    if it.scheme != SignatureScheme::Ed25519 {
        return None;
    }
    // One parse: RFC 8410's form only (the Ed25519 OID, parameters absent, whole
    // octets). OpenSSL refuses a key with parameters, so the batch must not decide it.
    let spki = Spki::from_der(it.spki_der).ok()?;
    if spki.algorithm.oid != oids::ED25519
        || spki.algorithm.params.is_some()
        || spki.key.unused_bits != 0
    {
        return None;
    }
    Some(ed25519_batch::Item {
        key: spki.key.bytes.try_into().ok()?,
        message: it.message,
        signature: it.signature.try_into().ok()?,
    })
}

/// Decode an SPKI, remembering the last [`KEEP`](public_key) per thread. OpenSSL's
/// decoder takes 15-40 µs per key (OpenSSL 3.5.5, release build, on the development
/// machine), up to half the cost of an ECDSA verification, and verifications repeat
/// keys: a batch its issuer's, an ACME server its accounts'.
fn public_key(spki: &[u8]) -> Result<Pkey<Public>> {
    /// Keys kept per thread. An ACME server verifies every request's JWS under its
    /// account's key, many accounts in turn: with four kept, nearly every request
    /// decoded its key again (a quarter of the server's time in signature checks,
    /// docs/perf.md).
    const KEEP: usize = 1024;
    thread_local! {
        static KEPT: std::cell::RefCell<KeyCache> = std::cell::RefCell::default();
    }
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some(key) = kept.keys.get(spki) {
            return Ok(key.clone());
        }
        let key = Pkey::<Public>::from_der(spki)
            .map_err(|e| BackendError::BadKey(format!("not a valid public key: {}", reason(&e))))?;
        // The oldest goes first: a verify run over many issuers keeps the latest.
        if kept.order.len() >= KEEP {
            if let Some(old) = kept.order.pop_front() {
                kept.keys.remove(&old);
            }
        }
        kept.order.push_back(spki.to_vec());
        kept.keys.insert(spki.to_vec(), key.clone());
        Ok(key)
    })
}

/// Public keys decoded from their SPKI, and the order they came in.
#[derive(Default)]
struct KeyCache {
    keys: std::collections::HashMap<Vec<u8>, Pkey<Public>>,
    order: std::collections::VecDeque<Vec<u8>>,
}
