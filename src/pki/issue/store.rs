//! The CA database (`ca.db`): SQLite in WAL mode, versioned with `PRAGMA user_version`
//! and forward-only migrations. Certificates are inserted in the transaction that releases
//! them; batches use one transaction per chunk with statements prepared once.

use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::time::Duration;

/// Forward migrations; index i takes the schema from version i to i + 1.
const MIGRATIONS: &[&str] = &[
    // v1: issued certificates. Serials are 20 random bytes, UNIQUE.
    "CREATE TABLE certificates (
        id          INTEGER PRIMARY KEY,
        serial      BLOB NOT NULL UNIQUE,
        subject     TEXT NOT NULL,
        not_before  INTEGER NOT NULL,
        not_after   INTEGER NOT NULL,
        profile     TEXT NOT NULL,
        key_algorithm TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'valid',
        issued_at   INTEGER NOT NULL,
        der         BLOB NOT NULL
    );
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
];

pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

#[derive(Debug)]
pub enum StoreError {
    Sqlite(rusqlite::Error),
    /// The database was written by a newer pkit.
    TooNew(i64),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "database: {e}"),
            StoreError::TooNew(v) => write!(
                f,
                "database schema version {v} is newer than this pkit understands ({SCHEMA_VERSION})"
            ),
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(e)
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// One issued certificate as stored.
#[derive(Debug, Clone)]
pub struct CertRecord {
    pub serial: Vec<u8>,
    pub subject: String,
    pub not_before: i64,
    pub not_after: i64,
    pub profile: String,
    pub key_algorithm: String,
    pub status: String,
    pub issued_at: i64,
    pub der: Vec<u8>,
}

pub struct Store {
    conn: Connection,
}

impl Store {
    /// Open (creating if needed) and migrate. A busy timeout lets concurrent pkit
    /// processes queue for the write lock instead of failing with "database is locked".
    pub fn open(path: &Path) -> Result<Store> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(60))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // In WAL mode NORMAL loses no committed transaction on a process crash (kill -9);
        // only an OS crash can roll back the last commits, and never corrupts.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = Store { conn };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&mut self) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let v: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if v > SCHEMA_VERSION {
            return Err(StoreError::TooNew(v));
        }
        for (i, m) in MIGRATIONS.iter().enumerate().skip(v as usize) {
            tx.execute_batch(m)?;
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Insert certificates in one transaction (statement prepared once). Fails as a whole
    /// on a duplicate serial.
    pub fn insert_certificates(&mut self, certs: &[CertRecord]) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO certificates (serial, subject, not_before, not_after, profile,
                 key_algorithm, status, issued_at, der) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)",
            )?;
            for c in certs {
                st.execute(params![
                    c.serial,
                    c.subject,
                    c.not_before,
                    c.not_after,
                    c.profile,
                    c.key_algorithm,
                    c.status,
                    c.issued_at,
                    c.der
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    pub fn list(&self) -> Result<Vec<CertRecord>> {
        let mut st = self.conn.prepare(
            "SELECT serial, subject, not_before, not_after, profile, key_algorithm, status,
             issued_at, der FROM certificates ORDER BY id",
        )?;
        let rows = st.query_map([], row_to_record)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    pub fn get(&self, serial: &[u8]) -> Result<Option<CertRecord>> {
        Ok(self
            .conn
            .query_row(
                "SELECT serial, subject, not_before, not_after, profile, key_algorithm, status,
                 issued_at, der FROM certificates WHERE serial = ?1",
                [serial],
                row_to_record,
            )
            .optional()?)
    }

    pub fn count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM certificates", [], |r| r.get(0))?)
    }
}

fn row_to_record(r: &rusqlite::Row<'_>) -> rusqlite::Result<CertRecord> {
    Ok(CertRecord {
        serial: r.get(0)?,
        subject: r.get(1)?,
        not_before: r.get(2)?,
        not_after: r.get(3)?,
        profile: r.get(4)?,
        key_algorithm: r.get(5)?,
        status: r.get(6)?,
        issued_at: r.get(7)?,
        der: r.get(8)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(serial: u8) -> CertRecord {
        CertRecord {
            serial: vec![serial; 20],
            subject: "CN=x".into(),
            not_before: 0,
            not_after: 1,
            profile: "server".into(),
            key_algorithm: "ecdsa-p256".into(),
            status: "valid".into(),
            issued_at: 0,
            der: vec![0x30, 0],
        }
    }

    #[test]
    fn migrates_inserts_and_rejects_duplicate_serials() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ca.db");
        let mut s = Store::open(&p).unwrap();
        s.insert_certificates(&[rec(1), rec(2)]).unwrap();
        assert!(s.insert_certificates(&[rec(3), rec(1)]).is_err());
        assert_eq!(
            s.count().unwrap(),
            2,
            "a failed batch leaves nothing behind"
        );
        drop(s);
        let s = Store::open(&p).unwrap();
        assert_eq!(s.list().unwrap().len(), 2);
        assert!(s.get(&[2; 20]).unwrap().is_some());
        let v: i64 = s
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION);
    }
}
