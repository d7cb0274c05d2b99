//! PKCS#8 private keys and their encrypted form as views for display: what a key file
//! holds (algorithm, size, public key, ML-DSA form) and how it is protected (PBES2 with
//! PBKDF2 or scrypt, the PKCS#12 PBEs, PBES1), with decryption given a password.
//!
//! Loading keys to sign with is [`crate::pki::pkcs8`]'s job; this module describes any
//! key, including algorithms pkit cannot sign with. The same password-based encryption
//! parameters protect PKCS#12 bags and `EncryptedData`, so [`PbeScheme`] serves both.

#![forbid(unsafe_code)]

use crate::der::oid_registry as oids;
use crate::der::primitives::BitString;
use crate::der::{integer, tag, Context, Error, ErrorKind, ObjectId, Reader, Result, Writer};
use crate::pki::algid::AlgId;
use crate::pki::backend::pbe::{self, Hash, PbeCipher, Pkcs12Purpose};
use crate::pki::backend::{self, BackendError};
use crate::pki::csr::Attributes;
use crate::pki::spki::{KeyInfo, Spki};

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
    pub raw: &'a [u8],
    /// 0 = v1, 1 = v2.
    pub version: u64,
    pub algorithm: AlgId<'a>,
    /// The `privateKey` OCTET STRING content (the algorithm's own private key DER).
    pub private_key: &'a [u8],
    pub private_key_offset: usize,
    pub attributes: Option<Attributes<'a>>,
    pub public_key: Option<BitString<'a>>,
    /// The reader mode the key was parsed with (inner structures decode the same way).
    mode: Reader<'a>,
}

impl<'a> PrivateKeyInfo<'a> {
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

    /// RFC 8017 §A.1.2: `RSAPrivateKey ::= SEQUENCE { version Version, modulus INTEGER,
    /// publicExponent INTEGER, privateExponent INTEGER, … }`; the modulus and exponent.
    fn rsa_public(&self) -> Result<(&'a [u8], &'a [u8])> {
        let mut r = self.inner();
        let mut s = r.read_sequence().at("privateKey.RSAPrivateKey")?;
        s.read_u64().at("privateKey.RSAPrivateKey.version")?;
        let n = s.read_integer().at("privateKey.RSAPrivateKey.modulus")?;
        let e = s
            .read_integer()
            .at("privateKey.RSAPrivateKey.publicExponent")?;
        Ok((n, e))
    }

    /// RFC 5915 §3:
    ///
    /// ```asn1
    /// ECPrivateKey ::= SEQUENCE {
    ///   version        INTEGER { ecPrivkeyVer1(1) } (ecPrivkeyVer1),
    ///   privateKey     OCTET STRING,
    ///   parameters [0] ECParameters {{ NamedCurve }} OPTIONAL,
    ///   publicKey  [1] BIT STRING OPTIONAL
    /// }
    /// ```
    pub fn ec_private(&self) -> Result<EcPrivateKey<'a>> {
        let mut r = self.inner();
        let mut s = r.read_sequence().at("privateKey.ECPrivateKey")?;
        r.finish().at("privateKey")?;
        let at = s.offset();
        let v = s.read_u64().at("privateKey.ECPrivateKey.version")?;
        if v != 1 {
            return Err(
                Error::invalid(at, format!("expected ecPrivkeyVer1 (1), found {v}"))
                    .at("privateKey.ECPrivateKey.version"),
            );
        }
        let d = s
            .read_octet_string()
            .at("privateKey.ECPrivateKey.privateKey")?;
        let parameters = s.read_optional(tag::explicit(0))?.map(|tlv| tlv.content);
        let public_key = match s.read_optional(tag::explicit(1))? {
            Some(tlv) => {
                let mut b = s.with_base(tlv.content, tlv.content_offset());
                let bits = b
                    .read_bit_string()
                    .at("privateKey.ECPrivateKey.publicKey")?;
                b.finish().at("privateKey.ECPrivateKey.publicKey")?;
                Some(bits)
            }
            None => None,
        };
        s.finish().at("privateKey.ECPrivateKey")?;
        Ok(EcPrivateKey {
            private_key: d,
            parameters,
            public_key,
        })
    }

    /// The ML-DSA private key form (RFC 9881 §6), when the key is ML-DSA.
    pub fn ml_dsa_form(&self) -> Result<Option<MlDsaForm<'a>>> {
        let o = self.algorithm.oid;
        let expanded_len = if o == oids::ML_DSA_44 {
            2560
        } else if o == oids::ML_DSA_65 {
            4032
        } else if o == oids::ML_DSA_87 {
            4896
        } else {
            return Ok(None);
        };
        MlDsaForm::read(self.inner(), expanded_len).map(Some)
    }

    /// Family, size and parameter set, from the key itself where it says (RSA modulus,
    /// EC curve) and from the algorithm otherwise.
    pub fn key_info(&self) -> Result<KeyInfo> {
        if self.is_rsa() {
            let (n, _) = self.rsa_public()?;
            let mag = integer::unsigned_bytes(n);
            let bits = mag.len() as u32 * 8 - mag.first().map_or(0, |b| b.leading_zeros());
            return Ok(KeyInfo {
                family: "RSA".into(),
                bits: Some(bits),
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

/// The parts of an `ECPrivateKey` a description needs.
#[derive(Debug, Clone, Copy)]
pub struct EcPrivateKey<'a> {
    pub private_key: &'a [u8],
    /// The `[0]` ECParameters content, when present.
    pub parameters: Option<&'a [u8]>,
    pub public_key: Option<BitString<'a>>,
}

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
pub enum MlDsaForm<'a> {
    Seed(&'a [u8]),
    Expanded(&'a [u8]),
    Both { seed: &'a [u8], expanded: &'a [u8] },
}

impl<'a> MlDsaForm<'a> {
    fn read(mut r: Reader<'a>, expanded_len: usize) -> Result<Self> {
        let seed_ok = |r: &Reader<'_>, s: &[u8], at: usize| -> Result<()> {
            if s.len() == 32 {
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
        let at = r.offset();
        let form = match r.peek_tag() {
            // `[0]` in an IMPLICIT TAGS module: the OCTET STRING's tag replaced.
            Some(0x80) => {
                let s = r.read(0x80).at("privateKey.seed")?;
                seed_ok(&r, s, at).at("privateKey.seed")?;
                MlDsaForm::Seed(s)
            }
            Some(tag::OCTET_STRING) => {
                let e = r.read_octet_string().at("privateKey.expandedKey")?;
                exp_ok(&r, e, at).at("privateKey.expandedKey")?;
                MlDsaForm::Expanded(e)
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
                MlDsaForm::Both { seed, expanded }
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
        Ok(form)
    }

    /// "seed", "expanded" or "both".
    pub fn name(&self) -> &'static str {
        match self {
            MlDsaForm::Seed(_) => "seed",
            MlDsaForm::Expanded(_) => "expanded",
            MlDsaForm::Both { .. } => "both",
        }
    }
}

/// RFC 5958 §3:
///
/// ```asn1
/// EncryptedPrivateKeyInfo ::= SEQUENCE {
///   encryptionAlgorithm  EncryptionAlgorithmIdentifier,
///   encryptedData        EncryptedData }
///
/// EncryptionAlgorithmIdentifier ::= AlgorithmIdentifier
///                                    { CONTENT-ENCRYPTION,
///                                      { KeyEncryptionAlgorithms } }
/// EncryptedData ::= OCTET STRING
/// ```
#[derive(Debug, Clone, Copy)]
pub struct EncryptedPrivateKeyInfo<'a> {
    pub raw: &'a [u8],
    pub encryption_algorithm: AlgId<'a>,
    pub encrypted_data: &'a [u8],
    mode: Reader<'a>,
}

impl<'a> EncryptedPrivateKeyInfo<'a> {
    pub fn from_der(der: &'a [u8]) -> Result<Self> {
        Self::parse(Reader::new(der))
    }

    /// Parse with a reader (strict or lenient); trailing bytes are an error.
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let raw = r.remaining();
        let mut s = r.read_sequence().at("encryptedPrivateKeyInfo")?;
        let raw = &raw[..raw.len() - r.remaining().len()];
        r.finish()?;
        let encryption_algorithm = AlgId::read(&mut s).at("encryptionAlgorithm")?;
        let encrypted_data = s.read_octet_string().at("encryptedData")?;
        s.finish().at("encryptedPrivateKeyInfo")?;
        Ok(EncryptedPrivateKeyInfo {
            raw,
            encryption_algorithm,
            encrypted_data,
            mode: s,
        })
    }

    /// The encryption scheme's parameters.
    pub fn scheme(&self) -> Result<PbeScheme<'a>> {
        PbeScheme::read(&self.mode, &self.encryption_algorithm).at("encryptionAlgorithm")
    }
}

/// A password-based encryption scheme with its parameters.
#[derive(Debug, Clone, Copy)]
pub enum PbeScheme<'a> {
    /// RFC 8018 §A.4:
    ///
    /// ```asn1
    /// PBES2-params ::= SEQUENCE {
    ///    keyDerivationFunc AlgorithmIdentifier {{PBES2-KDFs}},
    ///    encryptionScheme AlgorithmIdentifier {{PBES2-Encs}} }
    /// ```
    Pbes2 {
        kdf: Kdf<'a>,
        encryption_scheme: AlgId<'a>,
        /// The cipher when pkit can decrypt with it.
        cipher: Option<PbeCipher>,
        /// The IV, for the ciphers whose parameters are one (AES, DES, 3DES).
        iv: Option<&'a [u8]>,
    },
    /// RFC 7292 Appendix C:
    ///
    /// ```asn1
    /// pkcs-12PbeParams ::= SEQUENCE {
    ///     salt        OCTET STRING,
    ///     iterations  INTEGER
    /// }
    /// ```
    Pkcs12 {
        algorithm: ObjectId<'a>,
        cipher: PbeCipher,
        salt: &'a [u8],
        iterations: u64,
    },
    /// RFC 8018 §A.3 (PBES1, DES or RC2 under MD2/MD5/SHA-1); described, not decrypted:
    ///
    /// ```asn1
    /// PBEParameter ::= SEQUENCE {
    ///    salt OCTET STRING (SIZE(8)),
    ///    iterationCount INTEGER }
    /// ```
    Pbes1 {
        algorithm: ObjectId<'a>,
        salt: &'a [u8],
        iterations: u64,
    },
    /// Anything else, named by its AlgorithmIdentifier.
    Unknown(AlgId<'a>),
}

/// A PBES2 key derivation function.
#[derive(Debug, Clone, Copy)]
pub enum Kdf<'a> {
    /// RFC 8018 §A.2:
    ///
    /// ```asn1
    /// PBKDF2-params ::= SEQUENCE {
    ///     salt CHOICE {
    ///       specified OCTET STRING,
    ///       otherSource AlgorithmIdentifier {{PBKDF2-SaltSources}}
    ///     },
    ///     iterationCount INTEGER (1..MAX),
    ///     keyLength INTEGER (1..MAX) OPTIONAL,
    ///     prf AlgorithmIdentifier {{PBKDF2-PRFs}} DEFAULT
    ///     algid-hmacWithSHA1 }
    /// ```
    Pbkdf2 {
        /// `None` for the (never used in practice) otherSource salt.
        salt: Option<&'a [u8]>,
        iterations: u64,
        key_length: Option<u64>,
        /// `None` when the DEFAULT hmacWithSHA1 applies.
        prf: Option<AlgId<'a>>,
    },
    /// RFC 7914 §7:
    ///
    /// ```asn1
    /// scrypt-params ::= SEQUENCE {
    ///     salt OCTET STRING,
    ///     costParameter INTEGER (1..MAX),
    ///     blockSize INTEGER (1..MAX),
    ///     parallelizationParameter INTEGER (1..MAX),
    ///     keyLength INTEGER (1..MAX) OPTIONAL }
    /// ```
    Scrypt {
        salt: &'a [u8],
        cost: u64,
        block_size: u64,
        parallelization: u64,
        key_length: Option<u64>,
    },
    Unknown(AlgId<'a>),
}

/// The PRF hash of a PBKDF2 `prf` AlgorithmIdentifier (RFC 8018 §B.1).
pub fn prf_hash(prf: Option<&AlgId<'_>>) -> Option<Hash> {
    let Some(a) = prf else {
        return Some(Hash::Sha1);
    };
    let o = a.oid;
    Some(if o == oids::HMAC_SHA1 {
        Hash::Sha1
    } else if o == oids::HMAC_SHA224 {
        Hash::Sha224
    } else if o == oids::HMAC_SHA256 {
        Hash::Sha256
    } else if o == oids::HMAC_SHA384 {
        Hash::Sha384
    } else if o == oids::HMAC_SHA512 {
        Hash::Sha512
    } else if o == oids::HMAC_SHA512_224 {
        Hash::Sha512_224
    } else if o == oids::HMAC_SHA512_256 {
        Hash::Sha512_256
    } else {
        return None;
    })
}

/// The PBES2 encryption schemes pkit decrypts whose parameters are a bare IV
/// (RFC 8018 §B.2; RFC 3565 §4.1 for AES).
fn pbes2_cipher(o: ObjectId<'_>) -> Option<PbeCipher> {
    Some(if o == oids::AES128_CBC {
        PbeCipher::Aes128Cbc
    } else if o == oids::AES192_CBC {
        PbeCipher::Aes192Cbc
    } else if o == oids::AES256_CBC {
        PbeCipher::Aes256Cbc
    } else if o == oids::DES_EDE3_CBC {
        PbeCipher::DesEde3Cbc
    } else if o == oids::DES_CBC {
        PbeCipher::DesCbc
    } else {
        return None;
    })
}

/// RFC 7292 Appendix C: the PKCS#12 PBE algorithms, all over SHA-1.
fn pkcs12_cipher(o: ObjectId<'_>) -> Option<PbeCipher> {
    Some(if o == oids::PBE_SHA1_RC4_128 {
        PbeCipher::Rc4_128
    } else if o == oids::PBE_SHA1_RC4_40 {
        PbeCipher::Rc4_40
    } else if o == oids::PBE_SHA1_3DES {
        PbeCipher::DesEde3Cbc
    } else if o == oids::PBE_SHA1_2DES {
        PbeCipher::DesEdeCbc
    } else if o == oids::PBE_SHA1_RC2_128 {
        PbeCipher::Rc2_128Cbc
    } else if o == oids::PBE_SHA1_RC2_40 {
        PbeCipher::Rc2_40Cbc
    } else {
        return None;
    })
}

/// PBES1 (RFC 8018 §6.1) OIDs: 1.2.840.113549.1.5.{1,3,4,6,10,11}.
fn is_pbes1(o: ObjectId<'_>) -> bool {
    matches!(
        o.as_bytes(),
        [
            0x2a,
            0x86,
            0x48,
            0x86,
            0xf7,
            0x0d,
            0x01,
            0x05,
            1 | 3 | 4 | 6 | 10 | 11
        ]
    )
}

/// A reader over an AlgorithmIdentifier's parameters, at their absolute offset.
fn params_reader<'a>(mode: &Reader<'a>, a: &AlgId<'a>) -> Option<Reader<'a>> {
    a.params
        .map(|p| mode.with_base(p, a.offset + a.raw.len() - p.len()))
}

fn missing_params(a: &AlgId<'_>) -> Error {
    Error::invalid(
        a.offset,
        format!("expected parameters for {}", a.oid.name_or_dotted()),
    )
}

/// `INTEGER (1..MAX)`.
fn read_positive(r: &mut Reader<'_>) -> Result<u64> {
    let at = r.offset();
    let n = r.read_u64()?;
    if n == 0 {
        return Err(Error::invalid(at, "expected a value of at least 1"));
    }
    Ok(n)
}

impl<'a> PbeScheme<'a> {
    /// Decode the scheme an AlgorithmIdentifier names, reading its parameters in the
    /// mode of `mode`.
    pub fn read(mode: &Reader<'a>, a: &AlgId<'a>) -> Result<Self> {
        let o = a.oid;
        if o == oids::PBES2 {
            let mut p = params_reader(mode, a).ok_or_else(|| missing_params(a))?;
            let mut s = p.read_sequence().at("PBES2-params")?;
            p.finish().at("PBES2-params")?;
            let kdf_alg = AlgId::read(&mut s).at("PBES2-params.keyDerivationFunc")?;
            let kdf = Kdf::read(mode, &kdf_alg).at("PBES2-params.keyDerivationFunc")?;
            let enc = AlgId::read(&mut s).at("PBES2-params.encryptionScheme")?;
            s.finish().at("PBES2-params")?;
            let cipher = pbes2_cipher(enc.oid);
            let iv = match (cipher, params_reader(mode, &enc)) {
                (Some(c), Some(mut ivr)) => {
                    let at = ivr.offset();
                    let iv = ivr
                        .read_octet_string()
                        .at("PBES2-params.encryptionScheme.iv")?;
                    ivr.finish().at("PBES2-params.encryptionScheme")?;
                    if iv.len() != c.iv_len() {
                        return Err(Error::invalid(
                            at,
                            format!("expected a {}-byte IV, found {}", c.iv_len(), iv.len()),
                        )
                        .at("PBES2-params.encryptionScheme.iv"));
                    }
                    Some(iv)
                }
                (Some(_), None) => {
                    return Err(missing_params(&enc).at("PBES2-params.encryptionScheme"))
                }
                (None, _) => None,
            };
            return Ok(PbeScheme::Pbes2 {
                kdf,
                encryption_scheme: enc,
                cipher,
                iv,
            });
        }
        let pkcs12 = pkcs12_cipher(o);
        if pkcs12.is_some() || is_pbes1(o) {
            let mut p = params_reader(mode, a).ok_or_else(|| missing_params(a))?;
            let mut s = p.read_sequence().at("parameters")?;
            p.finish().at("parameters")?;
            let salt = s.read_octet_string().at("parameters.salt")?;
            let iterations = read_positive(&mut s).at("parameters.iterations")?;
            s.finish().at("parameters")?;
            return Ok(match pkcs12 {
                Some(cipher) => PbeScheme::Pkcs12 {
                    algorithm: o,
                    cipher,
                    salt,
                    iterations,
                },
                None => PbeScheme::Pbes1 {
                    algorithm: o,
                    salt,
                    iterations,
                },
            });
        }
        Ok(PbeScheme::Unknown(*a))
    }

    /// Decrypt `data` with `password` (UTF-8 as typed; `None` for an absent password,
    /// which PKCS#12 tells apart from an empty one). PBES2 uses the bytes as they are
    /// (RFC 8018 §A.1 leaves the encoding open; UTF-8 is what OpenSSL and Java write);
    /// the PKCS#12 PBEs use the BMPString form (RFC 7292 Appendix B.1).
    pub fn decrypt(&self, password: Option<&[u8]>, data: &[u8]) -> backend::Result<Vec<u8>> {
        match *self {
            PbeScheme::Pbes2 {
                kdf,
                encryption_scheme,
                cipher,
                iv,
            } => {
                let (Some(cipher), Some(iv)) = (cipher, iv) else {
                    return Err(BackendError::Unsupported(format!(
                        "PBES2 encryption scheme {} is not supported",
                        encryption_scheme.oid.name_or_dotted()
                    )));
                };
                let len = cipher.key_len();
                let mut key = kdf.derive(password.unwrap_or_default(), len)?;
                let plain = pbe::decrypt(cipher, &key, iv, data);
                key.fill(0);
                plain
            }
            PbeScheme::Pkcs12 {
                cipher,
                salt,
                iterations,
                ..
            } => {
                let password = pbe::bmp_password(password)?;
                let mut key = pbe::pkcs12_kdf(
                    &password,
                    salt,
                    iterations,
                    Hash::Sha1,
                    Pkcs12Purpose::Key,
                    cipher.key_len(),
                )?;
                let iv = if cipher.iv_len() > 0 {
                    pbe::pkcs12_kdf(
                        &password,
                        salt,
                        iterations,
                        Hash::Sha1,
                        Pkcs12Purpose::Iv,
                        cipher.iv_len(),
                    )?
                } else {
                    Vec::new()
                };
                let plain = pbe::decrypt(cipher, &key, &iv, data);
                key.fill(0);
                plain
            }
            PbeScheme::Pbes1 { algorithm, .. } => Err(BackendError::Unsupported(format!(
                "PBES1 encryption ({}) is not supported; re-encrypt the key with PBES2",
                algorithm.name_or_dotted()
            ))),
            PbeScheme::Unknown(a) => Err(BackendError::Unsupported(format!(
                "encryption algorithm {} is not supported",
                a.oid.name_or_dotted()
            ))),
        }
    }
}

impl<'a> Kdf<'a> {
    /// Decode the KDF an AlgorithmIdentifier names (PBKDF2, scrypt, else `Unknown`).
    pub fn read(mode: &Reader<'a>, a: &AlgId<'a>) -> Result<Self> {
        if a.oid == oids::PBKDF2 {
            let mut p = params_reader(mode, a).ok_or_else(|| missing_params(a))?;
            let mut s = p.read_sequence().at("PBKDF2-params")?;
            p.finish().at("PBKDF2-params")?;
            let salt = match s.peek_tag() {
                Some(tag::OCTET_STRING) => Some(s.read_octet_string().at("PBKDF2-params.salt")?),
                _ => {
                    AlgId::read(&mut s).at("PBKDF2-params.salt.otherSource")?;
                    None
                }
            };
            let iterations = read_positive(&mut s).at("PBKDF2-params.iterationCount")?;
            let key_length = match s.peek_tag() {
                Some(tag::INTEGER) => Some(read_positive(&mut s).at("PBKDF2-params.keyLength")?),
                _ => None,
            };
            let prf = if s.is_empty() {
                None
            } else {
                Some(AlgId::read(&mut s).at("PBKDF2-params.prf")?)
            };
            s.finish().at("PBKDF2-params")?;
            return Ok(Kdf::Pbkdf2 {
                salt,
                iterations,
                key_length,
                prf,
            });
        }
        if a.oid == oids::SCRYPT {
            let mut p = params_reader(mode, a).ok_or_else(|| missing_params(a))?;
            let mut s = p.read_sequence().at("scrypt-params")?;
            p.finish().at("scrypt-params")?;
            let salt = s.read_octet_string().at("scrypt-params.salt")?;
            let cost = read_positive(&mut s).at("scrypt-params.costParameter")?;
            let block_size = read_positive(&mut s).at("scrypt-params.blockSize")?;
            let parallelization =
                read_positive(&mut s).at("scrypt-params.parallelizationParameter")?;
            let key_length = if s.is_empty() {
                None
            } else {
                Some(read_positive(&mut s).at("scrypt-params.keyLength")?)
            };
            s.finish().at("scrypt-params")?;
            return Ok(Kdf::Scrypt {
                salt,
                cost,
                block_size,
                parallelization,
                key_length,
            });
        }
        Ok(Kdf::Unknown(*a))
    }

    /// Derive `len` key bytes.
    pub fn derive(&self, password: &[u8], len: usize) -> backend::Result<Vec<u8>> {
        let check_len = |k: Option<u64>| match k {
            Some(k) if k != len as u64 => Err(BackendError::BadKey(format!(
                "KDF keyLength {k} does not match the cipher's {len}-byte key"
            ))),
            _ => Ok(()),
        };
        match *self {
            Kdf::Pbkdf2 {
                salt,
                iterations,
                key_length,
                prf,
            } => {
                check_len(key_length)?;
                let salt = salt.ok_or_else(|| {
                    BackendError::Unsupported("PBKDF2 with an otherSource salt".into())
                })?;
                let hash = prf_hash(prf.as_ref()).ok_or_else(|| {
                    BackendError::Unsupported(format!(
                        "PBKDF2 PRF {} is not supported",
                        prf.map_or_else(String::new, |p| p.oid.name_or_dotted())
                    ))
                })?;
                pbe::pbkdf2(password, salt, iterations, hash, len)
            }
            Kdf::Scrypt {
                salt,
                cost,
                block_size,
                parallelization,
                key_length,
            } => {
                check_len(key_length)?;
                pbe::scrypt(password, salt, cost, block_size, parallelization, len)
            }
            Kdf::Unknown(a) => Err(BackendError::Unsupported(format!(
                "PBES2 key derivation {} is not supported",
                a.oid.name_or_dotted()
            ))),
        }
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
        assert_eq!(k.ml_dsa_form().unwrap(), Some(MlDsaForm::Seed(&[5; 32])));
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

    /// A PBES2 EncryptedPrivateKeyInfo over `plain`, encrypted here with OpenSSL.
    fn encrypt_pbes2(plain: &[u8], password: &[u8]) -> Vec<u8> {
        let salt = [3u8; 16];
        let iv = [4u8; 16];
        let key = pbe::pbkdf2(password, &salt, 1000, Hash::Sha256, 32).unwrap();
        let ct = native_ossl::cipher::CipherAlg::fetch(c"AES-256-CBC", None)
            .unwrap()
            .encrypt_to_vec(&key, &iv, None, plain)
            .unwrap();
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::PBES2);
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::PBKDF2);
                        w.sequence(|w| {
                            w.octet_string(&salt);
                            w.integer_u64(1000);
                            w.sequence(|w| {
                                w.oid(&oids::HMAC_SHA256);
                                w.null();
                            });
                        });
                    });
                    w.sequence(|w| {
                        w.oid(&oids::AES256_CBC);
                        w.octet_string(&iv);
                    });
                });
            });
            w.octet_string(&ct);
        });
        w.finish()
    }

    #[test]
    fn pbes2_describe_and_decrypt() {
        let plain = pkcs8(0, &oids::ED25519, &[4, 2, 1, 2], None);
        let der = encrypt_pbes2(&plain, b"pw");
        let e = EncryptedPrivateKeyInfo::from_der(&der).unwrap();
        let s = e.scheme().unwrap();
        match s {
            PbeScheme::Pbes2 {
                kdf: Kdf::Pbkdf2 {
                    iterations, prf, ..
                },
                cipher,
                ..
            } => {
                assert_eq!(iterations, 1000);
                assert_eq!(prf_hash(prf.as_ref()), Some(Hash::Sha256));
                assert_eq!(cipher, Some(PbeCipher::Aes256Cbc));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(s.decrypt(Some(b"pw"), e.encrypted_data).unwrap(), plain);
        match s.decrypt(Some(b"wrong"), e.encrypted_data) {
            Err(BackendError::BadPassword(_)) => {}
            Ok(p) => assert_ne!(p, plain),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn pkcs12_pbe_params_and_errors() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::PBE_SHA1_3DES);
                w.sequence(|w| {
                    w.octet_string(&[1; 8]);
                    w.integer_u64(2048);
                });
            });
            w.octet_string(&[0; 16]);
        });
        let der = w.finish();
        let e = EncryptedPrivateKeyInfo::from_der(&der).unwrap();
        match e.scheme().unwrap() {
            PbeScheme::Pkcs12 {
                cipher, iterations, ..
            } => {
                assert_eq!(cipher, PbeCipher::DesEde3Cbc);
                assert_eq!(iterations, 2048);
            }
            other => panic!("{other:?}"),
        }
        // Zero iterations are refused at the INTEGER, by offset.
        let mut zero = der.clone();
        let at = der.windows(4).position(|x| x == [2, 2, 8, 0]).unwrap();
        zero[at + 2] = 0;
        zero[at + 3] = 0;
        // 02 02 00 00 is also non-minimal; either way the error sits on that INTEGER.
        let e = EncryptedPrivateKeyInfo::from_der(&zero)
            .unwrap()
            .scheme()
            .unwrap_err();
        assert_eq!(e.offset, at + 2);
    }

    #[test]
    fn unknown_scheme_is_described_not_decrypted() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::SHA256);
            });
            w.octet_string(&[0; 16]);
        });
        let der = w.finish();
        let e = EncryptedPrivateKeyInfo::from_der(&der).unwrap();
        let s = e.scheme().unwrap();
        assert!(matches!(s, PbeScheme::Unknown(_)));
        assert!(matches!(
            s.decrypt(Some(b"x"), e.encrypted_data),
            Err(BackendError::Unsupported(_))
        ));
    }
}
