//! What a relying party asks of a certificate: the time, the purpose (extended key
//! usage), the name it expects, the policies it accepts (RFC 5280 §6.1.1), the rule set,
//! how far to check revocation and with what (the defaults: [`RevocationRequest::plan`]),
//! and how much work path building may spend.

use crate::der::oid_registry as oids;
use crate::der::{Oid, Time};
use crate::names::Identity;
use crate::policy::PolicyInputs;
// Its own module, so that name matching (`names`), which the options name, can take it
// without importing the options.
pub use crate::rules::Rules;

/// The extended key usage the certificate is for (`--purpose`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Any purpose: no extendedKeyUsage asked for.
    Any,
    /// TLS server authentication (id-kp-serverAuth).
    Server,
    /// TLS client authentication (id-kp-clientAuth).
    Client,
    /// Code signing (id-kp-codeSigning).
    CodeSigning,
    /// Email protection (id-kp-emailProtection).
    Email,
    /// OCSP response signing (id-kp-OCSPSigning).
    OcspSigner,
    /// Time stamping (id-kp-timeStamping).
    Timestamping,
}

impl Purpose {
    /// Every purpose, in the order `--help` lists them.
    pub const ALL: [Purpose; 7] = [
        Purpose::Any,
        Purpose::Server,
        Purpose::Client,
        Purpose::CodeSigning,
        Purpose::Email,
        Purpose::OcspSigner,
        Purpose::Timestamping,
    ];

    /// As `--purpose` spells it (`ocsp-signer` as in `issue --profile`).
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Any => "any",
            Purpose::Server => "server",
            Purpose::Client => "client",
            Purpose::CodeSigning => "code-signing",
            Purpose::Email => "email",
            Purpose::OcspSigner => "ocsp-signer",
            Purpose::Timestamping => "timestamping",
        }
    }

    /// The purpose `--purpose` names, if any.
    pub fn from_name(s: &str) -> Option<Purpose> {
        Purpose::ALL.into_iter().find(|p| p.name() == s)
    }

    /// The KeyPurposeId a certificate's extendedKeyUsage must list (or
    /// anyExtendedKeyUsage); `None` for any purpose.
    pub fn eku(self) -> Option<Oid> {
        match self {
            Purpose::Any => None,
            Purpose::Server => Some(oids::KP_SERVER_AUTH),
            Purpose::Client => Some(oids::KP_CLIENT_AUTH),
            Purpose::CodeSigning => Some(oids::KP_CODE_SIGNING),
            Purpose::Email => Some(oids::KP_EMAIL_PROTECTION),
            Purpose::OcspSigner => Some(oids::KP_OCSP_SIGNING),
            Purpose::Timestamping => Some(oids::KP_TIME_STAMPING),
        }
    }
}

/// Which certificates of the chosen path get a revocation check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevocationScope {
    /// No certificate.
    None,
    /// The target only.
    Leaf,
    /// Every certificate below the trust anchor.
    Chain,
}

/// How much path building may spend before it gives up with `budget-exceeded`: a pool
/// of a thousand look-alike intermediates must end in a verdict, not a hang.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Signature verifications (cached results are free).
    pub signatures: u32,
    /// Candidate issuers tried.
    pub steps: u32,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            signatures: 256,
            steps: 4096,
        }
    }
}

/// Everything `verify` is asked, besides the certificates.
#[derive(Debug, Clone)]
pub struct Options<'a> {
    /// The time validity is judged at (§6.1.1 (b)).
    pub now: Time,
    /// At most this many intermediates between the leaf and the trust anchor, not
    /// counting self-issued ones (RFC 5280 §6.1.4 (l), as for pathLenConstraint).
    pub max_depth: Option<usize>,
    /// The extended key usage the target must allow.
    pub purpose: Purpose,
    /// The name the target must carry, if any.
    pub identity: Option<Identity<'a>>,
    /// The policy inputs of §6.1.1 (c), (e), (f) and (g).
    pub policy: PolicyInputs,
    /// The rule set the path is held to: `rfc5280` or `webpki`.
    pub rules: Rules,
    /// Which certificates get a revocation check.
    pub revocation: RevocationScope,
    /// Treat an unknown revocation status as a failure.
    pub hard_fail: bool,
    /// Fail a chain with a certificate that expires within this many seconds.
    pub expires_within: Option<i64>,
    /// How much path building may spend.
    pub budget: Budget,
    /// Hold the target to its own profile too: its critical extensions understood, its
    /// key identifiers, the `webpki` profile, no nameConstraints in an end-entity
    /// certificate. A CA checking what it is about to sign against its chain turns this
    /// off: what the certificate says of itself is its lint gate's to judge (and `--lint
    /// off` may mean to sign it), what the chain forbids is not.
    pub target_profile: bool,
}

impl Options<'_> {
    /// RFC 5280 rules at `now`, any purpose, no name, any policy, no revocation check.
    pub fn at(now: Time) -> Options<'static> {
        Options {
            now,
            max_depth: None,
            purpose: Purpose::Any,
            identity: None,
            policy: PolicyInputs::default(),
            rules: Rules::Rfc5280,
            revocation: RevocationScope::None,
            hard_fail: true,
            expires_within: None,
            budget: Budget::default(),
            target_profile: true,
        }
    }
}

/// What a relying party said about revocation, before the defaults are applied: the
/// sources it gave or allowed and how far and how strictly to check (`pkit verify`'s
/// `--crl`, `--ocsp-response`, `--ca`, `--ocsp`, `--crl-download`, `--offline`,
/// `--check-revocation` and `--revocation-policy`). [`RevocationRequest::plan`] decides
/// what is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RevocationRequest {
    /// Revocation data is at hand: CRLs, OCSP responses or a CA's database.
    pub local: bool,
    /// Ask the OCSP responders the certificates name (authorityInfoAccess).
    pub ocsp: bool,
    /// Fetch the CRLs the certificates name (cRLDistributionPoints).
    pub crl_download: bool,
    /// Never fetch revocation data.
    pub offline: bool,
    /// Which certificates to check, when the relying party said.
    pub scope: Option<RevocationScope>,
    /// Treat an unknown status as a failure (hard fail) rather than let it through.
    pub hard_fail: bool,
}

/// What a run checks revocation with, the defaults applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RevocationPlan {
    /// Ask the OCSP responders the certificates name.
    pub ask_ocsp: bool,
    /// Fetch the CRLs the certificates name.
    pub fetch_crls: bool,
    /// Whether any source is asked at all: without one, path validation is given no
    /// revocation source.
    pub any_source: bool,
    /// Which certificates of the path get a revocation check ([`Options::revocation`]).
    pub scope: RevocationScope,
    /// Whether an unknown status fails the path ([`Options::hard_fail`]).
    pub hard_fail: bool,
}

impl RevocationRequest {
    /// The defaults: asked to check revocation (`leaf` or `chain`) with nothing at hand
    /// and fetching allowed, ask where the certificates point (OCSP and CRLs both), as
    /// a relying party that names no source means; given a source and no scope, check
    /// the leaf, since a source given is meant to be used; given neither, check nothing.
    pub fn plan(&self) -> RevocationPlan {
        let wants_check = matches!(
            self.scope,
            Some(RevocationScope::Leaf | RevocationScope::Chain)
        );
        let online_by_default = !self.local && !self.offline && wants_check;
        let ask_ocsp = self.ocsp || online_by_default;
        let fetch_crls = self.crl_download || online_by_default;
        let any_source = self.local || ask_ocsp || fetch_crls;
        let scope = match self.scope {
            Some(s) => s,
            None if any_source => RevocationScope::Leaf,
            None => RevocationScope::None,
        };
        RevocationPlan {
            ask_ocsp,
            fetch_crls,
            any_source,
            scope,
            hard_fail: self.hard_fail,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nothing given, nothing said: no source, no check, hard fail as asked.
    fn nothing() -> RevocationRequest {
        RevocationRequest {
            local: false,
            ocsp: false,
            crl_download: false,
            offline: false,
            scope: None,
            hard_fail: true,
        }
    }

    #[test]
    fn nothing_asked_checks_nothing() {
        let p = nothing().plan();
        assert!(!p.ask_ocsp && !p.fetch_crls && !p.any_source);
        assert_eq!(p.scope, RevocationScope::None);
        assert!(p.hard_fail);
    }

    #[test]
    fn a_source_given_checks_the_leaf_and_fetches_nothing() {
        let p = RevocationRequest {
            local: true,
            ..nothing()
        }
        .plan();
        assert!(!p.ask_ocsp && !p.fetch_crls && p.any_source);
        assert_eq!(p.scope, RevocationScope::Leaf);
        // As the scope asked, whatever the sources.
        let p = RevocationRequest {
            local: true,
            scope: Some(RevocationScope::Chain),
            ..nothing()
        }
        .plan();
        assert_eq!(p.scope, RevocationScope::Chain);
    }

    #[test]
    fn a_check_without_a_source_asks_where_certificates_point() {
        for scope in [RevocationScope::Leaf, RevocationScope::Chain] {
            let p = RevocationRequest {
                scope: Some(scope),
                ..nothing()
            }
            .plan();
            assert!(p.ask_ocsp && p.fetch_crls && p.any_source);
            assert_eq!(p.scope, scope);
            // Offline: nothing is asked.
            let p = RevocationRequest {
                scope: Some(scope),
                offline: true,
                ..nothing()
            }
            .plan();
            assert!(!p.ask_ocsp && !p.fetch_crls && !p.any_source);
            assert_eq!(p.scope, scope);
        }
        // `none` fetches nothing.
        let p = RevocationRequest {
            scope: Some(RevocationScope::None),
            ..nothing()
        }
        .plan();
        assert!(!p.any_source);
    }

    #[test]
    fn each_online_source_alone_and_soft_fail() {
        let p = RevocationRequest {
            ocsp: true,
            hard_fail: false,
            ..nothing()
        }
        .plan();
        assert!(p.ask_ocsp && !p.fetch_crls && p.any_source && !p.hard_fail);
        assert_eq!(p.scope, RevocationScope::Leaf);
        let p = RevocationRequest {
            crl_download: true,
            ..nothing()
        }
        .plan();
        assert!(!p.ask_ocsp && p.fetch_crls && p.any_source);
        // A source at hand and a check asked: nothing fetched unless asked.
        let p = RevocationRequest {
            local: true,
            scope: Some(RevocationScope::Leaf),
            ..nothing()
        }
        .plan();
        assert!(!p.ask_ocsp && !p.fetch_crls);
    }
}
