//! A served log's tree as a [`NodeSource`]: complete nodes read from its tiles on demand
//! (each tile fetched once), so the proof functions of [`super::tree`] run against a log
//! known only by URL. A node of level 8L + r is the Merkle hash of 2^r consecutive
//! hashes of one level-L tile.
//!
//! Tiles come unverified; what is computed from them is only trusted once it is checked
//! against a signed checkpoint root (a subtree consistency proof, or the whole root).

use super::error::{MtcError, Result};
use super::fetch::Fetch;
use super::hash::{perfect_root, Hash};
use super::tiles::{tile_hashes, Kind, Tile, HEIGHT, WIDTH};
use super::tree::NodeSource;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A hash tile by level and index.
type TileKey = (u8, u64);

/// A served log's tree of a given size, read from its tiles as the proofs need them.
pub struct TileSource<'f> {
    fetch: &'f dyn Fetch,
    size: u64,
    /// Tiles fetched so far, shared out without copying.
    tiles: Mutex<HashMap<TileKey, Arc<[Hash]>>>,
}

impl<'f> TileSource<'f> {
    /// The tree of `size` entries (a checkpoint's) behind `fetch`.
    pub fn new(fetch: &'f dyn Fetch, size: u64) -> TileSource<'f> {
        TileSource {
            fetch,
            size,
            tiles: Mutex::new(HashMap::new()),
        }
    }

    /// The hashes of level-`level` tile `index`, as wide as the tree makes it.
    fn tile(&self, level: u8, index: u64) -> Result<Arc<[Hash]>> {
        if let Some(t) = self
            .tiles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(level, index))
        {
            return Ok(Arc::clone(t));
        }
        let nodes = self
            .size
            .checked_shr(u32::from(level) * HEIGHT)
            .unwrap_or(0);
        let width = nodes.saturating_sub(index * WIDTH).min(WIDTH);
        if width == 0 {
            return Err(MtcError::Invalid(format!(
                "no tile {index} at level {level} in a tree of {}",
                self.size
            )));
        }
        let t = Tile {
            kind: Kind::Hashes { level },
            index,
            width: width as u16,
        };
        let bytes = self.fetch.fetch(&t.path()).map_err(MtcError::Fetch)?;
        let hashes: Arc<[Hash]> = tile_hashes(&t, &bytes)
            .map_err(|why| MtcError::Invalid(format!("{}: {why}", t.path())))?
            .into();
        self.tiles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert((level, index), Arc::clone(&hashes));
        Ok(hashes)
    }
}

impl NodeSource for TileSource<'_> {
    fn size(&self) -> u64 {
        self.size
    }

    fn node(&self, level: u32, index: u64) -> Result<Hash> {
        let (tile_level, r) = (level / HEIGHT, level % HEIGHT);
        let count = 1u64 << r;
        let first = index
            .checked_mul(count)
            .ok_or_else(|| MtcError::Invalid(format!("node ({level}, {index}) past any tree")))?;
        let hashes = self.tile(tile_level as u8, first / WIDTH)?;
        let at = (first % WIDTH) as usize;
        let run = hashes.get(at..at + count as usize).ok_or_else(|| {
            MtcError::Invalid(format!(
                "node ({level}, {index}) is not complete in the tiles"
            ))
        })?;
        Ok(perfect_root(run))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::FetchError;
    use crate::hash::leaf_hash;
    use crate::subtree::Subtree;
    use crate::tiles::hash_tile;
    use crate::tree::{
        consistency_proof, inclusion_proof, subtree_hash, verify_consistency_proof, MemTree,
    };

    /// Proofs computed from the tiles are the proofs computed from the tree itself.
    #[test]
    fn proofs_from_tiles_are_the_trees() {
        let leaves: Vec<Hash> = (0..70_123u32)
            .map(|i| leaf_hash(&i.to_le_bytes()))
            .collect();
        let tree = MemTree::from_leaves(leaves);
        let fetch = |p: &str| -> std::result::Result<Vec<u8>, FetchError> {
            let t = Tile::parse(p).map_err(|e| FetchError::NotFound(e.0))?;
            hash_tile(&tree, &t).map_err(|e| FetchError::Failed(e.to_string()))
        };
        let src = TileSource::new(&fetch, tree.size());
        for st in [
            Subtree::new(0, 65_536),
            Subtree::new(65_536, 70_123),
            Subtree::new(69_632, 70_123),
            Subtree::new(4_096, 8_192),
            Subtree::new(69_888, 70_123),
        ] {
            let h = subtree_hash(&src, st).unwrap();
            assert_eq!(h, subtree_hash(&tree, st).unwrap(), "{st}");
            let p = consistency_proof(&src, st, tree.size()).unwrap();
            assert_eq!(
                p,
                consistency_proof(&tree, st, tree.size()).unwrap(),
                "{st}"
            );
            assert!(verify_consistency_proof(
                st,
                tree.size(),
                &h,
                &tree.root(),
                &p
            ));
        }
        let st = Subtree::new(0, 70_123);
        assert_eq!(
            inclusion_proof(&src, 12_345, st).unwrap(),
            inclusion_proof(&tree, 12_345, st).unwrap()
        );
    }
}
