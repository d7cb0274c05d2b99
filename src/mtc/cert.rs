//! MTC certificates (draft-ietf-plants-merkle-tree-certs-07 §6.2) and the CA certificate
//! (§5.5).
//!
//! > The TBSCertificate's version, issuer, validity, subject, issuerUniqueID,
//! > subjectUniqueID and extensions are those of the TBSCertificateLogEntry; its
//! > serialNumber is `(log_number << 48) | index`; its signature and the Certificate's
//! > signatureAlgorithm are id-alg-mtcProof with absent parameters; the signatureValue
//! > holds the MTCProof.
//!
//! Assembly copies every field from the entry byte for byte and never re-encodes.

use super::entry::{encode_entry, parse_tbs_entry, TbsEntryFields};
use super::error::{MtcError, Result};
use super::hash::sha256;
use super::ids::TrustAnchorId;
use super::limits::UINT48_MAX;
use super::proof::MtcProof;
use crate::der::oid_registry as oids;
use crate::der::{tag, Reader, Time, Writer};
use pkit_x509::alg::Algorithm;
use pkit_x509::ext::ku;
use pkit_x509::ext::write::ext;

/// `(log_number << 48) | index`; log numbers are 1..65535, indices at most 2^48 − 2.
pub fn serial_number(log: u16, index: u64) -> Result<u64> {
    if log == 0 || index >= UINT48_MAX {
        return Err(MtcError::Invalid(format!(
            "log {log} index {index}: log must be 1..65535 and index below 2^48-1"
        )));
    }
    Ok((u64::from(log) << 48) | index)
}

/// `(log, index)` of a serial, per §7.2 step 2.
pub fn split_serial(serial: u64) -> (u16, u64) {
    ((serial >> 48) as u16, serial & UINT48_MAX)
}

/// The `AlgorithmIdentifier { id-alg-mtcProof }` DER (parameters absent).
pub fn mtc_proof_algorithm() -> Vec<u8> {
    let mut w = Writer::with_capacity(12);
    w.sequence(|w| {
        w.oid(&oids::ALG_MTC_PROOF);
    });
    w.finish()
}

/// The TBSCertificate for an entry and its SubjectPublicKeyInfo.
pub fn build_tbs(tbs_entry: &[u8], spki: &[u8], serial: u64) -> Result<Vec<u8>> {
    let f: TbsEntryFields<'_> = parse_tbs_entry(tbs_entry)?;
    if sha256(spki) != f.spki_hash || !spki_algorithm_matches(spki, f.spki_algorithm) {
        return Err(MtcError::Invalid(
            "the public key does not match the entry's SPKI hash".into(),
        ));
    }
    let alg = mtc_proof_algorithm();
    let mut w = Writer::with_capacity(tbs_entry.len() + spki.len() + 32);
    w.sequence(|w| {
        if let Some(v) = f.version {
            w.raw(v);
        }
        w.integer_u64(serial);
        w.raw(&alg);
        w.raw(f.issuer);
        w.raw(f.validity);
        w.raw(f.subject);
        w.raw(spki);
        w.raw(f.rest);
    });
    Ok(w.finish())
}

fn spki_algorithm_matches(spki: &[u8], alg: &[u8]) -> bool {
    pkit_x509::spki::Spki::from_der(spki).is_ok_and(|s| s.algorithm.raw == alg)
}

/// `Certificate { tbs, id-alg-mtcProof, BIT STRING (0 unused bits) MTCProof }`.
pub fn assemble(tbs: &[u8], proof: &[u8]) -> Vec<u8> {
    let alg = mtc_proof_algorithm();
    let mut w = Writer::with_capacity(tbs.len() + proof.len() + 24);
    w.sequence(|w| {
        w.raw(tbs);
        w.raw(&alg);
        w.bit_string(proof);
    });
    w.finish()
}

/// A certificate (standalone when `proof` carries signatures, landmark-relative when it
/// carries none) for the entry at `index` of log `log`.
pub fn build_certificate(
    tbs_entry: &[u8],
    spki: &[u8],
    log: u16,
    index: u64,
    proof: &MtcProof,
) -> Result<Vec<u8>> {
    let tbs = build_tbs(tbs_entry, spki, serial_number(log, index)?)?;
    Ok(assemble(&tbs, &proof.encode()?))
}

/// The raw fields of a TBSCertificate, for rebuilding its log entry.
#[derive(Debug, Clone, Copy)]
pub struct TbsCertFields<'a> {
    /// The `[0]` version TLV, absent for v1.
    pub version: Option<&'a [u8]>,
    /// serialNumber INTEGER content octets.
    pub serial: &'a [u8],
    /// The signature AlgorithmIdentifier TLV.
    pub signature: &'a [u8],
    /// The issuer Name TLV.
    pub issuer: &'a [u8],
    /// The Validity TLV.
    pub validity: &'a [u8],
    /// The subject Name TLV.
    pub subject: &'a [u8],
    /// The SubjectPublicKeyInfo TLV.
    pub spki: &'a [u8],
    /// What follows the SPKI (unique IDs and the `[3]` extensions), as it stands.
    pub rest: &'a [u8],
}

/// Split a TBSCertificate TLV into its fields (the certificate has already parsed).
pub fn split_tbs(tbs: &[u8]) -> Result<TbsCertFields<'_>> {
    let bad = |e: crate::der::Error| MtcError::malformed(e.offset, "a TBSCertificate field");
    let mut outer = Reader::new(tbs);
    let mut r = outer.read_sequence().map_err(bad)?;
    let version = if r.peek_tag() == Some(tag::explicit(0)) {
        Some(r.read_raw().map_err(bad)?)
    } else {
        None
    };
    let serial = r.read(tag::INTEGER).map_err(bad)?;
    let signature = r.read_raw().map_err(bad)?;
    let issuer = r.read_raw().map_err(bad)?;
    let validity = r.read_raw().map_err(bad)?;
    let subject = r.read_raw().map_err(bad)?;
    let spki = r.read_raw().map_err(bad)?;
    Ok(TbsCertFields {
        version,
        serial,
        signature,
        issuer,
        validity,
        subject,
        spki,
        rest: r.remaining(),
    })
}

/// §7.2 step 3: the TBSCertificateLogEntry contents a certificate stands for.
pub fn tbs_entry_of(f: &TbsCertFields<'_>) -> Result<Vec<u8>> {
    let spki = pkit_x509::spki::Spki::from_der(f.spki)
        .map_err(|e| MtcError::malformed(e.offset, "a SubjectPublicKeyInfo"))?;
    let mut w = Writer::with_capacity(f.issuer.len() + f.subject.len() + f.rest.len() + 96);
    if let Some(v) = f.version {
        w.raw(v);
    }
    w.raw(f.issuer);
    w.raw(f.validity);
    w.raw(f.subject);
    w.raw(spki.algorithm.raw);
    w.octet_string(&sha256(f.spki));
    w.raw(f.rest);
    Ok(w.finish())
}

/// `entry_convert`: the MTCLogEntry (without entry extensions) and SPKI of an X.509
/// certificate issued by the CA, its TBS fields copied byte for byte.
pub fn entry_from_certificate(cert_der: &[u8]) -> Result<(Vec<u8>, Vec<u8>)> {
    let c = pkit_x509::cert::Certificate::from_der(cert_der)
        .map_err(|e| MtcError::malformed(e.offset, "an X.509 certificate"))?;
    let f = split_tbs(c.tbs_raw)?;
    let entry = encode_entry(&[], &tbs_entry_of(&f)?)?;
    Ok((entry, f.spki.to_vec()))
}

/// What the §5.5 CA certificate says.
#[derive(Debug, Clone)]
pub struct CaCertInput<'a> {
    /// The CA's trust anchor ID, its subject and issuer.
    pub ca_id: &'a TrustAnchorId,
    /// The CA cosigner's SubjectPublicKeyInfo.
    pub spki: &'a [u8],
    /// The cosigner key's algorithm, which the certificate's signature field names.
    pub alg: Algorithm,
    /// The start of the CA certificate's validity.
    pub not_before: Time,
    /// The end of the CA certificate's validity.
    pub not_after: Time,
    /// The serial range that is not revoked.
    pub min_serial: u64,
    /// The serial range's upper end.
    pub max_serial: u64,
}

/// The CA certificate, unsigned (RFC 9925: signatureAlgorithm id-alg-unsigned, empty
/// signature): subject and issuer the CA ID name, keyUsage keyCertSign, basicConstraints
/// cA, SKI the binary CA ID, and the critical
///
/// ```asn1
/// id-pe-mtcCertificationAuthority-SHA256 EXTENSION ::= { SYNTAX MTCCertificationAuthority
///     IDENTIFIED BY { id-pe 38 } CRITICALITY { TRUE } }
/// MTCCertificationAuthority ::= SEQUENCE {
///     sigAlg AlgorithmIdentifier, minSerial INTEGER, maxSerial INTEGER }
/// ```
pub fn ca_certificate(x: &CaCertInput<'_>) -> Vec<u8> {
    let name = x.ca_id.to_name_der();
    let unsigned = {
        let mut w = Writer::with_capacity(12);
        w.sequence(|w| {
            w.oid(&oids::ALG_UNSIGNED);
        });
        w.finish()
    };
    let mut w = Writer::with_capacity(x.spki.len() + 256);
    w.sequence(|w| {
        w.sequence(|w| {
            w.explicit(0, |w| {
                w.integer_u64(2);
            });
            w.integer_u64(1);
            w.raw(&unsigned);
            w.raw(&name);
            w.sequence(|w| {
                w.time(x.not_before);
                w.time(x.not_after);
            });
            w.raw(&name);
            w.raw(x.spki);
            w.explicit(3, |w| {
                w.sequence(|w| {
                    ext(w, &oids::CE_BASIC_CONSTRAINTS, true, |w| {
                        w.sequence(|w| {
                            w.boolean(true);
                        });
                    });
                    ext(w, &oids::CE_KEY_USAGE, true, |w| {
                        w.named_bits(&[ku::KEY_CERT_SIGN]);
                    });
                    ext(w, &oids::CE_SUBJECT_KEY_ID, false, |w| {
                        w.octet_string(x.ca_id.binary());
                    });
                    ext(w, &oids::PE_MTC_CA, true, |w| {
                        w.sequence(|w| {
                            x.alg.default_scheme().write_algorithm_identifier(w);
                            w.integer_u64(x.min_serial);
                            w.integer_u64(x.max_serial);
                        });
                    });
                });
            });
        });
        w.raw(&unsigned);
        w.bit_string(&[]);
    });
    w.finish()
}

/// What a relying party takes from the CA certificate.
#[derive(Debug, Clone)]
pub struct CaInfo {
    /// The CA's trust anchor ID.
    pub ca_id: TrustAnchorId,
    /// The CA cosigner's SPKI.
    pub spki: Vec<u8>,
    /// The lowest serial not revoked.
    pub min_serial: u64,
    /// The highest serial not revoked.
    pub max_serial: u64,
}

impl CaInfo {
    /// Read a §5.5 CA certificate.
    pub fn from_certificate(der: &[u8]) -> Result<CaInfo> {
        let c = pkit_x509::cert::Certificate::from_der(der)
            .map_err(|e| MtcError::malformed(e.offset, "an X.509 CA certificate"))?;
        let ca_id = TrustAnchorId::from_name_der(c.subject.raw).ok_or_else(|| {
            MtcError::malformed(c.subject.offset, "a subject Name holding a trustAnchorID")
        })?;
        let mut range = None;
        if let Some(exts) = c.extensions {
            let list = exts
                .list()
                .map_err(|e| MtcError::malformed(e.offset, "extensions"))?;
            for e in list {
                if e.oid.as_bytes() == oids::PE_MTC_CA.as_bytes() {
                    let bad = |_| MtcError::malformed(e.value_offset, "MTCCertificationAuthority");
                    let mut r = Reader::new(e.value);
                    let mut s = r.read_sequence().map_err(bad)?;
                    s.read_raw().map_err(bad)?;
                    let min = s.read_u64().map_err(bad)?;
                    let max = s.read_u64().map_err(bad)?;
                    range = Some((min, max));
                }
            }
        }
        let (min_serial, max_serial) = range.ok_or_else(|| {
            MtcError::malformed(
                0,
                "the id-pe-mtcCertificationAuthority extension (1.3.6.1.5.5.7.1.38)",
            )
        })?;
        Ok(CaInfo {
            ca_id,
            spki: c.spki.raw.to_vec(),
            min_serial,
            max_serial,
        })
    }
}
