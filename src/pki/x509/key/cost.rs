//! The way from a file's PBE parameters to the backend's KDFs. Costs come from the file
//! being read, so each one is bounded here, before any backend runs: a hostile file must
//! not buy seconds of CPU or gigabytes of memory. Each derivation is bounded, and so is
//! their sum over one input ([`Allowance`]): a PKCS#12 file derives a key for its MAC,
//! for each encrypted safe and for each shrouded key, and `parse` may try two passwords,
//! so a bound per derivation alone would let a file multiply it.

use crate::backend::pbe::{Hash, Pkcs12Purpose};
use crate::backend::{Backend, BackendError, Result};
use std::cell::Cell;

/// The password-based work one input may ask for, all derivations together, in units of
/// one PBKDF2 iteration (a PKCS#12 KDF iteration counts one, scrypt N·r·p). A million
/// PBKDF2 iterations took 0.37 s (HMAC-SHA256) to 0.76 s (HMAC-SHA512), and scrypt
/// N=2^17, r=8 (2^20 units) 0.57 s, with OpenSSL on the 2-core development machine
/// under load (`openssl kdf`); real files use 2,048 to 600,000 iterations, pkit writes
/// 100,000 (PBKDF2) or 2^17 units (scrypt). Found by the `pkcs8` and `pkcs12` fuzz
/// targets: the earlier bound of ten million iterations per derivation let one file
/// take seconds.
pub const MAX_WORK: u64 = 1_000_000;
/// PBKDF2 and PKCS#12 KDF iteration counts above this are refused: one derivation may
/// spend the whole allowance, no more.
pub const MAX_ITERATIONS: u64 = MAX_WORK;
/// scrypt bounds: N up to 2^20, r up to 32, p up to 16, N·r·p within [`MAX_WORK`] (so
/// at most 128 MiB of memory).
pub const MAX_SCRYPT_N: u64 = 1 << 20;
/// The largest scrypt block size r accepted.
pub const MAX_SCRYPT_R: u64 = 32;
/// The largest scrypt parallelization p accepted.
pub const MAX_SCRYPT_P: u64 = 16;
const SCRYPT_MAX_MEM: u64 = 256 << 20;

/// What is left of [`MAX_WORK`] for one input: made once per file (or per object read
/// on its own) and passed to every derivation for it.
#[derive(Debug)]
pub struct Allowance {
    left: Cell<u64>,
}

impl Default for Allowance {
    fn default() -> Self {
        Allowance::new()
    }
}

impl Allowance {
    /// The whole of [`MAX_WORK`], for one input.
    pub fn new() -> Allowance {
        Allowance {
            left: Cell::new(MAX_WORK),
        }
    }

    /// Take `units` for `what`, or refuse when less is left.
    fn spend(&self, units: u64, what: &str) -> Result<()> {
        let left = self.left.get();
        if units > left {
            return Err(BackendError::Unsupported(format!(
                "{what} would take this input's password-based work past pkit's limit of \
                 {MAX_WORK} iterations"
            )));
        }
        self.left.set(left - units);
        Ok(())
    }
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

/// Refuse an iteration count (PBKDF2, PBES1, the PKCS#12 KDF) past [`MAX_ITERATIONS`],
/// for a derivation another party will run (the backend's own decoder): the bound pkit's
/// derivations keep.
pub fn bound_iterations(n: u64, what: &str) -> Result<()> {
    iterations(n, what).map(drop)
}

/// Refuse scrypt parameters past pkit's limits (N a power of two up to [`MAX_SCRYPT_N`],
/// r up to [`MAX_SCRYPT_R`], p up to [`MAX_SCRYPT_P`]).
pub fn bound_scrypt(n: u64, r: u64, p: u64) -> Result<()> {
    let in_range = n.is_power_of_two()
        && (2..=MAX_SCRYPT_N).contains(&n)
        && (1..=MAX_SCRYPT_R).contains(&r)
        && (1..=MAX_SCRYPT_P).contains(&p);
    if in_range {
        return Ok(());
    }
    Err(BackendError::Unsupported(format!(
        "scrypt N={n} r={r} p={p} is beyond pkit's limits (N a power of two up to \
         {MAX_SCRYPT_N}, r up to {MAX_SCRYPT_R}, p up to {MAX_SCRYPT_P})"
    )))
}

/// PBKDF2 (RFC 8018 §5.2) with HMAC over `prf`.
pub fn pbkdf2(
    backend: &Backend,
    allowance: &Allowance,
    password: &[u8],
    salt: &[u8],
    iters: u64,
    prf: Hash,
    len: usize,
) -> Result<Vec<u8>> {
    let iters = iterations(iters, "PBKDF2")?;
    allowance.spend(u64::from(iters), "PBKDF2")?;
    backend.pbe().pbkdf2(password, salt, iters, prf, len)
}

/// scrypt (RFC 7914 §6).
#[allow(clippy::too_many_arguments)]
pub fn scrypt(
    backend: &Backend,
    allowance: &Allowance,
    password: &[u8],
    salt: &[u8],
    n: u64,
    r: u64,
    p: u64,
    len: usize,
) -> Result<Vec<u8>> {
    bound_scrypt(n, r, p)?;
    // All bounded above, so the product and the conversions are exact.
    allowance.spend(n * r * p, "scrypt")?;
    let (r, p) = (r as u32, p as u32);
    backend
        .pbe()
        .scrypt(password, salt, n, r, p, SCRYPT_MAX_MEM, len)
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
#[allow(clippy::too_many_arguments)]
pub fn pkcs12_kdf(
    backend: &Backend,
    allowance: &Allowance,
    bmp_password: &[u8],
    salt: &[u8],
    iters: u64,
    hash: Hash,
    purpose: Pkcs12Purpose,
    len: usize,
) -> Result<Vec<u8>> {
    let iters = iterations(iters, "PKCS#12 KDF")?;
    allowance.spend(u64::from(iters), "the PKCS#12 KDF")?;
    backend
        .pbe()
        .pkcs12_kdf(bmp_password, salt, iters, hash, purpose, len)
}
