//! `pkit mtc`: run a Merkle Tree Certificate CA (draft-ietf-plants-merkle-tree-certs-07)
//! and verify its certificates. A CA directory holds `mtc-ca.pem` (the §5.5 CA
//! certificate, unsigned), `cosigner.key` (0600) and `mtc.db`.

use super::ca_dir::parse_time;
use super::error::{CliError, CliResult, Exit};
use super::io;
use super::key::{load_private_key, AlgorithmParser};
use super::output;
use clap::{Args, Subcommand};
use pkit::der::Time;
use pkit::mtc::cosign::{Cosigner, COSIGNER_ALGORITHMS};
use pkit::mtc::ids::TrustAnchorId;
use pkit::mtc::issuer::MtcCa;
use pkit::mtc::store::Store;
use pkit::mtc::MtcError;
use pkit::pki::alg::Algorithm;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

#[path = "mtc_add.rs"]
mod add;
#[path = "mtc_tree.rs"]
mod tree;
#[path = "mtc_verify.rs"]
mod verify;

#[derive(Args, Debug)]
pub struct MtcArgs {
    #[command(subcommand)]
    pub command: MtcCommand,
}

#[derive(Subcommand, Debug)]
pub enum MtcCommand {
    /// Create an MTC CA.
    Ca(CaArgs),
    /// Append certificate requests to the issuance log.
    Add(add::AddArgs),
    /// Sign a checkpoint and the covering subtrees of the entries added since the last.
    Checkpoint(tree::CheckpointArgs),
    /// Write a standalone (default) or landmark-relative certificate for a log entry, and
    /// record it in mtc.db.
    Cert(tree::CertArgs),
    /// Allocate and list landmarks.
    Landmark(tree::LandmarkArgs),
    /// Print the inclusion proof of an entry.
    Proof(tree::ProofArgs),
    /// Print the consistency proof between two tree sizes.
    Consistency(tree::ConsistencyArgs),
    /// Verify an MTC certificate (draft §7.2): exit 0 valid, 1 invalid, 3 unparseable.
    Verify(verify::VerifyArgs),
    /// Compare certificate sizes: standalone, landmark-relative, X.509 leaf + intermediate.
    Size(verify::SizeArgs),
}

#[derive(Args, Debug)]
pub struct CaArgs {
    #[command(subcommand)]
    pub command: CaCommand,
}

#[derive(Subcommand, Debug)]
pub enum CaCommand {
    /// Create DIR/mtc-ca.pem, DIR/cosigner.key and DIR/mtc.db.
    New(NewArgs),
}

#[derive(Args, Debug)]
pub struct NewArgs {
    /// The CA directory (created if missing).
    #[arg(long)]
    pub dir: PathBuf,
    /// The CA's trust anchor ID, a RELATIVE-OID under 1.3.6.1.4.1 (e.g. 32473.1).
    #[arg(long, value_name = "ID")]
    pub ca_id: String,
    /// Cosigner key algorithm: ecdsa-p256, ed25519, ml-dsa-44, ml-dsa-65 or ml-dsa-87.
    #[arg(long, value_parser = AlgorithmParser)]
    pub alg: Algorithm,
    /// The issuance log number (1..65535).
    #[arg(long, default_value_t = 1)]
    pub log: u16,
    /// Validity of the CA certificate in days.
    #[arg(long, default_value_t = 3650)]
    pub days: u32,
    /// Time of creation (RFC 3339), for reproducible tests.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

impl MtcArgs {
    /// Whether errors go to stderr as JSON (`-f json`).
    pub fn wants_json(&self) -> bool {
        let f = match &self.command {
            MtcCommand::Ca(CaArgs {
                command: CaCommand::New(n),
            }) => n.format,
            MtcCommand::Add(x) => x.format,
            MtcCommand::Checkpoint(x) => x.format,
            MtcCommand::Proof(x) => x.format,
            MtcCommand::Consistency(x) => x.format,
            MtcCommand::Verify(x) => x.format,
            MtcCommand::Size(x) => x.format,
            MtcCommand::Cert(_) | MtcCommand::Landmark(_) => Format::Text,
        };
        f == Format::Json
    }
}

pub fn run(a: MtcArgs) -> CliResult<Exit> {
    match a.command {
        MtcCommand::Ca(CaArgs {
            command: CaCommand::New(n),
        }) => run_new(n),
        MtcCommand::Add(x) => add::run(x),
        MtcCommand::Checkpoint(x) => tree::run_checkpoint(x),
        MtcCommand::Cert(x) => tree::run_cert(x),
        MtcCommand::Landmark(x) => tree::run_landmark(x),
        MtcCommand::Proof(x) => tree::run_proof(x),
        MtcCommand::Consistency(x) => tree::run_consistency(x),
        MtcCommand::Verify(x) => verify::run(x),
        MtcCommand::Size(x) => verify::run_size(x),
    }
}

/// Map a library error to the shared exit codes, naming the input.
pub fn mtc_err(source: &str) -> impl Fn(MtcError) -> CliError + '_ {
    move |e| match e {
        MtcError::Malformed { offset, expected } => CliError {
            exit: Exit::Parse,
            message: format!("{source}: offset {offset}: expected {expected}"),
            offset: Some(offset),
            path: None,
        },
        MtcError::Invalid(m) => CliError::usage(format!("{source}: {m}")),
        MtcError::Store(m) => CliError::io(format!("{source}: {m}")),
        MtcError::Backend(b) => b.into(),
    }
}

/// Print text or the JSON envelope.
pub fn emit(format: Format, kind: &str, item: Value, text: &str) -> CliResult {
    let out = match format {
        Format::Text => text.to_string(),
        Format::Json => output::json_text(&output::envelope(kind, vec![item])),
    };
    io::write_text(None, false, &out)
}

pub fn now_of(now: &Option<String>) -> CliResult<Time> {
    Ok(parse_time("--now", now)?.unwrap_or_else(Time::now))
}

pub fn unix(t: Time) -> u64 {
    u64::try_from(t.unix).unwrap_or(0)
}

fn run_new(a: NewArgs) -> CliResult<Exit> {
    if !COSIGNER_ALGORITHMS.contains(&a.alg) {
        return Err(CliError::unsupported(format!(
            "--alg {}: MTC cosigners use ecdsa-p256, ed25519, ml-dsa-44, ml-dsa-65 or ml-dsa-87",
            a.alg
        )));
    }
    if a.log == 0 {
        return Err(CliError::usage("--log 0: log numbers are 1..65535"));
    }
    let ca_id = TrustAnchorId::parse(&a.ca_id).map_err(mtc_err("--ca-id"))?;
    let now = now_of(&a.now)?;
    std::fs::create_dir_all(&a.dir)
        .map_err(|e| CliError::io_at(&a.dir.display().to_string(), &e))?;
    let (pem_path, key_path, db_path) = paths(&a.dir);
    for p in [&pem_path, &key_path, &db_path] {
        if p.exists() {
            return Err(CliError::io(format!("{}: already exists", p.display())));
        }
    }
    let key = pkit::pki::backend::default_backend().generate(a.alg)?;
    let spki = key.public_key_der()?;
    let base = u64::from(a.log) << 48;
    let der = pkit::mtc::cert::ca_certificate(&pkit::mtc::cert::CaCertInput {
        ca_id: &ca_id,
        spki: &spki,
        alg: a.alg,
        not_before: now,
        not_after: now.plus_seconds(i64::from(a.days) * 86_400),
        min_serial: base,
        max_serial: base | pkit::mtc::proof::UINT48_MAX,
    });
    let key_text = super::issue::key_pem(key.as_ref(), None)?;
    io::write_file_atomic(&key_path, key_text.as_bytes(), false, true)?;
    let db_name = db_path.display().to_string();
    let store = Store::open(&db_path).map_err(mtc_err(&db_name))?;
    for (k, v) in [
        ("ca_id", ca_id.dotted().to_string()),
        ("log", a.log.to_string()),
        ("alg", a.alg.name().to_string()),
    ] {
        store.set_meta(k, &v).map_err(mtc_err(&db_name))?;
    }
    io::write_file_atomic(
        &pem_path,
        io::pem_encode("CERTIFICATE", &der).as_bytes(),
        false,
        false,
    )?;
    let item = json!({
        "dir": a.dir.display().to_string(),
        "ca_id": ca_id.dotted(),
        "log": a.log,
        "log_origin": ca_id.log_id(a.log).note_name(),
        "cosigner_name": ca_id.note_name(),
        "algorithm": a.alg.name(),
        "min_serial": base,
        "max_serial": base | pkit::mtc::proof::UINT48_MAX,
    });
    let text = format!(
        "created MTC CA {} (log {}, origin {}), cosigner key {}, in {}\n",
        ca_id,
        a.log,
        ca_id.log_id(a.log).note_name(),
        a.alg,
        a.dir.display()
    );
    emit(a.format, "mtc_ca", item, &text)?;
    Ok(Exit::Ok)
}

/// `DIR/mtc-ca.pem`, `DIR/cosigner.key`, `DIR/mtc.db`.
pub fn paths(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    (
        dir.join("mtc-ca.pem"),
        dir.join("cosigner.key"),
        dir.join("mtc.db"),
    )
}

/// Open `DIR/mtc.db`, which must exist.
pub fn open_store(dir: &Path) -> CliResult<(Store, String)> {
    let (_, _, db) = paths(dir);
    let name = db.display().to_string();
    if !db.is_file() {
        return Err(CliError::io(format!(
            "{name}: no MTC database (create the CA with `pkit mtc ca new --dir {}`)",
            dir.display()
        )));
    }
    let s = Store::open(&db).map_err(mtc_err(&name))?;
    Ok((s, name))
}

/// The CA's ID and log number from `mtc.db`.
pub fn ca_meta(store: &Store, name: &str) -> CliResult<(TrustAnchorId, u16)> {
    let get = |k: &str| -> CliResult<String> {
        store
            .meta(k)
            .map_err(mtc_err(name))?
            .ok_or_else(|| CliError::parse(format!("{name}: missing {k} in meta")))
    };
    let id = TrustAnchorId::parse(&get("ca_id")?).map_err(mtc_err(name))?;
    let log = get("log")?
        .parse()
        .map_err(|_| CliError::parse(format!("{name}: bad log number in meta")))?;
    Ok((id, log))
}

/// The CA with its cosigner key.
pub fn load_ca(dir: &Path, store: &Store, name: &str) -> CliResult<MtcCa> {
    let (ca_id, log) = ca_meta(store, name)?;
    let (_, key_path, _) = paths(dir);
    let key = load_private_key(&key_path, None)?;
    let cosigner =
        Cosigner::new(ca_id.clone(), key).map_err(mtc_err(&key_path.display().to_string()))?;
    Ok(MtcCa {
        ca_id,
        log,
        cosigner,
    })
}
