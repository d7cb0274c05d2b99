//! A public key as its parts — an EC point on a named curve, an Ed25519 point, an RSA
//! modulus and exponent — and back to a SubjectPublicKeyInfo. Tokens speak in parts
//! (CKA_EC_POINT, CKA_MODULUS), certificates in SPKIs; this is the one translation.

#![forbid(unsafe_code)]

use super::kind::{bad_key, spki_key_kind, KeyKind};
use crate::alg::Algorithm;
use crate::der::oid_registry as oids;
use crate::der::{integer, Oid, Reader, Writer};
// By name, not as a group (see kind.rs): the PKCS#11 backend uses this file.
use crate::backend::BackendError;
use crate::backend::Result;
use crate::spki::Spki;

/// A public key taken apart into the values a token or backend imports it from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PublicParts {
    /// ECDSA P-256 or P-384: the uncompressed point (0x04 || X || Y).
    Ec {
        /// Which curve, as the algorithm of keys on it.
        alg: Algorithm,
        /// The uncompressed point.
        point: Vec<u8>,
    },
    /// The 32-byte Ed25519 public key.
    Ed25519(Vec<u8>),
    /// Modulus and public exponent, unsigned big-endian without leading zeros.
    Rsa {
        /// The modulus.
        n: Vec<u8>,
        /// The public exponent.
        e: Vec<u8>,
    },
}

impl PublicParts {
    /// The parts of `spki_der` (RFC 5480, RFC 8410, RFC 8017 A.1.1).
    pub fn of_spki(spki_der: &[u8]) -> Result<PublicParts> {
        let kind = spki_key_kind(spki_der)?;
        let spki = Spki::from_der(spki_der).map_err(bad_key)?;
        let key = spki.key.bytes.to_vec();
        match kind {
            KeyKind::Fixed(alg @ (Algorithm::EcdsaP256 | Algorithm::EcdsaP384)) => {
                Ok(PublicParts::Ec { alg, point: key })
            }
            KeyKind::Fixed(Algorithm::Ed25519) => Ok(PublicParts::Ed25519(key)),
            KeyKind::Rsa => {
                let mut r = Reader::new(&key);
                let mut s = r.read_sequence().map_err(bad_key)?;
                let n = integer::unsigned_bytes(s.read_integer().map_err(bad_key)?).to_vec();
                let e = integer::unsigned_bytes(s.read_integer().map_err(bad_key)?).to_vec();
                s.finish().map_err(bad_key)?;
                Ok(PublicParts::Rsa { n, e })
            }
            KeyKind::Fixed(a) => Err(BackendError::Unsupported(format!(
                "{a} public keys have no PKCS#11 form pkit can use"
            ))),
            KeyKind::Dsa => Err(BackendError::Unsupported(
                "DSA public keys have no PKCS#11 form pkit can use".into(),
            )),
        }
    }

    /// The algorithm these parts are a key of.
    pub fn algorithm(&self) -> Result<Algorithm> {
        match self {
            PublicParts::Ec { alg, .. } => Ok(*alg),
            PublicParts::Ed25519(_) => Ok(Algorithm::Ed25519),
            PublicParts::Rsa { n, .. } => match n.len() * 8 {
                2048 => Ok(Algorithm::Rsa2048),
                3072 => Ok(Algorithm::Rsa3072),
                4096 => Ok(Algorithm::Rsa4096),
                bits => Err(BackendError::Unsupported(format!(
                    "RSA-{bits}: pkit signs with RSA-2048, RSA-3072 and RSA-4096 keys"
                ))),
            },
        }
    }

    /// The SubjectPublicKeyInfo DER.
    pub fn to_spki(&self) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| match self {
                PublicParts::Ec { alg, .. } => {
                    w.oid(&oids::EC_PUBLIC_KEY);
                    w.oid(&curve_oid(*alg));
                }
                PublicParts::Ed25519(_) => {
                    w.oid(&oids::ED25519);
                }
                PublicParts::Rsa { .. } => {
                    w.oid(&oids::RSA_ENCRYPTION);
                    w.null();
                }
            });
            match self {
                PublicParts::Ec { point, .. } | PublicParts::Ed25519(point) => {
                    w.bit_string(point);
                }
                PublicParts::Rsa { n, e } => {
                    let mut k = Writer::new();
                    k.sequence(|k| {
                        k.integer_unsigned(n);
                        k.integer_unsigned(e);
                    });
                    w.bit_string(&k.finish());
                }
            }
        });
        w.finish()
    }
}

/// The named curve of an ECDSA algorithm (RFC 5480 §2.1.1.1).
pub fn curve_oid(alg: Algorithm) -> Oid {
    match alg {
        Algorithm::EcdsaP384 => oids::SECP384R1,
        _ => oids::SECP256R1,
    }
}

/// The curve's field size in bytes: the length of r and of s in a raw ECDSA signature.
pub fn ec_field_len(alg: Algorithm) -> usize {
    match alg {
        Algorithm::EcdsaP384 => 48,
        _ => 32,
    }
}

/// An ECDSA signature from the raw `r || s` that PKCS#11's CKM_ECDSA returns to the
/// `Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` certificates carry (RFC 3279
/// §2.2.3).
pub fn ecdsa_raw_to_der(raw: &[u8]) -> Vec<u8> {
    let (r, s) = raw.split_at(raw.len() / 2);
    let strip = |x: &[u8]| -> Vec<u8> {
        let lead = x
            .iter()
            .take_while(|&&b| b == 0)
            .count()
            .min(x.len().saturating_sub(1));
        x[lead..].to_vec()
    };
    let mut w = Writer::new();
    w.sequence(|w| {
        w.integer_unsigned(&strip(r));
        w.integer_unsigned(&strip(s));
    });
    w.finish()
}

/// The raw `r || s` (each `field_len` bytes) of an Ecdsa-Sig-Value; `None` when it is
/// not one, or a number does not fit the curve (a signature that cannot verify).
pub fn ecdsa_der_to_raw(der: &[u8], field_len: usize) -> Option<Vec<u8>> {
    let mut r = Reader::new(der);
    let mut s = r.read_sequence().ok()?;
    let a = s.read_integer().ok()?;
    let b = s.read_integer().ok()?;
    s.finish().ok()?;
    r.finish().ok()?;
    let mut out = vec![0u8; 2 * field_len];
    for (i, x) in [a, b].into_iter().enumerate() {
        // A negative number is no valid r or s.
        if x.first().is_some_and(|&c| c & 0x80 != 0) {
            return None;
        }
        let x = integer::unsigned_bytes(x);
        if x.len() > field_len {
            return None;
        }
        let end = (i + 1) * field_len;
        out[end - x.len()..end].copy_from_slice(x);
    }
    Some(out)
}
