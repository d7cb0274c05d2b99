//! What RFC 2986 says of a certification request, and what a CA that applies the
//! Baseline Requirements will refuse in one: a weak key, malformed or internal names, a
//! request whose names only the commonName carries. A CA (and `pkit acme serve` at
//! finalize) learns the same before it is asked to sign.
//!
//! Whether the request's signature verifies with its own key (proof of possession,
//! RFC 2986 §3) is a cryptographic question this crate does not answer: the caller
//! checks it and hands the answer in ([`CsrFacts`]).

use crate::cabf::{dns_name_problem, internal_name, key_algorithm_problem, weak_key_problem};
use crate::der::oid_registry as oids;
use crate::{Finding, Level, LintOptions, RuleSet};
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
    pub csr: &'a Csr<'a>,
    pub facts: CsrFacts,
    /// The extensionRequest's extensions (RFC 2985 §5.4.2), in order.
    pub extensions: Vec<Extension<'a>>,
    sans: Vec<GeneralName<'a>>,
}

impl<'a> CsrContext<'a> {
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

    fn offset_in(&self, part: &[u8]) -> usize {
        (part.as_ptr() as usize).saturating_sub(self.csr.raw.as_ptr() as usize)
    }

    fn san_offset(&self) -> usize {
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

    fn dns_names(&self) -> impl Iterator<Item = &str> {
        self.sans.iter().filter_map(|n| match n {
            GeneralName::DnsName(d) => Some(d.as_ref()),
            _ => None,
        })
    }
}

/// What a CSR check reports through: field, offset, message.
pub type Report<'r> = &'r mut dyn FnMut(&str, usize, String);

/// One CSR lint.
pub struct CsrLint {
    pub name: &'static str,
    pub level: Level,
    pub source: &'static str,
    pub set: RuleSet,
    pub check: fn(&CsrContext<'_>, Report<'_>),
}

const SAN: &str = "certificationRequestInfo.attributes.extensionRequest.subjectAltName";
const SPKI: &str = "certificationRequestInfo.subjectPKInfo";

pub static LINTS: &[CsrLint] = &[
    CsrLint {
        name: "e_rfc2986_version_not_v1",
        level: Level::Error,
        source: "RFC 2986 §4.1",
        set: RuleSet::Rfc5280,
        check: |c, r| {
            if c.csr.version != 0 {
                r(
                    "certificationRequestInfo.version",
                    c.offset_in(c.csr.info_raw),
                    format!("version {}; RFC 2986 defines only v1 (0)", c.csr.version),
                );
            }
        },
    },
    CsrLint {
        name: "e_rfc2986_signature_invalid",
        level: Level::Error,
        source: "RFC 2986 §3",
        set: RuleSet::Rfc5280,
        check: |c, r| {
            if c.facts.signature_verifies == Some(false) {
                r(
                    "signature",
                    c.csr.signature_algorithm.offset,
                    "the signature does not verify with the request's own key: no proof of \
                     possession"
                        .into(),
                );
            }
        },
    },
    CsrLint {
        name: "e_rfc_csr_duplicate_extension",
        level: Level::Error,
        source: "RFC 5280 §4.2",
        set: RuleSet::Rfc5280,
        check: |c, r| {
            for (i, e) in c.extensions.iter().enumerate() {
                if c.extensions[..i].iter().any(|p| p.oid == e.oid) {
                    r(
                        "certificationRequestInfo.attributes.extensionRequest",
                        e.value_offset,
                        format!(
                            "requested extension {} appears more than once",
                            e.oid.name_or_dotted()
                        ),
                    );
                }
            }
        },
    },
    CsrLint {
        name: "e_cabf_csr_weak_key",
        level: Level::Error,
        source: "CA/B Forum TLS BR §6.1.5",
        set: RuleSet::CabfTlsCore,
        check: |c, r| {
            if let Some(p) = weak_key_problem(&c.csr.spki) {
                r(SPKI, c.csr.spki.offset, p);
            }
        },
    },
    CsrLint {
        name: "e_cabf_csr_key_algorithm_not_allowed",
        level: Level::Error,
        source: "CA/B Forum TLS BR §6.1.5",
        set: RuleSet::CabfTls,
        check: |c, r| {
            if let Some(p) = key_algorithm_problem(&c.csr.spki) {
                r(SPKI, c.csr.spki.offset, p);
            }
        },
    },
    CsrLint {
        name: "e_cabf_csr_dns_name_malformed",
        level: Level::Error,
        source: "CA/B Forum TLS BR §7.1.2.7.12",
        set: RuleSet::CabfTlsCore,
        check: |c, r| {
            for d in c.dns_names() {
                if let Some(why) = dns_name_problem(d) {
                    r(SAN, c.san_offset(), format!("{d:?} {why}"));
                }
            }
        },
    },
    CsrLint {
        name: "e_cabf_csr_internal_name",
        level: Level::Error,
        source: "CA/B Forum TLS BR §7.1.2.7.12",
        set: RuleSet::CabfTls,
        check: |c, r| {
            for d in c.dns_names() {
                if dns_name_problem(d).is_none() && internal_name(d) {
                    r(
                        SAN,
                        c.san_offset(),
                        format!("{d:?} is an internal name: a public CA cannot certify it"),
                    );
                }
            }
        },
    },
    CsrLint {
        name: "w_csr_names_only_in_common_name",
        level: Level::Warning,
        source: "CA/B Forum TLS BR §7.1.2.7.12",
        set: RuleSet::CabfTlsCore,
        check: |c, r| {
            let has_cn = c
                .csr
                .subject
                .rdns()
                .unwrap_or_default()
                .iter()
                .flatten()
                .any(|a| a.oid == oids::AT_COMMON_NAME);
            if c.sans.is_empty() && has_cn {
                r(
                    "certificationRequestInfo.subject",
                    c.csr.subject.offset,
                    "names only a commonName and requests no subjectAltName: clients match \
                     hosts against subjectAltName alone, so a CA must put them there"
                        .into(),
                );
            }
        },
    },
];

/// Lint a parsed request.
pub fn lint_parsed_csr(csr: &Csr<'_>, facts: CsrFacts, opts: &LintOptions) -> Vec<Finding> {
    lint_csr_context(&CsrContext::new(csr, facts), opts)
}

/// Lint a request already read into its context (whose names are then at hand too).
pub fn lint_csr_context(ctx: &CsrContext<'_>, opts: &LintOptions) -> Vec<Finding> {
    let mut out = Vec::new();
    for lint in LINTS.iter().filter(|l| opts.rules.includes(l.set)) {
        (lint.check)(
            ctx,
            &mut crate::recorder(&mut out, lint.name, lint.level, lint.source),
        );
    }
    out
}
