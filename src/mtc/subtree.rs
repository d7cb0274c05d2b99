//! Subtree arithmetic (draft-ietf-plants-merkle-tree-certs-07 §4.1, §4.5.1), overflow-safe
//! over the whole uint64 range: the large-tree vectors reach 2^64 − 2^16 entries, where
//! `bit_ceil(end − start)` itself would overflow.

/// A subtree `[start, end)` of a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Subtree {
    /// The first index in the subtree.
    pub start: u64,
    /// One past the last index in the subtree.
    pub end: u64,
}

impl Subtree {
    /// The subtree `[start, end)` (not checked; see [`Subtree::is_valid`]).
    pub const fn new(start: u64, end: u64) -> Subtree {
        Subtree { start, end }
    }

    /// How many entries the subtree holds.
    pub fn len(&self) -> u64 {
        self.end - self.start
    }

    /// Whether the subtree holds no entry.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// Whether entry `index` is in the subtree.
    pub fn contains(&self, index: u64) -> bool {
        self.start <= index && index < self.end
    }

    /// §4.1: "start ≤ end and start is a multiple of BIT_CEIL(end − start)". Written as a
    /// trailing-zeros comparison so that no power of two is ever formed.
    pub fn is_valid(&self) -> bool {
        if self.start > self.end {
            return false;
        }
        let n = self.end - self.start;
        n <= 1 || self.start == 0 || self.start.trailing_zeros() >= bit_len(n - 1)
    }
}

impl std::fmt::Display for Subtree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}, {})", self.start, self.end)
    }
}

/// Number of bits needed to write `x` (0 for 0).
pub fn bit_len(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// The largest power of two strictly below `n` (n ≥ 2), the MTH split point.
pub fn split_point(n: u64) -> u64 {
    1u64 << (bit_len(n - 1) - 1)
}

/// §4.5.1: the two subtrees covering `[start, end)`; the second may be empty.
///
/// ```text
/// if end - start <= 1: return [start, end), [end, end)
/// last = end - 1; split = BIT_WIDTH(start XOR last) - 1; mask = (1 << split) - 1
/// mid = last AND NOT mask
/// left_split = BIT_WIDTH(NOT start AND mask); left_start = start AND NOT ((1 << left_split) - 1)
/// return [left_start, mid), [mid, end)
/// ```
pub fn covering_subtrees(start: u64, end: u64) -> (Subtree, Subtree) {
    if end - start <= 1 {
        return (Subtree::new(start, end), Subtree::new(end, end));
    }
    let last = end - 1;
    let split = bit_len(start ^ last) - 1;
    let mask = low_mask(split);
    let mid = last & !mask;
    let left_split = bit_len(!start & mask);
    let left_start = start & !low_mask(left_split);
    (Subtree::new(left_start, mid), Subtree::new(mid, end))
}

/// `(1 << bits) - 1` for bits in 0..=64.
fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covering_example() {
        assert_eq!(
            covering_subtrees(5, 13),
            (Subtree::new(4, 8), Subtree::new(8, 13))
        );
    }

    #[test]
    fn validity_at_the_edges() {
        assert!(Subtree::new(0, u64::MAX).is_valid());
        assert!(Subtree::new(1 << 63, u64::MAX).is_valid());
        assert!(!Subtree::new(1, u64::MAX).is_valid());
        assert!(!Subtree::new(5, 4).is_valid());
        assert!(Subtree::new(7, 7).is_valid());
        assert!(Subtree::new(4, 8).is_valid() && !Subtree::new(4, 9).is_valid());
    }
}
