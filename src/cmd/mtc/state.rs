//! The state file a log's auditor or witness keeps between runs (its format is
//! `pkit::mtc::audit::Seen`'s): read and written here, atomically.

use super::common::mtc_err;
use crate::cmd::error::{CliError, CliResult};
use crate::cmd::io;
use pkit::mtc::audit::Seen;
use std::path::Path;

/// The state file of the log `origin`, if there is one.
pub fn read_state(path: &Path, origin: &str) -> CliResult<Option<Seen>> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::io_at(&name, &e)),
    };
    Seen::from_json(&text, origin)
        .map(Some)
        .map_err(mtc_err(&name))
}

/// Replace the state file with `seen` of the log `origin`, whole or not at all.
pub fn write_state(path: &Path, origin: &str, seen: &Seen) -> CliResult {
    io::write_file_atomic(path, seen.to_json(origin).as_bytes(), true, false)
}
