//! The OpenSSL backend (native-ossl). It works against any OpenSSL 3: algorithms the
//! linked library lacks (ML-DSA before 3.5) are found by probing at run time and reported
//! as `Unsupported`, so a build against the system's OpenSSL 3.0 still runs.
//!
//! This file is the backend value and its trait methods; the work is in the files beside
//! it: `linked` (what the library offers), `key` (keys and their encodings), `ec_batch`
//! (EC keys made together), `ed25519_batch` (Ed25519 signatures checked together),
//! `signers` (signing contexts reused across signatures), `verify_signature`, `pbe` (password-based
//! cryptography) and `ffi` (entry points native-ossl does not wrap). TLS (the handshake
//! of `verify --connect`, the PostgreSQL connector) is the crate `pkit-tls`, on the same
//! OpenSSL. PKCS#8 structures are built and read in the key model (`pkit_x509::key`).
//!
//! Parse a certificate and check its self-signature:
//!
//! ```
//! use pkit_x509::cert::Certificate;
//! use pkit_x509::signed::verify_signed;
//!
//! // NIST PKITS's trust anchor, a DER file.
//! let der = std::fs::read("../../../tests/data/pkits/certs/TrustAnchorRootCertificate.crt").unwrap();
//! let cert = Certificate::from_der(&der).unwrap();
//! let ok = verify_signed(
//!     pkit_openssl::backend(),
//!     cert.spki.raw,
//!     &cert.signature_algorithm,
//!     cert.tbs_raw,
//!     cert.signature.bytes,
//! )
//! .unwrap();
//! assert!(ok);
//! ```

#![deny(missing_docs, unreachable_pub)]

use key::OsslKey;
use linked::{crypto, keymgmt_name, openssl_version};
use native_ossl::params::ParamBuilder;
use native_ossl::pkey::{KeygenCtx, Pkey, Private};
use pkit_x509::alg::{Algorithm, Digest};
use pkit_x509::backend::Backend;
use pkit_x509::backend::{BackendError, Result};
use pkit_x509::backend::{
    Hasher, KeyProvider, PrivateKey, SignatureVerifier, TlsClient, TlsStream, VerifyItem,
};

mod ec_batch;
mod ed25519_batch;
mod ffi;
mod key;
mod linked;
mod pbe;
mod signers;
mod verify_signature;

/// OpenSSL as each capability of a [`Backend`].
pub struct OpensslBackend;

/// OpenSSL for everything, made once per process.
pub fn backend() -> &'static Backend {
    static BACKEND: std::sync::LazyLock<Backend> = std::sync::LazyLock::new(|| {
        let this = std::sync::Arc::new(OpensslBackend);
        Backend {
            keys: this.clone(),
            verifier: this.clone(),
            pbe: std::sync::Arc::new(pbe::OsslPbe),
            hasher: this.clone(),
            tls: this,
        }
    });
    &BACKEND
}

/// A key generation context set up for `alg` (RSA with e = 65537, EC on a named curve).
fn keygen_ctx(alg: Algorithm) -> Result<KeygenCtx> {
    let mut ctx = KeygenCtx::new(keymgmt_name(alg)).map_err(crypto("key generation"))?;
    let params = match alg {
        Algorithm::Rsa2048 | Algorithm::Rsa3072 | Algorithm::Rsa4096 => Some(
            ParamBuilder::new()
                .and_then(|b| b.push_uint(c"bits", alg.rsa_bits().unwrap_or(2048)))
                .and_then(|b| b.push_bn(c"e", &[0x01, 0x00, 0x01]))
                .and_then(|b| b.build()),
        ),
        Algorithm::EcdsaP256 | Algorithm::EcdsaP384 => {
            let group = if alg == Algorithm::EcdsaP256 {
                c"P-256"
            } else {
                c"P-384"
            };
            Some(
                ParamBuilder::new()
                    .and_then(|b| b.push_utf8_string(c"group", group))
                    .and_then(|b| b.build()),
            )
        }
        _ => None,
    };
    if let Some(p) = params {
        let p = p.map_err(crypto("key generation parameters"))?;
        ctx.set_params(&p)
            .map_err(crypto("key generation parameters"))?;
    }
    Ok(ctx)
}

impl KeyProvider for OpensslBackend {
    fn description(&self) -> String {
        openssl_version().to_owned()
    }

    fn supports(&self, alg: Algorithm) -> bool {
        linked::supports(alg)
    }

    fn generate(&self, alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        self.require(alg)?;
        // A keygen context is reusable: batches generate thousands of keys per thread, and
        // building the context (provider fetch, parameters) each time costs microseconds.
        thread_local! {
            static KEYGEN: std::cell::RefCell<Vec<(Algorithm, KeygenCtx)>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        let pkey = KEYGEN.with(|cell| -> Result<Pkey<Private>> {
            let mut ctxs = cell.borrow_mut();
            let i = match ctxs.iter().position(|(a, _)| *a == alg) {
                Some(i) => i,
                None => {
                    ctxs.push((alg, keygen_ctx(alg)?));
                    ctxs.len() - 1
                }
            };
            ctxs[i].1.generate().map_err(crypto("key generation"))
        })?;
        Ok(Box::new(OsslKey::new(alg, pkey)))
    }

    fn generate_many(&self, alg: Algorithm, n: usize) -> Result<Vec<Box<dyn PrivateKey>>> {
        self.require(alg)?;
        match alg {
            Algorithm::EcdsaP256 | Algorithm::EcdsaP384 => ec_batch::generate(alg, n),
            _ => (0..n).map(|_| self.generate(alg)).collect(),
        }
    }

    fn require(&self, alg: Algorithm) -> Result<()> {
        linked::require(alg)
    }

    fn private_key_from_pkcs8(&self, pkcs8: &[u8], alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        Ok(Box::new(OsslKey::load(pkcs8, alg)?))
    }
}

impl SignatureVerifier for OpensslBackend {
    fn verify(&self, i: &VerifyItem<'_>) -> Result<bool> {
        verify_signature::verify(i.spki_der, i.scheme, i.message, i.signature)
    }

    fn verify_batch(&self, items: &[VerifyItem<'_>]) -> Vec<Result<bool>> {
        verify_signature::verify_batch(items)
    }
}

impl Hasher for OpensslBackend {
    fn digest(&self, alg: Digest, data: &[u8]) -> Vec<u8> {
        linked::digest(alg, data)
    }
}

impl TlsClient for OpensslBackend {
    fn peer_chain(
        &self,
        stream: &mut dyn TlsStream,
        server_name: Option<&str>,
    ) -> Result<Vec<Vec<u8>>> {
        use pkit_tls::client::{peer_chain, ClientError};
        peer_chain(stream, server_name).map_err(|e| match e {
            ClientError::Peer(m) => BackendError::Unavailable(m),
            ClientError::BadName(m) => BackendError::BadKey(m),
            other => BackendError::Crypto(other.to_string()),
        })
    }
}

#[cfg(test)]
mod tests;
