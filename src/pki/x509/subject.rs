//! Subject strings from the command line → Name DER (RFC 5280 §4.1.2.4).
//!
//! Accepts RFC 4514 (`CN=Example Root,O=Example`, most specific RDN first, `\,` escapes,
//! `+` for multi-valued RDNs, `#hex` values) and OpenSSL's slash form (`/O=Example/CN=…`,
//! RDNs in encoding order). Attribute names are the registry's short names (CN, O, OU, C,
//! ST, L, DC, UID, emailAddress, serialNumber, …) or dotted OIDs.

#![forbid(unsafe_code)]

use crate::der::{encode_dotted, oid_registry as oids, tag, Writer};

/// An error naming the offending RDN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectError(pub String);

impl std::fmt::Display for SubjectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SubjectError {}

struct Atv {
    oid: Vec<u8>,
    /// Already-encoded value TLV.
    value: Vec<u8>,
}

/// Parse a subject string into Name DER. The empty string is the empty Name.
pub fn parse_subject(s: &str) -> Result<Vec<u8>, SubjectError> {
    let s = trim_unescaped(s);
    let rdns: Vec<Vec<Atv>> = if s.is_empty() {
        Vec::new()
    } else if let Some(rest) = s.strip_prefix('/') {
        split_unescaped(rest, '/')
            .into_iter()
            .map(|rdn| parse_rdn(&rdn))
            .collect::<Result<_, _>>()?
    } else {
        let mut v: Vec<Vec<Atv>> = split_unescaped(s, ',')
            .into_iter()
            .map(|rdn| parse_rdn(&rdn))
            .collect::<Result<_, _>>()?;
        // RFC 4514 lists the last RDN of the sequence first.
        v.reverse();
        v
    };
    let mut w = Writer::new();
    w.sequence(|w| {
        for rdn in &rdns {
            let encoded: Vec<Vec<u8>> = rdn
                .iter()
                .map(|a| {
                    let mut e = Writer::new();
                    e.sequence(|e| {
                        e.primitive(tag::OID, &a.oid);
                        e.raw(&a.value);
                    });
                    e.finish()
                })
                .collect();
            let mut sorted = encoded;
            sorted.sort();
            w.set(|w| {
                for e in &sorted {
                    w.raw(e);
                }
            });
        }
    });
    Ok(w.finish())
}

/// `s` without the white space around it, except a space escaped with a backslash:
/// RFC 4514 §2.4 writes a value's trailing space as `\ `, which must survive.
fn trim_unescaped(s: &str) -> &str {
    let s = s.trim_start();
    let mut end = s.len();
    while let Some(c) = s[..end].chars().next_back().filter(|c| c.is_whitespace()) {
        let backslashes = s[..end - c.len_utf8()]
            .bytes()
            .rev()
            .take_while(|b| *b == b'\\')
            .count();
        if backslashes % 2 == 1 {
            break;
        }
        end -= c.len_utf8();
    }
    &s[..end]
}

/// Split on `sep` where it is not escaped with a backslash.
fn split_unescaped(s: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            cur.push(c);
            if let Some(n) = chars.next() {
                cur.push(n);
            }
        } else if c == sep {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    out
}

fn parse_rdn(rdn: &str) -> Result<Vec<Atv>, SubjectError> {
    split_unescaped(rdn, '+')
        .iter()
        .map(|atv| parse_atv(trim_unescaped(atv)))
        .collect()
}

fn parse_atv(atv: &str) -> Result<Atv, SubjectError> {
    let (ty, value) = atv.split_once('=').ok_or_else(|| {
        SubjectError(format!(
            "RDN '{atv}': expected TYPE=VALUE (e.g. CN=example.com)"
        ))
    })?;
    let ty = ty.trim();
    let oid = type_oid(ty).ok_or_else(|| {
        SubjectError(format!(
            "RDN '{atv}': unknown attribute type '{ty}' (use CN, O, OU, C, ST, L, DC, UID, \
             emailAddress, serialNumber… or a dotted OID)"
        ))
    })?;
    let value_der = if let Some(hex) = value.strip_prefix('#') {
        // RFC 4514 §2.4: hexpairs, nothing between them.
        crate::der::parse_hex(hex, |_| false)
            .ok_or_else(|| SubjectError(format!("RDN '{atv}': bad #hex value")))?
    } else {
        let text = unescape(value)
            .ok_or_else(|| SubjectError(format!("RDN '{atv}': bad escape sequence")))?;
        encode_value(&oid, &text).map_err(|why| SubjectError(format!("RDN '{atv}': {why}")))?
    };
    Ok(Atv {
        oid,
        value: value_der,
    })
}

fn type_oid(ty: &str) -> Option<Vec<u8>> {
    if ty.starts_with(|c: char| c.is_ascii_digit()) {
        return encode_dotted(ty);
    }
    let alias = match ty.to_ascii_lowercase().as_str() {
        "commonname" => "CN",
        "organizationname" => "O",
        "organizationalunitname" => "OU",
        "countryname" => "C",
        "stateorprovincename" | "s" => "ST",
        "localityname" => "L",
        "email" | "e" => "emailAddress",
        "domaincomponent" => "DC",
        "userid" => "UID",
        "streetaddress" => "street",
        "surname" => "SN",
        "givenname" => "GN",
        _ => ty,
    };
    let o = oids::by_name(alias)?;
    Some(o.as_bytes().to_vec())
}

/// Encode a value with the string type RFC 5280 expects for the attribute.
fn encode_value(oid: &[u8], text: &str) -> Result<Vec<u8>, String> {
    let is = |o: &crate::der::Oid| o.as_bytes() == oid;
    let mut w = Writer::new();
    if is(&oids::AT_COUNTRY) {
        if text.len() != 2 || !text.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err("country must be two letters".into());
        }
        w.printable_string(text);
    } else if is(&oids::AT_SERIAL_NUMBER) || is(&oids::AT_DN_QUALIFIER) {
        if !text.bytes().all(printable) {
            return Err("value must be a PrintableString".into());
        }
        w.printable_string(text);
    } else if is(&oids::AT_EMAIL) || is(&oids::AT_DOMAIN_COMPONENT) {
        if !text.is_ascii() {
            return Err("value must be ASCII (IA5String)".into());
        }
        w.ia5_string(text);
    } else {
        if text.is_empty() {
            return Err("empty value".into());
        }
        w.utf8_string(text);
    }
    Ok(w.finish())
}

fn printable(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b" '()+,-./:=?".contains(&c)
}

/// RFC 4514 §3 unescaping: `\` followed by a special character or two hex digits.
fn unescape(v: &str) -> Option<String> {
    let b = trim_unescaped(v).as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            let n = *b.get(i + 1)?;
            if n.is_ascii_hexdigit() && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit) {
                out.push(u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).ok()?, 16).ok()?);
                i += 3;
            } else {
                out.push(n);
                i += 2;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::name::Name;

    fn round(s: &str) -> String {
        let der = parse_subject(s).unwrap();
        Name::from_der(&der, 0).unwrap().to_rfc4514().unwrap()
    }

    /// Found by the property test: a value ending in a space is written `\ ` (RFC 4514
    /// §2.4), and trimming the RDN before unescaping left a dangling backslash.
    #[test]
    fn escaped_spaces_at_the_ends_survive() {
        let der = parse_subject("CN=\\ lead and trail\\ ").unwrap();
        let name = crate::name::Name::from_der(&der, 0).unwrap();
        assert_eq!(
            name.attributes().unwrap()[0].text().unwrap(),
            " lead and trail "
        );
        assert_eq!(name.to_rfc4514().unwrap(), "CN=\\ lead and trail\\ ");
        assert_eq!(trim_unescaped("  a\\\\  "), "a\\\\");
        assert_eq!(trim_unescaped(" a\\  "), "a\\ ");
    }

    #[test]
    fn rfc4514_and_slash_forms_agree() {
        assert_eq!(
            round("CN=Example Root,O=Example"),
            "CN=Example Root,O=Example"
        );
        assert_eq!(
            round("/O=Example/CN=Example Root"),
            "CN=Example Root,O=Example"
        );
        assert_eq!(round("CN=a\\,b,C=US"), "CN=a\\,b,C=US");
        assert_eq!(round("CN=x+OU=y"), "CN=x+OU=y");
        assert_eq!(round("commonName=z, countryName=DE"), "CN=z,C=DE");
        assert_eq!(round(""), "");
    }

    #[test]
    fn string_types() {
        let der = parse_subject("C=US,emailAddress=a@b.example").unwrap();
        let n = Name::from_der(&der, 0).unwrap();
        let attrs = n.attributes().unwrap();
        assert_eq!(attrs[0].value_tag, tag::IA5_STRING);
        assert_eq!(attrs[1].value_tag, tag::PRINTABLE_STRING);
    }

    #[test]
    fn errors_name_the_rdn() {
        let e = parse_subject("CN=ok,bogus").unwrap_err();
        assert!(e.0.contains("'bogus'"), "{e}");
        let e = parse_subject("XX=1").unwrap_err();
        assert!(e.0.contains("unknown attribute type 'XX'"), "{e}");
        assert!(parse_subject("C=USA")
            .unwrap_err()
            .0
            .contains("two letters"));
    }
}
