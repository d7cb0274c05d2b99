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

mod plan;
pub use plan::{latest, published_size, tiles_to_write, Latest};

/// A resource of the log, by its path under the log's prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resource {
    /// `checkpoint`: the latest signed checkpoint note.
    Checkpoint,
    /// `landmarks`: the landmark list.
    Landmarks,
    /// A hash tile or an entry bundle (`tile/…`).
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

    /// The resource's path under the log's prefix (no leading slash).
    pub fn path(&self) -> String {
        match self {
            Resource::Checkpoint => "checkpoint".into(),
            Resource::Landmarks => "landmarks".into(),
            Resource::Tile(t) => t.path(),
        }
    }
}

/// Why a request names no resource of the log: the HTTP status to answer with and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The HTTP status to answer with (404, or 400 for a malformed path).
    pub status: u16,
    /// Why, for the answer's body.
    pub why: String,
}

/// The resource an HTTP request for `url` names, for a log published under `prefix`
/// ("" or "/a/b", no trailing slash): the query and fragment are dropped, the prefix
/// must lead the path. A malformed tile path is a bad request (400); any other path
/// under the prefix that names nothing is not found (404).
pub fn route(prefix: &str, url: &str) -> std::result::Result<Resource, Refused> {
    let refused = |status, why: &str| Refused {
        status,
        why: why.to_string(),
    };
    let path = url.split(['?', '#']).next().unwrap_or("");
    let Some(rest) = path.strip_prefix(prefix).and_then(|r| r.strip_prefix('/')) else {
        return Err(refused(404, "not under this log's prefix"));
    };
    match Resource::parse(rest) {
        Ok(r) => Ok(r),
        Err(e) if rest.starts_with("tile/") => Err(Refused {
            status: 400,
            why: e.0,
        }),
        Err(_) => Err(refused(404, "no such resource")),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_paths_under_the_prefix() {
        assert_eq!(route("", "/checkpoint?x#y"), Ok(Resource::Checkpoint));
        assert_eq!(route("/mtc/1", "/mtc/1/landmarks"), Ok(Resource::Landmarks));
        assert_eq!(
            route("/mtc/1", "/checkpoint").map_err(|e| e.status),
            Err(404)
        );
        assert_eq!(route("", "/tile/x").map_err(|e| e.status), Err(400));
        assert_eq!(route("", "/nothing").map_err(|e| e.status), Err(404));
        assert!(matches!(route("", "/tile/0/000"), Ok(Resource::Tile(_))));
    }
}
