//! Certificate rows of a CA database on PostgreSQL as its store and its deliveries both
//! read and write them: ids reserved as one block, rows sent with binary COPY.

use super::api::{CertRecord, LintOverrides, Result, StoreError};
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::Type;
use postgres::{Row, Transaction};

/// The advisory lock key held while a block of certificate ids is reserved ("pkid").
const ID_LOCK: i64 = 0x706b_6964;

/// The column types of a certificate row as COPY sends them, in [`COPY_COLUMNS`]' order.
const COPY_TYPES: [Type; 10] = [
    Type::INT8,
    Type::BYTEA,
    Type::TEXT,
    Type::INT8,
    Type::INT8,
    Type::TEXT,
    Type::TEXT,
    Type::TEXT,
    Type::INT8,
    Type::BYTEA,
];

const COPY_COLUMNS: &str = "id, serial, subject, not_before, not_after, profile, \
     key_algorithm, status, issued_at, der";

/// Reserve `n` consecutive certificate ids and return the first. A delivery note names its
/// chunk's certificates by an id range, so a chunk's ids must not interleave with another
/// process's; the sequence is moved by `n` at once under an advisory lock held only for
/// the two statements (sequence changes are not transactional: the block stays taken
/// even if the chunk's transaction rolls back, leaving a gap, never a shared id).
fn reserve_ids(tx: &mut Transaction<'_>, n: i64) -> Result<i64> {
    tx.execute("SELECT pg_advisory_lock($1)", &[&ID_LOCK])?;
    let reserved = tx
        .query_one("SELECT nextval('certificates_id')", &[])
        .and_then(|r| r.try_get::<_, i64>(0))
        .and_then(|first| {
            // A sequence set near its end by hand (pkit's never gets there) cuts the
            // block short: refused below, never wrapped.
            let last = first.saturating_add(n - 1);
            tx.execute("SELECT setval('certificates_id', $1)", &[&last])?;
            Ok((first, last))
        });
    tx.execute("SELECT pg_advisory_unlock($1)", &[&ID_LOCK])?;
    let (first, last) = reserved?;
    if last - first != n - 1 {
        return Err(StoreError::File(
            "the certificate id sequence is exhausted".into(),
        ));
    }
    Ok(first)
}

/// Record what the lint gate let through, in the transaction of the certificates it
/// concerns.
pub(super) fn insert_overrides(tx: &mut Transaction<'_>, overrides: &LintOverrides) -> Result<()> {
    if overrides.certs.is_empty() {
        return Ok(());
    }
    let st = tx.prepare(
        "INSERT INTO lint_overrides (serial, mode, findings) VALUES ($1, $2, $3)
         ON CONFLICT (serial) DO UPDATE SET mode = $2, findings = $3",
    )?;
    for (serial, findings) in &overrides.certs {
        tx.execute(&st, &[serial, &overrides.mode, findings])?;
    }
    Ok(())
}

/// Insert `certs` in order with binary COPY (a round trip per chunk, not per row); the ids
/// of the first and the last, which are consecutive.
pub(super) fn insert_rows(tx: &mut Transaction<'_>, certs: &[CertRecord]) -> Result<(i64, i64)> {
    let n = i64::try_from(certs.len()).unwrap_or(i64::MAX);
    if n == 0 {
        return Ok((0, -1));
    }
    let first = reserve_ids(tx, n)?;
    let sink = tx.copy_in(&format!(
        "COPY certificates ({COPY_COLUMNS}) FROM STDIN (FORMAT binary)"
    ))?;
    let mut w = BinaryCopyInWriter::new(sink, &COPY_TYPES);
    for (id, c) in (first..=first + (n - 1)).zip(certs) {
        w.write(&[
            &id,
            &c.serial,
            &c.subject,
            &c.not_before,
            &c.not_after,
            &c.profile,
            &c.key_algorithm,
            &c.status,
            &c.issued_at,
            &c.der,
        ])?;
    }
    w.finish()?;
    Ok((first, first + n - 1))
}

/// The columns [`row_to_record_at`] reads, in its order.
pub(super) const RECORD_COLUMNS: &str =
    "serial, subject, not_before, not_after, profile, key_algorithm, status, issued_at, der";

/// A certificate record from [`RECORD_COLUMNS`] starting at column `at`.
pub(super) fn row_to_record_at(r: &Row, at: usize) -> Result<CertRecord> {
    Ok(CertRecord {
        serial: r.try_get(at)?,
        subject: r.try_get(at + 1)?,
        not_before: r.try_get(at + 2)?,
        not_after: r.try_get(at + 3)?,
        profile: r.try_get(at + 4)?,
        key_algorithm: r.try_get(at + 5)?,
        status: r.try_get(at + 6)?,
        issued_at: r.try_get(at + 7)?,
        der: r.try_get(at + 8)?,
    })
}
