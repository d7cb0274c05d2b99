//! Certificate rows of `ca.db` as the SQLite store and its deliveries both read and
//! write them.

use crate::store::api::{CertRecord, LintOverrides, Result, Revoked};
use rusqlite::{params, Connection, OptionalExtension, Transaction};

/// Insert `certs` in order with one prepared statement; the row ids of the first and the
/// last (consecutive: the transaction holds the write lock).
pub(super) fn insert_rows(tx: &Transaction<'_>, certs: &[CertRecord]) -> Result<(i64, i64)> {
    let mut st = tx.prepare_cached(
        "INSERT INTO certificates (serial, subject, not_before, not_after, profile,
         key_algorithm, status, issued_at, der) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    )?;
    let mut first = None;
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
        first.get_or_insert(tx.last_insert_rowid());
    }
    let last = tx.last_insert_rowid();
    Ok((first.unwrap_or(last + 1), last))
}

/// Record what the lint gate let through, in the transaction of the certificates it
/// concerns.
pub(super) fn insert_overrides(tx: &Transaction<'_>, overrides: &LintOverrides) -> Result<()> {
    if overrides.certs.is_empty() {
        return Ok(());
    }
    let mut st = tx.prepare_cached(
        "INSERT OR REPLACE INTO lint_overrides (serial, mode, findings) VALUES (?1, ?2, ?3)",
    )?;
    for (serial, findings) in &overrides.certs {
        st.execute(params![serial, overrides.mode, findings])?;
    }
    Ok(())
}

/// The columns [`row_to_record`] reads, in its order.
pub(super) const RECORD_COLUMNS: &str =
    "serial, subject, not_before, not_after, profile, key_algorithm, status, issued_at, der";

pub(super) fn row_to_record(r: &rusqlite::Row<'_>) -> rusqlite::Result<CertRecord> {
    row_to_record_at(r, 0)
}

/// A certificate record from [`RECORD_COLUMNS`] starting at column `at`.
pub(super) fn row_to_record_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<CertRecord> {
    Ok(CertRecord {
        serial: r.get(at)?,
        subject: r.get(at + 1)?,
        not_before: r.get(at + 2)?,
        not_after: r.get(at + 3)?,
        profile: r.get(at + 4)?,
        key_algorithm: r.get(at + 5)?,
        status: r.get(at + 6)?,
        issued_at: r.get(at + 7)?,
        der: r.get(at + 8)?,
    })
}

/// `(revoked_at, revocation_reason, not_after)` of one serial, if it was issued here.
type RevocationRow = (Option<i64>, Option<u8>, i64);

/// Prepared once per connection and kept: an OCSP responder asks this on every request,
/// and compiling the statement each time cost about 4 µs a look-up (Python's sqlite3 on a
/// CA's ca.db: 9.6 µs a look-up prepared each time, 5.5 µs from its statement cache).
pub(super) fn revocation_row(
    conn: &Connection,
    serial: &[u8],
) -> rusqlite::Result<Option<RevocationRow>> {
    conn.prepare_cached(
        "SELECT revoked_at, revocation_reason, not_after FROM certificates WHERE serial = ?1",
    )?
    .query_row([serial], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
    .optional()
}

/// A row of (serial, revoked_at, revocation_reason, not_after).
pub(super) fn revoked_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Revoked> {
    Ok(Revoked {
        serial: r.get(0)?,
        revoked_at: r.get(1)?,
        reason: r.get(2)?,
        not_after: r.get(3)?,
    })
}
