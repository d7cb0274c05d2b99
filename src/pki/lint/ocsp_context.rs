//! An OCSP response as its lints see it: the response as a whole ([`OcspContext`]:
//! its signer, responderID and signature algorithm, RFC 6960 §4.2.1) and each of its
//! SingleResponses ([`SingleContext`]: thisUpdate and nextUpdate, RFC 6960 §4.2.2.1),
//! which is judged by the rules in force on its own thisUpdate.

use pkit_x509::cert::Certificate;
use pkit_x509::ocsp::{BasicOcspResponse, OcspResponse, SingleResponse};

/// A response with a BasicOCSPResponse, and the certificates it carries.
pub(crate) struct OcspContext<'a> {
    pub(crate) response: &'a OcspResponse<'a>,
    pub(crate) basic: &'a BasicOcspResponse<'a>,
    /// The certificates it carries (none when they do not decode): the first is the
    /// signer's when there is any (RFC 6960 §4.2.1).
    pub(crate) certs: Vec<Certificate<'a>>,
}

impl<'a> OcspContext<'a> {
    pub(crate) fn new(
        response: &'a OcspResponse<'a>,
        basic: &'a BasicOcspResponse<'a>,
    ) -> OcspContext<'a> {
        OcspContext {
            response,
            basic,
            certs: basic.certs().unwrap_or_default(),
        }
    }

    /// Where `part` (a slice of the response) starts in it.
    pub(crate) fn offset_in(&self, part: &[u8]) -> usize {
        (part.as_ptr() as usize).saturating_sub(self.response.raw.as_ptr() as usize)
    }
}

/// One SingleResponse of a response.
pub(crate) struct SingleContext<'a> {
    pub(crate) single: &'a SingleResponse<'a>,
    /// Where the response's tbsResponseData starts, which its findings point at.
    pub(crate) offset: usize,
    /// Whether RFC 6960's rules are on: a nextUpdate before thisUpdate is then their
    /// finding, not the BRs' range's.
    pub(crate) rfc6960: bool,
}
