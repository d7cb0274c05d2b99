//! A valid value of every extension pkit decodes, and the SCT lists they include, for
//! the decoders' tests here and the tests of crates that build on this one (the `parse`
//! JSON model's): compiled for tests and with the `test-util` feature.

use super::*;
use crate::der::{tls, Error, Writer};

/// The valid value [`samples`] has for `oid`, for the decoders' own tests and the JSON
/// model's.
pub fn sample(oid: &Oid) -> Vec<u8> {
    samples()
        .into_iter()
        .find(|(o, _)| o.id() == *oid)
        .map(|(_, der)| der)
        .unwrap_or_else(|| panic!("no sample for {oid:?}"))
}

/// A valid value for every OID in [`DECODERS`].
pub fn samples() -> Vec<(Oid, Vec<u8>)> {
    let w = |f: &dyn Fn(&mut Writer)| {
        let mut w = Writer::new();
        f(&mut w);
        w.finish()
    };
    let general_names = w(&|w| {
        w.sequence(|w| {
            w.primitive(0x82, b"www.example.com");
            w.primitive(0x87, &[192, 0, 2, 1]);
            w.tlv(0xa4, |w| {
                w.sequence(|w| {
                    w.set(|w| {
                        w.sequence(|w| {
                            w.oid(&oids::AT_COMMON_NAME);
                            w.utf8_string("Example");
                        });
                    });
                });
            });
            w.tlv(0xa0, |w| {
                w.oid(&oids::ON_MS_UPN);
                w.explicit(0, |w| {
                    w.utf8_string("u@example.com");
                });
            });
        });
    });
    let mut aki = vec![0x30, 0x16, 0x80, 0x14];
    aki.extend(1..=20u8);
    let dps = w(&|w| {
        w.sequence(|w| {
            w.sequence(|w| {
                w.explicit(0, |w| {
                    w.tlv(0xa0, |w| {
                        w.primitive(0x86, b"http://crl.example.com/ca.crl");
                    });
                });
                w.primitive(0x81, &[0x05, 0x60]);
            });
        });
    });
    let aia = w(&|w| {
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::AD_OCSP);
                w.primitive(0x86, b"http://ocsp.example.com");
            });
        });
    });
    let policies = w(&|w| {
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::CABF_OV);
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::QT_CPS);
                        w.ia5_string("https://cps.example.com");
                    });
                    w.sequence(|w| {
                        w.oid(&oids::QT_UNOTICE);
                        w.sequence(|w| {
                            w.sequence(|w| {
                                w.utf8_string("Org");
                                w.sequence(|w| {
                                    w.integer_u64(1);
                                });
                            });
                            w.utf8_string("Notice");
                        });
                    });
                });
            });
        });
    });
    let sct = sct_ext(&[sct_v1(7, 1_700_000_000_000, 8)]);
    vec![
        (oids::CE_SUBJECT_ALT_NAME, general_names.clone()),
        (oids::CE_ISSUER_ALT_NAME, general_names.clone()),
        (oids::CE_KEY_USAGE, vec![0x03, 0x02, 0x05, 0xa0]),
        (
            oids::CE_EXT_KEY_USAGE,
            w(&|w| {
                w.sequence(|w| {
                    w.oid(&oids::KP_SERVER_AUTH);
                    w.oid(&oids::KP_CLIENT_AUTH);
                });
            }),
        ),
        (
            oids::CE_BASIC_CONSTRAINTS,
            vec![0x30, 0x06, 0x01, 0x01, 0xff, 0x02, 0x01, 0x00],
        ),
        (oids::CE_SUBJECT_KEY_ID, vec![0x04, 0x04, 1, 2, 3, 4]),
        (oids::CE_AUTHORITY_KEY_ID, aki),
        (oids::CE_CRL_DIST_POINTS, dps.clone()),
        (oids::CE_FRESHEST_CRL, dps),
        (oids::PE_AUTHORITY_INFO_ACCESS, aia.clone()),
        (oids::PE_SUBJECT_INFO_ACCESS, aia),
        (oids::CE_CERT_POLICIES, policies),
        (
            oids::CE_POLICY_MAPPINGS,
            w(&|w| {
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::CABF_OV);
                        w.oid(&oids::CABF_DV);
                    });
                });
            }),
        ),
        (
            oids::CE_POLICY_CONSTRAINTS,
            vec![0x30, 0x06, 0x80, 0x01, 0x00, 0x81, 0x01, 0x01],
        ),
        (oids::CE_INHIBIT_ANY_POLICY, vec![0x02, 0x01, 0x00]),
        (
            oids::CE_NAME_CONSTRAINTS,
            w(&|w| {
                w.sequence(|w| {
                    w.tlv(0xa0, |w| {
                        w.sequence(|w| {
                            w.primitive(0x82, b"example.com");
                        });
                        w.sequence(|w| {
                            w.primitive(0x87, &[10, 0, 0, 0, 255, 0, 0, 0]);
                        });
                    });
                    w.tlv(0xa1, |w| {
                        w.sequence(|w| {
                            w.primitive(0x81, b"example.org");
                        });
                    });
                });
            }),
        ),
        (oids::CT_PRECERT_SCTS, sct.clone()),
        (oids::CT_OCSP_SCTS, sct),
        (oids::CT_PRECERT_POISON, vec![0x05, 0x00]),
        (oids::PE_TLS_FEATURE, vec![0x30, 0x03, 0x02, 0x01, 0x05]),
        (oids::CE_CRL_NUMBER, vec![0x02, 0x02, 0x10, 0x01]),
        (oids::CE_DELTA_CRL_INDICATOR, vec![0x02, 0x01, 0x0f]),
        (
            oids::CE_ISSUING_DIST_POINT,
            w(&|w| {
                w.sequence(|w| {
                    w.explicit(0, |w| {
                        w.tlv(0xa0, |w| {
                            w.primitive(0x86, b"http://crl.example.com/1.crl");
                        });
                    });
                    w.primitive(0x81, &[0xff]);
                });
            }),
        ),
        (oids::CE_CRL_REASON, vec![0x0a, 0x01, 0x01]),
        (
            oids::CE_INVALIDITY_DATE,
            w(&|w| {
                w.generalized_time(Time {
                    unix: 1_700_000_000,
                });
            }),
        ),
        (oids::CE_CERTIFICATE_ISSUER, general_names),
        (
            oids::PKIX_OCSP_NONCE,
            vec![0x04, 0x04, 0xde, 0xad, 0xbe, 0xef],
        ),
        (
            oids::PKIX_OCSP_ARCHIVE_CUTOFF,
            w(&|w| {
                w.generalized_time(Time {
                    unix: 1_600_000_000,
                });
            }),
        ),
        (
            oids::PKIX_OCSP_PREF_SIG_ALGS,
            w(&|w| {
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.sequence(|w| {
                            w.oid(&oids::ECDSA_WITH_SHA256);
                        });
                        w.sequence(|w| {
                            w.oid(&oids::EC_PUBLIC_KEY);
                            w.oid(&oids::SECP256R1);
                        });
                    });
                    // No pubKeyAlgIdentifier.
                    w.sequence(|w| {
                        w.sequence(|w| {
                            w.oid(&oids::ML_DSA_65);
                        });
                    });
                });
            }),
        ),
        (oids::PKIX_OCSP_EXTENDED_REVOKE, vec![0x05, 0x00]),
        (oids::PKIX_OCSP_NOCHECK, vec![0x05, 0x00]),
        (oids::NETSCAPE_CERT_TYPE, vec![0x03, 0x02, 0x06, 0x40]),
        (oids::NETSCAPE_COMMENT, b"\x16\x0bOpenSSL CA!".to_vec()),
        (
            oids::MS_CERT_TEMPLATE,
            w(&|w| {
                w.sequence(|w| {
                    w.oid(&Oid::new("1.3.6.1.4.1.311.21.8.1.2"));
                    w.integer_u64(100);
                    w.integer_u64(3);
                });
            }),
        ),
        (
            oids::MS_CERT_TEMPLATE_NAME,
            vec![0x1e, 0x08, 0, b'U', 0, b's', 0, b'e', 0, b'r'],
        ),
    ]
}

/// One v1 SCT: log id of `id` bytes, the given timestamp, no extensions, an
/// ecdsa/sha256 signature of `sig_len` bytes.
///
/// # Panics
///
/// When `sig_len` is above 65535, which a TLS `opaque<0..2^16-1>` cannot hold: callers
/// are tests that pass small constants.
pub fn sct_v1(id: u8, timestamp_ms: u64, sig_len: usize) -> Vec<u8> {
    let mut s = tls::Writer::new();
    s.u8(0).bytes(&[id; 32]).u64(timestamp_ms);
    // An empty vector is always within 0..=0xffff.
    s.opaque(0, 0xffff, &[]).unwrap();
    s.u8(4).u8(3);
    let sig: Vec<u8> = (0..sig_len).map(|i| i as u8).collect();
    s.opaque(0, 0xffff, &sig).unwrap();
    s.finish()
}

/// The extension value (DER OCTET STRING around the TLS list) for these SCTs.
///
/// # Panics
///
/// When the SCTs together exceed the list's 65535 bytes: callers are tests with a few
/// short SCTs.
pub fn sct_ext(scts: &[Vec<u8>]) -> Vec<u8> {
    let mut list = tls::Writer::new();
    list.vector(0, 0xffff, |l| {
        for s in scts {
            l.opaque(0, 0xffff, s)?;
        }
        Ok::<(), Error>(())
    })
    .unwrap();
    let mut w = Writer::new();
    w.octet_string(&list.finish());
    w.finish()
}

/// A CRLDistributionPoints value with one point named relative to the CRL issuer
/// (`CN=CRL1`), these `reasons` (the BIT STRING's content octets) and, when given, a
/// cRLIssuer dNSName.
pub fn relative_name_dp(reasons: &[u8], crl_issuer: Option<&str>) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.explicit(0, |w| {
                w.tlv(0xa1, |w| {
                    w.sequence(|w| {
                        w.oid(&oids::AT_COMMON_NAME);
                        w.printable_string("CRL1");
                    });
                });
            });
            w.primitive(0x81, reasons);
            if let Some(issuer) = crl_issuer {
                w.tlv(0xa2, |w| {
                    w.primitive(0x82, issuer.as_bytes());
                });
            }
        });
    });
    w.finish()
}
