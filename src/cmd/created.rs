//! What every command that creates something reports: a line on stderr for people
//! ([`say_created`]: `pkit: created WHAT in PLACE`, worded alike by every command), or
//! with `-f json` the envelope on stdout for scripts (`{"schema":"pkit/v1","type":…,
//! "items":[…]}`), one item per object made, naming the files written. Certificates
//! are described the same way whichever command made them.

use super::error::{CliError, CliResult};
use super::output;
use clap::{Args, ValueEnum};
use pkit::der::hex;
use pkit::pki::alg::Digest;
use pkit::pki::backend::Backend;
use pkit::pki::cert::Certificate;
use pkit::pki::san::sans_of;
use serde_json::{json, Map, Value};
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// A message on stderr; data (PEM) on stdout or in -o.
    #[default]
    Text,
    /// A pkit/v1 JSON envelope on stdout describing what was made.
    Json,
}

/// `-f/--format text|json` of a command that creates something.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct FormatArgs {
    /// text: a message on stderr; json: a description of what was made on stdout.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

impl FormatArgs {
    pub fn json(&self) -> bool {
        self.format == Format::Json
    }
}

/// The files written, by role (`certificate`, `key`, `bundle`, `pkcs12`, …).
#[derive(Debug, Default)]
pub struct Files(Map<String, Value>);

impl Files {
    pub fn add(&mut self, role: &str, path: &Path) {
        self.0
            .insert(role.to_string(), Value::String(path.display().to_string()));
    }

    pub fn into_value(self) -> Value {
        Value::Object(self.0)
    }
}

/// A certificate as a created item: serial, names, validity, fingerprint, profile, the
/// files written and the PEM.
pub fn certificate_item(be: &Backend, der: &[u8], profile: &str, files: Files) -> Value {
    let Ok(c) = Certificate::from_der(der) else {
        return json!({"type": "certificate", "files": files.into_value()});
    };
    let (nb, na) = c
        .validity()
        .map(|(b, a)| (b.to_string(), a.to_string()))
        .unwrap_or_default();
    json!({
        "type": "certificate",
        "serial_number": hex(pkit::der::integer::unsigned_bytes(c.serial)),
        "subject_dn": c.subject.to_rfc4514().unwrap_or_default(),
        "issuer_dn": c.issuer.to_rfc4514().unwrap_or_default(),
        "subject_alt_names": sans_of(&c),
        "validity": {"not_before": nb, "not_after": na},
        "fingerprint_sha256": hex(&be.digest(Digest::Sha256, der)),
        "profile": profile,
        "files": files.into_value(),
        "pem": super::io::pem_encode("CERTIFICATE", der),
    })
}

/// The one line a command that made something says on stderr (without `-f json`):
/// `pkit: created WHAT`, and ` in PLACE` when it went to a file or directory rather than
/// stdout. Every creating command goes through here, so they all read alike: a person
/// sees what was made and where, a script can look for `pkit: created`.
pub fn say_created(what: impl std::fmt::Display, place: Option<&Path>) {
    match place.filter(|p| p.as_os_str() != "-") {
        Some(p) => note!("pkit: created {what} in {}", p.display()),
        None => note!("pkit: created {what}"),
    }
}

/// Print `items` as the `kind` envelope on stdout.
pub fn print_json(kind: &str, items: Vec<Value>) -> CliResult {
    super::io::write_text(
        None,
        false,
        &output::json_text(&output::envelope(kind, items)),
    )
}

/// Print `items` as the `kind` envelope with the fields of `extra` (an object) beside
/// them, for a report that says more than what was made (`issue renew`'s status).
pub fn print_json_with(kind: &str, items: Vec<Value>, extra: Value) -> CliResult {
    let mut v = output::envelope(kind, items);
    if let (Some(env), Value::Object(more)) = (v.as_object_mut(), extra) {
        env.extend(more);
    }
    super::io::write_text(None, false, &output::json_text(&v))
}

/// Refuse to go on, before any work is done (a certificate signed and recorded, a CRL
/// number spent, a log entry appended), when a file to be written could not be: it
/// exists (a link, even a dangling one, counts), it is a directory (even with
/// `--force`), it names no file (`dir/`), or its directory does not exist. Each would
/// fail only after that work, leaving it undelivered.
pub fn check_free(paths: &[Option<&Path>], force: bool) -> CliResult {
    for p in paths.iter().flatten() {
        if p.as_os_str() == "-" {
            continue;
        }
        let shown = p.display();
        let refuse = |why: &str| Err(CliError::io(format!("{shown}: {why}")));
        let names_a_file =
            p.file_name().is_some() && !p.as_os_str().as_encoded_bytes().ends_with(b"/");
        if !names_a_file || p.is_dir() {
            return refuse("is a directory, not a file to write");
        }
        if !force && std::fs::symlink_metadata(p).is_ok() {
            return refuse("already exists (use --force to overwrite)");
        }
        // `x.pem` has the parent "": the working directory, which exists.
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
        if let Some(dir) = dir.filter(|d| !d.is_dir()) {
            let why = if dir.exists() {
                "is not a directory"
            } else {
                "no such directory"
            };
            return Err(CliError::io(format!(
                "{}: {why} (for {shown})",
                dir.display()
            )));
        }
    }
    Ok(())
}
