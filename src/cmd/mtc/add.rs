//! `pkit mtc add`: append TBSCertificateLogEntry records to the issuance log, one from
//! arguments or many from a JSONL manifest (converted and hashed in parallel, stored one
//! transaction per chunk).

use super::common::{ca_meta, emit, mtc_err, now_of, open_store, FormatArg};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::key::AlgorithmParser;
use crate::cmd::request::{generate, key_pem, read_csr, sans, subject};
use clap::Args;
use pkit::der::Time;
use pkit::mtc::add::{append_bulk, manifest_entries, new_entry, EntryRequest, ManifestDefaults};
use pkit::mtc::store::LogStore;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::Backend;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct AddArgs {
    /// The CA directory.
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// A PKCS#10 request: its subject, key and requested extensions.
    #[arg(long, conflicts_with_all = ["key_out", "alg", "from"])]
    pub csr: Option<PathBuf>,
    /// Subject DN, e.g. "CN=a.example,O=Example".
    #[arg(long)]
    pub subject: Option<String>,
    /// Subject alternative name: DNS:, IP:, email:, URI: (repeatable).
    #[arg(long)]
    pub san: Vec<String>,
    /// Generate a fresh key and write it here (0600).
    #[arg(long, value_name = "FILE", conflicts_with = "from")]
    pub key_out: Option<PathBuf>,
    /// Algorithm of the fresh key.
    #[arg(long, value_parser = AlgorithmParser)]
    pub alg: Option<Algorithm>,
    /// Validity in days.
    #[arg(long, default_value_t = 7)]
    pub days: u32,
    /// JSONL manifest, one {"subject","sans":[…],"days","alg"|"spki"} per line ("spki":
    /// base64 DER; without it a fresh key of "alg" is made and not kept).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["subject", "san"])]
    pub from: Option<PathBuf>,
    /// Overwrite --key-out.
    #[arg(long)]
    pub force: bool,
    /// notBefore (RFC 3339), default now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    #[command(flatten)]
    pub output: FormatArg,
}

pub fn run(be: &Backend, a: AddArgs) -> CliResult<Exit> {
    let now = now_of(&a.now)?;
    let (mut store, name) = open_store(&a.dir, &a.db)?;
    let (ca_id, _) = ca_meta(&*store, &name)?;
    let issuer = ca_id.to_name_der();
    if let Some(path) = &a.from {
        return run_manifest(be, &a, path, &mut *store, &name, &issuer, now);
    }
    crate::cmd::created::check_free(&[a.key_out.as_deref()], a.force)?;
    let sans = sans(&a.san)?;
    let (req, key) =
        match (&a.csr, &a.key_out) {
            (Some(csr), _) => {
                let c = read_csr(be, csr)?;
                let subj = a.subject.as_deref().map(subject).transpose()?;
                (EntryRequest::from_csr(c, subj, sans, a.days), None)
            }
            (None, Some(_)) => {
                let key = generate(be, a.alg.unwrap_or(Algorithm::EcdsaP256))?;
                let subj = subject(a.subject.as_deref().unwrap_or(""))?;
                let spki = key.public_key_der()?;
                (EntryRequest::for_key(subj, spki, sans, a.days), Some(key))
            }
            (None, None) => return Err(CliError::usage(
                "give --csr FILE, --subject and --key-out FILE for a fresh key, or --from MANIFEST",
            )),
        };
    if !req.names_someone() {
        return Err(CliError::usage(
            "the entry needs a subject or at least one --san",
        ));
    }
    let e = new_entry(&issuer, now, &req).map_err(mtc_err(&name))?;
    // The key first: the log keeps every entry for good, so an entry must not be appended
    // for a key that could not be written. A key whose entry the log then refused goes.
    // (With --force, the file it replaces is put back.)
    let key_file = match (&a.key_out, &key) {
        (Some(path), Some(key)) => {
            let replaced = std::fs::read(path).ok();
            let pem = key_pem(be, key.as_ref(), None)?;
            io::write_file_atomic(path, pem.as_bytes(), a.force, true)?;
            Some((path, replaced))
        }
        _ => None,
    };
    let index = store.append_entries(&[e]).map_err(|e| {
        match &key_file {
            Some((path, Some(old))) => {
                let _ = io::write_file_atomic(path, old, true, true);
            }
            Some((path, None)) => {
                let _ = std::fs::remove_file(path);
            }
            None => {}
        }
        mtc_err(&name)(e)
    })?;
    if a.output.format != super::common::Format::Json {
        let key_note = key_file.as_ref().map_or(String::new(), |(p, _)| {
            format!(" (its key in {})", p.display())
        });
        crate::cmd::created::say_created(format_args!("log entry {index}{key_note}"), None);
    }
    emit(
        a.output.format,
        "mtc_add",
        json!({"first_index": index, "count": 1}),
        &format!("{index}\n"),
    )?;
    Ok(Exit::Ok)
}

fn run_manifest(
    be: &Backend,
    a: &AddArgs,
    path: &std::path::Path,
    store: &mut dyn LogStore,
    db_name: &str,
    issuer: &[u8],
    now: Time,
) -> CliResult<Exit> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io_at(&name, &e))?;
    let defaults = ManifestDefaults {
        days: a.days,
        alg: a.alg.unwrap_or(Algorithm::EcdsaP256),
        backend: be,
    };
    let bar = io::progress_bar(text.lines().count() as u64, "entries");
    let entries = manifest_entries(&text, &defaults, issuer, now, &|| bar.inc(1))
        .map_err(|e| CliError::parse(format!("{name}: {e}")))?;
    let first = append_bulk(store, &entries).map_err(mtc_err(db_name))?;
    bar.finish_and_clear();
    let count = entries.len() as u64;
    let text = if count == 0 {
        "no entries\n".to_string()
    } else {
        format!("{first}..{}\n", first + count - 1)
    };
    emit(
        a.output.format,
        "mtc_add",
        json!({"first_index": first, "count": count}),
        &text,
    )?;
    Ok(Exit::Ok)
}
