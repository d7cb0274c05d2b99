//! The CA's state: every certificate it issued (recorded in the transaction that releases
//! it), revocations, CRL numbers and signed CRLs, pre-signed OCSP responses.
//!
//! [`CaStore`] is what the CA logic and the commands use; [`SqliteCaStore`]
//! (`ca.db`, the default) and [`pg::PgCaStore`] (a PostgreSQL database, for a CA shared by
//! several hosts) implement it; [`open`] opens a `ca.db` and [`open_url`] a database
//! server, and callers see only the trait.

mod api;
#[cfg(feature = "postgres")]
pub mod pg;
#[cfg(feature = "postgres")]
mod pg_delivery;
#[cfg(feature = "postgres")]
mod pg_rows;
mod records;
mod sqlite;

use std::path::Path;

pub use api::{
    CaStore, CertRecord, CertStatus, CrlRecord, DeliveryNote, LintOverrides, OcspRecord, Pending,
    Result, RevokeOutcome, Revoked, StoreError, Undelivered,
};
pub use sqlite::SqliteCaStore;

/// Open (creating if needed) and migrate the CA store at `path` (a `ca.db` file).
pub fn open(path: &Path) -> Result<Box<dyn CaStore>> {
    Ok(Box::new(SqliteCaStore::open(path)?))
}

#[cfg(feature = "postgres")]
/// Open (creating its tables if the database is empty) and migrate the CA store in the
/// PostgreSQL database `url` names, with `password` when given, connecting through
/// `connector` (which speaks TLS or not).
pub fn open_url(
    url: &str,
    password: Option<&[u8]>,
    connector: pkit_store::postgres::Connector,
) -> Result<Box<dyn CaStore>> {
    Ok(Box::new(pg::PgCaStore::open(url, password, connector)?))
}
