//! `pkit issue renew` as a scheduled job: the cron line and the systemd service that
//! docs/ca.md (step 5) gives, read from the page and run as written but for the paths,
//! when nothing is due and when something is; what `--exec` is told and what its
//! failure does; the JSON a script reads; PKCS#12 from a renewal.

mod common;

use common::{issue_ca, issue_leaf, json_items, ossl, pk, pk_ok, run_with, s, HANG};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// docs/ca.md's step 5.
fn renewal_section() -> String {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ca.md"))
        .expect("docs/ca.md");
    let start = doc
        .find("## 5. Renewal")
        .expect("docs/ca.md has a step 5 on renewal");
    let rest = &doc[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_string()
}

/// The fenced blocks of `lang` in `text`, each as its lines.
fn blocks(text: &str, lang: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut cur: Option<Vec<String>> = None;
    for line in text.lines() {
        match &mut cur {
            None if line.trim() == format!("```{lang}") => cur = Some(Vec::new()),
            Some(b) if line.trim() == "```" => {
                out.push(std::mem::take(b));
                cur = None;
            }
            Some(b) => b.push(line.to_string()),
            None => {}
        }
    }
    out
}

/// Lines with their backslash continuations joined.
fn joined(lines: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut acc = String::new();
    for l in lines {
        match l.trim_end().strip_suffix('\\') {
            Some(head) => {
                acc.push_str(head.trim_end());
                acc.push(' ');
            }
            None => {
                acc.push_str(l.trim());
                out.push(std::mem::take(&mut acc).trim().to_string());
            }
        }
    }
    out
}

/// The page's schedules: the cron line's command (its five time fields cut off), the
/// service's ExecStart, and the `pkit` lines of the section's first shell block.
struct Schedules {
    cron: String,
    exec_start: String,
    by_hand: Vec<String>,
}

fn schedules() -> Schedules {
    let section = renewal_section();
    let cron = blocks(&section, "cron");
    assert_eq!(cron.len(), 1, "one cron block in docs/ca.md step 5");
    let entries: Vec<&String> = cron[0]
        .iter()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    assert_eq!(entries.len(), 1, "one crontab entry: {entries:?}");
    // Cron has no continuation lines, and `%` would be a newline to it.
    assert!(!entries[0].ends_with('\\') && !entries[0].contains('%'));
    let fields: Vec<&str> = entries[0].split_whitespace().collect();
    assert_eq!(fields[..5], ["17", "3", "*", "*", "*"], "{}", entries[0]);
    let cron = fields[5..].join(" ");
    // Cron's PATH is /usr/bin:/bin: a bare `pkit` is not found there.
    assert!(cron.starts_with("/usr/local/bin/pkit "), "{cron}");

    let ini = blocks(&section, "ini");
    let unit = |name: &str| -> Vec<String> {
        ini.iter()
            .find(|b| {
                b.first().map(String::as_str) == Some(&format!("# /etc/systemd/system/{name}"))
            })
            .unwrap_or_else(|| panic!("docs/ca.md: no unit {name}"))
            .clone()
    };
    let service = joined(&unit("pkit-renew-api.service"));
    assert!(service.contains(&"Type=oneshot".to_string()), "{service:?}");
    let exec_start = service
        .iter()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("the service's ExecStart")
        .to_string();
    // Run here through sh: the two read it alike only without `$` (systemd's own
    // expansion) and backslashes.
    assert!(
        !exec_start.contains('$') && !exec_start.contains('\\'),
        "{exec_start}"
    );
    let timer = joined(&unit("pkit-renew-api.timer"));
    for want in [
        "OnCalendar=daily",
        "Persistent=true",
        "WantedBy=timers.target",
    ] {
        assert!(
            timer.iter().any(|l| l == want),
            "timer lacks {want}: {timer:?}"
        );
    }
    assert!(section.contains("systemctl enable --now pkit-renew-api.timer"));

    let sh = blocks(&section, "sh");
    let by_hand = joined(&sh[0])
        .into_iter()
        .map(|l| l.split("  #").next().unwrap().trim().to_string())
        .filter(|l| l.starts_with("pkit "))
        .collect();
    Schedules {
        cron,
        exec_start,
        by_hand,
    }
}

/// A scratch world for the page's paths: `/srv/pki/issuing` and `/etc/ssl` moved into a
/// temporary directory, `pkit` and a `systemctl` that logs its arguments (and the new
/// serial it was told) first on PATH.
struct World {
    _t: tempfile::TempDir,
    root: PathBuf,
    ca: PathBuf,
    ssl: PathBuf,
    bin: PathBuf,
    log: PathBuf,
}

impl World {
    fn new() -> World {
        let t = common::tempdir();
        let root = t.path().to_path_buf();
        let root_ca = issue_ca(&root, "root", "CN=Schedule Root", &[]);
        let ca = issue_ca(
            &root,
            "issuing",
            "CN=Schedule Issuing",
            &["--parent", &s(&root_ca)],
        );
        let (ssl, bin, log) = (
            root.join("ssl"),
            root.join("bin"),
            root.join("systemctl.log"),
        );
        std::fs::create_dir_all(&ssl).unwrap();
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(common::pkit_bin(), bin.join("pkit")).unwrap();
        let systemctl = bin.join("systemctl");
        std::fs::write(
            &systemctl,
            format!(
                "#!/bin/sh\necho \"$* $PKIT_SERIAL\" >> '{}'\n",
                log.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&systemctl, std::fs::Permissions::from_mode(0o755)).unwrap();
        World {
            _t: t,
            root,
            ca,
            ssl,
            bin,
            log,
        }
    }

    /// A certificate for api.example.internal valid `days` days, in place of the last.
    fn deploy(&self, days: &str) {
        issue_leaf(
            &self.ca,
            &self.ssl,
            "api",
            &[
                "--san",
                "DNS:api.example.internal",
                "--bundle",
                "--days",
                days,
                "--force",
            ],
        );
    }

    /// The page's command with this world's paths, run by sh in the world's directory.
    fn run(&self, line: &str) -> common::Run {
        let line = line
            .replace("/usr/local/bin/pkit", "pkit")
            .replace("/srv/pki/issuing", &s(&self.ca))
            .replace("/etc/ssl/", &format!("{}/", s(&self.ssl)));
        assert!(!line.contains("/etc/") && !line.contains("/srv/"), "{line}");
        let script = format!(
            "cd '{}' && PATH='{}':\"$PATH\" && {line}",
            s(&self.root),
            s(&self.bin)
        );
        let r = run_with("sh", &["-c", &script], None, HANG);
        assert!(!r.timed_out, "{line}: hung");
        r
    }

    fn reloads(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn cert(&self) -> PathBuf {
        self.ssl.join("api.pem")
    }

    /// The serial of the certificate deployed (the bundle's first).
    fn serial(&self) -> String {
        let r = pk_ok(&["parse", &s(&self.cert()), "-f", "json"]);
        json_items(&r)[0]["serial_number"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The deployed certificate chains to the root, and the key is its key.
    fn assert_deployed(&self) {
        let (cert, key) = (s(&self.cert()), s(&self.ssl.join("api.key")));
        let (code, out) = ossl(&[
            "verify",
            "-CAfile",
            &s(&self.root.join("root/ca.pem")),
            "-untrusted",
            &cert,
            &cert,
        ]);
        assert_eq!(code, Some(0), "{out}");
        let (_, from_cert) = ossl(&["x509", "-in", &cert, "-noout", "-pubkey"]);
        let (_, from_key) = ossl(&["pkey", "-in", &key, "-pubout"]);
        assert_eq!(from_cert, from_key);
    }
}

#[test]
fn the_documented_cron_line_and_systemd_service_renew_when_due_and_only_then() {
    common::require_openssl();
    let sched = schedules();
    for (what, line, quiet) in [
        ("cron", &sched.cron, true),
        ("systemd", &sched.exec_start, false),
    ] {
        let w = World::new();
        // Not due: exit 0, nothing written, no reload.
        w.deploy("90");
        let before = std::fs::read(w.cert()).unwrap();
        let r = w.run(line);
        assert_eq!(r.code, Some(0), "{what}, nothing due: {}", r.describe());
        if quiet {
            assert!(
                r.stderr.is_empty(),
                "{what}: cron would mail {}",
                r.describe()
            );
        } else {
            assert!(
                r.stderr_str()
                    .starts_with("pkit: nothing due for renewal: "),
                "{what}: {}",
                r.describe()
            );
        }
        assert!(r.stdout.is_empty(), "{what}: {}", r.stdout_str());
        assert_eq!(std::fs::read(w.cert()).unwrap(), before);
        assert!(w.reloads().is_empty(), "{what}: {:?}", w.reloads());

        // Due: renewed in place, then --exec reloads, told the new serial.
        w.deploy("20");
        let old = w.serial();
        let r = w.run(line);
        assert_eq!(r.code, Some(0), "{what}, due: {}", r.describe());
        assert!(
            r.stderr_str().contains(&format!("(renews serial {old})")),
            "{what}: {}",
            r.describe()
        );
        let new = w.serial();
        assert_ne!(new, old);
        assert_eq!(w.reloads(), [format!("reload nginx {new}")], "{what}");
        w.assert_deployed();
        let rows = json_items(&pk_ok(&["issue", "list", "--ca", &s(&w.ca), "-f", "json"]));
        let renewed = rows
            .iter()
            .find(|r| r["serial_number"] == new.as_str())
            .unwrap();
        assert_eq!(renewed["replaces"], old.as_str(), "{what}");

        // The next run: the renewal has 90 days; nothing due again.
        let r = w.run(line);
        assert_eq!(r.code, Some(0), "{what}, again: {}", r.describe());
        assert_eq!(w.reloads().len(), 1, "{what}: {:?}", w.reloads());
        assert_eq!(w.serial(), new);
    }
}

#[test]
fn the_documented_commands_by_hand_run_too() {
    common::require_openssl();
    let sched = schedules();
    assert_eq!(sched.by_hand.len(), 2, "{:?}", sched.by_hand);
    let w = World::new();
    // The page names the CA `issuing` beside the working directory, as here.
    w.deploy("20");
    let old = w.serial();
    let list = w.run(&sched.by_hand[0]);
    assert_eq!(list.code, Some(0), "{}", list.describe());
    assert!(list.stdout_str().contains(&old), "{}", list.stdout_str());
    let r = w.run(&sched.by_hand[1]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(w.reloads(), [format!("reload nginx {}", w.serial())]);
    w.assert_deployed();
}

/// `issue renew … --within 30d -f json` plus `extra`, for the certificate `cert`.
fn renew_json(ca: &Path, cert: &Path, dir: &Path, extra: &[&str]) -> common::Run {
    let (ca, cert, key, out) = (
        s(ca),
        s(cert),
        s(&dir.join("new.key")),
        s(&dir.join("new.pem")),
    );
    let mut args = vec![
        "issue",
        "renew",
        "--ca",
        &ca,
        "--cert",
        &cert,
        "--key-out",
        &key,
        "-o",
        &out,
        "--within",
        "30d",
        "-f",
        "json",
    ];
    args.extend_from_slice(extra);
    pk(&args)
}

#[test]
fn json_says_whether_anything_was_renewed_and_what_exec_did() {
    let t = common::tempdir();
    let ca = issue_ca(t.path(), "ca", "CN=Json Renew CA", &[]);
    let cert = issue_leaf(
        &ca,
        t.path(),
        "svc",
        &["--san", "DNS:svc.example", "--days", "60"],
    );
    let ran = t.path().join("ran");
    let touch = format!("touch '{}'", s(&ran));
    let r = renew_json(&ca, &cert, t.path(), &["--exec", &touch]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(r.stderr.is_empty(), "{}", r.describe());
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["schema"], "pkit/v1");
    assert_eq!(v["type"], "issued");
    assert_eq!(v["status"], "not_due");
    assert_eq!(v["renewed"], 0);
    assert_eq!(v["items"], serde_json::json!([]));
    assert_eq!(v["within"], "30d");
    assert!(v["not_after"].as_str().unwrap().ends_with('Z'), "{v}");
    assert!(v.get("exec").is_none(), "{v}");
    assert!(!t.path().join("new.pem").exists());
    assert!(!ran.exists());

    // Due: renewed, and the command saw the files and serials; its stdout went to
    // stderr, so stdout is one JSON document.
    let cert = issue_leaf(
        &ca,
        t.path(),
        "svc",
        &["--san", "DNS:svc.example", "--days", "20", "--force"],
    );
    let seen = t.path().join("seen.txt");
    let exec = format!(
        "echo \"C=$PKIT_CERT K=$PKIT_KEY B=${{PKIT_BUNDLE-unset}} P=${{PKIT_P12-unset}} \
         CH=${{PKIT_CHAIN-unset}} S=$PKIT_SERIAL R=$PKIT_REPLACES N=$PKIT_NOT_AFTER \
         SUB=$PKIT_SUBJECT\" > '{}'; echo to-stdout",
        s(&seen)
    );
    let r = renew_json(&ca, &cert, t.path(), &["--exec", &exec]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(r.stderr_str(), "to-stdout\n");
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["status"], "renewed");
    assert_eq!(v["renewed"], 1);
    assert_eq!(v["exec"]["exit_code"], 0);
    let item = &v["items"][0];
    let seen = std::fs::read_to_string(&seen).unwrap();
    let expect = format!(
        "C={} K={} B=unset P=unset CH=unset S={} R={} N={} SUB=\n",
        s(&t.path().join("new.pem")),
        s(&t.path().join("new.key")),
        item["serial_number"].as_str().unwrap(),
        item["replaces"].as_str().unwrap(),
        item["validity"]["not_after"].as_str().unwrap(),
    );
    // A root CA's leaves have no chain file to point at.
    assert_eq!(seen, expect);
}

#[test]
fn a_failing_exec_is_exit_8_and_the_renewal_stands() {
    let t = common::tempdir();
    let ca = issue_ca(t.path(), "ca", "CN=Exec CA", &[]);
    let cert = issue_leaf(
        &ca,
        t.path(),
        "svc",
        &["--san", "DNS:svc.example", "--days", "20"],
    );
    let (c, caa) = (s(&cert), s(&ca));
    let (key, out) = (s(&t.path().join("n.key")), s(&t.path().join("n.pem")));
    let r = pk(&[
        "issue",
        "renew",
        "--ca",
        &caa,
        "--cert",
        &c,
        "--key-out",
        &key,
        "-o",
        &out,
        "--exec",
        "echo failing; exit 3",
    ]);
    assert_eq!(r.code, Some(8), "{}", r.describe());
    let err = r.stderr_str();
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with("pkit: created certificate serial ")
            && lines[0].contains("(renews serial "),
        "{err}"
    );
    assert_eq!(lines[1], "failing");
    assert_eq!(
        lines[2],
        "pkit: --exec \"echo failing; exit 3\" exited with status 3; the renewal is recorded \
         and its files written"
    );
    assert_eq!(lines.len(), 3, "{err}");
    assert!(t.path().join("n.pem").exists() && t.path().join("n.key").exists());
    let rows = json_items(&pk_ok(&["issue", "list", "--ca", &caa, "-f", "json"]));
    assert_eq!(rows.len(), 2);
    assert!(rows[0]["replaced_by"].is_string(), "{:?}", rows);

    // In JSON: the report on stdout, with the status, then the error object on stderr.
    let cert = issue_leaf(
        &ca,
        t.path(),
        "svc",
        &["--san", "DNS:svc.example", "--days", "20", "--force"],
    );
    let r = pk(&[
        "issue",
        "renew",
        "--ca",
        &caa,
        "--cert",
        &s(&cert),
        "--key-out",
        &key,
        "-o",
        &out,
        "--force",
        "--exec",
        "kill -9 $$",
        "-f",
        "json",
    ]);
    assert_eq!(r.code, Some(8), "{}", r.describe());
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["status"], "renewed");
    assert_eq!(v["exec"]["signal"], 9);
    assert_eq!(v["exec"]["exit_code"], Value::Null);
    let e: Value = serde_json::from_str(r.stderr_str().trim()).unwrap();
    assert_eq!(e["error"]["code"], 8);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("killed by signal 9"),
        "{e}"
    );
}

#[test]
fn a_renewal_writes_pkcs12_for_a_kept_key_too_and_legacy_on_request() {
    common::require_openssl();
    common::require_python_cryptography();
    let t = common::tempdir();
    let root = issue_ca(t.path(), "root", "CN=P12 Root", &[]);
    let ca = issue_ca(t.path(), "int", "CN=P12 Int", &["--parent", &s(&root)]);
    let cert = issue_leaf(
        &ca,
        t.path(),
        "svc",
        &[
            "--subject",
            "CN=svc.example",
            "--san",
            "DNS:svc.example",
            "--days",
            "20",
        ],
    );
    let key = t.path().join("svc.key");
    let p12 = t.path().join("svc.p12");
    let log = t.path().join("p12.env");
    let r = pk_ok(&[
        "issue",
        "renew",
        "--ca",
        &s(&ca),
        "--cert",
        &s(&cert),
        "--key",
        &s(&key),
        "-o",
        &s(&t.path().join("svc2.pem")),
        "--bundle",
        "--p12-out",
        &s(&p12),
        "--p12-passout",
        "pass:old windows",
        "--p12-legacy",
        "--exec",
        &format!(
            "echo \"$PKIT_P12 $PKIT_BUNDLE $PKIT_CHAIN $PKIT_KEY\" > '{}'",
            s(&log)
        ),
    ]);
    let err = r.stderr_str();
    assert!(
        err.contains("PBE-SHA1-3DES and a SHA-1 MAC are weak"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!(
            "{} {} {} {}\n",
            s(&p12),
            s(&t.path().join("svc2.pem")),
            s(&ca.join("chain.pem")),
            s(&key)
        )
    );
    let (code, out) = ossl(&[
        "pkcs12",
        "-info",
        "-noout",
        "-in",
        &s(&p12),
        "-passin",
        "pass:old windows",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("MAC: sha1"), "{out}");
    assert_eq!(
        out.matches("pbeWithSHA1And3-KeyTripleDES-CBC").count(),
        2,
        "{out}"
    );
    assert!(!out.contains("AES"), "{out}");
    let py = common::python_ok(
        "import sys\n\
         from cryptography.hazmat.primitives import serialization as s\n\
         from cryptography.hazmat.primitives.serialization import pkcs12\n\
         k, c, extra = pkcs12.load_key_and_certificates(open(sys.argv[1], 'rb').read(), b'old windows')\n\
         mine = s.load_pem_private_key(open(sys.argv[2], 'rb').read(), None)\n\
         pub = lambda x: x.public_key().public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo)\n\
         print(c.subject.rfc4514_string(), len(extra), pub(k) == pub(mine), pub(c) == pub(mine))",
        &[&s(&p12), &s(&key)],
    );
    // The key kept, certified anew; the intermediate as the chain.
    assert_eq!(py.trim(), "CN=svc.example 1 True True");
}
