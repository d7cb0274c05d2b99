//! The OpenSSL side of password-based cryptography ([`pkit_x509::backend::pbe::Pbe`]).
//!
//! The legacy PKCS#12 ciphers (RC2, RC4, single DES) live in OpenSSL 3's `legacy`
//! provider. When the default context lacks a cipher, a private library context with the
//! legacy provider is tried; an OpenSSL built without it (`no-legacy`, as the static
//! build pkit's xtask makes) reports the cipher as unsupported.

use native_ossl::cipher::CipherAlg;
use native_ossl::digest::DigestAlg;
use native_ossl::error::ErrorStack;
use native_ossl::kdf::{KdfAlg, KdfCtx, Pbkdf2Builder};
use native_ossl::lib_ctx::{LibCtx, Provider};
use native_ossl::mac::HmacCtx;
use native_ossl::params::ParamBuilder;
use native_ossl::pkey::{Pkey, Private};
use pkit_x509::backend::pbe::{Hash, Pbe, PbeCipher, Pkcs12Purpose};
use pkit_x509::backend::{BackendError, Result};
use std::ffi::{CStr, CString};
use std::sync::{Arc, OnceLock};

/// OpenSSL's password-based cryptography.
pub(crate) struct OsslPbe;

fn hash_name(h: Hash) -> &'static CStr {
    match h {
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

fn fetch_hash(h: Hash) -> Result<DigestAlg> {
    DigestAlg::fetch(hash_name(h), None).map_err(|_| {
        BackendError::Unsupported(format!(
            "digest {} is not available in the linked OpenSSL",
            hash_name(h).to_string_lossy()
        ))
    })
}

/// The cipher from the default library context, else from a private one with the
/// legacy provider loaded.
fn fetch_cipher(c: PbeCipher) -> Result<CipherAlg> {
    // PbeCipher names are static ASCII without NULs.
    let name = CString::new(c.name()).map_err(|_| BackendError::Crypto(c.name().into()))?;
    let name = name.as_c_str();
    if let Ok(alg) = CipherAlg::fetch(name, None) {
        return Ok(alg);
    }
    let unavailable = || {
        BackendError::Unsupported(format!(
            "cipher {} is not available: OpenSSL 3 keeps it in the legacy provider, \
                 which the linked OpenSSL does not provide",
            c.name()
        ))
    };
    let (ctx, _, _) = legacy_context().as_ref().ok_or_else(unavailable)?;
    CipherAlg::fetch_in(ctx, name, None).map_err(|_| unavailable())
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

impl Pbe for OsslPbe {
    fn pbkdf2(
        &self,
        password: &[u8],
        salt: &[u8],
        iterations: u32,
        prf: Hash,
        len: usize,
    ) -> Result<Vec<u8>> {
        let md = fetch_hash(prf)?;
        Pbkdf2Builder::new(&md, password, salt)
            .iterations(iterations)
            .derive_to_vec(len)
            .map_err(crypto("PBKDF2"))
    }

    fn scrypt(
        &self,
        password: &[u8],
        salt: &[u8],
        n: u64,
        r: u32,
        p: u32,
        max_mem: u64,
        len: usize,
    ) -> Result<Vec<u8>> {
        let params = ParamBuilder::new()
            .and_then(|b| b.push_octet_slice(c"pass", password))
            .and_then(|b| b.push_octet_slice(c"salt", salt))
            .and_then(|b| b.push_uint64(c"n", n))
            .and_then(|b| b.push_uint(c"r", r))
            .and_then(|b| b.push_uint(c"p", p))
            .and_then(|b| b.push_uint64(c"maxmem_bytes", max_mem))
            .and_then(|b| b.build())
            .map_err(crypto("scrypt"))?;
        let mut out = vec![0u8; len];
        KdfAlg::fetch(c"SCRYPT")
            .and_then(|alg| KdfCtx::new(&alg))
            .and_then(|mut ctx| ctx.derive(&mut out, &params))
            .map_err(crypto("scrypt"))?;
        Ok(out)
    }

    fn pkcs12_kdf(
        &self,
        bmp_password: &[u8],
        salt: &[u8],
        iterations: u32,
        hash: Hash,
        purpose: Pkcs12Purpose,
        len: usize,
    ) -> Result<Vec<u8>> {
        let id = match purpose {
            Pkcs12Purpose::Key => 1,
            Pkcs12Purpose::Iv => 2,
            Pkcs12Purpose::Mac => 3,
        };
        let params = ParamBuilder::new()
            .and_then(|b| b.push_octet_slice(c"pass", bmp_password))
            .and_then(|b| b.push_octet_slice(c"salt", salt))
            .and_then(|b| b.push_uint(c"iter", iterations))
            .and_then(|b| b.push_utf8_string(c"digest", hash_name(hash)))
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

    fn encrypt(&self, cipher: PbeCipher, key: &[u8], iv: &[u8], data: &[u8]) -> Result<Vec<u8>> {
        fetch_cipher(cipher)?
            .encrypt_to_vec(key, iv, None, data)
            .map_err(crypto("encrypting the private key"))
    }

    fn decrypt(&self, cipher: PbeCipher, key: &[u8], iv: &[u8], data: &[u8]) -> Result<Vec<u8>> {
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
        let alg = fetch_cipher(cipher)?;
        alg.decrypt_to_vec(key, iv, None, data).map_err(|_| {
            BackendError::BadPassword("decryption failed: wrong password or corrupted data".into())
        })
    }

    fn hmac(&self, hash: Hash, key: &[u8], data: &[u8]) -> Result<Vec<u8>> {
        let md = fetch_hash(hash)?;
        let mut ctx = HmacCtx::new(&md, key).map_err(crypto("HMAC"))?;
        ctx.update(data).map_err(crypto("HMAC"))?;
        ctx.finish_to_vec().map_err(crypto("HMAC"))
    }

    fn random(&self, len: usize) -> Result<Vec<u8>> {
        native_ossl::rand::Rand::bytes(len).map_err(crypto("random bytes"))
    }

    fn decrypt_other_pkcs8(&self, der: &[u8], password: &[u8], scheme: &str) -> Result<Vec<u8>> {
        let pem = pkit_x509::der::pem::encode("ENCRYPTED PRIVATE KEY", der);
        Pkey::<Private>::from_pem_passphrase(pem.as_bytes(), password)
            .and_then(|k| k.to_pkcs8_der())
            .map_err(|_| {
                BackendError::BadPassword(format!(
                    "cannot decrypt the private key ({scheme}): wrong password or an \
                     encryption OpenSSL does not offer"
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use pkit_x509::der::unhex as hex;

    #[test]
    fn pbkdf2_known_answer() {
        // RFC 6070 test vector 2: "password" / "salt", 2 iterations, HMAC-SHA1.
        let dk = OsslPbe
            .pbkdf2(b"password", b"salt", 2, Hash::Sha1, 20)
            .unwrap();
        assert_eq!(dk, hex("ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"));
    }

    #[test]
    fn scrypt_known_answer_and_memory_bound() {
        // RFC 7914 §12, second vector (N=1024, r=8, p=16), first 16 bytes.
        let dk = OsslPbe
            .scrypt(b"password", b"NaCl", 1024, 8, 16, 1 << 30, 16)
            .unwrap();
        assert_eq!(dk, hex("fdbabe1c9d3472007856e7190d01e9fe"));
        // The same needs 16 MiB: refused under a 1 MiB bound.
        assert!(OsslPbe
            .scrypt(b"password", b"NaCl", 1024, 8, 16, 1 << 20, 16)
            .is_err());
    }

    #[test]
    fn pkcs12_kdf_known_answer() {
        // A well-known PKCS#12 KDF vector: SHA-1, password "smeg", salt 0A58CF64530D823F,
        // one iteration, ID 1 (key), 24 bytes.
        let pw = [0, b's', 0, b'm', 0, b'e', 0, b'g', 0, 0];
        let salt = hex("0a58cf64530d823f");
        let k = OsslPbe
            .pkcs12_kdf(&pw, &salt, 1, Hash::Sha1, Pkcs12Purpose::Key, 24)
            .unwrap();
        assert_eq!(k, hex("8aaae6297b6cb04642ab5b077851284eb7128f1a2a7fbca3"));
    }

    #[test]
    fn cbc_round_trip_and_wrong_key() {
        let key = [7u8; 32];
        let iv = [9u8; 16];
        let aes = PbeCipher::Aes256Cbc;
        let ct = OsslPbe.encrypt(aes, &key, &iv, b"attack at dawn").unwrap();
        assert_eq!(
            OsslPbe.decrypt(aes, &key, &iv, &ct).unwrap(),
            b"attack at dawn"
        );
        let mut wrong = key;
        wrong[0] ^= 1;
        // Almost always a padding failure; when the padding happens to be valid the
        // plaintext differs, which the caller's DER parse then rejects.
        match OsslPbe.decrypt(aes, &wrong, &iv, &ct) {
            Err(BackendError::BadPassword(_)) => {}
            Ok(p) => assert_ne!(p, b"attack at dawn"),
            Err(e) => panic!("{e}"),
        }
        assert!(matches!(
            OsslPbe.decrypt(aes, &key[..16], &iv, &ct),
            Err(BackendError::BadKey(_))
        ));
    }

    #[test]
    fn hmac_known_answer() {
        // RFC 4231 test case 2.
        let mac = OsslPbe
            .hmac(Hash::Sha256, b"Jefe", b"what do ya want for nothing?")
            .unwrap();
        assert_eq!(
            mac,
            hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        );
    }

    #[test]
    fn legacy_ciphers_work_or_say_why() {
        match fetch_cipher(PbeCipher::Rc2_40Cbc) {
            Ok(_) => {}
            Err(BackendError::Unsupported(m)) => assert!(m.contains("legacy"), "{m}"),
            Err(e) => panic!("{e}"),
        }
    }
}
