//! What the CA store ([`crate::pki::ca::store`]), the MTC log store ([`crate::mtc::store`])
//! and the commands' output files share: opening an SQLite database with pkit's settings
//! and its forward-only migrations ([`sqlite`]), connecting to a PostgreSQL server and
//! versioning a store's tables there ([`postgres`]), libpq's TLS parameters that its
//! client does not know ([`pg_ssl`]), bulk rows by binary COPY ([`pg_copy`]), its errors
//! as one line
//! ([`pg_error`]), why either could not be opened
//! ([`open_error`]), WAL checkpoints from a second connection
//! for bulk appends ([`wal_checkpoint`]), and files that appear whole or not at all
//! ([`atomic_file`]), and which process owns half-done work ([`process`]). The stores' own tables and queries live with them.

#![forbid(unsafe_code)]

pub mod atomic_file;
pub mod open_error;
pub mod pg_copy;
pub mod pg_error;
pub mod pg_ssl;
pub mod postgres;
pub mod process;
pub mod sqlite;
pub mod wal_checkpoint;
