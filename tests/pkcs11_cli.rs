//! CA keys in PKCS#11 tokens, through the real binary, on the two real modules: a SoftHSM2
//! token made with `softhsm2-util` and an NSS database made with `certutil`, each in a
//! temporary directory. What the token signs is checked by `openssl` and by pyca
//! `cryptography`; the key attributes by OpenSC's `pkcs11-tool`.

mod common;

use common::{ossl, s, Run};
use std::path::{Path, PathBuf};
use std::process::Command;

const SOFTHSM: &str = "/usr/lib/softhsm/libsofthsm2.so";
const SOFTOKN: &str = "/usr/lib/x86_64-linux-gnu/libsoftokn3.so";
const PIN: &str = "1234";

/// The tools this file needs, or a note (a failure under CI=true) saying why it skips.
fn tools() -> bool {
    for (tool, package) in [
        ("softhsm2-util", "softhsm2"),
        ("certutil", "libnss3-tools"),
        ("pkcs11-tool", "opensc"),
    ] {
        let found = Command::new(tool).arg("--help").output().is_ok();
        if !found {
            common::missing(
                "the PKCS#11 tests",
                &format!("{tool} is not installed"),
                &format!("apt-get install {package} (scripts/test does)"),
            );
            return false;
        }
    }
    for m in [SOFTHSM, SOFTOKN] {
        if !Path::new(m).is_file() {
            common::missing(
                "the PKCS#11 tests",
                &format!("{m} is missing"),
                "apt-get install softhsm2 libnss3",
            );
            return false;
        }
    }
    true
}

/// A SoftHSM2 configuration of its own and a token labelled `label` in it.
struct SoftHsm {
    _dir: tempfile::TempDir,
    dir: PathBuf,
    conf: PathBuf,
}

impl SoftHsm {
    fn new(label: &str) -> SoftHsm {
        let t = common::tempdir();
        let dir = t.path().to_path_buf();
        std::fs::create_dir_all(dir.join("tokens")).unwrap();
        let conf = dir.join("softhsm2.conf");
        std::fs::write(
            &conf,
            format!(
                "directories.tokendir = {}\nobjectstore.backend = file\nlog.level = ERROR\n",
                dir.join("tokens").display()
            ),
        )
        .unwrap();
        let h = SoftHsm { _dir: t, dir, conf };
        let out = h
            .cmd("softhsm2-util")
            .args([
                "--init-token",
                "--free",
                "--label",
                label,
                "--pin",
                PIN,
                "--so-pin",
                "5678",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        h
    }

    fn cmd(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SOFTHSM2_CONF", &self.conf).env("NO_COLOR", "1");
        c
    }

    /// pkit with this token's configuration.
    fn pk(&self, args: &[&str]) -> Run {
        run(self.cmd(common::pkit_bin().to_str().unwrap()).args(args))
    }

    fn pk_ok(&self, args: &[&str]) -> Run {
        let r = self.pk(args);
        assert_eq!(r.code, Some(0), "pkit {args:?}: {}", r.describe());
        r
    }

    fn uri(&self, token: &str, object: &str) -> String {
        format!("pkcs11:token={token};object={object}?module-path={SOFTHSM}")
    }
}

fn run(c: &mut Command) -> Run {
    let out = c.output().expect("start pkit");
    Run {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: out.stderr,
        timed_out: false,
    }
}

/// A CA made in `dir` with the token key `uri`, a leaf, a CRL and an OCSP response
/// signed through the token; each checked by OpenSSL (classic algorithms) and pyca.
fn ca_in_token(pk: &dyn Fn(&[&str]) -> Run, dir: &Path, alg: &str, uri: &str, pin: &str) {
    let ok = |args: &[&str]| {
        let r = pk(args);
        assert_eq!(r.code, Some(0), "{alg}: pkit {args:?}: {}", r.describe());
        r
    };
    let ca = dir.join(format!("ca-{alg}"));
    let public = ok(&["key", "gen", "--alg", alg, "-o", uri, "--pin", pin]);
    assert!(public
        .stdout_str()
        .starts_with("-----BEGIN PUBLIC KEY-----"));
    ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&ca),
        "--key",
        uri,
        "--pin",
        pin,
        "--subject",
        &format!("CN=Token CA {alg}"),
    ]);
    // The directory holds the URI, not a key, and no PIN.
    let key_file = std::fs::read_to_string(ca.join("ca.key")).unwrap();
    assert!(
        key_file.starts_with("pkcs11:") && !key_file.contains(PIN),
        "{key_file}"
    );
    // The CA certificate carries the token's public key.
    let spki = ok(&["key", "pub", uri, "--pin", pin]).stdout_str();
    assert_eq!(spki, public.stdout_str(), "{alg}: key pub through the URI");

    let leaf = dir.join(format!("leaf-{alg}.pem"));
    ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--pin",
        pin,
        "--subject",
        "CN=leaf.example",
        "--san",
        "dns:leaf.example",
        "--key-out",
        &s(&dir.join(format!("leaf-{alg}.key"))),
        "-o",
        &s(&leaf),
    ]);
    let crl = dir.join(format!("{alg}.crl"));
    ok(&["crl", "gen", "--ca", &s(&ca), "--pin", pin, "-o", &s(&crl)]);
    let req = dir.join(format!("{alg}.req"));
    let resp = dir.join(format!("{alg}.resp"));
    ok(&[
        "ocsp",
        "request",
        "--cert",
        &s(&leaf),
        "--issuer",
        &s(&ca.join("ca.pem")),
        "-o",
        &s(&req),
    ]);
    ok(&[
        "ocsp",
        "respond",
        "--ca",
        &s(&ca),
        "--pin",
        pin,
        "--request",
        &s(&req),
        "-o",
        &s(&resp),
    ]);

    let ca_pem = s(&ca.join("ca.pem"));
    if common::is_classic(alg) {
        common::require_openssl();
        let (code, out) = ossl(&["verify", "-CAfile", &ca_pem, &s(&leaf)]);
        assert_eq!(code, Some(0), "{alg}: openssl verify: {out}");
        let (_, out) = ossl(&["crl", "-in", &s(&crl), "-CAfile", &ca_pem, "-noout"]);
        assert!(out.contains("verify OK"), "{alg}: openssl crl: {out}");
        let (code, out) = ossl(&[
            "ocsp",
            "-respin",
            &s(&resp),
            "-CAfile",
            &ca_pem,
            "-issuer",
            &ca_pem,
            "-cert",
            &s(&leaf),
        ]);
        assert!(
            code == Some(0) && out.contains("Response verify OK") && out.contains(": good"),
            "{alg}: openssl ocsp: {out}"
        );
    }
    common::require_python_cryptography();
    let py = common::run_with(
        "python3",
        &["-c", PY_CHECK, &ca_pem, &s(&leaf), &s(&crl), &s(&resp)],
        None,
        std::time::Duration::from_secs(120),
    );
    assert_eq!(py.code, Some(0), "{alg}: pyca: {}", py.describe());
    assert!(py.stdout_str().contains("OK"), "{alg}: {}", py.stdout_str());
}

/// pyca checks the CA's self-signature, the leaf, the CRL and the OCSP response.
const PY_CHECK: &str = r#"
import sys
from cryptography import x509
from cryptography.x509 import ocsp
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
ca = x509.load_pem_x509_certificate(open(sys.argv[1], 'rb').read())
leaf = x509.load_pem_x509_certificate(open(sys.argv[2], 'rb').read())
ca.verify_directly_issued_by(ca)
leaf.verify_directly_issued_by(ca)
crl = x509.load_pem_x509_crl(open(sys.argv[3], 'rb').read())
assert crl.is_signature_valid(ca.public_key()), 'CRL signature'
resp = ocsp.load_der_ocsp_response(open(sys.argv[4], 'rb').read())
key = ca.public_key()
if isinstance(key, rsa.RSAPublicKey):
    key.verify(resp.signature, resp.tbs_response_bytes, padding.PKCS1v15(), resp.signature_hash_algorithm)
elif isinstance(key, ec.EllipticCurvePublicKey):
    key.verify(resp.signature, resp.tbs_response_bytes, ec.ECDSA(resp.signature_hash_algorithm))
else:
    key.verify(resp.signature, resp.tbs_response_bytes)
assert resp.certificate_status == ocsp.OCSPCertStatus.GOOD
print('OK')
"#;

#[test]
fn softhsm_holds_ca_keys_for_every_algorithm_it_offers() {
    if !tools() {
        return;
    }
    let h = SoftHsm::new("CA");
    let pk = |a: &[&str]| h.pk(a);
    for alg in ["ecdsa-p256", "ecdsa-p384", "ed25519", "rsa2048"] {
        ca_in_token(
            &pk,
            &h.dir,
            alg,
            &h.uri("CA", &format!("key-{alg}")),
            &format!("pass:{PIN}"),
        );
    }
    // The keys are sensitive and never extractable, as the module reports them.
    let out = h
        .cmd("pkcs11-tool")
        .args([
            "--module",
            SOFTHSM,
            "--token-label",
            "CA",
            "--login",
            "--pin",
            PIN,
            "--list-objects",
            "--type",
            "privkey",
        ])
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&out.stdout);
    let keys = listing.matches("Private Key Object").count();
    assert_eq!(keys, 4, "{listing}");
    assert_eq!(listing.matches("never extractable").count(), 4, "{listing}");
    assert_eq!(listing.matches("always sensitive").count(), 4, "{listing}");
    // ML-DSA: neither module has the PKCS#11 3.2 mechanisms.
    let r = h.pk(&[
        "key",
        "gen",
        "--alg",
        "ml-dsa-65",
        "-o",
        &h.uri("CA", "pq"),
        "--pin",
        &format!("pass:{PIN}"),
    ]);
    common::refused(&r, 5, &["ML-DSA"], "ML-DSA in SoftHSM2");
}

#[test]
fn nss_softoken_holds_ca_keys() {
    if !tools() {
        return;
    }
    let t = common::tempdir();
    let db = t.path().join("nssdb");
    std::fs::create_dir_all(&db).unwrap();
    let pwfile = t.path().join("pw");
    std::fs::write(&pwfile, "nss-secret\n").unwrap();
    let out = Command::new("certutil")
        .args([
            "-N",
            "-d",
            &format!("sql:{}", db.display()),
            "-f",
            &s(&pwfile),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "certutil: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pk = |a: &[&str]| run(Command::new(common::pkit_bin()).args(a));
    let uri = |object: &str| {
        format!(
            "pkcs11:token=NSS%20Certificate%20DB;object={object}?module-path={SOFTOKN}&x-nss-db={}",
            db.display()
        )
    };
    let pin = format!("file:{}", pwfile.display());
    for alg in ["ecdsa-p256", "ecdsa-p384", "rsa2048"] {
        ca_in_token(&pk, t.path(), alg, &uri(&format!("key-{alg}")), &pin);
    }
    // The keys are in the database, as NSS's own tool lists them.
    let out = Command::new("certutil")
        .args([
            "-K",
            "-d",
            &format!("sql:{}", db.display()),
            "-f",
            &s(&pwfile),
        ])
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&out.stdout);
    for alg in ["ecdsa-p256", "ecdsa-p384", "rsa2048"] {
        assert!(listing.contains(&format!("key-{alg}")), "{listing}");
    }
    // The benchmarks run on this database too, logged into with its password.
    let r = pk(&[
        "bench",
        "crypto",
        "--backend",
        "nss",
        "--nss-db",
        &s(&db),
        "--pin",
        &pin,
        "--algos",
        "ecdsa-p256",
        "--min-time",
        "0.02s",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(
        r.stdout_str().contains("| ecdsa-p256 | sign |"),
        "{}",
        r.stdout_str()
    );
    let r = pk(&[
        "bench",
        "crypto",
        "--backend",
        "nss",
        "--nss-db",
        "/nonexistent/nssdb",
        "--algos",
        "ecdsa-p256",
    ]);
    common::refused(
        &r,
        4,
        &["/nonexistent/nssdb", "no such directory"],
        "a missing NSS database",
    );
    // Debian 12's NSS has no CKM_EDDSA: exit 5 naming the module and the mechanism.
    let r = pk(&[
        "key",
        "gen",
        "--alg",
        "ed25519",
        "-o",
        &uri("ed"),
        "--pin",
        &pin,
    ]);
    common::refused(
        &r,
        5,
        &["softokn3", "CKM_EC_EDWARDS_KEY_PAIR_GEN"],
        "Ed25519 in NSS",
    );
}

#[test]
fn a_batch_signed_in_the_token_verifies() {
    if !tools() {
        return;
    }
    let h = SoftHsm::new("Batch");
    let uri = h.uri("Batch", "ca");
    let pin = format!("pass:{PIN}");
    let ca = h.dir.join("ca");
    h.pk_ok(&[
        "key",
        "gen",
        "--alg",
        "ecdsa-p256",
        "-o",
        &uri,
        "--pin",
        &pin,
    ]);
    h.pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&ca),
        "--key",
        &uri,
        "--pin",
        &pin,
        "--subject",
        "CN=Batch CA",
    ]);
    let out = h.dir.join("out");
    let r = h.pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--pin",
        &pin,
        "--count",
        "1000",
        "--out-dir",
        &s(&out),
        "--measure-limit",
    ]);
    let report = r.stderr_str();
    assert!(
        report.contains("pkit: created 1000 certificates (")
            && report.contains("CA signatures alone"),
        "{report}"
    );
    for line in report.lines() {
        common::note(&format!("issue batch with a SoftHSM2 CA: {line}"));
    }
    let leaves: Vec<String> = (1..=1000)
        .map(|n| s(&out.join(format!("{n}.pem"))))
        .collect();
    common::require_openssl();
    let mut args = vec!["verify", "-CAfile"];
    let ca_pem = s(&ca.join("ca.pem"));
    args.push(&ca_pem);
    args.extend(leaves.iter().map(String::as_str));
    let (code, text) = ossl(&args);
    assert_eq!(
        code,
        Some(0),
        "{}",
        text.lines().find(|l| !l.ends_with(": OK")).unwrap_or("")
    );
    assert_eq!(text.lines().filter(|l| l.ends_with(": OK")).count(), 1000);
}

#[test]
fn token_failures_are_one_line_with_their_exit_codes_and_never_the_pin() {
    if !tools() {
        return;
    }
    let h = SoftHsm::new("Bad");
    let pin = format!("pass:{PIN}");
    let good = h.uri("Bad", "ca");
    h.pk_ok(&[
        "key",
        "gen",
        "--alg",
        "ecdsa-p256",
        "-o",
        &good,
        "--pin",
        &pin,
    ]);
    let ca = h.dir.join("ca");
    h.pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&ca),
        "--key",
        &good,
        "--pin",
        &pin,
        "--subject",
        "CN=Bad CA",
    ]);
    let refused = |r: &Run, code: i32, needles: &[&str], what: &str| {
        common::refused(r, code, needles, what);
        assert!(
            !r.stderr_str().contains("4321") && !r.stderr_str().contains(PIN),
            "{what}: the PIN was printed: {}",
            r.stderr_str()
        );
    };

    // A wrong PIN, given inside the URI: the message shows the URI without it.
    let with_pin = format!("{good}&pin-value=4321");
    let r = h.pk(&["key", "pub", &with_pin]);
    refused(
        &r,
        3,
        &["wrong PIN", "pkcs11:token=Bad;object=ca"],
        "a wrong PIN",
    );
    // No PIN at all.
    let r = h.pk(&["key", "pub", &good]);
    refused(&r, 3, &["needs a PIN", "--pin"], "no PIN");
    // The module: missing, and a file that is not a module.
    let r = h.pk(&[
        "key",
        "pub",
        "pkcs11:token=Bad;object=ca?module-path=/nonexistent/p11.so",
        "--pin",
        &pin,
    ]);
    refused(
        &r,
        4,
        &["/nonexistent/p11.so", "no such file"],
        "a missing module",
    );
    let r = h.pk(&[
        "key",
        "pub",
        &format!("pkcs11:token=Bad;object=ca?module-path={}", s(&h.conf)),
        "--pin",
        &pin,
    ]);
    refused(&r, 3, &["not a PKCS#11 module"], "not a module");
    // Token and object not found.
    let r = h.pk(&["key", "pub", &h.uri("Nope", "ca"), "--pin", &pin]);
    refused(&r, 4, &["no such token", "Bad"], "an unknown token");
    let r = h.pk(&["key", "pub", &h.uri("Bad", "nope"), "--pin", &pin]);
    refused(&r, 4, &["no private key", "matches"], "an unknown object");
    // Two keys under one label.
    for id in ["%01", "%02"] {
        h.pk_ok(&[
            "key",
            "gen",
            "--alg",
            "ecdsa-p256",
            "-o",
            &format!("pkcs11:token=Bad;object=dup;id={id}?module-path={SOFTHSM}"),
            "--pin",
            &pin,
        ]);
    }
    let r = h.pk(&["key", "pub", &h.uri("Bad", "dup"), "--pin", &pin]);
    refused(&r, 2, &["2 private keys", "id="], "two objects match");
    // A PIN typed without its `pass:` prefix, or kept in pin-source: refused, not echoed.
    let r = h.pk(&["key", "pub", &good, "--pin", "4321"]);
    refused(&r, 2, &["--pin", "pass:"], "a PIN without a source prefix");
    let r = h.pk(&["key", "pub", &format!("{good}&pin-source=pass:4321")]);
    refused(&r, 2, &["pin-source=pass:"], "a PIN in pin-source");
    // A key path that is not ASCII is a file name like any other.
    let r = h.pk(&["key", "pub", &s(&h.dir.join("ключ.pem"))]);
    refused(&r, 4, &["ключ.pem"], "a missing file with a non-ASCII name");
    // A malformed URI.
    let r = h.pk(&["key", "pub", "pkcs11:tokn=Bad?pin-value=4321"]);
    refused(&r, 2, &["unknown path attribute 'tokn'"], "a malformed URI");

    // Nothing is written when the token refuses: no CA directory, no database row.
    let r = h.pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&h.dir.join("ca2")),
        "--key",
        &good,
        "--pin",
        "pass:4321",
        "--subject",
        "CN=x",
    ]);
    refused(&r, 3, &["wrong PIN"], "issue ca with a wrong PIN");
    assert!(!h.dir.join("ca2").exists());
    let db_before = std::fs::read(ca.join("ca.db")).unwrap();
    let r = h.pk(&[
        "issue",
        "cert",
        "--san",
        "DNS:leaf.example",
        "--ca",
        &s(&ca),
        "--pin",
        "pass:4321",
        "--subject",
        "CN=x",
        "--key-out",
        &s(&h.dir.join("x.key")),
        "-o",
        &s(&h.dir.join("x.pem")),
    ]);
    refused(&r, 3, &["wrong PIN"], "issue cert with a wrong PIN");
    assert!(!h.dir.join("x.pem").exists() && !h.dir.join("x.key").exists());
    assert_eq!(
        std::fs::read(ca.join("ca.db")).unwrap(),
        db_before,
        "ca.db changed"
    );
    let r = h.pk(&[
        "crl",
        "gen",
        "--ca",
        &s(&ca),
        "--pin",
        "pass:4321",
        "-o",
        &s(&h.dir.join("x.crl")),
    ]);
    refused(&r, 3, &["wrong PIN"], "crl gen with a wrong PIN");
    assert!(!h.dir.join("x.crl").exists());
}

#[test]
fn mtc_cosigner_key_in_a_token() {
    if !tools() {
        return;
    }
    let h = SoftHsm::new("MTC");
    let uri = h.uri("MTC", "cosigner");
    let pin = format!("pass:{PIN}");
    h.pk_ok(&[
        "key",
        "gen",
        "--alg",
        "ecdsa-p256",
        "-o",
        &uri,
        "--pin",
        &pin,
    ]);
    let dir = h.dir.join("mtc");
    // Fixed times, as the MTC tests use: a checkpoint covers what a later cert asks for.
    let (now, later) = ("2026-06-01T00:00:00Z", "2026-06-01T00:10:00Z");
    h.pk_ok(&[
        "mtc",
        "ca",
        "new",
        "--dir",
        &s(&dir),
        "--ca-id",
        "32473.77",
        "--key",
        &uri,
        "--pin",
        &pin,
        "--now",
        now,
    ]);
    assert!(std::fs::read_to_string(dir.join("cosigner.key"))
        .unwrap()
        .starts_with("pkcs11:"));
    h.pk_ok(&[
        "mtc",
        "add",
        "--dir",
        &s(&dir),
        "--subject",
        "CN=mtc.example",
        "--san",
        "DNS:mtc.example",
        "--key-out",
        &s(&h.dir.join("sub.key")),
        "--now",
        now,
    ]);
    let r = h.pk(&["mtc", "checkpoint", "--dir", &s(&dir), "--now", now]);
    common::refused(&r, 3, &["needs a PIN"], "a checkpoint without the PIN");
    h.pk_ok(&[
        "mtc",
        "checkpoint",
        "--dir",
        &s(&dir),
        "--pin",
        &pin,
        "--now",
        now,
    ]);
    let cert = s(&h.dir.join("mtc.pem"));
    h.pk_ok(&[
        "mtc",
        "cert",
        "--dir",
        &s(&dir),
        "--index",
        "0",
        "-o",
        &cert,
        "--now",
        later,
    ]);
    h.pk_ok(&[
        "mtc",
        "verify",
        "--ca",
        &s(&dir.join("mtc-ca.pem")),
        &cert,
        "--now",
        later,
    ]);
}

#[test]
fn an_intermediate_and_an_ocsp_responder_under_a_token_ca() {
    if !tools() {
        return;
    }
    let h = SoftHsm::new("Serve");
    let uri = h.uri("Serve", "root");
    let pin = format!("pass:{PIN}");
    let (root, int) = (h.dir.join("root"), h.dir.join("int"));
    h.pk_ok(&[
        "key",
        "gen",
        "--alg",
        "ecdsa-p384",
        "-o",
        &uri,
        "--pin",
        &pin,
    ]);
    h.pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&root),
        "--key",
        &uri,
        "--pin",
        &pin,
        "--subject",
        "CN=Token Root",
    ]);
    // Another CA on the same token key, given by the first CA's ca.key file.
    let twin = h.dir.join("twin");
    h.pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&twin),
        "--key",
        &s(&root.join("ca.key")),
        "--pin",
        &pin,
        "--subject",
        "CN=Twin",
    ]);
    assert_eq!(
        std::fs::read_to_string(twin.join("ca.key")).unwrap(),
        std::fs::read_to_string(root.join("ca.key")).unwrap()
    );
    // An intermediate with a key in software, signed by the token.
    let r = h.pk(&[
        "issue",
        "ca",
        "--dir",
        &s(&int),
        "--parent",
        &s(&root),
        "--subject",
        "CN=Int",
    ]);
    common::refused(
        &r,
        3,
        &["needs a PIN", "--pin"],
        "a parent in a token without --parent-pin",
    );
    assert!(!int.exists(), "nothing written without the parent's PIN");
    h.pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&int),
        "--parent",
        &s(&root),
        "--parent-pin",
        &pin,
        "--subject",
        "CN=Int",
    ]);
    common::require_openssl();
    let root_pem = s(&root.join("ca.pem"));
    let (code, out) = ossl(&["verify", "-CAfile", &root_pem, &s(&int.join("ca.pem"))]);
    assert_eq!(code, Some(0), "openssl verify of the intermediate: {out}");

    // A CA whose key is in a token refuses what its policy forbids before the token is
    // asked to sign: nothing recorded.
    h.pk_ok(&[
        "issue",
        "policy",
        "--ca",
        &s(&root),
        "--deny",
        "DNS:*.evil.example",
    ]);
    let r = h.pk(&[
        "issue",
        "cert",
        "--san",
        "DNS:www.evil.example",
        "--ca",
        &s(&root),
        "--pin",
        &pin,
        "--key-out",
        &s(&h.dir.join("evil.key")),
        "-o",
        &s(&h.dir.join("evil.pem")),
    ]);
    common::refused(
        &r,
        1,
        &["ca-policy", "deny DNS:*.evil.example"],
        "a name the policy denies",
    );
    assert!(!h.dir.join("evil.pem").exists());

    // `ocsp serve` signing each answer in the token, asked by OpenSSL's client.
    let leaf = h.dir.join("leaf.pem");
    h.pk_ok(&[
        "issue",
        "cert",
        "--san",
        "DNS:leaf.example",
        "--ca",
        &s(&root),
        "--pin",
        &pin,
        "--subject",
        "CN=leaf",
        "--key-out",
        &s(&h.dir.join("leaf.key")),
        "-o",
        &s(&leaf),
    ]);
    let port = common::free_port();
    let mut cmd = h.cmd(common::pkit_bin().to_str().unwrap());
    cmd.args([
        "ocsp",
        "serve",
        "--ca",
        &s(&root),
        "--pin",
        &pin,
        "--listen",
        &format!("127.0.0.1:{port}"),
    ]);
    let _server = common::Server::start(cmd, h.dir.join("serve.log"), "\"listening\"");
    let url = format!("http://127.0.0.1:{port}");
    let (code, out) = ossl(&[
        "ocsp",
        "-url",
        &url,
        "-timeout",
        "10",
        "-issuer",
        &root_pem,
        "-cert",
        &s(&leaf),
        "-CAfile",
        &root_pem,
    ]);
    assert!(
        code == Some(0) && out.contains("Response verify OK") && out.contains(": good"),
        "openssl ocsp: {out}"
    );
}
