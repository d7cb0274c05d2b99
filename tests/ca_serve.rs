//! `pkit ca serve`: one process answering every URL a two-tier CA writes into its
//! certificates, checked by relying parties nobody here wrote — `openssl verify
//! -crl_download -crl_check` and `openssl ocsp -url` follow the leaf's own URLs, Go's
//! crypto/x509 completes the chain through caIssuers (`tests/go/aiafetch`), certbot gets
//! and revokes a certificate through the same process's ACME endpoint, and Python's
//! prometheus_client parses `/metrics`. A revocation (certbot's, or `pkit crl revoke` from
//! another process) shows in the CRL and in OCSP without a restart. URLs nothing would
//! answer are refused at start.

mod common;

use common::{free_port, pk, pk_ok, require, s, Peer, Server, CERTBOT, CERTBOT_ENV};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a revocation may take to show before the test calls it lost. The server's
/// bound is --crl-max-age (1 s here); this is only the test's patience on a loaded
/// machine, not a measurement.
const PATIENCE: Duration = Duration::from_secs(30);

fn get(url: &str) -> (u16, String, Vec<u8>) {
    common::http_get(url)
}

/// The `issue ca` flags that point the CA `name` at `base`: one OCSP URL for every CA,
/// its CRL at /crl/NAME.crl, its certificate at /certs/NAME.der.
fn urls(base: &str, name: &str) -> Vec<String> {
    vec![
        "--ocsp-url".to_string(),
        format!("{base}/ocsp"),
        "--crl-url".to_string(),
        format!("{base}/crl/{name}.crl"),
        "--issuer-url".to_string(),
        format!("{base}/certs/{name}.der"),
    ]
}

/// A root and an intermediate whose ca.json point to `base` (one OCSP URL for both).
fn two_tier(d: &Path, base: &str) -> (PathBuf, PathBuf) {
    let urls = |name: &str| urls(base, name);
    let r = urls("root");
    let r: Vec<&str> = r.iter().map(String::as_str).collect();
    let root = common::issue_ca(d, "root", "CN=Serve Root,O=Example", &r);
    let i = urls("int");
    let mut i: Vec<&str> = i.iter().map(String::as_str).collect();
    let parent = s(&root);
    i.extend(["--parent", &parent]);
    let int = common::issue_ca(d, "int", "CN=Serve Intermediate,O=Example", &i);
    (root, int)
}

/// The samples of a /metrics scrape as Python's prometheus_client reads them: `name{labels
/// as sorted JSON}` → value. `open`: asked for as Prometheus asks (OpenMetrics, read by
/// its OpenMetrics parser); else as curl asks (no Accept: the classic 0.0.4 text format,
/// read by its classic parser, every family of a known type).
fn scrape(base: &str, open: bool) -> HashMap<String, f64> {
    require(Peer::PrometheusClient);
    let mut rq = common::http_agent().get(format!("{base}/metrics"));
    if open {
        rq = rq.header(
            "accept",
            "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5",
        );
    }
    let mut r = rq.call().expect("GET /metrics");
    assert_eq!(r.status().as_u16(), 200);
    let ct = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let (want, parser) = if open {
        (
            "application/openmetrics-text",
            "prometheus_client.openmetrics.parser",
        )
    } else {
        ("text/plain; version=0.0.4", "prometheus_client.parser")
    };
    assert!(ct.starts_with(want), "{ct}");
    let body = r.body_mut().read_to_vec().unwrap();
    let script = format!(
        "import sys, json\n\
        from {parser} import text_string_to_metric_families\n\
        out = {{}}\n\
        for f in text_string_to_metric_families(sys.stdin.read()):\n\
        \x20   assert f.type in ('counter', 'gauge', 'histogram'), (f.name, f.type)\n\
        \x20   for x in f.samples:\n\
        \x20       out[x.name + json.dumps(x.labels, sort_keys=True)] = x.value\n\
        print(json.dumps(out))\n"
    );
    let r = common::run_with("python3", &["-c", &script], Some(&body), common::HANG);
    assert_eq!(r.code, Some(0), "{parser}: {}", r.describe());
    serde_json::from_str(r.stdout_str().trim()).expect("parser output")
}

fn sample(m: &HashMap<String, f64>, key: &str) -> f64 {
    m.get(key).copied().unwrap_or(0.0)
}

/// Poll until `done` says yes, within [`PATIENCE`]; how long it took.
fn within(what: &str, mut done: impl FnMut() -> bool) -> Duration {
    let t = Instant::now();
    while !done() {
        assert!(t.elapsed() < PATIENCE, "{what}: not within {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    t.elapsed()
}

/// `openssl verify -crl_download -crl_check` of `leaf` (the CRL fetched from its own
/// cRLDistributionPoints): exit code and output.
fn crl_verify(root: &Path, int: &Path, leaf: &Path) -> (Option<i32>, String) {
    common::ossl(&[
        "verify",
        "-crl_download",
        "-crl_check",
        "-CAfile",
        &s(&root.join("ca.pem")),
        "-untrusted",
        &s(&int.join("ca.pem")),
        &s(leaf),
    ])
}

/// `openssl ocsp -url` with the leaf's own AIA OCSP URL: its output.
fn ocsp_status(root: &Path, int: &Path, leaf: &Path) -> String {
    let (code, url) = common::ossl(&["x509", "-in", &s(leaf), "-noout", "-ocsp_uri"]);
    assert_eq!(code, Some(0), "{url}");
    let (code, out) = common::ossl(&[
        "ocsp",
        "-issuer",
        &s(&int.join("ca.pem")),
        "-cert",
        &s(leaf),
        "-url",
        url.trim(),
        "-CAfile",
        &s(&root.join("ca.pem")),
    ]);
    assert_eq!(code, Some(0), "openssl ocsp: {out}");
    assert!(out.contains("Response verify OK"), "{out}");
    out
}

#[test]
fn one_server_answers_every_url_of_a_two_tier_ca_with_acme() {
    require(Peer::Certbot);
    let t = common::tempdir();
    let d = t.path();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let (root, int) = two_tier(d, &base);
    let (acme_port, http_port) = (free_port(), free_port());
    let mut cmd = common::pkit();
    cmd.args([
        "ca",
        "serve",
        "--ca",
        &s(&root),
        "--ca",
        &s(&int),
        "--listen",
        &format!("127.0.0.1:{port}"),
        "--threads",
        "2",
        "--crl-max-age",
        "1s",
        "--acme",
        "--acme-listen",
        &format!("127.0.0.1:{acme_port}"),
        "--http-port",
        &http_port.to_string(),
        "--validators",
        "2",
    ]);
    let server = Server::start(cmd, d.join("serve.log"), "\"listening\"");

    // certbot, through the same process's ACME endpoint, trusting the root.
    let directory = format!("https://127.0.0.1:{acme_port}/directory");
    let certbot = |args: &[&str]| {
        let mut all: Vec<String> = vec![
            CERTBOT_ENV.into(),
            format!("REQUESTS_CA_BUNDLE={}", s(&root.join("ca.pem"))),
            CERTBOT.into(),
        ];
        all.extend(args.iter().map(|a| a.to_string()));
        for (k, v) in [
            ("--server", directory.clone()),
            ("--config-dir", s(&d.join("cfg"))),
            ("--work-dir", s(&d.join("work"))),
            ("--logs-dir", s(&d.join("logs"))),
        ] {
            all.extend([k.to_string(), v]);
        }
        all.push("--non-interactive".into());
        let r = common::run_with("env", &all, None, Duration::from_secs(120));
        assert!(!r.timed_out, "certbot hung: {}", r.describe());
        assert_eq!(
            r.code,
            Some(0),
            "certbot: {}\n{}",
            r.describe(),
            server.log_text()
        );
    };
    let hp = http_port.to_string();
    certbot(&[
        "certonly",
        "--standalone",
        "--http-01-port",
        &hp,
        "--http-01-address",
        "127.0.0.1",
        "--agree-tos",
        "--register-unsafely-without-email",
        "-d",
        "localhost",
    ]);
    let leaf = d.join("cfg/live/localhost/cert.pem");

    // The leaf's own URLs resolve through the one server.
    let (code, out) = crl_verify(&root, &int, &leaf);
    assert_eq!(code, Some(0), "openssl verify -crl_download: {out}");
    let out = ocsp_status(&root, &int, &leaf);
    assert!(out.contains(": good"), "{out}");
    // The intermediate's own status, asked at the same OCSP URL, is the root's to give.
    let (_, out) = common::ossl(&[
        "ocsp",
        "-issuer",
        &s(&root.join("ca.pem")),
        "-cert",
        &s(&int.join("ca.pem")),
        "-url",
        &format!("{base}/ocsp"),
        "-CAfile",
        &s(&root.join("ca.pem")),
    ]);
    assert!(
        out.contains("Response verify OK") && out.contains(": good"),
        "{out}"
    );
    let (status, ct, der) = get(&format!("{base}/certs/int.der"));
    assert_eq!((status, ct.as_str()), (200, "application/pkix-cert"));
    let (code, out) = common::ossl(&[
        "x509",
        "-in",
        &s(&int.join("ca.pem")),
        "-outform",
        "DER",
        "-out",
        &s(&d.join("int.der")),
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(der, std::fs::read(d.join("int.der")).unwrap());
    // Go completes the chain through caIssuers, as a browser does.
    if let Some(go) = common::go_program(
        "aiafetch",
        "completing a chain through caIssuers with Go's crypto/x509",
        "install Go >= 1.22",
    ) {
        let r = common::run_with(
            &go,
            &[s(&leaf), s(&root.join("ca.pem")), "localhost".into()],
            None,
            common::HANG,
        );
        let v: Value = serde_json::from_str(r.stdout_str().trim()).expect("aiafetch output");
        assert!(v["error"].is_null(), "{v}");
        assert_eq!(v["fetched"][0], format!("{base}/certs/int.der"), "{v}");
        assert_eq!(v["content_types"][0], "application/pkix-cert", "{v}");
        assert_eq!(v["chain"].as_array().map(Vec::len), Some(3), "{v}");
    }

    // /metrics parses, in either format, and moves as requests are made.
    let before = scrape(&base, true);
    let key = r#"pkit_http_requests_total{"code": "200", "route": "crl"}"#;
    let crl_url = format!("{base}/crl/int.crl");
    assert_eq!(get(&crl_url).0, 200);
    assert_eq!(get(&crl_url).0, 200);
    let after = scrape(&base, false);
    assert_eq!(sample(&after, key), sample(&before, key) + 2.0, "{after:?}");
    assert!(
        sample(
            &after,
            r#"pkit_ocsp_responses_total{"ca": "int", "status": "good"}"#
        ) >= 1.0
    );
    assert!(
        sample(
            &after,
            r#"pkit_http_requests_total{"code": "201", "route": "acme"}"#
        ) >= 1.0,
        "{after:?}"
    );
    assert_eq!(
        sample(&after, r#"pkit_revocations_total{"ca": "int"}"#),
        0.0
    );

    // certbot revokes: CRL and OCSP say so, with no restart.
    certbot(&[
        "revoke",
        "--cert-path",
        &s(&leaf),
        "--no-delete-after-revoke",
    ]);
    let took = within("the CRL listing certbot's revocation", || {
        crl_verify(&root, &int, &leaf)
            .1
            .contains("certificate revoked")
    });
    common::note(&format!("revocation in the CRL after {took:?}"));
    assert!(ocsp_status(&root, &int, &leaf).contains(": revoked"));
    let m = scrape(&base, true);
    assert_eq!(sample(&m, r#"pkit_revocations_total{"ca": "int"}"#), 1.0);
    assert!(sample(&m, r#"pkit_crl_entries{"ca": "int", "crl": "all"}"#) >= 1.0);

    // A revocation by another process (the CLI) shows too.
    let other = common::issue_leaf(&int, d, "other", &["--san", "DNS:other.example"]);
    let (code, _) = crl_verify(&root, &int, &other);
    assert_eq!(code, Some(0));
    pk_ok(&[
        "crl",
        "revoke",
        "--ca",
        &s(&int),
        "--cert",
        &s(&other),
        "--reason",
        "keyCompromise",
    ]);
    within("the CRL listing the CLI's revocation", || {
        crl_verify(&root, &int, &other)
            .1
            .contains("certificate revoked")
    });
    let h: Value = serde_json::from_slice(&get(&format!("{base}/health")).2).unwrap();
    assert_eq!(h["status"], "ok", "{h}");
    assert_eq!(h["cas"][1]["crl_entries"], 2, "{h}");
    // Every CRL the server made has its own, increasing number.
    let log = server.log_text();
    let numbers: Vec<u64> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["event"] == "crl" && v["ca"] == "int")
        .filter_map(|v| v["number"].as_u64())
        .collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");
    // Each CRL made for a revocation says whether it was served within --crl-max-age;
    // the others (walks of every record, which no revocation waits on) say nothing.
    let crls: Vec<Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["event"] == "crl")
        .collect();
    assert!(crls.iter().any(|v| v["why"] == "revocation"), "{log}");
    assert!(
        crls.iter().all(|v| if v["why"] == "revocation" {
            v["within_max_age"].is_boolean()
        } else {
            v["within_max_age"].is_null()
        }),
        "{log}"
    );
    assert!(log.lines().all(|l| l.starts_with("{\"time\":")), "{log}");
}

#[test]
fn urls_nothing_would_answer_are_refused_at_start() {
    let t = common::tempdir();
    let d = t.path();
    let (root, int) = two_tier(d, "http://127.0.0.1:9");
    let serve = |cas: &[&Path]| {
        let mut args = vec!["ca".to_string(), "serve".into()];
        for c in cas {
            args.extend(["--ca".to_string(), s(c)]);
        }
        args.extend(["--listen".into(), "127.0.0.1:0".into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        pk(&args)
    };
    // The intermediate's certificate points to the root's CRL; a root whose ca.json no
    // longer names it, and whose records do not hold the intermediate (signed elsewhere,
    // or the records lost it), would leave that URL unanswered.
    let records = rusqlite::Connection::open(root.join("ca.db")).unwrap();
    records.execute("DELETE FROM certificates", []).unwrap();
    drop(records);
    let settings = root.join("ca.json");
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(&settings, text.replace("/crl/root.crl", "/crl/moved.crl")).unwrap();
    let r = serve(&[&root, &int]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    let err = r.stderr_str();
    assert!(
        err.contains("int/ca.pem: its cRLDistributionPoints http://127.0.0.1:9/crl/root.crl")
            && err.contains("nothing here would answer it"),
        "{err}"
    );
    // Two things at one path: the intermediate's CRL where the root's is.
    std::fs::write(&settings, &text).unwrap();
    let int_settings = int.join("ca.json");
    let int_text = std::fs::read_to_string(&int_settings).unwrap();
    std::fs::write(
        &int_settings,
        int_text.replace("/crl/int.crl", "/crl/root.crl"),
    )
    .unwrap();
    let crl_number = |ca: &Path| {
        let out = d.join("number.crl");
        let r = pk(&["crl", "gen", "--ca", &s(ca), "-o", &s(&out)]);
        assert_eq!(r.code, Some(0), "{}", r.describe());
        std::fs::remove_file(&out).unwrap();
        let err = r.stderr_str();
        err.split("CRL number ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{err}"))
    };
    let before = crl_number(&root);
    let r = serve(&[&root, &int]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    assert!(
        r.stderr_str().contains("same path /crl/root.crl"),
        "{}",
        r.stderr_str()
    );
    // Refused before any CRL was signed: the root's next number follows the last.
    assert_eq!(crl_number(&root), before + 1);
    // So is a start whose port is taken: the first CRLs are signed once it is bound.
    std::fs::write(&int_settings, &int_text).unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let before = crl_number(&root);
    let r = pk(&[
        "ca",
        "serve",
        "--ca",
        &s(&root),
        "--ca",
        &s(&int),
        "--listen",
        &format!("127.0.0.1:{port}"),
    ]);
    assert_eq!(r.code, Some(4), "{}", r.describe());
    assert!(
        !r.stderr_str().contains("\"event\":\"crl\""),
        "{}",
        r.describe()
    );
    assert_eq!(crl_number(&root), before + 1);
    drop(taken);
    // A --listen that is no address: a usage error when the arguments are read (before,
    // an I/O error from the bind; `acme serve` first issued itself a certificate for it).
    for (cmd, listen) in [
        ("ca", "nonsense"),
        ("ca", "127.0.0.1:80000"),
        ("ocsp", "nonsense"),
        ("acme", "nonsense"),
    ] {
        let r = pk(&[cmd, "serve", "--ca", &s(&int), "--listen", listen]);
        assert_eq!(
            r.code,
            Some(2),
            "{cmd} serve --listen {listen}: {}",
            r.describe()
        );
        assert!(
            r.stderr_str().contains("expected ADDRESS:PORT"),
            "{}",
            r.describe()
        );
    }
    // A CA with no URL at all.
    let bare = common::issue_ca(d, "bare", "CN=Bare", &[]);
    let r = serve(&[&bare]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    assert!(
        r.stderr_str().contains("names no OCSP, CRL or issuer URL")
            && r.stderr_str().contains("ocsp_urls"),
        "{}",
        r.stderr_str()
    );
    // A --ca that is no CA directory, missing or a file: an I/O error that says so.
    let file = d.join("file.pem");
    std::fs::write(&file, "x").unwrap();
    for (dir, why) in [(d.join("nosuch"), "no such directory"), (file, "a file")] {
        let r = serve(&[&dir]);
        assert_eq!(r.code, Some(4), "{}", r.describe());
        let err = r.stderr_str();
        assert!(
            err.contains("not a CA directory") && err.contains(why),
            "{err}"
        );
    }
    // A password file that is not there is named as the password source it is.
    let r = pk(&[
        "ca",
        "serve",
        "--ca",
        &s(&root),
        "--passin",
        &format!("file:{}", s(&d.join("nopw"))),
        "--listen",
        "127.0.0.1:0",
    ]);
    assert_eq!(r.code, Some(4), "{}", r.describe());
    assert!(
        r.stderr_str().contains("password source file:"),
        "{}",
        r.describe()
    );
}

/// Checks, in Python with pyca/cryptography, the shard CRLs in `dir` (`shard-K.der`)
/// against every certificate in `db` (ca.db): each certificate's cRLDistributionPoints
/// names one shard; its serial is listed in that shard's CRL and in no other; every
/// listed serial belongs to a certificate. Prints a JSON summary.
const SHARD_CHECK: &str = r#"
import json, sqlite3, sys
from cryptography import x509
db, crls, shards = sys.argv[1], sys.argv[2], int(sys.argv[3])
listed = {}
for k in range(shards):
    crl = x509.load_der_x509_crl(open(f"{crls}/shard-{k}.der", "rb").read())
    idp = crl.extensions.get_extension_for_class(x509.IssuingDistributionPoint)
    assert idp.critical, k
    names = [n.value for n in idp.value.full_name]
    for entry in crl:
        assert entry.serial_number not in listed, (entry.serial_number, k)
        listed[entry.serial_number] = (k, names)
rows = sqlite3.connect(db).execute("SELECT der FROM certificates").fetchall()
checked = 0
for (der,) in rows:
    cert = x509.load_der_x509_certificate(der)
    cdp = cert.extensions.get_extension_for_class(x509.CRLDistributionPoints).value
    urls = [n.value for dp in cdp for n in dp.full_name]
    assert len(urls) == 1, urls
    k, names = listed.pop(cert.serial_number)
    assert names == urls, (names, urls)
    assert urls[0].endswith(f"-{k}.crl"), (urls, k)
    checked += 1
assert not listed, len(listed)
print(json.dumps({"certificates": checked}))
"#;

#[test]
fn sharded_crls_list_each_revocation_in_the_shard_its_certificate_names() {
    require(Peer::PythonCryptography);
    const COUNT: usize = 100_000;
    const SHARDS: u32 = 16;
    let t = common::tempdir();
    let d = t.path();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let crl_url = format!("{base}/crl/int.crl");
    let ca = common::issue_ca(
        d,
        "int",
        "CN=Sharded CA",
        &["--crl-url", &crl_url, "--crl-shards", &SHARDS.to_string()],
    );
    // A hundred thousand certificates take a while in a debug build on a busy machine:
    // the limit is the test's patience, not a measurement.
    let r = common::run_with(
        common::pkit_bin(),
        &[
            "issue",
            "batch",
            "--ca",
            &s(&ca),
            "--count",
            &COUNT.to_string(),
            "--out-dir",
            &s(&d.join("out")),
        ],
        None,
        Duration::from_secs(600),
    );
    assert_eq!(r.code, Some(0), "{}", r.describe());
    // Every certificate revoked: the records as `crl revoke` leaves them, written in one
    // statement (a hundred thousand `crl revoke` runs would only test the loop).
    let db = ca.join("ca.db");
    let r = common::run_with(
        "python3",
        &[
            "-c",
            "import sqlite3, sys\n\
             c = sqlite3.connect(sys.argv[1])\n\
             c.execute(\"UPDATE certificates SET status = 'revoked', revoked_at = 1800000000, revocation_reason = 1\")\n\
             c.commit()",
            &s(&db),
        ],
        None,
        common::HANG,
    );
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let mut cmd = common::pkit();
    cmd.args([
        "ca",
        "serve",
        "--ca",
        &s(&ca),
        "--listen",
        &format!("127.0.0.1:{port}"),
        "--threads",
        "1",
        "--keep-expired",
    ]);
    let server = Server::start(cmd, d.join("serve.log"), "\"listening\"");
    // Each shard as served, verified by OpenSSL.
    let crls = d.join("crls");
    std::fs::create_dir_all(&crls).unwrap();
    let mut total = 0;
    for k in 0..SHARDS {
        let (status, ct, der) = get(&format!("{base}/crl/int-{k}.crl"));
        assert_eq!(
            (status, ct.as_str()),
            (200, "application/pkix-crl"),
            "shard {k}"
        );
        let file = crls.join(format!("shard-{k}.der"));
        std::fs::write(&file, &der).unwrap();
        let (code, out) = common::ossl(&[
            "crl",
            "-inform",
            "DER",
            "-in",
            &s(&file),
            "-CAfile",
            &s(&ca.join("ca.pem")),
            "-noout",
        ]);
        assert!(
            code == Some(0) && out.contains("verify OK"),
            "shard {k}: {out}"
        );
        total += der.len();
    }
    let (_, _, whole) = get(&crl_url);
    assert!(
        whole.len() > total * 9 / 10,
        "the whole CRL lists them all too"
    );
    let r = common::run_with(
        "python3",
        &["-c", SHARD_CHECK, &s(&db), &s(&crls), &SHARDS.to_string()],
        None,
        Duration::from_secs(300),
    );
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v: Value = serde_json::from_str(r.stdout_str().trim()).unwrap();
    assert_eq!(v["certificates"], COUNT, "{v}");

    // Relying parties follow the shard: OpenSSL with the shard the certificate names says
    // revoked, and with another shard finds it out of scope; pkit verify fetches it.
    let leaf = d.join("out/1.pem");
    let (_, cdp) = common::ossl(&[
        "x509",
        "-in",
        &s(&leaf),
        "-noout",
        "-ext",
        "crlDistributionPoints",
    ]);
    let k: u32 = cdp
        .split("/crl/int-")
        .nth(1)
        .and_then(|r| r.split(".crl").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{cdp}"));
    let pem = |k: u32| {
        let p = crls.join(format!("shard-{k}.pem"));
        let (code, out) = common::ossl(&[
            "crl",
            "-inform",
            "DER",
            "-in",
            &s(&crls.join(format!("shard-{k}.der"))),
            "-out",
            &s(&p),
        ]);
        assert_eq!(code, Some(0), "{out}");
        p
    };
    let check = |crl: &Path| {
        common::ossl(&[
            "verify",
            "-crl_check",
            "-CAfile",
            &s(&ca.join("ca.pem")),
            "-CRLfile",
            &s(crl),
            &s(&leaf),
        ])
    };
    let (code, out) = check(&pem(k));
    assert_ne!(code, Some(0));
    assert!(out.contains("certificate revoked"), "{out}");
    let (code, out) = check(&pem((k + 1) % SHARDS));
    assert_ne!(code, Some(0));
    assert!(
        out.contains("different CRL scope") || out.contains("unable to get certificate CRL"),
        "{out}"
    );
    let r = pk(&[
        "verify",
        "--roots",
        &s(&ca.join("ca.pem")),
        "--crl-download",
        "--check-revocation",
        "leaf",
        &s(&leaf),
    ]);
    assert_ne!(r.code, Some(0), "{}", r.describe());
    assert!(r.stdout_str().contains("revoked"), "{}", r.describe());

    // A revocation while it serves: merged into the entries the server kept, signed
    // into the whole CRL and the one shard it falls in; no other shard is signed again.
    let late = d.join("late.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--subject",
        "CN=late.example",
        "--san",
        "DNS:late.example",
        "--key-out",
        &s(&d.join("late.key")),
        "-o",
        &s(&late),
    ]);
    let number = |k: u32| {
        let (_, _, der) = get(&format!("{base}/crl/int-{k}.crl"));
        let file = crls.join("number.der");
        std::fs::write(&file, der).unwrap();
        let (code, out) = common::ossl(&[
            "crl",
            "-inform",
            "DER",
            "-in",
            &s(&file),
            "-noout",
            "-crlnumber",
        ]);
        assert_eq!(code, Some(0), "{out}");
        out.trim().to_string()
    };
    let before: Vec<String> = (0..SHARDS).map(number).collect();
    pk_ok(&["crl", "revoke", "--ca", &s(&ca), "--cert", &s(&late)]);
    within("the late revocation in its shard", || {
        let (code, out) = common::ossl(&[
            "verify",
            "-crl_download",
            "-crl_check",
            "-CAfile",
            &s(&ca.join("ca.pem")),
            &s(&late),
        ]);
        code != Some(0) && out.contains("certificate revoked")
    });
    let after: Vec<String> = (0..SHARDS).map(number).collect();
    let changed = before.iter().zip(&after).filter(|(b, a)| b != a).count();
    assert_eq!(changed, 1, "{before:?} {after:?}");
    drop(server);
}

/// A root and an intermediate whose keys have passwords of their own (as docs/ca.md makes
/// them): `--passin` once per `--ca`, in their order, opens each; a count that fits
/// neither rule is a usage error, and a password that is another CA's names that CA's key.
#[test]
fn each_ca_opens_with_its_own_password() {
    let t = common::tempdir();
    let d = t.path();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let urls = |name: &str| urls(&base, name);
    let (root, int) = (d.join("root"), d.join("int"));
    let mut args = vec!["issue".to_string(), "ca".into(), "--dir".into(), s(&root)];
    args.extend([
        "--subject".into(),
        "CN=PW Root".into(),
        "--passout".into(),
        "pass:rootpw".into(),
    ]);
    args.extend(urls("root"));
    pk_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let mut args = vec!["issue".to_string(), "ca".into(), "--dir".into(), s(&int)];
    args.extend([
        "--subject".into(),
        "CN=PW Int".into(),
        "--passout".into(),
        "pass:intpw".into(),
    ]);
    args.extend([
        "--parent".into(),
        s(&root),
        "--parent-passin".into(),
        "pass:rootpw".into(),
    ]);
    args.extend(urls("int"));
    pk_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let serve = |passins: &[&str]| {
        let mut args = vec!["ca".to_string(), "serve".into(), "--ca".into(), s(&root)];
        args.extend([
            "--ca".into(),
            s(&int),
            "--listen".into(),
            format!("127.0.0.1:{port}"),
        ]);
        args.extend(["--threads".into(), "1".into()]);
        for p in passins {
            args.extend(["--passin".into(), p.to_string()]);
        }
        args
    };
    let run = |args: Vec<String>| pk(&args.iter().map(String::as_str).collect::<Vec<_>>());
    // One password for both: the intermediate's key does not open with the root's.
    let r = run(serve(&["pass:rootpw"]));
    assert_eq!(r.code, Some(3), "{}", r.describe());
    assert!(r.stderr_str().contains("int/ca.key"), "{}", r.describe());
    let r = run(serve(&["pass:rootpw", "pass:intpw", "pass:x"]));
    assert_eq!(r.code, Some(2), "{}", r.describe());
    assert!(r.stderr_str().contains("once per --ca"), "{}", r.describe());
    let mut cmd = common::pkit();
    cmd.args(serve(&["pass:rootpw", "pass:intpw"]));
    let server = Server::start(cmd, d.join("serve.log"), "\"listening\"");
    for name in ["root", "int"] {
        let (status, ct, _) = get(&format!("{base}/crl/{name}.crl"));
        assert_eq!(
            (status, ct.as_str()),
            (200, "application/pkix-crl"),
            "{name}"
        );
    }
    drop(server);
}

/// A CA held to the CA/B Forum TLS BRs starts with the defaults: its OCSP responses stand
/// 8 hours (§4.9.10 asks at least that) where another CA's stand 1 hour. An
/// --ocsp-next-update its rules refuse is refused at start (1, as `crl gen` refuses),
/// naming this command's flag.
#[test]
fn a_ca_under_the_tls_brs_serves_with_the_defaults() {
    let t = common::tempdir();
    let d = t.path();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let ocsp = format!("{base}/ocsp");
    let mut flags = vec!["--lint-rules".to_string(), "rfc5280,cabf-tls".into()];
    flags.extend(urls(&base, "br"));
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let ca = common::issue_ca(d, "br", "CN=BR CA,O=Example,C=US", &flags);
    let listen = format!("127.0.0.1:{port}");
    let r = pk(&[
        "ca",
        "serve",
        "--ca",
        &s(&ca),
        "--listen",
        &listen,
        "--ocsp-next-update",
        "1h",
    ]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(
        r.stderr_str().contains("--ocsp-next-update 1h"),
        "{}",
        r.describe()
    );
    let leaf = common::issue_leaf(&ca, d, "www", &["--san", "DNS:www.example.com"]);
    let mut cmd = common::pkit();
    cmd.args([
        "ca",
        "serve",
        "--ca",
        &s(&ca),
        "--listen",
        &listen,
        "--threads",
        "1",
    ]);
    let server = Server::start(cmd, d.join("serve.log"), "\"listening\"");
    let (code, out) = common::ossl(&[
        "ocsp",
        "-issuer",
        &s(&ca.join("ca.pem")),
        "-cert",
        &s(&leaf),
        "-url",
        &ocsp,
        "-CAfile",
        &s(&ca.join("ca.pem")),
        "-resp_text",
    ]);
    assert_eq!(code, Some(0), "{out}");
    let times: Vec<&str> = ["This Update: ", "Next Update: "]
        .iter()
        .map(|k| {
            out.lines()
                .find_map(|l| l.trim().strip_prefix(k))
                .unwrap_or_else(|| panic!("no {k}in {out}"))
        })
        .collect();
    let apart = common::python_ok(
        "import sys\nfrom datetime import datetime as d\nf = '%b %d %H:%M:%S %Y GMT'\n\
         p = lambda s: d.strptime(' '.join(s.split()), f)\n\
         print(int((p(sys.argv[2]) - p(sys.argv[1])).total_seconds()))",
        &[times[0], times[1]],
    );
    assert_eq!(apart.trim(), "28800", "{out}");
    drop(server);
}

/// A `ca serve` of `cas` on `port`, ready; its `listening` line.
fn started(d: &Path, cas: &[&Path], port: u16) -> (Server, Value) {
    let mut cmd = common::pkit();
    cmd.args(["ca", "serve", "--listen", &format!("127.0.0.1:{port}")]);
    for c in cas {
        cmd.args(["--ca", &s(c)]);
    }
    let server = Server::start(cmd, d.join("serve.log"), "\"listening\"");
    let line = server
        .log_text()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["event"] == "listening")
        .expect("a listening line");
    (server, line)
}

/// Rewrite one key of `ca`'s ca.json.
fn set(ca: &Path, key: &str, value: Value) {
    let file = ca.join("ca.json");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    v[key] = value;
    std::fs::write(&file, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

#[test]
fn urls_certificates_still_carry_are_answered_after_ca_json_changes() {
    let t = common::tempdir();
    let d = t.path();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let (root, int) = two_tier(d, &base);
    let leaf = common::issue_leaf(&int, d, "leaf", &["--san", "DNS:old.example"]);
    // The intermediate's CRL moves: the leaf still points to the old URL.
    set(
        &int,
        "crl_urls",
        serde_json::json!([format!("{base}/crl/int-new.crl")]),
    );
    let (server, line) = started(d, &[&root, &int], port);
    assert_eq!(
        line["cas"][1]["from_certificates"]["crl"],
        serde_json::json!([format!("{base}/crl/int.crl")]),
        "{line}"
    );
    assert_eq!(line["cas"][1]["from_certificates"]["urls"], 1, "{line}");
    assert!(line["cas"][0].get("from_certificates").is_none(), "{line}");
    // Both URLs serve the intermediate's whole CRL; OpenSSL follows the leaf's own.
    for path in ["/crl/int.crl", "/crl/int-new.crl"] {
        let (status, ct, _) = get(&format!("{base}{path}"));
        assert_eq!(
            (status, ct.as_str()),
            (200, "application/pkix-crl"),
            "{path}"
        );
    }
    let (code, out) = crl_verify(&root, &int, &leaf);
    assert_eq!(code, Some(0), "{out}");
    drop(server);
    // A path some ca.json answers is left to it: here the root's CRL moves to where the
    // intermediate's was. The start goes on, and says so.
    set(
        &root,
        "crl_urls",
        serde_json::json!([format!("{base}/crl/int.crl")]),
    );
    let (server, line) = started(d, &[&root, &int], port);
    assert!(line["cas"][1].get("from_certificates").is_none(), "{line}");
    let skipped = server
        .log_text()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["event"] == "from_certificates_skipped")
        .unwrap_or_else(|| panic!("{}", server.log_text()));
    assert_eq!(
        (&skipped["ca"], &skipped["answered_by"]),
        (&Value::from("int"), &Value::from("root")),
        "{skipped}"
    );
    drop(server);

    // An intermediate of a sharded root points to its shard of the root's CRL: served
    // beside the root, it is answered.
    let sroot = common::issue_ca(
        d,
        "sroot",
        "CN=Sharded Root",
        &[
            "--crl-url",
            &format!("{base}/crl/sroot.crl"),
            "--crl-shards",
            "4",
        ],
    );
    let sint = common::issue_ca(
        d,
        "sint",
        "CN=Sharded Root's Intermediate",
        &[
            "--crl-url",
            &format!("{base}/crl/sint.crl"),
            "--parent",
            &s(&sroot),
        ],
    );
    let (server, _) = started(d, &[&sroot, &sint], port);
    drop(server);

    // A sharded CA whose shard count changes under its certificates.
    let sharded = common::issue_ca(
        d,
        "sharded",
        "CN=Sharded",
        &[
            "--crl-url",
            &format!("{base}/crl/s.crl"),
            "--crl-shards",
            "4",
        ],
    );
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&sharded),
        "--count",
        "40",
        "--out-dir",
        &s(&d.join("batch")),
    ]);
    // Unsharded now: every shard URL the certificates carry gets the whole CRL, which
    // lists each of them.
    set(&sharded, "crl_shards", Value::Null);
    let (server, line) = started(d, &[&sharded], port);
    let also = line["cas"][0]["from_certificates"]["crl"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!also.is_empty() && also.len() <= 4, "{line}");
    for url in &also {
        let (status, _, der) = get(url.as_str().unwrap());
        assert_eq!(status, 200, "{url}");
        let whole = get(&format!("{base}/crl/s.crl")).2;
        assert_eq!(der, whole, "{url}");
    }
    drop(server);
    // Three shards: about half of the forty now fall in another shard than the one their
    // CRL URL names (the chance that none does is 2^-40), which that shard's CRL would
    // not list. Refused, naming the certificate.
    set(&sharded, "crl_shards", Value::from(3));
    let r = pk(&[
        "ca",
        "serve",
        "--ca",
        &s(&sharded),
        "--listen",
        "127.0.0.1:0",
    ]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    let err = r.stderr_str();
    assert!(
        err.contains("shard count changed") && err.contains("/crl/s-"),
        "{err}"
    );
}
