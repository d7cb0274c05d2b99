//! PKCS#10 certification requests (RFC 2986 §4.1) — encoding.
//!
//! ```asn1
//! CertificationRequestInfo ::= SEQUENCE {
//!      version       INTEGER { v1(0) },
//!      subject       Name,
//!      subjectPKInfo SubjectPublicKeyInfo,
//!      attributes    [0] Attributes{{ CRIAttributes }} }
//! CertificationRequest ::= SEQUENCE {
//!      certificationRequestInfo CertificationRequestInfo,
//!      signatureAlgorithm AlgorithmIdentifier,
//!      signature          BIT STRING }
//! ```
//! SANs travel in a PKCS#9 extensionRequest attribute (RFC 2985 §5.4.2).

use super::tbs::signed_envelope;
use crate::der::{oid_registry as oids, tag, Writer};
use pkit_x509::backend::{BackendError, PrivateKey};
use pkit_x509::ext::write::ext;
use std::fmt;

/// Why no CSR was made.
#[derive(Debug)]
pub enum RequestError {
    /// It would name no one: an empty subject and no SAN.
    Unnamed,
    /// The key could not give its public half or sign.
    Backend(BackendError),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Unnamed => f.write_str("a CSR needs a subject or at least one SAN"),
            RequestError::Backend(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RequestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RequestError::Unnamed => None,
            RequestError::Backend(e) => Some(e),
        }
    }
}

impl From<BackendError> for RequestError {
    fn from(e: BackendError) -> Self {
        RequestError::Backend(e)
    }
}

/// Build and sign a CSR for `key` with `subject` (Name DER) and GeneralName TLVs. One of
/// them must name someone: a CSR with an empty subject and no SAN asks for a certificate
/// of no one ([`RequestError::Unnamed`]).
pub fn encode_csr(
    key: &dyn PrivateKey,
    subject: &[u8],
    sans: &[Vec<u8>],
) -> Result<Vec<u8>, RequestError> {
    if subject == [0x30, 0x00] && sans.is_empty() {
        return Err(RequestError::Unnamed);
    }
    let spki = key.public_key_der()?;
    let mut w = Writer::new();
    w.sequence(|w| {
        w.integer_u64(0);
        w.raw(subject);
        w.raw(&spki);
        w.tlv(tag::implicit_constructed(0), |w| {
            if !sans.is_empty() {
                w.sequence(|w| {
                    w.oid(&oids::PKCS9_EXTENSION_REQUEST);
                    w.set(|w| {
                        w.sequence(|w| {
                            ext(w, &oids::CE_SUBJECT_ALT_NAME, subject == [0x30, 0], |w| {
                                w.sequence(|w| {
                                    for s in sans {
                                        w.raw(s);
                                    }
                                });
                            });
                        });
                    });
                });
            }
        });
    });
    let info = w.finish();
    let scheme = key.algorithm().default_scheme();
    let sig = key.sign(&info)?;
    Ok(signed_envelope(&info, scheme, &sig))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkit_openssl as openssl;
    use pkit_x509::alg::Algorithm;
    use pkit_x509::csr::read_checked;
    use pkit_x509::{san::parse_san, subject::parse_subject};

    #[test]
    fn a_csr_names_someone_and_verifies() {
        let be = openssl::backend();
        let key = be.generate(Algorithm::Ed25519).unwrap();
        let subject = parse_subject("CN=www.example.com").unwrap();
        let san = parse_san("DNS:www.example.com").unwrap().der;
        let der = encode_csr(key.as_ref(), &subject, std::slice::from_ref(&san)).unwrap();
        let got = read_checked(be, &der).unwrap();
        assert_eq!(got.subject, subject);
        assert_eq!(got.spki, key.public_key_der().unwrap());
        assert_eq!(got.extensions.len(), 1, "the subjectAltName asked for");
        // A subject alone, or SANs alone, name someone.
        assert!(encode_csr(key.as_ref(), &subject, &[]).is_ok());
        let no_subject = encode_csr(key.as_ref(), &[0x30, 0x00], &[san]).unwrap();
        assert!(read_checked(be, &no_subject).is_ok());
        assert!(matches!(
            encode_csr(key.as_ref(), &[0x30, 0x00], &[]),
            Err(RequestError::Unnamed)
        ));
    }
}
