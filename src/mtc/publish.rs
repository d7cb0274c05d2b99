//! What a log serves (c2sp.org/tlog-tiles with the c2sp.org/mtc-tlog profile), resource by
//! resource: the checkpoint, the landmark list, hash tiles and entry bundles, read from a
//! [`LogStore`]. `pkit mtc serve` answers HTTP requests with it and `pkit mtc tiles`
//! writes the same bytes as files, so both publish one log the same way.
//!
//! What is published is bounded by the latest checkpoint: a tile or bundle is there only
//! when the checkpoint's tree holds all of it, so a client that verified the checkpoint
//! finds every tile it needs and nothing of entries not yet checkpointed.
//!
//! A static copy of the log (a directory a web server serves, an object store's bucket)
//! is brought up to the latest checkpoint by [`catch_up`], through the [`Mirror`] it is
//! written with.

use super::error::{MtcError, Result};
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

/// The first line of the latest checkpoint's note (its origin, the log's name), if the
/// log has a checkpoint: what a server says it serves.
pub fn origin(store: &dyn LogStore) -> Result<Option<String>> {
    Ok(checkpoint(store)?.and_then(|(_, note)| note.lines().next().map(str::to_string)))
}

/// A static copy of the log, as [`catch_up`] writes it: files in a directory, objects
/// in a bucket. Paths are the resources' ([`Resource::path`]).
pub trait Mirror {
    /// What goes wrong in reading or writing the copy.
    type Error;

    /// Make the copy ready to be written (its directory made): called once the log has a
    /// checkpoint to publish, before anything else.
    fn prepare(&mut self) -> std::result::Result<(), Self::Error>;

    /// The text of the copy's `checkpoint`, `None` when it has none yet.
    fn checkpoint(&mut self) -> std::result::Result<Option<String>, Self::Error>;

    /// `count` tiles and bundles are about to be written (a progress bar's length).
    fn planned(&mut self, _count: usize) {}

    /// Write the tile or entry bundle at `path`, whole or not at all. Tiles never change,
    /// so it need not be durable on its own: the checkpoint written after it is what says
    /// it is there.
    fn put_tile(&mut self, path: &str, bytes: &[u8]) -> std::result::Result<(), Self::Error>;

    /// Replace `resource` (the landmark list, the checkpoint), whole and durably.
    fn put(&mut self, resource: Resource, bytes: &[u8]) -> std::result::Result<(), Self::Error>;
}

/// What [`catch_up`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Published {
    /// The tree size the copy now backs (the log's latest checkpoint).
    pub size: u64,
    /// The tree size it backed before.
    pub previous: u64,
    /// Hash tiles written.
    pub hash_tiles: u64,
    /// Entry bundles written.
    pub entry_bundles: u64,
    /// Bytes of tiles and bundles written.
    pub bytes: u64,
}

/// Why [`catch_up`] stopped; what it had written by then is whole, and the copy's old
/// checkpoint still says what it backs.
#[derive(Debug)]
pub enum PublishError<E> {
    /// The log has no checkpoint yet: nothing to publish.
    NoCheckpoint,
    /// The log could not be read.
    Log(MtcError),
    /// The copy's checkpoint is not of a tree this log's extends ([`published_size`]).
    Copy(MtcError),
    /// The log lacks a tile its checkpoint's tree holds (the path).
    Missing(String),
    /// The copy could not be read or written.
    Mirror(E),
}

/// Bring the copy `mirror` up to the log's latest checkpoint: only the tiles (and, with
/// `entries`, the entry bundles) that tree adds to the one the copy's checkpoint names,
/// then the landmark list (active at `now`, Unix seconds), then the checkpoint — last,
/// since it says the tiles are there, so a run cut short leaves the old checkpoint with
/// every tile it needs. The checkpoint written is the one the tiles were chosen for,
/// not one signed since. `pkit mtc tiles` writes a directory with it.
pub fn catch_up<M: Mirror + ?Sized>(
    store: &dyn LogStore,
    mirror: &mut M,
    entries: bool,
    now: u64,
) -> std::result::Result<Published, PublishError<M::Error>> {
    let latest = latest(store)
        .map_err(PublishError::Log)?
        .ok_or(PublishError::NoCheckpoint)?;
    mirror.prepare().map_err(PublishError::Mirror)?;
    let previous = match mirror.checkpoint().map_err(PublishError::Mirror)? {
        Some(text) => published_size(&text, &latest).map_err(PublishError::Copy)?,
        None => 0,
    };
    let size = latest.size;
    let tiles = tiles_to_write(previous, size, entries);
    mirror.planned(tiles.len());
    let mut done = Published {
        size,
        previous,
        hash_tiles: 0,
        entry_bundles: 0,
        bytes: 0,
    };
    for t in &tiles {
        let data = read_tile(store, t, size)
            .map_err(PublishError::Log)?
            .ok_or_else(|| PublishError::Missing(t.path()))?;
        mirror
            .put_tile(&t.path(), &data)
            .map_err(PublishError::Mirror)?;
        match t.kind {
            Kind::Entries => done.entry_bundles += 1,
            Kind::Hashes { .. } => done.hash_tiles += 1,
        }
        done.bytes += data.len() as u64;
    }
    let landmarks = read(store, &Resource::Landmarks, now)
        .map_err(PublishError::Log)?
        .unwrap_or_default();
    mirror
        .put(Resource::Landmarks, &landmarks)
        .map_err(PublishError::Mirror)?;
    mirror
        .put(Resource::Checkpoint, latest.note.as_bytes())
        .map_err(PublishError::Mirror)?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cosign::Cosigner;
    use crate::ids::TrustAnchorId;
    use crate::issuer::{checkpoint_store, MtcCa};
    use crate::store::{NewEntry, SqliteLogStore};
    use crate::tree::NodeSource;
    use pkit_x509::alg::Algorithm;
    use std::collections::BTreeMap;

    /// A copy in memory, remembering the order of its writes.
    #[derive(Default)]
    struct Memory {
        files: BTreeMap<String, Vec<u8>>,
        writes: Vec<String>,
        planned: usize,
        /// Fail writing this path.
        broken: Option<String>,
    }

    impl Mirror for Memory {
        type Error = String;
        fn prepare(&mut self) -> std::result::Result<(), String> {
            Ok(())
        }
        fn checkpoint(&mut self) -> std::result::Result<Option<String>, String> {
            Ok(self
                .files
                .get("checkpoint")
                .map(|b| String::from_utf8_lossy(b).into_owned()))
        }
        fn planned(&mut self, count: usize) {
            self.planned = count;
        }
        fn put_tile(&mut self, path: &str, bytes: &[u8]) -> std::result::Result<(), String> {
            if self.broken.as_deref() == Some(path) {
                return Err(format!("{path}: broken"));
            }
            self.writes.push(path.to_string());
            self.files.insert(path.to_string(), bytes.to_vec());
            Ok(())
        }
        fn put(&mut self, r: Resource, bytes: &[u8]) -> std::result::Result<(), String> {
            self.put_tile(&r.path(), bytes)
        }
    }

    fn append(store: &mut SqliteLogStore, n: u32) {
        let base = store.size() as u32;
        let entries: Vec<NewEntry> = (base..base + n)
            .map(|i| NewEntry {
                entry: i.to_be_bytes().to_vec(),
                spki: Vec::new(),
                leaf: crate::hash::leaf_hash(&i.to_be_bytes()),
            })
            .collect();
        store.append_entries(&entries).unwrap();
    }

    fn checkpoint(store: &mut SqliteLogStore, ca: &MtcCa, now: u64) {
        checkpoint_store(store, ca, now).unwrap();
    }

    #[test]
    fn a_copy_catches_up_tiles_first_and_the_checkpoint_last() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteLogStore::open(&dir.path().join("mtc.db")).unwrap();
        let id = TrustAnchorId::parse("32473.1").unwrap();
        let key = pkit_openssl::backend()
            .generate(Algorithm::Ed25519)
            .unwrap();
        let ca = MtcCa {
            ca_id: id.clone(),
            log: 1,
            cosigner: Cosigner::new(id, key).unwrap(),
        };
        let mut copy = Memory::default();
        // No checkpoint: nothing to publish, nothing written.
        assert!(matches!(
            catch_up(&store, &mut copy, true, 0),
            Err(PublishError::NoCheckpoint)
        ));
        assert_eq!(origin(&store).unwrap(), None);

        append(&mut store, 300);
        checkpoint(&mut store, &ca, 1_800_000_000);
        let first = catch_up(&store, &mut copy, true, 0).unwrap();
        assert_eq!((first.previous, first.size), (0, 300));
        // One full and one partial tile at level 0, one partial at level 1; the same
        // entry bundles.
        assert_eq!((first.hash_tiles, first.entry_bundles), (3, 2));
        assert_eq!(copy.planned, 5);
        assert_eq!(
            copy.writes[copy.writes.len() - 2..],
            ["landmarks", "checkpoint"]
        );
        let note = store.latest_checkpoint().unwrap().unwrap().note;
        assert_eq!(copy.files["checkpoint"], note.as_bytes());
        assert_eq!(origin(&store).unwrap().as_deref(), note.lines().next());
        // Every tile a client of that checkpoint asks for is there, as served.
        for (path, bytes) in &copy.files {
            let r = Resource::parse(path).unwrap();
            assert_eq!(read(&store, &r, 0).unwrap().as_ref(), Some(bytes), "{path}");
        }

        // Nothing new: no tile written again.
        copy.writes.clear();
        let again = catch_up(&store, &mut copy, true, 0).unwrap();
        assert_eq!(
            (again.previous, again.hash_tiles, again.entry_bundles),
            (300, 0, 0)
        );
        assert_eq!(copy.writes, ["landmarks", "checkpoint"]);

        // Grown, without entry bundles: only the tiles the larger tree adds.
        append(&mut store, 10);
        checkpoint(&mut store, &ca, 1_800_000_001);
        copy.writes.clear();
        let grown = catch_up(&store, &mut copy, false, 0).unwrap();
        assert_eq!(
            (grown.previous, grown.size, grown.entry_bundles),
            (300, 310, 0)
        );
        assert!(copy.writes.iter().all(|p| !p.starts_with("tile/entries/")));
        assert_eq!(copy.writes.last().map(String::as_str), Some("checkpoint"));

        // A write that fails leaves the copy's checkpoint as it was.
        append(&mut store, 256);
        checkpoint(&mut store, &ca, 1_800_000_002);
        let before = copy.files["checkpoint"].clone();
        copy.broken = Some("tile/0/001".into());
        assert!(matches!(
            catch_up(&store, &mut copy, true, 0),
            Err(PublishError::Mirror(m)) if m == "tile/0/001: broken"
        ));
        assert_eq!(copy.files["checkpoint"], before);

        // Another log's checkpoint in the copy: refused, not mixed.
        let mut foreign = Memory::default();
        let other = note.replacen("32473.1", "32473.2", 1);
        foreign
            .files
            .insert("checkpoint".into(), other.into_bytes());
        assert!(matches!(
            catch_up(&store, &mut foreign, true, 0),
            Err(PublishError::Copy(MtcError::Invalid(_)))
        ));
        assert!(foreign.writes.is_empty());
    }

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
