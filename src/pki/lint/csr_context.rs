//! A certification request as its lints see it ([`CsrContext`]): the requested
//! extensions and subjectAltName read once, and what the caller established about it
//! beyond its bytes ([`CsrFacts`]: whether its signature verifies, RFC 2986 §3).

use crate::der::oid_registry as oids;
use pkit_x509::csr::Csr;
use pkit_x509::ext::{self, ExtensionValue, GeneralName};
use pkit_x509::extension::{Extension, Extensions};

/// What the caller established about a request beyond its bytes.
#[derive(Debug, Clone, Copy, Default)]
pub struct CsrFacts {
    /// Whether the signature verifies with the request's key; `None` when it could not
    /// be checked (an algorithm the backend does not have).
    pub signature_verifies: Option<bool>,
}

/// A request as its lints see it: the requested extensions and SANs, read once.
pub struct CsrContext<'a> {
    /// The request.
    pub csr: &'a Csr<'a>,
    /// What the caller established about it.
    pub facts: CsrFacts,
    /// The extensionRequest's extensions (RFC 2985 §5.4.2), in order.
    pub extensions: Vec<Extension<'a>>,
    sans: Vec<GeneralName<'a>>,
}

impl<'a> CsrContext<'a> {
    /// Read `csr`'s requested extensions and names once, with what the caller
    /// established about it.
    pub fn new(csr: &'a Csr<'a>, facts: CsrFacts) -> CsrContext<'a> {
        let extensions = csr
            .attributes
            .find(&oids::PKCS9_EXTENSION_REQUEST)
            .ok()
            .flatten()
            .and_then(|a| a.single_value().ok())
            .and_then(|mut v| Extensions::read(&mut v).ok())
            .and_then(|x| x.all().ok())
            .unwrap_or_default();
        let sans = extensions
            .iter()
            .find(|e| e.oid == oids::CE_SUBJECT_ALT_NAME)
            .and_then(|e| ext::decode(e.oid, e.value, e.value_offset).ok())
            .and_then(|v| match v {
                ExtensionValue::SubjectAltName(n) => Some(n),
                _ => None,
            })
            .unwrap_or_default();
        CsrContext {
            csr,
            facts,
            extensions,
            sans,
        }
    }

    pub(crate) fn offset_in(&self, part: &[u8]) -> usize {
        (part.as_ptr() as usize).saturating_sub(self.csr.raw.as_ptr() as usize)
    }

    pub(crate) fn san_offset(&self) -> usize {
        self.extensions
            .iter()
            .find(|e| e.oid == oids::CE_SUBJECT_ALT_NAME)
            .map_or(self.csr.spki.offset + self.csr.spki.raw.len(), |e| {
                e.value_offset
            })
    }

    /// The subjectAltName entries the request asks for (its first such extension).
    pub fn sans(&self) -> &[GeneralName<'a>] {
        &self.sans
    }

    pub(crate) fn dns_names(&self) -> impl Iterator<Item = &str> {
        self.sans.iter().filter_map(|n| match n {
            GeneralName::DnsName(d) => Some(d.as_ref()),
            _ => None,
        })
    }
}
