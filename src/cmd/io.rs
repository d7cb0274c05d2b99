//! Inputs and outputs shared by every subcommand: files, directories and `-`; PEM bundles,
//! DER and bare base64 split into items; password sources; and output files written via a
//! temporary file and a rename, never over an existing file without `--force`.

use super::error::{CliError, CliResult};
pub use pkit::der::pem::{encode as pem_encode, write as write_pem};
use pkit::pki::split::{self, Form};
use pkit::store::atomic_file;
use std::fs;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

/// How to read the bytes of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum InForm {
    /// Detect PEM, DER or base64.
    #[default]
    Auto,
    Pem,
    Der,
    Base64,
}

/// One input source: a file or stdin, read whole.
#[derive(Debug)]
pub struct Source {
    /// The name used in messages: the path, or `-` for stdin.
    pub name: String,
    pub data: Vec<u8>,
}

/// One object found in a source.
#[derive(Debug)]
pub struct Item {
    /// `FILE` for a single-object source, `FILE#N` (1-based) inside bundles.
    pub name: String,
    /// The PEM label (`CERTIFICATE`, `X509 CRL`…), if the item came from PEM.
    pub label: Option<String>,
    pub der: Vec<u8>,
}

/// Expand the positional arguments into sources. Directories need `recursive`; their files
/// are taken in sorted order so output order is stable.
pub fn collect_paths(args: &[PathBuf], recursive: bool) -> CliResult<Vec<PathBuf>> {
    let mut out = Vec::new();
    let args: Vec<PathBuf> = if args.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.to_vec()
    };
    for p in args {
        // Without -r a path is not looked at here: ten thousand `stat` calls in a row
        // cost more than reading the files on every core, and reading a directory
        // fails with the same message (see `read_source`).
        if recursive && p.as_os_str() != "-" && p.is_dir() {
            walk_dir(&p, &mut out)?;
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

fn is_a_directory(path: &Path) -> CliError {
    CliError::usage(format!(
        "{}: is a directory (use -r to read the files in it)",
        path.display()
    ))
}

fn walk_dir(dir: &Path, out: &mut Vec<PathBuf>) -> CliResult {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| CliError::io_at(&dir.display().to_string(), &e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk_dir(&p, out)?;
        } else if p.is_file() {
            out.push(p);
        } else {
            // A FIFO would block the read, a socket or device has no file to read, and a
            // dangling link nothing at all: passed over, and said so.
            let what = match fs::symlink_metadata(&p).map(|m| m.file_type()) {
                Ok(t) if t.is_symlink() => "a link to nothing",
                Ok(t) if std::os::unix::fs::FileTypeExt::is_fifo(&t) => "a FIFO",
                Ok(t) if std::os::unix::fs::FileTypeExt::is_socket(&t) => "a socket",
                _ => "not a regular file",
            };
            note!("pkit: {}: {what}, skipped", p.display());
        }
    }
    Ok(())
}

/// Read a source whole (stdin for `-`).
pub fn read_source(path: &Path) -> CliResult<Source> {
    if path.as_os_str() == "-" {
        let mut data = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut data)
            .map_err(|e| CliError::io_at("-", &e))?;
        return Ok(Source {
            name: "-".into(),
            data,
        });
    }
    let name = path.display().to_string();
    let data = fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::IsADirectory => is_a_directory(path),
        _ => CliError::io_at(&name, &e),
    })?;
    Ok(Source { name, data })
}

/// Split a source into items (`pkit::pki::split` does the work; here each item gets its
/// name, and each error the source's name).
pub fn split_items(src: Source, form: InForm) -> Vec<CliResult<Item>> {
    let form = match form {
        InForm::Auto => Form::Auto,
        InForm::Pem => Form::Pem,
        InForm::Der => Form::Der,
        InForm::Base64 => Form::Base64,
    };
    let items = split::split(src.data, form);
    let multi = items.len() > 1;
    items
        .into_iter()
        .enumerate()
        .map(|(i, it)| {
            let name = if multi {
                format!("{}#{}", src.name, i + 1)
            } else {
                src.name.clone()
            };
            it.map(|it| Item {
                name: name.clone(),
                label: it.label,
                der: it.der,
            })
            .map_err(|e| CliError::parse_at(&name, e.offset, &e.message))
        })
        .collect()
}

/// Read a secret from `pass:TEXT`, `env:VAR`, `file:PATH` (first line) or `fd:N`.
pub fn read_secret(spec: &str) -> CliResult<Vec<u8>> {
    // The source is never quoted back: a secret typed without its `pass:` prefix would
    // otherwise end up on the screen.
    let (kind, rest) = spec.split_once(':').ok_or_else(|| {
        CliError::usage(
            "password source: expected pass:TEXT, env:VAR, file:PATH or fd:N (the text given \
             has no such prefix)",
        )
    })?;
    let first_line = |s: String| -> Vec<u8> { s.lines().next().unwrap_or("").as_bytes().to_vec() };
    match kind {
        "pass" => Ok(rest.as_bytes().to_vec()),
        "env" => std::env::var(rest)
            .map(String::into_bytes)
            .map_err(|_| CliError::usage(format!("password source env:{rest}: variable not set"))),
        "file" => fs::read_to_string(rest)
            .map(first_line)
            .map_err(|e| CliError::io_at(&format!("password source file:{rest}"), &e)),
        "fd" => {
            let fd: i32 = rest
                .parse()
                .map_err(|_| CliError::usage(format!("password source fd:{rest}: not a number")))?;
            // A pipe is read once: what it held is kept for the process, for a command that
            // opens several keys with one source (`ca serve --passin fd:3` for each CA and
            // for its CRL publisher).
            static READ: std::sync::Mutex<Vec<(i32, Vec<u8>)>> = std::sync::Mutex::new(Vec::new());
            let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, secret)) = read.iter().find(|(f, _)| *f == fd) {
                return Ok(secret.clone());
            }
            let mut s = String::new();
            fs::File::open(format!("/dev/fd/{fd}"))
                .and_then(|mut f| f.read_to_string(&mut s))
                .map_err(|e| CliError::io_at(&format!("password source fd:{fd}"), &e))?;
            let secret = first_line(s);
            read.push((fd, secret.clone()));
            Ok(secret)
        }
        _ => Err(CliError::usage(
            "password source: expected pass:, env:, file: or fd: before the first ':'",
        )),
    }
}

/// A new passphrase, typed twice at the terminal; `None` without a terminal.
pub fn ask_new_passphrase(what: &str) -> CliResult<Option<Vec<u8>>> {
    if !(stdin_is_terminal() && stderr_is_terminal()) {
        return Ok(None);
    }
    let tty = |e: std::io::Error| CliError::io_at("the terminal", &e);
    let first = rpassword::prompt_password(format!("Passphrase for {what}: ")).map_err(tty)?;
    let again = rpassword::prompt_password("The same passphrase again: ").map_err(tty)?;
    if first != again {
        return Err(CliError::usage(
            "the two passphrases differ; nothing was written",
        ));
    }
    if first.is_empty() {
        return Err(CliError::usage("an empty passphrase; nothing was written"));
    }
    Ok(Some(first.into_bytes()))
}

/// Where output goes.
pub struct OutputOpts<'a> {
    pub path: Option<&'a Path>,
    pub force: bool,
    /// Private keys: mode 0600.
    pub private: bool,
    /// Refuse to write binary data to a terminal.
    pub binary: bool,
}

/// Write `bytes` to the output: stdout, or a file created via a temporary file in the same
/// directory and renamed into place, so a failure never leaves a partial file.
pub fn write_output(opts: &OutputOpts<'_>, bytes: &[u8]) -> CliResult {
    write_output_with(opts, |w| w.write_all(bytes))
}

/// Like [`write_output`], for output produced piece by piece: `produce` writes into a
/// buffered writer, so a large document never has to exist in memory whole.
pub fn write_output_with(
    opts: &OutputOpts<'_>,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> CliResult {
    match opts.path {
        Some(p) if p.as_os_str() != "-" => {
            write_file_atomic_with(p, opts.force, opts.private, produce)
        }
        _ => {
            let stdout = std::io::stdout();
            if opts.binary && stdout.is_terminal() {
                return Err(CliError::usage(
                    "refusing to write binary DER to a terminal; use -o FILE or a pipe",
                ));
            }
            let mut w = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
            produce(&mut w)
                .and_then(|()| w.flush())
                .or_else(ignore_broken_pipe)
                .map_err(|e| CliError::io_at("stdout", &e))
        }
    }
}

/// Write text (never private, never binary) to `path` or stdout.
pub fn write_text(path: Option<&Path>, force: bool, text: &str) -> CliResult {
    write_output(
        &OutputOpts {
            path,
            force,
            private: false,
            binary: false,
        },
        text.as_bytes(),
    )
}

fn ignore_broken_pipe(e: std::io::Error) -> std::io::Result<()> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(e)
    }
}

/// Create `path` with `bytes` atomically; refuse to replace an existing file unless
/// `force`. Private files get mode 0600 from creation on.
pub fn write_file_atomic(path: &Path, bytes: &[u8], force: bool, private: bool) -> CliResult {
    write_file_atomic_with(path, force, private, |w| w.write_all(bytes))
}

/// [`write_file_atomic`] for output that `produce` writes piece by piece.
fn write_file_atomic_with(
    path: &Path,
    force: bool,
    private: bool,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> CliResult {
    // Checked first so that nothing is produced for an output that would be refused.
    if !force && path.exists() {
        return Err(file_err(
            path,
            &std::io::Error::from(std::io::ErrorKind::AlreadyExists),
        ));
    }
    atomic_file::create(path, force, private, produce).map_err(|e| file_err(path, &e))
}

/// A file's error naming it: one that exists where a new one was to be written is
/// refused with a hint.
pub fn file_err(path: &Path, e: &std::io::Error) -> CliError {
    let name = path.display().to_string();
    if e.kind() == std::io::ErrorKind::AlreadyExists {
        CliError::io(format!("{name}: already exists (use --force to overwrite)"))
    } else {
        CliError::io_at(&name, e)
    }
}

/// Like [`write_file_atomic`] (temporary name, then rename) but without fsync and
/// always replacing: for batches, where a process crash (kill -9) must leave no partial
/// file, but flushing every file to disk would cost milliseconds each.
pub fn write_file_fast(path: &Path, bytes: &[u8], private: bool) -> CliResult {
    let name = path.display().to_string();
    let (tmp, mut f) = atomic_file::tempfile_in(&atomic_file::parent_dir(path), private)
        .map_err(|e| CliError::io_at(&name, &e))?;
    let r = f.write_all(bytes).and_then(|()| fs::rename(&tmp, path));
    r.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        CliError::io_at(&name, &e)
    })
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
pub fn progress_bar(len: u64, what: &str) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressStyle};
    if !stderr_is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what} {{per_sec}} eta {{eta}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    b
}

/// True when stderr is a terminal (progress bars, colour).
pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// Whether a person may be asked for a password (ARCHITECTURE: never prompt when stdin
/// is not a terminal).
pub fn stdin_is_terminal() -> bool {
    std::io::stdin().is_terminal()
}

/// The first item of a file (PEM block, DER or base64).
pub fn read_item(path: &Path) -> CliResult<Item> {
    let src = read_source(path)?;
    split_items(src, InForm::Auto)
        .into_iter()
        .next()
        .ok_or_else(|| CliError::parse(format!("{}: empty", path.display())))?
}

pub fn parse_cert(item: &Item) -> CliResult<pkit::pki::cert::Certificate<'_>> {
    pkit::pki::cert::Certificate::from_der(&item.der).map_err(|e| CliError::der(&item.name, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fd:N` is read once: a second key opened with the same source gets the same
    /// secret, where reading the descriptor again would give nothing.
    #[test]
    fn an_fd_source_is_read_once() {
        use std::io::{Seek, Write};
        use std::os::fd::AsRawFd;
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b"s3cret\nsecond line\n").unwrap();
        f.rewind().unwrap();
        let spec = format!("fd:{}", f.as_raw_fd());
        assert_eq!(read_secret(&spec).unwrap(), b"s3cret");
        assert_eq!(read_secret(&spec).unwrap(), b"s3cret");
    }

    #[test]
    fn secrets() {
        assert_eq!(read_secret("pass:abc").unwrap(), b"abc");
        std::env::set_var("PKIT_TEST_SECRET", "s3");
        assert_eq!(read_secret("env:PKIT_TEST_SECRET").unwrap(), b"s3");
        assert!(read_secret("abc").is_err());
        assert!(read_secret("env:PKIT_NOT_SET_ANYWHERE").is_err());
    }

    #[test]
    fn atomic_write_refuses_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.pem");
        write_file_atomic(&p, b"one", false, true).unwrap();
        assert!(write_file_atomic(&p, b"two", false, true).is_err());
        assert_eq!(fs::read(&p).unwrap(), b"one");
        write_file_atomic(&p, b"two", true, true).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let leftovers = fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1);
    }
}
