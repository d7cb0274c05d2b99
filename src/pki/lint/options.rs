//! What to lint against: the rule sets ([`Rules`], each rule's [`RuleSet`]), the type to
//! lint a certificate as, and the day to judge by ([`LintOptions`]).

use crate::cert_type::CertType;
use std::fmt;

/// The rule set a lint belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleSet {
    /// RFC 5280 (and, for the objects they define, RFC 2986 and RFC 6960).
    Rfc5280,
    /// A BR rule a private CA keeps too.
    CabfTlsCore,
    /// A BR rule only a publicly trusted CA needs.
    CabfTls,
    /// The S/MIME BRs.
    CabfSmime,
}

impl RuleSet {
    /// The set's name as `--rules` spells it: `rfc5280`, `cabf-tls-core`, `cabf-tls`,
    /// `cabf-smime`.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Rfc5280 => "rfc5280",
            RuleSet::CabfTlsCore => "cabf-tls-core",
            RuleSet::CabfTls => "cabf-tls",
            RuleSet::CabfSmime => "cabf-smime",
        }
    }
}

/// Which rule sets apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// RFC 5280's rules (and RFC 2986's, RFC 6960's) and the malformations.
    pub rfc5280: bool,
    /// The BR rules that make sense for a private CA as well.
    pub cabf_tls_core: bool,
    /// The BR rules only a publicly trusted CA needs.
    pub cabf_tls: bool,
    /// The S/MIME BRs' rules for mailbox certificates.
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

/// A rule set [`Rules::parse`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRuleSet {
    /// The name as given.
    pub name: String,
}

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule set '{}' (expected rfc5280, cabf-tls-core, cabf-tls, cabf-smime or \
             none)",
            self.name
        )
    }
}

impl std::error::Error for UnknownRuleSet {}

impl Rules {
    /// The rule set names [`Rules::parse`] reads, comma-separated.
    pub const NAMES: [&'static str; 5] =
        ["rfc5280", "cabf-tls-core", "cabf-tls", "cabf-smime", "none"];

    /// `rfc5280,cabf-tls-core,cabf-tls,cabf-smime` (any of them, comma-separated;
    /// `cabf-tls` includes its core). `none` lints nothing.
    pub fn parse(s: &str) -> Result<Rules, UnknownRuleSet> {
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
                    return Err(UnknownRuleSet {
                        name: other.to_string(),
                    })
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

    /// Whether the rules of `set` apply.
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
    /// The rule sets that apply.
    pub rules: Rules,
    /// The certificate's type instead of the one its contents say.
    pub as_type: Option<CertType>,
    /// Judge by the rules in force on this day (POSIX seconds) instead of those in force
    /// on the object's own date (a certificate's notBefore, a CRL's or OCSP response's
    /// thisUpdate). The gate passes today: what pkit signs now meets today's rules,
    /// whatever notBefore it is asked for.
    pub at: Option<i64>,
}
