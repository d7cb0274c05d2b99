//! Linting certificates before and after they are signed: what RFC 5280 and the CA/Browser
//! Forum's TLS and S/MIME Baseline Requirements (BRs) say a certificate, a CRL, an OCSP
//! response and a CSR MUST, SHOULD and MAY be.
//! Each [`Finding`] names its rule (a stable name), its level (MUST → error, SHOULD →
//! warning, MAY → notice), the source and section, the field and the byte offset it is
//! about, and one line of explanation.
//!
//! Every rule, whatever object it judges, is one [`Lint`]: its name, level, source,
//! rule set and the days it held (its `since` and `until`), and a check over
//! its object ([`Lint::object`]). [`lints`] lists them all.
//!
//! Rule sets ([`Rules`]): `rfc5280`; `cabf-tls-core`, the BR rules that make sense for a
//! private CA as well (validity, key sizes, SAN presence and form, key usages); and
//! `cabf-tls`, all of them (policies, AIA and CDP, public key algorithms, reserved IP
//! addresses, internal names); `cabf-smime`, the S/MIME BRs' rules for mailbox
//! certificates. The default ([`Rules::default`]) is `rfc5280,cabf-tls-core`.
//!
//! ```
//! use pkit_lint::{lint_certificate, lints, LintOptions, Object, Rules};
//! // What is not a certificate is an error, not a finding.
//! assert!(lint_certificate(&[0x30, 0x00], &LintOptions::default()).is_err());
//! let rules = Rules::parse("rfc5280,cabf-tls").unwrap();
//! assert_eq!(rules.name(), "rfc5280,cabf-tls");
//! let lint = lints().find(|l| l.name == "e_cabf_validity_too_long").unwrap();
//! assert_eq!(lint.object(), Object::Certificate);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

use pkit_der as der;

// The plumbing: what a rule is, what it finds, what to lint against.
mod dates;
mod finding;
mod options;
mod rule;
mod run;

// Each object as its lints read it.
mod cert_type;
mod context;
mod crl_context;
mod csr_context;
mod detect;
mod ocsp_context;

// The families of rules, each a `LINTS` table of one source.
mod cabf;
mod crl;
mod csr;
mod encoding;
mod object;
mod ocsp;
mod rfc5280;
mod smime;

pub use cabf::validity::max_validity_days as br_max_validity_days;
pub use cert_type::CertType;
pub use context::{CertContext, Part, Problem};
pub use csr_context::{CsrContext, CsrFacts};
pub use dates::{date, Dated};
pub use encoding::deviation_findings;
pub use finding::{at_least, Finding, Level, NotRun, Report};
pub use object::{lint_object, Linted};
pub use options::{LintOptions, RuleSet, Rules, UnknownRuleSet};
pub use rule::{Lint, Object};
pub use run::{
    lint_certificate, lint_context, lint_crl, lint_csr, lint_csr_context, lint_parsed,
    lint_parsed_crl, lint_parsed_csr, lint_parsed_ocsp, lint_report, lints, ocsp_lifetime_findings,
};

#[cfg(test)]
mod registry_tests;
