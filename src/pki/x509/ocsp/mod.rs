//! OCSP requests and responses (RFC 6960 §4.1.1, §4.2.1) as zero-copy views.
//!
//! The OCSP module is written with `EXPLICIT TAGS` (RFC 6960 Appendix B.1), so every
//! context tag below wraps its element except where `IMPLICIT` is written out.
//!
//! ```asn1
//! CertID ::= SEQUENCE {
//!     hashAlgorithm       AlgorithmIdentifier,
//!     issuerNameHash      OCTET STRING, -- Hash of issuer's DN
//!     issuerKeyHash       OCTET STRING, -- Hash of issuer's public key
//!     serialNumber        CertificateSerialNumber }
//! ```

#![forbid(unsafe_code)]

mod cert_id;
mod fields;
mod get;
mod request;
mod response;

pub use cert_id::CertId;
pub use get::decode_get_path;
pub use request::{OcspRequest, OcspSignature, Request};
pub use response::{
    BasicOcspResponse, CertStatus, OcspResponse, ResponderId, ResponseBytes, ResponseStatus,
    SingleResponse,
};

#[cfg(test)]
mod tests;
