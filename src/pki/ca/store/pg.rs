//! The CA store on a PostgreSQL server, for a CA that outgrows one machine: several
//! issuing hosts and OCSP responders share one database. The tables and columns are
//! SQLite's (`certificates.serial` …), versioned in `pkit_schema` with forward-only
//! migrations (`pkit_store::postgres`).
//!
//! Two things differ from `ca.db`, both because many processes on many hosts write at
//! once. Signed CRLs live in the `crls` table, not in files beside the database: a CRL
//! written on one issuing host must be readable by `crl gen`'s successor and by OCSP
//! responders on others, and the database is the one place they all reach (the DER is
//! stored uncompressed out of line, `STORAGE EXTERNAL`: a CRL does not compress, and it is
//! written once). And certificate ids are reserved a chunk at a time (`pg_rows.rs`), so
//! that a delivery note's id range holds only its own chunk's certificates.

use super::api::{
    revocation_stands, CaStore, CertRecord, CertStatus, CrlRecord, DeliveryNote, LintOverrides,
    OcspRecord, Result, RevokeOutcome, Revoked, StoreError, Undelivered,
};
use super::pg_delivery;
use super::pg_rows::{insert_overrides, insert_rows, row_to_record_at, RECORD_COLUMNS};
use pkit_store::pg_copy::{copy_upsert, CopyRow};
use pkit_store::postgres::{open_versioned, server, Connector, Server};
use postgres::error::SqlState;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::Type;
use postgres::{Client, Statement};
use sha2::Digest as _;
use std::cell::RefCell;

/// Forward migrations; index i takes the schema from version i to i + 1. Version 1 is
/// `ca.db`'s schema at its version 6, in PostgreSQL's types.
const MIGRATIONS: &[&str] = &[
    // v1: issued certificates (serials UNIQUE: two issuers can never record one twice),
    // revocations with the covering index CRL generation walks, CRL numbers in `meta`,
    // signed CRLs, pre-signed OCSP responses, and deliveries.
    "CREATE SEQUENCE certificates_id;
    CREATE TABLE certificates (
        id          BIGINT PRIMARY KEY,
        serial      BYTEA NOT NULL UNIQUE,
        subject     TEXT NOT NULL,
        not_before  BIGINT NOT NULL,
        not_after   BIGINT NOT NULL,
        profile     TEXT NOT NULL,
        key_algorithm TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'valid',
        issued_at   BIGINT NOT NULL,
        der         BYTEA NOT NULL,
        revoked_at  BIGINT,
        revocation_reason SMALLINT
    );
    CREATE INDEX certificates_revoked ON certificates (serial)
        INCLUDE (revoked_at, revocation_reason, not_after) WHERE revoked_at IS NOT NULL;
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE crls (
        number      BIGINT PRIMARY KEY,
        this_update BIGINT NOT NULL,
        next_update BIGINT NOT NULL,
        size        BIGINT NOT NULL,
        sha256      BYTEA,
        der         BYTEA
    );
    ALTER TABLE crls ALTER COLUMN der SET STORAGE EXTERNAL;
    CREATE TABLE ocsp_responses (
        serial      BYTEA PRIMARY KEY,
        produced_at BIGINT NOT NULL,
        next_update BIGINT NOT NULL,
        der         BYTEA NOT NULL
    );
    CREATE TABLE pending_deliveries (
        id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        destination TEXT NOT NULL,
        owner       TEXT NOT NULL,
        first_n     BIGINT NOT NULL,
        first_cert  BIGINT NOT NULL,
        last_cert   BIGINT NOT NULL
    );
    CREATE TABLE undelivered (
        cert        BIGINT PRIMARY KEY REFERENCES certificates(id),
        destination TEXT NOT NULL,
        n           BIGINT NOT NULL
    );",
    // v2: renewals (ca.db v7). A certificate `issue renew` made names the one it replaces.
    "CREATE TABLE renewals (
        id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        serial      BYTEA NOT NULL UNIQUE REFERENCES certificates(serial),
        replaces    BYTEA NOT NULL REFERENCES certificates(serial)
    );",
    // v3: lint overrides (ca.db v8): certificates signed with the gate in warn or off mode.
    "CREATE TABLE lint_overrides (
        id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        serial      BYTEA NOT NULL UNIQUE REFERENCES certificates(serial),
        mode        TEXT NOT NULL,
        findings    TEXT NOT NULL
    );",
    // v4: each revocation's place in the order recorded (ca.db v9), so a CRL publisher
    // reads only those since its last CRL.
    "ALTER TABLE certificates ADD COLUMN revocation_seq BIGINT;
    CREATE INDEX certificates_revocation_seq ON certificates (revocation_seq)
        WHERE revocation_seq IS NOT NULL;",
];

/// The version a fully migrated database records (the number of migrations).
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The name under which the CA's schema version is kept in `pkit_schema`.
const STORE: &str = "ca";

/// The look-up an OCSP responder makes on every request, prepared once per connection.
const STATUS: &str =
    "SELECT revoked_at, revocation_reason, not_after FROM certificates WHERE serial = $1";

/// A connection and what it needs to be made again.
struct Conn {
    client: Client,
    /// [`STATUS`] on `client`.
    status: Statement,
    server: Server,
    connector: Connector,
}

impl Conn {
    /// The connection, made anew when the last one was lost: a long-lived store (`ocsp
    /// serve`'s workers) outlives a server restart, failing only the calls that were
    /// under way.
    fn live(&mut self) -> Result<&mut Conn> {
        if self.client.is_closed() {
            let mut fresh = (self.connector)(&self.server)?;
            self.status = fresh.prepare(STATUS)?;
            self.client = fresh;
        }
        Ok(self)
    }
}

/// [`pkit_store::postgres::off_runtime`] with the CA store's error.
fn off_runtime<T: Send>(f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    pkit_store::postgres::off_runtime(f, || {
        StoreError::File("a database call ended abnormally on its thread".into())
    })
}

/// The CA store in a PostgreSQL database.
pub struct PgCaStore {
    /// The trait reads through `&self`; the client needs `&mut` for every statement. The
    /// store is used by one thread at a time (`CaStore` is `Send`, not `Sync`). `None`
    /// only while being dropped.
    conn: RefCell<Option<Conn>>,
}

impl PgCaStore {
    /// Connect to `url` (with `password`, when given, through `connector`), check that
    /// the database is empty or pkit's, and migrate it.
    pub fn open(url: &str, password: Option<&[u8]>, connector: Connector) -> Result<PgCaStore> {
        let server = server(url, password)?;
        let conn = off_runtime(move || {
            let mut client = connector(&server).map_err(pkit_store::open_error::OpenError::from)?;
            open_versioned(&mut client, STORE, MIGRATIONS)?;
            let status = client.prepare(STATUS)?;
            Ok(Conn {
                client,
                status,
                server,
                connector,
            })
        })?;
        Ok(PgCaStore {
            conn: RefCell::new(Some(conn)),
        })
    }

    /// Run `f` on the connection, on this thread.
    fn here<T>(&self, f: impl FnOnce(&mut Conn) -> Result<T>) -> Result<T> {
        let mut guard = self.conn.try_borrow_mut().map_err(|_| {
            StoreError::File("the database connection is already in use by this store".into())
        })?;
        let conn = guard
            .as_mut()
            .ok_or_else(|| StoreError::File("the database connection is closed".into()))?;
        f(conn)
    }

    /// Run `f` on the live connection (see [`off_runtime`]).
    fn call<T: Send>(&self, f: impl FnOnce(&mut Conn) -> Result<T> + Send) -> Result<T> {
        self.here(|conn| off_runtime(move || f(conn.live()?)))
    }

    /// [`PgCaStore::call`] for a read, asked once more on a new connection when the
    /// connection was lost under it (a server restart between two OCSP requests): a read
    /// changes nothing, so asking again is safe.
    fn read<T: Send>(&self, f: impl Fn(&mut Conn) -> Result<T> + Send + Sync) -> Result<T> {
        self.call(|c| match f(c) {
            Err(_) if c.client.is_closed() => f(c.live()?),
            r => r,
        })
    }
}

impl Drop for PgCaStore {
    /// Closing the client blocks too: off the runtime, as every call.
    fn drop(&mut self) {
        if let Some(conn) = self.conn.get_mut().take() {
            let _ = off_runtime(move || {
                drop(conn);
                Ok(())
            });
        }
    }
}

/// The revoked rows in serial order, each handed to `f` as it arrives.
fn stream_revoked(client: &mut Client, f: &mut dyn FnMut(Revoked)) -> Result<()> {
    let mut rows = client.query_raw(
        "SELECT serial, revoked_at, revocation_reason, not_after FROM certificates
         WHERE revoked_at IS NOT NULL ORDER BY serial",
        std::iter::empty::<i64>(),
    )?;
    while let Some(r) = rows.next()? {
        f(revoked_of(&r)?);
    }
    Ok(())
}

/// The serial and DER of every certificate not expired at `now`, as rows arrive.
fn stream_unexpired(client: &mut Client, now: i64, f: &mut dyn FnMut(&[u8], &[u8])) -> Result<()> {
    let mut rows = client.query_raw(
        "SELECT serial, der FROM certificates WHERE not_after >= $1",
        [now],
    )?;
    while let Some(r) = rows.next()? {
        f(r.try_get(0)?, r.try_get(1)?);
    }
    Ok(())
}

/// A row of (serial, revoked_at, revocation_reason, not_after).
fn revoked_of(r: &postgres::Row) -> Result<Revoked> {
    Ok(Revoked {
        serial: r.try_get(0)?,
        revoked_at: r.try_get(1)?,
        reason: reason_of(r.try_get(2)?),
        not_after: r.try_get(3)?,
    })
}

/// A revocation reason as stored (SMALLINT) and as the CRL wants it (a CRLReason code).
fn reason_of(v: Option<i16>) -> Option<u8> {
    v.and_then(|r| u8::try_from(r).ok())
}

impl CaStore for PgCaStore {
    /// Nothing to do: the server flushes its own log.
    fn checkpoint_in_background(&mut self) -> Result<()> {
        Ok(())
    }

    /// Insert certificates and their overrides in one transaction, the certificates with
    /// binary COPY. Fails as a whole on a duplicate serial.
    fn insert_with_overrides(
        &mut self,
        certs: &[CertRecord],
        overrides: &LintOverrides,
    ) -> Result<()> {
        self.call(|c| {
            let mut tx = c.client.transaction()?;
            insert_rows(&mut tx, certs)?;
            insert_overrides(&mut tx, overrides)?;
            tx.commit()?;
            Ok(())
        })
    }

    fn insert_for_delivery(
        &mut self,
        certs: &[CertRecord],
        note: &DeliveryNote,
        overrides: &LintOverrides,
    ) -> Result<i64> {
        self.call(|c| pg_delivery::insert(&mut c.client, certs, note, overrides))
    }

    fn delivered(&mut self, chunk: i64) -> Result<()> {
        self.call(|c| pg_delivery::delivered(&mut c.client, chunk))
    }

    fn undelivered(&self) -> Result<Vec<Undelivered>> {
        self.read(|c| pg_delivery::undelivered(&mut c.client))
    }

    fn settle_deliveries(
        &mut self,
        chunks: &[i64],
        still: &[&Undelivered],
        settled: &[i64],
    ) -> Result<()> {
        self.call(|c| pg_delivery::settle(&mut c.client, chunks, still, settled))
    }

    fn insert_renewal(
        &mut self,
        cert: &CertRecord,
        replaces: &[u8],
        overrides: &LintOverrides,
    ) -> Result<()> {
        self.call(|c| {
            let mut tx = c.client.transaction()?;
            insert_rows(&mut tx, std::slice::from_ref(cert))?;
            tx.execute(
                "INSERT INTO renewals (serial, replaces) VALUES ($1, $2)",
                &[&cert.serial, &replaces],
            )?;
            insert_overrides(&mut tx, overrides)?;
            tx.commit()?;
            Ok(())
        })
    }

    fn renewals(&self) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        self.read(|c| {
            Ok(c.client
                .query("SELECT serial, replaces FROM renewals ORDER BY id", &[])?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect())
        })
    }

    fn lint_overrides(&self) -> Result<Vec<(Vec<u8>, String, String)>> {
        self.read(|c| {
            Ok(c.client
                .query(
                    "SELECT serial, mode, findings FROM lint_overrides ORDER BY id",
                    &[],
                )?
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2)))
                .collect())
        })
    }

    fn list(&self) -> Result<Vec<CertRecord>> {
        self.read(|c| {
            let client = &mut c.client;
            client
                .query(
                    &format!("SELECT {RECORD_COLUMNS} FROM certificates ORDER BY id"),
                    &[],
                )?
                .iter()
                .map(|r| row_to_record_at(r, 0))
                .collect()
        })
    }

    fn get(&self, serial: &[u8]) -> Result<Option<CertRecord>> {
        self.read(|c| {
            let client = &mut c.client;
            client
                .query_opt(
                    &format!("SELECT {RECORD_COLUMNS} FROM certificates WHERE serial = $1"),
                    &[&serial],
                )?
                .map(|r| row_to_record_at(&r, 0))
                .transpose()
        })
    }

    fn count(&self) -> Result<i64> {
        self.read(|c| {
            Ok(c.client
                .query_one("SELECT count(*) FROM certificates", &[])?
                .try_get(0)?)
        })
    }

    /// Record a revocation: the row is locked from the read to the update, so two
    /// revokers of one serial never interleave.
    fn revoke(&mut self, serial: &[u8], at: i64, reason: Option<u8>) -> Result<RevokeOutcome> {
        self.call(|c| {
            let client = &mut c.client;
            let mut tx = client.transaction()?;
            let row = tx.query_opt(
                "SELECT revoked_at, revocation_reason, not_after FROM certificates
                 WHERE serial = $1 FOR UPDATE",
                &[&serial],
            )?;
            let reason_code = reason.map(i16::from);
            let outcome = match row {
                None => RevokeOutcome::Unknown,
                Some(r) => {
                    let prev_at: Option<i64> = r.try_get(0)?;
                    let prev_reason = reason_of(r.try_get(1)?);
                    let not_after: i64 = r.try_get(2)?;
                    match prev_at {
                        Some(prev_at) if revocation_stands(prev_reason, reason) => {
                            RevokeOutcome::AlreadyRevoked(Revoked {
                                serial: serial.to_vec(),
                                revoked_at: prev_at,
                                reason: prev_reason,
                                not_after,
                            })
                        }
                        _ => {
                            // The count's row stays locked to the commit: the
                            // sequence numbers are handed out in commit order.
                            let seq: i64 = tx
                                .query_one(
                                    "INSERT INTO meta (key, value) VALUES ('revocations', '1')
                                     ON CONFLICT (key)
                                     DO UPDATE SET value = (meta.value::bigint + 1)::text
                                     RETURNING value::bigint",
                                    &[],
                                )?
                                .try_get(0)?;
                            tx.execute(
                                "UPDATE certificates SET status = 'revoked', revoked_at = $2,
                                 revocation_reason = $3, revocation_seq = $4
                                 WHERE serial = $1",
                                &[&serial, &at, &reason_code, &seq],
                            )?;
                            RevokeOutcome::Revoked
                        }
                    }
                }
            };
            tx.commit()?;
            Ok(outcome)
        })
    }

    /// Every revoked certificate in ascending serial order (bytea compares bytewise),
    /// streamed from the server to `f` as rows arrive. `f` stays on the caller's thread:
    /// from inside a runtime (where the rows must be read on another) they are gathered
    /// first; CRL generation, which reads millions, runs outside any.
    fn for_each_revoked(&self, f: &mut dyn FnMut(Revoked)) -> Result<()> {
        if tokio::runtime::Handle::try_current().is_ok() {
            let mut all = Vec::new();
            self.call(|c| stream_revoked(&mut c.client, &mut |r| all.push(r)))?;
            all.into_iter().for_each(f);
            return Ok(());
        }
        self.here(|c| stream_revoked(&mut c.live()?.client, f))
    }

    /// Streamed as [`PgCaStore::for_each_revoked`] is: gathered first only from inside a
    /// runtime.
    fn for_each_unexpired(&self, now: i64, f: &mut dyn FnMut(&[u8], &[u8])) -> Result<()> {
        if tokio::runtime::Handle::try_current().is_ok() {
            let mut all = Vec::new();
            self.call(|c| {
                stream_unexpired(&mut c.client, now, &mut |s, d| {
                    all.push((s.to_vec(), d.to_vec()))
                })
            })?;
            all.iter().for_each(|(s, d)| f(s, d));
            return Ok(());
        }
        self.here(|c| stream_unexpired(&mut c.live()?.client, now, f))
    }

    fn revoked_since(&self, seq: u64) -> Result<Vec<Revoked>> {
        let seq = i64::try_from(seq).unwrap_or(i64::MAX);
        self.read(|c| {
            c.client
                .query(
                    "SELECT serial, revoked_at, revocation_reason, not_after FROM certificates
                     WHERE revocation_seq > $1 ORDER BY revocation_seq",
                    &[&seq],
                )?
                .iter()
                .map(revoked_of)
                .collect()
        })
    }

    fn revoked_count(&self) -> Result<usize> {
        self.read(|c| {
            let n: i64 = c
                .client
                .query_one(
                    "SELECT count(*) FROM certificates WHERE revoked_at IS NOT NULL",
                    &[],
                )?
                .try_get(0)?;
            Ok(usize::try_from(n).unwrap_or(0))
        })
    }

    fn revocations_recorded(&self) -> Result<u64> {
        self.read(|c| {
            let v: Option<String> = c
                .client
                .query_opt("SELECT value FROM meta WHERE key = 'revocations'", &[])?
                .map(|r| r.try_get(0))
                .transpose()?;
            Ok(v.and_then(|v| v.parse().ok()).unwrap_or(0))
        })
    }

    fn status(&self, serial: &[u8]) -> Result<CertStatus> {
        self.read(|c| {
            let row = c.client.query_opt(&c.status, &[&serial])?;
            let Some(r) = row else {
                return Ok(CertStatus::Unknown);
            };
            Ok(match r.try_get::<_, Option<i64>>(0)? {
                None => CertStatus::Good,
                Some(revoked_at) => CertStatus::Revoked(Revoked {
                    serial: serial.to_vec(),
                    revoked_at,
                    reason: reason_of(r.try_get(1)?),
                    not_after: r.try_get(2)?,
                }),
            })
        })
    }

    /// Take the next CRL number in one statement: the upsert locks `meta`'s row until it
    /// commits, so concurrent processes queue and each gets its own number.
    fn next_crl_number(&mut self) -> Result<u64> {
        self.call(|c| {
            let value: String = c
                .client
                .query_one(
                    "INSERT INTO meta (key, value) VALUES ('crl_number', '1')
                     ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text
                     RETURNING value",
                    &[],
                )?
                .try_get(0)?;
            value.parse().map_err(|_| {
                StoreError::File(format!("meta.crl_number is not a number: {value:?}"))
            })
        })
    }

    fn last_crl_number(&self) -> Result<u64> {
        self.read(|c| {
            let v: Option<String> = c
                .client
                .query_opt("SELECT value FROM meta WHERE key = 'crl_number'", &[])?
                .map(|r| r.try_get(0))
                .transpose()?;
            Ok(v.and_then(|v| v.parse().ok()).unwrap_or(0))
        })
    }

    /// One statement either way, so two claimers of one number never both win: the
    /// first number is the row's insertion, a later one the update of the row holding the
    /// number before it.
    fn claim_crl_numbers(&mut self, first: u64, count: u64) -> Result<bool> {
        let first = i64::try_from(first).unwrap_or(i64::MAX);
        let taken = first.saturating_add(i64::try_from(count.max(1)).unwrap_or(1) - 1);
        self.call(|c| {
            let changed = if first == 1 {
                c.client.execute(
                    "INSERT INTO meta (key, value) VALUES ('crl_number', ($1::bigint)::text)
                     ON CONFLICT (key) DO NOTHING",
                    &[&taken],
                )?
            } else {
                c.client.execute(
                    "UPDATE meta SET value = ($1::bigint)::text
                     WHERE key = 'crl_number' AND value::bigint = $2::bigint - 1",
                    &[&taken, &first],
                )?
            };
            Ok(changed == 1)
        })
    }

    fn forget_crls_before(&mut self, number: u64) -> Result<()> {
        let below = i64::try_from(number).unwrap_or(i64::MAX);
        self.call(|c| {
            c.client
                .execute("DELETE FROM crls WHERE number < $1", &[&below])?;
            Ok(())
        })
    }

    /// Keep a signed CRL, its DER in the row. A CRL number is never reused: the primary
    /// key refuses a second insert and leaves the first alone.
    fn insert_crl(&mut self, crl: &CrlRecord) -> Result<()> {
        self.call(|c| {
            let client = &mut c.client;
            let n = i64::try_from(crl.number).unwrap_or(i64::MAX);
            let size = i64::try_from(crl.der.len()).unwrap_or(i64::MAX);
            let digest = sha2::Sha256::digest(&crl.der).to_vec();
            let inserted = client.execute(
                "INSERT INTO crls (number, this_update, next_update, size, sha256, der)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &n,
                    &crl.this_update,
                    &crl.next_update,
                    &size,
                    &digest,
                    &crl.der,
                ],
            );
            match inserted {
                Ok(_) => Ok(()),
                Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Err(StoreError::File(
                    format!("CRL number {} is already recorded", crl.number),
                )),
                Err(e) => Err(e.into()),
            }
        })
    }

    /// The CRL with the highest number, if any was stored; it must match its recorded
    /// digest.
    fn latest_crl(&self) -> Result<Option<CrlRecord>> {
        self.read(|c| {
            let client = &mut c.client;
            let row = client.query_opt(
                "SELECT number, this_update, next_update, sha256, der FROM crls
                 ORDER BY number DESC LIMIT 1",
                &[],
            )?;
            let Some(r) = row else {
                return Ok(None);
            };
            let number = u64::try_from(r.try_get::<_, i64>(0)?).unwrap_or(0);
            let sha256: Option<Vec<u8>> = r.try_get(3)?;
            let der: Option<Vec<u8>> = r.try_get(4)?;
            let der = der
                .filter(|d| sha256.as_deref() == Some(&sha2::Sha256::digest(d)[..]))
                .ok_or_else(|| {
                    StoreError::File(format!(
                        "CRL {number}: its DER does not match the SHA-256 recorded with it"
                    ))
                })?;
            Ok(Some(CrlRecord {
                number,
                this_update: r.try_get(1)?,
                next_update: r.try_get(2)?,
                der,
            }))
        })
    }

    /// Keep pre-signed OCSP responses in one transaction, replacing older ones for the
    /// same serials (binary COPY: `ocsp presign` stores one per certificate).
    fn put_ocsp_responses(&mut self, responses: &[OcspRecord]) -> Result<()> {
        self.call(|c| {
            let client = &mut c.client;
            let mut tx = client.transaction()?;
            let rows = responses.iter().map(|o| -> Result<CopyRow<'_>> {
                Ok(vec![
                    Box::new(&o.serial),
                    Box::new(o.produced_at),
                    Box::new(o.next_update),
                    Box::new(&o.der),
                ])
            });
            copy_upsert(
                &mut tx,
                "ocsp_responses",
                "serial, produced_at, next_update, der",
                &[Type::BYTEA, Type::INT8, Type::INT8, Type::BYTEA],
                (
                    "serial",
                    "produced_at = excluded.produced_at, next_update = excluded.next_update, \
                     der = excluded.der",
                ),
                rows,
            )?;
            tx.commit()?;
            Ok(())
        })
    }

    fn ocsp_responses(&self) -> Result<Vec<OcspRecord>> {
        self.read(|c| {
            let client = &mut c.client;
            client
                .query(
                    "SELECT serial, produced_at, next_update, der FROM ocsp_responses
                     ORDER BY serial",
                    &[],
                )?
                .iter()
                .map(|r| {
                    Ok(OcspRecord {
                        serial: r.try_get(0)?,
                        produced_at: r.try_get(1)?,
                        next_update: r.try_get(2)?,
                        der: r.try_get(3)?,
                    })
                })
                .collect()
        })
    }
}
