//! c2sp.org/tlog-witness: a witness that cosigns over HTTP, and what a log sends it.
//!
//! A log (here, the MTC CA when it checkpoints) POSTs `add-checkpoint`: the tree size the
//! witness last cosigned for it (`old N`), a consistency proof from that size to the new
//! one (RFC 6962 §2.1.2; for a prefix of the tree it is the draft's subtree consistency
//! proof of `[0, N)`), a blank line, and the signed checkpoint. The witness checks the
//! log's signature with the key it was configured with, checks that `old` is the size it
//! recorded and that the proof takes its recorded root to the new one, records the new
//! checkpoint — the check and the record in one transaction of its state
//! ([`WitnessState`]), so two requests never roll its view back — and only then answers
//! with its cosignature line. Each refusal has the status code the protocol names
//! ([`Refusal::status`]).

use super::cert::CaInfo;
use super::checkpoint::Checkpoint;
use super::checkpoint::SIG_PREFIX;
use super::cosign::{Cosigner, CosignerKey};
use super::hash::{sha256, Hash};
use super::ids::{TrustAnchorId, NOTE_PREFIX};
use super::remote::log_of;
use super::subtree::Subtree;
use super::tree::{consistency_proof, verify_consistency_proof, NodeSource};
use super::witness::parse_signature_line;
use crate::error::{MtcError, Result};
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use pkit_x509::backend::Backend;

/// At most this many consistency proof lines (tlog-witness).
pub const MAX_PROOF_LINES: usize = 63;

/// The Content-Type of a 409 answer's body: the witness's recorded size.
pub const SIZE_CONTENT_TYPE: &str = "text/x.tlog.size";

/// An `add-checkpoint` request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddCheckpoint {
    /// The tree size the witness last cosigned for this log, as the log believes.
    pub old: u64,
    /// The consistency proof from `old` to the checkpoint's size.
    pub proof: Vec<Hash>,
    /// The signed checkpoint note.
    pub note: String,
}

impl AddCheckpoint {
    /// The request body.
    pub fn body(&self) -> String {
        let mut s = format!("old {}\n", self.old);
        for h in &self.proof {
            s.push_str(&B64.encode(h));
            s.push('\n');
        }
        s.push('\n');
        s.push_str(&self.note);
        s
    }

    /// Read a request body; a malformed one is a 400 with the byte offset and what was
    /// expected there.
    pub fn parse(body: &[u8]) -> std::result::Result<AddCheckpoint, Refusal> {
        let mut lines = Lines::new(body)?;
        let (offset, first) = lines.next("\"old SIZE\" and a newline")?;
        let old = first
            .strip_prefix("old ")
            .and_then(decimal)
            .ok_or_else(|| malformed(offset, "\"old SIZE\" (a decimal without leading zeros)"))?;
        let proof = lines.proof()?;
        Ok(AddCheckpoint {
            old,
            proof,
            note: lines.rest().to_string(),
        })
    }
}

/// A 400 answer: where in the body, and what was expected there.
pub(crate) fn malformed(offset: usize, expected: &str) -> Refusal {
    Refusal::Malformed(format!("at byte {offset}: expected {expected}"))
}

/// An ASCII decimal without leading zeros (`0` itself excepted), as the protocol writes
/// sizes and indexes.
pub(crate) fn decimal(n: &str) -> Option<u64> {
    (n == "0" || (!n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit())))
        .then(|| n.parse().ok())
        .flatten()
}

/// A request body read line by line: each line ends in a newline; the proof lines end
/// at an empty one, and the signed note follows.
pub(crate) struct Lines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(body: &'a [u8]) -> std::result::Result<Lines<'a>, Refusal> {
        let text =
            std::str::from_utf8(body).map_err(|e| malformed(e.valid_up_to(), "UTF-8 text"))?;
        Ok(Lines { text, at: 0 })
    }

    /// The next line (its offset and text, without the newline).
    pub(crate) fn next(&mut self, what: &str) -> std::result::Result<(usize, &'a str), Refusal> {
        let rest = &self.text[self.at..];
        let end = rest.find('\n').ok_or_else(|| malformed(self.at, what))?;
        let line = (self.at, &rest[..end]);
        self.at += end + 1;
        Ok(line)
    }

    /// A base64 SHA-256 hash line.
    pub(crate) fn hash(&mut self) -> std::result::Result<Hash, Refusal> {
        let (offset, line) = self.next("a base64 hash")?;
        b64_hash(line).ok_or_else(|| malformed(offset, "a base64 SHA-256 hash"))
    }

    /// At most [`MAX_PROOF_LINES`] hash lines, then the empty line.
    pub(crate) fn proof(&mut self) -> std::result::Result<Vec<Hash>, Refusal> {
        let mut proof = Vec::new();
        loop {
            let (offset, line) = self.next("a base64 hash or an empty line")?;
            if line.is_empty() {
                return Ok(proof);
            }
            if proof.len() == MAX_PROOF_LINES {
                return Err(malformed(offset, "at most 63 consistency proof lines"));
            }
            proof.push(b64_hash(line).ok_or_else(|| malformed(offset, "a base64 SHA-256 hash"))?);
        }
    }

    /// What follows (the signed note).
    pub(crate) fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }
}

fn b64_hash(line: &str) -> Option<Hash> {
    B64.decode(line).ok().and_then(|v| v.try_into().ok())
}

/// Why a witness does not cosign, as tlog-witness answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The request is not one (400): what was wrong and where.
    Malformed(String),
    /// The checkpoint's origin is not a log this witness knows (404).
    UnknownLog(String),
    /// No signature on the checkpoint verifies with the log's key (403).
    NotSigned(String),
    /// `old` is not the size the witness recorded, or the same size with another root
    /// (409): the size it recorded, and why.
    Conflict {
        /// The size of the latest checkpoint it cosigned for the log.
        size: u64,
        /// What did not match.
        why: String,
    },
    /// The consistency proof does not take the recorded tree to the new one (422).
    Inconsistent(String),
    /// The witness's own state could not be read or written (500).
    Store(String),
    /// `sign-subtree` to a witness whose key's cosignatures cannot sign subtrees
    /// (Ed25519 `cosignature/v1`): the optional API is not there (404).
    NoSubtrees(String),
}

impl Refusal {
    /// The HTTP status code.
    pub fn status(&self) -> u16 {
        match self {
            Refusal::Malformed(_) => 400,
            Refusal::UnknownLog(_) | Refusal::NoSubtrees(_) => 404,
            Refusal::NotSigned(_) => 403,
            Refusal::Conflict { .. } => 409,
            Refusal::Inconsistent(_) => 422,
            Refusal::Store(_) => 500,
        }
    }

    /// The answer's body: for a conflict, the recorded size and a newline (what a
    /// log reads to try again); otherwise the reason, one line.
    pub fn body(&self) -> String {
        match self {
            Refusal::Conflict { size, .. } => format!("{size}\n"),
            other => format!("{}\n", other.reason()),
        }
    }

    /// The answer's Content-Type.
    pub fn content_type(&self) -> &'static str {
        match self {
            Refusal::Conflict { .. } => SIZE_CONTENT_TYPE,
            _ => "text/plain; charset=utf-8",
        }
    }

    /// Why, in words (for the log line).
    pub fn reason(&self) -> String {
        match self {
            Refusal::Malformed(w)
            | Refusal::UnknownLog(w)
            | Refusal::NotSigned(w)
            | Refusal::Inconsistent(w)
            | Refusal::Store(w)
            | Refusal::NoSubtrees(w) => w.clone(),
            Refusal::Conflict { why, .. } => why.clone(),
        }
    }
}

/// What a witness recorded for one log: the latest checkpoint it cosigned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recorded {
    /// Its tree size.
    pub size: u64,
    /// Its root hash.
    pub root: Hash,
}

/// The judgment [`WitnessState::advance`] runs on what is recorded (sent to the thread a
/// database client may need).
pub type Decide<'a> =
    dyn FnMut(Option<Recorded>) -> std::result::Result<Recorded, Refusal> + Send + 'a;

/// A witness's durable state: per log origin, the latest checkpoint it cosigned.
pub trait WitnessState: Send {
    /// In one transaction: read what is recorded for `origin`, let `decide` judge
    /// against it, and record what it returns; nothing is recorded when it refuses.
    fn advance(
        &mut self,
        origin: &str,
        decide: &mut Decide<'_>,
    ) -> std::result::Result<Recorded, Refusal>;
    /// What is recorded for `origin`.
    fn recorded(&mut self, origin: &str) -> Result<Option<Recorded>>;
}

/// A witness: its key, and the MTC CAs whose logs it cosigns.
pub struct Witness {
    /// The witness's cosigner (key and trust anchor ID).
    pub cosigner: Cosigner,
    /// The CAs whose logs' checkpoints it accepts.
    pub cas: Vec<CaInfo>,
}

impl Witness {
    /// Judge `rq` against the state, record it, and answer with the cosignature line
    /// (with its newline) at `timestamp`.
    pub fn add_checkpoint(
        &self,
        backend: &Backend,
        state: &mut dyn WitnessState,
        rq: &AddCheckpoint,
        timestamp: u64,
    ) -> std::result::Result<String, Refusal> {
        let (cp, sigs) = Checkpoint::parse(&rq.note)
            .map_err(|e| Refusal::Malformed(format!("the checkpoint: {e}")))?;
        let (ca, log) = self
            .cas
            .iter()
            .find_map(|ca| log_of(&ca.ca_id, &cp.origin).map(|n| (ca, ca.ca_id.log_id(n))))
            .ok_or_else(|| {
                Refusal::UnknownLog(format!("{}: not a log this witness knows", cp.origin))
            })?;
        let key = CosignerKey::new(ca.ca_id.clone(), ca.spki.clone())
            .map_err(|e| Refusal::Store(e.to_string()))?;
        // Signatures by other keys are ignored, as the protocol asks.
        if !cp.signed_by(backend, &log, &key, &sigs) {
            return Err(Refusal::NotSigned(format!(
                "{}: no signature by the log's key ({}) verifies",
                cp.origin,
                ca.ca_id.note_name()
            )));
        }
        if rq.old > cp.size {
            return Err(Refusal::Malformed(format!(
                "old size {} is past the checkpoint's size {}",
                rq.old, cp.size
            )));
        }
        if rq.old == 0 && !rq.proof.is_empty() {
            return Err(Refusal::Malformed(
                "a proof from size 0 must be empty".into(),
            ));
        }
        state.advance(&cp.origin, &mut |now| judge(now, rq, &cp))?;
        let line = cp
            .signature_line(&log, &self.cosigner, timestamp)
            .map_err(|e| Refusal::Store(format!("signing: {e}")))?;
        Ok(format!("{line}\n"))
    }
}

/// The protocol's checks of `rq` (for checkpoint `cp`) against what is recorded.
fn judge(
    recorded: Option<Recorded>,
    rq: &AddCheckpoint,
    cp: &Checkpoint,
) -> std::result::Result<Recorded, Refusal> {
    let new = Recorded {
        size: cp.size,
        root: cp.root,
    };
    let have = recorded.map_or(0, |r| r.size);
    if rq.old != have {
        return Err(Refusal::Conflict {
            size: have,
            why: format!("old size {} but this witness cosigned size {have}", rq.old),
        });
    }
    let Some(r) = recorded.filter(|r| r.size > 0) else {
        return Ok(new);
    };
    if cp.size == r.size {
        return if cp.root == r.root {
            Ok(new)
        } else {
            Err(Refusal::Conflict {
                size: r.size,
                why: format!("size {} with another root than the one cosigned", r.size),
            })
        };
    }
    if !verify_consistency_proof(
        Subtree::new(0, r.size),
        cp.size,
        &r.root,
        &cp.root,
        &rq.proof,
    ) {
        return Err(Refusal::Inconsistent(format!(
            "the consistency proof from size {} to {} does not verify: the log does not extend the tree this witness cosigned",
            r.size, cp.size
        )));
    }
    Ok(new)
}

/// The `add-checkpoint` a log sends for its checkpoint `note` (of `size` entries) to a
/// witness that last cosigned `old`: the consistency proof from `src`, the log's tree.
pub fn request<S: NodeSource + ?Sized>(
    src: &S,
    note: &str,
    old: u64,
    size: u64,
) -> Result<AddCheckpoint> {
    let proof = if old == 0 || old == size {
        Vec::new()
    } else {
        if old > size {
            return Err(MtcError::Invalid(format!(
                "the witness cosigned size {old}, past this checkpoint's {size}"
            )));
        }
        consistency_proof(src, Subtree::new(0, old), size)?
    };
    Ok(AddCheckpoint {
        old,
        proof,
        note: note.to_string(),
    })
}

/// The log's side of a 200 answer: of the signature lines in `answer`, the first by
/// the witness key `spki` that verifies over checkpoint `cp` of log `log` (lines by
/// other keys are ignored, as the protocol asks). The witness's name comes from its line
/// (a trust anchor ID, `oid/1.3.6.1.4.1.ID`), bound to the key by the key ID. `None`
/// when no line does.
pub fn accept_cosignature(
    backend: &Backend,
    cp: &Checkpoint,
    log: &TrustAnchorId,
    spki: &[u8],
    answer: &str,
) -> Result<Option<String>> {
    for line in answer.lines().filter(|l| !l.trim().is_empty()) {
        let Some(sig) = parse_signature_line(cp, line) else {
            continue;
        };
        let Some(id) = sig
            .name
            .strip_prefix(NOTE_PREFIX)
            .and_then(|d| TrustAnchorId::parse(d).ok())
        else {
            continue;
        };
        let key = CosignerKey::new(id, spki.to_vec())?;
        if cp.verify(backend, log, &key, &sig)? {
            return Ok(Some(line.to_string()));
        }
    }
    Ok(None)
}

/// A plain Ed25519 note signature line (c2sp.org/signed-note, type 0x01) by `cosigner`
/// under `name` over the checkpoint `cp`: what a witness that knows logs by standard
/// verifier keys checks (Go's sumdb/note, litewitness). `None` for a key of another
/// type. The CA adds it to the note it submits, beside its own cosignature line.
pub fn note_signature(cp: &Checkpoint, name: &str, cosigner: &Cosigner) -> Result<Option<String>> {
    if cosigner.public.alg != pkit_x509::alg::Algorithm::Ed25519 {
        return Ok(None);
    }
    let raw = raw_key(&cosigner.public.spki);
    let mut m = name.as_bytes().to_vec();
    m.push(b'\n');
    m.push(0x01);
    m.extend_from_slice(&raw);
    let id = sha256(&m);
    let sig = cosigner.signer()?.sign(cp.body().as_bytes())?;
    let mut blob = id[..4].to_vec();
    blob.extend_from_slice(&sig);
    Ok(Some(format!("{SIG_PREFIX}{name} {}", B64.encode(blob))))
}

/// The subjectPublicKey bits of an SPKI (the raw Ed25519 key).
fn raw_key(spki: &[u8]) -> Vec<u8> {
    pkit_x509::spki::Spki::from_der(spki)
        .map(|s| s.key.bytes.to_vec())
        .unwrap_or_default()
}

/// [`accept_cosignature`] for a witness known by a note name that is not a trust anchor
/// ID (`example.com/w1`, as most witnesses are named) and an Ed25519 key: its line must
/// carry that name, the key ID of the name and key (type 0x04), and a `cosignature/v1`
/// signature over the checkpoint at its timestamp.
pub fn accept_named_cosignature(
    backend: &Backend,
    cp: &Checkpoint,
    name: &str,
    spki: &[u8],
    answer: &str,
) -> Result<Option<String>> {
    let raw = raw_key(spki);
    let mut m = name.as_bytes().to_vec();
    m.push(b'\n');
    m.push(0x04);
    m.extend_from_slice(&raw);
    let id = sha256(&m);
    for line in answer.lines().filter(|l| !l.trim().is_empty()) {
        let Some(sig) = parse_signature_line(cp, line) else {
            continue;
        };
        if sig.name != name || sig.key_id != id[..4] {
            continue;
        }
        let msg = format!("cosignature/v1\ntime {}\n{}", sig.timestamp, cp.body());
        if backend.verify(
            spki,
            pkit_x509::alg::SignatureScheme::Ed25519,
            msg.as_bytes(),
            &sig.signature,
        )? {
            return Ok(Some(line.to_string()));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests;
