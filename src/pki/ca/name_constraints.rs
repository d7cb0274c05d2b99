//! `--permit`/`--exclude TYPE:VALUE` → a nameConstraints value (RFC 5280 §4.2.1.10), so a
//! private CA can be limited to the names it is for and be safe to install as trusted.
//!
//! ```asn1
//! NameConstraints ::= SEQUENCE {
//!      permittedSubtrees       [0]     GeneralSubtrees OPTIONAL,
//!      excludedSubtrees        [1]     GeneralSubtrees OPTIONAL }
//! GeneralSubtree ::= SEQUENCE { base GeneralName, minimum [0] DEFAULT 0, maximum [1] OPTIONAL }
//! ```
//! Bases: `DNS:example.com` (that name and every name under it), `DNS:.internal` (only
//! names under it, as OpenSSL and Go read a leading dot), `IP:10.0.0.0/8` or
//! `IP:fd00::/8` (address and mask), `email:example.com` / `email:.example.com` /
//! `email:user@example.com`, `URI:.example.com` (hosts), `DN:O=Example` (a subtree of
//! names).

use crate::der::{tag, Writer};
use pkit_x509::subject::parse_subject;
use std::net::IpAddr;

/// Why a constraint argument is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstraintError(pub String);

impl std::fmt::Display for ConstraintError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConstraintError {}

/// Encode one subtree's base GeneralName from `TYPE:VALUE`.
pub fn parse_base(s: &str) -> Result<Vec<u8>, ConstraintError> {
    let err = |m: &str| ConstraintError(format!("{s}: {m}"));
    let (ty, value) = s
        .split_once(':')
        .ok_or_else(|| err("expected TYPE:VALUE (DNS:, IP:ADDR/BITS, email:, URI:, DN:)"))?;
    let ascii = |v: &str| !v.is_empty() && v.is_ascii() && !v.contains(char::is_whitespace);
    let mut w = Writer::new();
    match ty.to_ascii_lowercase().as_str() {
        "dns" if ascii(value) => w.primitive(tag::implicit(2), value.as_bytes()),
        "email" | "rfc822" if ascii(value) => w.primitive(tag::implicit(1), value.as_bytes()),
        "uri" if ascii(value) && !value.contains("://") => {
            w.primitive(tag::implicit(6), value.as_bytes())
        }
        "uri" => {
            return Err(err(
                "expected a host or .domain (RFC 5280: URI constraints name hosts)",
            ))
        }
        "dns" | "email" | "rfc822" => {
            return Err(err("expected an ASCII name (punycode for IDNs)"))
        }
        "ip" => {
            let (addr, bits) = value
                .split_once('/')
                .ok_or_else(|| err("expected ADDRESS/PREFIX-LENGTH, as in IP:10.0.0.0/8"))?;
            let addr: IpAddr = addr
                .parse()
                .map_err(|_| err("expected an IPv4 or IPv6 address before the /"))?;
            let octets = match addr {
                IpAddr::V4(a) => a.octets().to_vec(),
                IpAddr::V6(a) => a.octets().to_vec(),
            };
            let max = octets.len() * 8;
            let bits: usize = bits
                .parse()
                .ok()
                .filter(|b| *b <= max)
                .ok_or_else(|| err(&format!("expected a prefix length of 0 to {max}")))?;
            let mask: Vec<u8> = (0..octets.len())
                .map(|i| {
                    let on = bits.saturating_sub(i * 8).min(8);
                    (0xff00u16 >> on) as u8
                })
                .collect();
            if octets.iter().zip(&mask).any(|(o, m)| o & !m != 0) {
                return Err(err("the address has bits set past the prefix length"));
            }
            let mut both = octets;
            both.extend(mask);
            w.primitive(tag::implicit(7), &both)
        }
        "dn" | "dirname" => {
            let name = parse_subject(value).map_err(|e| err(&e.to_string()))?;
            w.tlv(tag::implicit_constructed(4), |w| {
                w.raw(&name);
            })
        }
        other => {
            return Err(err(&format!(
                "unknown type '{other}' (expected DNS, IP, email, URI or DN)"
            )))
        }
    };
    Ok(w.finish())
}

/// The nameConstraints extension value for these subtrees (bases from [`parse_base`]),
/// or `None` when both lists are empty (§4.2.1.10 forbids an empty one).
pub fn encode(permitted: &[Vec<u8>], excluded: &[Vec<u8>]) -> Option<Vec<u8>> {
    if permitted.is_empty() && excluded.is_empty() {
        return None;
    }
    let mut w = Writer::new();
    w.sequence(|w| {
        for (n, list) in [(0, permitted), (1, excluded)] {
            if list.is_empty() {
                continue;
            }
            w.tlv(tag::implicit_constructed(n), |w| {
                for base in list {
                    w.sequence(|w| {
                        w.raw(base);
                    });
                }
            });
        }
    });
    Some(w.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::Reader;
    use pkit_x509::ext::NameConstraints;

    #[test]
    fn encodes_what_the_parser_reads() {
        let permitted = vec![
            parse_base("DNS:.internal").unwrap(),
            parse_base("IP:10.0.0.0/8").unwrap(),
            parse_base("DN:O=Example").unwrap(),
        ];
        let excluded = vec![parse_base("IP:fd00::/8").unwrap()];
        let der = encode(&permitted, &excluded).unwrap();
        let nc = NameConstraints::read(&mut Reader::new(&der)).unwrap();
        assert_eq!(nc.permitted_subtrees.unwrap().len(), 3);
        assert_eq!(nc.excluded_subtrees.unwrap().len(), 1);
        assert_eq!(
            parse_base("IP:10.0.0.0/8").unwrap(),
            [0x87, 8, 10, 0, 0, 0, 255, 0, 0, 0]
        );
        assert_eq!(parse_base("IP:192.168.4.0/22").unwrap()[8], 252);
        assert!(encode(&[], &[]).is_none());
    }

    #[test]
    fn refuses_what_is_not_a_subtree() {
        assert!(parse_base("IP:10.0.0.1").is_err());
        assert!(parse_base("IP:10.0.0.1/8").is_err());
        assert!(parse_base("IP:10.0.0.0/33").is_err());
        assert!(parse_base("URI:https://a.example/").is_err());
        assert!(parse_base("DNS:").is_err());
        assert!(parse_base("foo:bar").is_err());
    }
}
