//! The tests of `pkit_x509::key::cost` that need a real backend: OpenSSL.

use pkit_openssl::backend as openssl_backend;
use pkit_x509::backend::pbe::{Hash, Pkcs12Purpose};
use pkit_x509::backend::BackendError;
use pkit_x509::key::cost::*;

use pkit_x509::der::unhex as hex;

#[test]
fn scrypt_limits() {
    let b = openssl_backend();
    assert!(matches!(
        scrypt(b, &Allowance::new(), b"p", b"s", 1 << 30, 8, 1, 16),
        Err(BackendError::Unsupported(_))
    ));
    assert!(scrypt(b, &Allowance::new(), b"p", b"s", 1000, 8, 1, 16).is_err());
    // Within each bound, beyond the work one input may ask for: 2^20 · 8.
    assert!(matches!(
        scrypt(b, &Allowance::new(), b"p", b"s", 1 << 20, 8, 1, 16),
        Err(BackendError::Unsupported(_))
    ));
}

#[test]
fn iteration_limits() {
    let b = openssl_backend();
    assert!(matches!(
        pbkdf2(
            b,
            &Allowance::new(),
            b"p",
            b"s",
            MAX_ITERATIONS + 1,
            Hash::Sha256,
            32
        ),
        Err(BackendError::Unsupported(_))
    ));
    assert!(matches!(
        pbkdf2(b, &Allowance::new(), b"p", b"s", 0, Hash::Sha256, 32),
        Err(BackendError::BadKey(_))
    ));
    assert!(matches!(
        pkcs12_kdf(
            b,
            &Allowance::new(),
            b"",
            b"s",
            MAX_ITERATIONS + 1,
            Hash::Sha1,
            Pkcs12Purpose::Key,
            8
        ),
        Err(BackendError::Unsupported(_))
    ));
}

#[test]
fn one_allowance_bounds_the_sum_of_derivations() {
    // A PKCS#12 file of many shrouded keys, each within the bound of one derivation,
    // once took a second per key: the sum is bounded too.
    let b = openssl_backend();
    let a = Allowance::new();
    let half = MAX_WORK / 2;
    assert!(pkcs12_kdf(b, &a, b"", b"s", half, Hash::Sha1, Pkcs12Purpose::Key, 8).is_ok());
    assert!(pbkdf2(b, &a, b"p", b"s", half, Hash::Sha256, 32).is_ok());
    assert!(matches!(
        pbkdf2(b, &a, b"p", b"s", 1, Hash::Sha256, 32),
        Err(BackendError::Unsupported(_))
    ));
    assert!(pbkdf2(b, &Allowance::new(), b"p", b"s", 1, Hash::Sha256, 32).is_ok());
}

#[test]
fn pkcs12_passwords() {
    let pw = bmp_password(Some(b"smeg")).unwrap();
    assert_eq!(pw, [0, b's', 0, b'm', 0, b'e', 0, b'g', 0, 0]);
    // Empty and absent passwords differ.
    let b = openssl_backend();
    let salt = hex("0a58cf64530d823f");
    let empty = bmp_password(Some(b"")).unwrap();
    let absent = bmp_password(None).unwrap();
    assert_eq!((empty.len(), absent.len()), (2, 0));
    let a = pkcs12_kdf(
        b,
        &Allowance::new(),
        &empty,
        &salt,
        1,
        Hash::Sha1,
        Pkcs12Purpose::Mac,
        20,
    )
    .unwrap();
    let c = pkcs12_kdf(
        b,
        &Allowance::new(),
        &absent,
        &salt,
        1,
        Hash::Sha1,
        Pkcs12Purpose::Mac,
        20,
    )
    .unwrap();
    assert_ne!(a, c);
    assert!(bmp_password(Some(&[0xff])).is_err());
}
