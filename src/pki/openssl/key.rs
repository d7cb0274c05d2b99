//! Private keys held by OpenSSL, and their encodings.

use super::ffi;
use super::linked::{self, crypto, reason};
use super::signers::{OneShotSigner, PrehashSigner};
use native_ossl::pkey::{Pkey, Private};
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::{BackendError, Result};
use pkit_x509::backend::{PrivateKey, Signer};
use pkit_x509::der::oid_registry as oids;
use pkit_x509::key::encode;
use pkit_x509::key::ml_dsa::{MlDsaKeyFormat, MlDsaPrivateKey};
use std::ffi::CStr;
use std::sync::OnceLock;

pub(super) fn ml_dsa_oid(alg: Algorithm) -> Option<pkit_x509::der::Oid> {
    match alg {
        Algorithm::MlDsa44 => Some(oids::ML_DSA_44),
        Algorithm::MlDsa65 => Some(oids::ML_DSA_65),
        Algorithm::MlDsa87 => Some(oids::ML_DSA_87),
        _ => None,
    }
}

/// A private key and the algorithm pkit uses it for.
pub(super) struct OsslKey {
    alg: Algorithm,
    pkey: Pkey<Private>,
    /// The raw public key (EC point, Ed25519 or ML-DSA bytes), read once: OpenSSL keeps a
    /// generated EC point in projective coordinates and converts it to affine ones (a
    /// field inversion, ~45k instructions for P-256) on every read, and a certificate
    /// and its key file both need it.
    public: OnceLock<Vec<u8>>,
}

/// The longest raw public key pkit reads (ML-DSA-87).
const MAX_RAW_PUBLIC: usize = 2592;

impl std::fmt::Debug for OsslKey {
    // Never print key material.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OsslKey")
            .field("alg", &self.alg)
            .finish_non_exhaustive()
    }
}

impl OsslKey {
    /// Load unencrypted PKCS#8 that the key model has found to hold an `alg` key.
    pub(super) fn load(pkcs8: &[u8], alg: Algorithm) -> Result<OsslKey> {
        linked::require(alg)?;
        let pkey = Pkey::<Private>::from_der(pkcs8).map_err(|e| {
            BackendError::BadKey(format!("not a valid private key: {}", reason(&e)))
        })?;
        // RSA and EC private keys also carry the public half, which OpenSSL does not
        // check against the private one on load: a mismatched file would sign with one
        // key while certificates name another.
        if alg.is_rsa() || matches!(alg, Algorithm::EcdsaP256 | Algorithm::EcdsaP384) {
            pkey.pairwise_check().map_err(|e| {
                BackendError::BadKey(format!("{alg} key halves do not match: {}", reason(&e)))
            })?;
        }
        Ok(OsslKey::new(alg, pkey))
    }

    pub(super) fn new(alg: Algorithm, pkey: Pkey<Private>) -> OsslKey {
        OsslKey {
            alg,
            pkey,
            public: OnceLock::new(),
        }
    }

    /// One octet-string parameter of at most `max` bytes. A query for the one parameter
    /// (`EVP_PKEY_get_octet_string_param`), where `Pkey::export` would convert and copy
    /// every part of the key.
    fn octet_param(&self, name: &CStr, max: usize) -> Result<Vec<u8>> {
        let mut buf = vec![0u8; max];
        let mut len = 0usize;
        // SAFETY: the key pointer is live for the call; `buf` has `max` writable bytes and
        // OpenSSL writes at most that many, reporting the count in `len`.
        let ok = unsafe {
            ffi::EVP_PKEY_get_octet_string_param(
                self.pkey.as_ptr().cast(),
                name.as_ptr(),
                buf.as_mut_ptr(),
                max,
                &mut len,
            )
        };
        if ok != 1 || len > max {
            buf.fill(0);
            return Err(BackendError::Crypto(format!(
                "reading the {} key's {} parameter failed",
                self.alg,
                name.to_string_lossy()
            )));
        }
        buf.truncate(len);
        Ok(buf)
    }

    /// One integer parameter, big-endian and left-padded to `len` bytes.
    fn bn_param(&self, name: &CStr, len: usize) -> Result<Vec<u8>> {
        let failed = || {
            BackendError::Crypto(format!(
                "reading the {} key's {} parameter failed",
                self.alg,
                name.to_string_lossy()
            ))
        };
        let tolen = std::ffi::c_int::try_from(len).map_err(|_| failed())?;
        let mut bn: *mut std::ffi::c_void = std::ptr::null_mut();
        // SAFETY: the key pointer is live for the call; on success OpenSSL stores a new
        // BIGNUM in `bn`, which is owned here and freed (cleared) below.
        let ok = unsafe {
            ffi::EVP_PKEY_get_bn_param(self.pkey.as_ptr().cast(), name.as_ptr(), &mut bn)
        };
        if ok != 1 || bn.is_null() {
            return Err(failed());
        }
        let mut out = vec![0u8; len];
        // SAFETY: `bn` is the BIGNUM returned above; `out` has `len` writable bytes;
        // BN_bn2binpad returns -1 (writing nothing) when the number does not fit.
        let written = unsafe { ffi::BN_bn2binpad(bn, out.as_mut_ptr(), tolen) };
        // SAFETY: `bn` is owned here and not used after this.
        unsafe { ffi::BN_clear_free(bn) };
        if written != tolen {
            return Err(failed());
        }
        Ok(out)
    }

    /// The raw public key (not RSA), read from OpenSSL once.
    fn raw_public(&self) -> Result<&[u8]> {
        if let Some(p) = self.public.get() {
            return Ok(p);
        }
        let p = self.octet_param(c"pub", MAX_RAW_PUBLIC)?;
        Ok(self.public.get_or_init(|| p))
    }

    /// OpenSSL's own SPKI encoding (its encoder search is slow; see `key::encode`).
    pub(super) fn openssl_public_key_der(&self) -> Result<Vec<u8>> {
        self.pkey
            .public_key_to_der()
            .map_err(crypto("encoding the public key"))
    }

    /// OpenSSL's own PKCS#8 encoding.
    pub(super) fn openssl_pkcs8_der(&self) -> Result<Vec<u8>> {
        self.pkey
            .to_pkcs8_der()
            .map_err(crypto("encoding the private key"))
    }

    /// ML-DSA PKCS#8 in the chosen RFC 9881 form, from the key's "seed" and "priv"
    /// (expanded key) parameters. OpenSSL itself always writes the `both` form.
    fn ml_dsa_pkcs8(&self, oid: &pkit_x509::der::Oid, format: MlDsaKeyFormat) -> Result<Vec<u8>> {
        let params = self.pkey.export().map_err(crypto("exporting the key"))?;
        let expanded = params
            .get_octet_string(c"priv")
            .map_err(crypto("exporting the key"))?;
        let seed = params.get_octet_string(c"seed").ok();
        let key = match (format, seed) {
            (MlDsaKeyFormat::Expanded, _) => MlDsaPrivateKey::Expanded(expanded),
            (MlDsaKeyFormat::Seed, Some(seed)) => MlDsaPrivateKey::Seed(seed),
            (MlDsaKeyFormat::Both, Some(seed)) => MlDsaPrivateKey::Both { seed, expanded },
            (_, None) => {
                return Err(BackendError::Unsupported(format!(
                    "this {} key was loaded without its seed, so it can only be written in \
                     the expanded form",
                    self.alg
                )))
            }
        };
        Ok(key.to_pkcs8(oid))
    }
}

impl PrivateKey for OsslKey {
    fn algorithm(&self) -> Algorithm {
        self.alg
    }

    fn public_key_der(&self) -> Result<Vec<u8>> {
        if self.alg.is_rsa() {
            return self.openssl_public_key_der();
        }
        encode::spki(self.alg, self.raw_public()?)
            .ok_or_else(|| BackendError::Crypto(format!("no SPKI encoding for {}", self.alg)))
    }

    fn to_pkcs8_der(&self, format: MlDsaKeyFormat) -> Result<Vec<u8>> {
        if let Some(oid) = ml_dsa_oid(self.alg) {
            return self.ml_dsa_pkcs8(&oid, format);
        }
        if self.alg.is_rsa() {
            return self.openssl_pkcs8_der();
        }
        let mut scalar = match self.alg {
            Algorithm::Ed25519 => self.octet_param(c"priv", 32)?,
            Algorithm::EcdsaP384 => self.bn_param(c"priv", 48)?,
            _ => self.bn_param(c"priv", 32)?,
        };
        let der = self
            .raw_public()
            .map(|public| encode::classic_pkcs8(self.alg, &scalar, public));
        scalar.fill(0);
        der?.ok_or_else(|| BackendError::Crypto(format!("no PKCS#8 encoding for {}", self.alg)))
    }

    fn signer(&self) -> Result<Box<dyn Signer>> {
        let scheme = self.alg.default_scheme();
        match scheme.digest() {
            Some(d) => Ok(Box::new(PrehashSigner::new(&self.pkey, scheme, d)?)),
            None => Ok(Box::new(OneShotSigner::new(&self.pkey, scheme)?)),
        }
    }
}
