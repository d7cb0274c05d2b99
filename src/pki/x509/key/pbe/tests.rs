//! Unit tests of `pbe.rs`.

use super::*;
use crate::der::Writer;
use crate::key::encrypted::EncryptedPrivateKeyInfo;

#[test]
fn pkcs12_pbe_params_and_errors() {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.oid(&oids::PBE_SHA1_3DES);
            w.sequence(|w| {
                w.octet_string(&[1; 8]);
                w.integer_u64(2048);
            });
        });
        w.octet_string(&[0; 16]);
    });
    let der = w.finish();
    let e = EncryptedPrivateKeyInfo::from_der(&der).unwrap();
    match e.scheme().unwrap() {
        PbeScheme::Pkcs12 {
            cipher, iterations, ..
        } => {
            assert_eq!(cipher, PbeCipher::DesEde3Cbc);
            assert_eq!(iterations, 2048);
        }
        other => panic!("{other:?}"),
    }
    // Zero iterations are refused at the INTEGER, by offset.
    let mut zero = der.clone();
    let at = der.windows(4).position(|x| x == [2, 2, 8, 0]).unwrap();
    zero[at + 2] = 0;
    zero[at + 3] = 0;
    // 02 02 00 00 is also non-minimal; either way the error sits on that INTEGER.
    let e = EncryptedPrivateKeyInfo::from_der(&zero)
        .unwrap()
        .scheme()
        .unwrap_err();
    assert_eq!(e.offset, at + 2);
}
