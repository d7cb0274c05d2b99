//! SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) and what its key is.
//!
//! ```asn1
//! SubjectPublicKeyInfo ::= SEQUENCE {
//!     algorithm         AlgorithmIdentifier,
//!     subjectPublicKey  BIT STRING }
//! ```

#![forbid(unsafe_code)]

use crate::alg::Algorithm;
use crate::algid::AlgId;
use crate::der::primitives::BitString;
use crate::der::{integer, oid_registry as oids, tag, Context, Error, ObjectId, Reader, Result};

#[derive(Debug, Clone, Copy)]
/// A borrowed SubjectPublicKeyInfo (RFC 5280 §4.1.2.7): `SEQUENCE { algorithm
/// AlgorithmIdentifier, subjectPublicKey BIT STRING }`.
pub struct Spki<'a> {
    /// The whole SPKI TLV (what key identifiers and MTC hash).
    pub raw: &'a [u8],
    /// The key's algorithm and parameters (e.g. id-ecPublicKey with its named curve).
    pub algorithm: AlgId<'a>,
    /// The subjectPublicKey BIT STRING: the key in its algorithm's encoding.
    pub key: BitString<'a>,
    /// Absolute byte offset of the SubjectPublicKeyInfo in the input.
    pub offset: usize,
}

/// What a public key is, for display and summaries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyInfo {
    /// Family: "RSA", "EC", "Ed25519", "ML-DSA", or the algorithm name.
    pub family: String,
    /// Key size in bits (RSA modulus, EC field size, Ed25519 256, ML-DSA public key bits).
    pub bits: Option<u32>,
    /// Curve or parameter set (P-256, ML-DSA-65…).
    pub parameters: Option<String>,
}

impl<'a> Spki<'a> {
    #[inline]
    /// Read a SubjectPublicKeyInfo at the cursor.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let offset = r.offset();
        let rest = r.remaining();
        let tlv = r.read_expect(tag::SEQUENCE)?;
        let mut s = r.with_base(tlv.content, tlv.content_offset());
        let algorithm = AlgId::read(&mut s).at("algorithm")?;
        let key = s.read_bit_string().at("subjectPublicKey")?;
        s.finish()?;
        Ok(Spki {
            raw: &rest[..tlv.total_len],
            algorithm,
            key,
            offset,
        })
    }

    /// A SubjectPublicKeyInfo spanning all of `der`.
    pub fn from_der(der: &'a [u8]) -> Result<Self> {
        let mut r = Reader::new(der);
        let s = Spki::read(&mut r)?;
        r.finish()?;
        Ok(s)
    }

    /// Decode the key enough to say its type and size.
    pub fn key_info(&self) -> Result<KeyInfo> {
        let o = self.algorithm.oid;
        let info = |family: &str, bits: Option<u32>, parameters: Option<&str>| KeyInfo {
            family: family.into(),
            bits,
            parameters: parameters.map(str::to_string),
        };
        if o == oids::RSA_ENCRYPTION || o == oids::RSASSA_PSS {
            // RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }
            let off = self.offset + self.raw.len() - self.key.bytes.len();
            let mut r = Reader::new(&[]).with_base(self.key.bytes, off);
            let mut seq = r.read_sequence().at("RSAPublicKey")?;
            let n = seq.read_integer().at("modulus")?;
            let mag = integer::unsigned_bytes(n);
            let bits = mag.len() as u32 * 8 - mag.first().map_or(0, |b| b.leading_zeros());
            return Ok(info("RSA", Some(bits), None));
        }
        if o == oids::EC_PUBLIC_KEY {
            let curve = match self.algorithm.params {
                Some(p) => {
                    let mut r = Reader::new(&[]).with_base(p, self.algorithm.offset);
                    if r.peek_tag() == Some(tag::OID) {
                        Some(r.read_oid().at("namedCurve")?)
                    } else {
                        None
                    }
                }
                None => None,
            };
            let (name, bits) = match curve {
                Some(c) if c == oids::SECP256R1 => ("P-256".to_string(), Some(256)),
                Some(c) if c == oids::SECP384R1 => ("P-384".to_string(), Some(384)),
                Some(c) if c == oids::SECP521R1 => ("P-521".to_string(), Some(521)),
                Some(c) if c == oids::SECP256K1 => ("secp256k1".to_string(), Some(256)),
                Some(c) if c == oids::SECP224R1 => ("P-224".to_string(), Some(224)),
                Some(c) => (c.name_or_dotted(), None),
                None => ("explicit parameters".to_string(), None),
            };
            return Ok(KeyInfo {
                family: "EC".into(),
                bits,
                parameters: Some(name),
            });
        }
        let pq = |name: &str| info("ML-DSA", Some(self.key.bytes.len() as u32 * 8), Some(name));
        Ok(if o == oids::ED25519 {
            info("Ed25519", Some(256), None)
        } else if o == oids::ED448 {
            info("Ed448", Some(456), None)
        } else if o == oids::ML_DSA_44 {
            pq("ML-DSA-44")
        } else if o == oids::ML_DSA_65 {
            pq("ML-DSA-65")
        } else if o == oids::ML_DSA_87 {
            pq("ML-DSA-87")
        } else if o == oids::DSA {
            info("DSA", None, None)
        } else {
            info(&self.algorithm.name(), None, None)
        })
    }

    /// The OID of the key's algorithm.
    pub fn algorithm_oid(&self) -> ObjectId<'a> {
        self.algorithm.oid
    }

    /// A DSA key whose AlgorithmIdentifier omits the domain parameters (RFC 3279
    /// §2.3.2: "the parameters are inherited from the issuer"), which no signature can
    /// be checked with until they are supplied ([`Spki::with_parameters`]).
    pub fn dsa_parameters_absent(&self) -> bool {
        self.algorithm.oid == oids::DSA && self.algorithm.params.is_none()
    }

    /// The DER of this SPKI with `parameters` (a complete TLV, such as an issuer's
    /// Dss-Parms) in its AlgorithmIdentifier and the key unchanged: the key as RFC 5280
    /// §6.1.4 (f) hands it on, working_public_key with working_public_key_parameters.
    pub fn with_parameters(&self, parameters: &[u8]) -> Result<Vec<u8>> {
        let mut r = Reader::new(self.raw);
        let mut s = r.read_sequence()?;
        s.read_raw().at("algorithm")?;
        let key = s.read_raw().at("subjectPublicKey")?;
        let mut w = crate::der::Writer::with_capacity(self.raw.len() + parameters.len() + 8);
        w.sequence(|w| {
            w.sequence(|w| {
                w.primitive(tag::OID, self.algorithm.oid.as_bytes());
                w.raw(parameters);
            });
            w.raw(key);
        });
        Ok(w.finish())
    }
}

/// Fail with a clear message when a key's bytes do not match its declared size.
pub fn check_len(what: &str, got: usize, want: usize, offset: usize) -> Result<()> {
    if got == want {
        Ok(())
    } else {
        Err(Error::invalid(
            offset,
            format!("expected a {want}-byte {what}, found {got} bytes"),
        ))
    }
}
/// Which of pkit's algorithms a key is: kept beside the SPKI reader, so that
/// [`crate::alg`] (which the reader's AlgorithmIdentifiers use) does not read SPKIs.
impl Algorithm {
    /// The algorithm of a public key, when it is one of the nine.
    pub fn from_spki(spki_der: &[u8]) -> Option<Algorithm> {
        let info = Spki::from_der(spki_der).ok()?.key_info().ok()?;
        Some(
            match (info.family.as_str(), info.parameters.as_deref(), info.bits) {
                ("EC", Some("P-256"), _) => Algorithm::EcdsaP256,
                ("EC", Some("P-384"), _) => Algorithm::EcdsaP384,
                ("Ed25519", _, _) => Algorithm::Ed25519,
                ("RSA", _, Some(2048)) => Algorithm::Rsa2048,
                ("RSA", _, Some(3072)) => Algorithm::Rsa3072,
                ("RSA", _, Some(4096)) => Algorithm::Rsa4096,
                ("ML-DSA", Some("ML-DSA-44"), _) => Algorithm::MlDsa44,
                ("ML-DSA", Some("ML-DSA-65"), _) => Algorithm::MlDsa65,
                ("ML-DSA", Some("ML-DSA-87"), _) => Algorithm::MlDsa87,
                _ => return None,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PKITS' DSA Parameters Inherited CA key (no parameters) takes the DSA CA's.
    #[test]
    fn inherited_dsa_parameters() {
        let pkits = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../tests/data/pkits/certs/"
        );
        let read = |f: &str| std::fs::read(format!("{pkits}{f}")).unwrap();
        let (ca, child) = (
            read("DSACACert.crt"),
            read("DSAParametersInheritedCACert.crt"),
        );
        let ca = crate::cert::Certificate::from_der(&ca).unwrap();
        let child = crate::cert::Certificate::from_der(&child).unwrap();
        assert!(!ca.spki.dsa_parameters_absent());
        assert!(child.spki.dsa_parameters_absent());
        let params = ca.spki.algorithm.params.unwrap();
        let der = child.spki.with_parameters(params).unwrap();
        let whole = Spki::from_der(&der).unwrap();
        assert!(!whole.dsa_parameters_absent());
        assert_eq!(whole.algorithm.params, Some(params));
        assert_eq!(whole.key.bytes, child.spki.key.bytes);
    }
}
