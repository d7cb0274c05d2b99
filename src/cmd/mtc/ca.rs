//! `pkit mtc ca new`: create an MTC CA directory.

use super::common::{emit, mtc_err, now_of, open_server, Format, FormatArg};
use crate::cmd::ca_db::{server_url, URL_FILE};
use crate::cmd::ca_dir::{new_ca_key, ExistingKeyArgs, NewCaKey, Passout};
use crate::cmd::created::say_created;
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::key::AlgorithmsOf;
use clap::{Args, Subcommand};
use pkit::mtc::cosign::COSIGNER_ALGORITHMS;
use pkit::mtc::ids::TrustAnchorId;
use pkit::mtc::setup::{
    create, new_ca_certificate, serial_range, CaFiles, NewLog, NewMtcCa, SetupError,
};
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::Backend;
use pkit::pki::ca::dir::url_file_text;
use pkit::store::url::without_password;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CaArgs {
    #[command(subcommand)]
    pub command: CaCommand,
}

#[derive(Subcommand, Debug)]
pub enum CaCommand {
    /// Create DIR/mtc-ca.pem, DIR/cosigner.key and DIR/mtc.db (with --db, DIR/db.url and
    /// the log in that database).
    ///
    /// cosigner.key (0600) is written in clear unless --passout gives a password: the
    /// cosigner signs unattended (`mtc checkpoint` from cron, `acme serve --mtc`), so it
    /// is not asked for at a terminal. With --passout it is encrypted PKCS#8 (PBES2,
    /// AES-256-CBC), and `mtc checkpoint --passin` and `acme serve --mtc-passin` unlock it.
    New(NewArgs),
}

#[derive(Args, Debug)]
pub struct NewArgs {
    /// The CA directory (created if missing).
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// The CA's trust anchor ID, a RELATIVE-OID under 1.3.6.1.4.1 (e.g. 32473.1).
    #[arg(long, value_name = "ID")]
    pub ca_id: String,
    /// Cosigner key algorithm: ecdsa-p256, ed25519, ml-dsa-44, ml-dsa-65 or ml-dsa-87
    /// (with --key, the key's).
    #[arg(long, value_parser = AlgorithmsOf(&COSIGNER_ALGORITHMS), required_unless_present = "key")]
    pub alg: Option<Algorithm>,
    #[command(flatten)]
    pub existing: ExistingKeyArgs,
    /// Encrypt cosigner.key with a password from SRC (pass:, env:, file:, fd:), as
    /// `issue ca --passout` encrypts ca.key. Without it the key is written in clear.
    #[arg(long, value_name = "SRC")]
    pub passout: Option<String>,
    /// The issuance log number (1..65535).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub log: u16,
    /// Validity of the CA certificate in days.
    #[arg(long, default_value_t = 3650, value_parser = clap::value_parser!(u32).range(1..))]
    pub days: u32,
    /// Time of creation (RFC 3339), for reproducible tests.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Output format.
    #[command(flatten)]
    pub output: FormatArg,
}

pub fn run_new(be: &Backend, a: NewArgs) -> CliResult<Exit> {
    let ca_id = TrustAnchorId::parse(&a.ca_id).map_err(mtc_err("--ca-id"))?;
    let now = now_of(&a.now)?;
    crate::cmd::ca_dir::create_ca_dir(&a.dir)?;
    let files = CaFiles::in_dir(&a.dir);
    if let Some(p) = files.existing() {
        return Err(CliError::io(format!("{}: already exists", p.display())));
    }
    // The log's cosigner key signs checkpoints unattended (`mtc checkpoint` from cron).
    let NewCaKey { key, file_text, .. } = new_ca_key(
        be,
        &a.existing,
        a.alg,
        Algorithm::EcdsaP256,
        match &a.passout {
            Some(src) => Passout::Source(src),
            None => Passout::Clear,
        },
        &files.key,
    )?;
    let key_encrypted = a.passout.is_some();
    let spki = key.public_key_der()?;
    let new = NewMtcCa {
        ca_id: &ca_id,
        log: a.log,
        spki: &spki,
        alg: key.algorithm(),
        not_before: now,
        days: a.days,
    };
    let der = new_ca_certificate(&new).map_err(mtc_err("--key"))?;
    let (alg, (min_serial, max_serial)) = (new.alg, serial_range(a.log));
    // A log on a database server is reached before anything is written, so that a wrong
    // URL or password, or a database holding another log (`pkit::mtc::setup::create`
    // checks), changes nothing.
    let log = match server_url(&a.dir, CaFiles::LOG, &a.db)? {
        Some(url) => {
            let name = without_password(&url);
            NewLog::Server {
                store: open_server(&url, &a.db, &name)?,
                name,
                url_file: a.dir.join(URL_FILE),
                url_text: url_file_text(&url),
            }
        }
        None => NewLog::File,
    };
    create(&files, &new, &der, file_text.as_bytes(), log).map_err(|e| match e {
        SetupError::Log { name, error } => mtc_err(&name)(error),
        SetupError::Write { path, error } => io::file_err(&path, &error),
        e => CliError::io(e.to_string()),
    })?;
    let item = json!({
        "dir": a.dir.display().to_string(),
        "ca_id": ca_id.dotted(),
        "log": a.log,
        "log_origin": ca_id.log_id(a.log).note_name(),
        "cosigner_name": ca_id.note_name(),
        "algorithm": alg.name(),
        "key_encrypted": key_encrypted,
        "min_serial": min_serial,
        "max_serial": max_serial,
    });
    if a.output.format == Format::Json {
        emit(Format::Json, "mtc_ca", item, "")?;
    } else {
        say_created(
            format_args!(
                "MTC CA {ca_id} (log {}, origin {}, {}cosigner key {alg})",
                a.log,
                ca_id.log_id(a.log).note_name(),
                if key_encrypted { "encrypted " } else { "" },
            ),
            Some(&a.dir),
        );
    }
    Ok(Exit::Ok)
}
