//! Witnesses over HTTP (c2sp.org/tlog-witness): three `pkit mtc witness serve`
//! processes on 127.0.0.1, an MTC CA that asks them when it checkpoints and publishes
//! only with its quorum, and a forked log that a witness refuses without losing its state.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const NOW: &str = "2026-11-01T00:00:00Z";

/// A witness: its key, public key, state and a server on a port of its own.
struct W {
    key: PathBuf,
    public: PathBuf,
    db: PathBuf,
    /// `--db` and what goes with it: the file `db`, or a PostgreSQL database.
    db_args: Vec<String>,
    id: String,
    port: u16,
    server: Option<Server>,
}

impl W {
    fn new(dir: &Path, n: u32) -> W {
        W::with_alg(dir, n, "ed25519")
    }

    /// A witness whose key is of `alg` (`ed25519` or `ml-dsa-44`).
    fn with_alg(dir: &Path, n: u32, alg: &str) -> W {
        let key = dir.join(format!("w{n}.key"));
        let public = dir.join(format!("w{n}.pub"));
        pk_ok(&["key", "gen", "--alg", alg, "-o", &s(&key)]);
        pk_ok(&["key", "pub", &s(&key), "-o", &s(&public)]);
        let db = dir.join(format!("w{n}.db"));
        W {
            key,
            public,
            db_args: vec!["--db".into(), s(&db)],
            db,
            id: format!("32473.{}", 60 + n),
            port: free_port(),
            server: None,
        }
    }

    fn start(&mut self, ca: &Path) {
        let mut cmd = Command::new(pkit_bin());
        cmd.args([
            "mtc",
            "witness",
            "serve",
            "--key",
            &s(&self.key),
            "--id",
            &self.id,
            "--log",
            &s(&ca.join("mtc-ca.pem")),
            "--listen",
            &format!("127.0.0.1:{}", self.port),
            "--threads",
            "1",
        ]);
        cmd.args(&self.db_args);
        let log = self.db.with_extension(format!("log{}", std::process::id()));
        self.server = Some(Server::start(cmd, log, "\"listening\""));
    }

    fn stop(&mut self) {
        if let Some(mut s) = self.server.take() {
            s.terminate();
        }
    }

    fn arg(&self) -> String {
        format!("http://127.0.0.1:{}={}", self.port, s(&self.public))
    }
}

/// `mtc checkpoint --dir DIR --witness …` with a quorum, as JSON.
fn checkpoint(dir: &Path, ws: &[&W], quorum: usize) -> Run {
    let mut args = vec![
        "mtc".to_string(),
        "checkpoint".into(),
        "--dir".into(),
        s(dir),
        "--witness-quorum".into(),
        quorum.to_string(),
        "--witness-timeout".into(),
        "5s".into(),
        "-f".into(),
        "json".into(),
    ];
    for w in ws {
        args.extend(["--witness".into(), w.arg()]);
    }
    pkit_run(&args)
}

fn item(r: &Run) -> Value {
    json_items(r).remove(0)
}

#[test]
fn a_quorum_of_witnesses_over_http_and_a_fork_refused() {
    let t = tempdir();
    let dir = t.path().join("ca");
    new_mtc_ca(&dir);
    mtc_add(&dir, 0, 300, Some("ed25519"), Some(NOW));
    let mut ws: Vec<W> = (1..=3).map(|n| W::new(t.path(), n)).collect();
    for w in &mut ws {
        w.start(&dir);
    }

    // All three up: all three cosign, and the note carries the CA's line and theirs.
    let r = checkpoint(&dir, &[&ws[0], &ws[1], &ws[2]], 2);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v = item(&r);
    assert_eq!(v["tree_size"], 300);
    assert_eq!(
        v["note"].as_str().unwrap().matches("\n\u{2014} ").count(),
        4,
        "{v}"
    );
    assert!(v["witnesses"]
        .as_array()
        .unwrap()
        .iter()
        .all(|w| w["cosigned"] == true));
    // Before the log grows, a copy of the CA: a second history under the same key.
    let fork = t.path().join("fork");
    std::fs::create_dir(&fork).unwrap();
    for f in ["mtc-ca.pem", "cosigner.key", "mtc.db", "witness-sizes.json"] {
        std::fs::copy(dir.join(f), fork.join(f)).unwrap();
    }

    // One witness down: 2 of 3 is the quorum, published; the one down is named.
    ws[2].stop();
    mtc_add(&dir, 300, 200, Some("ed25519"), Some(NOW));
    let r = checkpoint(&dir, &[&ws[0], &ws[1], &ws[2]], 2);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v = item(&r);
    assert_eq!(
        (v["tree_size"].as_u64(), v["previous_size"].as_u64()),
        (Some(500), Some(300))
    );
    assert_eq!(
        v["note"].as_str().unwrap().matches("\n\u{2014} ").count(),
        3,
        "{v}"
    );
    assert_eq!(v["witnesses"][2]["cosigned"], false, "{v}");
    let down = format!("witness http://127.0.0.1:{}", ws[2].port);
    assert!(r.stderr_str().contains(&down), "{}", r.describe());

    // Two down: 1 of 3 is short of 2: nothing new is published, exit 1.
    ws[1].stop();
    mtc_add(&dir, 500, 100, Some("ed25519"), Some(NOW));
    let r = checkpoint(&dir, &[&ws[0], &ws[1], &ws[2]], 2);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let err = r.stderr_str();
    assert!(
        err.contains("1 of 3 witnesses cosigned the checkpoint at size 600")
            && err.contains("nothing new published"),
        "{err}"
    );
    // A witness back (its state kept in its database) catches up from what it cosigned
    // (300) to 600 with one proof; the previous checkpoint was still 500.
    ws[1].start(&dir);
    let r = checkpoint(&dir, &[&ws[0], &ws[1], &ws[2]], 2);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v = item(&r);
    assert_eq!(
        (v["tree_size"].as_u64(), v["previous_size"].as_u64()),
        (Some(600), Some(500))
    );

    // The fork: 400 other entries after the first 300. The witness, restarted on its
    // database, holds 600; the fork's tree does not extend it: 422, and the CA of the
    // fork publishes nothing.
    ws[0].stop();
    ws[0].start(&dir);
    mtc_add(&fork, 1000, 400, Some("ed25519"), Some(NOW));
    let r = checkpoint(&fork, &[&ws[0]], 1);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let err = r.stderr_str();
    assert!(err.contains("HTTP 422"), "{err}");
    assert!(err.contains("0 of 1 witnesses cosigned"), "{err}");
    // Its state is what it was: the real log goes on with it.
    mtc_add(&dir, 600, 10, Some("ed25519"), Some(NOW));
    let r = checkpoint(&dir, &[&ws[0]], 1);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(item(&r)["tree_size"], 610);
    for w in &mut ws {
        w.stop();
    }
}

/// What a witness answers to requests that are not add-checkpoint submissions it takes.
#[test]
fn a_witness_answers_bad_requests_with_the_protocols_codes() {
    let t = tempdir();
    let dir = t.path().join("ca");
    new_mtc_ca(&dir);
    let mut w = W::new(t.path(), 1);
    w.start(&dir);
    let url = format!("http://127.0.0.1:{}", w.port);
    let agent = http_agent();
    let post = |path: &str, body: &str| {
        let mut r = agent.post(&format!("{url}{path}")).send(body).unwrap();
        let status = r.status().as_u16();
        (status, r.body_mut().read_to_string().unwrap())
    };
    assert_eq!(post("/other", "").0, 404);
    assert_eq!(post("/add-checkpoint", "nonsense").0, 400);
    let (status, body) = post("/sign-subtree", "subtree 9 13\n");
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("at byte 0") && body.contains("a valid, non-empty subtree"),
        "{body}"
    );
    // A note of another CA's log: 404. One of a CA with this one's ID and another key
    // (an impostor): 403.
    let note_of = |dir: &Path, id: &str| {
        pk_ok(&[
            "mtc",
            "ca",
            "new",
            "--dir",
            &s(dir),
            "--ca-id",
            id,
            "--alg",
            "ed25519",
        ]);
        mtc_add(dir, 0, 5, Some("ed25519"), Some(NOW));
        let r = pk_ok(&["mtc", "checkpoint", "--dir", &s(dir)]);
        format!("old 0\n\n{}", r.stdout_str())
    };
    let (status, body) = post(
        "/add-checkpoint",
        &note_of(&t.path().join("other"), "32473.2"),
    );
    assert_eq!(status, 404, "{body}");
    let (status, body) = post(
        "/add-checkpoint",
        &note_of(&t.path().join("impostor"), "32473.1"),
    );
    assert_eq!(status, 403, "{body}");
    let r = agent.get(&format!("{url}/add-checkpoint")).call().unwrap();
    assert_eq!(r.status().as_u16(), 405);
    let r = agent.get(&format!("{url}/sign-subtree")).call().unwrap();
    assert_eq!(r.status().as_u16(), 405);
    w.stop();
    // Every request has its log line, with why it was refused.
    let log =
        std::fs::read_to_string(w.db.with_extension(format!("log{}", std::process::id()))).unwrap();
    assert!(log.contains("\"refused\""), "{log}");
}

/// ML-DSA-44 witnesses over HTTP also sign the checkpoint's covering subtrees
/// (tlog-witness `sign-subtree`): standalone certificates then carry their cosignatures
/// beside the CA's, which `mtc verify` checks with the witnesses' keys. An Ed25519
/// witness (`cosignature/v1`, no subtrees) cosigns the checkpoint and is not asked.
#[test]
fn witnesses_over_http_cosign_the_subtrees_certificates_carry() {
    let t = tempdir();
    let dir = t.path().join("ca");
    new_mtc_ca(&dir);
    let mut ml = W::with_alg(t.path(), 1, "ml-dsa-44");
    let mut ed = W::new(t.path(), 2);
    ml.start(&dir);
    ed.start(&dir);
    // One round: entries added, a checkpoint with both witnesses, and the certificate of
    // `index` verified with the ML-DSA-44 witness's key.
    let round = |from: usize, n: usize, index: usize| {
        mtc_add(&dir, from, n, Some("ed25519"), Some(NOW));
        let r = checkpoint(&dir, &[&ml, &ed], 2);
        assert_eq!(r.code, Some(0), "{}", r.describe());
        let v = item(&r);
        let signed = v["signed_subtrees"].as_array().unwrap().len();
        let asked = v["witnesses"][0]["subtrees"].as_array().unwrap();
        assert_eq!(asked.len(), signed, "{v}");
        assert!(asked.iter().all(|a| a["cosigned"] == true), "{v}");
        assert_eq!(v["witnesses"][1]["cosigned"], true, "{v}");
        assert!(v["witnesses"][1]["subtrees"].as_array().unwrap().is_empty());
        let v = cert_cosigners(&dir, index, &ml);
        let both = serde_json::json!(["32473.1", ml.id]);
        assert_eq!(v["cosigners"], both, "{v}");
        assert_eq!(v["verified_cosigners"], both, "{v}");
    };
    round(0, 300, 5);
    // The second checkpoint's subtrees cover what was added since the first.
    round(300, 40, 310);
    ml.stop();
    ed.stop();
}

/// `mtc verify -f json` of the standalone certificate of entry `index` of the CA in
/// `dir`, with witness `w` trusted as a cosigner: its item (`cosigners`,
/// `verified_cosigners`).
fn cert_cosigners(dir: &Path, index: usize, w: &W) -> Value {
    let cert = dir.join(format!("c{index}.pem"));
    pk_ok(&[
        "mtc",
        "cert",
        "--dir",
        &s(dir),
        "--index",
        &index.to_string(),
        "-o",
        &s(&cert),
    ]);
    let r = pk(&[
        "mtc",
        "verify",
        &s(&cert),
        "--ca",
        &s(&dir.join("mtc-ca.pem")),
        "--cosigner",
        &format!("{}={}", w.id, s(&w.public)),
        "--now",
        "2026-11-02T00:00:00Z",
        "-f",
        "json",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    json_items(&r).remove(0)
}

/// The verifier key a witness says it has, from its `listening` line.
fn vkey(w: &W) -> String {
    let log =
        std::fs::read_to_string(w.db.with_extension(format!("log{}", std::process::id()))).unwrap();
    let line = log.lines().find(|l| l.contains("\"listening\"")).unwrap();
    let v: Value = serde_json::from_str(line).unwrap();
    v["vkey"].as_str().unwrap().to_string()
}

/// A witness policy (c2sp.org/tlog-policy) in `mtc audit` and `mtc verify`: the served
/// checkpoint passes with the quorum its witnesses meet and fails (exit 1, the auditor's
/// state kept) with one they do not.
#[test]
fn audits_and_verification_hold_to_a_witness_policy() {
    let t = tempdir();
    let dir = t.path().join("ca");
    new_mtc_ca(&dir);
    mtc_add(&dir, 0, 50, Some("ed25519"), Some(NOW));
    let mut ws: Vec<W> = (1..=3).map(|n| W::new(t.path(), n)).collect();
    for w in &mut ws {
        w.start(&dir);
    }
    // Two of the three cosign.
    let r = checkpoint(&dir, &[&ws[0], &ws[1]], 2);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let keys: Vec<String> = ws.iter().map(vkey).collect();
    let policy = |quorum: &str| {
        let p = t
            .path()
            .join(format!("policy-{}.txt", quorum.replace(' ', "-")));
        let text = format!(
            "# three witnesses\nwitness A {}\nwitness B {}\nwitness C {} http://unused.example/\n{quorum}\n",
            keys[0], keys[1], keys[2]
        );
        std::fs::write(&p, text).unwrap();
        p
    };
    let two = policy("group G 2 A B C\nquorum G");
    let three = policy("group G all A B C\nquorum G");

    let port = free_port();
    let mut cmd = Command::new(pkit_bin());
    let listen = format!("127.0.0.1:{port}");
    cmd.args(["mtc", "serve", "--dir", &s(&dir), "--listen", &listen]);
    let server = Server::start(cmd, dir.join("serve.log"), "\"listening\"");
    let url = format!("http://{listen}");
    let state = t.path().join("audit.json");
    let audit = |p: &Path| {
        pk(&[
            "mtc",
            "audit",
            "--url",
            &url,
            "--ca",
            &s(&dir.join("mtc-ca.pem")),
            "--witness-policy",
            &s(p),
            "--state",
            &s(&state),
        ])
    };
    let r = audit(&three);
    refused(
        &r,
        1,
        &["quorum is not met", "oid/1.3.6.1.4.1.32473.61"],
        "2 of 3 under all-of-3",
    );
    assert!(!state.exists(), "a failed audit writes no state");
    let r = audit(&two);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(state.exists());

    // A standalone certificate carries the CA's cosignature only: the witnesses'
    // quorum is not met by it, `quorum none` is.
    let cert = t.path().join("c.pem");
    pk_ok(&[
        "mtc",
        "cert",
        "--dir",
        &s(&dir),
        "--index",
        "3",
        "-o",
        &s(&cert),
    ]);
    let verify = |p: &Path| {
        pk(&[
            "mtc",
            "verify",
            &s(&cert),
            "--ca",
            &s(&dir.join("mtc-ca.pem")),
            "--witness-policy",
            &s(p),
            "--now",
            "2026-11-02T00:00:00Z",
        ])
    };
    let r = verify(&two);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(
        r.stdout_str().contains("quorum is not met"),
        "{}",
        r.stdout_str()
    );
    let r = verify(&policy("quorum none"));
    assert_eq!(r.code, Some(0), "{}", r.describe());
    // A malformed policy is named with its line.
    let bad = t.path().join("bad.txt");
    std::fs::write(&bad, "witness A nonsense\nquorum A\n").unwrap();
    let r = verify(&bad);
    refused(&r, 3, &["bad.txt", "line 1"], "a malformed policy");
    drop(server);
    for w in &mut ws {
        w.stop();
    }
}

/// One witness on two hosts: two `mtc witness serve` processes with its key and one
/// PostgreSQL database. What one cosigned, the other knows: a CA that asks the second
/// for the first time is told the size the first cosigned (409) and proves from there;
/// a fork is refused by either.
#[test]
fn a_witness_on_postgresql_shares_its_state_between_processes() {
    let Some(db) = pg_database("witness_pg") else {
        return;
    };
    let t = tempdir();
    let dir = t.path().join("ca");
    new_mtc_ca(&dir);
    mtc_add(&dir, 0, 300, Some("ed25519"), Some(NOW));
    let mut a = W::new(t.path(), 1);
    a.db_args = db.args();
    let mut b = W {
        key: a.key.clone(),
        public: a.public.clone(),
        db: t.path().join("w1b.db"),
        db_args: db.args(),
        id: a.id.clone(),
        port: free_port(),
        server: None,
    };
    a.start(&dir);
    b.start(&dir);
    let fork = t.path().join("fork");
    std::fs::create_dir(&fork).unwrap();
    for f in ["mtc-ca.pem", "cosigner.key", "mtc.db"] {
        std::fs::copy(dir.join(f), fork.join(f)).unwrap();
    }

    let r = checkpoint(&dir, &[&a], 1);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    mtc_add(&dir, 300, 200, Some("ed25519"), Some(NOW));
    let r = checkpoint(&dir, &[&b], 1);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(item(&r)["witnesses"][0]["cosigned"], true);
    // The fork, through either process: refused from the state they share.
    mtc_add(&fork, 1000, 400, Some("ed25519"), Some(NOW));
    for w in [&a, &b] {
        let r = checkpoint(&fork, &[w], 1);
        assert_eq!(r.code, Some(1), "{}", r.describe());
        assert!(r.stderr_str().contains("HTTP 422"), "{}", r.describe());
    }
    a.stop();
    b.stop();
}

/// `acme serve --mtc DIR --mtc-witness …`: the server's checkpointer asks the witnesses
/// and records a checkpoint only with the quorum; a witness down holds it back (the log
/// line names it), and once it is up the checkpoint goes through, cosigned.
#[test]
fn the_acme_servers_checkpointer_asks_the_witnesses() {
    let t = tempdir();
    let dir = t.path().join("mtc");
    new_mtc_ca(&dir);
    let ca = issue_ca(t.path(), "ca", "CN=ACME Witness CA", &[]);
    // The second an ML-DSA-44 witness: it cosigns the subtrees as well.
    let mut ws = vec![W::new(t.path(), 1), W::with_alg(t.path(), 2, "ml-dsa-44")];
    ws[0].start(&dir);
    let (w1, w2) = (ws[0].arg(), ws[1].arg());
    let cmd = acme_checkpointing(
        &ca,
        &dir,
        &[
            "--mtc-witness",
            &w1,
            "--mtc-witness",
            &w2,
            "--mtc-witness-quorum",
            "2",
            "--mtc-witness-timeout",
            "2s",
        ],
    );
    let server = Server::start(cmd, t.path().join("acme.log"), "\"listening\"");
    mtc_add(&dir, 0, 20, Some("ed25519"), Some(NOW));
    let wait_for = |what: &str, needle: &str| {
        let t0 = std::time::Instant::now();
        while !server.log_text().contains(needle) {
            assert!(
                t0.elapsed() < std::time::Duration::from_secs(60),
                "{what}: {}",
                server.log_text()
            );
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    };
    wait_for(
        "the quorum missed",
        "1 of 2 witnesses cosigned the checkpoint at size 20",
    );
    let down = format!("http://127.0.0.1:{}", ws[1].port);
    assert!(server.log_text().contains(&down), "{}", server.log_text());
    ws[1].start(&dir);
    wait_for("the checkpoint recorded", "\"tree_size\":20");
    // The checkpoint on record carries the CA's line and both witnesses'.
    let out = t.path().join("tiles");
    pk_ok(&["mtc", "tiles", "--dir", &s(&dir), "--out-dir", &s(&out)]);
    let note = std::fs::read_to_string(out.join("checkpoint")).unwrap();
    assert_eq!(note.matches("\n\u{2014} ").count(), 3, "{note}");
    // And a standalone certificate of it, the ML-DSA-44 witness's subtree cosignature.
    assert!(
        !server.log_text().contains("mtc_witness_subtree"),
        "{}",
        server.log_text()
    );
    let v = cert_cosigners(&dir, 3, &ws[1]);
    let both = serde_json::json!(["32473.1", ws[1].id]);
    assert_eq!(v["verified_cosigners"], both, "{v}");
    drop(server);
    for w in &mut ws {
        w.stop();
    }
}

/// An independent witness: litewitness (filippo.io/torchwood v0.6.1, tests/go/litewitness)
/// cosigns pkit's log over HTTP — first from empty, then from the size it holds with
/// pkit's consistency proof — checking the CA's plain Ed25519 note signature (type 0x01)
/// with the verifier key it was given; the CA keeps its `cosignature/v1` line, checked
/// with the witness's verifier key, and publishes only with it.
#[test]
fn litewitness_cosigns_the_log_over_http() {
    let Some(lw) = go_tool(
        "litewitness",
        "filippo.io/torchwood/cmd/litewitness",
        "an independent witness (litewitness)",
        "reach the Go module proxy (filippo.io/torchwood is fetched from it)",
    ) else {
        return;
    };
    let t = tempdir();
    let d = t.path();
    let dir = d.join("ca");
    new_mtc_ca(&dir);
    mtc_add(&dir, 0, 50, Some("ed25519"), Some(NOW));
    // Its key in a dedicated ssh-agent, as litewitness takes it.
    let key = d.join("lw");
    let r = run_with(
        "ssh-keygen",
        &["-q", "-t", "ed25519", "-N", "", "-f", &s(&key)],
        None,
        HANG,
    );
    assert_eq!(r.code, Some(0), "ssh-keygen: {}", r.describe());
    let sock = d.join("agent.sock");
    let mut agent = Command::new("ssh-agent")
        .args(["-D", "-a", &s(&sock)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("ssh-agent");
    let t0 = std::time::Instant::now();
    while !sock.exists() {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(10),
            "ssh-agent did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let r = Command::new("ssh-add")
        .arg(&key)
        .env("SSH_AUTH_SOCK", &sock)
        .output()
        .unwrap();
    assert!(
        r.status.success(),
        "ssh-add: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    let r = run_with(
        "ssh-keygen",
        &["-lf", &format!("{}.pub", s(&key)), "-E", "sha256"],
        None,
        HANG,
    );
    let fingerprint = r
        .stdout_str()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    // The log, as witnessctl would add it: its origin at size 0, and the CA's key as a
    // standard Ed25519 verifier key named by the origin.
    let origin = "oid/1.3.6.1.4.1.32473.1.0.1";
    let script = r#"
import base64, hashlib, sqlite3, subprocess, sys
origin, cert, db = sys.argv[1:4]
der = subprocess.run(["openssl", "x509", "-in", cert, "-pubkey", "-noout"], capture_output=True, check=True).stdout
raw = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "DER"], input=der, capture_output=True, check=True).stdout[-32:]
kid = hashlib.sha256(origin.encode() + b"\n\x01" + raw).digest()[:4].hex()
c = sqlite3.connect(db)
c.executescript("CREATE TABLE log (origin TEXT PRIMARY KEY, tree_size INTEGER NOT NULL, tree_hash TEXT NOT NULL);"
                "CREATE TABLE key (origin TEXT NOT NULL, key TEXT NOT NULL, FOREIGN KEY(origin) REFERENCES log(origin));")
c.execute("INSERT INTO log VALUES (?, 0, ?)", (origin, base64.b64encode(hashlib.sha256(b"").digest()).decode()))
c.execute("INSERT INTO key VALUES (?, ?)", (origin, "%s+%s+%s" % (origin, kid, base64.b64encode(b"\x01" + raw).decode())))
c.commit()
"#;
    let db = d.join("lw.db");
    let r = run_with(
        "python3",
        &["-c", script, origin, &s(&dir.join("mtc-ca.pem")), &s(&db)],
        None,
        HANG,
    );
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let port = free_port();
    let mut cmd = Command::new(&lw);
    cmd.args([
        "-name",
        "pkit.test/lw1",
        "-key",
        &fingerprint,
        "-ssh-agent",
        &s(&sock),
    ])
    .args(["-listen", &format!("127.0.0.1:{port}"), "-db", &s(&db)]);
    let server = Server::start(cmd, d.join("lw.log"), "msg=listening");
    let vkey = server
        .log_text()
        .split_whitespace()
        .find_map(|w| w.strip_prefix("vkey="))
        .expect("litewitness says its verifier key")
        .to_string();
    let arg = format!("http://127.0.0.1:{port}={vkey}");
    let asked = |dir: &Path| {
        pkit_run(&[
            "mtc",
            "checkpoint",
            "--dir",
            &s(dir),
            "--witness",
            &arg,
            "-f",
            "json",
        ])
    };
    let r = asked(&dir);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    mtc_add(&dir, 50, 30, Some("ed25519"), Some(NOW));
    let r = asked(&dir);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v = item(&r);
    assert_eq!(v["tree_size"], 80);
    assert_eq!(v["witnesses"][0]["cosigned"], true, "{v}");
    let note = v["note"].as_str().unwrap();
    assert!(note.contains("\n\u{2014} pkit.test/lw1 "), "{note}");

    // A relying party whose policy names litewitness by its verifier key: the served
    // checkpoint passes `mtc audit`, and a certificate passes `mtc verify --url` (its
    // subtree proven from that checkpoint); a policy that also wants a witness who did
    // not cosign fails.
    let policy = d.join("policy.txt");
    std::fs::write(&policy, format!("witness L {vkey}\nquorum L\n")).unwrap();
    let other = d.join("other.txt");
    // A witness that never saw the log: an Ed25519 verifier key of its own.
    let stranger = {
        use base64::Engine;
        use sha2::Digest;
        let (n, k) = ("example.com/w9", [7u8; 32]);
        let mut m = n.as_bytes().to_vec();
        m.extend_from_slice(b"\n\x04");
        m.extend_from_slice(&k);
        let id: String = sha2::Sha256::digest(&m)[..4]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let mut blob = vec![4u8];
        blob.extend_from_slice(&k);
        format!(
            "{n}+{id}+{}",
            base64::engine::general_purpose::STANDARD.encode(blob)
        )
    };
    std::fs::write(
        &other,
        format!("witness L {vkey}\nwitness M {stranger}\ngroup G all L M\nquorum G\n"),
    )
    .unwrap();
    let cert = d.join("c.pem");
    pk_ok(&[
        "mtc",
        "cert",
        "--dir",
        &s(&dir),
        "--index",
        "3",
        "-o",
        &s(&cert),
    ]);
    let serve_port = free_port();
    let mut cmd = Command::new(pkit_bin());
    let listen = format!("127.0.0.1:{serve_port}");
    cmd.args(["mtc", "serve", "--dir", &s(&dir), "--listen", &listen]);
    let log_server = Server::start(cmd, d.join("serve.log"), "\"listening\"");
    let url = format!("http://{listen}");
    let ca_pem = s(&dir.join("mtc-ca.pem"));
    let audit = |p: &Path| {
        pk(&[
            "mtc",
            "audit",
            "--url",
            &url,
            "--ca",
            &ca_pem,
            "--witness-policy",
            &s(p),
        ])
    };
    let r = audit(&policy);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let r = audit(&other);
    refused(
        &r,
        1,
        &["quorum is not met", "pkit.test/lw1"],
        "a witness that did not cosign",
    );
    let r = pk(&[
        "mtc",
        "verify",
        &s(&cert),
        "--ca",
        &ca_pem,
        "--url",
        &url,
        "--witness-policy",
        &s(&policy),
        "--now",
        "2026-11-02T00:00:00Z",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(
        r.stdout_str().contains("valid (trusted subtree"),
        "{}",
        r.stdout_str()
    );
    drop(log_server);
    drop(server);
    let _ = agent.kill();
    let _ = agent.wait();
}
