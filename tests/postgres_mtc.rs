//! The MTC log on PostgreSQL through the real binary, against a throwaway server
//! (`tests/common/pg.rs`): an MTC CA created with `--db` issues, checkpoints and hands out
//! certificates that `pkit mtc verify` accepts; several `mtc add` processes append to one
//! log at once and every entry gets its own index, without gaps; and the faults (a newer
//! schema, a database that is not pkit's) are one line, exit 4, nothing written.

mod common;

use common::{json_items, pg_database, pk, pkit_bin, refused, s, write_file, PgDb, Run};
use std::path::Path;

const NOW: &str = "2026-11-01T00:00:00Z";
const LATER: &str = "2026-11-02T00:00:00Z";

/// The advisory lock key a checkpoint leader holds ("pklc", as pkit's PostgreSQL log
/// store defines it).
const CHECKPOINT_LOCK: i64 = 0x706b_6c63;

/// `pkit ARGS… --db-passin pass:…` (the URL is recorded in the directory).
fn run(db: &PgDb, args: &[&str]) -> Run {
    let pass = format!("pass:{}", db.password);
    let mut a: Vec<&str> = args.to_vec();
    a.extend(["--db-passin", &pass]);
    pk(&a)
}

fn ok(db: &PgDb, args: &[&str]) -> Run {
    let r = run(db, args);
    assert_eq!(r.code, Some(0), "pkit {}: {}", args.join(" "), r.describe());
    r
}

/// `mtc ca new --db` in `dir`.
fn new_ca(dir: &Path, db: &PgDb) -> Run {
    let mut a: Vec<String> = ["mtc", "ca", "new", "--dir", &s(dir), "--ca-id", "32473.1"]
        .into_iter()
        .map(String::from)
        .collect();
    a.extend(["--alg".into(), "ed25519".into(), "--now".into(), NOW.into()]);
    a.extend(db.args());
    common::pkit_run(&a)
}

/// A manifest of `n` requests named from `first`.
fn manifest(dir: &Path, first: usize, n: usize) -> std::path::PathBuf {
    let text: String = (first..first + n)
        .map(|i| {
            format!("{{\"subject\":\"CN=host{i}.example\",\"sans\":[\"DNS:host{i}.example\"]}}\n")
        })
        .collect();
    write_file(dir, &format!("manifest-{first}.jsonl"), text.as_bytes())
}

/// The indices stored: (count, distinct, min, max).
fn indices(db: &PgDb) -> String {
    db.psql("SELECT count(*), count(DISTINCT idx), min(idx), max(idx) FROM entries")
        .trim()
        .to_string()
}

/// `mtc cert` of `index` into `t/NAME`, and `mtc verify` of it against the CA certificate.
fn cert_verifies(db: &PgDb, dir: &Path, index: &str, out: &Path) {
    let d = s(dir);
    let o = s(out);
    let args = [
        "mtc", "cert", "--dir", &d, "--index", index, "-o", &o, "--now", LATER,
    ];
    ok(db, &args);
    let ca = s(&dir.join("mtc-ca.pem"));
    let r = pk(&["mtc", "verify", &o, "--ca", &ca, "--now", LATER]);
    assert_eq!(r.code, Some(0), "mtc verify {index}: {}", r.describe());
}

#[test]
fn issue_checkpoint_cert_verify_on_postgres() {
    let Some(db) = pg_database("issue_checkpoint_cert_verify_on_postgres") else {
        return;
    };
    let t = common::tempdir();
    let dir = t.path().join("mtc");
    let r = new_ca(&dir, &db);
    assert_eq!(r.code, Some(0), "mtc ca new --db: {}", r.describe());
    // The directory records the URL (no password) and holds no mtc.db.
    let recorded = std::fs::read_to_string(dir.join("db.url")).unwrap();
    assert_eq!(recorded.trim(), db.url);
    assert!(!recorded.contains(&db.password));
    assert!(!dir.join("mtc.db").exists());
    let d = s(&dir);
    let m = manifest(t.path(), 0, 20);
    let r = ok(
        &db,
        &["mtc", "add", "--dir", &d, "--from", &s(&m), "--now", NOW],
    );
    assert_eq!(r.stdout_str(), "0..19\n");
    ok(
        &db,
        &[
            "mtc",
            "add",
            "--dir",
            &d,
            "--subject",
            "CN=one.example",
            "--key-out",
            &s(&t.path().join("one.key")),
            "--now",
            NOW,
        ],
    );
    assert_eq!(indices(&db), "21|21|0|20");
    let note = ok(&db, &["mtc", "checkpoint", "--dir", &d, "--now", NOW]).stdout_str();
    assert!(note.contains("\n21\n"), "{note}");
    // A certificate from the log, verified against the CA certificate.
    cert_verifies(&db, &dir, "5", &t.path().join("c.pem"));
    assert_eq!(
        db.psql("SELECT count(*) FROM certificates WHERE idx = 5 AND kind = 'standalone'")
            .trim(),
        "1"
    );
    // Reissuing replaces the recorded row.
    cert_verifies(&db, &dir, "5", &t.path().join("again.pem"));
    assert_eq!(db.psql("SELECT count(*) FROM proofs").trim(), "1");
    // Proofs come from the stored tree: [0, 21) is covered by [0, 16) and [16, 21).
    let p = &json_items(&ok(
        &db,
        &["mtc", "proof", "--dir", &d, "--index", "17", "-f", "json"],
    ))[0];
    assert_eq!((&p["start"], &p["end"]), (&16.into(), &21.into()));
    let m2 = manifest(t.path(), 21, 9);
    ok(
        &db,
        &["mtc", "add", "--dir", &d, "--from", &s(&m2), "--now", NOW],
    );
    ok(&db, &["mtc", "checkpoint", "--dir", &d, "--now", NOW]);
    ok(
        &db,
        &[
            "mtc",
            "consistency",
            "--dir",
            &d,
            "--old",
            "21",
            "--new",
            "30",
        ],
    );
    // Tiles written from the log on the server.
    let tiles = t.path().join("tiles");
    ok(&db, &["mtc", "tiles", "--dir", &d, "--out-dir", &s(&tiles)]);
    assert!(tiles.join("checkpoint").is_file());
}

#[test]
fn many_adders_one_sequence() {
    let Some(db) = pg_database("many_adders_one_sequence") else {
        return;
    };
    let t = common::tempdir();
    let dir = t.path().join("mtc");
    let r = new_ca(&dir, &db);
    assert_eq!(r.code, Some(0), "mtc ca new --db: {}", r.describe());
    const PROCS: usize = 6;
    const EACH: usize = 300;
    let pass = format!("pass:{}", db.password);
    // Started at once, with single adds beside them.
    let mut running: Vec<_> = (0..PROCS)
        .map(|p| {
            let m = manifest(t.path(), p * EACH, EACH);
            std::process::Command::new(pkit_bin())
                .args([
                    "mtc",
                    "add",
                    "--dir",
                    &s(&dir),
                    "--from",
                    &s(&m),
                    "--now",
                    NOW,
                ])
                .args(["--db-passin", &pass])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for i in 0..5 {
        ok(
            &db,
            &[
                "mtc",
                "add",
                "--dir",
                &s(&dir),
                "--subject",
                &format!("CN=single{i}.example"),
                "--key-out",
                &s(&t.path().join(format!("single{i}.key"))),
                "--now",
                NOW,
            ],
        );
    }
    let mut ranges = Vec::new();
    for c in running.iter_mut().map(|c| c.wait_with_output_ref()) {
        ranges.push(c);
    }
    let total = PROCS * EACH + 5;
    assert_eq!(indices(&db), format!("{total}|{total}|0|{}", total - 1));
    // Each manifest's entries are one range of indices.
    for r in &ranges {
        let (a, b) = r.trim().split_once("..").unwrap();
        let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
        assert_eq!(b - a + 1, EACH, "{r}");
    }
    // Every interior node is there once, and a checkpoint over them all verifies.
    assert_eq!(
        db.psql("SELECT count(*) FROM nodes").trim(),
        (total - total.count_ones() as usize).to_string()
    );
    // Two checkpoints at once: one leader signs the tree; the other, after it, finds
    // nothing new (exit 2), never a second tree over the same previous checkpoint. The
    // leader's lock is held from outside while both start, so that they do overlap:
    // both wait for it, then go one after the other.
    let d = s(&dir);
    let pass = format!("pass:{}", db.password);
    let held = db.hold_advisory_lock(CHECKPOINT_LOCK);
    let mut both: Vec<_> = (0..2)
        .map(|_| {
            std::process::Command::new(pkit_bin())
                .args([
                    "mtc",
                    "checkpoint",
                    "--dir",
                    &d,
                    "--now",
                    NOW,
                    "--db-passin",
                    &pass,
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_secs(2));
    for c in &mut both {
        assert!(
            c.try_wait().unwrap().is_none(),
            "mtc checkpoint went on while another held the leader's lock"
        );
    }
    drop(held);
    let mut outs: Vec<_> = both
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    // Both succeed: the one that waited finds nothing new to sign (exit 0, no note).
    outs.sort_by_key(|o| o.stdout.is_empty());
    assert_eq!(outs[0].status.code(), Some(0), "{outs:?}");
    assert_eq!(outs[1].status.code(), Some(0), "{outs:?}");
    assert!(outs[1].stdout.is_empty(), "{outs:?}");
    assert!(String::from_utf8_lossy(&outs[1].stderr).contains("nothing to checkpoint"));
    let note = String::from_utf8_lossy(&outs[0].stdout).to_string();
    assert!(note.contains(&format!("\n{total}\n")), "{note}");
    assert_eq!(db.psql("SELECT count(*) FROM checkpoints").trim(), "1");
    for index in ["0", "777", &(total - 1).to_string()] {
        cert_verifies(&db, &dir, index, &t.path().join(format!("c{index}.pem")));
    }
}

/// Waiting for a child and reading its stdout, which must be a success.
trait WaitOk {
    fn wait_with_output_ref(&mut self) -> String;
}

impl WaitOk for std::process::Child {
    fn wait_with_output_ref(&mut self) -> String {
        use std::io::Read;
        let mut out = String::new();
        let mut err = String::new();
        if let Some(o) = self.stdout.as_mut() {
            o.read_to_string(&mut out).unwrap();
        }
        if let Some(e) = self.stderr.as_mut() {
            e.read_to_string(&mut err).unwrap();
        }
        let status = self.wait().unwrap();
        assert!(status.success(), "mtc add: {status}: {err}");
        out
    }
}

#[test]
fn faults_are_one_line_exit_4() {
    let Some(db) = pg_database("mtc_faults_newer") else {
        return;
    };
    let t = common::tempdir();
    let dir = t.path().join("mtc");
    assert_eq!(new_ca(&dir, &db).code, Some(0));
    db.psql("UPDATE pkit_schema SET version = 99 WHERE store = 'mtc'");
    let r = run(&db, &["mtc", "checkpoint", "--dir", &s(&dir), "--now", NOW]);
    refused(&r, 4, &[&db.url, "schema version 99"], "a newer schema");

    // A database that is someone else's: nothing is written to the directory.
    let Some(other) = pg_database("mtc_faults_foreign") else {
        return;
    };
    other.psql("CREATE TABLE customers (id integer)");
    let dir = t.path().join("other");
    let r = new_ca(&dir, &other);
    refused(
        &r,
        4,
        &[&other.url, "not a pkit mtc database", "customers"],
        "not pkit's",
    );
    assert!(!dir.join("cosigner.key").exists() && !dir.join("db.url").exists());

    // A URL given for an MTC CA whose log is its mtc.db is refused: its entries are not
    // there.
    let local = t.path().join("local");
    let r = pk(&[
        "mtc",
        "ca",
        "new",
        "--dir",
        &s(&local),
        "--ca-id",
        "32473.2",
        "--alg",
        "ed25519",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let mut a = vec![
        "mtc".to_string(),
        "checkpoint".into(),
        "--dir".into(),
        s(&local),
    ];
    a.extend(other.args());
    refused(
        &common::pkit_run(&a),
        2,
        &["mtc.db", "--db"],
        "a URL for a CA with mtc.db",
    );

    // A database holding another MTC CA's log is refused for a new one.
    let r = new_ca(&t.path().join("second"), &db_fresh_schema(&db));
    refused(&r, 4, &[&db.url, "another MTC CA"], "another CA's log");
}

/// `db` with its schema version put back, so that it opens again.
fn db_fresh_schema(db: &PgDb) -> PgDb {
    db.psql("UPDATE pkit_schema SET version = 2 WHERE store = 'mtc'");
    db.clone()
}

/// GET `url`: status and body, bounded in time.
fn get(url: &str) -> (u16, Vec<u8>) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_secs(10)))
        .http_status_as_error(false)
        .build()
        .into();
    let mut r = agent.get(url).call().expect("request");
    let status = r.status().as_u16();
    (status, r.body_mut().read_to_vec().unwrap_or_default())
}

#[test]
fn serve_reads_the_log_while_another_process_appends() {
    let Some(db) = pg_database("mtc_serve_on_postgres") else {
        return;
    };
    let t = common::tempdir();
    let dir = t.path().join("mtc");
    assert_eq!(new_ca(&dir, &db).code, Some(0));
    let d = s(&dir);
    let m = manifest(t.path(), 0, 300);
    ok(
        &db,
        &["mtc", "add", "--dir", &d, "--from", &s(&m), "--now", NOW],
    );
    let first = ok(&db, &["mtc", "checkpoint", "--dir", &d, "--now", NOW]).stdout_str();
    let listen = format!("127.0.0.1:{}", common::free_port());
    let mut cmd = std::process::Command::new(pkit_bin());
    cmd.args(["mtc", "serve", "--dir", &d, "--listen", &listen]);
    cmd.args(["--db-passin", &format!("pass:{}", db.password)]);
    let _server = common::Server::start(cmd, t.path().join("serve.log"), "\"listening\"");
    let url = format!("http://{listen}");
    let (status, note) = get(&format!("{url}/checkpoint"));
    assert_eq!(status, 200);
    assert_eq!(String::from_utf8_lossy(&note), first);
    // A full tile of level 0: the first 256 leaf hashes.
    let (status, tile) = get(&format!("{url}/tile/0/000"));
    assert_eq!((status, tile.len()), (200, 256 * 32));
    // Another process appends and checkpoints; the server serves the new checkpoint.
    let m = manifest(t.path(), 300, 10);
    ok(
        &db,
        &["mtc", "add", "--dir", &d, "--from", &s(&m), "--now", NOW],
    );
    let second = ok(&db, &["mtc", "checkpoint", "--dir", &d, "--now", NOW]).stdout_str();
    assert!(second.contains("\n310\n"), "{second}");
    let (status, note) = get(&format!("{url}/checkpoint"));
    assert_eq!(
        (status, String::from_utf8_lossy(&note).to_string()),
        (200, second)
    );
}
