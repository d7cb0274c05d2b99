//! Opening an SQLite database the way pkit's stores keep them: WAL, a busy handler, and
//! a schema version in `PRAGMA user_version` moved forward by migrations.

use rusqlite::Connection;
use std::cell::Cell;
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::open_error::OpenError;

/// How long a write waits for another connection's write lock before failing with
/// "database is locked": 60 s, or `PKIT_DB_BUSY_TIMEOUT_MS` (for scripts that would
/// rather fail fast, and for the fault tests). Read once per process.
fn busy_timeout() -> Duration {
    static TIMEOUT: OnceLock<Duration> = OnceLock::new();
    *TIMEOUT.get_or_init(|| {
        std::env::var("PKIT_DB_BUSY_TIMEOUT_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(Duration::from_secs(60), Duration::from_millis)
    })
}

/// The longest single wait between two tries for the lock.
const MAX_BUSY_STEP: Duration = Duration::from_millis(1);

/// SQLite's own busy handler (`busy_timeout`) sleeps 1, 2, 5, 10, … up to 100 ms between
/// tries, where a transaction here holds the write lock for about a tenth of a
/// millisecond. A server whose workers and validators each write through a connection
/// of their own met that lock at every few requests, and each time its worker slept a
/// millisecond or more with nothing to do: a fifth of an ACME server's worker time under
/// load (docs/perf.md). Here the first try comes again after 10 µs, the wait doubling up
/// to 1 ms, until `timeout` has passed since the first try for this lock (`count` 0).
fn busy_wait(count: i32, timeout: Duration) -> bool {
    thread_local!(static FIRST: Cell<Option<Instant>> = const { Cell::new(None) });
    let now = Instant::now();
    let first = if count == 0 {
        FIRST.set(Some(now));
        now
    } else {
        FIRST.get().unwrap_or(now)
    };
    let waited = now.duration_since(first);
    if waited >= timeout {
        return false;
    }
    let step = Duration::from_micros(10) * 2u32.pow(count.clamp(0, 7) as u32);
    std::thread::sleep(step.min(MAX_BUSY_STEP).min(timeout - waited));
    true
}

fn busy(count: i32) -> bool {
    busy_wait(count, busy_timeout())
}

/// Wait for other connections' locks (tries 10 µs apart, doubling to 1 ms), for up to
/// the busy timeout (60 s, or `PKIT_DB_BUSY_TIMEOUT_MS`): concurrent pkit processes and
/// threads queue for the write lock instead of failing with "database is locked".
pub fn wait_when_busy(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_handler(Some(busy))
}

/// Open (creating if needed) the database at `path`: WAL, then the forward `migrations`
/// not yet applied, counted in `PRAGMA user_version` (index i takes the schema from
/// version i to i + 1), in one immediate transaction. A busy handler
/// ([`wait_when_busy`]) lets concurrent writers queue for the write lock instead of
/// failing with "database is locked".
pub fn open_versioned(path: &Path, migrations: &[&str]) -> Result<Connection, OpenError> {
    let mut conn = Connection::open(path)?;
    wait_when_busy(&conn)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writer_waits_for_the_lock_then_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let first = open_versioned(&path, &["CREATE TABLE t (x INTEGER)"]).unwrap();
        let second = open_versioned(&path, &["CREATE TABLE t (x INTEGER)"]).unwrap();
        first.execute_batch("BEGIN IMMEDIATE").unwrap();
        let (held, go) = std::sync::mpsc::channel();
        let writer = std::thread::spawn(move || {
            held.send(()).unwrap();
            // Busy until `first` commits, then through.
            second.execute("INSERT INTO t VALUES (2)", []).unwrap();
        });
        go.recv().unwrap();
        std::thread::sleep(Duration::from_millis(20));
        first.execute("INSERT INTO t VALUES (1)", []).unwrap();
        first.execute_batch("COMMIT").unwrap();
        writer.join().unwrap();
        let n: i64 = first
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 2);
    }

    #[test]
    fn the_wait_ends_at_the_timeout() {
        assert!(!busy_wait(0, Duration::ZERO));
        assert!(busy_wait(0, Duration::from_secs(60)));
        assert!(busy_wait(9, Duration::from_secs(60)));
        // The first try of this lock was just now; a later one past the timeout gives up.
        assert!(busy_wait(0, Duration::from_millis(1)));
        std::thread::sleep(Duration::from_millis(2));
        assert!(!busy_wait(1, Duration::from_millis(1)));
    }

    #[test]
    fn a_lock_held_past_the_timeout_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let first = open_versioned(&path, &["CREATE TABLE t (x INTEGER)"]).unwrap();
        let second = open_versioned(&path, &["CREATE TABLE t (x INTEGER)"]).unwrap();
        second
            .busy_handler(Some(|count| busy_wait(count, Duration::from_millis(5))))
            .unwrap();
        first.execute_batch("BEGIN IMMEDIATE").unwrap();
        let e = second.execute("INSERT INTO t VALUES (2)", []).unwrap_err();
        assert_eq!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy)
        );
        first.execute_batch("ROLLBACK").unwrap();
    }
}
