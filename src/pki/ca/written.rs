//! What a CA's certificates still in force point to beyond what its ca.json names now:
//! URLs from before ca.json changed, or from a template's own pointers. A server that
//! answers only ca.json's URLs would leave these unanswered, so `pkit ca serve` reads
//! them from the records at start and answers them too. A certificate whose CRL URL is a
//! shard's is refused when no served CRL would be right for it: another shard's than its
//! serial's (the shard count changed after it was issued), or its own shard's at another
//! host (the shard's CRL names ca.json's URL in its issuingDistributionPoint, which a
//! relying party matches against the certificate's, RFC 5280 §6.3.3).

use crate::der::hex;
use crate::pointers::{in_certificate, shard_of, shard_url, url_path, Pointers};
use crate::store::{CaStore, StoreError};
use pkit_x509::cert::Certificate;
use std::collections::HashMap;

/// What one configuration's certificates point to, decoded once: its OCSP and caIssuers
/// URLs that `Listed` does not name (a verdict that holds for every certificate), and
/// each CRL URL with its path (whose verdict may turn on the serial's shard).
#[derive(Default)]
struct Decoded {
    /// (kind: 0 OCSP, 1 caIssuers; path; URL), for those not listed.
    unlisted: Vec<(u8, String, String)>,
    /// (path, URL) of each CRL URL.
    crl: Vec<(String, String)>,
}

/// Per distinct (authorityInfoAccess, cRLDistributionPoints) extension bytes, each
/// length-prefixed into one key: certificates issued under one configuration share
/// them, so each is decoded once and a hit costs no allocation.
type Seen = HashMap<Vec<u8>, Decoded>;

/// Per kind (0 OCSP, 1 caIssuers, 2 CRL), per path: the first URL seen with that path,
/// the serial of a certificate carrying it, and how many do.
type Found = [HashMap<String, (String, Vec<u8>, u64)>; 3];

/// The paths ca.json's pointers are served at (a server routes by path, whatever the
/// host): OCSP prefixes without their trailing `/`, caIssuers paths, the CRL's paths
/// and, when sharded, each shard's.
struct Listed {
    ocsp: Vec<String>,
    ca_issuers: Vec<String>,
    crl: Vec<String>,
    /// Per shard, its (path, URL) pairs, one per CRL URL: a shard's CRL names the URLs
    /// in its issuingDistributionPoint, so for a shard the host matters too.
    shards: Vec<Vec<(String, String)>>,
}

fn ocsp_prefix(url: &str) -> String {
    url_path(url).trim_end_matches('/').to_string()
}

impl Listed {
    fn new(p: &Pointers, crl_shards: u32) -> Listed {
        let shards = if crl_shards > 1 { crl_shards } else { 0 };
        Listed {
            ocsp: p.ocsp.iter().map(|u| ocsp_prefix(u)).collect(),
            ca_issuers: p.ca_issuers.iter().map(|u| url_path(u)).collect(),
            crl: p.crl.iter().map(|u| url_path(u)).collect(),
            shards: (0..shards)
                .map(|k| {
                    p.crl
                        .iter()
                        .map(|u| {
                            let url = shard_url(u, k);
                            (url_path(&url), url)
                        })
                        .collect()
                })
                .collect(),
        }
    }
}

/// URLs certificates point to at paths ca.json's URLs are not served at, one per path,
/// with the serial (big-endian) of a certificate carrying it and how many do.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Unlisted {
    /// OCSP URLs.
    pub ocsp: Vec<(String, Vec<u8>, u64)>,
    /// caIssuers URLs.
    pub ca_issuers: Vec<(String, Vec<u8>, u64)>,
    /// CRL URLs that are neither the CA's CRL nor the certificate's own shard's.
    pub crl: Vec<(String, Vec<u8>, u64)>,
    /// How many stored certificates did not parse (what they point to is unknown).
    pub unreadable: u64,
    /// The first unreadable certificate's serial and why it did not parse.
    pub first_unreadable: Option<(Vec<u8>, String)>,
}

impl Unlisted {
    /// Nothing beyond ca.json.
    pub fn is_empty(&self) -> bool {
        self.ocsp.is_empty() && self.ca_issuers.is_empty() && self.crl.is_empty()
    }

    /// The URLs alone, as [`Pointers`].
    pub fn pointers(&self) -> Pointers {
        let urls = |l: &[(String, Vec<u8>, u64)]| l.iter().map(|(u, _, _)| u.clone()).collect();
        Pointers {
            ocsp: urls(&self.ocsp),
            ca_issuers: urls(&self.ca_issuers),
            crl: urls(&self.crl),
        }
    }
}

/// Why the certificates' pointers could not be read or cannot be answered.
#[derive(Debug)]
pub enum WrittenError {
    /// The records could not be read.
    Store(StoreError),
    /// A certificate's CRL URL is a shard other than its serial's.
    OtherShard {
        /// Its serial, big-endian.
        serial: Vec<u8>,
        /// The URL it carries.
        url: String,
        /// The URL of its serial's shard under the CA's `crl_shards` now.
        expected: String,
    },
    /// A certificate's CRL URL is its own shard's path at another host or scheme than
    /// ca.json's: the shard's CRL, served at that path, names ca.json's URL.
    ShardElsewhere {
        /// Its serial, big-endian.
        serial: Vec<u8>,
        /// The URL it carries.
        url: String,
        /// The URL the shard's CRL names in its issuingDistributionPoint.
        expected: String,
    },
}

impl From<StoreError> for WrittenError {
    fn from(e: StoreError) -> Self {
        WrittenError::Store(e)
    }
}

impl std::fmt::Display for WrittenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WrittenError::Store(e) => write!(f, "{e}"),
            WrittenError::OtherShard {
                serial,
                url,
                expected,
            } => write!(
                f,
                "the certificate with serial {} points to the CRL {url}, but with the \
                 crl_shards of ca.json its revocation is listed in {expected}: the shard \
                 count changed after it was issued, and no CRL at the URL it names would \
                 list it (put crl_shards back, or reissue the certificates)",
                hex(serial)
            ),
            WrittenError::ShardElsewhere {
                serial,
                url,
                expected,
            } => write!(
                f,
                "the certificate with serial {} points to the CRL {url}, but that shard's \
                 CRL names {expected} in its issuingDistributionPoint (ca.json's crl_urls \
                 changed host after it was issued), and relying parties find a CRL that \
                 names another URL out of scope (put the crl_urls back, or reissue the \
                 certificates)",
                hex(serial)
            ),
        }
    }
}

impl std::error::Error for WrittenError {}

/// The URLs the certificates not expired at `now` point to that `listed` (ca.json's
/// pointers, with `crl_shards`) does not name. A CRL URL is listed when it is the CA's
/// CRL (which lists every revoked certificate) or the shard the certificate's serial
/// falls in.
pub fn unlisted(
    store: &dyn CaStore,
    listed: &Pointers,
    crl_shards: u32,
    now: i64,
) -> Result<Unlisted, WrittenError> {
    let listed = Listed::new(listed, crl_shards);
    let mut seen: Seen = HashMap::new();
    let mut found: Found = Default::default();
    let mut key = Vec::new();
    let mut failed = None;
    let mut unreadable = (0, None);
    store.for_each_unexpired(now, &mut |serial, der| {
        if failed.is_some() {
            return;
        }
        match one(serial, der, &listed, &mut seen, &mut found, &mut key) {
            Ok(()) => {}
            Err(Bad::Unreadable(message)) => {
                unreadable.0 += 1;
                unreadable.1.get_or_insert((serial.to_vec(), message));
            }
            Err(Bad::Refused(e)) => failed = Some(e),
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    let mut u = Unlisted {
        unreadable: unreadable.0,
        first_unreadable: unreadable.1,
        ..Unlisted::default()
    };
    let [ocsp, ca_issuers, crl] = found;
    let sorted = |m: HashMap<String, (String, Vec<u8>, u64)>| {
        let mut all: Vec<_> = m.into_iter().collect();
        all.sort();
        all.into_iter().map(|(_, found)| found).collect()
    };
    u.ocsp = sorted(ocsp);
    u.ca_issuers = sorted(ca_issuers);
    u.crl = sorted(crl);
    Ok(u)
}

/// Why one certificate was not taken in.
enum Bad {
    /// It did not parse: counted, and the walk goes on (its row still serves OCSP and
    /// CRLs, which need only its serial and dates).
    Unreadable(String),
    /// It cannot be answered right.
    Refused(WrittenError),
}

/// One certificate's pointers, compared with what is `listed`. `key` is a buffer kept
/// between certificates.
fn one(
    serial: &[u8],
    der: &[u8],
    listed: &Listed,
    seen: &mut Seen,
    found: &mut Found,
    key: &mut Vec<u8>,
) -> Result<(), Bad> {
    let bad = |e: &dyn std::fmt::Display| Bad::Unreadable(e.to_string());
    let cert = Certificate::from_der(der).map_err(|e| bad(&e))?;
    let Some(ext) = &cert.extensions else {
        return Ok(());
    };
    let value = |oid| ext.find(oid).map(|e| e.map_or(&[][..], |e| e.value));
    let aia = value(&crate::der::oid_registry::PE_AUTHORITY_INFO_ACCESS).map_err(|e| bad(&e))?;
    let cdp = value(&crate::der::oid_registry::CE_CRL_DIST_POINTS).map_err(|e| bad(&e))?;
    if aia.is_empty() && cdp.is_empty() {
        return Ok(());
    }
    key.clear();
    key.extend_from_slice(&(aia.len() as u32).to_be_bytes());
    key.extend_from_slice(aia);
    key.extend_from_slice(cdp);
    if !seen.contains_key(key.as_slice()) {
        let p = in_certificate(ext).map_err(|e| bad(&e))?;
        seen.insert(key.clone(), decode(&p, listed));
    }
    let Some(decoded) = seen.get(key.as_slice()) else {
        return Ok(());
    };
    let mut note = |kind: u8, path: &str, url: &str| {
        let at = &mut found[usize::from(kind)];
        match at.get_mut(path) {
            Some(e) => e.2 += 1,
            None => {
                at.insert(path.to_string(), (url.to_string(), serial.to_vec(), 1));
            }
        }
    };
    for (kind, path, url) in &decoded.unlisted {
        note(*kind, path, url);
    }
    for (path, u) in &decoded.crl {
        // The CA's whole CRL lists every revoked certificate.
        if listed.crl.contains(path) {
            continue;
        }
        if !listed.shards.is_empty() {
            let own = shard_of(serial, listed.shards.len() as u32) as usize;
            let at = |shard: &[(String, String)]| shard.iter().position(|(p, _)| p == path);
            if let Some(i) = at(&listed.shards[own]) {
                let expected = &listed.shards[own][i].1;
                if expected == u {
                    continue;
                }
                return Err(Bad::Refused(WrittenError::ShardElsewhere {
                    serial: serial.to_vec(),
                    url: u.clone(),
                    expected: expected.clone(),
                }));
            }
            // Another shard's: that shard's CRL does not list it.
            if let Some(i) = listed.shards.iter().find_map(|s| at(s)) {
                return Err(Bad::Refused(WrittenError::OtherShard {
                    serial: serial.to_vec(),
                    url: u.clone(),
                    expected: listed.shards[own][i].1.clone(),
                }));
            }
        }
        note(2, path, u);
    }
    Ok(())
}

/// One configuration's pointers with their paths, and the verdicts that do not turn on
/// a serial.
fn decode(p: &Pointers, listed: &Listed) -> Decoded {
    let mut d = Decoded::default();
    for u in &p.ocsp {
        let prefix = ocsp_prefix(u);
        if !listed.ocsp.contains(&prefix) {
            d.unlisted.push((0, prefix, u.clone()));
        }
    }
    for u in &p.ca_issuers {
        let path = url_path(u);
        if !listed.ca_issuers.contains(&path) {
            d.unlisted.push((1, path, u.clone()));
        }
    }
    d.crl = p.crl.iter().map(|u| (url_path(u), u.clone())).collect();
    d
}

#[cfg(test)]
mod tests;
