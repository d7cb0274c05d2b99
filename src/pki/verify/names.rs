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
        if let Ok(ip) = Self::parse_ip_text(s) {
            return Ok(ip);
        }
        if s.contains('@') {
            return Self::parse_email_text(s);
        }
        Self::parse_dns_text(s)
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
/// ([`super::constraints`]), so a CN beside, say, an IP SAN would name a host no
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
mod tests {
    use super::*;
    use crate::testcert::{self as tc, cert, dns, email, ip, san, uri, utf8_name};
    use std::net::Ipv6Addr;

    fn cn(v: &str) -> Vec<u8> {
        utf8_name(&[(oids::AT_COMMON_NAME, v)])
    }

    /// Whether a certificate with these SANs (and subject CN `subject_cn`) matches `id`.
    fn check(sans: &[Vec<u8>], subject_cn: &str, id: Identity<'_>, fallback: bool) -> bool {
        let exts = if sans.is_empty() {
            vec![]
        } else {
            vec![san(sans)]
        };
        let der = cert(&cn(subject_cn), &exts);
        let c = Certificate::from_der(&der).unwrap();
        let rules = if fallback {
            Rules::Rfc5280
        } else {
            Rules::WebPki
        };
        matches(&c, &id, rules).unwrap()
    }

    fn host(sans: &[&str], reference: &str) -> bool {
        let sans: Vec<Vec<u8>> = sans.iter().map(|s| dns(s)).collect();
        let id = Identity::parse_dns(reference).unwrap();
        check(&sans, "unrelated", id, false)
    }

    #[test]
    fn exact_case_insensitive_and_trailing_dots() {
        assert!(host(&["www.example.com"], "www.example.com"));
        assert!(host(&["WWW.Example.COM"], "www.example.com"));
        assert!(host(&["www.example.com"], "WWW.EXAMPLE.com"));
        assert!(host(&["www.example.com."], "www.example.com"));
        assert!(host(&["www.example.com"], "www.example.com."));
        assert!(host(&["www.example.com."], "www.example.com."));
        assert!(!host(&["www.example.com.."], "www.example.com"));
        assert!(!host(&["example.com"], "www.example.com"));
        assert!(!host(&["www.example.com"], "example.com"));
        assert!(!host(&["www.example.co"], "www.example.com"));
        // Any one of several SANs.
        assert!(host(&["a.example", "b.example", "c.example"], "b.example"));
    }

    #[test]
    fn wildcards() {
        assert!(host(&["*.example.com"], "a.example.com"));
        assert!(host(&["*.EXAMPLE.com"], "A.example.COM"));
        assert!(host(&["*.example.com."], "a.example.com"));
        assert!(!host(&["*.example.com"], "example.com"));
        assert!(!host(&["*.example.com"], "a.b.example.com"));
        // Only the whole leftmost label.
        assert!(!host(&["f*.example.com"], "foo.example.com"));
        assert!(!host(&["*o.example.com"], "foo.example.com"));
        assert!(!host(&["a.*.example.com"], "a.b.example.com"));
        assert!(!host(&["*.*.example.com"], "a.b.example.com"));
        assert!(!host(&["**.example.com"], "a.example.com"));
        // Not over a single label.
        assert!(!host(&["*.com"], "example.com"));
        assert!(!host(&["*.com."], "example.com"));
        assert!(!host(&["*"], "localhost"));
        assert!(!host(&["*."], "localhost"));
        // The reference is never a pattern.
        assert!(Identity::parse_dns("*.example.com").is_err());
    }

    /// Under webpki a wildcard over a public suffix matches nothing, but the other SANs
    /// of the same certificate still do (BR §3.2.2.6; Chrome's behaviour).
    #[test]
    fn public_suffix_wildcards_match_nothing_under_webpki() {
        let sans = [dns("*.co.uk"), dns("www.example.co.uk")];
        let web = |r: &str| check(&sans, "x", Identity::Dns(r), false);
        let rfc = |r: &str| check(&sans, "x", Identity::Dns(r), true);
        assert!(!web("foo.co.uk"));
        assert!(web("www.example.co.uk"));
        assert!(rfc("foo.co.uk"));
        assert!(!check(
            &[dns("*.s3.amazonaws.com")],
            "x",
            Identity::Dns("a.s3.amazonaws.com"),
            false
        ));
        assert!(check(
            &[dns("*.example.co.uk")],
            "x",
            Identity::Dns("a.example.co.uk"),
            false
        ));
    }

    #[test]
    fn a_labels() {
        // IDNs compare in their ASCII form, case-insensitively.
        assert!(host(&["xn--bcher-kva.example"], "XN--BCHER-KVA.example"));
        assert!(host(
            &["*.xn--bcher-kva.example"],
            "shop.xn--bcher-kva.example"
        ));
        // A wildcard inside an A-label is no wildcard.
        assert!(!host(&["xn--*.example.com"], "xn--bcher-kva.example.com"));
        assert!(!host(
            &["xn--bcher-*.example.com"],
            "xn--bcher-kva.example.com"
        ));
        // U-labels are refused as references; in a SAN they match nothing.
        assert!(Identity::parse_dns("bücher.example").is_err());
    }

    #[test]
    fn hostile_presented_names_never_match() {
        for p in [
            "",
            ".",
            "*",
            "*.",
            "..",
            ".example.com",
            "www..example.com",
            "www.example.com\0.evil",
            "www.example.com\0",
            " www.example.com",
            "www.example.com ",
        ] {
            assert!(!host(&[p], "www.example.com"), "{p:?}");
        }
        let long = format!("{}.example.com", "a".repeat(5000));
        assert!(!host(&[&long], "www.example.com"));
        let many = "a.".repeat(3000) + "example.com";
        assert!(!host(&[&many], "a.example.com"));
        // A non-ASCII byte makes the IA5String invalid: an error, not a match.
        let der = cert(&cn("x"), &[san(&[tc::gn(0x82, b"www.\xffexample.com")])]);
        let c = Certificate::from_der(&der).unwrap();
        assert!(matches(&c, &Identity::Dns("www.example.com"), Rules::Rfc5280).is_err());
        // An identity built by hand that the parser refuses matches nothing.
        assert!(!check(&[dns("*")], "x", Identity::Dns("*"), true));
        assert!(!check(&[dns("")], "x", Identity::Dns(""), true));
        assert!(!check(&[dns("a..b")], "x", Identity::Dns("a..b"), true));
    }

    #[test]
    fn reference_host_names() {
        assert_eq!(
            Identity::parse_dns("Example.COM.").unwrap(),
            Identity::Dns("Example.COM")
        );
        assert!(Identity::parse_dns("_srv.example.com").is_ok());
        for bad in [
            "",
            ".",
            "a..b",
            ".a.b",
            "a.b..",
            "a b.example",
            "a\0.example",
            "-a.example",
            "a-.example",
            "192.0.2.1",
            "a/b",
        ] {
            assert!(Identity::parse_dns(bad).is_err(), "{bad:?}");
        }
        assert!(Identity::parse_dns(&"a".repeat(64)).is_err());
        assert!(Identity::parse_dns(&"a".repeat(63)).is_ok());
        let too_long = vec!["a".repeat(63); 4].join(".");
        assert!(Identity::parse_dns(&too_long).is_err());
    }

    #[test]
    fn parse_picks_the_kind() {
        assert_eq!(
            Identity::parse("192.0.2.1").unwrap(),
            Identity::Ip("192.0.2.1".parse().unwrap())
        );
        assert_eq!(
            Identity::parse("[2001:db8::1]").unwrap(),
            Identity::Ip("2001:db8::1".parse().unwrap())
        );
        assert_eq!(
            Identity::parse("a@example.com").unwrap(),
            Identity::Email("a@example.com")
        );
        assert_eq!(
            Identity::parse("example.com").unwrap(),
            Identity::Dns("example.com")
        );
        assert!(Identity::parse("a@").is_err());
        assert!(Identity::parse("@example.com").is_err());
        assert!(Identity::parse("a b@example.com").is_err());
        assert!(Identity::parse("[example.com]").is_err());
    }

    #[test]
    fn cn_fallback_only_without_sans() {
        let id = Identity::Dns("www.example.com");
        // No SAN at all: the CN counts only with the fallback.
        assert!(check(&[], "www.example.com", id, true));
        assert!(!check(&[], "www.example.com", id, false));
        assert!(check(&[], "*.example.com", id, true));
        assert!(!check(&[], "example.com", id, true));
        // SANs of other types stop the fallback too: the CN would escape name
        // constraints, which read it only when there is no SAN.
        assert!(!check(&[ip(&[192, 0, 2, 1])], "www.example.com", id, true));
        // A DNS SAN does, even when it does not match.
        assert!(!check(
            &[dns("other.example.com")],
            "www.example.com",
            id,
            true
        ));
        // A single-label CN names no host (name constraints would not read it as one).
        assert!(!check(&[], "localhost", Identity::Dns("localhost"), true));
        // Every CN is tried.
        let subject = utf8_name(&[
            (oids::AT_COMMON_NAME, "Example Server"),
            (oids::AT_COMMON_NAME, "www.example.com"),
        ]);
        let der = cert(&subject, &[]);
        let c = Certificate::from_der(&der).unwrap();
        assert!(matches(&c, &id, Rules::Rfc5280).unwrap());
        // A CN that is not a string does not match and is no error.
        let mut w = crate::der::Writer::new();
        w.sequence(|w| {
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(&oids::AT_COMMON_NAME);
                    w.integer_u64(7);
                });
            });
        });
        let der = cert(&w.finish(), &[]);
        let c = Certificate::from_der(&der).unwrap();
        assert!(!matches(&c, &id, Rules::Rfc5280).unwrap());
    }

    #[test]
    fn ip_addresses() {
        let v4 = Identity::parse_ip("192.0.2.1").unwrap();
        let v6 = Identity::parse_ip("2001:db8::1").unwrap();
        let v6_bytes = "2001:db8::1".parse::<Ipv6Addr>().unwrap().octets();
        assert!(check(&[ip(&[192, 0, 2, 1])], "x", v4, false));
        assert!(!check(&[ip(&[192, 0, 2, 2])], "x", v4, false));
        assert!(check(&[ip(&v6_bytes)], "x", v6, false));
        assert!(!check(&[ip(&[192, 0, 2, 1])], "x", v6, false));
        // An IPv4-mapped IPv6 address is a different name.
        let mapped = "::ffff:192.0.2.1".parse::<Ipv6Addr>().unwrap().octets();
        assert!(!check(&[ip(&mapped)], "x", v4, false));
        // Never a DNS name or the CN, fallback or not.
        assert!(!check(&[dns("192.0.2.1")], "192.0.2.1", v4, true));
        assert!(!check(&[], "192.0.2.1", v4, true));
        assert!(!check(&[uri("https://192.0.2.1/")], "x", v4, true));
    }

    #[test]
    fn email_addresses() {
        let id = Identity::parse_email("Alice@Example.COM").unwrap();
        assert!(check(&[email("Alice@example.com")], "x", id, false));
        assert!(check(&[email("Alice@EXAMPLE.com.")], "x", id, false));
        // The local part is case-sensitive.
        assert!(!check(&[email("alice@example.com")], "x", id, false));
        assert!(!check(&[email("Alice@other.example")], "x", id, false));
        // Host-only and hostile values match nothing.
        for p in [
            "example.com",
            "@example.com",
            "Alice@",
            "",
            "@",
            "Alice@example.com\0",
        ] {
            assert!(!check(&[email(p)], "x", id, false), "{p:?}");
        }
        // Not a DNS name, not the CN.
        assert!(!check(
            &[dns("Alice@Example.COM")],
            "Alice@Example.COM",
            id,
            true
        ));
        // The subject's emailAddress only with the fallback, only without rfc822Names.
        let subject = tc::name(&[
            (oids::AT_COMMON_NAME, crate::der::tag::UTF8_STRING, "Alice"),
            (
                oids::AT_EMAIL,
                crate::der::tag::IA5_STRING,
                "Alice@example.com",
            ),
        ]);
        let der = cert(&subject, &[]);
        let c = Certificate::from_der(&der).unwrap();
        assert!(matches(&c, &id, Rules::Rfc5280).unwrap());
        assert!(!matches(&c, &id, Rules::WebPki).unwrap());
        let der = cert(&subject, &[san(&[email("bob@example.com")])]);
        let c = Certificate::from_der(&der).unwrap();
        assert!(!matches(&c, &id, Rules::Rfc5280).unwrap());
    }

    #[test]
    fn malformed_subject_alt_name_is_an_error() {
        let (oid, critical, _) = san(&[]);
        // A SEQUENCE holding a [9] element, which is no GeneralName.
        let der = cert(&cn("x"), &[(oid, critical, vec![0x30, 0x02, 0x89, 0x00])]);
        let c = Certificate::from_der(&der).unwrap();
        let err = matches(&c, &Identity::Dns("x.example"), Rules::WebPki).unwrap_err();
        assert!(err.path_string().starts_with("subjectAltName"), "{err:?}");
        // An empty GeneralNames is malformed too (SIZE (1..MAX)).
        let der = cert(&cn("x"), &[san(&[])]);
        let c = Certificate::from_der(&der).unwrap();
        assert!(matches(&c, &Identity::Dns("x.example"), Rules::Rfc5280).is_err());
    }
}
