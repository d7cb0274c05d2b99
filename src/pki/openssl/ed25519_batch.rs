//! Ed25519 batch verification with OpenSSL's verdicts.
//!
//! OpenSSL has no batch verification. Here many signatures are checked with one
//! multiscalar multiplication (curve25519-dalek's, Pippenger for large batches): the
//! random linear combination
//!
//! ```text
//! Σ zᵢRᵢ + Σₖ (Σ_{i: Aᵢ = Aₖ} zᵢhᵢ) Aₖ - (Σ zᵢsᵢ) B = 0,   hᵢ = SHA-512(Rᵢ ‖ Aᵢ ‖ Mᵢ) mod L
//! ```
//!
//! with fresh 128-bit random `zᵢ` and no multiplication by the cofactor (the
//! cofactorless equation). Signatures by one key share its term, so a CA's batch is
//! N + 2 points, not 2N + 1 as in ed25519-dalek's `verify_batch`, which would also
//! decompress every R a second time.
//!
//! OpenSSL's single verification is cofactorless too, but exact: it accepts when the
//! canonical encoding of `[s]B - [h]A` equals the 32 bytes of R. The two can differ
//! only where a point has a component of small order or an encoding is not canonical:
//! there a random combination lets a torsion part vanish (a `zᵢ` that is even kills a
//! point of order 2), and a non-canonical R or A names a point OpenSSL's byte
//! comparison never matches. So only signatures whose every part is beyond doubt go
//! into a batch:
//!
//! - s < L (OpenSSL refuses anything else);
//! - A and R canonical (y < p, and no "negative zero" x), decompressing to a point;
//! - A and R torsion-free (in the prime-order subgroup), so `[s]B - [h]A - R` is in
//!   that subgroup, where the random combination is sound (a wrong signature passes
//!   with probability about 2⁻¹²⁸) and cofactored and cofactorless checks agree.
//!
//! Everything else — and every signature of a batch that fails — is left to OpenSSL's
//! single verification, which gives the verdict and names the bad ones. A is checked
//! once per distinct key and remembered (a CA's or a cosigner's key repeats); R's
//! subgroup check is one scalar multiplication per signature, the larger part of a
//! batched signature's cost (docs/bench/ed25519-batch.md).

use curve25519_dalek::constants::ED25519_BASEPOINT_POINT;
use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};
use sha2::{Digest, Sha512};
use std::collections::HashMap;
use std::sync::Mutex;

/// One Ed25519 signature: the raw public key, the message and the 64-byte signature.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Item<'a> {
    pub key: &'a [u8; 32],
    pub message: &'a [u8],
    pub signature: &'a [u8; 64],
}

/// Fewer signatures than this are not worth a batch: one signature alone is cheaper
/// to verify than to check for the batch.
pub(crate) const MIN_BATCH: usize = 2;

/// A signature ready for the equation: R decompressed, s, h, and its key's index.
struct Term {
    r: EdwardsPoint,
    s: Scalar,
    h: Scalar,
    key: usize,
}

/// `Some(true)` for each item the batch proved valid; `None` for those OpenSSL must
/// judge one by one (not batchable, or in a batch that failed).
pub(crate) fn verify(items: &[Item<'_>]) -> Vec<Option<bool>> {
    let mut verdicts = vec![None; items.len()];
    if items.len() < MIN_BATCH {
        return verdicts;
    }
    let keys = prepared_keys(items);
    // The batch's distinct keys, each with its index in `points`.
    let mut key_index: HashMap<&[u8; 32], usize> = HashMap::new();
    let mut key_points: Vec<EdwardsPoint> = Vec::new();
    let mut chosen = Vec::with_capacity(items.len());
    let mut terms = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Some(a) = keys[item.key] else { continue };
        let Some((r, s)) = batchable_signature(item.signature) else {
            continue;
        };
        let key = *key_index.entry(item.key).or_insert_with(|| {
            key_points.push(a);
            key_points.len() - 1
        });
        let mut hash = Sha512::new();
        hash.update(&item.signature[..32]);
        hash.update(item.key);
        hash.update(item.message);
        let h = Scalar::from_bytes_mod_order_wide(&hash.finalize().into());
        chosen.push(i);
        terms.push(Term { r, s, h, key });
    }
    if terms.len() >= MIN_BATCH && equation_holds(&terms, &key_points) {
        for i in chosen {
            verdicts[i] = Some(true);
        }
    }
    verdicts
}

/// The batch equation with fresh random 128-bit coefficients. `false` also when the
/// system's random source fails: the signatures are then verified one by one.
fn equation_holds(terms: &[Term], keys: &[EdwardsPoint]) -> bool {
    let mut random = vec![0u8; 16 * terms.len()];
    if getrandom::fill(&mut random).is_err() {
        return false;
    }
    let mut b = Scalar::ZERO;
    let mut key_scalars = vec![Scalar::ZERO; keys.len()];
    let mut scalars = Vec::with_capacity(terms.len() + keys.len() + 1);
    for (t, z) in terms.iter().zip(random.chunks_exact(16)) {
        let z = Scalar::from(u128::from_le_bytes(std::array::from_fn(|i| z[i])));
        b += z * t.s;
        key_scalars[t.key] += z * t.h;
        scalars.push(z);
    }
    scalars.push(-b);
    scalars.extend(key_scalars);
    let points = terms
        .iter()
        .map(|t| t.r)
        .chain(std::iter::once(ED25519_BASEPOINT_POINT))
        .chain(keys.iter().copied());
    EdwardsPoint::vartime_multiscalar_mul(scalars, points).is_identity()
}

/// Keys checked so far in this process: a verifier meets the same few keys (a CA's, a
/// log's cosigners') again and again, and checking one costs a scalar multiplication.
/// Bounded: emptied when full.
static PREPARED: Mutex<Option<HashMap<[u8; 32], Option<EdwardsPoint>>>> = Mutex::new(None);
const PREPARED_MAX: usize = 4096;

/// Each distinct key of `items`, as [`torsion_free_point`] judges it.
fn prepared_keys<'a>(items: &[Item<'a>]) -> HashMap<&'a [u8; 32], Option<EdwardsPoint>> {
    let mut out: HashMap<&'a [u8; 32], Option<EdwardsPoint>> = HashMap::new();
    {
        let cache = PREPARED.lock().unwrap_or_else(|e| e.into_inner());
        for it in items {
            if let Some(k) = cache.as_ref().and_then(|c| c.get(it.key)) {
                out.insert(it.key, *k);
            }
        }
    }
    let mut fresh = Vec::new();
    for it in items {
        if !out.contains_key(it.key) {
            let k = torsion_free_point(it.key);
            out.insert(it.key, k);
            fresh.push((*it.key, k));
        }
    }
    if !fresh.is_empty() {
        let mut cache = PREPARED.lock().unwrap_or_else(|e| e.into_inner());
        let cache = cache.get_or_insert_with(HashMap::new);
        if cache.len() + fresh.len() > PREPARED_MAX {
            cache.clear();
        }
        cache.extend(fresh.into_iter().take(PREPARED_MAX));
    }
    out
}

/// R and s when s < L and R is canonical and torsion-free.
fn batchable_signature(sig: &[u8; 64]) -> Option<(EdwardsPoint, Scalar)> {
    let r: [u8; 32] = std::array::from_fn(|i| sig[i]);
    let s: [u8; 32] = std::array::from_fn(|i| sig[32 + i]);
    let s = Option::<Scalar>::from(Scalar::from_canonical_bytes(s))?;
    let r = torsion_free_point(&r)?;
    Some((r, s))
}

/// p = 2^255 - 19, little-endian.
const P: [u8; 32] = {
    let mut p = [0xff; 32];
    p[0] = 0xed;
    p[31] = 0x7f;
    p
};

/// The point of a canonical encoding, when it is in the prime-order subgroup.
fn torsion_free_point(enc: &[u8; 32]) -> Option<EdwardsPoint> {
    if !canonical_encoding(enc) {
        return None;
    }
    CompressedEdwardsY(*enc)
        .decompress()
        .filter(|p| p.is_torsion_free())
}

/// y < p, and the sign bit clear where x = 0 (y = ±1): the only encodings that
/// re-encoding a decoded point gives back. Checked on the bytes, so no field inversion.
fn canonical_encoding(enc: &[u8; 32]) -> bool {
    let mut y = *enc;
    let sign = y[31] >> 7;
    y[31] &= 0x7f;
    // Little-endian comparison y < p, from the most significant byte.
    let below_p = y
        .iter()
        .rev()
        .zip(P.iter().rev())
        .find(|(a, b)| a != b)
        .is_some_and(|(a, b)| a < b);
    if !below_p {
        return false;
    }
    let one = {
        let mut o = [0u8; 32];
        o[0] = 1;
        o
    };
    let minus_one = {
        let mut m = P;
        m[0] -= 1;
        m
    };
    !(sign == 1 && (y == one || y == minus_one))
}

#[cfg(test)]
mod tests;
