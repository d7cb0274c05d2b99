//! Password-based decryption primitives for reading PKCS#8 and PKCS#12 files: the key
//! derivations (PBKDF2, RFC 8018 §5.2; scrypt, RFC 7914; the PKCS#12 KDF, RFC 7292
//! Appendix B.2), CBC decryption and HMAC, all from OpenSSL.
//!
//! This file takes plain parameters (salt, counts, the cipher by name); reading them out
//! of AlgorithmIdentifiers is the key model's job (`pki::key::pbe`). Costs come from the file
//! being read, so each one is bounded: a hostile file must not buy minutes of CPU or
//! gigabytes of memory.
//!
//! The legacy PKCS#12 ciphers (RC2, RC4, single DES) live in OpenSSL 3's `legacy`
//! provider. When the default context lacks a cipher, a private library context with the
//! legacy provider is tried; an OpenSSL built without it (`no-legacy`, as the static
//! build pkit's xtask makes) reports the cipher as unsupported.

use super::{BackendError, Result};
use native_ossl::cipher::CipherAlg;
use native_ossl::digest::DigestAlg;
use native_ossl::error::ErrorStack;
use native_ossl::kdf::{KdfAlg, KdfCtx, Pbkdf2Builder};
use native_ossl::lib_ctx::{LibCtx, Provider};
use native_ossl::mac::HmacCtx;
use native_ossl::params::ParamBuilder;
use std::ffi::CStr;
use std::sync::{Arc, OnceLock};

/// PBKDF2 and PKCS#12 KDF iteration counts above this are refused. Ten million
/// PBKDF2-HMAC-SHA256 iterations take a few seconds; real files use 2,048 to 600,000.
pub const MAX_ITERATIONS: u64 = 10_000_000;
/// scrypt bounds: N up to 2^20, r up to 32, p up to 16, at most 1 GiB of memory.
pub const MAX_SCRYPT_N: u64 = 1 << 20;
pub const MAX_SCRYPT_R: u64 = 32;
pub const MAX_SCRYPT_P: u64 = 16;
const SCRYPT_MAX_MEM: u64 = 1 << 30;

/// The hash under a KDF or an HMAC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hash {
    Md5,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
    Sha512_224,
    Sha512_256,
}

impl Hash {
    fn ossl_name(self) -> &'static CStr {
        match self {
            Hash::Md5 => c"MD5",
            Hash::Sha1 => c"SHA1",
            Hash::Sha224 => c"SHA224",
            Hash::Sha256 => c"SHA256",
            Hash::Sha384 => c"SHA384",
            Hash::Sha512 => c"SHA512",
            Hash::Sha512_224 => c"SHA512-224",
            Hash::Sha512_256 => c"SHA512-256",
        }
    }

    pub fn output_len(self) -> usize {
        match self {
            Hash::Md5 => 16,
            Hash::Sha1 => 20,
            Hash::Sha224 | Hash::Sha512_224 => 28,
            Hash::Sha256 | Hash::Sha512_256 => 32,
            Hash::Sha384 => 48,
            Hash::Sha512 => 64,
        }
    }

    fn fetch(self) -> Result<DigestAlg> {
        DigestAlg::fetch(self.ossl_name(), None).map_err(|_| {
            BackendError::Unsupported(format!(
                "digest {} is not available in the linked OpenSSL",
                self.ossl_name().to_string_lossy()
            ))
        })
    }
}

/// A CBC (or, for RC4, stream) cipher as the PBE schemes name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PbeCipher {
    Aes128Cbc,
    Aes192Cbc,
    Aes256Cbc,
    DesEde3Cbc,
    /// Two-key triple DES (PKCS#12 pbeWithSHAAnd2-KeyTripleDES-CBC).
    DesEdeCbc,
    DesCbc,
    /// RC2 with a 128-bit key and 128 effective bits.
    Rc2_128Cbc,
    /// RC2 with a 40-bit key and 40 effective bits.
    Rc2_40Cbc,
    Rc4_128,
    Rc4_40,
}

impl PbeCipher {
    /// OpenSSL's name for the cipher.
    pub fn name(self) -> &'static str {
        self.ossl_name().to_str().unwrap_or("?")
    }

    fn ossl_name(self) -> &'static CStr {
        match self {
            PbeCipher::Aes128Cbc => c"AES-128-CBC",
            PbeCipher::Aes192Cbc => c"AES-192-CBC",
            PbeCipher::Aes256Cbc => c"AES-256-CBC",
            PbeCipher::DesEde3Cbc => c"DES-EDE3-CBC",
            PbeCipher::DesEdeCbc => c"DES-EDE-CBC",
            PbeCipher::DesCbc => c"DES-CBC",
            PbeCipher::Rc2_128Cbc => c"RC2-CBC",
            PbeCipher::Rc2_40Cbc => c"RC2-40-CBC",
            PbeCipher::Rc4_128 => c"RC4",
            PbeCipher::Rc4_40 => c"RC4-40",
        }
    }

    pub fn key_len(self) -> usize {
        match self {
            PbeCipher::Aes128Cbc
            | PbeCipher::Rc2_128Cbc
            | PbeCipher::Rc4_128
            | PbeCipher::DesEdeCbc => 16,
            PbeCipher::Aes192Cbc | PbeCipher::DesEde3Cbc => 24,
            PbeCipher::Aes256Cbc => 32,
            PbeCipher::DesCbc => 8,
            PbeCipher::Rc2_40Cbc | PbeCipher::Rc4_40 => 5,
        }
    }

    pub fn iv_len(self) -> usize {
        match self {
            PbeCipher::Aes128Cbc | PbeCipher::Aes192Cbc | PbeCipher::Aes256Cbc => 16,
            PbeCipher::Rc4_128 | PbeCipher::Rc4_40 => 0,
            _ => 8,
        }
    }

    /// The cipher from the default library context, else from a private one with the
    /// legacy provider loaded.
    fn fetch(self) -> Result<CipherAlg> {
        let name = self.ossl_name();
        if let Ok(c) = CipherAlg::fetch(name, None) {
            return Ok(c);
        }
        let unavailable = || {
            BackendError::Unsupported(format!(
                "cipher {} is not available: OpenSSL 3 keeps it in the legacy provider, \
                 which the linked OpenSSL does not provide",
                self.name()
            ))
        };
        let (ctx, _, _) = legacy_context().as_ref().ok_or_else(unavailable)?;
        CipherAlg::fetch_in(ctx, name, None).map_err(|_| unavailable())
    }
}

/// A library context with the legacy and default providers, made once. `None` when the
/// legacy provider cannot be loaded.
fn legacy_context() -> &'static Option<(Arc<LibCtx>, Provider, Provider)> {
    static CTX: OnceLock<Option<(Arc<LibCtx>, Provider, Provider)>> = OnceLock::new();
    CTX.get_or_init(|| {
        let ctx = Arc::new(LibCtx::new().ok()?);
        let legacy = ctx.load_provider(c"legacy").ok()?;
        let default = ctx.load_provider(c"default").ok()?;
        Some((ctx, legacy, default))
    })
}

fn crypto(what: &'static str) -> impl Fn(ErrorStack) -> BackendError {
    move |e| BackendError::Crypto(format!("{what}: {e}"))
}

fn iterations(n: u64, what: &str) -> Result<u32> {
    if n == 0 {
        return Err(BackendError::BadKey(format!(
            "{what} iteration count 0 is not allowed"
        )));
    }
    u32::try_from(n)
        .ok()
        .filter(|&i| u64::from(i) <= MAX_ITERATIONS)
        .ok_or_else(|| {
            BackendError::Unsupported(format!(
                "{what} iteration count {n} is beyond pkit's limit of {MAX_ITERATIONS}"
            ))
        })
}

/// PBKDF2 (RFC 8018 §5.2) with HMAC over `prf`.
pub fn pbkdf2(password: &[u8], salt: &[u8], iters: u64, prf: Hash, len: usize) -> Result<Vec<u8>> {
    let iters = iterations(iters, "PBKDF2")?;
    let md = prf.fetch()?;
    Pbkdf2Builder::new(&md, password, salt)
        .iterations(iters)
        .derive_to_vec(len)
        .map_err(crypto("PBKDF2"))
}

/// scrypt (RFC 7914 §6).
pub fn scrypt(password: &[u8], salt: &[u8], n: u64, r: u64, p: u64, len: usize) -> Result<Vec<u8>> {
    let in_range = n.is_power_of_two()
        && (2..=MAX_SCRYPT_N).contains(&n)
        && (1..=MAX_SCRYPT_R).contains(&r)
        && (1..=MAX_SCRYPT_P).contains(&p);
    if !in_range {
        return Err(BackendError::Unsupported(format!(
            "scrypt N={n} r={r} p={p} is beyond pkit's limits (N a power of two up to \
             {MAX_SCRYPT_N}, r up to {MAX_SCRYPT_R}, p up to {MAX_SCRYPT_P})"
        )));
    }
    // Both bounded above, so the conversions are exact.
    let (r, p) = (r as u32, p as u32);
    let params = ParamBuilder::new()
        .and_then(|b| b.push_octet_slice(c"pass", password))
        .and_then(|b| b.push_octet_slice(c"salt", salt))
        .and_then(|b| b.push_uint64(c"n", n))
        .and_then(|b| b.push_uint(c"r", r))
        .and_then(|b| b.push_uint(c"p", p))
        .and_then(|b| b.push_uint64(c"maxmem_bytes", SCRYPT_MAX_MEM))
        .and_then(|b| b.build())
        .map_err(crypto("scrypt"))?;
    let mut out = vec![0u8; len];
    KdfAlg::fetch(c"SCRYPT")
        .and_then(|alg| KdfCtx::new(&alg))
        .and_then(|mut ctx| ctx.derive(&mut out, &params))
        .map_err(crypto("scrypt"))?;
    Ok(out)
}

/// What the PKCS#12 KDF derives (RFC 7292 Appendix B.3: the diversifier ID).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pkcs12Purpose {
    Key,
    Iv,
    Mac,
}

/// The password as the PKCS#12 KDF takes it (RFC 7292 Appendix B.1): a BMPString,
/// big-endian UTF-16 with two zero octets at the end, or nothing at all for an absent
/// password. An empty password and an absent one give different keys, and files of
/// both kinds exist.
pub fn bmp_password(password: Option<&[u8]>) -> Result<Vec<u8>> {
    let Some(p) = password else {
        return Ok(Vec::new());
    };
    let text = std::str::from_utf8(p)
        .map_err(|_| BackendError::BadPassword("the password is not valid UTF-8".into()))?;
    let mut out: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    out.extend([0, 0]);
    Ok(out)
}

/// The PKCS#12 KDF (RFC 7292 Appendix B.2) over a password already in the form
/// [`bmp_password`] makes.
pub fn pkcs12_kdf(
    bmp_password: &[u8],
    salt: &[u8],
    iters: u64,
    hash: Hash,
    purpose: Pkcs12Purpose,
    len: usize,
) -> Result<Vec<u8>> {
    let iters = iterations(iters, "PKCS#12 KDF")?;
    let id = match purpose {
        Pkcs12Purpose::Key => 1,
        Pkcs12Purpose::Iv => 2,
        Pkcs12Purpose::Mac => 3,
    };
    let params = ParamBuilder::new()
        .and_then(|b| b.push_octet_slice(c"pass", bmp_password))
        .and_then(|b| b.push_octet_slice(c"salt", salt))
        .and_then(|b| b.push_uint(c"iter", iters))
        .and_then(|b| b.push_utf8_string(c"digest", hash.ossl_name()))
        .and_then(|b| b.push_int(c"id", id))
        .and_then(|b| b.build())
        .map_err(crypto("PKCS#12 KDF"))?;
    let mut out = vec![0u8; len];
    KdfAlg::fetch(c"PKCS12KDF")
        .and_then(|alg| KdfCtx::new(&alg))
        .and_then(|mut ctx| ctx.derive(&mut out, &params))
        .map_err(crypto("PKCS#12 KDF"))?;
    Ok(out)
}

/// Decrypt with a padded block cipher (or RC4). A wrong key shows up as bad padding,
/// reported as `BadPassword`.
pub fn decrypt(cipher: PbeCipher, key: &[u8], iv: &[u8], data: &[u8]) -> Result<Vec<u8>> {
    if key.len() != cipher.key_len() || iv.len() != cipher.iv_len() {
        return Err(BackendError::BadKey(format!(
            "{}: expected a {}-byte key and {}-byte IV, found {} and {}",
            cipher.name(),
            cipher.key_len(),
            cipher.iv_len(),
            key.len(),
            iv.len()
        )));
    }
    let alg = cipher.fetch()?;
    alg.decrypt_to_vec(key, iv, None, data).map_err(|_| {
        BackendError::BadPassword("decryption failed: wrong password or corrupted data".into())
    })
}

/// Encrypt with a padded block cipher (PBES2 writing).
pub fn encrypt(cipher: PbeCipher, key: &[u8], iv: &[u8], data: &[u8]) -> Result<Vec<u8>> {
    cipher
        .fetch()?
        .encrypt_to_vec(key, iv, None, data)
        .map_err(crypto("encrypting the private key"))
}

/// `len` random bytes (salts and IVs).
pub fn random(len: usize) -> Result<Vec<u8>> {
    native_ossl::rand::Rand::bytes(len).map_err(crypto("random bytes"))
}

/// HMAC (RFC 2104) of `data` under `key`.
pub fn hmac(hash: Hash, key: &[u8], data: &[u8]) -> Result<Vec<u8>> {
    let md = hash.fetch()?;
    let mut ctx = HmacCtx::new(&md, key).map_err(crypto("HMAC"))?;
    ctx.update(data).map_err(crypto("HMAC"))?;
    ctx.finish_to_vec().map_err(crypto("HMAC"))
}

/// Compare two MACs without an early exit on the first differing byte.
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn pbkdf2_known_answer() {
        // RFC 6070 test vector 2: "password" / "salt", 2 iterations, HMAC-SHA1.
        let dk = pbkdf2(b"password", b"salt", 2, Hash::Sha1, 20).unwrap();
        assert_eq!(dk, hex("ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"));
    }

    #[test]
    fn scrypt_known_answer_and_limits() {
        // RFC 7914 §12, second vector (N=1024, r=8, p=16), first 16 bytes.
        let dk = scrypt(b"password", b"NaCl", 1024, 8, 16, 16).unwrap();
        assert_eq!(dk, hex("fdbabe1c9d3472007856e7190d01e9fe"));
        assert!(matches!(
            scrypt(b"p", b"s", 1 << 30, 8, 1, 16),
            Err(BackendError::Unsupported(_))
        ));
        assert!(scrypt(b"p", b"s", 1000, 8, 1, 16).is_err());
    }

    #[test]
    fn pkcs12_kdf_known_answer() {
        // A well-known PKCS#12 KDF vector: SHA-1, password "smeg", salt 0A58CF64530D823F,
        // one iteration, ID 1 (key), 24 bytes.
        let pw = bmp_password(Some(b"smeg")).unwrap();
        assert_eq!(pw, [0, b's', 0, b'm', 0, b'e', 0, b'g', 0, 0]);
        let salt = hex("0a58cf64530d823f");
        let k = pkcs12_kdf(&pw, &salt, 1, Hash::Sha1, Pkcs12Purpose::Key, 24).unwrap();
        assert_eq!(k, hex("8aaae6297b6cb04642ab5b077851284eb7128f1a2a7fbca3"));
        // Empty and absent passwords differ.
        let empty = bmp_password(Some(b"")).unwrap();
        let absent = bmp_password(None).unwrap();
        assert_eq!((empty.len(), absent.len()), (2, 0));
        let a = pkcs12_kdf(&empty, &salt, 1, Hash::Sha1, Pkcs12Purpose::Mac, 20).unwrap();
        let b = pkcs12_kdf(&absent, &salt, 1, Hash::Sha1, Pkcs12Purpose::Mac, 20).unwrap();
        assert_ne!(a, b);
        assert!(bmp_password(Some(&[0xff])).is_err());
    }

    #[test]
    fn iteration_limits() {
        assert!(matches!(
            pbkdf2(b"p", b"s", MAX_ITERATIONS + 1, Hash::Sha256, 32),
            Err(BackendError::Unsupported(_))
        ));
        assert!(matches!(
            pbkdf2(b"p", b"s", 0, Hash::Sha256, 32),
            Err(BackendError::BadKey(_))
        ));
    }

    #[test]
    fn cbc_round_trip_and_wrong_key() {
        let key = [7u8; 32];
        let iv = [9u8; 16];
        let ct = CipherAlg::fetch(c"AES-256-CBC", None)
            .unwrap()
            .encrypt_to_vec(&key, &iv, None, b"attack at dawn")
            .unwrap();
        assert_eq!(
            decrypt(PbeCipher::Aes256Cbc, &key, &iv, &ct).unwrap(),
            b"attack at dawn"
        );
        let mut wrong = key;
        wrong[0] ^= 1;
        // Almost always a padding failure; when the padding happens to be valid the
        // plaintext differs, which the caller's DER parse then rejects.
        match decrypt(PbeCipher::Aes256Cbc, &wrong, &iv, &ct) {
            Err(BackendError::BadPassword(_)) => {}
            Ok(p) => assert_ne!(p, b"attack at dawn"),
            Err(e) => panic!("{e}"),
        }
        assert!(matches!(
            decrypt(PbeCipher::Aes256Cbc, &key[..16], &iv, &ct),
            Err(BackendError::BadKey(_))
        ));
    }

    #[test]
    fn hmac_known_answer() {
        // RFC 4231 test case 2.
        let mac = hmac(Hash::Sha256, b"Jefe", b"what do ya want for nothing?").unwrap();
        assert_eq!(
            mac,
            hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        );
        assert!(ct_eq(&mac, &mac.clone()));
        assert!(!ct_eq(&mac, &mac[..31]));
    }

    #[test]
    fn legacy_ciphers_work_or_say_why() {
        match PbeCipher::Rc2_40Cbc.fetch() {
            Ok(_) => {}
            Err(BackendError::Unsupported(m)) => assert!(m.contains("legacy"), "{m}"),
            Err(e) => panic!("{e}"),
        }
    }
}
