//! The PKCS#11 backend (cryptoki): keys that live in a token — an HSM, SoftHSM2, NSS's
//! softoken — and never leave it. Keys are named by RFC 7512 URIs (`uri`), a module is
//! loaded and initialised once per process (`module`), a token is found and logged into
//! once (`token`), each signing thread gets its own session (`key`), and verification
//! runs in the token under public key objects made once per key (`verify_signature`). `scratch`
//! makes throwaway tokens for benchmarks.
//!
//! What a token does not do — hashing for fingerprints, password-based encryption of key
//! files, TLS — the backend hands to the software backend it is given.
//!
//! A key made in a token signs; OpenSSL checks the signature:
//!
//! ```
//! use pkit_pkcs11::{scratch, Pkcs11Backend};
//! use pkit_x509::alg::Algorithm;
//! use pkit_openssl as openssl;
//! use pkit_x509::backend::PrivateKey as _;
//!
//! // A throwaway SoftHSM2 token (scripts/test installs SoftHSM2).
//! let dir = tempfile::tempdir().unwrap();
//! std::env::set_var("SOFTHSM2_CONF", scratch::softhsm_config(dir.path()).unwrap());
//! let token = scratch::softhsm_token().unwrap();
//! let backend = Pkcs11Backend::on(token, openssl::backend()).into_backend();
//!
//! let key = backend.generate(Algorithm::EcdsaP256).unwrap();
//! let signature = key.sign(b"hello").unwrap();
//! let spki = key.public_key_der().unwrap();
//! let scheme = Algorithm::EcdsaP256.default_scheme();
//! assert!(openssl::backend().verify(&spki, scheme, b"hello", &signature).unwrap());
//! // The token's own verifier agrees.
//! assert!(backend.verify(&spki, scheme, b"hello", &signature).unwrap());
//! ```

#![deny(missing_docs, unreachable_pub)]

use pkit_x509::alg::Algorithm;
use pkit_x509::backend::{
    Backend, BackendError, KeyProvider, PrivateKey, Result, SignatureVerifier, VerifyItem,
};
use std::sync::Arc;

mod key;
pub mod module;
pub mod scratch;
mod token;
mod uri;
mod verify_signature;

pub use key::{KeyProtection, NewKey, TokenKey};
pub use token::Token;
pub use uri::{is_pkcs11_uri, key_uri_in, KeyUri, UriError};

/// Keys and signature verification in one PKCS#11 token, everything else from a software
/// backend.
pub struct Pkcs11Backend {
    token: Arc<Token>,
    verifier: verify_signature::TokenVerifier,
    soft: &'static Backend,
}

impl Pkcs11Backend {
    /// The token `uri` names (its module from the URI, else `default_module`), logged
    /// in with `pin`. `soft` does what tokens do not (see the module documentation).
    pub fn open(
        uri: &KeyUri,
        default_module: Option<&str>,
        pin: Option<&[u8]>,
        soft: &'static Backend,
    ) -> Result<Pkcs11Backend> {
        Ok(Pkcs11Backend::on(
            Token::open(uri, default_module, pin)?,
            soft,
        ))
    }

    /// The backend for a token already open, `soft` doing what the token does not.
    pub fn on(token: Arc<Token>, soft: &'static Backend) -> Pkcs11Backend {
        Pkcs11Backend {
            verifier: verify_signature::TokenVerifier::new(token.clone()),
            token,
            soft,
        }
    }

    /// The backend with this token's keys and verifier, and `soft`'s hashing,
    /// password-based cryptography and TLS.
    pub fn into_backend(self) -> Backend {
        let this = Arc::new(self);
        this.soft.with_keys(this.clone()).with_verifier(this)
    }

    /// The token this backend's keys are in.
    pub fn token(&self) -> &Arc<Token> {
        &self.token
    }

    /// A new key pair kept in the token under `new`'s label and id.
    pub fn generate_named(&self, alg: Algorithm, new: &NewKey<'_>) -> Result<TokenKey> {
        TokenKey::generate(self.token.clone(), alg, new, self.soft)
    }

    /// The private key `uri` names in this backend's token.
    pub fn find_key(&self, uri: &KeyUri) -> Result<TokenKey> {
        TokenKey::find(self.token.clone(), uri)
    }

    /// A new key pair kept in the token as `new` names it ([`NewKey::for_uri`] of `uri`),
    /// unless a private key `uri` names is there already: a key is never added beside
    /// another of the same name (which one would sign?), nor replaced.
    pub fn generate_new(
        &self,
        alg: Algorithm,
        uri: &KeyUri,
        new: &NewKey<'_>,
    ) -> std::result::Result<TokenKey, NewKeyError> {
        match self.find_key(uri) {
            // One key or several answer to the name.
            Ok(_) | Err(BackendError::Usage(_)) => {
                return Err(NewKeyError::Exists {
                    token: self.token.label.clone(),
                })
            }
            Err(BackendError::Unavailable(_)) => {}
            Err(e) => return Err(NewKeyError::Backend(e)),
        }
        self.generate_named(alg, new).map_err(NewKeyError::Backend)
    }
}

impl<'a> NewKey<'a> {
    /// The name a new token key is kept under, from the URI that will name it: its
    /// `object` label (required: a key without one could not be named again) and its
    /// `id`, when given.
    pub fn for_uri(uri: &'a KeyUri) -> std::result::Result<NewKey<'a>, NewKeyError> {
        let label = uri.object.as_deref().ok_or(NewKeyError::NoLabel)?;
        Ok(NewKey {
            label: Some(label),
            id: uri.id.as_deref(),
            persist: true,
        })
    }
}

/// Why a named key was not made ([`Pkcs11Backend::generate_new`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewKeyError {
    /// The URI names no label (`object=`) for the new key.
    NoLabel,
    /// The token (labelled so) already holds a private key by that name.
    Exists {
        /// The token's label.
        token: String,
    },
    /// The token failed.
    Backend(BackendError),
}

impl std::fmt::Display for NewKeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NewKeyError::NoLabel => f.write_str("name the new key with object=LABEL"),
            NewKeyError::Exists { token } => write!(
                f,
                "token {token} already holds a private key by that name; refusing to add another"
            ),
            NewKeyError::Backend(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NewKeyError {}

impl KeyProvider for Pkcs11Backend {
    fn description(&self) -> String {
        self.token.description.clone()
    }

    fn supports(&self, alg: Algorithm) -> bool {
        key::mechanisms(alg).is_ok_and(|ms| ms.iter().all(|&m| self.token.offers(m)))
    }

    fn require(&self, alg: Algorithm) -> Result<()> {
        for m in key::mechanisms(alg)? {
            self.token.require(m, &alg.to_string())?;
        }
        Ok(())
    }

    /// A session key pair: gone when the key is dropped, like a key made in memory.
    fn generate(&self, alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        let new = NewKey {
            label: Some("pkit session key"),
            id: None,
            persist: false,
        };
        Ok(Box::new(self.generate_named(alg, &new)?))
    }

    /// A key from a file stays in software: putting it into the token would make a copy
    /// that outlives the file's protection.
    fn private_key_from_pkcs8(&self, pkcs8: &[u8], alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        self.soft.private_key_from_pkcs8(pkcs8, alg)
    }
}

impl SignatureVerifier for Pkcs11Backend {
    fn verify(&self, i: &VerifyItem<'_>) -> Result<bool> {
        self.verifier.verify(self.soft, i)
    }
}

impl From<uri::UriError> for BackendError {
    fn from(e: uri::UriError) -> Self {
        BackendError::Usage(e.0)
    }
}

#[cfg(test)]
mod tests;
