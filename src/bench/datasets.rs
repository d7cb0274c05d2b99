//! The parse document's datasets, made here: a CCADB-shaped hierarchy (≈ 900 roots and
//! ≈ 9,000 intermediates, four levels deep in the seed's proportions) whose subjects and
//! extension sets come from a template store (the system's roots), and the same
//! hierarchy with ML-DSA keys (the seed's "ML-DSA synthetic" set).
//!
//! Keys come from a small pool per algorithm — generating thousands of RSA-4096 keys
//! would take many minutes — so many certificates share a key, as cross-signed and
//! re-issued CAs do. Every certificate is signed by its parent's key with pkit's CA
//! library. A set is cached as one PEM file once made; a corrupt cache is made again.

use super::{BenchError, Result};
use crate::der::{oid_registry as oids, tag, Reader, Time, Writer};
use pkit_ca::issuer::{self_signed, Issuer, Request};
use pkit_ca::profile::Profile;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::{Backend, PrivateKey};
use pkit_x509::cert::Certificate;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The seed's CCADB hierarchy by depth: roots, then one to four levels of intermediates.
const CCADB_DEPTHS: [usize; 5] = [919, 6627, 2212, 137, 3];

/// The seed's total (9,898 certificates).
pub const CCADB_TOTAL: usize = 9898;

/// Bumped when what is generated changes, so an old cache is not read as a new one.
const FORMAT: u32 = 1;

/// Which generated set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Synthetic {
    /// ECDSA and RSA keys, like the CCADB's.
    Ccadb,
    /// ML-DSA-44/65/87 keys throughout.
    MlDsa,
}

impl Synthetic {
    /// The set's name, as tables show it.
    pub fn name(self) -> &'static str {
        match self {
            Synthetic::Ccadb => "ccadb",
            Synthetic::MlDsa => "mldsa",
        }
    }

    /// The key pool: (algorithm, how many keys).
    fn pool(self) -> &'static [(Algorithm, usize)] {
        match self {
            Synthetic::Ccadb => &[
                (Algorithm::EcdsaP256, 3),
                (Algorithm::EcdsaP384, 2),
                (Algorithm::Rsa2048, 2),
                (Algorithm::Rsa4096, 1),
            ],
            Synthetic::MlDsa => &[
                (Algorithm::MlDsa44, 1),
                (Algorithm::MlDsa65, 1),
                (Algorithm::MlDsa87, 1),
            ],
        }
    }
}

/// A dataset: its certificates, roots first, and how many of them are roots.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The set's name, as tables show it.
    pub name: String,
    /// Its certificates' DER, in order.
    pub certs: Vec<Vec<u8>>,
    /// How many of them are roots (they come first).
    pub roots: usize,
}

/// How many certificates of each depth a set of `total` has (the seed's proportions;
/// at least one root).
pub fn depth_counts(total: usize) -> Vec<usize> {
    let seed: usize = CCADB_DEPTHS.iter().sum();
    let mut counts: Vec<usize> = CCADB_DEPTHS.iter().map(|&c| c * total / seed).collect();
    counts[0] = counts[0].max(1);
    let made: usize = counts.iter().sum();
    counts[1] += total.saturating_sub(made);
    while counts.last() == Some(&0) && counts.len() > 1 {
        counts.pop();
    }
    counts
}

/// Where a set of `total` certificates is cached under `dir`.
pub fn cache_path(dir: &Path, kind: Synthetic, total: usize) -> PathBuf {
    dir.join(format!("{}-{total}-v{FORMAT}.pem", kind.name()))
}

/// The `kind` set of `total` certificates: read from `cache_dir` when it is there and
/// sound, else made from `template` (certificates whose subjects and extensions it
/// borrows) and cached. The flag says whether it was made now.
pub fn synthetic(
    backend: &Backend,
    kind: Synthetic,
    total: usize,
    template: &[Vec<u8>],
    cache_dir: &Path,
) -> Result<(Dataset, bool)> {
    let path = cache_path(cache_dir, kind, total);
    let counts = depth_counts(total);
    if let Some(certs) = read_cache(&path, total) {
        let roots = counts[0];
        return Ok((dataset(kind, certs, roots), false));
    }
    let certs = generate(backend, kind, &counts, template)?;
    write_cache(&path, &certs)?;
    Ok((dataset(kind, certs, counts[0]), true))
}

fn dataset(kind: Synthetic, certs: Vec<Vec<u8>>, roots: usize) -> Dataset {
    Dataset {
        name: match kind {
            Synthetic::Ccadb => "CCADB-shaped".into(),
            Synthetic::MlDsa => "ML-DSA synthetic".into(),
        },
        certs,
        roots,
    }
}

/// The cached set, if the file holds exactly `total` certificates that all parse.
fn read_cache(path: &Path, total: usize) -> Option<Vec<Vec<u8>>> {
    // `certificates_in` refuses a labelled certificate that does not parse.
    let certs: Vec<Vec<u8>> = pkit_verify::trust_store::certificates_in(path)
        .ok()?
        .into_iter()
        .map(|(_, der)| der)
        .collect();
    (certs.len() == total).then_some(certs)
}

fn write_cache(path: &Path, certs: &[Vec<u8>]) -> Result<()> {
    let io = |e: std::io::Error| BenchError::Io(format!("{}: {e}", path.display()));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    pkit_store::atomic_file::create(path, true, false, |w| {
        for c in certs {
            let block = pkit_x509::der::pem::encode("CERTIFICATE", c);
            w.write_all(block.as_bytes())?;
        }
        Ok(())
    })
    .map_err(io)
}

/// A subject of the template's, made unique by a serialNumber RDN appended to it.
fn subject(template: &[u8], n: usize) -> Vec<u8> {
    let rdns = Reader::new(template)
        .read_expect(tag::SEQUENCE)
        .map(|t| t.content.to_vec())
        .unwrap_or_default();
    let mut w = Writer::new();
    w.sequence(|w| {
        w.raw(&rdns);
        w.set(|w| {
            w.sequence(|w| {
                w.oid(&oids::AT_SERIAL_NUMBER);
                w.printable_string(&format!("{n}"));
            });
        });
    });
    w.finish()
}

/// The template certificate's extensions (OID content, whole TLV), for an issued
/// certificate to carry; the CA library skips those it sets itself.
fn extensions(template: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    Certificate::from_der(template)
        .ok()
        .and_then(|c| c.extensions)
        .and_then(|x| x.raw_elements().ok())
        .unwrap_or_default()
}

/// Where generated sets are cached: `$XDG_CACHE_HOME/pkit/bench`, else
/// `~/.cache/pkit/bench`, else the temp directory.
pub fn default_cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("pkit").join("bench")
}

fn generate(
    backend: &Backend,
    kind: Synthetic,
    counts: &[usize],
    template: &[Vec<u8>],
) -> Result<Vec<Vec<u8>>> {
    if template.is_empty() {
        return Err(BenchError::Parse(
            "no template certificates to take subjects and extensions from".into(),
        ));
    }
    let mut pool: Vec<Arc<dyn PrivateKey>> = Vec::new();
    for &(alg, n) in kind.pool() {
        for key in backend.generate_many(alg, n)? {
            pool.push(Arc::from(key));
        }
    }
    let key_of = |n: usize| pool[n % pool.len()].clone();
    let subjects: Vec<Vec<u8>> = template
        .iter()
        .filter_map(|d| {
            Certificate::from_der(d)
                .ok()
                .map(|c| c.subject.raw.to_vec())
        })
        .collect();
    // A fixed start, so a cached set and a fresh one look alike; long enough to outlast
    // any run.
    let start = Time {
        unix: 1_767_225_600,
    }; // 2026-01-01
    let year = 365 * 86_400;
    let mut all: Vec<Vec<u8>> = Vec::with_capacity(counts.iter().sum());
    let roots: Vec<Vec<u8>> = (0..counts[0])
        .into_par_iter()
        .map(|n| {
            let key = key_of(n);
            let subj = subject(&subjects[n % subjects.len()], n);
            Ok(self_signed(
                key.as_ref(),
                &subj,
                start,
                start.plus_seconds(25 * year),
                None,
            )?)
        })
        .collect::<Result<_>>()?;
    all.extend(roots);
    let mut previous = 0..counts[0];
    for (depth, &count) in counts.iter().enumerate().skip(1) {
        let base = all.len();
        let parents: Vec<Issuer> = previous
            .clone()
            .map(|i| Issuer::new(all[i].clone(), Box::new(key_of(i))))
            .collect::<std::result::Result<_, _>>()?;
        let level: Vec<Vec<u8>> = (0..count)
            .into_par_iter()
            .map(|k| {
                let n = base + k;
                let parent = &parents[k % parents.len()];
                let key = key_of(n);
                let t = n % template.len();
                let req = Request {
                    key_alg: Some(key.algorithm()),
                    copied: extensions(&template[t]),
                    // The levels' validities nest by construction; clipping keeps a
                    // template's odd dates from stopping a dataset.
                    clip: true,
                    ..Request::new(
                        subject(&subjects[n % subjects.len()], n),
                        key.public_key_der()?,
                        Profile::Ca,
                        start,
                        start.plus_seconds((25 - 2 * depth as i64) * year),
                    )
                };
                let mut signer = parent.key.signer()?;
                Ok(parent.issue(signer.as_mut(), &req)?.der)
            })
            .collect::<Result<_>>()?;
        all.extend(level);
        previous = base..all.len();
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkit_openssl as openssl;

    #[test]
    fn depths_follow_the_seed_and_sum_to_the_total() {
        assert_eq!(depth_counts(CCADB_TOTAL), CCADB_DEPTHS.to_vec());
        for total in [1, 10, 100, 1000] {
            let c = depth_counts(total);
            assert_eq!(c.iter().sum::<usize>(), total, "{c:?}");
            assert!(c[0] >= 1);
        }
    }

    #[test]
    fn a_small_set_chains_and_is_cached() {
        let template = vec![self_signed(
            openssl::backend()
                .generate(Algorithm::EcdsaP256)
                .unwrap()
                .as_ref(),
            &pkit_x509::subject::parse_subject("CN=Template,O=pkit").unwrap(),
            Time {
                unix: 1_767_225_600,
            },
            Time {
                unix: 1_800_000_000,
            },
            None,
        )
        .unwrap()];
        let dir = tempfile::tempdir().unwrap();
        let make = || {
            synthetic(
                openssl::backend(),
                Synthetic::Ccadb,
                60,
                &template,
                dir.path(),
            )
            .unwrap()
        };
        let (set, made) = make();
        assert!(made);
        assert_eq!(set.certs.len(), 60);
        let by_subject: std::collections::HashMap<&[u8], &[u8]> = set
            .certs
            .iter()
            .map(|d| {
                let c = Certificate::from_der(d).unwrap();
                (c.subject.raw, d.as_slice())
            })
            .collect();
        assert_eq!(by_subject.len(), 60, "subjects are unique");
        // Every intermediate's issuer is in the set, and its key signed it.
        for d in &set.certs[set.roots..] {
            let c = Certificate::from_der(d).unwrap();
            let parent = Certificate::from_der(by_subject[c.issuer.raw]).unwrap();
            assert!(pkit_x509::signed::verify_signed(
                openssl::backend(),
                parent.spki.raw,
                &c.signature_algorithm,
                c.tbs_raw,
                c.signature.bytes
            )
            .unwrap());
        }
        let (again, made) = make();
        assert!(!made, "read from the cache");
        assert_eq!(again.certs, set.certs);
        // A damaged cache is made again.
        std::fs::write(cache_path(dir.path(), Synthetic::Ccadb, 60), b"junk").unwrap();
        let (_, made) = make();
        assert!(made);
    }
}
