//! Running the lints: every family's table in one list ([`lints`]), and for each object
//! the lints whose check takes it, in force on the day it is judged as of (its own date,
//! or [`LintOptions::at`]) and in the rule sets asked for.
//!
//! A new family file (a new source of rules) is listed in `FAMILIES`; a new rule goes
//! into its family's `LINTS` and needs nothing here.

// One `use` a module: a group `crate::{…}` would name the crate root itself.
use crate::cabf;
use crate::cert_type::CertType;
use crate::context::CertContext;
use crate::crl;
use crate::csr;
use crate::csr_context::{CsrContext, CsrFacts};
use crate::der;
use crate::encoding;
use crate::finding::{Finding, NotRun, Report};
use crate::ocsp;
use crate::ocsp_context::{OcspContext, SingleContext};
use crate::options::{LintOptions, Rules};
use crate::rfc5280;
use crate::rule::{Check, Lint, Reporter};
use crate::smime;
use pkit_x509::cert::Certificate;
use pkit_x509::crl::Crl;
use pkit_x509::csr::Csr;
use pkit_x509::ocsp::OcspResponse;

/// Every family's lints, in the order `lint --list` shows them: the malformations,
/// the certificate lints (RFC 5280's, the TLS BRs' part by part, the S/MIME BRs'), then
/// those of CRLs, OCSP responses and CSRs.
static FAMILIES: [&[Lint]; 14] = [
    encoding::LINTS,
    rfc5280::LINTS,
    cabf::validity::LINTS,
    cabf::names::LINTS,
    cabf::keys::LINTS,
    cabf::usages::LINTS,
    cabf::signing::LINTS,
    cabf::policies::LINTS,
    cabf::revocation::LINTS,
    cabf::ocsp_signer::LINTS,
    smime::LINTS,
    crl::LINTS,
    ocsp::LINTS,
    csr::LINTS,
];

/// Every lint pkit has, of every object.
pub fn lints() -> impl Iterator<Item = &'static Lint> {
    FAMILIES.iter().flat_map(|f| f.iter())
}

/// Every certificate type, to tell a lint that applies to all of them.
const ALL_TYPES: [CertType; 7] = [
    CertType::Root,
    CertType::Intermediate,
    CertType::CrossCa,
    CertType::TlsLeaf,
    CertType::SmimeLeaf,
    CertType::OcspSigner,
    CertType::Leaf,
];

/// Lint a certificate (DER), read leniently: what is not DER is a finding, not a
/// refusal. An error when it is not a certificate at all.
pub fn lint_certificate(der: &[u8], opts: &LintOptions) -> Result<Report, der::Error> {
    let log = der::Deviations::new();
    let cert = Certificate::parse(der::Reader::lenient(der, &log))?;
    let ctx = CertContext::lenient(&cert, opts.as_type, &log, opts.at, None);
    Ok(lint_report(&ctx, &opts.rules))
}

/// Lint a parsed certificate.
pub fn lint_parsed(cert: &Certificate<'_>, opts: &LintOptions) -> Vec<Finding> {
    let ctx = match opts.at {
        Some(at) => CertContext::at(cert, opts.as_type, at),
        None => CertContext::new(cert, opts.as_type),
    };
    lint_context(&ctx, &opts.rules)
}

/// Lint a certificate already read into its context (whose type is then at hand too).
pub fn lint_context(ctx: &CertContext<'_>, rules: &Rules) -> Vec<Finding> {
    lint_report(ctx, rules).findings
}

/// Lint a certificate read into its context: the findings of every lint that applies to
/// its type and was in force on the day it is judged as of, its malformations, and the
/// lints that could not run because a part they need did not decode.
pub fn lint_report(ctx: &CertContext<'_>, rules: &Rules) -> Report {
    let mut report = Report::default();
    // What did not decode is always said (no rule set is about it); the other
    // malformations are RFC 5280's.
    report.findings.extend(
        encoding::certificate_findings(ctx)
            .filter(|f| rules.rfc5280 || f.lint == encoding::UNDECODABLE.name),
    );
    for lint in lints() {
        let Check::Certificate { applies, check } = lint.check else {
            continue;
        };
        if !(applies(ctx.kind) && lint.on(rules, ctx.at)) {
            continue;
        }
        if let Some(part) = ctx.type_unsure() {
            if !ALL_TYPES.iter().all(|t| applies(*t)) {
                report.not_run.push(NotRun {
                    lint: lint.name,
                    reason: format!(
                        "the certificate's type was told through {}, which did not decode \
                         (--as sets it)",
                        ctx.part_name(part)
                    ),
                });
                continue;
            }
        }
        ctx.begin_check();
        let before = report.findings.len();
        check(ctx, &mut Reporter::new(lint, &mut report.findings));
        if let Some(part) = ctx.touched() {
            // It judged a part it could not see: what it found is not to be trusted.
            report.findings.truncate(before);
            report.not_run.push(NotRun {
                lint: lint.name,
                reason: format!("{} did not decode", ctx.part_name(part)),
            });
        }
    }
    report
}

/// Lint a CRL (DER), read leniently (what is not DER is a finding). An error when it is
/// not a CRL at all.
pub fn lint_crl(der: &[u8], opts: &LintOptions) -> Result<Vec<Finding>, der::Error> {
    let log = der::Deviations::new();
    let crl = Crl::parse(der::Reader::lenient(der, &log))?;
    let mut findings = lint_parsed_crl(&crl, opts);
    if opts.rules.rfc5280 {
        findings.extend(encoding::deviation_findings(&log, "tbsCertList"));
    }
    Ok(findings)
}

/// Lint a parsed CRL, judged as of its thisUpdate (or [`LintOptions::at`]).
pub fn lint_parsed_crl(crl: &Crl<'_>, opts: &LintOptions) -> Vec<Finding> {
    let mut out = Vec::new();
    // What does not decode is a finding, and the lints that read it do not judge it
    // (they would call it absent).
    let broken = crl::undecodable_parts(crl, &mut out);
    let at = opts.at.unwrap_or(crl.this_update.unix);
    for lint in lints() {
        let Check::Crl { reads, check } = lint.check else {
            continue;
        };
        if lint.on(&opts.rules, at) && !reads.iter().any(|p| broken.contains(p)) {
            check(crl, &mut Reporter::new(lint, &mut out));
        }
    }
    out
}

/// Lint a certification request (DER), read leniently; `facts` says whether its
/// signature verifies.
pub fn lint_csr(
    der: &[u8],
    facts: CsrFacts,
    opts: &LintOptions,
) -> Result<Vec<Finding>, der::Error> {
    let log = der::Deviations::new();
    let req = Csr::parse(der::Reader::lenient(der, &log))?;
    let mut findings = lint_parsed_csr(&req, facts, opts);
    if opts.rules.rfc5280 {
        findings.extend(encoding::deviation_findings(
            &log,
            "certificationRequestInfo",
        ));
    }
    Ok(findings)
}

/// Lint a parsed request.
pub fn lint_parsed_csr(csr: &Csr<'_>, facts: CsrFacts, opts: &LintOptions) -> Vec<Finding> {
    lint_csr_context(&CsrContext::new(csr, facts), opts)
}

/// Lint a request already read into its context (whose names are then at hand too),
/// judged by the rules in force today (or [`LintOptions::at`]): it is about to be
/// signed.
pub fn lint_csr_context(ctx: &CsrContext<'_>, opts: &LintOptions) -> Vec<Finding> {
    let mut out = Vec::new();
    let at = opts.at.unwrap_or_else(now);
    for lint in lints() {
        let Check::Csr(check) = lint.check else {
            continue;
        };
        if lint.on(&opts.rules, at) {
            check(ctx, &mut Reporter::new(lint, &mut out));
        }
    }
    out
}

/// Lint a parsed OCSP response: each SingleResponse, judged as of its own thisUpdate,
/// then the response as a whole, judged as of its producedAt (or, for both,
/// [`LintOptions::at`]). A response without a BasicOCSPResponse (an error status) has
/// nothing to lint.
pub fn lint_parsed_ocsp(resp: &OcspResponse<'_>, opts: &LintOptions) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(basic) = &resp.basic else {
        return out;
    };
    let offset = (basic.tbs_raw.as_ptr() as usize).saturating_sub(resp.raw.as_ptr() as usize);
    // Responses that do not decode are a finding, not an empty list.
    let responses = basic.responses().unwrap_or_else(|e| {
        out.push(encoding::undecodable("tbsResponseData.responses", &e));
        Vec::new()
    });
    for single in &responses {
        let ctx = SingleContext {
            single,
            offset,
            rfc6960: opts.rules.rfc5280,
        };
        let at = opts.at.unwrap_or(single.this_update.unix);
        for lint in lints() {
            let Check::OcspSingle(check) = lint.check else {
                continue;
            };
            if lint.on(&opts.rules, at) {
                check(&ctx, &mut Reporter::new(lint, &mut out));
            }
        }
    }
    let ctx = OcspContext::new(resp, basic);
    let at = opts.at.unwrap_or(basic.produced_at.unix);
    for lint in lints() {
        let Check::OcspResponse(check) = lint.check else {
            continue;
        };
        if lint.on(&opts.rules, at) {
            check(&ctx, &mut Reporter::new(lint, &mut out));
        }
    }
    out
}

/// What signing OCSP responses that stand `seconds` would be found to break (BR
/// §4.9.9's range), for a responder's gate at start-up.
pub fn ocsp_lifetime_findings(opts: &LintOptions, seconds: i64) -> Vec<Finding> {
    ocsp::lifetime_findings(opts, seconds)
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
