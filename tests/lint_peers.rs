//! What pkit's lint gate lets through, judged by the linters CAs use: zlint v3.7.3 (Go,
//! `tests/go/zlintcheck`) and pkilint (Python). A CA set for public trust (`issue ca
//! --lint-rules rfc5280,cabf-tls`) issues a root, an intermediate, leaves and a CRL that
//! neither reports an error for; a private CA's defaults draw only the findings
//! docs/lint.md names and explains; and where pkit and zlint implement the same rule on a
//! bad certificate, both flag it.

mod common;

use common::{pk, pk_ok, require, s, Peer};
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
fn a_private_cas_leaf_draws_only_the_documented_public_trust_findings() {
    if common::skip_corpus("a_private_cas_leaf_draws_only_the_documented_public_trust_findings") {
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
    let Some(results) = zlint(std::slice::from_ref(&leaf)) else {
        return;
    };
    for e in results[0]["error"].as_array().unwrap() {
        let e = e.as_str().unwrap();
        assert!(
            documented.contains(e),
            "zlint's {e} on a private CA's default leaf is not explained in docs/lint.md"
        );
    }
}

/// The zlint and pkilint counterparts docs/lint.md names for each pkit lint (the table's
/// last two columns): the table is the test's input, so it cannot drift.
fn counterparts() -> std::collections::HashMap<String, (Vec<String>, Vec<String>)> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lint.md"))
        .unwrap();
    let names = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    doc.lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').collect();
            let lint = names(cells.get(1)?).into_iter().next()?;
            Some((lint, (names(cells.get(5)?), names(cells.get(6)?))))
        })
        .collect()
}

/// How pkilint lints a certificate of pkit's `certificate_type`.
fn pkilint_mode(kind: &str) -> (&'static str, &'static [&'static str]) {
    match kind {
        "tls-leaf" => ("lint_cabf_serverauth_cert", &["-t", "DV-FINAL-CERTIFICATE"]),
        "root" => ("lint_cabf_serverauth_cert", &["-t", "ROOT-CA"]),
        "intermediate" => (
            "lint_cabf_serverauth_cert",
            &["-t", "EXTERNAL-UNCONSTRAINED-TLS-CA"],
        ),
        "ocsp-signer" => ("lint_cabf_serverauth_cert", &["-t", "OCSP-RESPONDER"]),
        "smime-leaf" => ("lint_cabf_smime_cert", &["-t", "MAILBOX-STRICT"]),
        "crl" => ("lint_crl", &["-t", "CRL", "-p", "BR"]),
        _ => ("lint_pkix_cert", &[]),
    }
}

/// pkilint's errors for each numbered bad object, linted as pkit says its type is.
fn pkilint_each(part: &[(usize, &common::bad_certs::BadCert)]) -> Vec<(usize, Vec<String>)> {
    part.iter()
        .map(|(i, c)| {
            let mut args: Vec<String> = vec!["lint".into(), "-f".into(), "json".into()];
            args.extend(c.args.iter().map(|a| a.to_string()));
            args.push(s(&c.file));
            let r = common::pkit_run(&args.iter().map(String::as_str).collect::<Vec<_>>());
            let item = &common::json_items(&r)[0];
            let kind = item["certificate_type"].as_str().unwrap_or("crl");
            let (module, mode) = pkilint_mode(kind);
            (*i, pkilint(module, mode, &c.file))
        })
        .collect()
}

/// Every bad certificate and CRL of `tests/common/bad_certs.rs`: where docs/lint.md names a
/// zlint or pkilint counterpart of the lint it trips, that linter flags it too.
#[test]
fn zlint_and_pkilint_agree_on_every_shared_rule() {
    if common::skip_corpus("zlint_and_pkilint_agree_on_every_shared_rule") {
        return;
    }
    let t = common::tempdir();
    let mut cases = common::bad_certs::build(t.path());
    cases.extend(common::bad_certs::crls(t.path()));
    let table = counterparts();
    let files: Vec<PathBuf> = cases.iter().map(|c| c.file.clone()).collect();
    let Some(z) = zlint(&files) else {
        return;
    };
    let mut compared = (0, 0);
    // pkilint starts a Python per file: run the files it is asked about on both cores.
    let work: Vec<(usize, &common::bad_certs::BadCert)> = cases
        .iter()
        .enumerate()
        .filter(|(_, c)| table.get(c.lint).is_some_and(|(_, p)| !p.is_empty()))
        .collect();
    let judged: Vec<(usize, Vec<String>)> = std::thread::scope(|scope| {
        let (a, b) = work.split_at(work.len() / 2);
        let h = scope.spawn(|| pkilint_each(a));
        let mut out = pkilint_each(b);
        out.extend(h.join().unwrap());
        out
    });
    for (i, c) in cases.iter().enumerate() {
        let Some((zl, pl)) = table.get(c.lint) else {
            panic!("docs/lint.md has no row for {}", c.lint);
        };
        if !zl.is_empty() {
            // zlint's notices count: its sub-CA EKU rule is one (`n_sub_ca_eku_missing`,
            // from before BR 2.0.0 required the EKU).
            let found: Vec<&str> = ["error", "warn", "notice"]
                .iter()
                .flat_map(|k| z[i][*k].as_array().unwrap())
                .filter_map(Value::as_str)
                .collect();
            assert!(
                zl.iter().any(|n| found.contains(&n.as_str())),
                "{} ({}): zlint reports none of {zl:?}, only {found:?}",
                c.lint,
                c.file.display()
            );
            compared.0 += 1;
        }
        if let Some((_, found)) = judged.iter().find(|(j, _)| *j == i) {
            assert!(
                pl.iter()
                    .any(|n| found.iter().any(|f| f.starts_with(n.as_str()))),
                "{} ({}): pkilint reports none of {pl:?}, only {found:#?}",
                c.lint,
                c.file.display()
            );
            compared.1 += 1;
        }
    }
    // The table's rows are compared, not skipped: most have a counterpart in each.
    assert!(compared.0 >= 40 && compared.1 >= 40, "{compared:?}");
}

#[test]
fn an_smime_certificate_passes_zlint_and_pkilint() {
    if common::skip_corpus("an_smime_certificate_passes_zlint_and_pkilint") {
        return;
    }
    let t = common::tempdir();
    let d = t.path();
    let ca = common::issue_ca(d, "mail", "CN=Mail CA,O=Example,C=US", &[]);
    let tpl = common::write_file(
        d,
        "mailbox.json",
        br#"{"ext_key_usage": ["emailProtection"], "key_usage": ["digitalSignature"],
            "sans": ["email:alice@example.com"], "subject": "CN=alice@example.com",
            "policies": ["2.23.140.1.5.1.3"],
            "crl_urls": ["http://pki.example.com/mail.crl"]}"#,
    );
    let cert = common::issue_leaf(&ca, d, "alice", &["--template", &s(&tpl)]);
    let r = common::pkit_run(&[
        "lint",
        "-f",
        "json",
        "--rules",
        "rfc5280,cabf-smime",
        "--fail-on",
        "notice",
        &s(&cert),
    ]);
    let item = &common::json_items(&r)[0];
    assert_eq!(
        (
            item["certificate_type"].as_str(),
            item["findings"].as_array().map(Vec::len)
        ),
        (Some("smime-leaf"), Some(0)),
        "{item}"
    );
    assert_eq!(
        pkilint("lint_cabf_smime_cert", &["-d"], &cert),
        Vec::<String>::new()
    );
    let Some(z) = zlint(std::slice::from_ref(&cert)) else {
        return;
    };
    assert_eq!(z[0]["error"], serde_json::json!([]), "{}", z[0]);
}

/// The rules dated by issuance, beside zlint, which also judges a certificate by the
/// rules in force on its notBefore: a CA for public trust made in 2012 (`issue ca --now`)
/// signs leaves on past dates (`issue cert --not-before`, `--lint off`), each of which
/// draws the finding from both linters or from neither.
#[test]
fn dated_rules_agree_with_zlint_on_certificates_issued_in_the_past() {
    if common::skip_corpus("dated_rules_agree_with_zlint_on_certificates_issued_in_the_past") {
        return;
    }
    let t = common::tempdir();
    let d = t.path();
    let ca = |name: &str, now: &str, days: &str, parent: Option<&Path>| {
        let dir = d.join(name);
        let mut a = vec![
            "issue".to_string(),
            "ca".into(),
            "--dir".into(),
            s(&dir),
            "--lint-rules".into(),
            "rfc5280,cabf-tls".into(),
            "--issuer-url".into(),
            format!("http://pki.example.com/{name}.der"),
            "--crl-url".into(),
            format!("http://pki.example.com/{name}.crl"),
            "--subject".into(),
            format!("CN=Example {name},O=Example,C=US"),
            "--now".into(),
            now.into(),
            "--days".into(),
            days.into(),
            "--no-passout".into(),
        ];
        if let Some(p) = parent {
            a.extend(["--parent".into(), s(p)]);
        }
        pk_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
        dir
    };
    let root = ca("root", "2012-01-01T00:00:00Z", "9000", None);
    let int = ca("int", "2012-06-01T00:00:00Z", "8500", Some(&root));
    let validity = [
        "e_sub_cert_valid_time_longer_than_39_months",
        "e_sub_cert_valid_time_longer_than_825_days",
        "e_tls_server_cert_valid_time_longer_than_398_days",
        "e_server_cert_valid_time_longer_than_200_days",
        "e_server_cert_valid_time_longer_than_100_days",
    ];
    let cn = [
        "e_subject_common_name_not_from_san",
        "e_subject_common_name_not_exactly_from_san",
    ];
    // (name, notBefore, days, commonName, pkit lint, zlint's, whether both flag it)
    type Case<'a> = (
        &'a str,
        &'a str,
        &'a str,
        &'a str,
        &'a str,
        &'a [&'a str],
        bool,
    );
    let cases: [Case; 8] = [
        (
            "2017-1000-days",
            "2017-01-01",
            "1000",
            "www.example.com",
            "e_cabf_validity_too_long",
            &validity,
            false,
        ),
        (
            "2017-1300-days",
            "2017-01-01",
            "1300",
            "www.example.com",
            "e_cabf_validity_too_long",
            &validity,
            true,
        ),
        (
            "2019-800-days",
            "2019-06-01",
            "800",
            "www.example.com",
            "e_cabf_validity_too_long",
            &validity,
            false,
        ),
        (
            "2019-900-days",
            "2019-01-01",
            "900",
            "www.example.com",
            "e_cabf_validity_too_long",
            &validity,
            true,
        ),
        (
            "2021-398-days",
            "2021-01-01",
            "398",
            "www.example.com",
            "e_cabf_validity_too_long",
            &validity,
            false,
        ),
        (
            "2021-400-days",
            "2021-01-01",
            "400",
            "www.example.com",
            "e_cabf_validity_too_long",
            &validity,
            true,
        ),
        (
            "2020-cn-case",
            "2020-01-01",
            "90",
            "WWW.Example.COM",
            "e_cabf_cn_not_in_san",
            &cn,
            false,
        ),
        (
            "2022-cn-case",
            "2022-01-01",
            "90",
            "WWW.Example.COM",
            "e_cabf_cn_not_in_san",
            &cn,
            true,
        ),
    ];
    let mut files = Vec::new();
    for (name, nb, days, cn, ..) in &cases {
        let file = d.join(format!("{name}.pem"));
        pk_ok(&[
            "issue",
            "cert",
            "--ca",
            &s(&int),
            "--san",
            "DNS:www.example.com",
            "--subject",
            &format!("CN={cn}"),
            "--not-before",
            &format!("{nb}T00:00:00Z"),
            "--days",
            days,
            "--lint",
            "off",
            "--key-out",
            &s(&d.join(format!("{name}.key"))),
            "-o",
            &s(&file),
        ]);
        files.push(file);
    }
    let Some(z) = zlint(&files) else {
        return;
    };
    for (i, (name, _, _, _, lint, zl, flagged)) in cases.iter().enumerate() {
        let r = pk(&[
            "lint",
            "-f",
            "json",
            "--rules",
            "rfc5280,cabf-tls",
            &s(&files[i]),
        ]);
        let item = &common::json_items(&r)[0];
        let pkit = item["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["lint"] == *lint);
        let zfound: Vec<&str> = z[i]["error"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let zlint = zl.iter().any(|n| zfound.contains(n));
        assert_eq!(
            (pkit, zlint),
            (*flagged, *flagged),
            "{name}: pkit {lint} {pkit}, zlint {zfound:?} (want {flagged} from both)\n{item}"
        );
    }
}
