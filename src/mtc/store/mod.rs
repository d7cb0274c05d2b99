//! The MTC issuance log's storage, behind [`LogStore`] ([`api`]): what issuance
//! (`mtc::issuer`), the `pkit mtc` commands and the benches read and write, with no
//! database in sight. [`sqlite`] keeps it in `mtc.db` ([`open`]), [`pg`] in a PostgreSQL
//! database ([`open_url`]), so neither the MTC logic nor the commands change.
//!
//! A log holds the entries (the MTCLogEntry bytes, the subject's SPKI and the leaf hash,
//! by index), the complete interior nodes of its tree (read through the
//! [`crate::tree::NodeSource`] every log store is), signed checkpoints with the cosignatures over
//! the covering subtrees they added, landmarks, a few `meta` values (the CA ID, the log
//! number), and a record of what was handed out: the MTCProof and the certificate of
//! the latest issue of each entry index and [`CertKind`]. Those rows are a record, never
//! a cache that issuance reads back.

pub mod api;
#[cfg(feature = "postgres")]
pub mod pg;
#[cfg(feature = "postgres")]
mod pg_rows;
pub mod sqlite;
mod values;

use super::error::Result;
use std::path::Path;

pub use api::{
    CertKind, LogStore, NewEntry, SignedSubtree, StoredCertificate, StoredCheckpoint, StoredProof,
    SubtreeSignature,
};
pub use sqlite::SqliteLogStore;

/// Open (creating if needed, and migrating) the log at `path`: `mtc.db`, in SQLite.
pub fn open(path: &Path) -> Result<Box<dyn LogStore>> {
    Ok(Box::new(SqliteLogStore::open(path)?))
}

#[cfg(feature = "postgres")]
/// Open (creating its tables if the database is empty) and migrate the log in the
/// PostgreSQL database `url` names, with `password` when given, connecting through
/// `connector` (which speaks TLS or not).
pub fn open_url(
    url: &str,
    password: Option<&[u8]>,
    connector: pkit_store::postgres::Connector,
) -> Result<Box<dyn LogStore>> {
    Ok(Box::new(pg::PgLogStore::open(url, password, connector)?))
}
