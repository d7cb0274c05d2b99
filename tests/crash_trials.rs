//! Crash trials: commands that write a CA's or a log's state are killed with SIGKILL at
//! random moments, 20 times each, and what they leave is checked by programs other than
//! pkit wherever one can judge it:
//!
//! - SQLite's own `PRAGMA integrity_check` (Python's sqlite3) passes on ca.db and mtc.db;
//! - no serial number and no CRL number is used twice, and CRL numbers only increase;
//! - every certificate a killed batch committed is either delivered (key and certificate
//!   files in place, checked with Python `cryptography`) or listed by `pkit issue list
//!   --undelivered`, and `pkit crl revoke --undelivered` then revokes exactly those;
//! - no log entry that was reported committed is lost: every checkpoint signed between
//!   kills is consistent with the final tree (RFC 9162 consistency proofs, checked by a
//!   Python implementation of §2.1.4.2);
//! - no output file exists in part: `crl gen -o` and `key gen -o` leave either nothing or
//!   a whole file (checked with `openssl`).
//!
//! The kill moments come from a seed printed on failure; `PKIT_CRASH_SEED=N` replays one.
//! `scripts/crash-trials` runs the same trials 200 times each against the release build.

mod common;

use common::{pk_ok, s};
use serde_json::Value;
use std::collections::BTreeSet;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Trials per command; `PKIT_CRASH_TRIALS` overrides (the script runs 200).
fn trials() -> usize {
    std::env::var("PKIT_CRASH_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

/// A small deterministic generator (xorshift64*) for kill moments.
struct Moments(u64);

impl Moments {
    fn new(test: &str) -> Moments {
        let seed = std::env::var("PKIT_CRASH_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            })
            | 1;
        common::note(&format!("{test}: PKIT_CRASH_SEED={seed}"));
        Moments(seed)
    }
    /// A delay in [0, 3/4 of `full`): most kills land while the command still works
    /// (it spends the first moments starting up).
    fn delay(&mut self, full: Duration) -> Duration {
        let max = full * 3 / 4;
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let r = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        Duration::from_micros(r % (max.as_micros() as u64).max(1))
    }
}

/// How a killed command ended: whether SIGKILL landed before it finished, and its stdout
/// up to then.
struct Killed {
    killed: bool,
    stdout: String,
}

/// Run pkit with `args`, SIGKILL it after `delay`, and wait for it. It may also have
/// finished first, with exit 0 or one of `also`.
fn kill_after(args: &[String], delay: Duration, also: &[i32]) -> Killed {
    let out = tempfile::NamedTempFile::new().unwrap();
    let mut child = Command::new(common::pkit_bin())
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(out.reopen().unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting pkit");
    std::thread::sleep(delay);
    let _ = child.kill();
    let status = child.wait().unwrap();
    assert!(
        status.success()
            || status.signal() == Some(9)
            || status.code().is_some_and(|c| also.contains(&c)),
        "pkit {} failed by itself: {status}",
        args.join(" ")
    );
    Killed {
        killed: status.signal() == Some(9),
        stdout: std::fs::read_to_string(out.path()).unwrap_or_default(),
    }
}

/// How long `args` takes when left alone: the median of three runs. Kill moments are
/// drawn below it, so that most trials die mid-way.
fn duration_of(args: &[String]) -> Duration {
    let mut d: Vec<Duration> = (0..3)
        .map(|_| {
            let start = std::time::Instant::now();
            let r = common::pkit_run(args);
            assert_eq!(r.code, Some(0), "pkit {}: {}", args.join(" "), r.describe());
            start.elapsed()
        })
        .collect();
    d.sort();
    d[1]
}

/// The kill window after a trial: when the command finished before its kill (the machine
/// got faster, or its run time varies), the next kills come sooner.
fn shrink_unless(killed: bool, window: Duration) -> Duration {
    if killed {
        window
    } else {
        window * 2 / 3
    }
}

fn args(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|x| x.to_string()).collect()
}

/// Enough trials must have been killed mid-way: a trial that finished first proves
/// nothing.
fn assert_enough_kills(what: &str, killed: usize) {
    let n = trials();
    assert!(
        killed * 2 >= n,
        "{what}: only {killed} of {n} trials were killed before finishing"
    );
    common::note(&format!("{what}: {killed} of {n} trials killed mid-way"));
}

fn new_ca(dir: &Path) -> PathBuf {
    let ca = dir.join("ca");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&ca),
        "--subject",
        "CN=Crash Trials CA",
    ]);
    ca
}

fn list_json(ca: &Path, undelivered: bool) -> Vec<Value> {
    let mut a = vec!["issue", "list", "--ca", ca.to_str().unwrap(), "-f", "json"];
    if undelivered {
        a.push("--undelivered");
    }
    common::json_items(&pk_ok(&a))
}

fn serials(items: &[Value]) -> BTreeSet<String> {
    items
        .iter()
        .map(|v| v["serial_number"].as_str().unwrap().to_string())
        .collect()
}

/// The serial of each certificate file in `dir` whose key file beside it holds its key,
/// by Python `cryptography`; fails on a file that does not load whole.
fn delivered_serials(dir: &Path) -> BTreeSet<String> {
    if !dir.exists() {
        return BTreeSet::new();
    }
    let out = common::python_ok(
        "import sys, os\nfrom cryptography import x509\n\
         from cryptography.hazmat.primitives import serialization as s\n\
         def spki(k): return k.public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo)\n\
         d = sys.argv[1]\n\
         for name in sorted(os.listdir(d)):\n\
         \x20   p = os.path.join(d, name)\n\
         \x20   if name.startswith('.pkit-tmp-'): continue\n\
         \x20   stem, ext = name.rsplit('.', 1)\n\
         \x20   assert stem.isdigit() and ext in ('pem', 'key'), name\n\
         \x20   if ext == 'key':\n\
         \x20       s.load_pem_private_key(open(p, 'rb').read(), None)\n\
         \x20       continue\n\
         \x20   c = x509.load_pem_x509_certificate(open(p, 'rb').read())\n\
         \x20   k = os.path.join(d, stem + '.key')\n\
         \x20   if os.path.exists(k) and spki(s.load_pem_private_key(open(k, 'rb').read(), None).public_key()) == spki(c.public_key()):\n\
         \x20       print('%040x' % c.serial_number)",
        &[&s(dir)],
    );
    out.lines().map(str::to_string).collect()
}

#[test]
fn killed_batches_leave_nothing_unknown() {
    common::require_python_cryptography();
    let t = common::tempdir();
    let ca = new_ca(t.path());
    let mut m = Moments::new("killed_batches_leave_nothing_unknown");
    let mut killed = 0;
    let batch = |out: &Path| {
        args(&[
            "issue",
            "batch",
            "--ca",
            &s(&ca),
            "--count",
            "1000",
            "--chunk",
            "32",
            "--out-dir",
            &s(out),
        ])
    };
    // Timed three times into one directory: each run replaces the last one's files.
    let mut calibration = batch(&t.path().join("calibration"));
    calibration.push("--force".into());
    let mut full = duration_of(&calibration);
    let mut seen = serials(&list_json(&ca, false));
    for i in 0..trials() {
        let out = t.path().join(format!("out-{i}"));
        let k = kill_after(&batch(&out), m.delay(full), &[]);
        killed += usize::from(k.killed);
        full = shrink_unless(k.killed, full);
        common::assert_db_intact(&ca.join("ca.db"));
        let all = list_json(&ca, false);
        let now = serials(&all);
        assert_eq!(now.len(), all.len(), "a serial number twice in ca.db");
        assert!(now.is_superset(&seen), "certificates vanished from ca.db");
        // This trial's certificates: each delivered whole, or listed as undelivered.
        let new: BTreeSet<String> = now.difference(&seen).cloned().collect();
        let delivered = delivered_serials(&out);
        let undelivered = serials(&list_json(&ca, true));
        for sn in &new {
            assert!(
                delivered.contains(sn) || undelivered.contains(sn),
                "trial {i}: certificate {sn} was committed, is not delivered and is not \
                 listed as undelivered"
            );
        }
        assert!(
            delivered.is_subset(&new),
            "trial {i}: a delivered certificate is not in ca.db"
        );
        assert!(
            undelivered.is_disjoint(&delivered),
            "trial {i}: a delivered certificate is listed as undelivered"
        );
        seen = now;
    }
    assert_enough_kills("issue batch", killed);

    // Revoking the undelivered revokes exactly them, and leaves none listed.
    let undelivered = serials(&list_json(&ca, true));
    pk_ok(&["crl", "revoke", "--ca", &s(&ca), "--undelivered"]);
    assert!(
        list_json(&ca, true).is_empty(),
        "undelivered left after revoking them"
    );
    let revoked: BTreeSet<String> = list_json(&ca, false)
        .iter()
        .filter(|v| v["status"] == "revoked")
        .map(|v| v["serial_number"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(revoked, undelivered, "revoked set");
}

/// `crl revoke` and `crl gen` killed mid-way: numbers never reused, always increasing,
/// every CRL file whole.
#[test]
fn killed_revocations_and_crls_reuse_nothing() {
    common::require_openssl();
    let t = common::tempdir();
    let ca = new_ca(t.path());
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        &s(&ca),
        "--count",
        "400",
        "--out-dir",
        &s(&t.path().join("out")),
    ]);
    let all: Vec<String> = list_json(&ca, false)
        .iter()
        .map(|v| v["serial_number"].as_str().unwrap().to_string())
        .collect();
    let mut m = Moments::new("killed_revocations_and_crls_reuse_nothing");
    let (mut killed_revokes, mut killed_gens) = (0, 0);
    let mut numbers: Vec<u64> = Vec::new();
    let mut revoke_time = duration_of(&args(&[
        "crl",
        "revoke",
        "--ca",
        &s(&ca),
        &all[all.len() - 1],
    ]));
    let first = s(&t.path().join("first.pem"));
    let mut gen_time = duration_of(&args(&[
        "crl",
        "gen",
        "--ca",
        &s(&ca),
        "-o",
        &first,
        "--force",
    ]));
    for (i, serial) in all.iter().enumerate().take(trials()) {
        // A revocation killed at a random moment: then the same revocation again must
        // work, once.
        let k = kill_after(
            &args(&[
                "crl",
                "revoke",
                "--ca",
                &s(&ca),
                serial,
                "--reason",
                "superseded",
            ]),
            m.delay(revoke_time),
            &[],
        );
        killed_revokes += usize::from(k.killed);
        revoke_time = shrink_unless(k.killed, revoke_time);
        common::assert_db_intact(&ca.join("ca.db"));
        pk_ok(&[
            "crl",
            "revoke",
            "--ca",
            &s(&ca),
            serial,
            "--reason",
            "superseded",
        ]);

        // A CRL generation killed at a random moment.
        let out = t.path().join(format!("crl-{i}.pem"));
        let k = kill_after(
            &args(&["crl", "gen", "--ca", &s(&ca), "-o", &s(&out)]),
            m.delay(gen_time),
            &[],
        );
        killed_gens += usize::from(k.killed);
        gen_time = shrink_unless(k.killed, gen_time);
        common::assert_db_intact(&ca.join("ca.db"));
        if out.exists() {
            let (code, text) = common::ossl(&["crl", "-in", &s(&out), "-noout", "-crlnumber"]);
            assert_eq!(
                code,
                Some(0),
                "{} is not a whole CRL: {text}",
                out.display()
            );
            numbers.push(crl_number(&text));
        }
        let leftovers: Vec<_> = std::fs::read_dir(t.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains("pkit-tmp"))
            .collect();
        assert!(
            leftovers.len() <= 1,
            "temporary files pile up: {leftovers:?}"
        );
    }
    assert_enough_kills("crl gen", killed_gens);
    common::note(&format!("crl revoke: {killed_revokes} killed mid-way"));
    // One more CRL: its number is above every one before; every stored CRL is whole and
    // numbered once.
    let last = t.path().join("last.pem");
    pk_ok(&["crl", "gen", "--ca", &s(&ca), "-o", &s(&last)]);
    let (_, text) = common::ossl(&["crl", "-in", &s(&last), "-noout", "-crlnumber"]);
    let final_number = crl_number(&text);
    assert!(
        numbers.iter().all(|n| *n < final_number),
        "{numbers:?} then {final_number}"
    );
    let mut stored: Vec<u64> = Vec::new();
    for e in std::fs::read_dir(ca.join("crls")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "crl") {
            let (code, text) = common::ossl(&[
                "crl",
                "-inform",
                "DER",
                "-in",
                &s(&p),
                "-noout",
                "-crlnumber",
            ]);
            assert_eq!(code, Some(0), "{}: {text}", p.display());
            let n = crl_number(&text);
            assert_eq!(p.file_stem().unwrap().to_string_lossy(), n.to_string());
            stored.push(n);
        }
    }
    stored.sort_unstable();
    let distinct: BTreeSet<u64> = stored.iter().copied().collect();
    assert_eq!(distinct.len(), stored.len());
    assert_eq!(stored.last(), Some(&final_number));
    // The final CRL lists exactly the revoked certificates.
    let (_, text) = common::ossl(&["crl", "-in", &s(&last), "-noout", "-text"]);
    assert_eq!(text.matches("Serial Number:").count(), trials() + 1);
}

fn crl_number(openssl_out: &str) -> u64 {
    let hex = openssl_out
        .trim()
        .strip_prefix("crlNumber=")
        .unwrap_or_else(|| panic!("no crlNumber: {openssl_out}"));
    u64::from_str_radix(hex.trim_start_matches("0x"), 16).unwrap()
}

/// RFC 9162 §2.1.4.2: verify a consistency proof from (m, old root) to (n, new root).
const VERIFY_CONSISTENCY: &str = r#"
import sys, json, hashlib
def node(l, r): return hashlib.sha256(b'\x01' + l + r).digest()
def verify(m, n, old, new, proof):
    if m == n: return old == new and not proof
    if m == 0: return not proof
    if m & (m - 1) == 0: proof = [old] + proof
    fn, sn = m - 1, n - 1
    while fn & 1:
        fn >>= 1; sn >>= 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0: return False
        if fn & 1 or fn == sn:
            fr = node(c, fr); sr = node(c, sr)
            while fn and not fn & 1:
                fn >>= 1; sn >>= 1
        else:
            sr = node(sr, c)
        fn >>= 1; sn >>= 1
    return fr == old and sr == new and sn == 0
for line in sys.stdin:
    p = json.loads(line)
    ok = verify(p['old'], p['new'], bytes.fromhex(p['old_root']), bytes.fromhex(p['new_root']),
                [bytes.fromhex(h) for h in p['proof']])
    print('ok' if ok else 'BAD %d..%d' % (p['old'], p['new']))
"#;

/// Sign a checkpoint: its size and root; `None` when there was nothing new to sign (a
/// killed `mtc checkpoint` had finished, or `mtc add` added nothing).
fn checkpoint(dir: &Path) -> Option<(u64, String)> {
    let r = common::pkit_run(&["mtc", "checkpoint", "--dir", &s(dir), "-f", "json"]);
    // Nothing new is no failure (exit 0, said on stderr, no items).
    if r.code == Some(0) && r.stderr_str().contains("nothing to checkpoint") {
        assert!(common::json_items(&r).is_empty(), "{}", r.describe());
        return None;
    }
    assert_eq!(r.code, Some(0), "mtc checkpoint: {}", r.describe());
    let v = common::json_items(&r);
    Some((
        v[0]["tree_size"].as_u64().unwrap(),
        v[0]["root"].as_str().unwrap().to_string(),
    ))
}

/// `mtc add` and `mtc checkpoint` killed mid-way: every checkpoint signed before a kill
/// is a prefix of the final tree, and the entries reported added are in it.
#[test]
fn killed_log_appends_lose_no_entry() {
    let t = common::tempdir();
    let dir = t.path().join("mtc");
    common::new_mtc_ca(&dir);
    let manifest: String = (0..3000)
        .map(|i| format!("{{\"subject\":\"CN=host{i}.example\"}}\n"))
        .collect();
    let m_path = common::write_file(t.path(), "manifest.jsonl", manifest.as_bytes());
    let mut m = Moments::new("killed_log_appends_lose_no_entry");
    let add = args(&["mtc", "add", "--dir", &s(&dir), "--from", &s(&m_path)]);
    let mut add_time = duration_of(&add);
    let cp = args(&["mtc", "checkpoint", "--dir", &s(&dir)]);
    let mut seen: Vec<(u64, String)> = checkpoint(&dir).into_iter().collect();
    pk_ok(&["mtc", "add", "--dir", &s(&dir), "--from", &s(&m_path)]);
    let mut cp_time = {
        let start = std::time::Instant::now();
        seen.extend(checkpoint(&dir));
        start.elapsed()
    };
    let (mut killed_adds, mut killed_checkpoints) = (0, 0);
    for _ in 0..trials() {
        let k = kill_after(&add, m.delay(add_time), &[]);
        killed_adds += usize::from(k.killed);
        add_time = shrink_unless(k.killed, add_time);
        common::assert_db_intact(&dir.join("mtc.db"));
        // `a..b` lines: entries committed before the kill.
        let reported = k
            .stdout
            .lines()
            .filter_map(|l| {
                l.split_once("..")
                    .and_then(|(_, b)| b.trim().parse::<u64>().ok())
            })
            .max();
        let k = kill_after(&cp, m.delay(cp_time), &[2]);
        killed_checkpoints += usize::from(k.killed);
        cp_time = shrink_unless(k.killed, cp_time);
        common::assert_db_intact(&dir.join("mtc.db"));
        let Some((size, root)) = checkpoint(&dir) else {
            continue;
        };
        if let Some(b) = reported {
            assert!(
                size > b,
                "entries up to {b} were reported, the tree has {size}"
            );
        }
        assert!(seen.last().is_none_or(|l| size >= l.0), "the tree shrank");
        seen.push((size, root));
    }
    assert_enough_kills("mtc add", killed_adds);
    common::note(&format!(
        "mtc checkpoint: {killed_checkpoints} killed mid-way"
    ));
    let (final_size, final_root) = seen.last().unwrap().clone();
    let mut proofs = String::new();
    for (size, root) in &seen {
        let v = common::json_items(&pk_ok(&[
            "mtc",
            "consistency",
            "--dir",
            &s(&dir),
            "--old",
            &size.to_string(),
            "--new",
            &final_size.to_string(),
            "-f",
            "json",
        ]));
        let mut p = v[0].clone();
        assert_eq!(p["new_root"], final_root.as_str());
        // The old root the checkpoint signed, not the one the log computes now.
        p["old_root"] = Value::String(root.clone());
        proofs.push_str(&format!("{p}\n"));
    }
    let r = common::run_with(
        "python3",
        &["-c", VERIFY_CONSISTENCY],
        Some(proofs.as_bytes()),
        common::HANG,
    );
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(
        r.stdout_str().lines().all(|l| l == "ok"),
        "a checkpoint signed before a kill is not a prefix of the final tree:\n{}",
        r.stdout_str()
    );
}

/// `key gen -o` killed mid-way leaves no file or a whole key, and nothing else.
#[test]
fn killed_key_generation_leaves_no_partial_file() {
    common::require_openssl();
    let t = common::tempdir();
    let mut m = Moments::new("killed_key_generation_leaves_no_partial_file");
    let mut killed = 0;
    let gen = |out: &Path| args(&["key", "gen", "--alg", "rsa3072", "-o", &s(out), "--force"]);
    let calibration = t.path().join("calibration.pem");
    let mut full = duration_of(&gen(&calibration));
    std::fs::remove_file(&calibration).unwrap();
    for i in 0..trials() {
        let out = t.path().join(format!("k{i}.pem"));
        let k = kill_after(&gen(&out), m.delay(full), &[]);
        killed += usize::from(k.killed && !out.exists());
        full = shrink_unless(k.killed && !out.exists(), full);
        if out.exists() {
            let (code, text) = common::ossl(&["pkey", "-in", &s(&out), "-noout"]);
            assert_eq!(
                code,
                Some(0),
                "{} is not a whole key: {text}",
                out.display()
            );
        }
    }
    let names: Vec<String> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !(n.starts_with('k') && n.ends_with(".pem")))
        .collect();
    // A kill between creating a temporary file and renaming it may leave one; nothing
    // under the final name is ever partial.
    assert!(
        names.iter().all(|n| n.starts_with(".pkit-tmp-")),
        "unexpected files: {names:?}"
    );
    assert_enough_kills("key gen", killed);
}
