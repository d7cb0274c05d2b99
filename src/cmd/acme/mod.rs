//! `pkit acme`: the CA's ACME server (`serve.rs`) and what it holds, for operators
//! (`accounts`, `orders`, in `inspect.rs`). The server itself is `pkit::acme`.

mod inspect;
mod serve;
mod state;

pub use serve::{AcmeOptions, AcmeServer, At};

use super::error::{CliResult, Exit};
use clap::{Args, Subcommand};
use pkit::pki::backend::Backend;

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
