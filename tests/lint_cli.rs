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
    common::issue_ca(dir, name, "CN=Lint CA,O=Example,C=US", extra)
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

/// Each bad certificate (`tests/common/bad_certs.rs`) trips the lint it was made for.
#[test]
fn bad_certificates_trip_their_rules() {
    let t = common::tempdir();
    let cases: Vec<_> = common::bad_certs::build(t.path())
        .into_iter()
        .map(|b| (b.file, b.lint, b.args))
        .collect();
    let mut covered = std::collections::BTreeSet::new();
    for (file, want, args) in &cases {
        let v = lint(file, args);
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
            // The CRL, OCSP and CSR lints are the other tests' here.
            .filter(|l| {
                l.split('|')
                    .nth(2)
                    .is_some_and(|o| o.trim() == "certificate")
            })
            .filter_map(|l| l.split('|').nth(1).map(|x| x.trim().to_string()))
            .filter(|x| x.starts_with("e_") || x.starts_with("w_"))
            .collect()
    };
    // What no encoder writes is built byte by byte (`tests/common/malformed.rs`, each
    // shown firing in tests/lint_malformed.rs).
    covered.extend(common::malformed::all().iter().map(|m| m.lint));
    for l in &all {
        assert!(covered.contains(l.as_str()), "no bad certificate trips {l}");
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
    // A warning fails only with --fail-on warning. (A TLS leaf's keyUsage not critical
    // is RFC 5280's SHOULD but the BRs' MUST since SC-62: RFC 5280's rules alone here.)
    let tpl = common::write_file(
        t.path(),
        "w.json",
        br#"{"extensions": [{"oid": "2.5.29.15", "critical": false, "der_hex": "03020780"}], "ext_key_usage": ["serverAuth"]}"#,
    );
    let warned = leaf(
        &ca,
        t.path(),
        "warned",
        &[
            "--san",
            "DNS:w.example",
            "--template",
            &s(&tpl),
            "--lint",
            "warn",
        ],
    );
    let r = pk(&["lint", "--rules", "rfc5280", &s(&warned)]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let r = pk(&[
        "lint",
        "--rules",
        "rfc5280",
        "--fail-on",
        "warning",
        &s(&warned),
    ]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let r = pk(&["lint", &s(&warned)]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(r
        .stdout_str()
        .contains("e_cabf_leaf_key_usage_not_critical"));
    // Bad input: one line, exit 3; a CRL is named and passed over.
    let junk = common::write_file(
        t.path(),
        "junk.pem",
        b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    );
    let r = pk(&["lint", &s(&junk)]);
    assert_eq!(r.code, Some(3), "{}", r.describe());
    assert!(!r.stderr_str().contains("panicked"));
    // A named file with none of the four in it (a private key): exit 3, as docs/lint.md
    // says — a script must not read "clean" from a file nothing was checked in. A key
    // beside a certificate in one file is passed over, said on stderr.
    let key = t.path().join("good.key");
    let r = pk(&["lint", &s(&key)]);
    assert_eq!(r.code, Some(3), "{}", r.describe());
    assert!(
        r.stderr_str().contains("nothing in it to lint"),
        "{}",
        r.describe()
    );
    let r = pk(&["lint", "-f", "json", &s(&key)]);
    assert_eq!(r.code, Some(3), "{}", r.describe());
    let both = [std::fs::read(&key).unwrap(), std::fs::read(&good).unwrap()].concat();
    let both = common::write_file(t.path(), "both.pem", &both);
    let r = pk(&["lint", &s(&both)]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(r.stderr_str().contains("not linted"), "{}", r.describe());
    // DER that is nothing known, named: a certificate cut short, random bytes. Exit 3,
    // with where a certificate's decoder stopped; in a directory (-r) it is passed over.
    let der = pem::parse(std::fs::read(&good).unwrap())
        .unwrap()
        .contents()
        .to_vec();
    let cut = common::write_file(t.path(), "cut.der", &der[..der.len() / 2]);
    let noise = common::write_file(t.path(), "noise.bin", &[0x54; 64]);
    for (f, needle) in [(&cut, "offset 1: "), (&noise, "offset 0: ")] {
        let r = pk(&["lint", &s(f)]);
        assert_eq!(r.code, Some(3), "{}", r.describe());
        assert!(r.stderr_str().contains(needle), "{}", r.describe());
    }
    let dir = t.path().join("found");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(&cut, dir.join("cut.der")).unwrap();
    std::fs::copy(&good, dir.join("good.pem")).unwrap();
    let r = pk(&["lint", "-r", &s(&dir)]);
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
    // The bad CRLs (OpenSSL's bare one, a 30-day one from a public CA): each trips its lint.
    for bad in common::bad_certs::crls(t.path()) {
        let got = lints_of(&lint(&bad.file, &bad.args));
        assert!(
            got.iter().any(|l| l == bad.lint),
            "{}: {} not among {got:?}",
            bad.file.display(),
            bad.lint
        );
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

/// A CSR from OpenSSL with `subj` and `-addext` lines, for a new key of `newkey`.
fn openssl_csr(dir: &Path, name: &str, newkey: &str, subj: &str, exts: &[&str]) -> PathBuf {
    let out = dir.join(format!("{name}.csr"));
    let key = s(&dir.join(format!("{name}.key")));
    let o = s(&out);
    let mut args = vec![
        "req", "-new", "-newkey", newkey, "-nodes", "-keyout", &key, "-subj", subj, "-out", &o,
    ];
    for e in exts {
        args.extend(["-addext", e]);
    }
    let (code, text) = ossl(&args);
    assert_eq!(code, Some(0), "{text}");
    out
}

#[test]
fn csrs_are_linted() {
    common::require_openssl();
    let t = common::tempdir();
    let d = t.path();
    // pkit's own request for a host lints clean, even for a public CA.
    pk_ok(&[
        "key",
        "gen",
        "--alg",
        "ecdsa-p256",
        "-o",
        &s(&d.join("k.pem")),
    ]);
    let ours = d.join("ours.csr");
    pk_ok(&[
        "issue",
        "csr",
        "--key",
        &s(&d.join("k.pem")),
        "--subject",
        "CN=www.example.com",
        "--san",
        "DNS:www.example.com",
        "-o",
        &s(&ours),
    ]);
    let v = lint(
        &ours,
        &["--rules", "rfc5280,cabf-tls", "--fail-on", "notice"],
    );
    assert_eq!(
        (v["object"].as_str(), v["subject_dn"].as_str()),
        (Some("csr"), Some("CN=www.example.com")),
        "{v}"
    );
    assert_eq!(lints_of(&v), Vec::<String>::new(), "{v}");
    let weak = openssl_csr(d, "weak", "rsa:1024", "/CN=weak.example.com", &[]);
    let names = openssl_csr(
        d,
        "names",
        "rsa:2048",
        "/CN=x",
        &["subjectAltName=DNS:a_b.example.com,DNS:app.internal"],
    );
    let ed = openssl_csr(
        d,
        "ed",
        "ed25519",
        "/CN=ed",
        &["subjectAltName=DNS:ed.example.com"],
    );
    // A flipped bit in the signature: no proof of possession.
    let mut der = pem::parse(std::fs::read(&ed).unwrap())
        .unwrap()
        .into_contents();
    let n = der.len();
    der[n - 2] ^= 1;
    let tampered = common::write_file(d, "tampered.der", &der);
    let mut seen = std::collections::BTreeSet::new();
    for (file, want) in [
        (
            &weak,
            &["e_cabf_csr_weak_key", "w_csr_names_only_in_common_name"][..],
        ),
        (
            &names,
            &["e_cabf_csr_dns_name_malformed", "e_cabf_csr_internal_name"],
        ),
        (&ed, &["e_cabf_csr_key_algorithm_not_allowed"]),
        (
            &tampered,
            &[
                "e_rfc2986_signature_invalid",
                "e_cabf_csr_key_algorithm_not_allowed",
            ],
        ),
    ] {
        let v = lint(file, &["--rules", "rfc5280,cabf-tls"]);
        let got = lints_of(&v);
        assert_eq!(got, want, "{}: {v}", file.display());
        for f in v["findings"].as_array().unwrap() {
            assert!(f["offset"].as_u64().unwrap() > 0, "{f}");
        }
        seen.extend(got);
    }
    // Under the private CA's default rules, an Ed25519 key and an internal name are fine.
    assert_eq!(lints_of(&lint(&ed, &[])), Vec::<String>::new());
    let r = pk(&["lint", &s(&names)]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(!r.stdout_str().contains("internal"), "{}", r.stdout_str());
    // Every CSR lint but the two OpenSSL cannot produce (a version other than v1, a
    // duplicated requested extension) fires here.
    let r = pk_ok(&["lint", "--list"]);
    for l in r.stdout_str().lines().filter(|l| l.contains("| csr ")) {
        let name = l.split('|').nth(1).unwrap().trim();
        assert!(
            seen.contains(name)
                || ["e_rfc2986_version_not_v1", "e_rfc_csr_duplicate_extension"].contains(&name),
            "no CSR trips {name}"
        );
    }
}

/// OpenSSL's responder signing with a certificate that is no OCSP signer, with SHA-1.
#[test]
fn ocsp_responses_from_a_wrong_signer_are_flagged() {
    common::require_openssl();
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d, "ca", &[]);
    let web = leaf(&ca, d, "web", &["--san", "DNS:www.example.com"]);
    let req = d.join("req.der");
    pk_ok(&[
        "ocsp",
        "request",
        "--cert",
        &s(&web),
        "--issuer",
        &s(&ca.join("ca.pem")),
        "-o",
        &s(&req),
    ]);
    let index = common::write_file(d, "index.txt", b"");
    let resp = d.join("resp.der");
    let (code, out) = ossl(&[
        "ocsp",
        "-index",
        &s(&index),
        "-CA",
        &s(&ca.join("ca.pem")),
        "-rsigner",
        &s(&web),
        "-rkey",
        &s(&d.join("web.key")),
        "-rmd",
        "sha1",
        "-reqin",
        &s(&req),
        "-respout",
        &s(&resp),
        "-ndays",
        "1",
    ]);
    assert_eq!(code, Some(0), "{out}");
    let v = lint(&resp, &["--rules", "rfc5280,cabf-tls"]);
    assert_eq!(
        lints_of(&v),
        [
            "e_rfc6960_delegated_responder_not_ocsp_signer",
            "e_cabf_ocsp_signature_algorithm_not_allowed"
        ],
        "{v}"
    );
    let der = std::fs::read(&resp).unwrap();
    for f in v["findings"].as_array().unwrap() {
        let at = f["offset"].as_u64().unwrap() as usize;
        assert!(at > 0 && at < der.len(), "{f}");
    }
}

/// Rules dated by issuance through the binary: a certificate issued in 2019 for 800 days
/// met the rules of its day and draws the finding only when judged as of today (`--at`);
/// the JSON says the day and the type's reason; `--list` shows the dates; a bad `--at` or
/// `--as` is a usage error naming it.
#[test]
fn lint_judges_by_the_rules_of_the_issuance_day() {
    let t = common::tempdir();
    let ca = common::issue_ca(
        t.path(),
        "ca-2018",
        "CN=Dated CA,O=Example,C=US",
        &["--now", "2018-06-01T00:00:00Z", "--days", "5000"],
    );
    let old = leaf(
        &ca,
        t.path(),
        "old",
        &[
            "--san",
            "DNS:old.example.com",
            "--not-before",
            "2019-06-01T00:00:00Z",
            "--days",
            "800",
            "--lint",
            "off",
        ],
    );
    let v = lint(&old, &[]);
    assert_eq!(v["judged_at"], "2019-06-01T00:00:00Z", "{v}");
    assert_eq!(v["certificate_type"], "tls-leaf", "{v}");
    assert!(
        v["certificate_type_reason"]
            .as_str()
            .unwrap()
            .contains("serverAuth"),
        "{v}"
    );
    assert!(
        !lints_of(&v).contains(&"e_cabf_validity_too_long".to_string()),
        "{v}"
    );
    let v = lint(&old, &["--at", "2026-11-28"]);
    assert_eq!(v["judged_at"], "2026-11-28T00:00:00Z", "{v}");
    assert!(
        lints_of(&v).contains(&"e_cabf_validity_too_long".to_string()),
        "{v}"
    );
    // Text names the type and why.
    let r = pk(&["lint", &s(&old)]);
    assert!(r.stdout_str().contains("(tls-leaf: "), "{}", r.describe());
    // --as cross-ca is a type; the list shows each rule's dates.
    let v = lint(&old, &["--as", "cross-ca"]);
    assert_eq!(v["certificate_type"], "cross-ca", "{v}");
    let list = pk_ok(&["lint", "--list"]).stdout_str();
    assert!(list.contains("2023-09-15 (Ballot SC-62)"), "{list}");
    assert!(
        list.contains("2023-09-15 (BR 2.0.0, Ballot SC-62)"),
        "{list}"
    );
    // Bad values: exit 2, one line naming the flag and what it takes, nothing on stdout.
    for (args, says) in [
        (["--at", "yesterday"], "--at yesterday"),
        (["--as", "bridge"], "cross-ca"),
    ] {
        let r = pk(&["lint", args[0], args[1], &s(&old)]);
        assert_eq!(r.code, Some(2), "{}", r.describe());
        assert!(r.stderr_str().contains(says), "{}", r.describe());
        assert_eq!(r.stderr_str().trim().lines().count(), 1, "{}", r.describe());
        assert!(r.stdout_str().is_empty(), "{}", r.describe());
    }
}

/// A directory read with -r lints each distinct object once, however many names it has
/// there (a file, a hash link to it, a bundle holding it again), under the first name.
#[test]
fn each_distinct_object_is_linted_once() {
    let t = common::tempdir();
    let store = common::root_store();
    let dir = t.path().join("certs");
    std::fs::create_dir(&dir).unwrap();
    let bundle: String = store[..4].iter().map(|c| c.pem.as_str()).collect();
    std::fs::write(dir.join("bundle.crt"), &bundle).unwrap();
    for (i, c) in store[..4].iter().enumerate() {
        let file = dir.join(format!("root-{i}.pem"));
        std::fs::write(&file, &c.pem).unwrap();
        std::os::unix::fs::symlink(&file, dir.join(format!("{i:08x}.0"))).unwrap();
    }
    let d = dir.to_string_lossy().into_owned();
    let run = common::pkit_run(&["lint", "-r", &d, "-f", "json"]);
    assert!(matches!(run.code, Some(0 | 1)), "{}", run.describe());
    let items = common::json_items(&run);
    assert_eq!(items.len(), 4, "{}", run.describe());
    assert!(
        run.stderr_str().contains("8 objects were found again"),
        "{}",
        run.describe()
    );
}
