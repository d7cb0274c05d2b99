//! `pkit mtc serve`: the arguments, the log opened once per worker thread with a
//! `pkit::serve::MtcHandler` each, and the `listening` and `shutdown` log
//! lines. What a request gets is the library's (`src/serve/mtc_http.rs`).

use super::common::{mtc_err, open_store};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::serve_args::{HttpArgs, BEHAVIOUR_HELP};
use clap::Args;
use pkit::der::Time;
use pkit::mtc::publish;
use pkit::serve::{log_line, Clock};
use pkit::serve::{normalize_prefix, MtcHandler};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(after_long_help = BEHAVIOUR_HELP)]
pub struct ServeArgs {
    /// The MTC CA directory.
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// The log's path on the server (mtc-tlog: the CA prefix URL's path and the log
    /// number, e.g. /mtc/1). Default: the root.
    #[arg(long, value_name = "PATH", default_value = "")]
    pub prefix: String,
    #[command(flatten)]
    pub http: HttpArgs,
}

pub fn run(a: ServeArgs) -> CliResult<Exit> {
    let prefix = normalize_prefix(&a.prefix).ok_or_else(|| {
        CliError::usage(format!(
            "--prefix {}: a path such as /mtc/1 (segments of printable characters, no . or ..)",
            a.prefix.trim_end_matches('/')
        ))
    })?;
    let mut opts = a.http.options()?;
    // Opened here first so that a missing or foreign database is an error before
    // listening; that connection serves the first worker.
    let (store, name) = open_store(&a.dir, &a.db)?;
    // A log on a database server: the answers wait on it (`ServerOptions::blocking`).
    opts.blocking = crate::cmd::ca_db::on_server(&a.dir, pkit::mtc::setup::CaFiles::LOG, &a.db)?;
    let origin = publish::origin(store.as_ref()).map_err(mtc_err(&name))?;
    let mut first = Some(store);
    let make = || {
        let store = match first.take() {
            Some(s) => s,
            None => open_store(&a.dir, &a.db)?.0,
        };
        Ok::<_, CliError>(MtcHandler {
            store,
            prefix: prefix.clone(),
            clock: Clock::System,
        })
    };
    let sig = pkit::serve::serve(&opts, make, |l| {
        log_line(
            &json!({"time": Time::now().to_string(), "event": "listening",
           "listen": l.addr.to_string(),
           "prefix": if prefix.is_empty() { "/" } else { prefix.as_str() },
           "origin": origin, "threads": l.threads}),
        );
    })?;
    log_line(&json!({"time": Time::now().to_string(), "event": "shutdown", "signal": sig}));
    Ok(Exit::Ok)
}
