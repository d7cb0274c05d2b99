//! OCSP request and response parsing, on hand-built and OpenSSL-made messages.

use super::*;
use crate::der::oid_registry as oids;
use crate::der::{tag, Reader, Time};
use crate::der::{Deviations, Writer};
use crate::ext::CrlReason;

fn cert_id(w: &mut Writer, serial: u64) {
    w.sequence(|w| {
        w.sequence(|w| {
            w.oid(&oids::SHA1);
            w.null();
        });
        w.octet_string(&[0x11; 20]);
        w.octet_string(&[0x22; 20]);
        w.integer_u64(serial);
    });
}

fn request(serials: &[u64], nonce: bool) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.sequence(|w| {
                for &s in serials {
                    w.sequence(|w| cert_id(w, s));
                }
            });
            if nonce {
                w.explicit(2, |w| {
                    w.sequence(|w| {
                        w.sequence(|w| {
                            w.oid(&oids::PKIX_OCSP_NONCE);
                            w.octet_string(&[4, 4, 1, 2, 3, 4]);
                        });
                    });
                });
            }
        });
    });
    w.finish()
}

#[test]
fn parses_requests() {
    let der = request(&[0x1234, 5], true);
    let q = OcspRequest::from_der(&der).unwrap();
    assert_eq!(q.version, 0);
    assert!(q.requestor_name.is_none());
    assert!(q.signature.is_none());
    let list = q.requests().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0].cert_id.serial_hex(), "1234");
    assert_eq!(list[0].cert_id.hash_algorithm.oid, oids::SHA1);
    assert_eq!(list[0].cert_id.issuer_key_hash, &[0x22; 20]);
    let ext = q.request_extensions.unwrap().list().unwrap();
    assert_eq!(ext[0].oid, oids::PKIX_OCSP_NONCE);
}

#[test]
fn request_errors_carry_offsets() {
    let der = request(&[1], false);
    for cut in [0, 3, der.len() - 1] {
        assert!(OcspRequest::from_der(&der[..cut]).is_err());
    }
    let mut trailing = der.clone();
    trailing.push(5);
    assert_eq!(
        OcspRequest::from_der(&trailing).unwrap_err().offset,
        der.len()
    );
    // The serial INTEGER made non-minimal: 02 01 01 -> 02 02 00 01 needs a rebuild,
    // so break the hash OCTET STRING tag instead.
    let mut bad = der.clone();
    let at = der.iter().position(|&b| b == 0x04).unwrap();
    bad[at] = 0x05;
    let e = OcspRequest::parse(Reader::new(&bad))
        .unwrap()
        .requests()
        .unwrap_err();
    assert_eq!(e.offset, at);
    assert_eq!(
        e.path_string(),
        "tbsRequest.requestList[0].reqCert.issuerNameHash"
    );
}

fn basic(status: impl Fn(&mut Writer), by_key: bool) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            if by_key {
                w.explicit(2, |w| {
                    w.octet_string(&[0x33; 20]);
                });
            } else {
                w.explicit(1, |w| {
                    w.sequence(|w| {
                        w.set(|w| {
                            w.sequence(|w| {
                                w.oid(&oids::AT_COMMON_NAME);
                                w.utf8_string("Responder");
                            });
                        });
                    });
                });
            }
            w.generalized_time(Time {
                unix: 1_700_000_000,
            });
            w.sequence(|w| {
                w.sequence(|w| {
                    cert_id(w, 77);
                    status(w);
                    w.generalized_time(Time {
                        unix: 1_700_000_000,
                    });
                    w.explicit(0, |w| {
                        w.generalized_time(Time {
                            unix: 1_700_600_000,
                        });
                    });
                });
            });
        });
        w.sequence(|w| {
            w.oid(&oids::ED25519);
        });
        w.bit_string(&[5; 64]);
    });
    w.finish()
}

fn response(status: u8, body: Option<&[u8]>) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.enumerated(status);
        if let Some(b) = body {
            w.explicit(0, |w| {
                w.sequence(|w| {
                    w.oid(&oids::PKIX_OCSP_BASIC);
                    w.octet_string(b);
                });
            });
        }
    });
    w.finish()
}

#[test]
fn parses_good_revoked_unknown() {
    let good = basic(
        |w| {
            w.primitive(0x80, &[]);
        },
        false,
    );
    let der = response(0, Some(&good));
    let r = OcspResponse::from_der(&der).unwrap();
    assert_eq!(r.status, ResponseStatus::Successful);
    let b = r.basic.unwrap();
    assert!(matches!(b.responder_id, ResponderId::ByName(_)));
    assert_eq!(
        b.produced_at,
        Time {
            unix: 1_700_000_000
        }
    );
    let s = b.responses().unwrap();
    assert_eq!(s[0].cert_status, CertStatus::Good);
    assert_eq!(
        s[0].next_update,
        Some(Time {
            unix: 1_700_600_000
        })
    );
    assert_eq!(s[0].cert_id.serial_hex(), "4d");
    assert!(b.certs().unwrap().is_empty());

    let revoked = basic(
        |w| {
            w.tlv(tag::implicit_constructed(1), |w| {
                w.generalized_time(Time {
                    unix: 1_600_000_000,
                });
                w.explicit(0, |w| {
                    w.enumerated(1);
                });
            });
        },
        true,
    );
    let der = response(0, Some(&revoked));
    let b = OcspResponse::from_der(&der).unwrap().basic.unwrap();
    assert!(matches!(b.responder_id, ResponderId::ByKey(k) if k == [0x33; 20]));
    assert_eq!(
        b.responses().unwrap()[0].cert_status,
        CertStatus::Revoked {
            revocation_time: Time {
                unix: 1_600_000_000
            },
            revocation_reason: Some(CrlReason::KeyCompromise),
        }
    );

    let unknown = basic(
        |w| {
            w.primitive(0x82, &[]);
        },
        true,
    );
    let der = response(0, Some(&unknown));
    let b = OcspResponse::from_der(&der).unwrap().basic.unwrap();
    assert_eq!(b.responses().unwrap()[0].cert_status, CertStatus::Unknown);
}

#[test]
fn unsuccessful_statuses_have_no_body() {
    for (code, name) in [
        (1, "malformedRequest"),
        (3, "tryLater"),
        (6, "unauthorized"),
    ] {
        let der = response(code, None);
        let r = OcspResponse::from_der(&der).unwrap();
        assert_eq!(r.status.name(), Some(name));
        assert!(r.basic.is_none());
    }
    // Successful without a body, and an undefined status: errors strictly, logged
    // leniently.
    for der in [response(0, None), response(4, None)] {
        let e = OcspResponse::from_der(&der).unwrap_err();
        assert_eq!(e.offset, 2);
        let log = Deviations::new();
        OcspResponse::parse(Reader::lenient(&der, &log)).unwrap();
        assert_eq!(log.take().len(), 1);
    }
}

#[test]
fn bad_cert_status_and_responder_id() {
    let bad = basic(
        |w| {
            w.primitive(0x83, &[]);
        },
        false,
    );
    let der = response(0, Some(&bad));
    let b = OcspResponse::from_der(&der).unwrap().basic.unwrap();
    let e = b.responses().unwrap_err();
    assert_eq!(der[e.offset], 0x83);
    assert_eq!(e.path_string(), "tbsResponseData.responses[0].certStatus");

    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.explicit(3, |w| {
                w.null();
            });
        });
        w.sequence(|w| {
            w.oid(&oids::ED25519);
        });
        w.bit_string(&[5; 4]);
    });
    let body = w.finish();
    let der = response(0, Some(&body));
    let e = OcspResponse::from_der(&der).unwrap_err();
    assert_eq!(der[e.offset], 0xa3);
    assert_eq!(
        e.path_string(),
        "responseBytes.response.tbsResponseData.responderID"
    );
}

#[test]
fn body_errors_point_into_the_outer_input() {
    let good = basic(
        |w| {
            w.primitive(0x80, &[]);
        },
        false,
    );
    let der = response(0, Some(&good[..good.len() - 1]));
    let e = OcspResponse::from_der(&der).unwrap_err();
    assert!(e.offset > 10 && e.offset < der.len(), "{e}");
}
