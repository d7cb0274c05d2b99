//! Deliveries in a CA database on PostgreSQL (see the deliveries in `api.rs`), kept as
//! SQLite keeps them: `pending_deliveries` holds one row per chunk being delivered,
//! naming its certificates by their id range; `undelivered` one row per certificate
//! found undelivered.

use super::api::{CertRecord, DeliveryNote, LintOverrides, Pending, Result, Undelivered};
use super::pg_rows::{insert_overrides, insert_rows, row_to_record_at, RECORD_COLUMNS};
use postgres::Client;

pub(super) fn insert(
    client: &mut Client,
    certs: &[CertRecord],
    note: &DeliveryNote,
    overrides: &LintOverrides,
) -> Result<i64> {
    let mut tx = client.transaction()?;
    let (first, last) = insert_rows(&mut tx, certs)?;
    insert_overrides(&mut tx, overrides)?;
    let id: i64 = tx
        .query_one(
            "INSERT INTO pending_deliveries (destination, owner, first_n, first_cert, last_cert)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
            &[
                &note.destination,
                &note.owner,
                &i64::try_from(note.first_n).unwrap_or(i64::MAX),
                &first,
                &last,
            ],
        )?
        .try_get(0)?;
    tx.commit()?;
    Ok(id)
}

pub(super) fn delivered(client: &mut Client, chunk: i64) -> Result<()> {
    client.execute("DELETE FROM pending_deliveries WHERE id = $1", &[&chunk])?;
    Ok(())
}

fn batch_number(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

pub(super) fn undelivered(client: &mut Client) -> Result<Vec<Undelivered>> {
    let mut out = Vec::new();
    // One snapshot for both reads, so that a chunk settled between them is seen once.
    let mut tx = client
        .build_transaction()
        .isolation_level(postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()?;
    let chunks = tx.query(
        &format!(
            "SELECT p.id, p.owner, p.destination, p.first_n + (c.id - p.first_cert), c.id,
             {RECORD_COLUMNS}
             FROM pending_deliveries p JOIN certificates c
               ON c.id BETWEEN p.first_cert AND p.last_cert
             ORDER BY p.id, c.id"
        ),
        &[],
    )?;
    for r in &chunks {
        out.push(Undelivered {
            pending: Pending::Chunk {
                id: r.try_get(0)?,
                owner: r.try_get(1)?,
            },
            destination: r.try_get(2)?,
            n: batch_number(r.try_get(3)?),
            id: r.try_get(4)?,
            cert: row_to_record_at(r, 5)?,
        });
    }
    let found = tx.query(
        &format!(
            "SELECT u.destination, u.n, c.id, {RECORD_COLUMNS}
             FROM undelivered u JOIN certificates c ON c.id = u.cert ORDER BY c.id"
        ),
        &[],
    )?;
    for r in &found {
        out.push(Undelivered {
            pending: Pending::Found,
            destination: r.try_get(0)?,
            n: batch_number(r.try_get(1)?),
            id: r.try_get(2)?,
            cert: row_to_record_at(r, 3)?,
        });
    }
    tx.commit()?;
    Ok(out)
}

pub(super) fn settle(
    client: &mut Client,
    chunks: &[i64],
    still: &[&Undelivered],
    settled: &[i64],
) -> Result<()> {
    let mut tx = client.transaction()?;
    let drop_note = tx.prepare("DELETE FROM pending_deliveries WHERE id = $1")?;
    let keep = tx.prepare(
        "INSERT INTO undelivered (cert, destination, n) VALUES ($1, $2, $3)
         ON CONFLICT (cert) DO NOTHING",
    )?;
    for &chunk in chunks {
        // Another process may have settled this chunk since it was read: then it kept
        // what it found, and this one adds nothing.
        if tx.execute(&drop_note, &[&chunk])? == 0 {
            continue;
        }
        for u in still.iter().filter(|u| u.in_chunk(chunk)) {
            let n = i64::try_from(u.n).unwrap_or(i64::MAX);
            tx.execute(&keep, &[&u.id, &u.destination, &n])?;
        }
    }
    let forget = tx.prepare("DELETE FROM undelivered WHERE cert = $1")?;
    for id in settled {
        tx.execute(&forget, &[id])?;
    }
    tx.commit()?;
    Ok(())
}
