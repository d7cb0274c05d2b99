//! MTCProof, the TLS-encoded signatureValue of an MTC certificate
//! (draft-ietf-plants-merkle-tree-certs-07 §6.2):
//!
//! ```text
//! opaque TrustAnchorID<1..2^8-1>;
//! struct { TrustAnchorID cosigner_id; opaque signature<0..2^16-1>; } Cosignature;
//! struct { MTCLogEntryExtension extensions<0..2^16-1>;
//!          uint48 start; uint48 end;
//!          HashValue inclusion_proof<0..2^16-1>;
//!          Cosignature signatures<0..2^24-1>; } MTCProof;
//! ```
//!
//! > The cosigner_id values MUST be unique and sorted: shorter IDs first, then bytewise.
//!
//! Encoding sorts and deduplicates; decoding rejects lists that are not already so.

use super::entry::check_entry_extensions;
use super::error::{MtcError, Result};
use super::hash::Hash;
use super::limits::UINT48_MAX;
use super::subtree::Subtree;
use crate::der::{self, tls};
use std::cmp::Ordering;

/// One `Cosignature`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cosignature {
    /// The cosigner's TrustAnchorID in binary.
    pub cosigner_id: Vec<u8>,
    /// The signature over the CosignedSubtree message.
    pub signature: Vec<u8>,
}

/// One decoded MTCProof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MtcProof {
    /// The entry's `extensions` vector contents.
    pub extensions: Vec<u8>,
    /// The subtree the inclusion proof leads to.
    pub subtree: Subtree,
    /// The inclusion proof: sibling hashes from the entry's leaf up to the subtree's root.
    pub inclusion_proof: Vec<Hash>,
    /// The cosignatures over the subtree (none for a landmark-relative certificate).
    pub signatures: Vec<Cosignature>,
}

/// The draft's cosigner order: shorter IDs first, then bytewise.
pub fn cosigner_order(a: &[u8], b: &[u8]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// Sort and deduplicate by cosigner ID (the first signature of a duplicate ID is kept).
pub fn normalize_signatures(sigs: &mut Vec<Cosignature>) {
    sigs.sort_by(|a, b| cosigner_order(&a.cosigner_id, &b.cosigner_id));
    sigs.dedup_by(|a, b| a.cosigner_id == b.cosigner_id);
}

impl MtcProof {
    /// TLS encoding (the signatures are normalized first).
    pub fn encode(&self) -> Result<Vec<u8>> {
        if self.subtree.end > UINT48_MAX || !self.subtree.is_valid() {
            return Err(MtcError::Invalid(format!(
                "{} is not a valid uint48 subtree",
                self.subtree
            )));
        }
        let mut sigs = self.signatures.clone();
        normalize_signatures(&mut sigs);
        let mut w = tls::Writer::with_capacity(
            16 + self.extensions.len() + 32 * self.inclusion_proof.len() + 128 * sigs.len(),
        );
        let mut write = || -> der::Result<()> {
            w.opaque(0, 0xffff, &self.extensions)?;
            w.u48(self.subtree.start)?.u48(self.subtree.end)?;
            w.opaque(0, 0xffff, self.inclusion_proof.as_flattened())?;
            w.vector(0, 0xff_ffff, |list| {
                for s in &sigs {
                    list.opaque(1, 0xff, &s.cosigner_id)?;
                    list.opaque(0, 0xffff, &s.signature)?;
                }
                Ok::<(), der::Error>(())
            })?;
            Ok(())
        };
        write().map_err(too_long)?;
        Ok(w.finish())
    }

    /// Strict decoding: every length in bounds, no trailing bytes, extensions ascending,
    /// cosigner IDs sorted and unique. Errors carry the byte offset within `data`.
    pub fn decode(data: &[u8]) -> Result<MtcProof> {
        let mut r = tls::Reader::new(data);
        let ext_len = r.u16().map_err(MtcError::short("the extensions length"))?;
        let ext_at = r.offset();
        let extensions = r
            .bytes(usize::from(ext_len))
            .map_err(MtcError::short("the extensions"))?
            .to_vec();
        check_entry_extensions(&extensions, ext_at)?;
        let at = r.offset();
        let start = r.u48().map_err(MtcError::short("uint48 start"))?;
        let end = r.u48().map_err(MtcError::short("uint48 end"))?;
        let subtree = Subtree::new(start, end);
        if !subtree.is_valid() || subtree.is_empty() {
            return Err(MtcError::malformed(
                at,
                "a valid, non-empty subtree [start, end)",
            ));
        }
        let plen_at = r.offset();
        let plen = usize::from(
            r.u16()
                .map_err(MtcError::short("the inclusion proof length"))?,
        );
        if plen % 32 != 0 {
            return Err(MtcError::malformed(
                plen_at,
                "a multiple of 32 bytes of proof",
            ));
        }
        let inclusion_proof = r
            .bytes(plen)
            .map_err(MtcError::short("the inclusion proof"))?
            .chunks_exact(32)
            .map(|h| {
                let mut x = [0u8; 32];
                x.copy_from_slice(h);
                x
            })
            .collect();
        let slen = r.u24().map_err(MtcError::short("the signatures length"))? as usize;
        if r.remaining().len() < slen {
            return Err(MtcError::malformed(
                r.offset(),
                format!("{slen} bytes of signatures"),
            ));
        }
        // Cosignatures are read from the whole input, not a reader cut at the list's
        // end, so that one that runs past the list is named as such.
        let list_end = r.offset() + slen;
        let mut signatures: Vec<Cosignature> = Vec::new();
        while r.offset() < list_end {
            let id_at = r.offset();
            let n = r.u8().map_err(MtcError::short("a cosigner ID length"))?;
            if n == 0 {
                return Err(MtcError::malformed(
                    id_at,
                    "a cosigner ID of 1 to 255 bytes",
                ));
            }
            let cosigner_id = r
                .bytes(usize::from(n))
                .map_err(MtcError::short("the cosigner ID"))?
                .to_vec();
            let m = r.u16().map_err(MtcError::short("a signature length"))?;
            let signature = r
                .bytes(usize::from(m))
                .map_err(MtcError::short("the signature"))?
                .to_vec();
            if r.offset() > list_end {
                return Err(MtcError::malformed(id_at, "a cosignature inside the list"));
            }
            if let Some(prev) = signatures.last() {
                if cosigner_order(&prev.cosigner_id, &cosigner_id) != Ordering::Less {
                    return Err(MtcError::malformed(
                        id_at,
                        "cosigner IDs unique and sorted (shorter first, then bytewise)",
                    ));
                }
            }
            signatures.push(Cosignature {
                cosigner_id,
                signature,
            });
        }
        r.finish()
            .map_err(|e| MtcError::malformed(e.offset, "the end of the MTCProof"))?;
        Ok(MtcProof {
            extensions,
            subtree,
            inclusion_proof,
            signatures,
        })
    }
}

/// The messages encoding has always given for the vectors of an MTCProof that do not
/// fit their length prefixes.
fn too_long(e: der::Error) -> MtcError {
    match e.kind {
        der::ErrorKind::VectorLength { max: 0xff, .. } => {
            MtcError::Invalid("cosigner ID of 1 to 255 bytes".into())
        }
        der::ErrorKind::VectorLength { max: 0xff_ffff, .. } => {
            MtcError::Invalid("signature list exceeds 2^24-1 bytes".into())
        }
        _ => MtcError::too_long(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> MtcProof {
        MtcProof {
            extensions: vec![],
            subtree: Subtree::new(4, 8),
            inclusion_proof: vec![[1; 32], [2; 32]],
            signatures: vec![
                Cosignature {
                    cosigner_id: vec![0x81, 0xfd, 0x59, 0x01],
                    signature: vec![9; 3],
                },
                Cosignature {
                    cosigner_id: vec![0x2a],
                    signature: vec![7; 2],
                },
                Cosignature {
                    cosigner_id: vec![0x2a],
                    signature: vec![8; 2],
                },
            ],
        }
    }

    #[test]
    fn round_trip_sorts_and_dedups() {
        let enc = sample().encode().unwrap();
        assert_eq!(&enc[..14], &[0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 8]);
        let dec = MtcProof::decode(&enc).unwrap();
        assert_eq!(dec.signatures.len(), 2);
        assert_eq!(dec.signatures[0].cosigner_id, [0x2a]);
        assert_eq!(dec.signatures[0].signature, [7; 2]);
        assert_eq!(dec.inclusion_proof, sample().inclusion_proof);
        // uint24 list length
        let list = 1 + 1 + 2 + 2 + 1 + 4 + 2 + 3;
        assert_eq!(&enc[14 + 2 + 64..14 + 2 + 64 + 3], &[0, 0, list as u8]);
    }

    #[test]
    fn rejects_bad_encodings() {
        let enc = sample().encode().unwrap();
        for cut in 0..enc.len() {
            assert!(MtcProof::decode(&enc[..cut]).is_err(), "{cut}");
        }
        let mut trailing = enc.clone();
        trailing.push(0);
        assert!(MtcProof::decode(&trailing).is_err());
        // Swap the two cosignatures: unsorted.
        let mut p = sample();
        p.signatures.remove(2);
        let mut unsorted = p.encode().unwrap();
        let list_at = 14 + 2 + 64 + 3;
        let first = 1 + 1 + 2 + 2;
        let (a, b) = unsorted[list_at..].split_at(first);
        let swapped: Vec<u8> = b.iter().chain(a).copied().collect();
        unsorted.truncate(list_at);
        unsorted.extend(swapped);
        assert!(matches!(
            MtcProof::decode(&unsorted),
            Err(MtcError::Malformed { offset, .. }) if offset == list_at + 10
        ));
    }
}
