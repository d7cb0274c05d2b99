//! The CA on PostgreSQL through the real binary, against a throwaway server
//! (`tests/common/pg.rs`). Each scenario runs twice, on `ca.db` and on a PostgreSQL
//! database, with the same commands and the same checks: only where the records are
//! differs. Then what only a server has: many issuing processes at once, a URL recorded
//! in the CA directory or given by `PKIT_DATABASE_URL`, the faults (wrong password,
//! unreachable server, a database of a newer schema or not pkit's), each one line, exit
//! 4, nothing changed, and TLS: encrypted (`require`), and the server authenticated
//! (`verify-ca`, `verify-full`) or refused in one line.

mod common;

use common::{
    json_items, ossl, pg_database, pk, pk_ok, pkit_run, refused, s, PgCluster, PgDb, Run,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A CA under test: its directory, and its database when not `DIR/ca.db`.
struct Ca {
    dir: PathBuf,
    db: Option<PgDb>,
}

impl Ca {
    /// `pkit issue ca` in `t/ca`, on `db` when given.
    fn new(t: &Path, db: Option<PgDb>) -> Ca {
        Ca::with(t, db, &[])
    }

    /// [`Ca::new`] with more of `issue ca`'s options.
    fn with(t: &Path, db: Option<PgDb>, extra: &[&str]) -> Ca {
        let dir = t.join("ca");
        let mut args = [
            &[
                "issue",
                "ca",
                "--dir",
                &s(&dir),
                "--subject",
                "CN=Shared CA",
            ],
            extra,
        ]
        .concat()
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
        if let Some(db) = &db {
            args.extend(db.args());
        }
        ok(&args);
        Ca { dir, db }
    }

    /// `pkit ARGS… --ca DIR` (and the database's password: its URL is recorded in the
    /// directory, so later commands are not told it).
    fn run(&self, args: &[&str]) -> Run {
        let mut a: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        a.extend(["--ca".into(), s(&self.dir)]);
        if let Some(db) = &self.db {
            a.extend(["--db-passin".into(), format!("pass:{}", db.password)]);
        }
        pkit_run(&a)
    }

    fn ok(&self, args: &[&str]) -> Run {
        let r = self.run(args);
        assert_eq!(r.code, Some(0), "pkit {}: {}", args.join(" "), r.describe());
        r
    }

    fn listed(&self, extra: &[&str]) -> Vec<serde_json::Value> {
        json_items(&self.ok(&[&["issue", "list", "-f", "json"], extra].concat()))
    }

    fn serials(&self) -> BTreeSet<String> {
        self.listed(&[])
            .iter()
            .map(|v| v["serial_number"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// `crl gen`, checked by OpenSSL against ca.pem: its text.
    fn crl(&self, out: &Path) -> String {
        self.ok(&["crl", "gen", "-o", &s(out), "--force"]);
        let (code, text) = ossl(&[
            "crl",
            "-in",
            &s(out),
            "-CAfile",
            &s(&self.dir.join("ca.pem")),
            "-noout",
            "-text",
        ]);
        assert!(
            code == Some(0) && text.contains("verify OK"),
            "openssl crl: {text}"
        );
        text.to_uppercase()
    }
}

fn ok(args: &[String]) -> Run {
    let r = pkit_run(args);
    assert_eq!(r.code, Some(0), "pkit {}: {}", args.join(" "), r.describe());
    r
}

/// The database for `test` on PostgreSQL, or `None` when the scenario runs on SQLite.
/// `Err(())` when PostgreSQL is missing outside CI (skipped, with a note).
fn backend(test: &str, on_server: bool) -> Result<Option<PgDb>, ()> {
    if !on_server {
        return Ok(None);
    }
    pg_database(test).map(Some).ok_or(())
}

/// Issue, list, export, revoke (by serial and by certificate), CRLs numbered in turn and
/// checked by OpenSSL, OCSP answers for a good and a revoked certificate.
fn lifecycle(test: &str, on_server: bool) {
    if let Ok(db) = backend(test, on_server) {
        lifecycle_on(db);
    }
}

fn lifecycle_on(db: Option<PgDb>) {
    let t = common::tempdir();
    let ca = Ca::new(t.path(), db);
    let leaf = t.path().join("leaf.pem");
    ca.ok(&[
        "issue",
        "cert",
        "--subject",
        "CN=one.example",
        "--san",
        "dns:one.example",
        "--key-out",
        &s(&t.path().join("leaf.key")),
        "-o",
        &s(&leaf),
    ]);
    let out = t.path().join("out");
    ca.ok(&["issue", "batch", "--count", "20", "--out-dir", &s(&out)]);
    let serials = ca.serials();
    assert_eq!(serials.len(), 21, "{serials:?}");
    // The CA's policy holds whatever its store: what it forbids is neither signed nor
    // recorded, one certificate or a batch.
    pk_ok(&[
        "issue",
        "policy",
        "--ca",
        &s(&ca.dir),
        "--deny",
        "DNS:*.evil.example",
    ]);
    let r = ca.run(&[
        "issue",
        "cert",
        "--san",
        "DNS:www.evil.example",
        "--key-out",
        &s(&t.path().join("evil.key")),
        "-o",
        &s(&t.path().join("evil.pem")),
    ]);
    refused(
        &r,
        1,
        &["ca-policy", "deny DNS:*.evil.example"],
        "a name the policy denies",
    );
    let r = ca.run(&[
        "issue",
        "batch",
        "--count",
        "5",
        "--subject-template",
        "CN=h{n}.evil.example",
        "--san-template",
        "DNS:h{n}.evil.example",
        "--out-dir",
        &s(&t.path().join("evil")),
    ]);
    refused(&r, 1, &["ca-policy", "item 1"], "a batch the policy denies");
    assert_eq!(ca.serials(), serials);
    let first = ca.listed(&[])[1]["serial_number"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let exported = t.path().join("exported.pem");
    ca.ok(&["issue", "export", &first, "-o", &s(&exported)]);
    assert_eq!(
        std::fs::read(&exported).unwrap(),
        std::fs::read(out.join("1.pem")).unwrap(),
        "export gives back the certificate the batch wrote"
    );

    ca.ok(&["crl", "revoke", &first, "--reason", "keyCompromise"]);
    ca.ok(&["crl", "revoke", "--cert", &s(&leaf)]);
    let again = ca.run(&["crl", "revoke", &first]);
    assert_eq!(again.code, Some(0), "{}", again.describe());
    let text = ca.crl(&t.path().join("1.crl"));
    assert!(text.contains(&first.to_uppercase()), "{text}");
    assert_eq!(text.matches("SERIAL NUMBER:").count(), 2, "{text}");
    let text = ca.crl(&t.path().join("2.crl"));
    assert!(text.contains("CRL NUMBER: \n                2"), "{text}");

    // OCSP: the revoked leaf and a good batch certificate.
    for (cert, want) in [(leaf.clone(), "revoked"), (out.join("2.pem"), "good")] {
        let req = t.path().join("req.der");
        let resp = t.path().join("resp.der");
        let ca_pem = s(&ca.dir.join("ca.pem"));
        let r = pk(&[
            "ocsp",
            "request",
            "--cert",
            &s(&cert),
            "--issuer",
            &ca_pem,
            "-o",
            &s(&req),
            "--force",
        ]);
        assert_eq!(r.code, Some(0), "{}", r.describe());
        ca.ok(&[
            "ocsp",
            "respond",
            "--request",
            &s(&req),
            "-o",
            &s(&resp),
            "--force",
        ]);
        let r = pk(&[
            "ocsp",
            "verify",
            &s(&resp),
            "--issuer",
            &ca_pem,
            "--cert",
            &s(&cert),
            "-f",
            "json",
        ]);
        let items = json_items(&r);
        assert_eq!(items[0]["status"], want, "{:?}", items);
    }
}

/// `ca serve` keeps its CRL true on either store: a revocation `crl revoke` records from
/// another process shows in the CRL served (merged into the entries the server kept), a
/// hold made final replaces its entry, and OpenSSL checks each CRL against the CA.
fn served_crl(test: &str, on_server: bool) {
    let Ok(db) = backend(test, on_server) else {
        return;
    };
    let t = common::tempdir();
    let port = common::free_port();
    let url = format!("http://127.0.0.1:{port}/ca.crl");
    let ca = Ca::with(t.path(), db, &["--crl-url", &url]);
    let leaf = |name: &str| {
        let pem = t.path().join(format!("{name}.pem"));
        ca.ok(&[
            "issue",
            "cert",
            "--subject",
            &format!("CN={name}.example"),
            "--san",
            &format!("dns:{name}.example"),
            "--key-out",
            &s(&t.path().join(format!("{name}.key"))),
            "-o",
            &s(&pem),
        ]);
        let (_, serial) = ossl(&["x509", "-in", &s(&pem), "-noout", "-serial"]);
        let serial = serial.trim().trim_start_matches("serial=").to_uppercase();
        (pem, serial)
    };
    let (one, one_serial) = leaf("one");
    let (two, two_serial) = leaf("two");
    // The CA's CRL URL moves: the two certificates still name the old one, which the
    // server finds in the records (either store) and answers too.
    let settings = ca.dir.join("ca.json");
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(&settings, text.replace("/ca.crl", "/ca-new.crl")).unwrap();
    let mut cmd = common::pkit();
    cmd.args([
        "ca",
        "serve",
        "--ca",
        &s(&ca.dir),
        "--listen",
        &format!("127.0.0.1:{port}"),
        "--threads",
        "1",
        "--crl-max-age",
        "1s",
    ]);
    if let Some(db) = &ca.db {
        cmd.args(["--db-passin", &format!("pass:{}", db.password)]);
    }
    let server = common::Server::start(cmd, t.path().join("serve.log"), "\"listening\"");
    let log = server.log_text();
    let listening = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["event"] == "listening")
        .unwrap_or_else(|| panic!("{log}"));
    assert_eq!(
        listening["cas"][0]["from_certificates"]["crl"],
        serde_json::json!([url]),
        "{listening}"
    );
    // The CRL served, checked by OpenSSL: its text, upper case.
    let served = || {
        let (status, _, der) = common::http_get(&url);
        assert_eq!(status, 200);
        let file = t.path().join("served.crl");
        std::fs::write(&file, der).unwrap();
        let (code, text) = ossl(&[
            "crl",
            "-inform",
            "DER",
            "-in",
            &s(&file),
            "-CAfile",
            &s(&ca.dir.join("ca.pem")),
            "-noout",
            "-text",
        ]);
        assert!(code == Some(0) && text.contains("verify OK"), "{text}");
        text.to_uppercase()
    };
    let patience = std::time::Instant::now();
    let until = |what: &str, done: &dyn Fn(&str) -> bool| loop {
        let text = served();
        if done(&text) {
            return text;
        }
        assert!(
            patience.elapsed() < std::time::Duration::from_secs(60),
            "{what}: {text}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(!served().contains("SERIAL NUMBER:"));
    ca.ok(&["crl", "revoke", "--cert", &s(&one)]);
    ca.ok(&[
        "crl",
        "revoke",
        "--cert",
        &s(&two),
        "--reason",
        "certificateHold",
    ]);
    let text = until("two revocations", &|t| {
        t.matches("SERIAL NUMBER:").count() == 2
    });
    assert!(
        text.contains(&one_serial) && text.contains(&two_serial),
        "{text}"
    );
    assert!(text.contains("CERTIFICATE HOLD"), "{text}");
    ca.ok(&[
        "crl",
        "revoke",
        "--cert",
        &s(&two),
        "--reason",
        "keyCompromise",
    ]);
    let text = until("the hold made final", &|t| t.contains("KEY COMPROMISE"));
    assert_eq!(text.matches("SERIAL NUMBER:").count(), 2, "{text}");
    assert!(!text.contains("CERTIFICATE HOLD"), "{text}");
    drop(server);
}

#[test]
fn served_crl_on_sqlite() {
    served_crl("served_crl_sqlite", false);
}

#[test]
fn served_crl_on_postgres() {
    served_crl("served_crl_postgres", true);
}

/// What the lint gate let through under `--lint warn` is on record for every certificate
/// so signed: a batch's (committed chunk by chunk), one certificate's and a renewal's.
fn overrides(test: &str, on_server: bool) {
    let Ok(db) = backend(test, on_server) else {
        return;
    };
    let t = common::tempdir();
    let ca = Ca::new(t.path(), db);
    let out = t.path().join("out");
    let batch = [
        "issue",
        "batch",
        "--count",
        "3",
        "--chunk",
        "2",
        "--lint",
        "warn",
        "--out-dir",
    ];
    ca.ok(&[&batch[..], &[&s(&out)]].concat());
    let (leaf, key) = (t.path().join("leaf.pem"), t.path().join("leaf.key"));
    ca.ok(&[
        "issue",
        "cert",
        "--san",
        "DNS:one.example",
        "--lint",
        "warn",
        "--key-out",
        &s(&key),
        "-o",
        &s(&leaf),
    ]);
    ca.ok(&[
        "issue",
        "renew",
        "--cert",
        &s(&leaf),
        "--key",
        &s(&key),
        "--lint",
        "warn",
        "-o",
        &s(&t.path().join("renewed.pem")),
    ]);
    let listed = ca.listed(&[]);
    assert_eq!(listed.len(), 5);
    for item in &listed {
        assert_eq!(item["lint"]["mode"], "warn", "{item}");
        assert!(item["lint"]["findings"].is_array(), "{item}");
    }
}

#[test]
fn overrides_on_sqlite() {
    overrides("overrides", false);
}

#[test]
fn overrides_on_postgres() {
    overrides("overrides", true);
}

#[test]
fn lifecycle_on_sqlite() {
    lifecycle("lifecycle", false);
}

#[test]
fn lifecycle_on_postgres() {
    lifecycle("lifecycle", true);
}

/// A batch whose delivery fails part-way leaves its chunk's certificates listed as
/// undelivered; `crl revoke --undelivered` revokes those without keys, and the CRL says so.
fn undelivered(test: &str, on_server: bool) {
    let Ok(db) = backend(test, on_server) else {
        return;
    };
    let t = common::tempdir();
    let ca = Ca::new(t.path(), db);
    let out = t.path().join("out");
    // A directory where the third certificate's file goes: its delivery fails (--force,
    // or the batch is refused before it starts for the name being taken).
    std::fs::create_dir_all(out.join("3.pem")).unwrap();
    let r = ca.run(&[
        "issue",
        "batch",
        "--count",
        "10",
        "--out-dir",
        &s(&out),
        "--force",
    ]);
    assert_eq!(r.code, Some(4), "{}", r.describe());
    // Certificates of the chunk that held the third one, the third among them: its
    // files are written in parallel, so which others were written before the failure
    // stopped the rest varies from run to run.
    let left = ca.listed(&["--undelivered"]);
    let numbers: Vec<u64> = left.iter().filter_map(|v| v["n"].as_u64()).collect();
    assert!(
        numbers.contains(&3) && numbers.iter().all(|n| (1..=10).contains(n)),
        "{left:?}"
    );
    std::fs::remove_dir(out.join("3.pem")).unwrap();
    // Their certificate files written again: the third, whose key is in place, is
    // delivered by that; the others stay undelivered.
    let r = ca.ok(&["issue", "export", "--undelivered"]);
    let lines: Vec<serde_json::Value> = r
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), numbers.len(), "{}", r.stdout_str());
    for l in &lines {
        let cert = Path::new(l["cert"].as_str().unwrap());
        let (code, text) = ossl(&["x509", "-in", &s(cert), "-noout", "-serial"]);
        assert_eq!(code, Some(0), "{}: {text}", cert.display());
        if l["n"] == 3 {
            assert!(!l["key"].is_null(), "{l}");
        }
    }
    let still: Vec<u64> = ca
        .listed(&["--undelivered"])
        .iter()
        .filter_map(|v| v["n"].as_u64())
        .collect();
    let keyless: Vec<u64> = lines
        .iter()
        .filter(|l| l["key"].is_null())
        .filter_map(|l| l["n"].as_u64())
        .collect();
    assert_eq!(
        still, keyless,
        "those whose keys are not in place stay undelivered"
    );
    ca.ok(&["crl", "revoke", "--undelivered"]);
    assert!(ca.listed(&["--undelivered"]).is_empty());
    let text = ca.crl(&t.path().join("u.crl"));
    let revoked = text.matches("SERIAL NUMBER:").count();
    assert_eq!(revoked, still.len(), "{still:?}: {text}");
    assert_eq!(ca.serials().len(), 10, "no certificate lost or added");
}

#[test]
fn undelivered_on_sqlite() {
    undelivered("undelivered", false);
}

#[test]
fn undelivered_on_postgres() {
    undelivered("undelivered", true);
}

/// Eight processes issue 1,000 certificates each against one database at once: 8,000
/// distinct serials, none lost; a ninth process revokes some and a tenth signs a CRL that
/// lists exactly those.
#[test]
fn many_issuers_share_one_database() {
    let Some(db) = pg_database("many_issuers") else {
        return;
    };
    let t = common::tempdir();
    let ca = Ca::new(t.path(), Some(db.clone()));
    let children: Vec<_> = (0..8)
        .map(|i| {
            let out = t.path().join(format!("out{i}"));
            std::process::Command::new(common::pkit_bin())
                .args(["issue", "batch", "--ca", &s(&ca.dir), "--count", "1000"])
                .args(["--out-dir", &s(&out)])
                // One signing thread each: eight processes share the machine's cores.
                .env("RAYON_NUM_THREADS", "1")
                .args(["--db-passin", &format!("pass:{}", db.password)])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("starting pkit issue batch")
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().expect("waiting for pkit");
        assert!(
            o.status.success(),
            "issue batch: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let serials = ca.serials();
    assert_eq!(serials.len(), 8000, "distinct serials");
    assert_eq!(db.psql("SELECT count(*) FROM certificates"), "8000");
    let some: Vec<&String> = serials.iter().step_by(1000).collect();
    for sn in &some {
        ca.ok(&["crl", "revoke", sn]);
    }
    let text = ca.crl(&t.path().join("m.crl"));
    assert_eq!(text.matches("SERIAL NUMBER:").count(), some.len(), "{text}");
    for sn in some {
        assert!(text.contains(&sn.to_uppercase()), "{sn} missing: {text}");
    }
}

/// One issuer killed with SIGKILL while three others go on: theirs are all there, the
/// killed one's committed certificates are delivered or listed as undelivered (and then
/// revoked), and no serial appears twice.
#[test]
fn a_killed_issuer_costs_the_others_nothing() {
    use std::io::BufRead;
    let Some(db) = pg_database("killed_issuer") else {
        return;
    };
    let t = common::tempdir();
    let ca = Ca::new(t.path(), Some(db.clone()));
    let batch = |out: &Path, count: &str| {
        let mut c = std::process::Command::new(common::pkit_bin());
        c.args(["issue", "batch", "--ca", &s(&ca.dir), "--count", count])
            .args(["--out-dir", &s(out), "--chunk", "64"])
            .args(["--db-passin", &format!("pass:{}", db.password)])
            .env("RAYON_NUM_THREADS", "1")
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        c
    };
    let mut victim = batch(&t.path().join("victim"), "1000000")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("starting the victim");
    let others: Vec<_> = (0..3)
        .map(|i| {
            batch(&t.path().join(format!("out{i}")), "1000")
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("starting pkit issue batch")
        })
        .collect();
    // Killed once it has committed and reported a chunk, while the others run.
    let mut first = String::new();
    std::io::BufReader::new(victim.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(150));
    victim.kill().unwrap();
    victim.wait().unwrap();
    for c in others {
        let o = c.wait_with_output().expect("waiting for pkit");
        assert!(
            o.status.success(),
            "issue batch: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let rows = ca.listed(&[]);
    let serials = ca.serials();
    assert_eq!(serials.len(), rows.len(), "a serial twice");
    let from_victim = rows.len() - 3000;
    assert!(from_victim >= 64, "the victim committed {from_victim}");
    assert!(from_victim < 1_000_000, "the victim was not killed mid-way");
    let delivered = std::fs::read_dir(t.path().join("victim"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".pem"))
        })
        .count();
    let undelivered = ca.listed(&["--undelivered"]).len();
    assert!(
        delivered + undelivered >= from_victim,
        "{from_victim} committed by the killed issuer, {delivered} delivered, {undelivered} \
         listed as undelivered"
    );
    ca.ok(&["crl", "revoke", "--undelivered"]);
    assert!(ca.listed(&["--undelivered"]).is_empty());
    let revoked = ca
        .listed(&[])
        .iter()
        .filter(|v| v["status"] == "revoked")
        .count();
    assert_eq!(revoked, undelivered);
}

/// `PKIT_DATABASE_URL` stands for `--db`, and the URL recorded in the CA directory has no
/// password in it.
#[test]
fn the_url_comes_from_the_environment_and_is_recorded_without_its_password() {
    let Some(db) = pg_database("env_url") else {
        return;
    };
    let t = common::tempdir();
    let dir = t.path().join("ca");
    let with_password = db
        .url
        .replacen("pkit@", &format!("pkit:{}@", db.password), 1);
    let o = std::process::Command::new(common::pkit_bin())
        .args(["issue", "ca", "--dir", &s(&dir), "--subject", "CN=Env CA"])
        .env("PKIT_DATABASE_URL", &with_password)
        .output()
        .expect("running pkit");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recorded = std::fs::read_to_string(dir.join("db.url")).unwrap();
    assert_eq!(recorded.trim(), db.url);
    assert!(!dir.join("ca.db").exists(), "no ca.db beside a server's CA");
    // The schema at its newest version (every migration applied).
    assert_eq!(
        db.psql("SELECT version FROM pkit_schema WHERE store = 'ca'"),
        pkit::pki::ca::store::pg::SCHEMA_VERSION.to_string()
    );
}

/// Each fault: one line naming the database, exit 4, and nothing changed.
#[test]
fn faults_are_one_line_exit_4_and_change_nothing() {
    let Some(db) = pg_database("faults") else {
        return;
    };
    let t = common::tempdir();
    let ca = Ca::new(t.path(), Some(db.clone()));
    ca.ok(&[
        "issue",
        "batch",
        "--count",
        "3",
        "--out-dir",
        &s(&t.path().join("o")),
    ]);
    let cert = |extra: &[String]| {
        let mut a: Vec<String> = [
            "issue",
            "cert",
            "--ca",
            &s(&ca.dir),
            "--subject",
            "CN=f",
            "--san",
            "DNS:f.example",
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        a.extend(["--key-out".into(), s(&t.path().join("f.key"))]);
        a.extend(["-o".into(), s(&t.path().join("f.pem")), "--force".into()]);
        a.extend(extra.iter().cloned());
        pkit_run(&a)
    };
    let count = || db.psql("SELECT count(*) FROM certificates");

    let r = cert(&["--db-passin".into(), "pass:wrong".into()]);
    refused(
        &r,
        4,
        &[&db.url, "password authentication failed"],
        "a wrong password",
    );
    assert!(!r.stderr_str().contains(&db.password));

    let gone = db.url_on_port(common::free_port());
    let r = cert(&[
        "--db".into(),
        gone.clone(),
        "--db-passin".into(),
        "pass:x".into(),
    ]);
    refused(&r, 4, &[&gone, "connect"], "an unreachable server");

    let version = db.psql("SELECT version FROM pkit_schema WHERE store = 'ca'");
    db.psql("UPDATE pkit_schema SET version = 99");
    let r = ca.run(&["issue", "list"]);
    refused(&r, 4, &[&db.url, "schema version 99"], "a newer schema");
    db.psql(&format!("UPDATE pkit_schema SET version = {version}"));

    let other = pg_database("faults_foreign").expect("a second database");
    other.psql("CREATE TABLE customers (id integer)");
    let r = pkit_run(
        &[
            vec!["issue".to_string(), "ca".into(), "--dir".into()],
            vec![s(&t.path().join("ca2")), "--subject".into(), "CN=x".into()],
            other.args(),
        ]
        .concat(),
    );
    refused(
        &r,
        4,
        &[&other.url, "not a pkit", "customers"],
        "not pkit's",
    );
    assert!(!t.path().join("ca2").exists(), "nothing written");
    assert_eq!(
        other.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"),
        "1",
        "no table added"
    );

    // A second CA in the same database is refused: one CA per database.
    let r = pkit_run(
        &[
            vec!["issue".to_string(), "ca".into(), "--dir".into()],
            vec![s(&t.path().join("ca3")), "--subject".into(), "CN=y".into()],
            db.args(),
        ]
        .concat(),
    );
    refused(&r, 4, &["one CA per database"], "a second CA");

    // An id sequence set near its end by hand: the chunk is refused, not wrapped.
    db.psql("SELECT setval('certificates_id', 9223372036854775800)");
    let r = ca.run(&[
        "issue",
        "batch",
        "--count",
        "20",
        "--out-dir",
        &s(&t.path().join("x")),
    ]);
    refused(
        &r,
        4,
        &["sequence is exhausted"],
        "an exhausted id sequence",
    );
    assert!(!r.stderr_str().contains("ca.db"), "{}", r.describe());
    db.psql("SELECT setval('certificates_id', (SELECT max(id) FROM certificates))");

    // A CA on ca.db is not moved by a URL in the environment.
    let local = Ca::new(&t.path().join("local"), None);
    let o = std::process::Command::new(common::pkit_bin())
        .args(["issue", "list", "--ca", &s(&local.dir)])
        .env("PKIT_DATABASE_URL", &db.url)
        .output()
        .expect("running pkit");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ca.db") && err.trim_end().lines().count() == 1,
        "{err}"
    );

    assert_eq!(count(), "3", "no fault added or removed a row");
    let r = cert(&["--db-passin".into(), format!("pass:{}", db.password)]);
    assert_eq!(r.code, Some(0), "the CA still issues: {}", r.describe());
    assert_eq!(count(), "4");
}

/// The server restarts in the middle of a batch: the batch ends with exit 4 and one line
/// naming the database; every recorded certificate was delivered whole or is listed as
/// undelivered (no chunk half-recorded), no serial is recorded twice, and the CA issues
/// again once the server is back.
#[test]
fn a_server_restart_mid_batch_loses_and_duplicates_nothing() {
    let Some(cluster) = PgCluster::start("restart_mid_batch") else {
        return;
    };
    let db = cluster.database("restart_mid_batch");
    let t = common::tempdir();
    let ca = Ca::new(t.path(), Some(db.clone()));
    let out = t.path().join("out");
    let child = std::process::Command::new(common::pkit_bin())
        .args(["issue", "batch", "--ca", &s(&ca.dir), "--count", "200000"])
        .args(["--chunk", "256", "--out-dir", &s(&out)])
        .args(["--db-passin", &format!("pass:{}", db.password)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starting pkit issue batch");
    // Restart once some chunks are in (bounded: the hang limit).
    let deadline = std::time::Instant::now() + common::HANG;
    while db.psql("SELECT count(*) FROM certificates") == "0" {
        assert!(std::time::Instant::now() < deadline, "no chunk committed");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    cluster.restart();
    let o = child.wait_with_output().expect("waiting for pkit");
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains("database"), "{err}");

    let recorded = db.psql("SELECT count(*) FROM certificates");
    assert_eq!(
        recorded,
        db.psql("SELECT count(DISTINCT serial) FROM certificates")
    );
    let delivered = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "pem"))
        .count();
    let undelivered = ca.listed(&["--undelivered"]).len();
    assert_eq!(
        recorded.parse::<usize>().unwrap(),
        delivered + undelivered,
        "every recorded certificate is delivered or listed as undelivered"
    );
    ca.ok(&[
        "issue",
        "batch",
        "--count",
        "5",
        "--out-dir",
        &s(&t.path().join("o2")),
    ]);
}

/// `sslmode=require`: the same scenario over TLS (on the OpenSSL pkit links) to a server
/// that takes TCP connections over TLS only; a plain-text connection to it is refused in
/// one line.
#[test]
fn tls_to_the_server() {
    let Some(cluster) = PgCluster::start_tls("tls") else {
        return;
    };
    let mut db = cluster.database("tls");
    let t = common::tempdir();
    let plain = pkit_run(
        &[
            vec!["issue".to_string(), "ca".into(), "--dir".into()],
            vec![s(&t.path().join("ca")), "--subject".into(), "CN=x".into()],
            vec!["--db".into(), format!("{}?sslmode=disable", db.url)],
            vec!["--db-passin".into(), format!("pass:{}", db.password)],
        ]
        .concat(),
    );
    refused(
        &plain,
        4,
        &["no encryption"],
        "plain text to a TLS-only server",
    );
    db.url.push_str("?sslmode=require");
    lifecycle_on(Some(db));
}

/// libpq's `verify-ca` and `verify-full` against a server whose certificate a test CA
/// issued for 127.0.0.1 only: the right roots and name connect (the URL recorded with its
/// `sslrootcert`, `~/.postgresql/root.crt` when none is named); a wrong root, a name the
/// certificate lacks, a missing root file and an unknown `sslmode` are each one line
/// naming the URL and why, exit 4, with no CA changed.
#[test]
fn the_server_is_authenticated() {
    let Some(cluster) = PgCluster::start_tls("verify") else {
        return;
    };
    let db = cluster.database("verify");
    let t = common::tempdir();
    let root = s(&db.root_cert());
    let url =
        |host: &str, params: &str| format!("{}?{params}", db.url.replacen("127.0.0.1", host, 1));
    let full = url(
        "127.0.0.1",
        &format!("sslmode=verify-full&sslrootcert={root}"),
    );
    let ca = Ca::new(
        t.path(),
        Some(PgDb {
            url: full.clone(),
            ..db.clone()
        }),
    );
    assert_eq!(
        std::fs::read_to_string(ca.dir.join("db.url"))
            .unwrap()
            .trim(),
        full,
        "the URL is recorded with its TLS parameters"
    );
    ca.ok(&[
        "issue",
        "cert",
        "--subject",
        "CN=v.example",
        "--san",
        "DNS:v.example",
        "--key-out",
        &s(&t.path().join("v.key")),
        "-o",
        &s(&t.path().join("v.pem")),
    ]);
    assert_eq!(ca.listed(&[]).len(), 1);

    // Another CA's certificate as the root.
    let other = t.path().join("other.crt");
    let (code, text) = ossl(&[
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=Other CA",
        "-keyout",
        &s(&t.path().join("other.key")),
        "-out",
        &s(&other),
    ]);
    assert_eq!(code, Some(0), "openssl req: {text}");
    let count = || db.psql("SELECT count(*) FROM certificates");
    let out = t.path().join("refused.pem");
    let cert = |url: &str| {
        ca.run(&[
            "issue",
            "cert",
            "--subject",
            "CN=r.example",
            "--san",
            "DNS:r.example",
            "--key-out",
            &s(&t.path().join("refused.key")),
            "-o",
            &s(&out),
            "--db",
            url,
        ])
    };
    let wrong_root = url(
        "127.0.0.1",
        &format!("sslmode=verify-full&sslrootcert={}", s(&other)),
    );
    let missing = s(&t.path().join("missing.crt"));
    // (URL, why, what the case is)
    let refusals = [
        (
            wrong_root.clone(),
            format!("the server's certificate does not verify to {}", s(&other)),
            "verify-full with another CA's root",
        ),
        (
            url(
                "localhost",
                &format!("sslmode=verify-full&sslrootcert={root}"),
            ),
            "the server's certificate is for 127.0.0.1, not localhost".into(),
            "verify-full with a name the certificate lacks",
        ),
        (
            url(
                "127.0.0.1",
                &format!("sslmode=verify-ca&sslrootcert={missing}"),
            ),
            format!("sslrootcert {missing}: no such file"),
            "a missing root file",
        ),
        (
            url("127.0.0.1", "sslmode=verify"),
            "sslmode \"verify\": expected".into(),
            "an unknown sslmode",
        ),
        (
            url("127.0.0.1", "sslrootcert=system"),
            "does not verify to the system's trusted certificates".into(),
            "the system's roots, which do not hold the test CA",
        ),
    ];
    for (u, why, what) in &refusals {
        refused(&cert(u), 4, &[u, why], what);
    }
    assert!(!out.exists(), "no certificate delivered");
    let r = pkit_run(
        &[
            vec!["issue".to_string(), "ca".into(), "--dir".into()],
            vec![s(&t.path().join("ca2")), "--subject".into(), "CN=y".into()],
            vec!["--db".into(), wrong_root.clone()],
            vec!["--db-passin".into(), format!("pass:{}", db.password)],
        ]
        .concat(),
    );
    refused(
        &r,
        4,
        &["does not verify to"],
        "a new CA on an unverified server",
    );
    assert!(!t.path().join("ca2").exists(), "nothing written");
    assert_eq!(count(), "1", "no refusal added a row");

    // verify-ca checks the chain, not the name.
    let ca_only = url(
        "localhost",
        &format!("sslmode=verify-ca&sslrootcert={root}"),
    );
    let r = ca.ok(&["issue", "list", "-f", "json", "--db", &ca_only]);
    assert_eq!(json_items(&r).len(), 1);

    // No sslrootcert: ~/.postgresql/root.crt.
    let home = t.path().join("home");
    std::fs::create_dir_all(home.join(".postgresql")).unwrap();
    std::fs::copy(db.root_cert(), home.join(".postgresql/root.crt")).unwrap();
    let o = std::process::Command::new(common::pkit_bin())
        .args(["issue", "list", "--ca", &s(&ca.dir)])
        .args(["--db", &url("127.0.0.1", "sslmode=verify-full")])
        .args(["--db-passin", &format!("pass:{}", db.password)])
        .env("HOME", &home)
        .output()
        .expect("running pkit");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("CN=v.example"));
}

/// `ocsp serve` keeps answering across a server restart: its workers connect again and
/// ask once more, and a revocation made meanwhile by another process shows in the next
/// answers (asked with `openssl ocsp`).
#[test]
fn ocsp_serve_outlives_a_server_restart() {
    let Some(cluster) = PgCluster::start("ocsp_restart") else {
        return;
    };
    let db = cluster.database("ocsp_restart");
    let t = common::tempdir();
    let ca = Ca::new(t.path(), Some(db.clone()));
    let leaf = t.path().join("leaf.pem");
    ca.ok(&[
        "issue",
        "cert",
        "--subject",
        "CN=o.example",
        "--san",
        "DNS:o.example",
        "--key-out",
        &s(&t.path().join("leaf.key")),
        "-o",
        &s(&leaf),
    ]);
    let port = common::free_port();
    let mut cmd = std::process::Command::new(common::pkit_bin());
    cmd.args(["ocsp", "serve", "--ca", &s(&ca.dir)])
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--db-passin", &format!("pass:{}", db.password)]);
    let _server = common::Server::start(cmd, t.path().join("serve.log"), "\"listening\"");
    let ca_pem = s(&ca.dir.join("ca.pem"));
    let ask = || {
        ossl(&[
            "ocsp",
            "-issuer",
            &ca_pem,
            "-cert",
            &s(&leaf),
            "-url",
            &format!("http://127.0.0.1:{port}"),
            "-CAfile",
            &ca_pem,
            "-no_nonce",
        ])
        .1
    };
    assert!(ask().contains(": good"), "{}", ask());
    cluster.restart();
    ca.ok(&["crl", "revoke", "--cert", &s(&leaf)]);
    // Each worker's connection was cut: it connects again and asks once more.
    let answers: Vec<String> = (0..5).map(|_| ask()).collect();
    assert!(
        answers.iter().all(|a| a.contains(": revoked")),
        "{answers:?}"
    );
}
