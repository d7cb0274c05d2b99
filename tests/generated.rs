//! The committed man pages (`man/`) and shell completions (`completions/`) must be exactly
//! what the binary generates from its clap definition. When this fails, refresh them with
//!
//! ```text
//! cargo xtask run -- gen-docs .
//! ```
//!
//! and commit the result.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const GENERATED_DIRS: [&str; 2] = ["man", "completions"];
const REFRESH: &str =
    "refresh them with `cargo xtask run -- gen-docs .` and commit man/ and completions/";

/// Relative path -> contents of every file under `root/dir` for each generated dir.
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for dir in GENERATED_DIRS {
        let d = root.join(dir);
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                let name = format!("{dir}/{}", e.file_name().to_string_lossy());
                files.insert(name, std::fs::read(e.path()).unwrap());
            }
        }
    }
    files
}

/// The first line where `a` and `b` differ, for the failure message.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let mut la = a.lines();
    let mut lb = b.lines();
    for n in 1.. {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return "differs only in line endings".into(),
            (x, y) => {
                return format!(
                    "line {n}: committed {:?}, generated {:?}",
                    x.unwrap_or("<end of file>"),
                    y.unwrap_or("<end of file>")
                )
            }
        }
    }
    unreachable!()
}

#[test]
fn man_pages_and_completions_are_fresh() {
    let out = tempfile::tempdir().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_pkit"))
        .arg("gen-docs")
        .arg(out.path())
        .status()
        .expect("running pkit gen-docs");
    assert!(status.success(), "pkit gen-docs failed: {status}");

    let generated = tree(out.path());
    assert!(
        generated.keys().any(|k| k.starts_with("man/"))
            && generated.keys().any(|k| k.starts_with("completions/")),
        "pkit gen-docs wrote no man pages or no completions: {:?}",
        generated.keys().collect::<Vec<_>>()
    );
    let committed = tree(Path::new(env!("CARGO_MANIFEST_DIR")));

    let mut problems = Vec::new();
    for (name, want) in &generated {
        match committed.get(name) {
            None => problems.push(format!("{name}: missing from the repository")),
            Some(have) if have != want => {
                problems.push(format!("{name}: stale ({})", first_difference(have, want)))
            }
            Some(_) => {}
        }
    }
    for name in committed.keys() {
        if !generated.contains_key(name) {
            problems.push(format!("{name}: no longer generated (delete it)"));
        }
    }
    assert!(
        problems.is_empty(),
        "man/ and completions/ do not match the CLI; {REFRESH}:\n  {}",
        problems.join("\n  ")
    );
}

/// A reader that stops early (`pkit completions bash | head -1`) ends the output, not
/// pkit: no panic, exit 0.
#[test]
fn completions_into_a_closed_pipe_end_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pkit"))
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running pkit");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The pipe's reading end is closed here, before pkit has written everything.
    let out = child.wait_with_output().unwrap();
    assert!(first.starts_with("_pkit()"), "{first}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// Output and messages into a pipe nobody reads any more (a FIFO whose only reader has
/// closed it before pkit starts, so every write fails with EPIPE): the run still ends with
/// its own exit code, never a panic or a signal.
#[test]
fn writes_into_a_pipe_without_a_reader_keep_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    // Read-write first (which does not block), then the write end, then the read end
    // closed: fd 4 is a pipe with no reader.
    let script = r#"mkfifo "$FIFO" && exec 3<>"$FIFO" 4>"$FIFO" 3<&-
"$PKIT" -V >&4; echo "version $?"
"$PKIT" lint --at yesterday /dev/null 2>&4; echo "usage $?"
"$PKIT" parse /dev/null >&4 2>&4; echo "input $?""#;
    let out = Command::new("bash")
        .args(["-c", script])
        .env("PKIT", env!("CARGO_BIN_EXE_pkit"))
        .env("FIFO", &fifo)
        .output()
        .expect("bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stdout, "version 0\nusage 2\ninput 3\n", "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Every page a man page points to (`pkit-crl-gen(1)`) is one of the pages, and each
/// title names the package and its version.
#[test]
fn every_man_page_reference_has_its_page() {
    let man = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let mut missing = Vec::new();
    for e in std::fs::read_dir(&man).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let th = format!("\"pkit {}\"", env!("CARGO_PKG_VERSION"));
        assert!(
            text.lines()
                .any(|l| l.starts_with(".TH") && l.contains(&th)),
            "{}: .TH without {th}",
            p.display()
        );
        // Names are written with roff's escaped hyphens: pkit\-crl\-gen(1).
        let plain = text.replace("\\-", "-");
        for (at, _) in plain.match_indices("(1)") {
            let start = plain[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(0, |i| i + 1);
            let name = &plain[start..at];
            if name.starts_with("pkit") && !man.join(format!("{name}.1")).exists() {
                missing.push(format!("{}: {name}(1)", p.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "pages that do not exist:\n{}",
        missing.join("\n")
    );
}

/// Every man page has an EXIT STATUS section, and every command's `--help` ends with the
/// exit codes.
#[test]
fn every_man_page_and_help_names_the_exit_codes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = 0;
    for e in std::fs::read_dir(root.join("man")).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        // The exit codes, one entry per code, under the section man(7) names for them.
        assert!(
            text.contains(".SH \"EXIT STATUS\"\n.TP\n0\n"),
            "{} has no exit codes",
            p.display()
        );
        pages += 1;
    }
    assert!(pages > 40, "only {pages} man pages");
    for cmd in [
        &["issue", "renew"][..],
        &["key", "p12"],
        &["mtc", "ca", "new"],
        &["ocsp", "serve"],
        &["crl", "gen"],
        &["parse"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pkit"))
            .args(cmd)
            .arg("--help")
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains("Exit codes: 0 success"),
            "pkit {} --help: {help}",
            cmd.join(" ")
        );
    }
}

/// `pkit completions SHELL`: its output.
fn completions(shell: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pkit"))
        .args(["completions", shell])
        .output()
        .expect("running pkit completions");
    assert!(out.status.success(), "pkit completions {shell}");
    String::from_utf8(out.stdout).unwrap()
}

/// What bash completes after `FLAG` in the subcommand whose function is `pkit__subcmd__…`
/// (`crl__subcmd__revoke`): the words of its `compgen -W`, or nothing for free text.
fn bash_words(script: &str, subcommand: &str, flag: &str) -> Vec<String> {
    let block = script
        .split(&format!("        pkit__subcmd__{subcommand})\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("no {subcommand} in the bash completions"));
    let block = block.split("\n        pkit__").next().unwrap();
    let case = block
        .split(&format!("                {flag})\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("no {flag} in {subcommand}'s bash completions"));
    let line = case.lines().next().unwrap();
    line.split_once("compgen -W \"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(words, _)| words.split(' ').map(str::to_string).collect())
        .unwrap_or_default()
}

/// Flags whose values are a fixed set complete to them in bash, zsh and fish: revocation
/// reasons, profiles, rule sets, certificate types, input types, algorithms.
#[test]
fn completions_offer_the_values_of_enumerated_flags() {
    let reasons = [
        "keyCompromise",
        "cACompromise",
        "affiliationChanged",
        "superseded",
        "cessationOfOperation",
        "certificateHold",
        "privilegeWithdrawn",
        "aACompromise",
        "unspecified",
    ];
    let profiles = [
        "server",
        "client",
        "server-client",
        "code-signing",
        "ocsp-signer",
        "ca",
    ];
    let rules = ["rfc5280", "cabf-tls-core", "cabf-tls", "cabf-smime", "none"];
    let bash = completions("bash");
    let cases: [(&str, &str, &[&str]); 8] = [
        ("crl__subcmd__revoke", "--reason", &reasons),
        ("issue__subcmd__cert", "--profile", &profiles),
        ("issue__subcmd__batch", "--profile", &profiles),
        ("issue__subcmd__ca", "--lint-rules", &rules),
        ("lint", "--rules", &rules),
        (
            "lint",
            "--as",
            &[
                "root",
                "intermediate",
                "cross-ca",
                "tls-leaf",
                "smime-leaf",
                "ocsp-signer",
                "leaf",
            ],
        ),
        ("verify", "--rules", &["rfc5280", "webpki"]),
        (
            "key__subcmd__gen",
            "--alg",
            &["ecdsa-p256", "ed25519", "ml-dsa-65", "rsa3072"],
        ),
    ];
    for (sub, flag, want) in cases {
        let words = bash_words(&bash, sub, flag);
        for w in want {
            assert!(
                words.iter().any(|x| x == w),
                "bash: {sub} {flag} does not offer {w}: {words:?}"
            );
        }
    }
    assert!(bash_words(&bash, "parse", "--type").contains(&"ocsp-response".to_string()));
    // Every value offered is one the flag takes: with it the command gets past its
    // arguments to the file that is not there (exit 4), never a usage error (2). (issue
    // ca --lint-rules has lint --rules's parser.)
    let probes: [(&str, &str, &[&str]); 6] = [
        (
            "crl__subcmd__revoke",
            "--reason",
            &["crl", "revoke", "--ca", "nowhere", "01"],
        ),
        (
            "issue__subcmd__cert",
            "--profile",
            &["issue", "cert", "--ca", "nowhere", "--san", "DNS:a"],
        ),
        (
            "issue__subcmd__batch",
            "--profile",
            &[
                "issue",
                "batch",
                "--ca",
                "nowhere",
                "--count",
                "1",
                "--out-dir",
                "nowhere",
            ],
        ),
        ("lint", "--rules", &["lint", "nowhere.pem"]),
        ("lint", "--as", &["lint", "nowhere.pem"]),
        ("parse", "--type", &["parse", "nowhere.pem"]),
    ];
    for (sub, flag, command) in probes {
        for w in bash_words(&bash, sub, flag) {
            let out = Command::new(env!("CARGO_BIN_EXE_pkit"))
                .args(command)
                .args([flag, &w])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(4), "{command:?} {flag} {w}: {err}");
            assert!(err.contains("nowhere"), "{command:?} {flag} {w}: {err}");
        }
    }
    // zsh lists them as the argument's choices: `--reason=[help]:REASON:(a b c)`.
    let zsh = completions("zsh");
    for (flag, metavar, want) in [
        ("--reason", "REASON", &reasons[..]),
        ("--profile", "PROFILE", &profiles[..]),
    ] {
        let choices = format!(":{metavar}:({})'", want.join(" "));
        assert!(
            zsh.lines()
                .any(|l| l.starts_with(&format!("'{flag}=")) && l.contains(&choices)),
            "zsh: {flag} does not offer {choices}"
        );
    }
    // fish: each value a candidate of `-l reason` (one per line after it).
    let fish = completions("fish");
    let at = fish
        .find("crl; and __fish_seen_subcommand_from revoke\" -l reason")
        .expect("fish: crl revoke --reason");
    let entry = fish[at..].split("\ncomplete ").next().unwrap();
    for r in reasons {
        assert!(
            entry.contains(&format!("{r}\\t")),
            "fish: no {r} in {entry}"
        );
    }
}

/// A value outside the set is a usage error in one line naming the flag and the values
/// it takes; another spelling the library knows is taken (any case, aliases).
#[test]
fn enumerated_flags_refuse_other_values_in_one_line() {
    for (args, needles) in [
        (
            &["crl", "revoke", "--ca", "nowhere", "--reason", "oops", "01"][..],
            &["--reason oops", "keyCompromise", "unspecified"][..],
        ),
        (
            &[
                "crl",
                "revoke",
                "--ca",
                "nowhere",
                "--reason",
                "removeFromCRL",
                "01",
            ],
            &["--reason removeFromCRL"],
        ),
        (
            &["issue", "cert", "--ca", "nowhere", "--profile", "web"],
            &["--profile web", "server-client", "ocsp-signer"],
        ),
        (
            &["lint", "--rules", "rfc5280,rfc9999", "x.pem"],
            &["--rules rfc5280,rfc9999", "'rfc9999'", "cabf-smime"],
        ),
        (
            &["parse", "--type", "jpeg", "x"],
            &["--type jpeg", "pkcs12"],
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pkit"))
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        for n in needles {
            assert!(err.contains(n), "{args:?}: {err} should name {n}");
        }
    }
    // Other spellings of a known value get past the flag (to the missing CA: exit 4).
    for args in [
        &[
            "crl",
            "revoke",
            "--ca",
            "nowhere",
            "--reason",
            "KEYCOMPROMISE",
            "01",
        ][..],
        &[
            "issue",
            "cert",
            "--ca",
            "nowhere",
            "--profile",
            "tls-server",
            "--san",
            "DNS:a",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pkit"))
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{args:?}: {err}");
        assert!(err.contains("nowhere"), "{args:?}: {err}");
    }
}
