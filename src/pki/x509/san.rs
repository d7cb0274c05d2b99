//! `--san TYPE:VALUE` → GeneralName DER (RFC 5280 §4.2.1.6).
//!
//! ```asn1
//! GeneralName ::= CHOICE {
//!      rfc822Name      [1] IA5String,
//!      dNSName         [2] IA5String,
//!      uniformResourceIdentifier [6] IA5String,
//!      iPAddress       [7] OCTET STRING, … }
//! ```

#![forbid(unsafe_code)]

use crate::cert::Certificate;
use crate::der::{oid_registry as oids, tag, Writer};
use crate::ext::{ExtensionValue, GeneralName};
use std::net::IpAddr;

/// One parsed SAN, kept with its encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct San {
    /// The GeneralName type, lowercase: `dns`, `ip`, `email` or `uri`.
    pub kind: &'static str,
    /// The name as written.
    pub value: String,
    /// The GeneralName TLV.
    pub der: Vec<u8>,
}

/// Why a SAN argument is not one: what was given and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SanError(pub String);

impl std::fmt::Display for SanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SanError {}

impl From<SanError> for String {
    fn from(e: SanError) -> String {
        e.0
    }
}

/// Parse `DNS:a.example`, `IP:192.0.2.1`, `email:x@a.example`, `URI:https://…`
/// (type names case-insensitive). Errors say which types exist.
pub fn parse_san(s: &str) -> Result<San, SanError> {
    parse_san_text(s).map_err(SanError)
}

fn parse_san_text(s: &str) -> Result<San, String> {
    let (ty, value) = s
        .split_once(':')
        .ok_or_else(|| format!("{s}: expected TYPE:VALUE (DNS:, IP:, email:, URI:)"))?;
    let mut w = Writer::new();
    let kind = match ty.to_ascii_lowercase().as_str() {
        "dns" => {
            if value.is_empty() || !value.is_ascii() || value.contains(char::is_whitespace) {
                return Err(format!(
                    "{s}: expected an ASCII DNS name (use punycode for IDNs)"
                ));
            }
            w.primitive(tag::implicit(2), value.as_bytes());
            "dns"
        }
        "ip" => {
            let ip: IpAddr = value
                .parse()
                .map_err(|_| format!("{s}: expected an IPv4 or IPv6 address"))?;
            match ip {
                IpAddr::V4(a) => w.primitive(tag::implicit(7), &a.octets()),
                IpAddr::V6(a) => w.primitive(tag::implicit(7), &a.octets()),
            };
            "ip"
        }
        "email" | "rfc822" | "rfc822name" => {
            if !value.is_ascii() || !value.contains('@') {
                return Err(format!("{s}: expected an ASCII email address"));
            }
            w.primitive(tag::implicit(1), value.as_bytes());
            "email"
        }
        "uri" | "url" => {
            if !value.is_ascii() || !value.contains(':') {
                return Err(format!("{s}: expected an absolute ASCII URI"));
            }
            w.primitive(tag::implicit(6), value.as_bytes());
            "uri"
        }
        other => {
            return Err(format!(
                "{s}: unknown SAN type '{other}' (expected DNS, IP, email or URI)"
            ))
        }
    };
    Ok(San {
        kind,
        value: value.to_string(),
        der: w.finish(),
    })
}

/// The SANs of a certificate in the form `--san` takes (`DNS:…`, `IP:…`, `email:…`,
/// `URI:…`; other kinds as `TYPE:` and their description), for listing and renewal.
/// Empty when it has none or they do not decode.
pub fn sans_of(cert: &Certificate<'_>) -> Vec<String> {
    let Some(ExtensionValue::SubjectAltName(names)) =
        cert.extension_value(&oids::CE_SUBJECT_ALT_NAME)
    else {
        return Vec::new();
    };
    names.iter().map(san_text).collect()
}

/// One GeneralName as `--san` writes it.
pub(crate) fn san_text(n: &GeneralName<'_>) -> String {
    match n {
        GeneralName::DnsName(v) => format!("DNS:{v}"),
        GeneralName::IpAddress(ip) => format!("IP:{ip}"),
        GeneralName::Rfc822Name(v) => format!("email:{v}"),
        GeneralName::Uri(v) => format!("URI:{v}"),
        GeneralName::DirectoryName(d) => format!("DN:{}", d.to_rfc4514().unwrap_or_default()),
        other => other.kind().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_each_type() {
        assert_eq!(
            parse_san("DNS:a.example").unwrap().der,
            [0x82, 9, b'a', b'.', b'e', b'x', b'a', b'm', b'p', b'l', b'e']
        );
        assert_eq!(
            parse_san("IP:192.0.2.1").unwrap().der,
            [0x87, 4, 192, 0, 2, 1]
        );
        assert_eq!(parse_san("ip:2001:db8::1").unwrap().der.len(), 18);
        assert_eq!(parse_san("email:x@a.example").unwrap().der[0], 0x81);
        assert_eq!(parse_san("URI:https://a.example/").unwrap().der[0], 0x86);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(parse_san("foo:bar")
            .unwrap_err()
            .0
            .contains("unknown SAN type 'foo'"));
        assert!(parse_san("IP:300.1.1.1").is_err());
        assert!(parse_san("nocolon").is_err());
        assert!(parse_san("DNS:").is_err());
    }
}
