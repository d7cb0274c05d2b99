//! Replay nonces (RFC 8555 §6.5) that cost no write to hand out: a nonce is 8 random
//! bytes, the second it was made and a MAC over both with a key every server on the CA
//! shares (kept in the state), so any of them can tell one of theirs; using one records
//! it as spent, once (an insert that a second use collides with). A request thus writes
//! one row for its nonce instead of two, and the spent rows are bounded by the lifetime.

use crate::jose::{b64, unb64};
use hmac::{KeyInit, Mac};
use sha2::Sha256;

/// How long a nonce stays good (RFC 8555 §6.5 leaves it to the server).
pub(crate) const LIFETIME: i64 = 3600;

type HmacSha256 = hmac::Hmac<Sha256>;

fn mac(key: &[u8], body: &[u8]) -> [u8; 16] {
    // HMAC accepts a key of any length (RFC 2104 §2: a long one is hashed first), so
    // no key read from the state can make this fail.
    let mut m = HmacSha256::new_from_slice(key).expect("HMAC takes any key length");
    m.update(body);
    let full = m.finalize().into_bytes();
    let mut out = [0u8; 16];
    out.copy_from_slice(&full[..16]);
    out
}

/// A fresh nonce made at `now`.
pub(crate) fn make(key: &[u8], now: i64) -> std::io::Result<String> {
    let mut body = [0u8; 16];
    pkit_ca::random_bytes(&mut body[..8])?;
    body[8..].copy_from_slice(&now.to_be_bytes());
    let mut all = body.to_vec();
    all.extend_from_slice(&mac(key, &body));
    Ok(b64(&all))
}

/// When a nonce was made, if it is one of ours (its MAC holds) and still good at `now`.
pub(crate) fn made_at(key: &[u8], nonce: &str, now: i64) -> Option<i64> {
    let raw = unb64(nonce).filter(|r| r.len() == 32)?;
    let (body, tag) = raw.split_at(16);
    // Constant-time comparison of the tag.
    let want = mac(key, body);
    if want.iter().zip(tag).fold(0u8, |acc, (a, b)| acc | (a ^ b)) != 0 {
        return None;
    }
    let at = i64::from_be_bytes(body[8..].try_into().ok()?);
    (at <= now + 60 && now - at <= LIFETIME).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ours_fresh_and_untampered() {
        let key = [7u8; 32];
        let n = make(&key, 1000).unwrap();
        assert_eq!(made_at(&key, &n, 1000), Some(1000));
        assert_eq!(made_at(&key, &n, 1000 + LIFETIME + 1), None, "expired");
        assert_eq!(made_at(&[8u8; 32], &n, 1000), None, "another key's");
        let mut raw = unb64(&n).unwrap();
        raw[9] ^= 1;
        assert_eq!(made_at(&key, &b64(&raw), 1000), None, "tampered");
        assert_eq!(made_at(&key, "AAAA", 1000), None);
        assert_ne!(make(&key, 1000).unwrap(), n);
    }
}
