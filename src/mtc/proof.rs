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

use super::entry::{check_entry_extensions, put_u16_vec};
use super::error::{MtcError, Result};
use super::hash::Hash;
use super::subtree::Subtree;
use std::cmp::Ordering;

/// Largest uint48.
pub const UINT48_MAX: u64 = (1 << 48) - 1;

/// One `Cosignature`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cosignature {
    /// The cosigner's TrustAnchorID in binary.
    pub cosigner_id: Vec<u8>,
    pub signature: Vec<u8>,
}

/// One decoded MTCProof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MtcProof {
    /// The entry's `extensions` vector contents.
    pub extensions: Vec<u8>,
    pub subtree: Subtree,
    pub inclusion_proof: Vec<Hash>,
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
        let mut out = Vec::with_capacity(
            16 + self.extensions.len() + 32 * self.inclusion_proof.len() + 128 * sigs.len(),
        );
        put_u16_vec(&mut out, &self.extensions)?;
        out.extend_from_slice(&self.subtree.start.to_be_bytes()[2..]);
        out.extend_from_slice(&self.subtree.end.to_be_bytes()[2..]);
        put_u16_vec(&mut out, self.inclusion_proof.as_flattened())?;
        let mut list = Vec::new();
        for s in &sigs {
            let n = u8::try_from(s.cosigner_id.len())
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| MtcError::Invalid("cosigner ID of 1 to 255 bytes".into()))?;
            list.push(n);
            list.extend_from_slice(&s.cosigner_id);
            put_u16_vec(&mut list, &s.signature)?;
        }
        if list.len() >= 1 << 24 {
            return Err(MtcError::Invalid(
                "signature list exceeds 2^24-1 bytes".into(),
            ));
        }
        out.extend_from_slice(&(list.len() as u32).to_be_bytes()[1..]);
        out.extend_from_slice(&list);
        Ok(out)
    }

    /// Strict decoding: every length in bounds, no trailing bytes, extensions ascending,
    /// cosigner IDs sorted and unique. Errors carry the byte offset within `data`.
    pub fn decode(data: &[u8]) -> Result<MtcProof> {
        let mut c = Cursor { data, pos: 0 };
        let ext_len = c.uint(2, "the extensions length")? as usize;
        let ext_at = c.pos;
        let extensions = c.take(ext_len, "the extensions")?.to_vec();
        check_entry_extensions(&extensions, ext_at)?;
        let at = c.pos;
        let start = c.uint(6, "uint48 start")?;
        let end = c.uint(6, "uint48 end")?;
        let subtree = Subtree::new(start, end);
        if !subtree.is_valid() || subtree.is_empty() {
            return Err(MtcError::malformed(
                at,
                "a valid, non-empty subtree [start, end)",
            ));
        }
        let plen = c.uint(2, "the inclusion proof length")? as usize;
        if plen % 32 != 0 {
            return Err(MtcError::malformed(
                c.pos - 2,
                "a multiple of 32 bytes of proof",
            ));
        }
        let inclusion_proof = c
            .take(plen, "the inclusion proof")?
            .chunks_exact(32)
            .map(|h| {
                let mut x = [0u8; 32];
                x.copy_from_slice(h);
                x
            })
            .collect();
        let slen = c.uint(3, "the signatures length")? as usize;
        let list_end = c.pos + slen;
        if data.len() < list_end {
            return Err(MtcError::malformed(
                c.pos,
                format!("{slen} bytes of signatures"),
            ));
        }
        let mut signatures: Vec<Cosignature> = Vec::new();
        while c.pos < list_end {
            let id_at = c.pos;
            let n = c.uint(1, "a cosigner ID length")? as usize;
            if n == 0 {
                return Err(MtcError::malformed(
                    id_at,
                    "a cosigner ID of 1 to 255 bytes",
                ));
            }
            let cosigner_id = c.take(n, "the cosigner ID")?.to_vec();
            let m = c.uint(2, "a signature length")? as usize;
            let signature = c.take(m, "the signature")?.to_vec();
            if c.pos > list_end {
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
        if c.pos != data.len() {
            return Err(MtcError::malformed(c.pos, "the end of the MTCProof"));
        }
        Ok(MtcProof {
            extensions,
            subtree,
            inclusion_proof,
            signatures,
        })
    }
}

struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if self.data.len() - self.pos < n {
            return Err(MtcError::malformed(self.pos, format!("{what} ({n} bytes)")));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// A big-endian unsigned integer of `n` ≤ 8 bytes.
    fn uint(&mut self, n: usize, what: &str) -> Result<u64> {
        Ok(self
            .take(n, what)?
            .iter()
            .fold(0u64, |v, &b| (v << 8) | u64::from(b)))
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
