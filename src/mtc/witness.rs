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
use super::store::SubtreeSignature;
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

#[cfg(test)]
mod tests {
    use super::*;

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
