//! `pkit issue csr`: a PKCS#10 request for an existing key.

use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::key::load_private_key;
use crate::cmd::request::{sans, subject};
use clap::Args;
use pkit::pki::backend::Backend;
use pkit::pki::ca::request::{encode_csr, RequestError};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CsrArgs {
    /// The private key to sign the request with.
    #[arg(long)]
    pub key: PathBuf,
    #[command(flatten)]
    pub secrets: crate::cmd::flags::KeySecretArgs,
    /// Subject (RFC 4514 or /-separated).
    #[arg(long, default_value = "")]
    pub subject: String,
    /// Subject alternative name: DNS:a.example, IP:192.0.2.1, email:x@a.example, URI:…
    #[arg(long)]
    pub san: Vec<String>,
    #[command(flatten)]
    pub output: crate::cmd::flags::OutputArgs,
}

pub fn run_csr(be: &Backend, a: CsrArgs) -> CliResult<Exit> {
    let key = load_private_key(be, &a.key, a.secrets.passin(), a.secrets.pin())?;
    let subj = subject(&a.subject)?;
    let sans = sans(&a.san)?;
    let der = encode_csr(key.as_ref(), &subj, &sans).map_err(|e| match e {
        RequestError::Unnamed => CliError::usage("a CSR needs a --subject or at least one --san"),
        RequestError::Backend(e) => e.into(),
    })?;
    io::write_text(
        a.output.out.as_deref(),
        a.output.force,
        &io::pem_encode("CERTIFICATE REQUEST", &der),
    )?;
    let named = if a.subject.is_empty() {
        a.san.join(", ")
    } else {
        a.subject.clone()
    };
    crate::cmd::created::say_created(format_args!("CSR for {named}"), a.output.out.as_deref());
    Ok(Exit::Ok)
}
