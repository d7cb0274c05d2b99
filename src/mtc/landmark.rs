//! Landmarks (draft-ietf-plants-merkle-tree-certs-07 §6.4): numbered tree sizes with an
//! expiry. Landmark 0 is size 0, expiry 0. A landmark-relative certificate for `index`
//! uses the smallest active landmark `L` with `size(L) > index`, and the covering subtree
//! of `[size(L−1), size(L))` that contains the index; relying parties learn those
//! subtrees' hashes out of band.
//!
//! > The landmark list: the first line is `<latest_landmark>`, then `<tree_size> <expiry>`
//! > lines, newest first, tree sizes strictly decreasing, including at least one expired
//! > landmark, numbers without leading zeros.

use super::error::{MtcError, Result};
use super::hash::Hash;
use super::subtree::{covering_subtrees, Subtree};
use super::tree::{subtree_hash, NodeSource};
use super::verify::TrustedSubtree;

/// A landmark: a numbered tree size, trusted until its expiry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Landmark {
    /// The landmark's number (0 is the empty tree).
    pub number: u64,
    /// The tree size it marks.
    pub tree_size: u64,
    /// Unix seconds after which the landmark is no longer active.
    pub expiry: u64,
}

impl Landmark {
    /// Landmark 0: the empty tree, expired from the start.
    pub const ZERO: Landmark = Landmark {
        number: 0,
        tree_size: 0,
        expiry: 0,
    };

    /// Whether the landmark is still active at `now` (Unix seconds).
    pub fn is_active(&self, now: u64) -> bool {
        now < self.expiry
    }
}

/// The landmark and covering subtree a landmark-relative certificate for `index` uses.
/// `landmarks` is ordered by number, starting with landmark 0.
pub fn landmark_for(landmarks: &[Landmark], index: u64, now: u64) -> Option<(Landmark, Subtree)> {
    // The landmark whose range [size(L−1), size(L)) holds the index; a later landmark's
    // subtrees cannot contain it, so an expired one means no landmark-relative proof.
    let pos = landmarks
        .iter()
        .position(|l| l.tree_size > index && l.number > 0)
        .filter(|&p| landmarks[p].is_active(now))?;
    let prev = landmarks[pos - 1].tree_size;
    let l = landmarks[pos];
    let (a, b) = covering_subtrees(prev, l.tree_size);
    let st = if a.contains(index) { a } else { b };
    Some((l, st))
}

/// The non-empty subtrees landmark `landmarks[pos]` certifies.
pub fn landmark_subtrees(landmarks: &[Landmark], pos: usize) -> Vec<Subtree> {
    if pos == 0 || pos >= landmarks.len() {
        return Vec::new();
    }
    let (a, b) = covering_subtrees(landmarks[pos - 1].tree_size, landmarks[pos].tree_size);
    [a, b].into_iter().filter(|s| !s.is_empty()).collect()
}

/// The -07 landmark list text: the active landmarks and the newest expired one (landmark
/// 0 when none has expired), newest first.
pub fn format_list(landmarks: &[Landmark], now: u64) -> String {
    let Some(latest) = landmarks.last() else {
        return "0\n0 0\n".into();
    };
    let mut out = format!("{}\n", latest.number);
    for l in landmarks.iter().rev() {
        out.push_str(&format!("{} {}\n", l.tree_size, l.expiry));
        if !l.is_active(now) {
            return out;
        }
    }
    // Every listed landmark is active: landmark 0 (size 0, expired from the start) ends
    // the list, which must hold an expired one to bound the oldest active landmark's
    // subtrees — unless the store already listed it.
    if landmarks.first().is_none_or(|l| l.tree_size != 0) {
        out.push_str("0 0\n");
    }
    out
}

/// Each landmark after landmark 0 with the subtrees it certifies: what both a log's own
/// list ([`certified`]) and a relying party reading a served list ([`active_subtrees`])
/// walk.
fn certifying(landmarks: &[Landmark]) -> impl Iterator<Item = (Landmark, Vec<Subtree>)> + '_ {
    (1..landmarks.len()).map(|pos| (landmarks[pos], landmark_subtrees(landmarks, pos)))
}

/// The subtrees that the active landmarks of `landmarks` (ordered by number) certify:
/// what a relying party trusts landmark-relative certificates under.
pub fn active_subtrees(landmarks: &[Landmark], now: u64) -> Vec<Subtree> {
    certifying(landmarks)
        .filter(|(l, _)| l.is_active(now))
        .flat_map(|(_, sts)| sts)
        .collect()
}

/// What one landmark certifies, with the hashes a log's tree gives its subtrees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certified {
    /// The landmark.
    pub landmark: Landmark,
    /// The non-empty subtrees of its range ([`landmark_subtrees`]), each with its hash.
    pub subtrees: Vec<(Subtree, Hash)>,
}

/// Every landmark of `landmarks` (ordered by number, from landmark 0) after landmark 0,
/// with its subtrees hashed from `tree` (the log's own store): `pkit mtc landmark list`.
pub fn certified<S: NodeSource + ?Sized>(
    tree: &S,
    landmarks: &[Landmark],
) -> Result<Vec<Certified>> {
    certifying(landmarks)
        .map(|(landmark, sts)| {
            let subtrees = sts
                .into_iter()
                .map(|st| Ok((st, subtree_hash(tree, st)?)))
                .collect::<Result<_>>()?;
            Ok(Certified { landmark, subtrees })
        })
        .collect()
}

/// The subtrees of log `log` that relying parties may trust landmark-relative
/// certificates under at `now`: those of the landmarks active then, with their hashes
/// (the lines of `pkit mtc landmark list --subtrees`, which `pkit mtc verify
/// --trusted-subtrees` reads). A served log's list gives the same subtrees
/// ([`active_subtrees`]).
pub fn trusted_subtrees(certified: &[Certified], log: u16, now: u64) -> Vec<TrustedSubtree> {
    certified
        .iter()
        .filter(|c| c.landmark.is_active(now))
        .flat_map(|c| {
            c.subtrees
                .iter()
                .map(move |&(subtree, hash)| TrustedSubtree { log, subtree, hash })
        })
        .collect()
}

/// Parse the list text back into its landmarks, ordered by number (the oldest listed
/// first), checking the ordering rules: numbers count down from the first line's.
pub fn parse_list(text: &str) -> Result<Vec<Landmark>> {
    let mut lines = text.split_terminator('\n');
    let mut at = 0;
    let num = |s: &str, at: usize| -> Result<u64> {
        if s.is_empty() || (s.len() > 1 && s.starts_with('0')) {
            return Err(MtcError::malformed(
                at,
                "a decimal number without leading zeros",
            ));
        }
        s.parse()
            .map_err(|_| MtcError::malformed(at, "a decimal number below 2^64"))
    };
    let first = lines
        .next()
        .ok_or_else(|| MtcError::malformed(0, "the latest landmark number"))?;
    let latest = num(first, 0)?;
    at += first.len() + 1;
    let mut out: Vec<Landmark> = Vec::new();
    for line in lines {
        let (a, b) = line
            .split_once(' ')
            .ok_or_else(|| MtcError::malformed(at, "\"<tree_size> <expiry>\""))?;
        let tree_size = num(a, at)?;
        let expiry = num(b, at + a.len() + 1)?;
        if out.last().is_some_and(|l| l.tree_size <= tree_size) {
            return Err(MtcError::malformed(at, "strictly decreasing tree sizes"));
        }
        let number = latest.checked_sub(out.len() as u64).ok_or_else(|| {
            MtcError::malformed(
                at,
                "no more landmark lines than landmarks numbered up to the first line's",
            )
        })?;
        out.push(Landmark {
            number,
            tree_size,
            expiry,
        });
        at += line.len() + 1;
    }
    if out.is_empty() {
        return Err(MtcError::malformed(at, "at least one landmark line"));
    }
    out.reverse();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list() -> Vec<Landmark> {
        vec![
            Landmark::ZERO,
            Landmark {
                number: 1,
                tree_size: 5,
                expiry: 100,
            },
            Landmark {
                number: 2,
                tree_size: 13,
                expiry: 200,
            },
        ]
    }

    #[test]
    fn picks_landmark_and_subtree() {
        let (l, st) = landmark_for(&list(), 6, 50).unwrap();
        assert_eq!((l.number, st), (2, Subtree::new(4, 8)));
        let (l, st) = landmark_for(&list(), 9, 150).unwrap();
        assert_eq!((l.number, st), (2, Subtree::new(8, 13)));
        assert!(landmark_for(&list(), 2, 150).is_none()); // landmark 1 expired
        assert!(landmark_for(&list(), 13, 50).is_none());
    }

    #[test]
    fn active_landmarks_certify_their_subtrees() {
        // Landmark 1 covers [0, 5) = [0, 4) + [4, 5); landmark 2 covers [5, 13) =
        // [4, 8) + [8, 13) — the covering subtrees of the range since the one before.
        let all = active_subtrees(&list(), 50);
        assert_eq!(all.len(), 4);
        assert!(all.contains(&Subtree::new(8, 13)));
        // Once landmark 1 expires only landmark 2's subtrees stay.
        assert_eq!(active_subtrees(&list(), 150), landmark_subtrees(&list(), 2));
        assert!(active_subtrees(&list(), 250).is_empty());
    }

    #[test]
    fn the_logs_own_landmarks_certify_what_a_served_list_does() {
        use crate::hash::leaf_hash;
        use crate::tree::MemTree;
        let tree = MemTree::from_leaves((0..13u8).map(|i| leaf_hash(&[i])).collect());
        let all = certified(&tree, &list()).unwrap();
        // Landmark 0 certifies nothing; each other one its covering subtrees.
        assert_eq!(all.len(), 2);
        assert_eq!(all[1].landmark.number, 2);
        let sts: Vec<Subtree> = all[1].subtrees.iter().map(|(s, _)| *s).collect();
        assert_eq!(sts, landmark_subtrees(&list(), 2));
        for (st, h) in all.iter().flat_map(|c| &c.subtrees) {
            assert_eq!(*h, subtree_hash(&tree, *st).unwrap());
        }
        // The trusted ones are exactly the active subtrees a served list names.
        for now in [50, 150, 250] {
            let trusted = trusted_subtrees(&all, 7, now);
            let sts: Vec<Subtree> = trusted.iter().map(|t| t.subtree).collect();
            assert_eq!(sts, active_subtrees(&list(), now), "at {now}");
            assert!(trusted.iter().all(|t| t.log == 7));
        }
        // A landmark past the tree's size cannot be hashed.
        let short = MemTree::from_leaves((0..6u8).map(|i| leaf_hash(&[i])).collect());
        assert!(certified(&short, &list()).is_err());
    }

    #[test]
    fn list_text() {
        let t = format_list(&list(), 150);
        assert_eq!(t, "2\n13 200\n5 100\n");
        assert_eq!(parse_list(&t).unwrap(), list()[1..]);
        assert!(parse_list("2\n5 1\n13 2\n").is_err());
        assert!(parse_list("02\n5 1\n").is_err());
        // All active: landmark 0 closes the list.
        let t = format_list(&list(), 50);
        assert_eq!(t, "2\n13 200\n5 100\n0 0\n");
        assert_eq!(parse_list(&t).unwrap(), list());
        assert!(parse_list("1\n13 2\n5 1\n0 0\n").is_err());
        // The same from a store that does not keep landmark 0.
        assert_eq!(format_list(&list()[1..], 50), t);
    }
}
