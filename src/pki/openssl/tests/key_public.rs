//! The tests of `pkit_x509::key::public` that need a real backend: OpenSSL.

use pkit_openssl as openssl;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::BackendError;
use pkit_x509::key::public::*;

#[test]
fn parts_round_trip_through_spkis_openssl_made() {
    let be = openssl::backend();
    for alg in [
        Algorithm::EcdsaP256,
        Algorithm::EcdsaP384,
        Algorithm::Ed25519,
        Algorithm::Rsa2048,
    ] {
        let spki = be.generate(alg).unwrap().public_key_der().unwrap();
        let parts = PublicParts::of_spki(&spki).unwrap();
        assert_eq!(parts.algorithm().unwrap(), alg);
        assert_eq!(parts.to_spki(), spki, "{alg}");
    }
    let ml = be
        .generate(Algorithm::MlDsa44)
        .unwrap()
        .public_key_der()
        .unwrap();
    assert!(matches!(
        PublicParts::of_spki(&ml),
        Err(BackendError::Unsupported(_))
    ));
}

#[test]
fn ecdsa_signatures_convert_both_ways() {
    let be = openssl::backend();
    let key = be.generate(Algorithm::EcdsaP256).unwrap();
    for _ in 0..32 {
        let der = key.sign(b"message").unwrap();
        let raw = ecdsa_der_to_raw(&der, 32).unwrap();
        assert_eq!(raw.len(), 64);
        assert_eq!(ecdsa_raw_to_der(&raw), der);
    }
    // A negative r, an r too long for the curve, trailing bytes: none convert.
    assert_eq!(
        ecdsa_der_to_raw(&[0x30, 0x06, 2, 1, 0x80, 2, 1, 1], 32),
        None
    );
    let mut long = vec![0x30, 0x26, 2, 0x21, 0x01];
    long.extend([0x11; 32]);
    long.extend([2, 1, 1]);
    assert_eq!(ecdsa_der_to_raw(&long, 32), None);
    assert_eq!(
        ecdsa_der_to_raw(&[0x30, 0x06, 2, 1, 1, 2, 1, 1, 0], 32),
        None
    );
    assert_eq!(
        ecdsa_raw_to_der(&[0u8; 64]),
        vec![0x30, 0x06, 2, 1, 0, 2, 1, 0]
    );
}
