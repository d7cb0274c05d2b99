//! Certificates indexed by subject name: the trust anchors, and the intermediates a path
//! may go through. Path building asks "who could have issued this?" once per step, so the
//! answer is a hash lookup on the issuer's canonical name ([`super::dn::key`]), never a
//! scan.

use super::dn;
use crate::pki::cert::Certificate;
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct Pool<'a> {
    certs: Vec<Certificate<'a>>,
    by_subject: HashMap<Vec<u8>, Vec<usize>>,
}

impl<'a> Pool<'a> {
    pub fn new() -> Pool<'a> {
        Pool::default()
    }

    /// Add a certificate; one already in the pool (same DER) is not added twice.
    pub fn add(&mut self, c: Certificate<'a>) {
        let key = dn::key(&c.subject);
        let same = self
            .by_subject
            .get(&key)
            .is_some_and(|ids| ids.iter().any(|&i| self.certs[i].raw == c.raw));
        if !same {
            self.by_subject
                .entry(key)
                .or_default()
                .push(self.certs.len());
            self.certs.push(c);
        }
    }

    pub fn len(&self) -> usize {
        self.certs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.certs.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Certificate<'a>> {
        self.certs.iter()
    }

    /// Whether `c` itself is in the pool.
    pub fn contains(&self, c: &Certificate<'_>) -> bool {
        self.by_subject
            .get(&dn::key(&c.subject))
            .is_some_and(|ids| ids.iter().any(|&i| self.certs[i].raw == c.raw))
    }

    /// The certificates whose subject is the name `issuer_key` (a [`dn::key`]).
    pub fn issuers_of(&self, issuer_key: &[u8]) -> impl Iterator<Item = &Certificate<'a>> {
        self.by_subject
            .get(issuer_key)
            .into_iter()
            .flatten()
            .map(|&i| &self.certs[i])
    }
}
