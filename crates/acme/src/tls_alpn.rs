//! tls-alpn-01 (RFC 8737): the server opens TLS to NAME:443 (`--tls-port`), offering
//! SNI NAME (an address's reverse name, RFC 8738 §6) and the ALPN protocol `acme-tls/1`;
//! the client's server answers with a self-signed certificate whose subjectAltName is
//! exactly the identifier and whose critical acmeIdentifier extension holds the SHA-256
//! of the key authorization.

use crate::problem::Problem;
use crate::validate::TIMEOUT;
use crate::AcmeConfig;
use pkit_der::oid_registry as oids;
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{ExtensionValue, GeneralName};
use sha2::{Digest, Sha256};
use std::net::{IpAddr, SocketAddr, TcpStream};

/// The reverse-mapping name of an address (RFC 8738 §6), the SNI for an IP identifier.
pub fn reverse_name(ip: &IpAddr) -> String {
    match ip {
        IpAddr::V4(a) => {
            let o = a.octets();
            format!("{}.{}.{}.{}.in-addr.arpa", o[3], o[2], o[1], o[0])
        }
        IpAddr::V6(a) => {
            let mut s = String::new();
            for b in a.octets().iter().rev() {
                s.push_str(&format!("{:x}.{:x}.", b & 0xf, b >> 4));
            }
            s + "ip6.arpa"
        }
    }
}

fn unauthorized(detail: String) -> Problem {
    Problem::new("unauthorized", 403, detail)
}

/// Validate: connect to each address of the identifier in turn until one answers.
pub fn tls_alpn_01(
    config: &AcmeConfig,
    id_type: &str,
    value: &str,
    key_auth: &str,
) -> Result<(), Problem> {
    let addrs: Vec<IpAddr> = match id_type {
        "ip" => vec![value
            .parse()
            .map_err(|_| Problem::server(format!("{value} is not an address")))?],
        _ if config.resolver.is_some() => crate::dns::addresses(config, value)?,
        _ => std::net::ToSocketAddrs::to_socket_addrs(&(value, config.tls_port))
            .map_err(|e| Problem::new("dns", 400, format!("{value}: {e}")))?
            .map(|a| a.ip())
            .collect(),
    };
    let sni = match id_type {
        "ip" => reverse_name(&addrs[0]),
        _ => value.to_string(),
    };
    let mut last = Problem::new("connection", 400, format!("{value}: no address"));
    for ip in addrs {
        let at = SocketAddr::new(ip, config.tls_port);
        let conn = |e: std::io::Error| Problem::new("connection", 400, format!("{at}: {e}"));
        let mut stream = match TcpStream::connect_timeout(&at, TIMEOUT) {
            Ok(s) => s,
            Err(e) => {
                last = conn(e);
                continue;
            }
        };
        stream.set_read_timeout(Some(TIMEOUT)).map_err(conn)?;
        stream.set_write_timeout(Some(TIMEOUT)).map_err(conn)?;
        let chain = pkit_tls::client::peer_chain_alpn(&mut stream, Some(&sni), &["acme-tls/1"])
            .map_err(|e| Problem::new("tls", 400, format!("{at}: {e}")))?;
        let leaf = chain
            .first()
            .ok_or_else(|| Problem::new("tls", 400, format!("{at} sent no certificate")))?;
        return check_certificate(leaf, id_type, value, key_auth);
    }
    Err(last)
}

/// RFC 8737 §3's checks of the validation certificate.
fn check_certificate(
    der: &[u8],
    id_type: &str,
    value: &str,
    key_auth: &str,
) -> Result<(), Problem> {
    let cert = Certificate::from_der(der)
        .map_err(|e| unauthorized(format!("the validation certificate does not parse: {e}")))?;
    let exts = cert
        .extensions
        .and_then(|x| x.all().ok())
        .unwrap_or_default();
    let want = Sha256::digest(key_auth.as_bytes());
    let acme = exts
        .iter()
        .find(|e| e.oid == oids::PE_ACME_IDENTIFIER)
        .ok_or_else(|| unauthorized("the certificate has no acmeIdentifier extension".into()))?;
    // The extension's value is an OCTET STRING holding the 32-byte digest.
    let mut expected = vec![0x04, 0x20];
    expected.extend_from_slice(&want);
    if !acme.critical || acme.value != expected.as_slice() {
        return Err(Problem::new(
            "incorrectResponse",
            403,
            "the acmeIdentifier extension is not critical or does not hold the key \
             authorization's digest",
        ));
    }
    let sans = exts
        .iter()
        .find(|e| e.oid == oids::CE_SUBJECT_ALT_NAME)
        .and_then(|e| pkit_x509::ext::decode(e.oid, e.value, e.value_offset).ok());
    let names = match sans {
        Some(ExtensionValue::SubjectAltName(n)) => n,
        _ => return Err(unauthorized("the certificate has no subjectAltName".into())),
    };
    let matches = |n: &GeneralName<'_>| match (n, id_type) {
        (GeneralName::DnsName(d), "dns") => d.eq_ignore_ascii_case(value),
        (GeneralName::IpAddress(ip), "ip") => {
            ip.address().is_some_and(|a| Some(a) == value.parse().ok())
        }
        _ => false,
    };
    if names.len() != 1 || !matches(&names[0]) {
        return Err(unauthorized(format!(
            "the certificate's subjectAltName must be exactly {value}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn reverse_names() {
        assert_eq!(
            super::reverse_name(&"192.0.2.1".parse().unwrap()),
            "1.2.0.192.in-addr.arpa"
        );
        let v6 = super::reverse_name(&"2001:db8::1".parse().unwrap());
        assert!(
            v6.starts_with("1.0.0.0.") && v6.ends_with(".8.b.d.0.1.0.0.2.ip6.arpa"),
            "{v6}"
        );
    }
}
