//! `pkit issue`: keys, CSRs, root and intermediate CAs, leaf certificates, and parallel
//! batches, with the CA's state in `DIR/ca.db`.
//!
//! Crash safety: a certificate is committed to ca.db before its files are written, and
//! each file appears under its name only once complete (`outdir.rs`, `io.rs`), so after a
//! kill -9 every released certificate is in the database (exportable) and no half-written
//! file exists.

mod batch;
mod ca;
mod cert;
mod csr;
mod deliver;
mod list;
pub mod policy;
mod renew;

use super::error::{CliResult, Exit};
use clap::{Args, Subcommand};
use pkit::pki::backend::Backend;

pub use batch::BatchArgs;
pub use ca::CaArgs;
pub use cert::CertArgs;
pub use csr::CsrArgs;
pub use list::{ExportArgs, ListArgs};
pub use renew::RenewArgs;

#[derive(Args, Debug)]
#[command(after_help = super::error::EXIT_CODES_HELP)]
pub struct IssueArgs {
    #[command(subcommand)]
    pub command: IssueCommand,
}

#[derive(Subcommand, Debug)]
pub enum IssueCommand {
    /// Create a CA directory: a root, or an intermediate with --parent.
    Ca(CaArgs),
    /// Create a PKCS#10 certificate signing request.
    Csr(CsrArgs),
    /// Issue one certificate from a CSR or for a fresh key.
    Cert(CertArgs),
    /// Issue many certificates in parallel (from a count or a JSONL manifest).
    Batch(BatchArgs),
    /// Issue a certificate again: same subject, SANs, profile and extensions, a new
    /// serial and validity (and key, with --key-out); the records link the two.
    Renew(RenewArgs),
    /// Show, change or try a CA's policy on the names it certifies (ca.json allow/deny).
    Policy(policy::PolicyCmdArgs),
    /// List the certificates a CA has issued.
    List(ListArgs),
    /// Print one issued certificate by serial number.
    Export(ExportArgs),
}

/// Whether errors go to stderr as JSON: for the commands asked for JSON output.
pub fn wants_json(a: &IssueArgs) -> bool {
    match &a.command {
        IssueCommand::Ca(a) => a.format.json(),
        IssueCommand::Cert(a) => a.deliver.format.json(),
        IssueCommand::Renew(a) => a.deliver.format.json(),
        IssueCommand::List(a) => a.format != list::ListFormat::Text,
        IssueCommand::Policy(a) => a.format.json(),
        // Its report is JSON Lines by default, for people as much as scripts: its errors
        // turn JSON with -f json.
        IssueCommand::Batch(a) => a.format == batch::ReportFormat::Json,
        _ => false,
    }
}

pub fn run(be: &Backend, a: IssueArgs) -> CliResult<Exit> {
    match a.command {
        IssueCommand::Ca(a) => ca::run_ca(be, a),
        IssueCommand::Csr(a) => csr::run_csr(be, a),
        IssueCommand::Cert(a) => cert::run_cert(be, a),
        IssueCommand::Batch(a) => batch::run_batch(be, a),
        IssueCommand::Renew(a) => renew::run_renew(be, a),
        IssueCommand::Policy(a) => policy::run_policy(be, a),
        IssueCommand::List(a) => list::run_list(be, a),
        IssueCommand::Export(a) => list::run_export(be, a),
    }
}
