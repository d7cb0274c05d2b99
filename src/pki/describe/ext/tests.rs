//! Unit tests of `ext.rs`.

use super::*;
use crate::der::oid_registry as oids;
use crate::der::{Oid, Writer};

fn der(f: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::new();
    f(&mut w);
    w.finish()
}

fn value(o: &Oid, v: &[u8]) -> Value {
    extension_json(o.id(), false, v, 0)["value"].clone()
}

#[test]
fn envelope_and_san() {
    let v = pkit_x509::ext::samples::sample(&oids::CE_SUBJECT_ALT_NAME);
    let j = extension_json(oids::CE_SUBJECT_ALT_NAME.id(), true, &v, 10);
    assert_eq!(
        j,
        json!({
            "oid": "2.5.29.17",
            "name": "subjectAltName",
            "critical": true,
            "value": [
                {"type": "dns", "value": "www.example.com"},
                {"type": "ip", "value": "192.0.2.1"},
                {"type": "directory_name", "value": "CN=Example"},
                {"type": "other_name",
                 "type_id": {"oid": "1.3.6.1.4.1.311.20.2.3", "name": "msUPN"},
                 "value": "u@example.com"},
            ],
            "der_b64": "MEyCD3d3dy5leGFtcGxlLmNvbYcEwAACAaQUMBIxEDAOBgNVBAMMB0V4YW1wbGWgHQYKKwYBBAGCNxQCA6APDA11QGV4YW1wbGUuY29t"
        })
    );
    // Keys come out in reading order.
    let keys: Vec<&String> = j
        .as_object()
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    assert_eq!(keys, ["oid", "name", "critical", "value", "der_b64"]);
}

#[test]
fn errors_and_unknowns_keep_the_bytes() {
    let j = extension_json(
        oids::CE_SUBJECT_ALT_NAME.id(),
        false,
        &[0x30, 0x02, 0x87, 0x00],
        100,
    );
    assert_eq!(j["value"]["der_b64"], "MAKHAA==");
    let err = j["value"]["error"].as_str().unwrap_or_default();
    assert!(
        err.starts_with("offset 104: [0]: expected an iPAddress"),
        "{err}"
    );
    let j = extension_json(Oid::new("1.3.6.1.5.5.7.1.38").id(), false, &[0x05, 0x00], 0);
    assert_eq!(j["name"], "id-pe-mtcCA");
    assert_eq!(j["value"], json!({"der_b64": "BQA="}));
    let j = extension_json(Oid::new("1.2.3.4").id(), false, &[0x05, 0x00], 0);
    assert_eq!(j["name"], "");
}

#[test]
fn certificate_extensions() {
    assert_eq!(
        value(&oids::CE_KEY_USAGE, &[0x03, 0x02, 0x05, 0xa0]),
        json!(["digitalSignature", "keyEncipherment"])
    );
    assert_eq!(
        value(
            &oids::CE_BASIC_CONSTRAINTS,
            &[0x30, 0x06, 0x01, 0x01, 0xff, 0x02, 0x01, 0x00]
        ),
        json!({"ca": true, "path_len_constraint": 0})
    );
    assert_eq!(
        value(&oids::CE_BASIC_CONSTRAINTS, &[0x30, 0x00]),
        json!({"ca": false})
    );
    assert_eq!(
        value(&oids::CE_SUBJECT_KEY_ID, &[0x04, 0x02, 0xab, 0x01]),
        json!({"key_identifier": "ab01"})
    );
    let eku = der(|w| {
        w.sequence(|w| {
            w.oid(&oids::KP_SERVER_AUTH);
        });
    });
    assert_eq!(
        value(&oids::CE_EXT_KEY_USAGE, &eku),
        json!([{"oid": "1.3.6.1.5.5.7.3.1", "name": "serverAuth"}])
    );
    let aki = der(|w| {
        w.sequence(|w| {
            w.primitive(0x80, &[0xde, 0xad]);
            w.tlv(0xa1, |w| {
                w.primitive(0x86, b"http://ca.example/");
            });
            w.integer_unsigned_tagged(0x82, &[0x80, 0x01]);
        });
    });
    assert_eq!(
        value(&oids::CE_AUTHORITY_KEY_ID, &aki),
        json!({
            "key_identifier": "dead",
            "authority_cert_issuer": [{"type": "uri", "value": "http://ca.example/"}],
            "authority_cert_serial_number": "8001"
        })
    );
    let aia = der(|w| {
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::AD_OCSP);
                w.primitive(0x86, b"http://ocsp.example");
            });
        });
    });
    assert_eq!(
        value(&oids::PE_AUTHORITY_INFO_ACCESS, &aia),
        json!([{
            "access_method": {"oid": "1.3.6.1.5.5.7.48.1", "name": "OCSP"},
            "access_location": {"type": "uri", "value": "http://ocsp.example"}
        }])
    );
    // keyCompromise.
    let dp = pkit_x509::ext::samples::relative_name_dp(&[0x06, 0x40], None);
    assert_eq!(
        value(&oids::CE_CRL_DIST_POINTS, &dp),
        json!([{
            "distribution_point": {"name_relative_to_crl_issuer": "CN=CRL1"},
            "reasons": ["keyCompromise"]
        }])
    );
    assert_eq!(
        value(&oids::PE_TLS_FEATURE, &[0x30, 0x03, 0x02, 0x01, 0x05]),
        json!([{"feature": 5, "name": "status_request"}])
    );
    assert_eq!(value(&oids::CT_PRECERT_POISON, &[0x05, 0x00]), Value::Null);
    assert_eq!(
        value(&oids::CE_INHIBIT_ANY_POLICY, &[0x02, 0x01, 0x00]),
        json!({"skip_certs": 0})
    );
}

#[test]
fn policies_and_constraints() {
    let p = pkit_x509::ext::samples::sample(&oids::CE_CERT_POLICIES);
    assert_eq!(
        value(&oids::CE_CERT_POLICIES, &p),
        json!([{
            "policy_identifier": {"oid": "2.23.140.1.2.2", "name": "CABF organization-validated"},
            "policy_qualifiers": [
                {"policy_qualifier_id": {"oid": "1.3.6.1.5.5.7.2.1", "name": "cps"},
                 "cps_uri": "https://cps.example.com"},
                {"policy_qualifier_id": {"oid": "1.3.6.1.5.5.7.2.2", "name": "userNotice"},
                 "user_notice": {
                    "notice_ref": {"organization": "Org", "notice_numbers": [1]},
                    "explicit_text": "Notice"}}
            ]
        }])
    );
    let nc = der(|w| {
        w.sequence(|w| {
            w.tlv(0xa0, |w| {
                w.sequence(|w| {
                    w.primitive(0x87, &[10, 0, 0, 0, 255, 0, 0, 0]);
                });
            });
            w.tlv(0xa1, |w| {
                w.sequence(|w| {
                    w.primitive(0x82, b"bad.example");
                    w.primitive(0x80, &[1]);
                });
            });
        });
    });
    assert_eq!(
        value(&oids::CE_NAME_CONSTRAINTS, &nc),
        json!({
            "permitted_subtrees": [{"base": {"type": "ip", "value": "10.0.0.0/8"}}],
            "excluded_subtrees": [{"base": {"type": "dns", "value": "bad.example"}, "minimum": 1}]
        })
    );
    assert_eq!(
        value(
            &oids::CE_POLICY_CONSTRAINTS,
            &[0x30, 0x03, 0x80, 0x01, 0x00]
        ),
        json!({"require_explicit_policy": 0})
    );
}

#[test]
fn crl_and_ocsp_extensions() {
    assert_eq!(
        value(&oids::CE_CRL_NUMBER, &[0x02, 0x02, 0x12, 0x34]),
        json!({"crl_number": "4660"})
    );
    let mut big = vec![0x02, 0x14, 0x7f];
    big.extend([0xff; 19]);
    assert_eq!(
        value(&oids::CE_CRL_NUMBER, &big)["crl_number"],
        "730750818665451459101842416358141509827966271487"
    );
    assert_eq!(
        value(&oids::CE_DELTA_CRL_INDICATOR, &[0x02, 0x01, 0x00]),
        json!({"base_crl_number": "0"})
    );
    assert_eq!(
        value(&oids::CE_CRL_REASON, &[0x0a, 0x01, 0x01]),
        json!({"reason": "keyCompromise", "code": 1})
    );
    let t = der(|w| {
        w.generalized_time(Time {
            unix: 1_700_000_000,
        });
    });
    assert_eq!(
        value(&oids::CE_INVALIDITY_DATE, &t),
        json!({"invalidity_date": "2023-11-14T22:13:20Z"})
    );
    assert_eq!(
        value(&oids::PKIX_OCSP_ARCHIVE_CUTOFF, &t),
        json!({"archive_cutoff": "2023-11-14T22:13:20Z"})
    );
    let idp = der(|w| {
        w.sequence(|w| {
            w.explicit(0, |w| {
                w.tlv(0xa0, |w| {
                    w.primitive(0x86, b"http://crl.example/1.crl");
                });
            });
            w.primitive(0x82, &[0xff]);
        });
    });
    assert_eq!(
        value(&oids::CE_ISSUING_DIST_POINT, &idp),
        json!({
            "distribution_point": {"full_name": [{"type": "uri", "value": "http://crl.example/1.crl"}]},
            "only_contains_user_certs": false,
            "only_contains_ca_certs": true,
            "indirect_crl": false,
            "only_contains_attribute_certs": false
        })
    );
    assert_eq!(
        value(&oids::PKIX_OCSP_NONCE, &[0x04, 0x03, 0x0a, 0x0b, 0xff]),
        json!({"nonce": "0a0bff"})
    );
    assert_eq!(value(&oids::PKIX_OCSP_NOCHECK, &[0x05, 0x00]), Value::Null);
    let psa = pkit_x509::ext::samples::sample(&oids::PKIX_OCSP_PREF_SIG_ALGS);
    assert_eq!(
        value(&oids::PKIX_OCSP_PREF_SIG_ALGS, &psa),
        json!([{
            "sig_identifier": {"oid": "1.2.840.10045.4.3.2", "name": "ecdsa-with-SHA256"},
            "pub_key_alg_identifier": {"oid": "1.2.840.10045.2.1", "name": "id-ecPublicKey",
                                       "parameters_b64": "BggqhkjOPQMBBw=="}
        }, {
            "sig_identifier": {"oid": "2.16.840.1.101.3.4.3.18", "name": "ML-DSA-65"}
        }])
    );
}

#[test]
fn sct_list() {
    let mut sct = vec![0u8];
    sct.extend([0x11; 32]);
    sct.extend(1_700_000_000_123u64.to_be_bytes());
    sct.extend([0, 0, 4, 3, 0, 2, 0xaa, 0xbb]);
    let mut tls = ((sct.len() + 2) as u16).to_be_bytes().to_vec();
    tls.extend((sct.len() as u16).to_be_bytes());
    tls.extend(&sct);
    let v = der(|w| {
        w.octet_string(&tls);
    });
    assert_eq!(
        value(&oids::CT_PRECERT_SCTS, &v),
        json!({
            "count": 1,
            "scts": [{
                "version": 1,
                "log_id_b64": "ERERERERERERERERERERERERERERERERERERERERERE=",
                "timestamp": "2023-11-14T22:13:20.123Z",
                "timestamp_ms": 1_700_000_000_123u64,
                "hash_algorithm": "sha256",
                "signature_algorithm": "ecdsa",
                "signature_b64": "qrs="
            }]
        })
    );
}

#[test]
fn misc_extensions() {
    assert_eq!(
        value(&oids::NETSCAPE_CERT_TYPE, &[0x03, 0x02, 0x06, 0x40]),
        json!(["sslServer"])
    );
    assert_eq!(
        value(&oids::NETSCAPE_COMMENT, b"\x16\x02hi"),
        json!({"comment": "hi"})
    );
    assert_eq!(
        value(
            &oids::MS_CERT_TEMPLATE_NAME,
            &[0x1e, 0x04, 0, b'D', 0, b'C']
        ),
        json!({"name": "DC"})
    );
    let t = der(|w| {
        w.sequence(|w| {
            w.oid(&Oid::new("1.3.6.1.4.1.311.21.8.7"));
            w.integer_u64(100);
        });
    });
    assert_eq!(
        value(&oids::MS_CERT_TEMPLATE, &t),
        json!({"template_id": {"oid": "1.3.6.1.4.1.311.21.8.7", "name": ""},
                   "major_version": 100})
    );
}

#[test]
fn helpers() {
    assert_eq!(decimal(&[]), "0");
    assert_eq!(decimal(&[0]), "0");
    assert_eq!(
        decimal(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
        u64::MAX.to_string()
    );
    assert_eq!(time_ms(5), "1970-01-01T00:00:00.005Z");
}
