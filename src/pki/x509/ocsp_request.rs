//! Building OCSP requests and matching `CertID`s (RFC 6960 §4.1.1).
//!
//! A CertID names a certificate by its issuer and serial: `issuerNameHash` is the hash of
//! the issuer certificate's subject Name DER, `issuerKeyHash` the hash of the issuer's
//! subjectPublicKey BIT STRING value (without tag, length and unused-bits octet), both
//! with the hash the CertID's `hashAlgorithm` names. Requester, responder and verifier
//! all compute it here, so the three agree by construction.

#![forbid(unsafe_code)]

use crate::alg::Digest;
use crate::backend::Backend;
use crate::cert::Certificate;
use crate::der::oid_registry as oids;
use crate::der::{integer, Oid, Writer};
use crate::ocsp::{CertId, OcspRequest};

/// The hash OID for a CertID `hashAlgorithm`.
pub fn digest_oid(d: Digest) -> Oid {
    match d {
        Digest::Sha1 => oids::SHA1,
        Digest::Sha224 => oids::SHA224,
        Digest::Sha256 => oids::SHA256,
        Digest::Sha384 => oids::SHA384,
        Digest::Sha512 => oids::SHA512,
    }
}

/// The digest a CertID's `hashAlgorithm` names, when pkit computes it.
pub fn digest_of(id: &CertId<'_>) -> Option<Digest> {
    let o = id.hash_algorithm.oid;
    [Digest::Sha1, Digest::Sha256, Digest::Sha384, Digest::Sha512]
        .into_iter()
        .find(|d| o == digest_oid(*d))
}

/// The issuer half of a CertID: both hashes of one issuer certificate under one digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuerHashes {
    /// The hashAlgorithm both hashes are made with.
    pub digest: Digest,
    /// issuerNameHash: the hash of the issuer's subject Name DER.
    pub name_hash: Vec<u8>,
    /// issuerKeyHash: the hash of the issuer's subjectPublicKey BIT STRING content (RFC
    /// 6960 §4.1.1).
    pub key_hash: Vec<u8>,
}

impl IssuerHashes {
    /// Both hashes of `issuer` under `digest`.
    pub fn of(b: &Backend, issuer: &Certificate<'_>, digest: Digest) -> IssuerHashes {
        IssuerHashes {
            digest,
            name_hash: b.digest(digest, issuer.subject.raw),
            key_hash: b.digest(digest, issuer.spki.key.bytes),
        }
    }

    /// True when `id` names a certificate of this issuer (same digest, same hashes).
    pub fn issued(&self, id: &CertId<'_>) -> bool {
        digest_of(id) == Some(self.digest)
            && id.issuer_name_hash == self.name_hash.as_slice()
            && id.issuer_key_hash == self.key_hash.as_slice()
    }

    /// Encode `CertID ::= SEQUENCE { hashAlgorithm, issuerNameHash, issuerKeyHash,
    /// serialNumber }` for the serial whose INTEGER content octets are `serial`. The
    /// hash AlgorithmIdentifier carries NULL parameters, as OpenSSL and most responders
    /// write it (and match it byte for byte).
    pub fn write_cert_id(&self, w: &mut Writer, serial: &[u8]) {
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&digest_oid(self.digest));
                w.null();
            });
            w.octet_string(&self.name_hash);
            w.octet_string(&self.key_hash);
            w.integer_unsigned(integer::unsigned_bytes(serial));
        });
    }
}

/// True when `id` names `cert`, as issued by `issuer`, under the CertID's own digest.
pub fn cert_id_matches(
    backend: &Backend,
    id: &CertId<'_>,
    issuer: &Certificate<'_>,
    cert: &Certificate<'_>,
) -> bool {
    let Some(d) = digest_of(id) else {
        return false;
    };
    IssuerHashes::of(backend, issuer, d).issued(id) && same_serial(id.serial, cert.serial)
}

/// Two INTEGER content octets name the same serial (ignoring a leading sign octet).
pub fn same_serial(a: &[u8], b: &[u8]) -> bool {
    integer::unsigned_bytes(a) == integer::unsigned_bytes(b)
}

/// RFC 8954 §2.1: a nonce of 1..=32 octets; 32 is what it recommends.
pub const NONCE_LEN: usize = 32;

/// A fresh nonce for a request (RFC 8954): [`NONCE_LEN`] octets from the backend's
/// random generator.
pub fn new_nonce(be: &Backend) -> crate::backend::Result<[u8; NONCE_LEN]> {
    let bytes = be.pbe().random(NONCE_LEN)?;
    let mut nonce = [0u8; NONCE_LEN];
    nonce.copy_from_slice(bytes.get(..NONCE_LEN).ok_or_else(|| {
        crate::backend::BackendError::Crypto(format!(
            "the random generator gave {} octets of the {NONCE_LEN} asked for",
            bytes.len()
        ))
    })?);
    Ok(nonce)
}

/// The request a response is held against (`pkit ocsp verify --request`): read whole —
/// its list of requests and its nonce decoded — so that a malformed request is refused as
/// such rather than taken for a mismatch with the response.
pub fn read_request(der: &[u8]) -> crate::der::Result<OcspRequest<'_>> {
    let q = OcspRequest::from_der(der)?;
    q.requests()?;
    find_nonce(q.request_extensions.as_ref())?;
    Ok(q)
}

/// An unsigned `OCSPRequest` for one certificate, with a nonce extension when given.
///
/// ```asn1
/// OCSPRequest ::= SEQUENCE { tbsRequest TBSRequest }
/// TBSRequest ::= SEQUENCE {
///     requestList             SEQUENCE OF Request,
///     requestExtensions   [2] EXPLICIT Extensions OPTIONAL }
/// Request ::= SEQUENCE { reqCert CertID }
/// ```
pub fn encode_request(issuer: &IssuerHashes, serial: &[u8], nonce: Option<&[u8]>) -> Vec<u8> {
    let mut w = Writer::with_capacity(160);
    w.sequence(|w| {
        w.sequence(|w| {
            w.sequence(|w| {
                w.sequence(|w| issuer.write_cert_id(w, serial));
            });
            if let Some(n) = nonce {
                w.explicit(2, |w| {
                    w.sequence(|w| write_nonce_extension(w, n));
                });
            }
        });
    });
    w.finish()
}

/// The id-pkix-ocsp-nonce Extension; RFC 8954 §2.1: its extnValue holds the DER of
/// `Nonce ::= OCTET STRING`.
pub fn write_nonce_extension(w: &mut Writer, nonce: &[u8]) {
    crate::ext::write::ext(w, &oids::PKIX_OCSP_NONCE, false, |w| {
        w.octet_string(nonce);
    });
}

/// ResponderID byKey (RFC 6960 §4.2.1): the SHA-1 of the responder's subjectPublicKey
/// BIT STRING value, whatever hash the CertIDs use.
pub fn responder_key_hash(backend: &Backend, cert: &Certificate<'_>) -> Vec<u8> {
    backend.digest(Digest::Sha1, cert.spki.key.bytes)
}

/// The http URLs of the OCSP responders `cert`'s authorityInfoAccess names (RFC 5280
/// §4.2.2.1, id-ad-ocsp), in order. Other schemes are left out: pkit asks over HTTP only.
pub fn responder_urls(cert: &Certificate<'_>) -> Vec<String> {
    let Some(crate::ext::ExtensionValue::AuthorityInfoAccess(list)) =
        cert.extension_value(&oids::PE_AUTHORITY_INFO_ACCESS)
    else {
        return Vec::new();
    };
    list.iter()
        .filter(|a| a.access_method == oids::AD_OCSP)
        .filter_map(|a| match &a.access_location {
            crate::ext::GeneralName::Uri(u) if u.starts_with("http://") => Some(u.to_string()),
            _ => None,
        })
        .collect()
}

/// The nonce of a request or response, from its id-pkix-ocsp-nonce extension.
pub fn find_nonce<'a>(
    exts: Option<&crate::extension::Extensions<'a>>,
) -> crate::der::Result<Option<&'a [u8]>> {
    let Some(e) = exts.and_then(|x| x.find(&oids::PKIX_OCSP_NONCE).transpose()) else {
        return Ok(None);
    };
    let e = e?;
    match crate::ext::decode(e.oid, e.value, e.value_offset)? {
        crate::ext::ExtensionValue::OcspNonce(n) => Ok(Some(n)),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip() {
        let hashes = IssuerHashes {
            digest: Digest::Sha256,
            name_hash: vec![1; 32],
            key_hash: vec![2; 32],
        };
        // A serial given with its sign octet encodes minimally and still matches.
        let der = encode_request(&hashes, &[0x00, 0x80, 0x01], Some(&[9; NONCE_LEN]));
        let q = OcspRequest::from_der(&der).unwrap();
        let list = q.requests().unwrap();
        assert_eq!(list.len(), 1);
        let id = &list[0].cert_id;
        assert!(hashes.issued(id));
        assert_eq!(digest_of(id), Some(Digest::Sha256));
        assert_eq!(id.serial, [0x00, 0x80, 0x01]);
        assert!(same_serial(id.serial, &[0x80, 0x01]));
        assert!(!same_serial(id.serial, &[0x80, 0x02]));
        assert_eq!(
            find_nonce(q.request_extensions.as_ref()).unwrap(),
            Some(&[9u8; NONCE_LEN][..])
        );

        let plain = encode_request(&hashes, &[5], None);
        let q = OcspRequest::from_der(&plain).unwrap();
        assert!(q.request_extensions.is_none());
        assert_eq!(find_nonce(q.request_extensions.as_ref()).unwrap(), None);
        let other = IssuerHashes {
            key_hash: vec![3; 32],
            ..hashes
        };
        assert!(!other.issued(&q.requests().unwrap()[0].cert_id));
    }

    #[test]
    fn a_request_is_read_whole() {
        let hashes = IssuerHashes {
            digest: Digest::Sha1,
            name_hash: vec![1; 20],
            key_hash: vec![2; 20],
        };
        let good = encode_request(&hashes, &[7], Some(&[9; 8]));
        assert_eq!(read_request(&good).unwrap().requests().unwrap().len(), 1);
        // A nonce extension whose value is a NULL, not an OCTET STRING.
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.sequence(|w| {
                    w.sequence(|w| hashes.write_cert_id(w, &[7]));
                });
                w.explicit(2, |w| {
                    w.sequence(|w| {
                        w.sequence(|w| {
                            w.oid(&oids::PKIX_OCSP_NONCE);
                            w.octet_string(&[0x05, 0x00]);
                        });
                    });
                });
            });
        });
        let bad = w.finish();
        assert!(OcspRequest::from_der(&bad).is_ok(), "the envelope reads");
        assert!(read_request(&bad).is_err(), "the nonce does not");
        assert!(read_request(&good[..good.len() - 1]).is_err());
    }
}
