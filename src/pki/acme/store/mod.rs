//! The ACME server's state: accounts, orders, authorizations, challenges, issued
//! certificates and nonces, shared by every worker and every `acme serve` process on the
//! CA, so that a nonce one issued another accepts, and an order is finalized by
//! whichever claims it first. Beside the CA's records: in `DIR/acme.db` (SQLite, WAL)
//! when they are in `DIR/ca.db`, in the same PostgreSQL database when they are on a
//! server ([`pg`], tables `acme_*`).

mod api;
#[cfg(feature = "postgres")]
mod pg;
mod sqlite;

#[cfg(feature = "postgres")]
pub use pg::PgAcme;
pub use sqlite::SqliteAcme;

pub use api::*;
