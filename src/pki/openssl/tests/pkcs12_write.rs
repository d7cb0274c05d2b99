//! The tests of `pkit_x509::pkcs12` that need a real backend: OpenSSL.

use pkit_openssl::backend;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::pbe::Hash;
use pkit_x509::der::Reader;
use pkit_x509::key::cost;
use pkit_x509::key::ml_dsa::MlDsaKeyFormat;
use pkit_x509::key::pbe::PbeScheme;
use pkit_x509::pkcs12::write::*;
use pkit_x509::pkcs12::{authenticated_safe, EncryptedData, MacScheme, Pfx};

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
        Protection::Modern,
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

#[test]
fn the_legacy_form_is_triple_des_with_a_sha1_mac_and_reads_back() {
    let be = backend();
    let key = be.generate(Algorithm::EcdsaP256).unwrap();
    let pkcs8 = key.to_pkcs8_der(MlDsaKeyFormat::default()).unwrap();
    let cert = vec![0x30, 0x03, 0x02, 0x01, 0x01];
    let der = encode_pfx(
        be,
        &Contents {
            key_pkcs8: &pkcs8,
            cert: &cert,
            chain: &[],
            friendly_name: "leaf",
        },
        b"s\xc3\xa9cret",
        Protection::Legacy,
    )
    .unwrap();
    let pfx = Pfx::parse(Reader::new(&der)).unwrap();
    let mac = pfx.mac_data.as_ref().unwrap();
    let scheme = mac.scheme().unwrap();
    assert!(matches!(scheme, MacScheme::Pkcs12 { hash: Hash::Sha1 }));
    assert_eq!(mac.mac_salt.len(), 8);
    let content = pfx.auth_safe_content().unwrap();
    let allowance = cost::Allowance::new();
    let ok = |pw: &[u8]| {
        mac.verify(be, &allowance, &scheme, Some(pw), &content.bytes)
            .unwrap()
    };
    assert!(ok("s\u{e9}cret".as_bytes()));
    assert!(!ok(b"secret"));
    // The certificates' safe: triple DES under the PKCS#12 KDF, and it decrypts.
    let safes = authenticated_safe(Reader::new(&content.bytes)).unwrap();
    let ed = EncryptedData::from_content_info(&safes[0]).unwrap();
    let PbeScheme::Pkcs12 {
        cipher, iterations, ..
    } = ed.scheme().unwrap()
    else {
        panic!("not a PKCS#12 PBE: {:?}", ed.scheme());
    };
    assert_eq!(cipher, pkit_x509::backend::pbe::PbeCipher::DesEde3Cbc);
    assert_eq!(iterations, 2048);
    let plain = ed
        .scheme()
        .unwrap()
        .decrypt(
            be,
            &allowance,
            Some("s\u{e9}cret".as_bytes()),
            &ed.encrypted_content.unwrap().bytes,
        )
        .unwrap();
    assert!(plain.windows(cert.len()).any(|w| w == cert));
}
