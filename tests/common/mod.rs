//! Helpers shared by the CLI tests: the built binary and scratch directories.
#![allow(dead_code)] // each test crate uses its own subset

pub mod bad_certs;
pub mod malformed;
mod peers;
mod pg;
mod server;

pub use peers::*;
#[allow(unused_imports)] // only the tests that use a database server
pub use pg::{pg_database, psql_for_ca, PgCluster, PgDb};
#[allow(unused_imports)] // only the tests that start servers use them
pub use server::{free_port, http_agent, http_get, Server};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `pkit` binary cargo built for this test run.
pub fn pkit_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pkit"))
}

/// A `pkit` command with a clean environment for colour and no stdin.
pub fn pkit() -> Command {
    let mut c = Command::new(pkit_bin());
    c.env("NO_COLOR", "1").stdin(std::process::Stdio::null());
    c
}

/// Run `pkit ARGS…` in `dir` and return its output.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    pkit()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("running pkit")
}

/// A temporary directory removed when dropped.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("creating a temporary directory")
}

/// Exit code, stdout and stderr as text, for assertions and failure messages.
pub fn outcome(o: &Output) -> (i32, String, String) {
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

// ---------------------------------------------------------------------------------------
// Running children with a hang limit; peer programs; the root store and the corpora.
// (Used by the parse_* and mldsa_certs tests.)

/// How long any one child may run before it is killed and the test fails as a hang. It is
/// a hang detector only, far above what any command here needs.
pub const HANG: std::time::Duration = std::time::Duration::from_secs(20);

/// What a finished child left behind.
#[derive(Debug)]
pub struct Run {
    /// The exit code; `None` when the child was killed by a signal (or by us on timeout).
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub timed_out: bool,
}

impl Run {
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    pub fn stderr_str(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
    /// A short description for assertion messages.
    pub fn describe(&self) -> String {
        let mut err = self.stderr_str();
        if err.len() > 2000 {
            let mut cut = 2000;
            while !err.is_char_boundary(cut) {
                cut -= 1;
            }
            err.truncate(cut);
            err.push('…');
        }
        format!(
            "exit {:?}{}; stderr: {}",
            self.code,
            if self.timed_out {
                " (killed: timed out)"
            } else {
                ""
            },
            err.trim_end()
        )
    }
}

/// Run `program args…` with `stdin` (or /dev/null), capture its output, and kill it if it
/// outlives `limit`.
pub fn run_with(
    program: impl AsRef<std::ffi::OsStr>,
    args: &[impl AsRef<std::ffi::OsStr>],
    stdin: Option<&[u8]>,
    limit: std::time::Duration,
) -> Run {
    let program = program.as_ref();
    try_run_with(program, args, stdin, limit)
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.to_string_lossy()))
}

/// [`run_with`], with a program that cannot be started as an error instead of a panic.
pub fn try_run_with(
    program: impl AsRef<std::ffi::OsStr>,
    args: &[impl AsRef<std::ffi::OsStr>],
    stdin: Option<&[u8]>,
    limit: std::time::Duration,
) -> std::io::Result<Run> {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let program = program.as_ref();
    let mut cmd = Command::new(program);
    cmd.args(args)
        .env("NO_COLOR", "1")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn()?;
    let writer = stdin.map(|data| {
        let mut pipe = child.stdin.take().expect("stdin pipe");
        let data = data.to_vec();
        // A child that stops reading (it failed early) closes the pipe: not our error.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&data);
        })
    });
    let mut out_pipe = child.stdout.take().expect("stdout pipe");
    let mut err_pipe = child.stderr.take().expect("stderr pipe");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let deadline = std::time::Instant::now() + limit;
    let mut timed_out = false;
    let status = loop {
        match child.try_wait().expect("waiting for child") {
            Some(s) => break s,
            None if std::time::Instant::now() >= deadline => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().expect("waiting for killed child");
            }
            None => std::thread::sleep(std::time::Duration::from_millis(5)),
        }
    };
    if let Some(w) = writer {
        let _ = w.join();
    }
    Ok(Run {
        code: status.code(),
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        timed_out,
    })
}

/// Run pkit with arguments, no stdin, and the hang limit.
pub fn pkit_run(args: &[impl AsRef<std::ffi::OsStr>]) -> Run {
    pkit_with(args, None, HANG)
}

/// Run pkit with `stdin` as its standard input.
pub fn pkit_stdin(args: &[impl AsRef<std::ffi::OsStr>], stdin: &[u8]) -> Run {
    pkit_with(args, Some(stdin), HANG)
}

/// Run pkit; a new CA's records go to PostgreSQL when the tests run on it
/// ([`pg::on_test_database`]).
fn pkit_with(
    args: &[impl AsRef<std::ffi::OsStr>],
    stdin: Option<&[u8]>,
    limit: std::time::Duration,
) -> Run {
    let args: Vec<std::ffi::OsString> = args.iter().map(|a| a.as_ref().to_owned()).collect();
    let args = pg::on_test_database(&args).unwrap_or(args);
    run_with(pkit_bin(), &args, stdin, limit)
}

/// Whether the CLI tests' CAs keep their records on PostgreSQL this run
/// (`PKIT_TEST_DATABASE=postgres`): a test of `ca.db` itself has nothing to look at then.
pub fn on_postgres() -> bool {
    std::env::var("PKIT_TEST_DATABASE").is_ok_and(|v| v == "postgres")
}

/// Parse a `-f json` envelope and return its items.
pub fn json_items(run: &Run) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "pkit's stdout is not JSON ({e}): {}\n{}",
            run.stdout_str(),
            run.describe()
        )
    });
    assert_eq!(v["schema"], "pkit/v1", "envelope: {v}");
    v["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items array: {v}"))
        .clone()
}

/// True (after a note) when `PKIT_SKIP_CORPUS=1` asks to skip the tests that need external
/// programs and corpora. CI must run them: there the variable fails the test instead.
pub fn skip_corpus(test: &str) -> bool {
    if std::env::var("PKIT_SKIP_CORPUS").as_deref() != Ok("1") {
        return false;
    }
    missing(
        test,
        "PKIT_SKIP_CORPUS=1 asks to skip the checks against programs we did not write",
        "unset PKIT_SKIP_CORPUS",
    );
    true
}

/// The system `openssl` command line tool (required).
pub fn require_openssl() {
    require(Peer::Openssl);
}

/// Python 3 with `cryptography` (required).
pub fn require_python_cryptography() {
    require(Peer::PythonCryptography);
}

/// The `vectors/x509` directory of the `cryptography_vectors` package (required).
pub fn cryptography_vectors_x509() -> PathBuf {
    cryptography_vectors().join("x509")
}

/// The Debian system root store.
pub const ROOT_STORE: &str = "/etc/ssl/certs/ca-certificates.crt";

/// One certificate of the root store: its PEM block (as in the file) and its DER.
pub struct StoreCert {
    pub pem: String,
    pub der: Vec<u8>,
}

/// The certificates of the system root store, in file order.
pub fn root_store() -> Vec<StoreCert> {
    let text = std::fs::read_to_string(ROOT_STORE).unwrap_or_else(|e| {
        panic!("{ROOT_STORE}: {e}; install it with apt-get install ca-certificates")
    });
    let mut out = Vec::new();
    for block in pem_blocks(&text) {
        let p = pem::parse(block.as_bytes()).expect("root store PEM");
        assert_eq!(p.tag(), "CERTIFICATE");
        out.push(StoreCert {
            pem: block,
            der: p.into_contents(),
        });
    }
    assert!(
        out.len() > 100,
        "{ROOT_STORE} holds only {} certificates",
        out.len()
    );
    out
}

/// The PEM blocks of a text, each from its BEGIN line through its END line and newline.
pub fn pem_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("-----BEGIN ") {
            cur = Some(String::new());
        }
        if let Some(c) = cur.as_mut() {
            c.push_str(line);
            c.push('\n');
        }
        if line.starts_with("-----END ") {
            if let Some(c) = cur.take() {
                out.push(c);
            }
        }
    }
    out
}

/// DER TLV header for `tag` and `len` (definite, minimal length).
pub fn der_header(tag: u8, len: usize) -> Vec<u8> {
    let mut v = vec![tag];
    if len < 0x80 {
        v.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        v.push(0x80 | (bytes.len() - skip) as u8);
        v.extend_from_slice(&bytes[skip..]);
    }
    v
}

/// A DER TLV.
pub fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut v = der_header(tag, content.len());
    v.extend_from_slice(content);
    v
}

/// Write `bytes` to `dir/name` and return the path.
pub fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    p
}

/// `pkit mtc add --dir DIR --from M [--now NOW]` with entries `first..first+n`
/// (`CN=host{i}.example`, a DNS SAN, a fresh `alg` key each when given).
pub fn mtc_add(dir: &Path, first: usize, n: usize, alg: Option<&str>, now: Option<&str>) {
    let alg = alg.map_or(String::new(), |a| format!(",\"alg\":\"{a}\""));
    let manifest: String = (first..first + n)
        .map(|i| {
            format!(
                "{{\"subject\":\"CN=host{i}.example\",\"sans\":[\"DNS:host{i}.example\"]{alg}}}\n"
            )
        })
        .collect();
    let m = write_file(dir, &format!("manifest-{first}.jsonl"), manifest.as_bytes());
    let (d, m) = (s(dir), s(&m));
    let mut args = vec!["mtc", "add", "--dir", &d, "--from", &m];
    if let Some(now) = now {
        args.extend(["--now", now]);
    }
    // A bulk load is CPU time, not a hang: 69k entries take a debug build about 6 s
    // alone on 2 cores and several times that beside the other test binaries, so the
    // hang limit grows with the entries (20 s, plus 1 s a thousand).
    let limit = HANG + std::time::Duration::from_millis(n as u64);
    let r = pkit_with(&args, None, limit);
    assert_eq!(r.code, Some(0), "pkit {}: {}", args.join(" "), r.describe());
}

/// Assert what every failed parse must look like: exit 3, no panic, no hang, and an error
/// line on stderr naming `name` and a byte offset.
pub fn assert_parse_failure(run: &Run, name: &str, what: &str) {
    let err = run.stderr_str();
    assert!(!run.timed_out, "{what}: pkit hung; {}", run.describe());
    assert!(
        !err.contains("panicked"),
        "{what}: pkit panicked; {}",
        run.describe()
    );
    assert_eq!(
        run.code,
        Some(3),
        "{what}: expected exit 3; {}",
        run.describe()
    );
    assert!(
        err.lines()
            .any(|l| l.contains(name) && l.contains("offset")),
        "{what}: expected a stderr line naming {name} and an offset; {}",
        run.describe()
    );
}

// ---------------------------------------------------------------------------------------
// Short forms the CLI tests share.

/// Every algorithm pkit generates keys and signs with, as `--alg` spells them.
pub const ALGS: [&str; 9] = [
    "ecdsa-p256",
    "ecdsa-p384",
    "ed25519",
    "rsa2048",
    "rsa3072",
    "rsa4096",
    "ml-dsa-44",
    "ml-dsa-65",
    "ml-dsa-87",
];

/// A classic algorithm of [`ALGS`], which the system's OpenSSL 3.0 handles; the others
/// are ML-DSA, which needs 3.5.
pub fn is_classic(alg: &str) -> bool {
    !alg.starts_with("ml-dsa-")
}

/// `pkit crl revoke --ca CA SERIAL --reason REASON [extra…]`, which must succeed.
pub fn revoke_ok(ca: &Path, serial: &str, reason: &str, extra: &[&str]) -> Run {
    let ca = s(ca);
    let mut args = vec!["crl", "revoke", "--ca", &ca, serial, "--reason", reason];
    args.extend_from_slice(extra);
    pk_ok(&args)
}

/// A path as a UTF-8 argument.
pub fn s(p: &Path) -> String {
    p.to_str().expect("UTF-8 path").to_string()
}

/// Run pkit and return what it did.
pub fn pk(args: &[&str]) -> Run {
    pkit_run(args)
}

/// Run pkit and insist on success.
pub fn pk_ok(args: &[&str]) -> Run {
    let r = pk(args);
    assert_eq!(
        r.code,
        Some(0),
        "pkit {} failed: {}\nstdout: {}",
        args.join(" "),
        r.describe(),
        r.stdout_str()
    );
    r
}

/// The system `openssl` (3.0): exit code and stdout + stderr together.
pub fn ossl(args: &[&str]) -> (Option<i32>, String) {
    let r = run_with("openssl", args, None, HANG);
    assert!(!r.timed_out, "openssl {} hung", args.join(" "));
    (r.code, format!("{}{}", r.stdout_str(), r.stderr_str()))
}

/// Assert a refusal: the exit code, one line on stderr that names `needles`, no panic,
/// nothing on stdout.
pub fn refused(r: &Run, code: i32, needles: &[&str], what: &str) {
    let err = r.stderr_str();
    assert!(!r.timed_out, "{what}: pkit hung");
    assert!(!err.contains("panicked"), "{what}: pkit panicked: {err}");
    assert_eq!(
        r.code,
        Some(code),
        "{what}: expected exit {code}; {}",
        r.describe()
    );
    let lines: Vec<&str> = err.trim_end().lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "{what}: expected a one-line message, got: {err}"
    );
    for n in needles {
        assert!(
            lines[0].to_lowercase().contains(&n.to_lowercase()),
            "{what}: the message should name {n:?}: {err}"
        );
    }
    assert!(
        r.stdout.is_empty(),
        "{what}: unexpected stdout: {}",
        r.stdout_str()
    );
}

/// `python3 -c SCRIPT ARGV…`: its stdout, failing the test when it fails.
pub fn python_ok(script: &str, argv: &[&str]) -> String {
    let r = run_with("python3", &[&["-c", script][..], argv].concat(), None, HANG);
    assert_eq!(r.code, Some(0), "python: {}", r.describe());
    r.stdout_str()
}

/// SQLite's own integrity check of `db`, by Python's sqlite3 (an independent judge).
pub fn assert_db_intact(db: &Path) {
    let out = python_ok(
        "import sys, sqlite3\nprint(sqlite3.connect(sys.argv[1]).execute('pragma integrity_check').fetchone()[0])",
        &[&s(db)],
    );
    assert_eq!(out.trim(), "ok", "{}: {out}", db.display());
}

/// `pkit acme serve` for the X.509 CA `ca`, issuing Merkle Tree Certificates from the
/// MTC CA `mtc` and checkpointing it every second, on a free 127.0.0.1 port, with
/// `extra` arguments (its witnesses, its bucket): the command, not started.
pub fn acme_checkpointing(ca: &Path, mtc: &Path, extra: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(pkit_bin());
    cmd.args(["acme", "serve", "--ca", &s(ca)])
        .args([
            "--listen",
            &format!("127.0.0.1:{}", free_port()),
            "--threads",
            "1",
        ])
        .args(["--mtc", &s(mtc), "--checkpoint-every", "1s"])
        .args(extra);
    cmd
}

/// A new MTC CA with an Ed25519 cosigner in `dir`.
pub fn new_mtc_ca(dir: &Path) {
    pk_ok(&[
        "mtc",
        "ca",
        "new",
        "--dir",
        &s(dir),
        "--ca-id",
        "32473.1",
        "--alg",
        "ed25519",
    ]);
}

/// `pkit issue ca --dir DIR/name --subject … --no-passout [extra…]`: the CA directory.
pub fn issue_ca(dir: &Path, name: &str, subject: &str, extra: &[&str]) -> PathBuf {
    let ca = dir.join(name);
    let d = s(&ca);
    let mut args = vec![
        "issue",
        "ca",
        "--dir",
        &d,
        "--subject",
        subject,
        "--no-passout",
    ];
    args.extend_from_slice(extra);
    pk_ok(&args);
    ca
}

/// `pkit issue cert --ca CA` for a new key `DIR/name.key` into `DIR/name.pem`: the
/// certificate file.
pub fn issue_leaf(ca: &Path, dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let (cert, key) = (
        dir.join(format!("{name}.pem")),
        dir.join(format!("{name}.key")),
    );
    let (c, k, ca) = (s(&cert), s(&key), s(ca));
    let mut args = vec!["issue", "cert", "--ca", &ca, "--key-out", &k, "-o", &c];
    args.extend_from_slice(extra);
    pk_ok(&args);
    cert
}
