//! The names a TLS certificate may certify (BR §7.1.2.7.12, §7.1.4): subjectAltName
//! present and of DNS names and IP addresses only, each DNS name well formed and not an
//! Internal Name, no reserved IP address, and a commonName that repeats one of them.

use super::{br, tls, CORE, FULL};
use crate::der::oid_registry as oids;
use crate::finding::Level;
use crate::rule::Lint;
use pkit_x509::dns_name::{self, DnsNameError};
use pkit_x509::ext::GeneralName;
use std::collections::HashSet;
use std::net::IpAddr;

/// A DNS name as §7.1.2.7.12 wants it: LDH labels (a wildcard only as the whole first
/// label), 1–63 octets each, at most 253 in all, no empty labels
/// ([`dns_name::check`]). Why not, when not.
pub(crate) fn dns_name_problem(name: &str) -> Option<&'static str> {
    let n = name.strip_suffix('.').unwrap_or(name);
    let syntax = dns_name::Syntax {
        wildcard: true,
        underscore: false,
    };
    dns_name::check(n, syntax).err().map(|e| match e {
        DnsNameError::Empty | DnsNameError::TooLong => "is empty or longer than 253 octets",
        DnsNameError::EmptyLabel | DnsNameError::LabelTooLong => {
            "has an empty label or one longer than 63 octets"
        }
        DnsNameError::Wildcard => "has a wildcard other than a whole leftmost label",
        DnsNameError::Character(_) => "has a character other than a letter, digit or hyphen",
        DnsNameError::Hyphen => "has a label that starts or ends with a hyphen",
    })
}

/// An address IANA reserves (private, loopback, link-local, documentation, …).
fn reserved_ip(ip: &IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => {
            a.is_private()
                || a.is_loopback()
                || a.is_link_local()
                || a.is_unspecified()
                || a.is_broadcast()
                || a.is_documentation()
                || a.octets()[0] >= 240
                || (a.octets()[0] == 100 && (64..128).contains(&a.octets()[1]))
        }
        IpAddr::V6(a) => {
            let s = a.segments();
            a.is_loopback()
                || a.is_unspecified()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || (s[0] == 0x2001 && s[1] == 0x0db8)
        }
    }
}

const SAN: &str = "tbsCertificate.extensions.subjectAltName";

/// The rules of this file.
pub(crate) static LINTS: &[Lint] = &[
    br(
        "e_cabf_san_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        CORE,
        tls,
        |c, r| {
            if c.dns_or_ip_sans() == 0 {
                r.report(
                "tbsCertificate.extensions",
                c.extensions_offset(),
                "a TLS certificate must name its hosts in subjectAltName (dNSName or iPAddress)",
            );
            }
        },
    ),
    br(
        "e_cabf_san_forbidden_type",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        CORE,
        tls,
        |c, r| {
            for n in c.sans() {
                if !matches!(n, GeneralName::DnsName(_) | GeneralName::IpAddress(_)) {
                    r.report(
                        SAN,
                        c.offset_of(&oids::CE_SUBJECT_ALT_NAME),
                        format!(
                            "a {} name: only dNSName and iPAddress are allowed",
                            n.kind()
                        ),
                    );
                }
            }
        },
    ),
    br(
        "e_cabf_dns_name_malformed",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        CORE,
        tls,
        |c, r| {
            for n in c.sans() {
                if let GeneralName::DnsName(d) = n {
                    if let Some(why) = dns_name_problem(d) {
                        r.report(
                            SAN,
                            c.offset_of(&oids::CE_SUBJECT_ALT_NAME),
                            format!("{d:?} {why}"),
                        );
                    }
                }
            }
        },
    ),
    br(
        "e_cabf_cn_not_in_san",
        Level::Error,
        "CA/B Forum TLS BR §7.1.4.3",
        FULL,
        tls,
        |c, r| {
            // From BR 1.8.0 (SC48, 2021-08-25) byte for byte, an address in its
            // canonical text (dotted decimal, RFC 5952); before, any spelling of one of
            // the names.
            let exact = c.at >= const { crate::dates::date("2021-08-25") };
            // The SANs a commonName may be, as sets: one look-up per name (a scan per
            // name made a hostile certificate's many names a quadratic cost).
            let (mut dns, mut ips) = (HashSet::new(), HashSet::new());
            for n in c.sans() {
                match n {
                    GeneralName::DnsName(d) if exact => {
                        dns.insert(d.to_string());
                    }
                    GeneralName::DnsName(d) => {
                        dns.insert(d.to_ascii_lowercase());
                    }
                    GeneralName::IpAddress(ip) => {
                        if let Some(a) = ip.address() {
                            ips.insert(a);
                        }
                    }
                    _ => {}
                }
            }
            for cn in c.common_names() {
                let found = if exact {
                    // An address byte for byte in its canonical text.
                    dns.contains(&cn)
                        || cn
                            .parse::<IpAddr>()
                            .is_ok_and(|b| ips.contains(&b) && b.to_string() == cn)
                } else {
                    dns.contains(&cn.to_ascii_lowercase())
                        || cn.parse::<IpAddr>().is_ok_and(|b| ips.contains(&b))
                };
                if !found {
                    r.report(
                        "tbsCertificate.subject",
                        c.cert.subject.offset,
                        if exact {
                            format!(
                                "commonName {cn:?} is not, byte for byte, one of the \
                                 subjectAltName entries"
                            )
                        } else {
                            format!("commonName {cn:?} is not one of the subjectAltName entries")
                        },
                    );
                }
            }
        },
    ),
    br(
        "e_cabf_internal_name",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        FULL,
        tls,
        |c, r| {
            for n in c.sans() {
                if let GeneralName::DnsName(d) = n {
                    if dns_name_problem(d).is_none() && dns_name::is_internal_name(d) {
                        r.report(
                            SAN,
                            c.offset_of(&oids::CE_SUBJECT_ALT_NAME),
                            format!(
                                "{d:?} is an internal name: its top-level domain is not in the \
                                 Public Suffix List"
                            ),
                        );
                    }
                }
            }
        },
    )
    .since("2015-11-01", "BR 1.x §7.1.4.2.1"),
    br(
        "e_cabf_ip_reserved",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        FULL,
        tls,
        |c, r| {
            for n in c.sans() {
                if let GeneralName::IpAddress(ip) = n {
                    if let Some(a) = ip.address().filter(reserved_ip) {
                        r.report(
                            SAN,
                            c.offset_of(&oids::CE_SUBJECT_ALT_NAME),
                            format!("{a} is a reserved address"),
                        );
                    }
                }
            }
        },
    )
    .since("2015-11-01", "BR 1.x §7.1.4.2.1"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_names_and_addresses() {
        assert!(dns_name_problem("www.example.com").is_none());
        assert!(dns_name_problem("*.example.com").is_none());
        assert!(dns_name_problem("app.internal").is_none());
        assert!(dns_name_problem("a_b.example.com").is_some());
        assert!(dns_name_problem("w*.example.com").is_some());
        assert!(dns_name_problem("-a.example").is_some());
        assert!(dns_name_problem("a..example").is_some());
        assert!(dns_name::is_internal_name("app.internal"));
        assert!(dns_name::is_internal_name("localhost"));
        assert!(dns_name::is_internal_name("*.corp."));
        assert!(!dns_name::is_internal_name("www.example.com"));
        assert!(!dns_name::is_internal_name("*.example.co.uk"));
        assert!(!dns_name::is_internal_name("example.com."));
        assert!(!dns_name::is_internal_name("x.onion"));
        assert!(reserved_ip(&"10.1.2.3".parse().unwrap()));
        assert!(reserved_ip(&"fd00::1".parse().unwrap()));
        assert!(!reserved_ip(&"8.8.8.8".parse().unwrap()));
    }
}
