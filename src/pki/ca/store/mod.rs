//! The CA's state: every certificate it issued (recorded in the transaction that releases
//! it), revocations, CRL numbers and signed CRLs, pre-signed OCSP responses.
//!
//! [`CaStore`] is what the CA logic and the commands use; [`sqlite::SqliteCaStore`]
//! (`ca.db`) implements it, and [`open`] picks the implementation for a location, so a
//! database server can be added beside SQLite without touching its callers.

pub mod api;
pub mod sqlite;
mod sqlite_delivery;
mod sqlite_rows;

use std::path::Path;

pub use api::{
    CaStore, CertRecord, CertStatus, CrlRecord, DeliveryNote, OcspRecord, Pending, Result,
    RevokeOutcome, Revoked, StoreError, Undelivered, CRL_DIR,
};
pub use sqlite::SqliteCaStore;

/// Open (creating if needed) and migrate the CA store at `path` (a `ca.db` file).
pub fn open(path: &Path) -> Result<Box<dyn CaStore>> {
    Ok(Box::new(SqliteCaStore::open(path)?))
}
