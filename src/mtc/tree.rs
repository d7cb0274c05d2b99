//! Merkle trees kept as complete interior nodes by level. Level 0 holds the leaf hashes,
//! level `l` node `i` is the hash of leaves `[i·2^l, (i+1)·2^l)`. Only complete nodes are
//! stored; any other subtree hash (the right edge of a tree whose size is not a power of
//! two) is computed on demand from at most one complete node per level. Appending N
//! entries costs N − popcount hashes, a subtree hash or inclusion proof O(log N) node
//! reads, and nothing is ever rebuilt to answer a proof.
//!
//! Proof generation is generic over [`NodeSource`], so the same code answers from memory
//! ([`MemTree`]) and from the log store, which implements it (the tree knows nothing of
//! storage).

use super::error::{MtcError, Result};
use super::hash::{empty_hash, node_hash, Hash};
use super::subtree::{bit_len, split_point, Subtree};

/// Where complete nodes come from.
pub trait NodeSource {
    /// Number of leaves.
    fn size(&self) -> u64;
    /// The complete node at `level`, `index` (covering `[index·2^level, (index+1)·2^level)`,
    /// which must end at or before `size()`).
    fn node(&self, level: u32, index: u64) -> Result<Hash>;
    /// The complete nodes `[start, end)` of `level` (a tile's hashes): one read where
    /// the source can do better than a node at a time.
    fn nodes(&self, level: u32, start: u64, end: u64) -> Result<Vec<Hash>> {
        (start..end).map(|i| self.node(level, i)).collect()
    }
}

/// §4.2: the hash of a valid subtree `[start, end)` — MTH(D\[start:end\]).
pub fn subtree_hash<S: NodeSource + ?Sized>(src: &S, st: Subtree) -> Result<Hash> {
    check_subtree(src, st)?;
    range_hash(src, st.start, st.end)
}

/// MTH over `[start, end)` for a range known to be a valid subtree: the aligned
/// power-of-two prefix is one stored node, the rest recurses along the right edge.
fn range_hash<S: NodeSource + ?Sized>(src: &S, start: u64, end: u64) -> Result<Hash> {
    let n = end - start;
    if n == 0 {
        return Ok(empty_hash());
    }
    if n.is_power_of_two() {
        let level = n.trailing_zeros();
        return src.node(level, start >> level);
    }
    let k = split_point(n);
    let left = src.node(k.trailing_zeros(), start >> k.trailing_zeros())?;
    let right = range_hash(src, start + k, end)?;
    Ok(node_hash(&left, &right))
}

fn check_subtree<S: NodeSource + ?Sized>(src: &S, st: Subtree) -> Result<()> {
    if !st.is_valid() {
        return Err(MtcError::Invalid(format!("{st} is not a valid subtree")));
    }
    if st.end > src.size() {
        return Err(MtcError::Invalid(format!(
            "{st} ends past the tree size {}",
            src.size()
        )));
    }
    Ok(())
}

/// §4.3.1: the subtree inclusion proof of `index` in `[start, end)`, RFC 9162
/// `PATH(index − start, D[start:end])`, innermost sibling first.
pub fn inclusion_proof<S: NodeSource + ?Sized>(
    src: &S,
    index: u64,
    st: Subtree,
) -> Result<Vec<Hash>> {
    check_subtree(src, st)?;
    if !st.contains(index) {
        return Err(MtcError::Invalid(format!("index {index} is not in {st}")));
    }
    path(index, st, &mut |lo, hi| range_hash(src, lo, hi))
}

/// The PATH walk: down from the root, the sibling of each step (outermost first, then
/// reversed). Every sibling is a valid subtree; only those ending at `st.end` can be
/// incomplete, which is what lets [`all_inclusion_proofs`] hash the right edge once.
fn path(
    index: u64,
    st: Subtree,
    hash_of: &mut dyn FnMut(u64, u64) -> Result<Hash>,
) -> Result<Vec<Hash>> {
    let mut proof = Vec::with_capacity(bit_len(st.len()) as usize);
    let (mut lo, mut hi) = (st.start, st.end);
    while hi - lo > 1 {
        let k = split_point(hi - lo);
        if index < lo + k {
            proof.push(hash_of(lo + k, hi)?);
            hi = lo + k;
        } else {
            proof.push(hash_of(lo, lo + k)?);
            lo += k;
        }
    }
    proof.reverse();
    Ok(proof)
}

/// `proof_gen_all`: the inclusion proof of every index of `st`, in index order. The
/// incomplete right-edge subtrees are hashed once up front; every other sibling is a
/// stored node, so the whole batch costs O(N log N) reads and O(log N) hashes.
pub fn all_inclusion_proofs<S: NodeSource + ?Sized>(
    src: &S,
    st: Subtree,
) -> Result<Vec<Vec<Hash>>> {
    check_subtree(src, st)?;
    // The right edge: [lo_i, end) for lo_0 = start, lo_{i+1} = lo_i + split(end − lo_i).
    let mut los = vec![st.start];
    while let Some(&lo) = los.last() {
        let n = st.end - lo;
        if n <= 1 || n.is_power_of_two() {
            break;
        }
        los.push(lo + split_point(n));
    }
    // Bottom-up: each edge hash is a stored node joined with the edge hash below it.
    let mut edge: Vec<(u64, Hash)> = Vec::with_capacity(los.len());
    for &lo in los.iter().rev() {
        let n = st.end - lo;
        let h = match edge.last() {
            Some((_, right)) if !n.is_power_of_two() => {
                let k = split_point(n);
                node_hash(
                    &src.node(k.trailing_zeros(), lo >> k.trailing_zeros())?,
                    right,
                )
            }
            _ => range_hash(src, lo, st.end)?,
        };
        edge.push((lo, h));
    }
    let mut hash_of = |lo: u64, hi: u64| -> Result<Hash> {
        let n = hi - lo;
        if n.is_power_of_two() {
            return src.node(n.trailing_zeros(), lo >> n.trailing_zeros());
        }
        match edge.iter().find(|(l, _)| *l == lo) {
            Some((_, h)) if hi == st.end => Ok(*h),
            _ => range_hash(src, lo, hi),
        }
    };
    (st.start..st.end)
        .map(|i| path(i, st, &mut hash_of))
        .collect()
}

/// §4.4.1: the subtree consistency proof of `[start, end)` in the tree of `n` leaves.
///
/// ```text
/// SUBTREE_SUBPROOF(start, end, D_n, b):
///   start = 0 and end = n: {} if b, else {MTH(D_n)}
///   k = largest power of two < n
///   end ≤ k:        SUBTREE_SUBPROOF(start, end, D[0:k], b) : MTH(D[k:n])
///   start ≥ k:      SUBTREE_SUBPROOF(start−k, end−k, D[k:n], b) : MTH(D[0:k])
///   start < k < end: SUBTREE_SUBPROOF(0, end−k, D[k:n], false) : MTH(D[0:k])
/// ```
pub fn consistency_proof<S: NodeSource + ?Sized>(
    src: &S,
    st: Subtree,
    n: u64,
) -> Result<Vec<Hash>> {
    check_subtree(src, st)?;
    if n > src.size() || st.end > n {
        return Err(MtcError::Invalid(format!(
            "{st} is not within a tree of {n} of {} entries",
            src.size()
        )));
    }
    let mut proof = Vec::new();
    if st.is_empty() {
        return Ok(proof);
    }
    let (mut base, mut start, mut end, mut n, mut known) = (0u64, st.start, st.end, n, true);
    while !(start == 0 && end == n) {
        let k = split_point(n);
        if end <= k {
            proof.push(range_hash(src, base + k, base + n)?);
            n = k;
        } else {
            proof.push(range_hash(src, base, base + k)?);
            if start < k {
                known = false;
            }
            start = start.saturating_sub(k);
            end -= k;
            base += k;
            n -= k;
        }
    }
    if !known {
        proof.push(range_hash(src, base, base + n)?);
    }
    proof.reverse();
    Ok(proof)
}

/// §4.3.2: evaluate an inclusion proof of `entry_hash` at `index` in `[start, end)`,
/// giving the subtree hash it implies.
///
/// ```text
/// fn = index − start; sn = end − start − 1; r = entry_hash
/// for each p in proof:
///   if sn = 0: fail
///   if LSB(fn) or fn = sn:
///     r = HASH(0x01 || p || r)
///     until LSB(fn) or fn = 0: fn >>= 1; sn >>= 1
///   else: r = HASH(0x01 || r || p)
///   fn >>= 1; sn >>= 1
/// sn must be 0
/// ```
pub fn evaluate_inclusion_proof(
    index: u64,
    st: Subtree,
    entry_hash: &Hash,
    proof: &[Hash],
) -> Result<Hash> {
    if !st.is_valid() || !st.contains(index) {
        return Err(MtcError::Invalid(format!(
            "index {index} in {st}: not a valid subtree position"
        )));
    }
    let mut f = index - st.start;
    let mut s = st.end - st.start - 1;
    let mut r = *entry_hash;
    for p in proof {
        if s == 0 {
            return Err(MtcError::Invalid("inclusion proof is too long".into()));
        }
        if f & 1 == 1 || f == s {
            r = node_hash(p, &r);
            while f & 1 == 0 && f != 0 {
                f >>= 1;
                s >>= 1;
            }
        } else {
            r = node_hash(&r, p);
        }
        f >>= 1;
        s >>= 1;
    }
    if s != 0 {
        return Err(MtcError::Invalid("inclusion proof is too short".into()));
    }
    Ok(r)
}

/// §4.4.2: check a subtree consistency proof that `[start, end)` with hash
/// `subtree_hash` is part of the tree of `n` leaves with root `root`. The proof is
/// consumed from its outer end, mirroring [`consistency_proof`].
pub fn verify_consistency_proof(
    st: Subtree,
    n: u64,
    subtree_hash: &Hash,
    root: &Hash,
    proof: &[Hash],
) -> bool {
    if !st.is_valid() || st.end > n {
        return false;
    }
    if st.is_empty() {
        return proof.is_empty() && *subtree_hash == empty_hash();
    }
    // Replay the descent to learn which side each outer element sits on.
    let mut sides = Vec::with_capacity(64); // true: sibling on the right
    let (mut start, mut end, mut n) = (st.start, st.end, n);
    let mut known = true;
    while !(start == 0 && end == n) {
        let k = split_point(n);
        if end <= k {
            sides.push((true, false));
            n = k;
        } else {
            let straddles = start < k;
            sides.push((false, straddles));
            known &= !straddles;
            start = start.saturating_sub(k);
            end -= k;
            n -= k;
        }
    }
    let inner = usize::from(!known);
    if proof.len() != sides.len() + inner {
        return false;
    }
    let (mut sub, mut full) = if known {
        (*subtree_hash, *subtree_hash)
    } else {
        (proof[0], proof[0])
    };
    for (p, (right, straddles)) in proof[inner..].iter().zip(sides.iter().rev()) {
        if *right {
            full = node_hash(&full, p);
        } else {
            full = node_hash(p, &full);
            if *straddles {
                sub = node_hash(p, &sub);
            }
        }
    }
    sub == *subtree_hash && full == *root
}

/// A tree held in memory: `levels[l]` are the complete nodes of level `l`.
#[derive(Debug, Default, Clone)]
pub struct MemTree {
    levels: Vec<Vec<Hash>>,
}

impl MemTree {
    /// An empty tree.
    pub fn new() -> MemTree {
        MemTree::default()
    }

    /// Build every complete node from the leaf hashes: N − popcount(N) node hashes.
    pub fn from_leaves(leaves: Vec<Hash>) -> MemTree {
        let mut levels = vec![leaves];
        loop {
            let below = &levels[levels.len() - 1];
            if below.len() < 2 {
                break;
            }
            let above: Vec<Hash> = below
                .chunks_exact(2)
                .map(|p| node_hash(&p[0], &p[1]))
                .collect();
            levels.push(above);
        }
        MemTree { levels }
    }

    /// Append one leaf hash and every node it completes.
    pub fn push(&mut self, leaf: Hash) {
        if self.levels.is_empty() {
            self.levels.push(Vec::new());
        }
        self.levels[0].push(leaf);
        let mut level = 0;
        while self.levels[level].len() % 2 == 0 {
            let l = &self.levels[level];
            let h = node_hash(&l[l.len() - 2], &l[l.len() - 1]);
            if self.levels.len() == level + 1 {
                self.levels.push(Vec::new());
            }
            self.levels[level + 1].push(h);
            level += 1;
        }
    }

    /// The complete nodes of one level.
    pub fn level(&self, level: u32) -> &[Hash] {
        self.levels
            .get(level as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// MTH of the whole tree (the checkpoint root).
    pub fn root(&self) -> Hash {
        range_hash(self, 0, self.size()).unwrap_or_else(|_| empty_hash())
    }
}

impl NodeSource for MemTree {
    fn size(&self) -> u64 {
        self.levels.first().map_or(0, |l| l.len() as u64)
    }

    fn node(&self, level: u32, index: u64) -> Result<Hash> {
        self.levels
            .get(level as usize)
            .and_then(|l| usize::try_from(index).ok().and_then(|i| l.get(i)))
            .copied()
            .ok_or_else(|| MtcError::Invalid(format!("no complete node ({level}, {index})")))
    }
}

#[cfg(test)]
#[path = "tree_tests.rs"]
mod tests;
