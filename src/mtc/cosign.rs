//! Cosignatures over subtrees (draft-ietf-plants-merkle-tree-certs-07 §5.3, the same
//! bytes as C2SP `subtree/v1`):
//!
//! ```text
//! struct { uint8 label[12] = "subtree/v1\n\0";
//!          opaque cosigner_name<1..2^8-1>;
//!          uint64 timestamp;
//!          opaque log_origin<1..2^8-1>;
//!          uint64 start; uint64 end;
//!          HashValue subtree_hash; } CosignedSubtree;
//! ```
//!
//! Certificates carry cosignatures with timestamp 0; checkpoints sign `[0, size)` with the
//! signing time. Signatures go through the crypto backend ([`pkit_x509::backend`]):
//! ECDSA over SHA-256 (DER-encoded), Ed25519, ML-DSA with an empty context. Signing many
//! subtrees uses one [`Signer`] per thread ([`Cosigner::signer`]).

use super::error::{MtcError, Result};
use super::hash::{sha256, Hash};
use super::ids::TrustAnchorId;
use super::subtree::Subtree;
use crate::der::tls;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::{Backend, PrivateKey, Signer};
use pkit_x509::spki::Spki;

/// `"subtree/v1\n\0"`.
pub const SUBTREE_LABEL: &[u8; 12] = b"subtree/v1\n\0";

/// The CosignedSubtree message.
pub fn cosigned_subtree(
    cosigner: &TrustAnchorId,
    timestamp: u64,
    log: &TrustAnchorId,
    st: Subtree,
    hash: &Hash,
) -> Result<Vec<u8>> {
    let name = cosigner.note_name();
    let origin = log.note_name();
    let mut m = tls::Writer::with_capacity(12 + 2 + name.len() + origin.len() + 24 + 32);
    // Names are "oid/1.3.6.1.4.1." and the decimal arcs of an ID of at most a few dozen
    // bytes, well under 255 bytes; the vector checks it anyway.
    let long = |_| MtcError::Invalid(format!("note name {name} or {origin} exceeds 255 bytes"));
    m.bytes(SUBTREE_LABEL);
    m.opaque(1, 0xff, name.as_bytes()).map_err(long)?;
    m.u64(timestamp);
    m.opaque(1, 0xff, origin.as_bytes()).map_err(long)?;
    m.u64(st.start).u64(st.end).bytes(hash);
    Ok(m.finish())
}

/// The checkpoint key-ID type byte of a cosigner algorithm. C2SP assigns 0x04
/// (Ed25519, cosignature/v1) and 0x06 (ML-DSA-44, the mtc-tlog profile's algorithm);
/// for the other algorithms pkit uses bytes from the range C2SP leaves unassigned,
/// a local extension documented in docs/mtc-log.md: 0x80 ECDSA P-256 (SHA-256, DER
/// signature), 0x81 ML-DSA-65, 0x82 ML-DSA-87.
pub fn key_id_type(alg: Algorithm) -> Option<u8> {
    Some(match alg {
        Algorithm::Ed25519 => 0x04,
        Algorithm::MlDsa44 => 0x06,
        Algorithm::EcdsaP256 => 0x80,
        Algorithm::MlDsa65 => 0x81,
        Algorithm::MlDsa87 => 0x82,
        _ => return None,
    })
}

/// The cosigner algorithms pkit supports.
pub const COSIGNER_ALGORITHMS: [Algorithm; 5] = [
    Algorithm::EcdsaP256,
    Algorithm::Ed25519,
    Algorithm::MlDsa44,
    Algorithm::MlDsa65,
    Algorithm::MlDsa87,
];

/// A cosigner's public side: what a relying party needs to check its signatures.
#[derive(Debug, Clone)]
pub struct CosignerKey {
    /// The cosigner's trust anchor ID.
    pub id: TrustAnchorId,
    /// The key's algorithm.
    pub alg: Algorithm,
    /// SubjectPublicKeyInfo DER.
    pub spki: Vec<u8>,
}

/// The SubjectPublicKeyInfo a cosigner's public key is handed over in: a certificate's
/// (a CA's `mtc-ca.pem`, a witness's certificate), else a bare `PUBLIC KEY`. Bytes that
/// are neither fail as a SubjectPublicKeyInfo, the simpler of the two.
pub fn spki_of_cert_or_key(der: &[u8]) -> std::result::Result<Vec<u8>, crate::der::Error> {
    match pkit_x509::cert::Certificate::from_der(der) {
        Ok(c) => Ok(c.spki.raw.to_vec()),
        Err(_) => Ok(Spki::from_der(der)?.raw.to_vec()),
    }
}

impl CosignerKey {
    /// The cosigner `id` with the SubjectPublicKeyInfo `spki`; an algorithm no key ID type is assigned to is refused.
    pub fn new(id: TrustAnchorId, spki: Vec<u8>) -> Result<CosignerKey> {
        let alg = Algorithm::from_spki(&spki)
            .filter(|a| key_id_type(*a).is_some())
            .ok_or_else(|| {
                MtcError::Invalid(format!(
                    "cosigner {id}: the key is not one of ecdsa-p256, ed25519, ml-dsa-44, ml-dsa-65, ml-dsa-87"
                ))
            })?;
        Ok(CosignerKey { id, alg, spki })
    }

    /// Checkpoint key ID: `SHA-256(name || "\n" || type || public key)[:4]`, the public
    /// key being the subjectPublicKey bits (raw Ed25519/ML-DSA key, uncompressed EC
    /// point).
    pub fn key_id(&self) -> [u8; 4] {
        let raw = Spki::from_der(&self.spki)
            .map(|s| s.key.bytes.to_vec())
            .unwrap_or_default();
        let mut m = self.id.note_name().into_bytes();
        m.push(b'\n');
        m.push(key_id_type(self.alg).unwrap_or(0));
        m.extend_from_slice(&raw);
        let h = sha256(&m);
        [h[0], h[1], h[2], h[3]]
    }

    /// Check a signature over a CosignedSubtree with `backend`.
    pub fn verify_subtree(
        &self,
        backend: &Backend,
        timestamp: u64,
        log: &TrustAnchorId,
        st: Subtree,
        hash: &Hash,
        signature: &[u8],
    ) -> Result<bool> {
        let m = cosigned_subtree(&self.id, timestamp, log, st, hash)?;
        self.verify_message(backend, &m, signature)
    }

    /// Check a signature over `message` with this key (its algorithm's scheme).
    pub fn verify_message(
        &self,
        backend: &Backend,
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool> {
        Ok(backend.verify(&self.spki, self.alg.default_scheme(), message, signature)?)
    }
}

/// A cosigner that can sign: its public side and the private key.
#[derive(Debug)]
pub struct Cosigner {
    /// Its public half: ID, key and algorithm.
    pub public: CosignerKey,
    key: Box<dyn PrivateKey>,
}

impl Cosigner {
    /// The cosigner `id` signing with `key`.
    pub fn new(id: TrustAnchorId, key: Box<dyn PrivateKey>) -> Result<Cosigner> {
        let public = CosignerKey::new(id, key.public_key_der()?)?;
        Ok(Cosigner { public, key })
    }

    /// A signing context for one thread.
    pub fn signer(&self) -> Result<Box<dyn Signer>> {
        Ok(self.key.signer()?)
    }

    /// Sign the CosignedSubtree for `st` with `hash`.
    pub fn sign_subtree(
        &self,
        signer: &mut dyn Signer,
        timestamp: u64,
        log: &TrustAnchorId,
        st: Subtree,
        hash: &Hash,
    ) -> Result<Vec<u8>> {
        let m = cosigned_subtree(&self.public.id, timestamp, log, st, hash)?;
        Ok(signer.sign(&m)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkit_openssl as openssl;

    #[test]
    fn a_cosigners_key_from_a_certificate_or_a_bare_key() {
        let key = openssl::backend().generate(Algorithm::Ed25519).unwrap();
        let spki = key.public_key_der().unwrap();
        let ca = TrustAnchorId::parse("32473.1").unwrap();
        let cert = crate::cert::ca_certificate(&crate::cert::CaCertInput {
            ca_id: &ca,
            spki: &spki,
            alg: Algorithm::Ed25519,
            not_before: crate::der::Time {
                unix: 1_800_000_000,
            },
            not_after: crate::der::Time {
                unix: 1_900_000_000,
            },
            min_serial: 0,
            max_serial: 1,
        });
        assert_eq!(spki_of_cert_or_key(&cert).unwrap(), spki);
        assert_eq!(spki_of_cert_or_key(&spki).unwrap(), spki);
        assert!(spki_of_cert_or_key(&[0x30, 0x00]).is_err());
    }

    #[test]
    fn message_layout() {
        let ca = TrustAnchorId::parse("32473.1").unwrap();
        let m = cosigned_subtree(&ca, 0, &ca.log_id(1), Subtree::new(4, 8), &[7; 32]).unwrap();
        assert_eq!(&m[..12], b"subtree/v1\n\0");
        assert_eq!(m[12] as usize, "oid/1.3.6.1.4.1.32473.1".len());
        assert_eq!(m.len(), 12 + 1 + 23 + 8 + 1 + 27 + 16 + 32);
    }

    #[test]
    fn sign_and_verify_every_algorithm() {
        let ca = TrustAnchorId::parse("32473.1").unwrap();
        let log = ca.log_id(1);
        for alg in COSIGNER_ALGORITHMS {
            let key = openssl::backend().generate(alg).unwrap();
            let c = Cosigner::new(ca.clone(), key).unwrap();
            let mut s = c.signer().unwrap();
            let st = Subtree::new(0, 3);
            let sig = c.sign_subtree(&mut *s, 0, &log, st, &[1; 32]).unwrap();
            assert!(c
                .public
                .verify_subtree(openssl::backend(), 0, &log, st, &[1; 32], &sig)
                .unwrap());
            assert!(!c
                .public
                .verify_subtree(openssl::backend(), 1, &log, st, &[1; 32], &sig)
                .unwrap());
            assert_eq!(c.public.key_id().len(), 4);
        }
    }
}
