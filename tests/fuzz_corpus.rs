//! The fuzz corpora, replayed: every file of `fuzz/corpus/<target>/` and of
//! `fuzz/regressions/<target>/` goes through the target's function in `pkit::fuzzing`,
//! the same code the libFuzzer target runs, on the stable toolchain. A panic here is a
//! crash the campaign found (or one that came back). This is how CI runs the corpora: a
//! few seconds, not a campaign (docs/fuzzing.md).
//!
//! Also checked: every target has a file under `fuzz/fuzz_targets/` and a non-empty
//! corpus, and every file there is a target.

use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file());
    v.sort();
    v
}

#[test]
fn every_target_has_a_file_and_a_corpus() {
    let names: Vec<&str> = pkit::fuzzing::TARGETS.iter().map(|(n, _)| *n).collect();
    let mut sources: Vec<String> = files(&fuzz_dir().join("fuzz_targets"))
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    sources.sort();
    let mut want: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(
        sources, want,
        "fuzz/fuzz_targets/ and pkit::fuzzing::TARGETS differ"
    );
    for n in names {
        let c = fuzz_dir().join("corpus").join(n);
        assert!(!files(&c).is_empty(), "{}: no corpus", c.display());
    }
}

#[test]
fn corpora_and_regressions_replay() {
    // One thread per target: the corpora are independent, and the machine's cores
    // make the replay a matter of seconds.
    std::thread::scope(|s| {
        for (name, f) in pkit::fuzzing::TARGETS {
            s.spawn(move || {
                let mut replayed = 0;
                for sub in ["corpus", "regressions"] {
                    for p in files(&fuzz_dir().join(sub).join(name)) {
                        let data = std::fs::read(&p).unwrap();
                        let r = std::panic::catch_unwind(|| f(&data));
                        assert!(r.is_ok(), "{name}: {} panics", p.display());
                        replayed += 1;
                    }
                }
                assert!(replayed > 0, "{name}: nothing to replay");
            });
        }
    });
}

/// The inputs that reach the fixtures of `ocsp_http` and `mtc_http` (requests for the
/// fixture CA's certificates, the fixture log's paths): each is for a known target and
/// goes through it. With `PKIT_FUZZ_SEEDS` set (as `fuzz/seed.sh` sets it) they are also
/// written into `$PKIT_FUZZ_SEEDS/<target>/` as seeds.
#[test]
fn fixture_seeds_replay_and_are_written() {
    let seeds = pkit::fuzzing::fixture_seeds();
    assert!(!seeds.is_empty(), "no fixture seeds");
    let out = std::env::var_os("PKIT_FUZZ_SEEDS");
    for (i, (target, data)) in seeds.into_iter().enumerate() {
        let (_, f) = pkit::fuzzing::TARGETS
            .iter()
            .find(|(n, _)| *n == target)
            .unwrap_or_else(|| panic!("fixture seed for unknown target {target}"));
        f(&data);
        if let Some(out) = &out {
            let dir = Path::new(out).join(target);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("fixture-{i:02}")), data).unwrap();
        }
    }
}
