//! The tests of `pkit_x509::pkcs12` that need a real backend (OpenSSL); the rest are unit tests beside `pkcs12.rs`.

use pkit_openssl::backend as openssl_backend;
use pkit_x509::backend::pbe::{Hash, Pkcs12Purpose};
use pkit_x509::der::oid_registry as oids;
use pkit_x509::der::{tag, Reader};
use pkit_x509::der::{Deviations, Writer};
use pkit_x509::key::cost;
use pkit_x509::pkcs12::*;

fn bag(
    w: &mut Writer,
    id: &pkit_x509::der::Oid,
    value: impl FnOnce(&mut Writer),
    name: Option<&str>,
) {
    w.sequence(|w| {
        w.oid(id);
        w.explicit(0, value);
        if let Some(n) = name {
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(&oids::PKCS9_FRIENDLY_NAME);
                    w.set(|w| {
                        w.primitive(
                            tag::BMP_STRING,
                            &n.encode_utf16()
                                .flat_map(u16::to_be_bytes)
                                .collect::<Vec<_>>(),
                        );
                    });
                });
            });
        }
    });
}

fn safe(cert: &[u8]) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        bag(
            w,
            &oids::P12_CERT_BAG,
            |w| {
                w.sequence(|w| {
                    w.oid(&oids::PKCS9_X509_CERTIFICATE);
                    w.explicit(0, |w| {
                        w.octet_string(cert);
                    });
                });
            },
            Some("me"),
        );
        bag(
            w,
            &oids::P12_SECRET_BAG,
            |w| {
                w.sequence(|w| {
                    w.oid(&oids::PKCS7_DATA);
                    w.explicit(0, |w| {
                        w.octet_string(b"k");
                    });
                });
            },
            None,
        );
    });
    w.finish()
}

/// A PFX whose one safe is `data`, with a SHA-256 PKCS#12 MAC under "pw".
fn pfx(with_mac: bool) -> Vec<u8> {
    let sc = safe(&[0x30, 0x00]);
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.oid(&oids::PKCS7_DATA);
            w.explicit(0, |w| {
                w.octet_string(&sc);
            });
        });
    });
    let auth = w.finish();
    let salt = [5u8; 8];
    let b = openssl_backend();
    let pw = cost::bmp_password(Some(b"pw")).unwrap();
    let key = cost::pkcs12_kdf(
        b,
        &cost::Allowance::new(),
        &pw,
        &salt,
        2048,
        Hash::Sha256,
        Pkcs12Purpose::Mac,
        32,
    )
    .unwrap();
    let mac = b.pbe().hmac(Hash::Sha256, &key, &auth).unwrap();
    let mut w = Writer::new();
    w.sequence(|w| {
        w.integer_u64(3);
        w.sequence(|w| {
            w.oid(&oids::PKCS7_DATA);
            w.explicit(0, |w| {
                w.octet_string(&auth);
            });
        });
        if with_mac {
            w.sequence(|w| {
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::SHA256);
                        w.null();
                    });
                    w.octet_string(&mac);
                });
                w.octet_string(&salt);
                w.integer_u64(2048);
            });
        }
    });
    w.finish()
}

#[test]
fn walks_the_layers_and_verifies_the_mac() {
    let der = pfx(true);
    let log = Deviations::new();
    let p = Pfx::parse(Reader::lenient(&der, &log)).unwrap();
    assert_eq!(p.version, 3);
    let content = p.auth_safe_content().unwrap();
    let m = p.mac_data.unwrap();
    assert_eq!(m.iterations, 2048);
    let scheme = m.scheme().unwrap();
    let verifies = |pw: Option<&[u8]>| {
        m.verify(
            openssl_backend(),
            &cost::Allowance::new(),
            &scheme,
            pw,
            &content.bytes,
        )
        .unwrap()
    };
    assert!(verifies(Some(b"pw")));
    assert!(!verifies(None));
    assert!(!verifies(Some(b"nope")));

    let safes = authenticated_safe(content.reader(p.mode())).unwrap();
    assert_eq!(safes.len(), 1);
    let data = safes[0].data().unwrap().unwrap();
    let bags = safe_contents(data.reader(p.mode())).unwrap();
    assert_eq!(bags.len(), 2);
    assert_eq!(bags[0].kind(), BagKind::Cert);
    let tv = bags[0].typed_value().unwrap();
    assert_eq!(tv.type_id, oids::PKCS9_X509_CERTIFICATE);
    assert_eq!(&tv.octets().unwrap().bytes[..], &[0x30, 0x00]);
    let attrs = bags[0].attributes.unwrap().list().unwrap();
    assert_eq!(attrs[0].oid, oids::PKCS9_FRIENDLY_NAME);
    assert_eq!(bags[1].kind(), BagKind::Secret);
    assert!(bags[1].attributes.is_none());
}

#[test]
fn pfx_errors() {
    let der = pfx(false);
    let log = Deviations::new();
    let p = Pfx::parse(Reader::lenient(&der, &log)).unwrap();
    assert!(p.mac_data.is_none());
    for cut in [0, 3, der.len() - 1] {
        assert!(Pfx::parse(Reader::lenient(&der[..cut], &log)).is_err());
    }
    let mut v2 = der.clone();
    // 30 81 xx 02 01 03: the version octet.
    assert_eq!(&v2[3..6], &[2, 1, 3]);
    v2[5] = 2;
    let e = Pfx::parse(Reader::lenient(&v2, &log)).unwrap_err();
    assert_eq!((e.offset, e.path_string().as_str()), (3, "version"));
    let mut trailing = der.clone();
    trailing.push(0);
    assert_eq!(
        Pfx::parse(Reader::lenient(&trailing, &log))
            .unwrap_err()
            .offset,
        der.len()
    );
}
