//! The rows of the MTC log on PostgreSQL that [`super::pg`]'s methods share: the size,
//! nodes and right edge read back, and the bulk writes (subtree signatures, issued proofs
//! and certificates by binary COPY into a temporary table and one upsert, since a row of
//! the same index and kind is replaced).

use super::api::{StoredCertificate, StoredCheckpoint, StoredProof, SubtreeSignature};
use super::values::{blob_hash, to_i64, to_u64};
use crate::error::{MtcError, Result};
use crate::frontier::Frontier;
use crate::hash::Hash;
use pkit_store::pg_copy::copy_upsert;
use postgres::types::{ToSql, Type};
use postgres::{GenericClient, Row, Transaction};
use std::cell::RefCell;

/// The number of entries: one past the highest index (read from the primary key's end).
pub(super) fn stored_size(c: &mut impl GenericClient) -> Result<u64> {
    let n: i64 = c
        .query_one("SELECT COALESCE(max(idx) + 1, 0) FROM entries", &[])?
        .try_get(0)?;
    to_u64(n)
}

/// The stored node at `level`, `index` (level 0: a leaf hash).
pub(super) fn stored_node(c: &mut impl GenericClient, level: u32, index: u64) -> Result<Hash> {
    let i = to_i64(index)?;
    let row = if level == 0 {
        c.query_opt("SELECT leaf FROM entries WHERE idx = $1", &[&i])?
    } else {
        let l = i32::try_from(level).unwrap_or(i32::MAX);
        c.query_opt(
            "SELECT hash FROM nodes WHERE level = $1 AND idx = $2",
            &[&l, &i],
        )?
    };
    let row = row
        .ok_or_else(|| MtcError::Store(format!("database: node ({level}, {index}) is missing")))?;
    blob_hash(row.try_get(0)?)
}

/// The right edge of the tree as stored now.
pub(super) fn load_frontier(c: &mut impl GenericClient) -> Result<Frontier> {
    let size = stored_size(c)?;
    let c = RefCell::new(c);
    Frontier::load(size, |level, index| {
        stored_node(&mut **c.borrow_mut(), level, index)
    })
}

/// Store cosignatures over subtrees, replacing one of the same subtree and cosigner.
pub(super) fn put_subtree_signatures(
    tx: &mut Transaction<'_>,
    sigs: &[SubtreeSignature],
) -> Result<()> {
    let st = tx.prepare(
        "INSERT INTO subtree_signatures (start, \"end\", cosigner, hash, signature)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (start, \"end\", cosigner) DO UPDATE
         SET hash = excluded.hash, signature = excluded.signature",
    )?;
    for s in sigs {
        tx.execute(
            &st,
            &[
                &to_i64(s.subtree.start)?,
                &to_i64(s.subtree.end)?,
                &s.cosigner,
                &&s.hash[..],
                &s.signature,
            ],
        )?;
    }
    Ok(())
}

/// Record proofs, replacing rows of the same index and kind.
pub(super) fn write_proofs(tx: &mut Transaction<'_>, proofs: &[StoredProof]) -> Result<()> {
    if proofs.is_empty() {
        return Ok(());
    }
    let rows = proofs.iter().map(|p| {
        Ok(vec![
            Box::new(to_i64(p.index)?) as Box<dyn ToSql + Sync + '_>,
            Box::new(p.kind.as_str()),
            Box::new(to_i64(p.subtree.start)?),
            Box::new(to_i64(p.subtree.end)?),
            Box::new(&p.proof),
        ])
    });
    copy_upsert::<MtcError>(
        tx,
        "proofs",
        "idx, kind, start, \"end\", proof",
        &[Type::INT8, Type::TEXT, Type::INT8, Type::INT8, Type::BYTEA],
        (
            "idx, kind",
            "start = excluded.start, \"end\" = excluded.\"end\", proof = excluded.proof",
        ),
        rows,
    )
}

/// Record certificates, replacing rows of the same index and kind.
pub(super) fn write_certificates(
    tx: &mut Transaction<'_>,
    certs: &[StoredCertificate],
) -> Result<()> {
    if certs.is_empty() {
        return Ok(());
    }
    let rows = certs.iter().map(|c| {
        Ok(vec![
            Box::new(to_i64(c.index)?) as Box<dyn ToSql + Sync + '_>,
            Box::new(c.kind.as_str()),
            Box::new(&c.der),
            Box::new(c.created),
        ])
    });
    copy_upsert::<MtcError>(
        tx,
        "certificates",
        "idx, kind, der, created",
        &[Type::INT8, Type::TEXT, Type::BYTEA, Type::INT8],
        (
            "idx, kind",
            "der = excluded.der, created = excluded.created",
        ),
        rows,
    )
}

pub(super) fn checkpoint_of(r: &Row) -> Result<StoredCheckpoint> {
    Ok(StoredCheckpoint {
        size: to_u64(r.try_get(0)?)?,
        root: blob_hash(r.try_get(1)?)?,
        note: r.try_get(2)?,
        created: r.try_get(3)?,
    })
}
