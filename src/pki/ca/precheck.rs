//! What a CA holds a certificate to before it signs it, besides the lint gate: its own
//! chain (name constraints, path length, policy constraints, extended key usages,
//! validity) and its policy ([`crate::policy`]). A certificate its chain makes invalid
//! is refused, not signed and then found wanting by relying parties: once signed it is
//! in the CA's records (and in CT, for a public CA) whatever a verifier later says.
//!
//! The chain is judged by a relying party's path validation, which lives in
//! `pkit-verify` (a crate that depends on this one); the issuer is handed that check as
//! a [`ChainCheck`] when it is loaded, so this crate names only what it asks.

use super::policy::Policy;
use crate::der::Reader;
use pkit_x509::ext::{GeneralName, IpForm};
use pkit_x509::name::Name;
use std::fmt;

/// Why the CA refuses to sign: a stable code (`pkit verify`'s reason codes, such as
/// `name-constraints`, or `ca-policy` for the CA's own rules), the certificate of the
/// path it concerns (0: the one to be signed, 1: the issuing CA, up to the trust
/// anchor), and what was wrong, as `verify` would print it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The stable reason code, as `pkit verify` prints it.
    pub code: &'static str,
    /// The certificate of the path it concerns (0: the one to be signed), if one.
    pub cert: Option<usize>,
    /// What was wrong, as `pkit verify` would print it.
    pub detail: String,
}

impl Refusal {
    /// A refusal with `code`, about certificate `cert` of the path, saying `detail`.
    pub fn new(code: &'static str, cert: Option<usize>, detail: impl Into<String>) -> Refusal {
        Refusal {
            code,
            cert,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Refusal {
    /// As `pkit verify` prints a failed verdict: `CODE (certificate N): DETAIL`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)?;
        if let Some(i) = self.cert {
            write!(f, " (certificate {i})")?;
        }
        write!(f, ": {}", self.detail)
    }
}

impl std::error::Error for Refusal {}

/// A CA's chain, asked before each signature.
pub trait ChainCheck: Send + Sync {
    /// The names a certificate would carry (its subject Name DER and its
    /// subjectAltName GeneralName TLVs), against the chain's name constraints: asked
    /// before anything is made (a batch before its first signature, an ACME order
    /// before its authorizations).
    fn names(&self, subject: &[u8], sans: &[Vec<u8>]) -> Result<(), Refusal>;

    /// The whole certificate about to be signed (DER, its signature empty), validated
    /// as the last certificate of a path through the CA's chain.
    fn certificate(&self, der: &[u8]) -> Result<(), Refusal>;
}

/// Whether a certificate with this subject (Name DER) and these subjectAltName entries
/// (GeneralName TLVs) would pass the CA's `policy`, then its `chain`'s name constraints:
/// asked before anything is made for them (a batch before its first signature, an ACME
/// order before its authorizations).
pub fn names_allowed(
    policy: &Policy,
    chain: Option<&dyn ChainCheck>,
    subject: &[u8],
    sans: &[Vec<u8>],
) -> Result<(), Refusal> {
    if !policy.is_empty() {
        let bad = |e: crate::der::Error| Refusal::new("malformed", Some(0), e.to_string());
        let name = Name::from_der(subject, 0).map_err(bad)?;
        let general = sans
            .iter()
            .map(|tlv| GeneralName::read(&mut Reader::new(tlv), IpForm::Address).map_err(bad))
            .collect::<Result<Vec<_>, _>>()?;
        policy
            .check_names(&name, &general)
            .map_err(|d| Refusal::new("ca-policy", Some(0), d.to_string()))?;
    }
    match chain {
        Some(c) => c.names(subject, sans),
        None => Ok(()),
    }
}
