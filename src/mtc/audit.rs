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
use super::fetch::{Fetch, FetchError};
use super::frontier::Frontier;
use super::hash::{leaf_hash, perfect_root, Hash};
use super::limits::UINT48_MAX;
use super::tiles::{tile_hashes, Kind, Tile, HEIGHT, WIDTH};
use rayon::prelude::*;
use std::collections::HashMap;

/// What an audit found wrong with the log (exit 1), as opposed to failing to read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The log's tree is not an extension of the one seen before.
    Fork {
        /// The size of the tree seen before.
        old_size: u64,
        /// Its root.
        old_root: Hash,
        /// The checkpoint's size.
        new_size: u64,
        /// The checkpoint's root.
        new_root: Hash,
    },
    /// A tile (or bundle) is malformed or disagrees with the rest of the tree.
    BadTile {
        /// The tile's path under the log's prefix.
        path: String,
        /// What is wrong with it.
        why: String,
    },
    /// The checkpoint claims more entries than an MTC log can hold (indices are 48-bit).
    TooLarge {
        /// The size the checkpoint claims.
        size: u64,
    },
    /// The tiles give another root than the checkpoint states.
    Root {
        /// The checkpoint's size.
        size: u64,
        /// The root the checkpoint states.
        checkpoint: Hash,
        /// The root the tiles give.
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
            Finding::TooLarge { size } => write!(
                f,
                "the checkpoint claims {size} entries, more than an MTC log holds (2^48 - 1)"
            ),
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
#[non_exhaustive]
#[derive(Debug)]
pub enum AuditError {
    /// Something wrong with the log: the verdict.
    Found(Finding),
    /// A resource could not be fetched (the log, or the network, is down).
    Fetch {
        /// The resource's path under the log's prefix.
        path: String,
        /// Why it could not be fetched.
        why: FetchError,
    },
    /// The library failed otherwise (a tile that cannot be decoded).
    Mtc(MtcError),
}

impl std::fmt::Display for AuditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuditError::Found(x) => write!(f, "{x}"),
            AuditError::Fetch { path, why } => write!(f, "{path}: {why}"),
            AuditError::Mtc(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AuditError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AuditError::Mtc(e) => Some(e),
            AuditError::Found(_) | AuditError::Fetch { .. } => None,
        }
    }
}

impl From<MtcError> for AuditError {
    fn from(e: MtcError) -> Self {
        AuditError::Mtc(e)
    }
}

/// The tree last verified: its size, root and right edge.
#[derive(Debug, Clone)]
pub struct Seen {
    /// The tree's size.
    pub size: u64,
    /// Its root.
    pub root: Hash,
    /// Its right edge, which the next audit continues from.
    pub frontier: Frontier,
}

/// What an audit did.
#[derive(Debug, Clone, Default)]
pub struct Audited {
    /// The size it started from (the tree seen before; 0 for a first audit).
    pub from: u64,
    /// Hash tiles fetched.
    pub tiles: u64,
    /// Entry bundles fetched.
    pub bundles: u64,
    /// Bytes fetched, tiles and bundles together.
    pub bytes: u64,
}

/// Tiles fetched in parallel per round: enough to keep a few connections busy, few enough
/// that the leaves of one round stay in memory.
const ROUND: usize = 256;

fn nodes_at(size: u64, level: u32) -> u64 {
    size.checked_shr(level * 8).unwrap_or(0)
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
    tile_hashes(t, bytes).map_err(|why| Finding::BadTile {
        path: t.path(),
        why: why.to_string(),
    })
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

/// The hashes of tile `t` (nodes of level `base`) below node `m` are the tree audited
/// before: each run the right edge `seen` kept (one per set bit of `m` under 256) must
/// be the Merkle hash of the tile's hashes it covers.
fn check_prefix(
    t: &Tile,
    hashes: &[Hash],
    m: u64,
    base: u32,
    seen: &Seen,
) -> std::result::Result<(), Finding> {
    let first = t.index * WIDTH;
    for j in 0..HEIGHT {
        if (m >> j) & 1 == 0 || m - first < (1 << j) {
            continue;
        }
        let lo = ((m >> j) - 1) << j;
        let off = (lo - first) as usize;
        let Some(run) = hashes.get(off..off + (1usize << j)) else {
            continue;
        };
        let want = seen
            .frontier
            .parts()
            .get((base + j) as usize)
            .copied()
            .flatten();
        if want != Some(perfect_root(run)) {
            return Err(Finding::BadTile {
                path: t.path(),
                why: format!(
                    "hashes {} to {} are not those of the tree of size {} audited before",
                    off,
                    off + (1usize << j) - 1,
                    seen.size
                ),
            });
        }
    }
    Ok(())
}

/// The level-≥1 tiles an audit reads, one per level at a time, fetched when a new node
/// of theirs is completed (or, for the first one at each level, checked against the
/// tree seen before).
struct Upper<'a> {
    fetch: &'a dyn Fetch,
    size: u64,
    seen: Option<&'a Seen>,
    current: HashMap<u32, (u64, Vec<Hash>)>,
}

impl Upper<'_> {
    /// Node `index` of tile level `level` as its tile holds it.
    fn hash(
        &mut self,
        level: u32,
        index: u64,
        a: &mut Audited,
    ) -> std::result::Result<Hash, AuditError> {
        let ti = index / WIDTH;
        if self.current.get(&level).map(|(i, _)| *i) != Some(ti) {
            let hashes = self.load(level, ti, a)?;
            self.current.insert(level, (ti, hashes));
        }
        Ok(self.current[&level].1[(index % WIDTH) as usize])
    }

    fn load(
        &self,
        level: u32,
        ti: u64,
        a: &mut Audited,
    ) -> std::result::Result<Vec<Hash>, AuditError> {
        let nodes = nodes_at(self.size, level);
        let t = Tile {
            kind: Kind::Hashes { level: level as u8 },
            index: ti,
            width: (nodes - ti * WIDTH).min(WIDTH) as u16,
        };
        let bytes = get(self.fetch, &t, a)?;
        a.tiles += 1;
        let hashes = hashes(&t, &bytes).map_err(AuditError::Found)?;
        if let Some(s) = self.seen {
            let m = nodes_at(s.size, level);
            if m / WIDTH == ti {
                check_prefix(&t, &hashes, m, level * HEIGHT, s).map_err(AuditError::Found)?;
            }
        }
        Ok(hashes)
    }
}

/// Audit the tree of `size` entries and root `root` from its tiles, continuing from
/// `seen` (the tree verified before, if any); with `entries`, the entry bundles too.
/// Returns the new [`Seen`] to keep. Memory stays bounded whatever size a checkpoint
/// claims: tiles are fetched a round at a time.
///
/// When continuing from `seen` finds something wrong, a fresh audit of the new
/// checkpoint decides what: if its tiles are sound on their own, the log rewrote what
/// was seen (a fork); otherwise the fresh audit's finding is the answer.
pub fn audit(
    fetch: &dyn Fetch,
    size: u64,
    root: Hash,
    seen: Option<&Seen>,
    entries: bool,
) -> std::result::Result<(Seen, Audited), AuditError> {
    match (audit_from(fetch, size, root, seen, entries), seen) {
        (Err(AuditError::Found(Finding::BadTile { .. } | Finding::Root { .. })), Some(s)) => {
            match audit_from(fetch, size, root, None, false) {
                Ok(_) => Err(AuditError::Found(Finding::Fork {
                    old_size: s.size,
                    old_root: s.root,
                    new_size: size,
                    new_root: root,
                })),
                Err(e) => Err(e),
            }
        }
        (r, _) => r,
    }
}

fn audit_from(
    fetch: &dyn Fetch,
    size: u64,
    root: Hash,
    seen: Option<&Seen>,
    entries: bool,
) -> std::result::Result<(Seen, Audited), AuditError> {
    let found = |f: Finding| Err(AuditError::Found(f));
    if size > UINT48_MAX {
        return found(Finding::TooLarge { size });
    }
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
        if size == s.size {
            // The same tree: nothing to fetch.
            return Ok((
                s.clone(),
                Audited {
                    from: start,
                    ..Audited::default()
                },
            ));
        }
    }
    let mut a = Audited {
        from: start,
        ..Audited::default()
    };
    let mut upper = Upper {
        fetch,
        size,
        seen,
        current: HashMap::new(),
    };
    let mut frontier = seen.map(|s| s.frontier.clone()).unwrap_or_default();
    let first_tile = start / WIDTH;
    let end_tile = size.div_ceil(WIDTH);
    let mut next = first_tile;
    while next < end_tile {
        let round: Vec<Tile> = (next..end_tile.min(next + ROUND as u64))
            .map(|index| Tile {
                kind: Kind::Hashes { level: 0 },
                index,
                width: (size - index * WIDTH).min(WIDTH) as u16,
            })
            .collect();
        next += round.len() as u64;
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
            // A partially seen first tile: its first leaves are in the frontier already,
            // and must be the ones audited before.
            let skip = (frontier.size() - t.index * WIDTH) as usize;
            if let (Some(s), true) = (seen, skip > 0) {
                check_prefix(&t, &leaves, start, 0, s).map_err(AuditError::Found)?;
            }
            for leaf in &leaves[skip..] {
                let mut completed = Vec::new();
                frontier.push(*leaf, |level, index, h| {
                    if level % HEIGHT == 0 {
                        completed.push((level / HEIGHT, index, *h));
                    }
                    Ok(())
                })?;
                for (l, index, h) in completed {
                    if upper.hash(l, index, &mut a)? != h {
                        // The hash at `index` of level l is the root of the full tile
                        // `index` of level l − 1.
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
    }
    // Each level's tile the new checkpoint needs but no new node reached: still the
    // tree seen before.
    if let Some(s) = seen {
        for level in 1..=7u32 {
            let m = nodes_at(s.size, level);
            if nodes_at(size, level) == 0 {
                break;
            }
            if m % WIDTH != 0 && !upper.current.contains_key(&level) {
                upper.load(level, m / WIDTH, &mut a)?;
            }
        }
    }
    let tiles_root = frontier.root();
    if tiles_root != root {
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

mod state;

#[cfg(test)]
mod tests;
