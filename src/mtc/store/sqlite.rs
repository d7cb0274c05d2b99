//! `mtc.db`: the issuance log ([`LogStore`]) in SQLite, opened and migrated like the CA
//! database ([`pkit_store::sqlite::open_versioned`]: WAL, `PRAGMA user_version`).
//!
//! Tables: `entries` (the MTCLogEntry bytes, the subject's SPKI and the leaf hash, by
//! index: level 0 of the tree), `nodes` (complete interior nodes by level ≥ 1 and index),
//! `checkpoints` (signed notes), `subtree_signatures` (cosignatures with timestamp 0 over
//! covering subtrees) and `landmarks`. Appends run one transaction per chunk with
//! statements prepared once; each appended leaf adds its leaf hash and the nodes it
//! completes, computed from the in-memory right edge ([`Frontier`]), so the tree is never
//! rebuilt.
//!
//! Schema v2 adds what was handed out: `proofs` (the TLS-encoded MTCProof of each issued
//! certificate, with the subtree it proves inclusion in) and `certificates` (the
//! certificate DER and when it was issued), one row per entry index and kind
//! (`standalone` or `landmark`). `pkit mtc cert` always derives a certificate from the
//! log and records it here, replacing the row an earlier issue of the same index and
//! kind left; the rows are a record of the latest issue, never a cache that issuance
//! reads back (`--stored` prints them instead of issuing).

use super::api::{
    CertKind, LogStore, NewEntry, SignedSubtree, StoredCertificate, StoredCheckpoint, StoredProof,
    SubtreeSignature,
};
use super::values::{blob_hash, to_i64};
use crate::error::{MtcError, Result};
use crate::frontier::Frontier;
use crate::hash::Hash;
use crate::landmark::Landmark;
use crate::subtree::Subtree;
use crate::tree::{MemTree, NodeSource};
use pkit_store::sqlite::open_versioned;
use pkit_store::wal_checkpoint::BackgroundCheckpoints;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};

const MIGRATIONS: &[&str] = &[
    // v1
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE entries (idx INTEGER PRIMARY KEY, entry BLOB NOT NULL, spki BLOB NOT NULL,
        leaf BLOB NOT NULL);
    CREATE TABLE nodes (level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL,
        PRIMARY KEY (level, idx)) WITHOUT ROWID;
    CREATE TABLE checkpoints (size INTEGER PRIMARY KEY, root BLOB NOT NULL,
        note TEXT NOT NULL, created INTEGER NOT NULL);
    CREATE TABLE subtree_signatures (start INTEGER NOT NULL, end INTEGER NOT NULL,
        cosigner BLOB NOT NULL, hash BLOB NOT NULL, signature BLOB NOT NULL,
        PRIMARY KEY (start, end, cosigner)) WITHOUT ROWID;
    CREATE TABLE landmarks (number INTEGER PRIMARY KEY, tree_size INTEGER NOT NULL,
        expiry INTEGER NOT NULL);",
    // v2: issued proofs and certificates, the latest per (entry index, kind). Rowid
    // tables: the BLOBs are large (an ML-DSA certificate is several KiB), which suits
    // WITHOUT ROWID badly.
    "CREATE TABLE proofs (idx INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('standalone', 'landmark')),
        start INTEGER NOT NULL, end INTEGER NOT NULL, proof BLOB NOT NULL,
        PRIMARY KEY (idx, kind));
    CREATE TABLE certificates (idx INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('standalone', 'landmark')),
        der BLOB NOT NULL, created INTEGER NOT NULL,
        PRIMARY KEY (idx, kind));",
];

/// The schema version this build writes: the number of migrations.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// A log in an `mtc.db` SQLite file (WAL; appends under an immediate transaction).
pub struct SqliteLogStore {
    /// Declared before `conn`: dropped (its last checkpoint done) before the writer closes.
    checkpoints: Option<BackgroundCheckpoints>,
    conn: Connection,
    path: PathBuf,
    /// The tree's right edge; its size is the number of entries.
    frontier: Frontier,
}

// Here rather than beside MtcError: only this implementation speaks SQLite.
impl From<rusqlite::Error> for MtcError {
    fn from(e: rusqlite::Error) -> Self {
        MtcError::Store(format!("database: {e}"))
    }
}

impl SqliteLogStore {
    /// Open (creating if needed) and migrate.
    pub fn open(path: &Path) -> Result<SqliteLogStore> {
        let conn = open_versioned(path, MIGRATIONS)
            .map_err(|e| MtcError::Store(format!("{}: {e}", path.display())))?;
        // A 64 MiB page cache keeps the pages appends touch (the end of `entries` and the
        // right edge of each level of `nodes`) in memory across chunks.
        conn.pragma_update(None, "cache_size", -65536)?;
        let mut store = SqliteLogStore {
            checkpoints: None,
            conn,
            path: path.to_path_buf(),
            frontier: Frontier::default(),
        };
        store.frontier = store.load_frontier()?;
        Ok(store)
    }

    /// How many entries the database holds (indices are dense from 0).
    fn stored_size(&self) -> Result<u64> {
        let next: i64 = self
            .conn
            .prepare_cached("SELECT COALESCE(MAX(idx) + 1, 0) FROM entries")?
            .query_row([], |r| r.get(0))?;
        Ok(next as u64)
    }

    /// The right edge of the tree as stored.
    fn load_frontier(&self) -> Result<Frontier> {
        Frontier::load(self.stored_size()?, |level, index| {
            self.stored_node(level, index)
        })
    }

    fn checkpoint_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(i64, Vec<u8>, String, i64)> {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
    }

    /// `f` in a transaction of its own, or in the one a checkpoint leader holds.
    fn in_transaction(&self, f: impl FnOnce(&Connection) -> Result<()>) -> Result<()> {
        if !self.conn.is_autocommit() {
            // Inside the leader's transaction: a savepoint, so that a failure leaves none
            // of `f`'s writes for the leader's commit.
            self.conn.execute_batch("SAVEPOINT part")?;
            return match f(&self.conn) {
                Ok(()) => Ok(self.conn.execute_batch("RELEASE part")?),
                Err(e) => {
                    let _ = self.conn.execute_batch("ROLLBACK TO part; RELEASE part");
                    Err(e)
                }
            };
        }
        let tx = self.conn.unchecked_transaction()?;
        f(&tx)?;
        tx.commit()?;
        Ok(())
    }

    /// The stored node at `level`, `index` (level 0: a leaf hash).
    fn stored_node(&self, level: u32, index: u64) -> Result<Hash> {
        let h: Option<Vec<u8>> = if level == 0 {
            self.conn
                .prepare_cached("SELECT leaf FROM entries WHERE idx = ?1")?
                .query_row([to_i64(index)?], |r| r.get(0))
                .optional()?
        } else {
            self.conn
                .prepare_cached("SELECT hash FROM nodes WHERE level = ?1 AND idx = ?2")?
                .query_row(params![i64::from(level), to_i64(index)?], |r| r.get(0))
                .optional()?
        };
        blob_hash(&h.ok_or_else(|| {
            MtcError::Store(format!("database: node ({level}, {index}) is missing"))
        })?)
    }
}

/// Store cosignatures over subtrees, replacing one of the same subtree and cosigner.
fn put_subtree_signatures(tx: &Connection, sigs: &[SubtreeSignature]) -> Result<()> {
    let mut st = tx.prepare_cached(
        "INSERT OR REPLACE INTO subtree_signatures (start, end, cosigner, hash, signature)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for s in sigs {
        st.execute(params![
            to_i64(s.subtree.start)?,
            to_i64(s.subtree.end)?,
            s.cosigner,
            &s.hash[..],
            s.signature
        ])?;
    }
    Ok(())
}

impl LogStore for SqliteLogStore {
    fn set_meta(&mut self, key: &str, value: &str) -> Result<()> {
        self.conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            params![key, value],
        )?;
        Ok(())
    }

    fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    /// Checkpoint the WAL from a background thread while chunks go in (see
    /// [`BackgroundCheckpoints`]).
    fn prepare_bulk_append(&mut self) -> Result<()> {
        if self.checkpoints.is_none() {
            self.checkpoints = Some(BackgroundCheckpoints::start(&self.conn, &self.path)?);
        }
        Ok(())
    }

    fn refresh(&mut self) -> Result<()> {
        if self.stored_size()? != self.frontier.size() {
            self.frontier = self.load_frontier()?;
        }
        Ok(())
    }

    /// The checkpoint is made inside one immediate transaction: the write lock keeps
    /// every other connection and process from checkpointing (or appending) until it is
    /// recorded, and the log is read as every connection left it.
    fn lead_checkpoint(&mut self) -> Result<()> {
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        self.refresh()
    }

    fn end_checkpoint(&mut self) -> Result<()> {
        if !self.conn.is_autocommit() {
            self.conn.execute_batch("COMMIT")?;
        }
        Ok(())
    }

    fn append_entries(&mut self, entries: &[NewEntry]) -> Result<u64> {
        // Immediate: the write lock first, so that another connection (an ACME server's
        // workers each hold one) cannot append between the size read here and the
        // inserts.
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )?;
        // Appended to a copy, kept only once the transaction has committed.
        let mut frontier = if self.stored_size()? == self.frontier.size() {
            self.frontier.clone()
        } else {
            self.load_frontier()?
        };
        let first = frontier.size();
        {
            let mut ins_entry = tx.prepare_cached(
                "INSERT INTO entries (idx, entry, spki, leaf) VALUES (?1, ?2, ?3, ?4)",
            )?;
            let mut ins_node =
                tx.prepare_cached("INSERT INTO nodes (level, idx, hash) VALUES (?1, ?2, ?3)")?;
            for e in entries {
                let idx = to_i64(frontier.size())?;
                ins_entry.execute(params![idx, e.entry, e.spki, &e.leaf[..]])?;
                frontier.push(e.leaf, |level, i, h| {
                    ins_node.execute(params![i64::from(level), to_i64(i)?, &h[..]])?;
                    Ok(())
                })?;
            }
        }
        tx.commit()?;
        if let Some(c) = &mut self.checkpoints {
            c.committed();
        }
        self.frontier = frontier;
        Ok(first)
    }

    fn entry(&self, index: u64) -> Result<(Vec<u8>, Vec<u8>)> {
        self.conn
            .prepare_cached("SELECT entry, spki FROM entries WHERE idx = ?1")?
            .query_row([to_i64(index)?], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?
            .ok_or_else(|| {
                MtcError::Invalid(format!("no entry {index} (the log has {})", self.size()))
            })
    }

    fn entries(&self, start: u64, end: u64) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let mut st = self.conn.prepare_cached(
            "SELECT entry, spki FROM entries WHERE idx >= ?1 AND idx < ?2 ORDER BY idx",
        )?;
        let rows = st.query_map([to_i64(start)?, to_i64(end)?], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    fn load_tree(&self) -> Result<MemTree> {
        let mut st = self
            .conn
            .prepare_cached("SELECT leaf FROM entries ORDER BY idx")?;
        let leaves = st
            .query_map([], |r| r.get::<_, Vec<u8>>(0))?
            .map(|r| r.map_err(MtcError::from).and_then(|v| blob_hash(&v)))
            .collect::<Result<Vec<Hash>>>()?;
        Ok(MemTree::from_leaves(leaves))
    }

    fn insert_checkpoint(
        &mut self,
        cp: &StoredCheckpoint,
        sigs: &[SubtreeSignature],
    ) -> Result<()> {
        self.in_transaction(|tx| {
            tx.execute(
                "INSERT INTO checkpoints (size, root, note, created) VALUES (?1, ?2, ?3, ?4)",
                params![to_i64(cp.size)?, &cp.root[..], cp.note, cp.created],
            )?;
            put_subtree_signatures(tx, sigs)
        })
    }

    fn insert_subtree_signatures(&mut self, sigs: &[SubtreeSignature]) -> Result<()> {
        self.in_transaction(|tx| put_subtree_signatures(tx, sigs))
    }

    fn latest_checkpoint(&self) -> Result<Option<StoredCheckpoint>> {
        // Cached: `mtc serve` asks for it on every request.
        let row = self
            .conn
            .prepare_cached(
                "SELECT size, root, note, created FROM checkpoints ORDER BY size DESC LIMIT 1",
            )?
            .query_row([], Self::checkpoint_row)
            .optional()?;
        row.map(|(size, root, note, created)| {
            Ok(StoredCheckpoint {
                size: size as u64,
                root: blob_hash(&root)?,
                note,
                created,
            })
        })
        .transpose()
    }

    fn set_checkpoint_note(&mut self, size: u64, note: &str) -> Result<()> {
        let n = self.conn.execute(
            "UPDATE checkpoints SET note = ?1 WHERE size = ?2",
            params![note, to_i64(size)?],
        )?;
        if n != 1 {
            return Err(MtcError::Invalid(format!("no checkpoint of size {size}")));
        }
        Ok(())
    }

    fn signed_subtree_for(&self, index: u64) -> Result<Option<SignedSubtree>> {
        let i = to_i64(index)?;
        let best: Option<(i64, i64)> = self
            .conn
            .query_row(
                "SELECT start, end FROM subtree_signatures WHERE start <= ?1 AND ?1 < end
                 ORDER BY end - start, start LIMIT 1",
                [i],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let Some((s, e)) = best else {
            return Ok(None);
        };
        let st = Subtree::new(s as u64, e as u64);
        let sigs = self.subtree_signatures(st)?;
        let hash = sigs.first().map(|s| s.hash).unwrap_or_default();
        Ok(Some((st, hash, sigs)))
    }

    fn subtree_signatures(&self, st: Subtree) -> Result<Vec<SubtreeSignature>> {
        let mut q = self.conn.prepare_cached(
            "SELECT cosigner, hash, signature FROM subtree_signatures WHERE start = ?1 AND end = ?2",
        )?;
        let rows = q.query_map([to_i64(st.start)?, to_i64(st.end)?], |r| {
            Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, Vec<u8>>(1)?, r.get(2)?))
        })?;
        rows.map(|r| {
            let (cosigner, hash, signature) = r?;
            Ok(SubtreeSignature {
                subtree: st,
                cosigner,
                hash: blob_hash(&hash)?,
                signature,
            })
        })
        .collect()
    }

    fn landmarks(&self) -> Result<Vec<Landmark>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT number, tree_size, expiry FROM landmarks ORDER BY number")?;
        let mut out = vec![Landmark::ZERO];
        let rows = st.query_map([], |r| {
            Ok(Landmark {
                number: r.get::<_, i64>(0)? as u64,
                tree_size: r.get::<_, i64>(1)? as u64,
                expiry: r.get::<_, i64>(2)? as u64,
            })
        })?;
        for r in rows {
            out.push(r?);
        }
        Ok(out)
    }

    fn insert_landmark(&mut self, l: &Landmark) -> Result<()> {
        self.conn.execute(
            "INSERT INTO landmarks (number, tree_size, expiry) VALUES (?1, ?2, ?3)",
            params![to_i64(l.number)?, to_i64(l.tree_size)?, to_i64(l.expiry)?],
        )?;
        Ok(())
    }

    fn insert_proofs(&mut self, proofs: &[StoredProof]) -> Result<()> {
        self.in_transaction(|tx| write_proofs(tx, proofs))
    }

    fn insert_certificates(&mut self, certs: &[StoredCertificate]) -> Result<()> {
        self.in_transaction(|tx| write_certificates(tx, certs))
    }

    fn record_issued(&mut self, proofs: &[StoredProof], certs: &[StoredCertificate]) -> Result<()> {
        self.in_transaction(|tx| {
            write_proofs(tx, proofs)?;
            write_certificates(tx, certs)
        })
    }

    fn proofs_in(&self, start: u64, end: u64, kind: CertKind) -> Result<Vec<StoredProof>> {
        let mut st = self.conn.prepare_cached(
            "SELECT idx, start, end, proof FROM proofs
             WHERE kind = ?3 AND idx >= ?1 AND idx < ?2 ORDER BY idx",
        )?;
        let rows = st.query_map(params![to_i64(start)?, to_i64(end)?, kind.as_str()], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get(3)?,
            ))
        })?;
        rows.map(|r| {
            let (idx, s, e, proof) = r?;
            Ok(StoredProof {
                index: idx as u64,
                kind,
                subtree: Subtree::new(s as u64, e as u64),
                proof,
            })
        })
        .collect()
    }

    fn stored_certificates(
        &self,
        start: u64,
        end: u64,
        kind: CertKind,
    ) -> Result<Vec<StoredCertificate>> {
        let mut st = self.conn.prepare_cached(
            "SELECT idx, der, created FROM certificates
             WHERE kind = ?3 AND idx >= ?1 AND idx < ?2 ORDER BY idx",
        )?;
        let rows = st.query_map(params![to_i64(start)?, to_i64(end)?, kind.as_str()], |r| {
            Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?))
        })?;
        rows.map(|r| {
            let (idx, der, created) = r?;
            Ok(StoredCertificate {
                index: idx as u64,
                kind,
                der,
                created,
            })
        })
        .collect()
    }
}

fn write_proofs(conn: &Connection, proofs: &[StoredProof]) -> Result<()> {
    let mut st = conn.prepare_cached(
        "INSERT OR REPLACE INTO proofs (idx, kind, start, end, proof)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for p in proofs {
        st.execute(params![
            to_i64(p.index)?,
            p.kind.as_str(),
            to_i64(p.subtree.start)?,
            to_i64(p.subtree.end)?,
            p.proof
        ])?;
    }
    Ok(())
}

fn write_certificates(conn: &Connection, certs: &[StoredCertificate]) -> Result<()> {
    let mut st = conn.prepare_cached(
        "INSERT OR REPLACE INTO certificates (idx, kind, der, created)
         VALUES (?1, ?2, ?3, ?4)",
    )?;
    for c in certs {
        st.execute(params![to_i64(c.index)?, c.kind.as_str(), c.der, c.created])?;
    }
    Ok(())
}

impl NodeSource for SqliteLogStore {
    fn size(&self) -> u64 {
        self.frontier.size()
    }

    fn node(&self, level: u32, index: u64) -> Result<Hash> {
        self.stored_node(level, index)
    }

    fn nodes(&self, level: u32, start: u64, end: u64) -> Result<Vec<Hash>> {
        let (from, to) = (to_i64(start)?, to_i64(end)?);
        // Level 0 is the entries' leaf hashes; the levels above are the nodes table.
        let (sql, args) = if level == 0 {
            (
                "SELECT leaf FROM entries WHERE idx >= ?1 AND idx < ?2 ORDER BY idx",
                vec![from, to],
            )
        } else {
            (
                "SELECT hash FROM nodes WHERE level = ?3 AND idx >= ?1 AND idx < ?2 ORDER BY idx",
                vec![from, to, i64::from(level)],
            )
        };
        let mut st = self.conn.prepare_cached(sql)?;
        // Each blob copied straight into its hash: a tile is 256 rows, served often.
        let rows = st.query_map(rusqlite::params_from_iter(args), |r| {
            Ok(<Hash>::try_from(r.get_ref(0)?.as_blob()?).ok())
        })?;
        let hashes = rows
            .map(|r| {
                r?.ok_or_else(|| MtcError::Store("database: a stored hash is not 32 bytes".into()))
            })
            .collect::<Result<Vec<Hash>>>()?;
        if hashes.len() as u64 != end - start {
            return Err(MtcError::Store(format!(
                "database: nodes ({level}, {start}..{end}) are missing"
            )));
        }
        Ok(hashes)
    }
}

#[cfg(test)]
mod tests;
