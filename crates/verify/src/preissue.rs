//! Pre-issuance validation: a CA's certificate about to be signed is validated, before
//! the signature, as the target of a path through the CA's own chain, with the same
//! RFC 5280 §6.1 processing `pkit verify` applies ([`crate::validate`]). What the chain
//! forbids is refused with the reason code and message `verify` would give afterwards:
//! names outside its name constraints, a CA below a pathLenConstraint that allows none,
//! a path its policy constraints make invalid, an extended key usage a CA above does not
//! have, a validity outside a CA's.
//!
//! A CA must hold itself to more than a relying party does in three places, since what
//! it signs meets every relying party:
//!
//! - every commonName that reads as a host name is held to the dNSName constraints, SANs
//!   or not (`verify` does so only without SANs, as OpenSSL does; a client that still
//!   reads the CN would otherwise accept a name the chain excludes);
//! - each extended key usage the certificate lists must be one every CA above it that
//!   has an extendedKeyUsage lists (or anyExtendedKeyUsage) — `verify` asks only for the
//!   purpose it is given;
//! - the certificate's validity must lie within every CA's of the chain, not only be
//!   valid at one time.
//!
//! Signatures are not checked (nothing is signed yet, and the chain's are the CA's own).

use super::constraints::{NameConstraintState, NcError};
use super::names;
use super::options::{Options, Rules};
use super::reason::Reason;
use super::validate::{self, Failure};
use crate::der::oid_registry as oids;
use crate::der::{Reader, Time};
use pkit_ca::precheck::{ChainCheck, Refusal};
use pkit_x509::backend::Backend;
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{ExtensionValue, GeneralName, IpForm};
use pkit_x509::name::Name;

/// A CA's chain, checked once when loaded and asked before each signature.
pub struct PreIssue {
    backend: Backend,
    /// The issuing CA's certificate first, then each one above it, the trust anchor
    /// (or the highest certificate the CA has) last.
    chain: Vec<Vec<u8>>,
    /// The name constraints of the whole chain, taken in once.
    names: NameConstraintState,
}

/// A failure of the path as the CA's refusal.
fn refusal(f: Failure) -> Refusal {
    Refusal::new(f.reason.code(), f.cert, f.detail)
}

fn nc_refusal(e: NcError, at: usize) -> Refusal {
    let reason = match e {
        NcError::Malformed(_) => Reason::Malformed,
        NcError::Budget(_) => Reason::BudgetExceeded,
        NcError::Invalid(_) | NcError::Violation(_) => Reason::NameConstraints,
    };
    Refusal::new(reason.code(), Some(at), e.to_string())
}

impl PreIssue {
    /// The check for a CA whose chain is `chain` (its own certificate first, up to its
    /// trust anchor or as high as it knows). Refused when a certificate of the chain
    /// does not decode or its name constraints cannot be taken in.
    pub fn new(backend: &Backend, chain: Vec<Vec<u8>>) -> Result<PreIssue, Refusal> {
        if chain.is_empty() {
            return Err(Refusal::new(
                Reason::UnknownIssuer.code(),
                None,
                "the CA has no certificate",
            ));
        }
        let mut names = NameConstraintState::new();
        for (i, der) in chain.iter().enumerate().rev() {
            let at = i + 1;
            let c = Certificate::from_der(der)
                .map_err(|e| Refusal::new(Reason::Malformed.code(), Some(at), e.to_string()))?;
            names
                .update(&c, Rules::Rfc5280)
                .map_err(|e| nc_refusal(e, at))?;
        }
        Ok(PreIssue {
            backend: backend.clone(),
            chain,
            names,
        })
    }

    /// The chain parsed (it decoded in [`PreIssue::new`]).
    fn parsed(&self) -> Result<Vec<Certificate<'_>>, Refusal> {
        self.chain
            .iter()
            .enumerate()
            .map(|(i, d)| {
                Certificate::from_der(d)
                    .map_err(|e| Refusal::new(Reason::Malformed.code(), Some(i + 1), e.to_string()))
            })
            .collect()
    }

    /// Every commonName of `subject` that reads as a host name, against the dNSName
    /// constraints.
    fn common_names(&self, subject: &Name<'_>) -> Result<(), Refusal> {
        if self.names.is_unconstrained() {
            return Ok(());
        }
        let attrs = subject.attributes().map_err(|e| {
            Refusal::new(Reason::Malformed.code(), Some(0), format!("subject: {e}"))
        })?;
        for a in attrs.iter().filter(|a| a.oid == oids::AT_COMMON_NAME) {
            let Ok(text) = a.text() else { continue };
            if names::cn_is_host_name(&text) {
                self.names
                    .check_one("subject commonName", &GeneralName::DnsName(text.into()))
                    .map_err(|e| nc_refusal(e, 0))?;
            }
        }
        Ok(())
    }
}

impl ChainCheck for PreIssue {
    fn names(&self, subject: &[u8], sans: &[Vec<u8>]) -> Result<(), Refusal> {
        let bad =
            |e: crate::der::Error| Refusal::new(Reason::Malformed.code(), Some(0), e.to_string());
        let subject = Name::from_der(subject, 0).map_err(bad)?;
        let mut general = Vec::with_capacity(sans.len());
        for tlv in sans {
            general.push(GeneralName::read(&mut Reader::new(tlv), IpForm::Address).map_err(bad)?);
        }
        self.names
            .check_names(&subject, general, Rules::Rfc5280)
            .map_err(|e| nc_refusal(e, 0))?;
        self.common_names(&subject)
    }

    fn certificate(&self, der: &[u8]) -> Result<(), Refusal> {
        let cert = Certificate::from_der(der)
            .map_err(|e| Refusal::new(Reason::Malformed.code(), Some(0), e.to_string()))?;
        let chain = self.parsed()?;
        let (nb, na) = cert
            .validity()
            .map_err(|e| Refusal::new(Reason::Malformed.code(), Some(0), e.to_string()))?;
        nested(nb, na, &chain)?;
        // Judged as of its first second: the time the CA issues it for (its --now), at
        // which, its validity nested in theirs, every CA of the chain is valid too.
        let mut path = Vec::with_capacity(chain.len() + 1);
        path.push(cert);
        path.extend(chain);
        let opts = Options::at(nb);
        validate::validate(&self.backend, &path, &opts, None).map_err(refusal)?;
        self.common_names(&path[0].subject)?;
        if path[0].is_ca() {
            path_length(&path)?;
        }
        extended_key_usages(&path)
    }
}

/// The certificate's validity within every CA's (RFC 5280 §6.1.3 (a)(2) holds each
/// certificate of a path to the time of validation: one that outlives a CA above it is
/// invalid for the rest of its life).
fn nested(nb: Time, na: Time, chain: &[Certificate<'_>]) -> Result<(), Refusal> {
    for (i, c) in chain.iter().enumerate() {
        let at = i + 1;
        let (cnb, cna) = c
            .validity()
            .map_err(|e| Refusal::new(Reason::Malformed.code(), Some(at), e.to_string()))?;
        if nb.unix < cnb.unix {
            return Err(Refusal::new(
                Reason::NotYetValid.code(),
                Some(at),
                format!("not valid before {cnb}, after the certificate would start ({nb})"),
            ));
        }
        if na.unix > cna.unix {
            return Err(Refusal::new(
                Reason::Expired.code(),
                Some(at),
                format!("expires {cna}, before the certificate would ({na})"),
            ));
        }
    }
    Ok(())
}

/// A CA certificate to be signed, as the next intermediate of paths through the chain:
/// every pathLenConstraint above must allow one more CA below it (§6.1.4 (l)(m);
/// self-issued certificates do not count).
fn path_length(path: &[Certificate<'_>]) -> Result<(), Refusal> {
    let mut below = usize::from(!path[0].is_self_issued());
    for (at, c) in path.iter().enumerate().skip(1) {
        if let Some(limit) = c.basic_constraints().and_then(|b| b.path_len_constraint) {
            if below as u64 > limit {
                return Err(Refusal::new(
                    Reason::PathLengthExceeded.code(),
                    Some(at),
                    format!(
                        "its pathLenConstraint {limit} allows no CA certificate this deep \
                         ({below} below it)"
                    ),
                ));
            }
        }
        if !c.is_self_issued() {
            below += 1;
        }
    }
    Ok(())
}

/// Each extended key usage the certificate lists, in the extendedKeyUsage of every CA
/// above it that has one (anyExtendedKeyUsage allows every usage).
fn extended_key_usages<'a>(path: &[Certificate<'a>]) -> Result<(), Refusal> {
    fn ekus<'a>(c: &Certificate<'a>) -> Option<Vec<crate::der::ObjectId<'a>>> {
        match c.extension_value(&oids::CE_EXT_KEY_USAGE) {
            Some(ExtensionValue::ExtendedKeyUsage(v)) => Some(v),
            _ => None,
        }
    }
    let Some(wanted) = ekus(&path[0]) else {
        return Ok(());
    };
    for (at, c) in path.iter().enumerate().skip(1) {
        let Some(allowed) = ekus(c) else { continue };
        if allowed.iter().any(|o| *o == oids::KP_ANY) {
            continue;
        }
        if let Some(missing) = wanted
            .iter()
            .find(|w| **w != oids::KP_ANY && !allowed.contains(w))
        {
            return Err(Refusal::new(
                Reason::EkuMismatch.code(),
                Some(at),
                format!(
                    "extendedKeyUsage does not allow {}",
                    missing.name_or_dotted()
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
