//! The CA store in SQLite: `ca.db` in WAL mode, versioned with `PRAGMA user_version` and
//! forward-only migrations, with signed CRLs as files in `crls/` beside it.

use pkit_store::sqlite::open_versioned;
use pkit_store::wal_checkpoint::BackgroundCheckpoints;
use rusqlite::{params, Connection, OptionalExtension};
use sha2::Digest as _;
use std::path::{Path, PathBuf};

use super::api::{
    revocation_stands, CaStore, CertRecord, CertStatus, CrlRecord, DeliveryNote, LintOverrides,
    OcspRecord, Result, RevokeOutcome, Revoked, StoreError, Undelivered, CRL_DIR,
};
use rows::{insert_overrides, insert_rows, revocation_row, revoked_of, row_to_record};
use schema::MIGRATIONS;

mod delivery;
mod rows;
mod schema;

fn crl_file(number: u64) -> String {
    format!("{number}.crl")
}

/// The CA store in `ca.db` (SQLite).
pub struct SqliteCaStore {
    conn: Connection,
    /// The directory of ca.db, where `crls/` is.
    dir: PathBuf,
    path: PathBuf,
    checkpoints: Option<BackgroundCheckpoints>,
}

impl SqliteCaStore {
    /// Open (creating if needed) and migrate.
    pub fn open(path: &Path) -> Result<SqliteCaStore> {
        let conn = open_versioned(path, MIGRATIONS)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Ok(SqliteCaStore {
            conn,
            dir,
            path: path.to_path_buf(),
            checkpoints: None,
        })
    }
}

impl SqliteCaStore {
    /// A transaction adding certificates committed: the background checkpointer may run.
    fn committed(&mut self) {
        if let Some(c) = &mut self.checkpoints {
            c.committed();
        }
    }
}

impl CaStore for SqliteCaStore {
    /// For a batch: checkpoint the WAL from a background thread while chunks go in (see
    /// [`BackgroundCheckpoints`]), until the store is dropped.
    fn checkpoint_in_background(&mut self) -> Result<()> {
        if self.checkpoints.is_none() {
            self.checkpoints = Some(BackgroundCheckpoints::start(&self.conn, &self.path)?);
        }
        Ok(())
    }

    /// Insert certificates and their overrides in one transaction (statement prepared
    /// once). Fails as a whole on a duplicate serial.
    fn insert_with_overrides(
        &mut self,
        certs: &[CertRecord],
        overrides: &LintOverrides,
    ) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        insert_rows(&tx, certs)?;
        insert_overrides(&tx, overrides)?;
        tx.commit()?;
        self.committed();
        Ok(())
    }

    fn insert_for_delivery(
        &mut self,
        certs: &[CertRecord],
        note: &DeliveryNote,
        overrides: &LintOverrides,
    ) -> Result<i64> {
        let id = delivery::insert(&mut self.conn, certs, note, overrides)?;
        self.committed();
        Ok(id)
    }

    fn delivered(&mut self, chunk: i64) -> Result<()> {
        delivery::delivered(&self.conn, chunk)
    }

    fn undelivered(&self) -> Result<Vec<Undelivered>> {
        delivery::undelivered(&self.conn)
    }

    fn settle_deliveries(
        &mut self,
        chunks: &[i64],
        still: &[&Undelivered],
        settled: &[i64],
    ) -> Result<()> {
        delivery::settle(&mut self.conn, chunks, still, settled)
    }

    fn insert_renewal(
        &mut self,
        cert: &CertRecord,
        replaces: &[u8],
        overrides: &LintOverrides,
    ) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        insert_rows(&tx, std::slice::from_ref(cert))?;
        tx.execute(
            "INSERT INTO renewals (serial, replaces) VALUES (?1, ?2)",
            params![cert.serial, replaces],
        )?;
        insert_overrides(&tx, overrides)?;
        tx.commit()?;
        self.committed();
        Ok(())
    }

    fn renewals(&self) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let mut st = self
            .conn
            .prepare("SELECT serial, replaces FROM renewals ORDER BY rowid")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    fn lint_overrides(&self) -> Result<Vec<(Vec<u8>, String, String)>> {
        let mut st = self
            .conn
            .prepare("SELECT serial, mode, findings FROM lint_overrides ORDER BY rowid")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    fn list(&self) -> Result<Vec<CertRecord>> {
        let mut st = self.conn.prepare(
            "SELECT serial, subject, not_before, not_after, profile, key_algorithm, status,
             issued_at, der FROM certificates ORDER BY id",
        )?;
        let rows = st.query_map([], row_to_record)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    fn get(&self, serial: &[u8]) -> Result<Option<CertRecord>> {
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

    fn count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM certificates", [], |r| r.get(0))?)
    }

    /// Record a revocation. One IMMEDIATE transaction, so two revokers never interleave.
    fn revoke(&mut self, serial: &[u8], at: i64, reason: Option<u8>) -> Result<RevokeOutcome> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let row = revocation_row(&tx, serial)?;
        let outcome = match row {
            None => RevokeOutcome::Unknown,
            Some((Some(prev_at), prev_reason, not_after))
                if revocation_stands(prev_reason, reason) =>
            {
                RevokeOutcome::AlreadyRevoked(Revoked {
                    serial: serial.to_vec(),
                    revoked_at: prev_at,
                    reason: prev_reason,
                    not_after,
                })
            }
            Some(_) => {
                let seq: i64 = tx.query_row(
                    "INSERT INTO meta (key, value) VALUES ('revocations', '1')
                     ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
                     RETURNING CAST(value AS INTEGER)",
                    [],
                    |r| r.get(0),
                )?;
                tx.execute(
                    "UPDATE certificates SET status = 'revoked', revoked_at = ?2,
                     revocation_reason = ?3, revocation_seq = ?4 WHERE serial = ?1",
                    params![serial, at, reason, seq],
                )?;
                RevokeOutcome::Revoked
            }
        };
        tx.commit()?;
        Ok(outcome)
    }

    /// Every revoked certificate in ascending serial order (byte order, which for these
    /// equal-length positive serials is numeric order), streamed to `f`.
    fn for_each_revoked(&self, f: &mut dyn FnMut(Revoked)) -> Result<()> {
        let mut st = self.conn.prepare(
            "SELECT serial, revoked_at, revocation_reason, not_after FROM certificates
             WHERE revoked_at IS NOT NULL ORDER BY serial",
        )?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            f(revoked_of(r)?);
        }
        Ok(())
    }

    fn for_each_unexpired(&self, now: i64, f: &mut dyn FnMut(&[u8], &[u8])) -> Result<()> {
        let mut st = self
            .conn
            .prepare("SELECT serial, der FROM certificates WHERE not_after >= ?1")?;
        let mut rows = st.query([now])?;
        while let Some(r) = rows.next()? {
            let blob = |i| r.get_ref(i)?.as_blob().map_err(rusqlite::Error::from);
            f(blob(0)?, blob(1)?);
        }
        Ok(())
    }

    fn revoked_since(&self, seq: u64) -> Result<Vec<Revoked>> {
        let mut st = self.conn.prepare(
            "SELECT serial, revoked_at, revocation_reason, not_after FROM certificates
             WHERE revocation_seq > ?1 ORDER BY revocation_seq",
        )?;
        let rows = st.query_map([i64::try_from(seq).unwrap_or(i64::MAX)], revoked_of)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// How many certificates are revoked (a count over the revoked index).
    fn revoked_count(&self) -> Result<usize> {
        let n: i64 = self.conn.query_row(
            "SELECT count(*) FROM certificates WHERE revoked_at IS NOT NULL",
            [],
            |r| r.get(0),
        )?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    fn revocations_recorded(&self) -> Result<u64> {
        let n: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'revocations'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        Ok(n.and_then(|v| v.parse().ok()).unwrap_or(0))
    }

    /// The status of one serial, for OCSP.
    fn status(&self, serial: &[u8]) -> Result<CertStatus> {
        let row = revocation_row(&self.conn, serial)?;
        Ok(match row {
            None => CertStatus::Unknown,
            Some((None, _, _)) => CertStatus::Good,
            Some((Some(revoked_at), reason, not_after)) => CertStatus::Revoked(Revoked {
                serial: serial.to_vec(),
                revoked_at,
                reason,
                not_after,
            }),
        })
    }

    /// Take the next CRL number: strictly increasing, starting at 1, committed before the
    /// CRL is written so that no two CRLs ever share one.
    fn next_crl_number(&mut self) -> Result<u64> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let last: Option<String> = tx
            .query_row("SELECT value FROM meta WHERE key = 'crl_number'", [], |r| {
                r.get(0)
            })
            .optional()?;
        let next = last.and_then(|v| v.parse::<u64>().ok()).unwrap_or(0) + 1;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('crl_number', ?1)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [next.to_string()],
        )?;
        tx.commit()?;
        Ok(next)
    }

    fn last_crl_number(&self) -> Result<u64> {
        let last: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'crl_number'", [], |r| {
                r.get(0)
            })
            .optional()?;
        Ok(last.and_then(|v| v.parse::<u64>().ok()).unwrap_or(0))
    }

    /// One IMMEDIATE transaction from the read to the write: two claimers of one number
    /// never both win.
    fn claim_crl_numbers(&mut self, first: u64, count: u64) -> Result<bool> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let last: Option<String> = tx
            .query_row("SELECT value FROM meta WHERE key = 'crl_number'", [], |r| {
                r.get(0)
            })
            .optional()?;
        let last = last.and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        if last.checked_add(1) != Some(first) {
            return Ok(false);
        }
        let taken = first.saturating_add(count.max(1) - 1);
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('crl_number', ?1)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [taken.to_string()],
        )?;
        tx.commit()?;
        Ok(true)
    }

    /// The rows go first, in one transaction; then the files, best effort (a file left
    /// behind is a leftover that a later insert of its number would replace, and numbers
    /// are never reused).
    fn forget_crls_before(&mut self, number: u64) -> Result<()> {
        let below = i64::try_from(number).unwrap_or(i64::MAX);
        let tx = self.conn.transaction()?;
        let gone: Vec<i64> = {
            let mut st = tx.prepare("SELECT number FROM crls WHERE number < ?1 AND der IS NULL")?;
            let rows = st.query_map([below], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        tx.execute("DELETE FROM crls WHERE number < ?1", [below])?;
        tx.commit()?;
        for n in gone {
            let path = self
                .dir
                .join(CRL_DIR)
                .join(crl_file(u64::try_from(n).unwrap_or(0)));
            let _ = std::fs::remove_file(path);
        }
        Ok(())
    }

    /// Keep a signed CRL: its DER in `crls/<number>.crl` (written, flushed and renamed
    /// into place), its size and SHA-256 in the table. A CRL number is never reused, so a
    /// second insert of the same number fails and leaves the first file alone.
    fn insert_crl(&mut self, crl: &CrlRecord) -> Result<()> {
        let n = i64::try_from(crl.number).unwrap_or(i64::MAX);
        // The write lock is held from the check to the insert: no other process can
        // record this number meanwhile.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let taken: bool =
            tx.query_row("SELECT count(*) FROM crls WHERE number = ?1", [n], |r| {
                r.get::<_, i64>(0).map(|c| c > 0)
            })?;
        if taken {
            return Err(StoreError::File(format!(
                "CRL number {} is already recorded",
                crl.number
            )));
        }
        let dir = self.dir.join(CRL_DIR);
        let path = dir.join(crl_file(crl.number));
        std::fs::create_dir_all(&dir)
            .and_then(|()| {
                // No recorded CRL has this number (checked above): a file by that name is
                // a leftover (a crash between file and row, an earlier ca.db) and is
                // replaced.
                pkit_store::atomic_file::create(&path, true, false, |w| w.write_all(&crl.der))
            })
            .map_err(|e| StoreError::File(format!("{}: {e}", path.display())))?;
        tx.execute(
            "INSERT INTO crls (number, this_update, next_update, size, sha256)
             VALUES (?1,?2,?3,?4,?5)",
            params![
                n,
                crl.this_update,
                crl.next_update,
                crl.der.len() as i64,
                &sha2::Sha256::digest(&crl.der)[..]
            ],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The CRL with the highest number, if any was stored; its file must match the
    /// recorded digest.
    fn latest_crl(&self) -> Result<Option<CrlRecord>> {
        type Row = (i64, i64, i64, Option<Vec<u8>>, Option<Vec<u8>>);
        let row: Option<Row> = self
            .conn
            .query_row(
                "SELECT number, this_update, next_update, sha256, der FROM crls
                 ORDER BY number DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()?;
        let Some((number, this_update, next_update, sha256, der)) = row else {
            return Ok(None);
        };
        let number = u64::try_from(number).unwrap_or(0);
        let der = match der {
            Some(d) => d,
            None => {
                let path = self.dir.join(CRL_DIR).join(crl_file(number));
                let d = std::fs::read(&path)
                    .map_err(|e| StoreError::File(format!("{}: {e}", path.display())))?;
                if sha256.as_deref() != Some(&sha2::Sha256::digest(&d)[..]) {
                    return Err(StoreError::File(format!(
                        "{}: does not match the SHA-256 recorded in ca.db",
                        path.display()
                    )));
                }
                d
            }
        };
        Ok(Some(CrlRecord {
            number,
            this_update,
            next_update,
            der,
        }))
    }

    /// Keep pre-signed OCSP responses in one transaction, replacing older ones for the
    /// same serials.
    fn put_ocsp_responses(&mut self, responses: &[OcspRecord]) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        {
            let mut st = tx.prepare_cached(
                "INSERT OR REPLACE INTO ocsp_responses (serial, produced_at, next_update, der)
                 VALUES (?1,?2,?3,?4)",
            )?;
            for o in responses {
                st.execute(params![o.serial, o.produced_at, o.next_update, o.der])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Every stored OCSP response, in serial order.
    fn ocsp_responses(&self) -> Result<Vec<OcspRecord>> {
        let mut st = self.conn.prepare(
            "SELECT serial, produced_at, next_update, der FROM ocsp_responses ORDER BY serial",
        )?;
        let rows = st.query_map([], |r| {
            Ok(OcspRecord {
                serial: r.get(0)?,
                produced_at: r.get(1)?,
                next_update: r.get(2)?,
                der: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }
}

#[cfg(test)]
mod tests;
