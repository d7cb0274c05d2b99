//! The databases the pipeline benches' `db_` stages write and read. SQLite always: insert
//! repetitions write into a scratch database, each under keys of its own (so UNIQUE
//! serials and indices never collide), and a fresh scratch file is started once the
//! previous one holds [`SCRATCH_BYTES`] — creating a file per repetition would measure
//! file creation and fsync instead of the insert. The reads run against the batch's CA
//! database, which is `--db FILE` when given.
//!
//! With `--db postgres://…` every database stage also runs on that server, first, under
//! its own name (see [`super::beside`]). There a database stands where SQLite has a file:
//! a schema of the bench's own (`pkit_bench_…`, selected by the connection's
//! `search_path`), created fresh and dropped at the end, so that a CA or a log already in
//! the database is never touched and one database holds all the stores a run needs.

pub use super::beside::Db;
use super::{BenchError, Result};
use pkit_ca::store::{self as ca_store, CaStore};
use pkit_mtc::store::{self as log_store, LogStore};
use pkit_store::postgres::server;
use pkit_store::url::without_password;
use pkit_tls::pg_connect::connect;
use postgres::Client;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A directory removed (with its files) when dropped, and the server's schemas, dropped
/// with it.
pub struct Scratch {
    dir: PathBuf,
    /// The next scratch store's number, per [`Db`].
    next: [AtomicU64; 2],
    /// The CA database path the user asked for, kept after the run.
    db: Option<PathBuf>,
    server: Option<Server>,
}

/// A PostgreSQL database the database stages also run on.
struct Server {
    url: String,
    password: Option<Vec<u8>>,
    /// Creates and drops the bench's schemas.
    admin: Mutex<Client>,
    /// The schemas made so far, dropped at the end.
    schemas: Mutex<Vec<String>>,
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

    /// Scratch files in the temp directory, and every database stage also run on the
    /// PostgreSQL database `url` names (with `password` when given).
    pub fn with_server(url: &str, password: Option<&[u8]>) -> Result<Scratch> {
        let shown = without_password(url);
        let fail = |e: &dyn std::fmt::Display| BenchError::Io(format!("{shown}: {e}"));
        let target = server(url, password).map_err(|e| fail(&e))?;
        let admin = connect(&target).map_err(|e| fail(&pkit_store::pg_error::one_line(&e)))?;
        let mut scratch = Scratch::new(None)?;
        scratch.server = Some(Server {
            url: url.to_string(),
            password: password.map(<[u8]>::to_vec),
            admin: Mutex::new(admin),
            schemas: Mutex::new(Vec::new()),
        });
        Ok(scratch)
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
            next: [AtomicU64::new(0), AtomicU64::new(0)],
            db: db.map(Path::to_path_buf),
            server: None,
        })
    }

    /// The databases each database stage runs on, the server's first.
    pub fn dbs(&self) -> Vec<Db> {
        match self.server {
            Some(_) => vec![Db::Server, Db::Sqlite],
            None => vec![Db::Sqlite],
        }
    }

    /// Whether the database stages also run on a server.
    pub fn has_server(&self) -> bool {
        self.server.is_some()
    }

    /// The server's URL as it may be shown, if there is one.
    pub fn server_shown(&self) -> Option<String> {
        self.server.as_ref().map(|s| without_password(&s.url))
    }

    /// A pipeline's operations table: `ops`, with each database stage's SQLite twin
    /// below it when a server is measured.
    pub fn operations(
        &self,
        ops: &[(&'static str, &'static str)],
    ) -> Vec<(&'static str, &'static str)> {
        if self.has_server() {
            super::beside::operations(ops)
        } else {
            ops.to_vec()
        }
    }

    /// The row name of database stage `op` run on `db`.
    pub fn row(&self, db: Db, op: &'static str) -> &'static str {
        super::beside::row_name(op, db, self.has_server())
    }

    /// A fresh, empty database on `db` (the previous one is removed).
    pub fn fresh_store<S: ScratchDb>(&self, db: Db) -> Result<S> {
        let n = self.next[db as usize].fetch_add(1, Ordering::Relaxed);
        if n > 0 {
            self.remove(db, &format!("rep-{}", n - 1))?;
        }
        self.store(db, &format!("rep-{n}"))
    }

    /// The store `name` on `db`, new and empty: `NAME.db` in the scratch directory, or
    /// the server's schema for it.
    pub fn store<S: ScratchDb>(&self, db: Db, name: &str) -> Result<S> {
        match (db, &self.server) {
            (Db::Server, Some(server)) => {
                let url = server.fresh_schema(name)?;
                S::open_url(&url, server.password.as_deref())
            }
            _ => {
                let path = self.dir.join(format!("{name}.db"));
                remove_db(&path);
                S::open_file(&path)
            }
        }
    }

    fn remove(&self, db: Db, name: &str) -> Result<()> {
        match (db, &self.server) {
            (Db::Server, Some(server)) => server.drop_schema(&schema_name(name)),
            _ => {
                remove_db(&self.dir.join(format!("{name}.db")));
                Ok(())
            }
        }
    }

    /// A path in the scratch directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The database of a batch's CA on `db`: for SQLite `--db FILE` (recreated for every
    /// batch, so it ends holding the last batch), or a scratch file.
    pub fn ca_store(&self, db: Db) -> Result<Box<dyn CaStore>> {
        match (db, &self.db) {
            (Db::Sqlite, Some(path)) => {
                remove_db(path);
                Ok(ca_store::open(path)?)
            }
            _ => self.store(db, "ca"),
        }
    }
}

impl Server {
    /// Drop and create the schema for `name`; the URL of a connection that works in it.
    fn fresh_schema(&self, name: &str) -> Result<String> {
        let schema = schema_name(name);
        self.drop_schema(&schema)?;
        self.admin_sql(&format!("CREATE SCHEMA {schema}"))?;
        if let Ok(mut made) = self.schemas.lock() {
            made.push(schema.clone());
        }
        // `options` is a libpq parameter the client passes to the server at connect
        // time: the store's unqualified table names then resolve in this schema.
        let sep = if self.url.contains('?') { '&' } else { '?' };
        Ok(format!(
            "{}{sep}options=-c%20search_path%3D{schema}",
            self.url
        ))
    }

    fn drop_schema(&self, schema: &str) -> Result<()> {
        self.admin_sql(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
    }

    fn admin_sql(&self, sql: &str) -> Result<()> {
        let mut client = self
            .admin
            .lock()
            .map_err(|_| BenchError::Io("the database connection was poisoned".into()))?;
        client.batch_execute(sql).map_err(|e| {
            BenchError::Io(format!(
                "{}: {}",
                without_password(&self.url),
                pkit_store::pg_error::one_line(&e)
            ))
        })
    }
}

/// The bench's schema for store `name`: a plain identifier (letters, digits, `_`), so it
/// needs no quoting.
fn schema_name(name: &str) -> String {
    let tail: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("pkit_bench_{tail}")
}

/// A database kind insert stages write into: the CA's `ca.db` or the MTC log's `mtc.db`.
pub trait ScratchDb: Sized {
    /// Open (creating and migrating) the database at `path`.
    fn open_file(path: &Path) -> Result<Self>;
    /// Open (creating its tables) the database `url` names.
    fn open_url(url: &str, password: Option<&[u8]>) -> Result<Self>;
}

impl ScratchDb for Box<dyn CaStore> {
    fn open_file(path: &Path) -> Result<Self> {
        Ok(ca_store::open(path)?)
    }
    fn open_url(url: &str, password: Option<&[u8]>) -> Result<Self> {
        Ok(ca_store::open_url(url, password, connect)?)
    }
}

impl ScratchDb for Box<dyn LogStore> {
    fn open_file(path: &Path) -> Result<Self> {
        Ok(log_store::open(path)?)
    }
    fn open_url(url: &str, password: Option<&[u8]>) -> Result<Self> {
        Ok(log_store::open_url(url, password, connect)?)
    }
}

/// Bytes of rows a scratch database takes before the next one is started.
pub const SCRATCH_BYTES: usize = 64 << 20;

/// Where an insert stage's repetitions go.
pub struct InsertTarget<'a, S> {
    scratch: &'a Scratch,
    db: Db,
    store: Option<S>,
    bytes: usize,
    rep: u64,
}

impl<'a, S: ScratchDb> InsertTarget<'a, S> {
    /// A target for inserts into `db` of `scratch`, opened on first use.
    pub fn new(scratch: &'a Scratch, db: Db) -> Self {
        InsertTarget {
            scratch,
            db,
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
            // The previous store is closed before its database is removed.
            self.store = None;
            self.store = Some(self.scratch.fresh_store(self.db)?);
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
        if let Some(server) = &self.server {
            let made = server.schemas.lock().map(|m| m.clone()).unwrap_or_default();
            for schema in made {
                let _ = server.drop_schema(&schema);
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_names_are_plain_identifiers() {
        assert_eq!(
            schema_name("mtc-ml-dsa-44-1024-log"),
            "pkit_bench_mtc_ml_dsa_44_1024_log"
        );
        assert_eq!(schema_name("rep-3"), "pkit_bench_rep_3");
    }

    #[test]
    fn sqlite_alone_without_a_server() {
        let s = Scratch::named("scratch-test").unwrap();
        assert_eq!(s.dbs(), vec![Db::Sqlite]);
        assert_eq!(s.row(Db::Sqlite, "db_read_certs"), "db_read_certs");
        let mut st: Box<dyn CaStore> = s.store(Db::Server, "x").unwrap();
        assert_eq!(st.count().unwrap(), 0, "no server: the file stands in");
        st.next_crl_number().unwrap();
    }
}
