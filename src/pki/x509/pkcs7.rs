//! PKCS#7 / CMS containers (RFC 5652 §3, §5; RFC 2315 §7, §9): `ContentInfo`, and
//! `SignedData` down to the certificates, CRLs and signer infos it carries.
//!
//! CMS is BER, not DER (RFC 5652 §1.2 asks only that signed attributes be DER): Windows
//! and Java write indefinite lengths and constructed OCTET STRINGs. Callers read these
//! containers with a lenient [`Reader`]; the certificates and CRLs inside are handed out
//! as spans for the caller to parse in whatever mode it wants.

#![forbid(unsafe_code)]

use crate::algid::AlgId;
use crate::csr::Attributes;
use crate::der::oid_registry as oids;
use crate::der::Tlv;
use crate::der::{tag, Context, Error, ErrorKind, ObjectId, Reader, Result};
use crate::name::Name;
use std::borrow::Cow;

/// Nesting limit for constructed OCTET STRING segments (BER allows segments of
/// segments; real encoders use one level).
const MAX_SEGMENT_DEPTH: usize = 8;

/// OCTET STRING content: borrowed when primitive, reassembled when a BER encoder split
/// it into segments (X.690 §8.7.3.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Octets<'a> {
    /// The content octets.
    pub bytes: Cow<'a, [u8]>,
    /// Absolute offset of the first content byte. For reassembled strings, offsets
    /// past the first segment are approximate.
    pub offset: usize,
}

impl<'a> Octets<'a> {
    /// A reader over the bytes at their offset, in the mode of `mode`.
    pub fn reader<'b>(&'b self, mode: Reader<'b>) -> Reader<'b>
    where
        'a: 'b,
    {
        mode.with_base(&self.bytes, self.offset)
    }
}

/// Read an OCTET STRING whose primitive tag is `t` (0x04, or `[n] IMPLICIT`), accepting
/// the constructed form. The constructed form is not DER, so a strict reader refuses it.
pub fn read_octets<'a>(r: &mut Reader<'a>, t: u8) -> Result<Octets<'a>> {
    let tlv = r.read_tlv()?;
    if tlv.tag == t {
        return Ok(Octets {
            bytes: Cow::Borrowed(tlv.content),
            offset: tlv.content_offset(),
        });
    }
    if tlv.tag != t | tag::CONSTRUCTED {
        return Err(Error::new(
            tlv.offset,
            ErrorKind::UnexpectedTag {
                expected: t,
                found: tlv.tag,
            },
        ));
    }
    r.deviate(
        tlv.offset,
        ErrorKind::Invalid("expected a primitive OCTET STRING (constructed is BER)".into()),
    )?;
    let mut out = Vec::with_capacity(tlv.content.len());
    let inner = r.with_base(tlv.content, tlv.content_offset());
    collect_segments(inner, &mut out, 0)?;
    Ok(Octets {
        bytes: Cow::Owned(out),
        offset: tlv.content_offset(),
    })
}

fn collect_segments(mut r: Reader<'_>, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    if depth >= MAX_SEGMENT_DEPTH {
        return Err(Error::new(
            r.offset(),
            ErrorKind::TooDeep {
                limit: MAX_SEGMENT_DEPTH,
            },
        ));
    }
    while !r.is_empty() {
        let seg = r.read_tlv()?;
        match seg.tag {
            tag::OCTET_STRING => out.extend_from_slice(seg.content),
            0x24 => collect_segments(
                r.with_base(seg.content, seg.content_offset()),
                out,
                depth + 1,
            )?,
            found => {
                return Err(Error::new(
                    seg.offset,
                    ErrorKind::UnexpectedTag {
                        expected: tag::OCTET_STRING,
                        found,
                    },
                ))
            }
        }
    }
    Ok(())
}

/// RFC 5652 §3:
///
/// ```asn1
/// ContentInfo ::= SEQUENCE {
///   contentType ContentType,
///   content [0] EXPLICIT ANY DEFINED BY contentType }
///
/// ContentType ::= OBJECT IDENTIFIER
/// ```
/// RFC 2315 §7 makes `content` OPTIONAL (a detached or absent `data`); it is here too.
#[derive(Debug, Clone, Copy)]
pub struct ContentInfo<'a> {
    /// contentType: what the content is (signedData, data, …).
    pub content_type: ObjectId<'a>,
    /// A reader over the `[0]` wrapper's content: the one inner element.
    pub content: Option<Reader<'a>>,
    /// Absolute byte offset of the ContentInfo.
    pub offset: usize,
}

impl<'a> ContentInfo<'a> {
    /// Parse a ContentInfo spanning all of `r` (trailing bytes are an error).
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let ci = Self::read(&mut r)?;
        r.finish()?;
        Ok(ci)
    }

    /// Read one ContentInfo at the cursor.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let offset = r.offset();
        let mut s = r.read_sequence().at("contentInfo")?;
        let content_type = s.read_oid().at("contentInfo.contentType")?;
        let content = s
            .read_optional(tag::explicit(0))?
            .map(|tlv| s.with_base(tlv.content, tlv.content_offset()));
        s.finish().at("contentInfo")?;
        Ok(ContentInfo {
            content_type,
            content,
            offset,
        })
    }

    /// The `data` content (`Data ::= OCTET STRING`, RFC 5652 §4), or `None` when absent.
    pub fn data(&self) -> Result<Option<Octets<'a>>> {
        let Some(mut c) = self.content else {
            return Ok(None);
        };
        let o = read_octets(&mut c, tag::OCTET_STRING).at("contentInfo.content")?;
        c.finish().at("contentInfo.content")?;
        Ok(Some(o))
    }

    /// The `signedData` content.
    pub fn signed_data(&self) -> Result<SignedData<'a>> {
        let mut c = self.content.ok_or_else(|| {
            Error::invalid(self.offset, "expected content for signedData").at("contentInfo")
        })?;
        let sd = SignedData::read(&mut c).at("signedData")?;
        c.finish().at("contentInfo.content")?;
        Ok(sd)
    }

    /// The inner element's TLV, for content types described by size only.
    pub fn content_tlv(&self) -> Result<Option<Tlv<'a>>> {
        match self.content {
            Some(mut c) => Ok(Some(c.read_tlv().at("contentInfo.content")?)),
            None => Ok(None),
        }
    }

    /// Whether the content type is `oid`.
    pub fn is(&self, oid: &crate::der::Oid) -> bool {
        self.content_type == *oid
    }
}

/// RFC 5652 §5.1:
///
/// ```asn1
/// SignedData ::= SEQUENCE {
///   version CMSVersion,
///   digestAlgorithms DigestAlgorithmIdentifiers,
///   encapContentInfo EncapsulatedContentInfo,
///   certificates [0] IMPLICIT CertificateSet OPTIONAL,
///   crls [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///   signerInfos SignerInfos }
///
/// DigestAlgorithmIdentifiers ::= SET OF DigestAlgorithmIdentifier
/// SignerInfos ::= SET OF SignerInfo
///
/// EncapsulatedContentInfo ::= SEQUENCE {
///   eContentType ContentType,
///   eContent [0] EXPLICIT OCTET STRING OPTIONAL }
/// ```
/// RFC 2315 §9.1 has `contentInfo ContentInfo` in place of encapContentInfo, whose
/// content may be any type (Authenticode's SpcIndirectDataContent is a SEQUENCE); both
/// are read.
#[derive(Debug, Clone)]
pub struct SignedData<'a> {
    /// version: the CMSVersion, which RFC 5652 §5.1 derives from the other fields.
    pub version: u64,
    digest_algorithms: Reader<'a>,
    /// eContentType: the encapsulated content's type.
    pub encap_content_type: ObjectId<'a>,
    /// eContent: the encapsulated content, absent when detached.
    pub encap_content: Option<EncapContent<'a>>,
    certificates: Option<Reader<'a>>,
    crls: Option<Reader<'a>>,
    signer_infos: Reader<'a>,
}

/// The encapsulated content.
#[derive(Debug, Clone)]
pub enum EncapContent<'a> {
    /// An OCTET STRING (CMS, and PKCS#7 `data`).
    Octets(Octets<'a>),
    /// Any other element (PKCS#7 v1.5 content types): its whole TLV.
    Other(Tlv<'a>),
}

impl EncapContent<'_> {
    /// Content size in bytes (the octets, or the whole element).
    pub fn len(&self) -> usize {
        match self {
            EncapContent::Octets(o) => o.bytes.len(),
            EncapContent::Other(t) => t.total_len,
        }
    }

    /// Whether the content is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// RFC 5652 §10.2.2:
///
/// ```asn1
/// CertificateChoices ::= CHOICE {
///   certificate Certificate,
///   extendedCertificate [0] IMPLICIT ExtendedCertificate,  -- Obsolete
///   v1AttrCert [1] IMPLICIT AttributeCertificateV1,        -- Obsolete
///   v2AttrCert [2] IMPLICIT AttributeCertificateV2,
///   other [3] IMPLICIT OtherCertificateFormat }
///
/// CertificateSet ::= SET OF CertificateChoices
/// ```
#[derive(Debug, Clone, Copy)]
pub struct CertificateChoice<'a> {
    /// The element's identifier octet.
    pub tag: u8,
    /// The whole element TLV.
    pub raw: &'a [u8],
    /// Absolute byte offset of the element.
    pub offset: usize,
}

impl CertificateChoice<'_> {
    /// The CHOICE alternative's name.
    pub fn kind(&self) -> &'static str {
        match self.tag {
            tag::SEQUENCE => "certificate",
            0xa0 => "extendedCertificate",
            0xa1 => "v1AttrCert",
            0xa2 => "v2AttrCert",
            0xa3 => "other",
            _ => "unknown",
        }
    }

    /// Whether this is a plain X.509 certificate (the `certificate` alternative).
    pub fn is_certificate(&self) -> bool {
        self.tag == tag::SEQUENCE
    }
}

/// RFC 5652 §10.2.1:
///
/// ```asn1
/// RevocationInfoChoices ::= SET OF RevocationInfoChoice
///
/// RevocationInfoChoice ::= CHOICE {
///   crl CertificateList,
///   other [1] IMPLICIT OtherRevocationInfoFormat }
///
/// OtherRevocationInfoFormat ::= SEQUENCE {
///   otherRevInfoFormat OBJECT IDENTIFIER,
///   otherRevInfo ANY DEFINED BY otherRevInfoFormat }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct RevocationChoice<'a> {
    /// The element's identifier octet.
    pub tag: u8,
    /// The whole element TLV.
    pub raw: &'a [u8],
    /// Absolute byte offset of the element.
    pub offset: usize,
}

impl RevocationChoice<'_> {
    /// Whether this is a CRL (the `crl` alternative).
    pub fn is_crl(&self) -> bool {
        self.tag == tag::SEQUENCE
    }
}

/// RFC 5652 §5.3:
///
/// ```asn1
/// SignerInfo ::= SEQUENCE {
///   version CMSVersion,
///   sid SignerIdentifier,
///   digestAlgorithm DigestAlgorithmIdentifier,
///   signedAttrs [0] IMPLICIT SignedAttributes OPTIONAL,
///   signatureAlgorithm SignatureAlgorithmIdentifier,
///   signature SignatureValue,
///   unsignedAttrs [1] IMPLICIT UnsignedAttributes OPTIONAL }
///
/// SignerIdentifier ::= CHOICE {
///   issuerAndSerialNumber IssuerAndSerialNumber,
///   subjectKeyIdentifier [0] SubjectKeyIdentifier }
///
/// SignedAttributes ::= SET SIZE (1..MAX) OF Attribute
/// SignatureValue ::= OCTET STRING
///
/// IssuerAndSerialNumber ::= SEQUENCE {
///   issuer Name,
///   serialNumber CertificateSerialNumber }
/// ```
#[derive(Debug, Clone)]
pub struct SignerInfo<'a> {
    /// version: 1 with issuerAndSerialNumber, 3 with subjectKeyIdentifier.
    pub version: u64,
    /// sid: which certificate's key made the signature.
    pub sid: SignerId<'a>,
    /// digestAlgorithm: the hash of the content.
    pub digest_algorithm: AlgId<'a>,
    /// `[0]` signedAttrs, if present.
    pub signed_attrs: Option<Attributes<'a>>,
    /// The `[0]` element as encoded; the signature covers it with a SET tag (§5.4).
    pub signed_attrs_raw: Option<&'a [u8]>,
    /// signatureAlgorithm.
    pub signature_algorithm: AlgId<'a>,
    /// signature: the SignatureValue OCTET STRING.
    pub signature: Octets<'a>,
    /// `[1]` unsignedAttrs, if present.
    pub unsigned_attrs: Option<Attributes<'a>>,
}

/// `SignerIdentifier`.
#[derive(Debug, Clone, Copy)]
pub enum SignerId<'a> {
    /// The signer's certificate by issuer and serial number.
    IssuerAndSerialNumber {
        /// The issuer's Name.
        issuer: Name<'a>,
        /// INTEGER content octets (sign included).
        serial: &'a [u8],
    },
    /// `[0]` subjectKeyIdentifier: the signer's certificate by key identifier.
    SubjectKeyIdentifier(&'a [u8]),
}

impl<'a> SignedData<'a> {
    /// Read a SignedData SEQUENCE at the cursor.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let version = s.read_u64().at("version")?;
        let digest_algorithms = s.read_nested(tag::SET).at("digestAlgorithms")?;
        let mut e = s.read_sequence().at("encapContentInfo")?;
        let encap_content_type = e.read_oid().at("encapContentInfo.eContentType")?;
        let encap_content = match e.read_optional(tag::explicit(0))? {
            Some(tlv) => {
                let mut w = e.with_base(tlv.content, tlv.content_offset());
                let c = match w.peek_tag() {
                    Some(tag::OCTET_STRING | 0x24) => EncapContent::Octets(
                        read_octets(&mut w, tag::OCTET_STRING).at("encapContentInfo.eContent")?,
                    ),
                    _ => EncapContent::Other(w.read_tlv().at("encapContentInfo.eContent")?),
                };
                w.finish().at("encapContentInfo.eContent")?;
                Some(c)
            }
            None => None,
        };
        e.finish().at("encapContentInfo")?;
        let certificates = s
            .read_optional(tag::implicit_constructed(0))?
            .map(|tlv| s.with_base(tlv.content, tlv.content_offset()));
        let crls = s
            .read_optional(tag::implicit_constructed(1))?
            .map(|tlv| s.with_base(tlv.content, tlv.content_offset()));
        let signer_infos = s.read_nested(tag::SET).at("signerInfos")?;
        s.finish()?;
        Ok(SignedData {
            version,
            digest_algorithms,
            encap_content_type,
            encap_content,
            certificates,
            crls,
            signer_infos,
        })
    }

    /// The digestAlgorithms SET, decoded.
    pub fn digest_algorithms(&self) -> Result<Vec<AlgId<'a>>> {
        let mut r = self.digest_algorithms;
        let mut out = Vec::with_capacity(2);
        while !r.is_empty() {
            let i = out.len();
            out.push(AlgId::read(&mut r).at_index(i).at("digestAlgorithms")?);
        }
        Ok(out)
    }

    /// Every CertificateChoices element, as spans.
    pub fn certificates(&self) -> Result<Vec<CertificateChoice<'a>>> {
        spans(self.certificates, "certificates").map(|v| {
            v.into_iter()
                .map(|(tag, raw, offset)| CertificateChoice { tag, raw, offset })
                .collect()
        })
    }

    /// Every RevocationInfoChoice element, as spans.
    pub fn crls(&self) -> Result<Vec<RevocationChoice<'a>>> {
        spans(self.crls, "crls").map(|v| {
            v.into_iter()
                .map(|(tag, raw, offset)| RevocationChoice { tag, raw, offset })
                .collect()
        })
    }

    /// The signerInfos SET, decoded.
    pub fn signer_infos(&self) -> Result<Vec<SignerInfo<'a>>> {
        let mut r = self.signer_infos;
        let mut out = Vec::with_capacity(1);
        while !r.is_empty() {
            let i = out.len();
            out.push(SignerInfo::read(&mut r).at_index(i).at("signerInfos")?);
        }
        Ok(out)
    }

    /// True when the content type is `data` with no content and no signers: the
    /// "certs-only" degenerate form used to ship certificate chains (RFC 5652 §5.2).
    pub fn is_degenerate(&self) -> bool {
        self.signer_infos.is_empty()
    }

    /// Whether eContentType is id-data.
    pub fn encapsulates_data(&self) -> bool {
        self.encap_content_type == oids::PKCS7_DATA
    }
}

/// Each element of a SET content as (tag, whole TLV, offset).
fn spans<'a>(set: Option<Reader<'a>>, field: &str) -> Result<Vec<(u8, &'a [u8], usize)>> {
    let Some(mut r) = set else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    while !r.is_empty() {
        let start = r.remaining();
        let tlv = r.read_tlv().at_index(out.len()).at(field)?;
        out.push((tlv.tag, &start[..tlv.total_len], tlv.offset));
    }
    Ok(out)
}

impl<'a> SignerInfo<'a> {
    /// Read a SignerInfo (RFC 5652 §5.3) at the cursor.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let version = s.read_u64().at("version")?;
        let sid = match s.peek_tag() {
            Some(tag::SEQUENCE) => {
                let mut i = s.read_sequence().at("sid")?;
                let issuer = Name::read(&mut i).at("sid.issuer")?;
                let serial = i.read_integer().at("sid.serialNumber")?;
                i.finish().at("sid")?;
                SignerId::IssuerAndSerialNumber { issuer, serial }
            }
            Some(0x80) => SignerId::SubjectKeyIdentifier(s.read(0x80).at("sid")?),
            _ => {
                return Err(Error::invalid(
                    s.offset(),
                    "expected issuerAndSerialNumber or subjectKeyIdentifier [0]",
                )
                .at("sid"))
            }
        };
        let digest_algorithm = AlgId::read(&mut s).at("digestAlgorithm")?;
        let (signed_attrs, signed_attrs_raw) = match s.peek_tag() {
            Some(0xa0) => {
                let start = s.remaining();
                let tlv = s.read_tlv().at("signedAttrs")?;
                (
                    Some(Attributes::new(
                        s.with_base(tlv.content, tlv.content_offset()),
                    )),
                    Some(&start[..tlv.total_len]),
                )
            }
            _ => (None, None),
        };
        let signature_algorithm = AlgId::read(&mut s).at("signatureAlgorithm")?;
        let signature = read_octets(&mut s, tag::OCTET_STRING).at("signature")?;
        let unsigned_attrs = s
            .read_optional(0xa1)?
            .map(|tlv| Attributes::new(s.with_base(tlv.content, tlv.content_offset())));
        s.finish()?;
        Ok(SignerInfo {
            version,
            sid,
            digest_algorithm,
            signed_attrs,
            signed_attrs_raw,
            signature_algorithm,
            signature,
            unsigned_attrs,
        })
    }
}

#[cfg(test)]
mod tests;
