//! What the describe tests share: a file of `tests/data` read, its kind checked, and
//! described through the public API with the OpenSSL backend.

#![allow(dead_code)] // Each test file uses its share.

use pkit_describe::{describe, Ctx, Described};
use pkit_x509::detect::{self, Kind};

/// The bytes of `tests/data/<rel>`, which must sniff as `kind`.
pub fn data(rel: &str, kind: Kind) -> Vec<u8> {
    let path = format!("{}/../../../tests/data/{rel}", env!("CARGO_MANIFEST_DIR"));
    let der = std::fs::read(&path).unwrap();
    assert_eq!(detect::sniff(&der), kind, "{rel}");
    der
}

/// Describing now, strictly, public parts only, with the OpenSSL backend.
pub fn ctx() -> Ctx<'static> {
    Ctx {
        now: pkit_der::Time::now(),
        show_private: false,
        password: None,
        lenient: false,
        backend: pkit_openssl::backend(),
    }
}

/// `tests/data/<rel>`, which must sniff as `kind`, described.
pub fn describe_data(rel: &str, kind: Kind) -> Described {
    describe(kind, &data(rel, kind), &ctx()).unwrap()
}
