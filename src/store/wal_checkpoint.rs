//! WAL checkpoints from a second connection, for bulk appends.
//!
//! In WAL mode each committed page is written twice: into the `-wal` file at commit, and
//! into the database file at the next checkpoint, which also fsyncs both. SQLite runs
//! that checkpoint inside the commit that crosses `wal_autocheckpoint`, so a bulk append
//! stops at every chunk to copy and flush it. Here the writer's automatic checkpoints are
//! off and a thread with its own connection checkpoints (PASSIVE: never blocking the
//! writer) after each commit, so the copy and the fsyncs overlap the next chunk's work.
//! Appending a million 700-byte MTC entries to `mtc.db` on ext4 went from 12.9 s to the
//! figure in docs/perf.md.
//!
//! Durability is unchanged: commits are what they were, a checkpoint only moves committed
//! pages, and a process killed mid-way leaves a WAL that the next open replays.
//!
//! A server whose threads share one connection to a database hands its checkpoints to
//! one thread of the process as well ([`checkpoint_off_thread`]): SQLite would run each
//! inside the commit that crossed the threshold, two fsyncs in the middle of a request.

use rusqlite::hooks::Wal;
use rusqlite::Connection;
use std::os::raw::c_int;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

/// A thread that checkpoints an SQLite database's WAL while a bulk writer goes on
/// committing, and the writer's side of their channel.
pub struct BackgroundCheckpoints {
    nudge: Option<Sender<Msg>>,
    worker: Option<JoinHandle<()>>,
    commits: u32,
}

/// Commits between waits for the checkpointer to catch up. The WAL file starts over only
/// when a write begins with every frame checkpointed; a writer that never waited would
/// grow it to the size of everything appended (1.1 GB for a million entries), so every
/// few chunks it waits for the background checkpoint, which by then has little left.
const COMMITS_PER_RESTART: u32 = 8;

enum Msg {
    Committed,
    /// Checkpoint, then answer.
    Sync(Sender<()>),
}

impl BackgroundCheckpoints {
    /// Turn off `writer`'s automatic checkpoints and start checkpointing `path` (the
    /// database `writer` has open) from a thread of its own.
    ///
    /// Where the thread cannot be started, the writer keeps SQLite's own checkpoints:
    /// slower, never wrong.
    pub fn start(writer: &Connection, path: &Path) -> rusqlite::Result<Self> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(60))?;
        let (nudge, wake) = channel::<Msg>();
        let spawned = std::thread::Builder::new()
            .name("wal-checkpoint".into())
            .spawn(move || {
                let checkpoint = || {
                    // A failed checkpoint loses nothing: the pages stay in the WAL for the
                    // next one, or for the last connection's checkpoint at close.
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                };
                while let Ok(first) = wake.recv() {
                    // Commits that arrived meanwhile are covered by one checkpoint.
                    let mut waiting: Vec<Sender<()>> = Vec::new();
                    for m in std::iter::once(first).chain(wake.try_iter()) {
                        if let Msg::Sync(reply) = m {
                            waiting.push(reply);
                        }
                    }
                    checkpoint();
                    for w in waiting {
                        let _ = w.send(());
                    }
                }
                checkpoint();
            });
        let Ok(worker) = spawned else {
            return Ok(BackgroundCheckpoints {
                nudge: None,
                worker: None,
                commits: 0,
            });
        };
        writer.pragma_update(None, "wal_autocheckpoint", 0)?;
        Ok(BackgroundCheckpoints {
            nudge: Some(nudge),
            worker: Some(worker),
            commits: 0,
        })
    }

    /// Tell the checkpointer that a transaction committed; every few commits, wait until
    /// it has checkpointed everything so the WAL can start over.
    pub fn committed(&mut self) {
        let Some(n) = &self.nudge else {
            return;
        };
        self.commits += 1;
        if self.commits % COMMITS_PER_RESTART != 0 {
            let _ = n.send(Msg::Committed);
            return;
        }
        let (reply, done) = channel();
        if n.send(Msg::Sync(reply)).is_ok() {
            let _ = done.recv();
        }
    }
}

impl Drop for BackgroundCheckpoints {
    /// Let the last checkpoint finish before the writer closes.
    fn drop(&mut self) {
        self.nudge.take();
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

/// WAL frames past which a commit wakes the checkpointer: SQLite's own
/// `wal_autocheckpoint` default.
const OFF_THREAD_FRAMES: c_int = 1000;

/// WAL frames (about 17 MB of 4 KB pages) past which a round ends holding the shared
/// connection's lock, so that the WAL starts over ([`checkpoint_off_thread`]). Below it
/// the WAL grows, into blocks it had before its last start: appending to a file that
/// grows costs the kernel new blocks, zeroed, and writing over its old ones does not.
/// Every few rounds rather than each, because what is done holding the lock (copying the
/// last few frames and two fsyncs, 0.5 ms and now and then 30) makes every request wait.
const RESTART_FRAMES: i64 = 4096;

/// The checkpointer's rest after each round. Back to back, each checkpoint copied a few
/// frames for two fsyncs: 130 a second, a tenth of an ACME server's CPU time. Resting, it
/// copies at least a twentieth of a second's commits at once.
const OFF_THREAD_REST: Duration = Duration::from_millis(50);

/// The process's checkpointer for [`checkpoint_off_thread`]: the databases it keeps (each
/// with the shared connection that writes it, held weakly: a store dropped is forgotten),
/// and the one-slot channel that wakes it (nudges while it works collapse into one).
struct OffThread {
    owners: Mutex<Vec<(PathBuf, Weak<Mutex<Connection>>)>>,
    wake: SyncSender<()>,
}

static OFF_THREAD: OnceLock<Option<OffThread>> = OnceLock::new();

/// Leave the checkpoints of `path` by `shared` (the connection that the process's
/// threads share to write it, each holding the lock for its statements) to a thread of
/// the process, started with the first such connection: after a commit that leaves the
/// WAL past 1000 frames (SQLite's own threshold) the commit returns, and that thread
/// checkpoints every database given here. Durability is unchanged; only who waits for
/// the checkpoint's fsyncs is. Should the thread not start, `shared` checkpoints as
/// SQLite does.
///
/// SQLite checkpoints inside the commit that crosses the threshold, and an ACME
/// server's workers spent a tenth of their time in those fsyncs (docs/perf.md). Each
/// round here is two checkpoints:
///
/// - PASSIVE, from the thread's own connection, never blocking a writer: it copies what
///   has been committed since the last round and makes the fsyncs.
/// - Then, when the WAL has grown past 4,096 frames (about 17 MB), holding `shared`'s
///   lock so that no commit comes between, a second one that copies the few frames
///   committed meanwhile. The WAL is then wholly in the database file, and the next write starts
///   it over from its first frame (and syncs its header: one fsync in a request per
///   start). Without this it never would under a steady load (a write starts the WAL
///   over only when it begins with every frame copied, and some commit always came
///   after the last checkpoint): `acme.db-wal` grew by 110 KB an order, and appending to
///   a file that grows made the kernel allocate and zero new blocks on every write, a
///   tenth of the server's time.
///
/// The price is that the second checkpoint's two fsyncs are made holding the lock: a
/// disk slow to sync holds up every request for that long, every few thousand frames.
/// A start is not certain either: another process reading the database at that moment
/// (`pkit acme orders`, a second server), or a second checkpoint that fails, leaves the
/// WAL to grow until a later round. One store per database and process is assumed;
/// with two, each round takes the lock of only one of them.
pub fn checkpoint_off_thread(shared: &Arc<Mutex<Connection>>, path: &Path) {
    let off = OFF_THREAD.get_or_init(|| {
        let (wake, woken) = sync_channel(1);
        std::thread::Builder::new()
            .name("wal-checkpoint".into())
            .spawn(move || checkpoint_when_woken(&woken))
            .ok()?;
        Some(OffThread {
            owners: Mutex::new(Vec::new()),
            wake,
        })
    });
    let Some(off) = off else {
        return;
    };
    {
        let mut owners = off.owners.lock().unwrap_or_else(PoisonError::into_inner);
        owners.retain(|(_, o)| o.strong_count() > 0);
        owners.push((path.to_path_buf(), Arc::downgrade(shared)));
    }
    // In place of SQLite's own hook, which is what checkpoints at the threshold.
    shared
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .wal_hook(Some(wake_checkpointer));
}

/// After each commit of a connection given to [`checkpoint_off_thread`], with the WAL's
/// frames.
fn wake_checkpointer(_: &Wal, frames: c_int) -> rusqlite::Result<()> {
    if frames >= OFF_THREAD_FRAMES {
        if let Some(Some(off)) = OFF_THREAD.get() {
            // Full: it is woken already, and checkpoints once it gets there.
            let _ = off.wake.try_send(());
        }
    }
    Ok(())
}

fn checkpoint_when_woken(woken: &Receiver<()>) {
    let mut open: Vec<(PathBuf, Connection)> = Vec::new();
    // The frames in the WAL after a checkpoint (its second column). A failed checkpoint
    // loses nothing: the pages wait for the next one.
    let passive = |c: &Connection| -> i64 {
        c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))
            .unwrap_or(0)
    };
    while woken.recv().is_ok() {
        let owners = match OFF_THREAD.get() {
            Some(Some(off)) => off
                .owners
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
            _ => Vec::new(),
        };
        // A database no live store writes any more is closed here too.
        open.retain(|(p, _)| owners.iter().any(|(q, o)| q == p && o.strong_count() > 0));
        for (path, owner) in owners {
            let Some(owner) = owner.upgrade() else {
                continue;
            };
            let at = match open.iter().position(|(p, _)| *p == path) {
                Some(at) => at,
                None => match Connection::open(&path) {
                    Ok(c) => {
                        open.push((path, c));
                        open.len() - 1
                    }
                    // Tried again at the next wake; meanwhile the WAL only grows.
                    Err(_) => continue,
                },
            };
            let c = &open[at].1;
            if passive(c) >= RESTART_FRAMES {
                let _quiet = owner.lock().unwrap_or_else(PoisonError::into_inner);
                passive(c);
            }
        }
        std::thread::sleep(OFF_THREAD_REST);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `NAME` in `dir`, in WAL mode, with one table `t` of blobs.
    fn wal_db(dir: &tempfile::TempDir, name: &str) -> (PathBuf, Connection) {
        let path = dir.path().join(name);
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.execute_batch("CREATE TABLE t (v BLOB)").unwrap();
        (path, conn)
    }

    /// The rows of `t`, read by a connection of its own once the writer has closed.
    fn rows(path: &Path) -> i64 {
        Connection::open(path)
            .unwrap()
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn commits_reach_the_database_file_and_the_wal_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let (path, conn) = wal_db(&dir, "t.db");
        let mut bg = BackgroundCheckpoints::start(&conn, &path).unwrap();
        let wal = dir.path().join("t.db-wal");
        let mut largest = 0;
        for _ in 0..4 * COMMITS_PER_RESTART {
            conn.execute_batch("BEGIN").unwrap();
            for _ in 0..64 {
                conn.execute("INSERT INTO t VALUES (zeroblob(4000))", [])
                    .unwrap();
            }
            conn.execute_batch("COMMIT").unwrap();
            bg.committed();
            largest = largest.max(std::fs::metadata(&wal).unwrap().len());
        }
        drop(bg);
        // Without restarts the WAL would hold all 32 × 64 rows (≈ 8.5 MB).
        assert!(largest < 6 << 20, "WAL grew to {largest} bytes");
        assert_eq!(rows(&path), 4 * 64 * i64::from(COMMITS_PER_RESTART));
    }

    #[test]
    fn a_servers_commits_reach_the_database_file_from_the_checkpoint_thread() {
        let dir = tempfile::tempdir().unwrap();
        let (path, conn) = wal_db(&dir, "s.db");
        let auto = |c: &Connection| -> i64 {
            c.query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!(auto(&conn), 1000);
        let conn = Arc::new(Mutex::new(conn));
        checkpoint_off_thread(&conn, &path);
        // SQLite's own checkpoints in the commit are off for this connection.
        assert_eq!(auto(&conn.lock().unwrap()), 0);
        // Twice SQLite's threshold, a page a commit.
        for _ in 0..2 * OFF_THREAD_FRAMES {
            conn.lock()
                .unwrap()
                .execute("INSERT INTO t VALUES (zeroblob(3000))", [])
                .unwrap();
        }
        // Nothing in the commits checkpoints now: the pages reach the database file when
        // the thread has run (waited for, not timed: ten minutes is only a bound).
        let file = || std::fs::metadata(&path).unwrap().len();
        let until = std::time::Instant::now() + Duration::from_secs(600);
        while file() < 4 << 20 && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(file() >= 4 << 20, "database file {} bytes", file());
        drop(conn);
        assert_eq!(rows(&path), 2 * i64::from(OFF_THREAD_FRAMES));
    }

    #[test]
    fn a_servers_wal_starts_over_under_a_steady_load() {
        let dir = tempfile::tempdir().unwrap();
        let (path, conn) = wal_db(&dir, "w.db");
        let conn = Arc::new(Mutex::new(conn));
        checkpoint_off_thread(&conn, &path);
        let wal = dir.path().join("w.db-wal");
        // Commits one after another, as a busy server's threads make them, until the
        // checkpointer has been through several rounds: a PASSIVE checkpoint alone
        // always finds a commit after it, and the WAL never starts over. The loop counts
        // commits, not time: a round that finds the WAL past RESTART_FRAMES leaves it
        // wholly copied, so the file stops growing soon after it passes that size,
        // however slowly the machine runs both threads (checked beside CPU and disk
        // load: 18 MB at most, against 234–250 MB without the second checkpoint).
        let commits = 20 * OFF_THREAD_FRAMES;
        let mut largest = 0;
        for i in 0..commits {
            conn.lock()
                .unwrap()
                .execute("INSERT INTO t VALUES (zeroblob(3000))", [])
                .unwrap();
            // A server's threads work between their commits, and the checkpointer takes
            // the lock then; a loop that only committed would take it back at once.
            std::thread::sleep(Duration::from_micros(50));
            if i % 100 == 0 {
                largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
            }
        }
        // Left to grow, the WAL reaches 250 MB (each insert writes about three pages); it
        // stays near RESTART_FRAMES' 17 MB and what a round's rest adds (18 MB here).
        assert!(largest < 64 << 20, "the WAL grew to {largest} bytes");
        drop(conn);
        assert_eq!(rows(&path), i64::from(commits));
    }
}
