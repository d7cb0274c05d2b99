//! The CA never signs what its own chain forbids: before every signature (`issue cert`,
//! `batch`, `renew`, `ca --parent`) the certificate is validated through the CA's chain
//! with pkit's verifier, and refused (exit 1, nothing recorded or written) with the
//! reason `verify` would give; the CA's own policy (ca.json `allow`/`deny`) likewise.
//! What is allowed is issued and verified by OpenSSL and Go's crypto/x509. Chains with
//! pathLenConstraint, policyConstraints and extendedKeyUsage in their CAs are made by the
//! `openssl` command (an intermediate certified elsewhere, run by pkit).

mod common;

use common::{pk, pk_ok, s};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn issued_count(ca: &Path) -> usize {
    common::json_items(&pk_ok(&["issue", "list", "--ca", &s(ca), "-f", "json"])).len()
}

/// `issue cert --ca CA` with `args`: refused with exit 1 and `want` in the message,
/// nothing recorded, no file written.
fn refused(ca: &Path, dir: &Path, args: &[&str], want: &str) {
    let before = issued_count(ca);
    let (cert, key) = (dir.join("refused.pem"), dir.join("refused.key"));
    let (c, k, cas) = (s(&cert), s(&key), s(ca));
    let mut all = vec!["issue", "cert", "--ca", &cas, "-o", &c, "--key-out", &k];
    all.extend_from_slice(args);
    let r = pk(&all);
    assert_eq!(r.code, Some(1), "{args:?}: {}", r.describe());
    let err = r.stderr_str();
    assert!(
        err.contains("the CA refused to sign (nothing was signed or recorded)")
            && err.contains(want),
        "{args:?}: {err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(!cert.exists() && !key.exists(), "{args:?} wrote files");
    assert_eq!(issued_count(ca), before, "{args:?} recorded a certificate");
}

/// `openssl verify` of `leaf` through `chain` (intermediates) to `root`.
fn openssl_verifies(root: &Path, chain: &[&Path], leaf: &Path, purpose: &str) {
    let untrusted: Vec<String> = chain
        .iter()
        .flat_map(|c| ["-untrusted".into(), s(c)])
        .collect();
    let mut args: Vec<String> = vec!["verify".into(), "-purpose".into(), purpose.into()];
    args.extend(["-CAfile".into(), s(root)]);
    args.extend(untrusted);
    args.push(s(leaf));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out) = common::ossl(&refs);
    assert_eq!(code, Some(0), "openssl {args:?}: {out}");
}

/// Go's crypto/x509 verdicts (tests/go/x509verify) on server certificates for a name:
/// (leaf, host name or IP address) each through `int` to `root`.
fn go_verifies(dir: &Path, root: &Path, int: &Path, cases: &[(&Path, &str)]) {
    let Some(bin) = common::go_program(
        "x509verify",
        "checking issued certificates with Go's crypto/x509",
        "install Go (the program uses the standard library only)",
    ) else {
        return;
    };
    let work = dir.join("go");
    std::fs::create_dir_all(&work).unwrap();
    let copy = |p: &Path, name: &str| {
        std::fs::copy(p, work.join(name)).unwrap();
        name.to_string()
    };
    let (root, int) = (copy(root, "root.pem"), copy(int, "int.pem"));
    let list: Vec<Value> = cases
        .iter()
        .enumerate()
        .map(|(i, (leaf, name))| {
            let leaf = copy(leaf, &format!("leaf{i}.pem"));
            let ip = name.parse::<std::net::IpAddr>().is_ok();
            serde_json::json!({"id": format!("case{i}"), "root": root, "intermediates": [int],
                "leaf": leaf, "hostname": if ip { "" } else { name }, "ip": if ip { *name } else { "" }})
        })
        .collect();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    std::fs::write(
        work.join("manifest.json"),
        serde_json::json!({"time": now, "cases": list}).to_string(),
    )
    .unwrap();
    let r = common::run_with(s(&bin), &[s(&work)], None, common::HANG);
    assert_eq!(r.code, Some(0), "x509verify: {}", r.describe());
    for line in r.stdout_str().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["ok"], true, "Go refuses {cases:?}: {v}");
    }
}

#[test]
fn each_name_constraint_form_refuses_what_is_outside_and_issues_what_is_inside() {
    let t = common::tempdir();
    let d = t.path();
    let root = common::issue_ca(d, "root", "CN=Constraint Root", &[]);
    // (constraint, what lies outside it, what lies inside, the profile to ask)
    let forms: [(&str, &[&str], &[&str], &str); 7] = [
        (
            "DNS:fleet.internal",
            &["--san", "DNS:evil.example.com"],
            &["--san", "DNS:a.fleet.internal"],
            "server",
        ),
        (
            "DNS:fleet.internal",
            &[
                "--san",
                "DNS:a.fleet.internal",
                "--subject",
                "CN=evil.example.com",
            ],
            &[
                "--san",
                "DNS:b.fleet.internal",
                "--subject",
                "CN=b.fleet.internal",
            ],
            "server",
        ),
        (
            "IP:10.0.0.0/8",
            &["--san", "IP:192.0.2.1"],
            &["--san", "IP:10.1.2.3"],
            "server",
        ),
        (
            "IP:fd00::/8",
            &["--san", "IP:2001:db8::1"],
            &["--san", "IP:fd00::1"],
            "server",
        ),
        (
            "email:corp.example",
            &["--san", "email:a@evil.example"],
            &["--san", "email:a@corp.example"],
            "client",
        ),
        (
            "URI:.corp.example",
            &["--san", "URI:https://evil.example/"],
            &["--san", "URI:https://a.corp.example/"],
            "client",
        ),
        (
            "DN:O=Corp",
            &["--san", "DNS:a.example", "--subject", "CN=x,O=Evil"],
            &["--san", "DNS:b.example", "--subject", "CN=x,O=Corp"],
            "server",
        ),
    ];
    let mut go_cases = Vec::new();
    for (i, (permit, outside, inside, profile)) in forms.iter().enumerate() {
        let name = format!("int{i}");
        let int = common::issue_ca(
            d,
            &name,
            &format!("CN=Constrained {i}"),
            &["--parent", &s(&root), "--permit", permit],
        );
        let mut out = outside.to_vec();
        out.extend(["--profile", profile]);
        refused(&int, d, &out, "name-constraints (certificate 0)");
        // `--lint off` turns off the linter, not the chain.
        out.extend(["--lint", "off"]);
        refused(&int, d, &out, "name-constraints (certificate 0)");
        let mut ok = inside.to_vec();
        ok.extend(["--profile", profile]);
        let leaf = common::issue_leaf(&int, d, &format!("leaf{i}"), &ok);
        let purpose = if *profile == "server" {
            "sslserver"
        } else {
            "sslclient"
        };
        openssl_verifies(&root.join("ca.pem"), &[&int.join("ca.pem")], &leaf, purpose);
        assert_eq!(issued_count(&int), 1);
        if *profile == "server" && i != 6 {
            go_cases.push((
                leaf,
                inside[1].split_once(':').unwrap().1.to_string(),
                int.clone(),
            ));
        }
    }
    for (leaf, name, int) in &go_cases {
        go_verifies(
            d,
            &root.join("ca.pem"),
            &int.join("ca.pem"),
            &[(leaf, name)],
        );
    }
}

#[test]
fn a_batch_with_one_forbidden_name_signs_none_of_it() {
    let t = common::tempdir();
    let d = t.path();
    let root = common::issue_ca(d, "root", "CN=Batch Root", &[]);
    let int = common::issue_ca(
        d,
        "int",
        "CN=Batch Int",
        &["--parent", &s(&root), "--permit", "DNS:fleet.internal"],
    );
    let manifest = d.join("items.jsonl");
    std::fs::write(
        &manifest,
        "{\"subject\": \"CN=a.fleet.internal\", \"sans\": [\"DNS:a.fleet.internal\"]}\n\
         {\"subject\": \"CN=b.fleet.internal\", \"sans\": [\"DNS:b.fleet.internal\", \"DNS:evil.example.com\"]}\n\
         {\"subject\": \"CN=c.fleet.internal\", \"sans\": [\"DNS:c.fleet.internal\"]}\n",
    )
    .unwrap();
    let out = d.join("out");
    let r = pk(&[
        "issue",
        "batch",
        "--ca",
        &s(&int),
        "--from",
        &s(&manifest),
        "--out-dir",
        &s(&out),
    ]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let err = r.stderr_str();
    assert!(
        err.contains("name-constraints (certificate 0): item 2 (CN=b.fleet.internal): subjectAltName dNSName \"evil.example.com\""),
        "{err}"
    );
    assert_eq!(issued_count(&int), 0);
    let written = std::fs::read_dir(&out).map(|d| d.count()).unwrap_or(0);
    assert_eq!(written, 0, "files written for a refused batch");
    // What the chain allows is issued.
    let count = pk(&[
        "issue",
        "batch",
        "--ca",
        &s(&int),
        "--count",
        "50",
        "--subject-template",
        "CN=n{n}.fleet.internal",
        "--san-template",
        "DNS:n{n}.fleet.internal",
        "--out-dir",
        &s(&out),
    ]);
    assert_eq!(count.code, Some(0), "{}", count.describe());
    assert_eq!(issued_count(&int), 50);
}

#[test]
fn renewal_is_refused_once_the_policy_forbids_the_name_and_policy_rules_say_which() {
    let t = common::tempdir();
    let d = t.path();
    let ca = common::issue_ca(
        d,
        "ca",
        "CN=Policy CA",
        &[
            "--allow",
            "DNS:*.corp.example",
            "--deny",
            "DNS:*.lab.corp.example",
        ],
    );
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(ca.join("ca.json")).unwrap()).unwrap();
    assert_eq!(settings["allow"], serde_json::json!(["DNS:*.corp.example"]));
    assert_eq!(
        settings["deny"],
        serde_json::json!(["DNS:*.lab.corp.example"])
    );
    let leaf = common::issue_leaf(&ca, d, "a", &["--san", "DNS:a.corp.example"]);
    refused(&ca, d, &["--san", "DNS:x.lab.corp.example"], "ca-policy (certificate 0): DNS:x.lab.corp.example: denied by the CA's rule deny DNS:*.lab.corp.example");
    // A wildcard that covers a denied name is denied with it.
    refused(
        &ca,
        d,
        &["--san", "DNS:*.lab.corp.example"],
        "denied by the CA's rule",
    );
    refused(
        &ca,
        d,
        &["--san", "DNS:corp.example"],
        "not allowed by the CA's policy (allow DNS:*.corp.example)",
    );
    refused(
        &ca,
        d,
        &["--san", "DNS:a.corp.example", "--san", "IP:10.0.0.1"],
        "the CA's policy allows no IP addresses",
    );
    refused(
        &ca,
        d,
        &[
            "--san",
            "DNS:a.corp.example",
            "--subject",
            "CN=www.evil.example",
            "--lint",
            "off",
        ],
        "DNS:www.evil.example: not allowed",
    );

    // issue policy: show, try, change.
    let shown = pk_ok(&["issue", "policy", "--ca", &s(&ca)]);
    assert_eq!(
        shown.stdout_str(),
        "allow DNS:*.corp.example\ndeny DNS:*.lab.corp.example\n"
    );
    let tried = pk(&[
        "issue",
        "policy",
        "--ca",
        &s(&ca),
        "--check",
        "DNS:a.corp.example",
        "--check",
        "DNS:b.lab.corp.example",
    ]);
    assert_eq!(tried.code, Some(1), "{}", tried.describe());
    let out = tried.stdout_str();
    assert!(out.contains("DNS:a.corp.example: allowed\n"), "{out}");
    assert!(out.contains("DNS:b.lab.corp.example: refused: ca-policy (certificate 0): DNS:b.lab.corp.example: denied"), "{out}");
    pk_ok(&[
        "issue",
        "policy",
        "--ca",
        &s(&ca),
        "--deny",
        "DNS:a.corp.example",
    ]);
    let key = d.join("renewed.key");
    let r = pk(&[
        "issue",
        "renew",
        "--ca",
        &s(&ca),
        "--cert",
        &s(&leaf),
        "--key",
        &s(&d.join("a.key")),
        "-o",
        &s(&d.join("renewed.pem")),
    ]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(
        r.stderr_str()
            .contains("denied by the CA's rule deny DNS:a.corp.example"),
        "{}",
        r.describe()
    );
    assert!(!key.exists() && !d.join("renewed.pem").exists());
    assert_eq!(issued_count(&ca), 1);
    let j = pk_ok(&[
        "issue",
        "policy",
        "--ca",
        &s(&ca),
        "--remove",
        "DNS:a.corp.example",
        "--check",
        "DNS:a.corp.example",
        "-f",
        "json",
    ]);
    let item = &common::json_items(&j)[0];
    assert_eq!(item["deny"], serde_json::json!(["DNS:*.lab.corp.example"]));
    assert_eq!(item["checks"][0]["allowed"], true);
    pk_ok(&[
        "issue",
        "renew",
        "--ca",
        &s(&ca),
        "--cert",
        &s(&leaf),
        "--key",
        &s(&d.join("a.key")),
        "-o",
        &s(&d.join("renewed.pem")),
    ]);
    assert_eq!(issued_count(&ca), 2);
    let bad = pk(&[
        "issue",
        "policy",
        "--ca",
        &s(&ca),
        "--remove",
        "DNS:nothing.example",
    ]);
    assert_eq!(bad.code, Some(2), "{}", bad.describe());
    let bad = pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&d.join("x")),
        "--subject",
        "CN=X",
        "--no-passout",
        "--allow",
        "DNS:a.*.example",
    ]);
    assert_eq!(bad.code, Some(2), "{}", bad.describe());
    assert!(
        bad.stderr_str()
            .contains("--allow DNS:a.*.example: expected a host name"),
        "{}",
        bad.describe()
    );
    // A hand edit pkit cannot use is refused by every command that loads the CA, with
    // the key and the rule.
    let text = std::fs::read_to_string(ca.join("ca.json"))
        .unwrap()
        .replace("DNS:*.lab.corp.example", "FOO:bar");
    std::fs::write(ca.join("ca.json"), text).unwrap();
    for args in [
        vec!["issue", "policy", "--ca", &s(&ca)],
        vec![
            "issue",
            "cert",
            "--ca",
            &s(&ca),
            "--san",
            "DNS:z.corp.example",
            "-o",
            &s(&d.join("z.pem")),
            "--key-out",
            &s(&d.join("z.key")),
        ],
    ] {
        let r = pk(&args);
        assert_eq!(r.code, Some(3), "{}", r.describe());
        assert!(
            r.stderr_str()
                .contains("ca.json: deny: FOO:bar: unknown type 'foo'"),
            "{}",
            r.describe()
        );
    }
    std::fs::write(ca.join("ca.json"), "{}").unwrap();
    assert!(pk_ok(&["issue", "policy", "--ca", &s(&ca)])
        .stdout_str()
        .starts_with("no policy"));
}

/// A P-256 key in `path`, made by the `openssl` command.
fn ec_key(path: &Path) {
    let (code, out) = common::ossl(&[
        "genpkey",
        "-algorithm",
        "EC",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-out",
        &s(path),
    ]);
    assert_eq!(code, Some(0), "{out}");
}

/// An EC key and a self-signed root by the `openssl` command, with these extensions.
fn openssl_root(dir: &Path, name: &str, exts: &[&str]) -> (PathBuf, PathBuf) {
    let (key, cert) = (
        dir.join(format!("{name}.key")),
        dir.join(format!("{name}.pem")),
    );
    ec_key(&key);
    let subj = format!("/CN={name}");
    let mut args = vec![
        "req",
        "-x509",
        "-new",
        "-key",
        &*s(&key),
        "-subj",
        &subj,
        "-days",
        "3650",
        "-out",
        &*s(&cert),
    ]
    .into_iter()
    .map(str::to_string)
    .collect::<Vec<_>>();
    for e in exts {
        args.extend(["-addext".into(), e.to_string()]);
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out) = common::ossl(&refs);
    assert_eq!(code, Some(0), "{out}");
    (key, cert)
}

/// A pkit CA directory whose certificate is an intermediate `openssl` made under
/// `root` with the extension lines `ext`: the directory is made by `issue ca`, then its
/// certificate and key replaced by OpenSSL's and the root put beside them (root.pem).
fn openssl_intermediate(dir: &Path, name: &str, root: &(PathBuf, PathBuf), ext: &str) -> PathBuf {
    let ca = common::issue_ca(dir, name, "CN=placeholder", &[]);
    let (key, csr, extfile) = (
        ca.join("ca.key"),
        dir.join(format!("{name}.csr")),
        dir.join(format!("{name}.ext")),
    );
    ec_key(&key);
    let subj = format!("/CN={name}");
    let (code, out) = common::ossl(&[
        "req",
        "-new",
        "-key",
        &s(&key),
        "-subj",
        &subj,
        "-out",
        &s(&csr),
    ]);
    assert_eq!(code, Some(0), "{out}");
    std::fs::write(&extfile, format!("basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n{ext}")).unwrap();
    let (code, out) = common::ossl(&[
        "x509",
        "-req",
        "-in",
        &s(&csr),
        "-CA",
        &s(&root.1),
        "-CAkey",
        &s(&root.0),
        "-CAcreateserial",
        "-days",
        "1000",
        "-extfile",
        &s(&extfile),
        "-out",
        &s(&ca.join("ca.pem")),
    ]);
    assert_eq!(code, Some(0), "{out}");
    std::fs::copy(&root.1, ca.join("root.pem")).unwrap();
    ca
}

#[test]
fn path_length_policy_constraints_and_eku_of_a_chain_made_elsewhere() {
    let t = common::tempdir();
    let d = t.path();
    // A root that allows no intermediate: its intermediate's certificates are all invalid.
    let r0 = openssl_root(
        d,
        "r0",
        &[
            "basicConstraints=critical,CA:true,pathlen:0",
            "keyUsage=critical,keyCertSign,cRLSign",
        ],
    );
    let i0 = openssl_intermediate(d, "i0", &r0, "");
    refused(
        &i0,
        d,
        &["--san", "DNS:a.example"],
        "path-length-exceeded (certificate 1)",
    );
    // One intermediate allowed: it may issue leaves, not another CA.
    let r1 = openssl_root(
        d,
        "r1",
        &[
            "basicConstraints=critical,CA:true,pathlen:1",
            "keyUsage=critical,keyCertSign,cRLSign",
        ],
    );
    let i1 = openssl_intermediate(d, "i1", &r1, "");
    let leaf = common::issue_leaf(&i1, d, "l1", &["--san", "DNS:a.example"]);
    openssl_verifies(&r1.1, &[&i1.join("ca.pem")], &leaf, "sslserver");
    let r = pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&d.join("sub")),
        "--subject",
        "CN=Sub",
        "--parent",
        &s(&i1),
        "--no-passout",
        "--clip-validity",
    ]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(
        r.stderr_str()
            .contains("path-length-exceeded (certificate 2)"),
        "{}",
        r.describe()
    );
    assert!(!d.join("sub").join("ca.pem").exists());
    assert_eq!(issued_count(&i1), 1);

    // A root that requires an explicit policy: a certificate without one is refused,
    // one with a policy is issued.
    let rp = openssl_root(
        d,
        "rp",
        &[
            "basicConstraints=critical,CA:true",
            "keyUsage=critical,keyCertSign,cRLSign",
            "policyConstraints=critical,requireExplicitPolicy:0",
            "certificatePolicies=2.5.29.32.0",
        ],
    );
    let ip = openssl_intermediate(d, "ip", &rp, "certificatePolicies=2.5.29.32.0\n");
    refused(
        &ip,
        d,
        &["--san", "DNS:a.example"],
        "policy (certificate 0)",
    );
    let template = d.join("policy.json");
    std::fs::write(
        &template,
        r#"{"sans": ["DNS:a.example"], "policies": ["1.3.6.1.4.1.32473.1"]}"#,
    )
    .unwrap();
    let leaf = common::issue_leaf(&ip, d, "lp", &["--template", &s(&template)]);
    let (code, out) = common::ossl(&[
        "verify",
        "-policy_check",
        "-explicit_policy",
        "-policy",
        "1.3.6.1.4.1.32473.1",
        "-CAfile",
        &s(&rp.1),
        "-untrusted",
        &s(&ip.join("ca.pem")),
        &s(&leaf),
    ]);
    assert_eq!(code, Some(0), "{out}");

    // An intermediate for servers only: a client certificate is refused.
    let re = openssl_root(
        d,
        "re",
        &[
            "basicConstraints=critical,CA:true",
            "keyUsage=critical,keyCertSign,cRLSign",
        ],
    );
    let ie = openssl_intermediate(d, "ie", &re, "extendedKeyUsage=serverAuth\n");
    refused(
        &ie,
        d,
        &["--san", "DNS:a.example", "--profile", "client"],
        "eku-mismatch (certificate 1): extendedKeyUsage does not allow clientAuth",
    );
    refused(
        &ie,
        d,
        &["--san", "DNS:a.example", "--profile", "server-client"],
        "eku-mismatch (certificate 1)",
    );
    let leaf = common::issue_leaf(
        &ie,
        d,
        "le",
        &["--san", "DNS:a.example", "--profile", "server"],
    );
    openssl_verifies(&re.1, &[&ie.join("ca.pem")], &leaf, "sslserver");
    go_verifies(d, &re.1, &ie.join("ca.pem"), &[(&leaf, "a.example")]);
}
