//! Whether a certificate is valid for the name a relying party expects: a host name, an
//! IP address or an email address (RFC 6125, as replaced by RFC 9525), matched against
//! the subjectAltName entries of that type.
//!
//! Host names compare as ASCII without regard to case, a trailing dot ignored on either
//! side; internationalised names are compared in their A-label (`xn--`) form, which is
//! what certificates carry. A presented `*` is a wildcard only as the whole leftmost
//! label of a name with at least two labels after it, and then stands for exactly one
//! label: RFC 9525 §6.3 allows no more, and the two-label floor keeps a certificate from
//! claiming a whole top-level domain. IP addresses match iPAddress entries octet for
//! octet and never a host name. Mailboxes compare their local part exactly (RFC 5321
//! §2.4 leaves its case to the receiving host) and their domain without regard to case.

use crate::der::oid_registry as oids;
use crate::der::{Error, ErrorKind};
use crate::rules::Rules;
use pkit_x509::cert::Certificate;
use pkit_x509::dns_name;
use pkit_x509::ext::{self, ExtensionValue, GeneralName};
use std::net::{IpAddr, Ipv4Addr};

/// The name a relying party expects the certificate to carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity<'a> {
    /// A host name (the parsers drop a trailing dot).
    Dns(&'a str),
    /// An IP address, matched only against iPAddress entries.
    Ip(IpAddr),
    /// `local@domain`.
    Email(&'a str),
}

/// Why a name given to match against is not one: what was given and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidIdentity(pub String);

impl std::fmt::Display for InvalidIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidIdentity {}

impl<'a> Identity<'a> {
    /// What a user typed: an IP address when it reads as one (IPv6 optionally in
    /// brackets), a mailbox when it holds an `@`, else a host name.
    pub fn parse(s: &'a str) -> Result<Self, InvalidIdentity> {
        Self::parse_text(s).map_err(InvalidIdentity)
    }

    fn parse_text(s: &'a str) -> Result<Self, String> {
        if s.contains('@') && Self::parse_ip_text(s).is_err() {
            return Self::parse_email_text(s);
        }
        Self::parse_host_text(s)
    }

    /// A host as a server is named (`--hostname`, a `--connect` target): an IP address
    /// when it reads as one (IPv6 optionally in brackets, `[::1]`), matched against
    /// iPAddress entries, else a host name ([`Identity::parse_dns`]).
    pub fn parse_host(s: &'a str) -> Result<Self, InvalidIdentity> {
        Self::parse_host_text(s).map_err(InvalidIdentity)
    }

    fn parse_host_text(s: &'a str) -> Result<Self, String> {
        match Self::parse_ip_text(s) {
            Ok(ip) => Ok(ip),
            Err(_) => Self::parse_dns_text(s),
        }
    }

    /// A host name: letters, digits, `-` and `_` in labels of 1 to 63 octets, at most
    /// 253 octets in all; one trailing dot is dropped. A dotted-quad IPv4 address is
    /// refused here, since matching it as a host name would compare it with dNSName
    /// entries (use [`Identity::parse_ip`]).
    pub fn parse_dns(s: &'a str) -> Result<Self, InvalidIdentity> {
        Self::parse_dns_text(s).map_err(InvalidIdentity)
    }

    fn parse_dns_text(s: &'a str) -> Result<Self, String> {
        let name = s.strip_suffix('.').unwrap_or(s);
        check_host_name(name).map_err(|why| format!("host name {s:?}: {why}"))?;
        if name.parse::<Ipv4Addr>().is_ok() {
            return Err(format!(
                "host name {s:?}: an IPv4 address, which matches iPAddress entries only"
            ));
        }
        Ok(Identity::Dns(name))
    }

    /// An IPv4 or IPv6 address; an IPv6 address may be written in brackets.
    pub fn parse_ip(s: &str) -> Result<Self, InvalidIdentity> {
        Self::parse_ip_text(s).map_err(InvalidIdentity)
    }

    fn parse_ip_text(s: &str) -> Result<Self, String> {
        let bare = s
            .strip_prefix('[')
            .and_then(|x| x.strip_suffix(']'))
            .unwrap_or(s);
        bare.parse::<IpAddr>()
            .map(Identity::Ip)
            .map_err(|_| format!("{s:?}: expected an IPv4 or IPv6 address"))
    }

    /// A mailbox `local@domain`: the local part printable ASCII without spaces (the
    /// part after the last `@` is the domain), the domain a host name (trailing dot
    /// dropped). Internationalised local parts (RFC 6531) are not accepted.
    pub fn parse_email(s: &'a str) -> Result<Self, InvalidIdentity> {
        Self::parse_email_text(s).map_err(InvalidIdentity)
    }

    fn parse_email_text(s: &'a str) -> Result<Self, String> {
        let trimmed = s.strip_suffix('.').unwrap_or(s);
        let Some((local, domain)) = trimmed.rsplit_once('@') else {
            return Err(format!("email address {s:?}: expected local@domain"));
        };
        if local.is_empty() || !local.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!(
                "email address {s:?}: expected a local part of printable ASCII"
            ));
        }
        check_host_name(domain).map_err(|why| format!("email address {s:?}: domain {why}"))?;
        Ok(Identity::Email(trimmed))
    }
}

/// Host-name syntax (without a trailing dot), as [`Identity::parse_dns`] states it:
/// [`dns_name::check`], underscores allowed (names that carry them are still met in
/// certificates; the `webpki` rules refuse them in SANs on their own).
pub(crate) fn check_host_name(name: &str) -> Result<(), String> {
    let syntax = dns_name::Syntax {
        underscore: true,
        ..dns_name::Syntax::HOST
    };
    dns_name::check(name, syntax).map_err(|e| e.to_string())
}

/// Whether a commonName reads as a host name: host-name syntax (a leading `*.` allowed)
/// with at least two labels. Only such a CN names a host in the `rfc5280` fallback, and
/// only such a CN is held to dNSName constraints ([`super::constraints`]): the two must
/// agree, or a CN could name a host no constraint checked.
pub(crate) fn cn_is_host_name(text: &str) -> bool {
    let bare = text.strip_suffix('.').unwrap_or(text);
    let labels = bare.strip_prefix("*.").unwrap_or(bare);
    bare.contains('.') && check_host_name(labels).is_ok()
}

/// The subjectAltName entries of `cert` (none when it has no such extension). The value
/// is decoded strictly: a malformed one is an error, not an empty list, so that a
/// certificate cannot escape name checks by mangling its names.
pub fn subject_alt_names<'a>(cert: &Certificate<'a>) -> Result<Vec<GeneralName<'a>>, Error> {
    let Some(exts) = cert.extensions else {
        return Ok(Vec::new());
    };
    let Some(e) = exts.find(&oids::CE_SUBJECT_ALT_NAME)? else {
        return Ok(Vec::new());
    };
    match ext::decode(e.oid, e.value, e.value_offset).map_err(|x| x.at("subjectAltName"))? {
        ExtensionValue::SubjectAltName(names) => Ok(names),
        // The decoder table maps this OID to that variant; anything else is a bug that
        // should surface as an error rather than as "no names".
        _ => Err(Error::new(
            e.value_offset,
            ErrorKind::Invalid("expected a subjectAltName value".into()),
        )),
    }
}

/// Whether `cert` is valid for `id` under `rules`.
///
/// Under `rfc5280`, when the certificate has no subjectAltName at all, a host name may
/// match a commonName of the subject; when it has no rfc822Name, a mailbox may match an
/// emailAddress attribute of it (RFC 5280 practice). A certificate with any SAN is not
/// matched by its CN: name constraints read the CN as a dNSName only then
/// (`constraints`), so a CN beside, say, an IP SAN would name a host no
/// constraint checked (BetterTLS's name constraints suite has such chains).
///
/// Under `webpki` there is no such fallback (RFC 9525 §6.2.1 matches the SAN alone),
/// and a wildcard dNSName over a public suffix (`*.co.uk`) matches nothing: the BRs
/// forbid issuing one (§3.2.2.6), so it is taken as a name no CA vouched for. Only that
/// SAN is unusable; another SAN of the same certificate still matches, as Chrome
/// treats such certificates. An IP address never matches anything but an iPAddress
/// entry.
///
/// An identity built directly rather than through the parsers is checked the same
/// way; one that the parsers would refuse matches nothing. Errors are a malformed
/// subjectAltName extension or subject.
pub fn matches(cert: &Certificate<'_>, id: &Identity<'_>, rules: Rules) -> Result<bool, Error> {
    let sans = subject_alt_names(cert)?;
    let cn_fallback = rules == Rules::Rfc5280;
    match *id {
        Identity::Dns(reference) => {
            let Ok(Identity::Dns(reference)) = Identity::parse_dns(reference) else {
                return Ok(false);
            };
            let mut any = false;
            for n in &sans {
                if let GeneralName::DnsName(p) = n {
                    any = true;
                    if rules == Rules::WebPki && dns_name::is_public_suffix_wildcard(p) {
                        continue;
                    }
                    if dns_matches(p, reference) {
                        return Ok(true);
                    }
                }
            }
            if any || !cn_fallback || !sans.is_empty() {
                return Ok(false);
            }
            subject_text_matches(cert, &oids::AT_COMMON_NAME, |cn| {
                cn_is_host_name(cn) && dns_matches(cn, reference)
            })
        }
        Identity::Ip(ip) => {
            let want = match ip {
                IpAddr::V4(a) => a.octets().to_vec(),
                IpAddr::V6(a) => a.octets().to_vec(),
            };
            Ok(sans
                .iter()
                .any(|n| matches!(n, GeneralName::IpAddress(a) if a.bytes == want.as_slice())))
        }
        Identity::Email(reference) => {
            let Ok(Identity::Email(reference)) = Identity::parse_email(reference) else {
                return Ok(false);
            };
            let mut any = false;
            for n in &sans {
                if let GeneralName::Rfc822Name(p) = n {
                    any = true;
                    if email_matches(p, reference) {
                        return Ok(true);
                    }
                }
            }
            if any || !cn_fallback {
                return Ok(false);
            }
            subject_text_matches(cert, &oids::AT_EMAIL, |e| email_matches(e, reference))
        }
    }
}

/// Whether any attribute of type `oid` in the subject, as text, satisfies `f`. A value
/// that does not decode as a string simply does not match.
fn subject_text_matches(
    cert: &Certificate<'_>,
    oid: &crate::der::Oid,
    f: impl Fn(&str) -> bool,
) -> Result<bool, Error> {
    for a in cert.subject.attributes()? {
        if a.oid == *oid && crate::der::string::is_string_tag(a.value_tag) {
            if let Ok(text) = a.text() {
                if f(&text) {
                    return Ok(true);
                }
            }
        }
    }
    Ok(false)
}

/// A presented host name (from the certificate, possibly hostile) against a reference
/// that passed [`check_host_name`] and has no trailing dot.
///
/// Equality with a well-formed reference is all the syntax checking a presented name
/// needs: a NUL, a space, a non-ASCII byte or an empty label can never equal it. The
/// wildcard is the one place where the presented name contributes something the
/// reference does not spell out.
pub(crate) fn dns_matches(presented: &str, reference: &str) -> bool {
    let p = presented.strip_suffix('.').unwrap_or(presented);
    match p.split_once('.') {
        // `*.` followed by at least two labels; the rest must equal the reference
        // without its first label, which the `*` then stands for. A `*` anywhere in
        // the rest makes it unequal to a reference, which has none.
        Some(("*", rest)) => {
            rest.contains('.')
                && reference
                    .split_once('.')
                    .is_some_and(|(_, r)| r.eq_ignore_ascii_case(rest))
        }
        _ => p.eq_ignore_ascii_case(reference),
    }
}

/// A presented rfc822Name against a reference that passed [`Identity::parse_email`].
fn email_matches(presented: &str, reference: &str) -> bool {
    let split = |s: &str| -> Option<(String, String)> {
        let (local, domain) = s.rsplit_once('@')?;
        let domain = domain.strip_suffix('.').unwrap_or(domain);
        Some((local.to_string(), domain.to_ascii_lowercase()))
    };
    match (split(presented), split(reference)) {
        (Some(p), Some(r)) => p == r,
        _ => false,
    }
}

#[cfg(test)]
mod tests;
