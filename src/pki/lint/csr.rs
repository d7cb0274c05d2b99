//! What RFC 2986 says of a certification request, and what a CA that applies the
//! Baseline Requirements will refuse in one: a weak key, malformed or internal names, a
//! request whose names only the commonName carries. A CA (and `pkit acme serve` at
//! finalize) learns the same before it is asked to sign.
//!
//! Whether the request's signature verifies with its own key (proof of possession,
//! RFC 2986 §3) is a cryptographic question this crate does not answer: the caller
//! checks it and hands the answer in ([`crate::CsrFacts`]).

use crate::cabf::keys::{key_algorithm_problem, weak_key_problem};
use crate::cabf::names::dns_name_problem;
use crate::der::oid_registry as oids;
use crate::finding::Level;
use crate::options::RuleSet;
use crate::rule::Lint;
use pkit_x509::dns_name::is_internal_name;
use pkit_x509::extension::SeenOids;

const SAN: &str = "certificationRequestInfo.attributes.extensionRequest.subjectAltName";
const SPKI: &str = "certificationRequestInfo.subjectPKInfo";

/// The CSR lints.
pub(crate) static LINTS: &[Lint] = &[
    Lint::csr(
        "e_rfc2986_version_not_v1",
        Level::Error,
        "RFC 2986 §4.1",
        RuleSet::Rfc5280,
        |c, r| {
            if c.csr.version != 0 {
                r.report(
                    "certificationRequestInfo.version",
                    c.offset_in(c.csr.info_raw),
                    format!("version {}; RFC 2986 defines only v1 (0)", c.csr.version),
                );
            }
        },
    ),
    Lint::csr(
        "e_rfc2986_signature_invalid",
        Level::Error,
        "RFC 2986 §3",
        RuleSet::Rfc5280,
        |c, r| {
            if c.facts.signature_verifies == Some(false) {
                r.report(
                    "signature",
                    c.csr.signature_algorithm.offset,
                    "the signature does not verify with the request's own key: no proof of \
                     possession",
                );
            }
        },
    ),
    Lint::csr(
        "e_rfc_csr_duplicate_extension",
        Level::Error,
        "RFC 5280 §4.2",
        RuleSet::Rfc5280,
        |c, r| {
            let mut seen = SeenOids::default();
            for e in &c.extensions {
                if !seen.first_time(e.oid) {
                    r.report(
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
    ),
    Lint::csr(
        "e_cabf_csr_weak_key",
        Level::Error,
        "CA/B Forum TLS BR §6.1.5",
        RuleSet::CabfTlsCore,
        |c, r| {
            if let Some(p) = weak_key_problem(&c.csr.spki) {
                r.report(SPKI, c.csr.spki.offset, p);
            }
        },
    ),
    Lint::csr(
        "e_cabf_csr_key_algorithm_not_allowed",
        Level::Error,
        "CA/B Forum TLS BR §6.1.5",
        RuleSet::CabfTls,
        |c, r| {
            if let Some(p) = key_algorithm_problem(&c.csr.spki) {
                r.report(SPKI, c.csr.spki.offset, p);
            }
        },
    ),
    Lint::csr(
        "e_cabf_csr_dns_name_malformed",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        RuleSet::CabfTlsCore,
        |c, r| {
            for d in c.dns_names() {
                if let Some(why) = dns_name_problem(d) {
                    r.report(SAN, c.san_offset(), format!("{d:?} {why}"));
                }
            }
        },
    ),
    Lint::csr(
        "e_cabf_csr_internal_name",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        RuleSet::CabfTls,
        |c, r| {
            for d in c.dns_names() {
                if dns_name_problem(d).is_none() && is_internal_name(d) {
                    r.report(
                        SAN,
                        c.san_offset(),
                        format!("{d:?} is an internal name: a public CA cannot certify it"),
                    );
                }
            }
        },
    ),
    Lint::csr(
        "w_csr_names_only_in_common_name",
        Level::Warning,
        "CA/B Forum TLS BR §7.1.2.7.12",
        RuleSet::CabfTlsCore,
        |c, r| {
            let has_cn = c
                .csr
                .subject
                .rdns()
                .unwrap_or_default()
                .iter()
                .flatten()
                .any(|a| a.oid == oids::AT_COMMON_NAME);
            if c.sans().is_empty() && has_cn {
                r.report(
                    "certificationRequestInfo.subject",
                    c.csr.subject.offset,
                    "names only a commonName and requests no subjectAltName: clients match \
                     hosts against subjectAltName alone, so a CA must put them there",
                );
            }
        },
    ),
];
