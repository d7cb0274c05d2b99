//! Database files for the pipeline benches. Insert repetitions write into a scratch
//! database, each under keys of its own (so UNIQUE serials and indices never collide), and a fresh
//! scratch file is started once the previous one holds [`SCRATCH_BYTES`] — creating a file
//! per repetition would measure file creation and fsync instead of the insert. The reads
//! run against the batch's CA database, which is `--db FILE` when given.

use super::{BenchError, Result};
use crate::mtc::store::SqliteLogStore;
use crate::pki::ca::store::SqliteCaStore;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A directory removed (with its files) when dropped.
pub struct Scratch {
    dir: PathBuf,
    next: AtomicU64,
    /// The CA database path the user asked for, kept after the run.
    db: Option<PathBuf>,
}

impl Scratch {
    /// A scratch directory beside `db` (same file system), or in the temp directory.
    pub fn new(db: Option<&Path>) -> Result<Scratch> {
        let base = db
            .and_then(Path::parent)
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(std::env::temp_dir, Path::to_path_buf);
        Scratch::at(base.join(format!(".pkit-bench-{}", std::process::id())), db)
    }

    /// A scratch directory of its own for `what` (e.g. the throwaway tokens of a
    /// PKCS#11 backend), in the temp directory.
    pub fn named(what: &str) -> Result<Scratch> {
        let dir = std::env::temp_dir().join(format!(".pkit-{what}-{}", std::process::id()));
        Scratch::at(dir, None)
    }

    fn at(dir: PathBuf, db: Option<&Path>) -> Result<Scratch> {
        std::fs::create_dir_all(&dir)
            .map_err(|e| BenchError::Io(format!("{}: {e}", dir.display())))?;
        Ok(Scratch {
            dir,
            next: AtomicU64::new(0),
            db: db.map(Path::to_path_buf),
        })
    }

    /// A fresh, empty database in the scratch directory (the previous one is removed).
    pub fn fresh_store<S: ScratchDb>(&self) -> Result<S> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        if n > 0 {
            remove_db(&self.dir.join(format!("rep-{}.db", n - 1)));
        }
        S::open(&self.dir.join(format!("rep-{n}.db")))
    }

    /// A path in the scratch directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The database of a batch's CA: `--db FILE` (recreated for every batch, so it ends
    /// holding the last batch), or a scratch file.
    pub fn ca_store(&self) -> Result<SqliteCaStore> {
        let path = self.db.clone().unwrap_or_else(|| self.dir.join("ca.db"));
        remove_db(&path);
        Ok(SqliteCaStore::open(&path)?)
    }
}

/// A database kind insert stages write into: the CA's `ca.db` or the MTC log's `mtc.db`.
pub trait ScratchDb: Sized {
    /// Open (creating and migrating) the database at `path`.
    fn open(path: &Path) -> Result<Self>;
}

impl ScratchDb for SqliteCaStore {
    fn open(path: &Path) -> Result<Self> {
        Ok(SqliteCaStore::open(path)?)
    }
}

impl ScratchDb for SqliteLogStore {
    fn open(path: &Path) -> Result<Self> {
        Ok(SqliteLogStore::open(path)?)
    }
}

/// Bytes of rows a scratch database takes before the next one is started.
pub const SCRATCH_BYTES: usize = 64 << 20;

/// Where an insert stage's repetitions go.
pub struct InsertTarget<'a, S> {
    scratch: &'a Scratch,
    store: Option<S>,
    bytes: usize,
    rep: u64,
}

impl<'a, S: ScratchDb> InsertTarget<'a, S> {
    pub fn new(scratch: &'a Scratch) -> Self {
        InsertTarget {
            scratch,
            store: None,
            bytes: 0,
            rep: 0,
        }
    }

    /// The number of the next repetition (from 0).
    pub fn rep(&self) -> u64 {
        self.rep
    }

    /// The store for the next repetition, which writes about `bytes`.
    pub fn next(&mut self, bytes: usize) -> Result<&mut S> {
        if self.store.is_none() || self.bytes + bytes > SCRATCH_BYTES {
            self.store = Some(self.scratch.fresh_store()?);
            self.bytes = 0;
        }
        self.bytes += bytes;
        self.rep += 1;
        self.store
            .as_mut()
            .ok_or_else(|| BenchError::Io("scratch database missing".into()))
    }
}

/// A serial unique to (repetition, index), the same 20 bytes long as pkit's serials, so
/// a repetition inserts rows of the size the pipeline produced.
pub fn rep_serial(rep: u64, index: usize) -> Vec<u8> {
    let mut s = vec![0x40u8; 20];
    s[4..12].copy_from_slice(&rep.to_be_bytes());
    s[12..20].copy_from_slice(&(index as u64).to_be_bytes());
    s
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Remove an SQLite database with its WAL and shared-memory files.
fn remove_db(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}
