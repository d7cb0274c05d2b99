//! What pkit's CA store (`pkit::pki::ca::store`), its MTC log store (`pkit::mtc::store`)
//! and its commands' output files share: opening an SQLite database with pkit's settings
//! and its forward-only migrations ([`sqlite`]), connecting to a PostgreSQL server and
//! versioning a store's tables there ([`postgres`]), libpq's TLS parameters that its
//! client does not know ([`pg_ssl`]), bulk rows by binary COPY ([`pg_copy`]), its errors
//! as one line
//! ([`pg_error`]), why either could not be opened
//! ([`open_error`]), WAL checkpoints from a second connection
//! for bulk appends and from a thread of their own for a server's connections
//! ([`wal_checkpoint`]), and files that appear whole or not at all
//! ([`atomic_file`]), and which process owns half-done work ([`process`]). The stores'
//! own tables and queries live with them.
//!
//! A database opened with pkit's settings and its schema moved forward, and a file that
//! appears whole or not at all:
//!
//! ```
//! use pkit_store::{atomic_file, sqlite};
//!
//! let dir = std::env::temp_dir().join(format!("pkit-store-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let migrations = ["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"];
//! let db = sqlite::open_versioned(&dir.join("notes.db"), &migrations)?;
//! db.execute("INSERT INTO notes (text) VALUES ('hello')", [])?;
//! let version: i64 = db.query_row("PRAGMA user_version", [], |r| r.get(0))?;
//! assert_eq!(version, 1);
//!
//! let out = dir.join("out.txt");
//! atomic_file::create(&out, false, false, |w| w.write_all(b"whole"))?;
//! // Without `replace`, an existing file is never touched.
//! assert!(atomic_file::create(&out, false, false, |w| w.write_all(b"x")).is_err());
//! assert_eq!(std::fs::read(&out)?, b"whole");
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

pub mod atomic_file;
pub mod open_error;
#[cfg(feature = "postgres")]
pub mod pg_copy;
#[cfg(feature = "postgres")]
pub mod pg_error;
#[cfg(feature = "postgres")]
pub mod pg_ssl;
#[cfg(feature = "postgres")]
pub mod pg_statements;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod process;
pub mod sqlite;
pub mod url;
pub mod wal_checkpoint;
