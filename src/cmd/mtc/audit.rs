//! `pkit mtc audit`: fetch a served issuance log's checkpoint and tiles (tlog-tiles), check
//! the checkpoint's signatures against known keys, recompute its root from the tiles,
//! and check that it extends the tree seen at the last audit (kept in `--state`).
//!
//! Exit 0: the log is consistent and signed; 1: a finding (a fork, a bad tile, a root or
//! signature that does not verify), in one line naming the two sizes and roots or the
//! tile path, and the state is left as it was; 4: the log could not be fetched.

use super::common::{emit, mtc_err, Format};
use super::remote::Remote;
use super::verify::{cosigner_key, read_der};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use clap::Args;
use pkit::mtc::audit::{audit, AuditError, Seen};
use pkit::mtc::cert::CaInfo;
use pkit::mtc::frontier::Frontier;
use pkit::mtc::hash::Hash;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
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
    /// The tree verified last time (created if missing, updated after a clean audit):
    /// only tiles past it are fetched, and the log must extend it.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Fetch the entry bundles too and check that each entry hashes to its leaf.
    #[arg(long)]
    pub entries: bool,
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The state file: the log's origin and the tree last verified, with its right edge.
fn read_state(path: &Path, origin: &str) -> CliResult<Option<Seen>> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::io_at(&name, &e)),
    };
    let bad = |what: &str| CliError::parse(format!("{name}: {what}"));
    let v: Value = serde_json::from_str(&text).map_err(|e| bad(&format!("not JSON ({e})")))?;
    if v["origin"] != origin {
        return Err(CliError::usage(format!(
            "{name}: the state of {}, not of {origin}; use another --state file",
            v["origin"]
        )));
    }
    let hash = |s: &Value| -> Option<Hash> { B64.decode(s.as_str()?).ok()?.try_into().ok() };
    let size = v["size"].as_u64().ok_or_else(|| bad("no size"))?;
    let root = hash(&v["root"]).ok_or_else(|| bad("no root"))?;
    let parts = v["frontier"]
        .as_array()
        .ok_or_else(|| bad("no frontier"))?
        .iter()
        .map(|p| {
            if p.is_null() {
                Ok(None)
            } else {
                hash(p).map(Some).ok_or(())
            }
        })
        .collect::<Result<Vec<_>, ()>>()
        .map_err(|()| bad("a frontier hash is not base64 of 32 bytes"))?;
    let frontier = Frontier::from_parts(size, parts).map_err(mtc_err(&name))?;
    if frontier.root() != root {
        return Err(bad("its right edge does not give its root"));
    }
    Ok(Some(Seen {
        size,
        root,
        frontier,
    }))
}

fn write_state(path: &Path, origin: &str, seen: &Seen) -> CliResult {
    let parts: Vec<Value> = seen
        .frontier
        .parts()
        .iter()
        .map(|p| p.map_or(Value::Null, |h| Value::String(B64.encode(h))))
        .collect();
    let v = json!({
        "origin": origin,
        "size": seen.size,
        "root": B64.encode(seen.root),
        "frontier": parts,
    });
    let text = format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default());
    io::write_file_atomic(path, text.as_bytes(), true, false)
}

pub fn run(a: AuditArgs) -> CliResult<Exit> {
    let started = Instant::now();
    let (ca_name, ca_der) = read_der(&a.ca)?;
    let ca = CaInfo::from_certificate(&ca_der).map_err(mtc_err(&ca_name))?;
    let others = a
        .cosigner
        .iter()
        .map(|s| cosigner_key(s))
        .collect::<CliResult<Vec<_>>>()?;
    let remote = Remote::new(&a.url);
    let base = remote.base.clone();
    let (cp, _, signed) = remote.signed_checkpoint(&ca, &others)?;
    let seen = match &a.state {
        Some(p) => read_state(p, &cp.origin)?,
        None => None,
    };
    let (now_seen, done) = match audit(&remote, cp.size, cp.root, seen.as_ref(), a.entries) {
        Ok(r) => r,
        Err(AuditError::Found(f)) => return Err(CliError::negative(format!("{base}: {f}"))),
        Err(AuditError::Fetch { why, .. }) => return Err(CliError::io(why)),
        Err(AuditError::Mtc(e)) => return Err(mtc_err(&base)(e)),
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
        a.format,
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
