//! `pkit mtc tiles`: the log as static files (c2sp.org/tlog-tiles), for any web server or
//! object store to serve at the log's prefix URL — the same bytes `pkit mtc serve`
//! answers with.
//!
//! Incremental (`pkit::mtc::publish::catch_up`): the `checkpoint` file already in the
//! directory says which tree the files there back, and only the tiles a larger tree adds
//! are written (full tiles never change; partial tiles are named by their width). Tiles
//! and bundles are written first, each whole or not at all, the landmark list next and
//! the checkpoint last, so a run that is interrupted leaves the old checkpoint with every
//! tile it needs, and the next run writes the rest. This file only says how the
//! directory is written.

use super::bucket::{BucketArgs, S3Mirror};
use super::common::{emit, mtc_err, open_store, FormatArg};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use clap::Args;
use pkit::der::Time;
use pkit::mtc::publish::{catch_up, Mirror, PublishError, Published, Resource};
use serde_json::json;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct TilesArgs {
    /// The MTC CA directory.
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// Where to write the log's files (created if needed): `checkpoint`, `landmarks` and
    /// `tile/…`, to be served at the log's prefix URL.
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "to",
        conflicts_with = "to"
    )]
    pub out_dir: Option<PathBuf>,
    /// Write the same objects into an S3-compatible bucket instead, under PREFIX:
    /// tiles and entry bundles as immutable, then the landmark list, the checkpoint
    /// last (its Cache-Control: max-age=2).
    #[arg(long, value_name = "s3://BUCKET[/PREFIX]")]
    pub to: Option<String>,
    #[command(flatten)]
    pub bucket: BucketArgs,
    /// Leave out the entry bundles (`tile/entries/…`): hash tiles, checkpoint and
    /// landmarks only.
    #[arg(long)]
    pub no_entries: bool,
    #[command(flatten)]
    pub output: FormatArg,
}

/// The output directory as the log's static copy: tiles written fast (whole, not
/// flushed), the landmark list and the checkpoint atomically and durably.
struct Dir<'a> {
    root: &'a Path,
    bar: indicatif::ProgressBar,
    /// The directories made so far.
    made: HashSet<PathBuf>,
}

impl Mirror for Dir<'_> {
    type Error = CliError;

    fn prepare(&mut self) -> CliResult {
        std::fs::create_dir_all(self.root)
            .map_err(|e| CliError::io_at(&self.root.display().to_string(), &e))
    }

    fn checkpoint(&mut self) -> CliResult<Option<String>> {
        let path = self.root.join(Resource::Checkpoint.path());
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(CliError::io_at(&path.display().to_string(), &e)),
        }
    }

    fn planned(&mut self, count: usize) {
        self.bar = io::progress_bar(count as u64, "tiles");
    }

    fn put_tile(&mut self, path: &str, bytes: &[u8]) -> CliResult {
        let path = self.root.join(path);
        if let Some(parent) = path.parent() {
            if self.made.insert(parent.to_path_buf()) {
                std::fs::create_dir_all(parent)
                    .map_err(|e| CliError::io_at(&parent.display().to_string(), &e))?;
            }
        }
        io::write_file_fast(&path, bytes, false)?;
        self.bar.inc(1);
        Ok(())
    }

    fn put(&mut self, resource: Resource, bytes: &[u8]) -> CliResult {
        self.bar.finish_and_clear();
        io::write_file_atomic(&self.root.join(resource.path()), bytes, true, false)
    }
}

/// Bring the bucket `to` up to the log's latest checkpoint (`publish::catch_up`): what
/// was written, the requests it took, and the bucket's `s3://` name.
pub fn publish_to(
    store: &dyn pkit::mtc::store::LogStore,
    name: &str,
    dir: &Path,
    to: &str,
    bucket: &BucketArgs,
    entries: bool,
) -> CliResult<(Published, u64, String)> {
    let now = u64::try_from(Time::now().unix).unwrap_or(0);
    let mut out = S3Mirror::open(to, bucket)?;
    let cp_name = format!("{}{}", out.name(), Resource::Checkpoint.path());
    let done = catch_up(store, &mut out, entries, now)
        .map_err(|e| publish_error(name, dir, &cp_name, e))?;
    Ok((done, out.requests, out.name().to_string()))
}

/// A failed `catch_up` of the log `name` (of CA directory `dir`) into the copy whose
/// checkpoint is `cp_name`, as one line.
fn publish_error(name: &str, dir: &Path, cp_name: &str, e: PublishError<CliError>) -> CliError {
    match e {
        PublishError::NoCheckpoint => CliError::usage(format!(
            "{name}: no checkpoint yet (run `pkit mtc checkpoint --dir {}`)",
            dir.display()
        )),
        PublishError::Log(e) => mtc_err(name)(e),
        PublishError::Copy(e) => mtc_err(cp_name)(e),
        PublishError::Missing(path) => CliError::io(format!("{name}: {path} is missing")),
        PublishError::Mirror(e) => e,
    }
}

pub fn run(a: TilesArgs) -> CliResult<Exit> {
    let (store, name) = open_store(&a.dir, &a.db)?;
    let now = u64::try_from(Time::now().unix).unwrap_or(0);
    let entries = !a.no_entries;
    let failed = |cp_name: &str, e| publish_error(&name, &a.dir, cp_name, e);
    let (to, done, requests) = match (&a.out_dir, &a.to) {
        (Some(dir), _) => {
            let mut out = Dir {
                root: dir,
                bar: indicatif::ProgressBar::hidden(),
                made: HashSet::new(),
            };
            let cp_name = dir.join(Resource::Checkpoint.path()).display().to_string();
            let done = catch_up(store.as_ref(), &mut out, entries, now)
                .map_err(|e| failed(&cp_name, e))?;
            (dir.display().to_string(), done, None)
        }
        (None, Some(to)) => {
            let (done, requests, name) =
                publish_to(store.as_ref(), &name, &a.dir, to, &a.bucket, entries)?;
            (name, done, Some(requests))
        }
        (None, None) => return Err(CliError::usage("give --out-dir DIR or --to s3://BUCKET")),
    };
    let (size, old) = (done.size, done.previous);
    let (hashes, bundles, bytes) = (done.hash_tiles, done.entry_bundles, done.bytes);
    let text = format!(
        "{to}: tree size {size} (was {old}): {hashes} hash tiles and {bundles} entry bundles written, {bytes} bytes{}\n",
        requests.map_or(String::new(), |n| format!(", {n} requests"))
    );
    let mut item = json!({
        "tree_size": size,
        "previous_size": old,
        "hash_tiles": hashes,
        "entry_bundles": bundles,
        "bytes": bytes,
    });
    match requests {
        None => item["out_dir"] = json!(to),
        Some(n) => {
            item["to"] = json!(to);
            item["requests"] = json!(n);
        }
    }
    emit(a.output.format, "mtc_tiles", item, &text)?;
    Ok(Exit::Ok)
}
