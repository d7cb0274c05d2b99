//! Private key containers: PKCS#8 `OneAsymmetricKey` (RFC 5958), the ML-DSA private key
//! choice inside it (RFC 9881), and `EncryptedPrivateKeyInfo` with PBES2 (RFC 8018) using
//! PBKDF2 or scrypt (RFC 7914). This module knows structures and OIDs only; the backend
//! supplies the key material, the KDF and the cipher.

#![forbid(unsafe_code)]

use super::alg::Algorithm;
use super::backend::{BackendError, Result};
use crate::der::oid_registry as oids;
use crate::der::{self, tag, Context, ObjectId, Oid, Reader, Writer};

// PRF OIDs the registry does not name (RFC 8018 §B.1.2).
const HMAC_SHA224: Oid = Oid::new("1.2.840.113549.2.8");
const HMAC_SHA384: Oid = Oid::new("1.2.840.113549.2.10");
const HMAC_SHA512: Oid = Oid::new("1.2.840.113549.2.11");

/// What kind of key an AlgorithmIdentifier names. RSA keys get their size from the key
/// itself, so they are one kind here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Rsa,
    Fixed(Algorithm),
}

/// Classify a key's AlgorithmIdentifier (RFC 5280 §4.1.1.2), given as the content of
/// its SEQUENCE: `algorithm OBJECT IDENTIFIER, parameters ANY DEFINED BY algorithm OPTIONAL`.
/// Keys outside pkit's nine algorithms are `Unsupported`, naming the OID.
pub fn key_kind(alg_id: &mut Reader<'_>) -> Result<KeyKind> {
    let oid = alg_id.read_oid().map_err(bad_key)?;
    let unsupported = |what: &str, o: ObjectId<'_>| {
        let named = match o.name() {
            Some(n) => format!("{n} ({o})"),
            None => o.to_string(),
        };
        BackendError::Unsupported(format!(
            "unsupported {what} {named}; pkit handles {}",
            Algorithm::names_list()
        ))
    };
    if oid == oids::RSA_ENCRYPTION {
        return Ok(KeyKind::Rsa);
    }
    if oid == oids::EC_PUBLIC_KEY {
        // ECParameters ::= CHOICE { namedCurve OBJECT IDENTIFIER, … } (RFC 5480 §2.1.1);
        // only named curves are allowed in PKIX.
        let curve = alg_id.read_oid().map_err(bad_key)?;
        return if curve == oids::SECP256R1 {
            Ok(KeyKind::Fixed(Algorithm::EcdsaP256))
        } else if curve == oids::SECP384R1 {
            Ok(KeyKind::Fixed(Algorithm::EcdsaP384))
        } else {
            Err(unsupported("elliptic curve", curve))
        };
    }
    for (o, a) in [
        (oids::ED25519, Algorithm::Ed25519),
        (oids::ML_DSA_44, Algorithm::MlDsa44),
        (oids::ML_DSA_65, Algorithm::MlDsa65),
        (oids::ML_DSA_87, Algorithm::MlDsa87),
    ] {
        if oid == o {
            return Ok(KeyKind::Fixed(a));
        }
    }
    Err(unsupported("key algorithm", oid))
}

/// The key kind named by a SubjectPublicKeyInfo (RFC 5280 §4.1.2.7):
/// `SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }`.
/// An `id-RSASSA-PSS` key (RFC 4055 §1.2) is an RSA key here: pkit verifies with such
/// keys but does not sign with them.
pub fn spki_key_kind(spki: &[u8]) -> Result<KeyKind> {
    let mut r = Reader::new(spki);
    let mut s = r.read_sequence().map_err(bad_key)?;
    let mut a = s.read_sequence().at("algorithm").map_err(bad_key)?;
    let mut peek = a;
    if peek.read_oid().is_ok_and(|o| o == oids::RSASSA_PSS) {
        return Ok(KeyKind::Rsa);
    }
    key_kind(&mut a)
}

fn bad_key(e: der::Error) -> BackendError {
    BackendError::BadKey(format!("not a valid key: {e}"))
}

/// A parsed PKCS#8 private key (RFC 5958 §2):
///
/// ```asn1
/// OneAsymmetricKey ::= SEQUENCE {
///     version                   Version,
///     privateKeyAlgorithm       PrivateKeyAlgorithmIdentifier,
///     privateKey                PrivateKey,
///     attributes            [0] Attributes OPTIONAL,
///     ...,
///     [[2: publicKey        [1] PublicKey OPTIONAL ]],
///     ... }
/// Version ::= INTEGER { v1(0), v2(1) } (v1, ..., v2)
/// PrivateKey ::= OCTET STRING
/// ```
#[derive(Debug, Clone, Copy)]
pub struct OneAsymmetricKey<'a> {
    pub kind: KeyKind,
    /// The content of the `privateKey` OCTET STRING.
    pub private_key: &'a [u8],
}

impl<'a> OneAsymmetricKey<'a> {
    pub fn parse(der: &'a [u8]) -> Result<Self> {
        let mut r = Reader::new(der);
        let mut s = r.read_sequence().map_err(bad_key)?;
        r.finish().map_err(bad_key)?;
        let version = s.read_u64().at("version").map_err(bad_key)?;
        if version > 1 {
            return Err(BackendError::BadKey(format!(
                "unknown PKCS#8 version {version} (expected 0 or 1)"
            )));
        }
        let mut alg = s
            .read_sequence()
            .at("privateKeyAlgorithm")
            .map_err(bad_key)?;
        let kind = key_kind(&mut alg)?;
        let private_key = s.read_octet_string().at("privateKey").map_err(bad_key)?;
        Ok(OneAsymmetricKey { kind, private_key })
    }
}

/// The `privateKey` of an ML-DSA PKCS#8 key (RFC 9881 §6):
///
/// ```asn1
/// ML-DSA-PrivateKey ::= CHOICE {
///     seed [0] IMPLICIT OCTET STRING (SIZE (32)),
///     expandedKey OCTET STRING (SIZE (2560 | 4032 | 4896)),
///     both SEQUENCE {
///         seed OCTET STRING (SIZE (32)),
///         expandedKey OCTET STRING (SIZE (2560 | 4032 | 4896)) } }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MlDsaPrivateKey<'a> {
    Seed(&'a [u8]),
    Expanded(&'a [u8]),
    Both { seed: &'a [u8], expanded: &'a [u8] },
}

/// FIPS 204 §4 Table 2: the expanded private key size of each parameter set.
pub fn ml_dsa_expanded_len(alg: Algorithm) -> Option<usize> {
    match alg {
        Algorithm::MlDsa44 => Some(2560),
        Algorithm::MlDsa65 => Some(4032),
        Algorithm::MlDsa87 => Some(4896),
        _ => None,
    }
}

/// The 32-byte seed ξ that ML-DSA.KeyGen expands (FIPS 204 Algorithm 1).
pub const ML_DSA_SEED_LEN: usize = 32;

const SEED_TAG: u8 = tag::implicit(0);

impl<'a> MlDsaPrivateKey<'a> {
    /// Parse the `privateKey` OCTET STRING content and check the sizes for `alg`.
    pub fn parse(content: &'a [u8], alg: Algorithm) -> Result<Self> {
        let want = ml_dsa_expanded_len(alg)
            .ok_or_else(|| BackendError::BadKey(format!("{alg} is not an ML-DSA algorithm")))?;
        let mut r = Reader::new(content);
        let key = match r.peek_tag() {
            Some(SEED_TAG) => MlDsaPrivateKey::Seed(r.read(SEED_TAG).map_err(bad_key)?),
            Some(tag::OCTET_STRING) => {
                MlDsaPrivateKey::Expanded(r.read_octet_string().map_err(bad_key)?)
            }
            Some(tag::SEQUENCE) => {
                let mut s = r.read_sequence().map_err(bad_key)?;
                let seed = s.read_octet_string().at("both.seed").map_err(bad_key)?;
                let expanded = s
                    .read_octet_string()
                    .at("both.expandedKey")
                    .map_err(bad_key)?;
                s.finish().map_err(bad_key)?;
                MlDsaPrivateKey::Both { seed, expanded }
            }
            _ => {
                return Err(BackendError::BadKey(format!(
                    "{alg} private key: expected seed [0], expandedKey OCTET STRING or both \
                     SEQUENCE (RFC 9881 §6)"
                )))
            }
        };
        r.finish().map_err(bad_key)?;
        let (seed, expanded) = match key {
            MlDsaPrivateKey::Seed(s) => (Some(s), None),
            MlDsaPrivateKey::Expanded(e) => (None, Some(e)),
            MlDsaPrivateKey::Both { seed, expanded } => (Some(seed), Some(expanded)),
        };
        if let Some(s) = seed.filter(|s| s.len() != ML_DSA_SEED_LEN) {
            return Err(BackendError::BadKey(format!(
                "{alg} private key: seed is {} bytes, expected {ML_DSA_SEED_LEN}",
                s.len()
            )));
        }
        if let Some(e) = expanded.filter(|e| e.len() != want) {
            return Err(BackendError::BadKey(format!(
                "{alg} private key: expanded key is {} bytes, expected {want}",
                e.len()
            )));
        }
        Ok(key)
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

/// The PBKDF2 pseudo-random function (RFC 8018 §A.2, `PBKDF2-PRFs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prf {
    HmacSha1,
    HmacSha224,
    HmacSha256,
    HmacSha384,
    HmacSha512,
}

impl Prf {
    fn oid(self) -> Oid {
        match self {
            Prf::HmacSha1 => oids::HMAC_SHA1,
            Prf::HmacSha224 => HMAC_SHA224,
            Prf::HmacSha256 => oids::HMAC_SHA256,
            Prf::HmacSha384 => HMAC_SHA384,
            Prf::HmacSha512 => HMAC_SHA512,
        }
    }

    fn from_oid(oid: ObjectId<'_>) -> Option<Prf> {
        [
            Prf::HmacSha1,
            Prf::HmacSha224,
            Prf::HmacSha256,
            Prf::HmacSha384,
            Prf::HmacSha512,
        ]
        .into_iter()
        .find(|p| oid == p.oid())
    }
}

/// The PBES2 key derivation function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyDerivation<'a> {
    /// RFC 8018 §A.2:
    ///
    /// ```asn1
    /// PBKDF2-params ::= SEQUENCE {
    ///     salt CHOICE { specified OCTET STRING, otherSource AlgorithmIdentifier },
    ///     iterationCount INTEGER (1..MAX),
    ///     keyLength INTEGER (1..MAX) OPTIONAL,
    ///     prf AlgorithmIdentifier {{PBKDF2-PRFs}} DEFAULT algid-hmacWithSHA1 }
    /// ```
    Pbkdf2 {
        salt: &'a [u8],
        iterations: u64,
        key_len: Option<u64>,
        prf: Prf,
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
        n: u64,
        r: u64,
        p: u64,
        key_len: Option<u64>,
    },
}

/// The PBES2 encryption scheme: a CBC cipher whose parameters are the IV (RFC 8018 §B.2;
/// `AES-IV ::= OCTET STRING (SIZE(16))`, RFC 3565 §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cipher {
    Aes128Cbc,
    Aes192Cbc,
    Aes256Cbc,
    DesEde3Cbc,
}

impl Cipher {
    fn oid(self) -> Oid {
        match self {
            Cipher::Aes128Cbc => oids::AES128_CBC,
            Cipher::Aes192Cbc => oids::AES192_CBC,
            Cipher::Aes256Cbc => oids::AES256_CBC,
            Cipher::DesEde3Cbc => oids::DES_EDE3_CBC,
        }
    }

    pub fn key_len(self) -> usize {
        match self {
            Cipher::Aes128Cbc => 16,
            Cipher::Aes192Cbc | Cipher::DesEde3Cbc => 24,
            Cipher::Aes256Cbc => 32,
        }
    }

    pub fn iv_len(self) -> usize {
        match self {
            Cipher::DesEde3Cbc => 8,
            _ => 16,
        }
    }
}

/// PBES2 parameters (RFC 8018 §A.4):
///
/// ```asn1
/// PBES2-params ::= SEQUENCE {
///     keyDerivationFunc AlgorithmIdentifier {{PBES2-KDFs}},
///     encryptionScheme AlgorithmIdentifier {{PBES2-Encs}} }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pbes2<'a> {
    pub kdf: KeyDerivation<'a>,
    pub cipher: Cipher,
    pub iv: &'a [u8],
}

/// How an `EncryptedPrivateKeyInfo` is encrypted: PBES2 as pkit understands it, or
/// something else (PBES1, PKCS#12 PBE, an unknown PRF or cipher), named for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncryptionScheme<'a> {
    Pbes2(Pbes2<'a>),
    Other(String),
}

/// RFC 5958 §3:
///
/// ```asn1
/// EncryptedPrivateKeyInfo ::= SEQUENCE {
///     encryptionAlgorithm  EncryptionAlgorithmIdentifier,
///     encryptedData        EncryptedData }
/// EncryptedData ::= OCTET STRING
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncryptedPrivateKeyInfo<'a> {
    pub scheme: EncryptionScheme<'a>,
    pub encrypted_data: &'a [u8],
}

/// True when `der` is shaped like an `EncryptedPrivateKeyInfo` (a SEQUENCE that starts
/// with a SEQUENCE) rather than a `OneAsymmetricKey` (a SEQUENCE that starts with an
/// INTEGER).
pub fn is_encrypted(der: &[u8]) -> bool {
    let mut r = Reader::new(der);
    r.read_sequence()
        .is_ok_and(|s| s.peek_tag() == Some(tag::SEQUENCE))
}

impl<'a> EncryptedPrivateKeyInfo<'a> {
    pub fn parse(der: &'a [u8]) -> der::Result<Self> {
        let mut r = Reader::new(der);
        let mut s = r.read_sequence()?;
        r.finish()?;
        let mut alg = s.read_sequence().at("encryptionAlgorithm")?;
        let scheme = read_scheme(&mut alg).at("encryptionAlgorithm")?;
        let encrypted_data = s.read_octet_string().at("encryptedData")?;
        s.finish()?;
        Ok(EncryptedPrivateKeyInfo {
            scheme,
            encrypted_data,
        })
    }

    /// Encode with PBES2 parameters. PBKDF2 writes its PRF explicitly (with NULL
    /// parameters, as OpenSSL does) since the DEFAULT is HMAC-SHA1.
    pub fn encode(pbes2: &Pbes2<'_>, encrypted_data: &[u8]) -> Vec<u8> {
        let mut w = Writer::with_capacity(encrypted_data.len() + 128);
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::PBES2);
                w.sequence(|w| {
                    w.sequence(|w| write_kdf(w, &pbes2.kdf));
                    w.sequence(|w| {
                        w.oid(&pbes2.cipher.oid());
                        w.octet_string(pbes2.iv);
                    });
                });
            });
            w.octet_string(encrypted_data);
        });
        w.finish()
    }
}

fn write_kdf(w: &mut Writer, kdf: &KeyDerivation<'_>) {
    match *kdf {
        KeyDerivation::Pbkdf2 {
            salt,
            iterations,
            key_len,
            prf,
        } => {
            w.oid(&oids::PBKDF2);
            w.sequence(|w| {
                w.octet_string(salt);
                w.integer_u64(iterations);
                if let Some(k) = key_len {
                    w.integer_u64(k);
                }
                if prf != Prf::HmacSha1 {
                    w.sequence(|w| {
                        w.oid(&prf.oid());
                        w.null();
                    });
                }
            });
        }
        KeyDerivation::Scrypt {
            salt,
            n,
            r,
            p,
            key_len,
        } => {
            w.oid(&oids::SCRYPT);
            w.sequence(|w| {
                w.octet_string(salt);
                w.integer_u64(n);
                w.integer_u64(r);
                w.integer_u64(p);
                if let Some(k) = key_len {
                    w.integer_u64(k);
                }
            });
        }
    }
}

/// Read `encryptionAlgorithm` (content of its SEQUENCE).
fn read_scheme<'a>(alg: &mut Reader<'a>) -> der::Result<EncryptionScheme<'a>> {
    let oid = alg.read_oid()?;
    if oid != oids::PBES2 {
        return Ok(EncryptionScheme::Other(oid.name_or_dotted()));
    }
    let mut params = alg.read_sequence().at("PBES2-params")?;
    let mut kdf_alg = params.read_sequence().at("keyDerivationFunc")?;
    let kdf_oid = kdf_alg.read_oid().at("keyDerivationFunc")?;
    let kdf = if kdf_oid == oids::PBKDF2 {
        let mut p = kdf_alg.read_sequence().at("PBKDF2-params")?;
        let Some(salt) = p.read_optional(tag::OCTET_STRING)? else {
            return Ok(EncryptionScheme::Other(
                "PBKDF2 with salt otherSource".into(),
            ));
        };
        let iterations = p.read_u64().at("iterationCount")?;
        let key_len = match p.peek_tag() {
            Some(tag::INTEGER) => Some(p.read_u64().at("keyLength")?),
            _ => None,
        };
        let prf = match p.read_optional(tag::SEQUENCE)? {
            None => Prf::HmacSha1,
            Some(tlv) => {
                let mut pr = p.with_base(tlv.content, tlv.content_offset());
                let prf_oid = pr.read_oid().at("prf")?;
                match Prf::from_oid(prf_oid) {
                    Some(prf) => prf,
                    None => {
                        return Ok(EncryptionScheme::Other(format!(
                            "PBKDF2 with PRF {}",
                            prf_oid.name_or_dotted()
                        )))
                    }
                }
            }
        };
        p.finish()?;
        KeyDerivation::Pbkdf2 {
            salt: salt.content,
            iterations,
            key_len,
            prf,
        }
    } else if kdf_oid == oids::SCRYPT {
        let mut p = kdf_alg.read_sequence().at("scrypt-params")?;
        let salt = p.read_octet_string().at("salt")?;
        let n = p.read_u64().at("costParameter")?;
        let r = p.read_u64().at("blockSize")?;
        let par = p.read_u64().at("parallelizationParameter")?;
        let key_len = match p.peek_tag() {
            Some(tag::INTEGER) => Some(p.read_u64().at("keyLength")?),
            _ => None,
        };
        p.finish()?;
        KeyDerivation::Scrypt {
            salt,
            n,
            r,
            p: par,
            key_len,
        }
    } else {
        return Ok(EncryptionScheme::Other(format!(
            "PBES2 with KDF {}",
            kdf_oid.name_or_dotted()
        )));
    };
    let mut enc = params.read_sequence().at("encryptionScheme")?;
    let enc_oid = enc.read_oid().at("encryptionScheme")?;
    let Some(cipher) = [
        Cipher::Aes128Cbc,
        Cipher::Aes192Cbc,
        Cipher::Aes256Cbc,
        Cipher::DesEde3Cbc,
    ]
    .into_iter()
    .find(|c| enc_oid == c.oid()) else {
        return Ok(EncryptionScheme::Other(format!(
            "PBES2 with cipher {}",
            enc_oid.name_or_dotted()
        )));
    };
    let iv_offset = enc.offset();
    let iv = enc.read_octet_string().at("encryptionScheme.iv")?;
    if iv.len() != cipher.iv_len() {
        return Err(der::Error::invalid(
            iv_offset,
            format!("a {}-byte IV", cipher.iv_len()),
        ));
    }
    Ok(EncryptionScheme::Pbes2(Pbes2 { kdf, cipher, iv }))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let k = OneAsymmetricKey::parse(&der).unwrap();
        assert_eq!(k.kind, KeyKind::Fixed(Algorithm::MlDsa65));
        assert_eq!(
            MlDsaPrivateKey::parse(k.private_key, Algorithm::MlDsa65).unwrap(),
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
            let k = OneAsymmetricKey::parse(&der).unwrap();
            assert_eq!(
                MlDsaPrivateKey::parse(k.private_key, Algorithm::MlDsa44).unwrap(),
                key
            );
            // The same bytes under ML-DSA-65 have the wrong expanded size.
            assert!(matches!(
                MlDsaPrivateKey::parse(k.private_key, Algorithm::MlDsa65),
                Err(BackendError::BadKey(_))
            ));
        }
        let short = MlDsaPrivateKey::Seed(&seed[..31]).to_pkcs8(&oids::ML_DSA_44);
        let k = OneAsymmetricKey::parse(&short).unwrap();
        assert!(MlDsaPrivateKey::parse(k.private_key, Algorithm::MlDsa44).is_err());
    }

    #[test]
    fn unknown_key_algorithms_are_unsupported_and_named() {
        // An Ed448 PKCS#8 key (RFC 8410 §7 layout).
        let mut der = vec![
            0x30, 0x47, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65,
        ];
        der.extend_from_slice(&[0x71, 0x04, 0x3b, 0x04, 0x39]);
        der.extend_from_slice(&[0u8; 57]);
        match OneAsymmetricKey::parse(&der) {
            Err(BackendError::Unsupported(m)) => assert!(m.contains("Ed448"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            OneAsymmetricKey::parse(b"garbage"),
            Err(BackendError::BadKey(_))
        ));
    }

    #[test]
    fn pbes2_round_trip() {
        for kdf in [
            KeyDerivation::Pbkdf2 {
                salt: &[9; 16],
                iterations: 100_000,
                key_len: None,
                prf: Prf::HmacSha256,
            },
            KeyDerivation::Scrypt {
                salt: &[8; 16],
                n: 16384,
                r: 8,
                p: 1,
                key_len: Some(32),
            },
        ] {
            let p = Pbes2 {
                kdf,
                cipher: Cipher::Aes256Cbc,
                iv: &[5; 16],
            };
            let der = EncryptedPrivateKeyInfo::encode(&p, &[1, 2, 3]);
            assert!(is_encrypted(&der));
            let e = EncryptedPrivateKeyInfo::parse(&der).unwrap();
            assert_eq!(e.scheme, EncryptionScheme::Pbes2(p));
            assert_eq!(e.encrypted_data, &[1, 2, 3]);
        }
        let plain = MlDsaPrivateKey::Seed(&[0; 32]).to_pkcs8(&oids::ML_DSA_44);
        assert!(!is_encrypted(&plain));
    }
}
