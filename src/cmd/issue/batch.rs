//! `pkit issue batch`: many certificates on every core (the pipeline is
//! [`pkit::pki::ca::batch`]); this file reads the manifest and delivers the files and the
//! report.

use crate::cmd::ca_db::db_err;
use crate::cmd::ca_db::open_store;
use crate::cmd::ca_dir::parse_time;
use crate::cmd::created::say_created;
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::key::AlgorithmParser;
use crate::cmd::outdir::OutDir;
use crate::cmd::output;
use crate::cmd::request::{key_pem, SecretText};
use clap::Args;
use pkit::der::hex;
use pkit::der::Time;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::Backend;
use pkit::pki::backend::PrivateKey;
use pkit::pki::ca::batch::{Batch, BatchError, BatchItem, Delivery};
use pkit::pki::ca::batch_items::{
    manifest_items, numbered_items, ItemDefaults, ItemsError, DEFAULT_SUBJECT,
};
use pkit::pki::ca::issuer::Issued;
use pkit::pki::ca::profile::Profile;
use pkit::pki::ca::store::{self, DeliveryNote};
use pkit::pki::ca::undelivered;
use rayon::prelude::*;
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct BatchArgs {
    #[command(flatten)]
    pub issuer: crate::cmd::flags::IssuingCaArgs,
    /// How many certificates (with --subject-template).
    #[arg(long, conflicts_with = "from", required_unless_present = "from")]
    pub count: Option<u64>,
    /// JSONL manifest: one {"subject","sans":["DNS:…",…],"profile","alg","days"} per line.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    // The help cannot spell the placeholder: clap turns `{n}` in help text into a line
    // break. The default shows it.
    /// Subject for --count: the certificate's number stands in for each n in braces, as in
    /// the default.
    #[arg(long, default_value = DEFAULT_SUBJECT)]
    pub subject_template: String,
    /// A SAN for --count (repeatable), the certificate's number standing in for each n in
    /// braces as in --subject-template; with the default subject, the default is its CN as a
    /// dNSName.
    #[arg(long, value_name = "TYPE:TEMPLATE")]
    pub san_template: Vec<String>,
    /// Key algorithm (manifest lines may override).
    #[arg(long, value_parser = AlgorithmParser, default_value = "ecdsa-p256")]
    pub alg: Algorithm,
    /// Profile (manifest lines may override).
    #[arg(long, default_value = "server", value_parser = crate::cmd::values::PROFILES)]
    pub profile: Profile,
    /// Validity in days (manifest lines may override; default by profile, as `issue cert`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub days: Option<u32>,
    /// Cut validities that reach past the CA's to end with it, instead of refusing.
    #[arg(long)]
    pub clip_validity: bool,
    /// Directory for N.pem and N.key files (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,
    /// Replace N.pem and N.key files already in --out-dir. Without it a batch that would
    /// overwrite one is refused before anything is issued: an earlier batch's files may be
    /// the only copies of the keys of certificates still valid.
    #[arg(long)]
    pub force: bool,
    /// Judge validity from this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Certificates per database transaction.
    #[arg(long, default_value_t = 1024)]
    pub chunk: usize,
    /// Afterwards, time the raw limit on the same threads (one key generation plus one
    /// CA signature per certificate, in memory) and print it beside the batch's rate.
    #[arg(long)]
    pub measure_limit: bool,
    /// The report on stdout: jsonl, one line per certificate as it is delivered; json,
    /// the same items in one pkit/v1 envelope (type `issued`).
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Jsonl)]
    pub format: ReportFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    Jsonl,
    Json,
}

/// The batch's items: `--count` numbered from the templates, or the `--from` manifest's
/// lines (`pkit::pki::ca::batch::{numbered_items, manifest_items}`).
fn batch_items(a: &BatchArgs, now: Time) -> CliResult<Vec<BatchItem>> {
    let d = ItemDefaults {
        profile: a.profile,
        alg: a.alg,
        days: a.days,
        now,
    };
    if let Some(count) = a.count {
        return numbered_items(count, &a.subject_template, &a.san_template, &d).map_err(
            |e| match e {
                ItemsError::NeedsSan(p) => CliError::usage(format!(
                    "a {} certificate needs a SAN: give --san-template (e.g. \
                     DNS:host-{{n}}.example)",
                    p.name()
                )),
                ItemsError::San(e) => CliError::usage(format!("--san-template {e}")),
                ItemsError::Subject(e) => CliError::usage(format!("--subject: {e}")),
                ItemsError::Manifest(e) => CliError::usage(e.to_string()),
            },
        );
    }
    let path = a
        .from
        .as_ref()
        .ok_or_else(|| CliError::usage("give --count N or --from FILE"))?;
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io_at(&name, &e))?;
    manifest_items(&text, &d).map_err(|e| CliError::parse(format!("{name}: {e}")))
}

/// One certificate of a batch, ready to be written.
struct BatchOutput {
    key_pem: SecretText,
    cert_pem: String,
    key_name: String,
    cert_name: String,
    /// The JSONL report line.
    line: String,
}

/// How `pkit issue batch` delivers: a key file and a certificate file per certificate in
/// the output directory, a report line on stdout, and the progress bar.
struct Files<'a> {
    /// What writes the keys (encrypted, when asked).
    backend: &'a Backend,
    out_dir: &'a OutDir,
    bar: &'a indicatif::ProgressBar,
    /// The first failure to write the report: the batch still delivers its files, and
    /// exits non-zero at the end.
    report_error: std::sync::Mutex<Option<std::io::Error>>,
    /// The report as one JSON envelope: items separated by commas, between the header
    /// written before the first and the end written after the last.
    envelope: Option<std::sync::atomic::AtomicBool>,
    /// The output directory as recorded with each chunk until its files are written.
    destination: String,
    /// This process, as the deliveries' owner.
    owner: String,
}

impl Delivery for Files<'_> {
    type Output = BatchOutput;
    type Error = CliError;

    fn prepare(
        &self,
        it: &BatchItem,
        key: &dyn PrivateKey,
        cert: &Issued,
    ) -> CliResult<BatchOutput> {
        let (key_name, cert_name) = (format!("{}.key", it.n), format!("{}.pem", it.n));
        for f in &cert.findings {
            note!(
                "pkit: lint: {}: {}",
                it.n,
                crate::cmd::lint::finding_text(f)
            );
        }
        let (cert_path, key_path) = (
            self.out_dir.path().join(&cert_name),
            self.out_dir.path().join(&key_name),
        );
        let line = output::json_line(&json!({
            "n": it.n,
            "serial_number": hex(&cert.serial),
            "subject": it.subject_text,
            "not_after": cert.not_after.to_string(),
            "cert": cert_path,
            "key": key_path,
            "files": {"certificate": cert_path, "key": key_path},
        }));
        Ok(BatchOutput {
            key_pem: key_pem(self.backend, key, None)?,
            cert_pem: io::pem_encode("CERTIFICATE", &cert.der),
            key_name,
            cert_name,
            line,
        })
    }

    fn deliver(&self, chunk: &[BatchOutput]) -> CliResult {
        // In parallel: a thread that has finished signing the next chunk takes files from
        // here (on ext4 the file system calls serialise on the directory's lock).
        chunk.par_iter().try_for_each(|o| -> CliResult {
            self.out_dir
                .write(&o.key_name, o.key_pem.as_bytes(), true)?;
            self.out_dir
                .write(&o.cert_name, o.cert_pem.as_bytes(), false)?;
            Ok(())
        })?;
        let mut failed = self.report_error.lock().unwrap_or_else(|e| e.into_inner());
        if failed.is_none() {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let written = chunk
                .iter()
                .try_for_each(|o| match &self.envelope {
                    None => out.write_all(o.line.as_bytes()),
                    Some(started) => {
                        let first = !started.swap(true, std::sync::atomic::Ordering::Relaxed);
                        out.write_all(if first { b"\n" } else { b",\n" })?;
                        out.write_all(o.line.trim_end().as_bytes())
                    }
                })
                .and_then(|()| out.flush());
            if let Err(e) = written {
                *failed = Some(e);
            }
        }
        self.bar.inc(chunk.len() as u64);
        Ok(())
    }

    fn note(&self, first: &BatchItem) -> Option<DeliveryNote> {
        Some(DeliveryNote {
            destination: self.destination.clone(),
            owner: self.owner.clone(),
            first_n: first.n,
        })
    }
}

pub fn run_batch(be: &Backend, a: BatchArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let items = batch_items(&a, now)?;
    let issuer = a.issuer.load(be)?;
    issuer.check_valid_at(now)?;
    // From here a signal stops the batch between chunks (exit 6) rather than killing the
    // process; not before, so that Ctrl-C still leaves a password prompt.
    let stop = stop_on_signals()?;
    if !a.force {
        check_out_dir_free(&a.out_dir, &items)?;
    }
    // A directory this run makes goes again if nothing is written into it (a batch the
    // CA refuses, or one stopped before its first certificate).
    let _made = MadeDir::before_making(&a.out_dir);
    let out_dir = OutDir::open(&a.out_dir)?;
    let mut store = open_store(&a.issuer.ca, &a.issuer.db)?;
    warn_undelivered(be, store.as_mut(), &a.issuer.ca)?;
    store
        .checkpoint_in_background()
        .map_err(db_err(&a.issuer.ca))?;
    let started = std::time::Instant::now();
    let bar = io::progress_bar(items.len() as u64, "certificates");
    let files = Files {
        backend: be,
        out_dir: &out_dir,
        bar: &bar,
        report_error: std::sync::Mutex::new(None),
        envelope: (a.format == ReportFormat::Json)
            .then(|| std::sync::atomic::AtomicBool::new(false)),
        destination: std::path::absolute(out_dir.path())
            .unwrap_or_else(|_| out_dir.path().to_path_buf())
            .display()
            .to_string(),
        owner: pkit::store::process::this_process(),
    };
    if files.envelope.is_some() {
        io::write_text(
            None,
            false,
            &format!(
                "{{\"schema\": \"{}\", \"type\": \"issued\", \"items\": [",
                output::SCHEMA
            ),
        )?;
    }
    let batch = Batch {
        issuer: &issuer,
        backend: be,
        now,
        stop: Some(&stop),
        clip: a.clip_validity,
    };
    let finished = batch
        .run(&items, a.chunk, store.as_mut(), &files)
        .map_err(|e| match e {
            BatchError::Store(e) => db_err(&a.issuer.ca)(e),
            BatchError::Other(e) => e,
            other => CliError::internal(other.to_string()),
        })?;
    bar.finish_and_clear();
    if files.envelope.is_some() {
        // Closed whatever happened next: what was delivered is a complete document.
        io::write_text(None, false, "\n]}\n")?;
    }
    if finished.stopped {
        note!(
            "pkit: stopped by a signal after issuing {} of {} certificates (each committed \
             and its files written); the rest were not issued",
            finished.issued,
            items.len()
        );
        return Ok(Exit::Interrupted);
    }
    if let Some(e) = files
        .report_error
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        return Err(CliError::io_at("stdout (the batch report)", &e));
    }
    if items.is_empty() {
        // An empty manifest or --count 0: nothing to time, and no limit to hold it against.
        say_created("no certificates (nothing was asked for)", None);
        return Ok(Exit::Ok);
    }
    let secs = started.elapsed().as_secs_f64();
    say_created(
        format_args!(
            "{} certificates (in {:.2} s: {:.0}/s, {:.1} µs each, on {} threads)",
            items.len(),
            secs,
            items.len() as f64 / secs,
            secs * 1e6 / items.len() as f64,
            rayon::current_num_threads()
        ),
        Some(out_dir.path()),
    );
    if a.measure_limit {
        let algs: Vec<Algorithm> = items.iter().map(|it| it.alg).collect();
        let limit = pkit::bench::crypto::issuance_limit(&issuer, be, &algs)?;
        let signing = pkit::bench::crypto::signing_limit(&issuer, algs.len())?;
        let rate = items.len() as f64 / secs;
        note!(
            "pkit: raw limit (key generation + one CA signature per certificate, same \
             threads): {limit:.0}/s, {:.1} µs each; this batch ran at {:.0}% of it",
            1e6 / limit,
            100.0 * rate / limit
        );
        note!(
            "pkit: CA signatures alone: {signing:.0}/s on these threads (for a key in a \
             PKCS#11 token, the token's signing rate)"
        );
    }
    Ok(Exit::Ok)
}

/// Refuse a batch that would overwrite files already in `dir`: one read of the directory,
/// its names matched against the items' numbers (no name made per item, for batches of
/// millions).
fn check_out_dir_free(dir: &std::path::Path, items: &[BatchItem]) -> CliResult {
    let Ok(entries) = std::fs::read_dir(dir) else {
        // Absent (made later) or not a directory (refused when it is opened).
        return Ok(());
    };
    // N.pem before N.key, as the batch writes them, for the name the message gives.
    let mut present: Vec<(u64, u8, String)> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let (n, ext) = name.split_once('.')?;
            let order = match ext {
                "pem" => 0,
                "key" => 1,
                _ => return None,
            };
            // As the batch names them: `07.pem` is not item 7's.
            let number: u64 = n.parse().ok().filter(|v: &u64| v.to_string() == n)?;
            Some((number, order, name))
        })
        .collect();
    if present.is_empty() {
        return Ok(());
    }
    let ours: std::collections::HashSet<u64> = items.iter().map(|it| it.n).collect();
    present.retain(|(n, _, _)| ours.contains(n));
    present.sort_unstable();
    let Some((_, _, first)) = present.first() else {
        return Ok(());
    };
    let more = present.len() - 1;
    Err(CliError::io(format!(
        "{}: already holds {first}{} that this batch would write (an earlier batch's \
         certificates and keys?); choose another --out-dir, or --force to replace them",
        dir.display(),
        if more > 0 {
            format!(" and {more} more file(s)")
        } else {
            String::new()
        }
    )))
}

/// The directories `issue batch` makes for --out-dir (it and those above it that are
/// missing), removed when the run ends if they are still empty.
struct MadeDir {
    dir: PathBuf,
    /// The highest of them.
    top: PathBuf,
}

impl MadeDir {
    /// Before `dir` is made: what making it will add, if anything.
    fn before_making(dir: &std::path::Path) -> Option<MadeDir> {
        let top = dir
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && std::fs::symlink_metadata(d).is_err())
            .last()?;
        Some(MadeDir {
            dir: dir.to_path_buf(),
            top: top.to_path_buf(),
        })
    }
}

impl Drop for MadeDir {
    fn drop(&mut self) {
        for d in self.dir.ancestors() {
            // Fails, leaving it and those above, once anything is in it.
            if std::fs::remove_dir(d).is_err() || d == self.top {
                break;
            }
        }
    }
}

/// Tell the user about certificates an earlier batch on this CA committed but did not
/// deliver (recording what is found, so the next look starts from it).
fn warn_undelivered(
    be: &Backend,
    store: &mut dyn store::CaStore,
    ca: &std::path::Path,
) -> CliResult {
    let survey = undelivered::survey(be, store).map_err(db_err(ca))?;
    survey.save(store, &[]).map_err(db_err(ca))?;
    if !survey.found.is_empty() {
        note!(
            "pkit: warning: {} certificates an earlier batch issued from {} were never \
             delivered (their files are missing); list them with `pkit issue list --ca {} \
             --undelivered`",
            survey.found.len(),
            ca.display(),
            ca.display()
        );
    }
    Ok(())
}

/// A flag SIGINT and SIGTERM set: the batch then stops at the next chunk boundary,
/// having committed and delivered what it signed, instead of dying mid-chunk.
fn stop_on_signals() -> CliResult<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // A second signal does not wait for the chunk: the process ends at once (a kill
        // loses nothing committed; the chunk's note names what it did not deliver).
        signal_hook::flag::register_conditional_shutdown(
            sig,
            Exit::Interrupted as i32,
            Arc::clone(&stop),
        )
        .and_then(|_| signal_hook::flag::register(sig, Arc::clone(&stop)))
        .map_err(|e| CliError::io(format!("installing signal handlers: {e}")))?;
    }
    Ok(stop)
}
