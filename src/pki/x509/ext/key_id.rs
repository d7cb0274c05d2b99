//! Key identifiers (RFC 5280 §4.2.1.1, §4.2.1.2, §5.2.1): how a certificate or CRL points
//! at the key that signed it and names its own key.

use super::general_name::{read_general_names, GeneralName};
use crate::der::{integer, tag, Context, ErrorKind, Reader, Result};

/// The SKI pkit gives a key (RFC 7093 §2 method 1): the leftmost 160 bits of the SHA-256
/// of the subjectPublicKey BIT STRING value.
pub fn key_identifier(subject_public_key: &[u8]) -> [u8; 20] {
    use sha2::Digest as _;
    let h = sha2::Sha256::digest(subject_public_key);
    let mut out = [0u8; 20];
    out.copy_from_slice(&h[..20]);
    out
}

/// ```asn1
/// SubjectKeyIdentifier ::= KeyIdentifier
/// KeyIdentifier ::= OCTET STRING
/// ```
pub(crate) fn read_subject_key_identifier<'a>(r: &mut Reader<'a>) -> Result<&'a [u8]> {
    r.read_octet_string()
}

/// ```asn1
/// AuthorityKeyIdentifier ::= SEQUENCE {
///       keyIdentifier             [0] KeyIdentifier           OPTIONAL,
///       authorityCertIssuer       [1] GeneralNames            OPTIONAL,
///       authorityCertSerialNumber [2] CertificateSerialNumber OPTIONAL  }
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AuthorityKeyIdentifier<'a> {
    /// `[0]` keyIdentifier: the issuer's subject key identifier, usually.
    pub key_identifier: Option<&'a [u8]>,
    /// `[1]` authorityCertIssuer: the issuer's issuer, with `authority_cert_serial_number`.
    pub authority_cert_issuer: Option<Vec<GeneralName<'a>>>,
    /// The serial INTEGER's content octets (two's complement, as encoded).
    pub authority_cert_serial_number: Option<&'a [u8]>,
}

impl<'a> AuthorityKeyIdentifier<'a> {
    /// Read an AuthorityKeyIdentifier (RFC 5280 §4.2.1.1).
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let start = s.offset();
        let key_identifier = s.read_optional(tag::implicit(0))?.map(|t| t.content);
        let authority_cert_issuer = if s.peek_tag() == Some(tag::implicit_constructed(1)) {
            Some(
                read_general_names(&mut s, tag::implicit_constructed(1))
                    .at("authorityCertIssuer")?,
            )
        } else {
            None
        };
        let authority_cert_serial_number = match s.read_optional(tag::implicit(2))? {
            Some(t) => {
                integer::check(&s, t.content, t.content_offset())
                    .at("authorityCertSerialNumber")?;
                Some(t.content)
            }
            None => None,
        };
        s.finish()?;
        // X.509 (10/2019) §9.2.2.1 constrains the pair: "authorityCertIssuer and
        // authorityCertSerialNumber shall either both be present or both be absent".
        if authority_cert_issuer.is_some() != authority_cert_serial_number.is_some() {
            s.deviate(
                start,
                ErrorKind::Invalid(
                    "expected authorityCertIssuer and authorityCertSerialNumber together".into(),
                ),
            )?;
        }
        Ok(AuthorityKeyIdentifier {
            key_identifier,
            authority_cert_issuer,
            authority_cert_serial_number,
        })
    }

    /// The serial as lowercase hex of its magnitude (the form serial numbers use).
    pub fn serial_magnitude(&self) -> Option<&'a [u8]> {
        self.authority_cert_serial_number
            .map(integer::unsigned_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::Writer;

    #[test]
    fn ski() {
        let der = [0x04, 0x03, 0xaa, 0xbb, 0xcc];
        assert_eq!(
            read_subject_key_identifier(&mut Reader::new(&der)).unwrap(),
            &[0xaa, 0xbb, 0xcc]
        );
        assert!(read_subject_key_identifier(&mut Reader::new(&[0x03, 0x01, 0x00])).is_err());
    }

    #[test]
    fn aki_forms() {
        // Key identifier only, the usual form: 30 16 80 14 <20 bytes>.
        let mut der = vec![0x30, 0x16, 0x80, 0x14];
        der.extend(1..=20u8);
        let aki = AuthorityKeyIdentifier::read(&mut Reader::new(&der)).unwrap();
        assert_eq!(aki.key_identifier.map(<[u8]>::len), Some(20));
        assert!(aki.authority_cert_issuer.is_none());

        // All three fields.
        let mut w = Writer::new();
        w.sequence(|w| {
            w.primitive(0x80, &[1, 2]);
            w.tlv(0xa1, |w| {
                w.primitive(0x82, b"ca.example");
            });
            w.integer_unsigned_tagged(0x82, &[0x80, 0x01]);
        });
        let der = w.finish();
        let aki = AuthorityKeyIdentifier::read(&mut Reader::new(&der)).unwrap();
        assert_eq!(aki.authority_cert_issuer.as_ref().map(Vec::len), Some(1));
        assert_eq!(
            aki.authority_cert_serial_number,
            Some(&[0x00, 0x80, 0x01][..])
        );
        assert_eq!(aki.serial_magnitude(), Some(&[0x80, 0x01][..]));

        // Empty SEQUENCE is allowed by the ASN.1.
        AuthorityKeyIdentifier::read(&mut Reader::new(&[0x30, 0x00])).unwrap();
    }

    #[test]
    fn aki_errors() {
        // Issuer without serial.
        let mut w = Writer::new();
        w.sequence(|w| {
            w.tlv(0xa1, |w| {
                w.primitive(0x82, b"ca.example");
            });
        });
        let der = w.finish();
        assert!(AuthorityKeyIdentifier::read(&mut Reader::new(&der)).is_err());
        // Fields out of order: [2] before [0] leaves [0] as trailing data.
        let der = [0x30, 0x06, 0x82, 0x01, 0x01, 0x80, 0x01, 0xaa];
        let err = AuthorityKeyIdentifier::read(&mut Reader::new(&der)).unwrap_err();
        assert_eq!(err.offset, 5);
        // Non-minimal serial.
        let der = [0x30, 0x04, 0x82, 0x02, 0x00, 0x01];
        let err = AuthorityKeyIdentifier::read(&mut Reader::new(&der)).unwrap_err();
        assert_eq!(err.offset, 4);
        assert_eq!(err.path_string(), "authorityCertSerialNumber");
    }
}
