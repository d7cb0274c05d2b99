//! Opening an SQLite database the way pkit's stores keep them: WAL, a busy timeout, and a
//! schema version in `PRAGMA user_version` moved forward by migrations.

use rusqlite::Connection;
use std::path::Path;
use std::time::Duration;

use super::open_error::OpenError;

/// How long a write waits for another process's write lock before failing with
/// "database is locked": 60 s, or `PKIT_DB_BUSY_TIMEOUT_MS` (for scripts that would
/// rather fail fast, and for the fault tests).
fn busy_timeout() -> Duration {
    std::env::var("PKIT_DB_BUSY_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(Duration::from_secs(60), Duration::from_millis)
}

/// Open (creating if needed) the database at `path`: WAL, then the forward `migrations`
/// not yet applied, counted in `PRAGMA user_version` (index i takes the schema from
/// version i to i + 1), in one immediate transaction. A busy timeout lets concurrent pkit
/// processes queue for the write lock instead of failing with "database is locked".
pub fn open_versioned(path: &Path, migrations: &[&str]) -> Result<Connection, OpenError> {
    let mut conn = Connection::open(path)?;
    conn.busy_timeout(busy_timeout())?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // In WAL mode NORMAL loses no committed transaction on a process crash (kill -9);
    // only an OS crash can roll back the last commits, and never corrupts.
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // Reads through a memory map instead of a pread and a copy per page: CRL generation
    // walks the whole revoked index. Address space only; pages come from the page cache.
    conn.pragma_update(None, "mmap_size", 1i64 << 30)?;
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let found: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let known = migrations.len() as i64;
    if found > known {
        return Err(OpenError::TooNew { found, known });
    }
    for (i, m) in migrations.iter().enumerate().skip(found as usize) {
        tx.execute_batch(m)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    tx.commit()?;
    Ok(conn)
}
