//! The tests of `pkit_x509::key::encrypted` that need a real backend: OpenSSL.

use pkit_openssl::backend as openssl_backend;
use pkit_x509::der::oid_registry as oids;
use pkit_x509::key::encrypted::*;
use pkit_x509::key::ml_dsa::MlDsaPrivateKey;
use pkit_x509::key::pbe::Kdf;
use pkit_x509::key::pbe::PbeScheme;

#[test]
fn written_keys_read_back() {
    let plain = MlDsaPrivateKey::Seed(&[0; 32]).to_pkcs8(&oids::ML_DSA_44);
    assert!(!is_encrypted(&plain));
    for kdf in [KdfChoice::Pbkdf2, KdfChoice::Scrypt] {
        let b = openssl_backend();
        let der = encrypt(b, &plain, b"pw", kdf).unwrap();
        assert!(is_encrypted(&der));
        let e = EncryptedPrivateKeyInfo::from_der(&der).unwrap();
        let scheme = e.scheme().unwrap();
        match (kdf, scheme) {
            (
                KdfChoice::Pbkdf2,
                PbeScheme::Pbes2 {
                    kdf: Kdf::Pbkdf2 { iterations, .. },
                    ..
                },
            ) => {
                assert_eq!(iterations, PBKDF2_ITERATIONS)
            }
            (
                KdfChoice::Scrypt,
                PbeScheme::Pbes2 {
                    kdf: Kdf::Scrypt { cost, .. },
                    ..
                },
            ) => {
                assert_eq!(cost, SCRYPT_N)
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            scheme
                .decrypt(
                    b,
                    &pkit_x509::key::cost::Allowance::new(),
                    Some(b"pw"),
                    e.encrypted_data
                )
                .unwrap(),
            plain
        );
        // Fresh salt and IV each time.
        assert_ne!(encrypt(b, &plain, b"pw", kdf).unwrap(), der);
    }
}
