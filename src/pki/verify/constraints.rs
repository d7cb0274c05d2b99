//! Name constraints along a path (RFC 5280 §4.2.1.10; §6.1.2 (b)(c), §6.1.3 (b)(c),
//! §6.1.4 (g)).
//!
//! The state owns what it keeps, so the path validator can drop each certificate's
//! bytes once it has moved past it. Permitted subtrees are held as one set per CA and
//! name form: a name must fall within some subtree of every set of its form, which is
//! §6.1.4 (g)'s intersection without having to compute intersections of subtrees. A
//! form no CA constrained is unconstrained. Excluded subtrees only ever grow, so they
//! are one list.
//!
//! Forms compared: dNSName, rfc822Name, uniformResourceIdentifier (by its host),
//! iPAddress and directoryName; an SmtpUTF8Mailbox otherName also answers to rfc822Name
//! constraints (RFC 8398 §6). otherName, x400Address, ediPartyName and registeredID
//! have no comparison rule pkit implements; a critical nameConstraints extension that
//! constrains one of them makes every name of that form fail, rather than pass
//! unchecked.

use super::options::Rules;
use super::{mailbox, names};
use crate::der::oid_registry as oids;
use crate::der::{string, Error};
use base::{dn_text, Base, Form};
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{self, ExtensionValue, GeneralName, GeneralSubtree};
use pkit_x509::name::{Attribute, Name};
use std::fmt;

/// The permitted subtrees of one form that one CA set.
#[derive(Debug, Clone)]
struct PermittedSet {
    form: Form,
    bases: Vec<Base>,
    /// The subject of the CA that set them, for messages.
    ca: String,
}

/// Name-to-subtree comparisons one certificate may cost (Go's verifier stops at the
/// same number): a leaf with thousands of names under a CA with thousands of subtrees
/// is refused at once rather than compared for minutes.
pub(crate) const MAX_COMPARISONS: usize = 250_000;

/// Why a certificate's names could not be checked, or its constraints not taken in.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NcError {
    /// The nameConstraints extension does not decode.
    Malformed(Error),
    /// The constraints decode but are not valid ones (a bad IP mask, a wildcard, …).
    Invalid(String),
    /// A name broke a constraint, or could not be compared with one.
    Violation(String),
    /// Checking would cost more than [`MAX_COMPARISONS`].
    Budget(String),
}

impl fmt::Display for NcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NcError::Malformed(e) => write!(f, "{e}"),
            NcError::Invalid(s) | NcError::Violation(s) | NcError::Budget(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for NcError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NcError::Malformed(e) => Some(e),
            NcError::Invalid(_) | NcError::Violation(_) | NcError::Budget(_) => None,
        }
    }
}

/// permitted_subtrees and excluded_subtrees of §6.1.2 (b)(c).
#[derive(Debug, Clone, Default)]
pub(crate) struct NameConstraintState {
    permitted: Vec<PermittedSet>,
    /// Each subtree with the subject of the CA that excluded it.
    excluded: Vec<(Base, String)>,
}

impl NameConstraintState {
    /// The initial state: every name permitted, none excluded.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Whether no constraint has been set yet.
    pub(crate) fn is_unconstrained(&self) -> bool {
        self.permitted.is_empty() && self.excluded.is_empty()
    }

    /// §6.1.3 (b)(c): the subject DN (as a directoryName; each emailAddress attribute in
    /// it as an rfc822Name) and every subjectAltName entry must lie within the permitted
    /// subtrees and outside the excluded ones.
    ///
    /// The caller applies this to every certificate after the trust anchor except a
    /// self-issued certificate that is not the last in the path (§6.1.3 (b) skips
    /// those). An empty subject is not checked as a directoryName: the certificate's
    /// names are then in its subjectAltName. When the certificate has no dNSName entry,
    /// each commonName that reads as a host name (at least two labels) is checked as a
    /// dNSName too, as OpenSSL does, so a host name in the CN cannot slip past a
    /// constraint that a verifier matching CNs would then honour.
    ///
    /// Under `webpki`, and under `rfc5280` whenever the certificate has a subjectAltName,
    /// the commonName is not a name constraints apply to (RFC 5280 §4.2.1.10 constrains
    /// the names in subjectAltName; RFC 9525 matches those alone).
    ///
    /// The error names the offending name and the constraint it broke.
    pub(crate) fn check(&self, cert: &Certificate<'_>, rules: Rules) -> Result<(), NcError> {
        if self.is_unconstrained() {
            return Ok(());
        }
        let sans =
            names::subject_alt_names(cert).map_err(|e| NcError::Violation(format!("{e}")))?;
        self.check_names(&cert.subject, sans, rules)
    }

    /// [`Self::check`] for the names a certificate would carry: its subject and its
    /// subjectAltName entries (a CA asks this before it makes the certificate).
    pub(crate) fn check_names(
        &self,
        subject: &Name<'_>,
        sans: Vec<GeneralName<'_>>,
        rules: Rules,
    ) -> Result<(), NcError> {
        if self.is_unconstrained() {
            return Ok(());
        }
        let names = self
            .names_of(subject, sans, rules)
            .map_err(NcError::Violation)?;
        // Each name is compared with the subtrees of its own form only.
        let cost: usize = names
            .iter()
            .map(|(_, n)| self.subtrees_of(Form::of(n)))
            .fold(0, usize::saturating_add);
        if cost > MAX_COMPARISONS {
            return Err(NcError::Budget(format!(
                "{} names would take {cost} comparisons with the constraint subtrees, over \
                 the {MAX_COMPARISONS} allowed",
                names.len()
            )));
        }
        for (place, n) in &names {
            self.check_name(n)
                .map_err(|why| NcError::Violation(format!("{place} {}: {why}", describe(n))))?;
        }
        Ok(())
    }

    /// Every name of a certificate with this subject and these SANs that constraints
    /// apply to, with where it was found.
    fn names_of<'c>(
        &self,
        subject: &Name<'c>,
        sans: Vec<GeneralName<'c>>,
        rules: Rules,
    ) -> Result<Vec<(&'static str, GeneralName<'c>)>, String> {
        let cn_as_dns = rules == Rules::Rfc5280 && sans.is_empty();
        let mut all: Vec<(&'static str, GeneralName<'c>)> = Vec::new();
        if !subject.is_empty() {
            all.push(("subject", GeneralName::DirectoryName(*subject)));
            let attrs = subject.attributes().map_err(|e| format!("subject: {e}"))?;
            for a in &attrs {
                if a.oid == oids::AT_EMAIL {
                    let text = a.text().map_err(|e| format!("subject emailAddress: {e}"))?;
                    all.push(("subject emailAddress", GeneralName::Rfc822Name(text.into())));
                } else if a.oid == oids::AT_COMMON_NAME && cn_as_dns {
                    if let Some(host) = cn_as_host_name(a) {
                        all.push(("subject commonName", GeneralName::DnsName(host.into())));
                    }
                }
            }
        }
        // RFC 8398 §6: rfc822Name constraints also bind SmtpUTF8Mailbox names.
        for n in &sans {
            if let GeneralName::OtherName(o) = n {
                if o.type_id == oids::ON_SMTP_UTF8_MAILBOX {
                    let text = o.text().ok_or_else(|| {
                        "subjectAltName SmtpUTF8Mailbox: expected a UTF8String".to_string()
                    })?;
                    all.push((
                        "subjectAltName SmtpUTF8Mailbox",
                        GeneralName::Rfc822Name(text),
                    ));
                }
            }
        }
        all.extend(sans.into_iter().map(|n| ("subjectAltName", n)));
        Ok(all)
    }

    /// How many subtrees a name of `form` is compared with.
    fn subtrees_of(&self, form: Form) -> usize {
        let permitted: usize = self
            .permitted
            .iter()
            .filter(|s| s.form == form)
            .map(|s| s.bases.len())
            .sum();
        permitted
            + self
                .excluded
                .iter()
                .filter(|(b, _)| b.form() == form)
                .count()
    }

    /// One name, found at `place`, against the constraints taken in (a CA also holds
    /// a subject's host-name commonName to them when its certificate has SANs).
    pub(crate) fn check_one(&self, place: &str, n: &GeneralName<'_>) -> Result<(), NcError> {
        self.check_name(n)
            .map_err(|why| NcError::Violation(format!("{place} {}: {why}", describe(n))))
    }

    fn check_name(&self, n: &GeneralName<'_>) -> Result<(), String> {
        let form = Form::of(n);
        for set in self.permitted.iter().filter(|s| s.form == form) {
            let mut inside = false;
            for base in &set.bases {
                if within::within(n, base, false)? {
                    inside = true;
                    break;
                }
            }
            if !inside {
                let list: Vec<String> = set.bases.iter().map(ToString::to_string).collect();
                return Err(format!(
                    "not within the permitted subtrees [{}] of {:?}",
                    list.join(", "),
                    set.ca
                ));
            }
        }
        for (base, ca) in self.excluded.iter().filter(|(b, _)| b.form() == form) {
            if within::within(n, base, true)? {
                return Err(format!("within the excluded subtree {base} of {ca:?}"));
            }
        }
        Ok(())
    }

    /// §6.1.4 (g): narrow the permitted subtrees to the certificate's permittedSubtrees
    /// and add its excludedSubtrees, when it has a nameConstraints extension.
    ///
    /// Errors: a malformed extension, and a subtree whose minimum is not 0 or that has a
    /// maximum (§4.2.1.10: "Within this profile, the minimum and maximum fields are not
    /// used with any name forms, thus, the minimum MUST be zero, and maximum MUST be
    /// absent"), since the distance they would set has no meaning for these forms.
    ///
    /// Subtrees are checked as they are taken in (see `valid_base`): a constraint that is
    /// not a valid one of its form is refused, not read as something it does not say.
    pub(crate) fn update(&mut self, cert: &Certificate<'_>, rules: Rules) -> Result<(), NcError> {
        let Some(exts) = cert.extensions else {
            return Ok(());
        };
        let Some(e) = exts
            .find(&oids::CE_NAME_CONSTRAINTS)
            .map_err(NcError::Malformed)?
        else {
            return Ok(());
        };
        let nc = match ext::decode(e.oid, e.value, e.value_offset)
            .map_err(|x| NcError::Malformed(x.at("nameConstraints")))?
        {
            ExtensionValue::NameConstraints(nc) => nc,
            _ => {
                return Err(NcError::Malformed(Error::invalid(
                    e.value_offset,
                    "expected a nameConstraints value",
                )))
            }
        };
        let ca = cert
            .subject
            .to_rfc4514()
            .unwrap_or_else(|_| crate::der::hex(cert.subject.raw));
        let bases = |subtrees: &Option<Vec<GeneralSubtree<'_>>>, field: &str| {
            let mut out = Vec::new();
            for (i, s) in subtrees.iter().flatten().enumerate() {
                if s.minimum != 0 || s.maximum.is_some() {
                    return Err(NcError::Malformed(
                        Error::invalid(
                            e.value_offset,
                            format!(
                                "expected minimum 0 and no maximum (RFC 5280 §4.2.1.10), \
                             found minimum {} and maximum {:?}",
                                s.minimum, s.maximum
                            ),
                        )
                        .at(&format!("{field}[{i}]"))
                        .at("nameConstraints"),
                    ));
                }
                if let Some(base) = Base::from_general_name(&s.base, e.critical) {
                    valid_base(&base, rules).map_err(|why| {
                        NcError::Invalid(format!("nameConstraints {field}[{i}] {base}: {why}"))
                    })?;
                    out.push(base);
                }
            }
            Ok(out)
        };
        let permitted = bases(&nc.permitted_subtrees, "permittedSubtrees")?;
        let excluded = bases(&nc.excluded_subtrees, "excludedSubtrees")?;
        // One set per form present, in the order the forms first appear.
        let mut sets: Vec<PermittedSet> = Vec::new();
        for base in permitted {
            let form = base.form();
            match sets.iter_mut().find(|s| s.form == form) {
                Some(set) => set.bases.push(base),
                None => sets.push(PermittedSet {
                    form,
                    bases: vec![base],
                    ca: ca.clone(),
                }),
            }
        }
        self.permitted.extend(sets);
        self.excluded
            .extend(excluded.into_iter().map(|b| (b, ca.clone())));
        Ok(())
    }
}

/// Whether a subtree is a valid constraint of its form (RFC 5280 §4.2.1.10):
///
/// - iPAddress: an IPv4 or IPv6 address and a mask of 8 or 32 octets in all, the mask a
///   run of ones then zeros (CIDR), the address with no bit set outside it;
/// - rfc822Name: a mailbox, a host or a `.domain`; uniformResourceIdentifier: a host or
///   a `.domain`; dNSName: a domain, and under `rfc5280` also a `.domain` ("below this
///   domain only", as in the URI form; `webpki` refuses it, as pyca and rustls-webpki
///   do). Each in host-name syntax without a wildcard; an empty one covers every name.
///   A malformed excluded subtree would otherwise exclude nothing.
fn valid_base(base: &Base, rules: Rules) -> Result<(), String> {
    match base {
        Base::Ip(b) => {
            if b.len() != 8 && b.len() != 32 {
                return Err(format!(
                    "is {} octets, not an address and mask of 8 (IPv4) or 32 (IPv6)",
                    b.len()
                ));
            }
            let (net, mask) = b.split_at(b.len() / 2);
            let bits = mask
                .iter()
                .flat_map(|m| (0..8).rev().map(move |i| m >> i & 1));
            let mut seen_zero = false;
            for bit in bits {
                if bit == 1 && seen_zero {
                    return Err("has a mask that is not a prefix (CIDR) mask".into());
                }
                seen_zero |= bit == 0;
            }
            if net.iter().zip(mask).any(|(n, m)| n & !m != 0) {
                return Err("has address bits set outside its mask".into());
            }
            Ok(())
        }
        Base::Email(c) if c.contains('@') => mailbox::parse(c)
            .map(|_| ())
            .map_err(|why| format!("is not a mailbox, a host or a domain: it {why}")),
        Base::Email(c) => host_or_domain(c, true),
        Base::Dns(c) => host_or_domain(c, rules == Rules::Rfc5280),
        Base::Uri(c) => host_or_domain(c, true),
        Base::Directory(_) | Base::Unsupported(_) => Ok(()),
    }
}

/// A host name, or with `leading_period` also a `.domain` (below it only), in host-name
/// syntax without wildcards; empty (or `.`, the root) covers every name.
fn host_or_domain(c: &str, leading_period: bool) -> Result<(), String> {
    let c = c.strip_suffix('.').unwrap_or(c);
    if c.is_empty() {
        return Ok(());
    }
    let bare = match c.strip_prefix('.') {
        Some(rest) if leading_period => rest,
        Some(_) => {
            return Err(
                "starts with a period, which the webpki rules refuse in a dNSName \
                        constraint (as pyca and rustls-webpki do)"
                    .into(),
            )
        }
        None => c,
    };
    if bare.contains('*') {
        return Err("has a wildcard, which a constraint cannot".into());
    }
    names::check_host_name(bare).map_err(|why| format!("is not a domain name: it {why}"))
}

/// A name for messages: its form and value, control characters escaped.
fn describe(n: &GeneralName<'_>) -> String {
    let label = Form::of(n).label();
    match n {
        GeneralName::DnsName(s) | GeneralName::Rfc822Name(s) | GeneralName::Uri(s) => {
            format!("{label} {s:?}")
        }
        GeneralName::IpAddress(a) => format!("{label} {a}"),
        GeneralName::DirectoryName(d) => format!("{label} {:?}", dn_text(d.raw)),
        _ => label.to_string(),
    }
}

/// A commonName that reads as a host name of at least two labels (wildcard allowed).
fn cn_as_host_name(a: &Attribute<'_>) -> Option<String> {
    if !string::is_string_tag(a.value_tag) {
        return None;
    }
    let text = a.text().ok()?;
    names::cn_is_host_name(&text).then_some(text)
}

mod base;
mod within;

#[cfg(test)]
mod tests;
