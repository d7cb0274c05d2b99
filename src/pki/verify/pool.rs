//! Certificates indexed by subject name: the trust anchors, and the intermediates a path
//! may go through. Path building asks "who could have issued this?" once per step, so the
//! answer is a hash lookup on the name's canonical form (`dn::key`), which is
//! computed only when no pool holds a subject with the name's exact bytes.

use super::dn;
use pkit_x509::cert::Certificate;
use pkit_x509::name::Name;
use std::collections::{HashMap, HashSet};

#[derive(Debug, Default)]
/// Certificates indexed by subject name (compared as `dn::key` compares them):
/// the trust anchors, or the intermediates on offer.
pub struct Pool<'a> {
    certs: Vec<Certificate<'a>>,
    /// Each certificate's canonical subject.
    keys: Vec<Vec<u8>>,
    by_key: HashMap<Vec<u8>, Vec<usize>>,
    by_raw: HashMap<&'a [u8], Vec<usize>>,
    /// Each certificate's DER: whether one is in the pool, in one look-up (a scan of the
    /// certificates with its subject made a pool of many under one name quadratic).
    ders: HashSet<&'a [u8]>,
    /// Where each certificate's DER lives: these certificates outlive a run, so their
    /// addresses name them (for caches).
    addresses: HashSet<usize>,
}

impl<'a> Pool<'a> {
    /// An empty pool.
    pub fn new() -> Pool<'a> {
        Pool::default()
    }

    /// Add a certificate; one already in the pool (same DER) is not added twice.
    pub fn add(&mut self, c: Certificate<'a>) {
        if !self.ders.insert(c.raw) {
            return;
        }
        let key = dn::key(&c.subject);
        let i = self.certs.len();
        self.by_key.entry(key.clone()).or_default().push(i);
        self.by_raw.entry(c.subject.raw).or_default().push(i);
        self.addresses.insert(c.raw.as_ptr() as usize);
        self.keys.push(key);
        self.certs.push(c);
    }

    /// How many certificates the pool holds.
    pub fn len(&self) -> usize {
        self.certs.len()
    }

    /// Whether the pool holds no certificate.
    pub fn is_empty(&self) -> bool {
        self.certs.is_empty()
    }

    /// The certificates, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = &Certificate<'a>> {
        self.certs.iter()
    }

    /// Whether `c` itself (the same DER) is in the pool: none is unless one has its
    /// subject's bytes (a look-up of a short key), and then the DER's own look-up.
    pub fn contains(&self, c: &Certificate<'_>) -> bool {
        self.by_raw.contains_key(c.subject.raw) && self.ders.contains(c.raw)
    }

    /// Whether `c` is this pool's own copy (not only an equal certificate elsewhere).
    pub fn owns(&self, c: &Certificate<'_>) -> bool {
        self.addresses.contains(&(c.raw.as_ptr() as usize)) && self.contains(c)
    }

    /// The canonical form of `name` when a certificate of this pool has exactly these
    /// subject bytes: known without computing it.
    pub(crate) fn known_key(&self, name: &Name<'_>) -> Option<&[u8]> {
        let &i = self.by_raw.get(name.raw)?.first()?;
        Some(&self.keys[i])
    }

    /// The certificates whose canonical subject is `key` (a `dn::key`).
    pub(crate) fn with_subject_key(&self, key: &[u8]) -> impl Iterator<Item = &Certificate<'a>> {
        self.by_key
            .get(key)
            .into_iter()
            .flatten()
            .map(|&i| &self.certs[i])
    }
}
