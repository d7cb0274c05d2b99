//! `pkit lint` and the lint gate, through the binary: pkit's own certificates lint clean
//! for every profile and algorithm; a set of bad certificates (made with `--lint off`,
//! templates, or OpenSSL) each trips the rule it breaks, at the byte it is about; the
//! gate refuses before signing and records nothing.

mod common;

use common::issue_leaf as leaf;
use common::{json_items, ossl, pk, pk_ok, refused, s};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn new_ca(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    common::issue_ca(dir, name, "CN=Lint CA", extra)
}

/// `pkit lint -f json` of one file: the item.
fn lint(file: &Path, extra: &[&str]) -> Value {
    let f = s(file);
    let mut args = vec!["lint", "-f", "json", &f];
    args.extend_from_slice(extra);
    let r = pk(&args);
    assert!(matches!(r.code, Some(0 | 1)), "{}", r.describe());
    json_items(&r)[0].clone()
}

fn lints_of(v: &Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["lint"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn pkits_own_certificates_lint_clean() {
    let t = common::tempdir();
    for alg in [
        "ecdsa-p256",
        "ecdsa-p384",
        "ed25519",
        "rsa2048",
        "ml-dsa-44",
    ] {
        let root = new_ca(t.path(), &format!("root-{alg}"), &["--alg", alg]);
        let int = new_ca(
            t.path(),
            &format!("int-{alg}"),
            &["--alg", alg, "--parent", &s(&root)],
        );
        let mut files = vec![root.join("ca.pem"), int.join("ca.pem")];
        for profile in [
            "server",
            "client",
            "server-client",
            "code-signing",
            "ocsp-signer",
        ] {
            let san = if profile == "client" {
                "email:a@example.com"
            } else {
                "DNS:a.example.com"
            };
            let name = format!("{alg}-{profile}");
            files.push(leaf(
                &int,
                t.path(),
                &name,
                &[
                    "--alg",
                    alg,
                    "--profile",
                    profile,
                    "--subject",
                    "CN=a.example.com",
                    "--san",
                    san,
                ],
            ));
        }
        for f in &files {
            let v = lint(f, &["--fail-on", "notice"]);
            assert_eq!(v["findings"], serde_json::json!([]), "{}: {v}", f.display());
        }
    }
}

/// Each bad certificate, the lint it must trip and the rule sets to lint it with.
#[test]
fn bad_certificates_trip_their_rules() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", &[]);
    let dir = t.path();
    let template = |name: &str, json: &str| -> PathBuf {
        common::write_file(dir, &format!("{name}.json"), json.as_bytes())
    };
    let off = "--lint";
    let mut cases: Vec<(PathBuf, &str, &str)> = Vec::new();
    cases.push((
        leaf(
            &ca,
            dir,
            "long",
            &["--san", "DNS:a.example", "--days", "300", off, "off"],
        ),
        "e_cabf_validity_too_long",
        "rfc5280,cabf-tls-core",
    ));
    let t1 = template(
        "nosan",
        r#"{"ext_key_usage": ["serverAuth"], "subject": "CN=x"}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "nosan",
            &[
                "--template",
                &s(&t1),
                "--profile",
                "code-signing",
                off,
                "off",
            ],
        ),
        "e_cabf_san_missing",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((
        leaf(
            &ca,
            dir,
            "cn",
            &[
                "--subject",
                "CN=a.example",
                "--san",
                "DNS:b.example",
                off,
                "off",
            ],
        ),
        "e_cabf_cn_not_in_san",
        "rfc5280,cabf-tls",
    ));
    cases.push((
        leaf(
            &ca,
            dir,
            "underscore",
            &["--san", "DNS:a_b.example", off, "off"],
        ),
        "e_cabf_dns_name_malformed",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((
        leaf(
            &ca,
            dir,
            "email",
            &[
                "--san",
                "DNS:a.example",
                "--san",
                "email:a@example.com",
                off,
                "off",
            ],
        ),
        "e_cabf_san_forbidden_type",
        "rfc5280,cabf-tls-core",
    ));
    let t2 = template("eku", r#"{"ext_key_usage": ["serverAuth", "codeSigning"]}"#);
    cases.push((
        leaf(
            &ca,
            dir,
            "eku",
            &["--template", &s(&t2), "--san", "DNS:a.example", off, "off"],
        ),
        "e_cabf_eku_forbidden",
        "rfc5280,cabf-tls-core",
    ));
    let t3 = template(
        "ku",
        r#"{"key_usage": ["digitalSignature", "keyCertSign"], "ext_key_usage": ["serverAuth"]}"#,
    );
    let ku = leaf(
        &ca,
        dir,
        "ku",
        &["--template", &s(&t3), "--san", "DNS:a.example", off, "off"],
    );
    cases.push((
        ku.clone(),
        "e_cabf_leaf_key_usage_ca_bits",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((ku, "e_rfc_key_cert_sign_without_ca", "rfc5280"));
    let t4 = template(
        "nc",
        r#"{"permit": ["DNS:.example"], "ext_key_usage": ["serverAuth"]}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "nc",
            &["--template", &s(&t4), "--san", "DNS:a.example", off, "off"],
        ),
        "e_rfc_name_constraints_in_end_entity",
        "rfc5280",
    ));
    let t5 = template(
        "dup",
        r#"{"extensions": [{"oid": "1.2.3.4", "der_hex": "0500"}, {"oid": "1.2.3.4", "der_hex": "0500"}]}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "dup",
            &["--template", &s(&t5), "--san", "DNS:a.example", off, "off"],
        ),
        "e_rfc_duplicate_extension",
        "rfc5280",
    ));
    // authorityInfoAccess, critical: SEQUENCE { SEQUENCE { id-ad-ocsp, [6] "http://o/" } }
    let t6 = template(
        "aia",
        r#"{"extensions": [{"oid": "1.3.6.1.5.5.7.1.1", "critical": true,
           "der_hex": "3017301506082b060105050730018609687474703a2f2f6f2f"}]}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "aia",
            &["--template", &s(&t6), "--san", "DNS:a.example", off, "off"],
        ),
        "e_rfc_aia_critical",
        "rfc5280",
    ));
    let t7 = template(
        "kunc",
        r#"{"extensions": [{"oid": "2.5.29.15", "critical": false, "der_hex": "03020780"}], "ext_key_usage": ["serverAuth"]}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "kunc",
            &["--template", &s(&t7), "--san", "DNS:a.example", off, "off"],
        ),
        "w_rfc_key_usage_not_critical",
        "rfc5280",
    ));
    // A CA certificate whose basicConstraints are not critical, and one with a path
    // length but no keyCertSign.
    let t8 = template(
        "bcnc",
        r#"{"extensions": [{"oid": "2.5.29.19", "critical": false, "der_hex": "30030101ff"}], "key_usage": ["keyCertSign", "cRLSign"]}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "bcnc",
            &[
                "--template",
                &s(&t8),
                "--profile",
                "ca",
                "--subject",
                "CN=Sub",
                off,
                "off",
            ],
        ),
        "e_rfc_ca_basic_constraints_not_critical",
        "rfc5280",
    ));
    let t9 = template(
        "pathlen",
        r#"{"extensions": [{"oid": "2.5.29.19", "critical": true, "der_hex": "30060101ff020100"}], "key_usage": ["digitalSignature"]}"#,
    );
    let pathlen = leaf(
        &ca,
        dir,
        "pathlen",
        &[
            "--template",
            &s(&t9),
            "--profile",
            "ca",
            "--subject",
            "CN=Sub2",
            off,
            "off",
        ],
    );
    cases.push((
        pathlen.clone(),
        "e_rfc_path_len_without_key_cert_sign",
        "rfc5280",
    ));
    cases.push((pathlen.clone(), "e_rfc_ca_key_cert_sign_missing", "rfc5280"));
    cases.push((pathlen, "e_cabf_ca_key_usage_bits", "rfc5280,cabf-tls-core"));
    // An empty subject whose SAN is not critical.
    let t10 = template(
        "empty",
        r#"{"extensions": [{"oid": "2.5.29.17", "critical": false, "der_hex": "300b8209612e6578616d706c65"}], "ext_key_usage": ["serverAuth"]}"#,
    );
    cases.push((
        leaf(&ca, dir, "empty", &["--template", &s(&t10), off, "off"]),
        "e_rfc_empty_subject_without_critical_san",
        "rfc5280",
    ));
    // A private CA's intermediate lacks what a public one needs: policies and serverAuth.
    let int = dir.join("int");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&int),
        "--parent",
        &s(&ca),
        "--subject",
        "CN=Lint Int",
        "--no-passout",
    ]);
    cases.push((
        int.join("ca.pem"),
        "e_cabf_subca_policy_missing",
        "rfc5280,cabf-tls",
    ));
    cases.push((
        int.join("ca.pem"),
        "e_cabf_subca_eku_missing",
        "rfc5280,cabf-tls",
    ));
    // What a publicly trusted CA must add: policies, caIssuers, CDP; RSA or ECDSA keys;
    // no reserved addresses.
    let private = leaf(
        &ca,
        dir,
        "private",
        &[
            "--alg",
            "ed25519",
            "--san",
            "DNS:a.example",
            "--san",
            "IP:10.1.2.3",
        ],
    );
    for rule in [
        "e_cabf_policy_missing",
        "e_cabf_aia_ca_issuers_missing",
        "e_cabf_crl_distribution_point_missing",
        "e_cabf_key_algorithm_not_allowed",
        "e_cabf_ip_reserved",
    ] {
        cases.push((private.clone(), rule, "rfc5280,cabf-tls"));
    }
    // From OpenSSL: a 1024-bit RSA key (by CSR), a zero serial and no AKI, a root with
    // extendedKeyUsage and no keyUsage.
    let key1024 = dir.join("rsa1024.key");
    let csr = dir.join("rsa1024.csr");
    let (code, out) = ossl(&[
        "req",
        "-new",
        "-newkey",
        "rsa:1024",
        "-nodes",
        "-keyout",
        &s(&key1024),
        "-subj",
        "/CN=weak.example",
        "-addext",
        "subjectAltName=DNS:weak.example",
        "-out",
        &s(&csr),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let weak = dir.join("weak.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--csr",
        &s(&csr),
        "-o",
        &s(&weak),
        off,
        "off",
    ]);
    cases.push((weak, "e_cabf_weak_key", "rfc5280,cabf-tls-core"));
    let ext = common::write_file(
        dir,
        "zero.ext",
        b"basicConstraints=critical,CA:FALSE\nsubjectAltName=DNS:zero.example\nextendedKeyUsage=serverAuth\nauthorityKeyIdentifier=none\nsubjectKeyIdentifier=none\n",
    );
    let zero = dir.join("zero.pem");
    let (code, out) = ossl(&[
        "x509",
        "-req",
        "-in",
        &s(&csr),
        "-CA",
        &s(&ca.join("ca.pem")),
        "-CAkey",
        &s(&ca.join("ca.key")),
        "-set_serial",
        "0",
        "-days",
        "30",
        "-extfile",
        &s(&ext),
        "-out",
        &s(&zero),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let noeku_ext = common::write_file(dir, "noeku.ext", b"subjectAltName=DNS:weak.example\n");
    let noeku = dir.join("noeku.pem");
    let (code, out) = ossl(&[
        "x509",
        "-req",
        "-in",
        &s(&csr),
        "-CA",
        &s(&ca.join("ca.pem")),
        "-CAkey",
        &s(&ca.join("ca.key")),
        "-days",
        "30",
        "-extfile",
        &s(&noeku_ext),
        "-out",
        &s(&noeku),
    ]);
    assert_eq!(code, Some(0), "{out}");
    cases.push((
        noeku,
        "e_cabf_eku_server_auth_missing",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((zero.clone(), "e_rfc_serial_not_positive", "rfc5280"));
    cases.push((
        zero.clone(),
        "e_cabf_serial_low_entropy",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((zero.clone(), "e_rfc_aki_missing", "rfc5280"));
    cases.push((zero, "w_rfc_ski_missing", "rfc5280"));
    let root = dir.join("ekuroot.pem");
    let (code, out) = ossl(&[
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        &s(&dir.join("ekuroot.key")),
        "-subj",
        "/CN=EKU Root",
        "-days",
        "30",
        "-addext",
        "extendedKeyUsage=serverAuth",
        "-out",
        &s(&root),
    ]);
    assert_eq!(code, Some(0), "{out}");
    cases.push((root.clone(), "e_cabf_root_eku_present", "rfc5280,cabf-tls"));
    let long_serial = dir.join("longserial.pem");
    let (code, out) = ossl(&[
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        &s(&dir.join("longserial.key")),
        "-subj",
        "/CN=Long Serial",
        "-days",
        "3",
        "-set_serial",
        "0x0102030405060708090a0b0c0d0e0f101112131415",
        "-out",
        &s(&long_serial),
    ]);
    assert_eq!(code, Some(0), "{out}");
    cases.push((long_serial, "e_rfc_serial_too_long", "rfc5280"));
    cases.push((root, "e_rfc_ca_key_usage_missing", "rfc5280"));

    let mut covered = std::collections::BTreeSet::new();
    for (file, want, rules) in &cases {
        let v = lint(file, &["--rules", rules]);
        let got = lints_of(&v);
        assert!(
            got.iter().any(|l| l == want),
            "{}: {want} not among {got:?}",
            file.display()
        );
        // The offset is inside the certificate, at the start of a DER element.
        let der = pem::parse(std::fs::read(file).unwrap())
            .unwrap()
            .into_contents();
        for f in v["findings"].as_array().unwrap() {
            let at = f["offset"].as_u64().unwrap() as usize;
            assert!(at < der.len(), "{}: {f}", file.display());
        }
        covered.insert(*want);
    }
    // Every lint but the few pkit and OpenSSL cannot produce is shown to fire here.
    let all: Vec<String> = {
        let r = pk_ok(&["lint", "--list"]);
        r.stdout_str()
            .lines()
            .filter_map(|l| l.split('|').nth(1).map(|x| x.trim().to_string()))
            .filter(|x| x.starts_with("e_") || x.starts_with("w_"))
            // The CRL and OCSP lints are `crls_are_linted_and_gated`'s and
            // `ocsp_responses_are_linted_and_the_responder_gated`'s.
            .filter(|x| !x.contains("_crl_") && !x.contains("_ocsp_") && !x.contains("rfc6960"))
            .collect()
    };
    let cannot = [
        "e_rfc_version_not_v3_with_extensions",
        "e_rfc_signature_algorithm_mismatch",
        "e_rfc_unique_id_present",
        "e_rfc_ca_ski_missing",
        "e_rfc_key_id_critical",
        "e_rfc_name_constraints_not_critical",
    ];
    for l in &all {
        assert!(
            covered.contains(l.as_str()) || cannot.contains(&l.as_str()),
            "no bad certificate trips {l}"
        );
    }
}

#[test]
fn the_gate_refuses_before_signing() {
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", &[]);
    let list =
        |ca: &Path| json_items(&pk_ok(&["issue", "list", "--ca", &s(ca), "-f", "json"])).len();
    let (cert, key) = (t.path().join("long.pem"), t.path().join("long.key"));
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--san",
        "DNS:a.example",
        "--days",
        "300",
        "--key-out",
        &s(&key),
        "-o",
        &s(&cert),
    ]);
    refused(
        &r,
        1,
        &["lint gate", "e_cabf_validity_too_long", "§6.3.2"],
        "a 300-day server certificate",
    );
    assert!(!cert.exists() && !key.exists());
    assert_eq!(list(&ca), 0, "a refused certificate was recorded");
    // --lint warn signs and says what it found; off is silent.
    let r = pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--san",
        "DNS:a.example",
        "--days",
        "300",
        "--key-out",
        &s(&key),
        "-o",
        &s(&cert),
        "--lint",
        "warn",
    ]);
    assert!(
        r.stderr_str()
            .contains("pkit: lint: error e_cabf_validity_too_long"),
        "{}",
        r.describe()
    );
    assert_eq!(list(&ca), 1);
    // The batch is gated the same way: nothing of it is issued.
    let r = pk(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "5",
        "--days",
        "300",
        "--out-dir",
        &s(&t.path().join("b")),
    ]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert_eq!(list(&ca), 1);
    // A CA set for public trust needs its pointers, records its rules, writes what the
    // BRs require (the domain-validated policy, caIssuers, CDP) and applies the rules.
    let r = pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&t.path().join("nopointers")),
        "--subject",
        "CN=P",
        "--no-passout",
        "--lint-rules",
        "rfc5280,cabf-tls",
    ]);
    refused(
        &r,
        2,
        &["--issuer-url", "--crl-url"],
        "a public CA without pointers",
    );
    let public = new_ca(
        t.path(),
        "public",
        &[
            "--lint-rules",
            "rfc5280,cabf-tls",
            "--issuer-url",
            "http://pki.example/ca.der",
            "--crl-url",
            "http://pki.example/ca.crl",
        ],
    );
    let settings = std::fs::read_to_string(public.join("ca.json")).unwrap();
    assert!(
        settings.contains("\"lint_rules\": \"rfc5280,cabf-tls\""),
        "{settings}"
    );
    let web = leaf(
        &public,
        t.path(),
        "public-web",
        &[
            "--subject",
            "CN=www.example.com",
            "--san",
            "DNS:www.example.com",
        ],
    );
    let v = lint(
        &web,
        &["--rules", "rfc5280,cabf-tls", "--fail-on", "notice"],
    );
    assert_eq!(v["findings"], serde_json::json!([]), "{v}");
    // An Ed25519 key is not for public trust: the gate refuses it, in JSON too.
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&public),
        "--san",
        "DNS:a.example",
        "--alg",
        "ed25519",
        "--key-out",
        &s(&t.path().join("p.key")),
        "-f",
        "json",
    ]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let err: Value = serde_json::from_str(r.stderr_str().trim()).unwrap();
    let msg = err["error"]["message"].as_str().unwrap();
    assert!(msg.contains("e_cabf_key_algorithm_not_allowed"), "{err}");
    // A bad --lint-rules is a usage error.
    let r = pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&t.path().join("x")),
        "--subject",
        "CN=x",
        "--no-passout",
        "--lint-rules",
        "rfc9999",
    ]);
    refused(&r, 2, &["--lint-rules", "rfc9999"], "an unknown rule set");
}

#[test]
fn the_command_line_of_lint() {
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", &[]);
    let good = leaf(&ca, t.path(), "good", &["--san", "DNS:a.example"]);
    let bad = leaf(
        &ca,
        t.path(),
        "bad",
        &["--san", "DNS:a_b.example", "--lint", "off"],
    );
    let r = pk(&["lint", &s(&good)]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(r.stdout_str().contains("no findings"));
    let r = pk(&["lint", &s(&good), &s(&bad)]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(
        r.stdout_str().contains("error e_cabf_dns_name_malformed"),
        "{}",
        r.stdout_str()
    );
    // JSON lines, the summary, --as, --rules none, --fail-on.
    let r = pk(&["lint", "-f", "jsonl", &s(&good), &s(&bad)]);
    assert_eq!(r.stdout_str().lines().count(), 2);
    let r = pk(&["lint", "-f", "summary", &s(&good), &s(&bad)]);
    assert!(
        r.stdout_str().contains("e_cabf_dns_name_malformed") && r.stdout_str().contains("1 of 2")
    );
    let v = lint(&good, &["--as", "root"]);
    assert_eq!(v["certificate_type"], "root");
    let r = pk(&["lint", "--rules", "none", &s(&bad)]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    // A warning fails only with --fail-on warning.
    let tpl = common::write_file(
        t.path(),
        "w.json",
        br#"{"extensions": [{"oid": "2.5.29.15", "critical": false, "der_hex": "03020780"}], "ext_key_usage": ["serverAuth"]}"#,
    );
    let warned = leaf(
        &ca,
        t.path(),
        "warned",
        &["--san", "DNS:w.example", "--template", &s(&tpl)],
    );
    let r = pk(&["lint", &s(&warned)]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let r = pk(&["lint", "--fail-on", "warning", &s(&warned)]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    // Bad input: one line, exit 3; a CRL is named and passed over.
    let junk = common::write_file(
        t.path(),
        "junk.pem",
        b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    );
    let r = pk(&["lint", &s(&junk)]);
    assert_eq!(r.code, Some(3), "{}", r.describe());
    assert!(!r.stderr_str().contains("panicked"));
    // What is neither a certificate nor a CRL is named and passed over.
    let csr = t.path().join("a.csr");
    pk_ok(&[
        "issue",
        "csr",
        "--key",
        &s(&t.path().join("good.key")),
        "--subject",
        "CN=a",
        "-o",
        &s(&csr),
    ]);
    let r = pk(&["lint", &s(&csr)]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(r.stderr_str().contains("not linted"), "{}", r.describe());
    let r = pk(&["lint", "--rules", "x", &s(&good)]);
    assert_eq!(r.code, Some(2));
}

/// CRLs: `pkit lint` reads them, pkit's own lint clean, and `crl gen` is gated by the
/// CA's rules (a publicly trusted CA's CRL may not run past ten days).
#[test]
fn crls_are_linted_and_gated() {
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", &[]);
    let crl = t.path().join("ca.crl");
    pk_ok(&["crl", "gen", "--ca", &s(&ca), "-o", &s(&crl)]);
    let v = lint(&crl, &["--fail-on", "notice"]);
    assert_eq!(
        (v["object"].as_str(), v["findings"].as_array().map(Vec::len)),
        (Some("crl"), Some(0)),
        "{v}"
    );
    let public = new_ca(
        t.path(),
        "public",
        &[
            "--lint-rules",
            "rfc5280,cabf-tls",
            "--issuer-url",
            "http://pki.example/ca.der",
            "--crl-url",
            "http://pki.example/ca.crl",
        ],
    );
    let month = t.path().join("month.crl");
    let r = pk(&[
        "crl",
        "gen",
        "--ca",
        &s(&public),
        "--next-update",
        "30d",
        "-o",
        &s(&month),
    ]);
    refused(
        &r,
        1,
        &["e_cabf_crl_next_update_too_far"],
        "a 30-day CRL from a public CA",
    );
    assert!(!month.exists());
    pk_ok(&[
        "crl",
        "gen",
        "--ca",
        &s(&public),
        "--next-update",
        "7d",
        "-o",
        &s(&month),
    ]);
    let v = lint(
        &month,
        &["--rules", "rfc5280,cabf-tls", "--fail-on", "notice"],
    );
    assert_eq!(v["findings"], serde_json::json!([]), "{v}");
    // From OpenSSL: a v1 CRL without cRLNumber, AKI or extensions at all.
    common::require_openssl();
    let index = t.path().join("index.txt");
    let cnf = common::write_file(
        t.path(),
        "ca.cnf",
        format!(
            "[ca]\ndefault_ca=x\n[x]\ndatabase={}\ndefault_md=sha256\ndefault_crl_days=3\n",
            s(&index)
        )
        .as_bytes(),
    );
    std::fs::write(t.path().join("index.txt"), b"").unwrap();
    let v1 = t.path().join("v1.crl");
    let (code, out) = ossl(&[
        "ca",
        "-gencrl",
        "-config",
        &s(&cnf),
        "-cert",
        &s(&ca.join("ca.pem")),
        "-keyfile",
        &s(&ca.join("ca.key")),
        "-out",
        &s(&v1),
    ]);
    if code == Some(0) {
        let v = lint(&v1, &[]);
        let got = lints_of(&v);
        assert!(
            got.iter().any(|l| l == "e_rfc_crl_number_missing"),
            "{got:?}"
        );
        assert!(got.iter().any(|l| l == "e_rfc_crl_aki_missing"), "{got:?}");
    } else {
        panic!("openssl ca -gencrl: {out}");
    }
}

/// A certificate signed past the gate says so in the CA's records, with its findings.
#[test]
fn what_passes_the_gate_unenforced_is_recorded() {
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", &[]);
    leaf(
        &ca,
        t.path(),
        "warned",
        &["--san", "DNS:a.example", "--days", "300", "--lint", "warn"],
    );
    leaf(&ca, t.path(), "clean", &["--san", "DNS:b.example"]);
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "2",
        "--lint",
        "off",
        "--out-dir",
        &s(&t.path().join("b")),
    ]);
    let rows = json_items(&pk_ok(&["issue", "list", "--ca", &s(&ca), "-f", "json"]));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["lint"]["mode"], "warn", "{}", rows[0]);
    assert_eq!(
        rows[0]["lint"]["findings"][0]["lint"],
        "e_cabf_validity_too_long"
    );
    assert!(rows[1]["lint"].is_null(), "{}", rows[1]);
    assert_eq!(
        (
            rows[2]["lint"]["mode"].as_str(),
            rows[3]["lint"]["mode"].as_str()
        ),
        (Some("off"), Some("off"))
    );
}

/// OCSP responses: `pkit lint` reads them; a responder for a CA set for public trust
/// refuses to start with a lifetime outside BR §4.9.10's 8 hours to 10 days.
#[test]
fn ocsp_responses_are_linted_and_the_responder_gated() {
    let t = common::tempdir();
    let public = new_ca(
        t.path(),
        "public",
        &[
            "--lint-rules",
            "rfc5280,cabf-tls",
            "--issuer-url",
            "http://pki.example/ca.der",
            "--crl-url",
            "http://pki.example/ca.crl",
        ],
    );
    let web = leaf(&public, t.path(), "web", &["--san", "DNS:www.example.com"]);
    let req = t.path().join("req.der");
    pk_ok(&[
        "ocsp",
        "request",
        "--cert",
        &s(&web),
        "--issuer",
        &s(&public.join("ca.pem")),
        "-o",
        &s(&req),
    ]);
    let resp = t.path().join("resp.der");
    let r = pk(&[
        "ocsp",
        "respond",
        "--ca",
        &s(&public),
        "--request",
        &s(&req),
        "-o",
        &s(&resp),
    ]);
    refused(
        &r,
        1,
        &["e_cabf_ocsp_validity_out_of_range", "8 hours"],
        "a one-hour response",
    );
    assert!(!resp.exists());
    pk_ok(&[
        "ocsp",
        "respond",
        "--ca",
        &s(&public),
        "--request",
        &s(&req),
        "-o",
        &s(&resp),
        "--next-update",
        "1d",
    ]);
    let v = lint(
        &resp,
        &["--rules", "rfc5280,cabf-tls", "--fail-on", "notice"],
    );
    assert_eq!(
        (v["object"].as_str(), v["findings"].as_array().map(Vec::len)),
        (Some("ocsp_response"), Some(0)),
        "{v}"
    );
    // Signed anyway with --lint warn, the response says what the gate said.
    let warned = t.path().join("warned.der");
    pk_ok(&[
        "ocsp",
        "respond",
        "--ca",
        &s(&public),
        "--request",
        &s(&req),
        "-o",
        &s(&warned),
        "--lint",
        "warn",
    ]);
    let v = lint(&warned, &["--rules", "rfc5280,cabf-tls"]);
    assert_eq!(lints_of(&v), ["e_cabf_ocsp_validity_out_of_range"], "{v}");
    // A private CA's responder keeps the one-hour default.
    let private = new_ca(t.path(), "private", &[]);
    let mine = leaf(&private, t.path(), "mine", &["--san", "DNS:a.example"]);
    pk_ok(&[
        "ocsp",
        "request",
        "--cert",
        &s(&mine),
        "--issuer",
        &s(&private.join("ca.pem")),
        "-o",
        &s(&req),
        "--force",
    ]);
    pk_ok(&[
        "ocsp",
        "respond",
        "--ca",
        &s(&private),
        "--request",
        &s(&req),
        "-o",
        &s(&t.path().join("p.der")),
    ]);
}
