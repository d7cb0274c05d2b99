//! Flag groups several commands take, declared once and flattened into each: the
//! secrets that open a signing key, the CA that signs, and where output goes.

use super::ca_db::DbArgs;
use super::ca_dir::load_issuer;
use super::error::CliResult;
use clap::Args;
use pkit::pki::backend::Backend;
use pkit::pki::ca::issuer::Issuer;
use std::path::PathBuf;

/// `--passin`, `--pin`: what opens the key that signs.
#[derive(Args, Debug, Clone, Default)]
pub struct KeySecretArgs {
    /// Password source of the signing key's file: pass:TEXT, env:VAR, file:PATH (first
    /// line) or fd:N.
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the
    /// key URI's pin-value or pin-source.
    #[arg(long, value_name = "SRC")]
    pub pin: Option<String>,
}

impl KeySecretArgs {
    pub fn passin(&self) -> Option<&str> {
        self.passin.as_deref()
    }

    pub fn pin(&self) -> Option<&str> {
        self.pin.as_deref()
    }
}

/// `--ca`, `--db`, `--passin`, `--pin`: the CA that signs, its records and its key.
#[derive(Args, Debug, Clone)]
pub struct IssuingCaArgs {
    /// The issuing CA directory (ca.pem, ca.key, ca.db).
    #[arg(long)]
    pub ca: PathBuf,
    #[command(flatten)]
    pub db: DbArgs,
    #[command(flatten)]
    pub secrets: KeySecretArgs,
}

impl IssuingCaArgs {
    /// The CA's certificate and signing key.
    pub fn load(&self, be: &Backend) -> CliResult<Issuer> {
        load_issuer(be, &self.ca, self.secrets.passin(), self.secrets.pin())
    }
}

/// `-o/--out`, `--force`: where the output goes.
#[derive(Args, Debug, Clone, Default)]
pub struct OutputArgs {
    /// Output file (default stdout).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}
