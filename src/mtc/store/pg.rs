//! The MTC issuance log ([`LogStore`]) on a PostgreSQL server: the tables and columns of
//! `mtc.db` in PostgreSQL's types, versioned in `pkit_schema` with forward-only migrations
//! (`pkit_store::postgres`), for a log that several issuing processes and hosts append
//! to and several `mtc serve` instances publish.
//!
//! Many writers, one sequence of indices: an append takes a transaction-scoped advisory
//! lock (`APPEND_LOCK`), reads the log's size, brings its in-memory right edge
//! ([`Frontier`]) up to that size when another process appended meanwhile, and commits
//! the entries and the nodes they complete before the lock goes. So entries get
//! consecutive indices, none lost or shared, and every node is computed once from the
//! nodes below it. `mtc add --from` holds the same lock for the whole run (session
//! scope), so one manifest's entries are one range. A checkpoint is made by one leader at
//! a time (`CHECKPOINT_LOCK`), over the size the log has once the leader holds it.
//!
//! Bulk rows go in with binary COPY: entries and their nodes per chunk, and issued
//! proofs and certificates through a temporary table, since a row of the same index and
//! kind is replaced (COPY itself cannot update).

use super::api::{
    CertKind, LogStore, NewEntry, SignedSubtree, StoredCertificate, StoredCheckpoint, StoredProof,
    SubtreeSignature,
};
use super::pg_rows::{
    checkpoint_of, load_frontier, put_subtree_signatures, stored_node, stored_size,
    write_certificates, write_proofs,
};
use super::values::{blob_hash, to_i64, to_u64};
use crate::error::{MtcError, Result};
use crate::frontier::Frontier;
use crate::hash::Hash;
use crate::landmark::Landmark;
use crate::subtree::Subtree;
use crate::tree::{MemTree, NodeSource};
use pkit_store::pg_copy::copy_in;
use pkit_store::pg_error::one_line;
use pkit_store::postgres::{off_runtime, open_versioned, server, Connector, Server};
use postgres::types::{ToSql, Type};
use postgres::{Client, Transaction};
use std::cell::RefCell;

/// Forward migrations; index i takes the schema from version i to i + 1. They are
/// `mtc.db`'s two versions, in PostgreSQL's types (`end` is a reserved word: quoted).
const MIGRATIONS: &[&str] = &[
    // v1: the log and its tree, checkpoints, cosignatures and landmarks.
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE entries (idx BIGINT PRIMARY KEY, entry BYTEA NOT NULL, spki BYTEA NOT NULL,
        leaf BYTEA NOT NULL);
    CREATE TABLE nodes (level INTEGER NOT NULL, idx BIGINT NOT NULL, hash BYTEA NOT NULL,
        PRIMARY KEY (level, idx));
    CREATE TABLE checkpoints (size BIGINT PRIMARY KEY, root BYTEA NOT NULL,
        note TEXT NOT NULL, created BIGINT NOT NULL);
    CREATE TABLE subtree_signatures (start BIGINT NOT NULL, \"end\" BIGINT NOT NULL,
        cosigner BYTEA NOT NULL, hash BYTEA NOT NULL, signature BYTEA NOT NULL,
        PRIMARY KEY (start, \"end\", cosigner));
    CREATE TABLE landmarks (number BIGINT PRIMARY KEY, tree_size BIGINT NOT NULL,
        expiry BIGINT NOT NULL);",
    // v2: issued proofs and certificates, the latest per (entry index, kind).
    "CREATE TABLE proofs (idx BIGINT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('standalone', 'landmark')),
        start BIGINT NOT NULL, \"end\" BIGINT NOT NULL, proof BYTEA NOT NULL,
        PRIMARY KEY (idx, kind));
    CREATE TABLE certificates (idx BIGINT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('standalone', 'landmark')),
        der BYTEA NOT NULL, created BIGINT NOT NULL,
        PRIMARY KEY (idx, kind));",
];

/// The schema version this build writes: the number of migrations.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The name under which the log's schema version is kept in `pkit_schema`.
const STORE: &str = "mtc";

/// The advisory lock key of the log's sequencer ("pkla"): held by each append's
/// transaction, and by `mtc add --from` for its whole run.
const APPEND_LOCK: i64 = 0x706b_6c61;

/// The advisory lock key of the checkpoint leader ("pklc").
const CHECKPOINT_LOCK: i64 = 0x706b_6c63;

// Here rather than beside MtcError: only this implementation speaks PostgreSQL.
impl From<postgres::Error> for MtcError {
    fn from(e: postgres::Error) -> Self {
        MtcError::Store(format!("database: {}", one_line(&e)))
    }
}

/// [`off_runtime`] with the log's error.
fn off<T: Send>(f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    off_runtime(f, || {
        MtcError::Store("database: a call ended abnormally on its thread".into())
    })
}

/// A connection and what it needs to be made again.
struct Conn {
    client: Client,
    server: Server,
    connector: Connector,
}

impl Conn {
    /// The connection, made anew when the last one was lost (a long-lived `mtc serve`
    /// outlives a server restart, failing only the calls under way).
    fn live(&mut self) -> Result<&mut Client> {
        if self.client.is_closed() {
            self.client = (self.connector)(&self.server)?;
        }
        Ok(&mut self.client)
    }
}

/// The MTC log in a PostgreSQL database.
pub struct PgLogStore {
    /// Reads go through `&self`; the client needs `&mut` for every statement. The store
    /// is used by one thread at a time (`LogStore` is `Send`, not `Sync`). `None` only
    /// while being dropped.
    conn: RefCell<Option<Conn>>,
    /// The tree's right edge as this process last saw it; appends bring it up to date.
    frontier: Frontier,
}

impl PgLogStore {
    /// Connect to `url` (with `password`, when given, through `connector`), check that
    /// the database is empty or pkit's log, and migrate it.
    pub fn open(url: &str, password: Option<&[u8]>, connector: Connector) -> Result<PgLogStore> {
        let open_err = |e: pkit_store::open_error::OpenError| MtcError::Store(e.to_string());
        let server = server(url, password).map_err(open_err)?;
        let (conn, frontier) = off(move || {
            let mut client = connector(&server)
                .map_err(pkit_store::open_error::OpenError::from)
                .map_err(open_err)?;
            open_versioned(&mut client, STORE, MIGRATIONS).map_err(open_err)?;
            let frontier = load_frontier(&mut client)?;
            Ok((
                Conn {
                    client,
                    server,
                    connector,
                },
                frontier,
            ))
        })?;
        Ok(PgLogStore {
            conn: RefCell::new(Some(conn)),
            frontier,
        })
    }

    /// Run `f` on the live connection, off any runtime.
    fn call<T: Send>(&self, f: impl FnOnce(&mut Client) -> Result<T> + Send) -> Result<T> {
        let mut guard = self.conn.try_borrow_mut().map_err(|_| {
            MtcError::Store("database: the connection is already in use by this store".into())
        })?;
        let conn = guard
            .as_mut()
            .ok_or_else(|| MtcError::Store("database: the connection is closed".into()))?;
        off(move || f(conn.live()?))
    }

    /// In one transaction.
    fn in_transaction(
        &self,
        f: impl FnOnce(&mut Transaction<'_>) -> Result<()> + Send,
    ) -> Result<()> {
        self.call(|c| {
            let mut tx = c.transaction()?;
            f(&mut tx)?;
            tx.commit()?;
            Ok(())
        })
    }
}

impl Drop for PgLogStore {
    /// Closing the client blocks too: off the runtime, as every call.
    fn drop(&mut self) {
        if let Some(conn) = self.conn.get_mut().take() {
            let _ = off(move || {
                drop(conn);
                Ok(())
            });
        }
    }
}

impl LogStore for PgLogStore {
    fn set_meta(&mut self, key: &str, value: &str) -> Result<()> {
        self.call(|c| {
            c.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &[&key, &value],
            )?;
            Ok(())
        })
    }

    fn meta(&self, key: &str) -> Result<Option<String>> {
        self.call(|c| {
            c.query_opt("SELECT value FROM meta WHERE key = $1", &[&key])?
                .map(|r| r.try_get(0).map_err(MtcError::from))
                .transpose()
        })
    }

    /// Hold the sequencer for the rest of this store's life (its session), so that the
    /// whole run's entries are one range of indices.
    fn prepare_bulk_append(&mut self) -> Result<()> {
        self.call(|c| {
            c.execute("SELECT pg_advisory_lock($1)", &[&APPEND_LOCK])?;
            Ok(())
        })
    }

    fn append_entries(&mut self, entries: &[NewEntry]) -> Result<u64> {
        // Appended to a copy, kept only once the transaction has committed.
        let frontier = self.frontier.clone();
        let (first, frontier) = self.call(move |c| {
            let mut tx = c.transaction()?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&APPEND_LOCK])?;
            let mut frontier = frontier;
            if stored_size(&mut tx)? != frontier.size() {
                // Another process appended since this one last did.
                frontier = load_frontier(&mut tx)?;
            }
            let first = frontier.size();
            let mut nodes: Vec<(i32, i64, Hash)> = Vec::new();
            for e in entries {
                frontier.push(e.leaf, |level, i, h| {
                    nodes.push((i32::try_from(level).unwrap_or(i32::MAX), to_i64(i)?, *h));
                    Ok(())
                })?;
            }
            let rows = entries.iter().zip(first..).map(|(e, i)| {
                Ok(vec![
                    Box::new(to_i64(i)?) as Box<dyn ToSql + Sync + '_>,
                    Box::new(&e.entry),
                    Box::new(&e.spki),
                    Box::new(e.leaf.to_vec()),
                ])
            });
            copy_in::<MtcError>(
                &mut tx,
                "entries",
                "idx, entry, spki, leaf",
                &[Type::INT8, Type::BYTEA, Type::BYTEA, Type::BYTEA],
                rows,
            )?;
            let rows = nodes.iter().map(|(l, i, h)| {
                Ok(vec![
                    Box::new(*l) as Box<dyn ToSql + Sync>,
                    Box::new(*i),
                    Box::new(h.to_vec()),
                ])
            });
            copy_in::<MtcError>(
                &mut tx,
                "nodes",
                "level, idx, hash",
                &[Type::INT4, Type::INT8, Type::BYTEA],
                rows,
            )?;
            tx.commit()?;
            Ok((first, frontier))
        })?;
        self.frontier = frontier;
        Ok(first)
    }

    fn entry(&self, index: u64) -> Result<(Vec<u8>, Vec<u8>)> {
        let i = to_i64(index)?;
        let size = self.size();
        self.call(|c| {
            let r = c
                .query_opt("SELECT entry, spki FROM entries WHERE idx = $1", &[&i])?
                .ok_or_else(|| {
                    MtcError::Invalid(format!("no entry {index} (the log has {size})"))
                })?;
            Ok((r.try_get(0)?, r.try_get(1)?))
        })
    }

    fn entries(&self, start: u64, end: u64) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let (s, e) = (to_i64(start)?, to_i64(end)?);
        self.call(|c| {
            c.query(
                "SELECT entry, spki FROM entries WHERE idx >= $1 AND idx < $2 ORDER BY idx",
                &[&s, &e],
            )?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
        })
    }

    fn load_tree(&self) -> Result<MemTree> {
        let size = to_i64(self.size())?;
        let leaves = self.call(|c| {
            c.query(
                "SELECT leaf FROM entries WHERE idx < $1 ORDER BY idx",
                &[&size],
            )?
            .iter()
            .map(|r| blob_hash(r.try_get(0)?))
            .collect::<Result<Vec<Hash>>>()
        })?;
        Ok(MemTree::from_leaves(leaves))
    }

    fn insert_checkpoint(
        &mut self,
        cp: &StoredCheckpoint,
        sigs: &[SubtreeSignature],
    ) -> Result<()> {
        let size = to_i64(cp.size)?;
        self.in_transaction(|tx| {
            tx.execute(
                "INSERT INTO checkpoints (size, root, note, created) VALUES ($1, $2, $3, $4)",
                &[&size, &&cp.root[..], &cp.note, &cp.created],
            )?;
            put_subtree_signatures(tx, sigs)
        })
    }

    /// Wait to be the one checkpoint leader, then see the log as it is now: a
    /// checkpoint covers every entry committed before it began.
    fn lead_checkpoint(&mut self) -> Result<()> {
        let frontier = self.call(|c| {
            c.execute("SELECT pg_advisory_lock($1)", &[&CHECKPOINT_LOCK])?;
            load_frontier(c)
        })?;
        self.frontier = frontier;
        Ok(())
    }

    fn refresh(&mut self) -> Result<()> {
        let known = self.frontier.size();
        if let Some(f) = self.call(move |c| {
            Ok(if stored_size(c)? == known {
                None
            } else {
                Some(load_frontier(c)?)
            })
        })? {
            self.frontier = f;
        }
        Ok(())
    }

    fn end_checkpoint(&mut self) -> Result<()> {
        self.call(|c| {
            c.execute("SELECT pg_advisory_unlock($1)", &[&CHECKPOINT_LOCK])?;
            Ok(())
        })
    }

    fn subtree_signatures(&self, st: Subtree) -> Result<Vec<SubtreeSignature>> {
        let (s, e) = (to_i64(st.start)?, to_i64(st.end)?);
        self.call(|c| {
            c.query(
                "SELECT cosigner, hash, signature FROM subtree_signatures
                 WHERE start = $1 AND \"end\" = $2",
                &[&s, &e],
            )?
            .iter()
            .map(|r| {
                Ok(SubtreeSignature {
                    subtree: st,
                    cosigner: r.try_get(0)?,
                    hash: blob_hash(r.try_get(1)?)?,
                    signature: r.try_get(2)?,
                })
            })
            .collect()
        })
    }

    fn insert_subtree_signatures(&mut self, sigs: &[SubtreeSignature]) -> Result<()> {
        self.in_transaction(|tx| put_subtree_signatures(tx, sigs))
    }

    fn latest_checkpoint(&self) -> Result<Option<StoredCheckpoint>> {
        self.call(|c| {
            c.query_opt(
                "SELECT size, root, note, created FROM checkpoints ORDER BY size DESC LIMIT 1",
                &[],
            )?
            .map(|r| checkpoint_of(&r))
            .transpose()
        })
    }

    fn set_checkpoint_note(&mut self, size: u64, note: &str) -> Result<()> {
        let s = to_i64(size)?;
        let n = self.call(|c| {
            Ok(c.execute(
                "UPDATE checkpoints SET note = $1 WHERE size = $2",
                &[&note, &s],
            )?)
        })?;
        if n != 1 {
            return Err(MtcError::Invalid(format!("no checkpoint of size {size}")));
        }
        Ok(())
    }

    fn signed_subtree_for(&self, index: u64) -> Result<Option<SignedSubtree>> {
        let i = to_i64(index)?;
        let best = self.call(|c| {
            c.query_opt(
                "SELECT start, \"end\" FROM subtree_signatures WHERE start <= $1 AND $1 < \"end\"
                 ORDER BY \"end\" - start, start LIMIT 1",
                &[&i],
            )?
            .map(|r| Ok((to_u64(r.try_get(0)?)?, to_u64(r.try_get(1)?)?)))
            .transpose()
        })?;
        let Some((s, e)) = best else {
            return Ok(None);
        };
        let st = Subtree::new(s, e);
        let sigs = self.subtree_signatures(st)?;
        let hash = sigs.first().map(|s| s.hash).unwrap_or_default();
        Ok(Some((st, hash, sigs)))
    }

    fn landmarks(&self) -> Result<Vec<Landmark>> {
        let stored = self.call(|c| {
            c.query(
                "SELECT number, tree_size, expiry FROM landmarks ORDER BY number",
                &[],
            )?
            .iter()
            .map(|r| {
                Ok(Landmark {
                    number: to_u64(r.try_get(0)?)?,
                    tree_size: to_u64(r.try_get(1)?)?,
                    expiry: to_u64(r.try_get(2)?)?,
                })
            })
            .collect::<Result<Vec<_>>>()
        })?;
        Ok(std::iter::once(Landmark::ZERO).chain(stored).collect())
    }

    fn insert_landmark(&mut self, l: &Landmark) -> Result<()> {
        let (n, t, e) = (to_i64(l.number)?, to_i64(l.tree_size)?, to_i64(l.expiry)?);
        self.call(|c| {
            c.execute(
                "INSERT INTO landmarks (number, tree_size, expiry) VALUES ($1, $2, $3)",
                &[&n, &t, &e],
            )?;
            Ok(())
        })
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
        let (s, e) = (to_i64(start)?, to_i64(end)?);
        self.call(|c| {
            c.query(
                "SELECT idx, start, \"end\", proof FROM proofs
                 WHERE kind = $3 AND idx >= $1 AND idx < $2 ORDER BY idx",
                &[&s, &e, &kind.as_str()],
            )?
            .iter()
            .map(|r| {
                Ok(StoredProof {
                    index: to_u64(r.try_get(0)?)?,
                    kind,
                    subtree: Subtree::new(to_u64(r.try_get(1)?)?, to_u64(r.try_get(2)?)?),
                    proof: r.try_get(3)?,
                })
            })
            .collect()
        })
    }

    fn stored_certificates(
        &self,
        start: u64,
        end: u64,
        kind: CertKind,
    ) -> Result<Vec<StoredCertificate>> {
        let (s, e) = (to_i64(start)?, to_i64(end)?);
        self.call(|c| {
            c.query(
                "SELECT idx, der, created FROM certificates
                 WHERE kind = $3 AND idx >= $1 AND idx < $2 ORDER BY idx",
                &[&s, &e, &kind.as_str()],
            )?
            .iter()
            .map(|r| {
                Ok(StoredCertificate {
                    index: to_u64(r.try_get(0)?)?,
                    kind,
                    der: r.try_get(1)?,
                    created: r.try_get(2)?,
                })
            })
            .collect()
        })
    }
}

impl NodeSource for PgLogStore {
    fn size(&self) -> u64 {
        self.frontier.size()
    }

    fn node(&self, level: u32, index: u64) -> Result<Hash> {
        self.call(|c| stored_node(c, level, index))
    }

    fn nodes(&self, level: u32, start: u64, end: u64) -> Result<Vec<Hash>> {
        let (from, to) = (to_i64(start)?, to_i64(end)?);
        let rows = self.call(|c| {
            Ok(if level == 0 {
                c.query(
                    "SELECT leaf FROM entries WHERE idx >= $1 AND idx < $2 ORDER BY idx",
                    &[&from, &to],
                )?
            } else {
                let l = i32::try_from(level).unwrap_or(i32::MAX);
                c.query(
                    "SELECT hash FROM nodes WHERE level = $3 AND idx >= $1 AND idx < $2
                     ORDER BY idx",
                    &[&from, &to, &l],
                )?
            })
        })?;
        let hashes = rows
            .iter()
            .map(|r| blob_hash(r.try_get(0)?))
            .collect::<Result<Vec<Hash>>>()?;
        if hashes.len() as u64 != end.saturating_sub(start) {
            return Err(MtcError::Store(format!(
                "database: nodes ({level}, {start}..{end}) are missing"
            )));
        }
        Ok(hashes)
    }
}
