//! The draft's accumulated test vectors (leaves `d[i] = [i]`, i < 130) and the large-tree
//! vectors of tests/data/mtc/.

use super::*;
use crate::der::hex;
use crate::hash::{leaf_hash, sha256};
use crate::subtree::covering_subtrees;

const N: u64 = 130;

fn tree() -> MemTree {
    MemTree::from_leaves((0..N).map(|i| leaf_hash(&[i as u8])).collect())
}

/// SHA-256 over newline-terminated lines, in lowercase hex.
struct Acc(sha2::Sha256, usize);

impl Acc {
    fn new() -> Acc {
        use sha2::Digest as _;
        Acc(sha2::Sha256::new(), 0)
    }
    fn line(&mut self, s: &str) {
        use sha2::Digest as _;
        self.0.update(s.as_bytes());
        self.0.update(b"\n");
        self.1 += 1;
    }
    fn hex(self) -> String {
        use sha2::Digest as _;
        let h: [u8; 32] = self.0.finalize().into();
        hex(&h)
    }
}

fn with_hashes(mut s: String, hs: &[Hash]) -> String {
    for h in hs {
        s.push(' ');
        s.push_str(&hex(h));
    }
    s
}

#[test]
fn mem_tree_push_equals_from_leaves() {
    let mut t = MemTree::new();
    for i in 0..N {
        t.push(leaf_hash(&[i as u8]));
    }
    let u = tree();
    for l in 0..9 {
        assert_eq!(t.level(l), u.level(l));
    }
    assert_eq!(t.root(), u.root());
}

#[test]
fn subtree_hashes_vector() {
    let t = tree();
    let mut acc = Acc::new();
    for end in 0..=N {
        for start in 0..=end {
            let st = Subtree::new(start, end);
            if st.is_valid() {
                let h = subtree_hash(&t, st).unwrap();
                acc.line(&format!("{st} {}", hex(&h)));
            }
        }
    }
    assert_eq!(
        acc.hex(),
        "b82806ad4265bb151c1119c0f4db437bb4d1a1f887b3a7fba1cd4ebf552e3e81"
    );
}

#[test]
fn inclusion_proofs_vector() {
    let t = tree();
    let mut acc = Acc::new();
    for end in 0..=N {
        for start in 0..=end {
            let st = Subtree::new(start, end);
            if !st.is_valid() {
                continue;
            }
            let root = subtree_hash(&t, st).unwrap();
            for i in start..end {
                let p = inclusion_proof(&t, i, st).unwrap();
                let leaf = t.node(0, i).unwrap();
                assert_eq!(evaluate_inclusion_proof(i, st, &leaf, &p).unwrap(), root);
                acc.line(&with_hashes(format!("{i} {st}"), &p));
            }
        }
    }
    assert_eq!(
        acc.hex(),
        "ac2a8f989e44d99e399db448050ff5f19757df53cfb716aa81015d3955d8163f"
    );
}

#[test]
fn all_proofs_match_single_proofs() {
    let t = tree();
    for (start, end) in [(0, 130), (128, 130), (64, 128), (0, 1), (96, 107)] {
        let st = Subtree::new(start, end);
        let all = all_inclusion_proofs(&t, st).unwrap();
        for (i, p) in (start..end).zip(&all) {
            assert_eq!(*p, inclusion_proof(&t, i, st).unwrap(), "{i} {st}");
        }
    }
}

#[test]
fn consistency_proofs_vector() {
    let t = tree();
    let mut acc = Acc::new();
    for n in 0..=N {
        let root = subtree_hash(&t, Subtree::new(0, n)).unwrap();
        for end in 0..=n {
            for start in 0..=end {
                let st = Subtree::new(start, end);
                if !st.is_valid() {
                    continue;
                }
                let p = consistency_proof(&t, st, n).unwrap();
                let h = subtree_hash(&t, st).unwrap();
                assert!(verify_consistency_proof(st, n, &h, &root, &p), "{st} {n}");
                acc.line(&with_hashes(format!("{st} {n}"), &p));
            }
        }
    }
    assert_eq!(
        acc.hex(),
        "10fa99b37bf9bf9ffa26b412fbd98bd75363256d0b75d61bc4538b9c9c5a0a74"
    );
}

#[test]
fn covering_subtrees_vector() {
    let mut acc = Acc::new();
    for end in 0..=N {
        for start in 0..=end {
            let (a, b) = covering_subtrees(start, end);
            acc.line(&format!("{a} {b}"));
        }
    }
    assert_eq!(
        acc.hex(),
        "7fd9c8b926e9d2b5cf831560e8ce295a5ef97ad5c5ede4ea0dea28a8c8fc8bb0"
    );
}

fn field<'a>(v: &'a serde_json::Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or_default()
}

fn num(v: &serde_json::Value, k: &str) -> u64 {
    field(v, k).parse().unwrap()
}

fn b64(v: &serde_json::Value, k: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(field(v, k))
        .unwrap()
}

fn hashes(bytes: &[u8]) -> Vec<Hash> {
    bytes
        .chunks_exact(32)
        .map(|c| c.try_into().unwrap())
        .collect()
}

fn hash(v: &serde_json::Value, k: &str) -> Hash {
    b64(v, k).try_into().unwrap()
}

#[test]
fn large_inclusion_vectors() {
    let text = include_str!("../../tests/data/mtc/large_inclusion_proofs.json");
    let all: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
    assert!(!all.is_empty());
    for v in &all {
        let st = Subtree::new(num(v, "Start"), num(v, "End"));
        let i = num(v, "Index");
        let proof = hashes(&b64(v, "Proof"));
        let got = evaluate_inclusion_proof(i, st, &hash(v, "EntryHash"), &proof).unwrap();
        assert_eq!(got, hash(v, "SubtreeHash"), "{i} {st}");
        // One flipped bit in the proof gives another hash.
        let mut bad = proof.clone();
        bad[0][0] ^= 1;
        assert_ne!(
            evaluate_inclusion_proof(i, st, &hash(v, "EntryHash"), &bad).ok(),
            Some(got)
        );
    }
}

#[test]
fn large_consistency_vectors() {
    let text = include_str!("../../tests/data/mtc/large_consistency_proofs.json");
    let all: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
    assert!(!all.is_empty());
    for v in &all {
        let st = Subtree::new(num(v, "Start"), num(v, "End"));
        let n = num(v, "TreeSize");
        let proof = hashes(&b64(v, "Proof"));
        let (sub, root) = (hash(v, "SubtreeHash"), hash(v, "TreeHash"));
        assert!(
            verify_consistency_proof(st, n, &sub, &root, &proof),
            "{st} {n}"
        );
        // An empty subtree is consistent with any tree; every other proof binds the root.
        if !st.is_empty() {
            assert!(!verify_consistency_proof(
                st,
                n,
                &sub,
                &sha256(b"x"),
                &proof
            ));
        }
    }
}
