//! What the CA store ([`crate::pki::ca::store`]) and the MTC log store
//! ([`crate::mtc::store`]) share: opening an SQLite database with pkit's settings and its
//! forward-only migrations ([`sqlite`]), and WAL checkpoints from a second connection for
//! bulk appends ([`wal_checkpoint`]). The stores' own tables and queries live with them.

#![forbid(unsafe_code)]

pub mod sqlite;
pub mod wal_checkpoint;
