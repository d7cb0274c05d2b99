//! The password-based cryptography a backend offers for reading and writing encrypted
//! keys and PKCS#12 files: the key derivations (PBKDF2, RFC 8018 §5.2; scrypt, RFC 7914;
//! the PKCS#12 KDF, RFC 7292 Appendix B.2), CBC encryption and HMAC.
//!
//! The methods take plain parameters (salt, counts, the cipher by name); reading them
//! out of AlgorithmIdentifiers, and bounding what a hostile file may make them cost, is
//! the key model's job (`pki::key::pbe`, `pki::key::cost`).

use super::error::Result;

/// The hash under a KDF or an HMAC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hash {
    /// MD5, which old PKCS#12 files use for their MAC.
    Md5,
    /// SHA-1.
    Sha1,
    /// SHA-224.
    Sha224,
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
    /// SHA-512/224.
    Sha512_224,
    /// SHA-512/256.
    Sha512_256,
}

impl Hash {
    /// The digest's length in bytes.
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
}

/// A CBC (or, for RC4, stream) cipher as the PBE schemes name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PbeCipher {
    /// AES-128 in CBC mode.
    Aes128Cbc,
    /// AES-192 in CBC mode.
    Aes192Cbc,
    /// AES-256 in CBC mode.
    Aes256Cbc,
    /// Three-key triple DES in CBC mode.
    DesEde3Cbc,
    /// Two-key triple DES (PKCS#12 pbeWithSHAAnd2-KeyTripleDES-CBC).
    DesEdeCbc,
    /// Single DES in CBC mode.
    DesCbc,
    /// RC2 with a 128-bit key and 128 effective bits.
    Rc2_128Cbc,
    /// RC2 with a 40-bit key and 40 effective bits.
    Rc2_40Cbc,
    /// RC4 with a 128-bit key.
    Rc4_128,
    /// RC4 with a 40-bit key.
    Rc4_40,
}

impl PbeCipher {
    /// The cipher's name as OpenSSL and most tools spell it.
    pub fn name(self) -> &'static str {
        match self {
            PbeCipher::Aes128Cbc => "AES-128-CBC",
            PbeCipher::Aes192Cbc => "AES-192-CBC",
            PbeCipher::Aes256Cbc => "AES-256-CBC",
            PbeCipher::DesEde3Cbc => "DES-EDE3-CBC",
            PbeCipher::DesEdeCbc => "DES-EDE-CBC",
            PbeCipher::DesCbc => "DES-CBC",
            PbeCipher::Rc2_128Cbc => "RC2-CBC",
            PbeCipher::Rc2_40Cbc => "RC2-40-CBC",
            PbeCipher::Rc4_128 => "RC4",
            PbeCipher::Rc4_40 => "RC4-40",
        }
    }

    /// The key length in bytes.
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

    /// The IV length in bytes (0 for RC4, which has none).
    pub fn iv_len(self) -> usize {
        match self {
            PbeCipher::Aes128Cbc | PbeCipher::Aes192Cbc | PbeCipher::Aes256Cbc => 16,
            PbeCipher::Rc4_128 | PbeCipher::Rc4_40 => 0,
            _ => 8,
        }
    }
}

/// What the PKCS#12 KDF derives (RFC 7292 Appendix B.3: the diversifier ID).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pkcs12Purpose {
    /// Key material, diversifier ID 1.
    Key,
    /// An initialisation vector, diversifier ID 2.
    Iv,
    /// A MAC key, diversifier ID 3.
    Mac,
}

/// Password-based cryptography (see the module documentation). Counts arrive already
/// bounded by the key model.
pub trait Pbe: Send + Sync {
    /// PBKDF2 (RFC 8018 §5.2) with HMAC over `prf`.
    fn pbkdf2(
        &self,
        password: &[u8],
        salt: &[u8],
        iterations: u32,
        prf: Hash,
        len: usize,
    ) -> Result<Vec<u8>>;
    /// scrypt (RFC 7914 §6), refusing to use more than `max_mem` bytes.
    #[allow(clippy::too_many_arguments)]
    fn scrypt(
        &self,
        password: &[u8],
        salt: &[u8],
        n: u64,
        r: u32,
        p: u32,
        max_mem: u64,
        len: usize,
    ) -> Result<Vec<u8>>;
    /// The PKCS#12 KDF (RFC 7292 Appendix B.2) over a password already in its BMPString
    /// form (Appendix B.1).
    fn pkcs12_kdf(
        &self,
        bmp_password: &[u8],
        salt: &[u8],
        iterations: u32,
        hash: Hash,
        purpose: Pkcs12Purpose,
        len: usize,
    ) -> Result<Vec<u8>>;
    /// Encrypt with a padded block cipher.
    fn encrypt(&self, cipher: PbeCipher, key: &[u8], iv: &[u8], data: &[u8]) -> Result<Vec<u8>>;
    /// Decrypt with a padded block cipher (or RC4). A wrong key shows up as bad padding,
    /// reported as `BadPassword`.
    fn decrypt(&self, cipher: PbeCipher, key: &[u8], iv: &[u8], data: &[u8]) -> Result<Vec<u8>>;
    /// HMAC (RFC 2104) of `data` under `key`.
    fn hmac(&self, hash: Hash, key: &[u8], data: &[u8]) -> Result<Vec<u8>>;
    /// `len` random bytes (salts and IVs).
    fn random(&self, len: usize) -> Result<Vec<u8>>;
    /// Decrypt an `EncryptedPrivateKeyInfo` whose scheme pkit does not implement
    /// (`scheme` names it for messages) with the backend's own decoder, to PKCS#8 DER.
    fn decrypt_other_pkcs8(&self, der: &[u8], password: &[u8], scheme: &str) -> Result<Vec<u8>>;
}
