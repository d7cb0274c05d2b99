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
use super::{dn, names};
use crate::der::oid_registry as oids;
use crate::der::{string, Error};
use crate::pki::cert::Certificate;
use crate::pki::ext::{self, ExtensionValue, GeneralName, GeneralSubtree, IpAddress};
use crate::pki::name::{Attribute, Name};
use std::fmt;

/// The GeneralName alternatives (RFC 5280 §4.2.1.6) as constraints sort them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    OtherName,
    Email,
    Dns,
    X400,
    Directory,
    EdiParty,
    Uri,
    Ip,
    RegisteredId,
}

impl Form {
    fn of(n: &GeneralName<'_>) -> Form {
        match n {
            GeneralName::OtherName(_) => Form::OtherName,
            GeneralName::Rfc822Name(_) => Form::Email,
            GeneralName::DnsName(_) => Form::Dns,
            GeneralName::X400Address(_) => Form::X400,
            GeneralName::DirectoryName(_) => Form::Directory,
            GeneralName::EdiPartyName(_) => Form::EdiParty,
            GeneralName::Uri(_) => Form::Uri,
            GeneralName::IpAddress(_) => Form::Ip,
            GeneralName::RegisteredId(_) => Form::RegisteredId,
        }
    }

    /// The ASN.1 name of the alternative, as RFC 5280 spells it.
    fn label(self) -> &'static str {
        match self {
            Form::OtherName => "otherName",
            Form::Email => "rfc822Name",
            Form::Dns => "dNSName",
            Form::X400 => "x400Address",
            Form::Directory => "directoryName",
            Form::EdiParty => "ediPartyName",
            Form::Uri => "uniformResourceIdentifier",
            Form::Ip => "iPAddress",
            Form::RegisteredId => "registeredID",
        }
    }
}

/// One subtree's base, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Base {
    Dns(String),
    Email(String),
    Uri(String),
    /// Address then mask: 8 octets (IPv4) or 32 (IPv6).
    Ip(Vec<u8>),
    /// The Name's complete DER.
    Directory(Vec<u8>),
    /// A form pkit cannot compare, kept so that names of that form are refused.
    Unsupported(Form),
}

impl Base {
    /// `None` for an unsupported form in a non-critical extension: such a constraint
    /// cannot be applied, and a non-critical extension may be ignored in part.
    fn from_general_name(n: &GeneralName<'_>, critical: bool) -> Option<Base> {
        Some(match n {
            GeneralName::DnsName(s) => Base::Dns(s.to_string()),
            GeneralName::Rfc822Name(s) => Base::Email(s.to_string()),
            GeneralName::Uri(s) => Base::Uri(s.to_string()),
            GeneralName::IpAddress(a) => Base::Ip(a.bytes.to_vec()),
            GeneralName::DirectoryName(d) => Base::Directory(d.raw.to_vec()),
            other if critical => Base::Unsupported(Form::of(other)),
            _ => return None,
        })
    }

    fn form(&self) -> Form {
        match self {
            Base::Dns(_) => Form::Dns,
            Base::Email(_) => Form::Email,
            Base::Uri(_) => Form::Uri,
            Base::Ip(_) => Form::Ip,
            Base::Directory(_) => Form::Directory,
            Base::Unsupported(f) => *f,
        }
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = self.form().label();
        match self {
            Base::Dns(s) | Base::Email(s) | Base::Uri(s) => write!(f, "{label} {s:?}"),
            Base::Ip(b) => write!(f, "{label} {}", IpAddress { bytes: b }),
            Base::Directory(raw) => write!(f, "{label} {:?}", dn_text(raw)),
            Base::Unsupported(_) => write!(f, "{label}"),
        }
    }
}

/// A Name's RFC 4514 form for messages, or its hex when it does not decode.
fn dn_text(raw: &[u8]) -> String {
    Name::from_der(raw, 0)
        .and_then(|n| n.to_rfc4514())
        .unwrap_or_else(|_| crate::der::hex(raw))
}

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
pub const MAX_COMPARISONS: usize = 250_000;

/// Why a certificate's names could not be checked, or its constraints not taken in.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NcError {
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
pub struct NameConstraintState {
    permitted: Vec<PermittedSet>,
    /// Each subtree with the subject of the CA that excluded it.
    excluded: Vec<(Base, String)>,
}

impl NameConstraintState {
    /// The initial state: every name permitted, none excluded.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether no constraint has been set yet.
    pub fn is_unconstrained(&self) -> bool {
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
    pub fn check(&self, cert: &Certificate<'_>, rules: Rules) -> Result<(), NcError> {
        if self.is_unconstrained() {
            return Ok(());
        }
        let names = self.names_of(cert, rules).map_err(NcError::Violation)?;
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

    /// Every name of `cert` that constraints apply to, with where it was found.
    fn names_of<'c>(
        &self,
        cert: &Certificate<'c>,
        rules: Rules,
    ) -> Result<Vec<(&'static str, GeneralName<'c>)>, String> {
        let sans = names::subject_alt_names(cert).map_err(|e| format!("{e}"))?;
        let cn_as_dns = rules == Rules::Rfc5280 && sans.is_empty();
        let mut all: Vec<(&'static str, GeneralName<'c>)> = Vec::new();
        if !cert.subject.is_empty() {
            all.push(("subject", GeneralName::DirectoryName(cert.subject)));
            let attrs = cert
                .subject
                .attributes()
                .map_err(|e| format!("subject: {e}"))?;
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

    fn check_name(&self, n: &GeneralName<'_>) -> Result<(), String> {
        let form = Form::of(n);
        for set in self.permitted.iter().filter(|s| s.form == form) {
            let mut inside = false;
            for base in &set.bases {
                if within(n, base, false)? {
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
            if within(n, base, true)? {
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
    pub fn update(&mut self, cert: &Certificate<'_>, rules: Rules) -> Result<(), NcError> {
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
        Base::Email(c) => match c.rsplit_once('@') {
            Some((local, host)) if !local.is_empty() && !local.contains('@') => {
                host_or_domain(host, false)
            }
            Some(_) => Err("is not a mailbox, a host or a domain".into()),
            None => host_or_domain(c, true),
        },
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

/// Whether `n` lies within `base` (same form, which the caller has made sure of).
/// `excluding`: for an excluded subtree, a wildcard dNSName is within it when any name
/// the wildcard stands for would be. Err: the name cannot be compared with the
/// constraint (malformed, or a form pkit does not process), which fails the check
/// either way.
fn within(n: &GeneralName<'_>, base: &Base, excluding: bool) -> Result<bool, String> {
    match (n, base) {
        (_, Base::Unsupported(f)) => Err(format!(
            "a critical nameConstraints extension constrains {} names, which pkit cannot \
             compare",
            f.label()
        )),
        (GeneralName::DnsName(name), Base::Dns(c)) => {
            let name = valid_dns_name(name)?;
            Ok(dns_within(name, c) || (excluding && wildcard_reaches(name, c)))
        }
        (GeneralName::Rfc822Name(name), Base::Email(c)) => email_within(name, c),
        (GeneralName::Uri(u), Base::Uri(c)) => {
            let host = uri_host(u).ok_or("has no host name to compare with the constraint")?;
            Ok(host_within(host, c))
        }
        (GeneralName::IpAddress(a), Base::Ip(c)) => Ok(ip_within(a.bytes, c)),
        (GeneralName::DirectoryName(d), Base::Directory(c)) => dn_within(d, c),
        _ => Ok(false),
    }
}

/// A presented dNSName's syntax, its trailing dot dropped. A malformed name has no
/// well-defined place in the name space, so it fails any DNS constraint.
fn valid_dns_name(name: &str) -> Result<&str, String> {
    let bare = name.strip_suffix('.').unwrap_or(name);
    let labels = bare.strip_prefix("*.").unwrap_or(bare);
    names::check_host_name(labels)
        .map(|()| bare)
        .map_err(|why| format!("is not a valid host name ({why})"))
}

/// Whether `s` ends with `suffix`, ASCII case ignored, without slicing inside a
/// character.
fn ends_with_ci(s: &str, suffix: &str) -> bool {
    s.len()
        .checked_sub(suffix.len())
        .and_then(|at| s.get(at..))
        .is_some_and(|tail| tail.eq_ignore_ascii_case(suffix))
}

/// dNSName rule (§4.2.1.10): `example.com` covers that name and every name below it,
/// label by label (not `badexample.com`); `.example.com` only the names below it. An
/// empty constraint, or `.` (the root), covers every name.
fn dns_within(name: &str, c: &str) -> bool {
    let c = c.strip_suffix('.').unwrap_or(c);
    if c.is_empty() {
        return true;
    }
    if c.starts_with('.') {
        return name.len() > c.len() && ends_with_ci(name, c);
    }
    name.eq_ignore_ascii_case(c)
        || (ends_with_ci(name, c)
            && name.len() > c.len()
            && name.as_bytes().get(name.len() - c.len() - 1) == Some(&b'.'))
}

/// Whether the wildcard name `*.rest` stands for a name inside the constraint `c`
/// that the name itself is not inside: `c` is one label over `rest` (`*.example.com`
/// can be `a.example.com`).
fn wildcard_reaches(name: &str, c: &str) -> bool {
    let c = c.strip_suffix('.').unwrap_or(c);
    match (name.strip_prefix("*."), c.split_once('.')) {
        (Some(rest), Some((first, c_rest))) => {
            !first.is_empty() && c_rest.eq_ignore_ascii_case(rest)
        }
        _ => false,
    }
}

/// The host rule of rfc822Name and URI constraints: `.example.com` covers any host
/// below example.com, `example.com` that host only. An empty constraint covers all.
fn host_within(host: &str, c: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let c = c.strip_suffix('.').unwrap_or(c);
    if c.is_empty() {
        return true;
    }
    if c.starts_with('.') {
        return host.len() > c.len() && ends_with_ci(host, c);
    }
    host.eq_ignore_ascii_case(c)
}

/// rfc822Name rule (§4.2.1.10): a constraint with `@` is one mailbox, otherwise a host
/// or (leading dot) a domain. A name that is not `local@host` cannot be placed. An
/// SmtpUTF8Mailbox comes here too: its UTF-8 local part never equals a constraint's
/// ASCII one (RFC 8398 §6), and its domain compares when it is in A-labels.
fn email_within(name: &str, c: &str) -> Result<bool, String> {
    let (local, host) = match name.rsplit_once('@') {
        Some((l, h)) if !l.is_empty() && !h.is_empty() => (l, h),
        _ => return Err("is not a mailbox (local@host)".into()),
    };
    if !host.is_ascii() {
        // An SmtpUTF8Mailbox domain in U-labels would need IDNA conversion first.
        return Err("has a domain that is not ASCII, which pkit cannot compare".into());
    }
    Ok(match c.rsplit_once('@') {
        Some((c_local, c_host)) => {
            let strip = |h: &'_ str| h.strip_suffix('.').unwrap_or(h).to_ascii_lowercase();
            local == c_local && strip(host) == strip(c_host)
        }
        None => host_within(host, c),
    })
}

/// The host of an absolute URI with an authority (`scheme://[userinfo@]host[:port]/…`):
/// `None` when there is none, or when it is an IP literal or otherwise not a host name,
/// since URI constraints name hosts (§4.2.1.10: "MUST be specified as a fully
/// qualified domain name").
fn uri_host(uri: &str) -> Option<&str> {
    let (scheme, rest) = uri.split_once(':')?;
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let rest = rest.strip_prefix("//").filter(|_| scheme_ok)?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = rest.get(..end)?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        Some(_) => return None,
        None => host_port,
    };
    let bare = host.strip_suffix('.').unwrap_or(host);
    let is_ip = bare.parse::<std::net::Ipv4Addr>().is_ok();
    (!is_ip && names::check_host_name(bare).is_ok()).then_some(host)
}

/// iPAddress rule (§4.2.1.10): the address under the constraint's mask equals the
/// constraint's address under it; an IPv4 constraint never covers an IPv6 address.
fn ip_within(addr: &[u8], c: &[u8]) -> bool {
    if c.len() != 2 * addr.len() {
        return false;
    }
    let (net, mask) = c.split_at(addr.len());
    addr.iter()
        .zip(net)
        .zip(mask)
        .all(|((a, n), m)| a & m == n & m)
}

/// directoryName rule (§4.2.1.10, §7.1): the constraint's RDNs begin the name's,
/// compared RDN by RDN.
fn dn_within(name: &Name<'_>, c: &[u8]) -> Result<bool, String> {
    let c = Name::from_der(c, 0)
        .and_then(|c| c.rdns())
        .map_err(|e| format!("the constraint's directoryName does not decode: {e}"))?;
    let name = name.rdns().map_err(|e| format!("does not decode: {e}"))?;
    if c.len() > name.len() {
        return Ok(false);
    }
    // RDNs compare as path validation compares names (§7.1, `dn::rdn_key`).
    Ok(c.iter()
        .zip(&name)
        .all(|(cr, nr)| dn::rdn_key(cr) == dn::rdn_key(nr)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::{tag, Oid, Writer};
    use crate::pki::verify::testcert::{
        cert, dir, dns, email, ip, name, name_constraints, raw_name_constraints, san, uri,
        utf8_name,
    };

    fn cn(v: &str) -> Vec<u8> {
        utf8_name(&[(oids::AT_COMMON_NAME, v)])
    }

    /// A state after one CA (subject `ca`) with these permitted and excluded bases.
    fn state(permitted: &[Vec<u8>], excluded: &[Vec<u8>]) -> NameConstraintState {
        let mut s = NameConstraintState::new();
        add(&mut s, "CA 1", permitted, excluded);
        s
    }

    fn add(s: &mut NameConstraintState, ca: &str, permitted: &[Vec<u8>], excluded: &[Vec<u8>]) {
        let der = cert(&cn(ca), &[name_constraints(permitted, excluded)]);
        s.update(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
            .unwrap();
    }

    /// Check a leaf with this subject and these SANs.
    fn leaf(s: &NameConstraintState, subject: &[u8], sans: &[Vec<u8>]) -> Result<(), String> {
        let exts = if sans.is_empty() {
            vec![]
        } else {
            vec![san(sans)]
        };
        let der = cert(subject, &exts);
        s.check(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
            .map_err(|e| e.to_string())
    }

    /// A leaf with an empty subject and one SAN.
    fn one(s: &NameConstraintState, n: Vec<u8>) -> Result<(), String> {
        leaf(s, &name(&[]), &[n])
    }

    fn other_name() -> Vec<u8> {
        other_name_of(&Oid::new("1.3.6.1.4.1.311.20.2.3"), "user@example.com")
    }

    fn other_name_of(oid: &Oid, value: &str) -> Vec<u8> {
        let mut w = Writer::new();
        w.tlv(0xa0, |w| {
            w.oid(oid);
            w.explicit(0, |w| {
                w.utf8_string(value);
            });
        });
        w.finish()
    }

    #[test]
    fn nothing_constrained_passes_everything() {
        let s = NameConstraintState::new();
        assert!(s.is_unconstrained());
        assert!(one(&s, dns("anything.example")).is_ok());
        assert!(one(&s, dns("")).is_ok());
        // A CA without the extension changes nothing.
        let mut s = NameConstraintState::new();
        let der = cert(&cn("CA"), &[]);
        s.update(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
            .unwrap();
        assert!(s.is_unconstrained());
    }

    #[test]
    fn dns_permitted() {
        let s = state(&[dns("example.com")], &[]);
        for ok in [
            "example.com",
            "www.example.com",
            "a.b.example.com",
            "*.example.com",
            "WWW.EXAMPLE.COM.",
        ] {
            assert!(one(&s, dns(ok)).is_ok(), "{ok}");
        }
        for bad in ["badexample.com", "example.org", "example.com.evil", "com"] {
            let err = one(&s, dns(bad)).unwrap_err();
            assert!(err.contains(bad), "{err}");
            assert!(err.contains("dNSName \"example.com\""), "{err}");
            assert!(err.contains("CN=CA 1"), "{err}");
        }
        // Leading dot: below the domain only.
        let s = state(&[dns(".example.com")], &[]);
        assert!(one(&s, dns("www.example.com")).is_ok());
        assert!(one(&s, dns("example.com")).is_err());
        // Other forms are not constrained by a DNS constraint.
        assert!(one(&s, ip(&[192, 0, 2, 1])).is_ok());
        assert!(one(&s, email("a@elsewhere.example")).is_ok());
    }

    #[test]
    fn dns_excluded() {
        let s = state(&[], &[dns("secret.example.com")]);
        assert!(one(&s, dns("www.example.com")).is_ok());
        let err = one(&s, dns("a.Secret.example.com")).unwrap_err();
        assert!(
            err.contains("excluded subtree dNSName \"secret.example.com\""),
            "{err}"
        );
        assert!(one(&s, dns("secret.example.com")).is_err());
        // A wildcard that could stand for an excluded name is excluded.
        assert!(one(&s, dns("*.example.com")).is_err());
        assert!(one(&s, dns("*.secret.example.com")).is_err());
        // …but not one that cannot reach it.
        assert!(one(&s, dns("*.other.example.com")).is_ok());
        let s = state(&[], &[dns("a.b.example.com")]);
        assert!(one(&s, dns("*.example.com")).is_ok());
        // An empty constraint is the whole name space.
        let s = state(&[], &[dns("")]);
        assert!(one(&s, dns("example.com")).is_err());
    }

    #[test]
    fn malformed_dns_names_fail_any_dns_constraint() {
        for s in [
            state(&[dns("example.com")], &[]),
            state(&[], &[dns("other.example")]),
        ] {
            for bad in [
                "",
                ".",
                "*",
                "..example.com",
                "a..example.com",
                "evil\0.example.com",
                "a b.example.com",
                "f*.example.com",
                "*.*.example.com",
            ] {
                let err = one(&s, dns(bad)).unwrap_err();
                assert!(err.contains("not a valid host name"), "{bad:?}: {err}");
            }
            let long = format!("{}.example.com", "a".repeat(100_000));
            assert!(one(&s, dns(&long)).is_err());
        }
        // Hostile constraint values are refused as constraints, without a panic.
        for bad in ["\0", "..", "*..", "\x7f"] {
            let r = refused(&[dns(bad)], &[], Rules::Rfc5280);
            assert!(matches!(r, Some(NcError::Invalid(_))), "{bad:?}: {r:?}");
        }
        // "." is the root, and like the empty constraint covers every name.
        let s = state(&[], &[dns(".")]);
        assert!(one(&s, dns("example.com")).is_err());
    }

    #[test]
    fn email_forms() {
        let s = state(
            &[
                email("Boss@corp.example"),
                email("mail.example"),
                email(".staff.example"),
            ],
            &[],
        );
        assert!(one(&s, email("Boss@CORP.example")).is_ok());
        // Mailbox constraints compare the local part exactly.
        assert!(one(&s, email("boss@corp.example")).is_err());
        assert!(one(&s, email("anyone@mail.example")).is_ok());
        assert!(one(&s, email("anyone@sub.mail.example")).is_err());
        assert!(one(&s, email("anyone@x.staff.example")).is_ok());
        assert!(one(&s, email("anyone@staff.example")).is_err());
        // Not a mailbox at all.
        for bad in ["mail.example", "@mail.example", "anyone@", ""] {
            let err = one(&s, email(bad)).unwrap_err();
            assert!(err.contains("not a mailbox"), "{err}");
        }
        let s = state(&[], &[email(".evil.example")]);
        assert!(one(&s, email("x@a.evil.example")).is_err());
        assert!(one(&s, email("x@evil.example")).is_ok());
    }

    #[test]
    fn smtp_utf8_mailboxes_are_bound_by_rfc822_constraints() {
        let utf8 = |v: &str| other_name_of(&oids::ON_SMTP_UTF8_MAILBOX, v);
        let s = state(&[email("example.com")], &[]);
        assert!(one(&s, utf8("用户@example.com")).is_ok());
        let err = one(&s, utf8("用户@evil.example")).unwrap_err();
        assert!(err.starts_with("subjectAltName SmtpUTF8Mailbox"), "{err}");
        let err = one(&s, utf8("用户@例子.example")).unwrap_err();
        assert!(err.contains("not ASCII"), "{err}");
        // A mailbox constraint never matches a UTF-8 local part.
        let s = state(&[email("user@example.com")], &[]);
        assert!(one(&s, utf8("úser@example.com")).is_err());
        let s = state(&[], &[email(".evil.example")]);
        assert!(one(&s, utf8("用户@mail.evil.example")).is_err());
        // Without rfc822Name constraints it is not read at all.
        let s = state(&[dns("example.com")], &[]);
        assert!(one(&s, utf8("用户@例子.example")).is_ok());
    }

    #[test]
    fn subject_email_attribute_is_an_rfc822_name() {
        let s = state(&[email("example.com")], &[]);
        let subject = |addr: &str| {
            name(&[
                (oids::AT_COMMON_NAME, tag::UTF8_STRING, "Alice"),
                (oids::AT_EMAIL, tag::IA5_STRING, addr),
            ])
        };
        assert!(leaf(&s, &subject("alice@example.com"), &[]).is_ok());
        let err = leaf(&s, &subject("alice@evil.example"), &[]).unwrap_err();
        assert!(err.starts_with("subject emailAddress"), "{err}");
        let s = state(&[], &[email("evil.example")]);
        assert!(leaf(&s, &subject("alice@evil.example"), &[]).is_err());
    }

    #[test]
    fn ip_addresses() {
        let s = state(&[ip(&[192, 0, 2, 0, 255, 255, 255, 0])], &[]);
        assert!(one(&s, ip(&[192, 0, 2, 200])).is_ok());
        let err = one(&s, ip(&[198, 51, 100, 1])).unwrap_err();
        assert!(err.contains("iPAddress 198.51.100.1"), "{err}");
        assert!(err.contains("iPAddress 192.0.2.0/24"), "{err}");
        // An IPv4 subtree never covers an IPv6 address, so an IPv6 name is outside the
        // permitted iPAddress subtrees.
        let mut v6 = [0u8; 16];
        v6[..4].copy_from_slice(&[0x20, 0x01, 0x0d, 0xb8]);
        v6[15] = 1;
        assert!(one(&s, ip(&v6)).is_err());
        // …and an excluded IPv4 everything does not exclude IPv6 names.
        let s = state(&[], &[ip(&[0; 8])]);
        assert!(one(&s, ip(&v6)).is_ok());
        assert!(one(&s, ip(&[10, 0, 0, 1])).is_err());
        // IPv6 with a /32.
        let mut net = [0u8; 32];
        net[..4].copy_from_slice(&[0x20, 0x01, 0x0d, 0xb8]);
        net[16..20].copy_from_slice(&[0xff; 4]);
        let s = state(&[ip(&net)], &[]);
        assert!(one(&s, ip(&v6)).is_ok());
        v6[3] = 0xb9;
        assert!(one(&s, ip(&v6)).is_err());
    }

    #[test]
    fn directory_names() {
        let org = name(&[
            (oids::AT_COUNTRY, tag::PRINTABLE_STRING, "US"),
            (
                oids::AT_ORGANIZATION,
                tag::PRINTABLE_STRING,
                "Example  Corp",
            ),
        ]);
        let s = state(&[dir(&org)], &[]);
        let subject = |o: &str, t: u8| {
            name(&[
                (oids::AT_COUNTRY, tag::PRINTABLE_STRING, "US"),
                (oids::AT_ORGANIZATION, t, o),
                (oids::AT_COMMON_NAME, tag::UTF8_STRING, "leaf"),
            ])
        };
        assert!(leaf(&s, &subject("Example  Corp", tag::PRINTABLE_STRING), &[]).is_ok());
        // §7.1: case, surrounding and repeated spaces, and the string type do not count.
        assert!(leaf(&s, &subject(" EXAMPLE corp ", tag::UTF8_STRING), &[]).is_ok());
        assert!(leaf(&s, &subject("example\tCORP", tag::UTF8_STRING), &[]).is_ok());
        let err = leaf(&s, &subject("Other Corp", tag::UTF8_STRING), &[]).unwrap_err();
        assert!(err.starts_with("subject directoryName"), "{err}");
        // The constraint is a prefix: a shorter name, or one in another order, is out.
        let short = name(&[(oids::AT_COUNTRY, tag::PRINTABLE_STRING, "US")]);
        assert!(leaf(&s, &short, &[]).is_err());
        let reordered = name(&[
            (oids::AT_ORGANIZATION, tag::PRINTABLE_STRING, "Example Corp"),
            (oids::AT_COUNTRY, tag::PRINTABLE_STRING, "US"),
        ]);
        assert!(leaf(&s, &reordered, &[]).is_err());
        // A directoryName in the SAN is checked too; an empty subject is not.
        let outside = dir(&short);
        assert!(leaf(&s, &name(&[]), &[dns("x.example")]).is_ok());
        assert!(leaf(&s, &name(&[]), &[outside]).is_err());
        // Excluded.
        let s = state(&[], &[dir(&org)]);
        assert!(leaf(&s, &subject("example corp", tag::UTF8_STRING), &[]).is_err());
        assert!(leaf(&s, &subject("Example", tag::UTF8_STRING), &[]).is_ok());
    }

    #[test]
    fn multi_valued_rdns_compare_as_sets() {
        let rdn = |first: (Oid, &str), second: (Oid, &str)| {
            let mut w = Writer::new();
            w.sequence(|w| {
                w.set(|w| {
                    for (o, v) in [first, second] {
                        w.sequence(|w| {
                            w.oid(&o);
                            w.utf8_string(v);
                        });
                    }
                });
            });
            w.finish()
        };
        let c = rdn((oids::AT_COMMON_NAME, "a"), (oids::AT_ORG_UNIT, "b"));
        let s = state(&[dir(&c)], &[]);
        assert!(leaf(
            &s,
            &rdn((oids::AT_COMMON_NAME, "A"), (oids::AT_ORG_UNIT, "b")),
            &[]
        )
        .is_ok());
        assert!(leaf(
            &s,
            &rdn((oids::AT_COMMON_NAME, "a"), (oids::AT_ORG_UNIT, "c")),
            &[]
        )
        .is_err());
        assert!(leaf(&s, &cn("a"), &[]).is_err());
    }

    #[test]
    fn uris_by_host() {
        let s = state(&[uri(".example.com"), uri("host.example.org")], &[]);
        for ok in [
            "https://www.example.com/path",
            "https://user:pw@www.example.com:8443/x?y#z",
            "ldap://a.b.example.com",
            "https://HOST.example.org./",
        ] {
            assert!(one(&s, uri(ok)).is_ok(), "{ok}");
        }
        for bad in [
            "https://example.com/",
            "https://sub.host.example.org/",
            "https://www.example.com@evil.example/",
            "https://evil.example/www.example.com",
            "https://evil.example?.example.com",
        ] {
            assert!(one(&s, uri(bad)).is_err(), "{bad}");
        }
        // No host, an IP literal, or a malformed one: nothing to compare, so it fails.
        for bad in [
            "urn:isbn:0451450523",
            "mailto:a@www.example.com",
            "https://[2001:db8::1]/",
            "https://192.0.2.1/",
            "https://www.example.com:80x/",
            "https:///path",
            "://www.example.com",
            "",
        ] {
            let err = one(&s, uri(bad)).unwrap_err();
            assert!(err.contains("no host name"), "{bad}: {err}");
        }
        let s = state(&[], &[uri(".evil.example")]);
        assert!(one(&s, uri("https://a.evil.example/")).is_err());
        assert!(one(&s, uri("https://good.example/")).is_ok());
    }

    #[test]
    fn successive_cas_narrow() {
        let mut s = state(&[dns("example.com")], &[]);
        add(&mut s, "CA 2", &[dns(".eng.example.com")], &[]);
        assert!(one(&s, dns("a.eng.example.com")).is_ok());
        let err = one(&s, dns("a.example.com")).unwrap_err();
        assert!(err.contains("CN=CA 2"), "{err}");
        // The second CA cannot widen what the first permitted.
        let mut s = state(&[dns("example.com")], &[]);
        add(
            &mut s,
            "CA 2",
            &[dns("example.com"), dns("example.org")],
            &[],
        );
        assert!(one(&s, dns("www.example.com")).is_ok());
        let err = one(&s, dns("www.example.org")).unwrap_err();
        assert!(err.contains("CN=CA 1"), "{err}");
        // Disjoint sets leave no DNS name permitted.
        let mut s = state(&[dns("a.example")], &[]);
        add(&mut s, "CA 2", &[dns("b.example")], &[]);
        assert!(one(&s, dns("a.example")).is_err());
        assert!(one(&s, dns("b.example")).is_err());
        // A CA constraining another form leaves DNS as it was.
        let mut s = state(&[dns("example.com")], &[]);
        add(
            &mut s,
            "CA 2",
            &[ip(&[10, 0, 0, 0, 255, 0, 0, 0])],
            &[dns("x.example.com")],
        );
        assert!(one(&s, dns("www.example.com")).is_ok());
        assert!(one(&s, dns("www.example.org")).is_err());
        assert!(one(&s, dns("x.example.com")).is_err());
        assert!(one(&s, ip(&[10, 1, 2, 3])).is_ok());
        assert!(one(&s, ip(&[11, 1, 2, 3])).is_err());
    }

    #[test]
    fn common_name_as_host_name_without_dns_sans() {
        let s = state(&[dns("example.com")], &[]);
        assert!(leaf(&s, &cn("www.example.com"), &[]).is_ok());
        let err = leaf(&s, &cn("www.evil.example"), &[]).unwrap_err();
        assert!(err.starts_with("subject commonName"), "{err}");
        assert!(leaf(&s, &cn("*.evil.example"), &[]).is_err());
        // A CN that is no host name is left alone.
        assert!(leaf(&s, &cn("Example Server"), &[]).is_ok());
        assert!(leaf(&s, &cn("localhost"), &[]).is_ok());
        // With a dNSName in the SAN, the CN is not read as one.
        assert!(leaf(&s, &cn("www.evil.example"), &[dns("www.example.com")]).is_ok());
        // Nor with a SAN of any other form: an IP-only leaf is not judged by its CN.
        let s = state(&[], &[dns("localhost")]);
        assert!(leaf(&s, &cn("test.localhost"), &[ip(&[127, 0, 0, 1])]).is_ok());
        // And never under webpki.
        let s = state(&[dns("example.com")], &[]);
        let der = cert(&cn("www.evil.example"), &[]);
        assert!(s
            .check(&Certificate::from_der(&der).unwrap(), Rules::WebPki)
            .is_ok());
    }

    /// The error `update` gives for a CA with these subtrees under `rules`.
    fn refused(permitted: &[Vec<u8>], excluded: &[Vec<u8>], rules: Rules) -> Option<NcError> {
        let der = cert(&cn("CA"), &[name_constraints(permitted, excluded)]);
        NameConstraintState::new()
            .update(&Certificate::from_der(&der).unwrap(), rules)
            .err()
    }

    #[test]
    fn invalid_constraints_are_refused() {
        let invalid =
            |p: &[Vec<u8>], e: &[Vec<u8>], r| matches!(refused(p, e, r), Some(NcError::Invalid(_)));
        // IP: non-contiguous mask, bits past the mask, a wrong length.
        assert!(invalid(
            &[],
            &[ip(&[192, 0, 2, 0, 255, 0, 255, 0])],
            Rules::Rfc5280
        ));
        assert!(invalid(
            &[ip(&[192, 0, 2, 1, 255, 255, 255, 0])],
            &[],
            Rules::Rfc5280
        ));
        assert!(refused(&[ip(&[192, 0, 2, 0, 255])], &[], Rules::Rfc5280).is_some());
        assert!(refused(&[ip(&[192, 0, 2, 0, 255, 255, 255, 0])], &[], Rules::WebPki).is_none());
        // Email: not a mailbox, host or domain.
        assert!(invalid(&[email("a@b@example.com")], &[], Rules::Rfc5280));
        assert!(invalid(&[email("exa mple.com")], &[], Rules::Rfc5280));
        assert!(refused(&[email(".example.com")], &[], Rules::Rfc5280).is_none());
        // DNS: wildcards and leading periods are refused under webpki only.
        assert!(invalid(&[dns("*.example.com")], &[], Rules::WebPki));
        assert!(invalid(&[], &[dns(".example.com")], Rules::WebPki));
        assert!(refused(&[dns(".example.com")], &[], Rules::Rfc5280).is_none());
        assert!(refused(&[dns("example.com")], &[], Rules::WebPki).is_none());
        // Under rfc5280 too, a malformed DNS or URI subtree is refused rather than read
        // as excluding nothing.
        assert!(invalid(&[], &[dns("*.evil.example")], Rules::Rfc5280));
        assert!(invalid(&[], &[dns("evil .example")], Rules::Rfc5280));
        assert!(invalid(&[], &[uri("http://evil.example")], Rules::Rfc5280));
        assert!(refused(&[uri(".example.com")], &[], Rules::Rfc5280).is_none());
        // Empty constraints cover every name of their form.
        for empty in [dns(""), email(""), uri("")] {
            assert!(refused(&[empty], &[], Rules::WebPki).is_none());
        }
    }

    #[test]
    fn comparisons_are_bounded() {
        let subtrees: Vec<Vec<u8>> = (0..600).map(|i| dns(&format!("n{i}.example"))).collect();
        let s = state(&subtrees, &[]);
        let sans: Vec<Vec<u8>> = (0..600).map(|i| dns(&format!("h{i}.example"))).collect();
        let der = cert(&name(&[]), &[san(&sans)]);
        let started = std::time::Instant::now();
        let err = s
            .check(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
            .unwrap_err();
        assert!(matches!(err, NcError::Budget(_)), "{err}");
        assert!(started.elapsed().as_secs() < 1);
    }

    #[test]
    fn unprocessable_forms_fail_when_constrained() {
        let s = state(&[other_name()], &[]);
        let err = one(&s, other_name()).unwrap_err();
        assert!(err.contains("otherName"), "{err}");
        assert!(err.contains("cannot compare"), "{err}");
        // Names of other forms are unaffected.
        assert!(one(&s, dns("example.com")).is_ok());
        let s = state(&[], &[gn_registered_id()]);
        assert!(one(&s, gn_registered_id()).is_err());
        // In a non-critical extension such a constraint is ignored.
        let mut subtree = Writer::new();
        subtree.sequence(|w| {
            w.raw(&other_name());
        });
        let ext = raw_name_constraints(&[subtree.finish()], &[], false);
        let der = cert(&cn("CA"), &[ext]);
        let mut s = NameConstraintState::new();
        s.update(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
            .unwrap();
        assert!(s.is_unconstrained());
        assert!(one(&s, other_name()).is_ok());
    }

    fn gn_registered_id() -> Vec<u8> {
        crate::pki::verify::testcert::gn(0x88, Oid::new("1.2.3.4").as_bytes())
    }

    #[test]
    fn minimum_and_maximum_are_refused() {
        let subtree = |extra: &[u8]| {
            let mut w = Writer::new();
            w.sequence(|w| {
                w.raw(&dns("example.com"));
                w.raw(extra);
            });
            w.finish()
        };
        for extra in [&[0x80, 0x01, 0x01][..], &[0x81, 0x01, 0x00]] {
            let ext = raw_name_constraints(&[], &[subtree(extra)], true);
            let der = cert(&cn("CA"), &[ext]);
            let Err(NcError::Malformed(err)) = NameConstraintState::new()
                .update(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
            else {
                panic!("a minimum or maximum was taken in");
            };
            assert_eq!(err.path_string(), "nameConstraints.excludedSubtrees[0]");
            assert!(err.message().contains("minimum 0"), "{err}");
        }
    }

    #[test]
    fn malformed_extensions_are_errors() {
        // An empty NameConstraints SEQUENCE.
        let der = cert(
            &cn("CA"),
            &[(oids::CE_NAME_CONSTRAINTS, true, vec![0x30, 0x00])],
        );
        let c = Certificate::from_der(&der).unwrap();
        assert!(NameConstraintState::new()
            .update(&c, Rules::Rfc5280)
            .is_err());
        // A broken SAN under a constraint fails the check.
        let s = state(&[dns("example.com")], &[]);
        let (oid, _, _) = san(&[]);
        let der = cert(&cn("x"), &[(oid, false, vec![0x30, 0x02, 0x89, 0x00])]);
        let err = s
            .check(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
            .unwrap_err()
            .to_string();
        assert!(err.contains("subjectAltName"), "{err}");
    }
}
