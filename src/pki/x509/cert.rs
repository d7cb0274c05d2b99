//! X.509 certificates (RFC 5280 §4.1) as a zero-copy view: parsing walks the structure
//! once and keeps spans; names, times, keys and extensions decode only when asked, so the
//! parse cost does not grow with ML-DSA's multi-kilobyte keys and signatures.
//!
//! ```asn1
//! Certificate  ::=  SEQUENCE  {
//!      tbsCertificate       TBSCertificate,
//!      signatureAlgorithm   AlgorithmIdentifier,
//!      signatureValue       BIT STRING  }
//!
//! TBSCertificate  ::=  SEQUENCE  {
//!      version         [0]  EXPLICIT Version DEFAULT v1,
//!      serialNumber         CertificateSerialNumber,
//!      signature            AlgorithmIdentifier,
//!      issuer               Name,
//!      validity             Validity,
//!      subject              Name,
//!      subjectPublicKeyInfo SubjectPublicKeyInfo,
//!      issuerUniqueID  [1]  IMPLICIT UniqueIdentifier OPTIONAL,
//!      subjectUniqueID [2]  IMPLICIT UniqueIdentifier OPTIONAL,
//!      extensions      [3]  EXPLICIT Extensions OPTIONAL }
//!
//! Validity ::= SEQUENCE { notBefore Time, notAfter Time }
//! ```

#![forbid(unsafe_code)]

use crate::algid::AlgId;
use crate::der::oid_registry as oids;
use crate::der::primitives::BitString;
use crate::der::{hex, integer, tag, Context, Error, ErrorKind, Reader, Result, Time};
use crate::ext::basic_constraints::BasicConstraints;
use crate::extension::Extensions;
use crate::name::Name;
use crate::spki::Spki;

/// What a certificate with extensions but not v3 is told (RFC 5280 §4.1.2.1); the
/// linter's version lint names it, so its malformations leave it out.
pub const EXTENSIONS_NEED_V3: &str = "version 3 for a certificate with extensions";

#[derive(Debug, Clone, Copy)]
/// A parsed X.509 certificate (RFC 5280 §4.1), borrowing from its DER: `Certificate ::=
/// SEQUENCE { tbsCertificate TBSCertificate, signatureAlgorithm AlgorithmIdentifier,
/// signatureValue BIT STRING }`.
pub struct Certificate<'a> {
    /// The whole certificate DER.
    pub raw: &'a [u8],
    /// The TBSCertificate TLV: the bytes the signature covers.
    pub tbs_raw: &'a [u8],
    /// 0 = v1, 1 = v2, 2 = v3.
    pub version: u8,
    /// serialNumber INTEGER content octets (sign included).
    pub serial: &'a [u8],
    /// Absolute byte offset of the serialNumber INTEGER (RFC 5280 §4.1.2.2).
    pub serial_offset: usize,
    /// The TBSCertificate's `signature` field (RFC 5280 §4.1.2.3), which must match
    /// `signature_algorithm`.
    pub tbs_signature: AlgId<'a>,
    /// The issuer's distinguished name (RFC 5280 §4.1.2.4).
    pub issuer: Name<'a>,
    validity: Reader<'a>,
    /// The subject's distinguished name (RFC 5280 §4.1.2.6).
    pub subject: Name<'a>,
    /// The subject's public key, SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
    pub spki: Spki<'a>,
    /// The `[1] IMPLICIT` issuerUniqueID (RFC 5280 §4.1.2.8), if present.
    pub issuer_unique_id: Option<BitString<'a>>,
    /// The `[2] IMPLICIT` subjectUniqueID (RFC 5280 §4.1.2.8), if present.
    pub subject_unique_id: Option<BitString<'a>>,
    /// The `[3] EXPLICIT` extensions (RFC 5280 §4.1.2.9), if present.
    pub extensions: Option<Extensions<'a>>,
    /// The outer signatureAlgorithm (RFC 5280 §4.1.1.2).
    pub signature_algorithm: AlgId<'a>,
    /// The signatureValue BIT STRING (RFC 5280 §4.1.1.3).
    pub signature: BitString<'a>,
}

impl<'a> Certificate<'a> {
    /// Parse one certificate spanning all of `der` (strict DER).
    pub fn from_der(der: &'a [u8]) -> Result<Self> {
        Self::parse(Reader::new(der))
    }

    /// Parse with a reader (strict or lenient); trailing bytes are an error.
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let raw = r.remaining();
        let cert = r.read_sequence().at("certificate")?;
        let cert_len = raw.len() - r.remaining().len();
        r.finish()?;
        let mut c = cert;
        let tbs_start = c.remaining();
        let tbs = c.read_sequence().at("tbsCertificate")?;
        let tbs_raw = &tbs_start[..tbs_start.len() - c.remaining().len()];
        let signature_algorithm = AlgId::read(&mut c).at("signatureAlgorithm")?;
        let signature = c.read_bit_string().at("signatureValue")?;
        c.finish().at("certificate")?;
        let mut t = tbs;
        let version = read_version(&mut t).at("tbsCertificate.version")?;
        let serial_offset = t.offset();
        let serial = t.read_integer().at("tbsCertificate.serialNumber")?;
        let tbs_signature = AlgId::read(&mut t).at("tbsCertificate.signature")?;
        let issuer = Name::read(&mut t).at("tbsCertificate.issuer")?;
        let validity = t.read_sequence().at("tbsCertificate.validity")?;
        let subject = Name::read(&mut t).at("tbsCertificate.subject")?;
        let spki = Spki::read(&mut t).at("tbsCertificate.subjectPublicKeyInfo")?;
        let issuer_unique_id = match t.peek_tag() {
            Some(x) if x == tag::implicit(1) => Some(
                t.read_bit_string_tagged(x)
                    .at("tbsCertificate.issuerUniqueID")?,
            ),
            _ => None,
        };
        let subject_unique_id = match t.peek_tag() {
            Some(x) if x == tag::implicit(2) => Some(
                t.read_bit_string_tagged(x)
                    .at("tbsCertificate.subjectUniqueID")?,
            ),
            _ => None,
        };
        let extensions = match t.read_optional(tag::explicit(3))? {
            Some(tlv) => {
                let mut e = t.with_base(tlv.content, tlv.content_offset());
                let exts = Extensions::read(&mut e).at("tbsCertificate.extensions")?;
                e.finish().at("tbsCertificate.extensions")?;
                Some(exts)
            }
            None => None,
        };
        t.finish().at("tbsCertificate")?;
        // RFC 5280 §4.1.2.1. Lenient readers (and so the linter, whose version lint
        // names it) read on: the fields themselves are whole.
        if (issuer_unique_id.is_some() || subject_unique_id.is_some()) && version == 0 {
            t.deviate(
                serial_offset,
                ErrorKind::WrongVersion("version 2 or 3 for a certificate with unique identifiers"),
            )
            .at("tbsCertificate")?;
        }
        if extensions.is_some() && version != 2 {
            t.deviate(serial_offset, ErrorKind::WrongVersion(EXTENSIONS_NEED_V3))
                .at("tbsCertificate")?;
        }
        Ok(Certificate {
            raw: &raw[..cert_len],
            tbs_raw,
            version,
            serial,
            serial_offset,
            tbs_signature,
            issuer,
            validity,
            subject,
            spki,
            issuer_unique_id,
            subject_unique_id,
            extensions,
            signature_algorithm,
            signature,
        })
    }

    /// notBefore and notAfter.
    pub fn validity(&self) -> Result<(Time, Time)> {
        let mut v = self.validity;
        let nb = v.read_time().at("tbsCertificate.validity.notBefore")?;
        let na = v.read_time().at("tbsCertificate.validity.notAfter")?;
        v.finish().at("tbsCertificate.validity")?;
        Ok((nb, na))
    }

    /// notBefore and notAfter as encoded, each (tag, content, content's offset): the
    /// linter checks them against RFC 5280 §4.1.2.5's profile, which is stricter than DER.
    pub fn validity_encoding(&self) -> Result<[(u8, &'a [u8], usize); 2]> {
        let mut v = self.validity;
        let nb = v.read_tlv().at("tbsCertificate.validity.notBefore")?;
        let na = v.read_tlv().at("tbsCertificate.validity.notAfter")?;
        Ok([
            (nb.tag, nb.content, nb.content_offset()),
            (na.tag, na.content, na.content_offset()),
        ])
    }

    /// Where the validity SEQUENCE's content starts.
    pub fn validity_offset(&self) -> usize {
        self.validity.offset()
    }

    /// The keyIdentifier in a certificate's subjectKeyIdentifier extension (any length: the
    /// AKI of what it issues must repeat it exactly).
    pub fn subject_key_id(&self) -> Option<Vec<u8>> {
        let ext = self.extensions?.find(&oids::CE_SUBJECT_KEY_ID).ok()??;
        let mut r = Reader::new(ext.value);
        r.read_octet_string().ok().map(<[u8]>::to_vec)
    }

    /// The certificate's basicConstraints, or `None` when it has none or they do not
    /// parse (callers that must tell those apart, like path validation, decode the
    /// extension themselves and report where it broke).
    pub fn basic_constraints(&self) -> Option<BasicConstraints> {
        let ext = self.extensions?.find(&oids::CE_BASIC_CONSTRAINTS).ok()??;
        let mut r = Reader::new(ext.value);
        let bc = BasicConstraints::read(&mut r).ok()?;
        r.finish().ok()?;
        Some(bc)
    }

    /// The decoded value of the extension `oid`, when the certificate has it and it
    /// decodes (for the lookups that read one extension and have nothing to say about a
    /// malformed one: revocation pointers, SANs for listing).
    pub fn extension_value(&self, oid: &crate::der::Oid) -> Option<crate::ext::ExtensionValue<'a>> {
        let e = self.extensions?.find(oid).ok()??;
        crate::ext::decode(e.oid, e.value, e.value_offset).ok()
    }

    /// Whether the certificate's basicConstraints say cA.
    pub fn is_ca(&self) -> bool {
        self.basic_constraints().is_some_and(|b| b.ca)
    }

    /// Serial number as lowercase hex of the unsigned magnitude (what `openssl x509 -serial`
    /// shows, lowercased). Negative serials (seen in the wild) print as their two's
    /// complement bytes with a leading `-`-free form; check `serial_is_negative`.
    pub fn serial_hex(&self) -> String {
        hex(integer::unsigned_bytes(self.serial))
    }

    /// Whether the serialNumber INTEGER is negative, which RFC 5280 §4.1.2.2 forbids.
    pub fn serial_is_negative(&self) -> bool {
        integer::is_negative(self.serial)
    }

    /// True when the certificate names itself as issuer (a self-issued certificate).
    pub fn is_self_issued(&self) -> bool {
        self.issuer.raw == self.subject.raw
    }

    /// Whether `ca` issued this certificate as far as names tell: its issuer field is
    /// `ca`'s subject byte for byte, as a CA writes it into everything it signs (and as an
    /// OCSP CertID's issuerNameHash hashes it). The signature is not checked.
    pub fn check_issued_by(&self, ca: &Certificate<'_>) -> std::result::Result<(), OtherIssuer> {
        if self.issuer.raw == ca.subject.raw {
            return Ok(());
        }
        Err(OtherIssuer {
            issuer: self.issuer.to_rfc4514().unwrap_or_default(),
            ca: ca.subject.to_rfc4514().unwrap_or_default(),
        })
    }

    /// Whether `key` is the private half of the public key this certificate certifies
    /// (a key packed with its certificate, a CA's key beside its certificate).
    pub fn certifies_key(
        &self,
        key: &dyn crate::backend::PrivateKey,
    ) -> crate::backend::Result<bool> {
        Ok(key.public_key_der()? == self.spki.raw)
    }

    /// The outer and inner signature algorithms must match (RFC 5280 §4.1.1.2).
    pub fn check_signature_algorithms_match(&self) -> Result<()> {
        if self.tbs_signature.raw == self.signature_algorithm.raw {
            Ok(())
        } else {
            Err(Error::invalid(
                self.signature_algorithm.offset,
                "expected signatureAlgorithm to equal tbsCertificate.signature",
            ))
        }
    }
}

/// A certificate that names another issuer than the CA it was held against
/// ([`Certificate::check_issued_by`]): both names as RFC 4514 text (empty when one does
/// not decode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherIssuer {
    /// The certificate's issuer.
    pub issuer: String,
    /// The CA's subject.
    pub ca: String,
}

impl std::fmt::Display for OtherIssuer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "issued by {}, not by {}", self.issuer, self.ca)
    }
}

impl std::error::Error for OtherIssuer {}

/// The subject of the certificate `der` as RFC 4514 text (what the CA's records, the
/// JSON's `issuer_dn` and a PKCS#12 file's default alias show); `None` when the
/// certificate or its subject does not decode.
pub fn subject_dn(der: &[u8]) -> Option<String> {
    Certificate::from_der(der).ok()?.subject.to_rfc4514().ok()
}

/// `[0] EXPLICIT Version DEFAULT v1`: DER omits v1, so an explicit 0 is a deviation.
fn read_version(t: &mut Reader<'_>) -> Result<u8> {
    let Some(tlv) = t.read_optional(tag::explicit(0))? else {
        return Ok(0);
    };
    let mut v = t.with_base(tlv.content, tlv.content_offset());
    let n = v.read_u64()?;
    v.finish()?;
    match n {
        0 => {
            t.deviate(tlv.offset, ErrorKind::DefaultEncoded("version v1"))?;
            Ok(0)
        }
        1 | 2 => Ok(n as u8),
        // Lenient: read with the v3 layout, which has every optional field.
        _ => {
            t.deviate(
                tlv.content_offset(),
                ErrorKind::UnknownVersion {
                    found: u32::try_from(n).unwrap_or(u32::MAX - 1),
                    highest: 2,
                },
            )?;
            Ok(2)
        }
    }
}

/// A certificate from `issuer` to `subject` (an Ed25519 key of zeros, signed by no one:
/// for tests of what its names and fields say).
#[cfg(test)]
pub(crate) fn test_cert(issuer: &str, subject: &str) -> Vec<u8> {
    use crate::der::Writer;
    let name = |s: &str| crate::subject::parse_subject(s).unwrap();
    let alg = |w: &mut Writer| {
        w.sequence(|w| {
            w.oid(&oids::ED25519);
        });
    };
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.explicit(0, |w| {
                w.integer_u64(2);
            });
            w.integer_u64(1);
            alg(w);
            w.raw(&name(issuer));
            w.sequence(|w| {
                w.time(Time { unix: 0 });
                w.time(Time { unix: 86_400 });
            });
            w.raw(&name(subject));
            w.sequence(|w| {
                alg(w);
                w.bit_string(&[0; 32]);
            });
        });
        alg(w);
        w.bit_string(&[0; 64]);
    });
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cert(issuer: &str, subject: &str) -> Vec<u8> {
        test_cert(issuer, subject)
    }

    #[test]
    fn issued_by_compares_the_issuer_with_the_cas_subject() {
        let (ca_der, leaf_der) = (cert("CN=CA", "CN=CA"), cert("CN=CA", "CN=leaf"));
        let other_der = cert("CN=Other CA,O=X", "CN=leaf");
        let ca = Certificate::from_der(&ca_der).unwrap();
        let leaf = Certificate::from_der(&leaf_der).unwrap();
        assert_eq!(leaf.check_issued_by(&ca), Ok(()));
        assert_eq!(ca.check_issued_by(&ca), Ok(()));
        let other = Certificate::from_der(&other_der).unwrap();
        let e = other.check_issued_by(&ca).unwrap_err();
        assert_eq!(e.to_string(), "issued by CN=Other CA,O=X, not by CN=CA");
        assert_eq!(ca.check_issued_by(&other).unwrap_err().ca, "CN=leaf");
    }

    #[test]
    fn subject_dn_of_der() {
        assert_eq!(
            subject_dn(&cert("CN=CA", "CN=leaf,O=Example")).as_deref(),
            Some("CN=leaf,O=Example")
        );
        assert_eq!(subject_dn(&[0x30, 0x00]), None);
    }
}
