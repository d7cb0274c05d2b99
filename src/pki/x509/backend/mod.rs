//! The crypto backend boundary (the rustls `CryptoProvider` model): a [`Backend`] value
//! made of small capabilities — [`KeyProvider`], [`SignatureVerifier`], [`Hasher`],
//! [`pbe::Pbe`], [`TlsClient`] — that speak DER and the enums of [`crate::alg`]. Certificate, CRL, OCSP and MTC code
//! never names OpenSSL: the OpenSSL backend is the crate `pkit-openssl`, the PKCS#11 one
//! `pkit-pkcs11`; a pure-Rust backend would be a crate beside them.
//!
//! There is no default backend: the caller chooses one (the commands do it in
//! `cmd/backend.rs`) and hands it down. The traits and the error live in their own files
//! so that a backend implementing them depends on those files, not on this one.

mod api;
mod error;
mod parallel;
pub mod pbe;
mod prechecked;
mod provider;

pub use api::{
    Hasher, KeyProvider, PrivateKey, SignatureVerifier, Signer, TlsClient, TlsStream, VerifyItem,
};
pub use error::{BackendError, Result};
pub use parallel::verify_batch_parallel;
pub use prechecked::{Prechecked, Question};
pub use provider::Backend;
