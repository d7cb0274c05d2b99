//! Deliveries in `ca.db` (see `DeliveryNote`): `pending_deliveries` holds one row per
//! chunk being delivered, naming its certificates by their row-id range;
//! `undelivered` one row per certificate found undelivered.

use super::rows::{insert_overrides, insert_rows, row_to_record_at, RECORD_COLUMNS};
use crate::store::api::{CertRecord, DeliveryNote, LintOverrides, Pending, Result, Undelivered};
use rusqlite::{params, Connection, TransactionBehavior};

pub(super) fn insert(
    conn: &mut Connection,
    certs: &[CertRecord],
    note: &DeliveryNote,
    overrides: &LintOverrides,
) -> Result<i64> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let (first, last) = insert_rows(&tx, certs)?;
    insert_overrides(&tx, overrides)?;
    tx.execute(
        "INSERT INTO pending_deliveries (destination, owner, first_n, first_cert, last_cert)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            note.destination,
            note.owner,
            i64::try_from(note.first_n).unwrap_or(i64::MAX),
            first,
            last
        ],
    )?;
    let id = tx.last_insert_rowid();
    tx.commit()?;
    Ok(id)
}

pub(super) fn delivered(conn: &Connection, chunk: i64) -> Result<()> {
    conn.execute("DELETE FROM pending_deliveries WHERE id = ?1", [chunk])?;
    Ok(())
}

pub(super) fn undelivered(conn: &Connection) -> Result<Vec<Undelivered>> {
    let mut out = Vec::new();
    let mut st = conn.prepare(&format!(
        "SELECT p.id, p.owner, p.destination, p.first_n + (c.id - p.first_cert), c.id,
         {RECORD_COLUMNS}
         FROM pending_deliveries p JOIN certificates c
           ON c.id BETWEEN p.first_cert AND p.last_cert
         ORDER BY p.id, c.id"
    ))?;
    let mut rows = st.query([])?;
    while let Some(r) = rows.next()? {
        out.push(Undelivered {
            pending: Pending::Chunk {
                id: r.get(0)?,
                owner: r.get(1)?,
            },
            destination: r.get(2)?,
            n: u64::try_from(r.get::<_, i64>(3)?).unwrap_or(0),
            id: r.get(4)?,
            cert: row_to_record_at(r, 5)?,
        });
    }
    let mut st = conn.prepare(&format!(
        "SELECT u.destination, u.n, c.id, {RECORD_COLUMNS}
         FROM undelivered u JOIN certificates c ON c.id = u.cert ORDER BY c.id"
    ))?;
    let mut rows = st.query([])?;
    while let Some(r) = rows.next()? {
        out.push(Undelivered {
            pending: Pending::Found,
            destination: r.get(0)?,
            n: u64::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
            id: r.get(2)?,
            cert: row_to_record_at(r, 3)?,
        });
    }
    Ok(out)
}

pub(super) fn settle(
    conn: &mut Connection,
    chunks: &[i64],
    still: &[&Undelivered],
    settled: &[i64],
) -> Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut drop_note = tx.prepare("DELETE FROM pending_deliveries WHERE id = ?1")?;
        let mut keep = tx.prepare(
            "INSERT OR IGNORE INTO undelivered (cert, destination, n) VALUES (?1, ?2, ?3)",
        )?;
        for &chunk in chunks {
            // Another process may have settled this chunk since it was read: then it
            // kept what it found, and this one adds nothing.
            if drop_note.execute([chunk])? == 0 {
                continue;
            }
            for u in still.iter().filter(|u| u.in_chunk(chunk)) {
                keep.execute(params![
                    u.id,
                    u.destination,
                    i64::try_from(u.n).unwrap_or(i64::MAX)
                ])?;
            }
        }
        let mut forget = tx.prepare("DELETE FROM undelivered WHERE cert = ?1")?;
        for &id in settled {
            forget.execute([id])?;
        }
    }
    tx.commit()?;
    Ok(())
}
