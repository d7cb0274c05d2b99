//! A witness's state in SQLite (`witness.db`): per log origin, the latest checkpoint it
//! cosigned. Each `add-checkpoint` reads and writes it in one IMMEDIATE transaction
//! (c2sp.org/tlog-witness: the check of the old size and the record of the new one are
//! atomic), committed with `synchronous = FULL`: a witness that forgot a cosigned tree
//! after a power cut could later cosign a fork of it.

use super::hash::Hash;
use super::tlog_witness::{Decide, Recorded, Refusal, WitnessState};
use crate::error::{MtcError, Result};
use pkit_store::open_error::OpenError;
use pkit_store::sqlite::open_versioned;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::Path;

/// Forward migrations; index i takes the schema from version i to i + 1.
const MIGRATIONS: &[&str] = &[
    // v1: one row per log: the size and root of the latest checkpoint cosigned, and when.
    "CREATE TABLE logs (
        origin  TEXT PRIMARY KEY,
        size    INTEGER NOT NULL,
        root    BLOB NOT NULL,
        updated INTEGER NOT NULL
    );",
];

/// `witness.db`.
pub struct SqliteWitnessState {
    conn: Connection,
}

impl SqliteWitnessState {
    /// Open (creating) `path`.
    pub fn open(path: &Path) -> std::result::Result<SqliteWitnessState, OpenError> {
        let conn = open_versioned(path, MIGRATIONS)?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        Ok(SqliteWitnessState { conn })
    }
}

fn store_err(e: rusqlite::Error) -> Refusal {
    Refusal::Store(format!("the witness's state: {e}"))
}

fn recorded_of(conn: &Connection, origin: &str) -> rusqlite::Result<Option<Recorded>> {
    conn.prepare_cached("SELECT size, root FROM logs WHERE origin = ?1")?
        .query_row([origin], |r| {
            let size: i64 = r.get(0)?;
            let root: Vec<u8> = r.get(1)?;
            Ok((size, root))
        })
        .optional()
        .map(|row| {
            row.and_then(|(size, root)| {
                Some(Recorded {
                    size: u64::try_from(size).ok()?,
                    root: Hash::try_from(root).ok()?,
                })
            })
        })
}

impl WitnessState for SqliteWitnessState {
    fn advance(
        &mut self,
        origin: &str,
        decide: &mut Decide<'_>,
    ) -> std::result::Result<Recorded, Refusal> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(store_err)?;
        let now = recorded_of(&tx, origin).map_err(store_err)?;
        // A refusal drops the transaction: nothing is recorded.
        let new = decide(now)?;
        let size = i64::try_from(new.size)
            .map_err(|_| Refusal::Malformed(format!("tree size {} is too large", new.size)))?;
        let at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        tx.execute(
            "INSERT INTO logs (origin, size, root, updated) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(origin) DO UPDATE SET size = ?2, root = ?3, updated = ?4",
            params![origin, size, &new.root[..], at],
        )
        .map_err(store_err)?;
        tx.commit().map_err(store_err)?;
        Ok(new)
    }

    fn recorded(&mut self, origin: &str) -> Result<Option<Recorded>> {
        recorded_of(&self.conn, origin).map_err(|e| MtcError::Store(e.to_string()))
    }
}
