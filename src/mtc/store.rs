//! `mtc.db`: the issuance log in SQLite, opened and migrated like the CA database
//! ([`crate::pki::issue::store::open_versioned`]: WAL, `PRAGMA user_version`).
//!
//! Tables: `entries` (the MTCLogEntry bytes, the subject's SPKI and the leaf hash, by
//! index: level 0 of the tree), `nodes` (complete interior nodes by level ≥ 1 and index), `checkpoints`
//! (signed notes), `subtree_signatures` (cosignatures with timestamp 0 over covering
//! subtrees) and `landmarks`. Appends run one transaction per chunk with statements
//! prepared once; each appended leaf adds its leaf hash and the nodes it completes,
//! computed from the in-memory right-edge frontier, so the tree is never rebuilt.

use super::error::{MtcError, Result};
use super::hash::{node_hash, Hash};
use super::landmark::Landmark;
use super::subtree::Subtree;
use super::tree::{MemTree, NodeSource};
use crate::pki::issue::store::open_versioned;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;

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
];

pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// One entry to append: its MTCLogEntry bytes, the subject SPKI and the leaf hash.
#[derive(Debug, Clone)]
pub struct NewEntry {
    pub entry: Vec<u8>,
    pub spki: Vec<u8>,
    pub leaf: Hash,
}

/// A stored cosignature over a subtree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtreeSignature {
    pub subtree: Subtree,
    pub cosigner: Vec<u8>,
    pub hash: Hash,
    pub signature: Vec<u8>,
}

/// A stored checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredCheckpoint {
    pub size: u64,
    pub root: Hash,
    pub note: String,
    pub created: i64,
}

pub struct Store {
    conn: Connection,
    size: u64,
    /// `frontier[l]`: the last complete node of level `l` when it is a left child still
    /// waiting for its sibling.
    frontier: Vec<Option<Hash>>,
}

fn to_i64(v: u64) -> Result<i64> {
    i64::try_from(v).map_err(|_| MtcError::Invalid(format!("{v} exceeds the database range")))
}

fn blob_hash(v: Vec<u8>) -> Result<Hash> {
    v.try_into()
        .map_err(|_| MtcError::Store("database: a stored hash is not 32 bytes".into()))
}

impl Store {
    /// Open (creating if needed) and migrate.
    pub fn open(path: &Path) -> Result<Store> {
        let conn = open_versioned(path, MIGRATIONS)
            .map_err(|e| MtcError::Store(format!("{}: {e}", path.display())))?;
        // A 64 MiB page cache keeps the pages appends touch (the end of `entries` and the
        // right edge of each level of `nodes`) in memory across chunks.
        conn.pragma_update(None, "cache_size", -65536)?;
        let size: i64 = conn.query_row("SELECT COUNT(*) FROM entries", [], |r| r.get(0))?;
        let mut store = Store {
            conn,
            size: size as u64,
            frontier: Vec::new(),
        };
        store.load_frontier()?;
        Ok(store)
    }

    fn load_frontier(&mut self) -> Result<()> {
        let mut f = Vec::new();
        let mut l = 0;
        while (self.size >> l) > 0 {
            let count = self.size >> l;
            f.push(if count & 1 == 1 {
                Some(self.node(l, count - 1)?)
            } else {
                None
            });
            l += 1;
        }
        self.frontier = f;
        Ok(())
    }

    pub fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        self.conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            params![key, value],
        )?;
        Ok(())
    }

    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    /// Append entries in one transaction; returns the index of the first. On error
    /// nothing of the chunk is stored.
    pub fn append_entries(&mut self, entries: &[NewEntry]) -> Result<u64> {
        let first = self.size;
        let mut frontier = self.frontier.clone();
        let tx = self.conn.unchecked_transaction()?;
        {
            let mut ins_entry = tx.prepare_cached(
                "INSERT INTO entries (idx, entry, spki, leaf) VALUES (?1, ?2, ?3, ?4)",
            )?;
            let mut ins_node =
                tx.prepare_cached("INSERT INTO nodes (level, idx, hash) VALUES (?1, ?2, ?3)")?;
            for (size, e) in (first..).zip(entries) {
                let idx = to_i64(size)?;
                ins_entry.execute(params![idx, e.entry, e.spki, &e.leaf[..]])?;
                let mut h = e.leaf;
                let mut i = size;
                let mut level = 0usize;
                // Each set low bit of the index pairs the new node with a waiting left one.
                while i & 1 == 1 {
                    let left = frontier
                        .get_mut(level)
                        .and_then(Option::take)
                        .ok_or_else(|| {
                            MtcError::Store("database: missing right-edge node".into())
                        })?;
                    h = node_hash(&left, &h);
                    i >>= 1;
                    level += 1;
                    ins_node.execute(params![level as i64, to_i64(i)?, &h[..]])?;
                }
                if frontier.len() <= level {
                    frontier.resize(level + 1, None);
                }
                frontier[level] = Some(h);
            }
        }
        tx.commit()?;
        self.size = first + entries.len() as u64;
        self.frontier = frontier;
        Ok(first)
    }

    /// The entry bytes and SPKI at `index`.
    pub fn entry(&self, index: u64) -> Result<(Vec<u8>, Vec<u8>)> {
        self.conn
            .prepare_cached("SELECT entry, spki FROM entries WHERE idx = ?1")?
            .query_row([to_i64(index)?], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?
            .ok_or_else(|| {
                MtcError::Invalid(format!("no entry {index} (the log has {})", self.size))
            })
    }

    /// Entries `[start, end)` in index order (`db_read_entries`).
    pub fn entries(&self, start: u64, end: u64) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let mut st = self.conn.prepare_cached(
            "SELECT entry, spki FROM entries WHERE idx >= ?1 AND idx < ?2 ORDER BY idx",
        )?;
        let rows = st.query_map([to_i64(start)?, to_i64(end)?], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Every stored node, as an in-memory tree (for answering all proofs of a batch).
    pub fn load_tree(&self) -> Result<MemTree> {
        let mut st = self
            .conn
            .prepare_cached("SELECT leaf FROM entries ORDER BY idx")?;
        let leaves = st
            .query_map([], |r| r.get::<_, Vec<u8>>(0))?
            .map(|r| r.map_err(MtcError::from).and_then(blob_hash))
            .collect::<Result<Vec<Hash>>>()?;
        Ok(MemTree::from_leaves(leaves))
    }

    pub fn insert_checkpoint(
        &self,
        cp: &StoredCheckpoint,
        sigs: &[SubtreeSignature],
    ) -> Result<()> {
        let tx = self.conn.unchecked_transaction()?;
        tx.execute(
            "INSERT INTO checkpoints (size, root, note, created) VALUES (?1, ?2, ?3, ?4)",
            params![to_i64(cp.size)?, &cp.root[..], cp.note, cp.created],
        )?;
        {
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
        }
        tx.commit()?;
        Ok(())
    }

    fn checkpoint_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(i64, Vec<u8>, String, i64)> {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
    }

    /// The newest checkpoint, if any.
    pub fn latest_checkpoint(&self) -> Result<Option<StoredCheckpoint>> {
        let row = self
            .conn
            .query_row(
                "SELECT size, root, note, created FROM checkpoints ORDER BY size DESC LIMIT 1",
                [],
                Self::checkpoint_row,
            )
            .optional()?;
        row.map(|(size, root, note, created)| {
            Ok(StoredCheckpoint {
                size: size as u64,
                root: blob_hash(root)?,
                note,
                created,
            })
        })
        .transpose()
    }

    /// The smallest signed subtree containing `index`, with all its cosignatures.
    pub fn signed_subtree_for(
        &self,
        index: u64,
    ) -> Result<Option<(Subtree, Hash, Vec<SubtreeSignature>)>> {
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
        let mut q = self.conn.prepare_cached(
            "SELECT cosigner, hash, signature FROM subtree_signatures WHERE start = ?1 AND end = ?2",
        )?;
        let sigs = q
            .query_map([s, e], |r| {
                Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, Vec<u8>>(1)?, r.get(2)?))
            })?
            .map(|r| {
                let (cosigner, hash, signature) = r?;
                Ok(SubtreeSignature {
                    subtree: st,
                    cosigner,
                    hash: blob_hash(hash)?,
                    signature,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let hash = sigs.first().map(|s| s.hash).unwrap_or_default();
        Ok(Some((st, hash, sigs)))
    }

    pub fn landmarks(&self) -> Result<Vec<Landmark>> {
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

    pub fn insert_landmark(&self, l: &Landmark) -> Result<()> {
        self.conn.execute(
            "INSERT INTO landmarks (number, tree_size, expiry) VALUES (?1, ?2, ?3)",
            params![to_i64(l.number)?, to_i64(l.tree_size)?, to_i64(l.expiry)?],
        )?;
        Ok(())
    }
}

impl NodeSource for Store {
    fn size(&self) -> u64 {
        self.size
    }

    fn node(&self, level: u32, index: u64) -> Result<Hash> {
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
        blob_hash(h.ok_or_else(|| {
            MtcError::Store(format!("database: node ({level}, {index}) is missing"))
        })?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mtc::hash::leaf_hash;
    use crate::mtc::tree::{inclusion_proof, subtree_hash};

    #[test]
    fn stored_tree_matches_memory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mtc.db");
        let leaves: Vec<Hash> = (0..77u8).map(|i| leaf_hash(&[i])).collect();
        {
            let mut s = Store::open(&path).unwrap();
            for chunk in leaves.chunks(10) {
                let batch: Vec<NewEntry> = chunk
                    .iter()
                    .map(|l| NewEntry {
                        entry: vec![1],
                        spki: vec![2],
                        leaf: *l,
                    })
                    .collect();
                s.append_entries(&batch).unwrap();
            }
        }
        // Reopen: the frontier comes back from the stored nodes.
        let mut s = Store::open(&path).unwrap();
        let extra = leaf_hash(&[77]);
        s.append_entries(&[NewEntry {
            entry: vec![1],
            spki: vec![2],
            leaf: extra,
        }])
        .unwrap();
        let mut all = leaves.clone();
        all.push(extra);
        let m = MemTree::from_leaves(all);
        for st in [
            Subtree::new(0, 78),
            Subtree::new(64, 78),
            Subtree::new(32, 64),
        ] {
            assert_eq!(subtree_hash(&s, st).unwrap(), subtree_hash(&m, st).unwrap());
            assert_eq!(
                inclusion_proof(&s, st.start + 5, st).unwrap(),
                inclusion_proof(&m, st.start + 5, st).unwrap()
            );
        }
        assert_eq!(s.load_tree().unwrap().root(), m.root());
    }
}
