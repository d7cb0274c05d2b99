//! What a certified key may be used for: keyUsage and extendedKeyUsage (RFC 5280
//! §4.2.1.3, §4.2.1.12), and the pre-RFC Netscape certificate type that still turns up in
//! old certificates.

use super::fields::{read_named_bits, read_seq_of, NamedBits};
use crate::der::{tag, ErrorKind, ObjectId, Reader, Result};

/// KeyUsage bit numbers (RFC 5280 §4.2.1.3), for writers and for checks of
/// [`NamedBits`].
pub mod ku {
    /// `digitalSignature`: signatures other than on certificates and CRLs.
    pub const DIGITAL_SIGNATURE: usize = 0;
    /// `nonRepudiation` (`contentCommitment` in recent X.509): signatures that commit to
    /// content.
    pub const NON_REPUDIATION: usize = 1;
    /// `keyEncipherment`: transporting keys encrypted to this key (RSA).
    pub const KEY_ENCIPHERMENT: usize = 2;
    /// `dataEncipherment`: encrypting user data directly to this key.
    pub const DATA_ENCIPHERMENT: usize = 3;
    /// `keyAgreement`: key agreement (ECDH, DH).
    pub const KEY_AGREEMENT: usize = 4;
    /// `keyCertSign`: signatures on certificates.
    pub const KEY_CERT_SIGN: usize = 5;
    /// `cRLSign`: signatures on CRLs.
    pub const CRL_SIGN: usize = 6;
    /// `encipherOnly`: with keyAgreement, only to encipher.
    pub const ENCIPHER_ONLY: usize = 7;
    /// `decipherOnly`: with keyAgreement, only to decipher.
    pub const DECIPHER_ONLY: usize = 8;
}

/// ```asn1
/// KeyUsage ::= BIT STRING {
///      digitalSignature        (0),
///      nonRepudiation          (1), -- recent editions of X.509 have
///                           -- renamed this bit to contentCommitment
///      keyEncipherment         (2),
///      dataEncipherment        (3),
///      keyAgreement            (4),
///      keyCertSign             (5),
///      cRLSign                 (6),
///      encipherOnly            (7),
///      decipherOnly            (8) }
/// ```
pub const KEY_USAGE_BITS: &[&str] = &[
    "digitalSignature",
    "nonRepudiation",
    "keyEncipherment",
    "dataEncipherment",
    "keyAgreement",
    "keyCertSign",
    "cRLSign",
    "encipherOnly",
    "decipherOnly",
];

/// Read a KeyUsage. RFC 5280 §4.2.1.3: "When the keyUsage extension appears in a
/// certificate, at least one of the bits MUST be set to 1."
pub(crate) fn read_key_usage<'a>(r: &mut Reader<'a>) -> Result<NamedBits<'a>> {
    let at = r.offset();
    let ku = read_named_bits(r, tag::BIT_STRING, KEY_USAGE_BITS)?;
    if ku.set_bits().next().is_none() {
        r.deviate(
            at,
            ErrorKind::Invalid("expected at least one keyUsage bit set, found none".into()),
        )?;
    }
    Ok(ku)
}

/// ```asn1
/// ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId
/// KeyPurposeId ::= OBJECT IDENTIFIER
/// ```
pub(crate) fn read_extended_key_usage<'a>(r: &mut Reader<'a>) -> Result<Vec<ObjectId<'a>>> {
    read_seq_of(r, tag::SEQUENCE, "KeyPurposeId", |r| r.read_oid())
}

/// Netscape certificate type (2.16.840.1.113730.1.1), from Netscape's "Netscape
/// Certificate Extensions" note:
///
/// ```asn1
/// NetscapeCertType ::= BIT STRING {
///      sslClient        (0),
///      sslServer        (1),
///      smime            (2),
///      objectSigning    (3),
///      reserved         (4),
///      sslCA            (5),
///      smimeCA          (6),
///      objectSigningCA  (7) }
/// ```
pub const NETSCAPE_CERT_TYPE_BITS: &[&str] = &[
    "sslClient",
    "sslServer",
    "smime",
    "objectSigning",
    "reserved",
    "sslCA",
    "smimeCA",
    "objectSigningCA",
];

pub(crate) fn read_netscape_cert_type<'a>(r: &mut Reader<'a>) -> Result<NamedBits<'a>> {
    read_named_bits(r, tag::BIT_STRING, NETSCAPE_CERT_TYPE_BITS)
}

#[cfg(test)]
mod tests {
    use super::ku::*;
    use super::*;
    use crate::der::oid_registry as oids;
    use crate::der::Deviations;
    use crate::der::Writer;

    #[test]
    fn key_usage_names() {
        // digitalSignature, keyEncipherment: 03 02 05 a0, as in most TLS server certs.
        let der = [0x03, 0x02, 0x05, 0xa0];
        let ku = read_key_usage(&mut Reader::new(&der)).unwrap();
        assert_eq!(ku.set_names(), ["digitalSignature", "keyEncipherment"]);
        assert!(ku.contains(DIGITAL_SIGNATURE) && !ku.contains(KEY_CERT_SIGN));
        // keyCertSign, cRLSign (a CA): 03 02 01 06.
        let ku = read_key_usage(&mut Reader::new(&[0x03, 0x02, 0x01, 0x06])).unwrap();
        assert_eq!(ku.set_names(), ["keyCertSign", "cRLSign"]);
        // decipherOnly lives in the second octet.
        let mut w = Writer::new();
        w.named_bits(&[KEY_AGREEMENT, DECIPHER_ONLY]);
        let der = w.finish();
        let ku = read_key_usage(&mut Reader::new(&der)).unwrap();
        assert_eq!(ku.set_names(), ["keyAgreement", "decipherOnly"]);
        // A bit past decipherOnly keeps its position rather than vanishing.
        let mut w = Writer::new();
        w.named_bits(&[0, 9]);
        let der = w.finish();
        let ku = read_key_usage(&mut Reader::new(&der)).unwrap();
        assert_eq!(ku.set_names(), ["digitalSignature", "bit9"]);
    }

    #[test]
    fn key_usage_der_rules() {
        // Trailing zero bit (unused 4 where 5 is minimal): offset of the last octet.
        let err = read_key_usage(&mut Reader::new(&[0x03, 0x02, 0x04, 0xa0])).unwrap_err();
        assert_eq!(err.offset, 3);
        // No bits set.
        assert!(read_key_usage(&mut Reader::new(&[0x03, 0x01, 0x00])).is_err());
        // Wrong tag.
        assert!(read_key_usage(&mut Reader::new(&[0x04, 0x02, 0x05, 0xa0])).is_err());
        // Lenient mode keeps the value and logs the deviation.
        let log = Deviations::new();
        let der = [0x03, 0x03, 0x00, 0xa0, 0x00];
        let ku = read_key_usage(&mut Reader::lenient(&der, &log)).unwrap();
        assert_eq!(ku.set_names(), ["digitalSignature", "keyEncipherment"]);
        assert_eq!(log.take().len(), 1);
    }

    #[test]
    fn extended_key_usage() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.oid(&oids::KP_SERVER_AUTH);
            w.oid(&oids::KP_CLIENT_AUTH);
        });
        let der = w.finish();
        let eku = read_extended_key_usage(&mut Reader::new(&der)).unwrap();
        assert_eq!(eku.len(), 2);
        assert_eq!(eku[0].name(), Some("serverAuth"));
        assert_eq!(eku[1], oids::KP_CLIENT_AUTH);
        let err = read_extended_key_usage(&mut Reader::new(&[0x30, 0x00])).unwrap_err();
        assert!(err.to_string().contains("KeyPurposeId"), "{err}");
        let err = read_extended_key_usage(&mut Reader::new(&[0x30, 0x02, 0x05, 0x00])).unwrap_err();
        assert_eq!((err.offset, err.path_string().as_str()), (2, "[0]"));
    }

    #[test]
    fn netscape_cert_type() {
        // sslServer + sslCA: 03 02 02 44 would leave a trailing zero; 0x44 has bit 5 last,
        // so the minimal unused count is 2.
        let ns = read_netscape_cert_type(&mut Reader::new(&[0x03, 0x02, 0x02, 0x44])).unwrap();
        assert_eq!(ns.set_names(), ["sslServer", "sslCA"]);
    }
}
