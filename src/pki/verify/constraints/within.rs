//! The comparison rules of RFC 5280 §4.2.1.10, one per name form: whether a name lies
//! within a subtree's base (dNSName label by label, rfc822Name by mailbox, host or
//! domain, URI by its host, iPAddress under the mask, directoryName RDN by RDN).

use super::super::{dn, mailbox, names};
use super::base::Base;
use pkit_x509::ext::GeneralName;
use pkit_x509::name::Name;

/// Whether `n` lies within `base` (same form, which the caller has made sure of).
/// `excluding`: for an excluded subtree, a wildcard dNSName is within it when any name
/// the wildcard stands for would be. Err: the name cannot be compared with the
/// constraint (malformed, or a form pkit does not process), which fails the check
/// either way.
pub(super) fn within(n: &GeneralName<'_>, base: &Base, excluding: bool) -> Result<bool, String> {
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
        (GeneralName::IpAddress(a), Base::Ip(c)) => ip_within(a.bytes, c),
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
/// or (leading dot) a domain. A name that is not a mailbox (RFC 5321 §4.1.2, see
/// [`mailbox`]) cannot be placed, so it fails permitted and excluded subtrees alike. An
/// SmtpUTF8Mailbox comes here too: its UTF-8 local part never equals a constraint's
/// ASCII one (RFC 8398 §6), and its domain compares when it is in A-labels.
fn email_within(name: &str, c: &str) -> Result<bool, String> {
    let (local, host) =
        mailbox::parse(name).map_err(|why| format!("is not a mailbox: it {why}"))?;
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
/// constraint's address under it; an IPv4 constraint never covers an IPv6 address. A
/// SAN iPAddress is 4 octets or 16 (§4.2.1.6); any other length (an address and mask,
/// as a constraint has) is no address and fails permitted and excluded subtrees alike.
fn ip_within(addr: &[u8], c: &[u8]) -> Result<bool, String> {
    if addr.len() != 4 && addr.len() != 16 {
        return Err(format!(
            "is {} octets, not an IPv4 (4) or IPv6 (16) address",
            addr.len()
        ));
    }
    if c.len() != 2 * addr.len() {
        return Ok(false);
    }
    let (net, mask) = c.split_at(addr.len());
    Ok(addr
        .iter()
        .zip(net)
        .zip(mask)
        .all(|((a, n), m)| a & m == n & m))
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
