//! The state a log's auditor or witness keeps between runs: the log's origin and the
//! tree it last verified (size, root, right edge), as JSON — where the next audit starts
//! and what the log must extend.

use super::common::mtc_err;
use crate::cmd::error::{CliError, CliResult};
use crate::cmd::io;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use pkit::mtc::audit::Seen;
use pkit::mtc::frontier::Frontier;
use pkit::mtc::hash::Hash;
use serde_json::{json, Value};
use std::path::Path;

/// The state file: the log's origin and the tree last verified, with its right edge.
pub fn read_state(path: &Path, origin: &str) -> CliResult<Option<Seen>> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::io_at(&name, &e)),
    };
    let bad = |what: &str| CliError::parse(format!("{name}: {what}"));
    let v: Value = serde_json::from_str(&text).map_err(|e| bad(&format!("not JSON ({e})")))?;
    let Some(seen_origin) = v["origin"].as_str() else {
        return Err(bad("not an audit or witness state (no origin)"));
    };
    if seen_origin != origin {
        return Err(CliError::usage(format!(
            "{name}: the state of {seen_origin}, not of {origin}; use another --state file"
        )));
    }
    let hash = |s: &Value| -> Option<Hash> { B64.decode(s.as_str()?).ok()?.try_into().ok() };
    let size = v["size"].as_u64().ok_or_else(|| bad("no tree size"))?;
    let root = hash(&v["root"]).ok_or_else(|| bad("no root (base64 of 32 bytes)"))?;
    let parts = v["frontier"]
        .as_array()
        .ok_or_else(|| bad("no frontier (the right edge's hashes)"))?
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

pub fn write_state(path: &Path, origin: &str, seen: &Seen) -> CliResult {
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
