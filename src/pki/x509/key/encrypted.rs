//! Encrypted PKCS#8 (RFC 5958 §3, `EncryptedPrivateKeyInfo`): reading any of them, and
//! writing the two pkit makes, PBES2 with AES-256-CBC under PBKDF2-HMAC-SHA256 or scrypt.

use super::ml_dsa::MlDsaKeyFormat;
use super::pbe::PbeScheme;
use crate::algid::AlgId;
use crate::backend::{self, Backend, BackendError, PrivateKey};
use crate::der::oid_registry as oids;
use crate::der::{tag, Context, Reader, Result, Writer};

/// PBKDF2-HMAC-SHA256 iterations for keys pkit encrypts. OWASP's 2023 figure is 600,000;
/// 100,000 costs about 30 ms per load on the 2-core development machine (measured with
/// OpenSSL 3.5.5, release build), keeps test suites and CA start-up quick, and is 50
/// times OpenSSL's own default of 2048. Use `--kdf scrypt` for a memory-hard KDF.
pub const PBKDF2_ITERATIONS: u64 = 100_000;
/// scrypt cost N = 2^14, r = 8, p = 1: RFC 7914 §2's interactive setting and what
/// `openssl pkcs8 -scrypt` writes. It needs 16 MiB; N = 2^15 would exceed the 32 MiB that
/// OpenSSL allows by default when it decrypts, and `openssl pkey` could not read the key.
pub const SCRYPT_N: u64 = 1 << 14;
/// The scrypt block size r pkit writes (see [`SCRYPT_N`]).
pub const SCRYPT_R: u64 = 8;
/// The scrypt parallelization p pkit writes (see [`SCRYPT_N`]).
pub const SCRYPT_P: u64 = 1;

/// Which of pkit's two PBES2 settings a key it writes gets. A choice, not a model of
/// KDF parameters: those, as read from any file, are [`super::pbe::Kdf`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KdfChoice {
    /// PBKDF2-HMAC-SHA256 with [`PBKDF2_ITERATIONS`].
    #[default]
    Pbkdf2,
    /// scrypt with [`SCRYPT_N`], [`SCRYPT_R`] and [`SCRYPT_P`].
    Scrypt,
}

/// True when `der` is shaped like an `EncryptedPrivateKeyInfo` (a SEQUENCE that starts
/// with a SEQUENCE) rather than a `OneAsymmetricKey` (a SEQUENCE that starts with an
/// INTEGER).
pub fn is_encrypted(der: &[u8]) -> bool {
    let mut r = Reader::new(der);
    r.read_sequence()
        .is_ok_and(|s| s.peek_tag() == Some(tag::SEQUENCE))
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
    /// The whole EncryptedPrivateKeyInfo DER.
    pub raw: &'a [u8],
    /// How the key was encrypted: a PBES2 or PKCS#12 PBE AlgorithmIdentifier.
    pub encryption_algorithm: AlgId<'a>,
    /// The encrypted PKCS#8 PrivateKeyInfo.
    pub encrypted_data: &'a [u8],
    mode: Reader<'a>,
}

impl<'a> EncryptedPrivateKeyInfo<'a> {
    /// Parse an EncryptedPrivateKeyInfo (RFC 5958 §3) spanning all of `der`.
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

/// `key` as encrypted PKCS#8 under `password`. The plain encoding is cleared afterwards,
/// whatever the outcome.
pub fn encrypt_private_key(
    backend: &Backend,
    key: &dyn PrivateKey,
    password: &[u8],
    kdf: KdfChoice,
    format: MlDsaKeyFormat,
) -> backend::Result<Vec<u8>> {
    let mut plain = key.to_pkcs8_der(format)?;
    let result = encrypt(backend, &plain, password, kdf);
    plain.fill(0);
    result
}

/// PBES2 with AES-256-CBC and the chosen KDF (RFC 8018 §6.2), random salt and IV.
pub fn encrypt(
    backend: &Backend,
    plain: &[u8],
    password: &[u8],
    kdf: KdfChoice,
) -> backend::Result<Vec<u8>> {
    let (alg, ct) = encrypt_parts(backend, plain, password, kdf)?;
    let mut w = Writer::with_capacity(ct.len() + alg.len() + 8);
    w.sequence(|w| {
        w.raw(&alg);
        w.octet_string(&ct);
    });
    Ok(w.finish())
}

/// [`encrypt`]'s two parts: the PBES2 AlgorithmIdentifier TLV and the ciphertext (for
/// the structures that place them apart, as CMS EncryptedContentInfo does).
pub fn encrypt_parts(
    backend: &Backend,
    plain: &[u8],
    password: &[u8],
    kdf: KdfChoice,
) -> backend::Result<(Vec<u8>, Vec<u8>)> {
    let salt = backend.pbe().random(16)?;
    let iv = backend.pbe().random(16)?;
    let alg = pbes2_algorithm(kdf, &salt, &iv);
    // The parameters are read back as any file's would be, so writing and reading
    // derive the key by the same code.
    let mode = Reader::new(&alg);
    let mut r = mode;
    let scheme = AlgId::read(&mut r)
        .and_then(|a| PbeScheme::read(&mode, &a))
        .map_err(|e| BackendError::Crypto(format!("PBES2 parameters: {e}")))?;
    let ct = scheme.encrypt(backend, password, plain)?;
    Ok((alg, ct))
}

/// The `encryptionAlgorithm` pkit writes. PBKDF2 names its PRF explicitly (with NULL
/// parameters, as OpenSSL does) since the DEFAULT is HMAC-SHA1.
fn pbes2_algorithm(kdf: KdfChoice, salt: &[u8], iv: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(128);
    w.sequence(|w| {
        w.oid(&oids::PBES2);
        w.sequence(|w| {
            w.sequence(|w| match kdf {
                KdfChoice::Pbkdf2 => {
                    w.oid(&oids::PBKDF2);
                    w.sequence(|w| {
                        w.octet_string(salt);
                        w.integer_u64(PBKDF2_ITERATIONS);
                        w.sequence(|w| {
                            w.oid(&oids::HMAC_SHA256);
                            w.null();
                        });
                    });
                }
                KdfChoice::Scrypt => {
                    w.oid(&oids::SCRYPT);
                    w.sequence(|w| {
                        w.octet_string(salt);
                        w.integer_u64(SCRYPT_N);
                        w.integer_u64(SCRYPT_R);
                        w.integer_u64(SCRYPT_P);
                    });
                }
            });
            w.sequence(|w| {
                w.oid(&oids::AES256_CBC);
                w.octet_string(iv);
            });
        });
    });
    w.finish()
}
