//! OCSP requests (RFC 6960 §4.1.1) as zero-copy views.

use super::cert_id::CertId;
use super::fields::{read_certs, read_certs_field, read_explicit_extensions, read_version};
use crate::algid::AlgId;
use crate::cert::Certificate;
use crate::der::primitives::BitString;
use crate::der::{tag, Context, Reader, Result};
use crate::ext::general_name::{GeneralName, IpForm};
use crate::extension::Extensions;

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
    /// The whole OCSPRequest DER.
    pub raw: &'a [u8],
    /// The TBSRequest TLV: the bytes an optional signature covers.
    pub tbs_raw: &'a [u8],
    /// 0 = v1.
    pub version: u64,
    /// `[1]` requestorName: who asks, if given.
    pub requestor_name: Option<GeneralName<'a>>,
    request_list: Reader<'a>,
    /// `[2]` requestExtensions (e.g. the nonce), if present.
    pub request_extensions: Option<Extensions<'a>>,
    /// `[0]` optionalSignature, if the request is signed.
    pub signature: Option<OcspSignature<'a>>,
}

/// One entry of `requestList`.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// reqCert: the certificate asked about.
    pub cert_id: CertId<'a>,
    /// `[0]` singleRequestExtensions, if present.
    pub single_request_extensions: Option<Extensions<'a>>,
}

/// The `Signature` of a signed request.
#[derive(Debug, Clone, Copy)]
pub struct OcspSignature<'a> {
    /// The algorithm the request is signed with.
    pub signature_algorithm: AlgId<'a>,
    /// The signature over the TBSRequest.
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
    /// Parse an OCSPRequest (RFC 6960 §4.1.1) spanning all of `der`.
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
