//! JSON model of MTC objects: the MTCProof inside an MTC certificate's signatureValue
//! (draft-ietf-plants-merkle-tree-certs-07 §6.2) and checkpoint notes.

use super::{Described, Failure};
use crate::der::hex;
use crate::der::oid_registry as oids;
use crate::der::{integer, Error};
use pkit_mtc::cert::split_serial;
use pkit_mtc::checkpoint::Checkpoint;
use pkit_mtc::ids::TrustAnchorId;
use pkit_mtc::proof::MtcProof;
use pkit_mtc::MtcError;
use pkit_x509::cert::Certificate;
use pkit_x509::detect::Kind;
use serde_json::{json, Value};

fn cosigner_name(id: &[u8]) -> String {
    TrustAnchorId::from_binary(id, 0).map_or_else(|_| hex(id), |i| i.to_string())
}

/// The `mtc` member of a certificate whose signature algorithm is id-alg-mtcProof: what
/// the serial and proof say (no verification; `pkit mtc verify` does that).
pub(crate) fn proof_json(c: &Certificate<'_>) -> Option<Value> {
    if c.signature_algorithm.oid.as_bytes() != oids::ALG_MTC_PROOF.as_bytes() {
        return None;
    }
    let serial = (!integer::is_negative(c.serial))
        .then(|| integer::to_u64(c.serial, c.serial_offset).ok())
        .flatten();
    let (log, index) = serial.map(split_serial).unzip();
    Some(match MtcProof::decode(c.signature.bytes) {
        Ok(p) => json!({
            "log_number": log,
            "index": index,
            "subtree": {"start": p.subtree.start, "end": p.subtree.end},
            "proof_length": p.inclusion_proof.len(),
            "cosigners": p.signatures.iter().map(|s| cosigner_name(&s.cosigner_id)).collect::<Vec<_>>(),
            "landmark_relative": p.signatures.is_empty(),
            "entry_extensions_length": p.extensions.len(),
        }),
        Err(e) => json!({"log_number": log, "index": index, "proof_error": e.to_string()}),
    })
}

/// A checkpoint note: origin, size, root and the signature lines (not verified).
pub(crate) fn describe_checkpoint(data: &[u8]) -> Result<Described, Failure> {
    let text = std::str::from_utf8(data)
        .map_err(|e| Failure::Der(Error::invalid(e.valid_up_to(), "UTF-8 note text")))?;
    let (cp, sigs) = Checkpoint::parse(text).map_err(|e| match e {
        MtcError::Malformed { offset, expected } => {
            Failure::Der(Error::invalid(offset, format!("expected {expected}")))
        }
        other => Failure::Der(Error::invalid(0, other.to_string())),
    })?;
    let json = json!({
        "type": Kind::Checkpoint.as_str(),
        "origin": cp.origin,
        "tree_size": cp.size,
        "root_hash": hex(&cp.root),
        "signatures": sigs.iter().map(|s| json!({
            "name": s.name,
            "key_id": hex(&s.key_id),
            "timestamp": s.timestamp,
            "signature_length": s.signature.len(),
        })).collect::<Vec<_>>(),
    });
    Ok(Described::new(Kind::Checkpoint, json, data))
}
