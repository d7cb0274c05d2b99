//! NIST PKITS through `pkit verify`: all 249 path validation vectors (sections 4.1–4.16),
//! each with its CRLs and initial policy settings, against the verdict NIST expects. A
//! vector pkit gets wrong must be listed in `KNOWN`, with the reason in docs/pkits.md; the
//! test fails on any other disagreement, and on a listed vector that starts to pass (so
//! the list and the docs stay true).

mod common;

use common::{pk, s};
use serde_json::Value;
use sha2::Digest as _;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Vectors whose verdict differs from NIST's, each explained in docs/pkits.md. None
/// since DSA signatures are verified (4.1.4, 4.1.5).
const KNOWN: &[&str] = &[];

/// Inside every PKITS certificate's validity (2010–2030), so the vectors' own dates
/// decide, not the day the test runs.
const NOW: &str = "2026-11-24T00:00:00Z";

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pkits")
}

/// NIST-test-policy-N is 2.16.840.1.101.3.2.1.48.N (PKITS §3.2).
fn policy_oid(name: &str) -> Option<String> {
    match name {
        "anyPolicy" => None,
        _ => {
            let n = name
                .strip_prefix("NIST-test-policy-")
                .expect("a PKITS policy name");
            Some(format!("2.16.840.1.101.3.2.1.48.{n}"))
        }
    }
}

#[test]
fn the_vendored_files_are_nists() {
    let dir = data();
    let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let mut n = 0;
    for line in sums.lines() {
        let (want, file) = line.split_once("  ").expect("sha256sum format");
        let got = pkit::der::hex(&sha2::Sha256::digest(
            std::fs::read(dir.join(file)).unwrap(),
        ));
        assert_eq!(got, want, "{file}");
        n += 1;
    }
    assert_eq!(n, 1 + 405 + 173);
}

#[test]
fn every_vector_gets_nists_verdict() {
    let dir = data();
    let vectors: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("vectors.json")).unwrap()).unwrap();
    assert_eq!(vectors.len(), 249);
    let mut wrong = BTreeSet::new();
    for v in &vectors {
        let name = v["Name"].as_str().unwrap();
        let path: Vec<String> = v["CertPath"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| s(&dir.join("certs").join(c.as_str().unwrap())))
            .collect();
        let (anchor, rest) = path.split_first().unwrap();
        let (target, intermediates) = rest.split_last().unwrap();
        let mut args = vec![
            "verify".to_string(),
            "--roots".into(),
            anchor.clone(),
            "--now".into(),
            NOW.into(),
            "--check-revocation".into(),
            "chain".into(),
            "-f".into(),
            "json".into(),
        ];
        for i in intermediates {
            args.extend(["--untrusted".into(), i.clone()]);
        }
        for c in v["CRLPath"].as_array().unwrap() {
            args.extend([
                "--crl".into(),
                s(&dir.join("crls").join(c.as_str().unwrap())),
            ]);
        }
        for p in v["InitialPolicySet"].as_array().unwrap() {
            if let Some(oid) = policy_oid(p.as_str().unwrap()) {
                args.extend(["--policy".into(), oid]);
            }
        }
        for (key, flag) in [
            ("InitialExplicitPolicy", "--require-explicit-policy"),
            ("InitialPolicyMappingInhibit", "--inhibit-policy-mapping"),
            ("InitialAnyPolicyInhibit", "--inhibit-any-policy"),
        ] {
            if v[key] == true {
                args.push(flag.into());
            }
        }
        args.push(target.clone());
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = pk(&argv);
        assert!(
            !r.timed_out && !r.stderr_str().contains("panicked"),
            "{name}: {}",
            r.describe()
        );
        let valid = match r.code {
            Some(0) => true,
            Some(1) => false,
            _ => panic!("{name}: {}", r.describe()),
        };
        if valid != (v["ShouldValidate"] == true) {
            let why = common::json_items(&r)
                .first()
                .map(|i| format!("{} {}", i["reason"], i["detail"]))
                .unwrap_or_default();
            eprintln!("{name}: pkit says {}, NIST {}: {why}", valid, !valid);
            wrong.insert(name.to_string());
        }
    }
    let known: BTreeSet<String> = KNOWN.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        wrong, known,
        "vectors pkit gets wrong (left) against the documented list (right)"
    );
}
