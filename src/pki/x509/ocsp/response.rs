//! OCSP responses (RFC 6960 §4.2.1) as zero-copy views.

use super::cert_id::CertId;
use super::fields::{read_certs, read_certs_field, read_explicit_extensions, read_version};
use crate::algid::AlgId;
use crate::cert::Certificate;
use crate::der::oid_registry as oids;
use crate::der::primitives::BitString;
use crate::der::{tag, Context, Error, ErrorKind, ObjectId, Reader, Result, Time};
use crate::ext::CrlReason;
use crate::extension::Extensions;
use crate::name::Name;

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
    /// The whole OCSPResponse DER.
    pub raw: &'a [u8],
    /// responseStatus: whether the responder could answer.
    pub status: ResponseStatus,
    /// responseBytes: the response itself, which RFC 6960 §4.2.1 has only for a successful
    /// status.
    pub response_bytes: Option<ResponseBytes<'a>>,
    /// The decoded response when `responseType` is id-pkix-ocsp-basic.
    pub basic: Option<BasicOcspResponse<'a>>,
}

/// `OCSPResponseStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseStatus {
    /// successful (0): the response has valid confirmations.
    Successful,
    /// malformedRequest (1): the request did not parse.
    MalformedRequest,
    /// internalError (2): the responder is in an inconsistent state.
    InternalError,
    /// tryLater (3): the responder cannot answer now.
    TryLater,
    /// sigRequired (5): the request must be signed.
    SigRequired,
    /// unauthorized (6): the responder will not answer this client.
    Unauthorized,
    /// A value the ENUMERATED does not define (lenient mode only).
    Other(i64),
}

impl ResponseStatus {
    /// The status with ENUMERATED value `code`; `None` for 4 (unused) and unknown values.
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

    /// The status's ENUMERATED value.
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
    /// responseType: the OID of the body's type (id-pkix-ocsp-basic in practice).
    pub response_type: ObjectId<'a>,
    /// The `response` OCTET STRING content.
    pub response: &'a [u8],
    /// Absolute byte offset of the `response` content.
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
    /// responderID: who signed the response.
    pub responder_id: ResponderId<'a>,
    /// producedAt: when the response was signed.
    pub produced_at: Time,
    responses: Reader<'a>,
    /// `[1]` responseExtensions (e.g. the nonce), if present.
    pub response_extensions: Option<Extensions<'a>>,
    /// The algorithm the response is signed with.
    pub signature_algorithm: AlgId<'a>,
    /// The signature over the ResponseData.
    pub signature: BitString<'a>,
    certs: Option<Reader<'a>>,
}

/// `ResponderID`.
#[derive(Debug, Clone, Copy)]
pub enum ResponderId<'a> {
    /// `[1]` byName: the responder's subject Name.
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
    /// certID: the certificate this answer is about.
    pub cert_id: CertId<'a>,
    /// certStatus: good, revoked or unknown.
    pub cert_status: CertStatus,
    /// thisUpdate: when the status was known to be correct.
    pub this_update: Time,
    /// `[0]` nextUpdate: when newer information will be available, if given.
    pub next_update: Option<Time>,
    /// `[1]` singleExtensions, if present.
    pub single_extensions: Option<Extensions<'a>>,
}

/// `CertStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CertStatus {
    /// `[0]` good: not revoked (as far as the responder knows).
    Good,
    /// `[1]` revoked, with its RevokedInfo.
    Revoked {
        /// revocationTime: when the certificate was revoked.
        revocation_time: Time,
        /// `[0]` revocationReason, if given.
        revocation_reason: Option<CrlReason>,
    },
    /// `[2]` unknown: the responder does not know the certificate.
    Unknown,
}

impl<'a> OcspResponse<'a> {
    /// Parse an OCSPResponse (RFC 6960 §4.2.1) spanning all of `der`.
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
