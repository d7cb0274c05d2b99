//! pkit's X.509 layer: PKI objects as views over their DER — certificates, names,
//! extensions, CSRs, CRLs, OCSP requests and responses (and their checks), PKCS#7 and
//! PKCS#12, SubjectPublicKeyInfo, private keys in every form pkit reads and writes,
//! algorithm identifiers — and the capabilities of the crypto backend they are checked
//! and signed with (implemented by `pkit-openssl` and `pkit-pkcs11`). Each type quotes the
//! ASN.1 it implements; errors carry the byte offset and the path of the field.
//!
//! Parse a certificate:
//!
//! ```
//! use pkit_x509::cert::Certificate;
//!
//! // NIST PKITS's trust anchor, a DER file.
//! let der = std::fs::read("../../../tests/data/pkits/certs/TrustAnchorRootCertificate.crt").unwrap();
//! let cert = Certificate::from_der(&der).unwrap();
//! assert_eq!(cert.subject.to_rfc4514().unwrap(), "CN=Trust Anchor,O=Test Certificates 2011,C=US");
//! assert_eq!(cert.issuer.raw, cert.subject.raw);
//! ```
//!
//! Checking its signature takes a backend (`pkit-openssl`'s, or a PKCS#11 token's):
//! the model itself holds no cryptography and no unsafe code.

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

/// The DER engine this crate reads and writes with.
pub use pkit_der as der;

pub mod alg;
pub mod algid;
pub mod backend;
pub mod cert;
pub mod crl;
pub mod csr;
pub mod detect;
pub mod dns_name;
pub mod ext;
pub mod extension;
pub mod key;
pub mod manifest;
pub mod name;
pub mod ocsp;
pub mod ocsp_request;
pub mod ocsp_verify;
pub mod pkcs12;
pub mod pkcs7;
pub mod san;
pub mod signed;
pub mod spki;
pub mod split;
pub mod subject;
