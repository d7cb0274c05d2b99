//! pkit's X.509 layer: PKI objects as views over their DER — certificates, names,
//! extensions, CSRs, CRLs, OCSP requests and responses (and their checks), PKCS#7 and
//! PKCS#12, SubjectPublicKeyInfo, private keys in every form pkit reads and writes,
//! algorithm identifiers — and the crypto backend they are checked and signed with: the
//! capabilities a backend offers and their OpenSSL implementation. Each type quotes the
//! ASN.1 it implements; errors carry the byte offset and the path of the field.
//!
//! Parse a certificate and check its self-signature:
//!
//! ```
//! use pkit_x509::backend::openssl;
//! use pkit_x509::cert::Certificate;
//! use pkit_x509::signed::verify_signed;
//!
//! // NIST PKITS's trust anchor, a DER file.
//! let der = std::fs::read("../../../tests/data/pkits/certs/TrustAnchorRootCertificate.crt").unwrap();
//! let cert = Certificate::from_der(&der).unwrap();
//! assert_eq!(cert.subject.to_rfc4514().unwrap(), "CN=Trust Anchor,O=Test Certificates 2011,C=US");
//! let ok = verify_signed(
//!     openssl::backend(),
//!     cert.spki.raw,
//!     &cert.signature_algorithm,
//!     cert.tbs_raw,
//!     cert.signature.bytes,
//! )
//! .unwrap();
//! assert!(ok);
//! ```

/// The DER engine this crate reads and writes with.
pub use pkit_der as der;

pub mod alg;
pub mod algid;
pub mod backend;
pub mod cert;
pub mod crl;
pub mod csr;
pub mod detect;
pub mod ext;
pub mod extension;
pub mod key;
pub mod name;
pub mod ocsp;
pub mod ocsp_request;
pub mod ocsp_verify;
pub mod pem;
pub mod pkcs12;
pub mod pkcs7;
pub mod signed;
pub mod spki;
pub mod split;
