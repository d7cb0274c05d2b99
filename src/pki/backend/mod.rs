//! The crypto backend boundary (the rustls `CryptoProvider` model): a plain trait that
//! speaks DER and the enums of [`crate::pki::alg`]. Certificate, CRL, OCSP and MTC code
//! never names OpenSSL; a PKCS#11 or pure-Rust backend can be added beside [`openssl`].
//!
//! The traits and the error live in their own files so that a backend implementing them
//! depends on those files, not on this one, which picks the backend this build uses.

mod api;
mod error;
pub mod openssl;
pub mod pbe;

pub use api::{Backend, PrivateKey, Signer};
pub use error::{BackendError, Result};

/// The backend this build uses.
pub fn default_backend() -> &'static dyn Backend {
    openssl::backend()
}
