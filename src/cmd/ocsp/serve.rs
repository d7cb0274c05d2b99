//! `pkit ocsp serve`: the arguments, the responder loaded once, one
//! `pkit::serve::OcspHandler` per worker thread, and the `listening` and
//! `shutdown` log lines. What a request gets is the library's (`src/serve/ocsp_http.rs`).

use super::responder::{load_responder, SignerArgs};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::serve_args::{HttpArgs, BEHAVIOUR_HELP};
use clap::Args;
use pkit::der::Time;
use pkit::pki::backend::Backend;
use pkit::pki::ca::ocsp_cache::ResponseCache;
use pkit::serve::OcspHandler;
use pkit::serve::{log_line, Clock};
use serde_json::json;
use std::sync::Arc;

/// Distinct certificates whose responses are kept signed.
const CACHE_ENTRIES: usize = 100_000;

#[derive(Args, Debug)]
#[command(after_long_help = BEHAVIOUR_HELP)]
pub struct ServeArgs {
    #[command(flatten)]
    pub signer: SignerArgs,
    #[command(flatten)]
    pub http: HttpArgs,
}

pub fn run(be: &Backend, a: ServeArgs) -> CliResult<Exit> {
    let mut opts = a.http.options()?;
    let (responder, store, lifetime) = load_responder(be, &a.signer, Time::now())?;
    // Records on a database server: an answer not cached waits on it.
    opts.blocking = crate::cmd::ca_db::on_server(&a.signer.ca, "ca.db", &a.signer.db)?;
    let responder = Arc::new(responder);
    let cache = Arc::new(ResponseCache::new(CACHE_ENTRIES));
    // The store opened with the responder serves the first worker; the others open theirs.
    let mut first = Some(store);
    let make = || {
        let store = match first.take() {
            Some(s) => s,
            None => crate::cmd::ca_db::open_store(&a.signer.ca, &a.signer.db)?,
        };
        Ok::<_, CliError>(OcspHandler {
            responder: Arc::clone(&responder),
            signer: responder.signer()?,
            store,
            lifetime,
            cache: Arc::clone(&cache),
            clock: Clock::System,
        })
    };
    let sig = pkit::serve::serve(&opts, make, |l| {
        log_line(
            &json!({"time": Time::now().to_string(), "event": "listening",
                         "listen": l.addr.to_string(), "threads": l.threads}),
        );
    })?;
    log_line(&json!({"time": Time::now().to_string(), "event": "shutdown", "signal": sig}));
    Ok(Exit::Ok)
}
