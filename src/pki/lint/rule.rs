//! The one shape of a rule, whatever it judges: a [`Lint`] is its name, level, source,
//! rule set and the days it held, and a check over the object it is about (a
//! certificate, a CRL, a CSR, an OCSP response or one of its SingleResponses). Each
//! family file (`rfc5280.rs`, `cabf/*.rs`, `smime.rs`, `crl.rs`, `ocsp.rs`, `csr.rs`)
//! holds a `LINTS` table of them; `run.rs` lists the families and runs each lint on
//! the objects its check takes. A check reports through a [`Reporter`], which knows the
//! lint and is told the field, the offset and the message.

use crate::cert_type::CertType;
use crate::context::CertContext;
use crate::crl_context::CrlPart;
use crate::csr_context::CsrContext;
use crate::dates::Dated;
use crate::finding::{Finding, Level};
use crate::ocsp_context::{OcspContext, SingleContext};
use crate::options::RuleSet;
use pkit_x509::crl::Crl;

/// The kind of object a lint judges, as `lint --list` and the JSON name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Object {
    /// Any object: a class of malformation the lenient reader finds.
    Any,
    /// An X.509 certificate (RFC 5280 §4).
    Certificate,
    /// A certificate revocation list (RFC 5280 §5).
    Crl,
    /// An OCSP response (RFC 6960 §4.2).
    OcspResponse,
    /// A certification request (RFC 2986).
    Csr,
}

impl Object {
    /// `any`, `certificate`, `crl`, `ocsp_response` or `csr`.
    pub fn name(self) -> &'static str {
        match self {
            Object::Any => "any",
            Object::Certificate => "certificate",
            Object::Crl => "crl",
            Object::OcspResponse => "ocsp_response",
            Object::Csr => "csr",
        }
    }
}

/// A lint: its name, level, source, rule set and dates, and the check.
pub struct Lint {
    /// Stable name: `e_`/`w_`/`n_` by level, then the rule.
    pub name: &'static str,
    /// The level of what it finds.
    pub level: Level,
    /// Where the rule comes from, with its section.
    pub source: &'static str,
    /// The rule set it belongs to.
    pub set: RuleSet,
    /// The day the rule took effect, when it has not always held, with its source.
    pub since: Option<Dated>,
    /// The day it stopped applying (a later rule replaced it), with its source.
    pub until: Option<Dated>,
    pub(crate) check: Check,
}

/// What a lint judges, and how.
pub(crate) enum Check {
    /// A class of malformation: the lenient reader finds it, no check of its own does.
    Malformation,
    /// A certificate of the types `applies` accepts.
    Certificate {
        applies: fn(CertType) -> bool,
        check: fn(&CertContext<'_>, &mut Reporter<'_>),
    },
    /// A CRL; `reads` are the parts beyond its fixed fields the check reads, so that it
    /// is not run on one of them that did not decode (it would take it for absent).
    Crl {
        reads: &'static [CrlPart],
        check: fn(&Crl<'_>, &mut Reporter<'_>),
    },
    /// A certification request.
    Csr(fn(&CsrContext<'_>, &mut Reporter<'_>)),
    /// An OCSP response as a whole: its signer, responderID, signature algorithm.
    OcspResponse(fn(&OcspContext<'_>, &mut Reporter<'_>)),
    /// Each SingleResponse of an OCSP response, judged by its own thisUpdate.
    OcspSingle(fn(&SingleContext<'_>, &mut Reporter<'_>)),
}

impl Lint {
    const fn with(
        name: &'static str,
        level: Level,
        source: &'static str,
        set: RuleSet,
        check: Check,
    ) -> Lint {
        Lint {
            name,
            level,
            source,
            set,
            since: None,
            until: None,
            check,
        }
    }

    /// A rule of certificates of the types `applies` accepts.
    pub(crate) const fn certificate(
        name: &'static str,
        level: Level,
        source: &'static str,
        set: RuleSet,
        applies: fn(CertType) -> bool,
        check: fn(&CertContext<'_>, &mut Reporter<'_>),
    ) -> Lint {
        Lint::with(
            name,
            level,
            source,
            set,
            Check::Certificate { applies, check },
        )
    }

    /// A rule of CRLs that reads `reads` beyond the CRL's fixed fields.
    pub(crate) const fn crl(
        name: &'static str,
        level: Level,
        source: &'static str,
        set: RuleSet,
        reads: &'static [CrlPart],
        check: fn(&Crl<'_>, &mut Reporter<'_>),
    ) -> Lint {
        Lint::with(name, level, source, set, Check::Crl { reads, check })
    }

    /// A rule of certification requests.
    pub(crate) const fn csr(
        name: &'static str,
        level: Level,
        source: &'static str,
        set: RuleSet,
        check: fn(&CsrContext<'_>, &mut Reporter<'_>),
    ) -> Lint {
        Lint::with(name, level, source, set, Check::Csr(check))
    }

    /// A rule of an OCSP response as a whole.
    pub(crate) const fn ocsp_response(
        name: &'static str,
        level: Level,
        source: &'static str,
        set: RuleSet,
        check: fn(&OcspContext<'_>, &mut Reporter<'_>),
    ) -> Lint {
        Lint::with(name, level, source, set, Check::OcspResponse(check))
    }

    /// A rule of each SingleResponse of an OCSP response.
    pub(crate) const fn ocsp_single(
        name: &'static str,
        level: Level,
        source: &'static str,
        set: RuleSet,
        check: fn(&SingleContext<'_>, &mut Reporter<'_>),
    ) -> Lint {
        Lint::with(name, level, source, set, Check::OcspSingle(check))
    }

    /// A class of malformation (RFC 5280's rule set, an error).
    pub(crate) const fn malformation(name: &'static str, source: &'static str) -> Lint {
        Lint::with(
            name,
            Level::Error,
            source,
            RuleSet::Rfc5280,
            Check::Malformation,
        )
    }

    /// The rule holds for objects issued from `date` (`YYYY-MM-DD`) on.
    pub(crate) const fn since(mut self, date: &'static str, cite: &'static str) -> Lint {
        self.since = Some(Dated::new(date, cite));
        self
    }

    /// The rule holds for objects issued before `date` only.
    pub(crate) const fn until(mut self, date: &'static str, cite: &'static str) -> Lint {
        self.until = Some(Dated::new(date, cite));
        self
    }

    /// Whether the rule was in force at `at` (POSIX seconds).
    pub fn in_force(&self, at: i64) -> bool {
        self.since.is_none_or(|d| at >= d.unix) && self.until.is_none_or(|d| at < d.unix)
    }

    /// The kind of object it judges.
    pub fn object(&self) -> Object {
        match self.check {
            Check::Malformation => Object::Any,
            Check::Certificate { .. } => Object::Certificate,
            Check::Crl { .. } => Object::Crl,
            Check::Csr(_) => Object::Csr,
            Check::OcspResponse(_) | Check::OcspSingle(_) => Object::OcspResponse,
        }
    }

    /// Whether it judges certificates of type `t` (a lint of another object judges none).
    pub fn applies_to(&self, t: CertType) -> bool {
        match self.check {
            Check::Certificate { applies, .. } => applies(t),
            _ => false,
        }
    }

    /// Whether it applies (its set is on) and is in force at `at`.
    pub(crate) fn on(&self, rules: &crate::options::Rules, at: i64) -> bool {
        rules.includes(self.set) && self.in_force(at)
    }

    /// Its finding at `path` and `offset`.
    pub(crate) fn finding(&self, path: &str, offset: usize, message: String) -> Finding {
        Finding {
            lint: self.name,
            level: self.level,
            source: self.source,
            path: path.to_string(),
            offset,
            message,
        }
    }
}

/// What a check reports into: it knows the lint, the check gives field, offset, text.
pub(crate) struct Reporter<'a> {
    lint: &'a Lint,
    out: &'a mut Vec<Finding>,
}

impl<'a> Reporter<'a> {
    /// A reporter of `lint`'s findings into `out`.
    pub(crate) fn new(lint: &'a Lint, out: &'a mut Vec<Finding>) -> Reporter<'a> {
        Reporter { lint, out }
    }

    /// One finding at `path`, `offset`.
    pub(crate) fn report(&mut self, path: &str, offset: usize, message: impl Into<String>) {
        self.out
            .push(self.lint.finding(path, offset, message.into()));
    }
}
