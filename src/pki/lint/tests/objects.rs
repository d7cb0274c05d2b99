//! The linter through its public API on real objects from `tests/data` (see
//! `tests/data/README.md`): a clean certificate lints clean, bad ones raise the rules
//! they break, `at` dates the rules, and CRLs, CSRs and OCSP responses go through the
//! same rule shape.

use pkit_lint::{
    date, lint_certificate, lint_crl, lint_csr, lint_parsed_ocsp, lints, CsrFacts, Finding,
    LintOptions, Object, Rules,
};
use pkit_x509::ocsp::OcspResponse;

/// A file under the workspace's `tests/data`.
fn data(path: &str) -> Vec<u8> {
    let full = format!("{}/../../../tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The DER of the PEM certificate or CRL a pkilint corpus file starts with.
fn pkilint(path: &str) -> Vec<u8> {
    let text = String::from_utf8(data(&format!("pkilint/{path}"))).unwrap();
    let b64: String = text
        .lines()
        .skip_while(|l| !l.starts_with("-----BEGIN"))
        .skip(1)
        .take_while(|l| !l.starts_with("-----END"))
        .collect();
    base64_decode(&b64)
}

fn base64_decode(s: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter(|c| *c != b'=') {
        let v = ALPHABET.iter().position(|a| *a == c).unwrap() as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn names(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.lint).collect()
}

fn all_tls() -> LintOptions {
    LintOptions {
        rules: Rules::parse("rfc5280,cabf-tls").unwrap(),
        ..LintOptions::default()
    }
}

#[test]
fn a_clean_tls_certificate_lints_clean() {
    let der = pkilint(
        "integration_certificate/tls_br/ov_final_certificate/cps_uri_with_port_number.crttest",
    );
    let report = lint_certificate(&der, &all_tls()).unwrap();
    assert_eq!(names(&report.findings), Vec::<&str>::new());
    assert!(report.not_run.is_empty());
}

#[test]
fn bad_certificates_raise_the_rules_they_break() {
    let cases: [(&str, &[&str]); 3] = [
        (
            "tls_br/dv_final_certificate/internal_ip_address.crttest",
            &["w_rfc_ski_missing", "e_cabf_ip_reserved"],
        ),
        ("pkix/method2_skid.crttest", &["e_cabf_validity_too_long"]),
        (
            "pkix/unknown_key_type_self_issued_no_aki.crttest",
            &[
                "e_rfc_ca_key_usage_missing",
                "e_rfc_path_len_without_key_cert_sign",
                "e_cabf_key_algorithm_not_allowed",
                "e_cabf_root_eku_present",
            ],
        ),
    ];
    for (file, want) in cases {
        let der = pkilint(&format!("integration_certificate/{file}"));
        let report = lint_certificate(&der, &all_tls()).unwrap();
        assert_eq!(names(&report.findings), want, "{file}");
        // Every finding names a field and a rule the registry knows.
        for f in &report.findings {
            assert!(f.offset < der.len(), "{file}: {f:?}");
            assert!(lints().any(|l| l.name == f.lint && l.source == f.source));
        }
    }
}

#[test]
fn a_rule_not_yet_in_force_is_not_applied() {
    // Reserved addresses are a finding from 2015-11-01 (BR 1.x §7.1.4.2.1).
    let der =
        pkilint("integration_certificate/tls_br/dv_final_certificate/internal_ip_address.crttest");
    let lint = lints().find(|l| l.name == "e_cabf_ip_reserved").unwrap();
    assert!(!lint.in_force(date("2015-10-31")) && lint.in_force(date("2015-11-01")));
    let before = LintOptions {
        at: Some(date("2015-10-31")),
        ..all_tls()
    };
    let found = lint_certificate(&der, &before).unwrap().findings;
    assert!(!names(&found).contains(&"e_cabf_ip_reserved"), "{found:?}");
    // A 2023 certificate of more than 398 days met the 39 months of 2016.
    let der = pkilint("integration_certificate/pkix/method2_skid.crttest");
    let old = LintOptions {
        at: Some(date("2016-01-01")),
        ..all_tls()
    };
    assert!(lint_certificate(&der, &old).unwrap().findings.is_empty());
}

#[test]
fn crls_go_through_the_same_rules() {
    let der = pkilint("integration_crl/cabf/arl/unspecified_reason_code.crltest");
    let found = lint_crl(&der, &all_tls()).unwrap();
    assert_eq!(
        names(&found),
        [
            "w_rfc_crl_entry_reason_unspecified",
            "e_cabf_crl_next_update_too_far"
        ]
    );
    // Without the BRs, only RFC 5280's.
    let rfc = LintOptions {
        rules: Rules::parse("rfc5280").unwrap(),
        ..LintOptions::default()
    };
    assert_eq!(
        names(&lint_crl(&der, &rfc).unwrap()),
        ["w_rfc_crl_entry_reason_unspecified"]
    );
    let der = pkilint("integration_crl/pkix/crl/negative_validity_period.crltest");
    assert_eq!(
        names(&lint_crl(&der, &all_tls()).unwrap()),
        ["e_rfc_crl_next_update_missing"]
    );
    // A PKITS CRL, made to be valid, is clean by RFC 5280.
    let der = data("pkits/crls/TrustAnchorRootCRL.crl");
    assert!(lint_crl(&der, &rfc).unwrap().is_empty());
}

#[test]
fn csrs_go_through_the_same_rules() {
    let der = data("lint/weak-internal.csr");
    let verified = CsrFacts {
        signature_verifies: Some(true),
    };
    assert_eq!(
        names(&lint_csr(&der, verified, &all_tls()).unwrap()),
        [
            "e_cabf_csr_weak_key",
            "e_cabf_csr_dns_name_malformed",
            "e_cabf_csr_internal_name"
        ]
    );
    // Proof of possession is the caller's answer, and a finding when it is no.
    let forged = CsrFacts {
        signature_verifies: Some(false),
    };
    let core = LintOptions::default();
    assert_eq!(
        names(&lint_csr(&der, forged, &core).unwrap()),
        [
            "e_rfc2986_signature_invalid",
            "e_cabf_csr_weak_key",
            "e_cabf_csr_dns_name_malformed"
        ]
    );
}

#[test]
fn ocsp_responses_go_through_the_same_rules_each_single_response_dated() {
    let der = data("lint/resp-invalid-signature-oid.der");
    let resp = OcspResponse::from_der(&der).unwrap();
    assert_eq!(
        names(&lint_parsed_ocsp(&resp, &all_tls())),
        ["e_cabf_ocsp_signature_algorithm_not_allowed"]
    );
    // No nextUpdate: a finding only from ballot SC31 (2020-09-30), by the
    // SingleResponse's thisUpdate or `at`.
    let der = data("lint/resp-revoked-no-next-update.der");
    let resp = OcspResponse::from_der(&der).unwrap();
    assert!(lint_parsed_ocsp(&resp, &all_tls()).is_empty());
    let today = LintOptions {
        at: Some(date("2024-01-01")),
        ..all_tls()
    };
    assert_eq!(
        names(&lint_parsed_ocsp(&resp, &today)),
        ["e_cabf_ocsp_next_update_missing"]
    );
}

#[test]
fn every_object_has_lints_of_the_one_shape() {
    for object in [
        Object::Any,
        Object::Certificate,
        Object::Crl,
        Object::OcspResponse,
        Object::Csr,
    ] {
        assert!(lints().any(|l| l.object() == object), "{}", object.name());
    }
    // `applies_to` is a certificate lint's alone.
    assert!(lints()
        .filter(|l| l.object() != Object::Certificate)
        .all(|l| !l.applies_to(pkit_lint::CertType::TlsLeaf)));
}
