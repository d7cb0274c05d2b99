//! The CA side of issuance (draft-ietf-plants-merkle-tree-certs-07 §6.3, §6.4): sign a
//! checkpoint and the covering subtrees of what it adds, and build the proof of a
//! standalone or landmark-relative certificate from `mtc.db`.

use super::cert::{assemble, build_tbs, serial_number};
use super::checkpoint::Checkpoint;
use super::cosign::Cosigner;
use super::entry::parse_entry;
use super::error::{MtcError, Result};
use super::hash::Hash;
use super::ids::TrustAnchorId;
use super::landmark::{landmark_for, Landmark};
use super::proof::{Cosignature, MtcProof};
use super::store::{
    CertKind, LogStore, StoredCertificate, StoredCheckpoint, StoredProof, SubtreeSignature,
};
use super::subtree::{covering_subtrees, Subtree};
use super::tree::{inclusion_proof, subtree_hash, NodeSource};

/// A CA as the issuance commands see it.
#[derive(Debug)]
pub struct MtcCa {
    /// The CA's trust anchor ID.
    pub ca_id: TrustAnchorId,
    /// Its log's number.
    pub log: u16,
    /// The key the CA signs checkpoints and subtrees with.
    pub cosigner: Cosigner,
}

impl MtcCa {
    /// The ID of the CA's log (`{caID 0 N}`).
    pub fn log_id(&self) -> TrustAnchorId {
        self.ca_id.log_id(self.log)
    }
}

/// What one checkpoint signed.
#[derive(Debug, Clone)]
pub struct CheckpointResult {
    /// The checkpoint as stored.
    pub checkpoint: StoredCheckpoint,
    /// The size of the checkpoint before it.
    pub previous_size: u64,
    /// The non-empty covering subtrees of `[previous_size, size)` with their hashes.
    pub subtrees: Vec<(Subtree, Hash)>,
    /// The CA's signatures over those subtrees.
    pub signatures: Vec<SubtreeSignature>,
}

/// `checkpoint_create`: the root and signed note for the current tree, plus cosignatures
/// (timestamp 0) over the covering subtrees of the entries added since the previous
/// checkpoint. "Never sign the empty covering subtree."
pub fn create_checkpoint<S: NodeSource + ?Sized>(
    src: &S,
    previous_size: u64,
    ca: &MtcCa,
    now: u64,
) -> Result<CheckpointResult> {
    let size = src.size();
    if size <= previous_size {
        return Err(MtcError::NothingNew { size });
    }
    let log = ca.log_id();
    let root = subtree_hash(src, Subtree::new(0, size))?;
    let cp = Checkpoint {
        origin: log.note_name(),
        size,
        root,
    };
    let note = cp.sign(&log, &ca.cosigner, now)?;
    let (a, b) = covering_subtrees(previous_size, size);
    let mut signer = ca.cosigner.signer()?;
    let mut subtrees = Vec::new();
    let mut signatures = Vec::new();
    for st in [a, b].into_iter().filter(|s| !s.is_empty()) {
        let h = subtree_hash(src, st)?;
        let sig = ca.cosigner.sign_subtree(&mut *signer, 0, &log, st, &h)?;
        subtrees.push((st, h));
        signatures.push(SubtreeSignature {
            subtree: st,
            cosigner: ca.cosigner.public.id.binary().to_vec(),
            hash: h,
            signature: sig,
        });
    }
    Ok(CheckpointResult {
        checkpoint: StoredCheckpoint {
            size,
            root,
            note,
            created: i64::try_from(now).unwrap_or(i64::MAX),
        },
        previous_size,
        subtrees,
        signatures,
    })
}

/// Checkpoint the store and record the result (`checkpoint_create` then
/// `db_insert_checkpoint`).
pub fn checkpoint_store(
    store: &mut dyn LogStore,
    ca: &MtcCa,
    now: u64,
) -> Result<CheckpointResult> {
    checkpoint_witnessed(store, ca, now, &mut |_, _| Ok(Witnessed::default()))
}

/// What witnesses gave a checkpoint.
#[derive(Debug, Clone, Default)]
pub struct Witnessed {
    /// Their cosignature lines, for the checkpoint's note (c2sp.org/tlog-witness
    /// `add-checkpoint`).
    pub lines: Vec<String>,
    /// Their cosignatures on its covering subtrees (`sign-subtree`), which standalone
    /// certificates of those subtrees carry beside the CA's.
    pub subtree_signatures: Vec<SubtreeSignature>,
}

/// What [`checkpoint_witnessed`] asks between signing and recording: the log and the
/// checkpoint made in, what the witnesses gave out.
pub type WitnessStep<'a> = dyn FnMut(&dyn LogStore, &CheckpointResult) -> Result<Witnessed> + 'a;

/// [`checkpoint_store`] with witnesses asked between signing and recording: `witness`
/// gets the log and the checkpoint made and returns the witnesses' signature lines to
/// add to its note (c2sp.org/tlog-witness) and their subtree cosignatures, or an error,
/// and then nothing is recorded: the checkpoint published stays the previous one.
pub fn checkpoint_witnessed(
    store: &mut dyn LogStore,
    ca: &MtcCa,
    now: u64,
    witness: &mut WitnessStep<'_>,
) -> Result<CheckpointResult> {
    // One leader at a time, or two would sign different trees over the same previous
    // checkpoint.
    store.lead_checkpoint()?;
    let made = (|| -> Result<CheckpointResult> {
        let prev = store.latest_checkpoint()?.map_or(0, |c| c.size);
        let mut r = create_checkpoint(&*store, prev, ca, now)?;
        let w = witness(&*store, &r)?;
        for line in w.lines {
            r.checkpoint.note.push_str(&line);
            r.checkpoint.note.push('\n');
        }
        r.signatures.extend(w.subtree_signatures);
        store.insert_checkpoint(&r.checkpoint, &r.signatures)?;
        Ok(r)
    })();
    let ended = store.end_checkpoint();
    let r = made?;
    ended?;
    Ok(r)
}

/// The MTCProof of a standalone certificate for `index`: the signed subtree containing
/// it, the inclusion proof, and its cosignatures.
pub fn standalone_proof(store: &dyn LogStore, index: u64) -> Result<MtcProof> {
    let size = store.size();
    if index >= size {
        return Err(MtcError::Invalid(match size {
            0 => format!("no entry {index}: the log is empty"),
            _ => format!("no entry {index}: the log holds entries 0 to {}", size - 1),
        }));
    }
    let (st, _, sigs) = store.signed_subtree_for(index)?.ok_or_else(|| {
        MtcError::Invalid(format!(
            "entry {index} is not covered by a checkpoint yet (run pkit mtc checkpoint)"
        ))
    })?;
    let (entry, _) = store.entry(index)?;
    Ok(MtcProof {
        extensions: parse_entry(&entry)?.extensions.to_vec(),
        subtree: st,
        inclusion_proof: inclusion_proof(store, index, st)?,
        signatures: sigs
            .into_iter()
            .map(|s| Cosignature {
                cosigner_id: s.cosigner,
                signature: s.signature,
            })
            .collect(),
    })
}

/// The subtree an inclusion proof of `index` is given in when none is asked for
/// (`pkit mtc proof`): the signed subtree holding it, as a standalone certificate's
/// proof would be, else (not checkpointed yet) the whole tree.
pub fn proof_subtree(store: &dyn LogStore, index: u64) -> Result<Subtree> {
    Ok(match store.signed_subtree_for(index)? {
        Some((st, _, _)) => st,
        None => Subtree::new(0, store.size()),
    })
}

/// The MTCProof of a landmark-relative certificate: no signatures, the covering subtree
/// of the landmark that contains `index`.
pub fn landmark_proof(store: &dyn LogStore, index: u64, now: u64) -> Result<(u64, MtcProof)> {
    let landmarks = store.landmarks()?;
    let (l, st) = landmark_for(&landmarks, index, now).ok_or_else(|| {
        MtcError::Invalid(format!(
            "no active landmark covers entry {index} (run pkit mtc landmark allocate)"
        ))
    })?;
    let (entry, _) = store.entry(index)?;
    Ok((
        l.number,
        MtcProof {
            extensions: parse_entry(&entry)?.extensions.to_vec(),
            subtree: st,
            inclusion_proof: inclusion_proof(store, index, st)?,
            signatures: Vec::new(),
        },
    ))
}

/// One certificate as issued: its proof row and its certificate row for `mtc.db`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedCertificate {
    /// The proof row.
    pub proof: StoredProof,
    /// The certificate row.
    pub certificate: StoredCertificate,
}

/// Issue the certificate of `index` of `kind` from the log as it is now (`pkit mtc
/// cert`): the proof ([`standalone_proof`], or [`landmark_proof`] for the landmarks
/// active at `now`), encoded once (`proof_encode`), the TBSCertificate
/// (`standalone_build`) and the DER (`standalone_encode`). Nothing is written:
/// [`LogStore::record_issued`] records what was handed out.
pub fn issue(
    store: &dyn LogStore,
    log: u16,
    index: u64,
    kind: CertKind,
    now: u64,
) -> Result<IssuedCertificate> {
    let proof = match kind {
        CertKind::Standalone => standalone_proof(store, index)?,
        CertKind::Landmark => landmark_proof(store, index, now)?.1,
    };
    let encoded = proof.encode()?;
    let (entry, spki) = store.entry(index)?;
    let tbs = build_tbs(
        parse_entry(&entry)?.tbs_entry,
        &spki,
        serial_number(log, index)?,
    )?;
    let der = assemble(&tbs, &encoded);
    Ok(IssuedCertificate {
        proof: StoredProof {
            index,
            kind,
            subtree: proof.subtree,
            proof: encoded,
        },
        certificate: StoredCertificate {
            index,
            kind,
            der,
            created: i64::try_from(now).unwrap_or(i64::MAX),
        },
    })
}

/// Issue the certificates of `kind` for the entries `[start, end)` (`pkit mtc cert
/// --count`): each made from the log as it is now ([`issue`]), then all recorded in one
/// transaction ([`LogStore::record_issued`], replacing earlier issues of the same index
/// and kind), so that nothing is recorded unless every one was made and nothing is handed
/// out that was not recorded. Their DER, in index order.
pub fn issue_range(
    store: &mut dyn LogStore,
    log: u16,
    start: u64,
    end: u64,
    kind: CertKind,
    now: u64,
) -> Result<Vec<Vec<u8>>> {
    let mut proofs = Vec::new();
    let mut certs = Vec::new();
    for index in start..end {
        let made = issue(&*store, log, index, kind, now)?;
        proofs.push(made.proof);
        certs.push(made.certificate);
    }
    store.record_issued(&proofs, &certs)?;
    Ok(certs.into_iter().map(|c| c.der).collect())
}

/// The certificates of `kind` that earlier issues recorded for the entries `[start,
/// end)` (`pkit mtc cert --stored`), in index order; every one must be there:
/// [`MtcError::NotRecorded`] names the first entry without one.
pub fn recorded_range(
    store: &dyn LogStore,
    start: u64,
    end: u64,
    kind: CertKind,
) -> Result<Vec<Vec<u8>>> {
    let rows = store.stored_certificates(start, end, kind)?;
    // Rows come in index order: the first index that is not the next row is missing.
    let recorded = rows
        .iter()
        .zip(start..)
        .take_while(|(r, want)| r.index == *want)
        .count() as u64;
    if recorded < end.saturating_sub(start) {
        return Err(MtcError::NotRecorded {
            kind: kind.as_str(),
            index: start + recorded,
        });
    }
    Ok(rows.into_iter().map(|r| r.der).collect())
}

/// The next landmark if one is due: `every` seconds after the last was allocated (its
/// expiry less `lifetime`), and the latest checkpoint past it. Decided and allocated by
/// the checkpoint leader ([`LogStore::lead_checkpoint`]), so that several servers on one
/// log, each on its own timer, allocate one landmark per period between them.
pub fn allocate_landmark_if_due(
    store: &mut dyn LogStore,
    now: u64,
    every: u64,
    lifetime: u64,
) -> Result<Option<Landmark>> {
    let due = |store: &mut dyn LogStore| -> Result<bool> {
        let last = store.landmarks()?.last().copied().unwrap_or(Landmark::ZERO);
        let size = store.latest_checkpoint()?.map_or(0, |c| c.size);
        let allocated = last.expiry.saturating_sub(lifetime);
        Ok((last.number == 0 || now >= allocated.saturating_add(every)) && size > last.tree_size)
    };
    // Asked at every checkpoint: the leader's lock (a write lock on SQLite) is taken only
    // when one looks due, and the question asked again under it.
    if !due(store)? {
        return Ok(None);
    }
    store.lead_checkpoint()?;
    let made = (|| -> Result<Option<Landmark>> {
        if !due(store)? {
            return Ok(None);
        }
        allocate_landmark(store, now, lifetime).map(Some)
    })();
    let ended = store.end_checkpoint();
    let made = made?;
    ended?;
    Ok(made)
}

/// Allocate the next landmark (§6.4) at the latest checkpoint's tree size, active for
/// `lifetime` seconds from `now` (`pkit mtc landmark allocate`, and an ACME server's
/// schedule). Refused when that checkpoint is not past the last landmark.
pub fn allocate_landmark(store: &mut dyn LogStore, now: u64, lifetime: u64) -> Result<Landmark> {
    let size = store.latest_checkpoint()?.map_or(0, |c| c.size);
    let last = store.landmarks()?.last().copied().unwrap_or(Landmark::ZERO);
    if size <= last.tree_size {
        return Err(MtcError::Invalid(format!(
            "the latest checkpoint ({size} entries) is not past landmark {} ({} entries); checkpoint first",
            last.number, last.tree_size
        )));
    }
    let l = Landmark {
        number: last.number + 1,
        tree_size: size,
        expiry: now.saturating_add(lifetime),
    };
    store.insert_landmark(&l)?;
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::add::{entry_valid, EntryRequest};
    use crate::der::Time;
    use crate::store::SqliteLogStore;
    use pkit_openssl as openssl;
    use pkit_x509::alg::Algorithm;

    /// A log of three entries and its CA, checkpointed at `now`.
    fn checkpointed_log(dir: &std::path::Path, now: u64) -> SqliteLogStore {
        let mut store = SqliteLogStore::open(&dir.join("mtc.db")).unwrap();
        let ca_id = TrustAnchorId::parse("32473.1").unwrap();
        let be = openssl::backend();
        let key = be.generate(Algorithm::EcdsaP256).unwrap();
        let request = EntryRequest {
            subject: vec![0x30, 0x00],
            spki: key.public_key_der().unwrap(),
            // dNSName "a.example".
            sans: vec![[&[0x82, 9][..], b"a.example"].concat()],
            copied: Vec::new(),
            days: 0,
        };
        let t = Time { unix: now as i64 };
        let entry = entry_valid(&ca_id.to_name_der(), (t, t.plus_seconds(86_400)), &request);
        let entry = entry.unwrap();
        let entries = vec![entry.clone(), entry.clone(), entry];
        store.append_entries(&entries).unwrap();
        let ca = MtcCa {
            ca_id: ca_id.clone(),
            log: 1,
            cosigner: Cosigner::new(ca_id, be.generate(Algorithm::Ed25519).unwrap()).unwrap(),
        };
        checkpoint_store(&mut store, &ca, now).unwrap();
        store
    }

    #[test]
    fn a_proof_is_given_in_the_signed_subtree_else_the_whole_tree() {
        let dir = tempfile::tempdir().unwrap();
        let now = 1_800_000_000;
        let mut store = checkpointed_log(dir.path(), now);
        // Checkpointed: the subtree a standalone certificate's proof is in.
        let st = proof_subtree(&store, 1).unwrap();
        assert_eq!(st, standalone_proof(&store, 1).unwrap().subtree);
        // Added since: no signed subtree holds it yet, so the whole tree.
        let more = store.entries(0, 1).unwrap();
        let (entry, spki) = more[0].clone();
        let leaf = crate::hash::leaf_hash(&entry);
        store
            .append_entries(&[crate::store::NewEntry { entry, spki, leaf }])
            .unwrap();
        assert_eq!(proof_subtree(&store, 3).unwrap(), Subtree::new(0, 4));
    }

    #[test]
    fn a_range_is_issued_and_recorded_together() {
        let dir = tempfile::tempdir().unwrap();
        let now = 1_800_000_000;
        let mut store = checkpointed_log(dir.path(), now);
        let kind = CertKind::Standalone;
        // Nothing recorded yet: the first entry asked for is named.
        assert_eq!(
            recorded_range(&store, 1, 3, kind),
            Err(MtcError::NotRecorded {
                kind: "standalone",
                index: 1
            })
        );
        let made = issue_range(&mut store, 1, 1, 3, kind, now).unwrap();
        assert_eq!(made.len(), 2);
        assert_eq!(
            made[0],
            issue(&store, 1, 1, kind, now).unwrap().certificate.der
        );
        assert_eq!(recorded_range(&store, 1, 3, kind).unwrap(), made);
        // Past what was recorded, and past the log: the gap is named, nothing recorded.
        let gap = recorded_range(&store, 0, 3, kind).unwrap_err();
        assert_eq!(
            gap.to_string(),
            "no standalone certificate of entry 0 is recorded"
        );
        assert!(issue_range(&mut store, 1, 2, 5, kind, now).is_err());
        assert_eq!(
            recorded_range(&store, 2, 4, kind),
            Err(MtcError::NotRecorded {
                kind: "standalone",
                index: 3
            })
        );
        // No landmark covers the entries: none is made or recorded.
        assert!(issue_range(&mut store, 1, 0, 1, CertKind::Landmark, now).is_err());
        assert!(recorded_range(&store, 0, 1, CertKind::Landmark).is_err());
    }
}
