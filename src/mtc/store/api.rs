//! What issuance, the `pkit mtc` commands and the benches see of an MTC log store: the
//! [`LogStore`] trait and the rows it keeps. Implementations live beside this file.

use crate::error::Result;
use crate::hash::Hash;
use crate::landmark::Landmark;
use crate::subtree::Subtree;
use crate::tree::{MemTree, NodeSource};

/// One entry to append: its MTCLogEntry bytes, the subject SPKI and the leaf hash.
#[derive(Debug, Clone)]
pub struct NewEntry {
    /// The MTCLogEntry bytes.
    pub entry: Vec<u8>,
    /// The subject's SubjectPublicKeyInfo.
    pub spki: Vec<u8>,
    /// The entry's leaf hash.
    pub leaf: Hash,
}

/// A stored cosignature over a subtree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtreeSignature {
    /// The subtree signed.
    pub subtree: Subtree,
    /// The cosigner's trust anchor ID, binary.
    pub cosigner: Vec<u8>,
    /// The subtree's hash the signature covers.
    pub hash: Hash,
    /// The signature bytes.
    pub signature: Vec<u8>,
}

/// A signed subtree with its hash and every cosignature over it.
pub type SignedSubtree = (Subtree, Hash, Vec<SubtreeSignature>);

/// A stored checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredCheckpoint {
    /// The tree size.
    pub size: u64,
    /// The root hash.
    pub root: Hash,
    /// The signed note (body and signature lines).
    pub note: String,
    /// Unix seconds when it was signed.
    pub created: i64,
}

/// The two kinds of MTC certificate: standalone (the proof carries cosignatures over a
/// signed subtree) and landmark-relative (no signatures; a landmark's subtree).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CertKind {
    /// Standalone: the proof leads to a subtree the CA signed, and carries its cosignatures.
    Standalone,
    /// Landmark-relative: the proof leads to a landmark's subtree and carries no signatures.
    Landmark,
}

impl CertKind {
    /// The name stored with a row (`standalone`, `landmark`).
    pub fn as_str(self) -> &'static str {
        match self {
            CertKind::Standalone => "standalone",
            CertKind::Landmark => "landmark",
        }
    }
}

/// An issued certificate's MTCProof as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredProof {
    /// The entry's index in the log.
    pub index: u64,
    /// Standalone or landmark-relative.
    pub kind: CertKind,
    /// The subtree the inclusion proof leads to.
    pub subtree: Subtree,
    /// The TLS-encoded MTCProof (`proof_encode`'s output).
    pub proof: Vec<u8>,
}

/// An issued certificate as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredCertificate {
    /// The entry's index in the log.
    pub index: u64,
    /// Standalone or landmark-relative.
    pub kind: CertKind,
    /// The certificate's DER.
    pub der: Vec<u8>,
    /// Unix seconds of issuance.
    pub created: i64,
}

/// An MTC issuance log. Its tree is read as a [`NodeSource`] (`size` is the number of
/// entries, level 0 the leaf hashes). Every write is atomic: a call that fails stores
/// nothing of what it was given. Writes take `&mut self`; reads take `&self`, so proofs
/// can be computed while the store is shared (an implementation whose client needs
/// exclusive access for reads too keeps it behind a lock).
pub trait LogStore: NodeSource + Send {
    /// Set a `meta` value, replacing an earlier one.
    fn set_meta(&mut self, key: &str, value: &str) -> Result<()>;
    /// A `meta` value (the CA ID, the log number, …), if set.
    fn meta(&self, key: &str) -> Result<Option<String>>;

    /// Say that many appends follow (`pkit mtc add --from`), so the store can prepare
    /// for a bulk load; until it is dropped. By default nothing changes.
    fn prepare_bulk_append(&mut self) -> Result<()> {
        Ok(())
    }

    /// Append entries, with the tree nodes they complete, in one transaction
    /// (`db_insert_entries`); returns the index of the first.
    fn append_entries(&mut self, entries: &[NewEntry]) -> Result<u64>;

    /// The entry bytes and SPKI at `index`.
    fn entry(&self, index: u64) -> Result<(Vec<u8>, Vec<u8>)>;

    /// Entries `[start, end)` in index order (`db_read_entries`).
    fn entries(&self, start: u64, end: u64) -> Result<Vec<(Vec<u8>, Vec<u8>)>>;

    /// Every stored node, as an in-memory tree (for answering all proofs of a batch).
    fn load_tree(&self) -> Result<MemTree>;

    /// Record a checkpoint and the cosignatures it made (`db_insert_checkpoint`); a
    /// cosignature of the same subtree and cosigner is replaced.
    fn insert_checkpoint(&mut self, cp: &StoredCheckpoint, sigs: &[SubtreeSignature])
        -> Result<()>;

    /// Become the one process that makes checkpoints until [`LogStore::end_checkpoint`]
    /// (waiting for another that is), and see the log as it is now. By default nothing
    /// changes: a store one process writes has no other leader to wait for.
    fn lead_checkpoint(&mut self) -> Result<()> {
        Ok(())
    }

    /// Let the next checkpoint leader go ahead.
    fn end_checkpoint(&mut self) -> Result<()> {
        Ok(())
    }

    /// See the entries other writers (another connection, another process) appended
    /// since this store last looked: [`NodeSource::size`] and proofs then cover them.
    fn refresh(&mut self) -> Result<()>;

    /// Every cosignature stored over exactly `st`.
    fn subtree_signatures(&self, st: Subtree) -> Result<Vec<SubtreeSignature>>;

    /// Record cosignatures over subtrees already signed (a witness's, taken by the CA),
    /// in one transaction; one of the same subtree and cosigner is replaced.
    fn insert_subtree_signatures(&mut self, sigs: &[SubtreeSignature]) -> Result<()>;

    /// The newest checkpoint, if any.
    fn latest_checkpoint(&self) -> Result<Option<StoredCheckpoint>>;

    /// Replace the note of the stored checkpoint of `size` (the same checkpoint with more
    /// signature lines: cosignatures witnesses sent back).
    fn set_checkpoint_note(&mut self, size: u64, note: &str) -> Result<()>;

    /// The smallest signed subtree containing `index` (the leftmost of equal size), with
    /// all its cosignatures.
    fn signed_subtree_for(&self, index: u64) -> Result<Option<SignedSubtree>>;

    /// The landmarks in number order, starting with [`Landmark::ZERO`].
    fn landmarks(&self) -> Result<Vec<Landmark>>;

    /// Record a landmark allocated by `pkit mtc landmark`.
    fn insert_landmark(&mut self, l: &Landmark) -> Result<()>;

    /// Record proofs (`db_insert_proofs`); a row for the same index and kind is replaced.
    fn insert_proofs(&mut self, proofs: &[StoredProof]) -> Result<()>;

    /// Record certificates (`db_insert_standalone`); a row for the same index and kind is
    /// replaced.
    fn insert_certificates(&mut self, certs: &[StoredCertificate]) -> Result<()>;

    /// Record what one issue handed out, proofs and certificates, in one transaction
    /// (`pkit mtc cert`).
    fn record_issued(&mut self, proofs: &[StoredProof], certs: &[StoredCertificate]) -> Result<()>;

    /// The recorded proofs of `kind` for indices `[start, end)`, in index order.
    fn proofs_in(&self, start: u64, end: u64, kind: CertKind) -> Result<Vec<StoredProof>>;

    /// The recorded certificates of `kind` for indices `[start, end)`, in index order
    /// (`db_read_standalone`).
    fn stored_certificates(
        &self,
        start: u64,
        end: u64,
        kind: CertKind,
    ) -> Result<Vec<StoredCertificate>>;

    /// The recorded proof of `index` of `kind`, if any.
    fn proof(&self, index: u64, kind: CertKind) -> Result<Option<StoredProof>> {
        Ok(self.proofs_in(index, index.saturating_add(1), kind)?.pop())
    }

    /// The recorded certificate of `index` of `kind`, if any.
    fn stored_certificate(&self, index: u64, kind: CertKind) -> Result<Option<StoredCertificate>> {
        Ok(self
            .stored_certificates(index, index.saturating_add(1), kind)?
            .pop())
    }
}
