//! The right edge of an append-only tree: what a log store keeps in memory so that each
//! appended leaf adds its hash and the interior nodes it completes without reading
//! anything back. Any store implementation appends through it, so the node arithmetic
//! lives here once rather than in each database's code.

use super::error::{MtcError, Result};
use super::hash::{node_hash, Hash};

/// The right edge of a tree: the nodes an append combines with, one per level at most.
/// Appending leaves one by one through it yields each completed node and, at the end, the
/// root.
#[derive(Debug, Clone, Default)]
pub struct Frontier {
    size: u64,
    /// `waiting[l]`: the last complete node of level `l` when it is a left child still
    /// waiting for its sibling.
    waiting: Vec<Option<Hash>>,
}

impl Frontier {
    /// The right edge of a tree of `size` leaves whose complete nodes `node` reads (by
    /// level and index): one read per level.
    pub fn load(size: u64, node: impl Fn(u32, u64) -> Result<Hash>) -> Result<Frontier> {
        let mut waiting = Vec::new();
        let mut l = 0;
        while size.checked_shr(l).unwrap_or(0) > 0 {
            let count = size >> l;
            waiting.push(if count & 1 == 1 {
                Some(node(l, count - 1)?)
            } else {
                None
            });
            l += 1;
        }
        Ok(Frontier { size, waiting })
    }

    /// Number of leaves appended so far.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// MTH of the tree so far: the waiting nodes folded from the lowest level up (the
    /// empty tree's hash for no leaves).
    pub fn root(&self) -> Hash {
        let mut acc: Option<Hash> = None;
        for h in self.waiting.iter().flatten() {
            acc = Some(match acc {
                None => *h,
                Some(right) => node_hash(h, &right),
            });
        }
        acc.unwrap_or_else(super::hash::empty_hash)
    }

    /// The waiting nodes by level (what [`Frontier::from_parts`] takes back), so that a
    /// right edge can be kept between runs (`pkit mtc audit`'s state).
    pub fn parts(&self) -> &[Option<Hash>] {
        &self.waiting
    }

    /// A frontier of `size` leaves from its waiting nodes: one per set bit of `size`,
    /// at that bit's level.
    pub fn from_parts(size: u64, waiting: Vec<Option<Hash>>) -> Result<Frontier> {
        let fits = (0..64).all(|l| {
            let bit = size >> l & 1 == 1;
            bit == waiting.get(l).is_some_and(Option::is_some)
        }) && waiting.len() <= 64;
        if !fits {
            return Err(MtcError::Invalid(format!(
                "a right edge that does not fit a tree of {size} leaves"
            )));
        }
        Ok(Frontier { size, waiting })
    }

    /// Append one leaf. `completed` is given each interior node the leaf completes
    /// (level ≥ 1, index, hash), bottom up, to store it; an error from it stops the
    /// append and leaves this frontier part-way, so callers append to a copy and keep
    /// it only once their own writes have committed.
    pub fn push(
        &mut self,
        leaf: Hash,
        mut completed: impl FnMut(u32, u64, &Hash) -> Result<()>,
    ) -> Result<()> {
        let mut h = leaf;
        let mut i = self.size;
        let mut level = 0usize;
        // Each set low bit of the index pairs the new node with a waiting left one.
        while i & 1 == 1 {
            let left = self
                .waiting
                .get_mut(level)
                .and_then(Option::take)
                .ok_or_else(|| MtcError::Store("database: missing right-edge node".into()))?;
            h = node_hash(&left, &h);
            i >>= 1;
            level += 1;
            completed(level as u32, i, &h)?;
        }
        if self.waiting.len() <= level {
            self.waiting.resize(level + 1, None);
        }
        self.waiting[level] = Some(h);
        self.size += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::leaf_hash;
    use crate::tree::{MemTree, NodeSource};

    #[test]
    fn completes_the_nodes_a_tree_holds() {
        let leaves: Vec<Hash> = (0..23u8).map(|i| leaf_hash(&[i])).collect();
        let full = MemTree::from_leaves(leaves.clone());
        // Start from a loaded prefix, then append the rest.
        let prefix = MemTree::from_leaves(leaves[..9].to_vec());
        let mut f = Frontier::load(9, |l, i| prefix.node(l, i)).unwrap();
        let mut nodes = Vec::new();
        for l in &leaves[9..] {
            f.push(*l, |level, index, h| {
                nodes.push((level, index, *h));
                Ok(())
            })
            .unwrap();
        }
        assert_eq!(f.size(), 23);
        assert_eq!(f.root(), full.root());
        let back = Frontier::from_parts(23, f.parts().to_vec()).unwrap();
        assert_eq!(back.root(), full.root());
        assert!(Frontier::from_parts(24, f.parts().to_vec()).is_err());
        assert_eq!(Frontier::default().root(), MemTree::new().root());
        for n in [1usize, 2, 3, 8, 9] {
            let t = MemTree::from_leaves(leaves[..n].to_vec());
            let mut g = Frontier::default();
            for l in &leaves[..n] {
                g.push(*l, |_, _, _| Ok(())).unwrap();
            }
            assert_eq!(g.root(), t.root(), "{n}");
        }
        assert!(!nodes.is_empty());
        for (level, index, h) in nodes {
            assert_eq!(full.node(level, index).unwrap(), h, "({level}, {index})");
        }
    }
}
