//! NIST PKITS sections 4.8–4.12 (certificate policies, requireExplicitPolicy, policy
//! mappings, inhibitPolicyMapping, inhibitAnyPolicy), run through policy processing
//! alone: each path is listed from the trust anchor's child to the end entity, with
//! the PKITS inputs and the outcome PKITS gives (None: the path must be refused;
//! Some: the user-constrained policy set, NIST-test-policy-k written as k and anyPolicy
//! as 0). Signatures, names and the rest of path validation are not checked here.
//!
//! The certificates come from the `cryptography_vectors` Python package. Without it the
//! test notes what it skipped, except with `CI=true`, where it fails.

use super::*;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

const CHAINS: &[(&str, &[&str])] = &[
    ("4.8.1", &["GoodCACert", "ValidCertificatePathTest1EE"]),
    (
        "4.8.2",
        &["NoPoliciesCACert", "AllCertificatesNoPoliciesTest2EE"],
    ),
    (
        "4.8.3",
        &[
            "GoodCACert",
            "PoliciesP2subCACert",
            "DifferentPoliciesTest3EE",
        ],
    ),
    (
        "4.8.4",
        &["GoodCACert", "GoodsubCACert", "DifferentPoliciesTest4EE"],
    ),
    (
        "4.8.5",
        &[
            "GoodCACert",
            "PoliciesP2subCA2Cert",
            "DifferentPoliciesTest5EE",
        ],
    ),
    (
        "4.8.6",
        &[
            "PoliciesP1234CACert",
            "PoliciesP1234subCAP123Cert",
            "PoliciesP1234subsubCAP123P12Cert",
            "OverlappingPoliciesTest6EE",
        ],
    ),
    (
        "4.8.7",
        &[
            "PoliciesP123CACert",
            "PoliciesP123subCAP12Cert",
            "PoliciesP123subsubCAP12P1Cert",
            "DifferentPoliciesTest7EE",
        ],
    ),
    (
        "4.8.8",
        &[
            "PoliciesP12CACert",
            "PoliciesP12subCAP1Cert",
            "PoliciesP12subsubCAP1P2Cert",
            "DifferentPoliciesTest8EE",
        ],
    ),
    (
        "4.8.9",
        &[
            "PoliciesP123CACert",
            "PoliciesP123subCAP12Cert",
            "PoliciesP123subsubCAP12P2Cert",
            "PoliciesP123subsubsubCAP12P2P1Cert",
            "DifferentPoliciesTest9EE",
        ],
    ),
    (
        "4.8.10",
        &["PoliciesP12CACert", "AllCertificatesSamePoliciesTest10EE"],
    ),
    (
        "4.8.11",
        &["anyPolicyCACert", "AllCertificatesanyPolicyTest11EE"],
    ),
    ("4.8.12", &["PoliciesP3CACert", "DifferentPoliciesTest12EE"]),
    (
        "4.8.13",
        &["PoliciesP123CACert", "AllCertificatesSamePoliciesTest13EE"],
    ),
    ("4.8.14", &["anyPolicyCACert", "AnyPolicyTest14EE"]),
    (
        "4.8.18",
        &["PoliciesP12CACert", "UserNoticeQualifierTest18EE"],
    ),
    (
        "4.9.1",
        &[
            "requireExplicitPolicy10CACert",
            "requireExplicitPolicy10subCACert",
            "requireExplicitPolicy10subsubCACert",
            "requireExplicitPolicy10subsubsubCACert",
            "ValidrequireExplicitPolicyTest1EE",
        ],
    ),
    (
        "4.9.2",
        &[
            "requireExplicitPolicy5CACert",
            "requireExplicitPolicy5subCACert",
            "requireExplicitPolicy5subsubCACert",
            "requireExplicitPolicy5subsubsubCACert",
            "ValidrequireExplicitPolicyTest2EE",
        ],
    ),
    (
        "4.9.3",
        &[
            "requireExplicitPolicy4CACert",
            "requireExplicitPolicy4subCACert",
            "requireExplicitPolicy4subsubCACert",
            "requireExplicitPolicy4subsubsubCACert",
            "InvalidrequireExplicitPolicyTest3EE",
        ],
    ),
    (
        "4.9.4",
        &[
            "requireExplicitPolicy0CACert",
            "requireExplicitPolicy0subCACert",
            "requireExplicitPolicy0subsubCACert",
            "requireExplicitPolicy0subsubsubCACert",
            "ValidrequireExplicitPolicyTest4EE",
        ],
    ),
    (
        "4.9.5",
        &[
            "requireExplicitPolicy7CACert",
            "requireExplicitPolicy7subCARE2Cert",
            "requireExplicitPolicy7subsubCARE2RE4Cert",
            "requireExplicitPolicy7subsubsubCARE2RE4Cert",
            "InvalidrequireExplicitPolicyTest5EE",
        ],
    ),
    (
        "4.9.6",
        &[
            "requireExplicitPolicy2CACert",
            "requireExplicitPolicy2SelfIssuedCACert",
            "ValidSelfIssuedrequireExplicitPolicyTest6EE",
        ],
    ),
    (
        "4.9.7",
        &[
            "requireExplicitPolicy2CACert",
            "requireExplicitPolicy2SelfIssuedCACert",
            "requireExplicitPolicy2subCACert",
            "InvalidSelfIssuedrequireExplicitPolicyTest7EE",
        ],
    ),
    (
        "4.9.8",
        &[
            "requireExplicitPolicy2CACert",
            "requireExplicitPolicy2SelfIssuedCACert",
            "requireExplicitPolicy2subCACert",
            "requireExplicitPolicy2SelfIssuedsubCACert",
            "InvalidSelfIssuedrequireExplicitPolicyTest8EE",
        ],
    ),
    (
        "4.10.1",
        &["Mapping1to2CACert", "ValidPolicyMappingTest1EE"],
    ),
    (
        "4.10.2",
        &["Mapping1to2CACert", "InvalidPolicyMappingTest2EE"],
    ),
    (
        "4.10.3",
        &[
            "P12Mapping1to3CACert",
            "P12Mapping1to3subCACert",
            "P12Mapping1to3subsubCACert",
            "ValidPolicyMappingTest3EE",
        ],
    ),
    (
        "4.10.4",
        &[
            "P12Mapping1to3CACert",
            "P12Mapping1to3subCACert",
            "P12Mapping1to3subsubCACert",
            "InvalidPolicyMappingTest4EE",
        ],
    ),
    (
        "4.10.5",
        &[
            "P1Mapping1to234CACert",
            "P1Mapping1to234subCACert",
            "ValidPolicyMappingTest5EE",
        ],
    ),
    (
        "4.10.6",
        &[
            "P1Mapping1to234CACert",
            "P1Mapping1to234subCACert",
            "ValidPolicyMappingTest6EE",
        ],
    ),
    (
        "4.10.7",
        &[
            "MappingFromanyPolicyCACert",
            "InvalidMappingFromanyPolicyTest7EE",
        ],
    ),
    (
        "4.10.8",
        &[
            "MappingToanyPolicyCACert",
            "InvalidMappingToanyPolicyTest8EE",
        ],
    ),
    (
        "4.10.9",
        &["PanyPolicyMapping1to2CACert", "ValidPolicyMappingTest9EE"],
    ),
    (
        "4.10.10",
        &[
            "GoodCACert",
            "GoodsubCAPanyPolicyMapping1to2CACert",
            "InvalidPolicyMappingTest10EE",
        ],
    ),
    (
        "4.10.11",
        &[
            "GoodCACert",
            "GoodsubCAPanyPolicyMapping1to2CACert",
            "ValidPolicyMappingTest11EE",
        ],
    ),
    (
        "4.10.12",
        &["P12Mapping1to3CACert", "ValidPolicyMappingTest12EE"],
    ),
    (
        "4.10.13",
        &["P1anyPolicyMapping1to2CACert", "ValidPolicyMappingTest13EE"],
    ),
    (
        "4.10.14",
        &["P1anyPolicyMapping1to2CACert", "ValidPolicyMappingTest14EE"],
    ),
    (
        "4.11.1",
        &[
            "inhibitPolicyMapping0CACert",
            "inhibitPolicyMapping0subCACert",
            "InvalidinhibitPolicyMappingTest1EE",
        ],
    ),
    (
        "4.11.2",
        &[
            "inhibitPolicyMapping1P12CACert",
            "inhibitPolicyMapping1P12subCACert",
            "ValidinhibitPolicyMappingTest2EE",
        ],
    ),
    (
        "4.11.3",
        &[
            "inhibitPolicyMapping1P12CACert",
            "inhibitPolicyMapping1P12subCACert",
            "inhibitPolicyMapping1P12subsubCACert",
            "InvalidinhibitPolicyMappingTest3EE",
        ],
    ),
    (
        "4.11.4",
        &[
            "inhibitPolicyMapping1P12CACert",
            "inhibitPolicyMapping1P12subCACert",
            "inhibitPolicyMapping1P12subsubCACert",
            "ValidinhibitPolicyMappingTest4EE",
        ],
    ),
    (
        "4.11.5",
        &[
            "inhibitPolicyMapping5CACert",
            "inhibitPolicyMapping5subCACert",
            "inhibitPolicyMapping5subsubCACert",
            "inhibitPolicyMapping5subsubsubCACert",
            "InvalidinhibitPolicyMappingTest5EE",
        ],
    ),
    (
        "4.11.6",
        &[
            "inhibitPolicyMapping1P12CACert",
            "inhibitPolicyMapping1P12subCAIPM5Cert",
            "inhibitPolicyMapping1P12subsubCAIPM5Cert",
            "InvalidinhibitPolicyMappingTest6EE",
        ],
    ),
    (
        "4.11.7",
        &[
            "inhibitPolicyMapping1P1CACert",
            "inhibitPolicyMapping1P1SelfIssuedCACert",
            "inhibitPolicyMapping1P1subCACert",
            "ValidSelfIssuedinhibitPolicyMappingTest7EE",
        ],
    ),
    (
        "4.11.8",
        &[
            "inhibitPolicyMapping1P1CACert",
            "inhibitPolicyMapping1P1SelfIssuedCACert",
            "inhibitPolicyMapping1P1subCACert",
            "inhibitPolicyMapping1P1subsubCACert",
            "InvalidSelfIssuedinhibitPolicyMappingTest8EE",
        ],
    ),
    (
        "4.11.9",
        &[
            "inhibitPolicyMapping1P1CACert",
            "inhibitPolicyMapping1P1SelfIssuedCACert",
            "inhibitPolicyMapping1P1subCACert",
            "inhibitPolicyMapping1P1subsubCACert",
            "InvalidSelfIssuedinhibitPolicyMappingTest9EE",
        ],
    ),
    (
        "4.11.10",
        &[
            "inhibitPolicyMapping1P1CACert",
            "inhibitPolicyMapping1P1SelfIssuedCACert",
            "inhibitPolicyMapping1P1subCACert",
            "inhibitPolicyMapping1P1SelfIssuedsubCACert",
            "InvalidSelfIssuedinhibitPolicyMappingTest10EE",
        ],
    ),
    (
        "4.11.11",
        &[
            "inhibitPolicyMapping1P1CACert",
            "inhibitPolicyMapping1P1SelfIssuedCACert",
            "inhibitPolicyMapping1P1subCACert",
            "inhibitPolicyMapping1P1SelfIssuedsubCACert",
            "InvalidSelfIssuedinhibitPolicyMappingTest11EE",
        ],
    ),
    (
        "4.12.1",
        &["inhibitAnyPolicy0CACert", "InvalidinhibitAnyPolicyTest1EE"],
    ),
    (
        "4.12.2",
        &["inhibitAnyPolicy0CACert", "ValidinhibitAnyPolicyTest2EE"],
    ),
    (
        "4.12.3",
        &[
            "inhibitAnyPolicy1CACert",
            "inhibitAnyPolicy1subCA1Cert",
            "inhibitAnyPolicyTest3EE",
        ],
    ),
    (
        "4.12.4",
        &[
            "inhibitAnyPolicy1CACert",
            "inhibitAnyPolicy1subCA1Cert",
            "InvalidinhibitAnyPolicyTest4EE",
        ],
    ),
    (
        "4.12.5",
        &[
            "inhibitAnyPolicy5CACert",
            "inhibitAnyPolicy5subCACert",
            "inhibitAnyPolicy5subsubCACert",
            "InvalidinhibitAnyPolicyTest5EE",
        ],
    ),
    (
        "4.12.6",
        &[
            "inhibitAnyPolicy1CACert",
            "inhibitAnyPolicy1subCAIAP5Cert",
            "InvalidinhibitAnyPolicyTest6EE",
        ],
    ),
    (
        "4.12.7",
        &[
            "inhibitAnyPolicy1CACert",
            "inhibitAnyPolicy1SelfIssuedCACert",
            "inhibitAnyPolicy1subCA2Cert",
            "ValidSelfIssuedinhibitAnyPolicyTest7EE",
        ],
    ),
    (
        "4.12.8",
        &[
            "inhibitAnyPolicy1CACert",
            "inhibitAnyPolicy1SelfIssuedCACert",
            "inhibitAnyPolicy1subCA2Cert",
            "inhibitAnyPolicy1subsubCA2Cert",
            "InvalidSelfIssuedinhibitAnyPolicyTest8EE",
        ],
    ),
    (
        "4.12.9",
        &[
            "inhibitAnyPolicy1CACert",
            "inhibitAnyPolicy1SelfIssuedCACert",
            "inhibitAnyPolicy1subCA2Cert",
            "inhibitAnyPolicy1SelfIssuedsubCA2Cert",
            "ValidSelfIssuedinhibitAnyPolicyTest9EE",
        ],
    ),
    (
        "4.12.10",
        &[
            "inhibitAnyPolicy1CACert",
            "inhibitAnyPolicy1SelfIssuedCACert",
            "inhibitAnyPolicy1subCA2Cert",
            "InvalidSelfIssuedinhibitAnyPolicyTest10EE",
        ],
    ),
];

const CASES: &[(&str, &str, Option<&[u32]>)] = &[
    ("4.8.1", "", Some(&[1])),
    ("4.8.1", "explicit", Some(&[1])),
    ("4.8.1", "set=1 explicit", Some(&[1])),
    ("4.8.1", "set=2 explicit", None),
    ("4.8.1", "set=1,2 explicit", Some(&[1])),
    ("4.8.2", "", Some(&[])),
    ("4.8.2", "explicit", None),
    ("4.8.3", "", Some(&[])),
    ("4.8.3", "explicit", None),
    ("4.8.3", "set=1,2 explicit", None),
    ("4.8.4", "", None),
    ("4.8.5", "", None),
    ("4.8.6", "", Some(&[1])),
    ("4.8.6", "set=1", Some(&[1])),
    ("4.8.6", "set=2", None),
    ("4.8.7", "", None),
    ("4.8.8", "", None),
    ("4.8.9", "", None),
    ("4.8.10", "", Some(&[1, 2])),
    ("4.8.10", "set=1", Some(&[1])),
    ("4.8.10", "set=2", Some(&[2])),
    ("4.8.11", "", Some(&[0])),
    ("4.8.11", "set=1", Some(&[1])),
    ("4.8.12", "", None),
    ("4.8.13", "set=1", Some(&[1])),
    ("4.8.13", "set=2", Some(&[2])),
    ("4.8.13", "set=3", Some(&[3])),
    ("4.8.14", "set=1", Some(&[1])),
    ("4.8.14", "set=2", None),
    ("4.8.18", "set=1", Some(&[1])),
    ("4.8.18", "set=2", Some(&[2])),
    ("4.9.1", "", Some(&[])),
    ("4.9.2", "", Some(&[])),
    ("4.9.3", "", None),
    ("4.9.4", "", Some(&[1])),
    ("4.9.5", "", None),
    ("4.9.6", "", Some(&[])),
    ("4.9.7", "", None),
    ("4.9.8", "", None),
    ("4.10.1", "set=1", Some(&[1])),
    ("4.10.1", "set=2", None),
    ("4.10.1", "inhibit-map", None),
    ("4.10.2", "", None),
    ("4.10.2", "inhibit-map", None),
    ("4.10.3", "set=1", None),
    ("4.10.3", "set=2", Some(&[2])),
    ("4.10.4", "", None),
    ("4.10.5", "set=1", Some(&[1])),
    ("4.10.5", "set=6", None),
    ("4.10.6", "set=1", Some(&[1])),
    ("4.10.6", "set=6", None),
    ("4.10.7", "", None),
    ("4.10.8", "", None),
    ("4.10.9", "", Some(&[1])),
    ("4.10.10", "", None),
    ("4.10.11", "", Some(&[1])),
    ("4.10.12", "set=1", Some(&[1])),
    ("4.10.12", "set=2", Some(&[2])),
    ("4.10.13", "", Some(&[1])),
    ("4.10.14", "", Some(&[1])),
    ("4.11.1", "", None),
    ("4.11.2", "", Some(&[1])),
    ("4.11.3", "", None),
    ("4.11.4", "", Some(&[2])),
    ("4.11.5", "", None),
    ("4.11.6", "", None),
    ("4.11.7", "", Some(&[1])),
    ("4.11.8", "", None),
    ("4.11.9", "", None),
    ("4.11.10", "", None),
    ("4.11.11", "", None),
    ("4.12.1", "", None),
    ("4.12.2", "", Some(&[1])),
    ("4.12.3", "", Some(&[1])),
    ("4.12.3", "inhibit-any", None),
    ("4.12.4", "", None),
    ("4.12.5", "", None),
    ("4.12.6", "", None),
    ("4.12.7", "", Some(&[1])),
    ("4.12.8", "", None),
    ("4.12.9", "", Some(&[1])),
    ("4.12.10", "", None),
];

/// NIST-test-policy-k is 2.16.840.1.101.3.2.1.48.k; 0 stands for anyPolicy.
fn policy(k: u32) -> Vec<u8> {
    if k == 0 {
        oid(ANY)
    } else {
        oid(&format!("2.16.840.1.101.3.2.1.48.{k}"))
    }
}

fn inputs(settings: &str) -> PolicyInputs {
    let mut inputs = PolicyInputs::default();
    for word in settings.split_whitespace() {
        match word {
            "explicit" => inputs.initial_explicit_policy = true,
            "inhibit-map" => inputs.initial_policy_mapping_inhibit = true,
            "inhibit-any" => inputs.initial_any_policy_inhibit = true,
            _ => {
                let list = word.strip_prefix("set=").expect("a known setting");
                inputs.initial_policy_set = list
                    .split(',')
                    .map(|k| policy(k.parse().expect("a policy number")))
                    .collect();
            }
        }
    }
    inputs
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// The PKITS certificate directory, or why it cannot be found. The package may sit in
/// `target/pydeps` (where the test scripts install it) rather than on Python's path.
fn pkits_dir() -> Result<PathBuf, String> {
    let pydeps = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../target/pydeps");
    let mut path = std::env::var_os("PYTHONPATH").unwrap_or_default();
    if pydeps.is_dir() {
        let mut p = pydeps.into_os_string();
        if !path.is_empty() {
            p.push(":");
            p.push(&path);
        }
        path = p;
    }
    let out = Command::new("python3")
        .arg("-c")
        .arg("import cryptography_vectors, os; print(os.path.dirname(cryptography_vectors.__file__))")
        .env("PYTHONPATH", path)
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .trim()
            .lines()
            .last()
            .unwrap_or("no message")
            .to_string();
        return Err(format!(
            "python3 cannot import cryptography_vectors: {last}"
        ));
    }
    let dir =
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("x509/PKITS_data/certs");
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!("{} is missing", dir.display()))
    }
}

#[test]
fn nist_pkits_policy_sections() {
    let dir = match pkits_dir() {
        Ok(d) => d,
        Err(why) => {
            assert!(
                !in_ci(),
                "PKITS policy tests: {why}. With CI=true this fails instead of skipping. \
                 Fix: python3 -m pip install cryptography_vectors (or into target/pydeps)"
            );
            let _ = writeln!(
                std::io::stderr(),
                "note: PKITS policy tests skipped: {why}. To run them: python3 -m pip \
                 install cryptography_vectors (or set PYTHONPATH)"
            );
            return;
        }
    };
    let mut failures = Vec::new();
    for (id, settings, expect) in CASES {
        let (_, chain) = CHAINS
            .iter()
            .find(|(c, _)| c == id)
            .expect("every case has a chain");
        let ders: Vec<Vec<u8>> = chain
            .iter()
            .map(|name| {
                let file = dir.join(format!("{name}.crt"));
                std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
            })
            .collect();
        let got = run_der(&ders, &inputs(settings));
        let want: Option<Vec<String>> = expect.map(|set| {
            let mut v: Vec<Vec<u8>> = set.iter().map(|k| policy(*k)).collect();
            v.sort();
            v.iter().map(|p| dotted(p)).collect()
        });
        let ok = match (&got, &want) {
            (Ok(g), Some(w)) => g == w,
            (Err(_), None) => true,
            _ => false,
        };
        if !ok {
            failures.push(format!("{id} [{settings}]: got {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
