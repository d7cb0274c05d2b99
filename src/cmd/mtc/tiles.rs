//! `pkit mtc tiles`: the log as static files (c2sp.org/tlog-tiles), for any web server or
//! object store to serve at the log's prefix URL — the same bytes `pkit mtc serve`
//! answers with.
//!
//! Incremental: the `checkpoint` file already in the directory says which tree the files
//! there back, and only the tiles a larger tree adds are written (full tiles never
//! change; partial tiles are named by their width). Tiles and bundles are written first,
//! each whole or not at all, the landmark list next and the checkpoint last, so a run
//! that is interrupted leaves the old checkpoint with every tile it needs, and the next
//! run writes the rest.

use super::common::{emit, mtc_err, open_store, FormatArg};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use clap::Args;
use pkit::der::Time;
use pkit::mtc::publish::{self, Resource};
use pkit::mtc::tiles::Kind;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct TilesArgs {
    /// The MTC CA directory.
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// Where to write the log's files (created if needed): `checkpoint`, `landmarks` and
    /// `tile/…`, to be served at the log's prefix URL.
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,
    /// Leave out the entry bundles (`tile/entries/…`): hash tiles, checkpoint and
    /// landmarks only.
    #[arg(long)]
    pub no_entries: bool,
    #[command(flatten)]
    pub output: FormatArg,
}

pub fn run(a: TilesArgs) -> CliResult<Exit> {
    let (store, name) = open_store(&a.dir, &a.db)?;
    let latest = publish::latest(store.as_ref())
        .map_err(mtc_err(&name))?
        .ok_or_else(|| {
            CliError::usage(format!(
                "{name}: no checkpoint yet (run `pkit mtc checkpoint --dir {}`)",
                a.dir.display()
            ))
        })?;
    std::fs::create_dir_all(&a.out_dir)
        .map_err(|e| CliError::io_at(&a.out_dir.display().to_string(), &e))?;
    let cp_path = a.out_dir.join(Resource::Checkpoint.path());
    let cp_name = cp_path.display().to_string();
    let old = match std::fs::read_to_string(&cp_path) {
        Ok(text) => publish::published_size(&text, &latest).map_err(mtc_err(&cp_name))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(CliError::io_at(&cp_name, &e)),
    };
    let (size, note) = (latest.size, latest.note);
    let tiles = publish::tiles_to_write(old, size, !a.no_entries);
    let bar = io::progress_bar(tiles.len() as u64, "tiles");
    let (mut hashes, mut bundles, mut bytes) = (0u64, 0u64, 0u64);
    let mut made = std::collections::HashSet::new();
    for t in &tiles {
        let data = publish::read_tile(store.as_ref(), t, size)
            .map_err(mtc_err(&name))?
            .ok_or_else(|| CliError::io(format!("{name}: {} is missing", t.path())))?;
        let path = a.out_dir.join(t.path());
        if let Some(parent) = path.parent() {
            if made.insert(parent.to_path_buf()) {
                std::fs::create_dir_all(parent)
                    .map_err(|e| CliError::io_at(&parent.display().to_string(), &e))?;
            }
        }
        io::write_file_fast(&path, &data, false)?;
        match t.kind {
            Kind::Entries => bundles += 1,
            Kind::Hashes { .. } => hashes += 1,
        }
        bytes += data.len() as u64;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let now = u64::try_from(Time::now().unix).unwrap_or(0);
    let landmarks = publish::read(store.as_ref(), &Resource::Landmarks, now)
        .map_err(mtc_err(&name))?
        .unwrap_or_default();
    io::write_file_atomic(
        &a.out_dir.join(Resource::Landmarks.path()),
        &landmarks,
        true,
        false,
    )?;
    // The checkpoint the tiles were chosen for (not one another process signed since),
    // last and durably: it is what says the tiles are there.
    io::write_file_atomic(
        &a.out_dir.join(Resource::Checkpoint.path()),
        note.as_bytes(),
        true,
        false,
    )?;
    let text = format!(
        "{}: tree size {size} (was {old}): {hashes} hash tiles and {bundles} entry bundles written, {bytes} bytes\n",
        a.out_dir.display()
    );
    emit(
        a.output.format,
        "mtc_tiles",
        json!({
            "out_dir": a.out_dir.display().to_string(),
            "tree_size": size,
            "previous_size": old,
            "hash_tiles": hashes,
            "entry_bundles": bundles,
            "bytes": bytes,
        }),
        &text,
    )?;
    Ok(Exit::Ok)
}
