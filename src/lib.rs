//! pkit: a PKI toolkit. This library is the workspace's crates under one roof, at the
//! paths pkit has always had: `der` (the DER engine, `pkit-der`), `pki` (X.509 objects,
//! keys and the crypto backend, `pkit-x509`; the PKCS#11 backend, `pkit-pkcs11`; the CA,
//! `pkit-ca`; path validation and revocation, `pkit-verify`), `store` (`pkit-store`),
//! `mtc` (Merkle Tree Certificates, `pkit-mtc`), `describe` (the `parse` model,
//! `pkit-describe`), `serve` (the HTTP services, `pkit-serve`), `acme` (the ACME server,
//! `pkit-acme`), `tls` (TLS as a client, `pkit-tls`) and `bench`
//! (`pkit-bench`); and the fuzz targets' bodies. The binary's `cmd` module turns
//! arguments into calls and results into text or JSON. `docs/architecture.md` is the
//! map; `tests/architecture.rs` holds the code to it.
//!
//! Features, all on by default: `postgres` (stores on a PostgreSQL server, and `bench`),
//! `pkcs11` (keys in tokens), `serve` (the HTTP services), `fuzzing` (the fuzz targets'
//! bodies) and `cli` (the binary, which needs the others). A library user who wants none
//! of them — nor PostgreSQL's, cryptoki's, hyper's or clap's code — sets
//! `default-features = false`; a library user can also depend on the crates alone.

#![forbid(unsafe_code)]

/// The ACME server (src/pki/acme).
#[cfg(feature = "serve")]
pub use pkit_acme as acme;
/// `pkit bench` (src/bench).
#[cfg(feature = "postgres")]
pub use pkit_bench as bench;
/// The DER engine (src/der), under its old path so `pkit::der::…` stays valid.
pub use pkit_der as der;
/// The `parse` model (src/pki/describe).
pub use pkit_describe as describe;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
/// The linter (src/pki/lint): RFC 5280 and CA/Browser Forum rules for certificates, CRLs,
/// OCSP responses and CSRs.
pub use pkit_lint as lint;
/// Merkle Tree Certificates (src/mtc), under its old path.
pub use pkit_mtc as mtc;
pub mod pki;
/// The HTTP services (src/serve).
#[cfg(feature = "serve")]
pub use pkit_serve as serve;
/// What the stores share (src/store), under its old path.
pub use pkit_store as store;
/// TLS as a client on the linked OpenSSL (src/tls): a server's chain for `--connect`.
pub use pkit_tls as tls;
