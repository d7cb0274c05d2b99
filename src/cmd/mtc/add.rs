//! `pkit mtc add`: append TBSCertificateLogEntry records to the issuance log, one from
//! arguments or many from a JSONL manifest (converted and hashed in parallel, stored one
//! transaction per chunk).

use super::common::{ca_meta, emit, mtc_err, now_of, open_store, Format};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::key::AlgorithmParser;
use crate::cmd::request::{generate, key_pem, read_csr, sans, subject};
use base64::Engine as _;
use clap::Args;
use pkit::der::Time;
use pkit::mtc::entry::{encode_entry, encode_tbs_entry, leaf_extensions, TbsEntryInput};
use pkit::mtc::hash::leaf_hash;
use pkit::mtc::store::{LogStore, NewEntry};
use pkit::pki::alg::Algorithm;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::io::BufRead as _;
use std::path::PathBuf;

/// Entries per database transaction.
const CHUNK: usize = 10_000;

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
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// What one entry is made of before encoding.
struct Request {
    subject: Vec<u8>,
    spki: Vec<u8>,
    sans: Vec<Vec<u8>>,
    copied: Vec<u8>,
    days: u32,
}

fn convert(issuer: &[u8], now: Time, r: &Request) -> pkit::mtc::Result<NewEntry> {
    let ext = leaf_extensions(&r.sans, r.subject == [0x30, 0x00], &r.copied);
    let tbs = encode_tbs_entry(&TbsEntryInput {
        issuer,
        not_before: now,
        not_after: now.plus_seconds(i64::from(r.days) * 86_400),
        subject: &r.subject,
        spki: &r.spki,
        extensions: &ext,
    })?;
    let entry = encode_entry(&[], &tbs)?;
    Ok(NewEntry {
        leaf: leaf_hash(&entry),
        entry,
        spki: r.spki.clone(),
    })
}

pub fn run(a: AddArgs) -> CliResult<Exit> {
    let now = now_of(&a.now)?;
    let (mut store, name) = open_store(&a.dir, &a.db)?;
    let (ca_id, _) = ca_meta(&*store, &name)?;
    let issuer = ca_id.to_name_der();
    if let Some(path) = &a.from {
        return run_manifest(&a, path, &mut *store, &name, &issuer, now);
    }
    if let Some(p) = &a.key_out {
        if !a.force && p.exists() {
            return Err(CliError::io(format!(
                "{}: already exists (use --force to overwrite)",
                p.display()
            )));
        }
    }
    let sans = sans(&a.san)?;
    let (req, key) =
        match (&a.csr, &a.key_out) {
            (Some(csr), _) => {
                let c = read_csr(csr)?;
                let subj = match &a.subject {
                    Some(s) => subject(s)?,
                    None => c.subject,
                };
                let copied: Vec<u8> = c.extensions.into_iter().flat_map(|(_, raw)| raw).collect();
                (
                    Request {
                        subject: subj,
                        spki: c.spki,
                        sans,
                        copied,
                        days: a.days,
                    },
                    None,
                )
            }
            (None, Some(_)) => {
                let key = generate(a.alg.unwrap_or(Algorithm::EcdsaP256))?;
                let subj = subject(a.subject.as_deref().unwrap_or(""))?;
                let spki = key.public_key_der()?;
                (
                    Request {
                        subject: subj,
                        spki,
                        sans,
                        copied: Vec::new(),
                        days: a.days,
                    },
                    Some(key),
                )
            }
            (None, None) => return Err(CliError::usage(
                "give --csr FILE, --subject and --key-out FILE for a fresh key, or --from MANIFEST",
            )),
        };
    if req.subject == [0x30, 0x00] && req.sans.is_empty() {
        return Err(CliError::usage(
            "the entry needs a subject or at least one --san",
        ));
    }
    let e = convert(&issuer, now, &req).map_err(mtc_err(&name))?;
    let index = store.append_entries(&[e]).map_err(mtc_err(&name))?;
    if let (Some(path), Some(key)) = (&a.key_out, &key) {
        io::write_file_atomic(path, key_pem(key.as_ref(), None)?.as_bytes(), a.force, true)?;
    }
    emit(
        a.format,
        "mtc_add",
        json!({"first_index": index, "count": 1}),
        &format!("{index}\n"),
    )?;
    Ok(Exit::Ok)
}

fn manifest_request(
    v: &Value,
    default_days: u32,
    default_alg: Algorithm,
) -> Result<Request, String> {
    let subject_text = v["subject"].as_str().unwrap_or("");
    let subj = pkit::pki::ca::subject::parse_subject(subject_text).map_err(|e| e.0)?;
    let sans = match &v["sans"] {
        Value::Null => Vec::new(),
        Value::Array(xs) => xs
            .iter()
            .map(|x| {
                let s = x.as_str().ok_or("sans must be strings")?;
                pkit::pki::ca::san::parse_san(s).map(|s| s.der)
            })
            .collect::<Result<Vec<_>, String>>()?,
        _ => return Err("sans must be an array".into()),
    };
    if subj == [0x30, 0x00] && sans.is_empty() {
        return Err("needs a subject or sans".into());
    }
    let days = match &v["days"] {
        Value::Null => default_days,
        d => d
            .as_u64()
            .and_then(|d| u32::try_from(d).ok())
            .ok_or("days must be a positive integer")?,
    };
    let spki = match v["spki"].as_str() {
        Some(b) => base64::engine::general_purpose::STANDARD
            .decode(b)
            .map_err(|e| format!("spki: bad base64: {e}"))?,
        None => {
            let alg = match v["alg"].as_str() {
                Some(s) => Algorithm::from_name(s).ok_or(format!("unknown alg '{s}'"))?,
                None => default_alg,
            };
            crate::cmd::backend::backend()
                .generate(alg)
                .and_then(|k| k.public_key_der())
                .map_err(|e| e.to_string())?
        }
    };
    Ok(Request {
        subject: subj,
        spki,
        sans,
        copied: Vec::new(),
        days,
    })
}

fn run_manifest(
    a: &AddArgs,
    path: &std::path::Path,
    store: &mut dyn LogStore,
    db_name: &str,
    issuer: &[u8],
    now: Time,
) -> CliResult<Exit> {
    let name = path.display().to_string();
    let f = std::fs::File::open(path).map_err(|e| CliError::io_at(&name, &e))?;
    let mut lines = Vec::new();
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|e| CliError::io_at(&name, &e))?;
        if !line.trim().is_empty() {
            lines.push((i + 1, line));
        }
    }
    let alg = a.alg.unwrap_or(Algorithm::EcdsaP256);
    // Convert everything before storing anything: a bad line leaves the log untouched.
    let bar = io::progress_bar(lines.len() as u64, "entries");
    let entries: Vec<NewEntry> = lines
        .par_iter()
        .map(|(n, line)| {
            let at = |m: String| CliError::usage(format!("{name}: line {n}: {m}"));
            let v: Value = serde_json::from_str(line).map_err(|e| at(format!("bad JSON: {e}")))?;
            let req = manifest_request(&v, a.days, alg).map_err(at)?;
            let e = convert(issuer, now, &req).map_err(|e| at(e.to_string()))?;
            bar.inc(1);
            Ok(e)
        })
        .collect::<CliResult<_>>()?;
    let mut first = None;
    store.prepare_bulk_append().map_err(mtc_err(db_name))?;
    for chunk in entries.chunks(CHUNK) {
        let i = store.append_entries(chunk).map_err(mtc_err(db_name))?;
        first.get_or_insert(i);
    }
    bar.finish_and_clear();
    let first = first.unwrap_or(store_size(store));
    let count = entries.len() as u64;
    let text = if count == 0 {
        "no entries\n".to_string()
    } else {
        format!("{first}..{}\n", first + count - 1)
    };
    emit(
        a.format,
        "mtc_add",
        json!({"first_index": first, "count": count}),
        &text,
    )?;
    Ok(Exit::Ok)
}

fn store_size(store: &dyn LogStore) -> u64 {
    store.size()
}
