//! TBSCertificate encoding and certificate assembly (RFC 5280 §4.1). Each TBS is encoded
//! once into one buffer; the signature is appended around it without re-encoding.
//!
//! ```asn1
//! TBSCertificate  ::=  SEQUENCE  {
//!      version         [0]  EXPLICIT Version DEFAULT v1,   -- always v3 here
//!      serialNumber         CertificateSerialNumber,
//!      signature            AlgorithmIdentifier,
//!      issuer               Name,
//!      validity             Validity,
//!      subject              Name,
//!      subjectPublicKeyInfo SubjectPublicKeyInfo,
//!      extensions      [3]  EXPLICIT Extensions OPTIONAL }
//! ```

use crate::der::{Time, Writer};
use pkit_x509::alg::SignatureScheme;

/// Everything a TBSCertificate holds, as pre-encoded DER pieces.
pub(crate) struct TbsFields<'a> {
    /// 20 bytes, high bit clear (positive, RFC 5280 §4.1.2.2).
    pub serial: &'a [u8; 20],
    /// The signature algorithm, for the TBSCertificate's `signature` field.
    pub scheme: SignatureScheme,
    /// Issuer Name TLV, copied byte for byte from the CA certificate's subject.
    pub issuer: &'a [u8],
    /// notBefore.
    pub not_before: Time,
    /// notAfter.
    pub not_after: Time,
    /// Subject Name TLV.
    pub subject: &'a [u8],
    /// SubjectPublicKeyInfo TLV.
    pub spki: &'a [u8],
    /// Writes the Extension elements.
    pub extensions: &'a dyn Fn(&mut Writer),
}

/// Encode the TBSCertificate.
pub(crate) fn encode_tbs(f: &TbsFields<'_>) -> Vec<u8> {
    let mut w = Writer::with_capacity(f.spki.len() + f.issuer.len() + f.subject.len() + 512);
    w.sequence(|w| {
        w.explicit(0, |w| {
            w.integer_u64(2);
        });
        w.integer_unsigned(f.serial);
        f.scheme.write_algorithm_identifier(w);
        w.raw(f.issuer);
        w.sequence(|w| {
            w.time(f.not_before);
            w.time(f.not_after);
        });
        w.raw(f.subject);
        w.raw(f.spki);
        w.explicit(3, |w| {
            w.sequence(|w| (f.extensions)(w));
        });
    });
    w.finish()
}

/// `Certificate ::= SEQUENCE { tbs, signatureAlgorithm, signatureValue BIT STRING }`.
pub(crate) fn assemble(tbs: &[u8], scheme: SignatureScheme, signature: &[u8]) -> Vec<u8> {
    signed_envelope(tbs, scheme, signature)
}

/// The `SEQUENCE { tbs, AlgorithmIdentifier, BIT STRING }` shape shared by certificates,
/// CSRs and CRLs.
pub(crate) fn signed_envelope(tbs: &[u8], scheme: SignatureScheme, signature: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(tbs.len() + signature.len() + 32);
    w.sequence(|w| {
        w.raw(tbs);
        scheme.write_algorithm_identifier(w);
        w.bit_string(signature);
    });
    w.finish()
}

/// A fresh serial: 20 random bytes with the top bit cleared (positive, and exactly 20
/// octets is the RFC 5280 maximum) and never zero.
pub(crate) fn random_serial(fill: impl FnOnce(&mut [u8; 20])) -> [u8; 20] {
    let mut s = [0u8; 20];
    fill(&mut s);
    s[0] &= 0x7f;
    if s[0] == 0 {
        // Keep the encoding at full length so serials sort and display uniformly.
        s[0] = 0x40;
    }
    s
}
