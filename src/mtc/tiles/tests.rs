//! tlog-tiles paths (index encoding, only canonical paths parse) and which tiles a tree
//! and a growth between two sizes need.

use super::*;
use crate::hash::leaf_hash;
use crate::tree::MemTree;

#[test]
fn index_paths_follow_tlog_tiles() {
    assert_eq!(index_path(0), "000");
    assert_eq!(index_path(67), "067");
    assert_eq!(index_path(1000), "x001/000");
    assert_eq!(index_path(1_234_067), "x001/x234/067");
    for n in [0, 1, 999, 1000, 1_234_067, u64::MAX] {
        assert_eq!(parse_index(&index_path(n)), Some(n), "{n}");
    }
    let t = Tile {
        kind: Kind::Hashes { level: 0 },
        index: 1_234_067,
        width: 256,
    };
    assert_eq!(t.path(), "tile/0/x001/x234/067");
    let p = Tile {
        kind: Kind::Hashes { level: 0 },
        index: 0,
        width: 200,
    };
    assert_eq!(p.path(), "tile/0/000.p/200");
    let e = Tile {
        kind: Kind::Entries,
        index: 5,
        width: 17,
    };
    assert_eq!(e.path(), "tile/entries/005.p/17");
    for t in [t, p, e] {
        assert_eq!(Tile::parse(&t.path()), Ok(t));
    }
}

#[test]
fn only_canonical_paths_parse() {
    for bad in [
        "tile/00/000",
        "tile/64/000",
        "tile/-1/000",
        "tile/0/00",
        "tile/0/0000",
        "tile/0/x000/001",
        "tile/0/001/002",
        "tile/0/x1/002",
        "tile/0/000.p/0",
        "tile/0/000.p/256",
        "tile/0/000.p/025",
        "tile/0/000.p/",
        "tile/0/../000",
        "tile/0/x999/x999/x999/x999/x999/x999/x999/999",
        "tile/0/x018/x446/x744/x073/x709/x551/616",
        "tile/entries",
        "tile/",
        "checkpoint",
        "tile/0/000/",
    ] {
        assert!(Tile::parse(bad).is_err(), "{bad} parsed");
    }
}

/// tlog-tiles' example: a tree of 70,000 entries has 273 full level-0 tiles, a partial
/// one of width 112, a full level-1 tile, a partial one of 17 and a partial level-2 tile
/// of width 1; a tree of 256 has one full level-0 tile and a level-1 tile of width 1.
#[test]
fn the_tiles_of_a_tree() {
    let tiles = tiles_of(70_000);
    let level = |l: u8| -> Vec<&Tile> {
        tiles
            .iter()
            .filter(|t| t.kind == Kind::Hashes { level: l })
            .collect()
    };
    assert_eq!(level(0).len(), 274);
    assert_eq!(level(0).iter().filter(|t| t.is_full()).count(), 273);
    assert_eq!(level(0)[273].width, 112);
    assert_eq!(level(1).len(), 2);
    assert_eq!(level(1)[1].width, 17);
    assert_eq!(level(2).len(), 1);
    assert_eq!(level(2)[0].width, 1);
    assert_eq!(level(3).len(), 0);
    let entries: Vec<&Tile> = tiles.iter().filter(|t| t.kind == Kind::Entries).collect();
    assert_eq!(entries.len(), 274);
    let small = tiles_of(256);
    assert_eq!(
        small
            .iter()
            .filter(|t| matches!(t.kind, Kind::Hashes { .. }))
            .map(|t| (t.node_level(), t.width))
            .collect::<Vec<_>>(),
        [(0, 256), (8, 1)]
    );
    assert!(tiles_of(0).is_empty());
}

/// Growing a tree adds the tiles that became full and the new partial ones; the union
/// over steps holds every full tile of the final tree once.
#[test]
fn tiles_between_sizes() {
    assert_eq!(tiles_between(70_000, 70_000), []);
    let mut full = std::collections::HashSet::new();
    let sizes = [0u64, 1, 255, 256, 300, 65_535, 65_536, 70_000];
    for w in sizes.windows(2) {
        for t in tiles_between(w[0], w[1]) {
            assert!(has_tile(w[1], &t), "{t:?} at {}", w[1]);
            if t.is_full() {
                assert!(full.insert(t), "{t:?} twice");
            } else {
                let nodes = match t.kind {
                    Kind::Hashes { level } => nodes_at(w[1], level),
                    Kind::Entries => w[1],
                };
                assert_eq!(t.nodes().unwrap().1, nodes, "{t:?}");
            }
        }
    }
    let want: std::collections::HashSet<Tile> =
        tiles_of(70_000).into_iter().filter(Tile::is_full).collect();
    assert_eq!(full, want);
}

#[test]
fn has_tile_needs_every_node() {
    let t = |level, index, width| Tile {
        kind: Kind::Hashes { level },
        index,
        width,
    };
    assert!(has_tile(256, &t(0, 0, 256)));
    assert!(!has_tile(255, &t(0, 0, 256)));
    assert!(has_tile(300, &t(0, 1, 44)));
    assert!(has_tile(300, &t(0, 1, 10)));
    assert!(!has_tile(300, &t(0, 1, 45)));
    assert!(has_tile(65_536, &t(1, 0, 256)));
    assert!(!has_tile(65_535, &t(1, 0, 256)));
    assert!(!has_tile(u64::MAX, &t(0, u64::MAX, 256)));
    assert!(!has_tile(u64::MAX, &t(63, 0, 1)));
}

/// A tile's hashes are the nodes of its level: the level-1 tile's hashes are the roots
/// of the level-0 tiles beneath it.
#[test]
fn hash_tiles_hold_the_nodes() {
    let leaves: Vec<_> = (0..70_000u32)
        .map(|i| leaf_hash(&i.to_be_bytes()))
        .collect();
    let tree = MemTree::from_leaves(leaves.clone());
    let t0 = Tile {
        kind: Kind::Hashes { level: 0 },
        index: 3,
        width: 256,
    };
    let bytes = hash_tile(&tree, &t0).unwrap();
    assert_eq!(bytes.len(), 8192);
    assert_eq!(&bytes[..32], &leaves[768][..]);
    let t1 = Tile {
        kind: Kind::Hashes { level: 1 },
        index: 1,
        width: 17,
    };
    let bytes = hash_tile(&tree, &t1).unwrap();
    assert_eq!(bytes.len(), 17 * 32);
    let sub = MemTree::from_leaves(leaves[256 * 256..256 * 257].to_vec());
    assert_eq!(&bytes[..32], &sub.root()[..]);
}

#[test]
fn entry_bundles_are_length_prefixed() {
    let b = entry_bundle([&b"ab"[..], &b""[..], &[7u8; 300][..]]).unwrap();
    assert_eq!(&b[..4], &[0, 2, b'a', b'b']);
    assert_eq!(&b[4..6], &[0, 0]);
    assert_eq!(&b[6..8], &[1, 44]);
    assert_eq!(b.len(), 8 + 300);
    assert!(entry_bundle([&vec![0u8; 65_536][..]]).is_err());
}
