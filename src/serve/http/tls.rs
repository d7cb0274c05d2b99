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
use crate::der::pem;
use std::sync::Arc;
use tokio_rustls::rustls::pki_types::{
    CertificateDer, PrivateKeyDer, PrivatePkcs1KeyDer, PrivatePkcs8KeyDer, PrivateSec1KeyDer,
};
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

/// The first private key in `text`, by its PEM label: PKCS#8, SEC 1 or PKCS#1.
fn private_key(text: &[u8]) -> Result<PrivateKeyDer<'static>, String> {
    for block in pem::blocks(text) {
        let block = block.map_err(|e| e.to_string())?;
        return Ok(match block.label.as_str() {
            "PRIVATE KEY" => PrivatePkcs8KeyDer::from(block.der).into(),
            "EC PRIVATE KEY" => PrivateSec1KeyDer::from(block.der).into(),
            "RSA PRIVATE KEY" => PrivatePkcs1KeyDer::from(block.der).into(),
            _ => continue,
        });
    }
    Err("no PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY block".into())
}

/// The acceptor for an identity.
pub(crate) fn acceptor(id: &TlsIdentity) -> Result<TlsAcceptor, ServeError> {
    // pkit's one PEM reader, so that a chain or key reads here as `pkit parse` reads it.
    let chain = pem::blocks(&id.chain_pem)
        .into_iter()
        .filter(|b| b.as_ref().map_or(true, |b| b.label == "CERTIFICATE"))
        .map(|b| b.map(|b| CertificateDer::from(b.der)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| bad(id, format!("the certificate chain: {e}")))?;
    if chain.is_empty() {
        return Err(bad(id, "no certificate in the chain".into()));
    }
    let key = private_key(&id.key_pem).map_err(|e| bad(id, format!("the private key: {e}")))?;
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad(id, e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| bad(id, format!("the certificate and key: {e}")))?;
    Ok(TlsAcceptor::from(Arc::new(config)))
}
