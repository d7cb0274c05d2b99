//! What a static copy of the log needs to catch up (`pkit mtc tiles`): the files there
//! back the tree their `checkpoint` names; the tiles a larger tree adds are written, then
//! the landmark list, then the checkpoint, last, since it is what says the tiles are
//! there. Full tiles never change and partial tiles are named by their width, so a run
//! cut short leaves the old checkpoint with every tile it needs.

use crate::checkpoint::Checkpoint;
use crate::error::{MtcError, Result};
use crate::store::LogStore;
use crate::tiles::{tiles_between, Kind, Tile};

/// The log's latest checkpoint, which a copy catches up to.
#[derive(Debug, Clone)]
pub struct Latest {
    /// Its tree size.
    pub size: u64,
    /// Its origin (the log's note name).
    pub origin: String,
    /// Its note: the copy's new `checkpoint` file.
    pub note: String,
}

/// The latest checkpoint of `store`, `None` before the first.
pub fn latest(store: &dyn LogStore) -> Result<Option<Latest>> {
    let Some(stored) = store.latest_checkpoint()? else {
        return Ok(None);
    };
    let (size, note) = (stored.size, stored.note);
    let (cp, _) = Checkpoint::parse(&note)?;
    Ok(Some(Latest {
        size,
        origin: cp.origin,
        note,
    }))
}

/// The tree size a copy backs, from the text of its `checkpoint` file: a checkpoint of
/// another log, or of a larger tree than `latest`, means the copy is not this log's (or
/// the log was rewritten), refused ([`MtcError::Invalid`]) rather than mixed.
pub fn published_size(checkpoint_text: &str, latest: &Latest) -> Result<u64> {
    let (old, _) = Checkpoint::parse(checkpoint_text)?;
    if old.origin != latest.origin {
        return Err(MtcError::Invalid(format!(
            "a checkpoint of {}, not of this log ({}); choose another --out-dir",
            old.origin, latest.origin
        )));
    }
    if old.size > latest.size {
        return Err(MtcError::Invalid(format!(
            "{} entries, more than the log's latest checkpoint ({}); the files there are not this log's",
            old.size, latest.size
        )));
    }
    Ok(old.size)
}

/// The tiles a copy of the tree of `old` entries lacks for the tree of `size`, entry
/// bundles left out unless `entries`; written before the landmark list and the
/// checkpoint.
pub fn tiles_to_write(old: u64, size: u64, entries: bool) -> Vec<Tile> {
    tiles_between(old, size)
        .into_iter()
        .filter(|t| entries || t.kind != Kind::Entries)
        .collect()
}
