//! `pkit mtc witness serve`: a witness over HTTP (c2sp.org/tlog-witness). The logs it
//! cosigns are named by their MTC CA certificates; what it recorded of each lives in
//! `--db` (SQLite), opened once per worker thread. The answers are the library's
//! (`pkit::serve::WitnessHandler`); this reads the arguments and runs the server.

use super::common::mtc_err;
use super::cosign::WitnessKeyArgs;
use super::verify::read_der;
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::serve_args::{HttpArgs, BEHAVIOUR_HELP};
use clap::{Args, Subcommand};
use pkit::der::Time;
use pkit::mtc::cert::CaInfo;
use pkit::mtc::tlog_witness::{Witness, WitnessState};
use pkit::mtc::witness_pg::PgWitnessState;
use pkit::mtc::witness_state::SqliteWitnessState;
use pkit::pki::backend::Backend;
use pkit::serve::{log_line, normalize_prefix, Clock, WitnessHandler};
use pkit::store::url::{is_url, without_password};
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct WitnessArgs {
    #[command(subcommand)]
    pub command: WitnessCommand,
}

#[derive(Subcommand, Debug)]
pub enum WitnessCommand {
    /// Run a witness over HTTP (c2sp.org/tlog-witness): cosign each checkpoint a known
    /// log submits to PREFIX/add-checkpoint once it extends the one cosigned before, and
    /// (with an ML-DSA-44 key) the subtrees of those checkpoints at PREFIX/sign-subtree.
    Serve(WitnessServeArgs),
}

const WITNESS_HELP: &str = "The protocol (c2sp.org/tlog-witness): a log POSTs `old SIZE`, \
a consistency proof from SIZE (one base64 hash a line, at most 63), an empty line and its \
signed checkpoint to PREFIX/add-checkpoint. The witness answers 200 with its cosignature \
line (tlog-cosignature; `— NAME BASE64`) once the checkpoint is signed by the log's key \
(from --log), SIZE is the size it cosigned last for that origin (0 the first time) and the \
proof takes that tree to the new one; it records the new size and root in --db before \
answering, in one transaction with the check. Refusals: 400 a malformed request or SIZE \
past the checkpoint's size, 403 no signature by the log's key, 404 a log it does not know \
(or another path), 405 a method other than POST, 409 SIZE is not the size it cosigned \
(the body is that size and a newline, Content-Type text/x.tlog.size) or the same size with \
another root, 422 the proof does not verify (the log does not extend what it cosigned: a \
fork), 413 a body over 64 KiB. Nothing refused is recorded. \
PREFIX/sign-subtree (with an ML-DSA-44 key; Ed25519 cosignature/v1 signs no subtrees, 404): \
a log POSTs `subtree START END`, the subtree's base64 hash, the subtree consistency proof \
to its checkpoint (at most 63 lines), an empty line and the checkpoint with this witness's \
own cosignature on it; the witness answers 200 with its subtree/v1 cosignature line \
(timestamp 0), which the CA puts into the standalone certificates of that subtree. It \
records nothing: its own signature on the checkpoint is what it vouches for. Refusals: 400 \
malformed or a subtree past the checkpoint, 403 no cosignature of this witness on the \
checkpoint, 404 a log it does not know, 422 the proof does not verify. One JSON line per \
request on stderr, with the origin, size and why it was refused.";

#[derive(Args, Debug)]
#[command(after_long_help = format!("{WITNESS_HELP}\n\n{BEHAVIOUR_HELP}"))]
pub struct WitnessServeArgs {
    #[command(flatten)]
    pub witness: WitnessKeyArgs,
    /// An MTC CA certificate (mtc-ca.pem) whose logs this witness cosigns: their
    /// checkpoints must carry the CA's signature (repeatable).
    #[arg(long = "log", value_name = "MTC_CA_CERT", required = true)]
    pub logs: Vec<PathBuf>,
    /// The witness's state: the latest checkpoint cosigned per log, in a SQLite file
    /// (created if missing) or a PostgreSQL database (postgres://USER@HOST[:PORT]/DB,
    /// shared by witness processes on several hosts). Losing it lets the witness be
    /// rolled back: keep it, back it up.
    #[arg(long, value_name = "FILE|URL")]
    pub db: String,
    /// Password source for a --db server (pass:, env:, file:, fd:).
    #[arg(long, value_name = "SRC")]
    pub db_passin: Option<String>,
    /// The submission prefix's path: requests go to PREFIX/add-checkpoint and
    /// PREFIX/sign-subtree. Default: the root.
    #[arg(long, value_name = "PATH", default_value = "")]
    pub prefix: String,
    #[command(flatten)]
    pub http: HttpArgs,
}

pub fn run(be: &'static Backend, a: WitnessArgs) -> CliResult<Exit> {
    match a.command {
        WitnessCommand::Serve(a) => serve(be, a),
    }
}

fn serve(be: &'static Backend, a: WitnessServeArgs) -> CliResult<Exit> {
    let prefix = normalize_prefix(&a.prefix).ok_or_else(|| {
        CliError::usage(format!(
            "--prefix {}: a path such as /witness (segments of printable characters, no . or ..)",
            a.prefix.trim_end_matches('/')
        ))
    })?;
    let mut opts = a.http.options()?;
    let cosigner = a.witness.cosigner(be, false)?;
    let mut cas = Vec::new();
    for path in &a.logs {
        let (name, der) = read_der(path)?;
        cas.push(CaInfo::from_certificate(&der).map_err(mtc_err(&name))?);
    }
    let on_server = is_url(&a.db);
    // State on a database server: the answers wait on it (`ServerOptions::blocking`).
    opts.blocking = on_server;
    let password = a
        .db_passin
        .as_deref()
        .map(crate::cmd::io::read_secret)
        .transpose()?;
    let db_name = without_password(&a.db);
    let open = || -> CliResult<Box<dyn WitnessState>> {
        if on_server {
            return PgWitnessState::open(
                &a.db,
                password.as_deref(),
                pkit::tls::pg_connect::connect,
            )
            .map(|s| Box::new(s) as Box<dyn WitnessState>)
            .map_err(|e| CliError::io(format!("{db_name}: {e}")));
        }
        SqliteWitnessState::open(std::path::Path::new(&a.db))
            .map(|s| Box::new(s) as Box<dyn WitnessState>)
            .map_err(|e| CliError::io(format!("{db_name}: {e}")))
    };
    // Opened here first, so that a database that is not a witness's (or of a newer
    // schema) is an error before listening; that connection serves the first worker.
    let mut first = Some(open()?);
    let name = cosigner.public.id.note_name();
    // What relying parties put in their witness policies (c2sp.org/tlog-policy).
    let vkey = pkit::mtc::witness_policy::vkey_of(&cosigner.public);
    let logs: Vec<String> = cas
        .iter()
        .map(|c| format!("{}.0.*", c.ca_id.note_name()))
        .collect();
    let witness = Arc::new(Witness { cosigner, cas });
    let make = || {
        let state = match first.take() {
            Some(s) => s,
            None => open()?,
        };
        Ok::<_, CliError>(WitnessHandler {
            witness: Arc::clone(&witness),
            state,
            backend: be,
            prefix: prefix.clone(),
            clock: Clock::System,
        })
    };
    let sig = pkit::serve::serve(&opts, make, |l| {
        log_line(
            &json!({"time": Time::now().to_string(), "event": "listening",
            "listen": l.addr.to_string(), "witness": name, "vkey": vkey, "logs": logs,
            "submission": format!("{}/add-checkpoint", prefix), "threads": l.threads}),
        );
    })?;
    log_line(&json!({"time": Time::now().to_string(), "event": "shutdown", "signal": sig}));
    Ok(Exit::Ok)
}
