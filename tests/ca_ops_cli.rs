//! Running a CA for real, through the binary: revocation pointers that `pkit verify` and
//! `openssl verify -crl_download` follow to a running `pkit ocsp serve` and a CRL served
//! on 127.0.0.1; validity by the CA/Browser Forum rules; name constraints; bundles and
//! PKCS#12 files that OpenSSL 3.0, Java's keytool and pyca open; renewal and the renewal
//! list; JSON from the commands that create; the CA key's protection.

mod common;

use common::{free_port, json_items, ossl, pk, pk_ok, python_ok, refused, require, s};
use common::{issue_ca as new_ca, issue_leaf as leaf};
use common::{Peer, Server};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `openssl x509 -text` of a certificate file (the system's OpenSSL 3.0).
fn x509_text(cert: &Path) -> String {
    let (code, out) = ossl(&["x509", "-in", &s(cert), "-noout", "-text"]);
    assert_eq!(code, Some(0), "{out}");
    out
}

/// `pkit verify -f json` of `cert` against `roots`: exit code and the one result.
fn verify(roots: &Path, cert: &Path, extra: &[&str]) -> (Option<i32>, Value) {
    let (r, c) = (s(roots), s(cert));
    let mut args = vec!["verify", "-f", "json", "--roots", &r];
    args.extend_from_slice(extra);
    args.push(&c);
    let run = pk(&args);
    let items = json_items(&run);
    assert_eq!(items.len(), 1, "{}", run.describe());
    (run.code, items[0].clone())
}

/// A static HTTP server on 127.0.0.1:`port` serving the files in `dir` (Python's).
fn file_server(dir: &Path, port: u16, log: PathBuf) -> Server {
    require(Peer::Python);
    let mut cmd = Command::new("python3");
    cmd.args([
        "-c",
        "import functools, http.server, sys\n\
         h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[2])\n\
         s = http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), h)\n\
         print('ready', file=sys.stderr, flush=True)\n\
         s.serve_forever()",
        &port.to_string(),
        &s(dir),
    ]);
    Server::start(cmd, log, "ready")
}

/// `pkit crl gen --ca CA --outform der -o FILE --force`.
fn publish_crl(ca: &Path, out: &Path) {
    pk_ok(&[
        "crl",
        "gen",
        "--ca",
        &s(ca),
        "--outform",
        "der",
        "-o",
        &s(out),
        "--force",
    ]);
}

#[test]
fn pointers_lead_verify_and_openssl_to_revocation() {
    common::require_openssl();
    let t = common::tempdir();
    let (ocsp_port, crl_port) = (free_port(), free_port());
    let ocsp_url = format!("http://127.0.0.1:{ocsp_port}/");
    let crl_url = format!("http://127.0.0.1:{crl_port}/ca.crl");
    let issuer_url = format!("http://127.0.0.1:{crl_port}/ca.der");
    let ca = new_ca(
        t.path(),
        "ca",
        "CN=Pointer CA",
        &[
            "--ocsp-url",
            &ocsp_url,
            "--crl-url",
            &crl_url,
            "--issuer-url",
            &issuer_url,
        ],
    );
    let cert = leaf(&ca, t.path(), "web", &["--san", "DNS:web.example"]);
    let text = x509_text(&cert);
    assert!(text.contains(&format!("OCSP - URI:{ocsp_url}")), "{text}");
    assert!(
        text.contains(&format!("CA Issuers - URI:{issuer_url}")),
        "{text}"
    );
    assert!(text.contains(&format!("URI:{crl_url}")), "{text}");
    // An override for one certificate replaces that kind only.
    let other = leaf(
        &ca,
        t.path(),
        "other",
        &[
            "--san",
            "DNS:other.example",
            "--ocsp-url",
            "http://127.0.0.1:1/elsewhere",
        ],
    );
    let text = x509_text(&other);
    assert!(
        text.contains("OCSP - URI:http://127.0.0.1:1/elsewhere"),
        "{text}"
    );
    assert!(
        !text.contains(&ocsp_url) && text.contains(&crl_url),
        "{text}"
    );

    let www = t.path().join("www");
    std::fs::create_dir(&www).unwrap();
    publish_crl(&ca, &www.join("ca.crl"));
    let files = file_server(&www, crl_port, t.path().join("http.log"));
    let mut serve = Command::new(common::pkit_bin());
    serve.args([
        "ocsp",
        "serve",
        "--ca",
        &s(&ca),
        "--listen",
        &format!("127.0.0.1:{ocsp_port}"),
    ]);
    let responder = Server::start(serve, t.path().join("ocsp.log"), "\"listening\"");
    let roots = ca.join("ca.pem");

    // No flag but --check-revocation: pkit asks the responder and fetches the CRL.
    let (code, v) = verify(&roots, &cert, &["--check-revocation", "leaf"]);
    assert_eq!(code, Some(0), "{v}");
    let (code, out) = ossl(&[
        "verify",
        "-crl_download",
        "-crl_check",
        "-CAfile",
        &s(&roots),
        &s(&cert),
    ]);
    assert_eq!(code, Some(0), "openssl -crl_download: {out}");
    // --offline: nothing to ask, so unknown (hard-fail).
    let (code, v) = verify(&roots, &cert, &["--check-revocation", "leaf", "--offline"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (Some(1), Some("revocation-unknown")),
        "{v}"
    );

    pk_ok(&["crl", "revoke", "--ca", &s(&ca), "--cert", &s(&cert)]);
    // The responder answers from the records at once: revoked.
    let (code, v) = verify(&roots, &cert, &["--ocsp"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (Some(1), Some("revoked")),
        "{v}"
    );
    // The CRL alone, once published, says so too.
    publish_crl(&ca, &www.join("ca.crl"));
    let (code, v) = verify(&roots, &cert, &["--crl-download"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (Some(1), Some("revoked")),
        "{v}"
    );
    let (code, out) = ossl(&[
        "verify",
        "-crl_download",
        "-crl_check",
        "-CAfile",
        &s(&roots),
        &s(&cert),
    ]);
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("certificate revoked"), "{out}");
    drop(responder);
    // One run fetches a CRL once, however many certificates point to it.
    let batch = t.path().join("batch");
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "20",
        "--out-dir",
        &s(&batch),
    ]);
    let gets = || files.log_text().matches("GET /ca.crl").count();
    let before = gets();
    let mut args = vec![
        "verify".to_string(),
        "--roots".into(),
        s(&roots),
        "--crl-download".into(),
    ];
    args.extend((1..=20).map(|n| s(&batch.join(format!("{n}.pem")))));
    let r = common::pkit_run(&args);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(gets(), before + 1, "{}", files.log_text());
    // A CRL server that answers nonsense: unknown, naming the URL.
    std::fs::write(www.join("ca.crl"), b"not a CRL").unwrap();
    let (code, v) = verify(&roots, &other, &["--crl-download"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (Some(1), Some("revocation-unknown")),
        "{v}"
    );
    assert!(v["detail"].as_str().unwrap().contains(&crl_url), "{v}");

    // Pointers that are not plain http are refused before anything is made.
    let r = pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&t.path().join("bad")),
        "--subject",
        "CN=Bad",
        "--no-passout",
        "--crl-url",
        "https://ca.example/ca.crl",
    ]);
    refused(&r, 2, &["--crl-url", "http://"], "an https CRL URL");
    assert!(!t.path().join("bad").exists());
}

/// docs/ca.md's recipe: the root records where its CRL and certificate are served, so
/// the intermediate it signs points there, and a client that checks every certificate of
/// the chain (`openssl verify -crl_check_all -crl_download`) finds the intermediate's CRL
/// through the leaf and the root's through the intermediate: valid, then the
/// intermediate revoked at the root.
#[test]
fn a_two_tier_chain_is_checked_for_revocation_to_the_root() {
    common::require_openssl();
    let t = common::tempdir();
    let port = free_port();
    let url = |file: &str| format!("http://127.0.0.1:{port}/{file}");
    let (root_crl, root_der) = (url("root.crl"), url("root.der"));
    let (int_crl, int_der) = (url("issuing.crl"), url("issuing.der"));
    let root = new_ca(
        t.path(),
        "root",
        "CN=Tour Root",
        &["--crl-url", &root_crl, "--issuer-url", &root_der],
    );
    let int = new_ca(
        t.path(),
        "issuing",
        "CN=Tour Issuing CA",
        &[
            "--parent",
            &s(&root),
            "--crl-url",
            &int_crl,
            "--issuer-url",
            &int_der,
        ],
    );
    let text = x509_text(&int.join("ca.pem"));
    assert!(text.contains(&format!("URI:{root_crl}")), "{text}");
    assert!(
        text.contains(&format!("CA Issuers - URI:{root_der}")),
        "{text}"
    );
    let cert = leaf(
        &int,
        t.path(),
        "api",
        &["--san", "DNS:api.example.internal"],
    );
    let www = t.path().join("www");
    std::fs::create_dir(&www).unwrap();
    publish_crl(&root, &www.join("root.crl"));
    publish_crl(&int, &www.join("issuing.crl"));
    let files = file_server(&www, port, t.path().join("http.log"));
    let check = || {
        ossl(&[
            "verify",
            "-crl_download",
            "-crl_check_all",
            // OpenSSL checks the trust anchor too, which points nowhere: its own CRL.
            "-CRLfile",
            &s(&www.join("root.crl")),
            "-CAfile",
            &s(&root.join("ca.pem")),
            "-untrusted",
            &s(&int.join("chain.pem")),
            &s(&cert),
        ])
    };
    // pkit follows each certificate's pointer, the intermediate's to the root's CRL.
    let pkit_check = || {
        let chain = s(&int.join("chain.pem"));
        verify(
            &root.join("ca.pem"),
            &cert,
            &[
                "--untrusted",
                &chain,
                "--check-revocation",
                "chain",
                "--crl-download",
            ],
        )
    };
    let (code, out) = check();
    assert_eq!(code, Some(0), "openssl -crl_check_all: {out}");
    let (code, v) = pkit_check();
    assert_eq!(code, Some(0), "{v}");
    assert!(
        files.log_text().contains("GET /root.crl"),
        "{}",
        files.log_text()
    );
    pk_ok(&[
        "crl",
        "revoke",
        "--ca",
        &s(&root),
        "--cert",
        &s(&int.join("ca.pem")),
    ]);
    publish_crl(&root, &www.join("root.crl"));
    let (code, out) = check();
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("certificate revoked"), "{out}");
    let (code, v) = pkit_check();
    assert_eq!(
        (code, v["reason"].as_str()),
        (Some(1), Some("revoked")),
        "{v}"
    );
}

#[test]
fn validity_follows_the_baseline_requirements() {
    let t = common::tempdir();
    fn at(now: &str) -> Vec<&str> {
        vec!["--now", now]
    }
    let ca = new_ca(
        t.path(),
        "ca",
        "CN=Validity CA",
        &["--now", "2026-01-01T00:00:00Z"],
    );
    let span = |cert: &Path| -> i64 {
        let r = pk_ok(&["parse", &s(cert), "-f", "json"]);
        let v = &json_items(&r)[0]["validity"];
        let t = |k: &str| {
            pkit::der::Time::parse_rfc3339(v[k].as_str().unwrap())
                .unwrap()
                .unix
        };
        t("not_after") - t("not_before")
    };
    let day = 86_400;
    // Server: 90 days (inclusive) on 2026-11-27, 47 days from 2029-03-15.
    let mut args = vec!["--san", "DNS:a.example"];
    args.extend(at("2026-11-27T00:00:00Z"));
    assert_eq!(span(&leaf(&ca, t.path(), "s2026", &args)), 90 * day - 1);
    let mut args = vec!["--san", "DNS:a.example"];
    args.extend(at("2030-01-01T00:00:00Z"));
    assert_eq!(span(&leaf(&ca, t.path(), "s2030", &args)), 47 * day - 1);
    // Client: a year.
    let mut args = vec!["--san", "email:a@example.com", "--profile", "client"];
    args.extend(at("2026-11-27T00:00:00Z"));
    assert_eq!(span(&leaf(&ca, t.path(), "c", &args)), 365 * day - 1);
    // Above the BR maximum: the lint gate refuses it; `--lint warn` issues it (a private
    // CA may) and names the rule.
    let long = |extra: &[&str]| {
        let mut args = vec![
            "issue".to_string(),
            "cert".into(),
            "--ca".into(),
            s(&ca),
            "--san".into(),
            "DNS:a.example".into(),
            "--key-out".into(),
            s(&t.path().join("long.key")),
            "-o".into(),
            s(&t.path().join("long.pem")),
            "--days".into(),
            "300".into(),
            "--now".into(),
            "2026-11-27T00:00:00Z".into(),
        ];
        args.extend(extra.iter().map(|x| x.to_string()));
        common::pkit_run(&args)
    };
    let r = long(&[]);
    refused(
        &r,
        1,
        &["e_cabf_validity_too_long", "at most 200"],
        "a 300-day server certificate",
    );
    let r = long(&["--lint", "warn"]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let err = r.stderr_str();
    assert!(
        err.contains("e_cabf_validity_too_long") && err.contains("§6.3.2"),
        "{err}"
    );
    // --days 0 is a usage error; so is a TLS certificate without a SAN.
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--san",
        "DNS:a.example",
        "--key-out",
        &s(&t.path().join("z.key")),
        "--days",
        "0",
    ]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--subject",
        "CN=nosan.example",
        "--key-out",
        &s(&t.path().join("nosan.key")),
        "-o",
        &s(&t.path().join("nosan.pem")),
    ]);
    refused(
        &r,
        2,
        &["subject alternative name"],
        "a server certificate without a SAN",
    );
    assert!(!t.path().join("nosan.key").exists() && !t.path().join("nosan.pem").exists());
    // A batch takes SAN templates; a custom subject without one is refused.
    let out = t.path().join("batch");
    let r = pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "3",
        "--subject-template",
        "CN=node-{n}.internal",
        "--san-template",
        "DNS:node-{n}.internal",
        "--san-template",
        "IP:10.0.0.{n}",
        "--out-dir",
        &s(&out),
    ]);
    assert_eq!(r.stdout_str().lines().count(), 3);
    let text = x509_text(&out.join("2.pem"));
    assert!(
        text.contains("DNS:node-2.internal, IP Address:10.0.0.2"),
        "{text}"
    );
    let r = pk(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "3",
        "--subject-template",
        "CN=node-{n}.internal",
        "--out-dir",
        &s(&t.path().join("nobatch")),
    ]);
    refused(
        &r,
        2,
        &["--san-template"],
        "a batch of server certificates without SANs",
    );
}

#[test]
fn name_constraints_bind_what_the_ca_issues() {
    common::require_openssl();
    let t = common::tempdir();
    let root = new_ca(t.path(), "root", "CN=Constrained Root", &[]);
    let int = new_ca(
        t.path(),
        "int",
        "CN=Internal Issuing CA",
        &[
            "--parent",
            &s(&root),
            "--permit",
            "DNS:.internal",
            "--permit",
            "IP:10.0.0.0/8",
            "--exclude",
            "DNS:secret.internal",
        ],
    );
    let text = x509_text(&int.join("ca.pem"));
    assert!(text.contains("X509v3 Name Constraints: critical"), "{text}");
    assert!(
        text.contains("DNS:.internal") && text.contains("IP:10.0.0.0/255.0.0.0"),
        "{text}"
    );
    assert!(
        text.contains("Excluded:") && text.contains("DNS:secret.internal"),
        "{text}"
    );
    let roots = root.join("ca.pem");
    let chain = int.join("chain.pem");
    let inside = leaf(
        &int,
        t.path(),
        "in",
        &[
            "--san",
            "DNS:a.internal",
            "--san",
            "IP:10.1.2.3",
            "--bundle",
        ],
    );
    // pkit refuses to sign what the constraints forbid (tests/preissue_cli.rs has the
    // forms); the verifiers are shown such a certificate as another signer would make it,
    // OpenSSL with the intermediate's key.
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&int),
        "--san",
        "DNS:www.example.com",
        "--key-out",
        &s(&t.path().join("out.key")),
        "-o",
        &s(&t.path().join("out.pem")),
    ]);
    refused(
        &r,
        1,
        &["name-constraints (certificate 0)", "www.example.com"],
        "a name outside",
    );
    let outside = t.path().join("outside.pem");
    let csr = t.path().join("outside.csr");
    let (code, out) = ossl(&[
        "req",
        "-new",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        &s(&t.path().join("outside.key")),
        "-subj",
        "/CN=www.example.com",
        "-addext",
        "subjectAltName=DNS:www.example.com",
        "-out",
        &s(&csr),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = ossl(&[
        "x509",
        "-req",
        "-in",
        &s(&csr),
        "-CA",
        &s(&int.join("ca.pem")),
        "-CAkey",
        &s(&int.join("ca.key")),
        "-copy_extensions",
        "copy",
        "-days",
        "30",
        "-out",
        &s(&outside),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let untrusted = ["--untrusted", &s(&chain)];
    let (code, v) = verify(&roots, &inside, &untrusted);
    assert_eq!(code, Some(0), "{v}");
    let (code, v) = verify(&roots, &outside, &untrusted);
    assert_eq!(
        (code, v["reason"].as_str()),
        (Some(1), Some("name-constraints")),
        "{v}"
    );
    let (code, out) = ossl(&[
        "verify",
        "-CAfile",
        &s(&roots),
        "-untrusted",
        &s(&chain),
        &s(&outside),
    ]);
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("permitted subtree violation"), "{out}");
    let (code, out) = ossl(&[
        "verify",
        "-CAfile",
        &s(&roots),
        "-untrusted",
        &s(&chain),
        &s(&inside),
    ]);
    assert_eq!(code, Some(0), "{out}");
    // --hostname takes an IP address too.
    let (code, v) = verify(
        &roots,
        &inside,
        &["--untrusted", &s(&chain), "--hostname", "10.1.2.3"],
    );
    assert_eq!(code, Some(0), "{v}");
    // A subtree that is not one: exit 2, no CA made.
    let r = pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&t.path().join("bad")),
        "--subject",
        "CN=Bad",
        "--no-passout",
        "--permit",
        "IP:10.0.0.1",
    ]);
    refused(
        &r,
        2,
        &["--permit", "IP:10.0.0.1"],
        "an address without a prefix length",
    );
    assert!(!t.path().join("bad").exists());
}

#[test]
fn bundles_and_pkcs12_open_in_openssl_keytool_and_pyca() {
    common::require_openssl();
    common::require_python_cryptography();
    let t = common::tempdir();
    let root = new_ca(t.path(), "root", "CN=Bundle Root", &[]);
    let int = new_ca(t.path(), "int", "CN=Bundle Int", &["--parent", &s(&root)]);
    let cert = leaf(
        &int,
        t.path(),
        "web",
        &[
            "--subject",
            "CN=web.example",
            "--san",
            "DNS:web.example",
            "--bundle",
            "--p12-out",
            &s(&t.path().join("web.p12")),
            "--p12-passout",
            "pass:p12 secret",
        ],
    );
    // The bundle: leaf then intermediate, no root.
    let blocks = common::pem_blocks(&std::fs::read_to_string(&cert).unwrap());
    assert_eq!(blocks.len(), 2);
    let int_pem = std::fs::read_to_string(int.join("ca.pem")).unwrap();
    assert_eq!(blocks[1].trim(), int_pem.trim());
    let (code, out) = ossl(&[
        "verify",
        "-CAfile",
        &s(&root.join("ca.pem")),
        "-untrusted",
        &s(&cert),
        &s(&cert),
    ]);
    assert_eq!(code, Some(0), "{out}");

    let p12 = t.path().join("web.p12");
    assert_eq!(
        std::fs::metadata(&p12).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let (code, out) = ossl(&[
        "pkcs12",
        "-info",
        "-in",
        &s(&p12),
        "-passin",
        "pass:p12 secret",
        "-noenc",
    ]);
    assert_eq!(code, Some(0), "openssl pkcs12: {out}");
    assert!(out.contains("MAC: sha256"), "{out}");
    assert!(out.contains("PBES2, PBKDF2, AES-256-CBC"), "{out}");
    assert!(
        out.contains("subject=CN = Bundle Int") || out.contains("subject=CN=Bundle Int"),
        "{out}"
    );
    let (code, out) = ossl(&[
        "pkcs12",
        "-info",
        "-in",
        &s(&p12),
        "-passin",
        "pass:wrong",
        "-noenc",
    ]);
    assert_ne!(code, Some(0), "a wrong password opened it: {out}");
    let py = python_ok(
        "import sys\n\
         from cryptography.hazmat.primitives.serialization import pkcs12\n\
         k, c, extra = pkcs12.load_key_and_certificates(open(sys.argv[1], 'rb').read(), b'p12 secret')\n\
         print(c.subject.rfc4514_string(), len(extra), k is not None)",
        &[&s(&p12)],
    );
    assert_eq!(py.trim(), "CN=web.example 1 True");
    if common::optional(Peer::Keytool, "keytool reads the PKCS#12 file").is_some() {
        let r = common::run_with(
            "keytool",
            &[
                "-list",
                "-v",
                "-keystore",
                &s(&p12),
                "-storetype",
                "PKCS12",
                "-storepass",
                "p12 secret",
            ],
            None,
            common::HANG,
        );
        let out = r.stdout_str();
        assert_eq!(r.code, Some(0), "keytool: {}", r.describe());
        assert!(out.contains("PrivateKeyEntry"), "{out}");
        assert!(out.contains("Certificate chain length: 2"), "{out}");
    }

    // key p12 from separate files, the chain given apart; a key that does not match.
    let out = t.path().join("again.p12");
    pk_ok(&[
        "key",
        "p12",
        "--cert",
        &s(&t.path().join("web.pem")),
        "--key",
        &s(&t.path().join("web.key")),
        "--passout",
        "pass:x",
        "-o",
        &s(&out),
    ]);
    let (code, o) = ossl(&["pkcs12", "-in", &s(&out), "-passin", "pass:x", "-nokeys"]);
    assert_eq!(code, Some(0), "{o}");
    assert_eq!(o.matches("BEGIN CERTIFICATE").count(), 2, "{o}");
    let other = leaf(&int, t.path(), "other", &["--san", "DNS:other.example"]);
    let r = pk(&[
        "key",
        "p12",
        "--cert",
        &s(&other),
        "--key",
        &s(&t.path().join("web.key")),
        "--passout",
        "pass:x",
        "-o",
        &s(&t.path().join("mismatch.p12")),
    ]);
    refused(
        &r,
        2,
        &["does not match"],
        "a key that is not the certificate's",
    );
    assert!(!t.path().join("mismatch.p12").exists());
    // Without a password source and without a terminal: refused, nothing written.
    let r = pk(&[
        "key",
        "p12",
        "--cert",
        &s(&other),
        "--key",
        &s(&t.path().join("other.key")),
        "-o",
        &s(&t.path().join("nopw.p12")),
    ]);
    refused(&r, 2, &["--passout"], "no password");
    assert!(!t.path().join("nopw.p12").exists());
}

#[test]
fn legacy_pkcs12_for_old_windows_is_triple_des_with_a_sha1_mac() {
    common::require_openssl();
    common::require_python_cryptography();
    let t = common::tempdir();
    let root = new_ca(t.path(), "root", "CN=Legacy Root", &[]);
    let int = new_ca(t.path(), "int", "CN=Legacy Int", &["--parent", &s(&root)]);
    let cert = leaf(
        &int,
        t.path(),
        "old",
        &[
            "--subject",
            "CN=old.example",
            "--san",
            "DNS:old.example",
            "--bundle",
        ],
    );
    let key = t.path().join("old.key");
    let p12 = |name: &str, extra: &[&str]| -> (PathBuf, common::Run) {
        let out = t.path().join(name);
        let (c, k, o) = (s(&cert), s(&key), s(&out));
        let mut args = vec![
            "key",
            "p12",
            "--cert",
            &c,
            "--key",
            &k,
            "--passout",
            "pass:w1nd0ws",
            "-o",
            &o,
        ];
        args.extend_from_slice(extra);
        (out, pk_ok(&args))
    };
    let info = |f: &Path| -> String {
        let (code, out) = ossl(&[
            "pkcs12",
            "-info",
            "-noout",
            "-in",
            &s(f),
            "-passin",
            "pass:w1nd0ws",
        ]);
        assert_eq!(code, Some(0), "openssl pkcs12: {out}");
        out
    };
    let (legacy, r) = p12("legacy.p12", &["--legacy"]);
    let warning: Vec<String> = r
        .stderr_str()
        .lines()
        .filter(|l| l.contains("warning"))
        .map(str::to_string)
        .collect();
    assert_eq!(warning.len(), 1, "{}", r.describe());
    assert!(
        warning[0].contains("legacy.p12") && warning[0].contains("weak"),
        "{warning:?}"
    );
    let out = info(&legacy);
    assert!(out.contains("MAC: sha1,"), "{out}");
    assert!(
        out.contains("PKCS7 Encrypted data: pbeWithSHA1And3-KeyTripleDES-CBC"),
        "{out}"
    );
    assert!(
        out.contains("Shrouded Keybag: pbeWithSHA1And3-KeyTripleDES-CBC"),
        "{out}"
    );
    assert!(!out.contains("AES") && !out.contains("PBES2"), "{out}");
    let py = python_ok(
        "import sys\n\
         from cryptography.hazmat.primitives.serialization import pkcs12\n\
         k, c, extra = pkcs12.load_key_and_certificates(open(sys.argv[1], 'rb').read(), b'w1nd0ws')\n\
         print(c.subject.rfc4514_string(), len(extra), k is not None)",
        &[&s(&legacy)],
    );
    assert_eq!(py.trim(), "CN=old.example 1 True");
    if common::optional(Peer::Keytool, "keytool reads the legacy PKCS#12 file").is_some() {
        let r = common::run_with(
            "keytool",
            &[
                "-list",
                "-keystore",
                &s(&legacy),
                "-storetype",
                "PKCS12",
                "-storepass",
                "w1nd0ws",
            ],
            None,
            common::HANG,
        );
        assert_eq!(r.code, Some(0), "keytool: {}", r.describe());
        assert!(
            r.stdout_str().contains("PrivateKeyEntry"),
            "{}",
            r.stdout_str()
        );
    }
    // Without --legacy: AES-256 and SHA-256, and no warning.
    let (modern, r) = p12("modern.p12", &[]);
    assert!(!r.stderr_str().contains("warning"), "{}", r.describe());
    let out = info(&modern);
    assert!(out.contains("MAC: sha256"), "{out}");
    assert!(out.contains("PBES2, PBKDF2, AES-256-CBC"), "{out}");
    assert!(!out.contains("TripleDES"), "{out}");
    // --p12-legacy means nothing without --p12-out.
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&int),
        "--san",
        "DNS:x.example",
        "--key-out",
        &s(&t.path().join("x.key")),
        "--p12-legacy",
    ]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    assert!(r.stderr_str().contains("--p12-out"), "{}", r.describe());
}

#[test]
fn renewal_keeps_names_and_links_the_records() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Renewal CA", &[]);
    let old = leaf(
        &ca,
        t.path(),
        "svc",
        &[
            "--subject",
            "CN=svc.example",
            "--san",
            "DNS:svc.example",
            "--san",
            "IP:10.1.2.3",
            "--days",
            "20",
        ],
    );
    let list = |extra: &[&str]| -> Vec<Value> {
        let c = s(&ca);
        let mut args = vec!["issue", "list", "--ca", &c, "-f", "json"];
        args.extend_from_slice(extra);
        json_items(&pk_ok(&args))
    };
    // Not yet within the window: nothing done.
    let new = t.path().join("svc2.pem");
    let r = pk_ok(&[
        "issue",
        "renew",
        "--ca",
        &s(&ca),
        "--cert",
        &s(&old),
        "--key-out",
        &s(&t.path().join("svc2.key")),
        "-o",
        &s(&new),
        "--within",
        "2w",
    ]);
    assert!(
        r.stderr_str().contains("nothing due for renewal"),
        "{}",
        r.describe()
    );
    assert!(!new.exists());
    assert_eq!(list(&["--expiring", "30d"]).len(), 1);
    assert_eq!(list(&["--expiring", "2w"]).len(), 0);
    let r = pk_ok(&[
        "issue",
        "renew",
        "--ca",
        &s(&ca),
        "--cert",
        &s(&old),
        "--key-out",
        &s(&t.path().join("svc2.key")),
        "-o",
        &s(&new),
        "--within",
        "4w",
        "-f",
        "json",
    ]);
    let item = &json_items(&r)[0];
    let old_serial = list(&[])[0]["serial_number"].as_str().unwrap().to_string();
    assert_eq!(item["replaces"], old_serial.as_str(), "{item}");
    assert_eq!(
        item["subject_alt_names"],
        serde_json::json!(["DNS:svc.example", "IP:10.1.2.3"])
    );
    let san = |c: &Path| -> String {
        let text = x509_text(c);
        let i = text.find("Subject Alternative Name").unwrap();
        text[i..].lines().nth(1).unwrap().trim().to_string()
    };
    assert_eq!(san(&old), san(&new));
    assert_eq!(san(&new), "DNS:svc.example, IP Address:10.1.2.3");
    let rows = list(&[]);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["replaced_by"], rows[1]["serial_number"]);
    assert_eq!(rows[1]["replaces"], rows[0]["serial_number"]);
    assert_eq!(rows[1]["subject_alt_names"][0], "DNS:svc.example");
    // A new key, and the old one is still the old certificate's.
    let key_of = |c: &Path| ossl(&["x509", "-in", &s(c), "-noout", "-pubkey"]).1;
    assert_ne!(key_of(&old), key_of(&new));
    // Status filters.
    pk_ok(&["crl", "revoke", "--ca", &s(&ca), "--cert", &s(&old)]);
    assert_eq!(list(&["--status", "revoked"]).len(), 1);
    assert_eq!(list(&["--status", "valid"]).len(), 1);
    assert_eq!(
        list(&["--status", "expired", "--now", "2099-01-01T00:00:00Z"]).len(),
        1
    );
    // The table shows the SANs.
    let r = pk_ok(&["issue", "list", "--ca", &s(&ca)]);
    assert!(
        r.stdout_str().contains("DNS:svc.example, IP:10.1.2.3"),
        "{}",
        r.stdout_str()
    );
    // A certificate another CA issued: exit 2, nothing recorded.
    let other_ca = new_ca(t.path(), "other", "CN=Other CA", &[]);
    let foreign = leaf(&other_ca, t.path(), "foreign", &["--san", "DNS:f.example"]);
    let r = pk(&[
        "issue",
        "renew",
        "--ca",
        &s(&ca),
        "--cert",
        &s(&foreign),
        "--key-out",
        &s(&t.path().join("f2.key")),
    ]);
    refused(
        &r,
        2,
        &["is not a certificate", "issued"],
        "renewing another CA's certificate",
    );
    assert_eq!(list(&[]).len(), 2);
}

#[test]
fn creating_commands_speak_json() {
    let t = common::tempdir();
    let ca_dir = t.path().join("ca");
    let r = pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&ca_dir),
        "--subject",
        "CN=JSON CA",
        "--no-passout",
        "-f",
        "json",
    ]);
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["schema"], "pkit/v1");
    assert_eq!(v["type"], "ca");
    let ca = &v["items"][0];
    assert_eq!(ca["subject_dn"], "CN=JSON CA");
    assert_eq!(ca["files"]["key"], s(&ca_dir.join("ca.key")).as_str());
    assert_eq!(ca["key_encrypted"], false);
    assert!(r.stderr.is_empty(), "{}", r.stderr_str());
    let r = pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca_dir),
        "--san",
        "DNS:j.example",
        "--key-out",
        &s(&t.path().join("j.key")),
        "-f",
        "json",
    ]);
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["type"], "issued");
    let it = &v["items"][0];
    // No --subject: an empty subject, the name in a critical SAN (RFC 5280 §4.2.1.6).
    assert_eq!(it["subject_dn"], "");
    for k in ["serial_number", "fingerprint_sha256", "pem"] {
        assert!(it[k].as_str().is_some_and(|x| !x.is_empty()), "{k}: {it}");
    }
    assert_eq!(
        it["subject_alt_names"],
        serde_json::json!(["DNS:j.example"])
    );
    assert_eq!(it["profile"], "server");
    assert!(it["validity"]["not_after"].as_str().unwrap().ends_with('Z'));
    // The fingerprint is the DER's SHA-256, as openssl computes it.
    let pem_file = common::write_file(t.path(), "j.pem", it["pem"].as_str().unwrap().as_bytes());
    let (_, fp) = ossl(&[
        "x509",
        "-in",
        &s(&pem_file),
        "-noout",
        "-fingerprint",
        "-sha256",
    ]);
    let fp: String = fp
        .split('=')
        .nth(1)
        .unwrap()
        .trim()
        .replace(':', "")
        .to_lowercase();
    assert_eq!(it["fingerprint_sha256"], fp.as_str());
}

/// With `-f json` an error is one JSON object on stderr, whatever stopped the run: an
/// argument clap refused (the format read from the raw arguments), a batch's manifest, a
/// bench's input, a landmark list's missing log; a PEM error carries its offset.
#[test]
fn errors_in_json_mode_are_json() {
    let t = common::tempdir();
    let d = t.path();
    let cut = common::write_file(d, "cut.pem", b"-----BEGIN CERTIFICATE-----\nMIIB\n");
    let manifest = common::write_file(d, "bad.jsonl", b"{\"subject\": \"CN=x");
    let ca = s(&d.join("ca"));
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &ca,
        "--subject",
        "CN=J",
        "--no-passout",
    ]);
    let cases: Vec<(Vec<String>, i32)> = vec![
        (vec!["key", "gen", "--alg", "bogus", "-f", "json"], 2),
        (
            vec!["verify", "--purpose", "bogus", "--format=json", "x.pem"],
            2,
        ),
        (
            vec!["issue", "list", "--ca", &ca, "--status", "bogus", "-fjson"],
            2,
        ),
        (vec!["verify", &s(&cut), "-f", "json"], 3),
        (
            vec![
                "issue",
                "batch",
                "--ca",
                &ca,
                "--from",
                &s(&manifest),
                "--out-dir",
                &s(&d.join("out")),
                "-f",
                "json",
            ],
            3,
        ),
        (
            vec!["bench", "parse", &s(&d.join("none.pem")), "-f", "json"],
            4,
        ),
        (
            vec![
                "mtc",
                "landmark",
                "--dir",
                &s(&d.join("none")),
                "list",
                "-f",
                "json",
            ],
            4,
        ),
    ]
    .into_iter()
    .map(|(a, c)| (a.into_iter().map(String::from).collect(), c))
    .collect();
    for (args, code) in cases {
        let r = pk(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(r.code, Some(code), "{args:?}: {}", r.describe());
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.describe());
        let err = r.stderr_str();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        let v: Value = serde_json::from_str(&err)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {err}"));
        assert_eq!(v["error"]["code"], code, "{args:?}: {v}");
        if args[0] == "verify" && code == 3 {
            assert!(v["error"]["offset"].is_u64(), "{v}");
        }
    }
}

/// Every command that makes something says so on stderr in the same words: one line
/// `pkit: created WHAT in FILE` (` in FILE` left out when the data went to stdout), and
/// nothing else when all went well.
#[test]
fn creating_commands_say_created_alike() {
    let t = common::tempdir();
    let d = t.path();
    let p = |name: &str| s(&d.join(name));
    let said = |args: &[&str]| -> String {
        let r = pk_ok(args);
        let err = r.stderr_str();
        assert_eq!(err.lines().count(), 1, "pkit {}: {err}", args.join(" "));
        assert!(
            err.starts_with("pkit: created "),
            "pkit {}: {err}",
            args.join(" ")
        );
        err.trim_end().to_string()
    };
    let ends_in = |line: &str, file: &str| {
        assert!(line.ends_with(&format!(" in {file}")), "{line}");
    };
    let ca = p("ca");
    let line = said(&[
        "issue",
        "ca",
        "--dir",
        &ca,
        "--subject",
        "CN=Said CA",
        "--no-passout",
    ]);
    assert_eq!(
        line,
        format!("pkit: created CA CN=Said CA (ecdsa-p256) in {ca}")
    );
    let (cert, key) = (p("a.pem"), p("a.key"));
    let line = said(&[
        "issue",
        "cert",
        "--ca",
        &ca,
        "--subject",
        "CN=a.example",
        "--san",
        "DNS:a.example",
        "--key-out",
        &key,
        "-o",
        &cert,
    ]);
    assert!(line.contains("certificate serial ") && line.contains("for CN=a.example"));
    assert!(line.contains(&format!("(its key in {key})")), "{line}");
    ends_in(&line, &cert);
    let renewed = p("a2.pem");
    let line = said(&[
        "issue",
        "renew",
        "--ca",
        &ca,
        "--cert",
        &cert,
        "--key-out",
        &p("a2.key"),
        "-o",
        &renewed,
    ]);
    assert!(line.contains("(renews serial "), "{line}");
    ends_in(&line, &renewed);
    let out = p("batch");
    let line = said(&[
        "issue",
        "batch",
        "--ca",
        &ca,
        "--count",
        "2",
        "--out-dir",
        &out,
    ]);
    assert!(line.starts_with("pkit: created 2 certificates ("), "{line}");
    ends_in(&line, &out);
    let k = p("k.pem");
    ends_in(&said(&["key", "gen", "--alg", "ed25519", "-o", &k]), &k);
    let csr = p("k.csr");
    let line = said(&["issue", "csr", "--key", &k, "--subject", "CN=k", "-o", &csr]);
    assert_eq!(line, format!("pkit: created CSR for CN=k in {csr}"));
    let p12 = p("a.p12");
    let line = said(&[
        "key",
        "p12",
        "--cert",
        &cert,
        "--key",
        &key,
        "--passout",
        "pass:x",
        "-o",
        &p12,
    ]);
    ends_in(&line, &p12);
    let crl = p("crl.pem");
    let line = said(&["crl", "gen", "--ca", &ca, "-o", &crl]);
    assert!(line.starts_with("pkit: created CRL number 1 (0 entries, next update "));
    ends_in(&line, &crl);
    let (req, resp) = (p("req.der"), p("resp.der"));
    let ca_pem = s(&d.join("ca").join("ca.pem"));
    let line = said(&[
        "ocsp", "request", "--cert", &cert, "--issuer", &ca_pem, "-o", &req,
    ]);
    ends_in(&line, &req);
    let line = said(&[
        "ocsp",
        "respond",
        "--ca",
        &ca,
        "--request",
        &req,
        "-o",
        &resp,
    ]);
    assert!(line.contains(": good)"), "{line}");
    ends_in(&line, &resp);
    let mtc = p("mtc");
    let line = said(&[
        "mtc", "ca", "new", "--dir", &mtc, "--ca-id", "32473.1", "--alg", "ed25519",
    ]);
    assert!(
        line.starts_with("pkit: created MTC CA 32473.1 (log 1, "),
        "{line}"
    );
    ends_in(&line, &mtc);
    pk_ok(&[
        "mtc",
        "add",
        "--dir",
        &mtc,
        "--subject",
        "CN=m.example",
        "--san",
        "DNS:m.example",
        "--key-out",
        &p("m.key"),
    ]);
    pk_ok(&["mtc", "checkpoint", "--dir", &mtc, "-o", &p("m.note")]);
    let line = said(&["mtc", "landmark", "--dir", &mtc, "allocate"]);
    assert!(
        line.starts_with("pkit: created landmark 1 at tree size 1 (until "),
        "{line}"
    );
    let public = p("k.pub.pem");
    let line = said(&["key", "pub", &k, "-o", &public]);
    assert_eq!(line, format!("pkit: created public key in {public}"));
    let der = p("a.der");
    let line = said(&["parse", &cert, "-f", "der", "-o", &der]);
    assert_eq!(line, format!("pkit: created DER object in {der}"));
    // To stdout: the line names no file.
    let r = pk_ok(&["key", "gen", "--alg", "ed25519"]);
    assert_eq!(r.stderr_str(), "pkit: created ed25519 key\n");
    // With -f json: the description on stdout, nothing on stderr.
    let r = pk_ok(&[
        "crl",
        "gen",
        "--ca",
        &ca,
        "-o",
        &p("crl2.pem"),
        "-f",
        "json",
    ]);
    assert!(r.stderr.is_empty(), "{}", r.describe());
}

#[test]
fn the_ca_key_is_encrypted_or_the_user_is_told() {
    let t = common::tempdir();
    // No terminal and no choice made: written in clear, and said so.
    let dir = t.path().join("clear");
    let r = pk_ok(&["issue", "ca", "--dir", &s(&dir), "--subject", "CN=Clear"]);
    assert!(r.stderr_str().contains("unencrypted"), "{}", r.describe());
    assert!(std::fs::read_to_string(dir.join("ca.key"))
        .unwrap()
        .contains("BEGIN PRIVATE KEY"));
    // --no-passout: in clear, quietly.
    let dir = t.path().join("quiet");
    let r = pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&dir),
        "--subject",
        "CN=Quiet",
        "--no-passout",
    ]);
    assert!(!r.stderr_str().contains("unencrypted"), "{}", r.describe());
    // --passout: encrypted, and the CA needs the password to issue.
    let dir = t.path().join("locked");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&dir),
        "--subject",
        "CN=Locked",
        "--passout",
        "pass:ca secret",
    ]);
    assert!(std::fs::read_to_string(dir.join("ca.key"))
        .unwrap()
        .contains("BEGIN ENCRYPTED PRIVATE KEY"));
    let args = |pw: Option<&str>| -> Vec<String> {
        let mut v: Vec<String> = [
            "issue",
            "cert",
            "--ca",
            &s(&dir),
            "--san",
            "DNS:l.example",
            "--key-out",
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        v.push(s(&t.path().join(format!("l{}.key", pw.is_some()))));
        if let Some(pw) = pw {
            v.extend(["--passin".to_string(), pw.to_string()]);
        }
        v
    };
    let r = common::pkit_run(&args(None));
    assert_eq!(r.code, Some(3), "{}", r.describe());
    let r = common::pkit_run(&args(Some("pass:ca secret")));
    assert_eq!(r.code, Some(0), "{}", r.describe());
}

#[test]
fn trust_store_directories_read_like_capath() {
    common::require_openssl();
    let t = common::tempdir();
    let root = new_ca(t.path(), "root", "CN=Store Root", &[]);
    let cert = leaf(&root, t.path(), "web", &["--san", "DNS:web.example"]);
    // A store as Debian lays one out: the certificate, a hash link to it, a bundle that
    // repeats it, a Java keystore in a subdirectory and a file that is no certificate.
    let store = t.path().join("store");
    std::fs::create_dir_all(store.join("java")).unwrap();
    let pem = std::fs::read_to_string(root.join("ca.pem")).unwrap();
    std::fs::write(store.join("Store_Root.pem"), &pem).unwrap();
    let (code, hash) = ossl(&["x509", "-in", &s(&root.join("ca.pem")), "-noout", "-hash"]);
    assert_eq!(code, Some(0), "{hash}");
    std::os::unix::fs::symlink("Store_Root.pem", store.join(format!("{}.0", hash.trim()))).unwrap();
    let other = new_ca(t.path(), "other", "CN=Other Root", &[]);
    let bundle = format!(
        "{pem}{}",
        std::fs::read_to_string(other.join("ca.pem")).unwrap()
    );
    std::fs::write(store.join("ca-certificates.crt"), bundle).unwrap();
    std::fs::write(
        store.join("java").join("cacerts"),
        [0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2],
    )
    .unwrap();
    std::fs::write(store.join("README"), "certificates live here\n").unwrap();

    let r = pk(&["verify", "--roots", &s(&store), "--verbose", &s(&cert)]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let err = r.stderr_str();
    assert!(err.contains("README: holds no certificate"), "{err}");
    assert!(err.contains("java: not a regular file"), "{err}");
    assert!(err.contains("2 certificates (2 found again"), "{err}");
    let (code, out) = ossl(&["verify", "-CApath", &s(&store), &s(&cert)]);
    assert_eq!(code, Some(0), "openssl -CApath agrees: {out}");
    // A file named as --roots must hold certificates.
    let r = pk(&["verify", "--roots", &s(&store.join("README")), &s(&cert)]);
    refused(
        &r,
        3,
        &["README", "holds no certificate"],
        "--roots naming a README",
    );
    // parse --summary counts each object once.
    let r = pk(&["parse", "-r", &s(&store), "--summary", "-f", "json"]);
    let v = &json_items(&r)[0];
    assert_eq!(
        (v["objects"].as_u64(), v["duplicates"].as_u64()),
        (Some(2), Some(2)),
        "{v}"
    );
}

/// The rough edges a new user met, each smoothed.
#[test]
fn rough_edges_are_smoothed() {
    common::require_openssl();
    let t = common::tempdir();
    // A traditional `BEGIN RSA PRIVATE KEY` / `BEGIN EC PRIVATE KEY` file is a key.
    let (rsa, ec) = (t.path().join("rsa.pem"), t.path().join("ec.pem"));
    let (code, out) = ossl(&["genrsa", "-traditional", "-out", &s(&rsa), "2048"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = ossl(&[
        "ecparam",
        "-name",
        "prime256v1",
        "-genkey",
        "-noout",
        "-out",
        &s(&ec),
    ]);
    assert_eq!(code, Some(0), "{out}");
    for (file, format, bits) in [
        (&rsa, "rsa_private_key", 2048),
        (&ec, "ec_private_key", 256),
    ] {
        let v = &json_items(&pk_ok(&["parse", &s(file), "-f", "json"]))[0];
        assert_eq!(v["type"], "private_key", "{v}");
        assert_eq!(
            (v["format"].as_str(), v["key_bits"].as_u64()),
            (Some(format), Some(bits)),
            "{v}"
        );
    }
    // An MTC log: an idle checkpoint is no failure; an index past the end says so; a
    // cosigner algorithm it cannot use is a usage error, and help lists only the usable.
    let log = t.path().join("log");
    common::new_mtc_ca(&log);
    common::mtc_add(&log, 0, 5, None, None);
    pk_ok(&["mtc", "checkpoint", "--dir", &s(&log)]);
    let r = pk(&["mtc", "checkpoint", "--dir", &s(&log)]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(r.stderr_str().contains("nothing to checkpoint") && r.stdout.is_empty());
    let r = pk(&["mtc", "cert", "--dir", &s(&log), "--index", "99"]);
    refused(&r, 2, &["no entry 99", "0 to 4"], "an index past the log");
    let r = pk(&[
        "mtc",
        "ca",
        "new",
        "--dir",
        &s(&t.path().join("rsa-log")),
        "--ca-id",
        "32473.2",
        "--alg",
        "rsa2048",
    ]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    let help = pk_ok(&["mtc", "ca", "new", "--help"]).stdout_str();
    assert!(
        help.contains("ml-dsa-87") && !help.contains("rsa2048"),
        "{help}"
    );
    // Landmark expiry in RFC 3339, in text and JSON.
    let r = pk_ok(&[
        "mtc",
        "landmark",
        "--dir",
        &s(&log),
        "allocate",
        "--lifetime",
        "4w",
    ]);
    assert!(r.stderr_str().contains(" (until 20"), "{}", r.describe());
    common::mtc_add(&log, 5, 2, None, None);
    pk_ok(&["mtc", "checkpoint", "--dir", &s(&log)]);
    let r = pk_ok(&[
        "mtc",
        "landmark",
        "--dir",
        &s(&log),
        "allocate",
        "-f",
        "json",
    ]);
    let v = &json_items(&r)[0];
    assert!(
        v["expires_at"].as_str().is_some_and(|x| x.ends_with('Z')),
        "{v}"
    );
    // --days 0 and a duration in weeks.
    let ca = new_ca(t.path(), "ca", "CN=Edges", &[]);
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--san",
        "DNS:a.example",
        "--key-out",
        &s(&t.path().join("d0.key")),
        "--days",
        "0",
    ]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    let cert = leaf(&ca, t.path(), "w", &["--san", "DNS:w.example"]);
    let r = pk(&[
        "verify",
        "--roots",
        &s(&ca.join("ca.pem")),
        "--expires-within",
        "4w",
        &s(&cert),
    ]);
    assert_eq!(
        r.code,
        Some(0),
        "90 days is not within 4 weeks: {}",
        r.describe()
    );
    let r = pk(&[
        "verify",
        "--roots",
        &s(&ca.join("ca.pem")),
        "--expires-within",
        "14w",
        &s(&cert),
    ]);
    assert_eq!(
        r.code,
        Some(1),
        "90 days is within 14 weeks: {}",
        r.describe()
    );
}

/// `issue batch -f json`: the report as one envelope, complete even for nothing.
#[test]
fn batch_reports_in_one_envelope() {
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Batch JSON", &[]);
    let r = pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "3",
        "--out-dir",
        &s(&t.path().join("out")),
        "-f",
        "json",
    ]);
    let items = json_items(&r);
    assert_eq!(items.len(), 3);
    assert_eq!(items[2]["n"], 3);
    let first = items[0]["files"]["certificate"].as_str().unwrap();
    assert!(Path::new(first).exists(), "{first}");
    let r = pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "0",
        "--out-dir",
        &s(&t.path().join("none")),
        "-f",
        "json",
    ]);
    assert!(json_items(&r).is_empty());
}

/// At a terminal, `issue ca` asks for the CA key's passphrase twice and encrypts the key
/// under it; typed differently, nothing is made.
#[test]
fn the_ca_key_passphrase_is_asked_for_at_a_terminal() {
    if common::optional(Peer::Script, "the passphrase prompt at a terminal").is_none() {
        return;
    }
    let t = common::tempdir();
    let run = |dir: &str, answers: [&str; 2]| -> (bool, String) {
        let cmd = format!(
            "{} issue ca --dir {dir} --subject CN=Typed",
            common::pkit_bin().display()
        );
        let mut child = Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .current_dir(t.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("script");
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
        let reader = std::thread::spawn(move || {
            use std::io::Read;
            let mut buf = [0u8; 256];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                if tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let mut stdin = child.stdin.take().unwrap();
        let mut seen = Vec::new();
        for (prompt, answer) in [
            ("Passphrase for", answers[0]),
            ("same passphrase again", answers[1]),
        ] {
            let deadline = std::time::Instant::now() + common::HANG;
            while !String::from_utf8_lossy(&seen).contains(prompt) {
                let left = deadline.saturating_duration_since(std::time::Instant::now());
                match rx.recv_timeout(left) {
                    Ok(chunk) => seen.extend(chunk),
                    Err(_) => panic!("no prompt {prompt:?}: {}", String::from_utf8_lossy(&seen)),
                }
            }
            // rpassword prints the prompt, then turns echo off: give it a moment (not a
            // timing assertion; a slow pkit only makes the wait longer than needed).
            std::thread::sleep(std::time::Duration::from_millis(300));
            use std::io::Write;
            stdin.write_all(format!("{answer}\n").as_bytes()).unwrap();
            seen.clear();
        }
        drop(stdin);
        let status = child.wait().unwrap();
        reader.join().unwrap();
        seen.extend(rx.try_iter().flatten());
        (status.success(), String::from_utf8_lossy(&seen).to_string())
    };
    let (ok, shown) = run("typed", ["tty secret", "tty secret"]);
    assert!(ok, "{shown}");
    assert!(
        !shown.contains("tty secret"),
        "the passphrase was echoed: {shown}"
    );
    let key = std::fs::read_to_string(t.path().join("typed/ca.key")).unwrap();
    assert!(key.contains("BEGIN ENCRYPTED PRIVATE KEY"), "{key}");
    // The key opens with that passphrase.
    let c = s(&t.path().join("typed"));
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &c,
        "--san",
        "DNS:t.example",
        "--key-out",
        &s(&t.path().join("t.key")),
        "--passin",
        "pass:tty secret",
    ]);
    let (ok, shown) = run("differ", ["one", "two"]);
    assert!(!ok, "{shown}");
    assert!(shown.contains("differ"), "{shown}");
    assert!(!t.path().join("differ/ca.key").exists());
}
