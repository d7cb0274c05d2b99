//! Certificates indexed by subject name: the trust anchors, and the intermediates a path
//! may go through. Path building asks "who could have issued this?" once per step, so the
//! answer is a hash lookup on the name's canonical form (`dn::key`), which is
//! computed only when no pool holds a subject with the name's exact bytes.

use super::dn;
use pkit_x509::cert::Certificate;
use pkit_x509::name::Name;
use std::collections::{HashMap, HashSet};

/// Certificates with one subject compared one by one before a set of their DERs is kept.
const SCAN: usize = 16;

#[derive(Debug, Default)]
/// Certificates indexed by subject name (compared as `dn::key` compares them):
/// the trust anchors, or the intermediates on offer.
pub struct Pool<'a> {
    certs: Vec<Certificate<'a>>,
    /// Each certificate's canonical subject.
    keys: Vec<Vec<u8>>,
    by_key: HashMap<Vec<u8>, Vec<usize>>,
    by_raw: HashMap<&'a [u8], Vec<usize>>,
    /// The DER of each certificate whose subject more than [`SCAN`] others share, for
    /// telling whether one is in the pool in one look-up there: a scan of those with its
    /// subject made a pool of many under one name quadratic. Below that the scan is
    /// cheaper than hashing a whole certificate (a quarter of building a root index).
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
        if self.contains(&c) {
            return;
        }
        let key = dn::key(&c.subject);
        let i = self.certs.len();
        self.by_key.entry(key.clone()).or_default().push(i);
        let same = self.by_raw.entry(c.subject.raw).or_default();
        same.push(i);
        // The group outgrows its scan: every DER of it into the set, then each new one.
        let n = same.len();
        if n == SCAN + 1 {
            let group = same.clone();
            for j in group {
                let der = if j == i { c.raw } else { self.certs[j].raw };
                self.ders.insert(der);
            }
        } else if n > SCAN + 1 {
            self.ders.insert(c.raw);
        }
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

    /// Whether `c` itself (the same DER) is in the pool: the certificates with its
    /// subject's bytes, scanned while they are few, else the set of their DERs.
    pub fn contains(&self, c: &Certificate<'_>) -> bool {
        match self.by_raw.get(c.subject.raw) {
            None => false,
            Some(same) if same.len() <= SCAN => same.iter().any(|&i| self.certs[i].raw == c.raw),
            Some(_) => self.ders.contains(c.raw),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::oid_registry as oids;
    use crate::testcert::{cert, dns, san, utf8_name};

    /// Forty certificates under one subject (past the scan, into the set of DERs): each
    /// kept once however often it is added, and one not added is not found.
    #[test]
    fn many_under_one_subject_are_each_kept_once() {
        let subject = utf8_name(&[(oids::AT_COMMON_NAME, "Same")]);
        let ders: Vec<Vec<u8>> = (0..40)
            .map(|i| cert(&subject, &[san(&[dns(&format!("h{i}.example"))])]))
            .collect();
        let certs: Vec<Certificate> = ders
            .iter()
            .map(|d| Certificate::from_der(d).unwrap())
            .collect();
        let mut pool = Pool::new();
        for round in 0..2 {
            for c in &certs {
                pool.add(*c);
            }
            assert_eq!(pool.len(), 40, "round {round}");
        }
        assert!(certs.iter().all(|c| pool.contains(c)));
        let other = cert(&subject, &[san(&[dns("other.example")])]);
        assert!(!pool.contains(&Certificate::from_der(&other).unwrap()));
    }
}
