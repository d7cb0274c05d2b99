//! HTTPS for pkit's servers (`acme serve` needs it: RFC 8555 §6.1 makes ACME HTTPS-only,
//! and clients such as lego refuse anything else): rustls over tokio, TLS 1.2 and 1.3,
//! with a certificate chain and key from PEM.
//!
//! Why rustls, not the OpenSSL pkit links: OpenSSL's TLS reaches Rust through memory
//! BIOs (as `pkit-tls` does for its clients), and an asynchronous server stream over them
//! is a state machine of its own to write and keep; tokio-rustls is that, maintained.
//! The certificate and key are pkit's (an ECDSA, RSA or Ed25519 key in PKCS#8 or
//! SEC 1 PEM, as `pkit key gen` and `issue cert --key-out` write).

use super::error::ServeError;
use std::sync::Arc;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::TlsAcceptor;

/// A server's certificate chain (leaf first) and private key, as PEM.
#[derive(Debug, Clone)]
pub struct TlsIdentity {
    /// The certificates, leaf first, PEM.
    pub chain_pem: Vec<u8>,
    /// The leaf's private key, PEM (PKCS#8, or SEC 1 / PKCS#1).
    pub key_pem: Vec<u8>,
    /// Where they came from, for errors.
    pub source: String,
}

fn bad(id: &TlsIdentity, what: String) -> ServeError {
    ServeError::Tls(format!("{}: {what}", id.source))
}

/// The acceptor for an identity.
pub(crate) fn acceptor(id: &TlsIdentity) -> Result<TlsAcceptor, ServeError> {
    let chain = CertificateDer::pem_slice_iter(&id.chain_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| bad(id, format!("the certificate chain: {e}")))?;
    if chain.is_empty() {
        return Err(bad(id, "no certificate in the chain".into()));
    }
    let key = PrivateKeyDer::from_pem_slice(&id.key_pem)
        .map_err(|e| bad(id, format!("the private key: {e}")))?;
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad(id, e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| bad(id, format!("the certificate and key: {e}")))?;
    Ok(TlsAcceptor::from(Arc::new(config)))
}
