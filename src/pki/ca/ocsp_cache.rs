//! Pre-signed OCSP responses kept per CertID, so a responder signs once per certificate
//! and lifetime instead of once per request (RFC 5019 §6 expects responders to serve
//! such responses).
//!
//! An entry is served only while (a) the status the store reports now is the status it
//! was signed with — the caller looks the status up on every request, a cheap indexed
//! query, so a revocation is visible at once — and (b) less than half of its
//! thisUpdate..nextUpdate window has passed, so a client always receives at least half a
//! lifetime of validity. Requests carrying a nonce cannot be served from here: the nonce
//! is inside the signed data.
//!
//! One cache serves every thread of a responder (behind a mutex held for a look-up or an
//! insert, never while signing), so a certificate's response is signed once, not once
//! per thread.

use super::store::CertStatus;
use crate::der::Time;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

struct Entry {
    status: CertStatus,
    response: Cached,
    /// After this time the entry is re-signed.
    refresh_at: Time,
}

/// A response kept, and the thisUpdate and nextUpdate it was signed with (what an HTTP
/// cache in front of the responder is told, without reading the response again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    /// The OCSPResponse DER.
    pub der: Vec<u8>,
    /// Its thisUpdate.
    pub this_update: Time,
    /// Its nextUpdate.
    pub next_update: Time,
}

/// Responses by the CertID DER they answer.
pub struct ResponseCache {
    entries: Mutex<HashMap<Vec<u8>, Entry>>,
    capacity: usize,
}

impl ResponseCache {
    /// A cache of at most `capacity` responses; when full it starts over, which bounds
    /// memory against clients asking about endless made-up serials.
    pub fn new(capacity: usize) -> ResponseCache {
        ResponseCache {
            entries: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    /// The map, or `None` if a thread panicked while holding it (then the cache is left
    /// alone: answers are signed afresh).
    fn entries(&self) -> Option<MutexGuard<'_, HashMap<Vec<u8>, Entry>>> {
        self.entries.lock().ok()
    }

    /// A copy of the cached response for `cert_id` if it was signed for `status` and is
    /// not due for refresh at `now`.
    pub fn get(&self, cert_id: &[u8], status: &CertStatus, now: Time) -> Option<Cached> {
        self.entries()?
            .get(cert_id)
            .filter(|e| e.status == *status && now < e.refresh_at)
            .map(|e| e.response.clone())
    }

    /// Keep `der`, signed at `this_update` for `status`, valid until `next_update`.
    pub fn put(
        &self,
        cert_id: &[u8],
        status: CertStatus,
        der: Vec<u8>,
        this_update: Time,
        next_update: Time,
    ) {
        let Some(mut entries) = self.entries() else {
            return;
        };
        if entries.len() >= self.capacity && !entries.contains_key(cert_id) {
            entries.clear();
        }
        let half = (next_update.unix - this_update.unix) / 2;
        entries.insert(
            cert_id.to_vec(),
            Entry {
                status,
                response: Cached {
                    der,
                    this_update,
                    next_update,
                },
                refresh_at: this_update.plus_seconds(half),
            },
        );
    }

    /// How many responses the cache holds.
    pub fn len(&self) -> usize {
        self.entries().map_or(0, |e| e.len())
    }

    /// Whether the cache holds no response.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Revoked;

    #[test]
    fn serves_until_status_changes_or_half_life() {
        let c = ResponseCache::new(2);
        let t0 = Time { unix: 1_000 };
        c.put(b"id1", CertStatus::Good, vec![1], t0, t0.plus_seconds(3600));
        assert_eq!(
            c.get(b"id1", &CertStatus::Good, t0).map(|c| c.der),
            Some(vec![1u8])
        );
        assert_eq!(
            c.get(b"id1", &CertStatus::Good, t0.plus_seconds(1799))
                .map(|c| c.der),
            Some(vec![1u8])
        );
        assert_eq!(
            c.get(b"id1", &CertStatus::Good, t0.plus_seconds(1800))
                .map(|c| c.der),
            None
        );
        let revoked = CertStatus::Revoked(Revoked {
            serial: vec![1],
            revoked_at: 5,
            reason: Some(1),
            not_after: 9,
        });
        assert_eq!(c.get(b"id1", &revoked, t0).map(|c| c.der), None);
        assert_eq!(c.get(b"id2", &CertStatus::Good, t0).map(|c| c.der), None);
        c.put(
            b"id2",
            CertStatus::Unknown,
            vec![2],
            t0,
            t0.plus_seconds(60),
        );
        assert_eq!(c.len(), 2);
        c.put(b"id3", CertStatus::Good, vec![3], t0, t0.plus_seconds(60));
        assert_eq!(c.len(), 1);
    }
}
