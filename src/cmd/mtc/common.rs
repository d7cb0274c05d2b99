//! What the `pkit mtc` subcommands share: the CA directory's files, opening `mtc.db`,
//! loading the CA with its cosigner key, the `-f text|json` choice and error mapping.

use crate::cmd::ca_db::{password, DbArgs};
use crate::cmd::ca_dir::parse_time;
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::key::load_private_key;
use crate::cmd::output;
use crate::cmd::store_at::{self, StoreAt};
use pkit::der::Time;
use pkit::mtc::ids::TrustAnchorId;
use pkit::mtc::issuer::MtcCa;
use pkit::mtc::setup::{self, log_of_store, CaFiles, LoadCaError};
use pkit::mtc::store::{self, LogStore};
use pkit::mtc::MtcError;
use pkit::pki::backend::Backend;
use serde_json::Value;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `-f/--format`, which every `mtc` subcommand takes.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct FormatArg {
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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
        MtcError::Line {
            line,
            offset,
            expected,
        } => CliError {
            exit: Exit::Parse,
            message: format!("{source}: line {line} (byte {offset}): expected {expected}"),
            offset: Some(offset),
            path: None,
        },
        // These name what they are about (a URL, a file and line) themselves.
        MtcError::Fetch(e) => CliError::io(e.to_string()),
        MtcError::Untrusted(m) => CliError::negative(m),
        MtcError::Backend(b) => b.into(),
        other => CliError::internal(format!("{source}: {other}")),
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

/// Open the CA's log, which must exist: `DIR/mtc.db`, or the PostgreSQL database
/// `--db` names or `DIR/db.url` records (`crate::cmd::store_at`). With the name its
/// messages carry.
pub fn open_store(dir: &Path, args: &DbArgs) -> CliResult<(Box<dyn LogStore>, String)> {
    let missing = |db: &Path| {
        CliError::io(format!(
            "{}: no MTC database (create the CA with `pkit mtc ca new --dir {}`)",
            db.display(),
            dir.display()
        ))
    };
    let file = CaFiles::in_dir(dir).log;
    match store_at::locate(dir, CaFiles::LOG, file, args, Some(&missing))? {
        StoreAt::Server {
            url,
            name,
            password,
        } => {
            let s = open_url(&url, password.as_deref(), &name)?;
            Ok((s, name))
        }
        StoreAt::File { path, name } => {
            let s = store::open(&path).map_err(mtc_err(&name))?;
            Ok((s, name))
        }
    }
}

/// The log in the PostgreSQL database `url`, created if the database is empty, over TLS
/// when the URL asks for it or the server offers it; `--db-passin`'s password.
pub fn open_server(url: &str, args: &DbArgs, name: &str) -> CliResult<Box<dyn LogStore>> {
    let password = password(args)?;
    open_url(url, password.as_deref(), name)
}

/// [`open_server`] with the password read.
fn open_url(url: &str, password: Option<&[u8]>, name: &str) -> CliResult<Box<dyn LogStore>> {
    store::open_url(url, password, pkit::tls::pg_connect::connect).map_err(mtc_err(name))
}

/// The CA's ID and log number from `mtc.db` (`pkit::mtc::setup::log_of_store`).
pub fn ca_meta(store: &dyn LogStore, name: &str) -> CliResult<(TrustAnchorId, u16)> {
    log_of_store(store).map_err(mtc_err(name))
}

/// The CA with its cosigner key (`pkit::mtc::setup::load_ca`), the key read from
/// `DIR/cosigner.key` as every key file is: `passin` unlocks a key `mtc ca new
/// --passout` encrypted, `pin` a token's.
pub fn load_ca(
    be: &Backend,
    dir: &Path,
    store: &dyn LogStore,
    name: &str,
    passin: Option<&str>,
    pin: Option<&str>,
) -> CliResult<MtcCa> {
    let files = CaFiles::in_dir(dir);
    setup::load_ca(store, &files, |key| load_private_key(be, key, passin, pin)).map_err(|e| match e
    {
        LoadCaError::Log(e) => mtc_err(name)(e),
        LoadCaError::Key(e) => e,
        LoadCaError::Cosigner(e) => mtc_err(&files.key.display().to_string())(e),
    })
}
