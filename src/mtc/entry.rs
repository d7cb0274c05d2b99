//! Log entries (draft-ietf-plants-merkle-tree-certs-07 §5.2.1).
//!
//! ```text
//! struct { MTCLogEntryExtensionType extension_type; opaque extension_data<0..2^16-1>; }
//!     MTCLogEntryExtension;
//! enum { null_entry(0), tbs_cert_entry(1), (2^16-1) } MTCLogEntryType;
//! struct { MTCLogEntryExtension extensions<0..2^16-1>;
//!          MTCLogEntryType type;
//!          select (type) { case null_entry: Empty;
//!                          case tbs_cert_entry: opaque tbs_cert_entry_data[N]; } } MTCLogEntry;
//! ```
//!
//! `tbs_cert_entry_data` is the contents octets of
//!
//! ```asn1
//! TBSCertificateLogEntry ::= SEQUENCE {
//!     version               [0] EXPLICIT Version DEFAULT v1,
//!     issuer                    Name,
//!     validity                  Validity,
//!     subject                   Name,
//!     subjectPublicKeyAlgorithm AlgorithmIdentifier,
//!     subjectPublicKeyInfoHash  OCTET STRING,
//!     issuerUniqueID        [1] IMPLICIT UniqueIdentifier OPTIONAL,
//!     subjectUniqueID       [2] IMPLICIT UniqueIdentifier OPTIONAL,
//!     extensions            [3] EXPLICIT Extensions OPTIONAL }
//! ```
//!
//! Every field but the SPKI hash is an X.509 TBSCertificate field copied byte for byte,
//! in both directions (issuance and verification), so the two encodings can never drift.

use super::error::{MtcError, Result};
use super::hash::{sha256, Hash};
use crate::der::oid_registry as oids;
use crate::der::{tag, tls, Reader, Time, Writer};
use pkit_x509::ext::ku;
use pkit_x509::ext::write::ext;

/// `tbs_cert_entry(1)`.
pub const TBS_CERT_ENTRY: u16 = 1;
/// An MTCLogEntry "is at most 65535 bytes".
pub const MAX_ENTRY_LEN: usize = 65535;

/// What a TBSCertificateLogEntry is made from, as DER pieces.
pub struct TbsEntryInput<'a> {
    /// The CA ID Name ([`super::ids::TrustAnchorId::to_name_der`]).
    pub issuer: &'a [u8],
    /// The start of the entry's validity.
    pub not_before: Time,
    /// The end of the entry's validity.
    pub not_after: Time,
    /// Subject Name TLV.
    pub subject: &'a [u8],
    /// The whole SubjectPublicKeyInfo TLV (its AlgorithmIdentifier is copied, the rest
    /// hashed).
    pub spki: &'a [u8],
    /// Extension TLVs (the elements of `Extensions`), empty for none.
    pub extensions: &'a [u8],
}

/// The leaf extensions pkit writes into an entry: keyUsage digitalSignature (critical),
/// extKeyUsage serverAuth, and the SANs (critical when the subject is empty, RFC 5280
/// §4.2.1.6), followed by `copied` (Extension TLVs from a CSR, minus the ones pkit
/// sets itself).
pub fn leaf_extensions(sans: &[Vec<u8>], subject_empty: bool, copied: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(128);
    ext(&mut w, &oids::CE_KEY_USAGE, true, |w| {
        w.named_bits(&[ku::DIGITAL_SIGNATURE]);
    });
    ext(&mut w, &oids::CE_EXT_KEY_USAGE, false, |w| {
        w.sequence(|w| {
            w.oid(&oids::KP_SERVER_AUTH);
        });
    });
    if !sans.is_empty() {
        ext(&mut w, &oids::CE_SUBJECT_ALT_NAME, subject_empty, |w| {
            w.sequence(|w| {
                for s in sans {
                    w.raw(s);
                }
            });
        });
    }
    let own = [
        oids::CE_KEY_USAGE.as_bytes(),
        oids::CE_EXT_KEY_USAGE.as_bytes(),
    ];
    let mut r = Reader::new(copied);
    while let Ok(raw) = r.read_raw() {
        let oid = Reader::new(raw)
            .read_sequence()
            .and_then(|mut s| s.read_oid().map(|o| o.as_bytes().to_vec()))
            .unwrap_or_default();
        let replaced_san = !sans.is_empty() && oid == oids::CE_SUBJECT_ALT_NAME.as_bytes();
        if !replaced_san && !own.contains(&oid.as_slice()) {
            w.raw(raw);
        }
    }
    w.finish()
}

/// The contents octets of the TBSCertificateLogEntry (v3 when there are extensions).
pub fn encode_tbs_entry(x: &TbsEntryInput<'_>) -> Result<Vec<u8>> {
    let spki = pkit_x509::spki::Spki::from_der(x.spki)
        .map_err(|e| MtcError::malformed(e.offset, "a SubjectPublicKeyInfo"))?;
    let mut w = Writer::with_capacity(x.issuer.len() + x.subject.len() + x.extensions.len() + 96);
    if !x.extensions.is_empty() {
        w.explicit(0, |w| {
            w.integer_u64(2);
        });
    }
    w.raw(x.issuer);
    w.sequence(|w| {
        w.time(x.not_before);
        w.time(x.not_after);
    });
    w.raw(x.subject);
    w.raw(spki.algorithm.raw);
    w.octet_string(&sha256(x.spki));
    if !x.extensions.is_empty() {
        w.explicit(3, |w| {
            w.sequence(|w| {
                w.raw(x.extensions);
            });
        });
    }
    Ok(w.finish())
}

/// The MTCLogEntry bytes: `extensions` (the raw vector contents, usually empty), type
/// `tbs_cert_entry`, then the TBSCertificateLogEntry contents.
pub fn encode_entry(extensions: &[u8], tbs_entry: &[u8]) -> Result<Vec<u8>> {
    let len = 2 + extensions.len() + 2 + tbs_entry.len();
    if len > MAX_ENTRY_LEN {
        return Err(MtcError::Invalid(format!(
            "log entry of {len} bytes exceeds the 65535-byte limit"
        )));
    }
    let mut w = tls::Writer::with_capacity(len);
    w.opaque(0, 0xffff, extensions)
        .map_err(MtcError::too_long)?
        .u16(TBS_CERT_ENTRY)
        .bytes(tbs_entry);
    Ok(w.finish())
}

/// Check `MTCLogEntryExtension extensions<0..2^16-1>` contents: well-formed, types
/// strictly ascending (sorted, no duplicates). `offset` is where `data` starts.
pub fn check_entry_extensions(data: &[u8], offset: usize) -> Result<()> {
    let mut r = tls::Reader::with_base(data, offset);
    let mut last: Option<u16> = None;
    while !r.is_empty() {
        let at = r.offset();
        // The header is checked whole before its type is judged.
        let header = |_| MtcError::malformed(at, "an MTCLogEntryExtension header");
        let ty = r.u16().map_err(header)?;
        let n = r.u16().map_err(header)?;
        if last.is_some_and(|l| l >= ty) {
            return Err(MtcError::malformed(
                at,
                "extension types in strictly ascending order",
            ));
        }
        last = Some(ty);
        let data_at = r.offset();
        r.bytes(usize::from(n))
            .map_err(|_| MtcError::malformed(data_at, format!("{n} bytes of extension_data")))?;
    }
    Ok(())
}

/// A decoded MTCLogEntry of type `tbs_cert_entry`.
#[derive(Debug, Clone, Copy)]
pub struct ParsedEntry<'a> {
    /// The extensions TLV (`[3]`), empty when absent.
    pub extensions: &'a [u8],
    /// The TBSCertificateLogEntry contents octets.
    pub tbs_entry: &'a [u8],
}

/// Decode an MTCLogEntry (only `tbs_cert_entry` is accepted: "a CA must not sign
/// subtrees containing unknown entry types").
pub fn parse_entry(entry: &[u8]) -> Result<ParsedEntry<'_>> {
    let mut r = tls::Reader::new(entry);
    let n = r
        .u16()
        .map_err(|_| MtcError::malformed(0, "the extensions length"))?;
    let (extensions, ty) = r
        .bytes(usize::from(n))
        .and_then(|ext| Ok((ext, r.u16()?)))
        .map_err(|_| MtcError::malformed(entry.len(), "extensions and the entry type"))?;
    check_entry_extensions(extensions, 2)?;
    if ty != TBS_CERT_ENTRY {
        return Err(MtcError::malformed(
            2 + extensions.len(),
            "entry type tbs_cert_entry (1)",
        ));
    }
    Ok(ParsedEntry {
        extensions,
        tbs_entry: r.remaining(),
    })
}

/// The fields of a TBSCertificateLogEntry, borrowed as raw TLVs.
#[derive(Debug, Clone, Copy)]
pub struct TbsEntryFields<'a> {
    /// The `[0]` version TLV, absent for v1.
    pub version: Option<&'a [u8]>,
    /// The issuer Name TLV (the CA ID Name).
    pub issuer: &'a [u8],
    /// The Validity TLV.
    pub validity: &'a [u8],
    /// The subject Name TLV.
    pub subject: &'a [u8],
    /// The subject key's AlgorithmIdentifier TLV.
    pub spki_algorithm: &'a [u8],
    /// The SHA-256 hash of the subject's SubjectPublicKeyInfo.
    pub spki_hash: Hash,
    /// issuerUniqueID, subjectUniqueID and extensions TLVs, as they follow the hash.
    pub rest: &'a [u8],
}

/// The next element, which must carry tag `t`, with its header.
fn field<'a>(r: &mut Reader<'a>, t: u8, what: &str) -> Result<&'a [u8]> {
    if r.peek_tag() != Some(t) {
        return Err(MtcError::malformed(r.offset(), what));
    }
    r.read_raw()
        .map_err(|e| MtcError::malformed(e.offset, what))
}

/// Split TBSCertificateLogEntry contents octets into fields.
pub fn parse_tbs_entry(contents: &[u8]) -> Result<TbsEntryFields<'_>> {
    let mut r = Reader::new(contents);
    let version = if r.peek_tag() == Some(tag::explicit(0)) {
        Some(field(&mut r, tag::explicit(0), "the version")?)
    } else {
        None
    };
    let issuer = field(&mut r, tag::SEQUENCE, "the issuer Name")?;
    let validity = field(&mut r, tag::SEQUENCE, "the Validity")?;
    let subject = field(&mut r, tag::SEQUENCE, "the subject Name")?;
    let spki_algorithm = field(&mut r, tag::SEQUENCE, "subjectPublicKeyAlgorithm")?;
    let at = r.offset();
    let hash_tlv = field(&mut r, tag::OCTET_STRING, "subjectPublicKeyInfoHash")?;
    let spki_hash: Hash = hash_tlv
        .get(2..)
        .filter(|h| hash_tlv[1] == 32 && h.len() == 32)
        .and_then(|h| h.try_into().ok())
        .ok_or_else(|| MtcError::malformed(at, "a 32-byte SHA-256 SPKI hash"))?;
    Ok(TbsEntryFields {
        version,
        issuer,
        validity,
        subject,
        spki_algorithm,
        spki_hash,
        rest: r.remaining(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_wire_prefix() {
        let id = crate::ids::TrustAnchorId::parse("32473.1").unwrap();
        let issuer = id.to_name_der();
        // An Ed25519 SPKI with an all-zero key.
        let mut key = vec![
            0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
        ];
        key.extend([0u8; 32]);
        let subject = [0x30, 0x00];
        let ext = leaf_extensions(&[], false, &[]);
        let tbs = encode_tbs_entry(&TbsEntryInput {
            issuer: &issuer,
            not_before: Time { unix: 0 },
            not_after: Time { unix: 86400 },
            subject: &subject,
            spki: &key,
            extensions: &ext,
        })
        .unwrap();
        let entry = encode_entry(&[], &tbs).unwrap();
        assert_eq!(entry[..9], [0, 0, 0, 1, 0xa0, 3, 2, 1, 2]);
        assert_eq!(entry[9..9 + issuer.len()], issuer[..]);
        let p = parse_entry(&entry).unwrap();
        let f = parse_tbs_entry(p.tbs_entry).unwrap();
        assert_eq!(f.spki_hash, sha256(&key));
        assert_eq!(f.subject, subject);
        assert_eq!(f.rest[0], 0xa3);
    }

    #[test]
    fn extension_order_enforced() {
        assert!(check_entry_extensions(&[0, 1, 0, 0, 0, 2, 0, 0], 0).is_ok());
        assert!(check_entry_extensions(&[0, 2, 0, 0, 0, 1, 0, 0], 0).is_err());
        assert!(check_entry_extensions(&[0, 1, 0, 0, 0, 1, 0, 0], 0).is_err());
        assert!(check_entry_extensions(&[0, 1, 0, 5], 0).is_err());
    }
}
