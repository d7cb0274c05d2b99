//! Auditing a tiled log (c2sp.org/tlog-tiles): recompute the checkpoint's root from the
//! tiles, check every tile level against the one below, and check that the log extends
//! the tree last seen — what `pkit mtc audit` and `pkit mtc cosign` do before trusting a
//! checkpoint.
//!
//! The level-0 tiles' leaf hashes are pushed, in order, through a [`Frontier`] (the
//! tree's right edge), which yields every complete node on the way and the root at the
//! end. Each completed node of level 8L (L ≥ 1) is the hash the level-L tile must hold at
//! that position, so a wrong hash in any tile is caught and named. The state kept between
//! audits is that frontier at the size last verified: continuing from it and arriving at
//! the new checkpoint's root is the consistency check (a log that rewrote any part of
//! the tree cannot reach it), and only the tiles past the old size are fetched.

use super::error::MtcError;
use super::frontier::Frontier;
use super::hash::{leaf_hash, Hash};
use super::tiles::{Kind, Tile, WIDTH};
use rayon::prelude::*;
use std::collections::HashMap;

/// Where tiles come from (HTTP for the CLI; a closure over a store in tests).
pub trait Fetch: Sync {
    /// The bytes at `path` under the log's prefix (e.g. `tile/0/000.p/12`).
    fn fetch(&self, path: &str) -> std::result::Result<Vec<u8>, String>;
}

impl<F: Fn(&str) -> std::result::Result<Vec<u8>, String> + Sync> Fetch for F {
    fn fetch(&self, path: &str) -> std::result::Result<Vec<u8>, String> {
        self(path)
    }
}

/// What an audit found wrong with the log (exit 1), as opposed to failing to read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The log's tree is not an extension of the one seen before.
    Fork {
        old_size: u64,
        old_root: Hash,
        new_size: u64,
        new_root: Hash,
    },
    /// A tile (or bundle) is malformed or disagrees with the rest of the tree.
    BadTile { path: String, why: String },
    /// The tiles give another root than the checkpoint states.
    Root {
        size: u64,
        checkpoint: Hash,
        tiles: Hash,
    },
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use base64::Engine;
        let b64 = |h: &Hash| base64::engine::general_purpose::STANDARD.encode(h);
        match self {
            Finding::Fork {
                old_size,
                old_root,
                new_size,
                new_root,
            } => write!(
                f,
                "fork: the checkpoint of size {new_size} (root {}) does not extend the tree of size {old_size} (root {}) seen before",
                b64(new_root),
                b64(old_root)
            ),
            Finding::BadTile { path, why } => write!(f, "{path}: {why}"),
            Finding::Root {
                size,
                checkpoint,
                tiles,
            } => write!(
                f,
                "the tiles give root {} for size {size}, the checkpoint says {}",
                b64(tiles),
                b64(checkpoint)
            ),
        }
    }
}

/// Why an audit could not finish.
#[derive(Debug)]
pub enum AuditError {
    /// Something wrong with the log: the verdict.
    Found(Finding),
    /// A resource could not be fetched (the log, or the network, is down).
    Fetch {
        path: String,
        why: String,
    },
    Mtc(MtcError),
}

impl From<MtcError> for AuditError {
    fn from(e: MtcError) -> Self {
        AuditError::Mtc(e)
    }
}

/// The tree last verified: its size, root and right edge.
#[derive(Debug, Clone)]
pub struct Seen {
    pub size: u64,
    pub root: Hash,
    pub frontier: Frontier,
}

/// What an audit did.
#[derive(Debug, Clone, Default)]
pub struct Audited {
    /// The size it started from (the tree seen before; 0 for a first audit).
    pub from: u64,
    pub tiles: u64,
    pub bundles: u64,
    pub bytes: u64,
}

/// Tiles fetched in parallel per round: enough to keep a few connections busy, few enough
/// that the leaves of one round stay in memory.
const ROUND: usize = 256;

fn nodes_at(size: u64, level: u32) -> u64 {
    size.checked_shr(level * 8).unwrap_or(0)
}

/// The tiles of `kind` holding nodes `[from, to)` of their level in a tree with `nodes`
/// such nodes.
fn covering(kind: Kind, from: u64, to: u64, nodes: u64) -> Vec<Tile> {
    if from >= to {
        return Vec::new();
    }
    (from / WIDTH..to.div_ceil(WIDTH))
        .map(|index| Tile {
            kind,
            index,
            width: (nodes - index * WIDTH).min(WIDTH) as u16,
        })
        .collect()
}

fn get(fetch: &dyn Fetch, t: &Tile, a: &mut Audited) -> std::result::Result<Vec<u8>, AuditError> {
    let path = t.path();
    let bytes = fetch.fetch(&path).map_err(|why| AuditError::Fetch {
        path: path.clone(),
        why,
    })?;
    a.bytes += bytes.len() as u64;
    Ok(bytes)
}

/// A hash tile's hashes, its length checked.
fn hashes(t: &Tile, bytes: &[u8]) -> std::result::Result<Vec<Hash>, Finding> {
    if bytes.len() != usize::from(t.width) * 32 {
        return Err(Finding::BadTile {
            path: t.path(),
            why: format!(
                "{} bytes; a tile of width {} has {}",
                bytes.len(),
                t.width,
                usize::from(t.width) * 32
            ),
        });
    }
    Ok(bytes
        .chunks_exact(32)
        .map(|c| c.try_into().expect("32 bytes"))
        .collect())
}

/// An entry bundle's entries hashed to leaves, checked against the level-0 tile's.
fn check_bundle(t: &Tile, bytes: &[u8], leaves: &[Hash]) -> std::result::Result<(), Finding> {
    let bad = |why: String| Finding::BadTile {
        path: t.path(),
        why,
    };
    let mut rest = bytes;
    let mut i = 0usize;
    while !rest.is_empty() {
        if rest.len() < 2 {
            return Err(bad(format!(
                "offset {}: a truncated length",
                bytes.len() - rest.len()
            )));
        }
        let len = usize::from(u16::from_be_bytes([rest[0], rest[1]]));
        let Some(entry) = rest.get(2..2 + len) else {
            return Err(bad(format!(
                "offset {}: an entry of {len} bytes runs past the end",
                bytes.len() - rest.len()
            )));
        };
        match leaves.get(i) {
            Some(l) if *l == leaf_hash(entry) => {}
            Some(_) => {
                return Err(bad(format!(
                    "entry {} does not hash to its leaf in the level-0 tile",
                    t.index * WIDTH + i as u64
                )))
            }
            None => return Err(bad(format!("more than {} entries", leaves.len()))),
        }
        rest = &rest[2 + len..];
        i += 1;
    }
    if i != leaves.len() {
        return Err(bad(format!("{i} entries; the tile has {}", leaves.len())));
    }
    Ok(())
}

/// Audit the tree of `size` entries and root `root` from its tiles, continuing from
/// `seen` (the tree verified before, if any); with `entries`, the entry bundles too.
/// Returns the new [`Seen`] to keep.
pub fn audit(
    fetch: &dyn Fetch,
    size: u64,
    root: Hash,
    seen: Option<&Seen>,
    entries: bool,
) -> std::result::Result<(Seen, Audited), AuditError> {
    let found = |f: Finding| Err(AuditError::Found(f));
    let start = seen.map_or(0, |s| s.size);
    if let Some(s) = seen {
        if size < s.size || (size == s.size && root != s.root) {
            return found(Finding::Fork {
                old_size: s.size,
                old_root: s.root,
                new_size: size,
                new_root: root,
            });
        }
    }
    let mut a = Audited {
        from: start,
        ..Audited::default()
    };
    // The hashes of every tile of level ≥ 1 the new leaves complete nodes in.
    let mut upper: HashMap<(u32, u64), Hash> = HashMap::new();
    for level in 1..=63u32 {
        let nodes = nodes_at(size, level);
        if nodes == 0 {
            break;
        }
        let tiles = covering(
            Kind::Hashes { level: level as u8 },
            nodes_at(start, level),
            nodes,
            nodes,
        );
        let got = tiles
            .par_iter()
            .map(|t| {
                let mut a = Audited::default();
                get(fetch, t, &mut a).map(|b| (*t, b))
            })
            .collect::<std::result::Result<Vec<_>, AuditError>>()?;
        for (t, bytes) in got {
            a.tiles += 1;
            a.bytes += bytes.len() as u64;
            for (i, h) in hashes(&t, &bytes)
                .map_err(AuditError::Found)?
                .into_iter()
                .enumerate()
            {
                upper.insert((level, t.index * WIDTH + i as u64), h);
            }
        }
    }
    let mut frontier = seen.map(|s| s.frontier.clone()).unwrap_or_default();
    let tiles = covering(Kind::Hashes { level: 0 }, start, size, size);
    for round in tiles.chunks(ROUND) {
        let got: Vec<_> = round
            .par_iter()
            .map(|t| {
                let mut a = Audited::default();
                let tile = get(fetch, t, &mut a)?;
                let bundle = if entries {
                    let b = Tile {
                        kind: Kind::Entries,
                        ..*t
                    };
                    Some(get(fetch, &b, &mut a)?)
                } else {
                    None
                };
                Ok((*t, tile, bundle, a))
            })
            .collect::<std::result::Result<Vec<_>, AuditError>>()?;
        for (t, tile, bundle, got) in got {
            a.tiles += 1;
            a.bytes += got.bytes;
            let leaves = hashes(&t, &tile).map_err(AuditError::Found)?;
            if let Some(b) = bundle {
                a.bundles += 1;
                let bt = Tile {
                    kind: Kind::Entries,
                    ..t
                };
                check_bundle(&bt, &b, &leaves).map_err(AuditError::Found)?;
            }
            // A partially seen first tile: its first leaves are in the frontier already.
            let skip = (frontier.size() - t.index * WIDTH) as usize;
            for leaf in &leaves[skip..] {
                let mut wrong = None;
                frontier.push(*leaf, |level, index, h| {
                    if level % 8 == 0 {
                        if let Some(want) = upper.get(&(level / 8, index)) {
                            if want != h && wrong.is_none() {
                                wrong = Some((level / 8, index));
                            }
                        }
                    }
                    Ok(())
                })?;
                if let Some((l, index)) = wrong {
                    // The hash at `index` of level l is the root of the full tile `index`
                    // of level l − 1 (entries index·256^l up to (index+1)·256^l).
                    let holder = Tile {
                        kind: Kind::Hashes { level: l as u8 },
                        index: index / WIDTH,
                        width: (nodes_at(size, l) - index / WIDTH * WIDTH).min(WIDTH) as u16,
                    };
                    let below = Tile {
                        kind: Kind::Hashes {
                            level: (l - 1) as u8,
                        },
                        index,
                        width: WIDTH as u16,
                    };
                    let span = 1u64 << (8 * l);
                    return found(Finding::BadTile {
                        path: holder.path(),
                        why: format!(
                            "hash {} is not the root of {} below it (entries {} to {}): one of the two is wrong",
                            index % WIDTH,
                            below.path(),
                            index * span,
                            (index + 1) * span - 1
                        ),
                    });
                }
            }
        }
    }
    let tiles_root = frontier.root();
    if tiles_root != root {
        if let Some(s) = seen {
            // Continuing from the tree seen before does not reach the new root. If the
            // tiles alone do, the log rewrote what was seen: a fork. Otherwise the tiles
            // (or the checkpoint) are wrong, which a fresh audit names.
            return match audit(fetch, size, root, None, false) {
                Ok(_) => found(Finding::Fork {
                    old_size: s.size,
                    old_root: s.root,
                    new_size: size,
                    new_root: root,
                }),
                Err(e) => Err(e),
            };
        }
        return found(Finding::Root {
            size,
            checkpoint: root,
            tiles: tiles_root,
        });
    }
    Ok((
        Seen {
            size,
            root,
            frontier,
        },
        a,
    ))
}

#[cfg(test)]
mod tests;
