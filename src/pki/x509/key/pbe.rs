//! Password-based encryption as PKCS#8 and PKCS#12 name it: PBES2 (RFC 8018 §6.2) with
//! PBKDF2 or scrypt (RFC 7914), the PKCS#12 PBEs (RFC 7292 Appendix C), and PBES1,
//! described but not decrypted. This file reads the parameters out of
//! AlgorithmIdentifiers and runs the schemes; the KDFs and ciphers come from the backend.

use super::cost;
use crate::algid::AlgId;
use crate::backend::pbe::{Hash, PbeCipher, Pkcs12Purpose};
use crate::backend::{self, Backend, BackendError};
use crate::der::oid_registry as oids;
use crate::der::{tag, Context, Error, ObjectId, Reader, Result};

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
        /// keyDerivationFunc: how the key is derived from the password.
        kdf: Kdf<'a>,
        /// encryptionScheme: the cipher and its parameters, as encoded.
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
        /// The PKCS#12 PBE algorithm's OID, which names KDF hash and cipher together.
        algorithm: ObjectId<'a>,
        /// The cipher the OID names.
        cipher: PbeCipher,
        /// The salt.
        salt: &'a [u8],
        /// The iteration count.
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
        /// The PBES1 algorithm's OID.
        algorithm: ObjectId<'a>,
        /// The 8-byte salt.
        salt: &'a [u8],
        /// The iteration count.
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
        /// iterationCount.
        iterations: u64,
        /// keyLength in bytes, if given.
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
        /// The salt.
        salt: &'a [u8],
        /// costParameter N.
        cost: u64,
        /// blockSize r.
        block_size: u64,
        /// parallelizationParameter p.
        parallelization: u64,
        /// keyLength in bytes, if given.
        key_length: Option<u64>,
    },
    /// Any other KDF, named by its AlgorithmIdentifier.
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

    /// Encrypt `plain`; `password` as typed. pkit writes PBES2, and the PKCS#12 PBE with
    /// SHA-1 and three-key triple DES for the PKCS#12 files old readers need
    /// (`pkcs12::write::Protection::Legacy`).
    pub fn encrypt(
        &self,
        backend: &Backend,
        password: &[u8],
        plain: &[u8],
    ) -> backend::Result<Vec<u8>> {
        match *self {
            PbeScheme::Pbes2 {
                kdf,
                encryption_scheme,
                cipher,
                iv,
            } => {
                let (cipher, iv) = supported_pbes2(&encryption_scheme, cipher, iv)?;
                // Its own parameters: an allowance of its own.
                let mut key =
                    kdf.derive(backend, &cost::Allowance::new(), password, cipher.key_len())?;
                let out = backend.pbe().encrypt(cipher, &key, iv, plain);
                key.fill(0);
                out
            }
            PbeScheme::Pkcs12 {
                cipher: cipher @ PbeCipher::DesEde3Cbc,
                salt,
                iterations,
                ..
            } => {
                let mut password = cost::bmp_password(Some(password))?;
                let keys = pkcs12_key_iv(
                    backend,
                    &cost::Allowance::new(),
                    &password,
                    salt,
                    iterations,
                    cipher,
                );
                password.fill(0);
                let (mut key, iv) = keys?;
                let out = backend.pbe().encrypt(cipher, &key, &iv, plain);
                key.fill(0);
                out
            }
            _ => Err(BackendError::Unsupported(
                "pkit encrypts with PBES2, or the PKCS#12 PBE with SHA-1 and triple DES, only"
                    .into(),
            )),
        }
    }

    /// Decrypt `data` with `password` (UTF-8 as typed; `None` for an absent password,
    /// which PKCS#12 tells apart from an empty one). PBES2 uses the bytes as they are
    /// (RFC 8018 §A.1 leaves the encoding open; UTF-8 is what OpenSSL and Java write);
    /// the PKCS#12 PBEs use the BMPString form (RFC 7292 Appendix B.1).
    pub fn decrypt(
        &self,
        backend: &Backend,
        allowance: &cost::Allowance,
        password: Option<&[u8]>,
        data: &[u8],
    ) -> backend::Result<Vec<u8>> {
        match *self {
            PbeScheme::Pbes2 {
                kdf,
                encryption_scheme,
                cipher,
                iv,
            } => {
                let (cipher, iv) = supported_pbes2(&encryption_scheme, cipher, iv)?;
                let len = cipher.key_len();
                let mut key = kdf.derive(backend, allowance, password.unwrap_or_default(), len)?;
                let plain = backend.pbe().decrypt(cipher, &key, iv, data);
                key.fill(0);
                plain
            }
            PbeScheme::Pkcs12 {
                cipher,
                salt,
                iterations,
                ..
            } => {
                let password = cost::bmp_password(password)?;
                let (mut key, iv) =
                    pkcs12_key_iv(backend, allowance, &password, salt, iterations, cipher)?;
                let plain = backend.pbe().decrypt(cipher, &key, &iv, data);
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

/// The key and IV of a PKCS#12 PBE (RFC 7292 Appendix B.2, over SHA-1), from the
/// password in BMPString form; no IV for RC4.
fn pkcs12_key_iv(
    backend: &Backend,
    allowance: &cost::Allowance,
    bmp_password: &[u8],
    salt: &[u8],
    iterations: u64,
    cipher: PbeCipher,
) -> backend::Result<(Vec<u8>, Vec<u8>)> {
    let derive = |purpose, len| {
        cost::pkcs12_kdf(
            backend,
            allowance,
            bmp_password,
            salt,
            iterations,
            Hash::Sha1,
            purpose,
            len,
        )
    };
    let key = derive(Pkcs12Purpose::Key, cipher.key_len())?;
    let iv = if cipher.iv_len() > 0 {
        derive(Pkcs12Purpose::Iv, cipher.iv_len())?
    } else {
        Vec::new()
    };
    Ok((key, iv))
}

/// The PBES2 cipher and IV, when pkit has the cipher.
fn supported_pbes2<'a>(
    scheme: &AlgId<'_>,
    cipher: Option<PbeCipher>,
    iv: Option<&'a [u8]>,
) -> backend::Result<(PbeCipher, &'a [u8])> {
    match (cipher, iv) {
        (Some(c), Some(iv)) => Ok((c, iv)),
        _ => Err(BackendError::Unsupported(format!(
            "PBES2 encryption scheme {} is not supported",
            scheme.oid.name_or_dotted()
        ))),
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
    pub fn derive(
        &self,
        backend: &Backend,
        allowance: &cost::Allowance,
        password: &[u8],
        len: usize,
    ) -> backend::Result<Vec<u8>> {
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
                cost::pbkdf2(backend, allowance, password, salt, iterations, hash, len)
            }
            Kdf::Scrypt {
                salt,
                cost,
                block_size,
                parallelization,
                key_length,
            } => {
                check_len(key_length)?;
                cost::scrypt(
                    backend,
                    allowance,
                    password,
                    salt,
                    cost,
                    block_size,
                    parallelization,
                    len,
                )
            }
            Kdf::Unknown(a) => Err(BackendError::Unsupported(format!(
                "PBES2 key derivation {} is not supported",
                a.oid.name_or_dotted()
            ))),
        }
    }
}

#[cfg(test)]
mod tests;
