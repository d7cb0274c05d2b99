//! `pkit verify` through the real binary, on chains pkit issues, with `openssl verify`
//! (the system OpenSSL 3.0) asked the same question: both must come to the same verdict.

mod common;

use common::{pk, pk_ok, refused, s, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A root, an intermediate under it, and a directory for leaves.
struct Hierarchy {
    _dir: tempfile::TempDir,
    dir: PathBuf,
    root: PathBuf,
    int: PathBuf,
}

fn hierarchy(alg: &str) -> Hierarchy {
    let t = common::tempdir();
    let dir = t.path().to_path_buf();
    let root = dir.join("root");
    let int = dir.join("int");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&root),
        "--subject",
        "CN=Verify Root,O=pkit tests",
        "--alg",
        alg,
    ]);
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&int),
        "--parent",
        &s(&root),
        "--subject",
        "CN=Verify Intermediate,O=pkit tests",
        "--alg",
        alg,
    ]);
    Hierarchy {
        _dir: t,
        dir,
        root,
        int,
    }
}

impl Hierarchy {
    /// A leaf from the intermediate; returns its certificate file.
    fn leaf(&self, name: &str, extra: &[&str]) -> PathBuf {
        let cert = self.dir.join(format!("{name}.pem"));
        let key = self.dir.join(format!("{name}.key"));
        let mut args = vec!["issue", "cert", "--ca"];
        let (ca, k, c) = (s(&self.int), s(&key), s(&cert));
        args.extend([ca.as_str(), "--key-out", &k, "-o", &c]);
        args.extend_from_slice(extra);
        // A TLS certificate names its host in a SAN (the CA refuses one without).
        let san = format!("DNS:{name}.example");
        if !extra.contains(&"--san") {
            args.extend(["--san", &san]);
        }
        pk_ok(&args);
        cert
    }

    /// Revoke `cert` in the intermediate's database.
    fn revoke(&self, cert: &Path, reason: &str) {
        let (ca, c) = (s(&self.int), s(cert));
        pk_ok(&[
            "crl", "revoke", "--ca", &ca, "--cert", &c, "--reason", reason,
        ]);
    }

    /// The leaf followed by the intermediate, as a server sends them.
    fn bundle(&self, leaf: &Path) -> PathBuf {
        let mut text = std::fs::read_to_string(leaf).unwrap();
        text.push_str(&std::fs::read_to_string(self.int.join("ca.pem")).unwrap());
        let p = leaf.with_extension("chain.pem");
        std::fs::write(&p, text).unwrap();
        p
    }

    fn roots(&self) -> String {
        s(&self.root.join("ca.pem"))
    }
}

/// `pkit verify --roots ROOT args… -f json`: the exit code and the one item.
fn verify(h: &Hierarchy, args: &[&str]) -> (Option<i32>, Value) {
    let roots = h.roots();
    let mut all = vec!["verify", "--roots", roots.as_str(), "-f", "json"];
    all.extend_from_slice(args);
    let r = pk(&all);
    assert!(!r.stderr_str().contains("panicked"), "{}", r.describe());
    let items = common::json_items(&r);
    assert_eq!(items.len(), 1, "{}", r.describe());
    (r.code, items[0].clone())
}

/// `openssl verify -CAfile ROOT -untrusted INT args… LEAF`: whether it said OK.
fn openssl_ok(h: &Hierarchy, args: &[&str], leaf: &Path) -> bool {
    common::require_openssl();
    let (root, int, leaf) = (h.roots(), s(&h.int.join("ca.pem")), s(leaf));
    let mut all = vec![
        "verify",
        "-CAfile",
        root.as_str(),
        "-untrusted",
        int.as_str(),
    ];
    all.extend_from_slice(args);
    all.push(&leaf);
    let (code, out) = common::ossl(&all);
    code == Some(0) && out.contains(": OK")
}

fn reason(v: &Value) -> &str {
    v["reason"].as_str().unwrap_or("")
}

#[test]
fn a_good_chain_is_valid_and_reported_with_its_path() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf(
        "www",
        &[
            "--subject",
            "CN=www.example.com",
            "--san",
            "DNS:www.example.com",
        ],
    );
    let bundle = h.bundle(&leaf);
    let (code, v) = verify(&h, &[&s(&bundle)]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["valid"], true);
    let chain = v["chain"].as_array().unwrap();
    let subjects: Vec<&str> = chain
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        subjects,
        [
            "CN=www.example.com",
            "CN=Verify Intermediate,O=pkit tests",
            "CN=Verify Root,O=pkit tests"
        ]
    );
    for c in chain {
        assert_eq!(c["sha256"].as_str().unwrap().len(), 64);
        assert!(c["not_after"].as_str().unwrap().ends_with('Z'));
    }
    assert!(openssl_ok(&h, &[], &leaf));
    // The intermediate from --untrusted instead of the bundle.
    let (code, v) = verify(&h, &["--untrusted", &s(&h.int.join("ca.pem")), &s(&leaf)]);
    assert_eq!(code, Some(0), "{v}");
    // Text: one verdict line, then the chain.
    let r = pk_ok(&["verify", "--roots", &h.roots(), &s(&bundle)]);
    let out = r.stdout_str();
    assert!(out.starts_with(&format!("{}: OK\n", s(&bundle))), "{out}");
    assert_eq!(out.lines().count(), 4, "{out}");
}

#[test]
fn every_algorithm_verifies() {
    for alg in common::ALGS {
        let h = hierarchy(alg);
        let leaf = h.leaf("leaf", &["--subject", "CN=leaf", "--alg", alg]);
        let (code, v) = verify(&h, &[&s(&h.bundle(&leaf))]);
        assert_eq!(code, Some(0), "{alg}: {v}");
        if common::is_classic(alg) {
            assert!(openssl_ok(&h, &[], &leaf), "{alg}: openssl disagrees");
        }
    }
}

#[test]
fn a_missing_intermediate_is_an_unknown_issuer() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf("lonely", &["--subject", "CN=lonely"]);
    let (code, v) = verify(&h, &[&s(&leaf)]);
    assert_eq!((code, reason(&v)), (Some(1), "unknown-issuer"), "{v}");
    common::require_openssl();
    let (c, _) = common::ossl(&["verify", "-CAfile", &h.roots(), &s(&leaf)]);
    assert_ne!(
        c,
        Some(0),
        "openssl accepted a leaf without its intermediate"
    );
}

#[test]
fn expiry_and_the_renewal_window() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf("short", &["--subject", "CN=short", "--days", "10"]);
    let bundle = h.bundle(&leaf);
    let in_a_month = time_in_days(30);
    let (code, v) = verify(&h, &["--now", &in_a_month, &s(&bundle)]);
    assert_eq!((code, reason(&v)), (Some(1), "expired"), "{v}");
    assert_eq!(v["certificate"], 0);
    assert!(!openssl_ok(&h, &["-attime", &epoch_in_days(30)], &leaf));
    let (code, v) = verify(&h, &["--expires-within", "30d", &s(&bundle)]);
    assert_eq!((code, reason(&v)), (Some(1), "expires-soon"), "{v}");
    let (code, v) = verify(&h, &["--expires-within", "5d", &s(&bundle)]);
    assert_eq!(code, Some(0), "{v}");
}

#[test]
fn purposes_follow_the_extended_key_usage() {
    let h = hierarchy("ecdsa-p256");
    let client = h.leaf("client", &["--subject", "CN=client", "--profile", "client"]);
    let bundle = h.bundle(&client);
    let (code, v) = verify(&h, &["--purpose", "server", &s(&bundle)]);
    assert_eq!((code, reason(&v)), (Some(1), "eku-mismatch"), "{v}");
    assert!(!openssl_ok(&h, &["-purpose", "sslserver"], &client));
    let (code, v) = verify(&h, &["--purpose", "client", &s(&bundle)]);
    assert_eq!(code, Some(0), "{v}");
    assert!(openssl_ok(&h, &["-purpose", "sslclient"], &client));
}

#[test]
fn host_names_ip_addresses_and_wildcards() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf(
        "web",
        &[
            "--subject",
            "CN=web",
            "--san",
            "DNS:*.example.com",
            "--san",
            "IP:192.0.2.7",
        ],
    );
    let bundle = s(&h.bundle(&leaf));
    for (host, ok) in [
        ("a.example.com", true),
        ("A.Example.COM", true),
        ("example.com", false),
        ("a.b.example.com", false),
        ("a.example.org", false),
    ] {
        let (code, v) = verify(&h, &["--hostname", host, &bundle]);
        assert_eq!(code == Some(0), ok, "{host}: {v}");
        if !ok {
            assert_eq!(reason(&v), "hostname-mismatch", "{host}");
        }
        assert_eq!(
            openssl_ok(&h, &["-verify_hostname", host], &leaf),
            ok,
            "openssl on {host}"
        );
    }
    let (code, v) = verify(&h, &["--ip", "192.0.2.7", &bundle]);
    assert_eq!(code, Some(0), "{v}");
    let (code, v) = verify(&h, &["--ip", "192.0.2.8", &bundle]);
    assert_eq!((code, reason(&v)), (Some(1), "hostname-mismatch"), "{v}");
}

#[test]
fn revocation_from_a_crl_and_from_the_ca_database() {
    let h = hierarchy("ecdsa-p256");
    let good = h.leaf("good", &["--subject", "CN=good"]);
    let bad = h.leaf("bad", &["--subject", "CN=bad"]);
    h.revoke(&bad, "keyCompromise");
    let crl = h.dir.join("int.crl");
    pk_ok(&["crl", "gen", "--ca", &s(&h.int), "-o", &s(&crl)]);
    let (code, v) = verify(&h, &["--crl", &s(&crl), &s(&h.bundle(&bad))]);
    assert_eq!((code, reason(&v)), (Some(1), "revoked"), "{v}");
    let (code, v) = verify(&h, &["--crl", &s(&crl), &s(&h.bundle(&good))]);
    assert_eq!(code, Some(0), "{v}");
    // openssl with the same CRL agrees on both.
    let crl_arg = s(&crl);
    assert!(!openssl_ok(&h, &["-crl_check", "-CRLfile", &crl_arg], &bad));
    assert!(openssl_ok(&h, &["-crl_check", "-CRLfile", &crl_arg], &good));
    // The CA directory's database answers too.
    let (code, v) = verify(&h, &["--ca", &s(&h.int), &s(&h.bundle(&bad))]);
    assert_eq!((code, reason(&v)), (Some(1), "revoked"), "{v}");
    let (code, v) = verify(&h, &["--ca", &s(&h.int), &s(&h.bundle(&good))]);
    assert_eq!(code, Some(0), "{v}");
    // A whole-chain check with only the intermediate's CRL: the root's CRL is missing, so
    // hard-fail says unknown and soft-fail lets it pass.
    let (code, v) = verify(
        &h,
        &[
            "--crl",
            &s(&crl),
            "--check-revocation",
            "chain",
            &s(&h.bundle(&good)),
        ],
    );
    assert_eq!((code, reason(&v)), (Some(1), "revocation-unknown"), "{v}");
    let (code, v) = verify(
        &h,
        &[
            "--crl",
            &s(&crl),
            "--check-revocation",
            "chain",
            "--revocation-policy",
            "soft-fail",
            &s(&h.bundle(&good)),
        ],
    );
    assert_eq!(code, Some(0), "{v}");
    // The text says what vouched for each certificate, and what passed only under
    // soft-fail; a revocation names its source too.
    let roots = h.roots();
    let r = pk(&[
        "verify",
        "--roots",
        &roots,
        "--crl",
        &s(&crl),
        "--check-revocation",
        "chain",
        "--revocation-policy",
        "soft-fail",
        &s(&h.bundle(&good)),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let out = r.stdout_str();
    assert!(
        out.contains("revocation: certificate 0: good, from a CRL given"),
        "{out}"
    );
    assert!(
        out.contains("revocation: certificate 1: not known, passed under soft-fail"),
        "{out}"
    );
    let (_, v) = verify(&h, &["--ca", &s(&h.int), &s(&h.bundle(&bad))]);
    assert!(
        v["detail"]
            .as_str()
            .unwrap()
            .ends_with("from the CA's records"),
        "{v}"
    );
}

#[test]
fn many_inputs_get_one_verdict_each() {
    let h = hierarchy("ecdsa-p256");
    let a = h.bundle(&h.leaf("a", &["--subject", "CN=a"]));
    let b = h.leaf("b", &["--subject", "CN=b"]);
    let roots = h.roots();
    let r = pk(&["verify", "--roots", &roots, "-f", "jsonl", &s(&a), &s(&b)]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let lines: Vec<Value> = r
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["reason"], "unknown-issuer");
    assert!(
        r.stderr_str().contains("2 certificates"),
        "{}",
        r.describe()
    );
}

/// `-r DIR` reads a directory as `--roots DIR` does: a file there that holds no
/// certificate (a key, a README, a damaged file, a binary blob) is skipped and counted, and the run goes
/// on; the same file named on the command line is an error.
#[test]
fn a_directory_skips_what_is_no_certificate() {
    let h = hierarchy("ecdsa-p256");
    let certs = h.dir.join("certs");
    std::fs::create_dir(&certs).unwrap();
    let a = h.bundle(&h.leaf("a", &["--subject", "CN=a"]));
    std::fs::copy(&a, certs.join("a.pem")).unwrap();
    std::fs::copy(h.dir.join("a.key"), certs.join("a.key")).unwrap();
    std::fs::write(certs.join("README"), "certificates for the fleet\n").unwrap();
    std::fs::write(
        certs.join("broken.pem"),
        "-----BEGIN CERTIFICATE-----\n!!\n",
    )
    .unwrap();
    // Binary files that are no certificate: bytes that are not DER at all, and bytes
    // that open as a SEQUENCE and then break (they read as ASN.1 until decoded).
    let noise: Vec<u8> = (0u32..2000)
        .map(|i| (i * 7919 % 251) as u8 | 0x80)
        .collect();
    std::fs::write(certs.join("noise.bin"), &noise).unwrap();
    std::fs::write(certs.join("seq.der"), [0x30, 0x03, 0x02, 0x01, 0x05]).unwrap();
    let roots = h.roots();
    let r = pk(&["verify", "--roots", &roots, "-r", &s(&certs), "-f", "json"]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(common::json_items(&r).len(), 1, "{}", r.describe());
    assert!(
        r.stderr_str().contains("skipped 5 files"),
        "{}",
        r.describe()
    );
    let r = pk(&["verify", "--roots", &roots, "-r", &s(&certs), "--verbose"]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    for name in ["a.key", "README", "broken.pem", "noise.bin", "seq.der"] {
        assert!(r.stderr_str().contains(name), "{name}: {}", r.describe());
    }
    // Named, a blob is an input error with its offset.
    let r = pk(&["verify", "--roots", &roots, &s(&certs.join("seq.der"))]);
    assert_eq!(r.code, Some(3), "{}", r.describe());
    assert!(r.stderr_str().contains("offset"), "{}", r.describe());
    // Named, the key is an input error; a directory with no certificate at all too.
    let r = pk(&["verify", "--roots", &roots, &s(&certs.join("a.key"))]);
    assert_eq!(r.code, Some(3), "{}", r.describe());
    std::fs::remove_file(certs.join("a.pem")).unwrap();
    let r = pk(&["verify", "--roots", &roots, "-r", &s(&certs)]);
    assert_eq!(r.code, Some(3), "{}", r.describe());
}

/// Ed25519 leaves are checked in one batch before path building; each keeps the verdict
/// single verification gives, and openssl agrees leaf by leaf: a broken signature among
/// good ones is named, not the whole batch.
#[test]
fn many_ed25519_leaves_are_batched_and_keep_their_own_verdicts() {
    let h = hierarchy("ed25519");
    let out = h.dir.join("leaves");
    let (ca, o) = (s(&h.int), s(&out));
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &ca,
        "--count",
        "24",
        "--out-dir",
        &o,
    ]);
    let mut leaves: Vec<PathBuf> = (1..=24).map(|i| out.join(format!("{i}.pem"))).collect();
    // Leaf 4: a bit of R flipped; leaf 11: a bit of s; leaf 18: a bit of the TBS (its
    // validity's last digit), so the signature covers other bytes.
    for (i, from_end) in [(3usize, 64usize), (10, 2), (17, 0)] {
        let mut der = pem::parse(std::fs::read(&leaves[i]).unwrap())
            .unwrap()
            .contents()
            .to_vec();
        let at = if from_end == 0 {
            // The notAfter GeneralizedTime/UTCTime ends with 'Z': the digit before it.
            der.windows(2)
                .rposition(|w| w[1] == b'Z' && w[0].is_ascii_digit())
                .unwrap()
        } else {
            der.len() - from_end
        };
        der[at] ^= 0x01;
        let p = out.join(format!("broken-{i}.pem"));
        std::fs::write(&p, pem::encode(&pem::Pem::new("CERTIFICATE", der))).unwrap();
        leaves[i] = p;
    }
    let roots = h.roots();
    let int = s(&h.int.join("ca.pem"));
    let mut args = vec![
        "verify",
        "--roots",
        &roots,
        "--untrusted",
        &int,
        "-f",
        "jsonl",
    ];
    let names: Vec<String> = leaves.iter().map(|l| s(l)).collect();
    args.extend(names.iter().map(String::as_str));
    let r = pk(&args);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let verdicts: Vec<Value> = r
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), 24);
    for (i, (v, leaf)) in verdicts.iter().zip(&leaves).enumerate() {
        let broken = [3, 10, 17].contains(&i);
        assert_eq!(v["valid"], !broken, "leaf {i}: {v}");
        if broken {
            assert_eq!(reason(v), "signature-invalid", "leaf {i}: {v}");
        }
        assert_eq!(openssl_ok(&h, &[], leaf), !broken, "openssl on leaf {i}");
    }
}

#[test]
fn a_pool_of_look_alike_intermediates_ends_within_the_budget() {
    let h = hierarchy("ecdsa-p256");
    // 1,000 CAs that share the intermediate's name but not its key.
    let pool = h.dir.join("pool");
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&h.root),
        "--count",
        "1000",
        "--profile",
        "ca",
        "--subject-template",
        "CN=Verify Intermediate,O=pkit tests",
        "--out-dir",
        &s(&pool),
    ]);
    let mut text = String::new();
    for n in 1..=1000 {
        text.push_str(&std::fs::read_to_string(pool.join(format!("{n}.pem"))).unwrap());
    }
    let untrusted = h.dir.join("lookalikes.pem");
    std::fs::write(&untrusted, text).unwrap();
    // The real intermediate is not offered: every candidate fails its signature check.
    let leaf = h.leaf("target", &["--subject", "CN=target"]);
    let started = std::time::Instant::now();
    let (code, v) = verify(&h, &["--untrusted", &s(&untrusted), &s(&leaf)]);
    assert_eq!((code, reason(&v)), (Some(1), "budget-exceeded"), "{v}");
    assert!(started.elapsed() < common::HANG);
    // With the real intermediate last among them, the authorityKeyIdentifier puts it
    // first: found at once, within the budget.
    let (code, v) = verify(
        &h,
        &[
            "--untrusted",
            &s(&untrusted),
            "--untrusted",
            &s(&h.int.join("ca.pem")),
            &s(&leaf),
        ],
    );
    assert_eq!(code, Some(0), "{v}");
}

#[test]
fn bad_inputs_are_refused_with_their_exit_codes() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf("x", &["--subject", "CN=x"]);
    let junk = common::write_file(
        &h.dir,
        "junk.pem",
        b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    );
    let roots = h.roots();
    let r: Run = pk(&["verify", "--roots", &roots, &s(&junk)]);
    refused(&r, 3, &["junk.pem"], "an unparseable certificate");
    let empty = common::write_file(&h.dir, "empty.pem", b"");
    let r = pk(&["verify", "--roots", &s(&empty), &s(&leaf)]);
    refused(&r, 3, &["empty.pem"], "an empty roots file");
    let r = pk(&["verify", "--roots", &roots, &s(&h.dir.join("missing.pem"))]);
    refused(&r, 4, &["missing.pem"], "a missing file");
    let r = pk(&["verify", "--roots", &roots, &s(&h.dir)]);
    refused(&r, 2, &["is a directory", "-r"], "a directory without -r");
    let r = pk(&["parse", &s(&h.dir)]);
    refused(
        &r,
        2,
        &["is a directory", "-r"],
        "parse: a directory without -r",
    );
    // Roots that are leaves issued by someone else: the wrong file.
    let r = pk(&["verify", "--roots", &s(&leaf), &s(&leaf)]);
    refused(&r, 3, &["x.pem", "CA"], "roots that are not CAs");
    // A CRL signed by another CA answers nothing for this one: unknown, hard-fail.
    let other = h.dir.join("other");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&other),
        "--subject",
        "CN=Other CA",
    ]);
    let foreign = h.dir.join("foreign.crl");
    pk_ok(&["crl", "gen", "--ca", &s(&other), "-o", &s(&foreign)]);
    let (code, v) = verify(&h, &["--crl", &s(&foreign), &s(&h.bundle(&leaf))]);
    assert_eq!((code, reason(&v)), (Some(1), "revocation-unknown"), "{v}");
    let r = pk(&[
        "verify",
        "--roots",
        &roots,
        "--hostname",
        "bad..name",
        &s(&leaf),
    ]);
    refused(&r, 2, &["--hostname"], "a malformed host name");
}

fn time_in_days(days: i64) -> String {
    pkit::der::Time::now()
        .plus_seconds(days * 86_400)
        .to_string()
}

fn epoch_in_days(days: i64) -> String {
    pkit::der::Time::now()
        .plus_seconds(days * 86_400)
        .unix
        .to_string()
}

/// A certificate made by the system `openssl` with exactly the extensions `ext` lists
/// (openssl.cnf syntax), for the cases pkit's own issuer refuses to make: a CA past its
/// pathLenConstraint, name constraints, unknown critical extensions, cross-signing.
/// Self-signed when `signer` is None, else signed by its (certificate, key). Returns
/// (certificate, key).
fn ossl_cert(
    dir: &Path,
    name: &str,
    subject: &str,
    signer: Option<(&Path, &Path)>,
    ext: &str,
    key: Option<&Path>,
) -> (PathBuf, PathBuf) {
    common::require_openssl();
    let cert = dir.join(format!("{name}.pem"));
    let key = key.map_or_else(|| dir.join(format!("{name}.key")), Path::to_path_buf);
    if !key.exists() {
        let (c, out) = common::ossl(&[
            "genpkey",
            "-algorithm",
            "EC",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-out",
            &s(&key),
        ]);
        assert_eq!(c, Some(0), "{out}");
    }
    let cnf = dir.join(format!("{name}.cnf"));
    std::fs::write(
        &cnf,
        format!("[req]\ndistinguished_name = dn\n[dn]\n[v3]\n{ext}\nsubjectKeyIdentifier = hash\n"),
    )
    .unwrap();
    let (c, out) = match signer {
        None => common::ossl(&[
            "req",
            "-x509",
            "-new",
            "-key",
            &s(&key),
            "-subj",
            subject,
            "-days",
            "30",
            "-config",
            &s(&cnf),
            "-extensions",
            "v3",
            "-out",
            &s(&cert),
        ]),
        Some((ca, ca_key)) => {
            let csr = dir.join(format!("{name}.csr"));
            let (c, out) = common::ossl(&[
                "req",
                "-new",
                "-key",
                &s(&key),
                "-subj",
                subject,
                "-config",
                &s(&cnf),
                "-out",
                &s(&csr),
            ]);
            assert_eq!(c, Some(0), "{out}");
            common::ossl(&[
                "x509",
                "-req",
                "-in",
                &s(&csr),
                "-CA",
                &s(ca),
                "-CAkey",
                &s(ca_key),
                "-CAcreateserial",
                "-days",
                "30",
                "-extfile",
                &s(&cnf),
                "-extensions",
                "v3",
                "-out",
                &s(&cert),
            ])
        }
    };
    assert_eq!(c, Some(0), "openssl for {name}: {out}");
    (cert, key)
}

const CA_EXT: &str =
    "basicConstraints = critical, CA:true\nkeyUsage = critical, keyCertSign, cRLSign";
const LEAF_EXT: &str =
    "basicConstraints = critical, CA:false\nkeyUsage = critical, digitalSignature";

/// pkit's and openssl's verdicts on `leaf` with `untrusted` intermediates under `root`.
fn both(root: &Path, untrusted: &[&Path], leaf: &Path, extra: &[&str]) -> (Value, bool) {
    let mut args = vec![
        "verify".to_string(),
        "--roots".into(),
        s(root),
        "-f".into(),
        "json".into(),
    ];
    for u in untrusted {
        args.extend(["--untrusted".to_string(), s(u)]);
    }
    args.extend(extra.iter().map(|e| e.to_string()));
    args.push(s(leaf));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = pk(&argv);
    assert!(matches!(r.code, Some(0) | Some(1)), "{}", r.describe());
    let v = common::json_items(&r).remove(0);
    let mut o = vec!["verify".to_string(), "-CAfile".into(), s(root)];
    for u in untrusted {
        o.extend(["-untrusted".to_string(), s(u)]);
    }
    o.push(s(leaf));
    let oargv: Vec<&str> = o.iter().map(String::as_str).collect();
    let (code, out) = common::ossl(&oargv);
    (v, code == Some(0) && out.contains(": OK"))
}

#[test]
fn path_length_not_a_ca_and_key_usage_agree_with_openssl() {
    let t = common::tempdir();
    let d = t.path();
    let (root, rk) = ossl_cert(d, "root", "/CN=PL Root", None, CA_EXT, None);
    let (int0, i0k) = ossl_cert(
        d,
        "int0",
        "/CN=PL Int 0",
        Some((&root, &rk)),
        "basicConstraints = critical, CA:true, pathlen:0\nkeyUsage = critical, keyCertSign, cRLSign",
        None,
    );
    let (int, ik) = ossl_cert(d, "int", "/CN=PL Int", Some((&int0, &i0k)), CA_EXT, None);
    let (leaf, _) = ossl_cert(d, "leaf", "/CN=pl leaf", Some((&int, &ik)), LEAF_EXT, None);
    let (v, ossl_ok) = both(&root, &[&int0, &int], &leaf, &[]);
    assert_eq!(
        (v["valid"].as_bool(), reason(&v)),
        (Some(false), "path-length-exceeded"),
        "{v}"
    );
    assert!(!ossl_ok, "openssl accepted a path past pathlen:0");

    // The root's own pathlen:0 holds too, as in OpenSSL.
    let (r0, r0k) = ossl_cert(
        d,
        "r0",
        "/CN=PL Root 0",
        None,
        "basicConstraints = critical, CA:true, pathlen:0\nkeyUsage = critical, keyCertSign, cRLSign",
        None,
    );
    let (i0, i0k) = ossl_cert(
        d,
        "i0",
        "/CN=PL Int under 0",
        Some((&r0, &r0k)),
        CA_EXT,
        None,
    );
    let (l0, _) = ossl_cert(d, "l0", "/CN=pl leaf 0", Some((&i0, &i0k)), LEAF_EXT, None);
    let (v, ossl_ok) = both(&r0, &[&i0], &l0, &[]);
    assert_eq!(reason(&v), "path-length-exceeded", "{v}");
    assert!(!ossl_ok);

    // A leaf (cA false) used as an issuer.
    let (root2, rk2) = ossl_cert(d, "root2", "/CN=NC Root", None, CA_EXT, None);
    let (notca, nk) = ossl_cert(
        d,
        "notca",
        "/CN=Not A CA",
        Some((&root2, &rk2)),
        LEAF_EXT,
        None,
    );
    let (below, _) = ossl_cert(d, "below", "/CN=below", Some((&notca, &nk)), LEAF_EXT, None);
    let (v, ossl_ok) = both(&root2, &[&notca], &below, &[]);
    assert_eq!(reason(&v), "not-a-ca", "{v}");
    assert!(!ossl_ok);

    // A CA whose keyUsage lacks keyCertSign.
    let (nosign, sk) = ossl_cert(
        d,
        "nosign",
        "/CN=No keyCertSign",
        Some((&root2, &rk2)),
        "basicConstraints = critical, CA:true\nkeyUsage = critical, cRLSign",
        None,
    );
    let (under, _) = ossl_cert(
        d,
        "under",
        "/CN=under",
        Some((&nosign, &sk)),
        LEAF_EXT,
        None,
    );
    let (v, ossl_ok) = both(&root2, &[&nosign], &under, &[]);
    assert_eq!(reason(&v), "key-usage", "{v}");
    assert!(!ossl_ok);
}

#[test]
fn name_constraints_agree_with_openssl() {
    let t = common::tempdir();
    let d = t.path();
    let (root, rk) = ossl_cert(d, "root", "/CN=NC Root", None, CA_EXT, None);
    let (int, ik) = ossl_cert(
        d, "int", "/CN=NC Int", Some((&root, &rk)),
        &format!("{CA_EXT}\nnameConstraints = critical, permitted;DNS:example.com, excluded;DNS:secret.example.com, permitted;IP:192.0.2.0/255.255.255.0"),
        None,
    );
    for (name, san, ok) in [
        ("in", "DNS:www.example.com", true),
        ("apex", "DNS:example.com", true),
        ("out", "DNS:www.example.org", false),
        ("excluded", "DNS:a.secret.example.com", false),
        ("ip_in", "IP:192.0.2.9", true),
        ("ip_out", "IP:198.51.100.1", false),
    ] {
        let (leaf, _) = ossl_cert(
            d,
            name,
            &format!("/CN={name}"),
            Some((&int, &ik)),
            &format!("{LEAF_EXT}\nsubjectAltName = {san}"),
            None,
        );
        let (v, ossl_ok) = both(&root, &[&int], &leaf, &[]);
        assert_eq!(v["valid"].as_bool(), Some(ok), "{name}: {v}");
        if !ok {
            assert_eq!(reason(&v), "name-constraints", "{name}");
        }
        assert_eq!(ossl_ok, ok, "openssl on {name}");
    }
}

#[test]
fn unknown_critical_extensions_fail_as_in_openssl() {
    let t = common::tempdir();
    let d = t.path();
    let (root, rk) = ossl_cert(d, "root", "/CN=Crit Root", None, CA_EXT, None);
    let (leaf, _) = ossl_cert(
        d,
        "leaf",
        "/CN=crit",
        Some((&root, &rk)),
        &format!("{LEAF_EXT}\n1.3.6.1.4.1.55555.1 = critical, ASN1:NULL"),
        None,
    );
    let (v, ossl_ok) = both(&root, &[], &leaf, &[]);
    assert_eq!(reason(&v), "unknown-critical-extension", "{v}");
    assert!(!ossl_ok);
    // The same extension, not critical, is no reason to refuse.
    let (ok_leaf, _) = ossl_cert(
        d,
        "ok",
        "/CN=noncrit",
        Some((&root, &rk)),
        &format!("{LEAF_EXT}\n1.3.6.1.4.1.55555.1 = ASN1:NULL"),
        None,
    );
    let (v, ossl_ok) = both(&root, &[], &ok_leaf, &[]);
    assert_eq!(v["valid"], true, "{v}");
    assert!(ossl_ok);
}

#[test]
fn a_cross_signed_intermediate_finds_the_root_that_is_trusted() {
    let t = common::tempdir();
    let d = t.path();
    let (old_root, ok) = ossl_cert(d, "old", "/CN=Old Root", None, CA_EXT, None);
    let (new_root, nk) = ossl_cert(d, "new", "/CN=New Root", None, CA_EXT, None);
    // One intermediate key, certified by both roots.
    let (int_old, ik) = ossl_cert(
        d,
        "int_old",
        "/CN=Shared Int",
        Some((&old_root, &ok)),
        CA_EXT,
        None,
    );
    let (int_new, _) = ossl_cert(
        d,
        "int_new",
        "/CN=Shared Int",
        Some((&new_root, &nk)),
        CA_EXT,
        Some(&ik),
    );
    let (leaf, _) = ossl_cert(
        d,
        "leaf",
        "/CN=cross",
        Some((&int_old, &ik)),
        LEAF_EXT,
        None,
    );
    // Only the new root is trusted; both intermediates are offered. OpenSSL 3.0 takes the
    // first intermediate that matches and does not go back, so it agrees only when the
    // right one comes first; pkit backtracks, so the order does not matter to it.
    let (v, ossl_ok) = both(&new_root, &[&int_new, &int_old], &leaf, &[]);
    assert_eq!(v["valid"], true, "{v}");
    assert!(ossl_ok);
    let (v, ossl_ok) = both(&new_root, &[&int_old, &int_new], &leaf, &[]);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["chain"][2]["subject"], "CN=New Root");
    assert!(
        !ossl_ok,
        "OpenSSL 3.0 learned to backtrack: this comment is out of date"
    );
    // And the other way round.
    let (v, _) = both(&old_root, &[&int_new, &int_old], &leaf, &[]);
    assert_eq!(v["chain"][2]["subject"], "CN=Old Root", "{v}");
}

/// `n` CAs in a line under `top` (each signing the next) and a leaf under the last:
/// (the CAs, top first; the leaf).
fn ca_chain(d: &Path, prefix: &str, n: usize, top: (&Path, &Path)) -> (Vec<PathBuf>, PathBuf) {
    let (mut ca, mut key) = (top.0.to_path_buf(), top.1.to_path_buf());
    let mut cas = Vec::new();
    for i in 1..=n {
        let name = format!("{prefix}{i}");
        let subject = format!("/CN={prefix} {i}");
        let (c, k) = ossl_cert(d, &name, &subject, Some((&ca, &key)), CA_EXT, None);
        cas.push(c.clone());
        (ca, key) = (c, k);
    }
    let leaf_name = format!("{prefix}leaf");
    let (leaf, _) = ossl_cert(
        d,
        &leaf_name,
        "/CN=chain leaf",
        Some((&ca, &key)),
        LEAF_EXT,
        None,
    );
    (cas, leaf)
}

#[test]
fn loops_and_long_chains_end_with_a_reason() {
    let t = common::tempdir();
    let d = t.path();
    // Two CAs that certify each other, neither trusted: a loop with no way out.
    let (root, _) = ossl_cert(d, "root", "/CN=Loop Root", None, CA_EXT, None);
    let (a0, ak) = ossl_cert(d, "a0", "/CN=Loop A", None, CA_EXT, None);
    let (b, bk) = ossl_cert(d, "b", "/CN=Loop B", Some((&a0, &ak)), CA_EXT, None);
    let (a, _) = ossl_cert(d, "a", "/CN=Loop A", Some((&b, &bk)), CA_EXT, Some(&ak));
    let (leaf, _) = ossl_cert(d, "leaf", "/CN=looped", Some((&a, &ak)), LEAF_EXT, None);
    let (v, ossl_ok) = both(&root, &[&a, &b], &leaf, &[]);
    assert_eq!(reason(&v), "unknown-issuer", "{v}");
    assert!(!ossl_ok);
    // A chain 100 CAs deep under a trusted root: longer than any path pkit builds.
    let (top, top_key) = ossl_cert(d, "deep0", "/CN=Deep 0", None, CA_EXT, None);
    let (all, deep_leaf) = ca_chain(d, "deep", 100, (&top, &top_key));
    let refs: Vec<&Path> = all.iter().map(PathBuf::as_path).collect();
    let (v, _) = both(&top, &refs, &deep_leaf, &[]);
    assert_eq!(reason(&v), "depth-exceeded", "{v}");
    // Three intermediates: --max-depth 3 allows them, 2 does not, as -verify_depth.
    let (three, short_leaf) = ca_chain(d, "three", 3, (&top, &top_key));
    let refs: Vec<&Path> = three.iter().map(PathBuf::as_path).collect();
    for (depth, ok) in [("3", true), ("2", false)] {
        let (v, _) = both(&top, &refs, &short_leaf, &["--max-depth", depth]);
        assert_eq!(v["valid"].as_bool(), Some(ok), "--max-depth {depth}: {v}");
        if !ok {
            assert_eq!(reason(&v), "depth-exceeded");
        }
        let mut o = vec![
            "verify".to_string(),
            "-verify_depth".into(),
            depth.into(),
            "-CAfile".into(),
            s(&top),
        ];
        for u in &refs {
            o.extend(["-untrusted".to_string(), s(u)]);
        }
        o.push(s(&short_leaf));
        let oargv: Vec<&str> = o.iter().map(String::as_str).collect();
        let (code, _) = common::ossl(&oargv);
        assert_eq!(code == Some(0), ok, "openssl -verify_depth {depth}");
    }
}

/// A DSA CA (made by the openssl tool, dsa-with-sha256 signatures) verifies under
/// `rfc5280`, as `openssl verify` says; `webpki` refuses its key (BR §6.1.5).
#[test]
fn dsa_chains_verify_under_rfc5280_only() {
    let t = common::tempdir();
    let d = t.path();
    let (root, root_key) = ossl_cert(d, "root", "/CN=DSA Test Root", None, CA_EXT, None);
    let params = d.join("dsa.params");
    let dsa_key = d.join("dsa.key");
    for args in [
        vec![
            "genpkey",
            "-genparam",
            "-algorithm",
            "DSA",
            "-pkeyopt",
            "dsa_paramgen_bits:2048",
            "-out",
            &s(&params),
        ],
        vec!["genpkey", "-paramfile", &s(&params), "-out", &s(&dsa_key)],
    ] {
        let (c, out) = common::ossl(&args);
        assert_eq!(c, Some(0), "{out}");
    }
    let (ca, _) = ossl_cert(
        d,
        "dsa_ca",
        "/CN=DSA Test CA",
        Some((&root, &root_key)),
        CA_EXT,
        Some(&dsa_key),
    );
    let (leaf, _) = ossl_cert(d, "leaf", "/CN=leaf", Some((&ca, &dsa_key)), LEAF_EXT, None);
    let (v, ossl_ok) = both(&root, &[&ca], &leaf, &[]);
    assert_eq!(v["valid"].as_bool(), Some(true), "{v}");
    assert!(ossl_ok, "openssl verify refuses the DSA chain");
    let (v, _) = both(&root, &[&ca], &leaf, &["--rules", "webpki"]);
    assert_eq!(reason(&v), "weak-algorithm", "{v}");
}

/// `--max-depth` counts intermediates as RFC 5280 §6.1.4 (l) counts them toward a
/// pathLenConstraint: a self-issued one (a CA's key rollover, same name, new key) does
/// not count, under either rule set.
#[test]
fn max_depth_does_not_count_self_issued_intermediates() {
    let t = common::tempdir();
    let d = t.path();
    let (root, root_key) = ossl_cert(d, "root", "/CN=Depth Root", None, CA_EXT, None);
    let (old, old_key) = ossl_cert(
        d,
        "old",
        "/CN=Rollover CA",
        Some((&root, &root_key)),
        CA_EXT,
        None,
    );
    // Same subject as its issuer: self-issued.
    let (new, new_key) = ossl_cert(
        d,
        "new",
        "/CN=Rollover CA",
        Some((&old, &old_key)),
        CA_EXT,
        None,
    );
    let (leaf, _) = ossl_cert(
        d,
        "leaf",
        "/CN=leaf",
        Some((&new, &new_key)),
        LEAF_EXT,
        None,
    );
    for rules in ["rfc5280", "webpki"] {
        for (depth, ok) in [("1", true), ("0", false)] {
            let extra = ["--max-depth", depth, "--rules", rules];
            let (v, _) = both(&root, &[&old, &new], &leaf, &extra);
            assert_eq!(
                v["valid"].as_bool(),
                Some(ok),
                "{rules} --max-depth {depth}: {v}"
            );
            if !ok {
                assert_eq!(reason(&v), "depth-exceeded", "{v}");
            }
        }
    }
}

/// pyca/cryptography's verifier (its WebPKI server policy) on `leaf` for `host` at the
/// time `at` (Unix seconds): "OK" or "FAIL …".
const PY_SERVER_VERIFY: &str = r#"
import sys, datetime
from cryptography import x509
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError
def load(p): return x509.load_pem_x509_certificates(open(p, 'rb').read())
root = load(sys.argv[1])[0]
chain = load(sys.argv[2])
at = datetime.datetime.fromtimestamp(int(sys.argv[4]), datetime.timezone.utc)
verifier = PolicyBuilder().store(Store([root])).time(at).build_server_verifier(x509.DNSName(sys.argv[3]))
try:
    verifier.verify(chain[0], chain[1:])
    print("OK")
except VerificationError as e:
    print("FAIL", e)
"#;

fn pyca_ok(root: &Path, chain: &Path, host: &str, at: i64) -> bool {
    common::require_python_cryptography();
    let args = [
        "-c".to_string(),
        PY_SERVER_VERIFY.to_string(),
        s(root),
        s(chain),
        host.to_string(),
        at.to_string(),
    ];
    let r = common::run_with("python3", &args, None, common::HANG);
    assert_eq!(r.code, Some(0), "pyca: {}", r.describe());
    let out = r.stdout_str();
    assert!(
        out.starts_with("OK") || out.starts_with("FAIL"),
        "pyca said {out}"
    );
    out.starts_with("OK")
}

#[test]
fn pycas_verifier_agrees_on_server_chains() {
    for alg in [
        "ecdsa-p256",
        "ecdsa-p384",
        "rsa2048",
        "ml-dsa-44",
        "ml-dsa-65",
        "ml-dsa-87",
    ] {
        let h = hierarchy(alg);
        let web = h.leaf(
            "web",
            &[
                "--subject",
                "CN=www.example.com",
                "--san",
                "DNS:www.example.com",
                "--alg",
                alg,
            ],
        );
        let client = h.leaf(
            "client",
            &[
                "--subject",
                "CN=client",
                "--san",
                "DNS:www.example.com",
                "--profile",
                "client",
                "--alg",
                alg,
            ],
        );
        let (web, client) = (h.bundle(&web), h.bundle(&client));
        // Taken once the leaves exist: pyca judges at this time, and a leaf's notBefore
        // is the second it was issued (a slow ML-DSA-87 issuance can pass a second).
        let now = pkit::der::Time::now().unix;
        let later = time_in_days(400);
        for (what, chain, host, at, at_text) in [
            ("valid", &web, "www.example.com", now, None),
            ("wrong host", &web, "mail.example.com", now, None),
            (
                "expired",
                &web,
                "www.example.com",
                now + 400 * 86_400,
                Some(later.as_str()),
            ),
            ("client EKU", &client, "www.example.com", now, None),
        ] {
            let mut args = vec![
                "--purpose",
                "server",
                "--hostname",
                host,
                "--rules",
                "webpki",
            ];
            if let Some(t) = at_text {
                args.extend(["--now", t]);
            }
            let chain_arg = s(chain);
            args.push(&chain_arg);
            let (code, v) = verify(&h, &args);
            let py = pyca_ok(&h.root.join("ca.pem"), chain, host, at);
            assert_eq!(code == Some(0), py, "{alg} {what}: pkit {v}, pyca {py}");
            assert_eq!(py, what == "valid", "{alg} {what}: pyca");
        }
    }
}

/// An OCSP response from `pkit ocsp respond` for `leaf`, as a file.
fn ocsp_response(h: &Hierarchy, leaf: &Path, name: &str) -> PathBuf {
    let req = h.dir.join(format!("{name}.req"));
    let resp = h.dir.join(format!("{name}.resp"));
    let int_pem = s(&h.int.join("ca.pem"));
    pk_ok(&[
        "ocsp",
        "request",
        "--cert",
        &s(leaf),
        "--issuer",
        &int_pem,
        "-o",
        &s(&req),
    ]);
    pk_ok(&[
        "ocsp",
        "respond",
        "--ca",
        &s(&h.int),
        "--request",
        &s(&req),
        "-o",
        &s(&resp),
    ]);
    resp
}

#[test]
fn revocation_from_ocsp_responses_agrees_with_openssl() {
    let h = hierarchy("ecdsa-p256");
    let good = h.leaf("good", &["--subject", "CN=good"]);
    let bad = h.leaf("bad", &["--subject", "CN=bad"]);
    h.revoke(&bad, "superseded");
    let good_resp = ocsp_response(&h, &good, "good");
    let bad_resp = ocsp_response(&h, &bad, "bad");
    let (code, v) = verify(
        &h,
        &["--ocsp-response", &s(&good_resp), &s(&h.bundle(&good))],
    );
    assert_eq!(code, Some(0), "{v}");
    let (code, v) = verify(&h, &["--ocsp-response", &s(&bad_resp), &s(&h.bundle(&bad))]);
    assert_eq!((code, reason(&v)), (Some(1), "revoked"), "{v}");
    assert!(v["detail"].as_str().unwrap().contains("superseded"), "{v}");
    // A response about another certificate answers nothing: unknown, hard-fail.
    let (code, v) = verify(
        &h,
        &["--ocsp-response", &s(&good_resp), &s(&h.bundle(&bad))],
    );
    assert_eq!((code, reason(&v)), (Some(1), "revocation-unknown"), "{v}");
    // openssl reads the same responses the same way.
    common::require_openssl();
    for (leaf, resp, status) in [(&good, &good_resp, "good"), (&bad, &bad_resp, "revoked")] {
        let (c, out) = common::ossl(&[
            "ocsp",
            "-respin",
            &s(resp),
            "-issuer",
            &s(&h.int.join("ca.pem")),
            "-cert",
            &s(leaf),
            "-CAfile",
            &h.roots(),
            "-verify_other",
            &s(&h.int.join("ca.pem")),
        ]);
        assert_eq!(c, Some(0), "{out}");
        assert!(out.contains(&format!(": {status}")), "{out}");
    }
}

#[test]
fn help_lists_every_reason_code() {
    let r = pk_ok(&["verify", "--help"]);
    let help = r.stdout_str().replace('\n', " ");
    for reason in pkit::pki::verify::Reason::ALL {
        assert!(help.contains(reason.code()), "--help lacks {reason}");
    }
}

#[test]
fn ocsp_asks_the_responder_the_certificate_names() {
    let h = hierarchy("ecdsa-p256");
    let port = common::free_port();
    // A leaf whose authorityInfoAccess names a responder on 127.0.0.1: from a CSR that
    // asks for the extension (pkit copies requested extensions).
    common::require_openssl();
    let (csr, key) = (h.dir.join("online.csr"), h.dir.join("online.key"));
    let (c, out) = common::ossl(&[
        "req",
        "-new",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        &s(&key),
        "-subj",
        "/CN=online",
        "-addext",
        "subjectAltName=DNS:online.example",
        "-addext",
        &format!("authorityInfoAccess=OCSP;URI:http://127.0.0.1:{port}/"),
        "-out",
        &s(&csr),
    ]);
    assert_eq!(c, Some(0), "{out}");
    let leaf = h.dir.join("online.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&h.int),
        "--csr",
        &s(&csr),
        "-o",
        &s(&leaf),
    ]);
    let bundle = s(&h.bundle(&leaf));
    let mut serve = std::process::Command::new(common::pkit_bin());
    serve.args([
        "ocsp",
        "serve",
        "--ca",
        &s(&h.int),
        "--listen",
        &format!("127.0.0.1:{port}"),
    ]);
    let server = common::Server::start(serve, h.dir.join("serve.log"), "\"listening\"");
    let (code, v) = verify(&h, &["--ocsp", &bundle]);
    assert_eq!(code, Some(0), "{v}");
    h.revoke(&leaf, "keyCompromise");
    let (code, v) = verify(&h, &["--ocsp", &bundle]);
    assert_eq!((code, reason(&v)), (Some(1), "revoked"), "{v}");
    drop(server);
    // No responder: unknown, which hard-fail rejects and soft-fail lets pass.
    let (code, v) = verify(&h, &["--ocsp", &bundle]);
    assert_eq!((code, reason(&v)), (Some(1), "revocation-unknown"), "{v}");
    assert!(
        v["detail"]
            .as_str()
            .unwrap()
            .contains(&format!("127.0.0.1:{port}")),
        "{v}"
    );
    let (code, v) = verify(&h, &["--ocsp", "--revocation-policy", "soft-fail", &bundle]);
    assert_eq!(code, Some(0), "{v}");
}

/// `openssl s_server` on 127.0.0.1 presenting `cert` (and `chain`, when given).
fn tls_server(h: &Hierarchy, port: u16, cert: &Path, chain: Option<&Path>) -> common::Server {
    common::require_openssl();
    let key = cert.with_extension("key");
    let mut args = format!(
        "exec openssl s_server -www -accept 127.0.0.1:{port} -cert '{}' -key '{}'",
        s(cert),
        s(&key)
    );
    if let Some(c) = chain {
        args.push_str(&format!(" -cert_chain '{}'", s(c)));
    }
    // s_server says ACCEPT on stdout once it listens; the helper watches stderr.
    args.push_str(" 1>&2");
    let mut cmd = std::process::Command::new("sh");
    cmd.args(["-c", &args]);
    common::Server::start(cmd, h.dir.join(format!("s_server-{port}.log")), "ACCEPT")
}

#[test]
fn connect_verifies_the_chain_a_server_sends() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf(
        "tls",
        &[
            "--subject",
            "CN=localhost",
            "--san",
            "DNS:localhost",
            "--san",
            "IP:127.0.0.1",
        ],
    );
    let int = h.int.join("ca.pem");
    let port = common::free_port();
    let server = tls_server(&h, port, &leaf, Some(&int));
    let target = format!("localhost:{port}");
    // The name defaults to the host connected to.
    let (code, v) = verify(&h, &["--connect", &target]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["input"], target.as_str());
    assert_eq!(v["source"], v["input"]);
    assert_eq!(v["chain"].as_array().unwrap().len(), 3, "{v}");
    let (code, v) = verify(&h, &["--connect", &format!("127.0.0.1:{port}")]);
    assert_eq!(
        code,
        Some(0),
        "an IP address matches the iPAddress SAN: {v}"
    );
    let (code, v) = verify(&h, &["--connect", &target, "--hostname", "www.example.com"]);
    assert_eq!((code, reason(&v)), (Some(1), "hostname-mismatch"), "{v}");
    let later = time_in_days(400);
    let (code, v) = verify(&h, &["--connect", &target, "--now", &later]);
    assert_eq!((code, reason(&v)), (Some(1), "expired"), "{v}");
    // `pkit parse --connect` shows what the server sent.
    let r = pk_ok(&["parse", "--connect", &target, "-f", "jsonl"]);
    let subjects: Vec<String> = r
        .stdout_str()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["subject_dn"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(
        subjects,
        ["CN=localhost", "CN=Verify Intermediate,O=pkit tests"]
    );
    drop(server);
    // A server that leaves its intermediate out.
    let port = common::free_port();
    let _server = tls_server(&h, port, &leaf, None);
    let (code, v) = verify(&h, &["--connect", &format!("localhost:{port}")]);
    assert_eq!((code, reason(&v)), (Some(1), "unknown-issuer"), "{v}");
    // Nothing listening: exit 4, naming the address.
    let closed = common::free_port();
    let roots = h.roots();
    let r = pk(&[
        "verify",
        "--roots",
        &roots,
        "--connect",
        &format!("127.0.0.1:{closed}"),
    ]);
    refused(
        &r,
        4,
        &[&format!("127.0.0.1:{closed}")],
        "a refused connection",
    );
}

#[test]
fn a_pinned_end_entity_vouches_only_for_itself() {
    let t = common::tempdir();
    let d = t.path();
    // A self-signed server certificate, trusted as it is (pinning).
    let (pinned, pk_key) = ossl_cert(d, "pinned", "/CN=pinned", None, LEAF_EXT, None);
    let (v, ossl_ok) = both(&pinned, &[], &pinned, &[]);
    assert_eq!(v["valid"], true, "{v}");
    assert!(ossl_ok);
    // What its key signs is not trusted: it is no CA.
    let (forged, _) = ossl_cert(
        d,
        "forged",
        "/CN=forged",
        Some((&pinned, &pk_key)),
        LEAF_EXT,
        None,
    );
    let (v, ossl_ok) = both(&pinned, &[], &forged, &[]);
    assert_eq!(reason(&v), "not-a-ca", "{v}");
    assert!(!ossl_ok);
}

#[test]
fn revocation_asked_for_without_a_source_is_unknown() {
    let h = hierarchy("ecdsa-p256");
    let leaf = h.leaf("asked", &["--subject", "CN=asked"]);
    let bundle = s(&h.bundle(&leaf));
    let (code, v) = verify(&h, &["--check-revocation", "leaf", &bundle]);
    assert_eq!((code, reason(&v)), (Some(1), "revocation-unknown"), "{v}");
    let (code, v) = verify(
        &h,
        &[
            "--check-revocation",
            "leaf",
            "--revocation-policy",
            "soft-fail",
            &bundle,
        ],
    );
    assert_eq!(code, Some(0), "{v}");
}
