//! What RFC 6960 and, for a publicly trusted CA, the Baseline Requirements (§4.9.9,
//! §7.1.3.2) say of an OCSP response: its validity, its signer and its signature
//! algorithm. The interval rule is one function, [`lifetime`],
//! which the responder's gate also asks about the lifetime it is set to sign with.

use crate::der::oid_registry as oids;
use crate::{Dated, Finding, Level, LintOptions, RuleSet};
use pkit_x509::ocsp::{OcspResponse, ResponderId};

/// BR §4.9.9: a response's nextUpdate is at least eight hours and at most ten days
/// after its thisUpdate. Why not, when not.
pub fn lifetime(seconds: i64) -> Option<String> {
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

/// One OCSP lint's identity.
struct OcspLint {
    name: &'static str,
    level: Level,
    source: &'static str,
    set: RuleSet,
    /// The day the rule took effect, judged by the response's thisUpdate (or `--at`).
    since: Option<Dated>,
}

/// BR §4.9.10 then §4.9.9 (SC-076): 8 hours to 10 days, from ballot SC31.
const SC31_OCSP: Option<Dated> = Some(Dated::new("2020-09-30", "Ballot SC31"));

const NEXT_BEFORE_THIS: OcspLint = OcspLint {
    name: "e_rfc6960_next_update_before_this_update",
    level: Level::Error,
    source: "RFC 6960 §4.2.2.1",
    set: RuleSet::Rfc5280,
    since: None,
};
const NEXT_MISSING: OcspLint = OcspLint {
    name: "e_cabf_ocsp_next_update_missing",
    level: Level::Error,
    source: "CA/B Forum TLS BR §4.9.9",
    set: RuleSet::CabfTls,
    since: SC31_OCSP,
};
const OUT_OF_RANGE: OcspLint = OcspLint {
    name: "e_cabf_ocsp_validity_out_of_range",
    level: Level::Error,
    source: "CA/B Forum TLS BR §4.9.9",
    set: RuleSet::CabfTls,
    since: SC31_OCSP,
};

const SIGNER_NOT_AUTHORIZED: OcspLint = OcspLint {
    name: "e_rfc6960_delegated_responder_not_ocsp_signer",
    level: Level::Error,
    source: "RFC 6960 §4.2.2.2",
    set: RuleSet::Rfc5280,
    since: None,
};
const RESPONDER_NAME_MISMATCH: OcspLint = OcspLint {
    name: "e_rfc6960_responder_name_mismatch",
    level: Level::Error,
    source: "RFC 6960 §4.2.2.3",
    set: RuleSet::Rfc5280,
    since: None,
};
const SIGNATURE_ALGORITHM: OcspLint = OcspLint {
    name: "e_cabf_ocsp_signature_algorithm_not_allowed",
    level: Level::Error,
    source: "CA/B Forum TLS BR §7.1.3.2",
    set: RuleSet::CabfTls,
    since: Some(Dated::new("2016-01-01", "BR 1.x §7.1.3, SHA-1 sunset")),
};

const ALL: [OcspLint; 6] = [
    NEXT_BEFORE_THIS,
    NEXT_MISSING,
    OUT_OF_RANGE,
    SIGNER_NOT_AUTHORIZED,
    RESPONDER_NAME_MISMATCH,
    SIGNATURE_ALGORITHM,
];

/// Every OCSP lint: (name, level, source, rule set, in force since).
pub fn lints() -> [(&'static str, Level, &'static str, RuleSet, Option<Dated>); 6] {
    ALL.map(|l| (l.name, l.level, l.source, l.set, l.since))
}

/// Whether lint `l` is on and in force for a response judged as of `at`.
fn on(l: &OcspLint, opts: &LintOptions, at: i64) -> bool {
    opts.rules.includes(l.set) && l.since.is_none_or(|d| at >= d.unix)
}

fn finding(l: &OcspLint, path: &str, offset: usize, message: String) -> Finding {
    Finding {
        lint: l.name,
        level: l.level,
        source: l.source,
        path: path.into(),
        offset,
        message,
    }
}

/// Lint each SingleResponse of a parsed response.
pub fn lint_parsed_ocsp(resp: &OcspResponse<'_>, opts: &LintOptions) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(basic) = &resp.basic else {
        return out;
    };
    let at = (basic.tbs_raw.as_ptr() as usize).saturating_sub(resp.raw.as_ptr() as usize);
    let path = "tbsResponseData.responses.nextUpdate";
    // Responses that do not decode are a finding, not an empty list.
    let responses = basic.responses().unwrap_or_else(|e| {
        out.push(crate::encoding::undecodable(
            "tbsResponseData.responses",
            &e,
        ));
        Vec::new()
    });
    for single in responses {
        let (this, next) = (single.this_update, single.next_update);
        let judged = opts.at.unwrap_or(this.unix);
        match next {
            Some(n) if n < this && on(&NEXT_BEFORE_THIS, opts, judged) => out.push(finding(
                &NEXT_BEFORE_THIS,
                path,
                at,
                format!("nextUpdate {n} is before thisUpdate {this}"),
            )),
            None if on(&NEXT_MISSING, opts, judged) => out.push(finding(
                &NEXT_MISSING,
                path,
                at,
                "a response must say when the next one is due (nextUpdate)".into(),
            )),
            Some(n) if on(&OUT_OF_RANGE, opts, judged) => {
                if let Some(why) = lifetime(n.unix - this.unix) {
                    out.push(finding(&OUT_OF_RANGE, path, at, why));
                }
            }
            _ => {}
        }
    }
    let offset_of =
        |part: &[u8]| (part.as_ptr() as usize).saturating_sub(resp.raw.as_ptr() as usize);
    let certs = basic.certs().unwrap_or_default();
    // The first certificate is the signer's when the response carries any (§4.2.1):
    // a delegated responder (not a CA, so not the issuer itself) needs OCSPSigning.
    if let Some(signer) = certs.first() {
        let ctx = crate::CertContext::new(signer, None);
        ctx.begin_check();
        let delegated = !ctx.asserts_ca();
        let signing = ctx.has_eku(&oids::KP_OCSP_SIGNING);
        // A signer whose basicConstraints or EKU does not decode is not judged on them.
        let seen = ctx.touched().is_none();
        if seen && delegated && !signing && opts.rules.includes(SIGNER_NOT_AUTHORIZED.set) {
            out.push(finding(
                &SIGNER_NOT_AUTHORIZED,
                "certs[0]",
                offset_of(signer.raw),
                format!(
                    "the responder {} is not a CA and has no id-kp-OCSPSigning: clients refuse \
                     what it signs",
                    signer.subject.to_rfc4514().unwrap_or_default()
                ),
            ));
        }
        if let ResponderId::ByName(n) = &basic.responder_id {
            if n.raw != signer.subject.raw && opts.rules.includes(RESPONDER_NAME_MISMATCH.set) {
                out.push(finding(
                    &RESPONDER_NAME_MISMATCH,
                    "tbsResponseData.responderID",
                    offset_of(n.raw),
                    "responderID names someone other than the certificate the response \
                     carries for its signer"
                        .into(),
                ));
            }
        }
    }
    if opts.rules.includes(SIGNATURE_ALGORITHM.set) {
        if let Some(why) = crate::cabf::signature_not_allowed(&basic.signature_algorithm) {
            out.push(finding(
                &SIGNATURE_ALGORITHM,
                "signatureAlgorithm",
                basic.signature_algorithm.offset,
                why,
            ));
        }
    }
    out
}

/// What signing responses that stand `seconds` would be found to break, for the
/// responder's gate at start-up.
pub fn lifetime_findings(opts: &LintOptions, seconds: i64) -> Vec<Finding> {
    match lifetime(seconds) {
        Some(why) if opts.rules.includes(OUT_OF_RANGE.set) => {
            vec![finding(&OUT_OF_RANGE, "--next-update", 0, why)]
        }
        _ => Vec::new(),
    }
}
