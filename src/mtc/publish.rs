//! What a log serves (c2sp.org/tlog-tiles with the c2sp.org/mtc-tlog profile), resource by
//! resource: the checkpoint, the landmark list, hash tiles and entry bundles, read from a
//! [`LogStore`]. `pkit mtc serve` answers HTTP requests with it and `pkit mtc tiles`
//! writes the same bytes as files, so both publish one log the same way.
//!
//! What is published is bounded by the latest checkpoint: a tile or bundle is there only
//! when the checkpoint's tree holds all of it, so a client that verified the checkpoint
//! finds every tile it needs and nothing of entries not yet checkpointed.

use super::error::Result;
use super::landmark::format_list;
use super::store::LogStore;
use super::tiles::{entry_bundle, has_tile, hash_tile, BadPath, Kind, Tile};

/// A resource of the log, by its path under the log's prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resource {
    Checkpoint,
    Landmarks,
    Tile(Tile),
}

impl Resource {
    /// The resource at `path` (no leading slash).
    pub fn parse(path: &str) -> std::result::Result<Resource, BadPath> {
        match path {
            "checkpoint" => Ok(Resource::Checkpoint),
            "landmarks" => Ok(Resource::Landmarks),
            p => Tile::parse(p).map(Resource::Tile),
        }
    }

    pub fn path(&self) -> String {
        match self {
            Resource::Checkpoint => "checkpoint".into(),
            Resource::Landmarks => "landmarks".into(),
            Resource::Tile(t) => t.path(),
        }
    }
}

/// The latest checkpoint's tree size and note, if the log has one.
pub fn checkpoint(store: &dyn LogStore) -> Result<Option<(u64, String)>> {
    Ok(store.latest_checkpoint()?.map(|c| (c.size, c.note)))
}

/// The bytes of `r` as the log publishes it now; `None` when it does not exist (no
/// checkpoint yet, or a tile beyond the latest checkpoint's tree). `now` (Unix seconds)
/// decides which landmarks are active.
pub fn read(store: &dyn LogStore, r: &Resource, now: u64) -> Result<Option<Vec<u8>>> {
    let Some((size, note)) = checkpoint(store)? else {
        return Ok(None);
    };
    match r {
        Resource::Checkpoint => Ok(Some(note.into_bytes())),
        Resource::Landmarks => Ok(Some(format_list(&store.landmarks()?, now).into_bytes())),
        Resource::Tile(t) => read_tile(store, t, size),
    }
}

/// A tile or bundle of the tree of `size` entries (`None` if that tree lacks it).
pub fn read_tile(store: &dyn LogStore, t: &Tile, size: u64) -> Result<Option<Vec<u8>>> {
    let Some((first, end)) = t.nodes().filter(|_| has_tile(size, t)) else {
        return Ok(None);
    };
    let bytes = match t.kind {
        Kind::Hashes { .. } => hash_tile(store, t)?,
        Kind::Entries => {
            let entries = store.entries(first, end)?;
            entry_bundle(entries.iter().map(|(e, _)| e.as_slice()))?
        }
    };
    Ok(Some(bytes))
}
