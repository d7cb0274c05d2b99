//! `cargo xtask install`: the binary, its man pages and completions where the system looks.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `cargo xtask install [--prefix DIR]`: the dist binary (fat LTO) to PREFIX/bin, the man pages
/// to PREFIX/share/man/man1 and the completions to where bash-completion, zsh and fish
/// look under PREFIX/share. `~/.local` by default: Debian puts `~/.local/bin` on PATH,
/// man(1) finds the pages beside it, bash-completion reads `~/.local/share`.
pub fn install(args: &[OsString], sources: Option<&Path>) -> Result<(), String> {
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
        .args(["build", "--profile", "dist", "--bin", "pkit"]);
    if let Some(dir) = sources {
        build.env("NATIVE_OSSL_OPENSSL_SOURCES", dir);
    }
    let status = build.status().map_err(|e| format!("running cargo: {e}"))?;
    if !status.success() {
        return Err("the dist build failed".into());
    }
    let share = prefix.join("share");
    let copies: Vec<(PathBuf, PathBuf)> = [
        ("target/dist/pkit", prefix.join("bin/pkit")),
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
