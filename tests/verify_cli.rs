//! `pkit verify` through the real binary, on chains pkit issues, with `openssl verify`
//! (the system OpenSSL 3.0) asked the same question: both must come to the same verdict.

mod common;

use common::{pk, pk_ok, refused, s, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A root, an intermediate under it, and a directory for leaves.
struct Hierarchy {
    _dir: tempfile::TempDir,
    dir: PathBuf,
    root: PathBuf,
    int: PathBuf,
}

fn hierarchy(alg: &str) -> Hierarchy {
    let t = common::tempdir();
    let dir = t.path().to_path_buf();
    let root = dir.join("root");
    let int = dir.join("int");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&root),
        "--subject",
        "CN=Verify Root,O=pkit tests",
        "--alg",
        alg,
    ]);
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&int),
        "--parent",
        &s(&root),
        "--subject",
        "CN=Verify Intermediate,O=pkit tests",
        "--alg",
        alg,
    ]);
    Hierarchy {
        _dir: t,
        dir,
        root,
        int,
    }
}

impl Hierarchy {
    /// A leaf from the intermediate; returns its certificate file.
    fn leaf(&self, name: &str, extra: &[&str]) -> PathBuf {
        let cert = self.dir.join(format!("{name}.pem"));
        let key = self.dir.join(format!("{name}.key"));
        let mut args = vec!["issue", "cert", "--ca"];
        let (ca, k, c) = (s(&self.int), s(&key), s(&cert));
        args.extend([ca.as_str(), "--key-out", &k, "-o", &c]);
        args.extend_from_slice(extra);
        pk_ok(&args);
        cert
    }

    /// The leaf followed by the intermediate, as a server sends them.
    fn bundle(&self, leaf: &Path) -> PathBuf {
        let mut text = std::fs::read_to_string(leaf).unwrap();
        text.push_str(&std::fs::read_to_string(self.int.join("ca.pem")).unwrap());
        let p = leaf.with_extension("chain.pem");
        std::fs::write(&p, text).unwrap();
        p
    }

    fn roots(&self) -> String {
        s(&self.root.join("ca.pem"))
    }
}

/// `pkit verify --roots ROOT args… -f json`: the exit code and the one item.
fn verify(h: &Hierarchy, args: &[&str]) -> (Option<i32>, Value) {
    let roots = h.roots();
    let mut all = vec!["verify", "--roots", roots.as_str(), "-f", "json"];
    all.extend_from_slice(args);
    let r = pk(&all);
    assert!(!r.stderr_str().contains("panicked"), "{}", r.describe());
    let items = common::json_items(&r);
    assert_eq!(items.len(), 1, "{}", r.describe());
    (r.code, items[0].clone())
}

/// `openssl verify -CAfile ROOT -untrusted INT args… LEAF`: whether it said OK.
fn openssl_ok(h: &Hierarchy, args: &[&str], leaf: &Path) -> bool {
    common::require_openssl();
    let (root, int, leaf) = (h.roots(), s(&h.int.join("ca.pem")), s(leaf));
    let mut all = vec![
        "verify",
        "-CAfile",
        root.as_str(),
        "-untrusted",
        int.as_str(),
    ];
    all.extend_from_slice(args);
    all.push(&leaf);
    let (code, out) = common::ossl(&all);
    code == Some(0) && out.contains(": OK")
}

fn reason(v: &Value) -> &str {
    v["reason"].as_str().unwrap_or("")
}

#[test]
fn a_good_chain_is_valid_and_reported_with_its_path() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf(
        "www",
        &[
            "--subject",
            "CN=www.example.com",
            "--san",
            "DNS:www.example.com",
        ],
    );
    let bundle = h.bundle(&leaf);
    let (code, v) = verify(&h, &[&s(&bundle)]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["valid"], true);
    let chain = v["chain"].as_array().unwrap();
    let subjects: Vec<&str> = chain
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        subjects,
        [
            "CN=www.example.com",
            "CN=Verify Intermediate,O=pkit tests",
            "CN=Verify Root,O=pkit tests"
        ]
    );
    for c in chain {
        assert_eq!(c["sha256"].as_str().unwrap().len(), 64);
        assert!(c["not_after"].as_str().unwrap().ends_with('Z'));
    }
    assert!(openssl_ok(&h, &[], &leaf));
    // The intermediate from --untrusted instead of the bundle.
    let (code, v) = verify(&h, &["--untrusted", &s(&h.int.join("ca.pem")), &s(&leaf)]);
    assert_eq!(code, Some(0), "{v}");
    // Text: one verdict line, then the chain.
    let r = pk_ok(&["verify", "--roots", &h.roots(), &s(&bundle)]);
    let out = r.stdout_str();
    assert!(out.starts_with(&format!("{}: OK\n", s(&bundle))), "{out}");
    assert_eq!(out.lines().count(), 4, "{out}");
}

#[test]
fn every_algorithm_verifies() {
    for alg in common::ALGS {
        let h = hierarchy(alg);
        let leaf = h.leaf("leaf", &["--subject", "CN=leaf", "--alg", alg]);
        let (code, v) = verify(&h, &[&s(&h.bundle(&leaf))]);
        assert_eq!(code, Some(0), "{alg}: {v}");
        if common::is_classic(alg) {
            assert!(openssl_ok(&h, &[], &leaf), "{alg}: openssl disagrees");
        }
    }
}

#[test]
fn a_missing_intermediate_is_an_unknown_issuer() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf("lonely", &["--subject", "CN=lonely"]);
    let (code, v) = verify(&h, &[&s(&leaf)]);
    assert_eq!((code, reason(&v)), (Some(1), "unknown-issuer"), "{v}");
    common::require_openssl();
    let (c, _) = common::ossl(&["verify", "-CAfile", &h.roots(), &s(&leaf)]);
    assert_ne!(
        c,
        Some(0),
        "openssl accepted a leaf without its intermediate"
    );
}

#[test]
fn expiry_and_the_renewal_window() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf("short", &["--subject", "CN=short", "--days", "10"]);
    let bundle = h.bundle(&leaf);
    let in_a_month = time_in_days(30);
    let (code, v) = verify(&h, &["--now", &in_a_month, &s(&bundle)]);
    assert_eq!((code, reason(&v)), (Some(1), "expired"), "{v}");
    assert_eq!(v["certificate"], 0);
    assert!(!openssl_ok(&h, &["-attime", &epoch_in_days(30)], &leaf));
    let (code, v) = verify(&h, &["--expires-within", "30d", &s(&bundle)]);
    assert_eq!((code, reason(&v)), (Some(1), "expires-soon"), "{v}");
    let (code, v) = verify(&h, &["--expires-within", "5d", &s(&bundle)]);
    assert_eq!(code, Some(0), "{v}");
}

#[test]
fn purposes_follow_the_extended_key_usage() {
    let h = hierarchy("ecdsa-p256");
    let client = h.leaf("client", &["--subject", "CN=client", "--profile", "client"]);
    let bundle = h.bundle(&client);
    let (code, v) = verify(&h, &["--purpose", "server", &s(&bundle)]);
    assert_eq!((code, reason(&v)), (Some(1), "eku-mismatch"), "{v}");
    assert!(!openssl_ok(&h, &["-purpose", "sslserver"], &client));
    let (code, v) = verify(&h, &["--purpose", "client", &s(&bundle)]);
    assert_eq!(code, Some(0), "{v}");
    assert!(openssl_ok(&h, &["-purpose", "sslclient"], &client));
}

#[test]
fn host_names_ip_addresses_and_wildcards() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf(
        "web",
        &[
            "--subject",
            "CN=web",
            "--san",
            "DNS:*.example.com",
            "--san",
            "IP:192.0.2.7",
        ],
    );
    let bundle = s(&h.bundle(&leaf));
    for (host, ok) in [
        ("a.example.com", true),
        ("A.Example.COM", true),
        ("example.com", false),
        ("a.b.example.com", false),
        ("a.example.org", false),
    ] {
        let (code, v) = verify(&h, &["--hostname", host, &bundle]);
        assert_eq!(code == Some(0), ok, "{host}: {v}");
        if !ok {
            assert_eq!(reason(&v), "hostname-mismatch", "{host}");
        }
        assert_eq!(
            openssl_ok(&h, &["-verify_hostname", host], &leaf),
            ok,
            "openssl on {host}"
        );
    }
    let (code, v) = verify(&h, &["--ip", "192.0.2.7", &bundle]);
    assert_eq!(code, Some(0), "{v}");
    let (code, v) = verify(&h, &["--ip", "192.0.2.8", &bundle]);
    assert_eq!((code, reason(&v)), (Some(1), "hostname-mismatch"), "{v}");
}

#[test]
fn revocation_from_a_crl_and_from_the_ca_database() {
    let h = hierarchy("ecdsa-p256");
    let good = h.leaf("good", &["--subject", "CN=good"]);
    let bad = h.leaf("bad", &["--subject", "CN=bad"]);
    pk_ok(&[
        "crl",
        "revoke",
        "--ca",
        &s(&h.int),
        "--cert",
        &s(&bad),
        "--reason",
        "keyCompromise",
    ]);
    let crl = h.dir.join("int.crl");
    pk_ok(&["crl", "gen", "--ca", &s(&h.int), "-o", &s(&crl)]);
    let (code, v) = verify(&h, &["--crl", &s(&crl), &s(&h.bundle(&bad))]);
    assert_eq!((code, reason(&v)), (Some(1), "revoked"), "{v}");
    let (code, v) = verify(&h, &["--crl", &s(&crl), &s(&h.bundle(&good))]);
    assert_eq!(code, Some(0), "{v}");
    // openssl with the same CRL agrees on both.
    let crl_arg = s(&crl);
    assert!(!openssl_ok(&h, &["-crl_check", "-CRLfile", &crl_arg], &bad));
    assert!(openssl_ok(&h, &["-crl_check", "-CRLfile", &crl_arg], &good));
    // The CA directory's database answers too.
    let (code, v) = verify(&h, &["--ca", &s(&h.int), &s(&h.bundle(&bad))]);
    assert_eq!((code, reason(&v)), (Some(1), "revoked"), "{v}");
    let (code, v) = verify(&h, &["--ca", &s(&h.int), &s(&h.bundle(&good))]);
    assert_eq!(code, Some(0), "{v}");
    // A whole-chain check with only the intermediate's CRL: the root's CRL is missing, so
    // hard-fail says unknown and soft-fail lets it pass.
    let (code, v) = verify(
        &h,
        &[
            "--crl",
            &s(&crl),
            "--check-revocation",
            "chain",
            &s(&h.bundle(&good)),
        ],
    );
    assert_eq!((code, reason(&v)), (Some(1), "revocation-unknown"), "{v}");
    let (code, v) = verify(
        &h,
        &[
            "--crl",
            &s(&crl),
            "--check-revocation",
            "chain",
            "--revocation-policy",
            "soft-fail",
            &s(&h.bundle(&good)),
        ],
    );
    assert_eq!(code, Some(0), "{v}");
}

#[test]
fn many_inputs_get_one_verdict_each() {
    let h = hierarchy("ecdsa-p256");
    let a = h.bundle(&h.leaf("a", &["--subject", "CN=a"]));
    let b = h.leaf("b", &["--subject", "CN=b"]);
    let roots = h.roots();
    let r = pk(&["verify", "--roots", &roots, "-f", "jsonl", &s(&a), &s(&b)]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let lines: Vec<Value> = r
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["reason"], "unknown-issuer");
    assert!(
        r.stderr_str().contains("2 certificates"),
        "{}",
        r.describe()
    );
}

#[test]
fn a_pool_of_look_alike_intermediates_ends_within_the_budget() {
    let h = hierarchy("ecdsa-p256");
    // 300 CAs that share the intermediate's name but not its key.
    let pool = h.dir.join("pool");
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&h.root),
        "--count",
        "300",
        "--profile",
        "ca",
        "--subject-template",
        "CN=Verify Intermediate,O=pkit tests",
        "--out-dir",
        &s(&pool),
    ]);
    let mut text = String::new();
    for n in 1..=300 {
        text.push_str(&std::fs::read_to_string(pool.join(format!("{n}.pem"))).unwrap());
    }
    let untrusted = h.dir.join("lookalikes.pem");
    std::fs::write(&untrusted, text).unwrap();
    // The real intermediate is not offered: every candidate fails its signature check.
    let leaf = h.leaf("target", &["--subject", "CN=target"]);
    let started = std::time::Instant::now();
    let (code, v) = verify(&h, &["--untrusted", &s(&untrusted), &s(&leaf)]);
    assert_eq!((code, reason(&v)), (Some(1), "budget-exceeded"), "{v}");
    assert!(started.elapsed() < common::HANG);
}

#[test]
fn bad_inputs_are_refused_with_their_exit_codes() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf("x", &["--subject", "CN=x"]);
    let junk = common::write_file(
        &h.dir,
        "junk.pem",
        b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    );
    let roots = h.roots();
    let r: Run = pk(&["verify", "--roots", &roots, &s(&junk)]);
    refused(&r, 3, &["junk.pem"], "an unparseable certificate");
    let empty = common::write_file(&h.dir, "empty.pem", b"");
    let r = pk(&["verify", "--roots", &s(&empty), &s(&leaf)]);
    refused(&r, 3, &["empty.pem"], "an empty roots file");
    let r = pk(&["verify", "--roots", &roots, &s(&h.dir.join("missing.pem"))]);
    refused(&r, 4, &["missing.pem"], "a missing file");
    let r = pk(&[
        "verify",
        "--roots",
        &roots,
        "--hostname",
        "bad..name",
        &s(&leaf),
    ]);
    refused(&r, 2, &["--hostname"], "a malformed host name");
}

fn time_in_days(days: i64) -> String {
    pkit::der::Time::now()
        .plus_seconds(days * 86_400)
        .to_string()
}

fn epoch_in_days(days: i64) -> String {
    pkit::der::Time::now()
        .plus_seconds(days * 86_400)
        .unix
        .to_string()
}
