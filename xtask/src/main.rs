//! Build helper for pkit.
//!
//! pkit needs OpenSSL >= 3.5 for ML-DSA; Debian 12 ships 3.0. `cargo xtask ARGS…` makes sure
//! a suitable OpenSSL is there, then runs `cargo ARGS…` against it:
//!
//! 1. If pkg-config reports a system OpenSSL >= 3.5, cargo runs unchanged.
//! 2. Otherwise OpenSSL 3.5 LTS is built once from the `openssl-src` crate into a cache
//!    directory outside the checkout (`$PKIT_OPENSSL_CACHE`, else
//!    `$XDG_CACHE_HOME/pkit`, else `~/.cache/pkit`), and cargo runs with
//!    `NATIVE_OSSL_OPENSSL_SOURCES` pointing at it, so native-ossl links it statically.
//!    When the cache is empty, OpenSSL builds *while* cargo compiles everything that does
//!    not link it (`openssl.rs`, `gate.rs`), with its progress on a terminal.
//!
//! bindgen (used by native-ossl-sys) needs libclang: the xtask looks for it and, when it runs
//! as root on a Debian-like system, installs `libclang-dev`; otherwise it says how.
//!
//! Other verbs: `cargo xtask openssl-env` prints the `export` line for a shell;
//! `cargo xtask install [--prefix DIR]` builds the dist binary and puts it, the man
//! pages and the shell completions where the system looks for them (`~/.local` by
//! default, `/usr/local` for everyone).

mod gate;
mod install;
mod libclang;
mod openssl;

use std::env;
use std::ffi::OsString;
use std::process::{exit, Command};

use openssl::Openssl;

fn main() {
    // Cargo runs the xtask as its rustc wrapper while OpenSSL builds (gate.rs), and the
    // xtask runs itself to build OpenSSL in a process of its own (openssl.rs).
    if let Some(code) = gate::run_as_wrapper() {
        exit(code);
    }
    let args: Vec<OsString> = env::args_os().skip(1).collect();
    if args.first().is_some_and(|a| a == openssl::CHILD_VERB) {
        exit(openssl::child(&args[1..]));
    }
    if let Err(msg) = run(&args) {
        eprintln!("xtask: {msg}");
        exit(1);
    }
}

fn run(args: &[OsString]) -> Result<(), String> {
    libclang::ensure()?;
    match args.first().and_then(|a| a.to_str()) {
        Some("openssl-env") => match openssl::find()?.finished()? {
            Some(dir) => {
                println!("export NATIVE_OSSL_OPENSSL_SOURCES={}", dir.display());
                Ok(())
            }
            None => {
                println!("# system OpenSSL is recent enough; nothing to export");
                Ok(())
            }
        },
        Some("install") => {
            let sources = openssl::find()?.finished()?;
            install::install(&args[1..], sources.as_deref())
        }
        None => Err(
            "usage: cargo xtask <cargo arguments…> | cargo xtask openssl-env | \
             cargo xtask install [--prefix DIR]"
                .into(),
        ),
        Some(_) => {
            let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let mut cmd = Command::new(cargo);
            cmd.args(args);
            // A target directory that already holds native-ossl-sys's compiled build
            // script would run it without passing the gate (cargo reuses it): then
            // OpenSSL first, as before the gate.
            let openssl = match openssl::find()? {
                Openssl::Building(build) if gate::compiled_before(args) => {
                    let dir = build.install_dir();
                    build.wait()?;
                    Openssl::Cached(dir)
                }
                other => other,
            };
            match &openssl {
                Openssl::System => {}
                Openssl::Cached(dir) => {
                    cmd.env("NATIVE_OSSL_OPENSSL_SOURCES", dir);
                }
                Openssl::Building(build) => {
                    cmd.env("NATIVE_OSSL_OPENSSL_SOURCES", build.install_dir());
                    gate::install(&mut cmd, build)?;
                }
            }
            let status = cmd.status().map_err(|e| format!("running cargo: {e}"))?;
            if let Openssl::Building(build) = openssl {
                // Cargo may finish without ever reaching the gate (a command that does not
                // compile native-ossl-sys, or one that failed first); the cache is worth
                // finishing all the same, and stopping it half way would leave its
                // compilers running.
                if !status.success() {
                    eprintln!(
                        "xtask: cargo failed; finishing the OpenSSL build for the cache \
                         (Ctrl-C stops it)"
                    );
                }
                build.wait()?;
            }
            exit(status.code().unwrap_or(1));
        }
    }
}
