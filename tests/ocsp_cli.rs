//! `pkit ocsp` through the real binary, against programs we did not write: OpenSSL 3.0's
//! `ocsp` as requester, verifier, HTTP client and HTTP responder, and Python's
//! `cryptography` for ML-DSA responses.

mod common;

use common::{free_port, ossl, pk, pk_ok, pkit_run, revoke_ok, run_with, s, Run, Server, HANG};
use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

// ---------------------------------------------------------------------------------------
// Helpers

/// Revoke `serial_hex` in `ca_dir` now, with an explicit `--at` and a CRLReason name, as a
/// user would; the revocation time (RFC 3339). Not earlier: the certificates are issued
/// moments before, and a revocation cannot predate its certificate's notBefore.
fn revoke(ca_dir: &Path, serial_hex: &str, reason: &str) -> String {
    let at = pkit::der::Time::now().to_string();
    revoke_ok(ca_dir, serial_hex, reason, &["--at", &at]);
    at
}

/// `pkit issue cert` from the CA in `ca` for `subject`, into `dir/STEM.pem` (key in
/// `dir/STEM.key`): the certificate's path and its serial (hex, from pkit's stderr).
fn issue_leaf(ca: &Path, dir: &Path, stem: &str, subject: &str) -> (PathBuf, String) {
    let leaf = dir.join(format!("{stem}.pem"));
    let r = pk_ok(&[
        "issue",
        "cert",
        "--san",
        "DNS:leaf.example",
        "--ca",
        &s(ca),
        "--subject",
        subject,
        "--key-out",
        &s(&dir.join(format!("{stem}.key"))),
        "-o",
        &s(&leaf),
    ]);
    let serial = r
        .stderr_str()
        .split_whitespace()
        .skip_while(|w| *w != "serial")
        .nth(1)
        .expect("issued serial on stderr")
        .to_string();
    (leaf, serial)
}

/// A CA directory with one leaf certificate.
struct Pki {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    ca: PathBuf,
    ca_pem: PathBuf,
    leaf: PathBuf,
    serial: String,
}

impl Pki {
    fn new(alg: &str) -> Pki {
        Pki::named(alg, "CN=OCSP Test CA,O=pkit")
    }

    fn named(alg: &str, subject: &str) -> Pki {
        Pki::with(alg, subject, &[])
    }

    /// A CA made with `extra` arguments to `issue ca`, and its leaf.
    fn with(alg: &str, subject: &str, extra: &[&str]) -> Pki {
        common::require_openssl();
        let tmp = common::tempdir();
        let dir = tmp.path().to_path_buf();
        let ca = dir.join("ca");
        let mut args = vec![
            "issue".to_string(),
            "ca".into(),
            "--dir".into(),
            s(&ca),
            "--subject".into(),
            subject.into(),
            "--alg".into(),
            alg.into(),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        let r = pkit_run(&args);
        assert_eq!(r.code, Some(0), "{}", r.describe());
        let (leaf, serial) = issue_leaf(&ca, &dir, "leaf", "CN=leaf.example");
        Pki {
            ca_pem: ca.join("ca.pem"),
            _tmp: tmp,
            dir,
            ca,
            leaf,
            serial,
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// `pkit ocsp respond` for `req`, into `out`.
    fn respond(&self, req: &Path, out: &Path, extra: &[&str]) -> Run {
        let mut args = vec![
            "ocsp".to_string(),
            "respond".into(),
            "--ca".into(),
            s(&self.ca),
            "--request".into(),
            s(req),
            "-o".into(),
            s(out),
            "--force".into(),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        pkit_run(&args)
    }

    /// `pkit ocsp verify RESP --issuer ca.pem --cert leaf.pem [extra] -f json`.
    fn verify_json(&self, resp: &Path, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
        self.verify_cert_json(resp, &self.leaf, extra)
    }

    /// `pkit ocsp verify RESP --issuer ca.pem --cert CERT [extra] -f json`: the exit code
    /// and the one item.
    fn verify_cert_json(
        &self,
        resp: &Path,
        cert: &Path,
        extra: &[&str],
    ) -> (Option<i32>, serde_json::Value) {
        let mut args = vec![
            "ocsp".to_string(),
            "verify".into(),
            s(resp),
            "--issuer".into(),
            s(&self.ca_pem),
            "--cert".into(),
            s(cert),
            "-f".into(),
            "json".into(),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        let r = pkit_run(&args);
        let v: serde_json::Value = serde_json::from_slice(&r.stdout)
            .unwrap_or_else(|e| panic!("verify JSON: {e}; {}", r.describe()));
        assert_eq!(v["schema"], "pkit/v1", "{v}");
        assert_eq!(v["type"], "ocsp_verify", "{v}");
        let items = v["items"].as_array().expect("items");
        assert_eq!(items.len(), 1, "{v}");
        (r.code, items[0].clone())
    }

    /// `openssl ocsp -respin` with the CA as trust anchor: its output, which must say the
    /// signature verified. `-no_nonce` because OpenSSL makes a fresh request (with a fresh
    /// nonce) from `-cert` to compare against.
    fn openssl_check(&self, resp: &Path, cert: &Path) -> String {
        let ca = s(&self.ca_pem);
        let (code, out) = ossl(&[
            "ocsp",
            "-respin",
            &s(resp),
            "-issuer",
            &ca,
            "-CAfile",
            &ca,
            "-cert",
            &s(cert),
            "-no_nonce",
        ]);
        assert!(
            code == Some(0) && out.contains("Response verify OK"),
            "openssl ocsp -respin: {out}"
        );
        out
    }
}

/// `pkit ocsp request --cert C --issuer I -o OUT [extra]`.
fn request(cert: &Path, issuer: &Path, out: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["ocsp", "request"];
    let (c, i, o) = (s(cert), s(issuer), s(out));
    args.extend(["--cert", &c, "--issuer", &i, "-o", &o]);
    args.extend(extra);
    pk(&args)
}

fn request_ok(cert: &Path, issuer: &Path, out: &Path, extra: &[&str]) {
    let r = request(cert, issuer, out, extra);
    assert_eq!(r.code, Some(0), "pkit ocsp request: {}", r.describe());
}

/// `pkit ocsp serve --ca DIR --listen 127.0.0.1:PORT`.
fn pkit_serve(p: &Pki, port: u16) -> Server {
    let mut cmd = Command::new(common::pkit_bin());
    cmd.args([
        "ocsp",
        "serve",
        "--ca",
        &s(&p.ca),
        "--listen",
        &format!("127.0.0.1:{port}"),
    ]);
    Server::start(cmd, p.path("serve.log"), "\"listening\"")
}

/// One HTTP/1.0 exchange: the status code and the body.
fn http(port: u16, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let (code, _, body) = http_full(port, method, path, body);
    (code, body)
}

/// One HTTP/1.0 exchange: the status code, the headers (names in lower case) and the body.
fn http_full(
    port: u16,
    method: &str,
    path: &str,
    body: &[u8],
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut c = TcpStream::connect(("127.0.0.1", port)).expect("connecting");
    c.set_read_timeout(Some(HANG)).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/ocsp-request\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    c.write_all(head.as_bytes()).unwrap();
    c.write_all(body).unwrap();
    let mut r = std::io::BufReader::new(c);
    let mut status = String::new();
    r.read_line(&mut status).expect("status line");
    let code: u16 = status
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status:?}"));
    let mut len = None;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            len = v.trim().parse::<usize>().ok();
        }
    }
    let mut out = Vec::new();
    match len {
        Some(n) => {
            out.resize(n, 0);
            r.read_exact(&mut out).unwrap();
        }
        None => {
            r.read_to_end(&mut out).unwrap();
        }
    }
    (code, headers, out)
}

/// `openssl ocsp -respin F -resp_text -noverify`: the response as OpenSSL reads it (it
/// exits 1 for an unsuccessful responseStatus, after printing it).
fn openssl_resp_text(resp: &Path) -> String {
    let (code, out) = ossl(&["ocsp", "-respin", &s(resp), "-resp_text", "-noverify"]);
    assert!(code == Some(0) || out.contains("Responder Error"), "{out}");
    out
}

// ---------------------------------------------------------------------------------------
// Interoperability

#[test]
fn openssl_request_answered_by_pkit() {
    let p = Pki::new("ecdsa-p256");
    let req = p.path("req.der");
    let (code, out) = ossl(&[
        "ocsp",
        "-issuer",
        &s(&p.ca_pem),
        "-cert",
        &s(&p.leaf),
        "-reqout",
        &s(&req),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let resp = p.path("resp.der");
    let r = p.respond(&req, &resp, &[]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let out = p.openssl_check(&resp, &p.leaf);
    assert!(out.contains("leaf.pem: good"), "{out}");
    // The nonce OpenSSL put in the request comes back.
    let (code, v) = p.verify_json(&resp, &["--request", &s(&req)]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["valid"], true);
    assert_eq!(v["status"], "good");
    let names: Vec<&str> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"nonce") && names.contains(&"signature"),
        "{v}"
    );

    revoke(&p.ca, &p.serial, "keyCompromise");
    let r = p.respond(&req, &resp, &[]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let out = p.openssl_check(&resp, &p.leaf);
    assert!(out.contains("leaf.pem: revoked"), "{out}");
    assert!(out.contains("Reason: keyCompromise"), "{out}");
    let (code, v) = p.verify_json(&resp, &["--request", &s(&req)]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["valid"], false);
    assert_eq!(v["status"], "revoked");
    assert_eq!(v["reason"], "keyCompromise");
    assert!(v["revocation_time"].as_str().unwrap().ends_with('Z'), "{v}");
}

/// An RFC 3339 time from pkit's JSON the way OpenSSL's `index.txt` writes it: UTCTime
/// `YYMMDDHHMMSSZ` through 2049, GeneralizedTime from 2050.
fn index_time(v: &serde_json::Value) -> String {
    let text = v.as_str().unwrap_or_else(|| panic!("not a time: {v}"));
    let t = pkit::der::Time::parse_rfc3339(text).unwrap_or_else(|| panic!("not RFC 3339: {text}"));
    if t.uses_utc_time() {
        t.to_utc_time_string()
    } else {
        t.to_generalized_string()
    }
}

/// The one item of `pkit parse FILE -f json`.
fn parse_json(file: &Path) -> serde_json::Value {
    let items = common::json_items(&pk_ok(&["parse", &s(file), "-f", "json"]));
    assert_eq!(items.len(), 1, "{}: {items:?}", file.display());
    items[0].clone()
}

/// OpenSSL's `index.txt` (status, expiry, revocation[,reason], serial, "unknown",
/// subject; tab-separated) for every certificate the CA of `p` issued, from what pkit
/// reports rather than from known values: serial, notAfter and V/R from `pkit issue list`,
/// revocation time and reason from `pkit parse` of a CRL that `pkit crl gen` publishes,
/// and the subject (OpenSSL's `/TYPE=value` form) from `pkit parse` of `certs`.
fn openssl_index(p: &Pki, certs: &[&Path]) -> String {
    let ca = s(&p.ca);
    let issued = common::json_items(&pk_ok(&["issue", "list", "--ca", &ca, "-f", "json"]));
    let crl_file = p.path("index-crl.pem");
    pk_ok(&["crl", "gen", "--ca", &ca, "--force", "-o", &s(&crl_file)]);
    let crl = parse_json(&crl_file);
    let on_crl = crl["revoked_certificates"]
        .as_array()
        .unwrap_or_else(|| panic!("no revoked_certificates: {crl}"));
    let subjects: Vec<(String, String)> = certs
        .iter()
        .map(|c| {
            let v = parse_json(c);
            let dn: String = v["subject"]
                .as_array()
                .unwrap_or_else(|| panic!("no subject: {v}"))
                .iter()
                .map(|a| {
                    format!(
                        "/{}={}",
                        a["type"]["name"].as_str().unwrap(),
                        a["value"].as_str().unwrap()
                    )
                })
                .collect();
            (v["serial_number"].as_str().unwrap().to_string(), dn)
        })
        .collect();
    issued
        .iter()
        .map(|row| {
            let serial = row["serial_number"].as_str().expect("serial_number");
            let (flag, revocation) = match row["status"].as_str() {
                Some("valid") => ("V", String::new()),
                Some("revoked") => {
                    let entry = on_crl
                        .iter()
                        .find(|e| e["serial_number"] == serial)
                        .unwrap_or_else(|| panic!("{serial} is revoked but not on the CRL: {crl}"));
                    let mut at = index_time(&entry["revocation_date"]);
                    let reason = entry["extensions"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .find(|x| x["name"] == "cRLReason");
                    if let Some(x) = reason {
                        at = format!("{at},{}", x["value"]["reason"].as_str().unwrap());
                    }
                    ("R", at)
                }
                other => panic!("status {other:?} in {row}"),
            };
            let subject = &subjects
                .iter()
                .find(|(sn, _)| sn == serial)
                .unwrap_or_else(|| panic!("no certificate file given for serial {serial}"))
                .1;
            format!(
                "{flag}\t{}\t{revocation}\t{}\tunknown\t{subject}\n",
                index_time(&row["not_after"]),
                serial.to_uppercase()
            )
        })
        .collect()
}

/// `openssl ocsp -index INDEX -port PORT`, signing with the CA's key, for `n` requests
/// (`-nrequest`) and `extra` options; killed when dropped, so a failing test leaves no
/// responder behind.
fn openssl_responder(p: &Pki, index: &Path, port: u16, n: usize, extra: &[&str]) -> Server {
    common::require_openssl();
    let mut cmd = Command::new("openssl");
    cmd.args([
        "ocsp",
        "-index",
        &s(index),
        "-port",
        &port.to_string(),
        "-rsigner",
        &s(&p.ca_pem),
        "-rkey",
        &s(&p.ca.join("ca.key")),
        "-CA",
        &s(&p.ca_pem),
        "-nrequest",
        &n.to_string(),
    ])
    .args(extra);
    // Readiness from the log, not a probe connection: OpenSSL 3.0's responder spins on
    // a connection that closes without a request, and a probe would count as one of n.
    let log = p.path(&format!("openssl-responder-{port}.log"));
    Server::start(cmd, log, "waiting for OCSP")
}

/// POST the request in `req` to the responder on `port`; the response's path, `out`.
fn post(port: u16, req: &Path, out: PathBuf) -> PathBuf {
    let (code, body) = http(port, "POST", "/", &std::fs::read(req).unwrap());
    assert_eq!(code, 200, "POST {}", req.display());
    std::fs::write(&out, body).unwrap();
    out
}

/// The check called `name` in a verify item.
fn check<'v>(v: &'v serde_json::Value, name: &str) -> &'v serde_json::Value {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no {name} check: {v}"))
}

#[test]
fn pkit_request_answered_by_openssl_responder() {
    let p = Pki::new("ecdsa-p256");
    let (revoked, revoked_serial) =
        issue_leaf(&p.ca, &p.dir, "revoked", "CN=revoked.example,O=pkit");
    let revoked_at = revoke(&p.ca, &revoked_serial, "keyCompromise");
    // Signed by the CA's key but never recorded in ca.db, so not in the index.
    let stray = unrecorded_cert(&p);
    let index = p.path("index.txt");
    let text = openssl_index(&p, &[&p.leaf, &revoked]);
    assert_eq!(text.lines().count(), 2, "{text}");
    std::fs::write(&index, &text).unwrap();

    let req = |name: &str, cert: &Path, extra: &[&str]| {
        let out = p.path(name);
        request_ok(cert, &p.ca_pem, &out, extra);
        out
    };
    let good_req = req("good-req.der", &p.leaf, &["--nonce"]);
    let revoked_req = req("revoked-req.der", &revoked, &["--nonce"]);
    let unknown_req = req("unknown-req.der", &stray, &[]);
    let sha256_req = req("sha256-req.der", &p.leaf, &["--hash", "sha256"]);
    // OpenSSL reads our request: CertID and the 32-byte nonce.
    let (code, text) = ossl(&["ocsp", "-reqin", &s(&good_req), "-req_text"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("Hash Algorithm: sha1"), "{text}");
    assert!(text.contains(&p.serial.to_uppercase()), "{text}");
    assert!(text.contains("OCSP Nonce"), "{text}");

    // OpenSSL's defaults: no nextUpdate in its responses.
    let port = free_port();
    let mut server = openssl_responder(&p, &index, port, 4, &[]);
    let good = post(port, &good_req, p.path("good-resp.der"));
    let revoked_resp = post(port, &revoked_req, p.path("revoked-resp.der"));
    let unknown = post(port, &unknown_req, p.path("unknown-resp.der"));
    let sha256 = post(port, &sha256_req, p.path("sha256-resp.der"));
    assert_eq!(
        server.wait_exit("openssl ocsp -nrequest 4 still running after 4 requests"),
        Some(0),
        "{}",
        server.log_text()
    );

    let (code, v) = p.verify_json(&good, &["--request", &s(&good_req)]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["status"], "good", "{v}");
    assert_eq!(check(&v, "nonce")["ok"], true, "{v}");
    // RFC 6960 2.4 / 4.2.2.1: no nextUpdate means newer status is available at any time;
    // the response is accepted (as OpenSSL accepts it) and the check says so.
    let next = check(&v, "next_update");
    assert_eq!(next["ok"], true, "{v}");
    assert!(
        next["detail"].as_str().unwrap().starts_with("not set"),
        "{v}"
    );
    // ... at any later time; only a thisUpdate in the future is refused.
    let this = check(&v, "this_update")["detail"]
        .as_str()
        .unwrap()
        .to_string();
    let this = pkit::der::Time::parse_rfc3339(&this).expect("this_update time");
    let later = this.plus_seconds(400 * 86_400).to_string();
    let (code, v) = p.verify_json(&good, &["--request", &s(&good_req), "--now", &later]);
    assert_eq!((code, &v["valid"]), (Some(0), &true.into()), "{v}");
    let before = this.plus_seconds(-600).to_string();
    let (code, v) = p.verify_json(&good, &["--now", &before]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(check(&v, "this_update")["ok"], false, "{v}");

    let (code, v) = p.verify_cert_json(&revoked_resp, &revoked, &["--request", &s(&revoked_req)]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["valid"], false, "{v}");
    assert_eq!(v["status"], "revoked", "{v}");
    assert_eq!(v["reason"], "keyCompromise", "{v}");
    assert_eq!(v["revocation_time"], revoked_at.as_str(), "{v}");
    assert_eq!(check(&v, "nonce")["ok"], true, "{v}");
    assert_eq!(check(&v, "signature")["ok"], true, "{v}");

    let (code, v) = p.verify_cert_json(&unknown, &stray, &["--request", &s(&unknown_req)]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["valid"], false, "{v}");
    assert_eq!(v["status"], "unknown", "{v}");
    assert_eq!(check(&v, "cert_status")["detail"], "unknown", "{v}");
    assert_eq!(check(&v, "signature")["ok"], true, "{v}");

    // SHA-256 CertIDs as well.
    let (code, v) = p.verify_json(&sha256, &["--request", &s(&sha256_req)]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["status"], "good", "{v}");
    let id = check(&v, "cert_id")["detail"].as_str().unwrap();
    assert!(id.contains("(sha256)"), "{v}");

    // With -nmin, OpenSSL sets nextUpdate: accepted until then, stale after.
    let port = free_port();
    let _server = openssl_responder(&p, &index, port, 1, &["-nmin", "60"]);
    let fresh = post(port, &good_req, p.path("nmin-resp.der"));
    let (code, v) = p.verify_json(&fresh, &["--request", &s(&good_req)]);
    assert_eq!(code, Some(0), "{v}");
    let this = check(&v, "this_update")["detail"]
        .as_str()
        .unwrap()
        .to_string();
    let this = pkit::der::Time::parse_rfc3339(&this).expect("this_update time");
    assert_eq!(
        check(&v, "next_update")["detail"],
        this.plus_seconds(3600).to_string().as_str(),
        "{v}"
    );
    let stale = this.plus_seconds(3601).to_string();
    let (code, v) = p.verify_json(&fresh, &["--now", &stale]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["status"], "good", "{v}");
    assert_eq!(check(&v, "next_update")["ok"], false, "{v}");
}

/// A certificate signed with the CA's key that ca.db never recorded.
fn unrecorded_cert(p: &Pki) -> PathBuf {
    let key = p.path("x.key");
    let csr = p.path("x.csr");
    let cert = p.path("x.pem");
    for args in [
        vec![
            "genpkey",
            "-algorithm",
            "EC",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-out",
        ],
        vec!["req", "-new", "-subj", "/CN=stray.example", "-key"],
    ] {
        let mut a: Vec<String> = args.iter().map(|x| x.to_string()).collect();
        if a[0] == "genpkey" {
            a.push(s(&key));
        } else {
            a.extend([s(&key), "-out".into(), s(&csr)]);
        }
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let (code, out) = ossl(&a);
        assert_eq!(code, Some(0), "{out}");
    }
    let (code, out) = ossl(&[
        "x509",
        "-req",
        "-in",
        &s(&csr),
        "-CA",
        &s(&p.ca_pem),
        "-CAkey",
        &s(&p.ca.join("ca.key")),
        "-set_serial",
        "0x1234",
        "-out",
        &s(&cert),
    ]);
    assert_eq!(code, Some(0), "{out}");
    cert
}

/// `openssl ocsp -issuer ca.pem -cert C -url http://127.0.0.1:PORT`.
fn openssl_client(p: &Pki, cert: &Path, port: u16, extra: &[&str]) -> String {
    let ca = s(&p.ca_pem);
    let url = format!("http://127.0.0.1:{port}");
    let mut args = vec!["ocsp", "-issuer", &ca, "-CAfile", &ca, "-url", &url];
    let c = s(cert);
    args.extend(["-cert", &c]);
    args.extend(extra);
    let (code, out) = ossl(&args);
    assert!(
        code == Some(0) && out.contains("Response verify OK"),
        "openssl ocsp -url: {out}"
    );
    out
}

#[test]
fn openssl_client_against_pkit_serve() {
    let p = Pki::new("ecdsa-p256");
    let stray = unrecorded_cert(&p);
    let port = free_port();
    let mut server = pkit_serve(&p, port);

    let out = openssl_client(&p, &p.leaf, port, &[]);
    assert!(out.contains("leaf.pem: good"), "{out}");
    let out = openssl_client(&p, &stray, port, &[]);
    assert!(out.contains("x.pem: unknown"), "{out}");
    // Without a nonce the answer comes from the cache the second time.
    for _ in 0..2 {
        let out = openssl_client(&p, &p.leaf, port, &["-no_nonce"]);
        assert!(out.contains("leaf.pem: good"), "{out}");
    }

    revoke(&p.ca, &p.serial, "superseded");
    for extra in [&[][..], &["-no_nonce"][..]] {
        let out = openssl_client(&p, &p.leaf, port, extra);
        assert!(out.contains("leaf.pem: revoked"), "{out}");
        assert!(out.contains("Reason: superseded"), "{out}");
    }

    // GET with the base64 request in the path (RFC 6960 A.1), percent-encoded.
    let req = p.path("get-req.der");
    request_ok(&stray, &p.ca_pem, &req, &[]);
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(std::fs::read(&req).unwrap());
    let path = format!(
        "/{}",
        b64.replace('+', "%2B")
            .replace('/', "%2F")
            .replace('=', "%3D")
    );
    let (code, headers, body) = http_full(port, "GET", &path, b"");
    assert_eq!(code, 200);
    let resp = p.path("get-resp.der");
    std::fs::write(&resp, &body).unwrap();
    assert!(openssl_resp_text(&resp).contains("Cert Status: unknown"));
    // RFC 5019 §6.2, for HTTP caches in front of the responder: Last-Modified and Expires
    // are thisUpdate and nextUpdate (an hour apart, the default --next-update; the dates
    // read by Python's own HTTP-date parser), max-age runs to nextUpdate, and the ETag
    // names this response.
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no {name} header: {headers:?}"))
    };
    let apart = common::python_ok(
        "import sys\nfrom email.utils import parsedate_to_datetime as d\n\
         print(int((d(sys.argv[2]) - d(sys.argv[1])).total_seconds()))",
        &[&header("last-modified"), &header("expires")],
    );
    assert_eq!(apart.trim(), "3600", "{headers:?}");
    let cache = header("cache-control");
    let max_age: i64 = cache
        .strip_prefix("max-age=")
        .and_then(|r| r.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{cache}"));
    assert!((3000..=3600).contains(&max_age), "{cache}");
    assert!(
        cache.ends_with(", public, no-transform, must-revalidate"),
        "{cache}"
    );
    let etag = header("etag");
    assert!(
        etag.len() == 34 && etag.starts_with('"') && etag.ends_with('"'),
        "{etag}"
    );
    // Asked again (no nonce: cacheable), the response comes from the responder's cache
    // with the times it was signed with: the same body and the same headers.
    let (code, again, body_again) = http_full(port, "GET", &path, b"");
    assert_eq!(code, 200);
    assert_eq!(body_again, body, "not served from the cache");
    for name in ["last-modified", "expires", "etag"] {
        let got = again
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone());
        assert_eq!(got, Some(header(name)), "{name}: {again:?}");
    }
    // A POST is not kept by HTTP caches: no caching headers.
    let (code, headers, _) = http_full(port, "POST", "/", &std::fs::read(&req).unwrap());
    assert_eq!(code, 200);
    assert!(
        !headers
            .iter()
            .any(|(n, _)| n == "cache-control" || n == "etag"),
        "{headers:?}"
    );

    // Garbage: HTTP 400 with a malformedRequest response, and the server keeps going.
    let (code, body) = http(port, "POST", "/", b"\x30\x03\x02\x01");
    assert_eq!(code, 400);
    std::fs::write(&resp, body).unwrap();
    assert!(openssl_resp_text(&resp).contains("malformedrequest"));
    let (code, _) = http(port, "GET", "/not*base64", b"");
    assert_eq!(code, 400);
    let out = openssl_client(&p, &p.leaf, port, &[]);
    assert!(out.contains("leaf.pem: revoked"), "{out}");

    // One JSON line per request, then a clean exit on SIGTERM.
    assert_eq!(server.terminate(), Some(0), "{}", server.log_text());
    let log = server.log_text();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let requests: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l.get("method").is_some()).collect();
    assert_eq!(requests.len(), 12, "{log}");
    for l in &requests {
        for k in [
            "time", "event", "route", "peer", "method", "serial", "status", "us",
        ] {
            assert!(l.get(k).is_some(), "{k} missing in {l}");
        }
    }
    assert!(requests.iter().any(|l| l["cached"] == true), "{log}");
    assert!(
        requests.iter().any(|l| l["status"] == "malformedRequest"),
        "{log}"
    );
    assert!(requests
        .iter()
        .any(|l| l["serial"] == "1234" && l["status"] == "unknown"));
    assert!(lines.last().unwrap()["event"] == "shutdown", "{log}");
}

// ---------------------------------------------------------------------------------------
// Delegated responders, ML-DSA, bad input

#[test]
fn delegated_signer() {
    let p = Pki::new("ecdsa-p256");
    let (rc, rk) = (p.path("ocsp.pem"), p.path("ocsp.key"));
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&p.ca),
        "--profile",
        "ocsp-signer",
        "--subject",
        "CN=OCSP",
        "--key-out",
        &s(&rk),
        "-o",
        &s(&rc),
    ]);
    let req = p.path("req.der");
    request_ok(&p.leaf, &p.ca_pem, &req, &[]);
    let resp = p.path("resp.der");
    let r = p.respond(
        &req,
        &resp,
        &["--responder-cert", &s(&rc), "--responder-key", &s(&rk)],
    );
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let out = p.openssl_check(&resp, &p.leaf);
    assert!(out.contains("leaf.pem: good"), "{out}");
    let (code, v) = p.verify_json(&resp, &[]);
    assert_eq!(code, Some(0), "{v}");
    assert!(
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "delegated_signer" && c["ok"] == true),
        "{v}"
    );

    // A certificate of this CA without id-kp-OCSPSigning is refused as a responder.
    let bad = p.path("bad.der");
    let r = p.respond(
        &req,
        &bad,
        &[
            "--responder-cert",
            &s(&p.leaf),
            "--responder-key",
            &s(&p.path("leaf.key")),
        ],
    );
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(r.stderr_str().contains("OCSPSigning"), "{}", r.describe());
    assert!(!bad.exists());
}

#[test]
fn ml_dsa_65_responses() {
    let p = Pki::new("ml-dsa-65");
    let req = p.path("req.der");
    request_ok(&p.leaf, &p.ca_pem, &req, &["--nonce"]);
    let resp = p.path("resp.der");
    let r = p.respond(&req, &resp, &[]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let (code, v) = p.verify_json(&resp, &["--request", &s(&req)]);
    assert_eq!(code, Some(0), "{v}");
    // Python's cryptography loads it and checks the ML-DSA signature independently.
    common::require_python_cryptography();
    let script = r#"
import sys
from cryptography import x509
from cryptography.x509 import ocsp
ca = x509.load_pem_x509_certificate(open(sys.argv[1], 'rb').read())
r = ocsp.load_der_ocsp_response(open(sys.argv[2], 'rb').read())
assert r.response_status == ocsp.OCSPResponseStatus.SUCCESSFUL
assert r.certificate_status == ocsp.OCSPCertStatus.GOOD, r.certificate_status
ca.public_key().verify(r.signature, r.tbs_response_bytes)
print("ok", r.signature_algorithm_oid.dotted_string)
"#;
    let out = run_with(
        "python3",
        &["-c", script, &s(&p.ca_pem), &s(&resp)],
        None,
        Duration::from_secs(60),
    );
    assert_eq!(out.code, Some(0), "{}", out.describe());
    assert!(
        out.stdout_str().starts_with("ok 2.16.840.1.101.3.4.3.18"),
        "{}",
        out.stdout_str()
    );
}

#[test]
fn bad_input() {
    let p = Pki::new("ecdsa-p256");
    let req = p.path("req.der");
    request_ok(&p.leaf, &p.ca_pem, &req, &[]);
    let resp = p.path("resp.der");
    pk_ok(&[
        "ocsp",
        "respond",
        "--ca",
        &s(&p.ca),
        "--request",
        &s(&req),
        "-o",
        &s(&resp),
    ]);

    // One flipped byte in the signature: parses, does not verify.
    let mut der = std::fs::read(&resp).unwrap();
    let last = der.len() - 1;
    der[last] ^= 0x01;
    let flipped = common::write_file(&p.dir, "flipped.der", &der);
    let (code, v) = p.verify_json(&flipped, &[]);
    assert_eq!(code, Some(1), "{v}");
    assert!(
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "signature" && c["ok"] == false),
        "{v}"
    );

    // Stale: judged after nextUpdate.
    let (code, v) = p.verify_json(&resp, &["--now", "2099-01-01T00:00:00Z"]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["status"], "good");
    assert_eq!(v["valid"], false);

    // A request for another CA's certificate (same name, other key): answered
    // unauthorized (responseStatus 6).
    let other = Pki::new("ecdsa-p256");
    let foreign_req = p.path("foreign-req.der");
    request_ok(&other.leaf, &other.ca_pem, &foreign_req, &[]);
    let foreign = p.path("foreign.der");
    let r = p.respond(&foreign_req, &foreign, &[]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(openssl_resp_text(&foreign).contains("unauthorized"));
    let (code, v) = p.verify_json(&foreign, &[]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["checks"][0]["detail"], "unauthorized");

    // The leaf of a CA of another name: no request.
    let third = Pki::named("ecdsa-p256", "CN=Third CA");
    let r = request(&third.leaf, &p.ca_pem, &p.path("mismatch.der"), &[]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(!p.path("mismatch.der").exists());

    // Garbage: exit 3 with the file and an offset, and no output file.
    let garbage = common::write_file(&p.dir, "garbage.der", b"\x30\x82\x01\x00garbage");
    let out = p.path("never.der");
    let r = p.respond(&garbage, &out, &[]);
    common::assert_parse_failure(&r, "garbage.der", "respond garbage");
    assert!(!out.exists());
    let r = pk(&["ocsp", "verify", &s(&garbage), "--issuer", &s(&p.ca_pem)]);
    common::assert_parse_failure(&r, "garbage.der", "verify garbage");
    // A truncated request: the same.
    let whole = std::fs::read(&req).unwrap();
    let cut = common::write_file(&p.dir, "cut.der", &whole[..whole.len() - 3]);
    let r = p.respond(&cut, &out, &[]);
    common::assert_parse_failure(&r, "cut.der", "respond truncated");
    assert!(!out.exists());
}

// ---------------------------------------------------------------------------------------
// `ocsp request --url`: ask a responder and check its answer in one step

/// `pkit ocsp request --cert CERT --issuer ca.pem [extra]` (no -o).
fn ask(p: &Pki, cert: &Path, extra: &[&str]) -> Run {
    let (c, i) = (s(cert), s(&p.ca_pem));
    let mut args = vec!["ocsp", "request", "--cert", &c, "--issuer", &i];
    args.extend(extra);
    pk(&args)
}

#[test]
fn request_url_asks_pkit_serve() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/");
    let p = Pki::with(
        "ecdsa-p256",
        "CN=OCSP Test CA,O=pkit",
        &["--ocsp-url", &url],
    );
    let mut server = pkit_serve(&p, port);

    // `--url` without a value asks the responder the certificate's AIA names.
    let r = ask(&p, &p.leaf, &["--url"]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let out = r.stdout_str();
    assert!(out.starts_with(&format!("{url}: good — valid\n")), "{out}");
    for check in ["signature", "cert_id", "this_update", "next_update"] {
        assert!(out.contains(&format!("ok   {check}: ")), "{check}: {out}");
    }

    // A nonce sent must come back; -o keeps the response, which OpenSSL verifies.
    let resp = p.path("asked.der");
    let r = ask(
        &p,
        &p.leaf,
        &["--url", &url, "--nonce", "-f", "json", "-o", &s(&resp)],
    );
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).expect("JSON");
    assert_eq!(v["type"], "ocsp_verify", "{v}");
    let item = &v["items"][0];
    assert_eq!(item["source"], url.as_str(), "{v}");
    assert_eq!(item["valid"], true, "{v}");
    assert_eq!(item["status"], "good", "{v}");
    assert_eq!(check(item, "nonce")["ok"], true, "{v}");
    assert_eq!(item["files"]["ocsp_response"], s(&resp), "{v}");
    let out = p.openssl_check(&resp, &p.leaf);
    assert!(out.contains("leaf.pem: good"), "{out}");
    // The file is what `ocsp verify` checks again later.
    let (code, v) = p.verify_json(&resp, &[]);
    assert_eq!((code, &v["status"]), (Some(0), &"good".into()), "{v}");
    // Not overwritten without --force.
    let r = ask(&p, &p.leaf, &["--url", &url, "-o", &s(&resp)]);
    common::refused(&r, 4, &["asked.der", "already exists"], "-o exists");

    // Unknown to the CA's records: exit 1, the status shown.
    let stray = unrecorded_cert(&p);
    let r = ask(&p, &stray, &["--url", &url]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(
        r.stdout_str().contains("unknown — NOT valid"),
        "{}",
        r.describe()
    );

    // Revoked: exit 1, with the reason, as `ocsp verify` reports it.
    revoke(&p.ca, &p.serial, "keyCompromise");
    let r = ask(&p, &p.leaf, &["--url", &url, "--nonce"]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let out = r.stdout_str();
    assert!(out.contains(": revoked"), "{out}");
    assert!(out.contains("keyCompromise"), "{out}");
    assert!(out.contains("FAIL cert_status"), "{out}");

    // No responder listening: exit 4, the URL named.
    assert_eq!(server.terminate(), Some(0), "{}", server.log_text());
    let r = ask(&p, &p.leaf, &["--url", &url]);
    common::refused(&r, 4, &[&url], "responder down");
    // Only http.
    let r = ask(&p, &p.leaf, &["--url", "https://127.0.0.1/"]);
    common::refused(&r, 2, &["https://127.0.0.1/", "http://"], "https URL");

    // `--url` alone for a certificate that names no responder: a usage error.
    let bare = Pki::new("ecdsa-p256");
    let r = ask(&bare, &bare.leaf, &["--url"]);
    common::refused(&r, 2, &["leaf.pem", "--url URL"], "no AIA");
    // Without --url nothing is sent: the request is written, as before.
    let req = p.path("plain-req.der");
    let r = ask(&p, &p.leaf, &["-o", &s(&req)]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(r.stdout.is_empty());
    assert!(openssl_req_text(&req).contains("OCSP Request Data"));
}

/// `openssl ocsp -reqin F -req_text`.
fn openssl_req_text(req: &Path) -> String {
    let (code, out) = ossl(&["ocsp", "-reqin", &s(req), "-req_text"]);
    assert_eq!(code, Some(0), "{out}");
    out
}

/// A responder that answers the one request it is sent with `answer` (status line,
/// headers and body): what a broken or hostile server sends.
fn one_answer(answer: Vec<u8>) -> (u16, std::thread::JoinHandle<()>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("binding");
    let port = listener.local_addr().unwrap().port();
    let handle = std::thread::spawn(move || {
        let (mut c, _) = listener.accept().expect("accepting");
        c.set_read_timeout(Some(HANG)).unwrap();
        // Read the header and the body its Content-Length announces, then answer.
        let mut r = std::io::BufReader::new(c.try_clone().unwrap());
        let mut len = 0;
        loop {
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; len];
        r.read_exact(&mut body).unwrap();
        c.write_all(&answer).unwrap();
    });
    (port, handle)
}

#[test]
fn request_url_bad_answers() {
    let p = Pki::new("ecdsa-p256");
    let cases: [(&[u8], i32, &str); 2] = [
        (
            b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n",
            4,
            "HTTP 503",
        ),
        (
            b"HTTP/1.0 200 OK\r\nContent-Type: application/ocsp-response\r\n\
              Content-Length: 9\r\n\r\n\x30\x07garbage",
            3,
            "offset",
        ),
    ];
    for (answer, code, what) in cases {
        let (port, server) = one_answer(answer.to_vec());
        let url = format!("http://127.0.0.1:{port}/ocsp");
        let r = ask(&p, &p.leaf, &["--url", &url]);
        common::refused(&r, code, &[&url, what], what);
        server.join().unwrap();
    }
}
