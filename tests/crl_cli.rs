//! `pkit crl` through the real binary: CRLs for every algorithm checked by OpenSSL 3.0's
//! `crl` (classic algorithms) and Python's `cryptography` (all nine, ML-DSA included);
//! verification, lookups and bad input.

mod common;

use common::{
    assert_parse_failure, is_classic, ossl, pk, pk_ok, refused, require_python_cryptography,
    revoke_ok, run_with, s, write_file, ALGS, HANG,
};
use std::path::{Path, PathBuf};

/// A CA in `dir/name` with two leaves; returns (ca dir, leaf serials).
fn ca_with_leaves(dir: &Path, name: &str, alg: &str) -> (PathBuf, Vec<String>) {
    let ca = dir.join(name);
    let subject = format!("CN={name} CRL CA");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&ca),
        "--subject",
        &subject,
        "--alg",
        alg,
    ]);
    let serials = (0..2)
        .map(|i| {
            let out = dir.join(format!("{name}-leaf{i}.pem"));
            let key = dir.join(format!("{name}-leaf{i}.key"));
            pk_ok(&[
                "issue",
                "cert",
                "--san",
                "DNS:leaf.example",
                "--ca",
                &s(&ca),
                "--subject",
                &format!("CN=leaf{i}"),
                "--alg",
                "ed25519",
                "--key-out",
                &s(&key),
                "-o",
                &s(&out),
            ]);
            let (_, text) = ossl(&["x509", "-in", &s(&out), "-noout", "-serial"]);
            text.trim().trim_start_matches("serial=").to_lowercase()
        })
        .collect();
    (ca, serials)
}

/// Python's verdict on a CRL: signature valid under the CA key, and the listed serials
/// with their reasons, one per line.
const PY_CRL: &str = r#"
import sys
from cryptography import x509
ca = x509.load_pem_x509_certificate(open(sys.argv[1], 'rb').read())
crl = x509.load_pem_x509_crl(open(sys.argv[2], 'rb').read())
assert crl.is_signature_valid(ca.public_key()), 'signature'
num = crl.extensions.get_extension_for_class(x509.CRLNumber).value.crl_number
print('number', num)
for r in crl:
    try:
        reason = r.extensions.get_extension_for_class(x509.CRLReason).value.reason.name
    except x509.ExtensionNotFound:
        reason = '-'
    print('%040x' % r.serial_number, reason)
"#;

fn py_crl(ca_pem: &Path, crl: &Path) -> String {
    require_python_cryptography();
    let r = run_with("python3", &["-c", PY_CRL, &s(ca_pem), &s(crl)], None, HANG);
    assert_eq!(r.code, Some(0), "python: {}", r.describe());
    r.stdout_str()
}

#[test]
fn every_algorithm_verifies_in_openssl_and_python() {
    let tmp = common::tempdir();
    for alg in ALGS {
        let (ca, serials) = ca_with_leaves(tmp.path(), alg, alg);
        revoke_ok(&ca, &serials[0], "keyCompromise", &[]);
        let crl = tmp.path().join(format!("{alg}.crl"));
        pk_ok(&["crl", "gen", "--ca", &s(&ca), "-o", &s(&crl)]);
        let ca_pem = ca.join("ca.pem");
        let out = py_crl(&ca_pem, &crl);
        assert_eq!(
            out,
            format!("number 1\n{} key_compromise\n", serials[0]),
            "{alg}"
        );
        if is_classic(alg) {
            let (code, text) = ossl(&[
                "crl",
                "-in",
                &s(&crl),
                "-CAfile",
                &s(&ca_pem),
                "-noout",
                "-text",
            ]);
            assert_eq!(code, Some(0), "{alg}: {text}");
            // OpenSSL 3.0 exits 0 even for a bad signature: the words are the verdict.
            assert!(text.contains("verify OK"), "{alg}: {text}");
            assert!(text.contains(&serials[0].to_uppercase()), "{alg}: {text}");
            assert!(text.contains("Key Compromise"), "{alg}: {text}");
            assert!(!text.contains(&serials[1].to_uppercase()), "{alg}: {text}");
        }
        let v = pk(&["crl", "verify", &s(&crl), "--issuer", &s(&ca_pem)]);
        assert_eq!(v.code, Some(0), "{alg}: {}", v.describe());
    }
}

#[test]
fn numbers_increase_reasons_hold_and_lookups_answer() {
    let tmp = common::tempdir();
    let (ca, serials) = ca_with_leaves(tmp.path(), "n", "ecdsa-p256");
    let ca_pem = ca.join("ca.pem");
    let first = tmp.path().join("1.pem");
    pk_ok(&["crl", "gen", "--ca", &s(&ca), "-o", &s(&first)]);
    assert_eq!(py_crl(&ca_pem, &first), "number 1\n");

    revoke_ok(&ca, &serials[0], "superseded", &[]);
    // --at: not before the certificate's notBefore, not in the future; any time between.
    let leaf1 = s(&tmp.path().join("n-leaf1.pem"));
    let ca_s = s(&ca);
    let revoke_at = |at: &str| pk(&["crl", "revoke", "--ca", &ca_s, "--cert", &leaf1, "--at", at]);
    for (at, why) in [
        ("2026-01-02T03:04:05Z", "notBefore"),
        ("2999-01-02T03:04:05Z", "in the future"),
    ] {
        refused(&revoke_at(at), 2, &["--at", why], "--at out of range");
    }
    let at = pkit::der::Time::now().to_string();
    let r = revoke_at(&at);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    // Revoking again changes nothing and says so.
    let again = revoke_ok(&ca, &serials[0], "keyCompromise", &[]);
    assert!(
        again.stderr_str().contains("already revoked"),
        "{}",
        again.describe()
    );

    let second = tmp.path().join("2.der");
    pk_ok(&[
        "crl",
        "gen",
        "--ca",
        &s(&ca),
        "--outform",
        "der",
        "-o",
        &s(&second),
    ]);
    let second_pem = tmp.path().join("2.pem");
    let (code, text) = ossl(&[
        "crl",
        "-inform",
        "DER",
        "-in",
        &s(&second),
        "-out",
        &s(&second_pem),
    ]);
    assert_eq!(code, Some(0), "{text}");
    let mut want = vec![
        format!("{} superseded", serials[0]),
        format!("{} -", serials[1]),
    ];
    want.sort();
    let out = py_crl(&ca_pem, &second_pem);
    let mut got: Vec<_> = out.lines().skip(1).map(str::to_string).collect();
    got.sort();
    assert_eq!(out.lines().next(), Some("number 2"));
    assert_eq!(got, want);

    // `parse -f json` prints the entries as it decodes them; -f jsonl and -f text build
    // them first. All three agree with Python's reading.
    let entries = |format: &str| -> Vec<String> {
        let out = pk_ok(&["parse", &s(&second), "-f", format]).stdout_str();
        let item = match format {
            "json" => serde_json::from_str::<serde_json::Value>(&out).unwrap()["items"][0].clone(),
            _ => serde_json::from_str(out.trim()).unwrap(),
        };
        let mut list: Vec<String> = item["revoked_certificates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let reason = e["extensions"][0]["value"]["reason"]
                    .as_str()
                    .unwrap_or("-");
                format!("{} {reason}", e["serial_number"].as_str().unwrap())
            })
            .collect();
        list.sort();
        list
    };
    assert_eq!(entries("json"), want);
    assert_eq!(entries("jsonl"), want);
    let text = pk_ok(&["parse", &s(&second)]).stdout_str();
    assert!(
        serials[..2].iter().all(|s| text.contains(s.as_str())),
        "{text}"
    );

    let hit = pk(&["crl", "check", &s(&second), &serials[0]]);
    assert_eq!(hit.code, Some(1), "{}", hit.describe());
    assert!(hit.stdout_str().contains("revoked at") && hit.stdout_str().contains("superseded"));
    let j = pk(&["crl", "check", &s(&second), "01", &serials[1], "-f", "json"]);
    assert_eq!(j.code, Some(1));
    let items = common::json_items(&j);
    assert_eq!(items[0]["revoked"], false);
    assert_eq!(items[1]["revoked"], true);
    assert_eq!(items[1]["revocation_date"], at);
    let miss = pk(&["crl", "check", &s(&second), "01"]);
    assert_eq!(miss.code, Some(0), "{}", miss.describe());

    // --drop-expired leaves out certificates that expired before thisUpdate.
    let late = tmp.path().join("late.pem");
    pk_ok(&[
        "crl",
        "gen",
        "--ca",
        &s(&ca),
        "--drop-expired",
        "--now",
        "2099-01-01T00:00:00Z",
        "-o",
        &s(&late),
    ]);
    assert_eq!(py_crl(&ca_pem, &late), "number 3\n");
}

#[test]
fn foreign_stale_and_tampered_crls_fail() {
    let tmp = common::tempdir();
    let (ca, serials) = ca_with_leaves(tmp.path(), "a", "ecdsa-p256");
    let (other, _) = ca_with_leaves(tmp.path(), "b", "ecdsa-p256");
    pk_ok(&["crl", "revoke", "--ca", &s(&ca), &serials[0]]);
    let crl = tmp.path().join("a.der");
    pk_ok(&[
        "crl",
        "gen",
        "--ca",
        &s(&ca),
        "--outform",
        "der",
        "--next-update",
        "1h",
        "-o",
        &s(&crl),
    ]);

    let foreign = pk(&[
        "crl",
        "verify",
        &s(&crl),
        "--issuer",
        &s(&other.join("ca.pem")),
        "-f",
        "json",
    ]);
    assert_eq!(foreign.code, Some(1), "{}", foreign.describe());
    let item = &common::json_items(&foreign)[0];
    assert_eq!(item["valid"], false);
    let failed: Vec<_> = item["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["ok"] == false)
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(failed, ["issuer_name", "authority_key_id", "signature"]);

    let stale = pk(&[
        "crl",
        "verify",
        &s(&crl),
        "--issuer",
        &s(&ca.join("ca.pem")),
        "--now",
        "2099-01-01T00:00:00Z",
    ]);
    assert_eq!(stale.code, Some(1));
    assert!(
        stale.stdout_str().contains("FAIL next_update"),
        "{}",
        stale.stdout_str()
    );

    // One flipped byte in the signature value.
    let mut der = std::fs::read(&crl).unwrap();
    let last = der.len() - 5;
    der[last] ^= 1;
    let bad = write_file(tmp.path(), "flipped.der", &der);
    let r = pk(&[
        "crl",
        "verify",
        &s(&bad),
        "--issuer",
        &s(&ca.join("ca.pem")),
    ]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(
        r.stdout_str().contains("FAIL signature"),
        "{}",
        r.stdout_str()
    );
}

#[test]
fn bad_input_gets_one_line_and_its_exit_code() {
    let tmp = common::tempdir();
    let (ca, _) = ca_with_leaves(tmp.path(), "x", "ed25519");
    let ca_pem = s(&ca.join("ca.pem"));

    let garbage = write_file(
        tmp.path(),
        "garbage.crl",
        b"\x30\x82\x10\x00not a crl at all",
    );
    let r = pk(&["crl", "verify", &s(&garbage), "--issuer", &ca_pem]);
    assert_parse_failure(&r, "garbage.crl", "garbage CRL");
    let r = pk(&["crl", "check", &s(&garbage), "01"]);
    assert_parse_failure(&r, "garbage.crl", "garbage CRL lookup");

    let unknown = pk(&["crl", "revoke", "--ca", &s(&ca), "0102"]);
    assert_eq!(unknown.code, Some(1), "{}", unknown.describe());
    assert!(unknown.stderr_str().contains("not issued by"));
    let reason = pk(&[
        "crl",
        "revoke",
        "--ca",
        &s(&ca),
        "0102",
        "--reason",
        "bored",
    ]);
    assert_eq!(reason.code, Some(2), "{}", reason.describe());
    let serial = pk(&["crl", "revoke", "--ca", &s(&ca), "xyz"]);
    assert_eq!(serial.code, Some(2), "{}", serial.describe());
    let foreign_cert = tmp.path().join("foreign.pem");
    let (other, _) = ca_with_leaves(tmp.path(), "y", "ed25519");
    std::fs::copy(other.join("ca.pem"), &foreign_cert).unwrap();
    let r = pk(&[
        "crl",
        "revoke",
        "--ca",
        &s(&ca),
        "--cert",
        &s(&foreign_cert),
    ]);
    assert_eq!(r.code, Some(1), "{}", r.describe());

    // An existing output is refused before a CRL number is spent.
    let out = write_file(tmp.path(), "exists.pem", b"keep me");
    let r = pk(&["crl", "gen", "--ca", &s(&ca), "-o", &s(&out)]);
    assert_eq!(r.code, Some(4), "{}", r.describe());
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
    // So is one in a directory that does not exist.
    let r = pk(&[
        "crl",
        "gen",
        "--ca",
        &s(&ca),
        "-o",
        &s(&tmp.path().join("nodir/c.crl")),
    ]);
    assert_eq!(r.code, Some(4), "{}", r.describe());
    assert!(
        r.stderr_str().contains("no such directory"),
        "{}",
        r.describe()
    );
    let fresh = tmp.path().join("fresh.pem");
    pk_ok(&["crl", "gen", "--ca", &s(&ca), "-o", &s(&fresh)]);
    assert_eq!(py_crl(&ca.join("ca.pem"), &fresh), "number 1\n");

    let missing = pk(&["crl", "gen", "--ca", &s(&tmp.path().join("nope"))]);
    assert_eq!(missing.code, Some(4), "{}", missing.describe());
}
