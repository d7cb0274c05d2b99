//! Witnesses (c2sp.org/tlog-cosignature, mtc-tlog): what a witness signs once it has
//! audited a log, and what the CA takes from one.
//!
//! Two kinds of cosignature travel from a witness to the CA, each as a text file:
//! - checkpoint cosignatures: note signature lines (`— NAME BASE64`) over the CA's latest
//!   checkpoint, which the CA adds to the note it serves ([`CosignedNote`]);
//! - subtree cosignatures: one JSON object per line over a subtree the CA signed
//!   ([`SubtreeCosignature`]), which standalone certificates then carry beside the CA's.
//!
//! Nothing is taken on trust: each line must come from a known witness key and verify
//! against the CA's own view (its checkpoint, its hash of the subtree). A malformed line
//! is [`MtcError::Line`]; one from an unknown witness or that does not verify is
//! [`MtcError::Untrusted`].

use super::audit::{audit, AuditError, Seen};
use super::checkpoint::{Checkpoint, NoteSignature};
use super::cosign::{cosigned_subtree, Cosigner, CosignerKey};
use super::error::{MtcError, Result};
use super::fetch::Fetch;
use super::hash::Hash;
use super::ids::TrustAnchorId;
use super::remote::{proven_subtree, SignedCheckpoint};
use super::store::{LogStore, SubtreeSignature};
use super::subtree::{covering_subtrees, Subtree};
use super::tile_source::TileSource;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;
use pkit_x509::manifest::nonblank_lines;

/// A witness's signature over one subtree of a log: a line of `pkit mtc cosign
/// --subtrees` output, `{"cosigner", "start", "end", "hash", "signature"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtreeCosignature {
    /// The witness's trust anchor ID.
    pub cosigner: TrustAnchorId,
    /// The subtree signed.
    pub subtree: Subtree,
    /// The subtree's hash as the witness computed it from the tiles.
    pub hash: Hash,
    /// The signature over the CosignedSubtree message (timestamp 0, as mtc-tlog has it).
    pub signature: Vec<u8>,
}

impl SubtreeCosignature {
    /// The JSON line, without its newline.
    pub fn to_json_line(&self) -> String {
        serde_json::json!({
            "cosigner": self.cosigner.to_string(),
            "start": self.subtree.start,
            "end": self.subtree.end,
            "hash": B64.encode(self.hash),
            "signature": B64.encode(&self.signature),
        })
        .to_string()
    }

    /// Line `number` of a file (starting at byte `offset`) read back. The hash is
    /// optional: the CA checks the signature against its own hash of the subtree, never
    /// the line's.
    pub fn parse_line(line: &str, number: usize, offset: usize) -> Result<SubtreeCosignature> {
        SubtreeCosignature::parse(line).map_err(|expected| MtcError::Line {
            line: number,
            offset,
            expected,
        })
    }

    /// One line read back; on failure, what the line lacks.
    fn parse(line: &str) -> std::result::Result<SubtreeCosignature, String> {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("a JSON object ({e})"))?;
        let cosigner = v["cosigner"]
            .as_str()
            .and_then(|s| TrustAnchorId::parse(s).ok())
            .ok_or("a cosigner ID")?;
        let subtree = match (v["start"].as_u64(), v["end"].as_u64()) {
            (Some(s), Some(e)) if Subtree::new(s, e).is_valid() => Subtree::new(s, e),
            _ => return Err("a valid subtree [start, end)".into()),
        };
        let hash = match v["hash"].as_str() {
            None => [0; 32],
            Some(h) => B64
                .decode(h)
                .ok()
                .and_then(|b| Hash::try_from(b.as_slice()).ok())
                .ok_or("a base64 SHA-256 hash")?,
        };
        let signature = v["signature"]
            .as_str()
            .and_then(|s| B64.decode(s).ok())
            .ok_or("a base64 signature")?;
        Ok(SubtreeCosignature {
            cosigner,
            subtree,
            hash,
            signature,
        })
    }
}

/// The witness's side: sign the covering subtrees of what the log behind `src` added
/// since the tree of `old_size` entries it cosigned before, each hash computed from the
/// tiles and proven against `cp` (which the witness has audited). ML-DSA-44 witnesses
/// only, as mtc-tlog requires of cosignatures that go into certificates.
pub fn cosign_subtrees(
    cosigner: &Cosigner,
    name: &str,
    src: &TileSource<'_>,
    cp: &Checkpoint,
    log: &TrustAnchorId,
    old_size: u64,
) -> Result<Vec<SubtreeCosignature>> {
    let mut signer = cosigner.signer()?;
    let (x, y) = covering_subtrees(old_size, cp.size);
    let mut out = Vec::new();
    for subtree in [x, y].into_iter().filter(|s| !s.is_empty()) {
        let hash = proven_subtree(name, src, cp, subtree)?;
        let msg = cosigned_subtree(&cosigner.public.id, 0, log, subtree, &hash)?;
        out.push(SubtreeCosignature {
            cosigner: cosigner.public.id.clone(),
            subtree,
            hash,
            signature: signer.sign(&msg)?,
        });
    }
    Ok(out)
}

/// Whether a witness key of `alg` may cosign: ML-DSA-44 (the `subtree/v1` message, what
/// mtc-tlog requires of cosignatures that go into certificates) or Ed25519
/// (`cosignature/v1`, checkpoints only, so not with `subtrees`).
pub fn check_witness_key(alg: Algorithm, subtrees: bool) -> Result<()> {
    if !matches!(alg, Algorithm::MlDsa44 | Algorithm::Ed25519) {
        return Err(MtcError::Invalid(format!(
            "a {alg} key; a witness cosigns with ml-dsa-44 or ed25519 (tlog-cosignature)"
        )));
    }
    if subtrees && alg != Algorithm::MlDsa44 {
        return Err(MtcError::Invalid(format!(
            "cosignatures that go into certificates are ML-DSA-44 (mtc-tlog); the key is {alg}"
        )));
    }
    Ok(())
}

/// What a witness signed.
#[derive(Debug, Clone)]
pub struct Cosigned {
    /// The note signature line over the checkpoint, for the CA to add.
    pub line: String,
    /// The subtree cosignatures, when asked for.
    pub subtrees: Vec<SubtreeCosignature>,
    /// The tree now verified: the witness's new state, to keep only once the signature
    /// is out.
    pub seen: Seen,
}

/// The witness's procedure (c2sp.org/tlog-cosignature) over a checkpoint already
/// checked against the CA's key (`signed`): audit the log behind `fetch` (the log `name`
/// in messages) from the tree `seen` before — it must extend it, tile by tile — and only
/// then sign the checkpoint at `timestamp` and, with `subtrees`, the covering subtrees of
/// what the log added. An inconsistent log is never cosigned ([`MtcError::Untrusted`]).
#[allow(clippy::too_many_arguments)]
pub fn cosign(
    fetch: &dyn Fetch,
    name: &str,
    signed: &SignedCheckpoint,
    ca_id: &TrustAnchorId,
    cosigner: &Cosigner,
    seen: Option<&Seen>,
    timestamp: u64,
    subtrees: bool,
) -> Result<Cosigned> {
    let cp = &signed.checkpoint;
    let (now_seen, _) = audit(fetch, cp.size, cp.root, seen, false).map_err(|e| match e {
        AuditError::Found(f) => MtcError::Untrusted(format!("{name}: not cosigned: {f}")),
        AuditError::Fetch { why, .. } => MtcError::Fetch(why),
        AuditError::Mtc(e) => e,
    })?;
    let log = ca_id.log_id(signed.log);
    let line = cp.signature_line(&log, cosigner, timestamp)?;
    let subtrees = if subtrees {
        let src = TileSource::new(fetch, cp.size);
        let old = seen.map_or(0, |s| s.size);
        cosign_subtrees(cosigner, name, &src, cp, &log, old)?
    } else {
        Vec::new()
    };
    Ok(Cosigned {
        line,
        subtrees,
        seen: now_seen,
    })
}

/// The CA's side for subtree cosignatures: each line of `text` (the file `name`) must
/// be by one of `keys`, over a subtree the CA signed (`signed_by_ca` gives the CA's
/// hash of it, or `None`), and verify against that hash. What the log's store records.
pub fn accept_subtree_cosignatures(
    backend: &Backend,
    name: &str,
    text: &str,
    keys: &[CosignerKey],
    log: &TrustAnchorId,
    signed_by_ca: &dyn Fn(Subtree) -> Result<Option<Hash>>,
) -> Result<Vec<SubtreeSignature>> {
    let mut out = Vec::new();
    for (line, offset, l) in nonblank_lines(text) {
        let c = SubtreeCosignature::parse_line(l, line, offset)?;
        let (id, st) = (&c.cosigner, c.subtree);
        let key = keys.iter().find(|k| &k.id == id).ok_or_else(|| {
            MtcError::Untrusted(format!(
                "{name}: line {line}: a cosignature by {id}, not one of the --cosigner keys"
            ))
        })?;
        let hash = signed_by_ca(st)?.ok_or_else(|| {
            MtcError::Untrusted(format!(
                "{name}: line {line}: {st} is not a subtree the CA has signed"
            ))
        })?;
        if !key.verify_subtree(backend, 0, log, st, &hash, &c.signature)? {
            return Err(MtcError::Untrusted(format!(
                "{name}: line {line}: the cosignature by {id} over {st} does not verify against the log's hash of it"
            )));
        }
        out.push(SubtreeSignature {
            subtree: st,
            cosigner: id.binary().to_vec(),
            hash,
            signature: c.signature,
        });
    }
    Ok(out)
}

/// A checkpoint's note as the CA serves it, taking witnesses' signature lines: one line
/// per witness key, a newer one replacing the older.
#[derive(Debug, Clone)]
pub struct CosignedNote {
    body: Checkpoint,
    /// The note's signature lines, the CA's first.
    lines: Vec<String>,
}

/// `line` read as a signature line on `cp`: a note of one signature line is parsed on
/// its own.
pub fn parse_signature_line(cp: &Checkpoint, line: &str) -> Option<NoteSignature> {
    let (_, sigs) = Checkpoint::parse(&format!("{}\n{line}\n", cp.body())).ok()?;
    sigs.into_iter().next()
}

impl CosignedNote {
    /// The note of a stored checkpoint.
    pub fn parse(note: &str) -> Result<CosignedNote> {
        let (body, _) = Checkpoint::parse(note)?;
        let lines = note
            .split_once("\n\n")
            .map(|(_, sigs)| sigs.lines().map(str::to_string).collect())
            .unwrap_or_default();
        Ok(CosignedNote { body, lines })
    }

    /// The checkpoint the note signs.
    pub fn checkpoint(&self) -> &Checkpoint {
        &self.body
    }

    /// Add the witness signature lines of `text` (the file `name`): each by one of
    /// `keys` and verifying over this checkpoint of log `log`. The names of the
    /// witnesses added.
    pub fn add(
        &mut self,
        backend: &Backend,
        name: &str,
        text: &str,
        log: &TrustAnchorId,
        keys: &[CosignerKey],
    ) -> Result<Vec<String>> {
        let mut added = Vec::new();
        for (line, offset, l) in nonblank_lines(text) {
            let s = parse_signature_line(&self.body, l).ok_or_else(|| MtcError::Line {
                line,
                offset,
                expected: "a signature line \"\u{2014} NAME BASE64\"".into(),
            })?;
            let key = keys
                .iter()
                .find(|k| k.id.note_name() == s.name && k.key_id() == s.key_id)
                .ok_or_else(|| {
                    MtcError::Untrusted(format!(
                        "{name}: line {line}: a cosignature by {}, not one of the --cosigner keys",
                        s.name
                    ))
                })?;
            if !self.body.verify(backend, log, key, &s)? {
                return Err(MtcError::Untrusted(format!(
                    "{name}: line {line}: the cosignature by {} does not verify against the latest checkpoint (size {})",
                    s.name, self.body.size
                )));
            }
            let body = &self.body;
            self.lines.retain(|other| {
                parse_signature_line(body, other)
                    .is_none_or(|o| !(o.name == s.name && o.key_id == s.key_id))
            });
            self.lines.push(l.to_string());
            added.push(s.name);
        }
        Ok(added)
    }

    /// The note's text.
    pub fn note(&self) -> String {
        format!("{}\n{}\n", self.body.body(), self.lines.join("\n"))
    }
}

/// Witnesses' cosignatures the CA takes into its log (`pkit mtc checkpoint --cosignature`
/// and `--subtree-cosignature`), over its latest checkpoint: each file's lines checked
/// against the witnesses' keys ([`CosignedNote::add`], [`accept_subtree_cosignatures`]),
/// then stored together by [`Cosignatures::store`]. Nothing is stored until every file
/// checked out.
#[derive(Debug)]
pub struct Cosignatures {
    ca: TrustAnchorId,
    log: TrustAnchorId,
    size: u64,
    note: CosignedNote,
    /// Whether checkpoint signature lines were offered (the note is stored again).
    lines_offered: bool,
    added: Vec<String>,
    subtrees: Vec<SubtreeSignature>,
}

/// What [`Cosignatures::store`] recorded.
#[derive(Debug, Clone)]
pub struct TakenCosignatures {
    /// The checkpoint's origin (the log's note name).
    pub origin: String,
    /// The checkpoint's tree size.
    pub size: u64,
    /// The names of the witnesses whose checkpoint signature lines were added.
    pub added: Vec<String>,
    /// The subtree cosignatures recorded.
    pub subtrees: Vec<SubtreeSignature>,
    /// The checkpoint's note as the log now serves it.
    pub note: String,
}

impl Cosignatures {
    /// Cosignatures over the latest checkpoint in `store`, the log `log` of the CA `ca`;
    /// a log without a checkpoint has nothing to cosign ([`MtcError::Invalid`]).
    pub fn for_latest(store: &dyn LogStore, ca: &TrustAnchorId, log: u16) -> Result<Cosignatures> {
        let cp = store
            .latest_checkpoint()?
            .ok_or_else(|| MtcError::Invalid("no checkpoint to add cosignatures to".into()))?;
        Ok(Cosignatures {
            ca: ca.clone(),
            log: ca.log_id(log),
            size: cp.size,
            note: CosignedNote::parse(&cp.note)?,
            lines_offered: false,
            added: Vec::new(),
            subtrees: Vec::new(),
        })
    }

    /// Take the checkpoint signature lines of `text` (the file `name`), each by one of
    /// `keys` ([`CosignedNote::add`]).
    pub fn add_checkpoint_lines(
        &mut self,
        backend: &Backend,
        name: &str,
        text: &str,
        keys: &[CosignerKey],
    ) -> Result<()> {
        self.lines_offered = true;
        let added = self.note.add(backend, name, text, &self.log, keys)?;
        self.added.extend(added);
        Ok(())
    }

    /// Take the subtree cosignatures of `text` (the file `name`), each by one of `keys`
    /// over a subtree the CA signed in `store` ([`accept_subtree_cosignatures`]).
    pub fn add_subtree_lines(
        &mut self,
        backend: &Backend,
        store: &dyn LogStore,
        name: &str,
        text: &str,
        keys: &[CosignerKey],
    ) -> Result<()> {
        let ca = self.ca.binary();
        let signed_by_ca = |st| {
            Ok(store
                .subtree_signatures(st)?
                .into_iter()
                .find(|x| x.cosigner == ca)
                .map(|x| x.hash))
        };
        let taken =
            accept_subtree_cosignatures(backend, name, text, keys, &self.log, &signed_by_ca)?;
        self.subtrees.extend(taken);
        Ok(())
    }

    /// Record what was taken: the subtree cosignatures, and the note with the added
    /// lines when checkpoint lines were offered.
    pub fn store(self, store: &mut dyn LogStore) -> Result<TakenCosignatures> {
        store.insert_subtree_signatures(&self.subtrees)?;
        let note = self.note.note();
        if self.lines_offered {
            store.set_checkpoint_note(self.size, &note)?;
        }
        Ok(TakenCosignatures {
            origin: self.note.checkpoint().origin.clone(),
            size: self.size,
            added: self.added,
            subtrees: self.subtrees,
            note,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log of three entries checkpointed by the CA 32473.1 (log 1).
    fn checkpointed(dir: &std::path::Path) -> (crate::store::SqliteLogStore, TrustAnchorId) {
        use crate::issuer::{checkpoint_store, MtcCa};
        use crate::store::NewEntry;
        let be = pkit_openssl::backend();
        let mut store = crate::store::SqliteLogStore::open(&dir.join("mtc.db")).unwrap();
        let entries: Vec<NewEntry> = (0..3u8)
            .map(|i| NewEntry {
                entry: vec![i],
                spki: Vec::new(),
                leaf: crate::hash::leaf_hash(&[i]),
            })
            .collect();
        store.append_entries(&entries).unwrap();
        let ca_id = TrustAnchorId::parse("32473.1").unwrap();
        let key = be.generate(Algorithm::Ed25519).unwrap();
        let ca = MtcCa {
            ca_id: ca_id.clone(),
            log: 1,
            cosigner: Cosigner::new(ca_id.clone(), key).unwrap(),
        };
        checkpoint_store(&mut store, &ca, 1_800_000_000).unwrap();
        (store, ca_id)
    }

    #[test]
    fn the_ca_takes_only_what_its_witnesses_signed_over_its_latest_checkpoint() {
        let be = pkit_openssl::backend();
        let dir = tempfile::tempdir().unwrap();
        let (mut store, ca_id) = checkpointed(dir.path());
        let log = ca_id.log_id(1);
        let witness = |id: &str, alg| {
            let key = be.generate(alg).unwrap();
            Cosigner::new(TrustAnchorId::parse(id).unwrap(), key).unwrap()
        };
        let (w, stranger) = (
            witness("32473.9", Algorithm::MlDsa44),
            witness("32473.8", Algorithm::Ed25519),
        );
        let keys = [w.public.clone()];
        let note = store.latest_checkpoint().unwrap().unwrap().note;
        let (cp, _) = Checkpoint::parse(&note).unwrap();
        let line = cp.signature_line(&log, &w, 1_800_000_001).unwrap();

        // A line by a key not given, and one that does not verify, are refused.
        let mut c = Cosignatures::for_latest(&store, &ca_id, 1).unwrap();
        let theirs = cp.signature_line(&log, &stranger, 1).unwrap();
        let e = c.add_checkpoint_lines(be, "s.txt", &theirs, &keys);
        assert!(matches!(e, Err(MtcError::Untrusted(m)) if m.starts_with("s.txt: line 1")));
        let st = Subtree::new(0, 2);
        let hash = crate::tree::subtree_hash(&store, st).unwrap();
        let mut signer = w.signer().unwrap();
        let mut over = |hash: &Hash| SubtreeCosignature {
            cosigner: w.public.id.clone(),
            subtree: st,
            hash: *hash,
            signature: w.sign_subtree(&mut *signer, 0, &log, st, hash).unwrap(),
        };
        let forged = over(&[7; 32]).to_json_line();
        let e = c.add_subtree_lines(be, &store, "f.txt", &forged, &keys);
        assert!(matches!(e, Err(MtcError::Untrusted(_))), "{e:?}");
        // A subtree the CA never signed is not taken either.
        let mut unsigned = over(&hash);
        unsigned.subtree = Subtree::new(0, 1);
        let e = c.add_subtree_lines(be, &store, "u.txt", &unsigned.to_json_line(), &keys);
        assert!(
            matches!(e, Err(MtcError::Untrusted(m)) if m.contains("not a subtree the CA has signed"))
        );

        // What verifies is stored: the note gains the line, the subtree its cosignature.
        let mut c = Cosignatures::for_latest(&store, &ca_id, 1).unwrap();
        c.add_checkpoint_lines(be, "w.txt", &line, &keys).unwrap();
        c.add_subtree_lines(be, &store, "w.json", &over(&hash).to_json_line(), &keys)
            .unwrap();
        let taken = c.store(&mut store).unwrap();
        assert_eq!(
            (taken.size, taken.origin.as_str()),
            (3, log.note_name().as_str())
        );
        assert_eq!(taken.added, [w.public.id.note_name()]);
        assert_eq!(taken.subtrees.len(), 1);
        assert!(taken.note.ends_with(&format!("{line}\n")));
        assert_eq!(store.latest_checkpoint().unwrap().unwrap().note, taken.note);
        let sigs = store.subtree_signatures(st).unwrap();
        assert!(sigs.iter().any(|s| s.cosigner == w.public.id.binary()));

        // Subtree cosignatures alone leave the note as it is.
        let c = Cosignatures::for_latest(&store, &ca_id, 1).unwrap();
        assert_eq!(c.store(&mut store).unwrap().note, taken.note);
    }

    #[test]
    fn a_log_without_a_checkpoint_has_nothing_to_cosign() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::SqliteLogStore::open(&dir.path().join("mtc.db")).unwrap();
        let ca_id = TrustAnchorId::parse("32473.1").unwrap();
        let e = Cosignatures::for_latest(&store, &ca_id, 1).unwrap_err();
        assert_eq!(
            e,
            MtcError::Invalid("no checkpoint to add cosignatures to".into())
        );
    }

    #[test]
    fn subtree_cosignature_lines_round_trip() {
        let c = SubtreeCosignature {
            cosigner: TrustAnchorId::parse("32473.9").unwrap(),
            subtree: Subtree::new(8, 16),
            hash: [3; 32],
            signature: vec![1, 2, 3],
        };
        assert_eq!(SubtreeCosignature::parse(&c.to_json_line()), Ok(c));
        for (bad, why) in [
            ("{", "JSON"),
            (r#"{"start":0,"end":1,"signature":"AA=="}"#, "cosigner"),
            (
                r#"{"cosigner":"1.2","start":3,"end":5,"signature":"AA=="}"#,
                "subtree",
            ),
            (r#"{"cosigner":"1.2","start":0,"end":1}"#, "signature"),
        ] {
            let e = SubtreeCosignature::parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
