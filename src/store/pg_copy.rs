//! Bulk rows into PostgreSQL with binary COPY: one stream per call instead of a round trip
//! per row. Rows that may replace others of the same key go through a temporary twin of
//! the table and one upsert from it, since COPY itself only inserts.

use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::{ToSql, Type};
use postgres::Transaction;

/// One row's values, in the order of the COPY's columns (bytes by reference: a row's DER
/// is not copied to be sent).
pub type CopyRow<'a> = Vec<Box<dyn ToSql + Sync + 'a>>;

/// Write `rows` (each in `types`' order) into `table (columns)` with binary COPY.
pub fn copy_in<'a, E: From<postgres::Error>>(
    tx: &mut Transaction<'_>,
    table: &str,
    columns: &str,
    types: &[Type],
    rows: impl Iterator<Item = Result<CopyRow<'a>, E>>,
) -> Result<(), E> {
    let sink = tx.copy_in(&format!(
        "COPY {table} ({columns}) FROM STDIN (FORMAT binary)"
    ))?;
    let mut w = BinaryCopyInWriter::new(sink, types);
    for row in rows {
        let row = row?;
        let refs: Vec<&(dyn ToSql + Sync)> = row.iter().map(|v| &**v).collect();
        w.write(&refs)?;
    }
    w.finish()?;
    Ok(())
}

/// Write `rows` into `table (columns)`, a row whose `key` columns match an existing one
/// replacing it (`update`: the `SET` list): COPY into a temporary table shaped like
/// `table`, emptied at commit, then one `INSERT … ON CONFLICT (key) DO UPDATE`.
pub fn copy_upsert<'a, E: From<postgres::Error>>(
    tx: &mut Transaction<'_>,
    table: &str,
    columns: &str,
    types: &[Type],
    (key, update): (&str, &str),
    rows: impl Iterator<Item = Result<CopyRow<'a>, E>>,
) -> Result<(), E> {
    let staging = format!("{table}_in");
    tx.batch_execute(&format!(
        "CREATE TEMP TABLE IF NOT EXISTS {staging} (LIKE {table}) ON COMMIT DELETE ROWS"
    ))?;
    copy_in(tx, &staging, columns, types, rows)?;
    tx.batch_execute(&format!(
        "INSERT INTO {table} ({columns}) SELECT {columns} FROM {staging}
         ON CONFLICT ({key}) DO UPDATE SET {update};
         TRUNCATE {staging}"
    ))?;
    Ok(())
}
