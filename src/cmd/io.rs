//! Inputs and outputs shared by every subcommand: files, directories and `-`; PEM bundles,
//! DER and bare base64 split into items; password sources; and output files written via a
//! temporary file and a rename, never over an existing file without `--force`.

use super::error::{CliError, CliResult};
use base64::Engine;
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

/// Split a source into items. PEM blocks are decoded one by one, so one damaged block
/// does not hide the others: its error comes back in its place.
pub fn split_items(src: Source, form: InForm) -> Vec<CliResult<Item>> {
    if src.data.trim_ascii().is_empty() {
        return vec![Err(CliError::parse(format!(
            "{}: offset 0: expected data, found an empty input",
            src.name
        )))];
    }
    let form = match form {
        InForm::Auto => detect_form(&src.data),
        f => f,
    };
    match form {
        // DER moves through without a copy (inputs can be large).
        InForm::Der | InForm::Auto => vec![Ok(Item {
            name: src.name,
            label: None,
            der: src.data,
        })],
        InForm::Base64 => {
            let text: Vec<u8> = src
                .data
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            vec![base64::engine::general_purpose::STANDARD
                .decode(&text)
                .map(|der| Item {
                    name: src.name.clone(),
                    label: None,
                    der,
                })
                .map_err(|e| {
                    CliError::parse(format!("{}: offset 0: expected base64: {e}", src.name))
                })]
        }
        InForm::Pem => split_pem(&src),
    }
}

/// PEM if a `-----BEGIN ` line is present; base64 if the text is only base64 characters;
/// otherwise DER.
pub fn detect_form(data: &[u8]) -> InForm {
    // DER starts with a tag octet, never with text: a quick look spares scanning a large
    // binary file for a PEM header.
    if data.first() == Some(&0x30) && find(&data[..data.len().min(4096)], b"-----BEGIN ").is_none()
    {
        return InForm::Der;
    }
    if find(data, b"-----BEGIN ").is_some() {
        return InForm::Pem;
    }
    let trimmed = data.trim_ascii();
    if trimmed.len() >= 4
        && trimmed
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=\r\n \t".contains(b))
    {
        return InForm::Base64;
    }
    InForm::Der
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

fn split_pem(src: &Source) -> Vec<CliResult<Item>> {
    let mut items = Vec::new();
    let mut pos = 0;
    let data = &src.data;
    let mut blocks = Vec::new();
    while let Some(rel) = find(&data[pos..], b"-----BEGIN ") {
        let start = pos + rel;
        let end_marker = find(&data[start..], b"-----END ").map(|e| start + e);
        let Some(end) = end_marker else {
            blocks.push(Err((start, "a matching -----END line")));
            break;
        };
        // The END line runs to the next newline (or the end of data).
        let line_end = data[end..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(data.len(), |n| end + n + 1);
        blocks.push(Ok((start, &data[start..line_end])));
        pos = line_end;
    }
    let multi = blocks.len() > 1;
    for (i, b) in blocks.into_iter().enumerate() {
        let name = if multi {
            format!("{}#{}", src.name, i + 1)
        } else {
            src.name.clone()
        };
        items.push(match b {
            Err((off, what)) => Err(CliError::parse(format!(
                "{name}: offset {off}: expected {what}"
            ))),
            Ok((off, block)) => match super::pem_block::decode(block) {
                Some(Ok(b)) => Ok(Item {
                    name,
                    label: Some(b.label),
                    der: b.der,
                }),
                Some(Err((at, what))) => Err(CliError::parse(format!(
                    "{name}: offset {}: expected {what}",
                    off + at
                ))),
                None => pem_with_headers(name, off, block),
            },
        });
    }
    items
}

/// A block with RFC 1421 headers, read by the `pem` crate: legacy encrypted keys are
/// named as such, anything else is read as usual.
fn pem_with_headers(name: String, off: usize, block: &[u8]) -> CliResult<Item> {
    match pem::parse(block) {
        Ok(p)
            if p.headers()
                .get("Proc-Type")
                .is_some_and(|v| v.contains("ENCRYPTED")) =>
        {
            Err(CliError::parse(format!(
                "{name}: offset {off}: the block uses legacy PEM encryption \
                         (Proc-Type: 4,ENCRYPTED), which pkit does not read; convert it with \
                         `openssl pkcs8 -topk8`"
            )))
        }
        Ok(p) => Ok(Item {
            name,
            label: Some(p.tag().to_string()),
            der: p.into_contents(),
        }),
        Err(e) => Err(CliError::parse(format!(
            "{name}: offset {off}: expected a valid PEM block: {e}"
        ))),
    }
}

/// PEM-encode with 64-column lines and `\n` endings (RFC 7468 §2).
pub fn pem_encode(label: &str, der: &[u8]) -> String {
    let mut out = Vec::with_capacity(der.len() / 48 * 65 + 2 * label.len() + 64);
    // Writing into a Vec cannot fail, and the text is ASCII.
    let _ = write_pem(&mut out, label, der);
    String::from_utf8(out).unwrap_or_default()
}

/// [`pem_encode`] straight into `w`, a block of lines at a time: a 53 MB CRL never exists
/// as one 71 MB string. Written here rather than through the `pem` crate, which wants its
/// own copy of the contents.
pub fn write_pem(w: &mut dyn Write, label: &str, der: &[u8]) -> std::io::Result<()> {
    use base64::Engine;
    const LINES_PER_WRITE: usize = 1024;
    let engine = &base64::engine::general_purpose::STANDARD;
    writeln!(w, "-----BEGIN {label}-----")?;
    let mut text = String::with_capacity(LINES_PER_WRITE * 65);
    for block in der.chunks(48 * LINES_PER_WRITE) {
        text.clear();
        for line in block.chunks(48) {
            engine.encode_string(line, &mut text);
            text.push('\n');
        }
        w.write_all(text.as_bytes())?;
    }
    writeln!(w, "-----END {label}-----")
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
            .map_err(|e| CliError::io_at(rest, &e)),
        "fd" => {
            let fd: i32 = rest
                .parse()
                .map_err(|_| CliError::usage(format!("password source fd:{rest}: not a number")))?;
            let mut s = String::new();
            fs::File::open(format!("/dev/fd/{fd}"))
                .and_then(|mut f| f.read_to_string(&mut s))
                .map_err(|e| CliError::io_at(&format!("fd:{fd}"), &e))?;
            Ok(first_line(s))
        }
        _ => Err(CliError::usage(
            "password source: expected pass:, env:, file: or fd: before the first ':'",
        )),
    }
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
    let name = path.display().to_string();
    let exists = || CliError::io(format!("{name}: already exists (use --force to overwrite)"));
    // Checked first so that nothing is produced for an output that would be refused.
    if !force && path.exists() {
        return Err(exists());
    }
    atomic_file::create(path, force, private, produce).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            exists()
        } else {
            CliError::io_at(&name, &e)
        }
    })
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

    #[test]
    fn detects_forms() {
        assert_eq!(detect_form(b"-----BEGIN CERTIFICATE-----\n"), InForm::Pem);
        assert_eq!(detect_form(b"MIIB\nAAAA\n"), InForm::Base64);
        assert_eq!(detect_form(&[0x30, 0x03, 0x02, 0x01, 0x00]), InForm::Der);
    }

    #[test]
    fn pem_encoding_matches_the_pem_crate() {
        for len in [0, 1, 47, 48, 49, 96, 1000] {
            let der: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
            let theirs = pem::encode_config(
                &pem::Pem::new("X509 CRL", der.clone()),
                pem::EncodeConfig::new().set_line_ending(pem::LineEnding::LF),
            );
            assert_eq!(pem_encode("X509 CRL", &der), theirs, "{len} bytes");
        }
    }

    #[test]
    fn splits_pem_bundles_and_reports_bad_blocks() {
        let good = pem_encode("CERTIFICATE", &[0x30, 0x00]);
        let bad = "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n";
        let data = format!("junk\n{good}{bad}{good}");
        let src = Source {
            name: "b.pem".into(),
            data: data.into_bytes(),
        };
        let items = split_items(src, InForm::Auto);
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].as_ref().unwrap().name, "b.pem#1");
        assert_eq!(items[0].as_ref().unwrap().der, [0x30, 0x00]);
        assert!(items[1]
            .as_ref()
            .unwrap_err()
            .message
            .starts_with("b.pem#2: offset"));
        assert!(items[2].is_ok());
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
