//! A served log seen from outside — by a relying party (`mtc verify --url`), an auditor
//! (`mtc audit`) or a witness (`mtc cosign`): its checkpoint checked against the CA's
//! key and the cosigners trusted, its subtrees' hashes computed from its tiles and
//! proven against that checkpoint, and the subtrees its active landmarks certify.
//!
//! Nothing a log serves is trusted until it is checked: a checkpoint counts only when
//! its origin is one of the CA's logs and the CA's signature on it verifies; a tile's
//! hashes count only once a subtree consistency proof (draft §4.4) ties them to that
//! checkpoint's root. What fails a check is [`MtcError::Untrusted`] (a finding about the
//! log); what cannot be fetched is [`MtcError::Fetch`].

use super::cert::CaInfo;
use super::checkpoint::{Checkpoint, NoteSignature};
use super::cosign::CosignerKey;
use super::error::{MtcError, Result};
use super::fetch::{Fetch, FetchError};
use super::hash::Hash;
use super::ids::TrustAnchorId;
use super::landmark::{active_subtrees, parse_list};
use super::publish::Resource;
use super::subtree::Subtree;
use super::tile_source::TileSource;
use super::tree::{consistency_proof, subtree_hash, verify_consistency_proof};
use super::verify::{proof_subtree, Policy, TrustedSubtree};
use pkit_x509::backend::Backend;

/// A log's checkpoint that checked out: signed by its CA and from one of the CA's logs.
#[derive(Debug, Clone)]
pub struct SignedCheckpoint {
    /// The checkpoint.
    pub checkpoint: Checkpoint,
    /// Its log's number under the CA (the origin's last arc).
    pub log: u16,
    /// The note names of the signers whose signatures verified: the CA first, then the
    /// trusted cosigners whose signature the note carries.
    pub signers: Vec<String>,
    /// The signed note as fetched (for signatures checked otherwise: witnesses named by
    /// verifier keys).
    pub note: String,
}

/// The log's checkpoint, fetched through `fetch` (the log named `name` in messages):
/// its origin must be a log of `ca`, the CA's signature on it must verify, and so must
/// the signature of each of `others` that it carries.
pub fn signed_checkpoint(
    backend: &Backend,
    fetch: &dyn Fetch,
    name: &str,
    ca: &CaInfo,
    others: &[CosignerKey],
) -> Result<SignedCheckpoint> {
    let ca_key = CosignerKey::new(ca.ca_id.clone(), ca.spki.clone())?;
    let bytes = fetch
        .fetch(&Resource::Checkpoint.path())
        .map_err(MtcError::Fetch)?;
    let name = format!("{name}/checkpoint");
    let note = String::from_utf8(bytes)
        .map_err(|_| MtcError::Untrusted(format!("{name}: not UTF-8 text")))?;
    let (checkpoint, sigs) = Checkpoint::parse(&note)
        .map_err(|e| MtcError::Untrusted(format!("{name}: not a checkpoint: {e}")))?;
    let log = log_of(&ca.ca_id, &checkpoint.origin).ok_or_else(|| {
        MtcError::Untrusted(format!(
            "{name}: origin {} is not a log of the CA {}",
            checkpoint.origin, ca.ca_id
        ))
    })?;
    let log_id = ca.ca_id.log_id(log);
    let signers = check_signatures(backend, &checkpoint, &sigs, &log_id, &ca_key, others, &name)?;
    Ok(SignedCheckpoint {
        checkpoint,
        log,
        signers,
        note,
    })
}

/// The log number `origin` names under the CA, if it is one of the CA's logs (the
/// number written without leading zeros, and not 0).
pub fn log_of(ca: &TrustAnchorId, origin: &str) -> Option<u16> {
    let n = origin.strip_prefix(&format!("{}.0.", ca.note_name()))?;
    let log: u16 = n.parse().ok()?;
    (log != 0 && n == log.to_string()).then_some(log)
}

/// The checkpoint's signatures: the CA's must be there and verify; any other trusted
/// cosigner's that is there must verify. The names of those that did.
fn check_signatures(
    backend: &Backend,
    cp: &Checkpoint,
    sigs: &[NoteSignature],
    log: &TrustAnchorId,
    ca: &CosignerKey,
    others: &[CosignerKey],
    name: &str,
) -> Result<Vec<String>> {
    let mut ok = Vec::new();
    for key in std::iter::once(ca).chain(others) {
        for s in sigs
            .iter()
            .filter(|s| s.name == key.id.note_name() && s.key_id == key.key_id())
        {
            if !cp.verify(backend, log, key, s)? {
                return Err(MtcError::Untrusted(format!(
                    "{name}: the signature by {} does not verify",
                    s.name
                )));
            }
            ok.push(s.name.clone());
        }
    }
    if !ok.contains(&ca.id.note_name()) {
        let by: Vec<&str> = sigs.iter().map(|s| s.name.as_str()).collect();
        return Err(MtcError::Untrusted(format!(
            "{name}: not signed by the CA's key ({}); signed by {}",
            ca.id.note_name(),
            by.join(", ")
        )));
    }
    Ok(ok)
}

/// The hash of subtree `st` of the log behind `src`, computed from its tiles and proven
/// by a subtree consistency proof (draft §4.4) against `cp`'s root: the tiles alone are
/// not trusted. Tiles that do not prove it are a finding about the log `name`.
pub fn proven_subtree(
    name: &str,
    src: &TileSource<'_>,
    cp: &Checkpoint,
    st: Subtree,
) -> Result<Hash> {
    let untrusted = |e: MtcError| match e {
        e @ MtcError::Fetch(_) => e,
        e => MtcError::Untrusted(format!("{name}: {e}")),
    };
    let hash = subtree_hash(src, st).map_err(untrusted)?;
    let proof = consistency_proof(src, st, cp.size).map_err(untrusted)?;
    if !verify_consistency_proof(st, cp.size, &hash, &cp.root, &proof) {
        return Err(MtcError::Untrusted(format!(
            "{name}: the tiles' hash of {st} is not consistent with the checkpoint of size {}",
            cp.size
        )));
    }
    Ok(hash)
}

/// The subtrees landmark-relative certificates may use, from the log's landmark list
/// (mtc-tlog's `landmarks`): those the landmarks active at `now` certify. A log that
/// serves no list has none.
pub fn landmark_subtrees(fetch: &dyn Fetch, name: &str, now: u64) -> Result<Vec<Subtree>> {
    let name = format!("{name}/landmarks");
    let text = match fetch.fetch(&Resource::Landmarks.path()) {
        Ok(b) => {
            String::from_utf8(b).map_err(|_| MtcError::Untrusted(format!("{name}: not text")))?
        }
        Err(FetchError::NotFound(_)) => return Ok(Vec::new()),
        Err(e) => return Err(MtcError::Fetch(e)),
    };
    let list = parse_list(&text).map_err(|e| MtcError::Untrusted(format!("{name}: {e}")))?;
    Ok(active_subtrees(&list, now))
}

/// The subtrees the certificates `ders` are proven under that the log behind `fetch`
/// holds, with their hashes from its tiles, each proven consistent with its checkpoint
/// (signed by the policy's CA). A landmark-relative certificate's subtree counts only
/// when an active landmark of the log's list certifies it; subtrees past the checkpoint
/// are left to their cosignatures.
pub fn subtrees_from_log(
    backend: &Backend,
    fetch: &dyn Fetch,
    name: &str,
    policy: &Policy,
    ders: &[&[u8]],
) -> Result<Vec<TrustedSubtree>> {
    let signed = signed_checkpoint(backend, fetch, name, &policy.ca, &policy.cosigners)?;
    let (cp, log) = (&signed.checkpoint, signed.log);
    let src = TileSource::new(fetch, cp.size);
    let now = u64::try_from(policy.now.unix).unwrap_or(0);
    let landmarks = landmark_subtrees(fetch, name, now)?;
    let mut wanted: Vec<Subtree> = ders
        .iter()
        .filter_map(|d| proof_subtree(d))
        .filter(|(l, st, _)| *l == log && st.is_valid() && !st.is_empty() && st.end <= cp.size)
        .filter(|(_, st, relative)| !relative || landmarks.contains(st))
        .map(|(_, st, _)| st)
        .collect();
    wanted.sort_by_key(|st| (st.start, st.end));
    wanted.dedup();
    wanted
        .into_iter()
        .map(|subtree| {
            Ok(TrustedSubtree {
                log,
                subtree,
                hash: proven_subtree(name, &src, cp, subtree)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_numbers_from_origins() {
        let ca = TrustAnchorId::parse("32473.1").unwrap();
        let base = ca.note_name();
        assert_eq!(log_of(&ca, &format!("{base}.0.1")), Some(1));
        assert_eq!(log_of(&ca, &format!("{base}.0.65535")), Some(65535));
        // Log 0 is the CA itself; leading zeros and other CAs' logs are not its logs.
        assert_eq!(log_of(&ca, &format!("{base}.0.0")), None);
        assert_eq!(log_of(&ca, &format!("{base}.0.01")), None);
        assert_eq!(log_of(&ca, &format!("{base}.0.65536")), None);
        assert_eq!(log_of(&ca, "oid/1.3.6.1.4.1.32473.2.0.1"), None);
    }
}
