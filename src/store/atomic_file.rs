//! Files that appear whole or not at all: written under a temporary name in the target's
//! directory, flushed, then linked or renamed into place, and the directory flushed. A
//! crash or a kill -9 at any point leaves either no file or the finished one (plus at
//! most a `.pkit-tmp-*` file, which [`TEMP_PREFIX`] lets a later run recognise).

use super::process;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How temporary files start.
pub const TEMP_PREFIX: &str = ".pkit-tmp-";

/// The directory `path` is created in.
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Create `path` with what `produce` writes (buffered). With `replace` an existing file is
/// replaced (rename); without, it is never touched and the call fails with
/// `ErrorKind::AlreadyExists`, even when the file appears while this one is written
/// (hard link). `private` files are mode 0600 from creation on.
pub fn create(
    path: &Path,
    replace: bool,
    private: bool,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = parent_dir(path);
    remove_stale_temp_files(&dir);
    let (tmp, file) = tempfile_in(&dir, private)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 16, file);
    let placed = produce(&mut w)
        .and_then(|()| w.into_inner().map_err(|e| e.into_error()))
        .and_then(|f| f.sync_all())
        .and_then(|()| {
            if replace {
                fs::rename(&tmp, path)
            } else {
                fs::hard_link(&tmp, path).and_then(|()| fs::remove_file(&tmp))
            }
        });
    if placed.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    placed?;
    // The new name is durable only once the directory is.
    fs::File::open(&dir).and_then(|d| d.sync_all())
}

/// Remove the temporary files in `dir` whose writers are gone (killed mid-write: they
/// never held a finished file). Another running process's are left alone.
pub fn remove_stale_temp_files(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(TEMP_PREFIX)) else {
            continue;
        };
        let writer = rest.split('-').next().and_then(|p| p.parse::<u32>().ok());
        if writer.is_some_and(|pid| !process::pid_alive(pid)) {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// A new, empty temporary file in `dir`.
pub fn tempfile_in(dir: &Path, private: bool) -> std::io::Result<(PathBuf, fs::File)> {
    use std::os::unix::fs::OpenOptionsExt;
    let pid = std::process::id();
    for attempt in 0..100u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let p = dir.join(format!("{TEMP_PREFIX}{pid}-{nanos:x}-{attempt}"));
        let mut opts = fs::OpenOptions::new();
        opts.write(true).create_new(true);
        opts.mode(if private { 0o600 } else { 0o644 });
        match opts.open(&p) {
            Ok(f) => return Ok((p, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("could not create a temporary file"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_refuses_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        create(&p, false, false, |w| w.write_all(b"one")).unwrap();
        let again = create(&p, false, false, |w| w.write_all(b"two")).unwrap_err();
        assert_eq!(again.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&p).unwrap(), b"one");
        create(&p, true, false, |w| w.write_all(b"three")).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"three");
        // A failing producer leaves neither the file nor a temporary one.
        let q = dir.path().join("g");
        assert!(create(&q, false, false, |_| Err(std::io::Error::other("no"))).is_err());
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }
}
