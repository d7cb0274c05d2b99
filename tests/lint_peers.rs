//! What pkit's lint gate lets through, judged by the linters CAs use: zlint v3.7.3 (Go,
//! `tests/go/zlintcheck`) and pkilint (Python). A CA set for public trust (`issue ca
//! --lint-rules rfc5280,cabf-tls`) issues a root, an intermediate, leaves and a CRL that
//! neither reports an error for; a private CA's defaults draw only the findings
//! docs/lint.md names and explains; and where pkit and zlint implement the same rule on a
//! bad certificate, both flag it.

mod common;

use common::{ossl, pk_ok, require, s, Peer};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn zlint(files: &[PathBuf]) -> Option<Vec<Value>> {
    let bin = common::go_program(
        "zlintcheck",
        "zlint judges pkit's certificates",
        "Go >= 1.22 with the module proxy reachable (tests/go/zlintcheck/go.sum pins zlint v3.7.3)",
    )?;
    let args: Vec<String> = files.iter().map(|f| s(f)).collect();
    let r = common::run_with(
        bin.to_str().unwrap(),
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        None,
        common::HANG,
    );
    assert_eq!(r.code, Some(0), "zlintcheck: {}", r.describe());
    Some(
        r.stdout_str()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}

/// pkilint's ERROR and FATAL findings for `file` linted as `kind`.
fn pkilint(module: &str, args: &[&str], file: &Path) -> Vec<String> {
    require(Peer::Pkilint);
    let mut all = vec![
        "-m".to_string(),
        format!("pkilint.bin.{module}"),
        "lint".into(),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    all.extend(["-s".into(), "ERROR".into(), s(file)]);
    let r = common::run_with(
        "python3",
        &all.iter().map(String::as_str).collect::<Vec<_>>(),
        None,
        common::HANG,
    );
    assert!(
        !r.stderr_str().contains("Traceback"),
        "pkilint: {}",
        r.describe()
    );
    r.stdout_str()
        .lines()
        .filter(|l| l.contains("(ERROR)") || l.contains("(FATAL)"))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn a_ca_for_public_trust_passes_zlint_and_pkilint() {
    if common::skip_corpus("a_ca_for_public_trust_passes_zlint_and_pkilint") {
        return;
    }
    let t = common::tempdir();
    let d = t.path();
    let public = |name: &str, url: &str| -> Vec<String> {
        vec![
            "--lint-rules".into(),
            "rfc5280,cabf-tls".into(),
            "--issuer-url".into(),
            format!("http://pki.example.com/{url}.der"),
            "--crl-url".into(),
            format!("http://pki.example.com/{url}.crl"),
            "--subject".into(),
            format!("CN={name},O=Example,C=US"),
            "--no-passout".into(),
        ]
    };
    let mut checked = Vec::new();
    for alg in ["ecdsa-p256", "ecdsa-p384", "rsa2048"] {
        let root = d.join(format!("root-{alg}"));
        let int = d.join(format!("int-{alg}"));
        let mut a: Vec<String> = vec![
            "issue".into(),
            "ca".into(),
            "--dir".into(),
            s(&root),
            "--alg".into(),
            alg.into(),
        ];
        a.extend(public("Example Root", "root"));
        pk_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
        let mut a: Vec<String> = vec![
            "issue".into(),
            "ca".into(),
            "--dir".into(),
            s(&int),
            "--alg".into(),
            alg.into(),
            "--parent".into(),
            s(&root),
        ];
        a.extend(public("Example Issuing CA", "int"));
        a.extend(["--ocsp-url".into(), "http://ocsp.example.com/".into()]);
        pk_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
        let leaf = d.join(format!("www-{alg}.pem"));
        pk_ok(&[
            "issue",
            "cert",
            "--ca",
            &s(&int),
            "--alg",
            alg,
            "--san",
            "DNS:www.example.com",
            "--san",
            "DNS:example.com",
            "--key-out",
            &s(&d.join(format!("www-{alg}.key"))),
            "-o",
            &s(&leaf),
        ]);
        let crl = d.join(format!("int-{alg}.crl"));
        pk_ok(&[
            "crl",
            "gen",
            "--ca",
            &s(&int),
            "--outform",
            "der",
            "-o",
            &s(&crl),
        ]);
        assert_eq!(
            pkilint("lint_crl", &["-t", "CRL", "-p", "BR"], &crl),
            Vec::<String>::new(),
            "{alg} CRL"
        );
        for (file, kind) in [
            (root.join("ca.pem"), "ROOT-CA"),
            (int.join("ca.pem"), "EXTERNAL-UNCONSTRAINED-TLS-CA"),
            (leaf.clone(), "DV-FINAL-CERTIFICATE"),
        ] {
            let found = pkilint("lint_cabf_serverauth_cert", &["-t", kind], &file);
            assert!(
                found.is_empty(),
                "pkilint on {} ({kind}): {found:#?}",
                file.display()
            );
            checked.push(file);
        }
    }
    let Some(results) = zlint(&checked) else {
        return;
    };
    for r in &results {
        assert_eq!(r["error"], serde_json::json!([]), "zlint: {r}");
        // The one warning: BR 2.x makes a subscriber's subjectKeyIdentifier NOT
        // RECOMMENDED where RFC 5280 says SHOULD; pkit follows RFC 5280 (docs/lint.md).
        for w in r["warn"].as_array().unwrap() {
            assert_eq!(
                w, "w_ext_subject_key_identifier_not_recommended_subscriber",
                "{r}"
            );
        }
    }
}

#[test]
fn zlint_agrees_where_it_has_the_same_rule() {
    if common::skip_corpus("zlint_agrees_where_it_has_the_same_rule") {
        return;
    }
    common::require_openssl();
    let t = common::tempdir();
    let d = t.path();
    let ca = d.join("ca");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&ca),
        "--subject",
        "CN=Private CA",
        "--no-passout",
    ]);
    // The private CA's default leaf: zlint's findings are the public-trust ones
    // docs/lint.md lists, and pkit's own cabf-tls rules name the same gaps.
    let leaf = d.join("private.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--subject",
        "CN=www.example.com",
        "--san",
        "DNS:www.example.com",
        "--key-out",
        &s(&d.join("p.key")),
        "-o",
        &s(&leaf),
    ]);
    let documented =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lint.md"))
            .unwrap();
    let weak_csr = d.join("weak.csr");
    let (code, out) = ossl(&[
        "req",
        "-new",
        "-newkey",
        "rsa:1024",
        "-nodes",
        "-keyout",
        &s(&d.join("weak.key")),
        "-subj",
        "/CN=weak.example.com",
        "-addext",
        "subjectAltName=DNS:weak.example.com",
        "-out",
        &s(&weak_csr),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let weak = d.join("weak.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--csr",
        &s(&weak_csr),
        "-o",
        &s(&weak),
        "--lint",
        "off",
    ]);
    let underscore = d.join("underscore.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--san",
        "DNS:a_b.example.com",
        "--key-out",
        &s(&d.join("u.key")),
        "-o",
        &s(&underscore),
        "--lint",
        "off",
    ]);
    let tpl = common::write_file(
        d,
        "ku.json",
        br#"{"key_usage": ["digitalSignature", "keyCertSign"], "ext_key_usage": ["serverAuth"]}"#,
    );
    let ku = d.join("ku.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--template",
        &s(&tpl),
        "--san",
        "DNS:k.example.com",
        "--key-out",
        &s(&d.join("k.key")),
        "-o",
        &s(&ku),
        "--lint",
        "off",
    ]);
    let Some(results) = zlint(&[leaf.clone(), weak.clone(), underscore.clone(), ku.clone()]) else {
        return;
    };
    for e in results[0]["error"].as_array().unwrap() {
        let e = e.as_str().unwrap();
        assert!(
            documented.contains(e),
            "zlint's {e} on a private CA's default leaf is not explained in docs/lint.md"
        );
    }
    let pkit = |f: &Path| -> Vec<String> {
        let r = common::pkit_run(&["lint", "-f", "json", "--rules", "rfc5280,cabf-tls", &s(f)]);
        common::json_items(&r)[0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["lint"].as_str().unwrap().to_string())
            .collect()
    };
    for (i, (file, ours, theirs)) in [
        (&weak, "e_cabf_weak_key", "e_rsa_mod_less_than_2048_bits"),
        (
            &underscore,
            "e_cabf_dns_name_malformed",
            "e_dnsname_underscore_in_sld",
        ),
        (
            &ku,
            "e_cabf_leaf_key_usage_ca_bits",
            "e_sub_cert_key_usage_cert_sign_bit_set",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        assert!(
            pkit(file).iter().any(|l| l == ours),
            "pkit misses {ours} on {}",
            file.display()
        );
        let z: Vec<&str> = results[i + 1]["error"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            z.iter()
                .any(|l| *l == theirs || l.contains("underscore") || l.contains("bad_character")),
            "zlint misses {theirs} on {}: {z:?}",
            file.display()
        );
    }
}
