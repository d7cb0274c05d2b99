//! PKCS#10 certification requests (RFC 2986 §4) as a zero-copy view, plus the X.501
//! `Attribute` shape that CSRs, PKCS#12 bags and CMS signer infos share.
//!
//! ```asn1
//! CertificationRequest ::= SEQUENCE {
//!      certificationRequestInfo CertificationRequestInfo,
//!      signatureAlgorithm AlgorithmIdentifier{{ SignatureAlgorithms }},
//!      signature          BIT STRING
//! }
//!
//! CertificationRequestInfo ::= SEQUENCE {
//!      version       INTEGER { v1(0) } (v1,...),
//!      subject       Name,
//!      subjectPKInfo SubjectPublicKeyInfo{{ PKInfoAlgorithms }},
//!      attributes    [0] Attributes{{ CRIAttributes }}
//! }
//!
//! Attributes { ATTRIBUTE:IOSet } ::= SET OF Attribute{{ IOSet }}
//! ```
//!
//! Parsing walks the structure once; the subject, key and attribute values decode when
//! asked, so a CSR carrying an ML-DSA key costs the same to parse as one with P-256.

#![forbid(unsafe_code)]

use crate::algid::AlgId;
use crate::backend::{Backend, BackendError};
use crate::der::primitives::BitString;
use crate::der::Tlv;
use crate::der::{tag, Context, ErrorKind, ObjectId, Reader, Result};
use crate::name::Name;
use crate::spki::Spki;

/// A borrowed `CertificationRequest`.
#[derive(Debug, Clone, Copy)]
pub struct Csr<'a> {
    /// The whole request DER.
    pub raw: &'a [u8],
    /// The `CertificationRequestInfo` TLV: the bytes the signature covers.
    pub info_raw: &'a [u8],
    /// 0 = v1, the only version RFC 2986 defines.
    pub version: u64,
    /// The subject's distinguished name (RFC 2986 §4.1).
    pub subject: Name<'a>,
    /// The public key to certify, SubjectPublicKeyInfo.
    pub spki: Spki<'a>,
    /// The `[0]` attributes, decoded on demand.
    pub attributes: Attributes<'a>,
    /// The signatureAlgorithm (RFC 2986 §4.2).
    pub signature_algorithm: AlgId<'a>,
    /// The signature BIT STRING, made with the key in `spki`.
    pub signature: BitString<'a>,
}

impl<'a> Csr<'a> {
    /// Parse one request spanning all of `der` (strict DER).
    pub fn from_der(der: &'a [u8]) -> Result<Self> {
        Self::parse(Reader::new(der))
    }

    /// Parse with a reader (strict or lenient); trailing bytes are an error.
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let raw = r.remaining();
        let mut outer = r.read_sequence().at("certificationRequest")?;
        let raw = &raw[..raw.len() - r.remaining().len()];
        r.finish()?;
        let info_start = outer.remaining();
        let mut info = outer.read_sequence().at("certificationRequestInfo")?;
        let info_raw = &info_start[..info_start.len() - outer.remaining().len()];
        let signature_algorithm = AlgId::read(&mut outer).at("signatureAlgorithm")?;
        let signature = outer.read_bit_string().at("signature")?;
        outer.finish().at("certificationRequest")?;

        let version_offset = info.offset();
        let version = info.read_u64().at("certificationRequestInfo.version")?;
        if version != 0 {
            // `(v1,...)` leaves room for later versions, but none exists; a request that
            // claims one is either broken or from a format pkit does not know.
            info.deviate(
                version_offset,
                ErrorKind::Invalid(format!("expected version 1 (0), found {version}")),
            )
            .at("certificationRequestInfo.version")?;
        }
        let subject = Name::read(&mut info).at("certificationRequestInfo.subject")?;
        let spki = Spki::read(&mut info).at("certificationRequestInfo.subjectPKInfo")?;
        // RFC 2986 makes the [0] element mandatory (an empty SET when there are no
        // attributes); some old encoders drop it, which lenient mode tolerates.
        let attributes = match info.peek_tag() {
            Some(t) if t == tag::implicit_constructed(0) => {
                let tlv = info.read_tlv()?;
                Attributes::new(info.with_base(tlv.content, tlv.content_offset()))
            }
            _ => {
                info.deviate(
                    info.offset(),
                    ErrorKind::Invalid("expected the [0] attributes element".into()),
                )
                .at("certificationRequestInfo.attributes")?;
                Attributes::new(info.with_base(&[], info.offset()))
            }
        };
        info.finish().at("certificationRequestInfo")?;
        Ok(Csr {
            raw,
            info_raw,
            version,
            subject,
            spki,
            attributes,
            signature_algorithm,
            signature,
        })
    }

    /// The signed bytes (the `CertificationRequestInfo` TLV), for signature checks.
    pub fn tbs_raw(&self) -> &'a [u8] {
        self.info_raw
    }

    /// Check the proof of possession (RFC 2986 §3): the signature verifies with the key
    /// the request asks to have certified, checked by `backend`.
    pub fn check_signature(&self, backend: &Backend) -> std::result::Result<(), CsrError> {
        let scheme = self
            .signature_algorithm
            .signature_scheme()
            .map_err(CsrError::Der)?
            .ok_or_else(|| CsrError::UnsupportedAlgorithm(self.signature_algorithm.name()))?;
        let ok = backend
            .verify(self.spki.raw, scheme, self.info_raw, self.signature.bytes)
            .map_err(CsrError::Backend)?;
        if ok {
            Ok(())
        } else {
            Err(CsrError::BadSignature)
        }
    }

    /// The extensions the request asks for (its PKCS#9 extensionRequest attribute, RFC
    /// 2985 §5.4.2), each as (OID content octets, whole Extension TLV), in order; none
    /// without the attribute.
    pub fn requested_extensions(&self) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let Some(attr) = self
            .attributes
            .find(&crate::der::oid_registry::PKCS9_EXTENSION_REQUEST)?
        else {
            return Ok(Vec::new());
        };
        let mut v = attr.single_value()?;
        crate::extension::Extensions::read(&mut v)?.raw_elements()
    }
}

/// Why a CSR cannot be certified as it is.
#[non_exhaustive]
#[derive(Debug)]
pub enum CsrError {
    /// It does not decode, nor its signature algorithm or its extensionRequest.
    Der(crate::der::Error),
    /// Its signature algorithm (this one) is not one pkit verifies.
    UnsupportedAlgorithm(String),
    /// Its signature does not verify with its own key: it proves no possession.
    BadSignature,
    /// The backend could not check the signature.
    Backend(BackendError),
}

impl std::fmt::Display for CsrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CsrError::Der(e) => write!(f, "{e}"),
            CsrError::UnsupportedAlgorithm(n) => {
                write!(f, "signature algorithm {n} is not supported")
            }
            CsrError::BadSignature => {
                f.write_str("the CSR's signature does not verify with its own key")
            }
            CsrError::Backend(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CsrError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CsrError::Der(e) => Some(e),
            CsrError::Backend(e) => Some(e),
            CsrError::UnsupportedAlgorithm(_) | CsrError::BadSignature => None,
        }
    }
}

/// What a CSR asks to have certified, its proof of possession checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requested {
    /// The subject Name DER.
    pub subject: Vec<u8>,
    /// The SubjectPublicKeyInfo DER.
    pub spki: Vec<u8>,
    /// The extensions it asks for ([`Csr::requested_extensions`]).
    pub extensions: Vec<(Vec<u8>, Vec<u8>)>,
}

/// Read the CSR in `der` (strict DER), check its signature with `backend`
/// ([`Csr::check_signature`]), and take what it asks for: what a CA certifies from it.
pub fn read_checked(backend: &Backend, der: &[u8]) -> std::result::Result<Requested, CsrError> {
    let csr = Csr::from_der(der).map_err(CsrError::Der)?;
    csr.check_signature(backend)?;
    Ok(Requested {
        subject: csr.subject.raw.to_vec(),
        spki: csr.spki.raw.to_vec(),
        extensions: csr.requested_extensions().map_err(CsrError::Der)?,
    })
}

/// X.501 `Attribute` as RFC 2986 §4.1 writes it (RFC 5652 §5.3 and RFC 7292 §4.2 use
/// the same shape for signed attributes and bag attributes):
///
/// ```asn1
/// Attribute { ATTRIBUTE:IOSet } ::= SEQUENCE {
///      type   ATTRIBUTE.&id({IOSet}),
///      values SET SIZE(1..MAX) OF ATTRIBUTE.&Type({IOSet}{@type})
/// }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Attribute<'a> {
    /// The attribute's type.
    pub oid: ObjectId<'a>,
    /// Reader over the `values` SET content, in the mode the attribute was read with.
    values: Reader<'a>,
    /// Absolute offset of the Attribute SEQUENCE.
    pub offset: usize,
}

impl<'a> Attribute<'a> {
    /// Read one Attribute at the cursor.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let offset = r.offset();
        let mut s = r.read_sequence()?;
        let oid = s.read_oid().at("type")?;
        let set = s.read_expect(tag::SET).at("values")?;
        s.finish()?;
        if set.content.is_empty() {
            s.deviate(
                set.offset,
                ErrorKind::Invalid("expected at least one attribute value".into()),
            )
            .at("values")?;
        }
        Ok(Attribute {
            oid,
            values: s.with_base(set.content, set.content_offset()),
            offset,
        })
    }

    /// A reader over the values (each one TLV), keeping the strict/lenient mode.
    pub fn values(&self) -> Reader<'a> {
        self.values
    }

    /// Every value's TLV, in order.
    pub fn value_tlvs(&self) -> Result<Vec<Tlv<'a>>> {
        let mut r = self.values;
        let mut out = Vec::with_capacity(1);
        while !r.is_empty() {
            let i = out.len();
            out.push(r.read_tlv().at_index(i).at("values")?);
        }
        Ok(out)
    }

    /// The one value of a `SINGLE VALUE TRUE` attribute (challengePassword,
    /// extensionRequest, friendlyName…), as a reader positioned on it.
    pub fn single_value(&self) -> Result<Reader<'a>> {
        let mut r = self.values;
        let first = r;
        r.read_tlv().at("values")?;
        if !r.is_empty() {
            first.deviate(
                r.offset(),
                ErrorKind::Invalid(format!(
                    "expected a single value for {}",
                    self.oid.name_or_dotted()
                )),
            )?;
        }
        let tlv_len = first.remaining().len() - r.remaining().len();
        Ok(first.with_base(&first.remaining()[..tlv_len], first.offset()))
    }
}

/// The content of an `Attributes` SET, read attribute by attribute.
#[derive(Debug, Clone, Copy)]
pub struct Attributes<'a> {
    body: Reader<'a>,
}

impl<'a> Attributes<'a> {
    /// Attributes over a reader positioned on the SET content.
    pub fn new(body: Reader<'a>) -> Self {
        Attributes { body }
    }

    /// Whether the request has no attributes.
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// Every attribute, in order.
    pub fn list(&self) -> Result<Vec<Attribute<'a>>> {
        let mut r = self.body;
        let mut out = Vec::with_capacity(2);
        while !r.is_empty() {
            let i = out.len();
            out.push(Attribute::read(&mut r).at_index(i).at("attributes")?);
        }
        Ok(out)
    }

    /// The first attribute with this type, if any.
    pub fn find(&self, oid: &crate::der::Oid) -> Result<Option<Attribute<'a>>> {
        Ok(self.list()?.into_iter().find(|a| a.oid == *oid))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::oid_registry as oids;
    use crate::der::{Deviations, Writer};

    fn name(w: &mut Writer, cn: &str) {
        w.sequence(|w| {
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(&oids::AT_COMMON_NAME);
                    w.utf8_string(cn);
                });
            });
        });
    }

    fn spki(w: &mut Writer) {
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::ED25519);
            });
            w.bit_string(&[7; 32]);
        });
    }

    /// A request with a challengePassword and an extensionRequest (basicConstraints).
    fn sample(version: u64, attrs: impl FnOnce(&mut Writer)) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.integer_u64(version);
                name(w, "req");
                spki(w);
                w.tlv(tag::implicit_constructed(0), attrs);
            });
            w.sequence(|w| {
                w.oid(&oids::ED25519);
            });
            w.bit_string(&[1; 64]);
        });
        w.finish()
    }

    fn std_attrs(w: &mut Writer) {
        w.sequence(|w| {
            w.oid(&oids::PKCS9_CHALLENGE_PASSWORD);
            w.set(|w| {
                w.utf8_string("s3cret");
            });
        });
        w.sequence(|w| {
            w.oid(&oids::PKCS9_EXTENSION_REQUEST);
            w.set(|w| {
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::CE_BASIC_CONSTRAINTS);
                        w.octet_string(&[0x30, 0x00]);
                    });
                });
            });
        });
    }

    #[test]
    fn parses_fields_and_attributes() {
        let der = sample(0, std_attrs);
        let c = Csr::from_der(&der).unwrap();
        assert_eq!(c.version, 0);
        assert_eq!(c.subject.to_rfc4514().unwrap(), "CN=req");
        assert_eq!(c.spki.algorithm.oid, oids::ED25519);
        assert_eq!(c.signature.bytes.len(), 64);
        assert_eq!(c.tbs_raw()[0], 0x30);
        assert_eq!(c.raw, &der[..]);
        let attrs = c.attributes.list().unwrap();
        assert_eq!(attrs.len(), 2);
        assert_eq!(attrs[0].oid, oids::PKCS9_CHALLENGE_PASSWORD);
        let mut v = attrs[0].single_value().unwrap();
        assert_eq!(v.read_any_string().unwrap(), "s3cret");
        let mut v = attrs[1].single_value().unwrap();
        let exts = crate::extension::Extensions::read(&mut v).unwrap();
        assert_eq!(exts.list().unwrap()[0].oid, oids::CE_BASIC_CONSTRAINTS);
        // The info span is exactly what follows the outer header.
        let outer = Reader::new(&der).read_sequence().unwrap();
        assert!(outer.remaining().starts_with(c.info_raw));
    }

    #[test]
    fn requested_extensions_come_from_the_extension_request() {
        let der = sample(0, std_attrs);
        let c = Csr::from_der(&der).unwrap();
        let exts = c.requested_extensions().unwrap();
        assert_eq!(exts.len(), 1);
        assert_eq!(exts[0].0, oids::CE_BASIC_CONSTRAINTS.as_bytes());
        assert_eq!(exts[0].1[0], 0x30, "the whole Extension TLV");
        let plain = sample(0, |w| {
            w.sequence(|w| {
                w.oid(&oids::PKCS9_CHALLENGE_PASSWORD);
                w.set(|w| {
                    w.utf8_string("s3cret");
                });
            });
        });
        let c = Csr::from_der(&plain).unwrap();
        assert!(c.requested_extensions().unwrap().is_empty());
        // An extensionRequest that is not a SEQUENCE OF Extension is refused, with where.
        let bad = sample(0, |w| {
            w.sequence(|w| {
                w.oid(&oids::PKCS9_EXTENSION_REQUEST);
                w.set(|w| {
                    w.utf8_string("not extensions");
                });
            });
        });
        let c = Csr::from_der(&bad).unwrap();
        assert!(c.requested_extensions().is_err());
    }

    #[test]
    fn empty_attribute_set_is_fine() {
        let der = sample(0, |_| {});
        let c = Csr::from_der(&der).unwrap();
        assert!(c.attributes.is_empty());
        assert!(c.attributes.list().unwrap().is_empty());
    }

    #[test]
    fn rejects_unknown_version_strictly_and_logs_it_leniently() {
        let der = sample(1, std_attrs);
        let e = Csr::from_der(&der).unwrap_err();
        assert!(e.to_string().contains("expected version 1"), "{e}");
        // 30 81 xx | 30 xx | 02 01 01: the version INTEGER starts at 5.
        assert_eq!(&der[5..8], &[2, 1, 1]);
        assert_eq!(e.offset, 5);
        let log = Deviations::new();
        let c = Csr::parse(Reader::lenient(&der, &log)).unwrap();
        assert_eq!(c.version, 1);
        assert_eq!(log.take().len(), 1);
    }

    #[test]
    fn zero_valued_and_multi_valued_attributes() {
        let der = sample(0, |w| {
            w.sequence(|w| {
                w.oid(&oids::PKCS9_CHALLENGE_PASSWORD);
                w.set(|_| {});
            });
        });
        let c = Csr::from_der(&der).unwrap();
        let e = c.attributes.list().unwrap_err();
        assert_eq!(e.path_string(), "attributes[0].values");
        let der = sample(0, |w| {
            w.sequence(|w| {
                w.oid(&oids::PKCS9_CHALLENGE_PASSWORD);
                w.set(|w| {
                    w.utf8_string("a");
                    w.utf8_string("b");
                });
            });
        });
        let c = Csr::from_der(&der).unwrap();
        let a = c.attributes.list().unwrap();
        assert_eq!(a[0].value_tlvs().unwrap().len(), 2);
        assert!(a[0].single_value().is_err());
    }

    #[test]
    fn truncation_wrong_tag_and_trailing_data() {
        let der = sample(0, std_attrs);
        for cut in [1, 10, der.len() / 2, der.len() - 1] {
            assert!(Csr::from_der(&der[..cut]).is_err(), "cut at {cut}");
        }
        let mut bad = der.clone();
        bad[0] = 0x31;
        let e = Csr::from_der(&bad).unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(matches!(e.kind, ErrorKind::UnexpectedTag { .. }));
        let mut trailing = der.clone();
        trailing.push(0);
        let e = Csr::from_der(&trailing).unwrap_err();
        assert_eq!(e.offset, der.len());
        assert_eq!(e.kind, ErrorKind::TrailingData { count: 1 });
    }

    #[test]
    fn missing_attributes_element_is_a_deviation() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.integer_u64(0);
                name(w, "x");
                spki(w);
            });
            w.sequence(|w| {
                w.oid(&oids::ED25519);
            });
            w.bit_string(&[1; 64]);
        });
        let der = w.finish();
        assert!(Csr::from_der(&der).is_err());
        let log = Deviations::new();
        let c = Csr::parse(Reader::lenient(&der, &log)).unwrap();
        assert!(c.attributes.is_empty());
        assert_eq!(log.take().len(), 1);
    }
}
