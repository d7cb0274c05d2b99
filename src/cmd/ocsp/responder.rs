//! What `pkit ocsp respond` and `pkit ocsp serve` share: who signs (`--ca`, or a
//! delegated responder), loading that responder with the CA's store.

use crate::cmd::ca_db::open_store;
use crate::cmd::ca_dir::{load_ca_cert, parse_duration};
use crate::cmd::error::{CliError, CliResult};
use crate::cmd::io::{parse_cert, read_item};
use crate::cmd::key::load_private_key;
use clap::Args;
use pkit::der::Time;
use pkit::pki::backend::Backend;
use pkit::pki::ca::ocsp::{gate_lifetime, Responder};
use pkit::pki::ca::store::CaStore;
use std::path::PathBuf;

/// Who signs responses: the CA, or a delegated OCSP signer, and for how long they stand.
#[derive(Args, Debug)]
pub struct SignerArgs {
    /// The CA directory (ca.pem, ca.key, ca.db).
    #[arg(long)]
    pub ca: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// Sign as a delegated responder with this certificate (issued by the CA with the
    /// OCSPSigning EKU, e.g. `pkit issue cert --profile ocsp-signer`).
    #[arg(long, value_name = "FILE", requires = "responder_key")]
    pub responder_cert: Option<PathBuf>,
    /// The delegated responder's private key.
    #[arg(long, value_name = "FILE", requires = "responder_cert")]
    pub responder_key: Option<PathBuf>,
    #[command(flatten)]
    pub secrets: crate::cmd::flags::KeySecretArgs,
    /// How long a response stands: nextUpdate = now + this (s, m, h, d). A CA set for
    /// public trust (`issue ca --lint-rules …cabf-tls`) needs 8h to 10d (BR §4.9.10).
    #[arg(long, value_name = "DURATION", default_value = "1h")]
    pub next_update: String,
    #[command(flatten)]
    pub lint: crate::cmd::flags::LintGateArgs,
}

/// The responder for `--ca` (signing with ca.key, or the delegated responder's key) and
/// the CA's store, as `respond` and `serve` both need them.
pub fn load_responder(
    be: &Backend,
    a: &SignerArgs,
    now: Time,
) -> CliResult<(Responder, Box<dyn CaStore>, i64)> {
    let lifetime = parse_duration("--next-update", &a.next_update)?;
    // Every response stands `lifetime`: the gate asks about it once, before any is signed.
    let settings = crate::cmd::ca_dir::load_settings(&a.ca)?;
    let findings = gate_lifetime(&settings, a.lint.mode(), lifetime)?;
    crate::cmd::ca_dir::note_findings(&findings);
    let ca_der = load_ca_cert(&a.ca)?;
    let (passin, pin) = (a.secrets.passin(), a.secrets.pin());
    let (key, delegated) = match (&a.responder_cert, &a.responder_key) {
        (Some(cert), Some(key)) => {
            let item = read_item(cert)?;
            parse_cert(&item)?;
            (load_private_key(be, key, passin, pin)?, Some(item.der))
        }
        _ => (
            load_private_key(be, &a.ca.join("ca.key"), passin, pin)?,
            None,
        ),
    };
    let responder = Responder::new(be, &ca_der, key, delegated, now).map_err(|e| {
        let what = a
            .responder_cert
            .as_ref()
            .map_or_else(|| a.ca.display().to_string(), |p| p.display().to_string());
        let e = CliError::from(e);
        CliError::new(e.exit, format!("{what}: {}", e.message))
    })?;
    let store = open_store(&a.ca, &a.db)?;
    Ok((responder, store, lifetime))
}
