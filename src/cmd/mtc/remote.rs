//! A served log seen from outside: its resources over HTTP, and its checkpoint, checked
//! against the CA's key — what `pkit mtc audit` and `pkit mtc verify --url` start from.

use super::common::mtc_err;
use crate::cmd::error::{CliError, CliResult};
use pkit::mtc::audit::Fetch;
use pkit::mtc::cert::CaInfo;
use pkit::mtc::checkpoint::{Checkpoint, NoteSignature};
use pkit::mtc::cosign::CosignerKey;
use pkit::mtc::hash::Hash;
use pkit::mtc::ids::TrustAnchorId;
use pkit::mtc::publish::Resource;
use pkit::mtc::subtree::Subtree;
use pkit::mtc::tile_source::TileSource;
use pkit::mtc::tree::{consistency_proof, subtree_hash, verify_consistency_proof};
use pkit::pki::backend::Backend;
use std::io::Read;
use std::time::Duration;

/// Resources are tiles (8 KiB) and entry bundles (256 entries of up to 64 KiB).
const MAX_RESOURCE: u64 = 256 * 65_538;
const TIMEOUT: Duration = Duration::from_secs(30);

/// GETs under the log's prefix, over one connection pool.
pub struct Remote {
    /// The log's prefix URL, without a trailing slash.
    pub base: String,
    agent: ureq::Agent,
}

impl Fetch for Remote {
    fn fetch(&self, path: &str) -> Result<Vec<u8>, String> {
        let url = format!("{}/{path}", self.base);
        let mut r = self
            .agent
            .get(&url)
            .call()
            .map_err(|e| format!("{url}: {e}"))?;
        if r.status() != 200 {
            return Err(format!("{url}: HTTP {}", r.status().as_u16()));
        }
        let mut out = Vec::new();
        r.body_mut()
            .as_reader()
            .take(MAX_RESOURCE + 1)
            .read_to_end(&mut out)
            .map_err(|e| format!("{url}: {e}"))?;
        if out.len() as u64 > MAX_RESOURCE {
            return Err(format!("{url}: larger than any tile or entry bundle"));
        }
        Ok(out)
    }
}

impl Remote {
    /// A log at `url`, which must be an http:// URL: pkit's HTTP client is built without
    /// TLS (an https:// log is read through a mirror or proxy on http://).
    pub fn new(url: &str) -> CliResult<Remote> {
        if url.starts_with("https://") {
            return Err(CliError::usage(format!(
                "--url {url}: https:// is not supported yet (pkit's HTTP client has no TLS); read the log over http://"
            )));
        }
        if !url.starts_with("http://") || url.len() == "http://".len() {
            return Err(CliError::usage(format!(
                "--url {url}: expected an http:// URL, the log's prefix"
            )));
        }
        Ok(Remote {
            base: url.trim_end_matches('/').to_string(),
            agent: ureq::Agent::config_builder()
                .timeout_global(Some(TIMEOUT))
                .http_status_as_error(false)
                .build()
                .into(),
        })
    }

    /// The log's checkpoint, its origin a log of `ca` and signed by the CA's key (and by
    /// each of `others` whose signature it carries): the checkpoint, its log number and
    /// the names of the signers that verified. A checkpoint that is malformed or not so
    /// signed is a finding (exit 1); one that cannot be fetched, an I/O error (exit 4).
    pub fn signed_checkpoint(
        &self,
        be: &Backend,
        ca: &CaInfo,
        others: &[CosignerKey],
    ) -> CliResult<(Checkpoint, u16, Vec<String>)> {
        let ca_key =
            CosignerKey::new(ca.ca_id.clone(), ca.spki.clone()).map_err(mtc_err("--ca"))?;
        let bytes = self
            .fetch(&Resource::Checkpoint.path())
            .map_err(CliError::io)?;
        let name = format!("{}/checkpoint", self.base);
        let note = String::from_utf8(bytes)
            .map_err(|_| CliError::negative(format!("{name}: not UTF-8 text")))?;
        let (cp, sigs) = Checkpoint::parse(&note).map_err(|e| {
            CliError::negative(format!(
                "{name}: not a checkpoint: {}",
                mtc_err(&name)(e).message
            ))
        })?;
        let log_number = log_of(&ca.ca_id, &cp.origin).ok_or_else(|| {
            CliError::negative(format!(
                "{name}: origin {} is not a log of the CA {}",
                cp.origin, ca.ca_id
            ))
        })?;
        let log = ca.ca_id.log_id(log_number);
        let signed = check_signatures(be, &cp, &sigs, &log, &ca_key, others, &self.base)?;
        Ok((cp, log_number, signed))
    }
}

/// The log number `origin` names under the CA, if it is one of the CA's logs.
fn log_of(ca: &TrustAnchorId, origin: &str) -> Option<u16> {
    let n = origin.strip_prefix(&format!("{}.0.", ca.note_name()))?;
    let log: u16 = n.parse().ok()?;
    (log != 0 && n == log.to_string()).then_some(log)
}

/// Check the checkpoint's signatures: the CA's must be there and verify; any other known
/// cosigner's that is there must verify. The names of those that did.
fn check_signatures(
    be: &Backend,
    cp: &Checkpoint,
    sigs: &[NoteSignature],
    log: &TrustAnchorId,
    ca: &CosignerKey,
    others: &[CosignerKey],
    url: &str,
) -> CliResult<Vec<String>> {
    let mut ok = Vec::new();
    for key in std::iter::once(ca).chain(others) {
        for s in sigs
            .iter()
            .filter(|s| s.name == key.id.note_name() && s.key_id == key.key_id())
        {
            if !cp.verify(be, log, key, s).map_err(mtc_err(url))? {
                return Err(CliError::negative(format!(
                    "{url}/checkpoint: the signature by {} does not verify",
                    s.name
                )));
            }
            ok.push(s.name.clone());
        }
    }
    if !ok.contains(&ca.id.note_name()) {
        let by: Vec<&str> = sigs.iter().map(|s| s.name.as_str()).collect();
        return Err(CliError::negative(format!(
            "{url}/checkpoint: not signed by the CA's key ({}); signed by {}",
            ca.id.note_name(),
            by.join(", ")
        )));
    }
    Ok(ok)
}

/// The hash of subtree `st` of the log behind `src`, computed from its tiles and proven
/// by a subtree consistency proof (§4.4) against `cp`'s root — the tiles alone are not
/// trusted. A tile that cannot be fetched is an I/O error (exit 4); tiles that do not
/// prove it, a finding (exit 1).
pub fn proven_subtree(
    base: &str,
    src: &TileSource<'_>,
    cp: &Checkpoint,
    st: Subtree,
) -> CliResult<Hash> {
    let tiles = |e: pkit::mtc::MtcError| match e {
        pkit::mtc::MtcError::Store(m) => CliError::io(m),
        e => CliError::negative(format!("{base}: {}", mtc_err(base)(e).message)),
    };
    let hash = subtree_hash(src, st).map_err(tiles)?;
    let proof = consistency_proof(src, st, cp.size).map_err(tiles)?;
    if !verify_consistency_proof(st, cp.size, &hash, &cp.root, &proof) {
        return Err(CliError::negative(format!(
            "{base}: the tiles' hash of {st} is not consistent with the checkpoint of size {}",
            cp.size
        )));
    }
    Ok(hash)
}
