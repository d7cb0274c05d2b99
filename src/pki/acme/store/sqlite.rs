//! The ACME state in `DIR/acme.db` (SQLite, WAL): every process on the CA directory
//! opens the same file.

use pkit_store::sqlite;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::Path;

use super::*;

const MIGRATIONS: &[&str] = &[
    // v1. Times are POSIX seconds. `identifiers` and `contact` are JSON arrays.
    "CREATE TABLE nonces (nonce TEXT PRIMARY KEY, created INTEGER NOT NULL);
    CREATE TABLE accounts (
        id          INTEGER PRIMARY KEY,
        thumbprint  TEXT NOT NULL UNIQUE,
        jwk         TEXT NOT NULL,
        spki        BLOB NOT NULL,
        status      TEXT NOT NULL,
        contact     TEXT NOT NULL,
        eab_kid     TEXT,
        created     INTEGER NOT NULL
    );
    CREATE TABLE orders (
        id          INTEGER PRIMARY KEY,
        account_id  INTEGER NOT NULL REFERENCES accounts(id),
        status      TEXT NOT NULL,
        identifiers TEXT NOT NULL,
        profile     TEXT,
        replaces    TEXT,
        not_before  INTEGER,
        not_after   INTEGER,
        expires     INTEGER NOT NULL,
        error       TEXT,
        cert_serial TEXT,
        created     INTEGER NOT NULL
    );
    CREATE INDEX orders_by_account ON orders(account_id);
    CREATE TABLE authzs (
        id          INTEGER PRIMARY KEY,
        account_id  INTEGER NOT NULL REFERENCES accounts(id),
        id_type     TEXT NOT NULL,
        id_value    TEXT NOT NULL,
        wildcard    INTEGER NOT NULL,
        status      TEXT NOT NULL,
        expires     INTEGER NOT NULL
    );
    CREATE INDEX authzs_for_reuse ON authzs(account_id, id_type, id_value, wildcard);
    CREATE TABLE order_authzs (
        order_id    INTEGER NOT NULL REFERENCES orders(id),
        authz_id    INTEGER NOT NULL REFERENCES authzs(id),
        PRIMARY KEY (order_id, authz_id)
    );
    CREATE TABLE challenges (
        id          INTEGER PRIMARY KEY,
        authz_id    INTEGER NOT NULL REFERENCES authzs(id),
        type        TEXT NOT NULL,
        token       TEXT NOT NULL,
        status      TEXT NOT NULL,
        validated   INTEGER,
        error       TEXT
    );
    CREATE INDEX challenges_by_authz ON challenges(authz_id);
    CREATE TABLE certs (
        serial      TEXT PRIMARY KEY,
        order_id    INTEGER NOT NULL REFERENCES orders(id),
        account_id  INTEGER NOT NULL REFERENCES accounts(id),
        chain_pem   TEXT NOT NULL,
        not_before  INTEGER NOT NULL,
        not_after   INTEGER NOT NULL,
        revoked     INTEGER NOT NULL DEFAULT 0
    );",
    // v2: nonces are MACed (crate::nonce); only the spent ones are kept, until they
    // expire, and the key is shared here.
    "DROP TABLE nonces;
    CREATE TABLE spent_nonces (nonce TEXT PRIMARY KEY, made INTEGER NOT NULL);
    CREATE INDEX spent_nonces_by_age ON spent_nonces(made);
    CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);",
    // v3: the MTC log entry of an order finalized on an MTC CA: its log and index.
    // And when finalization claimed an order, so that one a stopped server left
    // processing can be told apart from one being finalized.
    "ALTER TABLE orders ADD COLUMN mtc_index INTEGER;
    ALTER TABLE orders ADD COLUMN mtc_log TEXT;
    ALTER TABLE orders ADD COLUMN claimed INTEGER;",
    // v4: the orders that replace a certificate (RFC 9773 §5), looked up for each new one
    // that replaces it.
    "CREATE INDEX orders_by_replaces ON orders(replaces);",
];

/// One connection to `acme.db`. Transactions that write begin IMMEDIATE: a deferred one
/// that reads first cannot take the write lock once another connection has written
/// (SQLITE_BUSY at once, past any busy timeout), and an outcome would be lost.
pub struct SqliteAcme {
    conn: Connection,
}

fn order_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Order> {
    Ok(Order {
        id: r.get(0)?,
        account_id: r.get(1)?,
        status: r.get(2)?,
        identifiers: r.get(3)?,
        profile: r.get(4)?,
        replaces: r.get(5)?,
        not_before: r.get(6)?,
        not_after: r.get(7)?,
        expires: r.get(8)?,
        error: r.get(9)?,
        cert_serial: r.get(10)?,
        created: r.get(11)?,
        mtc_index: r.get(12)?,
        mtc_log: r.get(13)?,
        claimed: r.get(14)?,
    })
}

fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        thumbprint: r.get(1)?,
        jwk: r.get(2)?,
        spki: r.get(3)?,
        status: r.get(4)?,
        contact: r.get(5)?,
        created: r.get(6)?,
    })
}

fn authz_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Authz> {
    Ok(Authz {
        id: r.get(0)?,
        account_id: r.get(1)?,
        id_type: r.get(2)?,
        id_value: r.get(3)?,
        wildcard: r.get(4)?,
        status: r.get(5)?,
        expires: r.get(6)?,
    })
}

fn challenge_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Challenge> {
    Ok(Challenge {
        id: r.get(0)?,
        authz_id: r.get(1)?,
        kind: r.get(2)?,
        token: r.get(3)?,
        status: r.get(4)?,
        validated: r.get(5)?,
        error: r.get(6)?,
    })
}

impl SqliteAcme {
    /// Open (creating) `path`.
    pub fn open(path: &Path) -> std::result::Result<SqliteAcme, pkit_store::open_error::OpenError> {
        let conn = sqlite::open_versioned(path, MIGRATIONS)?;
        // No memory map: every worker and validator writes through a connection of its
        // own, and a connection that sees another's commit drops its whole map (munmap,
        // then page faults to map it again): a few times per order, a tenth of the
        // server's time under load. Reads here are point look-ups by key.
        conn.pragma_update(None, "mmap_size", 0)?;
        Ok(SqliteAcme { conn })
    }
}

impl AcmeStore for SqliteAcme {
    fn nonce_key(&self, fresh: &[u8; 32]) -> Result<Vec<u8>> {
        self.conn.execute(
            "INSERT OR IGNORE INTO secrets (name, value) VALUES ('nonce', ?1)",
            [&fresh[..]],
        )?;
        Ok(self
            .conn
            .query_row("SELECT value FROM secrets WHERE name = 'nonce'", [], |r| {
                r.get(0)
            })?)
    }

    fn spend_nonce(&self, nonce: &str, made: i64, now: i64, prune: bool) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached("INSERT OR IGNORE INTO spent_nonces (nonce, made) VALUES (?1, ?2)")?
            .execute(params![nonce, made])?;
        if prune {
            self.conn
                .prepare_cached("DELETE FROM spent_nonces WHERE made < ?1")?
                .execute([now - NONCE_LIFETIME])?;
        }
        Ok(n == 1)
    }

    fn account_by_thumbprint(&self, t: &str) -> Result<Option<Account>> {
        self.conn
            .prepare_cached(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE thumbprint = ?1"
            ))?
            .query_row([t], account_row)
            .optional()
            .map_err(Into::into)
    }

    fn account(&self, id: i64) -> Result<Option<Account>> {
        self.conn
            .prepare_cached(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?1"
            ))?
            .query_row([id], account_row)
            .optional()
            .map_err(Into::into)
    }

    fn accounts(&self) -> Result<Vec<Account>> {
        let mut st = self.conn.prepare_cached(&format!(
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
        self.conn
            .prepare_cached(
                "INSERT INTO accounts (thumbprint, jwk, spki, status, contact, eab_kid, created)
             VALUES (?1, ?2, ?3, 'valid', ?4, ?5, ?6)",
            )?
            .execute(params![thumbprint, jwk, spki, contact, eab_kid, now])?;
        Ok(self.conn.last_insert_rowid())
    }

    fn update_account(&self, id: i64, contact: &str, status: &str) -> Result<()> {
        self.conn
            .prepare_cached("UPDATE accounts SET contact = ?2, status = ?3 WHERE id = ?1")?
            .execute(params![id, contact, status])?;
        Ok(())
    }

    /// Give an account a new key (RFC 8555 §7.3.5); false when another account has it.
    fn rekey_account(&self, id: i64, thumbprint: &str, jwk: &str, spki: &[u8]) -> Result<bool> {
        match self
            .conn
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
        }
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
        // Immediate: no other writer between the look for a replacement and the insert.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
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
        tx.execute(
            "INSERT INTO orders (account_id, status, identifiers, profile, replaces, not_before,
                                 not_after, expires, created)
             VALUES (?1, 'pending', ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                account_id,
                identifiers,
                profile,
                replaces,
                window.0,
                window.1,
                expires,
                now
            ],
        )?;
        let order = tx.last_insert_rowid();
        for a in authzs {
            let authz = match a.reuse {
                Some(id) => id,
                None => {
                    tx.execute(
                        "INSERT INTO authzs (account_id, id_type, id_value, wildcard, status, expires)
                         VALUES (?1, ?2, ?3, ?4, 'pending', ?5)",
                        params![account_id, a.id_type, a.id_value, a.wildcard, expires],
                    )?;
                    let id = tx.last_insert_rowid();
                    for (kind, token) in &a.challenges {
                        tx.execute(
                            "INSERT INTO challenges (authz_id, type, token, status)
                             VALUES (?1, ?2, ?3, 'pending')",
                            params![id, kind, token],
                        )?;
                    }
                    id
                }
            };
            tx.execute(
                "INSERT OR IGNORE INTO order_authzs (order_id, authz_id) VALUES (?1, ?2)",
                params![order, authz],
            )?;
        }
        tx.commit()?;
        Ok(Created::Order(order))
    }

    fn orders_replacing(&self, cert_id: &str) -> Result<Vec<Order>> {
        let mut st = self.conn.prepare_cached(&format!(
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
        self.conn
            .prepare_cached(
                "SELECT id FROM authzs WHERE account_id = ?1 AND id_type = ?2 AND id_value = ?3
                 AND wildcard = ?4 AND status = 'valid' AND expires > ?5 ORDER BY expires DESC",
            )?
            .query_row(params![account_id, id_type, id_value, wildcard, now], |r| {
                r.get(0)
            })
            .optional()
            .map_err(Into::into)
    }

    /// How many orders `account` made since `since` (for its rate limit).
    fn orders_since(&self, account_id: i64, since: i64) -> Result<i64> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM orders WHERE account_id = ?1 AND created >= ?2",
            params![account_id, since],
            |r| r.get(0),
        )?)
    }

    fn order(&self, id: i64) -> Result<Option<Order>> {
        self.conn
            .prepare_cached(&format!("SELECT {ORDER_COLUMNS} FROM orders WHERE id = ?1"))?
            .query_row([id], order_row)
            .optional()
            .map_err(Into::into)
    }

    fn orders(&self, account_id: Option<i64>) -> Result<Vec<Order>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE ?1 IS NULL OR account_id = ?1 ORDER BY id"
        ))?;
        let rows = st.query_map([account_id], order_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn order_authzs(&self, order: i64) -> Result<Vec<Authz>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {AUTHZ_COLUMNS_OF_A} FROM authzs a JOIN order_authzs o ON o.authz_id = a.id
             WHERE o.order_id = ?1 ORDER BY a.id"
        ))?;
        let rows = st.query_map([order], authz_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn authz(&self, id: i64) -> Result<Option<Authz>> {
        self.conn
            .prepare_cached(&format!("SELECT {AUTHZ_COLUMNS} FROM authzs WHERE id = ?1"))?
            .query_row([id], authz_row)
            .optional()
            .map_err(Into::into)
    }

    fn set_authz_status(&self, id: i64, status: &str) -> Result<()> {
        self.conn
            .prepare_cached("UPDATE authzs SET status = ?2 WHERE id = ?1")?
            .execute(params![id, status])?;
        Ok(())
    }

    fn challenges(&self, authz: i64) -> Result<Vec<Challenge>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE authz_id = ?1 ORDER BY id"
        ))?;
        let rows = st.query_map([authz], challenge_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn challenge(&self, id: i64) -> Result<Option<Challenge>> {
        self.conn
            .prepare_cached(&format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?1"
            ))?
            .query_row([id], challenge_row)
            .optional()
            .map_err(Into::into)
    }

    /// Move a pending challenge to processing: true for the one caller that did (a
    /// challenge is validated once, however often it is posted).
    fn start_challenge(&self, id: i64) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "UPDATE challenges SET status = 'processing' WHERE id = ?1 AND status = 'pending'",
            )?
            .execute([id])?
            == 1)
    }

    /// Challenges left in processing (a server stopped while validating them).
    fn processing_challenges(&self) -> Result<Vec<i64>> {
        let mut st = self
            .conn
            .prepare("SELECT id FROM challenges WHERE status = 'processing' ORDER BY id")?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A challenge's outcome, and its authorization's with it.
    fn finish_challenge(&mut self, id: i64, error: Option<&str>, now: i64) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let authz: i64 =
            tx.query_row("SELECT authz_id FROM challenges WHERE id = ?1", [id], |r| {
                r.get(0)
            })?;
        let status = if error.is_none() { "valid" } else { "invalid" };
        // Only from processing: a second validation of it (a server started while a
        // peer was validating) does not overwrite the first's outcome.
        let changed = tx.execute(
            "UPDATE challenges SET status = ?2, validated = ?3, error = ?4
             WHERE id = ?1 AND status = 'processing'",
            params![id, status, error.is_none().then_some(now), error],
        )?;
        if changed == 0 {
            return Ok(());
        }
        tx.execute(
            "UPDATE authzs SET status = ?2 WHERE id = ?1 AND status = 'pending'",
            params![authz, status],
        )?;
        Ok(tx.commit()?)
    }

    /// Claim a ready order for finalization: true for the one caller that did.
    fn claim_order(&self, id: i64, now: i64) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "UPDATE orders SET status = 'processing', claimed = ?2
                 WHERE id = ?1 AND status = 'ready'",
            )?
            .execute([id, now])?
            == 1)
    }

    fn advance_order(&self, id: i64, from: &str, to: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("UPDATE orders SET status = ?3 WHERE id = ?1 AND status = ?2")?
            .execute(params![id, from, to])?
            == 1)
    }

    fn set_order_status(&self, id: i64, status: &str, error: Option<&str>) -> Result<()> {
        self.conn
            .prepare_cached("UPDATE orders SET status = ?2, error = ?3 WHERE id = ?1")?
            .execute(params![id, status, error])?;
        Ok(())
    }

    /// The order's certificate, recorded with the order made valid, in one transaction.
    fn set_order_mtc(&self, id: i64, log: &str, index: i64) -> Result<()> {
        self.conn
            .prepare_cached("UPDATE orders SET mtc_log = ?2, mtc_index = ?3 WHERE id = ?1")?
            .execute(params![id, log, index])?;
        Ok(())
    }

    fn complete_order(&mut self, order: &Order, cert: &IssuedCert) -> Result<bool> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        if tx.execute(
            "UPDATE orders SET status = 'valid', cert_serial = ?2
             WHERE id = ?1 AND status = 'processing'",
            params![order.id, cert.serial],
        )? == 0
        {
            return Ok(false);
        }
        tx.execute(
            "INSERT INTO certs (serial, order_id, account_id, chain_pem, not_before, not_after)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                cert.serial,
                order.id,
                order.account_id,
                cert.chain_pem,
                cert.not_before,
                cert.not_after
            ],
        )?;
        tx.commit()?;
        Ok(true)
    }

    fn cert(&self, serial: &str) -> Result<Option<IssuedCert>> {
        self.conn
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
            .map_err(Into::into)
    }

    fn mark_revoked(&self, serial: &str) -> Result<()> {
        self.conn
            .execute("UPDATE certs SET revoked = 1 WHERE serial = ?1", [serial])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_order_at_a_time_replaces_a_certificate() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = SqliteAcme::open(&dir.path().join("acme.db")).unwrap();
        let account = db.create_account("t", "{}", b"k", "[]", None, 0).unwrap();
        let r = Replacing {
            cert_id: "AQID.BA".into(),
            serial: "04".into(),
        };
        let order = |db: &mut SqliteAcme, replaces: Option<&Replacing>| {
            db.create_order(account, "[]", None, replaces, (None, None), 60, &[], 0)
                .unwrap()
        };
        let Created::Order(first) = order(&mut db, Some(&r)) else {
            panic!("the first replacement is made");
        };
        assert_eq!(
            db.order(first).unwrap().unwrap().replaces.as_deref(),
            Some("AQID.BA")
        );
        assert_eq!(order(&mut db, Some(&r)), Created::AlreadyReplaced(first));
        // Orders that replace nothing, or something else, are not in the way.
        assert!(matches!(order(&mut db, None), Created::Order(_)));
        let other = Replacing {
            cert_id: "AQID.BQ".into(),
            serial: "05".into(),
        };
        assert!(matches!(order(&mut db, Some(&other)), Created::Order(_)));
        // An invalid replacement frees the certificate for the next.
        db.set_order_status(first, "invalid", None).unwrap();
        let Created::Order(second) = order(&mut db, Some(&r)) else {
            panic!("replaceable again once the first is invalid");
        };
        let replacing: Vec<i64> = db
            .orders_replacing("AQID.BA")
            .unwrap()
            .iter()
            .map(|o| o.id)
            .collect();
        assert_eq!(replacing, [first, second]);
    }
}
