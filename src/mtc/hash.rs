//! RFC 9162 §2.1.1 hashing with SHA-256, as draft-ietf-plants-merkle-tree-certs-07 §4
//! uses it:
//!
//! > MTH({d(0)}) = HASH(0x00 || d(0))
//! > MTH(D\[n\]) = HASH(0x01 || MTH(D\[0:k\]) || MTH(D\[k:n\]))
//! > The hash of an empty list is the hash of an empty string: MTH({}) = HASH().
//!
//! The `sha2` crate is used directly rather than the backend: a per-call backend digest
//! costs several times the 65-byte compression it wraps, and tree building is nothing
//! but these calls.

use sha2::{Digest as _, Sha256};

/// `opaque HashValue[HASH_SIZE]` with SHA-256.
pub type Hash = [u8; 32];

/// `HASH(0x00 || entry)`: the leaf hash of one MTCLogEntry.
#[inline]
pub fn leaf_hash(entry: &[u8]) -> Hash {
    let mut h = Sha256::new();
    h.update([0u8]);
    h.update(entry);
    h.finalize().into()
}

/// `HASH(0x01 || left || right)`: an interior node.
#[inline]
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    let mut buf = [0u8; 65];
    buf[0] = 1;
    buf[1..33].copy_from_slice(left);
    buf[33..].copy_from_slice(right);
    Sha256::digest(buf).into()
}

/// MTH of a power-of-two run of hashes (the nodes of one level under a complete
/// subtree); the empty tree's hash for none.
pub fn perfect_root(hashes: &[Hash]) -> Hash {
    if hashes.is_empty() {
        return empty_hash();
    }
    let mut row = hashes.to_vec();
    while row.len() > 1 {
        row = row
            .chunks_exact(2)
            .map(|p| node_hash(&p[0], &p[1]))
            .collect();
    }
    row[0]
}

/// `HASH()`: the hash of the empty tree.
pub fn empty_hash() -> Hash {
    Sha256::digest([]).into()
}

/// Plain SHA-256 (the SPKI hash of a TBSCertificateLogEntry, key IDs).
pub fn sha256(data: &[u8]) -> Hash {
    Sha256::digest(data).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_tree_hash() {
        assert_eq!(
            crate::der::hex(&empty_hash()),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
