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
