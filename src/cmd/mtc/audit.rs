//! `pkit mtc audit`: fetch a served issuance log's checkpoint and tiles (tlog-tiles), check
//! the checkpoint's signatures against known keys, recompute its root from the tiles,
//! and check that it extends the tree seen at the last audit (kept in `--state`).
//!
//! Exit 0: the log is consistent and signed; 1: a finding (a fork, a bad tile, a root or
//! signature that does not verify), in one line naming the two sizes and roots or the
//! tile path, and the state is left as it was; 4: the log could not be fetched.

use super::common::{emit, mtc_err, FormatArg};
use super::remote::Remote;
use super::state::{read_state, write_state};
use super::verify::{check_quorum, cosigner_key, read_der, read_policy, with_policy_keys};
use crate::cmd::error::{CliError, CliResult, Exit};
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use clap::Args;
use pkit::mtc::audit::{audit, AuditError};
use pkit::mtc::cert::CaInfo;
use pkit::mtc::remote::{signed_checkpoint, SignedCheckpoint};
use pkit::pki::backend::Backend;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// The log's prefix URL (e.g. http://127.0.0.1:8080 or https://ca.example/mtc/1).
    #[arg(long)]
    pub url: String,
    /// The MTC CA certificate (mtc-ca.pem): whose log it is, and the key its checkpoints
    /// must be signed with.
    #[arg(long)]
    pub ca: PathBuf,
    /// Another cosigner whose signatures on the checkpoint are checked when present: its
    /// trust anchor ID and a public key or certificate file (repeatable).
    #[arg(long, value_name = "ID=KEY_OR_CERT")]
    pub cosigner: Vec<String>,
    /// A witness policy (c2sp.org/tlog-policy): the checkpoint must carry cosignatures
    /// that meet its quorum, by the keys it lists (exit 1 otherwise, the state kept).
    #[arg(long, value_name = "FILE")]
    pub witness_policy: Option<PathBuf>,
    /// The tree verified last time (created if missing, updated after a clean audit):
    /// only tiles past it are fetched, and the log must extend it.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Fetch the entry bundles too and check that each entry hashes to its leaf.
    #[arg(long)]
    pub entries: bool,
    #[command(flatten)]
    pub output: FormatArg,
}

pub fn run(be: &Backend, a: AuditArgs) -> CliResult<Exit> {
    let started = Instant::now();
    let (ca_name, ca_der) = read_der(&a.ca)?;
    let ca = CaInfo::from_certificate(&ca_der).map_err(mtc_err(&ca_name))?;
    let others = a
        .cosigner
        .iter()
        .map(|s| cosigner_key(s))
        .collect::<CliResult<Vec<_>>>()?;
    let witness_policy = a.witness_policy.as_deref().map(read_policy).transpose()?;
    if let Some(p) = &witness_policy {
        if !p.accepts_log(&ca.spki) {
            return Err(CliError::negative(format!(
                "{ca_name}: the witness policy lists no log with this CA's key"
            )));
        }
    }
    let others = with_policy_keys(others, witness_policy.as_ref());
    let remote = Remote::new(&a.url)?;
    let base = remote.base.clone();
    let checked = signed_checkpoint(be, &remote, &base, &ca, &others).map_err(mtc_err(&base))?;
    if let Some(p) = &witness_policy {
        let what = format!("{base}: checkpoint at size {}", checked.checkpoint.size);
        check_quorum(be, p, &what, &checked)?;
    }
    let SignedCheckpoint {
        checkpoint: cp,
        signers: signed,
        ..
    } = checked;
    let seen = match &a.state {
        Some(p) => read_state(p, &cp.origin)?,
        None => None,
    };
    let (now_seen, done) = match audit(&remote, cp.size, cp.root, seen.as_ref(), a.entries) {
        Ok(r) => r,
        Err(AuditError::Found(f)) => return Err(CliError::negative(format!("{base}: {f}"))),
        Err(AuditError::Fetch { why, .. }) => return Err(CliError::io(why.to_string())),
        Err(AuditError::Mtc(e)) => return Err(mtc_err(&base)(e)),
        Err(other) => return Err(CliError::internal(other.to_string())),
    };
    if let Some(p) = &a.state {
        write_state(p, &cp.origin, &now_seen)?;
    }
    let secs = started.elapsed().as_secs_f64();
    let since = match &seen {
        Some(s) => format!("extends the tree of size {} seen before", s.size),
        None => "first audit".to_string(),
    };
    let text = format!(
        "{base}: {} size {} root {}: consistent ({since}); signed by {}; {} tiles{} fetched ({} bytes) in {secs:.2} s\n",
        cp.origin,
        cp.size,
        B64.encode(cp.root),
        signed.join(", "),
        done.tiles,
        if a.entries { format!(" and {} entry bundles", done.bundles) } else { String::new() },
        done.bytes,
    );
    emit(
        a.output.format,
        "mtc_audit",
        json!({
            "url": base,
            "origin": cp.origin,
            "size": cp.size,
            "root": B64.encode(cp.root),
            "previous_size": seen.as_ref().map(|s| s.size),
            "consistent": true,
            "signed_by": signed,
            "tiles": done.tiles,
            "entry_bundles": done.bundles,
            "bytes": done.bytes,
            "seconds": secs,
        }),
        &text,
    )?;
    Ok(Exit::Ok)
}
