//! ML-DSA private keys in PKCS#8 (RFC 9881 §6): the 32-byte seed, the expanded key, or
//! both. [`MlDsaKeyFormat`] names the form; [`MlDsaPrivateKey`] holds one.

use crate::alg::Algorithm;
use crate::der::{
    oid_registry as oids, tag, Context, Error, ErrorKind, Oid, Reader, Result, Writer,
};

/// How an ML-DSA private key is written in PKCS#8: the 32-byte seed, the expanded key,
/// or both. Seed is the default: it is small and the expanded form derives from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MlDsaKeyFormat {
    /// The 32-byte seed only.
    #[default]
    Seed,
    /// The expanded private key only.
    Expanded,
    /// The seed and the expanded key together.
    Both,
}

impl MlDsaKeyFormat {
    /// "seed", "expanded" or "both".
    pub fn name(self) -> &'static str {
        match self {
            MlDsaKeyFormat::Seed => "seed",
            MlDsaKeyFormat::Expanded => "expanded",
            MlDsaKeyFormat::Both => "both",
        }
    }
}

/// The 32-byte seed ξ that ML-DSA.KeyGen expands (FIPS 204 Algorithm 1).
pub const ML_DSA_SEED_LEN: usize = 32;

/// FIPS 204 §4 Table 2: the expanded private key size of each parameter set.
pub fn ml_dsa_expanded_len(alg: Algorithm) -> Option<usize> {
    match alg {
        Algorithm::MlDsa44 => Some(2560),
        Algorithm::MlDsa65 => Some(4032),
        Algorithm::MlDsa87 => Some(4896),
        _ => None,
    }
}

/// The ML-DSA algorithm a key OID names.
pub fn ml_dsa_algorithm(oid: crate::der::ObjectId<'_>) -> Option<Algorithm> {
    [
        (oids::ML_DSA_44, Algorithm::MlDsa44),
        (oids::ML_DSA_65, Algorithm::MlDsa65),
        (oids::ML_DSA_87, Algorithm::MlDsa87),
    ]
    .into_iter()
    .find_map(|(o, a)| (oid == o).then_some(a))
}

/// `[0]` in an IMPLICIT TAGS module: the seed OCTET STRING's tag replaced.
const SEED_TAG: u8 = tag::implicit(0);

/// RFC 9881 §6:
///
/// ```asn1
/// ML-DSA-44-PrivateKey ::= CHOICE {
///   seed [0] OCTET STRING (SIZE (32)),
///   expandedKey OCTET STRING (SIZE (2560)),
///   both SEQUENCE {
///       seed OCTET STRING (SIZE (32)),
///       expandedKey OCTET STRING (SIZE (2560))
///       }
///   }
/// ```
/// (ML-DSA-65 and ML-DSA-87 differ only in the expanded size: 4032 and 4896 octets.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MlDsaPrivateKey<'a> {
    /// `seed [0] IMPLICIT OCTET STRING`: the 32-byte seed alone.
    Seed(&'a [u8]),
    /// `expandedKey OCTET STRING`: the expanded private key alone.
    Expanded(&'a [u8]),
    /// `both SEQUENCE`: the seed and the expanded key derived from it.
    Both {
        /// The 32-byte seed.
        seed: &'a [u8],
        /// The expanded private key.
        expanded: &'a [u8],
    },
}

impl<'a> MlDsaPrivateKey<'a> {
    /// Read the `privateKey` OCTET STRING content of an `alg` key; sizes that do not fit
    /// the parameter set are errors (warnings with a lenient reader).
    pub fn read(mut r: Reader<'a>, alg: Algorithm) -> Result<Self> {
        let at = r.offset();
        let Some(expanded_len) = ml_dsa_expanded_len(alg) else {
            return Err(Error::invalid(
                at,
                format!("{alg} is not an ML-DSA algorithm"),
            ));
        };
        let seed_ok = |r: &Reader<'_>, s: &[u8], at: usize| -> Result<()> {
            if s.len() == ML_DSA_SEED_LEN {
                Ok(())
            } else {
                r.deviate(
                    at,
                    ErrorKind::Invalid(format!("expected a 32-byte seed, found {} bytes", s.len())),
                )
            }
        };
        let exp_ok = |r: &Reader<'_>, e: &[u8], at: usize| -> Result<()> {
            if e.len() == expanded_len {
                Ok(())
            } else {
                r.deviate(
                    at,
                    ErrorKind::Invalid(format!(
                        "expected a {expanded_len}-byte expanded key, found {} bytes",
                        e.len()
                    )),
                )
            }
        };
        let key = match r.peek_tag() {
            Some(SEED_TAG) => {
                let s = r.read(SEED_TAG).at("privateKey.seed")?;
                seed_ok(&r, s, at).at("privateKey.seed")?;
                MlDsaPrivateKey::Seed(s)
            }
            Some(tag::OCTET_STRING) => {
                let e = r.read_octet_string().at("privateKey.expandedKey")?;
                exp_ok(&r, e, at).at("privateKey.expandedKey")?;
                MlDsaPrivateKey::Expanded(e)
            }
            Some(tag::SEQUENCE) => {
                let mut b = r.read_sequence().at("privateKey.both")?;
                let sat = b.offset();
                let seed = b.read_octet_string().at("privateKey.both.seed")?;
                seed_ok(&b, seed, sat).at("privateKey.both.seed")?;
                let eat = b.offset();
                let expanded = b.read_octet_string().at("privateKey.both.expandedKey")?;
                exp_ok(&b, expanded, eat).at("privateKey.both.expandedKey")?;
                b.finish().at("privateKey.both")?;
                MlDsaPrivateKey::Both { seed, expanded }
            }
            _ => {
                return Err(Error::invalid(
                    at,
                    "expected an ML-DSA private key: seed [0], expandedKey OCTET STRING or \
                     both SEQUENCE",
                )
                .at("privateKey"))
            }
        };
        r.finish().at("privateKey")?;
        Ok(key)
    }

    /// Which of the three forms this key was written in.
    pub fn format(&self) -> MlDsaKeyFormat {
        match self {
            MlDsaPrivateKey::Seed(_) => MlDsaKeyFormat::Seed,
            MlDsaPrivateKey::Expanded(_) => MlDsaKeyFormat::Expanded,
            MlDsaPrivateKey::Both { .. } => MlDsaKeyFormat::Both,
        }
    }

    /// "seed", "expanded" or "both".
    pub fn name(&self) -> &'static str {
        self.format().name()
    }

    /// Write the whole PKCS#8 `OneAsymmetricKey` (v1, no attributes) holding this key.
    /// The AlgorithmIdentifier has absent parameters (RFC 9881 §2).
    pub fn to_pkcs8(&self, oid: &Oid) -> Vec<u8> {
        let mut w = Writer::with_capacity(5000);
        w.sequence(|w| {
            w.integer_u64(0);
            w.sequence(|w| {
                w.oid(oid);
            });
            w.tlv(tag::OCTET_STRING, |w| match *self {
                MlDsaPrivateKey::Seed(seed) => {
                    w.primitive(SEED_TAG, seed);
                }
                MlDsaPrivateKey::Expanded(e) => {
                    w.octet_string(e);
                }
                MlDsaPrivateKey::Both { seed, expanded } => {
                    w.sequence(|w| {
                        w.octet_string(seed);
                        w.octet_string(expanded);
                    });
                }
            });
        });
        w.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::pkcs8::PrivateKeyInfo;

    fn read(der: &[u8], alg: Algorithm) -> Result<MlDsaPrivateKey<'_>> {
        let k = PrivateKeyInfo::from_der(der).unwrap();
        MlDsaPrivateKey::read(Reader::new(k.private_key), alg)
    }

    #[test]
    fn ml_dsa_seed_form_layout() {
        let seed = [7u8; 32];
        let der = MlDsaPrivateKey::Seed(&seed).to_pkcs8(&oids::ML_DSA_65);
        // SEQUENCE { INTEGER 0, SEQUENCE { OID 2.16.840.1.101.3.4.3.18 },
        //            OCTET STRING { [0] 32 bytes } }
        let mut want = vec![0x30, 0x34, 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09];
        want.extend_from_slice(&[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12]);
        want.extend_from_slice(&[0x04, 0x22, 0x80, 0x20]);
        want.extend_from_slice(&seed);
        assert_eq!(der, want);
        assert_eq!(
            read(&der, Algorithm::MlDsa65).unwrap(),
            MlDsaPrivateKey::Seed(&seed)
        );
    }

    #[test]
    fn ml_dsa_forms_round_trip_and_sizes_are_checked() {
        let seed = [1u8; 32];
        let expanded = vec![2u8; 2560];
        for key in [
            MlDsaPrivateKey::Expanded(&expanded),
            MlDsaPrivateKey::Both {
                seed: &seed,
                expanded: &expanded,
            },
        ] {
            let der = key.to_pkcs8(&oids::ML_DSA_44);
            assert_eq!(read(&der, Algorithm::MlDsa44).unwrap(), key);
            // The same bytes under ML-DSA-65 have the wrong expanded size.
            assert!(read(&der, Algorithm::MlDsa65).is_err());
        }
        let short = MlDsaPrivateKey::Seed(&seed[..31]).to_pkcs8(&oids::ML_DSA_44);
        assert!(read(&short, Algorithm::MlDsa44).is_err());
        assert!(read(&short, Algorithm::Ed25519).is_err());
    }
}
