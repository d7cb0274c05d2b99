//! Checking the signature on any signed structure (certificate, CRL, CSR, OCSP response):
//! `SEQUENCE { tbs, signatureAlgorithm, signature BIT STRING }` verified with a signer's
//! SubjectPublicKeyInfo. One place decides which algorithm identifiers pkit verifies.

#![forbid(unsafe_code)]

use crate::algid::AlgId;
use crate::backend::{Backend, BackendError, VerifyItem};

/// Why a signature could not be checked (as opposed to checked and found bad).
#[non_exhaustive]
#[derive(Debug)]
pub enum SignedError {
    /// The signature algorithm is not one pkit verifies (exit 5).
    UnsupportedAlgorithm(String),
    /// The algorithm identifier is malformed (exit 3).
    BadAlgorithm(String),
    /// The backend could not check the signature.
    Backend(BackendError),
}

impl std::fmt::Display for SignedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SignedError::UnsupportedAlgorithm(n) => {
                write!(f, "signature algorithm {n} is not supported")
            }
            SignedError::BadAlgorithm(m) => write!(f, "signature algorithm: {m}"),
            SignedError::Backend(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SignedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SignedError::Backend(e) => Some(e),
            SignedError::UnsupportedAlgorithm(_) | SignedError::BadAlgorithm(_) => None,
        }
    }
}

impl From<BackendError> for SignedError {
    fn from(e: BackendError) -> Self {
        SignedError::Backend(e)
    }
}

/// The backend question [`verify_signed`] asks: `Err` for an algorithm pkit does not
/// verify or a malformed one, as [`verify_signed`] reports it.
pub fn verify_item<'a>(
    signer_spki: &'a [u8],
    alg: &AlgId<'_>,
    tbs: &'a [u8],
    signature: &'a [u8],
) -> Result<VerifyItem<'a>, SignedError> {
    let scheme = alg
        .signature_scheme()
        .map_err(|e| SignedError::BadAlgorithm(e.to_string()))?
        .ok_or_else(|| SignedError::UnsupportedAlgorithm(alg.name()))?;
    Ok(VerifyItem {
        spki_der: signer_spki,
        scheme,
        message: tbs,
        signature,
    })
}

/// True when `signature` over `tbs` verifies under `signer_spki` (DER SPKI) with the
/// scheme `alg` names, checked by `backend`. False also covers a key of the wrong type
/// for the scheme.
pub fn verify_signed(
    backend: &Backend,
    signer_spki: &[u8],
    alg: &AlgId<'_>,
    tbs: &[u8],
    signature: &[u8],
) -> Result<bool, SignedError> {
    let q = verify_item(signer_spki, alg, tbs, signature)?;
    Ok(backend.verify(q.spki_der, q.scheme, q.message, q.signature)?)
}
