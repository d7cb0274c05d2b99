//! `pkit verify` on one chain per class of certificate the Web PKI rejects (and the few
//! RFC 5280 says to accept), built by `tests/peers/make_chains.py` with pyca/cryptography
//! and openssl: the trust anchor's own constraints, name constraints in every form, key
//! identifiers, the webpki rules on names, keys, usages and serials.
//!
//! Each chain gets pkit's verdict under both rule sets, checked against the one the
//! manifest expects; then Go's `crypto/x509` (tests/go/x509verify) and pyca's Web PKI
//! verifier (tests/peers/pyca_verify.py) judge the same files. Where pkit's webpki
//! verdict differs from both, the case must say why (`differs`, listed in
//! docs/verify.md); a note that is no longer true fails the test too.

mod common;

use common::{pk, require, s, Peer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn peers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers")
}

/// Build the chains into `dir` at `now`; the manifest.
fn make_chains(dir: &Path, now: i64) -> Value {
    common::require_python_cryptography();
    common::require_openssl();
    let script = peers_dir().join("make_chains.py");
    let r = common::run_with(
        "python3",
        &[s(&script), s(dir), now.to_string()],
        None,
        common::HANG,
    );
    assert_eq!(r.code, Some(0), "make_chains.py: {}", r.describe());
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

/// The time every verifier judges the chains at (the manifest's, a minute after they
/// were made), as `--now` takes it.
fn verify_time(manifest: &Value) -> String {
    let unix = manifest["time"].as_i64().unwrap();
    pkit::der::Time { unix }.to_string()
}

/// pkit's verdict on `case` under `rules`: `valid` or the reason code.
fn pkit_verdict(dir: &Path, case: &Value, rules: &str, now: &str) -> String {
    let at = |k: &str| s(&dir.join(case[k].as_str().unwrap()));
    let mut args = vec![
        "verify".to_string(),
        "-f".into(),
        "json".into(),
        "--now".into(),
        now.into(),
        "--rules".into(),
        rules.into(),
        "--roots".into(),
        at("root"),
    ];
    for i in case["intermediates"].as_array().unwrap() {
        args.extend(["--untrusted".into(), s(&dir.join(i.as_str().unwrap()))]);
    }
    if rules == "webpki" {
        args.extend(["--purpose".into(), "server".into()]);
    }
    if let Some(h) = case["hostname"].as_str() {
        args.extend(["--hostname".into(), h.into()]);
    }
    if let Some(ip) = case["ip"].as_str() {
        args.extend(["--ip".into(), ip.into()]);
    }
    args.push(at("leaf"));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = pk(&argv);
    match r.code {
        Some(0) | Some(1) => {
            let v = common::json_items(&r).remove(0);
            if v["valid"].as_bool() == Some(true) {
                "valid".into()
            } else {
                v["reason"].as_str().unwrap_or("?").into()
            }
        }
        other => format!("exit {other:?}: {}", r.stderr_str().trim()),
    }
}

/// A peer's verdicts, by case id, from its JSON lines.
fn verdicts(out: &str) -> BTreeMap<String, (bool, String)> {
    out.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["id"].as_str().unwrap().to_string(),
                (
                    v["ok"].as_bool().unwrap(),
                    v["error"].as_str().unwrap_or("").to_string(),
                ),
            )
        })
        .collect()
}

fn go_verdicts(dir: &Path) -> Option<BTreeMap<String, (bool, String)>> {
    let bin = common::go_program(
        "x509verify",
        "comparing with Go's crypto/x509",
        "install Go (the program uses the standard library only)",
    )?;
    let r = common::run_with(s(&bin), &[s(dir)], None, common::HANG);
    assert_eq!(r.code, Some(0), "x509verify: {}", r.describe());
    Some(verdicts(&r.stdout_str()))
}

fn pyca_verdicts(dir: &Path) -> BTreeMap<String, (bool, String)> {
    require(Peer::PythonCryptography);
    let script = peers_dir().join("pyca_verify.py");
    let r = common::run_with("python3", &[s(&script), s(dir)], None, common::HANG);
    assert_eq!(r.code, Some(0), "pyca_verify.py: {}", r.describe());
    verdicts(&r.stdout_str())
}

#[test]
fn every_class_gets_its_verdict_and_the_peers_judge_the_same_chains() {
    let t = common::tempdir();
    let dir = t.path();
    let now = pkit::der::Time::now();
    let manifest = make_chains(dir, now.unix);
    let now_text = verify_time(&manifest);
    let cases = manifest["cases"].as_array().unwrap();
    assert!(cases.len() >= 50, "{} cases", cases.len());

    let mut wrong = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        for rules in ["rfc5280", "webpki"] {
            let want = case["expect"][rules].as_str().unwrap();
            let got = pkit_verdict(dir, case, rules, &now_text);
            if got != want {
                wrong.push(format!("{id} ({rules}): pkit says {got}, expected {want}"));
            }
        }
    }
    assert!(wrong.is_empty(), "pkit's verdicts:\n{}", wrong.join("\n"));

    let pyca = pyca_verdicts(dir);
    let Some(go) = go_verdicts(dir) else {
        return;
    };
    let mut unexplained = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let ours = case["expect"]["webpki"] == "valid";
        let (g, g_err) = &go[id];
        let (p, p_err) = &pyca[id];
        let differs = case.get("differs").and_then(Value::as_str);
        match (ours != *g && ours != *p, differs) {
            (true, None) => unexplained.push(format!(
                "{id}: pkit {} but Go ({g_err}) and pyca ({p_err}) both {}",
                if ours { "accepts" } else { "rejects" },
                if *g { "accept" } else { "reject" },
            )),
            (false, Some(why)) => unexplained.push(format!(
                "{id}: noted as differing from both peers ({why}), but Go says {g}, pyca {p}"
            )),
            _ => {}
        }
    }
    assert!(
        unexplained.is_empty(),
        "against Go and pyca:\n{}",
        unexplained.join("\n")
    );
}

/// `pkit crl verify` and `pkit verify --crl` hold a CRL to one rule set: a CRL without
/// cRLNumber or with a critical one, with a critical extension pkit does not process, or
/// whose authorityKeyIdentifier is not the CA's key is refused by both, and one by the
/// rules is taken by both.
#[test]
fn crl_verify_and_verify_crl_apply_the_same_rules() {
    let t = common::tempdir();
    let dir = t.path();
    let now = pkit::der::Time::now();
    let manifest = make_chains(dir, now.unix);
    let now_text = verify_time(&manifest);
    let int = s(&dir.join("int.pem"));
    for (id, file) in manifest["crls"].as_object().unwrap() {
        let crl = s(&dir.join(file.as_str().unwrap()));
        let good = id == "crl_good";
        let r = pk(&[
            "crl", "verify", &crl, "--issuer", &int, "--now", &now_text, "-f", "json",
        ]);
        assert_eq!(
            r.code,
            Some(if good { 0 } else { 1 }),
            "crl verify {id}: {}",
            r.describe()
        );
        let v = common::json_items(&r).remove(0);
        assert_eq!(v["valid"].as_bool(), Some(good), "{id}: {v}");
        let r = pk(&[
            "verify",
            "--roots",
            &s(&dir.join("root.pem")),
            "--untrusted",
            &int,
            "--crl",
            &crl,
            "--now",
            &now_text,
            "-f",
            "json",
            &s(&dir.join("good.pem")),
        ]);
        let v = common::json_items(&r).remove(0);
        if good {
            assert_eq!(r.code, Some(0), "verify --crl {id}: {}", r.describe());
        } else {
            assert_eq!(
                (r.code, v["reason"].as_str()),
                (Some(1), Some("revocation-unknown")),
                "verify --crl {id}: {v}"
            );
        }
    }
}

/// The name constraints suite of Netflix BetterTLS, its 7,290 distinct chains rebuilt
/// by `tests/peers/nc_matrix.py`: under `rfc5280` every case the suite expects to pass
/// passes and every case it expects to fail fails (its soft cases, which it tolerates
/// either way, are not judged). Under `webpki` the same: a CN that names nothing in the
/// SAN is ignored, as the suite expects of a browser (pkit refuses only a CN that names
/// a SAN in another spelling, which the suite's leaves never have).
#[test]
fn the_bettertls_name_constraints_matrix_gets_the_suites_verdicts() {
    common::require_python_cryptography();
    let t = common::tempdir();
    let dir = t.path();
    let script = peers_dir().join("nc_matrix.py");
    let now = pkit::der::Time::now().unix;
    let r = common::run_with(
        "python3",
        &[s(&script), s(dir), now.to_string()],
        None,
        std::time::Duration::from_secs(120),
    );
    assert_eq!(r.code, Some(0), "nc_matrix.py: {}", r.describe());
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let cases = manifest["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 7290);
    let mut files: Vec<String> = cases
        .iter()
        .map(|c| c["file"].as_str().unwrap().to_string())
        .collect();
    files.sort();
    files.dedup();
    let at = pkit::der::Time {
        unix: manifest["time"].as_i64().unwrap(),
    }
    .to_string();
    for rules in ["rfc5280", "webpki"] {
        // One run per name asked for, every chain at once.
        let mut verdicts: BTreeMap<(String, String), Value> = BTreeMap::new();
        for (host, flag) in [("dns", "--hostname"), ("ip", "--ip")] {
            let name = manifest["hosts"][host].as_str().unwrap();
            let mut args: Vec<String> = [
                "verify", "--rules", rules, "--roots", "root.pem", "--now", &at, flag, name, "-f",
                "jsonl",
            ]
            .iter()
            .map(|a| a.to_string())
            .collect();
            if rules == "webpki" {
                args.extend(["--purpose".into(), "server".into()]);
            }
            args.extend(files.iter().cloned());
            let out = common::run_in(dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
            assert!(matches!(out.status.code(), Some(0) | Some(1)), "{out:?}");
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                let v: Value = serde_json::from_str(line).unwrap();
                let input = v["input"].as_str().unwrap().to_string();
                verdicts.insert((host.to_string(), input), v);
            }
        }
        let mut wrong = Vec::new();
        let mut judged = 0;
        for c in cases {
            let key = (
                c["host"].as_str().unwrap().to_string(),
                c["file"].as_str().unwrap().to_string(),
            );
            let v = &verdicts[&key];
            let valid = v["valid"].as_bool() == Some(true);
            // Under both rule sets alike: a CN that names nothing in the SAN is ignored
            // under webpki too, as the suite expects of a browser.
            let (want, ok) = match c["expected"].as_str().unwrap() {
                "PASS" => ("valid", valid),
                "FAIL" => ("rejected", !valid),
                _ => continue,
            };
            judged += 1;
            if !ok {
                wrong.push(format!(
                    "{} ({}, {rules}): expected {want}, pkit: {} {}",
                    key.1, key.0, v["reason"], v["detail"]
                ));
            }
        }
        assert!(judged > 6000, "{judged} cases judged");
        assert!(
            wrong.is_empty(),
            "{} of {judged} cases disagree with the suite:\n{}",
            wrong.len(),
            wrong[..wrong.len().min(20)].join("\n")
        );
    }
}

/// A pinned certificate (the target is itself a trust anchor) is still held to the rules
/// asked for: under webpki a self-signed RSA-1024 leaf fails, under rfc5280 it is valid.
#[test]
fn a_pinned_certificate_is_held_to_the_rules() {
    common::require_openssl();
    let t = common::tempdir();
    let d = t.path();
    let key = d.join("weak.key");
    let cert = d.join("weak.pem");
    let (c, out) = common::ossl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:1024",
        "-nodes",
        "-keyout",
        &s(&key),
        "-subj",
        "/CN=pinned.example",
        "-addext",
        "subjectAltName=DNS:pinned.example",
        "-addext",
        "extendedKeyUsage=serverAuth",
        "-days",
        "30",
        "-out",
        &s(&cert),
    ]);
    assert_eq!(c, Some(0), "{out}");
    let run = |rules: &str| {
        let r = pk(&[
            "verify",
            "--rules",
            rules,
            "--purpose",
            "server",
            "--roots",
            &s(&cert),
            "--hostname",
            "pinned.example",
            "-f",
            "json",
            &s(&cert),
        ]);
        let v = common::json_items(&r).remove(0);
        (r.code, v["reason"].as_str().map(str::to_string))
    };
    assert_eq!(run("rfc5280"), (Some(0), None));
    assert_eq!(run("webpki"), (Some(1), Some("weak-algorithm".to_string())));
}

/// The roots of the system store, each trusted as itself under webpki, fail no profile
/// rule: real roots have serial 0 (Go Daddy G2), a non-critical basicConstraints (Go
/// Daddy Class 2) or no subjectKeyIdentifier (TWCA Global Root CA), and pkit must not
/// reject every chain under them. (Expired ones may say so.)
#[test]
fn the_system_roots_pass_the_webpki_rules_for_anchors() {
    let bundle = Path::new("/etc/ssl/certs/ca-certificates.crt");
    let trusted = std::fs::read_to_string(bundle).expect("the system bundle");
    // The store's roots: files whose certificate is in the bundle (a local snakeoil
    // certificate beside them is not one).
    let roots: Vec<PathBuf> = std::fs::read_dir("/etc/ssl/certs")
        .expect("/etc/ssl/certs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pem"))
        .filter(|p| {
            std::fs::read_to_string(p).is_ok_and(|text| {
                let body: String = text.lines().filter(|l| !l.starts_with("-----")).collect();
                !body.is_empty() && trusted.replace('\n', "").contains(&body)
            })
        })
        .collect();
    assert!(roots.len() > 100, "{} roots", roots.len());
    let mut args = vec![
        "verify".to_string(),
        "--rules".into(),
        "webpki".into(),
        "--roots".into(),
        s(bundle),
        "-f".into(),
        "jsonl".into(),
    ];
    args.extend(roots.iter().map(|p| s(p)));
    let r = pk(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(matches!(r.code, Some(0) | Some(1)), "{}", r.describe());
    let mut wrong = Vec::new();
    let mut seen = 0;
    for line in r.stdout_str().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        seen += 1;
        let reason = v["reason"].as_str().unwrap_or("");
        if v["valid"] != true && !matches!(reason, "expired" | "not-yet-valid") {
            wrong.push(format!("{}: {reason} {}", v["input"], v["detail"]));
        }
    }
    assert_eq!(seen, roots.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
