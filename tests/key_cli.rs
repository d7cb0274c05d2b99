//! `pkit key` through the real binary, checked against the system's `openssl` (3.0 on
//! Debian 12: classic algorithms only) and, for ML-DSA, Python `cryptography` >= 46.

mod common;

use common::{is_classic, missing, optional, outcome, pkit, run_in, tempdir, Peer, ALGS};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// `pkit ARGS…` in `dir`, asserting success; returns stdout.
fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = outcome(&run_in(dir, args));
    assert_eq!(code, 0, "pkit {args:?} failed: {err}");
    out
}

/// `pkit ARGS…` in `dir`, asserting the exit code; returns stderr.
fn fails(dir: &Path, args: &[&str], want: i32) -> String {
    let (code, _, err) = outcome(&run_in(dir, args));
    assert_eq!(code, want, "pkit {args:?}: {err}");
    err
}

/// Whether this pkit build can make ML-DSA keys (an OpenSSL 3.0 build cannot; it must
/// then say so with exit code 5). Without, `what` is skipped (a failure with `CI=true`,
/// where pkit is built through xtask and must have ML-DSA).
fn ml_dsa_available(dir: &Path, what: &str) -> bool {
    let (code, _, err) = outcome(&run_in(dir, &["key", "gen", "--alg", "ml-dsa-44"]));
    match code {
        0 => true,
        5 => {
            assert!(err.contains("cargo xtask build"), "{err}");
            missing(
                what,
                &format!("this pkit build has no ML-DSA: {}", err.trim()),
                "build and test through `cargo xtask`, which links OpenSSL 3.5",
            );
            false
        }
        _ => panic!("ml-dsa-44: exit {code}: {err}"),
    }
}

/// The system `openssl` with ARGS in `dir`: whether it succeeded, stdout, stderr. Callers
/// make sure it is installed first (see [`Peer::Openssl`]).
fn openssl(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let o = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("running openssl");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn mode(p: &Path) -> u32 {
    fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn gen_every_algorithm_and_match_openssl() {
    let dir = tempdir();
    let d = dir.path();
    let ml_dsa = ml_dsa_available(d, "gen_every_algorithm_and_match_openssl: ML-DSA keys");
    let with_openssl = optional(
        Peer::Openssl,
        "gen_every_algorithm_and_match_openssl: the comparison with openssl",
    )
    .is_some();
    for alg in ALGS {
        if !is_classic(alg) && !ml_dsa {
            continue;
        }
        let file = format!("{alg}.pem");
        ok(d, &["key", "gen", "--alg", alg, "-o", &file]);
        let pem = fs::read_to_string(d.join(&file)).unwrap();
        assert!(
            pem.starts_with("-----BEGIN PRIVATE KEY-----\n"),
            "{alg}: {pem}"
        );
        assert_eq!(mode(&d.join(&file)), 0o600, "{alg}");
        let public = ok(d, &["key", "pub", &file]);
        assert!(public.starts_with("-----BEGIN PUBLIC KEY-----\n"), "{alg}");
        // Into a file it says what it made, as every creating command does.
        let pub_file = format!("{alg}.pub.pem");
        let (code, _, err) = outcome(&run_in(d, &["key", "pub", &file, "-o", &pub_file]));
        assert_eq!(
            (code, err),
            (0, format!("pkit: created public key in {pub_file}\n"))
        );
        assert_eq!(fs::read_to_string(d.join(&pub_file)).unwrap(), public);
        if !is_classic(alg) || !with_openssl {
            continue;
        }
        let (accepted, _, err) = openssl(d, &["pkey", "-in", &file, "-noout"]);
        assert!(accepted, "openssl rejects pkit's {alg} key: {err}");
        let (ok, theirs, err) = openssl(d, &["pkey", "-in", &file, "-pubout"]);
        assert!(ok, "openssl pkey -pubout on pkit's {alg} key: {err}");
        assert_eq!(public, theirs, "{alg}: public keys differ");
    }
}

#[test]
fn encrypted_keys_open_in_openssl_and_pkit() {
    let dir = tempdir();
    let d = dir.path();
    let with_openssl = optional(
        Peer::Openssl,
        "encrypted_keys_open_in_openssl_and_pkit: opening the keys with openssl",
    )
    .is_some();
    for (alg, kdf) in [
        ("ecdsa-p256", "pbkdf2"),
        ("ed25519", "scrypt"),
        ("rsa2048", "scrypt"),
        ("ecdsa-p384", "pbkdf2"),
    ] {
        let file = format!("{alg}-{kdf}.pem");
        ok(
            d,
            &[
                "key",
                "gen",
                "-a",
                alg,
                "--passout",
                "pass:correct horse",
                "--kdf",
                kdf,
                "-o",
                &file,
            ],
        );
        assert_eq!(mode(&d.join(&file)), 0o600);
        let pem = fs::read_to_string(d.join(&file)).unwrap();
        assert!(
            pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"),
            "{pem}"
        );

        let public = ok(d, &["key", "pub", &file, "--passin", "pass:correct horse"]);
        if with_openssl {
            let (accepted, theirs, err) = openssl(
                d,
                &[
                    "pkey",
                    "-in",
                    &file,
                    "-passin",
                    "pass:correct horse",
                    "-pubout",
                ],
            );
            assert!(
                accepted,
                "openssl cannot open pkit's {alg}/{kdf} key: {err}"
            );
            assert_eq!(public, theirs);
        }

        let err = fails(d, &["key", "pub", &file, "--passin", "pass:wrong"], 3);
        assert!(
            err.contains(&file) && err.contains("wrong password"),
            "{err}"
        );
        let err = fails(d, &["key", "pub", &file], 3);
        assert!(
            err.contains(&file) && err.contains("password is needed"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // The password from the environment and from a file.
    std::fs::write(d.join("pw.txt"), "correct horse\n").unwrap();
    ok(
        d,
        &[
            "key",
            "pub",
            "ecdsa-p256-pbkdf2.pem",
            "--passin",
            "file:pw.txt",
        ],
    );
    let o = pkit()
        .current_dir(d)
        .env("PKIT_TEST_PW", "correct horse")
        .args([
            "key",
            "pub",
            "ed25519-scrypt.pem",
            "--passin",
            "env:PKIT_TEST_PW",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // An empty password is refused rather than written.
    fails(d, &["key", "gen", "-a", "ed25519", "--passout", "pass:"], 2);
}

#[test]
fn der_output_and_stdin_input() {
    let dir = tempdir();
    let d = dir.path();
    ok(
        d,
        &[
            "key",
            "gen",
            "-a",
            "p256",
            "--outform",
            "der",
            "-o",
            "k.der",
        ],
    );
    let der = fs::read(d.join("k.der")).unwrap();
    assert_eq!(der[0], 0x30);
    ok(
        d,
        &["key", "pub", "k.der", "--outform", "der", "-o", "pub.der"],
    );
    if optional(
        Peer::Openssl,
        "der_output_and_stdin_input: reading the DER with openssl",
    )
    .is_some()
    {
        let (accepted, _, err) = openssl(d, &["pkey", "-inform", "DER", "-in", "k.der", "-noout"]);
        assert!(accepted, "{err}");
        let (accepted, _, err) = openssl(
            d,
            &[
                "pkey",
                "-inform",
                "DER",
                "-in",
                "k.der",
                "-pubout",
                "-outform",
                "DER",
                "-out",
                "theirs.der",
            ],
        );
        assert!(accepted, "{err}");
        assert_eq!(
            fs::read(d.join("pub.der")).unwrap(),
            fs::read(d.join("theirs.der")).unwrap()
        );
    }
    // `-` reads the key from stdin.
    let mut child = pkit()
        .current_dir(d)
        .args(["key", "pub", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&der).unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("-----BEGIN PUBLIC KEY-----"));
}

#[test]
fn refuses_to_overwrite_without_force() {
    let dir = tempdir();
    let d = dir.path();
    ok(d, &["key", "gen", "-a", "ed25519", "-o", "k.pem"]);
    let before = fs::read(d.join("k.pem")).unwrap();
    let err = fails(d, &["key", "gen", "-a", "ed25519", "-o", "k.pem"], 4);
    assert!(err.contains("k.pem") && err.contains("--force"), "{err}");
    assert_eq!(fs::read(d.join("k.pem")).unwrap(), before);
    ok(
        d,
        &["key", "gen", "-a", "ed25519", "-o", "k.pem", "--force"],
    );
    assert_ne!(fs::read(d.join("k.pem")).unwrap(), before);
    assert_eq!(mode(&d.join("k.pem")), 0o600);
    fails(d, &["key", "pub", "k.pem", "-o", "k.pem"], 4);
}

#[test]
fn usage_errors() {
    let dir = tempdir();
    let d = dir.path();
    let err = fails(d, &["key", "gen", "--alg", "dsa1024"], 2);
    assert!(
        err.contains("dsa1024") && err.contains("ml-dsa-65") && err.contains("ecdsa-p256"),
        "{err}"
    );
    // Spellings OpenSSL users know are accepted.
    for alias in ["prime256v1", "SECP384R1", "ED25519", "RSA:2048"] {
        ok(d, &["key", "gen", "--alg", alias]);
    }
    fails(
        d,
        &["key", "gen", "-a", "ed25519", "--mldsa-key-format", "seed"],
        2,
    );
    fails(d, &["key", "gen", "-a", "ed25519", "--kdf", "scrypt"], 2);
}

#[test]
fn bad_key_files_name_the_file() {
    let dir = tempdir();
    let d = dir.path();
    fs::write(d.join("garbage.pem"), b"this is not a key\n").unwrap();
    fs::write(d.join("garbage.der"), [0x30, 0x03, 0x02, 0x01, 0x07, 0xff]).unwrap();
    fs::write(
        d.join("broken.pem"),
        "-----BEGIN PRIVATE KEY-----\nMIIB!!!!\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    for f in ["garbage.pem", "garbage.der", "broken.pem"] {
        let err = fails(d, &["key", "pub", f], 3);
        assert!(err.contains(f), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let err = fails(d, &["key", "pub", "missing.pem"], 4);
    assert!(err.contains("missing.pem"), "{err}");
    // A CA whose key file breaks its DER: the JSON error carries the offset and field
    // the message names.
    ok(
        d,
        &[
            "issue",
            "ca",
            "--dir",
            "ca",
            "--subject",
            "CN=K",
            "--no-passout",
        ],
    );
    fs::write(
        d.join("ca/ca.key"),
        "-----BEGIN PRIVATE KEY-----\nMIIBVgIBADANBgkqhkiG9w0BAQEFAASCAUAwggE8AgEAAkEAq7BFUpkGp3+LQmlQ\n\
         -----END PRIVATE KEY-----\n",
    )
    .unwrap();
    let err = fails(
        d,
        &["crl", "gen", "--ca", "ca", "-o", "x.crl", "-f", "json"],
        3,
    );
    let v: serde_json::Value = serde_json::from_str(err.trim()).expect("one JSON error");
    assert_eq!(v["error"]["offset"], 1, "{v}");
    assert_eq!(v["error"]["path"], "privateKeyInfo", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("ca/ca.key: not a valid key: offset 1")),
        "{v}"
    );
}

#[test]
fn keys_written_by_openssl_load() {
    let dir = tempdir();
    let d = dir.path();
    if optional(Peer::Openssl, "keys_written_by_openssl_load").is_none() {
        return;
    }
    let made = |args: &[&str]| {
        let (ok, _, err) = openssl(d, args);
        assert!(ok, "openssl {}: {err}", args.join(" "));
    };
    made(&[
        "genpkey",
        "-algorithm",
        "EC",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-aes256",
        "-pass",
        "pass:pw",
        "-out",
        "enc.pem",
    ]);
    let theirs = openssl(
        d,
        &["pkey", "-in", "enc.pem", "-passin", "pass:pw", "-pubout"],
    )
    .1;
    assert_eq!(
        ok(d, &["key", "pub", "enc.pem", "--passin", "pass:pw"]),
        theirs
    );
    // A traditional "RSA PRIVATE KEY".
    made(&["genrsa", "-traditional", "-out", "rsa.pem", "2048"]);
    assert!(fs::read_to_string(d.join("rsa.pem"))
        .unwrap()
        .contains("BEGIN RSA PRIVATE KEY"));
    let theirs = openssl(d, &["pkey", "-in", "rsa.pem", "-pubout"]).1;
    assert_eq!(ok(d, &["key", "pub", "rsa.pem"]), theirs);
    // A traditional "EC PRIVATE KEY" (RFC 5915, naming its curve).
    made(&[
        "ecparam",
        "-name",
        "prime256v1",
        "-genkey",
        "-noout",
        "-out",
        "ec.pem",
    ]);
    let theirs = openssl(d, &["pkey", "-in", "ec.pem", "-pubout"]).1;
    assert_eq!(ok(d, &["key", "pub", "ec.pem"]), theirs);
    // PKCS#8 under a PKCS#12 PBE (RFC 7292 Appendix C) opens; a wrong password is exit 3
    // and names the scheme.
    made(&[
        "pkcs8",
        "-topk8",
        "-in",
        "ec.pem",
        "-v1",
        "PBE-SHA1-3DES",
        "-passout",
        "pass:pw",
        "-out",
        "ec_p12.pem",
    ]);
    assert_eq!(
        ok(d, &["key", "pub", "ec_p12.pem", "--passin", "pass:pw"]),
        theirs
    );
    let err = fails(d, &["key", "pub", "ec_p12.pem", "--passin", "pass:no"], 3);
    assert!(err.contains("pbeWithSHA1And3-KeyTripleDES-CBC"), "{err}");
    // A real key type pkit does not issue with: unsupported (exit 5), naming its OID.
    made(&["genpkey", "-algorithm", "ED448", "-out", "ed448.pem"]);
    let err = fails(d, &["key", "pub", "ed448.pem"], 5);
    assert!(
        err.contains("ed448.pem") && err.contains("1.3.101.113"),
        "{err}"
    );
}

#[test]
fn ml_dsa_key_formats() {
    let dir = tempdir();
    let d = dir.path();
    if !ml_dsa_available(d, "ml_dsa_key_formats") {
        return;
    }
    // The seed form of RFC 9881 §6: 54 bytes of DER for every parameter set.
    for alg in ["ml-dsa-44", "ml-dsa-65", "ml-dsa-87"] {
        let f = format!("{alg}.der");
        ok(d, &["key", "gen", "-a", alg, "--outform", "der", "-o", &f]);
        let der = fs::read(d.join(&f)).unwrap();
        assert_eq!(der.len(), 54, "{alg}");
        assert_eq!(&der[18..22], &[0x04, 0x22, 0x80, 0x20], "{alg}");
    }
    for (format, min, max) in [
        ("seed", 50, 60),
        ("expanded", 4000, 4200),
        ("both", 4000, 4200),
    ] {
        let f = format!("{format}.der");
        ok(
            d,
            &[
                "key",
                "gen",
                "-a",
                "ml-dsa-65",
                "--mldsa-key-format",
                format,
                "--outform",
                "der",
                "-o",
                &f,
            ],
        );
        let n = fs::read(d.join(&f)).unwrap().len();
        assert!((min..max).contains(&n), "{format}: {n} bytes");
        ok(d, &["key", "pub", &f]);
    }
    ok(
        d,
        &[
            "key",
            "gen",
            "-a",
            "ml-dsa-87",
            "--passout",
            "pass:pw",
            "--kdf",
            "scrypt",
            "-o",
            "enc.pem",
        ],
    );
    ok(d, &["key", "pub", "enc.pem", "--passin", "pass:pw"]);
    fails(d, &["key", "pub", "enc.pem", "--passin", "pass:nope"], 3);
}

/// Python `cryptography` >= 46 reads ML-DSA PKCS#8; the check runs when it is installed
/// (and must, with `CI=true`).
#[test]
fn python_cryptography_loads_ml_dsa_seed_keys() {
    const TEST: &str = "python_cryptography_loads_ml_dsa_seed_keys";
    let dir = tempdir();
    let d = dir.path();
    let Some(version) = optional(Peer::PythonCryptography, TEST) else {
        return;
    };
    if !ml_dsa_available(d, TEST) {
        return;
    }
    let script = "import sys\n\
from cryptography.hazmat.primitives import serialization as s\n\
pw = sys.argv[2].encode() if len(sys.argv) > 2 else None\n\
k = s.load_pem_private_key(open(sys.argv[1], 'rb').read(), pw)\n\
sys.stdout.write(k.public_key().public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo).decode())\n";
    for (alg, pass) in [
        ("ml-dsa-44", None),
        ("ml-dsa-65", None),
        ("ml-dsa-87", None),
        ("ml-dsa-65", Some("pbkdf2")),
        ("ml-dsa-44", Some("scrypt")),
    ] {
        let f = format!("{alg}-{}.pem", pass.unwrap_or("plain"));
        let mut args = vec!["key", "gen", "-a", alg, "-o", &f];
        if let Some(kdf) = pass {
            args.extend(["--passout", "pass:pw", "--kdf", kdf]);
        }
        ok(d, &args);
        let mut py = Command::new("python3");
        py.current_dir(d).args(["-c", script, &f]);
        if pass.is_some() {
            py.arg("pw");
        }
        let o = py.output().unwrap();
        assert!(
            o.status.success(),
            "cryptography {version} rejects pkit's {f}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let mut pub_args = vec!["key", "pub", f.as_str()];
        if pass.is_some() {
            pub_args.extend(["--passin", "pass:pw"]);
        }
        assert_eq!(String::from_utf8_lossy(&o.stdout), ok(d, &pub_args), "{f}");
    }
}

/// At a terminal, an encrypted key without `--passin` makes pkit ask for the password
/// (read from the terminal, not echoed); piped, it fails at once instead of waiting.
#[test]
fn asks_for_a_password_only_at_a_terminal() {
    let t = tempdir();
    let d = t.path();
    ok(
        d,
        &[
            "key",
            "gen",
            "--alg",
            "ed25519",
            "-o",
            "enc.pem",
            "--passout",
            "pass:tty secret",
        ],
    );
    let err = fails(d, &["key", "pub", "enc.pem"], 3);
    assert!(err.contains("a password is needed"), "{err}");
    // util-linux `script` runs pkit on a pseudo-terminal; what we pipe into it is typed.
    if optional(
        Peer::Script,
        "asks_for_a_password_only_at_a_terminal: the terminal half",
    )
    .is_none()
    {
        return;
    }
    let cmd = format!(
        "{} key pub enc.pem -o pub.pem",
        common::pkit_bin().display()
    );
    let mut child = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(d)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script");
    // Type only once the prompt is shown: the terminal echoes whatever arrives before
    // pkit turns echo off.
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
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !String::from_utf8_lossy(&seen).contains("Password for enc.pem") {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(chunk) => seen.extend(chunk),
            Err(_) => panic!("no prompt: {}", String::from_utf8_lossy(&seen)),
        }
    }
    // rpassword prints the prompt and only then turns echo off; on a loaded machine the
    // gap is long enough for typed text to be echoed, so give it a moment. (Not a timing
    // assertion: a slow pkit only makes the wait longer than needed.)
    std::thread::sleep(std::time::Duration::from_millis(300));
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"tty secret\n").unwrap();
    }
    let status = child.wait().unwrap();
    reader.join().unwrap();
    seen.extend(rx.try_iter().flatten());
    let shown = String::from_utf8_lossy(&seen);
    assert!(status.success(), "pkit at a terminal: {shown}");
    assert!(shown.contains("Password for enc.pem"), "{shown}");
    assert!(
        !shown.contains("tty secret"),
        "the password was echoed: {shown}"
    );
    let public = fs::read_to_string(d.join("pub.pem")).unwrap();
    assert!(public.starts_with("-----BEGIN PUBLIC KEY-----"), "{public}");
}

/// An encrypted key under a scheme the backend decrypts (here the PKCS#12 PBE with
/// triple DES) asks for as many iterations as it likes: past pkit's limit it is refused
/// at once (exit 5, naming the count), before any derivation runs — 2^31 iterations
/// would be minutes of CPU for whoever is handed the file.
#[test]
fn a_backend_decrypted_key_is_bounded_as_pkits_own() {
    let t = tempdir();
    let d = t.path();
    // 1.2.840.113549.1.12.1.3, pbeWithSHAAnd3-KeyTripleDES-CBC (RFC 7292 Appendix C).
    let oid = common::tlv(
        0x06,
        &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01, 0x03],
    );
    let with = |iterations: &[u8]| {
        let params = common::tlv(
            0x30,
            &[common::tlv(0x04, &[7; 8]), common::tlv(0x02, iterations)].concat(),
        );
        let alg = common::tlv(0x30, &[oid.clone(), params].concat());
        let epki = common::tlv(0x30, &[alg, common::tlv(0x04, &[0x42; 48])].concat());
        pem::encode(&pem::Pem::new("ENCRYPTED PRIVATE KEY", epki))
    };
    // 20,000,000 iterations.
    fs::write(d.join("slow.pem"), with(&[0x01, 0x31, 0x2d, 0x00])).unwrap();
    let err = fails(d, &["key", "pub", "slow.pem", "--passin", "pass:x"], 5);
    assert!(err.contains("iteration count 20000000 is beyond"), "{err}");
    // 2,048: tried, and the made-up ciphertext does not decrypt.
    fs::write(d.join("fast.pem"), with(&[0x08, 0x00])).unwrap();
    let err = fails(d, &["key", "pub", "fast.pem", "--passin", "pass:x"], 3);
    assert!(!err.contains("beyond"), "{err}");
}
