//! `pkit acme`: the CA's ACME server (`serve.rs`) and what it holds, for operators
//! (`accounts`, `orders`, in `inspect.rs`). The server itself is `pkit::acme`.

mod inspect;
mod serve;

use super::ca_db::{password, server_url, DbArgs};
use super::error::{CliError, CliResult, Exit};
use clap::{Args, Subcommand};
use pkit::acme::store::{AcmeStore, SqliteAcme};
use pkit::pki::backend::Backend;
use std::path::Path;

#[derive(Args, Debug)]
#[command(after_help = super::error::EXIT_CODES_HELP)]
pub struct AcmeArgs {
    #[command(subcommand)]
    pub command: AcmeCommand,
}

#[derive(Subcommand, Debug)]
pub enum AcmeCommand {
    /// Serve ACME (RFC 8555) for a CA directory: accounts, orders, http-01, dns-01 and
    /// tls-alpn-01 challenges validated from the server, certificates through the CA's
    /// lint gate.
    Serve(Box<serve::ServeArgs>),
    /// The ACME accounts of a CA (text or JSON).
    Accounts(inspect::AccountsArgs),
    /// The ACME orders of a CA, optionally of one account (text or JSON).
    Orders(inspect::OrdersArgs),
}

impl AcmeArgs {
    pub fn wants_json(&self) -> bool {
        match &self.command {
            AcmeCommand::Serve(_) => false,
            AcmeCommand::Accounts(a) => a.wants_json(),
            AcmeCommand::Orders(a) => a.wants_json(),
        }
    }
}

pub fn run(be: &'static Backend, a: AcmeArgs) -> CliResult<Exit> {
    match a.command {
        AcmeCommand::Serve(s) => serve::run(be, *s),
        AcmeCommand::Accounts(x) => inspect::accounts(x),
        AcmeCommand::Orders(x) => inspect::orders(x),
    }
}

/// The ACME state beside the CA's records: in their PostgreSQL database when they are on
/// a server, else in `DIR/acme.db` (made when `create`, else it must exist).
pub fn open_state(dir: &Path, db: &DbArgs, create: bool) -> CliResult<Box<dyn AcmeStore>> {
    if let Some(url) = server_url(dir, "ca.db", db)? {
        let pw = password(db)?;
        let store = pkit::acme::store::pg::PgAcme::open(
            &url,
            pw.as_deref(),
            pkit::pki::ca::store::pg_connect::connect,
        )
        .map_err(|e| {
            CliError::io(format!(
                "{}: {e}",
                pkit::store::postgres::without_password(&url)
            ))
        })?;
        return Ok(Box::new(store));
    }
    let path = dir.join("acme.db");
    if !create && !path.is_file() {
        return Err(CliError::io(format!(
            "{}: no ACME state (run `pkit acme serve --ca {}` first)",
            path.display(),
            dir.display()
        )));
    }
    let store =
        SqliteAcme::open(&path).map_err(|e| CliError::io(format!("{}: {e}", path.display())))?;
    Ok(Box::new(store))
}
