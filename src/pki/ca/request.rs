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
use pkit_x509::backend::{PrivateKey, Result};
use pkit_x509::ext::write::ext;

/// Build and sign a CSR for `key` with `subject` (Name DER) and GeneralName TLVs.
pub fn encode_csr(key: &dyn PrivateKey, subject: &[u8], sans: &[Vec<u8>]) -> Result<Vec<u8>> {
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
