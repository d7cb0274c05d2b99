//! Property tests: in trees of random size, every inclusion and subtree consistency
//! proof verifies, and every proof with one bit changed fails.

use super::hash::{leaf_hash, Hash};
use super::subtree::{covering_subtrees, Subtree};
use super::tree::{
    consistency_proof, evaluate_inclusion_proof, inclusion_proof, subtree_hash,
    verify_consistency_proof, MemTree, NodeSource,
};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn tree(n: u64) -> MemTree {
    MemTree::from_leaves((0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect())
}

fn flip(proof: &[Hash], at: usize, bit: u8) -> Vec<Hash> {
    let mut p = proof.to_vec();
    let i = at % p.len();
    p[i][(bit / 8) as usize % 32] ^= 1 << (bit % 8);
    p
}

proptest! {
    // The crate's sources sit in its folder with no `src/` (docs/architecture.md), where
    // proptest's default would keep the failure seeds in the folder above, beside other
    // crates': they stay in this crate's folder (tests run there).
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/tree_properties.txt",
        ))),
        ..ProptestConfig::with_cases(256)
    })]

    #[test]
    fn inclusion_proofs(n in 1u64..3000, pick in any::<u64>(), at in any::<usize>(), bit in any::<u8>()) {
        let t = tree(n);
        let index = pick % n;
        let st = Subtree::new(0, n);
        let leaf = t.node(0, index).unwrap();
        let proof = inclusion_proof(&t, index, st).unwrap();
        prop_assert_eq!(evaluate_inclusion_proof(index, st, &leaf, &proof).unwrap(), t.root());
        if !proof.is_empty() {
            let bad = flip(&proof, at, bit);
            prop_assert_ne!(evaluate_inclusion_proof(index, st, &leaf, &bad).ok(), Some(t.root()));
        }
        let mut other = leaf;
        other[0] ^= 1;
        prop_assert_ne!(evaluate_inclusion_proof(index, st, &other, &proof).ok(), Some(t.root()));
    }

    #[test]
    fn consistency_proofs(n in 2u64..3000, a in any::<u64>(), b in any::<u64>(), at in any::<usize>(), bit in any::<u8>()) {
        let t = tree(n);
        let (lo, hi) = (a % n, b % n);
        let (lo, hi) = (lo.min(hi), lo.max(hi) + 1);
        let (x, y) = covering_subtrees(lo, hi);
        for st in [x, y].into_iter().filter(|s| !s.is_empty()) {
            let h = subtree_hash(&t, st).unwrap();
            let proof = consistency_proof(&t, st, n).unwrap();
            prop_assert!(verify_consistency_proof(st, n, &h, &t.root(), &proof), "{}", st);
            if !proof.is_empty() {
                let bad = flip(&proof, at, bit);
                prop_assert!(!verify_consistency_proof(st, n, &h, &t.root(), &bad), "{}", st);
            }
            let mut wrong = h;
            wrong[31] ^= 1;
            prop_assert!(!verify_consistency_proof(st, n, &wrong, &t.root(), &proof), "{}", st);
        }
    }
}
