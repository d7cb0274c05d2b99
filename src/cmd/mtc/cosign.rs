//! `pkit mtc cosign`: an independent witness (c2sp.org/tlog-cosignature). It fetches a
//! served log's checkpoint, checks the CA's signature on it, checks — from the tiles —
//! that the log extends the tree it cosigned last (kept in `--state`), and only then
//! prints its cosignature: one note signature line to add to the checkpoint.
//!
//! Keys: ML-DSA-44 (the `subtree/v1` message; what mtc-tlog requires of cosigners whose
//! signatures go into certificates) or Ed25519 (`cosignature/v1`; witnesses that only
//! cosign checkpoints). An inconsistent log is never cosigned: exit 1, the state kept.

use super::common::{emit, mtc_err, now_of, unix, Format, FormatArg};
use super::remote::Remote;
use super::state::{read_state, write_state};
use super::verify::read_der;
use crate::cmd::error::{CliResult, Exit};
use crate::cmd::io;
use crate::cmd::key::load_private_key;
use clap::Args;
use pkit::mtc::cert::CaInfo;
use pkit::mtc::cosign::Cosigner;
use pkit::mtc::ids::TrustAnchorId;
use pkit::mtc::remote::signed_checkpoint;
use pkit::mtc::witness::{check_witness_key, cosign};
use pkit::pki::backend::Backend;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CosignArgs {
    /// The log's prefix URL.
    #[arg(long)]
    pub url: String,
    /// The MTC CA certificate (mtc-ca.pem) whose log this is.
    #[arg(long)]
    pub ca: PathBuf,
    #[command(flatten)]
    pub witness: WitnessKeyArgs,
    /// The tree this witness cosigned last (created if missing; updated after cosigning):
    /// the log must extend it.
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,
    /// Write the signature line here instead of stdout.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Also sign the covering subtrees of what the log added since the state's tree (the
    /// subtrees the CA signs for its new certificates; ML-DSA-44 keys only), one JSON
    /// line each, for `pkit mtc checkpoint --subtree-cosignature`: standalone
    /// certificates then carry this witness's cosignature.
    #[arg(long, value_name = "FILE")]
    pub subtrees: Option<PathBuf>,
    /// Replace --out if it exists.
    #[arg(long)]
    pub force: bool,
    /// Signing time (RFC 3339), default now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    #[command(flatten)]
    pub output: FormatArg,
}

/// A witness's identity: its key and its trust anchor ID (`mtc cosign`, `mtc witness
/// serve`).
#[derive(Args, Debug)]
pub struct WitnessKeyArgs {
    /// The witness's private key: Ed25519 (cosignature/v1, what checkpoint witnesses
    /// use) or ML-DSA-44 (subtree/v1, for cosignatures that go into certificates), a
    /// PKCS#8 file or a pkcs11: URI.
    #[arg(long, value_name = "FILE|URI")]
    pub key: PathBuf,
    /// Password source of the --key file (pass:, env:, file:, fd:).
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// PIN of the token holding the --key.
    #[arg(long, value_name = "SRC")]
    pub pin: Option<String>,
    /// The witness's trust anchor ID (its signature lines are named oid/1.3.6.1.4.1.ID).
    #[arg(long, value_name = "ID")]
    pub id: String,
}

impl WitnessKeyArgs {
    /// The witness as a cosigner; with `subtrees`, its key must be able to sign
    /// subtrees (ML-DSA-44).
    pub fn cosigner(&self, be: &Backend, subtrees: bool) -> CliResult<Cosigner> {
        let id = TrustAnchorId::parse(&self.id).map_err(mtc_err("--id"))?;
        let key = load_private_key(be, &self.key, self.passin.as_deref(), self.pin.as_deref())?;
        let key_name = format!("--key {}", self.key.display());
        check_witness_key(key.algorithm(), subtrees).map_err(mtc_err(&key_name))?;
        Cosigner::new(id, key).map_err(mtc_err(&key_name))
    }
}

pub fn run(be: &Backend, a: CosignArgs) -> CliResult<Exit> {
    let cosigner = a.witness.cosigner(be, a.subtrees.is_some())?;
    let alg = cosigner.public.alg;
    let (ca_name, ca_der) = read_der(&a.ca)?;
    let ca = CaInfo::from_certificate(&ca_der).map_err(mtc_err(&ca_name))?;
    let remote = Remote::new(&a.url)?;
    let signed =
        signed_checkpoint(be, &remote, &remote.base, &ca, &[]).map_err(mtc_err(&remote.base))?;
    let cp = &signed.checkpoint;
    let seen = read_state(&a.state, &cp.origin)?;
    let timestamp = unix(now_of(&a.now)?);
    let done = cosign(
        &remote,
        &remote.base,
        &signed,
        &ca.ca_id,
        &cosigner,
        seen.as_ref(),
        timestamp,
        a.subtrees.is_some(),
    )
    .map_err(mtc_err(&remote.base))?;
    let line = &done.line;
    if let Some(path) = &a.subtrees {
        let text: String = done
            .subtrees
            .iter()
            .map(|c| format!("{}\n", c.to_json_line()))
            .collect();
        io::write_file_atomic(path, text.as_bytes(), a.force, false)?;
    }
    if let Some(out) = &a.out {
        io::write_file_atomic(out, format!("{line}\n").as_bytes(), a.force, false)?;
    }
    // Recorded only once the signature is out: a witness never cosigns a tree that does
    // not extend the one in its state.
    write_state(&a.state, &cp.origin, &done.seen)?;
    let item = json!({
        "origin": cp.origin,
        "size": cp.size,
        "cosigner": cosigner.public.id.note_name(),
        "algorithm": alg.name(),
        "timestamp": timestamp,
        "previous_size": seen.as_ref().map(|s| s.size),
        "line": line,
    });
    if a.out.is_none() || a.output.format == Format::Json {
        emit(a.output.format, "mtc_cosign", item, &format!("{line}\n"))?;
    } else if let Some(out) = &a.out {
        crate::cmd::created::say_created(
            format_args!("cosignature of {} at tree size {}", cp.origin, cp.size),
            Some(out),
        );
    }
    Ok(Exit::Ok)
}
