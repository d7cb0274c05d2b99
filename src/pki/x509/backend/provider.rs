//! The backend a caller hands down: one value holding a capability of each kind, in the
//! manner of rustls's `CryptoProvider`. A PKCS#11 token brings its own key provider and
//! verifier and takes hashing, password-based cryptography and TLS from software; a
//! batch of signatures checked ahead of time replaces only the verifier. Nothing
//! forwards: a capability a backend does not change is the same shared value.

use super::api::{
    Hasher, KeyProvider, PrivateKey, SignatureVerifier, TlsClient, TlsStream, VerifyItem,
};
use super::error::Result;
use super::pbe::Pbe;
use crate::alg::{Algorithm, Digest, SignatureScheme};
use std::sync::Arc;

/// A capability of each kind. Cloning one shares its capabilities.
#[derive(Clone)]
pub struct Backend {
    /// Makes and loads private keys.
    pub keys: Arc<dyn KeyProvider>,
    /// Checks signatures.
    pub verifier: Arc<dyn SignatureVerifier>,
    /// Password-based encryption, key derivation and MACs (PKCS#5, PKCS#12).
    pub pbe: Arc<dyn Pbe>,
    /// Message digests.
    pub hasher: Arc<dyn Hasher>,
    /// TLS as a client.
    pub tls: Arc<dyn TlsClient>,
}

impl std::fmt::Debug for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Backend")
            .field("keys", &self.keys.description())
            .finish_non_exhaustive()
    }
}

impl Backend {
    /// This backend with `verifier` checking its signatures.
    pub fn with_verifier(&self, verifier: Arc<dyn SignatureVerifier>) -> Backend {
        Backend {
            verifier,
            ..self.clone()
        }
    }

    /// This backend with `keys` making and loading its keys.
    pub fn with_keys(&self, keys: Arc<dyn KeyProvider>) -> Backend {
        Backend {
            keys,
            ..self.clone()
        }
    }

    /// What provides the keys, e.g. "OpenSSL 3.5.5 27 Jan 2026".
    pub fn version(&self) -> String {
        self.keys.description()
    }

    /// Whether the key provider can make `alg` keys.
    pub fn supports(&self, alg: Algorithm) -> bool {
        self.keys.supports(alg)
    }

    /// `Ok` when `alg` is available, else `Unsupported` saying why.
    pub fn require(&self, alg: Algorithm) -> Result<()> {
        self.keys.require(alg)
    }

    /// A new `alg` key from the key provider.
    pub fn generate(&self, alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        self.keys.generate(alg)
    }

    /// `n` new keys of `alg` (see [`KeyProvider::generate_many`]).
    pub fn generate_many(&self, alg: Algorithm, n: usize) -> Result<Vec<Box<dyn PrivateKey>>> {
        self.keys.generate_many(alg, n)
    }

    /// One new key per entry of `algs`, runs of one algorithm made together.
    pub fn generate_each(&self, algs: &[Algorithm]) -> Result<Vec<Box<dyn PrivateKey>>> {
        let mut keys = Vec::with_capacity(algs.len());
        for run in algs.chunk_by(|a, b| a == b) {
            keys.extend(self.keys.generate_many(run[0], run.len())?);
        }
        Ok(keys)
    }

    /// See [`KeyProvider::private_key_from_pkcs8`].
    pub fn private_key_from_pkcs8(
        &self,
        pkcs8: &[u8],
        alg: Algorithm,
    ) -> Result<Box<dyn PrivateKey>> {
        self.keys.private_key_from_pkcs8(pkcs8, alg)
    }

    /// Password-based cryptography: the KDFs, ciphers and MACs of encrypted keys and
    /// PKCS#12 files.
    pub fn pbe(&self) -> &dyn Pbe {
        &*self.pbe
    }

    /// Verify `signature` over `message` with the key in `spki_der` under `scheme` (see
    /// [`SignatureVerifier::verify`]).
    pub fn verify(
        &self,
        spki_der: &[u8],
        scheme: SignatureScheme,
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool> {
        self.verifier.verify(&VerifyItem {
            spki_der,
            scheme,
            message,
            signature,
        })
    }

    /// One verdict per item (see [`SignatureVerifier::verify_batch`]).
    pub fn verify_batch(&self, items: &[VerifyItem<'_>]) -> Vec<Result<bool>> {
        self.verifier.verify_batch(items)
    }

    /// The digest `alg` of `data`, from the hasher.
    pub fn digest(&self, alg: Digest, data: &[u8]) -> Vec<u8> {
        self.hasher.digest(alg, data)
    }

    /// The certificates a TLS server sends (see [`TlsClient::peer_chain`]).
    pub fn tls_peer_chain(
        &self,
        stream: &mut dyn TlsStream,
        server_name: Option<&str>,
    ) -> Result<Vec<Vec<u8>>> {
        self.tls.peer_chain(stream, server_name)
    }
}
