//! `pkit mtc add`'s pipeline: requests turned into log entries (the TBSCertificateLogEntry
//! of draft-07 §5.3 under the CA's name, its MerkleTreeCertEntry and leaf hash), a
//! manifest of JSON lines converted in parallel before anything is stored, and the
//! entries appended in chunks with the store told a bulk load is coming. The command line
//! and `pkit bench mtc` call these functions.

use super::entry::{encode_entry, encode_tbs_entry, leaf_extensions, TbsEntryInput};
use super::hash::leaf_hash;
use super::store::{LogStore, NewEntry};
use crate::der::Time;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;
use pkit_x509::csr::Requested;
use pkit_x509::manifest::{nonblank_lines, ManifestError, ManifestLine};
use rayon::prelude::*;

/// Entries appended per store call (and so per transaction): large enough that the
/// per-call cost vanishes, small enough that memory for one call stays modest.
pub const CHUNK: usize = 10_000;

/// What one entry asserts: its subject and key, its SANs, extensions copied from a CSR,
/// and how many days it stands.
#[derive(Debug, Clone)]
pub struct EntryRequest {
    /// The subject Name's DER (`30 00` when empty).
    pub subject: Vec<u8>,
    /// The SubjectPublicKeyInfo's DER.
    pub spki: Vec<u8>,
    /// Each SAN as a GeneralName TLV.
    pub sans: Vec<Vec<u8>>,
    /// Extensions copied whole (from a CSR's extensionRequest), concatenated.
    pub copied: Vec<u8>,
    /// How many days the entry stands from its notBefore.
    pub days: u32,
}

impl EntryRequest {
    /// What a CSR asks for (its proof of possession checked, [`Requested`]): its key and
    /// its subject (unless `subject` replaces it), the SANs given, and the extensions it
    /// requests copied whole, as `pkit mtc add --csr` takes them.
    pub fn from_csr(
        csr: Requested,
        subject: Option<Vec<u8>>,
        sans: Vec<Vec<u8>>,
        days: u32,
    ) -> EntryRequest {
        EntryRequest {
            subject: subject.unwrap_or(csr.subject),
            spki: csr.spki,
            sans,
            copied: csr
                .extensions
                .into_iter()
                .flat_map(|(_, raw)| raw)
                .collect(),
            days,
        }
    }

    /// An entry for the key `spki` (a fresh one, as `pkit mtc add --key-out` makes), with
    /// `subject` and `sans` and nothing copied.
    pub fn for_key(subject: Vec<u8>, spki: Vec<u8>, sans: Vec<Vec<u8>>, days: u32) -> EntryRequest {
        EntryRequest {
            subject,
            spki,
            sans,
            copied: Vec::new(),
            days,
        }
    }

    /// An entry names someone: a subject, or at least one SAN.
    pub fn names_someone(&self) -> bool {
        self.subject != [0x30, 0x00] || !self.sans.is_empty()
    }
}

/// The log entry for `r`, issued by `issuer` (the CA's Name DER) at `now`, valid for
/// `r.days` days.
pub fn new_entry(issuer: &[u8], now: Time, r: &EntryRequest) -> super::Result<NewEntry> {
    entry_valid(
        issuer,
        (now, now.plus_seconds(i64::from(r.days) * 86_400)),
        r,
    )
}

/// The log entry for `r`, valid from `validity.0` to `validity.1` (`r.days` unread): an
/// ACME order may name its own window.
pub fn entry_valid(
    issuer: &[u8],
    validity: (Time, Time),
    r: &EntryRequest,
) -> super::Result<NewEntry> {
    let ext = leaf_extensions(&r.sans, r.subject == [0x30, 0x00], &r.copied);
    let tbs = encode_tbs_entry(&TbsEntryInput {
        issuer,
        not_before: validity.0,
        not_after: validity.1,
        subject: &r.subject,
        spki: &r.spki,
        extensions: &ext,
    })?;
    let entry = encode_entry(&[], &tbs)?;
    Ok(NewEntry {
        leaf: leaf_hash(&entry),
        entry,
        spki: r.spki.clone(),
    })
}

/// What a manifest line may leave out.
#[derive(Clone, Copy)]
pub struct ManifestDefaults<'a> {
    /// The validity, in days, of a line without `days`.
    pub days: u32,
    /// The algorithm of the fresh key made for a line without `spki`.
    pub alg: Algorithm,
    /// What makes those keys.
    pub backend: &'a Backend,
}

/// A manifest line as a request; a line without `spki` gets a fresh key's.
fn manifest_request(l: ManifestLine, d: &ManifestDefaults<'_>) -> Result<EntryRequest, String> {
    let spki = match l.spki {
        Some(spki) => spki,
        None => d
            .backend
            .generate(l.alg.unwrap_or(d.alg))
            .and_then(|k| k.public_key_der())
            .map_err(|e| e.to_string())?,
    };
    Ok(EntryRequest {
        subject: l.subject,
        spki,
        sans: l.sans,
        copied: Vec::new(),
        days: l.days.unwrap_or(d.days),
    })
}

/// Every line of a manifest (read by [`pkit_x509::manifest`]) turned into an entry, in
/// parallel, before anything is stored: one bad line and there are none. `done` is
/// called once per entry made (a progress bar).
pub fn manifest_entries(
    text: &str,
    defaults: &ManifestDefaults<'_>,
    issuer: &[u8],
    now: Time,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<NewEntry>, ManifestError> {
    let lines: Vec<(usize, usize, &str)> = nonblank_lines(text).collect();
    lines
        .par_iter()
        .map(|&(line, offset, text)| {
            let at = |message: String| ManifestError {
                line,
                offset,
                message,
            };
            let req = manifest_request(ManifestLine::parse_at(text, line, offset)?, defaults)
                .map_err(at)?;
            let e = new_entry(issuer, now, &req).map_err(|e| at(e.to_string()))?;
            done();
            Ok(e)
        })
        .collect()
}

/// Append `entries` to the log in chunks of [`CHUNK`], the store told first that a bulk
/// load is coming; the index of the first (the log's size when there are none).
pub fn append_bulk(store: &mut dyn LogStore, entries: &[NewEntry]) -> super::Result<u64> {
    if entries.is_empty() {
        return Ok(store.size());
    }
    store.prepare_bulk_append()?;
    let mut first = None;
    for chunk in entries.chunks(CHUNK) {
        let i = store.append_entries(chunk)?;
        first.get_or_insert(i);
    }
    Ok(first.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csr_gives_its_key_subject_and_extensions() {
        let csr = Requested {
            subject: vec![0x30, 0x03, 0x31, 0x01, 0x00],
            spki: vec![0x30, 0x01, 0x02],
            extensions: vec![
                (vec![0x55], vec![0x30, 0x01]),
                (vec![0x56], vec![0x30, 0x02]),
            ],
        };
        let san = vec![0x82, 0x01, b'a'];
        let r = EntryRequest::from_csr(csr.clone(), None, vec![san.clone()], 7);
        assert_eq!((&r.subject, &r.spki), (&csr.subject, &csr.spki));
        // Each requested extension copied whole, in order.
        assert_eq!(r.copied, [0x30, 0x01, 0x30, 0x02]);
        assert_eq!((r.sans, r.days), (vec![san], 7));
        // A subject given replaces the CSR's.
        let r = EntryRequest::from_csr(csr, Some(vec![0x30, 0x00]), Vec::new(), 7);
        assert_eq!(r.subject, [0x30, 0x00]);
        assert!(!r.names_someone());

        let r = EntryRequest::for_key(vec![0x30, 0x00], vec![1], Vec::new(), 3);
        assert!(r.copied.is_empty() && !r.names_someone());
    }
}
