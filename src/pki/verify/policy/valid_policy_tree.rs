//! The valid_policy_tree of RFC 5280 §6.1.2 (a) and the operations §6.1.3–§6.1.5
//! perform on it.
//!
//! The tree is kept level by level: level `d` holds the nodes of depth `d`, and each
//! node names its parent by index into the level above. Every operation the RFC
//! performs touches only the deepest two levels or prunes upward, so a flat layout
//! keeps it simple; removal renumbers the levels below it.
//!
//! Policy qualifiers are not kept: nothing downstream acts on them, and the RFC leaves
//! their processing to the relying party's application.
//!
//! Policy mapping can grow the tree geometrically with the path length (each mapped
//! policy can fan out at every level), so the tree is bounded: past [`MAX_NODES`] nodes
//! or [`MAX_EXPECTED`] expected-policy entries in all, an operation fails with
//! [`TreeFull`] rather than continue at unbounded cost.

#![forbid(unsafe_code)]

use crate::der::oid_registry as oids;
use pkit_x509::ext::{PolicyInformation, PolicyMapping};
use std::collections::{HashMap, HashSet};

/// Most nodes the valid_policy_tree may hold at once.
pub const MAX_NODES: usize = 10_000;

/// Most expected_policy_set entries, summed over all nodes. Mapping can give each node
/// a large set, so this is bounded apart from the node count.
pub const MAX_EXPECTED: usize = 100_000;

/// The tree would pass [`MAX_NODES`] or [`MAX_EXPECTED`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TreeFull;

/// One node of the valid_policy_tree (§6.1.2 (a)).
#[derive(Debug, Clone)]
struct Node {
    valid_policy: Vec<u8>,
    expected_policy_set: Vec<Vec<u8>>,
    /// Index of the parent in the level above; unused at depth 0.
    parent: usize,
}

impl Node {
    fn new(policy: &[u8], parent: usize) -> Node {
        Node {
            valid_policy: policy.to_vec(),
            expected_policy_set: vec![policy.to_vec()],
            parent,
        }
    }
}

/// A non-NULL valid_policy_tree.
#[derive(Debug, Clone)]
pub(super) struct Tree {
    levels: Vec<Vec<Node>>,
    nodes: usize,
    expected: usize,
}

pub(super) fn is_any(policy: &[u8]) -> bool {
    policy == oids::CE_ANY_POLICY.as_bytes()
}

impl Tree {
    /// §6.1.2 (a): a single node of depth 0 with valid_policy anyPolicy.
    pub(super) fn root() -> Tree {
        Tree {
            levels: vec![vec![Node::new(oids::CE_ANY_POLICY.as_bytes(), 0)]],
            nodes: 1,
            expected: 1,
        }
    }

    fn depth(&self) -> usize {
        self.levels.len() - 1
    }

    /// Add a node at `depth` (at most one below the deepest level), within the bounds.
    fn push(&mut self, depth: usize, node: Node) -> Result<usize, TreeFull> {
        if self.nodes >= MAX_NODES || self.expected + node.expected_policy_set.len() > MAX_EXPECTED
        {
            return Err(TreeFull);
        }
        if depth == self.levels.len() {
            self.levels.push(Vec::new());
        }
        self.nodes += 1;
        self.expected += node.expected_policy_set.len();
        let level = &mut self.levels[depth];
        level.push(node);
        Ok(level.len() - 1)
    }

    /// Replace a node's expected_policy_set, within the bounds.
    fn set_expected(&mut self, depth: usize, j: usize, set: &[Vec<u8>]) -> Result<(), TreeFull> {
        let node = &mut self.levels[depth][j];
        let after = self.expected - node.expected_policy_set.len() + set.len();
        if after > MAX_EXPECTED {
            return Err(TreeFull);
        }
        node.expected_policy_set = set.to_vec();
        self.expected = after;
        Ok(())
    }

    /// Keep the nodes of `depth` where `keep` is true; the descendants of the others go
    /// with them. Parent indices below are renumbered.
    fn retain(&mut self, depth: usize, mut keep: Vec<bool>) {
        for d in depth..self.levels.len() {
            let mut map = Vec::with_capacity(keep.len());
            let mut next = 0;
            for &k in &keep {
                map.push(k.then_some(next));
                next += usize::from(k);
            }
            let mut flags = keep.iter();
            self.levels[d].retain(|_| flags.next().copied().unwrap_or(false));
            let Some(below) = self.levels.get_mut(d + 1) else {
                break;
            };
            keep = below
                .iter()
                .map(|c| map.get(c.parent).copied().flatten().is_some())
                .collect();
            for c in below.iter_mut() {
                if let Some(Some(p)) = map.get(c.parent) {
                    c.parent = *p;
                }
            }
        }
        self.recount();
    }

    fn recount(&mut self) {
        self.nodes = self.levels.iter().map(Vec::len).sum();
        self.expected = self
            .levels
            .iter()
            .flatten()
            .map(|n| n.expected_policy_set.len())
            .sum();
    }

    /// Delete the nodes of depth below `depth` that have no children, repeatedly, up to
    /// the root (§6.1.3 (d)(3), §6.1.4 (b)(2)(ii), §6.1.5 (g)(iii)(4)). False when the
    /// tree is left empty, that is NULL.
    fn prune_above(&mut self, depth: usize) -> bool {
        for d in (0..depth.min(self.levels.len())).rev() {
            let mut has_child = vec![false; self.levels[d].len()];
            if let Some(below) = self.levels.get(d + 1) {
                for c in below {
                    if let Some(h) = has_child.get_mut(c.parent) {
                        *h = true;
                    }
                }
            }
            if has_child.iter().any(|h| !h) {
                self.retain(d, has_child);
            }
        }
        !self.levels[0].is_empty()
    }

    /// The node of `depth` whose valid_policy is anyPolicy. There is at most one: such
    /// nodes only arise as the anyPolicy child of the anyPolicy node above.
    fn any_at(&self, depth: usize) -> Option<usize> {
        self.levels
            .get(depth)?
            .iter()
            .position(|n| is_any(&n.valid_policy))
    }
}

/// §6.1.3 (d): add level `i` from the certificate's policies, then prune. False when
/// the tree is left NULL.
pub(super) fn grow(
    tree: &mut Tree,
    policies: &[PolicyInformation<'_>],
    i: usize,
    any_allowed: bool,
) -> Result<bool, TreeFull> {
    // The caller processes certificates in order, and a NULL tree never grows again,
    // so the tree is i-1 deep here.
    let parent = i - 1;
    tree.levels.push(Vec::new());
    // Which nodes of depth i-1 expect each policy.
    let mut expecting: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
    for (j, node) in tree.levels[parent].iter().enumerate() {
        for p in &node.expected_policy_set {
            expecting.entry(p.clone()).or_default().push(j);
        }
    }
    let any_parent = tree.any_at(parent);
    // (d)(1)
    for info in policies.iter().filter(|p| !p.is_any_policy()) {
        let p = info.policy_identifier.as_bytes();
        match expecting.remove(p) {
            // (i)
            Some(parents) => {
                for j in parents {
                    tree.push(i, Node::new(p, j))?;
                }
            }
            // (ii)
            None => {
                if let Some(j) = any_parent {
                    tree.push(i, Node::new(p, j))?;
                }
            }
        }
    }
    // (d)(2)
    if any_allowed && policies.iter().any(PolicyInformation::is_any_policy) {
        let mut present: HashSet<(usize, Vec<u8>)> = tree.levels[i]
            .iter()
            .map(|c| (c.parent, c.valid_policy.clone()))
            .collect();
        let mut wanted = Vec::new();
        for (j, node) in tree.levels[parent].iter().enumerate() {
            for p in &node.expected_policy_set {
                if present.insert((j, p.clone())) {
                    wanted.push((j, p.clone()));
                }
            }
        }
        for (j, p) in wanted {
            tree.push(i, Node::new(&p, j))?;
        }
    }
    // (d)(3)
    Ok(tree.prune_above(i))
}

/// The mappings of one certificate, grouped by issuerDomainPolicy, in first-seen
/// order, each subject set without repeats.
fn group_mappings(mappings: &[PolicyMapping<'_>]) -> Vec<(Vec<u8>, Vec<Vec<u8>>)> {
    let mut groups: Vec<(Vec<u8>, Vec<Vec<u8>>)> = Vec::new();
    let mut index: HashMap<&[u8], usize> = HashMap::new();
    // Hashed, so that a hostile list of many mappings costs linear time.
    let mut seen: HashSet<(&[u8], &[u8])> = HashSet::new();
    for m in mappings {
        let from = m.issuer_domain_policy.as_bytes();
        let to = m.subject_domain_policy.as_bytes();
        if !seen.insert((from, to)) {
            continue;
        }
        let g = *index.entry(from).or_insert_with(|| {
            groups.push((from.to_vec(), Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(to.to_vec());
    }
    groups
}

/// §6.1.4 (b)(1): policy_mapping > 0.
pub(super) fn map_policies(
    tree: &mut Tree,
    mappings: &[PolicyMapping<'_>],
    i: usize,
) -> Result<(), TreeFull> {
    let any_node = tree.any_at(i);
    // The nodes of depth i by valid_policy, so that each mapping costs a lookup rather
    // than a scan of the level.
    let mut by_policy: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
    for (j, node) in tree.levels[i].iter().enumerate() {
        by_policy
            .entry(node.valid_policy.clone())
            .or_default()
            .push(j);
    }
    for (from, to) in group_mappings(mappings) {
        if let Some(matching) = by_policy.get(&from) {
            for &j in matching {
                tree.set_expected(i, j, &to)?;
            }
        } else if let Some(a) = any_node {
            // A child of the anyPolicy node of depth i-1, which is the parent of the
            // anyPolicy node of depth i.
            let parent = tree.levels[i][a].parent;
            let j = tree.push(i, Node::new(&from, parent))?;
            tree.set_expected(i, j, &to)?;
        }
    }
    Ok(())
}

/// §6.1.4 (b)(2): policy_mapping is 0, so each mapped issuerDomainPolicy's nodes of
/// depth i go, and then the ancestors left childless. False when the tree is NULL.
pub(super) fn delete_mapped(tree: &mut Tree, mappings: &[PolicyMapping<'_>], i: usize) -> bool {
    let from: HashSet<&[u8]> = mappings
        .iter()
        .map(|m| m.issuer_domain_policy.as_bytes())
        .collect();
    let keep: Vec<bool> = tree.levels[i]
        .iter()
        .map(|n| !from.contains(n.valid_policy.as_slice()))
        .collect();
    if keep.iter().all(|k| *k) {
        return true;
    }
    tree.retain(i, keep);
    tree.prune_above(i)
}

/// §6.1.5 (g)(iii): intersect the tree with a user-initial-policy-set that is not
/// {anyPolicy}. False when the tree is left NULL.
pub(super) fn intersect(tree: &mut Tree, user: &[Vec<u8>], n: usize) -> Result<bool, TreeFull> {
    // (1),(2): the nodes whose parent is anyPolicy form the valid_policy_node_set; those
    // with a policy the user did not ask for go, with their subtrees. Deepest first, so
    // that the indices of shallower levels stay put.
    let mut in_node_set: HashSet<Vec<u8>> = HashSet::new();
    for d in (1..tree.levels.len()).rev() {
        let Some(any_parent) = tree.any_at(d - 1) else {
            continue;
        };
        let keep: Vec<bool> = tree.levels[d]
            .iter()
            .map(|c| {
                if c.parent != any_parent || is_any(&c.valid_policy) {
                    return true;
                }
                let wanted = user.binary_search(&c.valid_policy).is_ok();
                if wanted {
                    in_node_set.insert(c.valid_policy.clone());
                }
                wanted
            })
            .collect();
        if keep.iter().any(|k| !k) {
            tree.retain(d, keep);
        }
    }
    // (3): an anyPolicy leaf stands for every user policy not already in the set.
    if let Some(a) = tree.any_at(n).filter(|_| tree.depth() == n) {
        let parent = tree.levels[n][a].parent;
        for p in user.iter().filter(|p| !in_node_set.contains(*p)) {
            tree.push(n, Node::new(p, parent))?;
        }
        let keep = (0..tree.levels[n].len()).map(|j| j != a).collect();
        tree.retain(n, keep);
    }
    // (4)
    Ok(tree.prune_above(n))
}

/// The authorities-constrained policy set read off a final tree: the valid_policy of
/// each node whose parent is anyPolicy (the policies in the trust anchor's domain),
/// or {anyPolicy} alone when an anyPolicy node reaches depth n, since that stands for
/// every policy and listing others beside it would add nothing.
pub(super) fn authorities_policies(tree: &Tree, n: usize) -> Vec<Vec<u8>> {
    if tree.depth() == n && tree.any_at(n).is_some() {
        return vec![oids::CE_ANY_POLICY.as_bytes().to_vec()];
    }
    let mut out: Vec<Vec<u8>> = Vec::new();
    for d in 1..tree.levels.len() {
        let Some(any_parent) = tree.any_at(d - 1) else {
            continue;
        };
        for c in &tree.levels[d] {
            if c.parent == any_parent && !is_any(&c.valid_policy) {
                out.push(c.valid_policy.clone());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
impl Tree {
    /// The shape every operation must leave: parents in range, no childless node above
    /// the deepest level, at most one anyPolicy node per level, counters current.
    pub(super) fn check_invariants(&self) {
        assert!(!self.levels[0].is_empty(), "a non-NULL tree has its root");
        for d in 0..self.levels.len() {
            let level = &self.levels[d];
            let anys = level.iter().filter(|n| is_any(&n.valid_policy)).count();
            assert!(anys <= 1, "depth {d}: {anys} anyPolicy nodes");
            if d > 0 {
                let above = self.levels[d - 1].len();
                assert!(level.iter().all(|n| n.parent < above), "depth {d}: parent");
            }
            if d + 1 < self.levels.len() {
                for j in 0..level.len() {
                    assert!(
                        self.levels[d + 1].iter().any(|c| c.parent == j),
                        "depth {d}: node {j} has no child"
                    );
                }
            }
        }
        let nodes: usize = self.levels.iter().map(Vec::len).sum();
        let expected: usize = self
            .levels
            .iter()
            .flatten()
            .map(|n| n.expected_policy_set.len())
            .sum();
        assert_eq!((self.nodes, self.expected), (nodes, expected));
        assert!(nodes <= MAX_NODES && expected <= MAX_EXPECTED);
    }
}
