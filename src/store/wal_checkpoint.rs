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

use rusqlite::Connection;
use std::path::Path;
use std::sync::mpsc::{channel, Sender};
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
    pub fn start(writer: &Connection, path: &Path) -> rusqlite::Result<Self> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(60))?;
        writer.pragma_update(None, "wal_autocheckpoint", 0)?;
        let (nudge, wake) = channel::<Msg>();
        let worker = std::thread::spawn(move || {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_reach_the_database_file_and_the_wal_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.execute_batch("CREATE TABLE t (v BLOB)").unwrap();
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
        let n: i64 = Connection::open(&path)
            .unwrap()
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 4 * 64 * i64::from(COMMITS_PER_RESTART));
    }
}
