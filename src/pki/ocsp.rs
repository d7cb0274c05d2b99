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

use crate::der::hex;
use crate::der::oid_registry as oids;
use crate::der::primitives::BitString;
use crate::der::{integer, tag, Context, Error, ErrorKind, ObjectId, Reader, Result, Time};
use crate::pki::algid::AlgId;
use crate::pki::cert::Certificate;
use crate::pki::ext::general_name::{GeneralName, IpForm};
use crate::pki::ext::CrlReason;
use crate::pki::extension::Extensions;
use crate::pki::name::Name;

/// A borrowed `CertID` (RFC 6960 §4.1.1).
#[derive(Debug, Clone, Copy)]
pub struct CertId<'a> {
    pub hash_algorithm: AlgId<'a>,
    pub issuer_name_hash: &'a [u8],
    pub issuer_key_hash: &'a [u8],
    /// serialNumber INTEGER content octets (sign included).
    pub serial: &'a [u8],
    pub serial_offset: usize,
    /// The whole CertID TLV (responders match requests to responses on it).
    pub raw: &'a [u8],
}

impl<'a> CertId<'a> {
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let start = r.remaining();
        let mut s = r.read_sequence()?;
        let raw = &start[..start.len() - r.remaining().len()];
        let hash_algorithm = AlgId::read(&mut s).at("hashAlgorithm")?;
        let issuer_name_hash = s.read_octet_string().at("issuerNameHash")?;
        let issuer_key_hash = s.read_octet_string().at("issuerKeyHash")?;
        let serial_offset = s.offset();
        let serial = s.read_integer().at("serialNumber")?;
        s.finish()?;
        Ok(CertId {
            hash_algorithm,
            issuer_name_hash,
            issuer_key_hash,
            serial,
            serial_offset,
            raw,
        })
    }

    /// The serial as lowercase hex of its magnitude.
    pub fn serial_hex(&self) -> String {
        hex(integer::unsigned_bytes(self.serial))
    }
}

/// RFC 6960 §4.1.1:
///
/// ```asn1
/// OCSPRequest ::= SEQUENCE {
///     tbsRequest                  TBSRequest,
///     optionalSignature   [0]     EXPLICIT Signature OPTIONAL }
///
/// TBSRequest ::= SEQUENCE {
///     version             [0]     EXPLICIT Version DEFAULT v1,
///     requestorName       [1]     EXPLICIT GeneralName OPTIONAL,
///     requestList                 SEQUENCE OF Request,
///     requestExtensions   [2]     EXPLICIT Extensions OPTIONAL }
///
/// Signature ::= SEQUENCE {
///     signatureAlgorithm      AlgorithmIdentifier,
///     signature               BIT STRING,
///     certs               [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL }
///
/// Version ::= INTEGER { v1(0) }
///
/// Request ::= SEQUENCE {
///     reqCert                     CertID,
///     singleRequestExtensions     [0] EXPLICIT Extensions OPTIONAL }
/// ```
#[derive(Debug, Clone)]
pub struct OcspRequest<'a> {
    pub raw: &'a [u8],
    /// The TBSRequest TLV: the bytes an optional signature covers.
    pub tbs_raw: &'a [u8],
    /// 0 = v1.
    pub version: u64,
    pub requestor_name: Option<GeneralName<'a>>,
    request_list: Reader<'a>,
    pub request_extensions: Option<Extensions<'a>>,
    pub signature: Option<OcspSignature<'a>>,
}

/// One entry of `requestList`.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub cert_id: CertId<'a>,
    pub single_request_extensions: Option<Extensions<'a>>,
}

/// The `Signature` of a signed request.
#[derive(Debug, Clone, Copy)]
pub struct OcspSignature<'a> {
    pub signature_algorithm: AlgId<'a>,
    pub signature: BitString<'a>,
    certs: Option<Reader<'a>>,
}

impl<'a> OcspSignature<'a> {
    /// The certificates that help verify the signature.
    pub fn certs(&self) -> Result<Vec<Certificate<'a>>> {
        read_certs(self.certs)
    }
}

impl<'a> OcspRequest<'a> {
    pub fn from_der(der: &'a [u8]) -> Result<Self> {
        Self::parse(Reader::new(der))
    }

    /// Parse with a reader (strict or lenient); trailing bytes are an error.
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let raw = r.remaining();
        let mut outer = r.read_sequence().at("ocspRequest")?;
        let raw = &raw[..raw.len() - r.remaining().len()];
        r.finish()?;
        let tbs_start = outer.remaining();
        let mut t = outer.read_sequence().at("tbsRequest")?;
        let tbs_raw = &tbs_start[..tbs_start.len() - outer.remaining().len()];
        let signature = match outer.read_optional(tag::explicit(0))? {
            Some(tlv) => {
                let mut w = outer.with_base(tlv.content, tlv.content_offset());
                let s = read_signature(&mut w).at("optionalSignature")?;
                w.finish().at("optionalSignature")?;
                Some(s)
            }
            None => None,
        };
        outer.finish().at("ocspRequest")?;

        let version = read_version(&mut t).at("tbsRequest.version")?;
        let requestor_name = match t.read_optional(tag::explicit(1))? {
            Some(tlv) => {
                let mut g = t.with_base(tlv.content, tlv.content_offset());
                let name =
                    GeneralName::read(&mut g, IpForm::Address).at("tbsRequest.requestorName")?;
                g.finish().at("tbsRequest.requestorName")?;
                Some(name)
            }
            None => None,
        };
        let list = t.read_expect(tag::SEQUENCE).at("tbsRequest.requestList")?;
        let request_list = t.with_base(list.content, list.content_offset());
        let request_extensions =
            read_explicit_extensions(&mut t, 2).at("tbsRequest.requestExtensions")?;
        t.finish().at("tbsRequest")?;
        Ok(OcspRequest {
            raw,
            tbs_raw,
            version,
            requestor_name,
            request_list,
            request_extensions,
            signature,
        })
    }

    /// Absolute offset of the `requestList` content (for errors about the whole list).
    pub fn request_list_offset(&self) -> usize {
        self.request_list.offset()
    }

    /// Every `Request` in `requestList`, in order.
    pub fn requests(&self) -> Result<Vec<Request<'a>>> {
        let mut r = self.request_list;
        let mut out = Vec::with_capacity(1);
        while !r.is_empty() {
            let i = out.len();
            out.push(
                read_request(&mut r)
                    .at_index(i)
                    .at("tbsRequest.requestList")?,
            );
        }
        Ok(out)
    }
}

fn read_request<'a>(r: &mut Reader<'a>) -> Result<Request<'a>> {
    let mut s = r.read_sequence()?;
    let cert_id = CertId::read(&mut s).at("reqCert")?;
    let single_request_extensions =
        read_explicit_extensions(&mut s, 0).at("singleRequestExtensions")?;
    s.finish()?;
    Ok(Request {
        cert_id,
        single_request_extensions,
    })
}

fn read_signature<'a>(r: &mut Reader<'a>) -> Result<OcspSignature<'a>> {
    let mut s = r.read_sequence()?;
    let signature_algorithm = AlgId::read(&mut s).at("signatureAlgorithm")?;
    let signature = s.read_bit_string().at("signature")?;
    let certs = read_certs_field(&mut s)?;
    s.finish()?;
    Ok(OcspSignature {
        signature_algorithm,
        signature,
        certs,
    })
}

/// `certs [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL`: a reader over the SEQUENCE
/// content.
fn read_certs_field<'a>(s: &mut Reader<'a>) -> Result<Option<Reader<'a>>> {
    match s.read_optional(tag::explicit(0))? {
        Some(tlv) => {
            let mut w = s.with_base(tlv.content, tlv.content_offset());
            let seq = w.read_sequence().at("certs")?;
            w.finish().at("certs")?;
            Ok(Some(seq))
        }
        None => Ok(None),
    }
}

fn read_certs<'a>(certs: Option<Reader<'a>>) -> Result<Vec<Certificate<'a>>> {
    let Some(mut r) = certs else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(2);
    while !r.is_empty() {
        let i = out.len();
        let start = r.remaining();
        let offset = r.offset();
        let tlv = r.read_tlv().at_index(i).at("certs")?;
        let one = r.with_base(&start[..tlv.total_len], offset);
        out.push(Certificate::parse(one).at_index(i).at("certs")?);
    }
    Ok(out)
}

/// `[n] EXPLICIT Extensions OPTIONAL`.
fn read_explicit_extensions<'a>(r: &mut Reader<'a>, n: u8) -> Result<Option<Extensions<'a>>> {
    match r.read_optional(tag::explicit(n))? {
        Some(tlv) => {
            let mut e = r.with_base(tlv.content, tlv.content_offset());
            let exts = Extensions::read(&mut e)?;
            e.finish()?;
            Ok(Some(exts))
        }
        None => Ok(None),
    }
}

/// `[0] EXPLICIT Version DEFAULT v1` with `Version ::= INTEGER { v1(0) }`: DER omits
/// v1, and no other version exists.
fn read_version(r: &mut Reader<'_>) -> Result<u64> {
    let Some(tlv) = r.read_optional(tag::explicit(0))? else {
        return Ok(0);
    };
    let mut v = r.with_base(tlv.content, tlv.content_offset());
    let n = v.read_u64()?;
    v.finish()?;
    if n == 0 {
        r.deviate(
            tlv.offset,
            ErrorKind::Invalid("expected DEFAULT version v1 to be omitted".into()),
        )?;
    } else {
        r.deviate(
            tlv.content_offset(),
            ErrorKind::Invalid(format!("expected version v1 (0), found {n}")),
        )?;
    }
    Ok(n)
}

/// RFC 6960 §4.2.1:
///
/// ```asn1
/// OCSPResponse ::= SEQUENCE {
///    responseStatus         OCSPResponseStatus,
///    responseBytes          [0] EXPLICIT ResponseBytes OPTIONAL }
///
/// OCSPResponseStatus ::= ENUMERATED {
///     successful            (0),  -- Response has valid confirmations
///     malformedRequest      (1),  -- Illegal confirmation request
///     internalError         (2),  -- Internal error in issuer
///     tryLater              (3),  -- Try again later
///                                 -- (4) is not used
///     sigRequired           (5),  -- Must sign the request
///     unauthorized          (6)   -- Request unauthorized
/// }
///
/// ResponseBytes ::=       SEQUENCE {
///     responseType   OBJECT IDENTIFIER,
///     response       OCTET STRING }
/// ```
#[derive(Debug, Clone)]
pub struct OcspResponse<'a> {
    pub raw: &'a [u8],
    pub status: ResponseStatus,
    pub response_bytes: Option<ResponseBytes<'a>>,
    /// The decoded response when `responseType` is id-pkix-ocsp-basic.
    pub basic: Option<BasicOcspResponse<'a>>,
}

/// `OCSPResponseStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseStatus {
    Successful,
    MalformedRequest,
    InternalError,
    TryLater,
    SigRequired,
    Unauthorized,
    /// A value the ENUMERATED does not define (lenient mode only).
    Other(i64),
}

impl ResponseStatus {
    pub fn from_code(code: i64) -> Option<Self> {
        use ResponseStatus::*;
        Some(match code {
            0 => Successful,
            1 => MalformedRequest,
            2 => InternalError,
            3 => TryLater,
            5 => SigRequired,
            6 => Unauthorized,
            _ => return None,
        })
    }

    pub fn code(self) -> i64 {
        use ResponseStatus::*;
        match self {
            Successful => 0,
            MalformedRequest => 1,
            InternalError => 2,
            TryLater => 3,
            SigRequired => 5,
            Unauthorized => 6,
            Other(n) => n,
        }
    }

    /// The ASN.1 identifier, or `None` for an undefined value.
    pub fn name(self) -> Option<&'static str> {
        use ResponseStatus::*;
        Some(match self {
            Successful => "successful",
            MalformedRequest => "malformedRequest",
            InternalError => "internalError",
            TryLater => "tryLater",
            SigRequired => "sigRequired",
            Unauthorized => "unauthorized",
            Other(_) => return None,
        })
    }
}

/// `ResponseBytes`: the response type and its still-encoded body.
#[derive(Debug, Clone, Copy)]
pub struct ResponseBytes<'a> {
    pub response_type: ObjectId<'a>,
    /// The `response` OCTET STRING content.
    pub response: &'a [u8],
    pub response_offset: usize,
}

/// RFC 6960 §4.2.1:
///
/// ```asn1
/// BasicOCSPResponse       ::= SEQUENCE {
///    tbsResponseData      ResponseData,
///    signatureAlgorithm   AlgorithmIdentifier,
///    signature            BIT STRING,
///    certs            [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL }
///
/// ResponseData ::= SEQUENCE {
///    version              [0] EXPLICIT Version DEFAULT v1,
///    responderID              ResponderID,
///    producedAt               GeneralizedTime,
///    responses                SEQUENCE OF SingleResponse,
///    responseExtensions   [1] EXPLICIT Extensions OPTIONAL }
///
/// ResponderID ::= CHOICE {
///    byName   [1] Name,
///    byKey    [2] KeyHash }
///
/// KeyHash ::= OCTET STRING -- SHA-1 hash of responder's public key
///                          -- (excluding the tag and length fields)
/// ```
#[derive(Debug, Clone)]
pub struct BasicOcspResponse<'a> {
    /// The BasicOCSPResponse DER (the `response` OCTET STRING content).
    pub raw: &'a [u8],
    /// The ResponseData TLV: the bytes the signature covers.
    pub tbs_raw: &'a [u8],
    /// 0 = v1.
    pub version: u64,
    pub responder_id: ResponderId<'a>,
    pub produced_at: Time,
    responses: Reader<'a>,
    pub response_extensions: Option<Extensions<'a>>,
    pub signature_algorithm: AlgId<'a>,
    pub signature: BitString<'a>,
    certs: Option<Reader<'a>>,
}

/// `ResponderID`.
#[derive(Debug, Clone, Copy)]
pub enum ResponderId<'a> {
    ByName(Name<'a>),
    /// SHA-1 of the responder's subjectPublicKey BIT STRING value.
    ByKey(&'a [u8]),
}

/// RFC 6960 §4.2.1:
///
/// ```asn1
/// SingleResponse ::= SEQUENCE {
///    certID                       CertID,
///    certStatus                   CertStatus,
///    thisUpdate                   GeneralizedTime,
///    nextUpdate         [0]       EXPLICIT GeneralizedTime OPTIONAL,
///    singleExtensions   [1]       EXPLICIT Extensions OPTIONAL }
///
/// CertStatus ::= CHOICE {
///     good        [0]     IMPLICIT NULL,
///     revoked     [1]     IMPLICIT RevokedInfo,
///     unknown     [2]     IMPLICIT UnknownInfo }
///
/// RevokedInfo ::= SEQUENCE {
///     revocationTime              GeneralizedTime,
///     revocationReason    [0]     EXPLICIT CRLReason OPTIONAL }
///
/// UnknownInfo ::= NULL
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SingleResponse<'a> {
    pub cert_id: CertId<'a>,
    pub cert_status: CertStatus,
    pub this_update: Time,
    pub next_update: Option<Time>,
    pub single_extensions: Option<Extensions<'a>>,
}

/// `CertStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CertStatus {
    Good,
    Revoked {
        revocation_time: Time,
        revocation_reason: Option<CrlReason>,
    },
    Unknown,
}

impl<'a> OcspResponse<'a> {
    pub fn from_der(der: &'a [u8]) -> Result<Self> {
        Self::parse(Reader::new(der))
    }

    /// Parse with a reader (strict or lenient); trailing bytes are an error. A basic
    /// response is decoded too (its structure, not its entries).
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let raw = r.remaining();
        let mut outer = r.read_sequence().at("ocspResponse")?;
        let raw = &raw[..raw.len() - r.remaining().len()];
        r.finish()?;
        let status_offset = outer.offset();
        let code = outer.read_enumerated().at("responseStatus")?;
        let status = match ResponseStatus::from_code(code) {
            Some(s) => s,
            None => {
                outer
                    .deviate(
                        status_offset,
                        ErrorKind::Invalid(format!(
                            "expected a defined OCSPResponseStatus, found {code}"
                        )),
                    )
                    .at("responseStatus")?;
                ResponseStatus::Other(code)
            }
        };
        let response_bytes = match outer.read_optional(tag::explicit(0))? {
            Some(tlv) => {
                let mut w = outer.with_base(tlv.content, tlv.content_offset());
                let mut s = w.read_sequence().at("responseBytes")?;
                w.finish().at("responseBytes")?;
                let response_type = s.read_oid().at("responseBytes.responseType")?;
                let body = s
                    .read_expect(tag::OCTET_STRING)
                    .at("responseBytes.response")?;
                s.finish().at("responseBytes")?;
                Some(ResponseBytes {
                    response_type,
                    response: body.content,
                    response_offset: body.content_offset(),
                })
            }
            None => None,
        };
        outer.finish().at("ocspResponse")?;
        // §4.2.1: responseBytes is present exactly when the status is successful.
        if (status == ResponseStatus::Successful) != response_bytes.is_some() {
            let what = if response_bytes.is_some() {
                "expected no responseBytes for an unsuccessful status"
            } else {
                "expected responseBytes for a successful status"
            };
            r.deviate(status_offset, ErrorKind::Invalid(what.into()))
                .at("ocspResponse")?;
        }
        let basic = match response_bytes {
            Some(b) if b.response_type == oids::PKIX_OCSP_BASIC => {
                let inner = r.with_base(b.response, b.response_offset);
                Some(BasicOcspResponse::parse(inner).at("responseBytes.response")?)
            }
            _ => None,
        };
        Ok(OcspResponse {
            raw,
            status,
            response_bytes,
            basic,
        })
    }
}

impl<'a> BasicOcspResponse<'a> {
    /// Parse the BasicOCSPResponse that `r` spans exactly.
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let raw = r.remaining();
        let mut outer = r.read_sequence().at("basicOCSPResponse")?;
        r.finish()?;
        let tbs_start = outer.remaining();
        let mut t = outer.read_sequence().at("tbsResponseData")?;
        let tbs_raw = &tbs_start[..tbs_start.len() - outer.remaining().len()];
        let signature_algorithm = AlgId::read(&mut outer).at("signatureAlgorithm")?;
        let signature = outer.read_bit_string().at("signature")?;
        let certs = read_certs_field(&mut outer)?;
        outer.finish().at("basicOCSPResponse")?;

        let version = read_version(&mut t).at("tbsResponseData.version")?;
        let rid = t.read_tlv().at("tbsResponseData.responderID")?;
        let mut inner = t.with_base(rid.content, rid.content_offset());
        let responder_id = match rid.tag {
            x if x == tag::explicit(1) => {
                ResponderId::ByName(Name::read(&mut inner).at("tbsResponseData.responderID")?)
            }
            x if x == tag::explicit(2) => ResponderId::ByKey(
                inner
                    .read_octet_string()
                    .at("tbsResponseData.responderID")?,
            ),
            found => {
                return Err(Error::invalid(
                    rid.offset,
                    format!(
                    "expected ResponderID byName [1] or byKey [2], found {} (tag 0x{found:02x})",
                    tag::describe(found)
                ),
                )
                .at("tbsResponseData.responderID"))
            }
        };
        inner.finish().at("tbsResponseData.responderID")?;
        let produced_at = t.read_generalized_time().at("tbsResponseData.producedAt")?;
        let list = t
            .read_expect(tag::SEQUENCE)
            .at("tbsResponseData.responses")?;
        let responses = t.with_base(list.content, list.content_offset());
        let response_extensions =
            read_explicit_extensions(&mut t, 1).at("tbsResponseData.responseExtensions")?;
        t.finish().at("tbsResponseData")?;
        Ok(BasicOcspResponse {
            raw,
            tbs_raw,
            version,
            responder_id,
            produced_at,
            responses,
            response_extensions,
            signature_algorithm,
            signature,
            certs,
        })
    }

    /// Every `SingleResponse`, in order.
    pub fn responses(&self) -> Result<Vec<SingleResponse<'a>>> {
        let mut r = self.responses;
        let mut out = Vec::with_capacity(1);
        while !r.is_empty() {
            let i = out.len();
            out.push(
                read_single_response(&mut r)
                    .at_index(i)
                    .at("tbsResponseData.responses")?,
            );
        }
        Ok(out)
    }

    /// The certificates that help verify the responder's signature.
    pub fn certs(&self) -> Result<Vec<Certificate<'a>>> {
        read_certs(self.certs)
    }
}

fn read_single_response<'a>(r: &mut Reader<'a>) -> Result<SingleResponse<'a>> {
    let mut s = r.read_sequence()?;
    let cert_id = CertId::read(&mut s).at("certID")?;
    let st = s.read_tlv().at("certStatus")?;
    let cert_status = match st.tag {
        0x80 | 0x82 => {
            if !st.content.is_empty() {
                return Err(Error::new(st.content_offset(), ErrorKind::InvalidNull).at("certStatus"));
            }
            if st.tag == 0x80 {
                CertStatus::Good
            } else {
                CertStatus::Unknown
            }
        }
        x if x == tag::implicit_constructed(1) => {
            let mut ri = s.with_base(st.content, st.content_offset());
            let revocation_time = ri
                .read_generalized_time()
                .at("certStatus.revoked.revocationTime")?;
            let revocation_reason = match ri.read_optional(tag::explicit(0))? {
                Some(tlv) => {
                    let mut w = ri.with_base(tlv.content, tlv.content_offset());
                    let reason = CrlReason::read(&mut w).at("certStatus.revoked.revocationReason")?;
                    w.finish().at("certStatus.revoked.revocationReason")?;
                    Some(reason)
                }
                None => None,
            };
            ri.finish().at("certStatus.revoked")?;
            CertStatus::Revoked {
                revocation_time,
                revocation_reason,
            }
        }
        found => {
            return Err(Error::invalid(
                st.offset,
                format!(
                    "expected CertStatus good [0], revoked [1] or unknown [2], found {} (tag 0x{found:02x})",
                    tag::describe(found)
                ),
            )
            .at("certStatus"))
        }
    };
    let this_update = s.read_generalized_time().at("thisUpdate")?;
    let next_update = match s.read_optional(tag::explicit(0))? {
        Some(tlv) => {
            let mut w = s.with_base(tlv.content, tlv.content_offset());
            let t = w.read_generalized_time().at("nextUpdate")?;
            w.finish().at("nextUpdate")?;
            Some(t)
        }
        None => None,
    };
    let single_extensions = read_explicit_extensions(&mut s, 1).at("singleExtensions")?;
    s.finish()?;
    Ok(SingleResponse {
        cert_id,
        cert_status,
        this_update,
        next_update,
        single_extensions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::{Deviations, Writer};

    fn cert_id(w: &mut Writer, serial: u64) {
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::SHA1);
                w.null();
            });
            w.octet_string(&[0x11; 20]);
            w.octet_string(&[0x22; 20]);
            w.integer_u64(serial);
        });
    }

    fn request(serials: &[u64], nonce: bool) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.sequence(|w| {
                    for &s in serials {
                        w.sequence(|w| cert_id(w, s));
                    }
                });
                if nonce {
                    w.explicit(2, |w| {
                        w.sequence(|w| {
                            w.sequence(|w| {
                                w.oid(&oids::PKIX_OCSP_NONCE);
                                w.octet_string(&[4, 4, 1, 2, 3, 4]);
                            });
                        });
                    });
                }
            });
        });
        w.finish()
    }

    #[test]
    fn parses_requests() {
        let der = request(&[0x1234, 5], true);
        let q = OcspRequest::from_der(&der).unwrap();
        assert_eq!(q.version, 0);
        assert!(q.requestor_name.is_none());
        assert!(q.signature.is_none());
        let list = q.requests().unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].cert_id.serial_hex(), "1234");
        assert_eq!(list[0].cert_id.hash_algorithm.oid, oids::SHA1);
        assert_eq!(list[0].cert_id.issuer_key_hash, &[0x22; 20]);
        let ext = q.request_extensions.unwrap().list().unwrap();
        assert_eq!(ext[0].oid, oids::PKIX_OCSP_NONCE);
    }

    #[test]
    fn request_errors_carry_offsets() {
        let der = request(&[1], false);
        for cut in [0, 3, der.len() - 1] {
            assert!(OcspRequest::from_der(&der[..cut]).is_err());
        }
        let mut trailing = der.clone();
        trailing.push(5);
        assert_eq!(
            OcspRequest::from_der(&trailing).unwrap_err().offset,
            der.len()
        );
        // The serial INTEGER made non-minimal: 02 01 01 -> 02 02 00 01 needs a rebuild,
        // so break the hash OCTET STRING tag instead.
        let mut bad = der.clone();
        let at = der.iter().position(|&b| b == 0x04).unwrap();
        bad[at] = 0x05;
        let e = OcspRequest::parse(Reader::new(&bad))
            .unwrap()
            .requests()
            .unwrap_err();
        assert_eq!(e.offset, at);
        assert_eq!(
            e.path_string(),
            "tbsRequest.requestList[0].reqCert.issuerNameHash"
        );
    }

    fn basic(status: impl Fn(&mut Writer), by_key: bool) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                if by_key {
                    w.explicit(2, |w| {
                        w.octet_string(&[0x33; 20]);
                    });
                } else {
                    w.explicit(1, |w| {
                        w.sequence(|w| {
                            w.set(|w| {
                                w.sequence(|w| {
                                    w.oid(&oids::AT_COMMON_NAME);
                                    w.utf8_string("Responder");
                                });
                            });
                        });
                    });
                }
                w.generalized_time(Time {
                    unix: 1_700_000_000,
                });
                w.sequence(|w| {
                    w.sequence(|w| {
                        cert_id(w, 77);
                        status(w);
                        w.generalized_time(Time {
                            unix: 1_700_000_000,
                        });
                        w.explicit(0, |w| {
                            w.generalized_time(Time {
                                unix: 1_700_600_000,
                            });
                        });
                    });
                });
            });
            w.sequence(|w| {
                w.oid(&oids::ED25519);
            });
            w.bit_string(&[5; 64]);
        });
        w.finish()
    }

    fn response(status: u8, body: Option<&[u8]>) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.enumerated(status);
            if let Some(b) = body {
                w.explicit(0, |w| {
                    w.sequence(|w| {
                        w.oid(&oids::PKIX_OCSP_BASIC);
                        w.octet_string(b);
                    });
                });
            }
        });
        w.finish()
    }

    #[test]
    fn parses_good_revoked_unknown() {
        let good = basic(
            |w| {
                w.primitive(0x80, &[]);
            },
            false,
        );
        let der = response(0, Some(&good));
        let r = OcspResponse::from_der(&der).unwrap();
        assert_eq!(r.status, ResponseStatus::Successful);
        let b = r.basic.unwrap();
        assert!(matches!(b.responder_id, ResponderId::ByName(_)));
        assert_eq!(
            b.produced_at,
            Time {
                unix: 1_700_000_000
            }
        );
        let s = b.responses().unwrap();
        assert_eq!(s[0].cert_status, CertStatus::Good);
        assert_eq!(
            s[0].next_update,
            Some(Time {
                unix: 1_700_600_000
            })
        );
        assert_eq!(s[0].cert_id.serial_hex(), "4d");
        assert!(b.certs().unwrap().is_empty());

        let revoked = basic(
            |w| {
                w.tlv(tag::implicit_constructed(1), |w| {
                    w.generalized_time(Time {
                        unix: 1_600_000_000,
                    });
                    w.explicit(0, |w| {
                        w.enumerated(1);
                    });
                });
            },
            true,
        );
        let der = response(0, Some(&revoked));
        let b = OcspResponse::from_der(&der).unwrap().basic.unwrap();
        assert!(matches!(b.responder_id, ResponderId::ByKey(k) if k == [0x33; 20]));
        assert_eq!(
            b.responses().unwrap()[0].cert_status,
            CertStatus::Revoked {
                revocation_time: Time {
                    unix: 1_600_000_000
                },
                revocation_reason: Some(CrlReason::KeyCompromise),
            }
        );

        let unknown = basic(
            |w| {
                w.primitive(0x82, &[]);
            },
            true,
        );
        let der = response(0, Some(&unknown));
        let b = OcspResponse::from_der(&der).unwrap().basic.unwrap();
        assert_eq!(b.responses().unwrap()[0].cert_status, CertStatus::Unknown);
    }

    #[test]
    fn unsuccessful_statuses_have_no_body() {
        for (code, name) in [
            (1, "malformedRequest"),
            (3, "tryLater"),
            (6, "unauthorized"),
        ] {
            let der = response(code, None);
            let r = OcspResponse::from_der(&der).unwrap();
            assert_eq!(r.status.name(), Some(name));
            assert!(r.basic.is_none());
        }
        // Successful without a body, and an undefined status: errors strictly, logged
        // leniently.
        for der in [response(0, None), response(4, None)] {
            let e = OcspResponse::from_der(&der).unwrap_err();
            assert_eq!(e.offset, 2);
            let log = Deviations::new();
            OcspResponse::parse(Reader::lenient(&der, &log)).unwrap();
            assert_eq!(log.take().len(), 1);
        }
    }

    #[test]
    fn bad_cert_status_and_responder_id() {
        let bad = basic(
            |w| {
                w.primitive(0x83, &[]);
            },
            false,
        );
        let der = response(0, Some(&bad));
        let b = OcspResponse::from_der(&der).unwrap().basic.unwrap();
        let e = b.responses().unwrap_err();
        assert_eq!(der[e.offset], 0x83);
        assert_eq!(e.path_string(), "tbsResponseData.responses[0].certStatus");

        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.explicit(3, |w| {
                    w.null();
                });
            });
            w.sequence(|w| {
                w.oid(&oids::ED25519);
            });
            w.bit_string(&[5; 4]);
        });
        let body = w.finish();
        let der = response(0, Some(&body));
        let e = OcspResponse::from_der(&der).unwrap_err();
        assert_eq!(der[e.offset], 0xa3);
        assert_eq!(
            e.path_string(),
            "responseBytes.response.tbsResponseData.responderID"
        );
    }

    #[test]
    fn body_errors_point_into_the_outer_input() {
        let good = basic(
            |w| {
                w.primitive(0x80, &[]);
            },
            false,
        );
        let der = response(0, Some(&good[..good.len() - 1]));
        let e = OcspResponse::from_der(&der).unwrap_err();
        assert!(e.offset > 10 && e.offset < der.len(), "{e}");
    }
}
