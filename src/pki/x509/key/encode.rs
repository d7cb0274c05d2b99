//! SubjectPublicKeyInfo and PKCS#8 encodings of the fixed-size key types (ECDSA P-256/P-384,
//! Ed25519, ML-DSA) from their raw components.
//!
//! Why not let OpenSSL encode them: OpenSSL 3 serialises provider keys through
//! `OSSL_ENCODER`, which searches every provider's encoders by name on each call; for a
//! P-256 key that search costs more than generating the key (perf on `pkit issue batch`:
//! `collect_encoder`, `ossl_method_store_do_all`). These encodings are fixed, short
//! and fully specified, so the DER writer produces them directly.
//!
//! ```asn1
//! SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier,
//!                                     subjectPublicKey BIT STRING }
//! PrivateKeyInfo ::= SEQUENCE { version INTEGER (0), privateKeyAlgorithm AlgorithmIdentifier,
//!                               privateKey OCTET STRING }            -- RFC 5208
//! ECPrivateKey ::= SEQUENCE { version INTEGER (1), privateKey OCTET STRING,
//!                             parameters [0] ECParameters OPTIONAL,
//!                             publicKey [1] BIT STRING OPTIONAL }     -- RFC 5915
//! CurvePrivateKey ::= OCTET STRING                                     -- RFC 8410
//! ```

use crate::alg::Algorithm;
use crate::der::{oid_registry as oids, tag, Writer};

/// The key's AlgorithmIdentifier as SPKI and PKCS#8 carry it: id-ecPublicKey with the
/// named curve (RFC 5480 2.1.1), no parameters for Ed25519 (RFC 8410 3) and ML-DSA
/// (RFC 9881 2). None for RSA, whose keys OpenSSL still encodes.
fn write_key_algorithm(w: &mut Writer, alg: Algorithm) -> Option<()> {
    let (oid, curve) = match alg {
        Algorithm::EcdsaP256 => (oids::EC_PUBLIC_KEY, Some(oids::SECP256R1)),
        Algorithm::EcdsaP384 => (oids::EC_PUBLIC_KEY, Some(oids::SECP384R1)),
        Algorithm::Ed25519 => (oids::ED25519, None),
        Algorithm::MlDsa44 => (oids::ML_DSA_44, None),
        Algorithm::MlDsa65 => (oids::ML_DSA_65, None),
        Algorithm::MlDsa87 => (oids::ML_DSA_87, None),
        Algorithm::Rsa2048 | Algorithm::Rsa3072 | Algorithm::Rsa4096 => return None,
    };
    w.sequence(|w| {
        w.oid(&oid);
        if let Some(c) = curve {
            w.oid(&c);
        }
    });
    Some(())
}

/// SubjectPublicKeyInfo for `public` (an uncompressed EC point, or the raw Ed25519 or
/// ML-DSA public key). None for RSA.
pub fn spki(alg: Algorithm, public: &[u8]) -> Option<Vec<u8>> {
    let mut w = Writer::with_capacity(public.len() + 32);
    let mut known = None;
    w.sequence(|w| {
        known = write_key_algorithm(w, alg);
        w.bit_string(public);
    });
    known.map(|()| w.finish())
}

/// PKCS#8 PrivateKeyInfo for an ECDSA key (`scalar` big-endian, any length up to the
/// curve's) or an Ed25519 key (`scalar` the 32-byte private key; `public` unused). The EC
/// form carries the public key and, like OpenSSL's, omits the curve inside ECPrivateKey
/// since the AlgorithmIdentifier names it. None for other algorithms.
pub fn classic_pkcs8(alg: Algorithm, scalar: &[u8], public: &[u8]) -> Option<Vec<u8>> {
    let field_len = match alg {
        Algorithm::EcdsaP256 => Some(32),
        Algorithm::EcdsaP384 => Some(48),
        Algorithm::Ed25519 => None,
        _ => return None,
    };
    if let Some(n) = field_len {
        if scalar.len() > n {
            return None;
        }
    }
    let mut w = Writer::with_capacity(200);
    w.sequence(|w| {
        w.integer_u64(0);
        write_key_algorithm(w, alg);
        w.tlv(tag::OCTET_STRING, |w| match field_len {
            Some(n) => {
                // RFC 5915 3: privateKey is the scalar as an octet string of the curve's
                // field length, leading zeros kept.
                let mut padded = [0u8; 48];
                padded[n - scalar.len()..n].copy_from_slice(scalar);
                w.sequence(|w| {
                    w.integer_u64(1);
                    w.octet_string(&padded[..n]);
                    w.explicit(1, |w| {
                        w.bit_string(public);
                    });
                });
                padded.fill(0);
            }
            None => {
                w.octet_string(scalar);
            }
        });
    });
    Some(w.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn short_scalars_are_padded() {
        let d = classic_pkcs8(Algorithm::EcdsaP256, &[1], &[4; 65]).unwrap();
        let zeros_then_one: Vec<u8> = [vec![0u8; 31], vec![1]].concat();
        assert!(d.windows(32).any(|x| x == zeros_then_one.as_slice()));
        assert!(classic_pkcs8(Algorithm::EcdsaP256, &[1; 33], &[4; 65]).is_none());
        assert!(spki(Algorithm::Rsa2048, &[0]).is_none());
    }
}
