//! tls-alpn-01 (RFC 8737): the server opens TLS to NAME:443 (`--tls-port`), offering
//! SNI NAME (an address's reverse name, RFC 8738 §6) and the ALPN protocol `acme-tls/1`;
//! the client's server answers with a self-signed certificate whose subjectAltName is
//! exactly the identifier and whose critical acmeIdentifier extension holds the SHA-256
//! of the key authorization. The validation fails unless acme-tls/1 was the protocol
//! negotiated (RFC 8737 §3).

use crate::config::{AcmeConfig, TIMEOUT};
use crate::problem::Problem;
use pkit_der::oid_registry as oids;
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{ExtensionValue, GeneralName};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, ClientConnection, DigitallySignedStruct, SignatureScheme,
};
use sha2::{Digest, Sha256};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::sync::Arc;

/// The reverse-mapping name of an address (RFC 8738 §6), the SNI for an IP identifier.
pub(crate) fn reverse_name(ip: &IpAddr) -> String {
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
pub(crate) fn tls_alpn_01(
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
        let leaf = handshake(&mut stream, &sni)
            .map_err(|e| Problem::new("tls", 400, format!("{at}: {e}")))?
            .ok_or_else(|| {
                unauthorized(format!(
                    "{at} did not negotiate the ALPN protocol acme-tls/1"
                ))
            })?;
        return check_certificate(&leaf, id_type, value, key_auth);
    }
    Err(last)
}

/// The protocol RFC 8737 validates with.
const ACME_TLS_1: &[u8] = b"acme-tls/1";

/// Accepts whatever certificate the peer sends: the validation certificate is
/// self-signed, and [`check_certificate`] is what judges it. The handshake's signature
/// is still verified with its key (the peer holds it), by pkit's reading of the
/// certificate: webpki's refuses the critical acmeIdentifier extension it does not know.
#[derive(Debug)]
struct AnyCertificate(Arc<CryptoProvider>);

impl AnyCertificate {
    /// TLS 1.2 and 1.3 alike: the signature verifies with the certificate's key by one of
    /// the algorithms the scheme names.
    fn signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let c = Certificate::from_der(cert.as_ref())
            .map_err(|_| rustls::Error::InvalidCertificate(CertificateError::BadEncoding))?;
        let algs = self
            .0
            .signature_verification_algorithms
            .mapping
            .iter()
            .find(|(scheme, _)| *scheme == dss.scheme)
            .map(|(_, algs)| *algs)
            .ok_or(rustls::PeerMisbehaved::SignedHandshakeWithUnadvertisedSigScheme)?;
        if algs.iter().any(|a| {
            a.verify_signature(c.spki.key.bytes, message, dss.signature())
                .is_ok()
        }) {
            Ok(HandshakeSignatureValid::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::BadSignature,
            ))
        }
    }
}

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// TLS to `stream` with SNI `sni`, offering only acme-tls/1: the peer's certificate when
/// it negotiated acme-tls/1, `None` when it did not.
fn handshake(stream: &mut TcpStream, sni: &str) -> Result<Option<Vec<u8>>, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
        .with_no_client_auth();
    config.alpn_protocols = vec![ACME_TLS_1.to_vec()];
    let name = ServerName::try_from(sni.to_string()).map_err(|e| format!("SNI {sni}: {e}"))?;
    let mut conn = ClientConnection::new(Arc::new(config), name).map_err(|e| e.to_string())?;
    // The whole handshake within TIMEOUT, not each read: a peer sending a byte at a time
    // would otherwise hold the validator for as long as it likes.
    let deadline = std::time::Instant::now() + TIMEOUT;
    while conn.is_handshaking() {
        let left = deadline
            .checked_duration_since(std::time::Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| format!("the handshake took longer than {} s", TIMEOUT.as_secs()))?;
        stream
            .set_read_timeout(Some(left))
            .map_err(|e| e.to_string())?;
        conn.complete_io(stream).map_err(|e| e.to_string())?;
    }
    if conn.alpn_protocol() != Some(ACME_TLS_1) {
        return Ok(None);
    }
    let leaf = conn
        .peer_certificates()
        .and_then(|c| c.first())
        .ok_or("the peer sent no certificate")?;
    Ok(Some(leaf.as_ref().to_vec()))
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
