//! The ACME state in `DIR/acme.db` (SQLite, WAL): every process on the CA directory
//! opens the same file.

use pkit_store::sqlite;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::api::*;
use rows::{account_row, authz_row, challenge_row, order_row};
use schema::MIGRATIONS;

mod rows;
mod schema;
#[cfg(test)]
mod tests;

/// One connection to `acme.db`, shared by every worker and validator of a server
/// ([`Clone`] hands out the same one), each call holding it for its statements.
///
/// One per process rather than one per thread: in WAL mode a connection that finds the
/// log moved by another connection's commit drops its whole page cache, and with a
/// connection per thread every commit (one per request, for its nonce) emptied every
/// other cache, so each request read its b-tree pages back from the file (a tenth of
/// the server's time under load, `scripts/bench-acme`). A connection's own commits keep
/// its cache. SQLite lets one writer in at a time either way.
///
/// Transactions that write begin IMMEDIATE: a deferred one that reads first cannot take
/// the write lock once another process has written (SQLITE_BUSY at once, past any busy
/// timeout), and an outcome would be lost.
#[derive(Clone)]
pub struct SqliteAcme {
    conn: Arc<Mutex<Connection>>,
}

impl SqliteAcme {
    /// Open (creating) `path`.
    pub fn open(path: &Path) -> std::result::Result<SqliteAcme, pkit_store::open_error::OpenError> {
        let conn = sqlite::open_versioned(path, MIGRATIONS)?;
        // No memory map: another process's commit makes a connection drop its whole map
        // (munmap, then page faults to map it again). Reads here are point look-ups by
        // key, served from the page cache.
        conn.pragma_update(None, "mmap_size", 0)?;
        // Room for every statement of the state (about thirty), so that none is parsed
        // again on the server's path (rusqlite keeps sixteen by default).
        conn.set_prepared_statement_cache_capacity(64);
        Ok(SqliteAcme {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Open (creating) `path` for a server: as [`SqliteAcme::open`], with the WAL's
    /// checkpoints made by a thread of the process rather than inside the commit of a
    /// request or a validation
    /// ([`checkpoint_off_thread`](pkit_store::wal_checkpoint::checkpoint_off_thread)).
    pub fn open_serving(
        path: &Path,
    ) -> std::result::Result<SqliteAcme, pkit_store::open_error::OpenError> {
        let s = SqliteAcme::open(path)?;
        pkit_store::wal_checkpoint::checkpoint_off_thread(&s.conn, path);
        Ok(s)
    }

    /// The connection, for one call's statements. A thread that panicked holding it left
    /// no transaction open (a dropped rusqlite transaction rolls back), so the
    /// connection is still good.
    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl AcmeStore for SqliteAcme {
    fn nonce_key(&self, fresh: &[u8; 32]) -> Result<Vec<u8>> {
        let conn = self.lock();
        conn.execute(
            "INSERT OR IGNORE INTO secrets (name, value) VALUES ('nonce', ?1)",
            [&fresh[..]],
        )?;
        Ok(
            conn.query_row("SELECT value FROM secrets WHERE name = 'nonce'", [], |r| {
                r.get(0)
            })?,
        )
    }

    fn spend_nonce(&self, nonce: &str, made: i64, now: i64, prune: bool) -> Result<bool> {
        let conn = self.lock();
        let n = conn
            .prepare_cached("INSERT OR IGNORE INTO spent_nonces (nonce, made) VALUES (?1, ?2)")?
            .execute(params![nonce, made])?;
        if prune {
            conn.prepare_cached("DELETE FROM spent_nonces WHERE made < ?1")?
                .execute([now - crate::nonce::LIFETIME])?;
        }
        Ok(n == 1)
    }

    fn account_by_thumbprint(&self, t: &str) -> Result<Option<Account>> {
        let conn = self.lock();
        let out = conn
            .prepare_cached(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE thumbprint = ?1"
            ))?
            .query_row([t], account_row)
            .optional()
            .map_err(Into::into);
        out
    }

    fn account(&self, id: i64) -> Result<Option<Account>> {
        let conn = self.lock();
        let out = conn
            .prepare_cached(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?1"
            ))?
            .query_row([id], account_row)
            .optional()
            .map_err(Into::into);
        out
    }

    fn accounts(&self) -> Result<Vec<Account>> {
        let conn = self.lock();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts ORDER BY id"
        ))?;
        let rows = st.query_map([], account_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn create_account(
        &self,
        thumbprint: &str,
        jwk: &str,
        spki: &[u8],
        contact: &str,
        eab_kid: Option<&str>,
        now: i64,
    ) -> Result<i64> {
        let conn = self.lock();
        conn.prepare_cached(
            "INSERT INTO accounts (thumbprint, jwk, spki, status, contact, eab_kid, created)
             VALUES (?1, ?2, ?3, 'valid', ?4, ?5, ?6)",
        )?
        .execute(params![thumbprint, jwk, spki, contact, eab_kid, now])?;
        Ok(conn.last_insert_rowid())
    }

    fn update_account(&self, id: i64, contact: &str, status: &str) -> Result<()> {
        let conn = self.lock();
        conn.prepare_cached("UPDATE accounts SET contact = ?2, status = ?3 WHERE id = ?1")?
            .execute(params![id, contact, status])?;
        Ok(())
    }

    /// Give an account a new key (RFC 8555 §7.3.5); false when another account has it.
    fn rekey_account(&self, id: i64, thumbprint: &str, jwk: &str, spki: &[u8]) -> Result<bool> {
        let conn = self.lock();
        let out = match conn
            .prepare_cached(
                "UPDATE accounts SET thumbprint = ?2, jwk = ?3, spki = ?4 WHERE id = ?1",
            )?
            .execute(params![id, thumbprint, jwk, spki])
        {
            Ok(_) => Ok(true),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Ok(false)
            }
            Err(e) => Err(e.into()),
        };
        out
    }

    /// A new order with its authorizations (reusing `reuse`, making the rest with their
    /// challenges), in one transaction.
    #[allow(clippy::too_many_arguments)]
    fn create_order(
        &mut self,
        account_id: i64,
        identifiers: &str,
        profile: Option<&str>,
        replaces: Option<&Replacing>,
        window: (Option<i64>, Option<i64>),
        expires: i64,
        authzs: &[NewAuthz],
        now: i64,
    ) -> Result<Created> {
        let mut conn = self.lock();
        // Immediate: no other writer between the look for a replacement and the insert.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        if let Some(r) = replaces {
            let other: Option<i64> = tx
                .query_row(
                    "SELECT id FROM orders WHERE replaces = ?1 AND status != 'invalid' LIMIT 1",
                    [&r.cert_id],
                    |row| row.get(0),
                )
                .optional()?;
            if let Some(other) = other {
                return Ok(Created::AlreadyReplaced(other));
            }
        }
        let replaces = replaces.map(|r| r.cert_id.as_str());
        tx.prepare_cached(
            "INSERT INTO orders (account_id, status, identifiers, profile, replaces, not_before,
                                 not_after, expires, created)
             VALUES (?1, 'pending', ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?
        .execute(params![
            account_id,
            identifiers,
            profile,
            replaces,
            window.0,
            window.1,
            expires,
            now
        ])?;
        let order = tx.last_insert_rowid();
        for a in authzs {
            let authz = match a.reuse {
                Some(id) => id,
                None => {
                    tx.prepare_cached(
                        "INSERT INTO authzs (account_id, id_type, id_value, wildcard, status,
                                             expires)
                         VALUES (?1, ?2, ?3, ?4, 'pending', ?5)",
                    )?
                    .execute(params![
                        account_id, a.id_type, a.id_value, a.wildcard, expires
                    ])?;
                    let id = tx.last_insert_rowid();
                    for (kind, token) in &a.challenges {
                        tx.prepare_cached(
                            "INSERT INTO challenges (authz_id, type, token, status)
                             VALUES (?1, ?2, ?3, 'pending')",
                        )?
                        .execute(params![id, kind.as_str(), token])?;
                    }
                    id
                }
            };
            tx.prepare_cached(
                "INSERT OR IGNORE INTO order_authzs (order_id, authz_id) VALUES (?1, ?2)",
            )?
            .execute(params![order, authz])?;
        }
        tx.commit()?;
        Ok(Created::Order(order))
    }

    fn orders_replacing(&self, cert_id: &str) -> Result<Vec<Order>> {
        let conn = self.lock();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE replaces = ?1 ORDER BY id"
        ))?;
        let rows = st.query_map([cert_id], order_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A valid, unexpired authorization of `account` for the identifier, to reuse.
    fn reusable_authz(
        &self,
        account_id: i64,
        id_type: &str,
        id_value: &str,
        wildcard: bool,
        now: i64,
    ) -> Result<Option<i64>> {
        let conn = self.lock();
        let out = conn
            .prepare_cached(
                "SELECT id FROM authzs WHERE account_id = ?1 AND id_type = ?2 AND id_value = ?3
                 AND wildcard = ?4 AND status = 'valid' AND expires > ?5 ORDER BY expires DESC",
            )?
            .query_row(params![account_id, id_type, id_value, wildcard, now], |r| {
                r.get(0)
            })
            .optional()
            .map_err(Into::into);
        out
    }

    /// How many orders `account` made since `since` (for its rate limit).
    fn orders_since(&self, account_id: i64, since: i64) -> Result<i64> {
        let conn = self.lock();
        let out = Ok(conn
            .prepare_cached("SELECT count(*) FROM orders WHERE account_id = ?1 AND created >= ?2")?
            .query_row(params![account_id, since], |r| r.get(0))?);
        out
    }

    fn order(&self, id: i64) -> Result<Option<Order>> {
        let conn = self.lock();
        let out = conn
            .prepare_cached(&format!("SELECT {ORDER_COLUMNS} FROM orders WHERE id = ?1"))?
            .query_row([id], order_row)
            .optional()
            .map_err(Into::into);
        out
    }

    fn orders(&self, account_id: Option<i64>) -> Result<Vec<Order>> {
        let conn = self.lock();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE ?1 IS NULL OR account_id = ?1 ORDER BY id"
        ))?;
        let rows = st.query_map([account_id], order_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn order_authzs(&self, order: i64) -> Result<Vec<Authz>> {
        let conn = self.lock();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {AUTHZ_COLUMNS_OF_A} FROM authzs a JOIN order_authzs o ON o.authz_id = a.id
             WHERE o.order_id = ?1 ORDER BY a.id"
        ))?;
        let rows = st.query_map([order], authz_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn authz(&self, id: i64) -> Result<Option<Authz>> {
        let conn = self.lock();
        let out = conn
            .prepare_cached(&format!("SELECT {AUTHZ_COLUMNS} FROM authzs WHERE id = ?1"))?
            .query_row([id], authz_row)
            .optional()
            .map_err(Into::into);
        out
    }

    fn set_authz_status(&self, id: i64, status: &str) -> Result<()> {
        let conn = self.lock();
        conn.prepare_cached("UPDATE authzs SET status = ?2 WHERE id = ?1")?
            .execute(params![id, status])?;
        Ok(())
    }

    fn challenges(&self, authz: i64) -> Result<Vec<Challenge>> {
        let conn = self.lock();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE authz_id = ?1 ORDER BY id"
        ))?;
        let rows = st.query_map([authz], challenge_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn challenge(&self, id: i64) -> Result<Option<Challenge>> {
        let conn = self.lock();
        let out = conn
            .prepare_cached(&format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?1"
            ))?
            .query_row([id], challenge_row)
            .optional()
            .map_err(Into::into);
        out
    }

    /// Move a pending challenge to processing: true for the one caller that did (a
    /// challenge is validated once, however often it is posted).
    fn start_challenge(&self, id: i64) -> Result<bool> {
        let conn = self.lock();
        let out = Ok(conn
            .prepare_cached(
                "UPDATE challenges SET status = 'processing' WHERE id = ?1 AND status = 'pending'",
            )?
            .execute([id])?
            == 1);
        out
    }

    /// Challenges left in processing (a server stopped while validating them).
    fn processing_challenges(&self) -> Result<Vec<i64>> {
        let conn = self.lock();
        let mut st =
            conn.prepare("SELECT id FROM challenges WHERE status = 'processing' ORDER BY id")?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A challenge's outcome, and its authorization's with it.
    fn finish_challenge(&mut self, id: i64, error: Option<&str>, now: i64) -> Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let authz: i64 = tx
            .prepare_cached("SELECT authz_id FROM challenges WHERE id = ?1")?
            .query_row([id], |r| r.get(0))?;
        let status = if error.is_none() { "valid" } else { "invalid" };
        // Only from processing: a second validation of it (a server started while a
        // peer was validating) does not overwrite the first's outcome.
        let changed = tx
            .prepare_cached(
                "UPDATE challenges SET status = ?2, validated = ?3, error = ?4
                 WHERE id = ?1 AND status = 'processing'",
            )?
            .execute(params![id, status, error.is_none().then_some(now), error])?;
        if changed == 0 {
            return Ok(());
        }
        tx.prepare_cached("UPDATE authzs SET status = ?2 WHERE id = ?1 AND status = 'pending'")?
            .execute(params![authz, status])?;
        Ok(tx.commit()?)
    }

    /// Claim a ready order for finalization: true for the one caller that did.
    fn claim_order(&self, id: i64, now: i64) -> Result<bool> {
        let conn = self.lock();
        let out = Ok(conn
            .prepare_cached(
                "UPDATE orders SET status = 'processing', claimed = ?2
                 WHERE id = ?1 AND status = 'ready'",
            )?
            .execute([id, now])?
            == 1);
        out
    }

    fn advance_order(&self, id: i64, from: &str, to: &str) -> Result<bool> {
        let conn = self.lock();
        let out = Ok(conn
            .prepare_cached("UPDATE orders SET status = ?3 WHERE id = ?1 AND status = ?2")?
            .execute(params![id, from, to])?
            == 1);
        out
    }

    fn set_order_status(&self, id: i64, status: &str, error: Option<&str>) -> Result<()> {
        let conn = self.lock();
        conn.prepare_cached("UPDATE orders SET status = ?2, error = ?3 WHERE id = ?1")?
            .execute(params![id, status, error])?;
        Ok(())
    }

    /// The order's certificate, recorded with the order made valid, in one transaction.
    fn set_order_mtc(&self, id: i64, log: &str, index: i64) -> Result<()> {
        let conn = self.lock();
        conn.prepare_cached("UPDATE orders SET mtc_log = ?2, mtc_index = ?3 WHERE id = ?1")?
            .execute(params![id, log, index])?;
        Ok(())
    }

    fn complete_order(&mut self, order: &Order, cert: &IssuedCert) -> Result<bool> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        if tx
            .prepare_cached(
                "UPDATE orders SET status = 'valid', cert_serial = ?2
             WHERE id = ?1 AND status = 'processing'",
            )?
            .execute(params![order.id, cert.serial])?
            == 0
        {
            return Ok(false);
        }
        tx.prepare_cached(
            "INSERT INTO certs (serial, order_id, account_id, chain_pem, not_before, not_after)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            cert.serial,
            order.id,
            order.account_id,
            cert.chain_pem,
            cert.not_before,
            cert.not_after
        ])?;
        tx.commit()?;
        Ok(true)
    }

    fn cert(&self, serial: &str) -> Result<Option<IssuedCert>> {
        let conn = self.lock();
        let out = conn
            .prepare_cached(
                "SELECT serial, order_id, account_id, chain_pem, not_before, not_after, revoked
                 FROM certs WHERE serial = ?1",
            )?
            .query_row([serial], |r| {
                Ok(IssuedCert {
                    serial: r.get(0)?,
                    order_id: r.get(1)?,
                    account_id: r.get(2)?,
                    chain_pem: r.get(3)?,
                    not_before: r.get(4)?,
                    not_after: r.get(5)?,
                    revoked: r.get(6)?,
                })
            })
            .optional()
            .map_err(Into::into);
        out
    }

    fn mark_revoked(&self, serial: &str) -> Result<()> {
        let conn = self.lock();
        conn.execute("UPDATE certs SET revoked = 1 WHERE serial = ?1", [serial])?;
        Ok(())
    }
}
