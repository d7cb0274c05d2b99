//! The backend's capabilities — making keys, checking signatures, hashing, TLS (with
//! `pbe.rs`'s password-based cryptography) — and a private key one holds, and a signing
//! context. They speak DER and the enums of `pki::alg`.

use super::error::{BackendError, Result};
use crate::alg::{Algorithm, Digest, SignatureScheme};
use crate::key::ml_dsa::MlDsaKeyFormat;
use std::fmt;

/// A private key held by the backend. `Send + Sync`: one CA key serves every thread.
pub trait PrivateKey: Send + Sync + fmt::Debug {
    /// The key's algorithm (type and size or parameter set).
    fn algorithm(&self) -> Algorithm;
    /// SubjectPublicKeyInfo DER.
    fn public_key_der(&self) -> Result<Vec<u8>>;
    /// Unencrypted PKCS#8 (OneAsymmetricKey) DER.
    fn to_pkcs8_der(&self, format: MlDsaKeyFormat) -> Result<Vec<u8>>;
    /// A reusable signing context for one thread, signing with the key's default scheme.
    fn signer(&self) -> Result<Box<dyn Signer>>;
    /// One signature with a fresh context (convenience for single operations).
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>> {
        self.signer()?.sign(message)
    }
}

/// One key with several holders (a CA's issuer and its OCSP responder): a key in a token
/// cannot be copied out, so holders share the handle instead.
impl<K: PrivateKey + ?Sized> PrivateKey for std::sync::Arc<K> {
    fn algorithm(&self) -> Algorithm {
        (**self).algorithm()
    }
    fn public_key_der(&self) -> Result<Vec<u8>> {
        (**self).public_key_der()
    }
    fn to_pkcs8_der(&self, format: MlDsaKeyFormat) -> Result<Vec<u8>> {
        (**self).to_pkcs8_der(format)
    }
    fn signer(&self) -> Result<Box<dyn Signer>> {
        (**self).signer()
    }
}

/// A per-thread signing context: creating one costs more than a signature, so callers
/// that sign many messages keep one per thread.
pub trait Signer: Send {
    /// The scheme every signature from this context is made with.
    fn scheme(&self) -> SignatureScheme;
    /// Sign `message` (the scheme hashes it where it hashes).
    fn sign(&mut self, message: &[u8]) -> Result<Vec<u8>>;
}

/// Makes private keys and loads them: the capability a CA, `pkit key` and the
/// benchmarks' key generation use. OpenSSL makes keys in memory, a PKCS#11 token in the
/// token.
pub trait KeyProvider: Send + Sync {
    /// What provides the keys, e.g. "OpenSSL 3.5.5 27 Jan 2026" or a token's description.
    fn description(&self) -> String;
    /// Whether this provider can generate and sign with `alg` keys.
    fn supports(&self, alg: Algorithm) -> bool;
    /// A new key of `alg`.
    fn generate(&self, alg: Algorithm) -> Result<Box<dyn PrivateKey>>;
    /// `n` new keys of `alg`. A provider may make them together for less than `n` calls
    /// of [`KeyProvider::generate`] cost (OpenSSL: one field inversion for a batch of EC
    /// keys).
    fn generate_many(&self, alg: Algorithm, n: usize) -> Result<Vec<Box<dyn PrivateKey>>> {
        (0..n).map(|_| self.generate(alg)).collect()
    }
    /// `Ok` when `alg` is available, else `Unsupported` saying why.
    fn require(&self, alg: Algorithm) -> Result<()> {
        if self.supports(alg) {
            Ok(())
        } else {
            Err(BackendError::Unsupported(format!(
                "{alg} is not available in {}",
                self.description()
            )))
        }
    }
    /// A signing key from unencrypted PKCS#8 DER that the key model (`pki::key::load::load_private`)
    /// has read and found to be an `alg` key (an ML-DSA key's form already checked).
    fn private_key_from_pkcs8(&self, pkcs8: &[u8], alg: Algorithm) -> Result<Box<dyn PrivateKey>>;
}

/// Checks signatures: path validation, CRLs, OCSP, MTC cosignatures.
pub trait SignatureVerifier: Send + Sync {
    /// Whether `item.signature` is valid over `item.message` with the key in
    /// `item.spki_der` under `item.scheme`. `Ok(false)` for a signature that does not
    /// verify, including one under a scheme this key's type cannot make; `Err` when the key
    /// cannot be decoded or the algorithm is unavailable.
    fn verify(&self, item: &VerifyItem<'_>) -> Result<bool>;
    /// One verdict per item, each what [`SignatureVerifier::verify`] would answer for it.
    /// A verifier may check many signatures together for less (OpenSSL's: Ed25519 by one
    /// multiscalar multiplication); by default each is verified on its own.
    fn verify_batch(&self, items: &[VerifyItem<'_>]) -> Vec<Result<bool>> {
        items.iter().map(|i| self.verify(i)).collect()
    }
}

/// Message digests: fingerprints, key identifiers, OCSP CertIDs, signatures made in two
/// steps.
pub trait Hasher: Send + Sync {
    /// The digest `alg` of `data`.
    fn digest(&self, alg: Digest, data: &[u8]) -> Vec<u8>;
}

/// TLS as a client, for reading a server's certificates.
pub trait TlsClient: Send + Sync {
    /// A TLS client handshake over `stream` offering `server_name` (SNI): the
    /// certificates the server sent, leaf first, not judged (trust is `pki::verify`'s).
    fn peer_chain(
        &self,
        stream: &mut dyn TlsStream,
        server_name: Option<&str>,
    ) -> Result<Vec<Vec<u8>>>;
}

/// One signature to check: what [`SignatureVerifier::verify`] takes.
#[derive(Debug, Clone, Copy)]
pub struct VerifyItem<'a> {
    /// The signer's SubjectPublicKeyInfo DER.
    pub spki_der: &'a [u8],
    /// The signature algorithm the signature claims.
    pub scheme: SignatureScheme,
    /// The signed bytes (e.g. a TBSCertificate), not their hash.
    pub message: &'a [u8],
    /// The signature value (BIT STRING content without its unused-bits octet).
    pub signature: &'a [u8],
}

/// A connection's bytes: what a TLS handshake reads and writes.
pub trait TlsStream: std::io::Read + std::io::Write {}

impl<T: std::io::Read + std::io::Write> TlsStream for T {}
