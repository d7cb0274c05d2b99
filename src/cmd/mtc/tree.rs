//! `pkit mtc checkpoint | cert | landmark | proof | consistency`: the tree side of the CA.

use super::common::{ca_meta, emit, load_ca, mtc_err, now_of, open_store, unix, Format, FormatArg};
use super::witnesses;
use crate::cmd::ca_dir::parse_duration;
use crate::cmd::created::{check_free, say_created};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use clap::{Args, Subcommand};
use pkit::der::hex;
use pkit::mtc::hash::Hash;
use pkit::mtc::ids::TrustAnchorId;
use pkit::mtc::issuer::{
    allocate_landmark, checkpoint_witnessed, issue_range, proof_subtree, recorded_range,
};
use pkit::mtc::landmark::{certified, format_list, trusted_subtrees};
use pkit::mtc::store::CertKind;
use pkit::mtc::subtree::Subtree;
use pkit::mtc::tree::{consistency_proof, inclusion_proof, subtree_hash};
use pkit::mtc::witness::Cosignatures;
use pkit::mtc::MtcError;
use pkit::pki::backend::Backend;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CheckpointArgs {
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// Signing time (RFC 3339), default now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Password source of DIR/cosigner.key when `mtc ca new --passout` encrypted it
    /// (pass:, env:, file:, fd:).
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// PIN of the PKCS#11 token holding the cosigner key (pass:, env:, file:, fd:).
    #[arg(long, value_name = "SRC")]
    pub pin: Option<String>,
    /// Instead of signing a new checkpoint, add these witnesses' cosignature lines
    /// (`pkit mtc cosign` output) to the latest one, each checked with its --cosigner key.
    #[arg(long, value_name = "FILE", requires = "cosigner")]
    pub cosignature: Vec<PathBuf>,
    /// Instead of signing a new checkpoint, take these witnesses' subtree cosignatures
    /// (`pkit mtc cosign --subtrees` output) for subtrees the CA has signed, each checked
    /// with its --cosigner key: standalone certificates then carry them.
    #[arg(long, value_name = "FILE", requires = "cosigner")]
    pub subtree_cosignature: Vec<PathBuf>,
    /// A witness whose cosignatures are taken: its trust anchor ID and a public key or
    /// certificate file (repeatable).
    #[arg(long, value_name = "ID=KEY_OR_CERT")]
    pub cosigner: Vec<String>,
    /// A witness to ask over HTTP (c2sp.org/tlog-witness) before the checkpoint is
    /// published: its submission prefix URL and its public key or certificate file (a
    /// pkit witness), or its verifier key NAME+KEYID+BASE64 (any Ed25519 witness, e.g.
    /// litewitness) (repeatable). They are asked in parallel; a cosignature is kept when
    /// it verifies with that key. A pkit witness with an ML-DSA-44 key is then asked to
    /// cosign the checkpoint's covering subtrees too (sign-subtree): its cosignatures go
    /// into the standalone certificates beside the CA's.
    #[arg(long, value_name = "URL=KEY")]
    pub witness: Vec<String>,
    /// How many --witness cosignatures the checkpoint needs to be published (default:
    /// all). Short of it, nothing new is published: each witness that failed is named
    /// with why, and the exit code is 1.
    #[arg(long, value_name = "K", requires = "witness")]
    pub witness_quorum: Option<usize>,
    /// How long each witness has to answer (connection included).
    #[arg(long, value_name = "DURATION", default_value = "10s")]
    pub witness_timeout: String,
    /// Once the checkpoint is recorded, publish the log into this S3-compatible bucket
    /// as `pkit mtc tiles --to` does (what it adds, the checkpoint last).
    #[arg(long, value_name = "s3://BUCKET[/PREFIX]")]
    pub to: Option<String>,
    #[command(flatten)]
    pub bucket: super::bucket::BucketArgs,
    /// Write the signed note to FILE instead of stdout (with -f json, the description
    /// stays on stdout and names the file). Nothing is written when there was nothing
    /// new to sign.
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Overwrite the -o file if it exists.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub output: FormatArg,
}

impl CheckpointArgs {
    /// -o, unless it says stdout.
    fn out_file(&self) -> Option<&std::path::Path> {
        self.out.as_deref().filter(|p| p.as_os_str() != "-")
    }

    /// The signed note to -o (or stdout), then what was signed: `summary` on stderr (as
    /// every creating command says what it made when `created` is set), or with -f json
    /// the `mtc_checkpoint` item on stdout, `files.note` naming -o's file.
    fn deliver(
        &self,
        note: &str,
        mut item: serde_json::Value,
        summary: &str,
        created: bool,
    ) -> CliResult {
        let out = self.out_file();
        if self.output.format == Format::Json {
            if let Some(p) = out {
                io::write_text(Some(p), self.force, note)?;
            }
            item["files"] = match out {
                Some(p) => json!({"note": p.display().to_string()}),
                None => json!({}),
            };
            return emit(Format::Json, "mtc_checkpoint", item, "");
        }
        io::write_text(out, self.force, note)?;
        if created {
            say_created(summary, out);
        } else {
            note!("pkit: {summary}");
        }
        Ok(())
    }
}

/// `mtc checkpoint --cosignature` and `--subtree-cosignature`: the witnesses' lines
/// added to the latest checkpoint's note, and their subtree cosignatures recorded, each
/// checked by the library against its --cosigner key (`pkit::mtc::witness::Cosignatures`:
/// an unknown witness, or a line that does not verify, is refused: exit 1).
fn add_cosignatures(be: &Backend, a: &CheckpointArgs) -> CliResult<Exit> {
    check_free(&[a.out_file()], a.force)?;
    let (mut store, name) = open_store(&a.dir, &a.db)?;
    let (ca_id, log) = ca_meta(&*store, &name)?;
    let keys = a
        .cosigner
        .iter()
        .map(|s| super::verify::cosigner_key(s))
        .collect::<CliResult<Vec<_>>>()?;
    let mut taking = Cosignatures::for_latest(&*store, &ca_id, log).map_err(mtc_err(&name))?;
    for f in &a.cosignature {
        let (fname, text) = read_text(f)?;
        taking
            .add_checkpoint_lines(be, &fname, &text, &keys)
            .map_err(mtc_err(&fname))?;
    }
    for f in &a.subtree_cosignature {
        let (fname, text) = read_text(f)?;
        taking
            .add_subtree_lines(be, &*store, &fname, &text, &keys)
            .map_err(mtc_err(&fname))?;
    }
    let taken = taking.store(&mut *store).map_err(mtc_err(&name))?;
    let item = json!({
        "origin": taken.origin,
        "tree_size": taken.size,
        "added": taken.added,
        "subtree_cosignatures": taken.subtrees.iter().map(|s| json!({
            "start": s.subtree.start, "end": s.subtree.end,
            "cosigner": TrustAnchorId::from_binary(&s.cosigner, 0).map_or_else(|_| hex(&s.cosigner), |i| i.to_string()),
        })).collect::<Vec<_>>(),
        "note": taken.note,
    });
    let summary = format!(
        "checkpoint of {} at tree size {}: cosigned by {}; {} subtree cosignature{} \
         recorded",
        taken.origin,
        taken.size,
        if taken.added.is_empty() {
            "no new witness".to_string()
        } else {
            taken.added.join(", ")
        },
        taken.subtrees.len(),
        plural(taken.subtrees.len()),
    );
    a.deliver(&taken.note, item, &summary, false)?;
    Ok(Exit::Ok)
}

/// Nothing added since the last checkpoint: a cron job's idle run, not a failure.
fn nothing_new(a: &CheckpointArgs, name: &str, e: &MtcError) -> CliResult<Exit> {
    note!("pkit: {name}: {e}");
    if a.output.format == Format::Json {
        crate::cmd::created::print_json("mtc_checkpoint", Vec::new())?;
    }
    Ok(Exit::Ok)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn hashes_json(hs: &[Hash]) -> Vec<String> {
    hs.iter().map(|h| hex(h)).collect()
}

pub fn run_checkpoint(be: &Backend, a: CheckpointArgs) -> CliResult<Exit> {
    if !a.cosignature.is_empty() || !a.subtree_cosignature.is_empty() {
        return add_cosignatures(be, &a);
    }
    let now = now_of(&a.now)?;
    let (mut store, name) = open_store(&a.dir, &a.db)?;
    // An idle run is told before -o is looked at: a cron job's `-o checkpoint` without
    // --force must not fail each time nothing was added. (Another process may still add
    // or sign meanwhile; the library decides again under the log's lock.)
    let previous = store.latest_checkpoint().map_err(mtc_err(&name))?;
    let size = store.size();
    if previous.map_or(0, |c| c.size) >= size {
        return nothing_new(&a, &name, &MtcError::NothingNew { size });
    }
    check_free(&[a.out_file()], a.force)?;
    let ca = load_ca(
        be,
        &a.dir,
        &*store,
        &name,
        a.passin.as_deref(),
        a.pin.as_deref(),
    )?;
    let panel = witnesses::Panel::from_args(
        &a.witness,
        a.witness_quorum,
        &a.witness_timeout,
        &a.dir,
        "--witness",
    )?;
    let mut asked = Vec::new();
    let made = checkpoint_witnessed(&mut *store, &ca, unix(now), &mut |log, r| {
        let (lines, by) = panel.cosign(be, log, r, &ca);
        for w in &by {
            if let Err(why) = &w.outcome {
                note!("pkit: witness {}: {why}", w.url);
            }
            for (_, got) in &w.subtrees {
                if let Err(why) = got {
                    note!("pkit: witness {}: sign-subtree {why}", w.url);
                }
            }
        }
        asked = by;
        lines
    });
    let r = match made {
        Ok(r) => r,
        // Nothing added since the last checkpoint: a cron job's idle run, not a failure.
        Err(e @ MtcError::NothingNew { .. }) => return nothing_new(&a, &name, &e),
        Err(e) => return Err(mtc_err(&name)(e)),
    };
    let item = json!({
        "origin": ca.log_id().note_name(),
        "tree_size": r.checkpoint.size,
        "root": hex(&r.checkpoint.root),
        "previous_size": r.previous_size,
        "timestamp": r.checkpoint.created,
        "signed_subtrees": r.subtrees.iter().map(|(s, h)| json!({
            "start": s.start, "end": s.end, "hash": hex(h)})).collect::<Vec<_>>(),
        "note": r.checkpoint.note,
        "witnesses": asked.iter().map(|w| json!({
            "url": w.url,
            "cosigned": w.outcome.is_ok(),
            "error": w.outcome.as_ref().err(),
            "subtrees": w.subtrees.iter().map(|(st, got)| json!({
                "start": st.start, "end": st.end, "cosigned": got.is_ok(),
                "error": got.as_ref().err()})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let new = r.checkpoint.size - r.previous_size;
    let cosigned = asked.iter().filter(|w| w.outcome.is_ok()).count();
    let summary = format!(
        "checkpoint of {} at tree size {} ({new} new entr{}), root {}{}",
        ca.log_id().note_name(),
        r.checkpoint.size,
        if new == 1 { "y" } else { "ies" },
        hex(&r.checkpoint.root),
        if asked.is_empty() {
            String::new()
        } else {
            format!(", cosigned by {cosigned} of {} witnesses", asked.len())
        }
    );
    let mut item = item;
    let mut summary = summary;
    if let Some(to) = &a.to {
        // Recorded first: a bucket that refuses costs a later `mtc tiles --to` run,
        // never the checkpoint.
        let (done, requests, name) =
            super::tiles::publish_to(&*store, &name, &a.dir, to, &a.bucket, true)?;
        item["published"] = json!({"to": name, "tree_size": done.size,
            "previous_size": done.previous, "objects": done.hash_tiles + done.entry_bundles + 2,
            "requests": requests});
        summary.push_str(&format!("; published to {name} ({} requests)", requests));
    }
    a.deliver(&r.checkpoint.note, item, &summary, true)?;
    Ok(Exit::Ok)
}

/// `--dir`, `--db`, `--index`: one entry of an MTC CA's log.
#[derive(Args, Debug)]
pub struct EntryArgs {
    /// The MTC CA directory.
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// The log index of the entry.
    #[arg(long)]
    pub index: u64,
}

#[derive(Args, Debug)]
pub struct CertArgs {
    #[command(flatten)]
    pub entry: EntryArgs,
    /// Write the certificates of `COUNT` consecutive entries from --index, as one PEM
    /// bundle.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// A landmark-relative certificate (no signatures) instead of a standalone one.
    #[arg(long)]
    pub landmark: bool,
    /// Write the certificates an earlier `pkit mtc cert` recorded in mtc.db instead of
    /// issuing them from the log again.
    #[arg(long)]
    pub stored: bool,
    /// Output file (PEM); stdout when absent.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    #[arg(long)]
    pub force: bool,
    /// Time that decides which landmarks are active (RFC 3339), default now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

pub fn run_cert(a: CertArgs) -> CliResult<Exit> {
    check_free(&[a.out.as_deref()], a.force)?;
    let now = now_of(&a.now)?;
    let (mut store, name) = open_store(&a.entry.dir, &a.entry.db)?;
    let (_, log) = ca_meta(&*store, &name)?;
    let kind = if a.landmark {
        CertKind::Landmark
    } else {
        CertKind::Standalone
    };
    let end = a.entry.index.saturating_add(a.count);
    let ders = if a.stored {
        recorded_range(&*store, a.entry.index, end, kind).map_err(|e| match e {
            MtcError::NotRecorded { .. } => CliError::usage(format!(
                "{name}: {e} (issue it with `pkit mtc cert` without --stored)"
            )),
            e => mtc_err(&name)(e),
        })?
    } else {
        // Each certificate is derived from the log as it is now, then all are recorded
        // before anything is written out.
        issue_range(&mut *store, log, a.entry.index, end, kind, unix(now))
            .map_err(mtc_err(&name))?
    };
    let pem: String = ders
        .iter()
        .map(|der| io::pem_encode("CERTIFICATE", der))
        .collect();
    io::write_text(a.out.as_deref(), a.force, &pem)?;
    if !a.stored {
        let kind = match kind {
            CertKind::Landmark => "landmark-relative",
            CertKind::Standalone => "standalone",
        };
        let what = match ders.len() {
            1 => format!("{kind} MTC certificate of log entry {}", a.entry.index),
            n => format!(
                "{n} {kind} MTC certificates of log entries {}..{}",
                a.entry.index,
                a.entry.index + n as u64 - 1
            ),
        };
        say_created(what, a.out.as_deref());
    }
    Ok(Exit::Ok)
}

#[derive(Args, Debug)]
pub struct LandmarkArgs {
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    #[command(subcommand)]
    pub command: LandmarkCommand,
}

#[derive(Subcommand, Debug)]
pub enum LandmarkCommand {
    /// Make the latest checkpoint's tree size the next landmark.
    Allocate {
        /// How long the landmark stays active (90s, 30m, 1h, 7d, 4w).
        #[arg(long, default_value = "7d")]
        lifetime: String,
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
        #[arg(short, long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the landmark list (-07 text format), or the trusted subtrees with
    /// --subtrees (the file `pkit mtc verify --trusted-subtrees` reads).
    List {
        #[arg(long)]
        subtrees: bool,
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
        #[arg(short, long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

pub fn run_landmark(a: LandmarkArgs) -> CliResult<Exit> {
    let (mut store, name) = open_store(&a.dir, &a.db)?;
    let (_, log) = ca_meta(&*store, &name)?;
    let landmarks = store.landmarks().map_err(mtc_err(&name))?;
    match a.command {
        LandmarkCommand::Allocate {
            lifetime,
            now,
            format,
        } => {
            let now = unix(now_of(&now)?);
            let life = parse_duration("--lifetime", &lifetime)?;
            let l =
                allocate_landmark(&mut *store, now, life.unsigned_abs()).map_err(mtc_err(&name))?;
            // `expiry` stays the landmark list's POSIX seconds; `expires_at` is for people.
            let until = expires_at(l.expiry);
            let item = json!({"number": l.number, "tree_size": l.tree_size, "expiry": l.expiry,
                "expires_at": until});
            // Something made: said on stderr as every creating command says it.
            if format == Format::Json {
                emit(format, "mtc_landmark", item, "")?;
            } else {
                say_created(
                    format_args!(
                        "landmark {} at tree size {} (until {until})",
                        l.number, l.tree_size
                    ),
                    None,
                );
            }
        }
        LandmarkCommand::List {
            subtrees,
            now,
            format,
        } => {
            let now = unix(now_of(&now)?);
            let certified = certified(&*store, &landmarks).map_err(mtc_err(&name))?;
            let text: String = trusted_subtrees(&certified, log, now)
                .iter()
                .map(|t| format!("{}\n", t.to_line()))
                .collect();
            let rows: Vec<_> = certified
                .iter()
                .map(|c| {
                    let l = c.landmark;
                    let sts: Vec<_> = c
                        .subtrees
                        .iter()
                        .map(|(st, h)| json!({"start": st.start, "end": st.end, "hash": hex(h)}))
                        .collect();
                    json!({"number": l.number, "tree_size": l.tree_size, "expiry": l.expiry,
                        "expires_at": expires_at(l.expiry), "active": l.is_active(now),
                        "subtrees": sts})
                })
                .collect();
            let list = format_list(&landmarks, now);
            let item = json!({"log": log, "list": list, "landmarks": rows});
            emit(
                format,
                "mtc_landmarks",
                item,
                if subtrees { &text } else { &list },
            )?;
        }
    }
    Ok(Exit::Ok)
}

#[derive(Args, Debug)]
pub struct ProofArgs {
    #[command(flatten)]
    pub entry: EntryArgs,
    /// The subtree START:END (default: the signed subtree holding the index, else the
    /// whole tree).
    #[arg(long, value_name = "START:END")]
    pub subtree: Option<String>,
    #[command(flatten)]
    pub output: FormatArg,
}

pub fn run_proof(a: ProofArgs) -> CliResult<Exit> {
    let (store, name) = open_store(&a.entry.dir, &a.entry.db)?;
    let st = match &a.subtree {
        Some(s) => {
            let (x, y) = s
                .split_once(':')
                .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                .ok_or_else(|| CliError::usage(format!("--subtree {s}: expected START:END")))?;
            Subtree::new(x, y)
        }
        None => proof_subtree(&*store, a.entry.index).map_err(mtc_err(&name))?,
    };
    let proof = inclusion_proof(&*store, a.entry.index, st).map_err(mtc_err(&name))?;
    let hash = subtree_hash(&*store, st).map_err(mtc_err(&name))?;
    let leaf = store.node(0, a.entry.index).map_err(mtc_err(&name))?;
    let mut text = format!(
        "index {} in {st}\nentry hash {}\nsubtree hash {}\n",
        a.entry.index,
        hex(&leaf),
        hex(&hash)
    );
    for h in &proof {
        text.push_str(&format!("  {}\n", hex(h)));
    }
    let item = json!({"index": a.entry.index, "start": st.start, "end": st.end, "entry_hash": hex(&leaf),
        "subtree_hash": hex(&hash), "proof": hashes_json(&proof)});
    emit(a.output.format, "mtc_proof", item, &text)?;
    Ok(Exit::Ok)
}

#[derive(Args, Debug)]
pub struct ConsistencyArgs {
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// The older tree size.
    #[arg(long)]
    pub old: u64,
    /// The newer tree size.
    #[arg(long)]
    pub new: u64,
    #[command(flatten)]
    pub output: FormatArg,
}

pub fn run_consistency(a: ConsistencyArgs) -> CliResult<Exit> {
    let (store, name) = open_store(&a.dir, &a.db)?;
    if a.old > a.new {
        return Err(CliError::usage(format!(
            "--old {} is larger than --new {}",
            a.old, a.new
        )));
    }
    let st = Subtree::new(0, a.old);
    let proof = consistency_proof(&*store, st, a.new).map_err(mtc_err(&name))?;
    let old_root = subtree_hash(&*store, st).map_err(mtc_err(&name))?;
    let new_root = subtree_hash(&*store, Subtree::new(0, a.new)).map_err(mtc_err(&name))?;
    let mut text = format!(
        "{} -> {}\nold root {}\nnew root {}\n",
        a.old,
        a.new,
        hex(&old_root),
        hex(&new_root)
    );
    for h in &proof {
        text.push_str(&format!("  {}\n", hex(h)));
    }
    let item = json!({"old": a.old, "new": a.new, "old_root": hex(&old_root),
        "new_root": hex(&new_root), "proof": hashes_json(&proof)});
    emit(a.output.format, "mtc_consistency", item, &text)?;
    Ok(Exit::Ok)
}

/// A cosignature file's name and text.
fn read_text(path: &std::path::Path) -> CliResult<(String, String)> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io_at(&name, &e))?;
    Ok((name, text))
}

/// A landmark's expiry (POSIX seconds) as RFC 3339.
fn expires_at(expiry: u64) -> String {
    pkit::der::Time {
        unix: i64::try_from(expiry).unwrap_or(i64::MAX),
    }
    .to_string()
}
