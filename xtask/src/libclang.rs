//! bindgen (native-ossl-sys's build script) loads libclang at run time: find it, or
//! install it where that is ours to do (root on Debian), or say how.

use std::env;
use std::fs;
use std::path::Path;
use std::process::Command;

pub fn ensure() -> Result<(), String> {
    if present() {
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
    if ok && present() {
        Ok(())
    } else {
        Err(format!("could not install libclang; run `{how}` by hand"))
    }
}

fn present() -> bool {
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
