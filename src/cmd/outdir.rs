//! An output directory that many files are written into (`pkit issue batch`), each file
//! appearing whole or not at all, even when the process is killed mid-write.
//!
//! On Linux each file is created unnamed in the directory (`O_TMPFILE`), written, and then
//! given its name with `linkat`: one directory operation per file instead of create +
//! rename of a temporary name (which on ext4 cost more system time than issuing the
//! certificate), and a crash leaves no temporary file behind at all. Where the filesystem
//! lacks `O_TMPFILE`, or the name already exists (a re-run replacing its files), the file
//! goes through a temporary name and `rename`, which replaces atomically.

use super::error::{CliError, CliResult};
use super::io;
use std::path::{Path, PathBuf};
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, Ordering};

pub struct OutDir {
    path: PathBuf,
    #[cfg(target_os = "linux")]
    fd: Option<rustix::fd::OwnedFd>,
    #[cfg(target_os = "linux")]
    unnamed_files: AtomicBool,
    /// Whether `linkat(AT_EMPTY_PATH)` names files here (Linux ≥ 6.10 for the file's
    /// opener, or CAP_DAC_READ_SEARCH); otherwise the file is named through /proc.
    #[cfg(target_os = "linux")]
    empty_path_link: AtomicBool,
}

impl OutDir {
    /// Create the directory if needed and clear temporary files an interrupted run of the
    /// fallback path left there.
    pub fn open(path: &Path) -> CliResult<OutDir> {
        std::fs::create_dir_all(path)
            .map_err(|e| CliError::io_at(&path.display().to_string(), &e))?;
        pkit::store::atomic_file::remove_stale_temp_files(path);
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{openat, Mode, OFlags, CWD};
            let fd = openat(
                CWD,
                path,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .ok();
            Ok(OutDir {
                path: path.to_path_buf(),
                unnamed_files: AtomicBool::new(fd.is_some()),
                empty_path_link: AtomicBool::new(true),
                fd,
            })
        }
        #[cfg(not(target_os = "linux"))]
        Ok(OutDir {
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Write `bytes` as `name` in the directory (mode 0600 when `private`), replacing a
    /// file of that name. Returns the file's path.
    pub fn write(&self, name: &str, bytes: &[u8], private: bool) -> CliResult<PathBuf> {
        let path = self.path.join(name);
        #[cfg(target_os = "linux")]
        if self.unnamed_files.load(Ordering::Relaxed) {
            match self.write_unnamed(name, bytes, private) {
                Ok(true) => return Ok(path),
                Ok(false) => {}
                Err(e) => return Err(CliError::io_at(&path.display().to_string(), &e)),
            }
        }
        io::write_file_fast(&path, bytes, private)?;
        Ok(path)
    }

    /// Ok(false): this way is not available here (or the name exists); use the fallback.
    #[cfg(target_os = "linux")]
    fn write_unnamed(&self, name: &str, bytes: &[u8], private: bool) -> std::io::Result<bool> {
        use rustix::fs::{linkat, openat, AtFlags, Mode, OFlags, CWD};
        use rustix::io::Errno;
        use std::io::Write;
        use std::os::fd::AsRawFd;
        let Some(dir) = &self.fd else {
            return Ok(false);
        };
        let mode = Mode::from_raw_mode(if private { 0o600 } else { 0o644 });
        let fd = match openat(
            dir,
            ".",
            OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC,
            mode,
        ) {
            Ok(fd) => fd,
            // The filesystem has no O_TMPFILE: stop trying for this directory.
            Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL | Errno::NOENT) => {
                self.unnamed_files.store(false, Ordering::Relaxed);
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        };
        let mut file = std::fs::File::from(fd);
        file.write_all(bytes)?;
        if self.empty_path_link.load(Ordering::Relaxed) {
            // Naming the file by its descriptor skips the /proc path walk below, a fifth
            // of the system time per file on tmpfs.
            match linkat(&file, "", dir, name, AtFlags::EMPTY_PATH) {
                Ok(()) => return Ok(true),
                Err(Errno::EXIST) => return Ok(false),
                Err(Errno::NOENT | Errno::PERM | Errno::INVAL) => {
                    self.empty_path_link.store(false, Ordering::Relaxed);
                }
                Err(e) => return Err(e.into()),
            }
        }
        // Naming an O_TMPFILE file through /proc needs no privilege.
        let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
        match linkat(CWD, proc_path.as_str(), dir, name, AtFlags::SYMLINK_FOLLOW) {
            Ok(()) => Ok(true),
            Err(Errno::EXIST) => Ok(false),
            Err(Errno::NOENT | Errno::PERM | Errno::ACCESS) => {
                // No /proc here: the fallback works everywhere.
                self.unnamed_files.store(false, Ordering::Relaxed);
                Ok(false)
            }
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn writes_replaces_and_keeps_modes() {
        writes_replaces_and_keeps_modes_with(|_| {});
    }

    /// The /proc naming that kernels before 6.10 need for unprivileged users, and the
    /// temporary-name fallback for file systems without O_TMPFILE.
    #[cfg(target_os = "linux")]
    #[test]
    fn fallbacks_write_the_same() {
        writes_replaces_and_keeps_modes_with(|d| d.empty_path_link.store(false, Ordering::Relaxed));
        writes_replaces_and_keeps_modes_with(|d| d.unnamed_files.store(false, Ordering::Relaxed));
    }

    fn writes_replaces_and_keeps_modes_with(set_up: impl Fn(&OutDir)) {
        let t = tempfile::tempdir().unwrap();
        let d = OutDir::open(&t.path().join("out")).unwrap();
        set_up(&d);
        let p = d.write("a.key", b"secret", true).unwrap();
        let q = d.write("a.pem", b"public", false).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"secret");
        assert_eq!(std::fs::read(&q).unwrap(), b"public");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&p), 0o600);
        assert_eq!(mode(&q) & 0o600, 0o600);
        // A second write of the same name replaces it.
        d.write("a.pem", b"again", false).unwrap();
        assert_eq!(std::fs::read(&q).unwrap(), b"again");
        // Nothing else is left in the directory.
        let names: Vec<_> = std::fs::read_dir(t.path().join("out"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }
}
