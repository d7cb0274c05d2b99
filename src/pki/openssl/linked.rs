//! What the linked OpenSSL is and offers: its version, the algorithms it can generate,
//! its names for them, how its errors read, and the digests. Every other part of the
//! backend builds on this file.

use super::ffi;
use native_ossl::digest::DigestAlg;
use native_ossl::error::ErrorStack;
use native_ossl::pkey::KeygenCtx;
use pkit_x509::alg::{Algorithm, Digest};
use pkit_x509::backend::{BackendError, Result};
use std::ffi::CStr;
use std::sync::OnceLock;

/// The linked library's version text, e.g. "OpenSSL 3.5.5 27 Jan 2026".
pub(super) fn openssl_version() -> &'static str {
    static V: OnceLock<String> = OnceLock::new();
    V.get_or_init(|| {
        // SAFETY: OpenSSL_version returns a pointer to a static NUL-terminated string
        // (or NULL for an unknown selector, which OPENSSL_VERSION is not).
        let p = unsafe { ffi::OpenSSL_version(ffi::OPENSSL_VERSION) };
        if p.is_null() {
            return "OpenSSL (unknown version)".into();
        }
        // SAFETY: non-null, static, NUL-terminated (see above).
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    })
}

/// The first reason on an OpenSSL error stack, for one-line messages.
pub(super) fn reason(e: &ErrorStack) -> String {
    e.errors()
        .find_map(|x| x.reason().map(str::to_owned))
        .unwrap_or_else(|| "unspecified OpenSSL error".into())
}

pub(super) fn crypto(what: &'static str) -> impl FnOnce(ErrorStack) -> BackendError {
    move |e| BackendError::Crypto(format!("{what}: {}", reason(&e)))
}

/// OpenSSL's key management name for each algorithm.
pub(super) fn keymgmt_name(alg: Algorithm) -> &'static CStr {
    match alg {
        Algorithm::EcdsaP256 | Algorithm::EcdsaP384 => c"EC",
        Algorithm::Ed25519 => c"ED25519",
        Algorithm::Rsa2048 | Algorithm::Rsa3072 | Algorithm::Rsa4096 => c"RSA",
        Algorithm::MlDsa44 => c"ML-DSA-44",
        Algorithm::MlDsa65 => c"ML-DSA-65",
        Algorithm::MlDsa87 => c"ML-DSA-87",
    }
}

pub(super) fn digest_name(d: Digest) -> &'static CStr {
    match d {
        Digest::Sha1 => c"SHA1",
        Digest::Sha224 => c"SHA224",
        Digest::Sha256 => c"SHA256",
        Digest::Sha384 => c"SHA384",
        Digest::Sha512 => c"SHA512",
    }
}

/// Which algorithms the linked OpenSSL can generate, probed once by fetching each key
/// manager (ML-DSA's exists from OpenSSL 3.5 on).
fn probe() -> &'static [bool; 9] {
    static P: OnceLock<[bool; 9]> = OnceLock::new();
    P.get_or_init(|| Algorithm::ALL.map(|a| KeygenCtx::new(keymgmt_name(a)).is_ok()))
}

pub(super) fn unsupported(alg: Algorithm) -> BackendError {
    BackendError::Unsupported(format!(
        "{alg} is not available in the linked {}: it needs OpenSSL >= 3.5 \
         (`cargo xtask build` provides OpenSSL 3.5)",
        openssl_version()
    ))
}

/// Whether the linked OpenSSL can generate `alg` keys.
pub(super) fn supports(alg: Algorithm) -> bool {
    Algorithm::ALL
        .iter()
        .position(|a| *a == alg)
        .is_some_and(|i| probe()[i])
}

/// `Ok` when the linked OpenSSL offers `alg`, else `Unsupported` saying which is needed.
pub(super) fn require(alg: Algorithm) -> Result<()> {
    if supports(alg) {
        Ok(())
    } else {
        Err(unsupported(alg))
    }
}

/// The hash of `data`: the SHA-2 family in Rust (no OpenSSL context to set up per call),
/// SHA-1 from OpenSSL.
pub(super) fn digest(alg: Digest, data: &[u8]) -> Vec<u8> {
    use sha2::Digest as _;
    match alg {
        Digest::Sha224 => sha2::Sha224::digest(data).to_vec(),
        Digest::Sha256 => sha2::Sha256::digest(data).to_vec(),
        Digest::Sha384 => sha2::Sha384::digest(data).to_vec(),
        Digest::Sha512 => sha2::Sha512::digest(data).to_vec(),
        // SHA-1 is in every OpenSSL 3 default provider. Should a configuration remove
        // it, the empty result matches no expected digest, so callers fail closed.
        Digest::Sha1 => DigestAlg::fetch(c"SHA1", None)
            .and_then(|md| md.digest_to_vec(data))
            .unwrap_or_default(),
    }
}
