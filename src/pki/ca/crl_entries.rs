//! A CRL's revokedCertificates, kept encoded between CRLs: [`RevokedList`] holds every
//! entry's DER in one buffer, in ascending serial order, with where each starts. A CRL
//! publisher builds it once from the CA's records and then merges in only the
//! revocations recorded since ([`RevokedList::merge`]): a revocation among a million
//! entries costs a copy of the buffer, not a walk of the records and an encoding of every
//! entry again (docs/perf.md).
//!
//! ```asn1
//! revokedCertificates     SEQUENCE OF SEQUENCE  {
//!      userCertificate         CertificateSerialNumber,
//!      revocationDate          Time,
//!      crlEntryExtensions      Extensions OPTIONAL }
//! ```

use crate::der::{oid_registry as oids, Reader, Time, Writer};
use crate::store::Revoked;
use pkit_x509::ext::write::ext;
use std::cmp::Ordering;

/// RFC 5280 §5.3.1 `unspecified`: "SHOULD be absent" rather than encoded.
const REASON_UNSPECIFIED: u8 = 0;

/// Bytes an average entry takes (20-byte serial, UTCTime, reasonCode): sizes buffers.
pub const ENTRY_BYTES_HINT: usize = 56;

/// The entries of one CRL, encoded, in ascending serial order.
#[derive(Debug, Clone)]
pub struct RevokedList {
    /// The entries' DER, one after another: revokedCertificates' content.
    body: Writer,
    /// Where each entry starts in `body`.
    starts: Vec<usize>,
    /// Whether every entry pushed came after the one before (the records' walk order);
    /// only then can [`RevokedList::merge`] find where a new one goes.
    sorted: bool,
}

impl Default for RevokedList {
    fn default() -> Self {
        RevokedList::with_capacity(0)
    }
}

/// One entry's encoding.
fn write_entry(w: &mut Writer, serial: &[u8], revoked_at: Time, reason: Option<u8>) {
    w.sequence(|w| {
        w.integer_unsigned(serial);
        w.time(revoked_at);
        if let Some(code) = reason.filter(|c| *c != REASON_UNSPECIFIED) {
            w.sequence(|w| {
                ext(w, &oids::CE_CRL_REASON, false, |w| {
                    w.enumerated(code);
                });
            });
        }
    });
}

/// The serial number's content octets of an entry written by [`write_entry`]: the
/// key entries are ordered by (the records order serials by these octets, bytewise).
/// Entries are only ever ones this list wrote, so they always read; an empty key is
/// never reached.
fn serial_of(entry: &[u8]) -> &[u8] {
    Reader::new(entry)
        .read_sequence()
        .and_then(|mut e| e.read_integer())
        .unwrap_or_default()
}

/// The content octets `serial` is encoded with ([`Writer::integer_unsigned`]): what
/// entries are ordered and matched by.
fn encoded_serial(serial: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(serial.len() + 3);
    w.integer_unsigned(serial);
    let der = w.finish();
    // A serial's INTEGER is under 128 octets: a one-octet length.
    der[2..].to_vec()
}

impl RevokedList {
    /// An empty list, sized for `expected` entries.
    pub fn with_capacity(expected: usize) -> Self {
        RevokedList {
            body: Writer::with_capacity(expected * ENTRY_BYTES_HINT),
            starts: Vec::with_capacity(expected),
            sorted: true,
        }
    }

    /// Append one revoked certificate; `serial` is the magnitude of the serial number.
    /// Entries come in ascending serial order (as the records walk them).
    pub fn push(&mut self, serial: &[u8], revoked_at: Time, reason: Option<u8>) {
        let at = self.body.len();
        write_entry(&mut self.body, serial, revoked_at, reason);
        if let Some(&prev) = self.starts.last() {
            let b = self.body.as_bytes();
            if serial_of(&b[prev..at]).cmp(serial_of(&b[at..])) != Ordering::Less {
                self.sorted = false;
            }
        }
        self.starts.push(at);
    }

    /// Append a record.
    pub fn push_revoked(&mut self, r: &Revoked) {
        self.push(&r.serial, Time { unix: r.revoked_at }, r.reason);
    }

    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// revokedCertificates' content: every entry's DER.
    pub fn body(&self) -> &[u8] {
        self.body.as_bytes()
    }

    fn entry(&self, i: usize) -> &[u8] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.body.len());
        &self.body()[self.starts[i]..end]
    }

    /// The first entry at or after `from` whose serial does not order before `key`.
    fn lower_bound(&self, from: usize, key: &[u8]) -> usize {
        let (mut lo, mut hi) = (from, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if serial_of(self.entry(mid)) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Merge in `new` revocations recorded since the list was made: each goes where its
    /// serial orders it, or replaces the entry of the same serial (a certificateHold a
    /// final reason replaced, or one the list already had). False, and nothing changed,
    /// when the list is not in serial order (entries pushed out of order): the caller
    /// builds it again from the records instead.
    pub fn merge(&mut self, new: &[Revoked]) -> bool {
        if !self.sorted {
            return false;
        }
        if new.is_empty() {
            return true;
        }
        let mut adds: Vec<(Vec<u8>, &Revoked)> =
            new.iter().map(|r| (encoded_serial(&r.serial), r)).collect();
        adds.sort_by(|a, b| a.0.cmp(&b.0));
        // The last record of a serial wins (the newest revocation of it).
        adds.dedup_by(|later, earlier| {
            if later.0 == earlier.0 {
                std::mem::swap(later, earlier);
                true
            } else {
                false
            }
        });
        let mut w = Writer::with_capacity(self.body.len() + adds.len() * ENTRY_BYTES_HINT);
        let mut starts = Vec::with_capacity(self.starts.len() + adds.len());
        // The next old entry not yet copied.
        let mut next = 0;
        for (key, r) in &adds {
            let at = self.lower_bound(next, key);
            self.copy_entries(next..at, &mut w, &mut starts);
            starts.push(w.len());
            write_entry(&mut w, &r.serial, Time { unix: r.revoked_at }, r.reason);
            next = at;
            if next < self.len() && serial_of(self.entry(next)) == key.as_slice() {
                next += 1;
            }
        }
        self.copy_entries(next..self.len(), &mut w, &mut starts);
        self.body = w;
        self.starts = starts;
        true
    }

    /// Copy old entries `range` to `w`, noting where each now starts.
    fn copy_entries(&self, range: std::ops::Range<usize>, w: &mut Writer, starts: &mut Vec<usize>) {
        if range.is_empty() {
            return;
        }
        let from = self.starts[range.start];
        let to = self
            .starts
            .get(range.end)
            .copied()
            .unwrap_or(self.body.len());
        let shift = w.len() as isize - from as isize;
        starts.extend(
            self.starts[range]
                .iter()
                .map(|&s| (s as isize + shift) as usize),
        );
        w.raw(&self.body()[from..to]);
    }
}

#[cfg(test)]
mod tests;
