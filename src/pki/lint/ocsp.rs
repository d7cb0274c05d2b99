//! What RFC 6960 and, for a publicly trusted CA, the Baseline Requirements (§4.9.9,
//! §7.1.3.2) say of an OCSP response: its validity, its signer and its signature
//! algorithm. The interval rule is one function, [`lifetime`],
//! which the responder's gate also asks about the lifetime it is set to sign with.

use crate::cabf::signing::signature_not_allowed;
use crate::context::CertContext;
use crate::der::oid_registry as oids;
use crate::finding::{Finding, Level};
use crate::options::{LintOptions, RuleSet};
use crate::rule::Lint;
use pkit_x509::ocsp::ResponderId;

/// BR §4.9.9: a response's nextUpdate is at least eight hours and at most ten days
/// after its thisUpdate. Why not, when not.
pub(crate) fn lifetime(seconds: i64) -> Option<String> {
    const MIN: i64 = 8 * 3600;
    const MAX: i64 = 10 * 86_400;
    if seconds < MIN {
        Some(format!(
            "responses stand {seconds} s; at least 8 hours (28800 s)"
        ))
    } else if seconds > MAX {
        Some(format!(
            "responses stand {seconds} s; at most 10 days (864000 s)"
        ))
    } else {
        None
    }
}

/// BR §4.9.10 then §4.9.9 (SC-076): 8 hours to 10 days, from ballot SC31.
const SC31_DATE: &str = "2020-09-30";
const SC31_CITE: &str = "Ballot SC31";

const NEXT_PATH: &str = "tbsResponseData.responses.nextUpdate";

/// BR §4.9.9's range, which the responder's gate asks about too.
const OUT_OF_RANGE: Lint = Lint::ocsp_single(
    "e_cabf_ocsp_validity_out_of_range",
    Level::Error,
    "CA/B Forum TLS BR §4.9.9",
    RuleSet::CabfTls,
    |c, r| {
        let (this, next) = (c.single.this_update, c.single.next_update);
        match next {
            // RFC 6960's finding when its rules are on.
            Some(n) if n < this && c.rfc6960 => {}
            Some(n) => {
                if let Some(why) = lifetime(n.unix - this.unix) {
                    r.report(NEXT_PATH, c.offset, why);
                }
            }
            None => {}
        }
    },
)
.since(SC31_DATE, SC31_CITE);

/// The OCSP lints: those of each SingleResponse, then those of the whole response.
pub(crate) static LINTS: &[Lint] = &[
    Lint::ocsp_single(
        "e_rfc6960_next_update_before_this_update",
        Level::Error,
        "RFC 6960 §4.2.2.1",
        RuleSet::Rfc5280,
        |c, r| {
            let (this, next) = (c.single.this_update, c.single.next_update);
            if let Some(n) = next.filter(|n| *n < this) {
                r.report(
                    NEXT_PATH,
                    c.offset,
                    format!("nextUpdate {n} is before thisUpdate {this}"),
                );
            }
        },
    ),
    Lint::ocsp_single(
        "e_cabf_ocsp_next_update_missing",
        Level::Error,
        "CA/B Forum TLS BR §4.9.9",
        RuleSet::CabfTls,
        |c, r| {
            if c.single.next_update.is_none() {
                r.report(
                    NEXT_PATH,
                    c.offset,
                    "a response must say when the next one is due (nextUpdate)",
                );
            }
        },
    )
    .since(SC31_DATE, SC31_CITE),
    OUT_OF_RANGE,
    Lint::ocsp_response(
        "e_rfc6960_delegated_responder_not_ocsp_signer",
        Level::Error,
        "RFC 6960 §4.2.2.2",
        RuleSet::Rfc5280,
        |c, r| {
            // A delegated responder (not a CA, so not the issuer itself) needs
            // OCSPSigning.
            let Some(signer) = c.certs.first() else {
                return;
            };
            let ctx = CertContext::new(signer, None);
            ctx.begin_check();
            let delegated = !ctx.asserts_ca();
            let signing = ctx.has_eku(&oids::KP_OCSP_SIGNING);
            // A signer whose basicConstraints or EKU does not decode is not judged on them.
            let seen = ctx.touched().is_none();
            if seen && delegated && !signing {
                r.report(
                    "certs[0]",
                    c.offset_in(signer.raw),
                    format!(
                        "the responder {} is not a CA and has no id-kp-OCSPSigning: clients \
                         refuse what it signs",
                        signer.subject.to_rfc4514().unwrap_or_default()
                    ),
                );
            }
        },
    ),
    Lint::ocsp_response(
        "e_rfc6960_responder_name_mismatch",
        Level::Error,
        "RFC 6960 §4.2.2.3",
        RuleSet::Rfc5280,
        |c, r| {
            let Some(signer) = c.certs.first() else {
                return;
            };
            if let ResponderId::ByName(n) = &c.basic.responder_id {
                if n.raw != signer.subject.raw {
                    r.report(
                        "tbsResponseData.responderID",
                        c.offset_in(n.raw),
                        "responderID names someone other than the certificate the response \
                         carries for its signer",
                    );
                }
            }
        },
    ),
    Lint::ocsp_response(
        "e_cabf_ocsp_signature_algorithm_not_allowed",
        Level::Error,
        "CA/B Forum TLS BR §7.1.3.2",
        RuleSet::CabfTls,
        |c, r| {
            let alg = &c.basic.signature_algorithm;
            if let Some(why) = signature_not_allowed(alg) {
                r.report("signatureAlgorithm", alg.offset, why);
            }
        },
    )
    .since("2016-01-01", "BR 1.x §7.1.3, SHA-1 sunset"),
];

/// What signing responses that stand `seconds` would be found to break, for the
/// responder's gate at start-up (BR §4.9.9).
pub(crate) fn lifetime_findings(opts: &LintOptions, seconds: i64) -> Vec<Finding> {
    match lifetime(seconds) {
        Some(why) if opts.rules.includes(OUT_OF_RANGE.set) => {
            vec![OUT_OF_RANGE.finding("--next-update", 0, why)]
        }
        _ => Vec::new(),
    }
}
