//! What kind of object a DER blob is, from its PEM label or, failing that, from the shape
//! of its first few elements ([`Kind::of`], what every command and fuzz target that reads
//! objects asks). Cheap: reads tags only, never decodes values. A C2SP signed note (an
//! MTC checkpoint) is text, told by [`looks_like_note`].

#![forbid(unsafe_code)]

use crate::der::oid_registry as oids;
use crate::der::{tag, Reader};
use crate::split::Item;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
/// What a DER (or text) input is, as far as its outer structure tells.
pub enum Kind {
    /// An X.509 certificate (RFC 5280 §4.1).
    Certificate,
    /// A PKCS#10 certification request (RFC 2986).
    Csr,
    /// A certificate revocation list (RFC 5280 §5.1).
    Crl,
    /// An OCSP request (RFC 6960 §4.1).
    OcspRequest,
    /// An OCSP response (RFC 6960 §4.2).
    OcspResponse,
    /// A PKCS#7 / CMS ContentInfo (RFC 5652), as certificate bundles are.
    Pkcs7,
    /// A PKCS#12 PFX (RFC 7292).
    Pkcs12,
    /// A bare SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
    Spki,
    /// An unencrypted PKCS#8 private key (RFC 5958).
    Pkcs8,
    /// An EncryptedPrivateKeyInfo (RFC 5958 §3).
    EncryptedPkcs8,
    /// An MTC checkpoint: a C2SP signed note (text, not DER).
    Checkpoint,
    /// DER of no structure pkit knows: shown as a generic ASN.1 tree.
    Asn1,
}

impl Kind {
    /// The `type` string in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Certificate => "certificate",
            Kind::Csr => "csr",
            Kind::Crl => "crl",
            Kind::OcspRequest => "ocsp_request",
            Kind::OcspResponse => "ocsp_response",
            Kind::Pkcs7 => "pkcs7",
            Kind::Pkcs12 => "pkcs12",
            Kind::Spki => "public_key",
            Kind::Pkcs8 => "private_key",
            Kind::EncryptedPkcs8 => "encrypted_private_key",
            Kind::Checkpoint => "checkpoint",
            Kind::Asn1 => "asn1",
        }
    }

    /// Human title for text output.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Certificate => "Certificate",
            Kind::Csr => "Certificate Request (PKCS#10)",
            Kind::Crl => "Certificate Revocation List",
            Kind::OcspRequest => "OCSP Request",
            Kind::OcspResponse => "OCSP Response",
            Kind::Pkcs7 => "PKCS#7 / CMS",
            Kind::Pkcs12 => "PKCS#12",
            Kind::Spki => "Public Key",
            Kind::Pkcs8 => "Private Key (PKCS#8)",
            Kind::EncryptedPkcs8 => "Encrypted Private Key (PKCS#8)",
            Kind::Checkpoint => "MTC Checkpoint (signed note)",
            Kind::Asn1 => "ASN.1",
        }
    }

    /// The PEM label pkit writes for this kind.
    pub fn pem_label(self) -> &'static str {
        match self {
            Kind::Certificate => "CERTIFICATE",
            Kind::Csr => "CERTIFICATE REQUEST",
            Kind::Crl => "X509 CRL",
            Kind::OcspRequest => "OCSP REQUEST",
            Kind::OcspResponse => "OCSP RESPONSE",
            Kind::Pkcs7 => "PKCS7",
            Kind::Pkcs12 => "PKCS12",
            Kind::Spki => "PUBLIC KEY",
            Kind::Pkcs8 => "PRIVATE KEY",
            Kind::EncryptedPkcs8 => "ENCRYPTED PRIVATE KEY",
            Kind::Checkpoint => "CHECKPOINT",
            Kind::Asn1 => "ASN1",
        }
    }

    /// Names accepted by `--type`.
    pub fn from_name(s: &str) -> Option<Kind> {
        Some(match s.to_ascii_lowercase().replace('-', "_").as_str() {
            "cert" | "certificate" | "x509" => Kind::Certificate,
            "csr" | "req" | "request" | "pkcs10" => Kind::Csr,
            "crl" => Kind::Crl,
            "ocsp_request" | "ocsp_req" => Kind::OcspRequest,
            "ocsp_response" | "ocsp_resp" | "ocsp" => Kind::OcspResponse,
            "pkcs7" | "p7" | "p7b" | "cms" => Kind::Pkcs7,
            "pkcs12" | "p12" | "pfx" => Kind::Pkcs12,
            "spki" | "public_key" | "pubkey" => Kind::Spki,
            "pkcs8" | "private_key" | "key" => Kind::Pkcs8,
            "encrypted_pkcs8" | "encrypted_private_key" => Kind::EncryptedPkcs8,
            "checkpoint" | "note" => Kind::Checkpoint,
            "asn1" | "der" => Kind::Asn1,
            _ => return None,
        })
    }
}

impl Kind {
    /// What an object is: the kind its PEM `label` announces, else what its bytes look
    /// like ([`sniff`]).
    pub fn of(label: Option<&str>, der: &[u8]) -> Kind {
        label.and_then(from_pem_label).unwrap_or_else(|| sniff(der))
    }

    /// What an item of an input is ([`Kind::of`] its label and bytes).
    pub fn of_item(item: &Item) -> Kind {
        Kind::of(item.label.as_deref(), &item.der)
    }
}

/// What a signed note's signature lines start with (C2SP signed-note): an em dash and a
/// space.
pub const NOTE_SIGNATURE_PREFIX: &str = "\u{2014} ";

/// True for text shaped like a C2SP signed note (an MTC checkpoint): UTF-8 with a blank
/// line followed by a signature line, `— NAME SIGNATURE` (cheap; the checkpoint's parser
/// judges the rest). Such an input is one object as it stands, not PEM or DER.
pub fn looks_like_note(data: &[u8]) -> bool {
    std::str::from_utf8(data).is_ok_and(|s| s.contains(&format!("\n\n{NOTE_SIGNATURE_PREFIX}")))
}

/// The kind a PEM label announces.
pub fn from_pem_label(label: &str) -> Option<Kind> {
    Some(match label {
        "CERTIFICATE" | "X509 CERTIFICATE" | "TRUSTED CERTIFICATE" => Kind::Certificate,
        "CERTIFICATE REQUEST" | "NEW CERTIFICATE REQUEST" => Kind::Csr,
        "X509 CRL" => Kind::Crl,
        "OCSP REQUEST" => Kind::OcspRequest,
        "OCSP RESPONSE" => Kind::OcspResponse,
        "PKCS7" | "CMS" | "PKCS #7 SIGNED DATA" => Kind::Pkcs7,
        "PKCS12" => Kind::Pkcs12,
        "PUBLIC KEY" => Kind::Spki,
        // Traditional OpenSSL keys are described as the PKCS#8 keys they stand for.
        "PRIVATE KEY" | "RSA PRIVATE KEY" | "EC PRIVATE KEY" => Kind::Pkcs8,
        "ENCRYPTED PRIVATE KEY" => Kind::EncryptedPkcs8,
        "CHECKPOINT" => Kind::Checkpoint,
        _ => return None,
    })
}

/// Guess the kind from the structure. Anything unrecognised is `Asn1`.
pub fn sniff(der: &[u8]) -> Kind {
    // Read leniently: a BER object (which --lenient accepts) is still recognised, and the
    // parser for its kind then judges the encoding.
    let log = crate::der::Deviations::new();
    let mut r = Reader::lenient(der, &log);
    let Ok(mut top) = r.read_sequence() else {
        return Kind::Asn1;
    };
    let tags = first_tags(top, 4);
    match tags.as_slice() {
        // SEQUENCE { SEQUENCE tbs, SEQUENCE alg, BIT STRING }: certificate, CRL or CSR.
        [tag::SEQUENCE, tag::SEQUENCE, tag::BIT_STRING, ..] => {
            let Ok(tbs) = top.read_sequence() else {
                return Kind::Asn1;
            };
            let t = first_tags(tbs, 6);
            let time = |x: &u8| *x == tag::UTC_TIME || *x == tag::GENERALIZED_TIME;
            match t.as_slice() {
                [0xa0, tag::INTEGER, tag::SEQUENCE, tag::SEQUENCE, tag::SEQUENCE, ..]
                | [tag::INTEGER, tag::SEQUENCE, tag::SEQUENCE, tag::SEQUENCE, tag::SEQUENCE, ..] => {
                    Kind::Certificate
                }
                [tag::INTEGER, tag::SEQUENCE, tag::SEQUENCE, 0xa0, ..] => Kind::Csr,
                [tag::INTEGER, tag::SEQUENCE, tag::SEQUENCE, x, ..] if time(x) => Kind::Crl,
                [tag::SEQUENCE, tag::SEQUENCE, x, ..] if time(x) => Kind::Crl,
                _ => Kind::Asn1,
            }
        }
        [tag::ENUMERATED] | [tag::ENUMERATED, 0xa0] => Kind::OcspResponse,
        [tag::SEQUENCE] | [tag::SEQUENCE, 0xa0] => {
            // OCSPRequest ::= SEQUENCE { tbsRequest, optionalSignature [0] EXPLICIT }
            // TBSRequest ::= SEQUENCE { [0] version?, [1] requestorName?, SEQUENCE OF Request, [2]? }
            let Ok(tbs) = top.read_sequence() else {
                return Kind::Asn1;
            };
            // Skip the optional [0] version and [1] requestorName, then expect
            // requestList → Request → CertID → hashAlgorithm, all SEQUENCEs, and the
            // CertID's issuerNameHash OCTET STRING.
            let mut t = tbs;
            while matches!(t.peek_tag(), Some(0xa0 | 0xa1)) {
                if t.read_tlv().is_err() {
                    return Kind::Asn1;
                }
            }
            let cert_id = t
                .read_sequence()
                .and_then(|mut list| list.read_sequence())
                .and_then(|mut req| req.read_sequence());
            match cert_id.map(|c| first_tags(c, 2)) {
                Ok(t) if t == [tag::SEQUENCE, tag::OCTET_STRING] => Kind::OcspRequest,
                _ => Kind::Asn1,
            }
        }
        [tag::SEQUENCE, tag::BIT_STRING] => Kind::Spki,
        [tag::SEQUENCE, tag::OCTET_STRING] => Kind::EncryptedPkcs8,
        [tag::INTEGER, tag::SEQUENCE, tag::OCTET_STRING, ..] => Kind::Pkcs8,
        [tag::OID, 0xa0] | [tag::OID] => match top.read_oid() {
            Ok(o) if o.as_bytes().starts_with(&oids::PKCS7_DATA.as_bytes()[..8]) => Kind::Pkcs7,
            _ => Kind::Asn1,
        },
        [tag::INTEGER, tag::SEQUENCE] | [tag::INTEGER, tag::SEQUENCE, tag::SEQUENCE] => {
            // PFX ::= SEQUENCE { version INTEGER {v3(3)}, authSafe ContentInfo, macData? }
            match top.read_u64() {
                Ok(3) => Kind::Pkcs12,
                _ => Kind::Asn1,
            }
        }
        _ => Kind::Asn1,
    }
}

/// Identifier octets of up to `n` elements at the start of `r` (stops at the first error).
fn first_tags(mut r: Reader<'_>, n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        match r.read_tlv() {
            Ok(t) => v.push(t.tag),
            Err(_) => break,
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_label_decides_else_the_shape() {
        // SEQUENCE { SEQUENCE, BIT STRING }: a bare SubjectPublicKeyInfo by its shape.
        let spki = [0x30, 0x07, 0x30, 0x00, 0x03, 0x03, 0x00, 0x01, 0x02];
        assert_eq!(Kind::of(None, &spki), Kind::Spki);
        assert_eq!(Kind::of(Some("CERTIFICATE"), &spki), Kind::Certificate);
        // A label pkit does not know is no kind: the bytes decide.
        assert_eq!(Kind::of(Some("SOMETHING ELSE"), &spki), Kind::Spki);
        let item = Item {
            label: Some("X509 CRL".into()),
            der: spki.to_vec(),
        };
        assert_eq!(Kind::of_item(&item), Kind::Crl);
        assert_eq!(Kind::of(None, b"not der"), Kind::Asn1);
    }

    #[test]
    fn a_signed_note_is_told_by_its_signature_line() {
        let note =
            "oid/1.3.6.1.4.1.32473.1.0.1\n3\nAAAA\n\n\u{2014} oid/1.3.6.1.4.1.32473.1 AAAA\n";
        assert!(looks_like_note(note.as_bytes()));
        assert!(!looks_like_note(b"origin\n3\nAAAA\n\n- not a signature\n"));
        assert!(!looks_like_note(&[
            0xff, 0x0a, 0x0a, 0xe2, 0x80, 0x94, 0x20
        ]));
    }
}
