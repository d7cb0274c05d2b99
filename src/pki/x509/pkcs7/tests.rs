//! Unit tests of `pkcs7.rs`.

use super::*;
use crate::der::{Deviations, Writer};

fn fake_cert(w: &mut Writer, n: u8) {
    // Shape only: the container code hands certificates out as spans.
    w.sequence(|w| {
        w.integer_u64(u64::from(n));
    });
}

fn signed_data(w: &mut Writer, with_signer: bool) {
    w.sequence(|w| {
        w.oid(&oids::PKCS7_SIGNED_DATA);
        w.explicit(0, |w| {
            w.sequence(|w| {
                w.integer_u64(1);
                w.set(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::SHA256);
                    });
                });
                w.sequence(|w| {
                    w.oid(&oids::PKCS7_DATA);
                    w.explicit(0, |w| {
                        w.octet_string(b"hello");
                    });
                });
                w.tlv(0xa0, |w| {
                    fake_cert(w, 1);
                    fake_cert(w, 2);
                    w.tlv(0xa2, |w| {
                        w.null();
                    });
                });
                w.tlv(0xa1, |w| {
                    w.sequence(|w| {
                        w.null();
                    });
                });
                w.set(|w| {
                    if with_signer {
                        w.sequence(|w| {
                            w.integer_u64(3);
                            w.primitive(0x80, &[0xab; 20]);
                            w.sequence(|w| {
                                w.oid(&oids::SHA256);
                            });
                            w.tlv(0xa0, |w| {
                                w.sequence(|w| {
                                    w.oid(&oids::PKCS9_CONTENT_TYPE);
                                    w.set(|w| {
                                        w.oid(&oids::PKCS7_DATA);
                                    });
                                });
                            });
                            w.sequence(|w| {
                                w.oid(&oids::ECDSA_WITH_SHA256);
                            });
                            w.octet_string(&[1; 70]);
                        });
                    }
                });
            });
        });
    });
}

#[test]
fn reads_signed_data() {
    let mut w = Writer::new();
    signed_data(&mut w, true);
    let der = w.finish();
    let ci = ContentInfo::parse(Reader::new(&der)).unwrap();
    assert!(ci.is(&oids::PKCS7_SIGNED_DATA));
    let sd = ci.signed_data().unwrap();
    assert_eq!(sd.version, 1);
    assert_eq!(sd.digest_algorithms().unwrap()[0].oid, oids::SHA256);
    assert!(sd.encapsulates_data());
    assert_eq!(sd.encap_content.as_ref().map(|c| c.len()), Some(5));
    let certs = sd.certificates().unwrap();
    assert_eq!(certs.len(), 3);
    assert!(certs[0].is_certificate());
    assert_eq!(certs[2].kind(), "v2AttrCert");
    assert_eq!(der[certs[1].offset], 0x30);
    assert_eq!(sd.crls().unwrap().len(), 1);
    let si = sd.signer_infos().unwrap();
    assert_eq!(si.len(), 1);
    assert!(matches!(si[0].sid, SignerId::SubjectKeyIdentifier(k) if k == [0xab; 20]));
    let attrs = si[0].signed_attrs.unwrap().list().unwrap();
    assert_eq!(attrs[0].oid, oids::PKCS9_CONTENT_TYPE);
    assert_eq!(si[0].signed_attrs_raw.unwrap()[0], 0xa0);
    assert_eq!(si[0].signature.bytes.len(), 70);
    assert!(!sd.is_degenerate());
}

/// The same structure with indefinite lengths and a segmented OCTET STRING, as
/// Java and Windows write it.
#[test]
fn reads_ber_containers_leniently() {
    let mut der = vec![0x30, 0x80];
    der.extend([
        0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01,
    ]);
    der.extend([0xa0, 0x80, 0x24, 0x80]);
    der.extend([0x04, 0x02, b'h', b'e', 0x04, 0x03, b'l', b'l', b'o']);
    der.extend([0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
    assert!(ContentInfo::parse(Reader::new(&der)).is_err());
    let log = Deviations::new();
    let ci = ContentInfo::parse(Reader::lenient(&der, &log)).unwrap();
    let data = ci.data().unwrap().unwrap();
    assert_eq!(&data.bytes[..], b"hello");
    assert!(matches!(data.bytes, Cow::Owned(_)));
    assert_eq!(data.offset, 17);
    assert!(!log.is_empty());
}

#[test]
fn segment_nesting_is_bounded() {
    let mut der = Vec::new();
    for _ in 0..20 {
        der.extend([0x24, 0x80]);
    }
    der.extend([0x04, 0x01, 0x41]);
    for _ in 0..20 {
        der.extend([0x00, 0x00]);
    }
    let log = Deviations::new();
    let e = read_octets(&mut Reader::lenient(&der, &log), tag::OCTET_STRING).unwrap_err();
    assert_eq!(
        e.kind,
        ErrorKind::TooDeep {
            limit: MAX_SEGMENT_DEPTH
        }
    );
}

#[test]
fn degenerate_and_errors() {
    let mut w = Writer::new();
    signed_data(&mut w, false);
    let der = w.finish();
    let sd = ContentInfo::parse(Reader::new(&der))
        .unwrap()
        .signed_data()
        .unwrap();
    assert!(sd.is_degenerate());
    for cut in [0, 1, 12, der.len() - 1] {
        let r = ContentInfo::parse(Reader::new(&der[..cut])).and_then(|c| c.signed_data());
        assert!(r.is_err(), "cut {cut}");
    }
    let mut trailing = der.clone();
    trailing.push(0);
    assert_eq!(
        ContentInfo::parse(Reader::new(&trailing))
            .unwrap_err()
            .offset,
        der.len()
    );
    // A signer whose sid is neither choice.
    let mut bad = Writer::new();
    bad.sequence(|w| {
        w.integer_u64(1);
        w.null();
    });
    let bad = bad.finish();
    let e = SignerInfo::read(&mut Reader::new(&bad)).unwrap_err();
    assert_eq!((e.offset, e.path_string().as_str()), (5, "sid"));
}
