//! Cargo and the OpenSSL build at once: while OpenSSL builds, the xtask is cargo's rustc
//! wrapper, and holds back the one compilation that must not start before OpenSSL is
//! there (native-ossl-sys's build script, which reads its headers and libcrypto.a); every
//! other crate compiles beside the OpenSSL build. Cargo does not fingerprint the wrapper,
//! so a later build without it finds everything fresh.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread;
use std::time::Duration;

use crate::openssl::{self, Build};

const INSTALL: &str = "PKIT_XTASK_GATE_INSTALL";
const FAILED: &str = "PKIT_XTASK_GATE_FAILED";
const BUILDER: &str = "PKIT_XTASK_GATE_PID";
/// A RUSTC_WRAPPER the user had (sccache, say), which the gate runs in its turn.
const INNER: &str = "PKIT_XTASK_INNER_WRAPPER";

/// Whether the target directory cargo will use (`--target-dir`, `CARGO_TARGET_DIR`,
/// else the workspace's `target/`) holds a native-ossl-sys build script already
/// compiled: cargo would run it without compiling it again, past the gate.
pub fn compiled_before(cargo_args: &[OsString]) -> bool {
    let from_args = cargo_args
        .windows(2)
        .find(|w| w[0] == "--target-dir")
        .map(|w| PathBuf::from(&w[1]))
        .or_else(|| {
            cargo_args
                .iter()
                .find_map(|a| a.to_str()?.strip_prefix("--target-dir=").map(PathBuf::from))
        });
    let target = from_args
        .or_else(|| env::var_os("CARGO_TARGET_DIR").map(PathBuf::from))
        .or_else(|| env::var_os("CARGO_BUILD_TARGET_DIR").map(PathBuf::from))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    // target/PROFILE/build/native-ossl-sys-HASH (and target/TRIPLE/PROFILE/… for a --target).
    let has_script = |profile: &Path| {
        fs::read_dir(profile.join("build")).is_ok_and(|d| {
            d.flatten().any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("native-ossl-sys-")
                    && e.path().join("build-script-build").exists()
            })
        })
    };
    fs::read_dir(&target).is_ok_and(|d| {
        d.flatten().any(|e| {
            let p = e.path();
            has_script(&p)
                || fs::read_dir(&p).is_ok_and(|d| d.flatten().any(|e| has_script(&e.path())))
        })
    })
}

/// Makes cargo run rustc through the gate until `build` is done.
pub fn install(cargo: &mut Command, build: &Build) -> Result<(), String> {
    let me = env::current_exe().map_err(|e| format!("the xtask's own path: {e}"))?;
    if let Some(inner) = env::var_os("RUSTC_WRAPPER").filter(|w| !w.is_empty()) {
        cargo.env(INNER, inner);
    }
    cargo
        .env("RUSTC_WRAPPER", me)
        .env(INSTALL, build.install_dir())
        .env(FAILED, build.failed_marker())
        .env(BUILDER, build.pid().to_string());
    Ok(())
}

/// When cargo runs the xtask as `RUSTC_WRAPPER RUSTC ARGS…`: waits if ARGS compile the
/// gated unit, then runs rustc. None when this is not such a call.
pub fn run_as_wrapper() -> Option<i32> {
    let install = PathBuf::from(env::var_os(INSTALL)?);
    let mut args = env::args_os().skip(1);
    let rustc = args.next()?;
    let args: Vec<OsString> = args.collect();
    if gated(&args) {
        if let Err(msg) = wait_for(&install) {
            eprintln!("xtask: native-ossl-sys needs OpenSSL 3.5: {msg}");
            return Some(1);
        }
    }
    let mut cmd = match env::var_os(INNER) {
        Some(inner) => {
            let mut c = Command::new(inner);
            c.arg(rustc);
            c
        }
        None => Command::new(rustc),
    };
    cmd.args(&args);
    Some(exec(cmd))
}

/// native-ossl-sys's build script, compiled: the unit whose run needs OpenSSL.
fn gated(args: &[OsString]) -> bool {
    env::var("CARGO_PKG_NAME").is_ok_and(|p| p == "native-ossl-sys")
        && args
            .windows(2)
            .any(|w| w[0] == "--crate-name" && w[1] == "build_script_build")
}

fn wait_for(install: &Path) -> Result<(), String> {
    let failed = env::var_os(FAILED).map(PathBuf::from);
    let builder = env::var(BUILDER).ok();
    loop {
        if openssl::complete(install) {
            return Ok(());
        }
        if let Some(msg) = failed.as_ref().and_then(|f| fs::read_to_string(f).ok()) {
            return Err(msg);
        }
        // The builder gone without finishing (killed): nothing will ever come. Its
        // watcher may be writing the failure's message just now: read it once more.
        if let Some(pid) = &builder {
            let proc = Path::new("/proc");
            if proc.join("self").exists() && !proc.join(pid).exists() && !openssl::complete(install)
            {
                thread::sleep(Duration::from_millis(500));
                if let Some(msg) = failed.as_ref().and_then(|f| fs::read_to_string(f).ok()) {
                    return Err(msg);
                }
                if openssl::complete(install) {
                    return Ok(());
                }
                return Err(format!(
                    "the OpenSSL build (process {pid}) ended without finishing; run the command again"
                ));
            }
        }
        thread::sleep(Duration::from_millis(200));
    }
}

#[cfg(unix)]
fn exec(mut cmd: Command) -> i32 {
    use std::os::unix::process::CommandExt;
    let err = cmd.exec();
    eprintln!("xtask: running rustc: {err}");
    1
}

#[cfg(not(unix))]
fn exec(mut cmd: Command) -> i32 {
    match cmd.status() {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!("xtask: running rustc: {e}");
            1
        }
    }
}
