//! EC key pairs generated in batches.
//!
//! OpenSSL's EC key generation leaves the public point in Jacobian coordinates, and every
//! read of it converts them to affine ones with a field inversion: about 45,000
//! instructions for P-256, an eighth of issuing a certificate, and more than pkit's own
//! share of it. Here a batch of key pairs is made with OpenSSL's EC primitives and their
//! points are converted together by `EC_POINTs_make_affine` (Montgomery's trick: one
//! inversion for the batch and a few multiplications per point).
//!
//! The private scalar is drawn as OpenSSL's own key generation draws it
//! (`BN_priv_rand_range_ex` below the group order, again while zero) and the public point
//! is computed by OpenSSL (`EC_POINT_mul` on the generator, its constant-time table path);
//! only the bookkeeping is here. `EC_POINTs_make_affine` and
//! `EC_POINT_get_Jprojective_coordinates_GFp` are deprecated since OpenSSL 3.0 but still
//! part of its API (built unless `no-deprecated`); a point whose Z does not come back as 1
//! is encoded by `EC_POINT_point2oct` instead.

use super::key::OsslKey;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::{BackendError, Result};
use pkit_x509::backend::{PrivateKey, Signer};
use pkit_x509::key::encode;
use pkit_x509::key::ml_dsa::MlDsaKeyFormat;
use std::ffi::{c_int, c_void};
use std::sync::OnceLock;

mod ffi {
    use std::ffi::{c_int, c_void};
    // <openssl/ec.h> and <openssl/bn.h>; libcrypto is linked by native-ossl-sys.
    extern "C" {
        pub(crate) fn EC_GROUP_new_by_curve_name_ex(
            libctx: *mut c_void,
            propq: *const std::ffi::c_char,
            nid: c_int,
        ) -> *mut c_void;
        pub(crate) fn EC_GROUP_free(group: *mut c_void);
        pub(crate) fn EC_GROUP_get0_order(group: *const c_void) -> *const c_void;
        pub(crate) fn EC_POINT_new(group: *const c_void) -> *mut c_void;
        pub(crate) fn EC_POINT_free(point: *mut c_void);
        pub(crate) fn EC_POINT_mul(
            group: *const c_void,
            r: *mut c_void,
            n: *const c_void,
            q: *const c_void,
            m: *const c_void,
            ctx: *mut c_void,
        ) -> c_int;
        pub(crate) fn EC_POINTs_make_affine(
            group: *const c_void,
            num: usize,
            points: *mut *mut c_void,
            ctx: *mut c_void,
        ) -> c_int;
        pub(crate) fn EC_POINT_get_Jprojective_coordinates_GFp(
            group: *const c_void,
            p: *const c_void,
            x: *mut c_void,
            y: *mut c_void,
            z: *mut c_void,
            ctx: *mut c_void,
        ) -> c_int;
        pub(crate) fn EC_POINT_point2oct(
            group: *const c_void,
            p: *const c_void,
            form: c_int,
            buf: *mut u8,
            len: usize,
            ctx: *mut c_void,
        ) -> usize;
        pub(crate) fn BN_CTX_new_ex(libctx: *mut c_void) -> *mut c_void;
        pub(crate) fn BN_CTX_free(ctx: *mut c_void);
        pub(crate) fn BN_new() -> *mut c_void;
        pub(crate) fn BN_is_zero(a: *const c_void) -> c_int;
        pub(crate) fn BN_set_flags(b: *mut c_void, n: c_int);
        pub(crate) fn BN_is_one(a: *const c_void) -> c_int;
        pub(crate) fn BN_priv_rand_range_ex(
            r: *mut c_void,
            range: *const c_void,
            strength: u32,
            ctx: *mut c_void,
        ) -> c_int;
    }
    pub(crate) use crate::ffi::{BN_bn2binpad, BN_clear_free};
}

/// `NID_X9_62_prime256v1` and `NID_secp384r1` from `<openssl/obj_mac.h>`.
const NID_P256: c_int = 415;
const NID_P384: c_int = 715;
/// `POINT_CONVERSION_UNCOMPRESSED`.
const UNCOMPRESSED: c_int = 4;
/// `BN_FLG_CONSTTIME`: the scalar takes OpenSSL's constant-time paths wherever it is used.
const BN_FLG_CONSTTIME: c_int = 0x04;

/// An owned OpenSSL object, freed (cleared, for numbers) on drop.
struct Owned(*mut c_void, unsafe extern "C" fn(*mut c_void));

impl Owned {
    fn new(ptr: *mut c_void, free: unsafe extern "C" fn(*mut c_void)) -> Result<Owned> {
        if ptr.is_null() {
            return Err(failed("allocation"));
        }
        Ok(Owned(ptr, free))
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: the pointer came from the allocator that `self.1` frees, once.
        unsafe { (self.1)(self.0) }
    }
}

/// Private scalars on their way into key pairs, cleared however the batch ends.
struct Scalars(Vec<[u8; 48]>);

impl Drop for Scalars {
    fn drop(&mut self) {
        for s in &mut self.0 {
            s.fill(0);
        }
    }
}

/// A new BIGNUM, cleared when freed.
fn new_bn() -> Result<Owned> {
    // SAFETY: BN_new has no preconditions; NULL (out of memory) is refused by Owned::new.
    Owned::new(unsafe { ffi::BN_new() }, ffi::BN_clear_free)
}

fn failed(step: &str) -> BackendError {
    BackendError::Crypto(format!("EC key generation: {step} failed"))
}

/// A curve's group and a number context, kept per thread (a BN_CTX is not shareable).
struct Curve {
    alg: Algorithm,
    field_len: usize,
    group: Owned,
    ctx: Owned,
}

impl Curve {
    fn new(alg: Algorithm) -> Result<Curve> {
        let (nid, field_len) = match alg {
            Algorithm::EcdsaP256 => (NID_P256, 32),
            Algorithm::EcdsaP384 => (NID_P384, 48),
            _ => {
                return Err(BackendError::Unsupported(format!(
                    "{alg} is not an EC curve"
                )))
            }
        };
        // SAFETY: NULL library context and properties mean the defaults.
        let group = unsafe {
            ffi::EC_GROUP_new_by_curve_name_ex(std::ptr::null_mut(), std::ptr::null(), nid)
        };
        let group = Owned::new(group, ffi::EC_GROUP_free)?;
        // SAFETY: as above.
        let ctx = Owned::new(
            unsafe { ffi::BN_CTX_new_ex(std::ptr::null_mut()) },
            ffi::BN_CTX_free,
        )?;
        Ok(Curve {
            alg,
            field_len,
            group,
            ctx,
        })
    }

    /// `n` key pairs.
    fn generate(&self, n: usize) -> Result<Vec<EcKeyPair>> {
        let (group, ctx) = (self.group.0, self.ctx.0);
        // SAFETY: the group is live; the order belongs to it and is only read.
        let order = unsafe { ffi::EC_GROUP_get0_order(group) };
        let d = new_bn()?;
        // SAFETY: `d` is a live BIGNUM owned here.
        unsafe { ffi::BN_set_flags(d.0, BN_FLG_CONSTTIME) };
        let mut scalars = Scalars(Vec::with_capacity(n));
        let mut points = Vec::with_capacity(n);
        for _ in 0..n {
            // SAFETY (this block): every pointer is live and owned above; `d` is written by
            // OpenSSL and read back into a buffer of `field_len` bytes, which any number
            // below the order fits.
            unsafe {
                loop {
                    if ffi::BN_priv_rand_range_ex(d.0, order, 0, ctx) != 1 {
                        return Err(failed("drawing the private scalar"));
                    }
                    if ffi::BN_is_zero(d.0) == 0 {
                        break;
                    }
                }
                let p = Owned::new(ffi::EC_POINT_new(group), ffi::EC_POINT_free)?;
                if ffi::EC_POINT_mul(group, p.0, d.0, std::ptr::null(), std::ptr::null(), ctx) != 1
                {
                    return Err(failed("the point multiplication"));
                }
                let mut scalar = [0u8; 48];
                if ffi::BN_bn2binpad(d.0, scalar.as_mut_ptr(), self.field_len as c_int)
                    != self.field_len as c_int
                {
                    return Err(failed("encoding the private scalar"));
                }
                scalars.0.push(scalar);
                scalar.fill(0);
                points.push(p);
            }
        }
        let mut raw: Vec<*mut c_void> = points.iter().map(|p| p.0).collect();
        // SAFETY: `raw` holds `n` live points of this group.
        if n > 0 && unsafe { ffi::EC_POINTs_make_affine(group, n, raw.as_mut_ptr(), ctx) } != 1 {
            return Err(failed("the affine conversion"));
        }
        let (x, y, z) = (new_bn()?, new_bn()?, new_bn()?);
        let len = self.field_len;
        let mut out = Vec::with_capacity(n);
        for (scalar, p) in scalars.0.iter().zip(&points) {
            let mut public = vec![0u8; 1 + 2 * len];
            public[0] = 0x04;
            // SAFETY (this block): live group, point and numbers; each coordinate is below
            // the field prime and fits `len` bytes; point2oct writes at most the buffer.
            let ok = unsafe {
                ffi::EC_POINT_get_Jprojective_coordinates_GFp(group, p.0, x.0, y.0, z.0, ctx) == 1
                    && ffi::BN_is_one(z.0) == 1
                    && ffi::BN_bn2binpad(x.0, public[1..].as_mut_ptr(), len as c_int)
                        == len as c_int
                    && ffi::BN_bn2binpad(y.0, public[1 + len..].as_mut_ptr(), len as c_int)
                        == len as c_int
            } || unsafe {
                ffi::EC_POINT_point2oct(
                    group,
                    p.0,
                    UNCOMPRESSED,
                    public.as_mut_ptr(),
                    public.len(),
                    ctx,
                ) == public.len()
            };
            if !ok {
                return Err(failed("encoding the public point"));
            }
            out.push(EcKeyPair {
                alg: self.alg,
                field_len: len,
                scalar: *scalar,
                public,
                loaded: OnceLock::new(),
            });
        }
        Ok(out)
    }
}

/// `n` P-256 or P-384 key pairs.
pub(super) fn generate(alg: Algorithm, n: usize) -> Result<Vec<Box<dyn PrivateKey>>> {
    thread_local! {
        static CURVES: std::cell::RefCell<Vec<Curve>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    CURVES.with(|cell| {
        let mut curves = cell.borrow_mut();
        let i = match curves.iter().position(|c| c.alg == alg) {
            Some(i) => i,
            None => {
                curves.push(Curve::new(alg)?);
                curves.len() - 1
            }
        };
        let keys = curves[i].generate(n)?;
        Ok(keys
            .into_iter()
            .map(|k| Box::new(k) as Box<dyn PrivateKey>)
            .collect())
    })
}

/// A key pair as bytes: the scalar and the uncompressed public point. It becomes an
/// OpenSSL key (checked pairwise on load) only if it is asked to sign.
struct EcKeyPair {
    alg: Algorithm,
    field_len: usize,
    scalar: [u8; 48],
    public: Vec<u8>,
    loaded: OnceLock<OsslKey>,
}

impl std::fmt::Debug for EcKeyPair {
    // Never print key material.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EcKeyPair")
            .field("alg", &self.alg)
            .finish_non_exhaustive()
    }
}

impl Drop for EcKeyPair {
    fn drop(&mut self) {
        self.scalar.fill(0);
    }
}

impl EcKeyPair {
    fn openssl_key(&self) -> Result<&dyn PrivateKey> {
        if let Some(k) = self.loaded.get() {
            return Ok(k);
        }
        let mut der = self.to_pkcs8_der(MlDsaKeyFormat::default())?;
        let key = OsslKey::load(&der, self.alg);
        der.fill(0);
        let key = key?;
        Ok(self.loaded.get_or_init(|| key))
    }
}

impl PrivateKey for EcKeyPair {
    fn algorithm(&self) -> Algorithm {
        self.alg
    }

    fn public_key_der(&self) -> Result<Vec<u8>> {
        encode::spki(self.alg, &self.public)
            .ok_or_else(|| BackendError::Crypto(format!("no SPKI encoding for {}", self.alg)))
    }

    fn to_pkcs8_der(&self, _format: MlDsaKeyFormat) -> Result<Vec<u8>> {
        encode::classic_pkcs8(self.alg, &self.scalar[..self.field_len], &self.public)
            .ok_or_else(|| BackendError::Crypto(format!("no PKCS#8 encoding for {}", self.alg)))
    }

    fn signer(&self) -> Result<Box<dyn Signer>> {
        self.openssl_key()?.signer()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use pkit_x509::key::encrypted::{encrypt_private_key, KdfChoice};
    use pkit_x509::key::load::load_private;

    /// Every key of a batch is a valid pair: OpenSSL loads its PKCS#8 (checking the point
    /// against the scalar), derives the same SPKI, and a signature verifies under it.
    #[test]
    fn batches_are_valid_key_pairs() {
        for (alg, n) in [
            (Algorithm::EcdsaP256, 0),
            (Algorithm::EcdsaP256, 1),
            (Algorithm::EcdsaP256, 17),
            (Algorithm::EcdsaP384, 5),
        ] {
            let keys = generate(alg, n).unwrap();
            assert_eq!(keys.len(), n);
            let mut spkis = std::collections::HashSet::new();
            for k in &keys {
                assert_eq!(k.algorithm(), alg);
                let der = k.to_pkcs8_der(MlDsaKeyFormat::default()).unwrap();
                let loaded = load_private(backend(), &der, None).unwrap();
                let spki = k.public_key_der().unwrap();
                assert_eq!(spki, loaded.public_key_der().unwrap(), "{alg}");
                assert_eq!(der, loaded.to_pkcs8_der(MlDsaKeyFormat::default()).unwrap());
                let sig = k.sign(b"batch").unwrap();
                let scheme = alg.default_scheme();
                assert!(backend().verify(&spki, scheme, b"batch", &sig).unwrap());
                let enc = encrypt_private_key(
                    backend(),
                    &**k,
                    b"pw",
                    KdfChoice::default(),
                    MlDsaKeyFormat::default(),
                )
                .unwrap();
                let back = load_private(backend(), &enc, Some(b"pw")).unwrap();
                assert_eq!(back.public_key_der().unwrap(), spki, "{alg} encrypted");
                assert!(spkis.insert(spki), "a repeated key");
            }
        }
    }

    #[test]
    fn other_algorithms_are_refused() {
        assert!(generate(Algorithm::Ed25519, 1).is_err());
    }
}
