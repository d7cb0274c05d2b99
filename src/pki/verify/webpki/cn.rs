//! The `webpki` rule on a leaf's subject commonName (BR §7.1.4.3): a CN that names one
//! of the certificate's subjectAltName values must be that value byte for byte.
//!
//! The BRs ask more of a CA: "If present, this attribute MUST contain exactly one entry
//! that is one of the values contained in the Certificate's subjectAltName extension".
//! A relying party does not read the CN at all (RFC 9525 §6.2.1; Chrome, Go, pyca and
//! rustls-webpki match the SAN alone), so a CN that names nothing in the SAN ("Example
//! Server", or a host the SAN does not list) names nothing it could be fooled by, and
//! is ignored as browsers ignore it. What is refused is a CN that names one of the
//! SANs *in another spelling*: a verifier that still falls back to the CN, or a person
//! reading it, then sees a name that the SAN check compared under a different form,
//! and the BRs' rule that the CN be a character-for-character copy exists for exactly
//! that. The spellings compared:
//!
//! - a dNSName: ASCII case, a trailing dot, and U-labels against the SAN's A-labels
//!   (UTS #46 mapping, as IDNA 2008 registrations read it);
//! - an IPv4 iPAddress: every inet_aton(3) spelling (hex `0xC0A80101`, octal or
//!   decimal leading zeros `192.168.001.001`, fewer than four parts), against RFC 3986
//!   §3.2.2's dotted decimal;
//! - an IPv6 iPAddress: case, leading zeros, an uncompressed or wrongly compressed
//!   form, against RFC 5952 §4's text.

use std::net::{Ipv4Addr, Ipv6Addr};

/// A subjectAltName value the CN may copy, in the form the BRs have it copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum SanValue<'a> {
    /// A dNSName as presented.
    Dns(&'a str),
    /// An iPAddress's octets (4 or 16; other lengths name no address).
    Ip(&'a [u8]),
}

impl SanValue<'_> {
    /// The text a CN must copy: the dNSName itself, or the address in RFC 3986 §3.2.2
    /// (IPv4) or RFC 5952 §4 (IPv6) form.
    fn canonical_text(&self) -> Option<String> {
        match self {
            SanValue::Dns(d) => Some((*d).to_string()),
            SanValue::Ip(b) => match b.len() {
                4 => <[u8; 4]>::try_from(*b)
                    .ok()
                    .map(|a| Ipv4Addr::from(a).to_string()),
                // Rust prints IPv6 as RFC 5952 §4 has it: lowercase, no leading zeros,
                // the longest (first) run of two or more zero groups as `::`.
                16 => <[u8; 16]>::try_from(*b)
                    .ok()
                    .map(|a| Ipv6Addr::from(a).to_string()),
                _ => None,
            },
        }
    }
}

/// Whether `cn` breaks the rule against `sans`: the SAN value it names in another
/// spelling, or `None` when it copies one exactly or names none.
pub(super) fn names_a_san_otherwise<'a>(
    cn: &str,
    sans: &'a [SanValue<'a>],
) -> Option<&'a SanValue<'a>> {
    let texts: Vec<Option<String>> = sans.iter().map(SanValue::canonical_text).collect();
    if texts.iter().flatten().any(|t| t == cn) {
        return None;
    }
    let dns = normalize_dns(cn);
    let v4 = ipv4_readings(cn);
    let v6 = cn.parse::<Ipv6Addr>().ok().map(|a| a.octets());
    sans.iter().find(|san| match san {
        SanValue::Dns(d) => dns
            .as_deref()
            .is_some_and(|c| Some(c) == normalize_dns(d).as_deref()),
        SanValue::Ip(b) => {
            v4.iter().any(|a| a.as_slice() == *b) || v6.is_some_and(|a| a.as_slice() == *b)
        }
    })
}

/// A host name's comparison form: lowercase A-labels without a trailing dot, a leading
/// `*.` kept apart from the IDNA mapping (it is no label IDNA knows). `None` when it
/// is no host name IDNA can map.
fn normalize_dns(name: &str) -> Option<String> {
    let bare = name.strip_suffix('.').unwrap_or(name);
    let (wild, rest) = match bare.strip_prefix("*.") {
        Some(rest) => ("*.", rest),
        None => ("", bare),
    };
    if rest.is_empty() {
        return None;
    }
    let ascii = idna::domain_to_ascii(rest).ok()?;
    Some(format!("{wild}{ascii}"))
}

/// Every IPv4 address `text` can be read as: inet_aton(3)'s reading (one to four parts,
/// `0x` hex, a leading `0` octal, the last part filling the remaining octets), and the
/// plain decimal reading of four parts with leading zeros (`192.168.001.010` is
/// 192.168.1.10 to some parsers, 192.168.1.8 to inet_aton). The CN names the SAN if
/// either reading does.
fn ipv4_readings(text: &str) -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    if let Some(a) = inet_aton(text) {
        out.push(a);
    }
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() == 4 {
        let octets: Option<Vec<u8>> = parts
            .iter()
            .map(|p| {
                if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                p.parse::<u8>().ok()
            })
            .collect();
        if let Some(o) = octets.and_then(|o| <[u8; 4]>::try_from(o).ok()) {
            if !out.contains(&o) {
                out.push(o);
            }
        }
    }
    out
}

/// inet_aton(3): `a.b.c.d`, `a.b.c` (c fills 16 bits), `a.b` (b fills 24), `a` (32
/// bits); each part decimal, `0x` hex or leading-`0` octal.
fn inet_aton(text: &str) -> Option<[u8; 4]> {
    let parts: Vec<u64> = text
        .split('.')
        .map(|p| {
            let (digits, radix) = if let Some(h) = p.strip_prefix("0x").or(p.strip_prefix("0X")) {
                (h, 16)
            } else if p.len() > 1 && p.starts_with('0') {
                (&p[1..], 8)
            } else {
                (p, 10)
            };
            if digits.is_empty() && radix != 8 {
                return None;
            }
            if digits.len() > 16 || !digits.chars().all(|c| c.is_digit(radix)) {
                return None;
            }
            u64::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix).ok()
        })
        .collect::<Option<_>>()?;
    let (head, last) = parts.split_last().map(|(l, h)| (h, *l))?;
    if head.len() > 3 || head.iter().any(|&p| p > 0xff) {
        return None;
    }
    let room = 8 * (4 - head.len() as u32);
    if room < 64 && last >> room != 0 {
        return None;
    }
    let mut value: u32 = 0;
    for &p in head {
        value = (value << 8) | p as u32;
    }
    let value = ((u64::from(value) << room) | last) as u32;
    Some(value.to_be_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    const V4: &[u8] = &[192, 168, 1, 1];

    fn v6(s: &str) -> [u8; 16] {
        s.parse::<Ipv6Addr>().unwrap().octets()
    }

    fn refused(cn: &str, sans: &[SanValue<'_>]) -> bool {
        names_a_san_otherwise(cn, sans).is_some()
    }

    #[test]
    fn an_exact_copy_passes() {
        let v6b = v6("2001:db8::8a2e:370:7334");
        let sans = [
            SanValue::Dns("www.example.com"),
            SanValue::Dns("*.Example.org"),
            SanValue::Ip(V4),
            SanValue::Ip(&v6b),
        ];
        for cn in [
            "www.example.com",
            "*.Example.org",
            "192.168.1.1",
            "2001:db8::8a2e:370:7334",
        ] {
            assert!(!refused(cn, &sans), "{cn}");
        }
    }

    #[test]
    fn a_cn_naming_nothing_in_the_san_is_ignored() {
        let sans = [SanValue::Dns("valid.example.com"), SanValue::Ip(V4)];
        for cn in [
            "notinsan.example.com",
            "Example Server",
            "10.0.0.1",
            "xn--nxasmq6b.com",
            "",
            "*",
            "2001:db8::1",
        ] {
            assert!(!refused(cn, &sans), "{cn}");
        }
    }

    #[test]
    fn another_spelling_of_a_dns_san_is_refused() {
        let sans = [SanValue::Dns("example.com")];
        for cn in ["Example.COM", "example.com.", "EXAMPLE.COM."] {
            assert!(refused(cn, &sans), "{cn}");
        }
        let sans = [SanValue::Dns("xn--test--gs1lv54n.com")];
        assert!(refused("test-測試.com", &sans));
        assert!(refused("XN--TEST--GS1LV54N.com", &sans));
        // x509-limbo's webpki::cn::utf8-vs-punycode-mismatch pairs this CN with
        // xn--test--wg5h0h.com, which is the A-label of another name: the CN names
        // nothing in that SAN and is ignored.
        assert!(!refused(
            "test-測試.com",
            &[SanValue::Dns("xn--test--wg5h0h.com")]
        ));
        let sans = [SanValue::Dns("xn--bcher-kva.example")];
        assert!(refused("bücher.example", &sans));
        assert!(refused("BÜCHER.example", &sans));
        let sans = [SanValue::Dns("*.example.com")];
        assert!(refused("*.EXAMPLE.com", &sans));
        assert!(!refused("www.example.com", &sans));
    }

    #[test]
    fn another_spelling_of_an_ipv4_san_is_refused() {
        let sans = [SanValue::Ip(V4)];
        for cn in [
            "0xC0A80101",
            "0xc0a80101",
            "192.168.001.001",
            "0300.0250.01.01",
            "192.168.257",
            "192.11010305",
            "3232235777",
        ] {
            assert!(refused(cn, &sans), "{cn}");
        }
        // 010 is 8 to inet_aton and 10 to a decimal reader: both readings count.
        let ten = [SanValue::Ip(&[192, 168, 1, 10])];
        let eight = [SanValue::Ip(&[192, 168, 1, 8])];
        assert!(refused("192.168.1.010", &ten));
        assert!(refused("192.168.1.010", &eight));
        for not in [
            "192.168.1.2",
            "192.168.1.1.1",
            "0x1.0x2.0x3.0x4.5",
            "256.1.1.1",
        ] {
            assert!(!refused(not, &sans), "{not}");
        }
    }

    #[test]
    fn another_spelling_of_an_ipv6_san_is_refused() {
        let a = v6("2001:db8::8a2e:370:7334");
        let sans = [SanValue::Ip(&a)];
        assert!(refused("2001:DB8::8A2E:370:7334", &sans));
        assert!(refused("2001:0db8:0000:0000:0000:8a2e:0370:7334", &sans));
        let b = v6("2001:db8::1:0:0:1");
        let sans = [SanValue::Ip(&b)];
        assert!(refused("2001:db8:0:0:1:0:0:1", &sans));
        assert!(!refused("2001:db8::1:0:0:1", &sans));
        let one = v6("2001:db8::1");
        assert!(refused(
            "2001:0db8:0000:0000:0000:0000:0000:0001",
            &[SanValue::Ip(&one)]
        ));
    }

    #[test]
    fn inet_aton_readings() {
        assert_eq!(inet_aton("1.2.3.4"), Some([1, 2, 3, 4]));
        assert_eq!(inet_aton("0x7f.1"), Some([127, 0, 0, 1]));
        assert_eq!(inet_aton("017700000001"), Some([127, 0, 0, 1]));
        assert_eq!(inet_aton("0"), Some([0, 0, 0, 0]));
        assert_eq!(inet_aton("1.2.3.256"), None);
        assert_eq!(inet_aton("1.2.65536"), None);
        assert_eq!(inet_aton("0x"), None);
        assert_eq!(inet_aton("08"), None);
        assert_eq!(inet_aton(""), None);
        assert_eq!(inet_aton("a.b.c.d"), None);
        assert_eq!(inet_aton("4294967296"), None);
    }
}
