//! What a relying party asks of a certificate: the time, the purpose (extended key
//! usage), the name it expects, the policies it accepts (RFC 5280 §6.1.1), the rule set,
//! how far to check revocation, and how much work path building may spend.

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
