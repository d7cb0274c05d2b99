//! The auditor against logs served from memory: a whole log, then what it added; forks
//! named with both trees; damaged tiles named.

use super::*;
use crate::tiles::{entry_bundle, hash_tile};
use crate::tree::MemTree;

/// A path whose bytes are changed, and how.
type Damage<'a> = Option<(&'a str, fn(&mut Vec<u8>))>;

/// A log in memory: entries, their tree, and tiles served from it, with an optional
/// change to one path's bytes.
struct Log {
    entries: Vec<Vec<u8>>,
    tree: MemTree,
}

impl Log {
    fn new(n: usize, salt: u8) -> Log {
        let entries: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let mut e = format!("entry {i}").into_bytes();
                if i == 5 {
                    e.push(salt);
                }
                e
            })
            .collect();
        let tree = MemTree::from_leaves(entries.iter().map(|e| leaf_hash(e)).collect());
        Log { entries, tree }
    }

    fn size(&self) -> u64 {
        self.entries.len() as u64
    }

    fn fetcher<'a>(
        &'a self,
        damage: Damage<'a>,
    ) -> impl Fn(&str) -> std::result::Result<Vec<u8>, FetchError> + Sync + 'a {
        move |path: &str| {
            let t = Tile::parse(path).map_err(|e| FetchError::NotFound(e.0))?;
            let mut bytes = match t.kind {
                Kind::Hashes { .. } => {
                    hash_tile(&self.tree, &t).map_err(|e| FetchError::Failed(e.to_string()))?
                }
                Kind::Entries => {
                    let (a, b) = t.nodes().unwrap();
                    entry_bundle(
                        self.entries[a as usize..b as usize]
                            .iter()
                            .map(Vec::as_slice),
                    )
                    .unwrap()
                }
            };
            if let Some((p, f)) = damage {
                if p == path {
                    f(&mut bytes);
                }
            }
            Ok(bytes)
        }
    }
}

impl Log {
    /// An audit of the whole log as it is, after `seen`.
    fn audit(
        &self,
        seen: Option<&Seen>,
        entries: bool,
    ) -> std::result::Result<(Seen, Audited), AuditError> {
        audit(
            &self.fetcher(None),
            self.size(),
            self.tree.root(),
            seen,
            entries,
        )
    }

    /// What a fresh audit of the whole log finds when the tile at `path` is damaged by
    /// `how` (`entries`: the entry bundles are checked too).
    fn damaged(&self, path: &str, how: fn(&mut Vec<u8>), entries: bool) -> Finding {
        found(audit(
            &self.fetcher(Some((path, how))),
            self.size(),
            self.tree.root(),
            None,
            entries,
        ))
    }
}

fn found(r: std::result::Result<(Seen, Audited), AuditError>) -> Finding {
    match r {
        Err(AuditError::Found(f)) => f,
        Err(e) => panic!("not a finding: {e:?}"),
        Ok(_) => panic!("passed"),
    }
}

#[test]
fn a_whole_log_and_then_what_it_added() {
    let log = Log::new(70_123, 0);
    let small = Log::new(1000, 0);
    let (seen, a) = audit(&small.fetcher(None), 1000, small.tree.root(), None, true).unwrap();
    assert_eq!((a.from, a.tiles, a.bundles), (0, 5, 4));
    let (seen, a) = log.audit(Some(&seen), true).unwrap();
    assert_eq!(seen.root, log.tree.root());
    assert_eq!(a.from, 1000);
    // Level 0 from tile 3 (which held entries 768..1000) on, plus levels 1 and 2.
    assert_eq!(a.tiles, 274 - 3 + 2 + 1);
    // Nothing new: nothing fetched but the check of the root.
    let (_, a) = log.audit(Some(&seen), true).unwrap();
    assert_eq!(a.tiles, 0);
    let fresh = log.audit(None, false).unwrap();
    assert_eq!(fresh.0.frontier.parts(), seen.frontier.parts());
}

#[test]
fn forks_are_named_with_both_trees() {
    let a = Log::new(1000, 0);
    let b = Log::new(2000, 1); // entry 5 differs
    let (seen, _) = audit(&a.fetcher(None), 1000, a.tree.root(), None, false).unwrap();
    let f = found(audit(
        &b.fetcher(None),
        2000,
        b.tree.root(),
        Some(&seen),
        false,
    ));
    assert_eq!(
        f,
        Finding::Fork {
            old_size: 1000,
            old_root: a.tree.root(),
            new_size: 2000,
            new_root: b.tree.root()
        }
    );
    assert!(
        f.to_string()
            .starts_with("fork: the checkpoint of size 2000"),
        "{f}"
    );
    // A smaller tree, or the same size with another root.
    let f = found(audit(&a.fetcher(None), 999, [0; 32], Some(&seen), false));
    assert!(matches!(f, Finding::Fork { new_size: 999, .. }));
    let f = found(audit(&a.fetcher(None), 1000, [0; 32], Some(&seen), false));
    assert!(matches!(f, Finding::Fork { new_size: 1000, .. }));
}

#[test]
fn damaged_tiles_are_named() {
    let log = Log::new(70_123, 0);
    let flip: fn(&mut Vec<u8>) = |b| b[40] ^= 1;
    // A leaf in a full level-0 tile: the level-1 tile disagrees with it.
    let f = log.damaged("tile/0/007", flip, false);
    assert_eq!(
        f,
        Finding::BadTile {
            path: "tile/1/000".into(),
            why: "hash 7 is not the root of tile/0/007 below it (entries 1792 to 2047): one of the two is wrong".into()
        }
    );
    // A hash in the level-1 tile itself: named the same way.
    let f = log.damaged("tile/1/000", flip, false);
    assert!(
        matches!(&f, Finding::BadTile { path, .. } if path == "tile/1/000"),
        "{f}"
    );
    // The partial tile at the right edge: only the root can tell.
    let f = log.damaged("tile/0/273.p/235", flip, false);
    assert!(matches!(f, Finding::Root { size: 70_123, .. }), "{f}");
    // Truncated.
    let cut: fn(&mut Vec<u8>) = |b| b.truncate(100);
    let f = log.damaged("tile/0/002", cut, false);
    assert_eq!(
        f.to_string(),
        "tile/0/002: 100 bytes; a tile of width 256 has 8192"
    );
    // An entry that does not hash to its leaf.
    let f = log.damaged("tile/entries/001", flip, true);
    assert!(
        f.to_string().starts_with("tile/entries/001: entry 2"),
        "{f}"
    );
    // A checkpoint with another root.
    let f = found(audit(&log.fetcher(None), log.size(), [9; 32], None, false));
    assert!(matches!(f, Finding::Root { .. }));
}

#[test]
fn fetch_failures_are_not_findings() {
    let failing = |p: &str| -> std::result::Result<Vec<u8>, FetchError> {
        Err(FetchError::Failed(format!("{p}: connection refused")))
    };
    match audit(&failing, 300, [0; 32], None, false) {
        Err(AuditError::Fetch { path, why }) => {
            assert!(path.starts_with("tile/"), "{path}");
            assert!(why.to_string().contains("refused"));
        }
        other => panic!("{other:?}"),
    }
}

/// An incremental audit still checks what it does not push: the first leaves of a
/// partially seen tile, and the hashes of the first upper tile below the old size.
#[test]
fn what_was_seen_is_checked_again_in_the_first_tiles() {
    let log = Log::new(1000, 0);
    let small = Log::new(300, 0);
    let (seen, _) = audit(&small.fetcher(None), 300, small.tree.root(), None, false).unwrap();
    let flip: fn(&mut Vec<u8>) = |b| b[0] ^= 1;
    for path in ["tile/0/001", "tile/1/000.p/3"] {
        let f = found(audit(
            &log.fetcher(Some((path, flip))),
            1000,
            log.tree.root(),
            Some(&seen),
            false,
        ));
        // Named by the fresh audit that decides between a fork and a bad tile.
        assert!(matches!(&f, Finding::BadTile { .. }), "{f}");
        assert!(f.to_string().contains(path), "{f}");
    }
    // A level whose tile gained no node is checked too (300 → 310: tile/1/000.p/1).
    let more = Log::new(310, 0);
    let f = found(audit(
        &more.fetcher(Some(("tile/1/000.p/1", flip))),
        310,
        more.tree.root(),
        Some(&seen),
        false,
    ));
    assert!(
        matches!(&f, Finding::BadTile { path, .. } if path == "tile/1/000.p/1"),
        "{f}"
    );
}

/// A checkpoint claiming more entries than a log holds is a finding, found without
/// allocating for them; a huge but possible size fails on the first missing tile.
#[test]
fn huge_sizes_stay_bounded() {
    let log = Log::new(1000, 0);
    let f = found(audit(&log.fetcher(None), 1 << 56, [0; 32], None, false));
    assert_eq!(f, Finding::TooLarge { size: 1 << 56 });
    match audit(&log.fetcher(None), (1 << 48) - 1, [0; 32], None, false) {
        Err(AuditError::Fetch { path, .. }) => assert!(path.starts_with("tile/"), "{path}"),
        Err(AuditError::Found(f)) => assert!(matches!(f, Finding::BadTile { .. }), "{f}"),
        other => panic!("{other:?}"),
    };
}
