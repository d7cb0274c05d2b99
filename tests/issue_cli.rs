//! `pkit issue` through the real binary, with its certificates checked by programs we did
//! not write: the OpenSSL 3.0 command line (`verify`, `x509 -text`, `req -verify`,
//! `asn1parse`) and Python's `cryptography` (signatures incl. ML-DSA, key/certificate
//! matching, RFC 5280 path validation), plus SQLite's own integrity check of `ca.db`.

mod common;

use common::{ossl, pk, pk_ok, pkit_run, refused, run_with, s, Run, HANG};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

// ---------------------------------------------------------------------------------------
// Helpers

/// `openssl x509 -text -noout` of a certificate.
fn x509_text(cert: &Path) -> String {
    let (code, out) = ossl(&["x509", "-in", &s(cert), "-noout", "-text"]);
    assert_eq!(
        code,
        Some(0),
        "openssl x509 -text {}: {out}",
        cert.display()
    );
    out
}

/// `openssl verify -CAfile ca [-untrusted int] files…`: asserts every file is OK.
fn openssl_verify(ca: &Path, untrusted: Option<&Path>, files: &[PathBuf]) {
    let mut args: Vec<String> = vec!["verify".into(), "-CAfile".into(), s(ca)];
    if let Some(u) = untrusted {
        args.push("-untrusted".into());
        args.push(s(u));
    }
    args.extend(files.iter().map(|f| s(f)));
    let r = run_with("openssl", &args, None, Duration::from_secs(60));
    let out = format!("{}{}", r.stdout_str(), r.stderr_str());
    let oks = out.lines().filter(|l| l.ends_with(": OK")).count();
    assert!(
        r.code == Some(0) && oks == files.len(),
        "openssl verify: {oks} of {} OK, exit {:?}:\n{out}",
        files.len(),
        r.code
    );
}

/// One extension from `openssl x509 -text`: whether it is critical, and its value lines.
fn ext(text: &str, name: &str) -> Option<(bool, String)> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let Some(rest) = t.strip_prefix(name) else {
            continue;
        };
        if !rest.starts_with(':') {
            continue;
        }
        let indent = l.len() - t.len();
        let mut val = Vec::new();
        for m in &lines[i + 1..] {
            if m.len() - m.trim_start().len() <= indent {
                break;
            }
            val.push(m.trim());
        }
        return Some((rest.contains("critical"), val.join("\n")));
    }
    None
}

/// Like [`ext`], failing when the extension is absent.
fn must_ext(text: &str, name: &str, what: &str) -> (bool, String) {
    ext(text, name).unwrap_or_else(|| panic!("{what}: no {name} in openssl's text:\n{text}"))
}

/// The comma-separated items of an extension value, as a set.
fn items(v: &str) -> BTreeSet<String> {
    v.split([',', '\n'])
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

fn set(xs: &[&str]) -> BTreeSet<String> {
    xs.iter().map(|x| x.to_string()).collect()
}

/// A key identifier as openssl prints it, normalised (`keyid:` prefix dropped).
fn key_id(v: &str) -> String {
    v.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .trim_start_matches("keyid:")
        .to_uppercase()
}

/// Run a Python script (with pyca `cryptography`) and return its stdout; it must exit 0.
fn python(script: &str, args: &[String]) -> String {
    common::require_python_cryptography();
    let mut all = vec!["-c".to_string(), script.to_string()];
    all.extend_from_slice(args);
    let r = run_with("python3", &all, None, Duration::from_secs(120));
    assert!(
        r.code == Some(0),
        "python check failed: {}\nstdout: {}",
        r.describe(),
        r.stdout_str()
    );
    r.stdout_str()
}

/// Verify with pyca: the leaf was signed by the CA, a root CA signed itself, and each
/// private key file given holds the key of the certificate paired with it.
const PY_VERIFY: &str = r#"
import sys
from cryptography import x509
from cryptography.hazmat.primitives import serialization as s
def cert(p): return x509.load_pem_x509_certificate(open(p, 'rb').read())
def spki(k): return k.public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo)
ca, leaf = cert(sys.argv[2]), cert(sys.argv[3])
if sys.argv[1] == 'root':
    ca.verify_directly_issued_by(ca)
leaf.verify_directly_issued_by(ca)
for kp, c in zip(sys.argv[4::2], sys.argv[5::2]):
    key = s.load_pem_private_key(open(kp, 'rb').read(), None)
    assert spki(key.public_key()) == spki(cert(c).public_key()), kp + ' does not match ' + c
print('VERIFIED', type(leaf.public_key()).__name__)
"#;

fn py_verify(ca: &Path, leaf: &Path, key_pairs: &[(&Path, &Path)]) -> String {
    py_verify_by(true, ca, leaf, key_pairs)
}

fn py_verify_by(root: bool, ca: &Path, leaf: &Path, key_pairs: &[(&Path, &Path)]) -> String {
    let kind = if root { "root" } else { "intermediate" };
    let mut args = vec![kind.to_string(), s(ca), s(leaf)];
    for (k, c) in key_pairs {
        args.push(s(k));
        args.push(s(c));
    }
    let out = python(PY_VERIFY, &args);
    assert!(out.starts_with("VERIFIED"), "{out}");
    out
}

/// Facts about certificates as pyca reads them (one JSON object per file).
const PY_INFO: &str = r#"
import sys, json
from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec, rsa
out = []
for p in sys.argv[1:]:
    c = x509.load_pem_x509_certificate(open(p, 'rb').read())
    k = c.public_key()
    kd = type(k).__name__
    if isinstance(k, ec.EllipticCurvePublicKey): kd += ':' + k.curve.name
    if isinstance(k, rsa.RSAPublicKey): kd += ':' + str(k.key_size)
    try:
        sans = []
        for g in c.extensions.get_extension_for_class(x509.SubjectAlternativeName).value:
            t = {'DNSName': 'DNS', 'IPAddress': 'IP', 'RFC822Name': 'email',
                 'UniformResourceIdentifier': 'URI'}.get(type(g).__name__, type(g).__name__)
            sans.append(t + ':' + str(g.value))
    except x509.ExtensionNotFound:
        sans = None
    out.append({'path': p, 'serial': '%x' % c.serial_number,
                'serial_bits': c.serial_number.bit_length(), 'serial_positive': c.serial_number > 0,
                'not_before': int(c.not_valid_before_utc.timestamp()),
                'not_after': int(c.not_valid_after_utc.timestamp()),
                'subject': c.subject.rfc4514_string(), 'issuer': c.issuer.rfc4514_string(),
                'key': kd, 'sans': sans})
print(json.dumps(out))
"#;

fn py_info(files: &[PathBuf]) -> Vec<Value> {
    let out = python(PY_INFO, &files.iter().map(|f| s(f)).collect::<Vec<_>>());
    serde_json::from_str::<Vec<Value>>(&out).expect("python info JSON")
}

fn py_info1(file: &Path) -> Value {
    py_info(&[file.to_path_buf()]).remove(0)
}

/// Create a CA and return its directory.
fn new_ca(parent_dir: &Path, name: &str, subject: &str, alg: &str, extra: &[&str]) -> PathBuf {
    let dir = parent_dir.join(name);
    let d = s(&dir);
    let mut args = vec![
        "issue",
        "ca",
        "--dir",
        &d,
        "--subject",
        subject,
        "--alg",
        alg,
    ];
    args.extend_from_slice(extra);
    pk_ok(&args);
    let records = if common::on_postgres() {
        "db.url"
    } else {
        "ca.db"
    };
    for f in ["ca.pem", "ca.key", records] {
        assert!(dir.join(f).is_file(), "issue ca made no {f}");
    }
    dir
}

/// Issue a leaf for a fresh key: returns (cert, key).
fn new_leaf(ca: &Path, out_dir: &Path, name: &str, extra: &[&str]) -> (PathBuf, PathBuf) {
    let cert = out_dir.join(format!("{name}.pem"));
    let key = out_dir.join(format!("{name}.key"));
    let (c, k, ca) = (s(&cert), s(&key), s(ca));
    let mut args = vec!["issue", "cert", "--ca", &ca, "--key-out", &k, "-o", &c];
    args.extend_from_slice(extra);
    // A TLS certificate names its host in a SAN (the CA refuses one without).
    let profile = extra
        .iter()
        .position(|a| *a == "--profile")
        .map_or("server", |i| extra[i + 1]);
    let san = format!("DNS:{name}.example");
    if !extra.contains(&"--san") && ["server", "client", "server-client"].contains(&profile) {
        args.extend(["--san", &san]);
    }
    pk_ok(&args);
    (cert, key)
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .permissions()
        .mode()
        & 0o777
}

/// The items of `pkit issue list --ca DIR -f json`.
fn list(ca: &Path) -> Vec<Value> {
    let r = pk_ok(&["issue", "list", "--ca", &s(ca), "-f", "json"]);
    common::json_items(&r)
}

fn list_serials(ca: &Path) -> Vec<String> {
    list(ca)
        .iter()
        .map(|i| {
            i["serial_number"]
                .as_str()
                .expect("serial_number")
                .to_string()
        })
        .collect()
}

/// Hex without leading zeros, lower case: the integer, whatever its spelling.
fn norm_serial(h: &str) -> String {
    let h = h.trim().to_lowercase().replace(':', "");
    let t = h.trim_start_matches('0');
    if t.is_empty() {
        "0".into()
    } else {
        t.to_string()
    }
}

/// The certificate's serial number as openssl prints it.
fn openssl_serial(cert: &Path) -> String {
    let (code, out) = ossl(&["x509", "-in", &s(cert), "-noout", "-serial"]);
    assert_eq!(code, Some(0), "{out}");
    norm_serial(out.trim().trim_start_matches("serial="))
}

/// `YYYY-MM-DDTHH:MM:SSZ` as Unix seconds.
fn unix(t: &str) -> i64 {
    let n = |a: usize, b: usize| -> i64 { t[a..b].parse().unwrap_or_else(|_| panic!("time {t}")) };
    let (y, m, d) = (n(0, 4), n(5, 7), n(8, 10));
    // Days from civil (Howard Hinnant).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    days * 86_400 + n(11, 13) * 3600 + n(14, 16) * 60 + n(17, 19)
}

// ---------------------------------------------------------------------------------------
// 1. Every algorithm: a root and a server leaf, checked by OpenSSL and pyca.

fn root_and_leaf(alg: &str) {
    common::require_openssl();
    common::require_python_cryptography();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Example Root,O=Example", alg, &[]);
    assert_eq!(mode(&ca.join("ca.key")), 0o600, "{alg}: ca.key mode");
    let (leaf, key) = new_leaf(
        &ca,
        t.path(),
        "leaf",
        &[
            "--subject",
            "CN=leaf.example",
            "--san",
            "DNS:leaf.example",
            "--alg",
            alg,
        ],
    );
    assert_eq!(mode(&key), 0o600, "{alg}: --key-out mode");
    let ca_pem = ca.join("ca.pem");
    let ml_dsa = alg.starts_with("ml-dsa");

    // Signatures: OpenSSL 3.0 for the classic algorithms; pyca for all (ML-DSA included),
    // which also checks both key files against their certificates.
    if !ml_dsa {
        openssl_verify(&ca_pem, None, std::slice::from_ref(&leaf));
    }
    let ca_key = ca.join("ca.key");
    let out = py_verify(&ca_pem, &leaf, &[(&key, &leaf), (&ca_key, &ca_pem)]);
    if ml_dsa {
        let want = format!("MLDSA{}PublicKey", &alg[7..]);
        assert!(out.contains(&want), "{alg}: pyca sees {out}");
    }

    // The server profile, as OpenSSL prints it (3.0 prints the extensions of ML-DSA
    // certificates too, though it cannot load their keys).
    let text = x509_text(&leaf);
    let ca_text = x509_text(&ca_pem);
    let (crit, v) = must_ext(&text, "X509v3 Basic Constraints", alg);
    assert!(
        crit && v == "CA:FALSE",
        "{alg}: basicConstraints {crit} {v}"
    );
    let (crit, v) = must_ext(&text, "X509v3 Key Usage", alg);
    let want_ku: &[&str] = if alg.starts_with("rsa") {
        &["Digital Signature", "Key Encipherment"]
    } else {
        &["Digital Signature"]
    };
    assert!(crit, "{alg}: keyUsage must be critical");
    assert_eq!(items(&v), set(want_ku), "{alg}: keyUsage");
    let (_, v) = must_ext(&text, "X509v3 Extended Key Usage", alg);
    assert_eq!(
        items(&v),
        set(&["TLS Web Server Authentication"]),
        "{alg}: EKU"
    );
    let (crit, ski) = must_ext(&text, "X509v3 Subject Key Identifier", alg);
    assert!(!crit && !key_id(&ski).is_empty(), "{alg}: SKI");
    let (crit, aki) = must_ext(&text, "X509v3 Authority Key Identifier", alg);
    let (_, ca_ski) = must_ext(&ca_text, "X509v3 Subject Key Identifier", "CA");
    assert!(!crit, "{alg}: AKI must not be critical");
    assert_eq!(key_id(&aki), key_id(&ca_ski), "{alg}: leaf AKI vs CA SKI");
    assert_ne!(
        key_id(&ski),
        key_id(&ca_ski),
        "{alg}: leaf SKI equals the CA's"
    );
    let (_, v) = must_ext(&text, "X509v3 Subject Alternative Name", alg);
    assert_eq!(v, "DNS:leaf.example", "{alg}: SAN");
    assert!(
        text.contains("Subject: CN = leaf.example"),
        "{alg}: subject\n{text}"
    );
    assert!(
        text.contains("Issuer: O = Example, CN = Example Root"),
        "{alg}: issuer\n{text}"
    );

    // The root: self-issued, CA:TRUE critical, keyCertSign + cRLSign.
    assert!(
        ca_text.contains("Subject: O = Example, CN = Example Root"),
        "{ca_text}"
    );
    let (crit, v) = must_ext(&ca_text, "X509v3 Basic Constraints", "CA");
    assert!(
        crit && v.starts_with("CA:TRUE"),
        "{alg}: CA basicConstraints {crit} {v}"
    );
    let (crit, v) = must_ext(&ca_text, "X509v3 Key Usage", "CA");
    let ku = items(&v);
    assert!(
        crit && ku.contains("Certificate Sign") && ku.contains("CRL Sign"),
        "{alg}: CA keyUsage {crit} {v}"
    );
}

macro_rules! per_algorithm {
    ($($name:ident => $alg:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            root_and_leaf($alg);
        }
    )*};
}

per_algorithm! {
    root_and_leaf_ecdsa_p256 => "ecdsa-p256",
    root_and_leaf_ecdsa_p384 => "ecdsa-p384",
    root_and_leaf_ed25519 => "ed25519",
    root_and_leaf_rsa2048 => "rsa2048",
    root_and_leaf_rsa3072 => "rsa3072",
    root_and_leaf_rsa4096 => "rsa4096",
    root_and_leaf_ml_dsa_44 => "ml-dsa-44",
    root_and_leaf_ml_dsa_65 => "ml-dsa-65",
    root_and_leaf_ml_dsa_87 => "ml-dsa-87",
}

// ---------------------------------------------------------------------------------------
// 2. Profiles

#[test]
fn profiles_carry_their_extensions() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Profile CA", "ecdsa-p256", &[]);
    let mut certs = Vec::new();
    // (profile, EKU, basicConstraints, keyUsage)
    let cases: &[(&str, &[&str], &str, &[&str])] = &[
        (
            "client",
            &["TLS Web Client Authentication"],
            "CA:FALSE",
            &["Digital Signature"],
        ),
        (
            "server-client",
            &[
                "TLS Web Server Authentication",
                "TLS Web Client Authentication",
            ],
            "CA:FALSE",
            &["Digital Signature"],
        ),
        (
            "code-signing",
            &["Code Signing"],
            "CA:FALSE",
            &["Digital Signature"],
        ),
        (
            "ocsp-signer",
            &["OCSP Signing"],
            "CA:FALSE",
            &["Digital Signature"],
        ),
        ("ca", &[], "CA:TRUE", &["Certificate Sign", "CRL Sign"]),
    ];
    for (profile, eku, bc, ku) in cases {
        let (cert, _) = new_leaf(
            &ca,
            t.path(),
            profile,
            &[
                "--subject",
                &format!("CN={profile}.example"),
                "--profile",
                profile,
            ],
        );
        let text = x509_text(&cert);
        let (crit, v) = must_ext(&text, "X509v3 Basic Constraints", profile);
        assert!(
            crit && v.starts_with(bc),
            "{profile}: basicConstraints {crit} {v}"
        );
        let (crit, v) = must_ext(&text, "X509v3 Key Usage", profile);
        assert!(crit, "{profile}: keyUsage must be critical");
        let got = items(&v);
        for k in *ku {
            assert!(got.contains(*k), "{profile}: keyUsage {v} lacks {k}");
        }
        if *profile != "ca" {
            assert!(!got.contains("Certificate Sign"), "{profile}: keyUsage {v}");
        }
        match ext(&text, "X509v3 Extended Key Usage") {
            Some((_, v)) => assert_eq!(items(&v), set(eku), "{profile}: EKU"),
            None => assert!(eku.is_empty(), "{profile}: no EKU in\n{text}"),
        }
        assert_eq!(
            ext(&text, "OCSP No Check").is_some(),
            *profile == "ocsp-signer",
            "{profile}: OCSP No Check\n{text}"
        );
        must_ext(&text, "X509v3 Subject Key Identifier", profile);
        must_ext(&text, "X509v3 Authority Key Identifier", profile);
        certs.push(cert);
    }
    openssl_verify(&ca.join("ca.pem"), None, &certs);

    // A bad profile name is a usage error naming it.
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--subject",
        "CN=x",
        "--key-out",
        &s(&t.path().join("x.key")),
        "--profile",
        "bogus-profile",
        "-o",
        &s(&t.path().join("x.pem")),
    ]);
    refused(&r, 2, &["bogus-profile"], "--profile bogus-profile");
}

// ---------------------------------------------------------------------------------------
// 3. CSRs: OpenSSL's signed by pkit, pkit's accepted by OpenSSL and pyca

#[test]
fn openssl_csr_is_signed_with_its_sans() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=CSR CA", "ecdsa-p256", &[]);
    let csr = t.path().join("req.csr");
    let (code, out) = ossl(&[
        "req",
        "-new",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        &s(&t.path().join("req.key")),
        "-subj",
        "/CN=req.example",
        "-addext",
        "subjectAltName=DNS:req.example,IP:198.51.100.7",
        "-out",
        &s(&csr),
    ]);
    assert_eq!(code, Some(0), "openssl req: {out}");

    let leaf = t.path().join("req.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--csr",
        &s(&csr),
        "-o",
        &s(&leaf),
    ]);
    openssl_verify(&ca.join("ca.pem"), None, std::slice::from_ref(&leaf));
    let text = x509_text(&leaf);
    assert!(text.contains("Subject: CN = req.example"), "{text}");
    let (_, v) = must_ext(&text, "X509v3 Subject Alternative Name", "copied SAN");
    assert_eq!(
        items(&v),
        set(&["DNS:req.example", "IP Address:198.51.100.7"])
    );
    // The profile's extensions are still there.
    let (crit, v) = must_ext(&text, "X509v3 Basic Constraints", "csr leaf");
    assert!(crit && v == "CA:FALSE");
    // The certified key is the CSR's.
    let (_, k1) = ossl(&["req", "-in", &s(&csr), "-noout", "-pubkey"]);
    let (_, k2) = ossl(&["x509", "-in", &s(&leaf), "-noout", "-pubkey"]);
    assert!(
        k1.contains("BEGIN PUBLIC KEY") && k1 == k2,
        "public keys differ:\n{k1}\n{k2}"
    );

    // --copy-extensions none and no --san: a server certificate without a SAN is
    // refused (exit 2, nothing recorded); a code-signing one has no SAN at all.
    let bare = t.path().join("bare.pem");
    let before = list(&ca).len();
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--csr",
        &s(&csr),
        "--copy-extensions",
        "none",
        "-o",
        &s(&bare),
    ]);
    refused(
        &r,
        2,
        &["needs a subject alternative name"],
        "a server certificate without a SAN",
    );
    assert_eq!(list(&ca).len(), before);
    assert!(!bare.exists());
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--csr",
        &s(&csr),
        "--copy-extensions",
        "none",
        "--profile",
        "code-signing",
        "-o",
        &s(&bare),
    ]);
    let text = x509_text(&bare);
    assert!(
        ext(&text, "X509v3 Subject Alternative Name").is_none(),
        "SAN present:\n{text}"
    );
    assert!(text.contains("Subject: CN = req.example"), "{text}");
    openssl_verify(&ca.join("ca.pem"), None, &[bare]);

    // --copy-extensions none with --san: only the given SAN.
    let given = t.path().join("given.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--csr",
        &s(&csr),
        "--copy-extensions",
        "none",
        "--san",
        "DNS:other.example",
        "-o",
        &s(&given),
    ]);
    let (_, v) = must_ext(
        &x509_text(&given),
        "X509v3 Subject Alternative Name",
        "given SAN",
    );
    assert_eq!(v, "DNS:other.example");

    // The same CSR in DER is accepted too.
    let der = t.path().join("req.der");
    let (code, out) = ossl(&["req", "-in", &s(&csr), "-outform", "DER", "-out", &s(&der)]);
    assert_eq!(code, Some(0), "{out}");
    let from_der = t.path().join("der.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--csr",
        &s(&der),
        "-o",
        &s(&from_der),
    ]);
    openssl_verify(&ca.join("ca.pem"), None, &[from_der]);
}

#[test]
fn pkit_csr_is_accepted_by_openssl_and_pyca() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=CSR CA", "ecdsa-p256", &[]);

    // ECDSA: OpenSSL checks the self-signature.
    let key = t.path().join("k.pem");
    pk_ok(&["key", "gen", "--alg", "ecdsa-p256", "-o", &s(&key)]);
    let csr = t.path().join("p.csr");
    pk_ok(&[
        "issue",
        "csr",
        "--key",
        &s(&key),
        "--subject",
        "CN=csr.example,O=Example",
        "--san",
        "DNS:csr.example",
        "--san",
        "IP:192.0.2.9",
        "-o",
        &s(&csr),
    ]);
    let (code, out) = ossl(&["req", "-in", &s(&csr), "-verify", "-noout"]);
    assert!(
        code == Some(0) && out.contains("verify OK"),
        "openssl req -verify: {out}"
    );
    let (_, text) = ossl(&["req", "-in", &s(&csr), "-noout", "-text"]);
    assert!(
        text.contains("Subject: O = Example, CN = csr.example"),
        "{text}"
    );
    let (_, v) = must_ext(&text, "X509v3 Subject Alternative Name", "CSR SAN");
    assert_eq!(items(&v), set(&["DNS:csr.example", "IP Address:192.0.2.9"]));

    let leaf = t.path().join("p.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--csr",
        &s(&csr),
        "-o",
        &s(&leaf),
    ]);
    openssl_verify(&ca.join("ca.pem"), None, std::slice::from_ref(&leaf));
    let (_, v) = must_ext(
        &x509_text(&leaf),
        "X509v3 Subject Alternative Name",
        "leaf SAN",
    );
    assert_eq!(items(&v), set(&["DNS:csr.example", "IP Address:192.0.2.9"]));
    py_verify(&ca.join("ca.pem"), &leaf, &[(&key, &leaf)]);

    // --force is needed to overwrite the CSR.
    let before = std::fs::read(&csr).unwrap();
    let r = pk(&[
        "issue",
        "csr",
        "--key",
        &s(&key),
        "--subject",
        "CN=z",
        "-o",
        &s(&csr),
    ]);
    refused(&r, 4, &["exists"], "issue csr over an existing file");
    assert_eq!(
        std::fs::read(&csr).unwrap(),
        before,
        "issue csr changed the file"
    );
    pk_ok(&[
        "issue",
        "csr",
        "--key",
        &s(&key),
        "--subject",
        "CN=z",
        "-o",
        &s(&csr),
        "--force",
    ]);
    assert_ne!(
        std::fs::read(&csr).unwrap(),
        before,
        "--force did not overwrite"
    );

    // ML-DSA and Ed25519 CSRs: pyca checks the self-signature; pkit certifies them.
    for alg in ["ml-dsa-44", "ed25519"] {
        let key = t.path().join(format!("{alg}.key"));
        pk_ok(&["key", "gen", "--alg", alg, "-o", &s(&key)]);
        let csr = t.path().join(format!("{alg}.csr"));
        pk_ok(&[
            "issue",
            "csr",
            "--key",
            &s(&key),
            "--subject",
            "CN=pq.example",
            "--san",
            "DNS:pq.example",
            "-o",
            &s(&csr),
        ]);
        let out = python(
            "import sys\nfrom cryptography import x509\n\
             c = x509.load_pem_x509_csr(open(sys.argv[1], 'rb').read())\n\
             assert c.is_signature_valid, 'bad CSR signature'\n\
             print(c.subject.rfc4514_string())",
            &[s(&csr)],
        );
        assert_eq!(out.trim(), "CN=pq.example", "{alg}");
        let leaf = t.path().join(format!("{alg}.pem"));
        pk_ok(&[
            "issue",
            "cert",
            "--ca",
            &s(&ca),
            "--csr",
            &s(&csr),
            "-o",
            &s(&leaf),
        ]);
        py_verify(&ca.join("ca.pem"), &leaf, &[(&key, &leaf)]);
        let info = py_info1(&leaf);
        assert_eq!(
            info["sans"],
            serde_json::json!(["DNS:pq.example"]),
            "{alg}: {info}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// 4. Root → intermediate → leaf

#[test]
fn root_intermediate_leaf_chain() {
    common::require_openssl();
    let t = common::tempdir();
    let root = new_ca(
        t.path(),
        "root",
        "CN=Chain Root,O=Example",
        "ecdsa-p384",
        &["--path-len", "1", "--passout", "pass:rootpw"],
    );
    assert!(
        std::fs::read_to_string(root.join("ca.key"))
            .unwrap()
            .contains("BEGIN ENCRYPTED PRIVATE KEY"),
        "--passout did not encrypt ca.key"
    );

    // The parent's key is encrypted: without --parent-passin, refused, and no CA left.
    let int_dir = t.path().join("int");
    let r = pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&int_dir),
        "--subject",
        "CN=Chain Int,O=Example",
        "--parent",
        &s(&root),
    ]);
    // The hint names the flag that gives the parent's password, not `--passin` (the
    // new CA's own key's, when it has one to read).
    refused(
        &r,
        3,
        &["password", "(--parent-passin "],
        "intermediate without --parent-passin",
    );
    assert!(
        !int_dir.join("ca.pem").exists(),
        "a refused intermediate left ca.pem"
    );

    let int = new_ca(
        t.path(),
        "int",
        "CN=Chain Int,O=Example",
        "ecdsa-p256",
        &[
            "--parent",
            &s(&root),
            "--parent-passin",
            "pass:rootpw",
            "--path-len",
            "0",
        ],
    );
    let (leaf, key) = new_leaf(
        &int,
        t.path(),
        "leaf",
        &["--subject", "CN=leaf.example", "--san", "DNS:leaf.example"],
    );
    let (root_pem, int_pem) = (root.join("ca.pem"), int.join("ca.pem"));
    openssl_verify(&root_pem, Some(&int_pem), std::slice::from_ref(&leaf));
    // Without the intermediate the leaf does not verify (it is not signed by the root).
    let (_, out) = ossl(&["verify", "-CAfile", &s(&root_pem), &s(&leaf)]);
    assert!(
        !out.contains(": OK"),
        "leaf verified without its intermediate: {out}"
    );

    // Texts: path lengths, issuer names, key identifiers.
    let root_text = x509_text(&root_pem);
    let int_text = x509_text(&int_pem);
    let leaf_text = x509_text(&leaf);
    let (crit, v) = must_ext(&root_text, "X509v3 Basic Constraints", "root");
    assert!(
        crit && v == "CA:TRUE, pathlen:1",
        "root basicConstraints: {v}"
    );
    let (crit, v) = must_ext(&int_text, "X509v3 Basic Constraints", "int");
    assert!(
        crit && v == "CA:TRUE, pathlen:0",
        "intermediate basicConstraints: {v}"
    );
    assert!(
        int_text.contains("Issuer: O = Example, CN = Chain Root"),
        "{int_text}"
    );
    assert!(
        int_text.contains("Subject: O = Example, CN = Chain Int"),
        "{int_text}"
    );
    assert!(
        leaf_text.contains("Issuer: O = Example, CN = Chain Int"),
        "{leaf_text}"
    );
    let ski = |t: &str, w: &str| key_id(&must_ext(t, "X509v3 Subject Key Identifier", w).1);
    let aki = |t: &str, w: &str| key_id(&must_ext(t, "X509v3 Authority Key Identifier", w).1);
    assert_eq!(
        aki(&int_text, "int"),
        ski(&root_text, "root"),
        "int AKI vs root SKI"
    );
    assert_eq!(
        aki(&leaf_text, "leaf"),
        ski(&int_text, "int"),
        "leaf AKI vs int SKI"
    );

    // RFC 5280 path validation by pyca (checks EKU, SAN, key usage, AKI/SKI, validity).
    let out = python(
        r#"
import sys, datetime
from cryptography import x509
from cryptography.x509 import verification as v
def cert(p): return x509.load_pem_x509_certificate(open(p, 'rb').read())
root, inter, leaf = cert(sys.argv[1]), cert(sys.argv[2]), cert(sys.argv[3])
now = datetime.datetime.now(datetime.timezone.utc)
ver = v.PolicyBuilder().store(v.Store([root])).time(now).build_server_verifier(x509.DNSName('leaf.example'))
print('CHAIN', len(ver.verify(leaf, [inter])))
"#,
        &[s(&root_pem), s(&int_pem), s(&leaf)],
    );
    assert_eq!(out.trim(), "CHAIN 3", "{out}");
    py_verify_by(false, &int_pem, &leaf, &[(&key, &leaf)]);
    py_verify(&root_pem, &int_pem, &[(&int.join("ca.key"), &int_pem)]);

    // The intermediate is in the root's database, as a CA; the leaf only in the int's.
    let int_serial = openssl_serial(&int_pem);
    let rows = list(&root);
    assert_eq!(rows.len(), 1, "root's list: {rows:?}");
    assert_eq!(
        norm_serial(rows[0]["serial_number"].as_str().unwrap()),
        int_serial
    );
    assert_eq!(rows[0]["profile"], "ca", "{rows:?}");
    assert_eq!(rows[0]["subject"], "CN=Chain Int,O=Example", "{rows:?}");
    let rows = list(&int);
    assert_eq!(rows.len(), 1, "int's list: {rows:?}");
    assert_eq!(
        norm_serial(rows[0]["serial_number"].as_str().unwrap()),
        openssl_serial(&leaf)
    );
    // The root's export of the intermediate is the intermediate's certificate.
    let r = pk_ok(&[
        "issue",
        "export",
        "--ca",
        &s(&root),
        rows_serial(&root, 0).as_str(),
    ]);
    assert_eq!(
        r.stdout,
        std::fs::read(&int_pem).unwrap(),
        "export of the intermediate"
    );
}

fn rows_serial(ca: &Path, i: usize) -> String {
    list_serials(ca)[i].clone()
}

/// A CA whose pathLenConstraint is 0 may not certify further CAs: such a chain fails
/// RFC 5280 validation, so issuing one only produces an unusable certificate.
#[test]
fn path_len_zero_ca_refuses_to_certify_a_ca() {
    common::require_openssl();
    let t = common::tempdir();
    let root = new_ca(
        t.path(),
        "root",
        "CN=PL Root",
        "ecdsa-p256",
        &["--path-len", "0"],
    );
    let sub = t.path().join("sub");
    let r = pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&sub),
        "--subject",
        "CN=PL Sub",
        "--parent",
        &s(&root),
    ]);
    let mut detail = String::new();
    if r.code == Some(0) {
        // Show what the issued sub-CA is good for.
        let (leaf, _) = new_leaf(&sub, t.path(), "leaf", &["--subject", "CN=leaf.example"]);
        let (_, out) = ossl(&[
            "verify",
            "-CAfile",
            &s(&root.join("ca.pem")),
            "-untrusted",
            &s(&sub.join("ca.pem")),
            &s(&leaf),
        ]);
        detail = format!("; openssl verify of a leaf under it says: {}", out.trim());
    }
    assert_eq!(
        r.code,
        Some(1),
        "issue ca --parent <CA with pathlen:0> should be refused (exit 1); {}{detail}",
        r.describe()
    );
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&root),
        "--profile",
        "ca",
        "--subject",
        "CN=PL Sub2",
        "--key-out",
        &s(&t.path().join("s2.key")),
        "-o",
        &s(&t.path().join("s2.pem")),
    ]);
    assert_eq!(
        r.code,
        Some(1),
        "issue cert --profile ca from a CA with pathlen:0 should be refused (exit 1); {}",
        r.describe()
    );
}

// ---------------------------------------------------------------------------------------
// 5. Batches

/// Parse batch stdout: one JSON object per line.
fn batch_lines(r: &Run) -> Vec<Value> {
    r.stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("batch line {l:?}: {e}")))
        .collect()
}

#[test]
fn batch_of_200() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Batch CA", "ecdsa-p256", &[]);
    let out = t.path().join("out");
    let r = pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "200",
        "--alg",
        "ecdsa-p256",
        "--out-dir",
        &s(&out),
    ]);
    let lines = batch_lines(&r);
    assert_eq!(lines.len(), 200, "batch printed {} lines", lines.len());
    let mut by_n = BTreeMap::new();
    for l in &lines {
        let n = l["n"].as_u64().unwrap_or_else(|| panic!("no n: {l}"));
        assert_eq!(l["subject"], format!("CN=host-{n}.example"), "{l}");
        let cert = PathBuf::from(l["cert"].as_str().unwrap());
        let key = PathBuf::from(l["key"].as_str().unwrap());
        assert_eq!(cert, out.join(format!("{n}.pem")), "{l}");
        assert_eq!(key, out.join(format!("{n}.key")), "{l}");
        assert_eq!(mode(&key), 0o600, "{}", key.display());
        let serial = l["serial_number"].as_str().unwrap().to_string();
        assert!(by_n.insert(n, serial).is_none(), "n {n} twice");
    }
    assert_eq!(
        by_n.keys().copied().collect::<Vec<_>>(),
        (1..=200).collect::<Vec<u64>>()
    );
    let serials: BTreeSet<&String> = by_n.values().collect();
    assert_eq!(serials.len(), 200, "duplicate serial numbers in the batch");

    // Exactly the 400 files, all verifying in one openssl call.
    let names: BTreeSet<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let want: BTreeSet<String> = (1..=200)
        .flat_map(|n| [format!("{n}.pem"), format!("{n}.key")])
        .collect();
    assert_eq!(names, want, "out-dir contents");
    let certs: Vec<PathBuf> = (1..=200).map(|n| out.join(format!("{n}.pem"))).collect();
    openssl_verify(&ca.join("ca.pem"), None, &certs);

    // pyca reads the same serials from the files: positive, at most 20 bytes.
    for info in py_info(&certs) {
        let n: u64 = Path::new(info["path"].as_str().unwrap())
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            norm_serial(info["serial"].as_str().unwrap()),
            norm_serial(&by_n[&n]),
            "{info}"
        );
        assert_eq!(info["serial_positive"], true, "{info}");
        assert!(
            info["serial_bits"].as_u64().unwrap() <= 159,
            "serial over 20 bytes: {info}"
        );
        assert!(
            info["serial_bits"].as_u64().unwrap() >= 64,
            "serial too short: {info}"
        );
        assert_eq!(info["subject"], format!("CN=host-{n}.example"), "{info}");
        assert_eq!(info["key"], "ECPublicKey:secp256r1", "{info}");
    }
    // Every key matches its certificate (pyca loads each key; batches make EC keys
    // through their own path, see ec_batch.rs).
    let key_pairs: Vec<(PathBuf, PathBuf)> = (1..=200)
        .map(|n| (out.join(format!("{n}.key")), out.join(format!("{n}.pem"))))
        .collect();
    let pairs: Vec<(&Path, &Path)> = key_pairs
        .iter()
        .map(|(k, c)| (k.as_path(), c.as_path()))
        .collect();
    py_verify(&ca.join("ca.pem"), &certs[0], &pairs);
    // OpenSSL's own pairwise check (the public point is the private scalar times G).
    for n in [1, 77, 200] {
        let key = out.join(format!("{n}.key"));
        let (code, text) = common::ossl(&["pkey", "-in", &s(&key), "-check", "-noout"]);
        assert_eq!(code, Some(0), "openssl pkey -check {n}.key: {text}");
    }

    // The database: 200 certificates (the CA itself is not one of its own issued).
    let listed = list(&ca);
    assert_eq!(listed.len(), 200, "issue list shows {}", listed.len());
    let listed_serials: BTreeSet<String> = listed
        .iter()
        .map(|i| i["serial_number"].as_str().unwrap().to_string())
        .collect();
    let batch_serials: BTreeSet<String> = by_n.values().cloned().collect();
    assert_eq!(listed_serials, batch_serials, "issue list vs batch output");
    for i in &listed {
        assert_eq!(i["status"], "valid", "{i}");
        assert_eq!(i["profile"], "server", "{i}");
        assert_eq!(i["key_algorithm"], "ecdsa-p256", "{i}");
    }
    let r = pk_ok(&["issue", "list", "--ca", &s(&ca), "-f", "jsonl"]);
    assert_eq!(r.stdout_str().lines().count(), 200, "jsonl lines");

    // Export of one serial is byte-identical to the batch's file.
    let (n, serial) = (137u64, by_n[&137].clone());
    let file = std::fs::read(out.join(format!("{n}.pem"))).unwrap();
    let r = pk_ok(&["issue", "export", "--ca", &s(&ca), &serial]);
    assert_eq!(r.stdout, file, "export of {serial} differs from {n}.pem");
    let exported = t.path().join("exported.pem");
    pk_ok(&[
        "issue",
        "export",
        "--ca",
        &s(&ca),
        &serial,
        "-o",
        &s(&exported),
    ]);
    assert_eq!(std::fs::read(&exported).unwrap(), file, "export -o");
    let r = pk(&[
        "issue",
        "export",
        "--ca",
        &s(&ca),
        &serial,
        "-o",
        &s(&exported),
    ]);
    refused(&r, 4, &["exists"], "export over an existing file");
    // Upper case and colons name the same serial.
    let colons = serial
        .to_uppercase()
        .as_bytes()
        .chunks(2)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join(":");
    let r = pk_ok(&["issue", "export", "--ca", &s(&ca), &colons]);
    assert_eq!(r.stdout, file, "export of {colons}");
}

#[test]
fn batch_from_manifest() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Manifest CA", "ecdsa-p256", &[]);
    let manifest = t.path().join("m.jsonl");
    std::fs::write(
        &manifest,
        concat!(
            r#"{"subject":"CN=m1.example","sans":["DNS:m1.example","IP:192.0.2.1"],"profile":"server","alg":"ecdsa-p384","days":30}"#, "\n",
            r#"{"subject":"CN=m2.example","sans":["email:m2@a.example"],"profile":"client","alg":"ed25519","days":60}"#, "\n",
            "\n",
            r#"{"subject":"CN=m3.example","sans":["URI:https://m3.example/x"],"profile":"code-signing","alg":"rsa2048"}"#, "\n",
            r#"{"subject":"CN=m4.example","profile":"ocsp-signer","alg":"ml-dsa-44","days":7}"#, "\n",
        ),
    )
    .unwrap();
    let out = t.path().join("out");
    let r = pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--from",
        &s(&manifest),
        "--out-dir",
        &s(&out),
        "--measure-limit",
    ]);
    let lines = batch_lines(&r);
    assert_eq!(lines.len(), 4, "{}", r.stdout_str());
    // Nothing asked for: no files, a plain message, no limit to divide by.
    let none = pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "0",
        "--out-dir",
        &s(&t.path().join("none")),
        "--measure-limit",
    ]);
    assert!(none.stdout.is_empty(), "{}", none.describe());
    assert!(
        none.stderr_str().contains("pkit: created no certificates")
            && !none.stderr_str().contains("NaN"),
        "{}",
        none.describe()
    );
    assert!(
        !t.path().join("none").exists(),
        "an empty output directory was left"
    );
    // The limit is reported beside the batch's rate (its figures are not checked).
    let err = r.stderr_str();
    assert!(
        err.contains("pkit: created 4 certificates (")
            && err.contains("raw limit")
            && err.contains("% of it"),
        "{err}"
    );
    let certs: Vec<PathBuf> = (1..=4).map(|n| out.join(format!("{n}.pem"))).collect();
    openssl_verify(&ca.join("ca.pem"), None, &certs[..3]);
    py_verify(
        &ca.join("ca.pem"),
        &certs[3],
        &[(&out.join("4.key"), &certs[3])],
    );
    for n in 1..=3 {
        py_verify(
            &ca.join("ca.pem"),
            &certs[n - 1],
            &[(&out.join(format!("{n}.key")), &certs[n - 1])],
        );
    }
    let info = py_info(&certs);
    let want: [(&str, &str, Value, i64, &str); 4] = [
        (
            "CN=m1.example",
            "ECPublicKey:secp384r1",
            serde_json::json!(["DNS:m1.example", "IP:192.0.2.1"]),
            30,
            "TLS Web Server Authentication",
        ),
        (
            "CN=m2.example",
            "Ed25519PublicKey",
            serde_json::json!(["email:m2@a.example"]),
            60,
            "TLS Web Client Authentication",
        ),
        (
            "CN=m3.example",
            "RSAPublicKey:2048",
            serde_json::json!(["URI:https://m3.example/x"]),
            365,
            "Code Signing",
        ),
        (
            "CN=m4.example",
            "MLDSA44PublicKey",
            Value::Null,
            7,
            "OCSP Signing",
        ),
    ];
    for (i, (subject, key, sans, days, eku)) in want.iter().enumerate() {
        let got = &info[i];
        assert_eq!(got["subject"], *subject, "{got}");
        assert_eq!(got["key"], *key, "{got}");
        assert_eq!(&got["sans"], sans, "{got}");
        let span = got["not_after"].as_i64().unwrap() - got["not_before"].as_i64().unwrap();
        assert_eq!(span, days * 86_400 - 1, "line {}: validity {span} s", i + 1);
        let text = x509_text(&certs[i]);
        let (_, v) = must_ext(&text, "X509v3 Extended Key Usage", subject);
        assert_eq!(items(&v), set(&[eku]), "{subject}");
        assert_eq!(lines[i]["subject"], *subject, "{}", lines[i]);
    }
    let rows = list(&ca);
    let profiles: Vec<&str> = rows
        .iter()
        .map(|r| r["profile"].as_str().unwrap())
        .collect();
    let algs: Vec<&str> = rows
        .iter()
        .map(|r| r["key_algorithm"].as_str().unwrap())
        .collect();
    assert_eq!(
        profiles,
        ["server", "client", "code-signing", "ocsp-signer"],
        "{rows:?}"
    );
    assert_eq!(
        algs,
        ["ecdsa-p384", "ed25519", "rsa2048", "ml-dsa-44"],
        "{rows:?}"
    );

    // A manifest line with an unknown SAN type is input that does not parse (exit 3),
    // named by its line; nothing is issued.
    let bad = t.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"subject\":\"CN=ok\",\"sans\":[\"DNS:ok.example\"]}\n{\"subject\":\"CN=x\",\"sans\":[\"foo:bar\"]}\n",
    )
    .unwrap();
    let r = pk(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--from",
        &s(&bad),
        "--out-dir",
        &s(&t.path().join("bad")),
    ]);
    refused(
        &r,
        3,
        &["line 2", "foo"],
        "manifest with an unknown SAN type",
    );
    assert_eq!(list(&ca).len(), 4, "a refused manifest issued certificates");
}

// ---------------------------------------------------------------------------------------
// 6. Data safety: kill -9 in the middle of a batch; concurrent issuers

/// Start a batch of `count` into `out`, kill -9 it `delay` after its first JSON line;
/// return how it ended and the lines it printed.
fn kill_batch(
    ca: &Path,
    out: &Path,
    count: usize,
    delay: Duration,
) -> (std::process::ExitStatus, Vec<String>) {
    use std::io::BufRead;
    let mut child = Command::new(common::pkit_bin())
        .args([
            "issue",
            "batch",
            "--ca",
            &s(ca),
            "--count",
            &count.to_string(),
            "--chunk",
            "64",
            "--out-dir",
            &s(out),
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting pkit issue batch");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    });
    let first = rx.recv_timeout(HANG);
    std::thread::sleep(delay);
    let _ = child.kill(); // SIGKILL
    let status = child.wait().unwrap();
    reader.join().unwrap();
    let mut lines: Vec<String> = first.into_iter().collect();
    lines.extend(rx.try_iter());
    assert!(
        !lines.is_empty(),
        "the batch printed nothing before the kill ({status})"
    );
    (status, lines)
}

/// Rows in the CA's records, counted by the database itself: SQLite for `ca.db`, psql
/// when the tests run on PostgreSQL.
fn db_rows(ca: &Path) -> usize {
    let count = if common::on_postgres() {
        common::psql_for_ca(ca, "select count(*) from certificates")
    } else {
        python(
            "import sys, sqlite3\n\
             print(sqlite3.connect(sys.argv[1]).execute('select count(*) from certificates').fetchone()[0])",
            &[s(&ca.join("ca.db"))],
        )
    };
    count.trim().parse().expect("a row count")
}

/// A batch into a fresh directory beside `base` (`base-1`, `base-2`, …), killed by SIGKILL
/// `delay` after its first line while it still had certificates to issue: the child died
/// of the signal and `ca.db` gained some of the rows asked for but not all. When the batch
/// wins the race instead (it finished, or had committed everything), it is tried again,
/// four times larger, a bounded number of times: a test that passes without a kill in the
/// middle proves nothing. Returns the directory and the lines printed before the kill.
fn killed_mid_batch(ca: &Path, base: &Path, delay: Duration) -> (PathBuf, Vec<String>) {
    use std::os::unix::process::ExitStatusExt;
    const SIGKILL: i32 = 9;
    let mut count = 3000;
    for attempt in 1..=3 {
        let out = base.with_file_name(format!(
            "{}-{attempt}",
            base.file_name().unwrap().to_string_lossy()
        ));
        let before = db_rows(ca);
        let (status, lines) = kill_batch(ca, &out, count, delay);
        let added = db_rows(ca) - before;
        assert!(
            status.success() || status.signal() == Some(SIGKILL),
            "the batch failed by itself: {status}"
        );
        if status.signal() == Some(SIGKILL) && added < count {
            // Each line is printed after its chunk committed, so what was reported is in.
            let reported = lines
                .iter()
                .filter(|l| serde_json::from_str::<Value>(l).is_ok())
                .count();
            assert!(
                (reported.max(1)..count).contains(&added),
                "killed after {reported} reported lines, with {added} of {count} rows added"
            );
            return (out, lines);
        }
        common::note(&format!(
            "note: the batch of {count} won the race ({status}, {added} rows added); \
             again with {}",
            count * 4
        ));
        count *= 4;
    }
    panic!("every batch finished before the kill: nothing was killed mid-batch");
}

/// What must hold after a kill: the database is intact and every listed certificate is
/// exportable; every finished-looking file is complete, and its certificate is in the
/// database; the only other files are `.pkit-tmp-*`.
fn check_after_kill(ca: &Path, out: &Path, fresh_dir: bool) -> Vec<String> {
    // The database itself says it is fine: SQLite's integrity check, or on PostgreSQL
    // (which keeps its own integrity) the row count.
    let db = if common::on_postgres() {
        format!("ok {}", db_rows(ca))
    } else {
        python(
            "import sys, sqlite3\nc = sqlite3.connect(sys.argv[1])\n\
             print(c.execute('pragma integrity_check').fetchone()[0], \
             c.execute('select count(*) from certificates').fetchone()[0])",
            &[s(&ca.join("ca.db"))],
        )
    };
    let serials = list_serials(ca);
    assert_eq!(
        db.trim(),
        format!("ok {}", serials.len()),
        "the database says: {db}"
    );
    let distinct: BTreeSet<&String> = serials.iter().collect();
    assert_eq!(distinct.len(), serials.len(), "duplicate serials listed");

    // Every listed certificate can be exported (a sample of ~40 evenly spread, plus the
    // first and last, to keep the run short).
    let step = (serials.len() / 40).max(1);
    let mut picks: BTreeSet<usize> = (0..serials.len()).step_by(step).collect();
    if let Some(last) = serials.len().checked_sub(1) {
        picks.insert(last);
    }
    let mut exported = BTreeMap::new();
    for i in picks {
        let r = pk_ok(&["issue", "export", "--ca", &s(ca), &serials[i]]);
        assert!(
            r.stdout_str().starts_with("-----BEGIN CERTIFICATE-----"),
            "export {}",
            serials[i]
        );
        exported.insert(norm_serial(&serials[i]), r.stdout);
    }

    // The out-dir: N.pem, N.key and (allowed) stale .pkit-tmp-* only.
    let mut pems = Vec::new();
    let mut keys = Vec::new();
    let mut temps = Vec::new();
    for e in std::fs::read_dir(out).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let (stem, ext) = name.rsplit_once('.').unwrap_or((&name, ""));
        if name.starts_with(".pkit-tmp-") {
            temps.push(name);
        } else if !stem.is_empty() && stem.bytes().all(|b| b.is_ascii_digit()) && ext == "pem" {
            pems.push(out.join(&name));
        } else if !stem.is_empty() && stem.bytes().all(|b| b.is_ascii_digit()) && ext == "key" {
            keys.push(out.join(&name));
        } else {
            panic!("unexpected file in the out-dir after a kill: {name}");
        }
    }
    pems.sort();
    keys.sort();
    assert!(!pems.is_empty(), "no certificate files after the kill");

    // Every file parses completely with pkit parse.
    let mut args: Vec<String> = vec!["parse".into(), "-f".into(), "jsonl".into()];
    args.extend(pems.iter().chain(&keys).map(|p| s(p)));
    let r = pkit_run(&args);
    assert_eq!(
        r.code,
        Some(0),
        "pkit parse of the out-dir files: {}",
        r.describe()
    );
    let parsed: Vec<Value> = r
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(parsed.len(), pems.len() + keys.len(), "pkit parse items");
    let certs_parsed = parsed.iter().filter(|v| v["type"] == "certificate").count();
    let keys_parsed = parsed.iter().filter(|v| v["type"] == "private_key").count();
    assert_eq!(
        (certs_parsed, keys_parsed),
        (pems.len(), keys.len()),
        "parsed kinds"
    );

    // Independently: pyca loads every file, and each certificate file is in the
    // database (committed before its files were written); each exported copy matches.
    let listed: BTreeSet<String> = serials.iter().map(|x| norm_serial(x)).collect();
    for info in py_info(&pems) {
        let serial = norm_serial(info["serial"].as_str().unwrap());
        assert!(
            listed.contains(&serial),
            "{} is not in ca.db: {info}",
            info["path"]
        );
        if let Some(pem) = exported.get(&serial) {
            assert_eq!(
                &std::fs::read(info["path"].as_str().unwrap()).unwrap(),
                pem,
                "{info}"
            );
        }
    }
    if fresh_dir {
        // One run wrote this directory: every certificate has its key beside it, matching.
        let mut args = Vec::new();
        for p in &pems {
            let k = p.with_extension("key");
            assert!(k.is_file(), "{} has no key file", p.display());
            args.push(s(&k));
            args.push(s(p));
        }
        let out = python(
            "import sys\nfrom cryptography import x509\n\
             from cryptography.hazmat.primitives import serialization as s\n\
             def spki(k): return k.public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo)\n\
             for kp, cp in zip(sys.argv[1::2], sys.argv[2::2]):\n\
             \x20   k = s.load_pem_private_key(open(kp, 'rb').read(), None)\n\
             \x20   c = x509.load_pem_x509_certificate(open(cp, 'rb').read())\n\
             \x20   assert spki(k.public_key()) == spki(c.public_key()), kp\n\
             print('PAIRS', len(sys.argv) // 2)",
            &args,
        );
        assert_eq!(out.trim(), format!("PAIRS {}", pems.len()), "{out}");
        // Orphan keys (a key written, its certificate not yet) must still be whole keys:
        // checked by pkit parse above.
    }
    eprintln!(
        "after kill: {} in ca.db, {} certs, {} keys, {} temp files",
        serials.len(),
        pems.len(),
        keys.len(),
        temps.len()
    );
    temps
}

#[test]
fn kill_9_during_batch_loses_nothing() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Kill CA", "ecdsa-p256", &[]);
    // Two kills: one a while into the batch, one right after its first output, each into
    // its own directory.
    let dirs: Vec<PathBuf> = [("d1", 200), ("d2", 0)]
        .into_iter()
        .map(|(name, delay)| {
            let (dir, lines) =
                killed_mid_batch(&ca, &t.path().join(name), Duration::from_millis(delay));
            check_after_kill(&ca, &dir, true);
            // Every serial the batch reported before dying is in the database.
            let listed: BTreeSet<String> = list_serials(&ca).into_iter().collect();
            for l in &lines {
                // The last line may be cut short by the kill.
                if let Ok(v) = serde_json::from_str::<Value>(l) {
                    let sn = v["serial_number"].as_str().unwrap().to_string();
                    assert!(listed.contains(&sn), "reported serial {sn} is not in ca.db");
                }
            }
            dir
        })
        .collect();
    let d1 = &dirs[0];

    // A stale temp file (as a kill between create and rename leaves) is removed by the
    // next batch into the directory, which works and adds only new serials. It replaces
    // the killed run's files, so it takes --force (without, it is refused: they hold the
    // keys of valid certificates).
    let planted = d1.join(".pkit-tmp-999999-deadbeef-0");
    std::fs::write(&planted, "-----BEGIN CERTIFICATE-----\nMIIB").unwrap();
    let before = list_serials(&ca);
    let r = pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "50",
        "--out-dir",
        &s(d1),
        "--force",
    ]);
    let lines = batch_lines(&r);
    assert_eq!(lines.len(), 50);
    let leftovers: Vec<String> = std::fs::read_dir(d1)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".pkit-tmp-"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "stale temp files survived the next batch: {leftovers:?}"
    );
    let after = list_serials(&ca);
    assert_eq!(
        after.len(),
        before.len() + 50,
        "list after the follow-up batch"
    );
    let distinct: BTreeSet<&String> = after.iter().collect();
    assert_eq!(distinct.len(), after.len(), "duplicate serials in ca.db");
    assert_eq!(&after[..before.len()], &before[..], "earlier rows changed");
    let new: Vec<PathBuf> = (1..=50).map(|n| d1.join(format!("{n}.pem"))).collect();
    openssl_verify(&ca.join("ca.pem"), None, &new);
    for (l, p) in lines.iter().zip(&new) {
        assert_eq!(
            norm_serial(l["serial_number"].as_str().unwrap()),
            openssl_serial(p)
        );
    }
    check_after_kill(&ca, d1, false);
}

#[test]
fn concurrent_issuers_both_succeed() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Concurrent CA", "ecdsa-p256", &[]);
    let mut certs = Vec::new();
    for round in 0..5 {
        let children: Vec<_> = ["a", "b"]
            .iter()
            .map(|side| {
                let cert = t.path().join(format!("{side}{round}.pem"));
                let key = t.path().join(format!("{side}{round}.key"));
                let child = Command::new(common::pkit_bin())
                    .args([
                        "issue",
                        "cert",
                        "--san",
                        "DNS:leaf.example",
                        "--ca",
                        &s(&ca),
                        "--subject",
                        &format!("CN={side}{round}.example"),
                        "--key-out",
                        &s(&key),
                        "-o",
                        &s(&cert),
                    ])
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("starting pkit");
                (cert, child)
            })
            .collect();
        for (cert, child) in children {
            let o = child.wait_with_output().unwrap();
            assert!(
                o.status.success(),
                "round {round}: {} failed: {}",
                cert.display(),
                String::from_utf8_lossy(&o.stderr)
            );
            certs.push(cert);
        }
    }
    let file_serials: BTreeSet<String> = certs.iter().map(|c| openssl_serial(c)).collect();
    assert_eq!(
        file_serials.len(),
        10,
        "duplicate serials between concurrent issuers"
    );
    let listed: BTreeSet<String> = list_serials(&ca).iter().map(|x| norm_serial(x)).collect();
    assert_eq!(listed, file_serials, "issue list vs issued files");
    openssl_verify(&ca.join("ca.pem"), None, &certs);
}

// ---------------------------------------------------------------------------------------
// 7. Refusals

#[test]
fn refusals_have_the_right_exit_codes() {
    common::require_openssl();
    let t = common::tempdir();
    let p = |n: &str| s(&t.path().join(n));
    let ca = new_ca(
        t.path(),
        "ca",
        "CN=Refusing CA",
        "ecdsa-p256",
        &["--days", "10", "--now", "2030-01-01T00:00:00Z"],
    );
    let cas = s(&ca);
    let count = || list(&ca).len();
    let fresh = |tag: &str| -> Vec<String> {
        vec![
            "issue".into(),
            "cert".into(),
            "--ca".into(),
            cas.clone(),
            "--subject".into(),
            "CN=r.example".into(),
            "--san".into(),
            "DNS:r.example".into(),
            "--key-out".into(),
            p(&format!("{tag}.key")),
            "-o".into(),
            p(&format!("{tag}.pem")),
        ]
    };
    let run = |args: Vec<String>| pkit_run(&args);
    let with = |mut v: Vec<String>, more: &[&str]| {
        v.extend(more.iter().map(|x| x.to_string()));
        v
    };

    // Control: inside the CA's validity it works.
    let r = run(with(
        fresh("ok"),
        &["--now", "2030-01-05T00:00:00Z", "--days", "3"],
    ));
    assert_eq!(r.code, Some(0), "control: {}", r.describe());
    assert_eq!(count(), 1);

    // Expired CA, and a CA not yet valid: exit 1.
    let r = run(with(fresh("exp"), &["--now", "2030-02-01T00:00:00Z"]));
    refused(&r, 1, &["expired"], "issuing from an expired CA");
    assert!(!t.path().join("exp.pem").exists() && !t.path().join("exp.key").exists());
    let r = run(with(fresh("early"), &["--now", "2029-12-01T00:00:00Z"]));
    refused(&r, 1, &[], "issuing from a CA that is not yet valid");
    let r = pk(&[
        "issue",
        "batch",
        "--ca",
        &cas,
        "--count",
        "2",
        "--out-dir",
        &p("bexp"),
        "--now",
        "2030-02-01T00:00:00Z",
    ]);
    refused(&r, 1, &["expired"], "batch from an expired CA");
    let r = pk(&[
        "issue",
        "ca",
        "--dir",
        &p("subexp"),
        "--subject",
        "CN=Sub",
        "--parent",
        &cas,
        "--now",
        "2030-02-01T00:00:00Z",
    ]);
    refused(&r, 1, &["expired"], "intermediate under an expired CA");
    assert!(!t.path().join("subexp").join("ca.pem").exists());
    assert_eq!(count(), 1, "refusals issued certificates");

    // Encrypted CA key: wrong password and no password are exit 3.
    let pca = new_ca(
        t.path(),
        "pca",
        "CN=Password CA",
        "ecdsa-p256",
        &["--passout", "pass:right"],
    );
    let pcas = s(&pca);
    let pfresh = |tag: &str| -> Vec<String> {
        vec![
            "issue".into(),
            "cert".into(),
            "--ca".into(),
            pcas.clone(),
            "--subject".into(),
            "CN=r.example".into(),
            "--san".into(),
            "DNS:r.example".into(),
            "--key-out".into(),
            p(&format!("{tag}.key")),
            "-o".into(),
            p(&format!("{tag}.pem")),
        ]
    };
    let r = run(with(pfresh("wrong"), &["--passin", "pass:wrong"]));
    refused(&r, 3, &["password"], "wrong CA key password");
    let r = run(pfresh("nopw"));
    refused(&r, 3, &["password"], "missing CA key password");
    let o = common::pkit()
        .args(with(pfresh("envpw"), &["--passin", "env:PKIT_TEST_CA_PW"]))
        .env("PKIT_TEST_CA_PW", "right")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "env: password: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::write(t.path().join("pw.txt"), "right\n").unwrap();
    let r = run(with(
        pfresh("filepw"),
        &["--passin", &format!("file:{}", p("pw.txt"))],
    ));
    assert_eq!(r.code, Some(0), "file: password: {}", r.describe());
    assert_eq!(list(&pca).len(), 2);

    // Usage errors: exit 2, naming the bad part.
    let good = new_ca(t.path(), "good", "CN=Good CA", "ecdsa-p256", &[]);
    let goods = s(&good);
    let gfresh = |tag: &str, subject: &str| -> Vec<String> {
        vec![
            "issue".into(),
            "cert".into(),
            "--ca".into(),
            goods.clone(),
            "--subject".into(),
            subject.into(),
            "--key-out".into(),
            p(&format!("{tag}.key")),
            "-o".into(),
            p(&format!("{tag}.pem")),
        ]
    };
    let r = run(with(gfresh("san", "CN=x"), &["--san", "foo:bar"]));
    refused(&r, 2, &["foo"], "--san foo:bar");
    let r = run(gfresh("rdn", "CN=a,bogus"));
    refused(&r, 2, &["bogus"], "--subject CN=a,bogus");
    let r = run(gfresh("rdn2", "CN=a,bogus=1"));
    refused(
        &r,
        2,
        &["bogus"],
        "--subject CN=a,bogus=1 (unknown attribute type)",
    );
    let r = pk(&[
        "issue",
        "csr",
        "--key",
        &p("ok.key"),
        "--subject",
        "CN=x",
        "--san",
        "foo:bar",
        "-o",
        &p("x.csr"),
    ]);
    refused(&r, 2, &["foo"], "issue csr --san foo:bar");

    // CSRs: garbage is exit 3; a corrupted signature is exit 1.
    let garbage: Vec<u8> = (0..300u32).map(|i| (i * 37 + 11) as u8).collect();
    std::fs::write(t.path().join("garbage.csr"), &garbage).unwrap();
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &goods,
        "--csr",
        &p("garbage.csr"),
        "-o",
        &p("g.pem"),
    ]);
    refused(&r, 3, &["garbage.csr"], "garbage CSR");
    std::fs::write(
        t.path().join("text.csr"),
        "this is not a certificate request\n",
    )
    .unwrap();
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &goods,
        "--csr",
        &p("text.csr"),
        "-o",
        &p("g.pem"),
    ]);
    refused(&r, 3, &["text.csr"], "text CSR");
    let (code, out) = ossl(&[
        "req",
        "-new",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        &p("c.key"),
        "-subj",
        "/CN=c.example",
        "-outform",
        "DER",
        "-out",
        &p("c.der"),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let mut der = std::fs::read(t.path().join("c.der")).unwrap();
    let last = der.len() - 1; // the last byte of the ECDSA signature's s
    der[last] ^= 0x01;
    std::fs::write(t.path().join("bad.der"), &der).unwrap();
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &goods,
        "--csr",
        &p("bad.der"),
        "-o",
        &p("b.pem"),
    ]);
    refused(&r, 1, &["signature"], "CSR with a corrupted signature");
    assert!(!t.path().join("b.pem").exists());
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &goods,
        "--csr",
        &p("c.der"),
        "--san",
        "DNS:c.example",
        "-o",
        &p("b.pem"),
    ]);
    assert_eq!(
        r.code,
        Some(0),
        "control: the uncorrupted CSR: {}",
        r.describe()
    );
    assert_eq!(list(&good).len(), 1, "refused CSRs issued certificates");

    // Output exists: exit 4, the file unchanged, no key written, nothing issued.
    std::fs::write(t.path().join("taken.pem"), "precious\n").unwrap();
    let r = pk(&[
        "issue",
        "cert",
        "--san",
        "DNS:leaf.example",
        "--ca",
        &goods,
        "--subject",
        "CN=x",
        "--key-out",
        &p("taken.key"),
        "-o",
        &p("taken.pem"),
    ]);
    refused(&r, 4, &["taken.pem", "exists"], "-o over an existing file");
    assert_eq!(
        std::fs::read_to_string(t.path().join("taken.pem")).unwrap(),
        "precious\n"
    );
    assert!(
        !t.path().join("taken.key").exists(),
        "the key was written anyway"
    );
    std::fs::write(t.path().join("taken2.key"), "precious key\n").unwrap();
    let r = pk(&[
        "issue",
        "cert",
        "--san",
        "DNS:leaf.example",
        "--ca",
        &goods,
        "--subject",
        "CN=x",
        "--key-out",
        &p("taken2.key"),
        "-o",
        &p("taken2.pem"),
    ]);
    refused(
        &r,
        4,
        &["taken2.key", "exists"],
        "--key-out over an existing file",
    );
    assert_eq!(
        std::fs::read_to_string(t.path().join("taken2.key")).unwrap(),
        "precious key\n"
    );
    assert!(!t.path().join("taken2.pem").exists());
    assert_eq!(list(&good).len(), 1, "refused outputs issued certificates");
    // --force overwrites.
    let r = pk(&[
        "issue",
        "cert",
        "--san",
        "DNS:leaf.example",
        "--ca",
        &goods,
        "--subject",
        "CN=x",
        "--key-out",
        &p("taken.key"),
        "-o",
        &p("taken.pem"),
        "--force",
    ]);
    assert_eq!(r.code, Some(0), "--force: {}", r.describe());
    assert!(std::fs::read_to_string(t.path().join("taken.pem"))
        .unwrap()
        .starts_with("-----BEGIN CERTIFICATE-----"));

    // An output in a directory that does not exist is refused before anything is signed
    // or recorded, and no key is left behind: writing only after signing would leave a
    // valid certificate on record that went nowhere.
    let issued_before = list(&good).len();
    for (key_out, out, missing) in [
        ("nokey.key", "nodir/x.pem", "nodir"),
        ("nodir2/x.key", "x2.pem", "nodir2"),
    ] {
        let r = pk(&[
            "issue",
            "cert",
            "--san",
            "DNS:leaf.example",
            "--ca",
            &goods,
            "--subject",
            "CN=x",
            "--key-out",
            &p(key_out),
            "-o",
            &p(out),
        ]);
        refused(
            &r,
            4,
            &[missing, "no such directory"],
            "an output in a missing directory",
        );
        assert!(
            !t.path().join(key_out).exists(),
            "a key was left at {key_out}"
        );
    }
    assert_eq!(
        list(&good).len(),
        issued_before,
        "a refused output was issued"
    );
    // Nor is one that could only fail after signing: a dangling link (which the writer
    // will not follow), a directory (even with --force), a name that ends in a slash.
    std::os::unix::fs::symlink(t.path().join("nowhere"), t.path().join("dangling")).unwrap();
    std::fs::create_dir(t.path().join("adir")).unwrap();
    for (out, force, needle) in [
        ("dangling", false, "already exists"),
        ("adir", true, "is a directory"),
        ("newdir/", false, "is a directory"),
    ] {
        let (o, k) = (p(out), p("left.key"));
        let mut args = vec![
            "issue",
            "cert",
            "--san",
            "DNS:leaf.example",
            "--ca",
            &goods,
            "--subject",
            "CN=x",
            "--key-out",
            &k,
            "-o",
            &o,
        ];
        if force {
            args.push("--force");
        }
        refused(&pk(&args), 4, &[needle], out);
        assert!(!t.path().join("left.key").exists(), "{out}: a key was left");
    }
    // A --template that is not text (a DER certificate given by mistake): input that does
    // not parse (3), with where it stops being UTF-8, not an I/O failure.
    std::fs::write(t.path().join("t.der"), [0x30, 0x82, 0xff, 0x10]).unwrap();
    let r = pk(&[
        "issue",
        "cert",
        "--san",
        "DNS:leaf.example",
        "--ca",
        &goods,
        "--subject",
        "CN=x",
        "--template",
        &p("t.der"),
        "--key-out",
        &p("t.key"),
        "-o",
        &p("t.pem"),
    ]);
    refused(
        &r,
        3,
        &["t.der: offset 1", "JSON template"],
        "a binary --template",
    );
    assert_eq!(
        list(&good).len(),
        issued_before,
        "a refused output was issued"
    );

    // issue ca into an existing CA: exit 4, the CA untouched.
    let before: Vec<Vec<u8>> = ["ca.pem", "ca.key"]
        .iter()
        .map(|f| std::fs::read(good.join(f)).unwrap())
        .collect();
    let r = pk(&["issue", "ca", "--dir", &goods, "--subject", "CN=Usurper"]);
    refused(&r, 4, &["exists"], "issue ca into an existing CA dir");
    let after: Vec<Vec<u8>> = ["ca.pem", "ca.key"]
        .iter()
        .map(|f| std::fs::read(good.join(f)).unwrap())
        .collect();
    assert_eq!(before, after, "the existing CA was modified");
    assert_eq!(list(&good).len(), 2);

    // Export of an unknown serial: exit 1, naming it.
    let r = pk(&["issue", "export", "--ca", &goods, "0badc0ffee"]);
    refused(&r, 1, &["0badc0ffee"], "export of an unknown serial");
    let r = pk(&["issue", "export", "--ca", &goods, "xyz"]);
    refused(&r, 2, &["xyz"], "export of a non-hex serial");
}

// ---------------------------------------------------------------------------------------
// 8. Validity

#[test]
fn validity_days_clipping_and_generalized_time() {
    common::require_openssl();
    let t = common::tempdir();
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;

    // --days 30 on the real clock: exactly 30 days.
    let ca = new_ca(t.path(), "ca", "CN=Validity CA", "ecdsa-p256", &[]);
    let (leaf, _) = new_leaf(
        &ca,
        t.path(),
        "d30",
        &["--subject", "CN=d30.example", "--days", "30"],
    );
    let info = py_info1(&leaf);
    let (nb, na) = (
        info["not_before"].as_i64().unwrap(),
        info["not_after"].as_i64().unwrap(),
    );
    // Counted as the CA/Browser Forum counts (BR §1.6.4): the last second is included.
    assert_eq!(na - nb, 30 * 86_400 - 1, "--days 30: {info}");
    assert!(
        (nb - now_s).abs() < 3600,
        "not_before {nb} is not about now ({now_s})"
    );
    // pkit's own view agrees.
    let r = pk_ok(&["parse", &s(&leaf), "-f", "json"]);
    let v = &common::json_items(&r)[0]["validity"];
    assert_eq!(unix(v["not_before"].as_str().unwrap()), nb, "{v}");
    assert_eq!(unix(v["not_after"].as_str().unwrap()), na, "{v}");
    // The CA defaults to 3650 days.
    let cinfo = py_info1(&ca.join("ca.pem"));
    assert_eq!(
        cinfo["not_after"].as_i64().unwrap() - cinfo["not_before"].as_i64().unwrap(),
        3650 * 86_400 - 1
    );

    // With a fixed clock: exact times.
    let short = new_ca(
        t.path(),
        "short",
        "CN=Short CA",
        "ecdsa-p256",
        &["--days", "10", "--now", "2030-01-01T00:00:00Z"],
    );
    let (leaf, _) = new_leaf(
        &short,
        t.path(),
        "fixed",
        &[
            "--subject",
            "CN=f.example",
            "--days",
            "3",
            "--now",
            "2030-01-02T00:00:00Z",
        ],
    );
    let info = py_info1(&leaf);
    assert_eq!(
        info["not_before"].as_i64().unwrap(),
        unix("2030-01-02T00:00:00Z"),
        "{info}"
    );
    assert_eq!(
        info["not_after"].as_i64().unwrap(),
        unix("2030-01-04T23:59:59Z"),
        "{info}"
    );
    let ca_after = unix("2030-01-10T23:59:59Z");
    assert_eq!(
        py_info1(&short.join("ca.pem"))["not_after"]
            .as_i64()
            .unwrap(),
        ca_after
    );

    // Longer than the CA: refused (exit 2, nothing recorded) unless --clip-validity,
    // which cuts it to the CA's not_after (with --days and --not-after).
    let before = list(&short).len();
    let r = pk(&[
        "issue",
        "cert",
        "--ca",
        &s(&short),
        "--subject",
        "CN=l.example",
        "--san",
        "DNS:l.example",
        "--key-out",
        &s(&t.path().join("refused.key")),
        "-o",
        &s(&t.path().join("refused.pem")),
        "--days",
        "365",
        "--now",
        "2030-01-02T00:00:00Z",
    ]);
    refused(
        &r,
        2,
        &["reaches outside the CA's", "--clip-validity"],
        "--days 365",
    );
    assert_eq!(
        list(&short).len(),
        before,
        "a refused certificate was recorded"
    );
    assert!(!t.path().join("refused.pem").exists() && !t.path().join("refused.key").exists());
    let (leaf, _) = new_leaf(
        &short,
        t.path(),
        "long",
        &[
            "--subject",
            "CN=l.example",
            "--days",
            "365",
            "--clip-validity",
            "--now",
            "2030-01-02T00:00:00Z",
        ],
    );
    let info = py_info1(&leaf);
    assert_eq!(
        info["not_after"].as_i64().unwrap(),
        ca_after,
        "--days 365 not clipped: {info}"
    );
    assert_eq!(
        info["not_before"].as_i64().unwrap(),
        unix("2030-01-02T00:00:00Z"),
        "{info}"
    );
    let (leaf2, _) = new_leaf(
        &short,
        t.path(),
        "long2",
        &[
            "--subject",
            "CN=l.example",
            "--not-after",
            "2031-06-01T00:00:00Z",
            "--clip-validity",
            "--now",
            "2030-01-02T00:00:00Z",
        ],
    );
    assert_eq!(
        py_info1(&leaf2)["not_after"].as_i64().unwrap(),
        ca_after,
        "--not-after not clipped"
    );
    let (_, out) = ossl(&[
        "verify",
        "-attime",
        &unix("2030-01-10T00:00:00Z").to_string(),
        "-CAfile",
        &s(&short.join("ca.pem")),
        &s(&leaf),
    ]);
    assert!(out.contains(": OK"), "clipped leaf at 2030-01-10: {out}");
    // An intermediate is clipped the same way.
    let int = new_ca(
        t.path(),
        "int",
        "CN=Short Int",
        "ecdsa-p256",
        &[
            "--parent",
            &s(&short),
            "--clip-validity",
            "--now",
            "2030-01-02T00:00:00Z",
        ],
    );
    assert_eq!(
        py_info1(&int.join("ca.pem"))["not_after"].as_i64().unwrap(),
        ca_after,
        "intermediate not clipped"
    );

    // After 2049: GeneralizedTime (RFC 5280 4.1.2.5); through 2049: UTCTime.
    let long = new_ca(
        t.path(),
        "long",
        "CN=Forty Years",
        "ecdsa-p256",
        &["--days", "14610", "--now", "2025-01-01T00:00:00Z"],
    );
    let asn1 = |cert: &Path| -> Vec<String> {
        let (code, out) = ossl(&["asn1parse", "-in", &s(cert)]);
        assert_eq!(code, Some(0), "{out}");
        out.lines()
            .filter(|l| l.contains("UTCTIME") || l.contains("GENERALIZEDTIME"))
            .map(|l| {
                l.split("prim:")
                    .nth(1)
                    .unwrap_or(l)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(
        asn1(&long.join("ca.pem")),
        ["UTCTIME :250101000000Z", "GENERALIZEDTIME :20641231235959Z"],
        "the 40-year CA's validity"
    );
    let cases = [
        ("2055-01-01T00:00:00Z", "GENERALIZEDTIME :20550101000000Z"),
        ("2050-01-01T00:00:00Z", "GENERALIZEDTIME :20500101000000Z"),
        ("2049-12-31T23:59:59Z", "UTCTIME :491231235959Z"),
    ];
    for (i, (not_after, want)) in cases.iter().enumerate() {
        let (leaf, _) = new_leaf(
            &long,
            t.path(),
            &format!("gt{i}"),
            &[
                "--subject",
                "CN=g.example",
                "--not-after",
                not_after,
                "--now",
                "2025-06-01T00:00:00Z",
                // Decades of validity, to reach GeneralizedTime: past what the lint gate
                // lets a TLS certificate have.
                "--lint",
                "off",
            ],
        );
        assert_eq!(
            asn1(&leaf),
            ["UTCTIME :250601000000Z", *want],
            "--not-after {not_after}"
        );
        assert_eq!(
            py_info1(&leaf)["not_after"].as_i64().unwrap(),
            unix(not_after)
        );
        let r = pk_ok(&["parse", &s(&leaf), "-f", "asn1"]);
        let kind = if want.starts_with("GENERALIZED") {
            "GeneralizedTime"
        } else {
            "UTCTime"
        };
        assert!(
            r.stdout_str().contains(kind),
            "pkit parse -f asn1 lacks {kind}"
        );
    }
    let (leaf, _) = new_leaf(
        &long,
        t.path(),
        "gtv",
        &[
            "--subject",
            "CN=g.example",
            "--not-after",
            "2055-01-01T00:00:00Z",
            "--now",
            "2025-06-01T00:00:00Z",
            "--lint",
            "off",
        ],
    );
    let (_, out) = ossl(&[
        "verify",
        "-attime",
        &unix("2054-12-31T00:00:00Z").to_string(),
        "-CAfile",
        &s(&long.join("ca.pem")),
        &s(&leaf),
    ]);
    assert!(
        out.contains(": OK"),
        "leaf valid until 2055, verified in 2054: {out}"
    );
    let (_, out) = ossl(&[
        "verify",
        "-attime",
        &unix("2055-01-02T00:00:00Z").to_string(),
        "-CAfile",
        &s(&long.join("ca.pem")),
        &s(&leaf),
    ]);
    assert!(
        out.contains("expired"),
        "leaf valid until 2055, verified in 2055-01-02: {out}"
    );
}

/// A batch whose report cannot be written (stdout on a full disk) still issues and
/// delivers every certificate, then says what failed and exits 4: the report is the only
/// list of what was issued, so losing it silently is not an option.
#[test]
fn batch_report_on_a_full_disk_exits_4() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        panic!("/dev/full is missing: this test needs a Linux system");
    }
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Full Disk CA", "ecdsa-p256", &[]);
    let out = t.path().join("out");
    let stdout = std::fs::OpenOptions::new().write(true).open(full).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pkit"))
        .args([
            "issue",
            "batch",
            "--ca",
            &s(&ca),
            "--count",
            "20",
            "--out-dir",
            &s(&out),
        ])
        .stdin(Stdio::null())
        .stdout(stdout)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "stderr: {err}");
    assert!(
        err.contains("stdout (the batch report)") && err.contains("No space left"),
        "stderr: {err}"
    );
    assert!(!err.contains("panicked"), "stderr: {err}");
    // Every certificate was committed and delivered.
    assert_eq!(list(&ca).len(), 20);
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 40);
}

/// A second batch into a directory that holds the first one's files is refused before
/// anything is issued (they may be the only copies of keys of valid certificates);
/// `--force` replaces them. A directory the run made is removed when the CA refuses the
/// batch, so nothing half-made is left.
#[test]
fn batch_refuses_to_overwrite_an_earlier_batch() {
    let t = common::tempdir();
    let ca = new_ca(t.path(), "ca", "CN=Batch CA", "ecdsa-p256", &[]);
    let out = t.path().join("out");
    let batch = |extra: &[&str]| {
        let mut args = vec![
            "issue",
            "batch",
            "--ca",
            ca.to_str().unwrap(),
            "--count",
            "3",
        ];
        args.extend_from_slice(extra);
        pk(&args)
    };
    let first = batch(&["--out-dir", out.to_str().unwrap()]);
    assert_eq!(first.code, Some(0), "{}", first.describe());
    let key1 = std::fs::read(out.join("1.key")).unwrap();
    let r = batch(&["--out-dir", out.to_str().unwrap()]);
    refused(
        &r,
        4,
        &["1.pem", "5 more", "--force"],
        "a batch over an earlier one",
    );
    assert_eq!(
        std::fs::read(out.join("1.key")).unwrap(),
        key1,
        "a key was overwritten"
    );
    assert_eq!(list(&ca).len(), 3, "a refused batch issued certificates");
    let r = batch(&["--out-dir", out.to_str().unwrap(), "--force"]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_ne!(
        std::fs::read(out.join("1.key")).unwrap(),
        key1,
        "--force kept the old key"
    );
    // Other names in the directory are no obstacle.
    let other = t.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine\n").unwrap();
    let r = batch(&["--out-dir", other.to_str().unwrap()]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    // Refused by the CA (a name outside its constraints): no directory made.
    let nc = new_ca(
        t.path(),
        "nc",
        "CN=NC",
        "ecdsa-p256",
        &["--permit", "DNS:example.com"],
    );
    let made = t.path().join("made");
    let r = pk(&[
        "issue",
        "batch",
        "--ca",
        nc.to_str().unwrap(),
        "--count",
        "2",
        "--out-dir",
        made.to_str().unwrap(),
    ]);
    refused(
        &r,
        1,
        &["name-constraints"],
        "a batch outside the CA's constraints",
    );
    assert!(
        !made.exists(),
        "the refused batch left its output directory"
    );
}
