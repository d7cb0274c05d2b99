//! The bodies of the fuzz targets under `fuzz/fuzz_targets/`, one function per target,
//! each taking the fuzzer's bytes and doing with them what pkit does with such input:
//! describe it with the function `pkit parse` calls, lint it as `pkit lint` does, decrypt with a fixed
//! password, build paths, answer HTTP requests. They live in the library, not in the
//! fuzz crate, so that `tests/fuzz_corpus.rs` replays every stored corpus file through
//! the same code on the stable toolchain (that is how CI runs the corpora), and so that
//! a target is one line. docs/fuzzing.md says how to add one.
//!
//! A target returns nothing: an input pkit refuses is an ordinary outcome. What the
//! fuzzer looks for is a panic, an allocation over 1 GiB or an input that takes over a
//! second; the few `assert!`s here state properties pkit promises (a PEM block written
//! back reads the same), so that breaking one is a crash too.

#![forbid(unsafe_code)]
#![doc(hidden)]

mod der;
mod http;
mod input;
mod lint;
mod mtc;
mod objects;
mod verify;

pub use der::{der_lenient, der_strict};
pub use http::{fixture_seeds, mtc_http, ocsp_http};
pub use input::detect;
pub use lint::lint;
pub use mtc::{mtc_cert, mtc_checkpoint, mtc_proof, mtc_tile};
pub use objects::{certificate, crl, csr, ocsp_request, ocsp_response, pkcs12, pkcs7, pkcs8, spki};
pub use verify::verify_pool;

/// A target's body: the fuzzer's bytes in, nothing out.
pub type Target = fn(&[u8]);

/// Every target by the name of its file in `fuzz/fuzz_targets/` and of its corpus
/// directory `fuzz/corpus/<name>/`.
pub const TARGETS: &[(&str, Target)] = &[
    ("der_strict", der_strict),
    ("der_lenient", der_lenient),
    ("detect", detect),
    ("certificate", certificate),
    ("csr", csr),
    ("crl", crl),
    ("ocsp_request", ocsp_request),
    ("ocsp_response", ocsp_response),
    ("pkcs7", pkcs7),
    ("pkcs12", pkcs12),
    ("spki", spki),
    ("pkcs8", pkcs8),
    ("mtc_cert", mtc_cert),
    ("mtc_proof", mtc_proof),
    ("mtc_checkpoint", mtc_checkpoint),
    ("mtc_tile", mtc_tile),
    ("verify_pool", verify_pool),
    ("lint", lint),
    ("ocsp_http", ocsp_http),
    ("mtc_http", mtc_http),
];
