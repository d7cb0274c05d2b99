//! Fault trials: a full disk (a file size limit), a read-only CA directory, ca.db locked
//! by another process past the busy timeout, corrupted ca.db and mtc.db, and SIGTERM in
//! the middle of a batch. Each must end in one clear line naming the file, a documented
//! exit code, no panic, and no damage: SQLite's own integrity check (Python's sqlite3)
//! passes afterwards and the CA keeps working once the fault is gone.

mod common;

use common::{pk_ok, s, Run};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn new_ca(dir: &Path) -> PathBuf {
    let ca = dir.join("ca");
    pk_ok(&["issue", "ca", "--dir", &s(&ca), "--subject", "CN=Fault CA"]);
    ca
}

/// `sh -c SCRIPT` with the pkit binary as `$PKIT`.
fn sh(script: &str, env: &[(&str, &str)]) -> Run {
    let mut c = Command::new("sh");
    c.args(["-c", script])
        .env("PKIT", common::pkit_bin())
        .env("NO_COLOR", "1");
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.stdin(Stdio::null()).output().expect("running sh");
    Run {
        code: o.status.code(),
        stdout: o.stdout,
        stderr: o.stderr,
        timed_out: false,
    }
}

fn count(ca: &Path) -> usize {
    common::json_items(&pk_ok(&["issue", "list", "--ca", &s(ca), "-f", "json"])).len()
}

/// The CA still issues, and nothing is left undelivered.
fn assert_still_works(ca: &Path, out: &Path) {
    let before = count(ca);
    // Beside the failed run's files, not over them: a batch that would overwrite them is
    // refused (they may hold the only copies of keys of valid certificates).
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(ca),
        "--count",
        "5",
        "--out-dir",
        &s(&out.join("after")),
    ]);
    assert_eq!(count(ca), before + 5);
    let left = common::json_items(&pk_ok(&[
        "issue",
        "list",
        "--ca",
        &s(ca),
        "--undelivered",
        "-f",
        "json",
    ]));
    assert!(left.is_empty(), "undelivered after a fault: {left:?}");
}

#[test]
fn a_full_disk_fails_cleanly_and_damages_nothing() {
    let t = common::tempdir();
    let ca = new_ca(t.path());
    let out = t.path().join("out");
    // 100 KiB per file: ca.db's write-ahead log outgrows it within the first chunk.
    let r = sh(
        &format!(
            "ulimit -f 100 && exec \"$PKIT\" issue batch --ca '{}' --count 3000 --out-dir '{}'",
            s(&ca),
            s(&out)
        ),
        &[],
    );
    common::refused(&r, 4, &["ca.db"], "issue batch on a full disk");
    common::assert_db_intact(&ca.join("ca.db"));
    assert_eq!(count(&ca), 0, "a refused commit left rows");
    assert_still_works(&ca, &out);

    // A CRL that cannot be written whole is not recorded, and the next one works.
    let crl = t.path().join("big.crl");
    let r = sh(
        &format!(
            "ulimit -f 0 && exec \"$PKIT\" crl gen --ca '{}' -o '{}'",
            s(&ca),
            s(&crl)
        ),
        &[],
    );
    assert_eq!(r.code, Some(4), "crl gen on a full disk: {}", r.describe());
    assert!(!r.stderr_str().contains("panicked"), "{}", r.describe());
    assert!(!crl.exists(), "a partial CRL file was left");
    common::assert_db_intact(&ca.join("ca.db"));
    pk_ok(&["crl", "gen", "--ca", &s(&ca), "-o", &s(&crl)]);
}

#[test]
fn a_read_only_ca_directory_is_refused_cleanly() {
    let t = common::tempdir();
    let ca = new_ca(t.path());
    let out = t.path().join("out");
    std::fs::create_dir(&out).unwrap();
    // Root writes anywhere: the trial then runs as an unprivileged user (setpriv, from
    // util-linux) who owns the files but not the right to write the directory.
    let as_user = if euid_is_root() {
        for p in [t.path(), &ca, &out] {
            sh(&format!("chown -R 65534:65534 '{}'", s(p)), &[]);
        }
        "setpriv --reuid=65534 --regid=65534 --clear-groups"
    } else {
        ""
    };
    sh(&format!("chmod 0500 '{}'", s(&ca)), &[]);
    let r = sh(
        &format!(
            "{as_user} \"$PKIT\" issue batch --ca '{}' --count 10 --out-dir '{}'",
            s(&ca),
            s(&out)
        ),
        &[],
    );
    common::refused(&r, 4, &["ca.db"], "issue batch in a read-only CA directory");
    let r = sh(
        &format!(
            "{as_user} \"$PKIT\" crl gen --ca '{}' -o '{}/x.crl'",
            s(&ca),
            s(&out)
        ),
        &[],
    );
    common::refused(&r, 4, &["ca"], "crl gen in a read-only CA directory");
    sh(&format!("chmod 0700 '{}'", s(&ca)), &[]);
    common::assert_db_intact(&ca.join("ca.db"));
    assert_eq!(count(&ca), 0);
    assert_still_works(&ca, &out);
}

/// Whether this process runs as root (the test then drops privileges for the trial).
fn euid_is_root() -> bool {
    let r = common::run_with("id", &["-u"], None, common::HANG);
    r.stdout_str().trim() == "0"
}

#[test]
fn a_locked_database_fails_after_the_busy_timeout() {
    let t = common::tempdir();
    let ca = new_ca(t.path());
    let out = t.path().join("out");
    // Another process holds ca.db's write lock for a few seconds.
    let mut holder = Command::new("python3")
        .args([
            "-c",
            "import sys, sqlite3, time\n\
             c = sqlite3.connect(sys.argv[1], isolation_level=None)\n\
             c.execute('begin exclusive')\nprint('locked', flush=True)\ntime.sleep(8)",
            &s(&ca.join("ca.db")),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(holder.stdout.as_mut().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line.trim(), "locked");
    let r = sh(
        &format!(
            "exec \"$PKIT\" issue batch --ca '{}' --count 10 --out-dir '{}'",
            s(&ca),
            s(&out)
        ),
        &[("PKIT_DB_BUSY_TIMEOUT_MS", "300")],
    );
    common::refused(&r, 4, &["ca.db", "locked"], "issue batch on a locked ca.db");
    let _ = holder.kill();
    holder.wait().unwrap();
    common::assert_db_intact(&ca.join("ca.db"));
    assert_still_works(&ca, &out);
}

/// Overwrite `len` bytes of `path` at `offset` with a pattern.
fn scribble(path: &Path, offset: u64, len: usize) {
    use std::io::{Seek, SeekFrom, Write};
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(offset)).unwrap();
    f.write_all(&vec![0xa5; len]).unwrap();
}

#[test]
fn corrupted_databases_are_named_not_trusted() {
    let t = common::tempdir();
    let ca = new_ca(t.path());
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "300",
        "--out-dir",
        &s(&t.path().join("out")),
    ]);
    // Fold the write-ahead log into the file, so that the damage is where SQLite reads.
    common::python_ok(
        "import sys, sqlite3\nsqlite3.connect(sys.argv[1]).execute('pragma wal_checkpoint(truncate)')",
        &[&s(&ca.join("ca.db"))],
    );
    // The pages of the certificates table, past the schema.
    scribble(&ca.join("ca.db"), 2 * 4096, 64 * 1024);
    let r = common::pk(&["issue", "list", "--ca", &s(&ca)]);
    common::refused(
        &r,
        4,
        &["ca.db", "malformed"],
        "issue list on a corrupted ca.db",
    );
    // The header: not a database at all.
    scribble(&ca.join("ca.db"), 0, 100);
    let r = common::pk(&["crl", "gen", "--ca", &s(&ca)]);
    common::refused(
        &r,
        4,
        &["ca.db"],
        "crl gen on a ca.db that is not a database",
    );

    let mtc = t.path().join("mtc");
    common::new_mtc_ca(&mtc);
    common::mtc_add(&mtc, 0, 50, None, None);
    scribble(&mtc.join("mtc.db"), 0, 100);
    let r = common::pk(&["mtc", "checkpoint", "--dir", &s(&mtc)]);
    common::refused(&r, 4, &["mtc.db"], "mtc checkpoint on a corrupted mtc.db");
}

#[test]
fn sigterm_mid_batch_finishes_the_chunk_and_says_so() {
    let t = common::tempdir();
    let ca = new_ca(t.path());
    let out = t.path().join("out");
    let mut child = Command::new(common::pkit_bin())
        .args([
            "issue",
            "batch",
            "--ca",
            &s(&ca),
            "--count",
            "100000",
            "--chunk",
            "64",
            "--out-dir",
            &s(&out),
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for its first report line, then ask it to stop.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(6), "stderr: {err}");
    assert!(err.contains("stopped by a signal after issuing"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // What it reported is what it committed, all delivered.
    let reported = 1 + rest.lines().count();
    assert!(reported < 100_000, "the batch was not stopped");
    assert_eq!(count(&ca), reported);
    assert!(
        err.contains(&format!("issuing {reported} of 100000")),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 2 * reported);
    common::assert_db_intact(&ca.join("ca.db"));
    assert_still_works(&ca, &t.path().join("out2"));
}

/// Key material: CA directories 0700, key files 0600, and a warning naming a key file
/// that other users can read.
#[test]
fn key_material_stays_private() {
    use std::os::unix::fs::PermissionsExt;
    let t = common::tempdir();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let ca = new_ca(t.path());
    assert_eq!(mode(&ca), 0o700, "CA directory");
    assert_eq!(mode(&ca.join("ca.key")), 0o600, "CA key");
    let mtc = t.path().join("mtc");
    common::new_mtc_ca(&mtc);
    assert_eq!(mode(&mtc), 0o700, "MTC CA directory");
    assert_eq!(mode(&mtc.join("cosigner.key")), 0o600, "MTC cosigner key");
    let key = t.path().join("k.pem");
    pk_ok(&["key", "gen", "--alg", "ed25519", "-o", &s(&key)]);
    assert_eq!(mode(&key), 0o600, "key gen -o");
    let quiet = pk_ok(&["key", "pub", &s(&key)]);
    assert!(
        !quiet.stderr_str().contains("warning"),
        "{}",
        quiet.describe()
    );
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let warned = pk_ok(&["key", "pub", &s(&key)]);
    let err = warned.stderr_str();
    assert!(
        err.contains("warning") && err.contains(&s(&key)) && err.contains("644"),
        "{err}"
    );
}
