//! The tests of `pkit_x509::pkcs12` that need a real backend: OpenSSL.

use pkit_openssl::backend;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::pbe::Hash;
use pkit_x509::der::Reader;
use pkit_x509::key::cost;
use pkit_x509::key::ml_dsa::MlDsaKeyFormat;
use pkit_x509::pkcs12::write::*;
use pkit_x509::pkcs12::{MacScheme, Pfx};

#[test]
fn the_mac_verifies_and_a_wrong_password_fails_it() {
    let be = backend();
    let key = be.generate(Algorithm::EcdsaP256).unwrap();
    let pkcs8 = key.to_pkcs8_der(MlDsaKeyFormat::default()).unwrap();
    // The MAC covers bytes, whatever they hold.
    let cert = vec![0x30, 0x03, 0x02, 0x01, 0x01];
    let der = encode_pfx(
        be,
        &Contents {
            key_pkcs8: &pkcs8,
            cert: &cert,
            chain: &[],
            friendly_name: "leaf",
        },
        b"secret",
    )
    .unwrap();
    let pfx = Pfx::parse(Reader::new(&der)).unwrap();
    let mac = pfx.mac_data.as_ref().unwrap();
    let scheme = mac.scheme().unwrap();
    assert!(matches!(scheme, MacScheme::Pkcs12 { hash: Hash::Sha256 }));
    let content = pfx.auth_safe_content().unwrap();
    let allowance = cost::Allowance::new();
    let ok = |pw: &[u8]| {
        mac.verify(be, &allowance, &scheme, Some(pw), &content.bytes)
            .unwrap()
    };
    assert!(ok(b"secret"));
    assert!(!ok(b"wrong"));
}
