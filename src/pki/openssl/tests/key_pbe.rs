//! The tests of `pkit_x509::key::pbe` that need a real backend (OpenSSL); the rest are unit tests beside `pbe.rs`.

use pkit_openssl::backend as openssl_backend;
use pkit_x509::backend::pbe::{Hash, PbeCipher};
use pkit_x509::backend::BackendError;
use pkit_x509::der::oid_registry as oids;
use pkit_x509::der::Writer;
use pkit_x509::key::cost;
use pkit_x509::key::encrypted::EncryptedPrivateKeyInfo;
use pkit_x509::key::pbe::*;

fn pkcs8(alg: &pkit_x509::der::Oid, private: &[u8]) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.integer_u64(0);
        w.sequence(|w| {
            w.oid(alg);
        });
        w.octet_string(private);
    });
    w.finish()
}

/// A PBES2 EncryptedPrivateKeyInfo over `plain`, built by hand.
fn encrypt_pbes2(plain: &[u8], password: &[u8]) -> Vec<u8> {
    let salt = [3u8; 16];
    let iv = [4u8; 16];
    let b = openssl_backend();
    let key = cost::pbkdf2(
        b,
        &cost::Allowance::new(),
        password,
        &salt,
        1000,
        Hash::Sha256,
        32,
    )
    .unwrap();
    let ct = b
        .pbe()
        .encrypt(PbeCipher::Aes256Cbc, &key, &iv, plain)
        .unwrap();
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.oid(&oids::PBES2);
            w.sequence(|w| {
                w.sequence(|w| {
                    w.oid(&oids::PBKDF2);
                    w.sequence(|w| {
                        w.octet_string(&salt);
                        w.integer_u64(1000);
                        w.sequence(|w| {
                            w.oid(&oids::HMAC_SHA256);
                            w.null();
                        });
                    });
                });
                w.sequence(|w| {
                    w.oid(&oids::AES256_CBC);
                    w.octet_string(&iv);
                });
            });
        });
        w.octet_string(&ct);
    });
    w.finish()
}

#[test]
fn pbes2_describe_and_decrypt() {
    let plain = pkcs8(&oids::ED25519, &[4, 2, 1, 2]);
    let der = encrypt_pbes2(&plain, b"pw");
    let e = EncryptedPrivateKeyInfo::from_der(&der).unwrap();
    let s = e.scheme().unwrap();
    match s {
        PbeScheme::Pbes2 {
            kdf: Kdf::Pbkdf2 {
                iterations, prf, ..
            },
            cipher,
            ..
        } => {
            assert_eq!(iterations, 1000);
            assert_eq!(prf_hash(prf.as_ref()), Some(Hash::Sha256));
            assert_eq!(cipher, Some(PbeCipher::Aes256Cbc));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        s.decrypt(
            openssl_backend(),
            &cost::Allowance::new(),
            Some(b"pw"),
            e.encrypted_data
        )
        .unwrap(),
        plain
    );
    match s.decrypt(
        openssl_backend(),
        &cost::Allowance::new(),
        Some(b"wrong"),
        e.encrypted_data,
    ) {
        Err(BackendError::BadPassword(_)) => {}
        Ok(p) => assert_ne!(p, plain),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn unknown_scheme_is_described_not_decrypted() {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.oid(&oids::SHA256);
        });
        w.octet_string(&[0; 16]);
    });
    let der = w.finish();
    let e = EncryptedPrivateKeyInfo::from_der(&der).unwrap();
    let s = e.scheme().unwrap();
    assert!(matches!(s, PbeScheme::Unknown(_)));
    assert!(matches!(
        s.decrypt(
            openssl_backend(),
            &cost::Allowance::new(),
            Some(b"x"),
            e.encrypted_data
        ),
        Err(BackendError::Unsupported(_))
    ));
}
