//! `pkit ca`: running a CA's public face. `serve` answers every URL its certificates
//! point to (OCSP, CRLs, issuer certificates) and, when asked, ACME, from one process.

mod serve;

use super::error::{CliResult, Exit};
use clap::{Args, Subcommand};
use pkit::pki::backend::Backend;

#[derive(Args, Debug)]
#[command(after_help = super::error::EXIT_CODES_HELP)]
pub struct CaArgs {
    #[command(subcommand)]
    pub command: CaCommand,
}

#[derive(Subcommand, Debug)]
pub enum CaCommand {
    /// Serve every URL the CAs write into certificates — OCSP, CRLs kept current,
    /// issuer certificates — with /health and /metrics, and ACME with --acme, from one
    /// process.
    Serve(Box<serve::ServeArgs>),
}

pub fn run(be: &'static Backend, a: CaArgs) -> CliResult<Exit> {
    match a.command {
        CaCommand::Serve(s) => serve::run(be, *s),
    }
}
