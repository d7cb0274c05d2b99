//! `pkit bench`: the pipelines of the subcommands, timed stage by stage, and the raw
//! limits (key generation, signing, verification, hashing, parsing) they are judged
//! against. Every stage calls the library code the subcommands call — the batch
//! pipeline's signing stage (`pki::ca::batch::Batch::sign`), the CA store, the OCSP answer
//! (`pki::ca::ocsp_answer::ask`, then the responder's `build_tbs` and `sign_tbs`),
//! `verify_signed`, `Certificate::from_der` — so a figure here is a figure for
//! `pkit issue`, `pkit ocsp` and `pkit parse`. No pipeline is written a second time here.
//!
//! Layout: [`harness`] times one cell (warm-up, repeat until the minimum time, mean / min
//! / max) and carries the backend under measurement; [`machine`] describes where it ran; one file per bench ([`crypto`], [`parse`],
//! [`x509`], [`verify`], [`compare`], [`backends`]); [`report`] holds the results and renders them as the seed
//! documents' markdown tables, a terminal table, or JSON.
//!
//! Time the DER primitives (the `asn1` bench) for a few milliseconds a cell and print
//! the seed documents' table:
//!
//! ```
//! use pkit_bench::harness::Harness;
//! use pkit_openssl as openssl;
//! use std::time::Duration;
//!
//! let h = Harness {
//!     backend: openssl::backend(),
//!     subscriber_keys: openssl::backend(),
//!     min_time: Duration::from_millis(2),
//!     only: None,
//!     progress: &|_| {},
//! };
//! let table = pkit_bench::asn1::table(&h).unwrap();
//! assert_eq!(table.title, "ASN.1 Primitive Performance");
//! assert_eq!(table.rows[0][0], "Tag/length, short length (1 byte)");
//! assert_eq!(table.json["rows"].as_array().unwrap().len(), table.rows.len());
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

/// The DER engine, under the path the modules use.
use pkit_der as der;

pub mod asn1;
pub mod backends;
pub mod beside;
pub mod bundles;
pub mod compare;
pub mod crypto;
pub mod datasets;
pub mod ed25519_batch;
pub mod harness;
pub mod machine;
pub mod mtc;
pub mod mtc_size;
pub mod parse;
pub mod parse_tables;
pub mod recorder;
pub mod report;
pub mod scratch;
pub mod sizes;
pub mod tables;
pub mod verify;
pub mod x509;

use pkit_ca::issuer::CaError;
use pkit_ca::store::StoreError;
use pkit_x509::backend::BackendError;
use std::fmt;

/// Why a bench stopped. A stage whose output fails its own check (a signature that does not
/// verify, a row count that does not match) is a `Check` failure: the figures would be
/// meaningless.
#[non_exhaustive]
#[derive(Debug)]
pub enum BenchError {
    /// The crypto backend failed.
    Backend(BackendError),
    /// The CA failed to issue.
    Ca(CaError),
    /// The CA's records failed.
    Store(StoreError),
    /// Reading inputs or writing the database files.
    Io(String),
    /// Input (a certificate file) that does not parse.
    Parse(String),
    /// A stage's output failed its own check: the figures would be meaningless.
    Check(String),
    /// The MTC library failed.
    Mtc(pkit_mtc::MtcError),
    /// Arguments that do not describe a bench (an unknown operation name).
    Usage(String),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Backend(e) => write!(f, "{e}"),
            BenchError::Ca(e) => write!(f, "{e}"),
            BenchError::Store(e) => write!(f, "{e}"),
            BenchError::Io(m)
            | BenchError::Parse(m)
            | BenchError::Check(m)
            | BenchError::Usage(m) => f.write_str(m),
            BenchError::Mtc(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BenchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BenchError::Backend(e) => Some(e),
            BenchError::Ca(e) => Some(e),
            BenchError::Store(e) => Some(e),
            BenchError::Mtc(e) => Some(e),
            BenchError::Io(_)
            | BenchError::Parse(_)
            | BenchError::Check(_)
            | BenchError::Usage(_) => None,
        }
    }
}

impl From<BackendError> for BenchError {
    fn from(e: BackendError) -> Self {
        BenchError::Backend(e)
    }
}

impl From<CaError> for BenchError {
    fn from(e: CaError) -> Self {
        BenchError::Ca(e)
    }
}

impl From<StoreError> for BenchError {
    fn from(e: StoreError) -> Self {
        BenchError::Store(e)
    }
}

impl From<pkit_mtc::MtcError> for BenchError {
    fn from(e: pkit_mtc::MtcError) -> Self {
        BenchError::Mtc(e)
    }
}

/// A result with [`BenchError`].
pub type Result<T> = std::result::Result<T, BenchError>;
