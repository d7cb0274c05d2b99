//! Linting certificates before and after they are signed: what RFC 5280 and the CA/Browser
//! Forum's TLS and S/MIME Baseline Requirements (BRs) say a certificate, a CRL, an OCSP
//! response and a CSR MUST, SHOULD and MAY be.
//! Each [`Finding`] names its rule (a stable name), its level (MUST → error, SHOULD →
//! warning, MAY → notice), the source and section, the field and the byte offset it is
//! about, and one line of explanation.
//!
//! Rule sets ([`Rules`]): `rfc5280`; `cabf-tls-core`, the BR rules that make sense for a
//! private CA as well (validity, key sizes, SAN presence and form, key usages); and
//! `cabf-tls`, all of them (policies, AIA and CDP, public key algorithms, reserved IP
//! addresses, internal names); `cabf-smime`, the S/MIME BRs' rules for mailbox
//! certificates. The default ([`Rules::default`]) is `rfc5280,cabf-tls-core`.
//!
//! ```
//! use pkit_lint::{certificate_lints, lint_certificate, LintOptions, Rules};
//! // What is not a certificate is an error, not a finding.
//! assert!(lint_certificate(&[0x30, 0x00], &LintOptions::default()).is_err());
//! let rules = Rules::parse("rfc5280,cabf-tls").unwrap();
//! assert_eq!(rules.name(), "rfc5280,cabf-tls");
//! assert!(certificate_lints().any(|l| l.name == "e_cabf_validity_too_long"));
//! ```

#![forbid(unsafe_code)]

use pkit_der as der;

mod cabf;
mod context;
pub mod crl;
pub mod csr;
mod dates;
pub mod encoding;
mod kind;
pub mod ocsp;
mod rfc5280;
mod smime;

pub use cabf::max_validity_days as br_max_validity_days;
pub use context::{CertContext, Part, Problem};
pub use dates::{date, Dated};
pub use kind::CertType;

use pkit_x509::cert::Certificate;

/// How much a finding weighs: what the source says (MUST / SHOULD / MAY).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Notice,
    Warning,
    Error,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Notice => "notice",
        }
    }

    pub fn from_name(s: &str) -> Option<Level> {
        Some(match s {
            "error" => Level::Error,
            "warning" | "warn" => Level::Warning,
            "notice" => Level::Notice,
            _ => return None,
        })
    }
}

/// The rule set a lint belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleSet {
    Rfc5280,
    /// A BR rule a private CA keeps too.
    CabfTlsCore,
    /// A BR rule only a publicly trusted CA needs.
    CabfTls,
    /// The S/MIME BRs.
    CabfSmime,
}

/// Which rule sets apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub rfc5280: bool,
    pub cabf_tls_core: bool,
    pub cabf_tls: bool,
    pub cabf_smime: bool,
}

impl Default for Rules {
    /// RFC 5280 and the BR rules that make sense for a private CA.
    fn default() -> Self {
        Rules {
            rfc5280: true,
            cabf_tls_core: true,
            cabf_tls: false,
            cabf_smime: false,
        }
    }
}

impl Rules {
    /// `rfc5280,cabf-tls-core,cabf-tls,cabf-smime` (any of them, comma-separated;
    /// `cabf-tls` includes its core). `none` lints nothing.
    pub fn parse(s: &str) -> Result<Rules, String> {
        let mut r = Rules {
            rfc5280: false,
            cabf_tls_core: false,
            cabf_tls: false,
            cabf_smime: false,
        };
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "rfc5280" => r.rfc5280 = true,
                "cabf-tls-core" => r.cabf_tls_core = true,
                "cabf-tls" => {
                    r.cabf_tls_core = true;
                    r.cabf_tls = true;
                }
                "cabf-smime" => r.cabf_smime = true,
                "none" => {}
                other => {
                    return Err(format!(
                        "unknown rule set '{other}' (expected rfc5280, cabf-tls-core, cabf-tls, \
                         cabf-smime or none)"
                    ))
                }
            }
        }
        Ok(r)
    }

    /// The spelling [`Rules::parse`] reads back.
    pub fn name(&self) -> String {
        let mut parts = Vec::new();
        if self.rfc5280 {
            parts.push("rfc5280");
        }
        if self.cabf_tls {
            parts.push("cabf-tls");
        } else if self.cabf_tls_core {
            parts.push("cabf-tls-core");
        }
        if self.cabf_smime {
            parts.push("cabf-smime");
        }
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(",")
        }
    }

    pub fn includes(&self, set: RuleSet) -> bool {
        match set {
            RuleSet::Rfc5280 => self.rfc5280,
            RuleSet::CabfTlsCore => self.cabf_tls_core,
            RuleSet::CabfTls => self.cabf_tls,
            RuleSet::CabfSmime => self.cabf_smime,
        }
    }
}

/// What to lint against.
#[derive(Debug, Clone, Copy, Default)]
pub struct LintOptions {
    pub rules: Rules,
    /// The certificate's type instead of the one its contents say.
    pub as_type: Option<CertType>,
    /// Judge by the rules in force on this day (POSIX seconds) instead of those in force
    /// on the certificate's notBefore. The gate passes today: what pkit signs now meets
    /// today's rules, whatever notBefore it is asked for.
    pub at: Option<i64>,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Stable name: `e_`/`w_`/`n_` by level, then the rule.
    pub lint: &'static str,
    pub level: Level,
    /// Where the rule comes from: "RFC 5280 §4.1.2.2", "CA/B Forum TLS BR §6.3.2".
    pub source: &'static str,
    /// The field it is about, as parse's error paths name fields.
    pub path: String,
    /// Byte offset of that field in the certificate.
    pub offset: usize,
    pub message: String,
}

/// A lint: its name, level, source and rule set, and the check.
pub struct Lint {
    pub name: &'static str,
    pub level: Level,
    pub source: &'static str,
    pub set: RuleSet,
    /// Which certificates it is about.
    pub applies: fn(CertType) -> bool,
    pub check: fn(&CertContext<'_>, &mut Reporter<'_>),
    /// The day the rule took effect, when it has not always held, with its source.
    pub since: Option<Dated>,
    /// The day it stopped applying (a later rule replaced it), with its source.
    pub until: Option<Dated>,
}

impl Lint {
    /// The rule holds for certificates issued from `date` (`YYYY-MM-DD`) on.
    pub const fn since(mut self, date: &'static str, cite: &'static str) -> Lint {
        self.since = Some(Dated::new(date, cite));
        self
    }

    /// The rule holds for certificates issued before `date` only.
    pub const fn until(mut self, date: &'static str, cite: &'static str) -> Lint {
        self.until = Some(Dated::new(date, cite));
        self
    }

    /// Whether the rule was in force at `at` (POSIX seconds).
    pub fn in_force(&self, at: i64) -> bool {
        self.since.is_none_or(|d| at >= d.unix) && self.until.is_none_or(|d| at < d.unix)
    }
}

/// A lint that applied but could not run: a part it needs did not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotRun {
    pub lint: &'static str,
    pub reason: String,
}

/// What linting one certificate found, and which lints could not run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    pub not_run: Vec<NotRun>,
}

/// What a check reports into: it knows the lint, the check gives field, offset, text.
pub struct Reporter<'a> {
    lint: &'a Lint,
    out: &'a mut Vec<Finding>,
}

impl Reporter<'_> {
    pub fn report(&mut self, path: &str, offset: usize, message: impl Into<String>) {
        self.out.push(Finding {
            lint: self.lint.name,
            level: self.lint.level,
            source: self.lint.source,
            path: path.to_string(),
            offset,
            message: message.into(),
        });
    }
}

/// What a CRL, OCSP or CSR check reports through: a closure recording findings of one
/// lint into `out`.
pub(crate) fn recorder<'o>(
    out: &'o mut Vec<Finding>,
    lint: &'static str,
    level: Level,
    source: &'static str,
) -> impl FnMut(&str, usize, String) + 'o {
    move |path, offset, message| {
        out.push(Finding {
            lint,
            level,
            source,
            path: path.to_string(),
            offset,
            message,
        })
    }
}

/// Every certificate lint pkit has, RFC 5280's first.
pub fn certificate_lints() -> impl Iterator<Item = &'static Lint> {
    rfc5280::LINTS
        .iter()
        .chain(cabf::LINTS.iter())
        .chain(smime::LINTS.iter())
}

/// Lint a CRL (DER), read leniently (what is not DER is a finding). An error when it is
/// not a CRL at all.
pub fn lint_crl(der: &[u8], opts: &LintOptions) -> Result<Vec<Finding>, der::Error> {
    let log = der::Deviations::new();
    let crl = pkit_x509::crl::Crl::parse(der::Reader::lenient(der, &log))?;
    let mut findings = crl::lint_parsed_crl(&crl, opts);
    if opts.rules.rfc5280 {
        findings.extend(encoding::deviation_findings(&log, "tbsCertList"));
    }
    Ok(findings)
}

/// Lint a certification request (DER), read leniently; `facts` says whether its
/// signature verifies.
pub fn lint_csr(
    der: &[u8],
    facts: csr::CsrFacts,
    opts: &LintOptions,
) -> Result<Vec<Finding>, der::Error> {
    let log = der::Deviations::new();
    let req = pkit_x509::csr::Csr::parse(der::Reader::lenient(der, &log))?;
    let mut findings = csr::lint_parsed_csr(&req, facts, opts);
    if opts.rules.rfc5280 {
        findings.extend(encoding::deviation_findings(
            &log,
            "certificationRequestInfo",
        ));
    }
    Ok(findings)
}

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
    for lint in certificate_lints() {
        if !(rules.includes(lint.set) && (lint.applies)(ctx.kind) && lint.in_force(ctx.at)) {
            continue;
        }
        if let Some(part) = ctx.type_unsure() {
            if !ALL_TYPES.iter().all(|t| (lint.applies)(*t)) {
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
        (lint.check)(
            ctx,
            &mut Reporter {
                lint,
                out: &mut report.findings,
            },
        );
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

/// The findings at or above `level`.
pub fn at_least(findings: &[Finding], level: Level) -> impl Iterator<Item = &Finding> {
    findings.iter().filter(move |f| f.level >= level)
}

#[cfg(test)]
mod tests;
