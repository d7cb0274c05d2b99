//! The OpenSSL backend (native-ossl). It works against any OpenSSL 3: algorithms the
//! linked library lacks (ML-DSA before 3.5) are found by probing at run time and reported
//! as `Unsupported`, so a build against the system's OpenSSL 3.0 still runs.
//!
//! Signing contexts are reused across signatures (see [`PrehashSigner`] and
//! [`OneShotSigner`]); PKCS#8 structures are built and read in [`crate::pki::key`],
//! with OpenSSL supplying the key material, the KDFs and the cipher.

use super::{Backend, BackendError, PrivateKey, Result, Signer};
use crate::der::oid_registry as oids;
use crate::pki::alg::{Algorithm, Digest, SignatureScheme};
use crate::pki::key::encode;
use crate::pki::key::kind::{spki_key_kind, KeyKind};
use crate::pki::key::ml_dsa::{MlDsaKeyFormat, MlDsaPrivateKey};
use native_ossl::digest::{DigestAlg, DigestCtx};
use native_ossl::error::ErrorStack;
use native_ossl::params::ParamBuilder;
use native_ossl::pkey::{KeygenCtx, Pkey, Private, Public, RawSigner, SignInit, Verifier};
use std::ffi::CStr;
use std::sync::OnceLock;

mod ec_batch;
mod pbe;

pub struct OpensslBackend;

static BACKEND: OpensslBackend = OpensslBackend;

pub fn backend() -> &'static dyn Backend {
    &BACKEND
}

/// Entry points native-ossl 0.3 does not wrap, declared from `<openssl/crypto.h>` and
/// `<openssl/evp.h>` (unchanged since OpenSSL 3.0). libcrypto is linked by native-ossl-sys.
mod ffi {
    use std::ffi::{c_char, c_int, c_void};

    pub const OPENSSL_VERSION: c_int = 0;

    extern "C" {
        pub fn OpenSSL_version(t: c_int) -> *const c_char;
        pub fn EVP_DigestSignInit_ex(
            ctx: *mut c_void,
            pctx: *mut *mut c_void,
            mdname: *const c_char,
            libctx: *mut c_void,
            props: *const c_char,
            pkey: *mut c_void,
            params: *const c_void,
        ) -> c_int;
        pub fn EVP_DigestSign(
            ctx: *mut c_void,
            sigret: *mut u8,
            siglen: *mut usize,
            tbs: *const u8,
            tbslen: usize,
        ) -> c_int;
        pub fn EVP_PKEY_get_octet_string_param(
            pkey: *const c_void,
            key_name: *const c_char,
            buf: *mut u8,
            max_buf_sz: usize,
            out_len: *mut usize,
        ) -> c_int;
        pub fn EVP_PKEY_get_bn_param(
            pkey: *const c_void,
            key_name: *const c_char,
            bn: *mut *mut c_void,
        ) -> c_int;
        pub fn BN_bn2binpad(a: *const c_void, to: *mut u8, tolen: c_int) -> c_int;
        pub fn BN_clear_free(a: *mut c_void);
    }
}

/// The linked library's version text, e.g. "OpenSSL 3.5.5 27 Jan 2026".
fn openssl_version() -> &'static str {
    static V: OnceLock<String> = OnceLock::new();
    V.get_or_init(|| {
        // SAFETY: OpenSSL_version returns a pointer to a static NUL-terminated string
        // (or NULL for an unknown selector, which OPENSSL_VERSION is not).
        let p = unsafe { ffi::OpenSSL_version(ffi::OPENSSL_VERSION) };
        if p.is_null() {
            return "OpenSSL (unknown version)".into();
        }
        // SAFETY: non-null, static, NUL-terminated (see above).
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    })
}

/// The first reason on an OpenSSL error stack, for one-line messages.
fn reason(e: &ErrorStack) -> String {
    e.errors()
        .find_map(|x| x.reason().map(str::to_owned))
        .unwrap_or_else(|| "unspecified OpenSSL error".into())
}

fn crypto(what: &'static str) -> impl FnOnce(ErrorStack) -> BackendError {
    move |e| BackendError::Crypto(format!("{what}: {}", reason(&e)))
}

/// OpenSSL's key management name for each algorithm.
fn keymgmt_name(alg: Algorithm) -> &'static CStr {
    match alg {
        Algorithm::EcdsaP256 | Algorithm::EcdsaP384 => c"EC",
        Algorithm::Ed25519 => c"ED25519",
        Algorithm::Rsa2048 | Algorithm::Rsa3072 | Algorithm::Rsa4096 => c"RSA",
        Algorithm::MlDsa44 => c"ML-DSA-44",
        Algorithm::MlDsa65 => c"ML-DSA-65",
        Algorithm::MlDsa87 => c"ML-DSA-87",
    }
}

fn ml_dsa_oid(alg: Algorithm) -> Option<crate::der::Oid> {
    match alg {
        Algorithm::MlDsa44 => Some(oids::ML_DSA_44),
        Algorithm::MlDsa65 => Some(oids::ML_DSA_65),
        Algorithm::MlDsa87 => Some(oids::ML_DSA_87),
        _ => None,
    }
}

fn digest_name(d: Digest) -> &'static CStr {
    match d {
        Digest::Sha1 => c"SHA1",
        Digest::Sha256 => c"SHA256",
        Digest::Sha384 => c"SHA384",
        Digest::Sha512 => c"SHA512",
    }
}

/// Which algorithms the linked OpenSSL can generate, probed once by fetching each key
/// manager (ML-DSA's exists from OpenSSL 3.5 on).
fn probe() -> &'static [bool; 9] {
    static P: OnceLock<[bool; 9]> = OnceLock::new();
    P.get_or_init(|| Algorithm::ALL.map(|a| KeygenCtx::new(keymgmt_name(a)).is_ok()))
}

fn unsupported(alg: Algorithm) -> BackendError {
    BackendError::Unsupported(format!(
        "{alg} is not available in the linked {}: it needs OpenSSL >= 3.5 \
         (`cargo xtask build` provides OpenSSL 3.5)",
        openssl_version()
    ))
}

/// A key generation context set up for `alg` (RSA with e = 65537, EC on a named curve).
fn keygen_ctx(alg: Algorithm) -> Result<KeygenCtx> {
    let mut ctx = KeygenCtx::new(keymgmt_name(alg)).map_err(crypto("key generation"))?;
    let params = match alg {
        Algorithm::Rsa2048 | Algorithm::Rsa3072 | Algorithm::Rsa4096 => Some(
            ParamBuilder::new()
                .and_then(|b| b.push_uint(c"bits", alg.rsa_bits().unwrap_or(2048)))
                .and_then(|b| b.push_bn(c"e", &[0x01, 0x00, 0x01]))
                .and_then(|b| b.build()),
        ),
        Algorithm::EcdsaP256 | Algorithm::EcdsaP384 => {
            let group = if alg == Algorithm::EcdsaP256 {
                c"P-256"
            } else {
                c"P-384"
            };
            Some(
                ParamBuilder::new()
                    .and_then(|b| b.push_utf8_string(c"group", group))
                    .and_then(|b| b.build()),
            )
        }
        _ => None,
    };
    if let Some(p) = params {
        let p = p.map_err(crypto("key generation parameters"))?;
        ctx.set_params(&p)
            .map_err(crypto("key generation parameters"))?;
    }
    Ok(ctx)
}

impl Backend for OpensslBackend {
    fn version(&self) -> String {
        openssl_version().to_owned()
    }

    fn supports(&self, alg: Algorithm) -> bool {
        Algorithm::ALL
            .iter()
            .position(|a| *a == alg)
            .is_some_and(|i| probe()[i])
    }

    fn generate(&self, alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        self.require(alg)?;
        // A keygen context is reusable: batches generate thousands of keys per thread, and
        // building the context (provider fetch, parameters) each time costs microseconds.
        thread_local! {
            static KEYGEN: std::cell::RefCell<Vec<(Algorithm, KeygenCtx)>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        let pkey = KEYGEN.with(|cell| -> Result<Pkey<Private>> {
            let mut ctxs = cell.borrow_mut();
            let i = match ctxs.iter().position(|(a, _)| *a == alg) {
                Some(i) => i,
                None => {
                    ctxs.push((alg, keygen_ctx(alg)?));
                    ctxs.len() - 1
                }
            };
            ctxs[i].1.generate().map_err(crypto("key generation"))
        })?;
        Ok(Box::new(OsslKey::new(alg, pkey)))
    }

    fn generate_many(&self, alg: Algorithm, n: usize) -> Result<Vec<Box<dyn PrivateKey>>> {
        self.require(alg)?;
        match alg {
            Algorithm::EcdsaP256 | Algorithm::EcdsaP384 => ec_batch::generate(alg, n),
            _ => (0..n).map(|_| self.generate(alg)).collect(),
        }
    }

    fn require(&self, alg: Algorithm) -> Result<()> {
        if self.supports(alg) {
            Ok(())
        } else {
            Err(unsupported(alg))
        }
    }

    fn load_private(&self, pkcs8: &[u8], alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        self.require(alg)?;
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
        Ok(Box::new(OsslKey::new(alg, pkey)))
    }

    fn pbe(&self) -> &dyn super::pbe::Pbe {
        &pbe::OsslPbe
    }

    fn verify(
        &self,
        spki_der: &[u8],
        scheme: SignatureScheme,
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool> {
        let kind = spki_key_kind(spki_der)?;
        let fits = match (kind, scheme) {
            (KeyKind::Rsa, s) => matches!(
                s,
                SignatureScheme::RsaPkcs1Sha1
                    | SignatureScheme::RsaPkcs1Sha256
                    | SignatureScheme::RsaPkcs1Sha384
                    | SignatureScheme::RsaPkcs1Sha512
                    | SignatureScheme::RsaPss { .. }
            ),
            (KeyKind::Fixed(Algorithm::EcdsaP256 | Algorithm::EcdsaP384), s) => matches!(
                s,
                SignatureScheme::EcdsaSha1
                    | SignatureScheme::EcdsaSha256
                    | SignatureScheme::EcdsaSha384
                    | SignatureScheme::EcdsaSha512
            ),
            (KeyKind::Fixed(a), s) => a.default_scheme() == s,
        };
        if !fits {
            // A key of another type did not make this signature: a negative answer, the
            // same as any other signature that does not verify under this key.
            return Ok(false);
        }
        if let KeyKind::Fixed(a) = kind {
            self.require(a)?;
        }
        let key = public_key(spki_der)?;
        let md = match scheme.digest() {
            Some(d) => Some(
                native_ossl::digest::cached(digest_name(d))
                    .ok_or_else(|| BackendError::Crypto(format!("{d:?} is not available")))?,
            ),
            None => None,
        };
        let pss = match (scheme, &md) {
            (SignatureScheme::RsaPss { salt_len, .. }, Some(md)) => {
                let salt = i32::try_from(salt_len).map_err(|_| {
                    BackendError::BadKey(format!("RSA-PSS salt length {salt_len} is out of range"))
                })?;
                Some(native_ossl::pkey::rsa_pss_params(md, salt).map_err(crypto("RSA-PSS"))?)
            }
            _ => None,
        };
        let mut v = Verifier::new(&key, &SignInit::new(md.as_ref(), pss.as_ref()))
            .map_err(crypto("verification"))?;
        // A malformed signature (bad DER in an ECDSA value, wrong length) is a signature
        // that does not verify, not a failure of the verifier.
        Ok(v.verify_oneshot(message, signature).unwrap_or(false))
    }

    fn digest(&self, alg: Digest, data: &[u8]) -> Vec<u8> {
        use sha2::Digest as _;
        match alg {
            Digest::Sha256 => sha2::Sha256::digest(data).to_vec(),
            Digest::Sha384 => sha2::Sha384::digest(data).to_vec(),
            Digest::Sha512 => sha2::Sha512::digest(data).to_vec(),
            // SHA-1 is in every OpenSSL 3 default provider. Should a configuration remove
            // it, the empty result matches no expected digest, so callers fail closed.
            Digest::Sha1 => DigestAlg::fetch(c"SHA1", None)
                .and_then(|md| md.digest_to_vec(data))
                .unwrap_or_default(),
        }
    }
}

/// Decode an SPKI, remembering the last few per thread. OpenSSL's decoder takes 15-40 µs
/// per key (OpenSSL 3.5.5, release build, on the development machine), up to half the
/// cost of an ECDSA verification, and a batch of verifications usually repeats one
/// issuer key.
fn public_key(spki: &[u8]) -> Result<Pkey<Public>> {
    const KEEP: usize = 4;
    thread_local! {
        static RECENT: std::cell::RefCell<Vec<(Vec<u8>, Pkey<Public>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    RECENT.with(|recent| {
        let mut recent = recent.borrow_mut();
        if let Some(i) = recent.iter().position(|(der, _)| der.as_slice() == spki) {
            let hit = recent.remove(i);
            let key = hit.1.clone();
            recent.insert(0, hit);
            return Ok(key);
        }
        let key = Pkey::<Public>::from_der(spki)
            .map_err(|e| BackendError::BadKey(format!("not a valid public key: {}", reason(&e))))?;
        recent.insert(0, (spki.to_vec(), key.clone()));
        recent.truncate(KEEP);
        Ok(key)
    })
}

/// A private key and the algorithm pkit uses it for.
struct OsslKey {
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
    fn new(alg: Algorithm, pkey: Pkey<Private>) -> OsslKey {
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
    fn openssl_public_key_der(&self) -> Result<Vec<u8>> {
        self.pkey
            .public_key_to_der()
            .map_err(crypto("encoding the public key"))
    }

    /// OpenSSL's own PKCS#8 encoding.
    fn openssl_pkcs8_der(&self) -> Result<Vec<u8>> {
        self.pkey
            .to_pkcs8_der()
            .map_err(crypto("encoding the private key"))
    }

    /// ML-DSA PKCS#8 in the chosen RFC 9881 form, from the key's "seed" and "priv"
    /// (expanded key) parameters. OpenSSL itself always writes the `both` form.
    fn ml_dsa_pkcs8(&self, oid: &crate::der::Oid, format: MlDsaKeyFormat) -> Result<Vec<u8>> {
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

/// ECDSA and RSA PKCS#1 v1.5: the message is hashed in Rust and the hash signed with one
/// `EVP_PKEY_sign` context kept for the signer's life. `EVP_PKEY_sign` keeps its state
/// between calls, while an `EVP_DigestSign` context would have to be set up again for
/// every message.
struct PrehashSigner {
    ctx: RawSigner,
    scheme: SignatureScheme,
    digest: Digest,
    max_len: usize,
}

impl PrehashSigner {
    fn new(key: &Pkey<Private>, scheme: SignatureScheme, digest: Digest) -> Result<Self> {
        let mut ctx = RawSigner::new(key, None).map_err(crypto("signing context"))?;
        if key.is_a(c"RSA") {
            // PKCS#1 v1.5 padding around a DigestInfo naming the hash (RFC 8017 §9.2).
            let p = ParamBuilder::new()
                .and_then(|b| b.push_utf8_string(c"pad-mode", c"pkcs1"))
                .and_then(|b| b.push_utf8_string(c"digest", digest_name(digest)))
                .and_then(|b| b.build())
                .map_err(crypto("signing context"))?;
            ctx.set_params(&p).map_err(crypto("signing context"))?;
        }
        let max_len = ctx
            .sign_len(digest.output_len())
            .map_err(crypto("signing context"))?;
        Ok(PrehashSigner {
            ctx,
            scheme,
            digest,
            max_len,
        })
    }
}

fn prehash(d: Digest, message: &[u8]) -> Vec<u8> {
    BACKEND.digest(d, message)
}

impl Signer for PrehashSigner {
    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }

    fn sign(&mut self, message: &[u8]) -> Result<Vec<u8>> {
        let hash = prehash(self.digest, message);
        let mut sig = vec![0u8; self.max_len];
        let n = self.ctx.sign(&hash, &mut sig).map_err(crypto("signing"))?;
        sig.truncate(n);
        Ok(sig)
    }
}

/// Ed25519 and ML-DSA sign the message itself through `EVP_DigestSign`. OpenSSL marks
/// that context finished after each signature; initialising it again with a NULL key
/// re-arms the same provider context (OpenSSL 3.0's `do_sigver_init` "reinit" path)
/// instead of building a new one.
struct OneShotSigner {
    ctx: DigestCtx,
    /// Keeps the key alive as long as the context refers to it.
    key: Pkey<Private>,
    scheme: SignatureScheme,
    armed: bool,
    max_len: usize,
}

impl OneShotSigner {
    fn new(key: &Pkey<Private>, scheme: SignatureScheme) -> Result<Self> {
        let ctx = DigestCtx::new_empty().map_err(crypto("signing context"))?;
        let mut s = OneShotSigner {
            ctx,
            key: key.clone(),
            scheme,
            armed: false,
            max_len: key.max_output_size(),
        };
        s.init(true)?;
        Ok(s)
    }

    /// `with_key`: a full initialisation; otherwise the re-arm described above.
    fn init(&mut self, with_key: bool) -> Result<()> {
        let pkey = if with_key {
            self.key.as_ptr().cast()
        } else {
            std::ptr::null_mut()
        };
        // SAFETY: ctx is a live EVP_MD_CTX owned by self; pkey is NULL or a live EVP_PKEY
        // that self.key keeps referenced; all other pointers are NULL, which
        // EVP_DigestSignInit_ex accepts (no digest, default library context, no
        // properties, no parameters, no EVP_PKEY_CTX out-pointer).
        let rc = unsafe {
            ffi::EVP_DigestSignInit_ex(
                self.ctx.as_ptr().cast(),
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null_mut(),
                std::ptr::null(),
                pkey,
                std::ptr::null(),
            )
        };
        if rc != 1 {
            return Err(crypto("signing context")(ErrorStack::drain()));
        }
        self.armed = true;
        Ok(())
    }
}

impl Signer for OneShotSigner {
    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }

    fn sign(&mut self, message: &[u8]) -> Result<Vec<u8>> {
        if !self.armed && self.init(false).is_err() {
            self.init(true)?;
        }
        let mut sig = vec![0u8; self.max_len];
        let mut len = sig.len();
        // SAFETY: ctx was initialised for signing above; sig is writable for len bytes
        // and message readable for its length; OpenSSL writes at most len bytes and
        // stores the signature length in len.
        let rc = unsafe {
            ffi::EVP_DigestSign(
                self.ctx.as_ptr().cast(),
                sig.as_mut_ptr(),
                &mut len,
                message.as_ptr(),
                message.len(),
            )
        };
        self.armed = false;
        if rc != 1 {
            return Err(crypto("signing")(ErrorStack::drain()));
        }
        sig.truncate(len);
        Ok(sig)
    }
}

#[cfg(test)]
mod tests {
    /// The encodings pkit writes itself are byte for byte OpenSSL's.
    #[test]
    fn own_key_encodings_match_openssl() {
        for alg in Algorithm::ALL {
            for _ in 0..4 {
                let pkey = keygen_ctx(alg).unwrap().generate().unwrap();
                let k = OsslKey::new(alg, pkey);
                let ours = k.public_key_der().unwrap();
                assert_eq!(ours, k.openssl_public_key_der().unwrap(), "{alg} SPKI");
                if !alg.is_rsa() && ml_dsa_oid(alg).is_none() {
                    let ours = k.to_pkcs8_der(MlDsaKeyFormat::default()).unwrap();
                    assert_eq!(ours, k.openssl_pkcs8_der().unwrap(), "{alg} PKCS#8");
                }
            }
        }
    }

    use super::*;
    use crate::pki::backend::pbe::{Hash, PbeCipher};
    use crate::pki::key::encrypted::{PBKDF2_ITERATIONS, SCRYPT_N, SCRYPT_P, SCRYPT_R};
    use crate::pki::key::ml_dsa::ml_dsa_expanded_len;
    use crate::pki::key::pbe::prf_hash;
    use crate::pki::key::{
        encrypt_private_key, is_encrypted, load_private, EncryptedPrivateKeyInfo, Kdf, KdfChoice,
        PbeScheme, PrivateKeyInfo,
    };
    use native_ossl::cipher::CipherAlg;

    #[test]
    fn a_reused_keygen_context_gives_fresh_keys() {
        for alg in [Algorithm::EcdsaP256, Algorithm::Ed25519, Algorithm::MlDsa44] {
            let a = BACKEND.generate(alg).unwrap().public_key_der().unwrap();
            let b = BACKEND.generate(alg).unwrap().public_key_der().unwrap();
            assert_ne!(a, b, "{alg}");
        }
    }

    /// One key per algorithm the linked OpenSSL offers, generated once for all tests.
    fn keys() -> &'static [Box<dyn PrivateKey>] {
        static KEYS: OnceLock<Vec<Box<dyn PrivateKey>>> = OnceLock::new();
        KEYS.get_or_init(|| {
            Algorithm::ALL
                .into_iter()
                .filter(|a| {
                    let ok = BACKEND.supports(*a);
                    if !ok {
                        eprintln!("note: {a} skipped, not in {}", openssl_version());
                    }
                    ok
                })
                .map(|a| BACKEND.generate(a).unwrap())
                .collect()
        })
    }

    fn flip(v: &[u8], i: usize) -> Vec<u8> {
        let mut v = v.to_vec();
        v[i] ^= 0x01;
        v
    }

    #[test]
    fn version_and_probe() {
        assert!(
            BACKEND.version().starts_with("OpenSSL 3."),
            "{}",
            BACKEND.version()
        );
        for a in [Algorithm::EcdsaP256, Algorithm::Ed25519, Algorithm::Rsa2048] {
            assert!(BACKEND.supports(a));
        }
        let ml_dsa = !BACKEND.version().starts_with("OpenSSL 3.0");
        assert_eq!(BACKEND.supports(Algorithm::MlDsa65), ml_dsa);
        if !ml_dsa {
            match BACKEND.generate(Algorithm::MlDsa65) {
                Err(BackendError::Unsupported(m)) => {
                    assert!(m.contains("cargo xtask build"), "{m}")
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn sign_verify_and_tamper() {
        for key in keys() {
            let spki = key.public_key_der().unwrap();
            let mut signer = key.signer().unwrap();
            let scheme = signer.scheme();
            assert_eq!(scheme, key.algorithm().default_scheme());
            // Many signatures from one context: each must stand on its own, which
            // catches a context that hashes across calls.
            for msg in [&b"first message"[..], b"second", b"", &[0x5a; 3000]] {
                let sig = signer.sign(msg).unwrap();
                assert!(
                    BACKEND.verify(&spki, scheme, msg, &sig).unwrap(),
                    "{}",
                    key.algorithm()
                );
                if !msg.is_empty() {
                    let bad = BACKEND.verify(&spki, scheme, &flip(msg, 0), &sig).unwrap();
                    assert!(!bad, "{}: tampered message verified", key.algorithm());
                }
                for i in [0, sig.len() / 2, sig.len() - 1] {
                    let bad = BACKEND.verify(&spki, scheme, msg, &flip(&sig, i)).unwrap();
                    assert!(
                        !bad,
                        "{}: tampered signature byte {i} verified",
                        key.algorithm()
                    );
                }
                assert!(!BACKEND.verify(&spki, scheme, msg, &[]).unwrap());
            }
            let sig = key.sign(b"one-off").unwrap();
            assert!(BACKEND.verify(&spki, scheme, b"one-off", &sig).unwrap());
        }
    }

    #[test]
    fn signers_are_independent_across_threads() {
        let key = keys().first().unwrap();
        let spki = key.public_key_der().unwrap();
        std::thread::scope(|s| {
            for t in 0..4u8 {
                let spki = &spki;
                s.spawn(move || {
                    let mut signer = key.signer().unwrap();
                    for i in 0..20u8 {
                        let msg = [t, i];
                        let sig = signer.sign(&msg).unwrap();
                        assert!(BACKEND.verify(spki, signer.scheme(), &msg, &sig).unwrap());
                    }
                });
            }
        });
    }

    #[test]
    fn verify_other_schemes() {
        let rsa = keys()
            .iter()
            .find(|k| k.algorithm() == Algorithm::Rsa2048)
            .unwrap();
        let ec = keys()
            .iter()
            .find(|k| k.algorithm() == Algorithm::EcdsaP384)
            .unwrap();
        let ec_spki = ec.public_key_der().unwrap();
        let rsa_spki = rsa.public_key_der().unwrap();
        let pkey = |k: &dyn PrivateKey| {
            Pkey::<Private>::from_der(&k.to_pkcs8_der(MlDsaKeyFormat::Seed).unwrap()).unwrap()
        };
        let schemes = [
            (
                Digest::Sha1,
                SignatureScheme::RsaPkcs1Sha1,
                SignatureScheme::EcdsaSha1,
            ),
            (
                Digest::Sha384,
                SignatureScheme::RsaPkcs1Sha384,
                SignatureScheme::EcdsaSha384,
            ),
            (
                Digest::Sha512,
                SignatureScheme::RsaPkcs1Sha512,
                SignatureScheme::EcdsaSha512,
            ),
            (
                Digest::Sha256,
                SignatureScheme::RsaPkcs1Sha256,
                SignatureScheme::EcdsaSha256,
            ),
        ];
        for (d, rsa_scheme, ec_scheme) in schemes {
            let md = DigestAlg::fetch(digest_name(d), None).unwrap();
            let msg = b"tbsCertificate";
            for (k, spki, scheme) in [
                (pkey(&**rsa), &rsa_spki, rsa_scheme),
                (pkey(&**ec), &ec_spki, ec_scheme),
            ] {
                let sig = native_ossl::pkey::Signer::new(&k, &SignInit::new(Some(&md), None))
                    .unwrap()
                    .sign_oneshot(msg)
                    .unwrap();
                assert!(
                    BACKEND.verify(spki, scheme, msg, &sig).unwrap(),
                    "{scheme:?}"
                );
                assert!(!BACKEND.verify(spki, scheme, b"other", &sig).unwrap());
            }
            let pss = SignatureScheme::RsaPss {
                digest: d,
                salt_len: d.output_len() as u32,
            };
            let params = native_ossl::pkey::rsa_pss_params(&md, d.output_len() as i32).unwrap();
            let sig = native_ossl::pkey::Signer::new(
                &pkey(&**rsa),
                &SignInit::new(Some(&md), Some(&params)),
            )
            .unwrap()
            .sign_oneshot(msg)
            .unwrap();
            assert!(
                BACKEND.verify(&rsa_spki, pss, msg, &sig).unwrap(),
                "{pss:?}"
            );
            assert!(!BACKEND.verify(&rsa_spki, rsa_scheme, msg, &sig).unwrap());
        }
        // A key that does not fit the scheme made no such signature: a negative answer.
        assert!(!BACKEND
            .verify(&ec_spki, SignatureScheme::RsaPkcs1Sha256, b"m", &[0; 64])
            .unwrap());
        assert!(matches!(
            BACKEND.verify(b"garbage", SignatureScheme::EcdsaSha256, b"m", &[0; 64]),
            Err(BackendError::BadKey(_))
        ));
    }

    #[test]
    fn pkcs8_round_trip() {
        for key in keys() {
            let der = key.to_pkcs8_der(MlDsaKeyFormat::default()).unwrap();
            let back = load_private(&BACKEND, &der, None).unwrap();
            assert_eq!(back.algorithm(), key.algorithm());
            assert_eq!(
                back.public_key_der().unwrap(),
                key.public_key_der().unwrap()
            );
            // A loaded key signs for the original public key.
            let sig = back.sign(b"m").unwrap();
            let spki = key.public_key_der().unwrap();
            assert!(BACKEND
                .verify(&spki, key.algorithm().default_scheme(), b"m", &sig)
                .unwrap());
        }
    }

    #[test]
    fn encrypted_round_trip_and_wrong_password() {
        for key in keys() {
            for kdf in [KdfChoice::Pbkdf2, KdfChoice::Scrypt] {
                let der = encrypt_private_key(
                    &BACKEND,
                    &**key,
                    b"s3cret",
                    kdf,
                    MlDsaKeyFormat::default(),
                )
                .unwrap();
                assert!(is_encrypted(&der));
                let back = load_private(&BACKEND, &der, Some(b"s3cret")).unwrap();
                assert_eq!(back.algorithm(), key.algorithm());
                assert_eq!(
                    back.public_key_der().unwrap(),
                    key.public_key_der().unwrap()
                );
                assert!(matches!(
                    load_private(&BACKEND, &der, Some(b"wrong")),
                    Err(BackendError::BadPassword(_))
                ));
                assert!(matches!(
                    load_private(&BACKEND, &der, None),
                    Err(BackendError::BadPassword(_))
                ));
            }
        }
        let key = keys().first().unwrap();
        for kdf in [KdfChoice::Pbkdf2, KdfChoice::Scrypt] {
            let der =
                encrypt_private_key(&BACKEND, &**key, b"pw", kdf, MlDsaKeyFormat::Seed).unwrap();
            let e = EncryptedPrivateKeyInfo::from_der(&der).unwrap();
            match e.scheme().unwrap() {
                PbeScheme::Pbes2 { kdf: k, cipher, .. } => {
                    assert_eq!(cipher, Some(PbeCipher::Aes256Cbc));
                    match (kdf, k) {
                        (
                            KdfChoice::Pbkdf2,
                            Kdf::Pbkdf2 {
                                iterations,
                                prf,
                                salt,
                                ..
                            },
                        ) => {
                            assert_eq!(
                                (iterations, prf_hash(prf.as_ref()), salt.map(<[u8]>::len)),
                                (PBKDF2_ITERATIONS, Some(Hash::Sha256), Some(16))
                            );
                        }
                        (
                            KdfChoice::Scrypt,
                            Kdf::Scrypt {
                                cost,
                                block_size,
                                parallelization,
                                ..
                            },
                        ) => {
                            assert_eq!(
                                (cost, block_size, parallelization),
                                (SCRYPT_N, SCRYPT_R, SCRYPT_P)
                            );
                        }
                        other => panic!("{other:?}"),
                    }
                }
                other => panic!("{other:?}"),
            }
            assert!(load_private(&BACKEND, &der, Some(b"pw")).is_ok());
        }
    }

    #[test]
    fn openssl_written_encrypted_keys_load() {
        // OpenSSL's own PBES2 output (its defaults: PBKDF2-HMAC-SHA256, 2048 iterations).
        let key = keys()
            .iter()
            .find(|k| k.algorithm() == Algorithm::EcdsaP256)
            .unwrap();
        let k =
            Pkey::<Private>::from_der(&key.to_pkcs8_der(MlDsaKeyFormat::Seed).unwrap()).unwrap();
        let aes = CipherAlg::fetch(c"AES-128-CBC", None).unwrap();
        let pem = k.to_pem_encrypted(&aes, b"pw").unwrap();
        let der = pem::parse(&pem).unwrap().into_contents();
        let back = load_private(&BACKEND, &der, Some(b"pw")).unwrap();
        assert_eq!(
            back.public_key_der().unwrap(),
            key.public_key_der().unwrap()
        );
        assert!(matches!(
            load_private(&BACKEND, &der, Some(b"nope")),
            Err(BackendError::BadPassword(_))
        ));
    }

    #[test]
    fn garbage_and_foreign_keys() {
        for junk in [&b""[..], b"garbage", &[0x30, 0x03, 0x02, 0x01, 0x00]] {
            assert!(
                matches!(
                    load_private(&BACKEND, junk, None),
                    Err(BackendError::BadKey(_))
                ),
                "{junk:?}"
            );
        }
        // An Ed448 key: a real key type, but not one of pkit's nine.
        let ed448 = KeygenCtx::new(c"ED448").unwrap().generate().unwrap();
        match load_private(&BACKEND, &ed448.to_pkcs8_der().unwrap(), None) {
            Err(BackendError::Unsupported(m)) => assert!(m.contains("1.3.101.113"), "{m}"),
            other => panic!("{other:?}"),
        }
        // RSA of a size pkit does not issue with.
        let mut ctx = KeygenCtx::new(c"RSA").unwrap();
        let p = ParamBuilder::new()
            .unwrap()
            .push_uint(c"bits", 1024)
            .unwrap()
            .build()
            .unwrap();
        ctx.set_params(&p).unwrap();
        let rsa1024 = ctx.generate().unwrap().to_pkcs8_der().unwrap();
        assert!(matches!(
            load_private(&BACKEND, &rsa1024, None),
            Err(BackendError::Unsupported(_))
        ));
    }

    #[test]
    fn traditional_keys_load() {
        for alg in [Algorithm::EcdsaP256, Algorithm::Rsa2048] {
            let key = keys().iter().find(|k| k.algorithm() == alg).unwrap();
            let k = Pkey::<Private>::from_der(&key.to_pkcs8_der(MlDsaKeyFormat::Seed).unwrap())
                .unwrap();
            let back = load_private(&BACKEND, &k.to_der_legacy().unwrap(), None).unwrap();
            assert_eq!(back.algorithm(), alg);
            assert_eq!(
                back.public_key_der().unwrap(),
                key.public_key_der().unwrap()
            );
        }
    }

    #[test]
    fn ml_dsa_formats() {
        for key in keys().iter().filter(|k| k.algorithm().is_ml_dsa()) {
            let alg = key.algorithm();
            let spki = key.public_key_der().unwrap();
            let mut seed_of = None;
            for format in [
                MlDsaKeyFormat::Seed,
                MlDsaKeyFormat::Expanded,
                MlDsaKeyFormat::Both,
            ] {
                let der = key.to_pkcs8_der(format).unwrap();
                let info = PrivateKeyInfo::from_der(&der).unwrap();
                let parsed = info.ml_dsa_form().unwrap().unwrap();
                match (format, parsed) {
                    (MlDsaKeyFormat::Seed, MlDsaPrivateKey::Seed(s)) => {
                        // OneAsymmetricKey v1 with a 13-byte AlgorithmIdentifier, then
                        // OCTET STRING { [0] IMPLICIT OCTET STRING (32) }: 54 bytes.
                        assert_eq!(der.len(), 54);
                        assert_eq!(&der[..5], &[0x30, 0x34, 0x02, 0x01, 0x00]);
                        assert_eq!(&der[18..22], &[0x04, 0x22, 0x80, 0x20]);
                        seed_of = Some(s.to_vec());
                    }
                    (MlDsaKeyFormat::Expanded, MlDsaPrivateKey::Expanded(e)) => {
                        assert_eq!(Some(e.len()), ml_dsa_expanded_len(alg));
                    }
                    (MlDsaKeyFormat::Both, MlDsaPrivateKey::Both { seed, .. }) => {
                        assert_eq!(Some(seed.to_vec()), seed_of);
                    }
                    other => panic!("{other:?}"),
                }
                let back = load_private(&BACKEND, &der, None).unwrap();
                assert_eq!(back.algorithm(), alg);
                assert_eq!(back.public_key_der().unwrap(), spki);
                let sig = back.sign(b"m").unwrap();
                assert!(BACKEND
                    .verify(&spki, alg.default_scheme(), b"m", &sig)
                    .unwrap());
                // A key read without its seed can be written only in expanded form.
                let seedless = format == MlDsaKeyFormat::Expanded;
                assert_eq!(back.to_pkcs8_der(MlDsaKeyFormat::Seed).is_err(), seedless);
                assert!(back.to_pkcs8_der(MlDsaKeyFormat::Expanded).is_ok());
            }
        }
    }

    #[test]
    fn one_shot_contexts_are_re_armed_not_rebuilt() {
        for key in keys()
            .iter()
            .filter(|k| k.algorithm().default_scheme().digest().is_none())
        {
            let der = key.to_pkcs8_der(MlDsaKeyFormat::Seed).unwrap();
            let pkey = Pkey::<Private>::from_der(&der).unwrap();
            let mut s = OneShotSigner::new(&pkey, key.algorithm().default_scheme()).unwrap();
            s.sign(b"a").unwrap();
            s.init(false).unwrap();
            s.sign(b"b").unwrap();
        }
    }

    #[test]
    fn ml_dsa_both_form_must_agree() {
        for key in keys().iter().filter(|k| k.algorithm().is_ml_dsa()) {
            let mut der = key.to_pkcs8_der(MlDsaKeyFormat::Both).unwrap();
            let last = der.len() - 1;
            der[last] ^= 1;
            assert!(
                load_private(&BACKEND, &der, None).is_err(),
                "{}: a seed and an expanded key that disagree were accepted",
                key.algorithm()
            );
        }
    }

    #[test]
    fn digests() {
        let hex = |v: Vec<u8>| v.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            hex(BACKEND.digest(Digest::Sha1, b"abc")),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
        assert_eq!(
            hex(BACKEND.digest(Digest::Sha256, b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(BACKEND.digest(Digest::Sha384, b"").len(), 48);
        assert_eq!(BACKEND.digest(Digest::Sha512, b"").len(), 64);
    }
}
