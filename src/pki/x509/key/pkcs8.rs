//! PKCS#8 private keys (RFC 5958 §2, `OneAsymmetricKey`, v1 and v2): the one parsed
//! form every private key takes, whether it is described, loaded to sign with, or found
//! in a PKCS#12 bag. The inner key (RSA, EC, ML-DSA) is read from it on demand.

use super::inner::{self, EcPrivateKey};
use super::ml_dsa::{ml_dsa_algorithm, MlDsaPrivateKey};
use crate::algid::AlgId;
use crate::csr::Attributes;
use crate::der::oid_registry as oids;
use crate::der::primitives::BitString;
use crate::der::{integer, tag, Context, Error, ErrorKind, Reader, Result, Writer};
use crate::spki::{KeyInfo, Spki};

/// RFC 5958 §2:
///
/// ```asn1
/// OneAsymmetricKey ::= SEQUENCE {
///     version                   Version,
///     privateKeyAlgorithm       PrivateKeyAlgorithmIdentifier,
///     privateKey                PrivateKey,
///     attributes            [0] Attributes OPTIONAL,
///     ...,
///     [[2: publicKey        [1] PublicKey OPTIONAL ]],
///     ...
/// }
/// PrivateKeyInfo ::= OneAsymmetricKey
/// Version ::= INTEGER { v1(0), v2(1) } (v1, ..., v2)
/// PrivateKey ::= OCTET STRING
/// PublicKey ::= BIT STRING
/// ```
#[derive(Debug, Clone, Copy)]
pub struct PrivateKeyInfo<'a> {
    /// The whole PrivateKeyInfo (OneAsymmetricKey) DER.
    pub raw: &'a [u8],
    /// 0 = v1, 1 = v2.
    pub version: u64,
    /// privateKeyAlgorithm: the key's algorithm and parameters.
    pub algorithm: AlgId<'a>,
    /// The `privateKey` OCTET STRING content (the algorithm's own private key DER).
    pub private_key: &'a [u8],
    /// Absolute byte offset of the `privateKey` content.
    pub private_key_offset: usize,
    /// The `[0]` attributes, if present.
    pub attributes: Option<Attributes<'a>>,
    /// The `[1]` publicKey (v2 only), if present.
    pub public_key: Option<BitString<'a>>,
    /// The reader mode the key was parsed with (inner structures decode the same way).
    mode: Reader<'a>,
}

impl<'a> PrivateKeyInfo<'a> {
    /// Parse a PrivateKeyInfo / OneAsymmetricKey (RFC 5958 §2) spanning all of `der`.
    pub fn from_der(der: &'a [u8]) -> Result<Self> {
        Self::parse(Reader::new(der))
    }

    /// Parse with a reader (strict or lenient); trailing bytes are an error.
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let raw = r.remaining();
        let mut s = r.read_sequence().at("privateKeyInfo")?;
        let raw = &raw[..raw.len() - r.remaining().len()];
        r.finish()?;
        let version_offset = s.offset();
        let version = s.read_u64().at("version")?;
        if version > 1 {
            return Err(Error::invalid(
                version_offset,
                format!("expected version v1 (0) or v2 (1), found {version}"),
            )
            .at("version"));
        }
        let algorithm = AlgId::read(&mut s).at("privateKeyAlgorithm")?;
        let pk = s.read_expect(tag::OCTET_STRING).at("privateKey")?;
        let attributes = s
            .read_optional(tag::implicit_constructed(0))?
            .map(|tlv| Attributes::new(s.with_base(tlv.content, tlv.content_offset())));
        let public_key = match s.peek_tag() {
            Some(t) if t == tag::implicit(1) => {
                let at = s.offset();
                let bits = s.read_bit_string_tagged(t).at("publicKey")?;
                if version == 0 {
                    s.deviate(
                        at,
                        ErrorKind::Invalid("expected version v2 when publicKey is present".into()),
                    )
                    .at("publicKey")?;
                }
                Some(bits)
            }
            _ => None,
        };
        s.finish().at("privateKeyInfo")?;
        Ok(PrivateKeyInfo {
            raw,
            version,
            algorithm,
            private_key: pk.content,
            private_key_offset: pk.content_offset(),
            attributes,
            public_key,
            mode: s,
        })
    }

    fn inner(&self) -> Reader<'a> {
        self.mode
            .with_base(self.private_key, self.private_key_offset)
    }

    fn is_rsa(&self) -> bool {
        self.algorithm.oid == oids::RSA_ENCRYPTION || self.algorithm.oid == oids::RSASSA_PSS
    }

    /// The public key as a SubjectPublicKeyInfo DER, when the file carries or implies it:
    /// RSA keys hold the modulus and exponent, EC keys (RFC 5915) usually hold the point,
    /// and v2 keys may carry `publicKey`.
    pub fn public_spki(&self) -> Result<Option<Vec<u8>>> {
        let algid = self.algorithm.raw;
        let spki = |key: &[u8], unused: u8| {
            let mut w = Writer::with_capacity(key.len() + algid.len() + 16);
            w.sequence(|w| {
                w.raw(algid);
                w.tlv(tag::BIT_STRING, |w| {
                    w.raw(&[unused]);
                    w.raw(key);
                });
            });
            w.finish()
        };
        if let Some(p) = self.public_key {
            return Ok(Some(spki(p.bytes, p.unused_bits)));
        }
        if self.is_rsa() {
            let (n, e) = self.rsa_public()?;
            let mut w = Writer::new();
            w.sequence(|w| {
                w.primitive(tag::INTEGER, n);
                w.primitive(tag::INTEGER, e);
            });
            return Ok(Some(spki(&w.finish(), 0)));
        }
        if self.algorithm.oid == oids::EC_PUBLIC_KEY {
            return Ok(self
                .ec_private()?
                .public_key
                .map(|p| spki(p.bytes, p.unused_bits)));
        }
        Ok(None)
    }

    /// RFC 8017 §A.1.2: the modulus and public exponent of an RSA key.
    fn rsa_public(&self) -> Result<(&'a [u8], &'a [u8])> {
        inner::rsa_public(self.inner())
    }

    /// The modulus size in bits of an RSA key.
    pub fn rsa_bits(&self) -> Result<u32> {
        let (n, _) = self.rsa_public()?;
        let mag = integer::unsigned_bytes(n);
        Ok(mag.len() as u32 * 8 - mag.first().map_or(0, |b| b.leading_zeros()))
    }

    /// The `ECPrivateKey` of an EC key (RFC 5915 §3).
    pub fn ec_private(&self) -> Result<EcPrivateKey<'a>> {
        EcPrivateKey::read(self.inner())
    }

    /// The ML-DSA private key and its form (RFC 9881 §6), when the key is ML-DSA.
    pub fn ml_dsa_form(&self) -> Result<Option<MlDsaPrivateKey<'a>>> {
        match ml_dsa_algorithm(self.algorithm.oid) {
            Some(alg) => MlDsaPrivateKey::read(self.inner(), alg).map(Some),
            None => Ok(None),
        }
    }

    /// Family, size and parameter set, from the key itself where it says (RSA modulus,
    /// EC curve) and from the algorithm otherwise.
    pub fn key_info(&self) -> Result<KeyInfo> {
        if self.is_rsa() {
            return Ok(KeyInfo {
                family: "RSA".into(),
                bits: Some(self.rsa_bits()?),
                parameters: None,
            });
        }
        let o = self.algorithm.oid;
        let ml_dsa = |name: &str, pk_len: u32| KeyInfo {
            family: "ML-DSA".into(),
            bits: Some(pk_len * 8),
            parameters: Some(name.into()),
        };
        // FIPS 204 Table 2: public key sizes.
        if o == oids::ML_DSA_44 {
            return Ok(ml_dsa("ML-DSA-44", 1312));
        } else if o == oids::ML_DSA_65 {
            return Ok(ml_dsa("ML-DSA-65", 1952));
        } else if o == oids::ML_DSA_87 {
            return Ok(ml_dsa("ML-DSA-87", 2592));
        }
        // Everything else: the SPKI view's classification of the same AlgorithmIdentifier
        // (the key bytes do not matter to it for these families).
        let shape = match self.public_spki()? {
            Some(spki) => spki,
            None => {
                let mut w = Writer::new();
                w.sequence(|w| {
                    w.raw(self.algorithm.raw);
                    w.bit_string(&[]);
                });
                w.finish()
            }
        };
        let base = self.algorithm.offset;
        let spki = Spki::read(&mut self.mode.with_base(&shape, base))?;
        spki.key_info()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::{Deviations, Oid};

    fn pkcs8(version: u64, alg: &Oid, private: &[u8], public: Option<&[u8]>) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.integer_u64(version);
            w.sequence(|w| {
                w.oid(alg);
            });
            w.octet_string(private);
            if let Some(p) = public {
                w.tlv(tag::implicit(1), |w| {
                    w.raw(&[0]);
                    w.raw(p);
                });
            }
        });
        w.finish()
    }

    #[test]
    fn ed25519_with_public_key() {
        let der = pkcs8(
            1,
            &oids::ED25519,
            &[
                0x04, 0x20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
            ],
            Some(&[9; 32]),
        );
        let k = PrivateKeyInfo::from_der(&der).unwrap();
        assert_eq!(k.version, 1);
        assert_eq!(k.algorithm.oid, oids::ED25519);
        let spki = k.public_spki().unwrap().unwrap();
        let s = Spki::from_der(&spki).unwrap();
        assert_eq!(s.key.bytes, &[9; 32]);
        assert_eq!(k.key_info().unwrap().family, "Ed25519");
        assert!(k.ml_dsa_form().unwrap().is_none());
        // v1 with a public key: strict error, lenient warning.
        let der = pkcs8(0, &oids::ED25519, &[0x04, 0x00], Some(&[9; 32]));
        assert!(PrivateKeyInfo::from_der(&der).is_err());
        let log = Deviations::new();
        PrivateKeyInfo::parse(Reader::lenient(&der, &log)).unwrap();
        assert_eq!(log.take().len(), 1);
    }

    #[test]
    fn rsa_key_info_and_public_key() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.integer_u64(0);
            w.integer_unsigned(&[0xc0; 256]);
            w.integer_u64(65537);
            w.integer_u64(3);
        });
        let rsa = w.finish();
        let der = pkcs8(0, &oids::RSA_ENCRYPTION, &rsa, None);
        let k = PrivateKeyInfo::from_der(&der).unwrap();
        let info = k.key_info().unwrap();
        assert_eq!((info.family.as_str(), info.bits), ("RSA", Some(2048)));
        let spki = k.public_spki().unwrap().unwrap();
        assert_eq!(
            Spki::from_der(&spki).unwrap().key_info().unwrap().bits,
            Some(2048)
        );
    }

    #[test]
    fn ec_key_with_point() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.integer_u64(1);
            w.octet_string(&[1; 32]);
            w.explicit(1, |w| {
                w.bit_string(&[4; 65]);
            });
        });
        let ec = w.finish();
        let mut w = Writer::new();
        w.sequence(|w| {
            w.integer_u64(0);
            w.sequence(|w| {
                w.oid(&oids::EC_PUBLIC_KEY);
                w.oid(&oids::SECP256R1);
            });
            w.octet_string(&ec);
        });
        let der = w.finish();
        let k = PrivateKeyInfo::from_der(&der).unwrap();
        let info = k.key_info().unwrap();
        assert_eq!(info.parameters.as_deref(), Some("P-256"));
        let ecp = k.ec_private().unwrap();
        assert_eq!(ecp.private_key, &[1; 32]);
        assert_eq!(ecp.public_key.unwrap().bytes.len(), 65);
    }

    #[test]
    fn ml_dsa_forms() {
        let mut seed = vec![0x80, 0x20];
        seed.extend([5; 32]);
        let der = pkcs8(0, &oids::ML_DSA_44, &seed, None);
        let k = PrivateKeyInfo::from_der(&der).unwrap();
        assert_eq!(
            k.ml_dsa_form().unwrap(),
            Some(MlDsaPrivateKey::Seed(&[5; 32]))
        );
        assert_eq!(
            k.key_info().unwrap().parameters.as_deref(),
            Some("ML-DSA-44")
        );

        let mut w = Writer::new();
        w.sequence(|w| {
            w.octet_string(&[5; 32]);
            w.octet_string(&[6; 2560]);
        });
        let der = pkcs8(0, &oids::ML_DSA_44, &w.finish(), None);
        let k = PrivateKeyInfo::from_der(&der).unwrap();
        assert_eq!(k.ml_dsa_form().unwrap().unwrap().name(), "both");

        // Wrong expanded size for ML-DSA-65, with its offset.
        let mut w = Writer::new();
        w.octet_string(&[6; 2560]);
        let der = pkcs8(0, &oids::ML_DSA_65, &w.finish(), None);
        let k = PrivateKeyInfo::from_der(&der).unwrap();
        let e = k.ml_dsa_form().unwrap_err();
        assert_eq!(e.offset, k.private_key_offset);
    }

    #[test]
    fn pkcs8_malformed() {
        let der = pkcs8(0, &oids::ED25519, &[4, 0], None);
        for cut in [0, 2, der.len() - 1] {
            assert!(PrivateKeyInfo::from_der(&der[..cut]).is_err());
        }
        let bad = pkcs8(2, &oids::ED25519, &[4, 0], None);
        let e = PrivateKeyInfo::from_der(&bad).unwrap_err();
        assert_eq!((e.offset, e.path_string().as_str()), (2, "version"));
        let mut trailing = der.clone();
        trailing.push(0);
        assert_eq!(
            PrivateKeyInfo::from_der(&trailing).unwrap_err().offset,
            der.len()
        );
    }
}
