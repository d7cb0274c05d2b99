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
//!
//! bindgen (used by native-ossl-sys) needs libclang: the xtask looks for it and, when it runs
//! as root on a Debian-like system, installs `libclang-dev`; otherwise it says how.
//!
//! Other verbs: `cargo xtask openssl-env` prints the `export` line for a shell;
//! `cargo xtask install [--prefix DIR]` builds the release binary and puts it, the man
//! pages and the shell completions where the system looks for them (`~/.local` by
//! default, `/usr/local` for everyone).

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{exit, Command};

/// The OpenSSL release the cache holds; bump together with the `openssl-src` pin.
const OPENSSL_TAG: &str = "openssl-3.5.5";
const MIN_SYSTEM_OPENSSL: (u32, u32) = (3, 5);

fn main() {
    let args: Vec<OsString> = env::args_os().skip(1).collect();
    if let Err(msg) = run(&args) {
        eprintln!("xtask: {msg}");
        exit(1);
    }
}

fn run(args: &[OsString]) -> Result<(), String> {
    ensure_libclang()?;
    let sources = openssl_sources()?;
    match args.first().and_then(|a| a.to_str()) {
        Some("openssl-env") => {
            match &sources {
                Some(dir) => println!("export NATIVE_OSSL_OPENSSL_SOURCES={}", dir.display()),
                None => println!("# system OpenSSL is recent enough; nothing to export"),
            }
            Ok(())
        }
        Some("install") => install(&args[1..], sources.as_deref()),
        None => Err(
            "usage: cargo xtask <cargo arguments…> | cargo xtask openssl-env | \
             cargo xtask install [--prefix DIR]"
                .into(),
        ),
        Some(_) => {
            let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let mut cmd = Command::new(cargo);
            cmd.args(args);
            if let Some(dir) = &sources {
                cmd.env("NATIVE_OSSL_OPENSSL_SOURCES", dir);
            }
            let status = cmd.status().map_err(|e| format!("running cargo: {e}"))?;
            exit(status.code().unwrap_or(1));
        }
    }
}

/// `cargo xtask install [--prefix DIR]`: the release binary to PREFIX/bin, the man pages
/// to PREFIX/share/man/man1 and the completions to where bash-completion, zsh and fish
/// look under PREFIX/share. `~/.local` by default: Debian puts `~/.local/bin` on PATH,
/// man(1) finds the pages beside it, bash-completion reads `~/.local/share`.
fn install(args: &[OsString], sources: Option<&Path>) -> Result<(), String> {
    let prefix = match args {
        [] => PathBuf::from(env::var_os("HOME").ok_or("HOME is not set; give --prefix DIR")?)
            .join(".local"),
        [flag, dir] if flag == "--prefix" => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask install [--prefix DIR]".into()),
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("the xtask crate has no parent directory")?;
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(root)
        .args(["build", "--release", "--bin", "pkit"]);
    if let Some(dir) = sources {
        build.env("NATIVE_OSSL_OPENSSL_SOURCES", dir);
    }
    let status = build.status().map_err(|e| format!("running cargo: {e}"))?;
    if !status.success() {
        return Err("the release build failed".into());
    }
    let share = prefix.join("share");
    let copies: Vec<(PathBuf, PathBuf)> = [
        ("target/release/pkit", prefix.join("bin/pkit")),
        (
            "completions/pkit.bash",
            share.join("bash-completion/completions/pkit"),
        ),
        ("completions/_pkit", share.join("zsh/site-functions/_pkit")),
        (
            "completions/pkit.fish",
            share.join("fish/vendor_completions.d/pkit.fish"),
        ),
    ]
    .into_iter()
    .map(|(from, to)| (root.join(from), to))
    .chain(man_pages(root)?.into_iter().map(|p| {
        let to = share
            .join("man/man1")
            .join(p.file_name().unwrap_or_default());
        (p, to)
    }))
    .collect();
    for (from, to) in &copies {
        if let Some(dir) = to.parent() {
            fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        fs::copy(from, to).map_err(|e| format!("{} → {}: {e}", from.display(), to.display()))?;
    }
    eprintln!(
        "xtask: installed pkit, {} man pages and 3 completions under {}",
        copies.len() - 4,
        prefix.display()
    );
    Ok(())
}

/// The committed man pages (`man/*.1`).
fn man_pages(root: &Path) -> Result<Vec<PathBuf>, String> {
    let dir = root.join("man");
    let mut pages: Vec<PathBuf> = fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "1"))
        .collect();
    pages.sort();
    Ok(pages)
}

/// `None` when the system OpenSSL will do; otherwise the directory native-ossl should use.
fn openssl_sources() -> Result<Option<PathBuf>, String> {
    if let Ok(dir) = env::var("NATIVE_OSSL_OPENSSL_SOURCES") {
        return Ok(Some(PathBuf::from(dir)));
    }
    if let Some(v) = system_openssl_version() {
        if v >= MIN_SYSTEM_OPENSSL {
            return Ok(None);
        }
        eprintln!(
            "xtask: system OpenSSL is {}.{}, pkit needs >= {}.{} for ML-DSA; using a private build",
            v.0, v.1, MIN_SYSTEM_OPENSSL.0, MIN_SYSTEM_OPENSSL.1
        );
    }
    let root = cache_root()?.join(OPENSSL_TAG);
    let install = root.join("install");
    if install.join("libcrypto.a").exists() && install.join("include/openssl/opensslv.h").exists() {
        return Ok(Some(install));
    }
    build_openssl(&root)?;
    Ok(Some(install))
}

fn system_openssl_version() -> Option<(u32, u32)> {
    let out = Command::new("pkg-config")
        .args(["--modversion", "openssl"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.trim().split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

fn cache_root() -> Result<PathBuf, String> {
    if let Some(dir) = env::var_os("PKIT_OPENSSL_CACHE") {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = env::var_os("XDG_CACHE_HOME") {
        return Ok(PathBuf::from(dir).join("pkit"));
    }
    let home = env::var_os("HOME").ok_or("neither PKIT_OPENSSL_CACHE nor HOME is set")?;
    Ok(PathBuf::from(home).join(".cache/pkit"))
}

/// Builds into a scratch directory and renames it into place, so an interrupted build never
/// leaves a cache entry that looks complete.
fn build_openssl(root: &Path) -> Result<(), String> {
    let parent = root.parent().ok_or("bad cache path")?;
    fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let scratch = parent.join(format!("{OPENSSL_TAG}.building-{}", std::process::id()));
    let _ = fs::remove_dir_all(&scratch);
    eprintln!(
        "xtask: building {OPENSSL_TAG} (static libcrypto) into {} — once, about 5 minutes on 2 cores",
        root.display()
    );
    let host = host_triple()?;
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    // openssl-src forwards CARGO_MAKEFLAGS to make; outside a build script we set it ourselves.
    env::set_var("CARGO_MAKEFLAGS", format!("-j{jobs}"));
    let artifacts = openssl_src::Build::new()
        .out_dir(&scratch)
        .target(&host)
        .host(&host)
        .openssl_dir("/usr/lib/ssl")
        .try_build()
        .map_err(|e| format!("OpenSSL build failed: {e}"))?;
    let install = scratch.join("install");
    // native-ossl-sys wants libcrypto.a directly under the directory it is given.
    let lib = artifacts.lib_dir().join("libcrypto.a");
    fs::copy(&lib, install.join("libcrypto.a")).map_err(|e| format!("{}: {e}", lib.display()))?;
    let _ = fs::remove_dir_all(scratch.join("build"));
    let _ = fs::remove_dir_all(root);
    fs::rename(&scratch, root).map_err(|e| format!("{}: {e}", root.display()))?;
    eprintln!("xtask: OpenSSL ready in {}", root.display());
    Ok(())
}

fn host_triple() -> Result<String, String> {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .ok_or_else(|| "rustc -vV printed no host triple".into())
}

fn libclang_present() -> bool {
    if let Some(dir) = env::var_os("LIBCLANG_PATH") {
        return Path::new(&dir).exists();
    }
    let roots = [
        "/usr/lib",
        "/usr/lib64",
        "/usr/local/lib",
        "/usr/lib/x86_64-linux-gnu",
    ];
    roots
        .iter()
        .any(|root| dir_has_libclang(Path::new(root), 2))
}

fn dir_has_libclang(dir: &Path, depth: u32) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if is_libclang(&name) {
            return true;
        }
        depth > 0 && e.path().is_dir() && dir_has_libclang(&e.path(), depth - 1)
    })
}

/// The C library bindgen loads: `libclang.so*` or `libclang-14.so*`, but not
/// `libclang-cpp.so*` (the C++ library, which Debian installs without the C one and
/// which bindgen cannot use).
fn is_libclang(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("libclang") else {
        return false;
    };
    let Some(stem) = rest.find(".so").map(|i| &rest[..i]) else {
        return false;
    };
    stem.is_empty()
        || stem
            .strip_prefix('-')
            .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

fn ensure_libclang() -> Result<(), String> {
    if libclang_present() {
        return Ok(());
    }
    let how = "apt-get update && apt-get install -y libclang-dev";
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let has_apt = Path::new("/usr/bin/apt-get").exists();
    if !(is_root && has_apt) {
        return Err(format!(
            "libclang not found (bindgen needs it to build native-ossl-sys). Install it: `{how}` \
             (or set LIBCLANG_PATH)"
        ));
    }
    eprintln!("xtask: libclang not found; running `{how}`");
    let ok = Command::new("sh")
        .args(["-c", &format!("{how} >/dev/null")])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .is_ok_and(|s| s.success());
    if ok && libclang_present() {
        Ok(())
    } else {
        Err(format!("could not install libclang; run `{how}` by hand"))
    }
}
