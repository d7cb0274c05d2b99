//! pkit: a PKI toolkit. The library holds everything but argument parsing and printing:
//! `der` (bytes and tags) ← `pki` (X.509, CRL, OCSP, PKCS, keys, the crypto backend, the
//! CA) ← `mtc` (Merkle Tree Certificates) ← `describe` (the `parse` model) ← `bench` (timed
//! pipelines), with `store` (SQLite
//! machinery, atomic files) beside `pki`. The binary's `cmd` module turns arguments into
//! calls and results into text or JSON. `docs/architecture.md` is the map;
//! `tests/architecture.rs` holds the code to it.

/// `pkit bench` (crates/bench).
pub use pkit_bench as bench;
/// The DER engine (crates/der), under its old path so `pkit::der::…` stays valid.
pub use pkit_der as der;
/// The `parse` model (crates/describe).
pub use pkit_describe as describe;
#[doc(hidden)]
pub mod fuzzing;
/// Merkle Tree Certificates (crates/mtc), under its old path.
pub use pkit_mtc as mtc;
pub mod pki;
/// The HTTP services (crates/serve).
pub use pkit_serve as serve;
/// What the stores share (crates/store), under its old path.
pub use pkit_store as store;
