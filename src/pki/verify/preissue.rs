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
//! What the certificate says of itself (critical extensions understood, key identifiers,
//! nameConstraints in an end-entity certificate) is the lint gate's to judge, not this
//! check's: `--lint off` signs such a certificate on purpose (test material), never one
//! its chain forbids. Signatures are not checked (nothing is signed yet, and the chain's
//! are the CA's own).

use super::constraints::NcError;
use super::names;
use super::options::{Options, Rules};
use super::reason::Reason;
use super::validate::{Failure, PathState};
use crate::der::oid_registry as oids;
use crate::der::{Reader, Time};
use pkit_x509::backend::Backend;
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{ExtensionValue, GeneralName, IpForm};
use pkit_x509::name::Name;
use std::fmt;

/// Why a CA refuses to sign: a stable code (`pkit verify`'s reason codes, such as
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

/// What each certificate of the chain contributes beyond the walk, read once.
#[derive(Debug, Clone)]
struct ChainCert {
    not_before: Time,
    not_after: Time,
    path_len: Option<u64>,
    self_issued: bool,
    /// Its extendedKeyUsage's KeyPurposeIds (DER contents), when it has one.
    ekus: Option<Vec<Vec<u8>>>,
}

/// A CA's chain, walked once when loaded and continued for each certificate to sign.
pub struct PreIssue {
    backend: Backend,
    /// The issuing CA's certificate (the one each certificate is chained to).
    issuer: Vec<u8>,
    /// The issuing CA first, the trust anchor (or the highest certificate the CA has)
    /// last.
    chain: Vec<ChainCert>,
    /// RFC 5280 §6.1 after the anchor and every CA below it down to the issuing one.
    state: PathState,
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

fn malformed(at: usize) -> impl Fn(crate::der::Error) -> Refusal {
    move |e| Refusal::new(Reason::Malformed.code(), Some(at), e.to_string())
}

/// The rules a CA's chain is walked with: RFC 5280's, any policy, no revocation, and
/// the certificate to sign held to what the chain says, not to its own profile (the
/// lint gate's, which `--lint` may turn off: a CA makes test certificates too).
fn options(now: Time) -> Options<'static> {
    let mut o = Options::at(now);
    o.rules = Rules::Rfc5280;
    o.target_profile = false;
    o
}

impl PreIssue {
    /// The check for a CA whose chain is `chain` (its own certificate first, up to its
    /// trust anchor or as high as it knows), walked now: refused when a certificate of
    /// it does not decode, or the chain is not a valid path for any certificate below
    /// it (a CA that may not issue, constraints that cannot be taken in, validities that
    /// never overlap).
    pub fn new(backend: &Backend, mut chain: Vec<Vec<u8>>) -> Result<PreIssue, Refusal> {
        if chain.is_empty() {
            return Err(Refusal::new(
                Reason::UnknownIssuer.code(),
                None,
                "the CA has no certificate",
            ));
        }
        let parsed = chain
            .iter()
            .enumerate()
            .map(|(i, d)| Certificate::from_der(d).map_err(malformed(i + 1)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut facts = Vec::with_capacity(parsed.len());
        for (i, c) in parsed.iter().enumerate() {
            let (not_before, not_after) = c.validity().map_err(malformed(i + 1))?;
            let ekus = match c.extension_value(&oids::CE_EXT_KEY_USAGE) {
                Some(ExtensionValue::ExtendedKeyUsage(v)) => {
                    Some(v.iter().map(|o| o.as_bytes().to_vec()).collect())
                }
                _ => None,
            };
            facts.push(ChainCert {
                not_before,
                not_after,
                path_len: c.basic_constraints().and_then(|b| b.path_len_constraint),
                self_issued: c.is_self_issued(),
                ekus,
            });
        }
        // Walked as of the latest start among them: every certificate signed is
        // nested in all their validities ([`nested`]), so when that time is outside
        // one of them no certificate can be.
        let latest = facts
            .iter()
            .map(|f| f.not_before)
            .fold(
                Time { unix: i64::MIN },
                |a, b| if b.unix > a.unix { b } else { a },
            );
        let opts = options(latest);
        // The path the certificates to sign end: theirs is certificate n.
        let n = parsed.len();
        let mut none = |_: &'static str, _: String| {};
        let mut state = PathState::start(&parsed[n - 1], n, &opts, &mut none).map_err(refusal)?;
        for i in 1..n {
            let at = n - i;
            state
                .step(
                    backend,
                    &parsed[at - 1],
                    &parsed[at],
                    i,
                    &opts,
                    None,
                    &mut none,
                )
                .map_err(refusal)?;
        }
        Ok(PreIssue {
            backend: backend.clone(),
            issuer: chain.swap_remove(0),
            chain: facts,
            state,
        })
    }

    /// Every commonName of `subject` that reads as a host name, against the dNSName
    /// constraints.
    fn common_names(&self, subject: &Name<'_>) -> Result<(), Refusal> {
        let names = self.state.name_constraints();
        if names.is_unconstrained() {
            return Ok(());
        }
        let attrs = subject.attributes().map_err(|e| {
            Refusal::new(Reason::Malformed.code(), Some(0), format!("subject: {e}"))
        })?;
        for a in attrs.iter().filter(|a| a.oid == oids::AT_COMMON_NAME) {
            let Ok(text) = a.text() else { continue };
            if names::cn_is_host_name(&text) {
                names
                    .check_one("subject commonName", &GeneralName::DnsName(text.into()))
                    .map_err(|e| nc_refusal(e, 0))?;
            }
        }
        Ok(())
    }

    /// The names a certificate would carry (its subject Name DER and its
    /// subjectAltName GeneralName TLVs), against the chain's name constraints: asked
    /// before anything is made (a batch before its first signature, an ACME order
    /// before its authorizations).
    pub fn names(&self, subject: &[u8], sans: &[Vec<u8>]) -> Result<(), Refusal> {
        let subject = Name::from_der(subject, 0).map_err(malformed(0))?;
        let mut general = Vec::with_capacity(sans.len());
        for tlv in sans {
            general.push(
                GeneralName::read(&mut Reader::new(tlv), IpForm::Address).map_err(malformed(0))?,
            );
        }
        self.state
            .name_constraints()
            .check_names(&subject, general, Rules::Rfc5280)
            .map_err(|e| nc_refusal(e, 0))?;
        self.common_names(&subject)
    }

    /// The whole certificate about to be signed (DER, its signature empty), validated
    /// as the last certificate of a path through the CA's chain.
    pub fn certificate(&self, der: &[u8]) -> Result<(), Refusal> {
        let cert = Certificate::from_der(der).map_err(malformed(0))?;
        let issuer = Certificate::from_der(&self.issuer).map_err(malformed(1))?;
        let (nb, na) = cert.validity().map_err(malformed(0))?;
        nested(nb, na, &self.chain)?;
        // Judged as of its first second: the time the CA issues it for (its --now), at
        // which, its validity nested in theirs, every CA of the chain is valid too.
        let opts = options(nb);
        let mut state = self.state.clone();
        let mut none = |_: &'static str, _: String| {};
        let n = self.chain.len();
        let exts = state
            .step(&self.backend, &cert, &issuer, n, &opts, None, &mut none)
            .map_err(refusal)?;
        state
            .finish(&cert, &exts, &opts, &mut none)
            .map_err(refusal)?;
        self.common_names(&cert.subject)?;
        if cert.is_ca() {
            path_length(cert.is_self_issued(), &self.chain)?;
        }
        extended_key_usages(&cert, &self.chain)
    }
}

/// The certificate's validity within every CA's (RFC 5280 §6.1.3 (a)(2) holds each
/// certificate of a path to the time of validation: one that outlives a CA above it is
/// invalid for the rest of its life).
fn nested(nb: Time, na: Time, chain: &[ChainCert]) -> Result<(), Refusal> {
    for (i, c) in chain.iter().enumerate() {
        let at = i + 1;
        if nb.unix < c.not_before.unix {
            return Err(Refusal::new(
                Reason::NotYetValid.code(),
                Some(at),
                format!(
                    "not valid before {}, after the certificate would start ({nb})",
                    c.not_before
                ),
            ));
        }
        if na.unix > c.not_after.unix {
            return Err(Refusal::new(
                Reason::Expired.code(),
                Some(at),
                format!(
                    "expires {}, before the certificate would ({na})",
                    c.not_after
                ),
            ));
        }
    }
    Ok(())
}

/// A CA certificate to be signed, as the next intermediate of paths through the chain:
/// every pathLenConstraint above must allow one more CA below it (§6.1.4 (l)(m);
/// self-issued certificates do not count).
fn path_length(self_issued: bool, chain: &[ChainCert]) -> Result<(), Refusal> {
    let mut below = u64::from(!self_issued);
    for (i, c) in chain.iter().enumerate() {
        if let Some(limit) = c.path_len {
            if below > limit {
                return Err(Refusal::new(
                    Reason::PathLengthExceeded.code(),
                    Some(i + 1),
                    format!(
                        "its pathLenConstraint {limit} allows no CA certificate this deep \
                         ({below} below it)"
                    ),
                ));
            }
        }
        if !c.self_issued {
            below += 1;
        }
    }
    Ok(())
}

/// Each extended key usage the certificate lists, in the extendedKeyUsage of every CA
/// above it that has one (anyExtendedKeyUsage allows every usage).
fn extended_key_usages(cert: &Certificate<'_>, chain: &[ChainCert]) -> Result<(), Refusal> {
    let Some(ExtensionValue::ExtendedKeyUsage(wanted)) =
        cert.extension_value(&oids::CE_EXT_KEY_USAGE)
    else {
        return Ok(());
    };
    let any = oids::KP_ANY.as_bytes();
    for (i, c) in chain.iter().enumerate() {
        let Some(allowed) = &c.ekus else { continue };
        if allowed.iter().any(|o| o == any) {
            continue;
        }
        if let Some(missing) = wanted
            .iter()
            .find(|w| w.as_bytes() != any && !allowed.iter().any(|o| o == w.as_bytes()))
        {
            return Err(Refusal::new(
                Reason::EkuMismatch.code(),
                Some(i + 1),
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
