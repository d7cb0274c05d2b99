//! The tests of `pkit_x509::key::load` that need a real backend: OpenSSL.

use pkit_openssl::backend as openssl_backend;
use pkit_x509::backend::BackendError;
use pkit_x509::der::Writer;
use pkit_x509::key::load::*;

/// A traditional DSA key (as `openssl pkey -traditional -outform DER` writes one) is an
/// algorithm pkit lacks (exit 5), not a malformed file (exit 3).
#[test]
fn traditional_dsa_keys_are_unsupported_not_malformed() {
    let mut w = Writer::new();
    w.sequence(|w| {
        for n in [0, 23, 11, 4, 9, 3] {
            w.integer_u64(n);
        }
    });
    match load_private(openssl_backend(), &w.finish(), None) {
        Err(BackendError::Unsupported(m)) => {
            assert!(
                m.starts_with("unsupported key algorithm dsa (1.2.840.10040.4.1)"),
                "{m}"
            )
        }
        other => panic!("{other:?}"),
    }
    // Seven INTEGERs are neither DSA nor RSA: malformed.
    let mut w = Writer::new();
    w.sequence(|w| {
        for n in 0..7 {
            w.integer_u64(n);
        }
    });
    assert!(matches!(
        load_private(openssl_backend(), &w.finish(), None),
        Err(BackendError::BadKeyAt(_))
    ));
}
