//! What a CA holds a certificate to before it signs it, besides the lint gate: its own
//! chain (name constraints, path length, policy constraints, extended key usages,
//! validity) and its policy ([`crate::policy`]). A certificate its chain makes invalid
//! is refused, not signed and then found wanting by relying parties: once signed it is
//! in the CA's records (and in CT, for a public CA) whatever a verifier later says.
//!
//! The chain is judged by a relying party's path validation,
//! [`pkit_verify::preissue::PreIssue`], walked once when the CA is loaded; a refusal
//! is a [`Refusal`] with `pkit verify`'s reason codes (`ca-policy` for the CA's own
//! rules).

use super::policy::Policy;
use crate::der::Reader;
use pkit_verify::preissue::{PreIssue, Refusal};
use pkit_x509::ext::{GeneralName, IpForm};
use pkit_x509::name::Name;
use pkit_x509::san::{parse_san, SanError};

/// Whether a certificate with this subject (Name DER) and these subjectAltName entries
/// (GeneralName TLVs) would pass the CA's `policy`, then its `chain`'s name constraints:
/// asked before anything is made for them (a batch before its first signature, an ACME
/// order before its authorizations).
pub fn names_allowed(
    policy: &Policy,
    chain: Option<&PreIssue>,
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

/// Whether the CA would certify `name` (a SAN as `pkit issue cert --san` takes it:
/// `DNS:…`, `IP:…`, `email:…`, `URI:…`): a certificate naming it in its SAN and nothing
/// in its subject, held to the CA's `policy` and its `chain` ([`names_allowed`]). What
/// `pkit issue policy --check` answers; an error when `name` is not a SAN.
pub fn name_allowed(
    policy: &Policy,
    chain: &PreIssue,
    name: &str,
) -> Result<Result<(), Refusal>, SanError> {
    let san = parse_san(name)?;
    Ok(names_allowed(
        policy,
        Some(chain),
        &[0x30, 0x00],
        &[san.der],
    ))
}

#[cfg(test)]
mod tests;
