//! c2sp.org/tlog-witness `sign-subtree`: a witness's cosignature on a subtree of a log
//! whose checkpoint it has cosigned, for the certificates that subtree covers.
//!
//! The log (the MTC CA, after the witness cosigned its checkpoint) POSTs the subtree
//! (`subtree START END`), its hash, the subtree consistency proof from it to the
//! checkpoint (draft-ietf-plants-merkle-tree-certs §4.4), an empty line, and the
//! checkpoint carrying the witness's own cosignature. The witness needs no state for it:
//! its own signature on the checkpoint says it checked that tree, and the proof ties the
//! subtree to that tree's root. It answers with a signature line over the
//! `subtree/v1` CosignedSubtree, timestamp zero, which the CA puts into the standalone
//! certificates of the subtree beside its own (an MTCProof `Cosignature`).

use super::checkpoint::Checkpoint;
use super::cosign::CosignerKey;
use super::hash::Hash;
use super::ids::TrustAnchorId;
use super::remote::log_of;
use super::store::SubtreeSignature;
use super::subtree::Subtree;
use super::tlog_witness::{decimal, malformed, Lines, Refusal, Witness};
use super::tree::{consistency_proof, verify_consistency_proof, NodeSource};
use super::witness::parse_signature_line;
use crate::checkpoint::SIG_PREFIX;
use crate::der::tls;
use crate::error::Result;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;

/// A `sign-subtree` request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignSubtree {
    /// The subtree to cosign.
    pub subtree: Subtree,
    /// Its hash, as the log computed it.
    pub hash: Hash,
    /// The subtree consistency proof from the subtree to the checkpoint.
    pub proof: Vec<Hash>,
    /// The checkpoint, with the witness's cosignature on it.
    pub note: String,
}

impl SignSubtree {
    /// The request body.
    pub fn body(&self) -> String {
        let mut s = format!(
            "subtree {} {}\n{}\n",
            self.subtree.start,
            self.subtree.end,
            B64.encode(self.hash)
        );
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
    pub fn parse(body: &[u8]) -> std::result::Result<SignSubtree, Refusal> {
        let mut lines = Lines::new(body)?;
        let (offset, first) = lines.next("\"subtree START END\" and a newline")?;
        let range = first
            .strip_prefix("subtree ")
            .and_then(|r| r.split_once(' '))
            .and_then(|(s, e)| Some((decimal(s)?, decimal(e)?)));
        let Some((start, end)) = range else {
            return Err(malformed(
                offset,
                "\"subtree START END\" (decimals without leading zeros)",
            ));
        };
        let subtree = Subtree::new(start, end);
        // An empty subtree is valid in the draft's arithmetic but covers no certificate,
        // and its proof would tie it to nothing: not signed.
        if !subtree.is_valid() || subtree.is_empty() {
            return Err(malformed(
                offset,
                "a valid, non-empty subtree: START < END, START a multiple of the smallest power of two >= END - START",
            ));
        }
        let hash = lines.hash()?;
        let proof = lines.proof()?;
        Ok(SignSubtree {
            subtree,
            hash,
            proof,
            note: lines.rest().to_string(),
        })
    }
}

impl Witness {
    /// Judge a `sign-subtree` request and answer with the subtree's cosignature line
    /// (with its newline).
    pub fn sign_subtree(
        &self,
        backend: &Backend,
        rq: &SignSubtree,
    ) -> std::result::Result<String, Refusal> {
        let own = &self.cosigner.public;
        if own.alg != Algorithm::MlDsa44 {
            return Err(Refusal::NoSubtrees(format!(
                "this witness's key is {}; it signs subtrees only with an ML-DSA-44 key (subtree/v1)",
                own.alg
            )));
        }
        let (cp, sigs) = Checkpoint::parse(&rq.note)
            .map_err(|e| Refusal::Malformed(format!("the checkpoint: {e}")))?;
        let st = rq.subtree;
        if st.end > cp.size {
            return Err(Refusal::Malformed(format!(
                "{st} ends past the checkpoint's size {}",
                cp.size
            )));
        }
        let log = self
            .cas
            .iter()
            .find_map(|ca| log_of(&ca.ca_id, &cp.origin).map(|n| ca.ca_id.log_id(n)))
            .ok_or_else(|| {
                Refusal::UnknownLog(format!("{}: not a log this witness knows", cp.origin))
            })?;
        // Its own cosignature, not the log's: the witness vouches for trees it checked.
        if !cp.signed_by(backend, &log, own, &sigs) {
            return Err(Refusal::NotSigned(format!(
                "{} at size {}: no cosignature by this witness ({}) verifies on the checkpoint",
                cp.origin,
                cp.size,
                own.id.note_name()
            )));
        }
        if !verify_consistency_proof(st, cp.size, &rq.hash, &cp.root, &rq.proof) {
            return Err(Refusal::Inconsistent(format!(
                "the subtree consistency proof from {st} to size {} does not verify",
                cp.size
            )));
        }
        let mut signer = self
            .cosigner
            .signer()
            .map_err(|e| Refusal::Store(format!("signing: {e}")))?;
        let sig = self
            .cosigner
            .sign_subtree(&mut *signer, 0, &log, st, &rq.hash)
            .map_err(|e| Refusal::Store(format!("signing: {e}")))?;
        Ok(format!("{}\n", signature_line(own, &sig)))
    }
}

/// A subtree cosignature as a note signature line: the key ID, a zero timestamp and the
/// signature, under the cosigner's name.
fn signature_line(key: &CosignerKey, sig: &[u8]) -> String {
    let mut blob = tls::Writer::with_capacity(12 + sig.len());
    blob.bytes(&key.key_id()).u64(0).bytes(sig);
    format!(
        "{SIG_PREFIX}{} {}",
        key.id.note_name(),
        B64.encode(blob.finish())
    )
}

/// The `sign-subtree` a log sends for subtree `st` (hash `hash`) of the tree `src`
/// holds, with the checkpoint `note` its witness cosigned (of `size` entries).
pub fn request<S: NodeSource + ?Sized>(
    src: &S,
    st: Subtree,
    hash: Hash,
    note: &str,
    size: u64,
) -> Result<SignSubtree> {
    Ok(SignSubtree {
        subtree: st,
        hash,
        proof: consistency_proof(src, st, size)?,
        note: note.to_string(),
    })
}

/// The log's side of a 200 answer: of the signature lines in `answer`, the first by
/// `key` (its name and key ID), timestamp zero, that verifies over subtree `st` with
/// `hash` of log `log`; `None` when none does. `cp` is the checkpoint the request
/// carried (the lines are read as signatures on a note).
pub fn accept(
    backend: &Backend,
    cp: &Checkpoint,
    log: &TrustAnchorId,
    key: &CosignerKey,
    st: Subtree,
    hash: &Hash,
    answer: &str,
) -> Result<Option<SubtreeSignature>> {
    for line in answer.lines().filter(|l| l.starts_with(SIG_PREFIX)) {
        let Some(sig) = parse_signature_line(cp, line) else {
            continue;
        };
        if sig.name != key.id.note_name() || sig.key_id != key.key_id() || sig.timestamp != 0 {
            continue;
        }
        if key.verify_subtree(backend, 0, log, st, hash, &sig.signature)? {
            return Ok(Some(SubtreeSignature {
                subtree: st,
                cosigner: key.id.binary().to_vec(),
                hash: *hash,
                signature: sig.signature,
            }));
        }
    }
    Ok(None)
}
