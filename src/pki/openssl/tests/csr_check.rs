//! `pkit_x509::csr::read_checked` with real signatures: a CSR proves possession of its
//! key or is refused, and what it asks for comes back.

use pkit_openssl as openssl;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::PrivateKey;
use pkit_x509::csr::{read_checked, CsrError};
use pkit_x509::der::{oid_registry as oids, tag, Writer};

/// A CSR for `key` asking for basicConstraints, signed by `signer` (Ed25519).
fn csr(key: &dyn PrivateKey, signer: &dyn PrivateKey, alg: &pkit_x509::der::Oid) -> Vec<u8> {
    let spki = key.public_key_der().unwrap();
    let mut w = Writer::new();
    w.sequence(|w| {
        w.integer_u64(0);
        w.sequence(|w| {
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(&oids::AT_COMMON_NAME);
                    w.utf8_string("req");
                });
            });
        });
        w.raw(&spki);
        w.tlv(tag::implicit_constructed(0), |w| {
            w.sequence(|w| {
                w.oid(&oids::PKCS9_EXTENSION_REQUEST);
                w.set(|w| {
                    w.sequence(|w| {
                        w.sequence(|w| {
                            w.oid(&oids::CE_BASIC_CONSTRAINTS);
                            w.octet_string(&[0x30, 0x00]);
                        });
                    });
                });
            });
        });
    });
    let info = w.finish();
    let sig = signer.sign(&info).unwrap();
    let mut w = Writer::new();
    w.sequence(|w| {
        w.raw(&info);
        w.sequence(|w| {
            w.oid(alg);
        });
        w.bit_string(&sig);
    });
    w.finish()
}

#[test]
fn a_csr_proves_possession_or_is_refused() {
    let be = openssl::backend();
    let key = be.generate(Algorithm::Ed25519).unwrap();
    let other = be.generate(Algorithm::Ed25519).unwrap();
    let good = csr(key.as_ref(), key.as_ref(), &oids::ED25519);
    let r = read_checked(be, &good).unwrap();
    assert_eq!(r.spki, key.public_key_der().unwrap());
    assert_eq!(r.extensions.len(), 1);
    assert_eq!(r.extensions[0].0, oids::CE_BASIC_CONSTRAINTS.as_bytes());

    let forged = csr(key.as_ref(), other.as_ref(), &oids::ED25519);
    let e = read_checked(be, &forged).unwrap_err();
    assert!(matches!(e, CsrError::BadSignature), "{e}");
    assert_eq!(
        e.to_string(),
        "the CSR's signature does not verify with its own key"
    );

    let unknown = csr(key.as_ref(), key.as_ref(), &oids::CE_BASIC_CONSTRAINTS);
    let e = read_checked(be, &unknown).unwrap_err();
    assert!(matches!(e, CsrError::UnsupportedAlgorithm(_)), "{e}");

    assert!(matches!(
        read_checked(be, &good[..good.len() - 1]),
        Err(CsrError::Der(_))
    ));
}
