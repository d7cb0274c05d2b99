//! `pkit bench`: arguments in, tables out. The measuring is the library's
//! (`pkit::bench`); this file picks the bench, sets up the thread pool and the progress
//! bar (on a terminal only), and prints markdown, a terminal table or JSON.

use super::error::{CliError, CliResult, Exit};
use super::io;
use super::output;
use super::token::BackendChoice;
use indicatif::{ProgressBar, ProgressStyle};
use pkit::bench::harness::Harness;
use pkit::bench::machine::{Before, Machine};
use pkit::bench::report::Report;
use pkit::bench::scratch::Scratch;
use pkit::bench::{parse, tables, BenchError};
use pkit::pki::backend::Backend;
use std::path::PathBuf;
use std::time::Duration;

impl From<BenchError> for CliError {
    fn from(e: BenchError) -> Self {
        match e {
            BenchError::Backend(b) => b.into(),
            BenchError::Ca(c) => c.into(),
            BenchError::Store(s) => CliError::io(s.to_string()),
            BenchError::Io(m) => CliError::io(m),
            BenchError::Parse(m) => CliError::parse(m),
            BenchError::Check(m) => CliError::negative(m),
            BenchError::Usage(m) => CliError::usage(m),
            BenchError::Mtc(m) => {
                use pkit::mtc::MtcError as M;
                match m {
                    M::Backend(b) => b.into(),
                    M::Malformed { .. } => CliError::parse(m.to_string()),
                    M::Invalid(_) => CliError::negative(m.to_string()),
                    M::Store(_) => CliError::io(m.to_string()),
                    other => CliError::internal(other.to_string()),
                }
            }
            // A kind this binary does not know yet: not the input's fault.
            other => CliError::internal(other.to_string()),
        }
    }
}

pub fn run(be: &Backend, a: BenchArgs) -> CliResult<Exit> {
    let common = a.common().clone();
    // Read before anything of ours runs: a busy machine measures a share of itself.
    let before = Before::read();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let busy = before.is_busy(cores).then(|| before.describe());
    // Before any thread starts: a SoftHSM2 token is set up through the environment.
    let tokens = Scratch::named("tokens")?;
    let backend = super::token::bench_backend(
        common.backend,
        &tokens.path(""),
        common.nss_db.as_deref(),
        common.pin.as_deref(),
    )?;
    let threads = common.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::usage(format!("--threads {threads}: {e}")))?;
    let bar = progress_bar();
    // Said when the first cell is measured: after the arguments and inputs were taken,
    // so that a refusal stays the one line it is.
    let warned = std::sync::Once::new();
    let progress = |label: &str| {
        warned.call_once(|| {
            if let Some(read) = &busy {
                bar.suspend(|| {
                    note!(
                        "pkit: warning: the machine is busy ({read} on {cores} cores): other \
                         work will take CPU time from the bench, and its figures will be low \
                         and noisy"
                    )
                });
            }
        });
        bar.set_message(label.to_string());
    };
    let h = Harness {
        backend: &backend,
        subscriber_keys: be,
        min_time: common.min_time,
        only: None,
        progress: &progress,
    };
    let report = pool.install(|| run_bench(be, &a.command, h, &tokens, before))?;
    bar.finish_and_clear();
    let text = match common.format {
        Format::Markdown => report.markdown(),
        Format::Table => report.terminal(),
        Format::Json => output::json_text(&output::envelope("bench", vec![report.to_json()])),
    };
    io::write_text(None, false, &text)?;
    Ok(Exit::Ok)
}

/// A spinner naming the cell being measured, on a terminal only.
fn progress_bar() -> ProgressBar {
    if !io::stderr_is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new_spinner();
    b.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    b.enable_steady_tick(Duration::from_millis(120));
    b
}

fn run_bench(
    be: &Backend,
    cmd: &BenchCommand,
    h: Harness<'_>,
    tokens: &Scratch,
    before: Before,
) -> CliResult<Report> {
    let threads = rayon::current_num_threads();
    let command = shown_command(std::env::args().skip(1));
    let (bench, tables) = match cmd {
        BenchCommand::Crypto(a) => {
            let algs = if a.algos.is_empty() {
                tables::default_crypto_algos(h.backend)
            } else {
                a.algos.clone()
            };
            ("crypto", tables::crypto(&h, &algs, &a.batch_sizes)?)
        }
        BenchCommand::Parse(a) => ("parse", parse_tables(be, &h, a)?),
        BenchCommand::X509(a) => {
            let scratch = scratch_for(
                a.scratch_db.db.as_deref(),
                a.scratch_db.db_passin.as_deref(),
                a.force,
            )?;
            let columns = columns(&a.pipeline)?;
            let t = tables::x509(&h, a.ca_key_algo, &a.pipeline.sizes, &columns, &scratch)?;
            ("x509", t)
        }
        BenchCommand::Verify(a) => {
            let roots = parse::load(&a.roots)?;
            let columns = columns(&a.pipeline)?;
            let t = tables::verify(
                &h,
                a.ca_key_algo,
                &a.pipeline.sizes,
                &columns,
                &roots,
                &a.roots,
            )?;
            ("verify", t)
        }
        BenchCommand::Mtc(a) => {
            let scratch = scratch_for(
                a.scratch_db.db.as_deref(),
                a.scratch_db.db_passin.as_deref(),
                true,
            )?;
            let columns = columns(&a.pipeline)?;
            let t = tables::mtc(&h, a.ca_key_algo, &a.pipeline.sizes, &columns, &scratch)?;
            ("mtc", t)
        }
        BenchCommand::Compare(a) if !a.backends.is_empty() => {
            ("compare", compare_backends(&h, a, tokens)?)
        }
        BenchCommand::Compare(a) => {
            let [alg_a, alg_b] = a.algos[..] else {
                return Err(CliError::usage(format!(
                    "--algos: expected two algorithms, found {}",
                    a.algos.len()
                )));
            };
            let t = tables::compare_algorithms(&h, (alg_a, alg_b), &a.ops, &a.pipeline.sizes)?;
            ("compare", t)
        }
    };
    Ok(Report {
        bench: bench.into(),
        command,
        machine: Machine::detect(threads, h.backend, before),
        tables,
    })
}

/// `bench parse`: the datasets (files, the root store, the generated sets), then the
/// seed's tables over them.
fn parse_tables(
    be: &Backend,
    h: &Harness<'_>,
    a: &ParseArgs,
) -> CliResult<Vec<pkit::bench::report::Table>> {
    use pkit::bench::datasets::{self, Synthetic};
    let wanted = if a.files.is_empty() && a.datasets.is_empty() {
        vec![DatasetArg::Roots, DatasetArg::Ccadb, DatasetArg::Mldsa]
    } else {
        a.datasets.clone()
    };
    let kinds: Vec<Option<Synthetic>> = wanted
        .iter()
        .map(|d| match d {
            DatasetArg::Roots => None,
            DatasetArg::Ccadb => Some(Synthetic::Ccadb),
            DatasetArg::Mldsa => Some(Synthetic::MlDsa),
        })
        .collect();
    let cache = a
        .cache_dir
        .clone()
        .unwrap_or_else(datasets::default_cache_dir);
    let sets = tables::parse_datasets(
        be,
        &a.files,
        &kinds,
        a.dataset_size as usize,
        &cache,
        &mut |set, generated, path| match generated {
            Some(secs) => note!(
                "pkit: generated the {} set ({} certificates) in {secs:.1} s; cached at {}",
                set.name,
                set.certs.len(),
                path.display()
            ),
            None => note!("pkit: the {} set read from {}", set.name, path.display()),
        },
    )?;
    Ok(tables::parse(h, &sets)?)
}

/// `bench compare --backends A,B`: the X.509 pipeline's signing and verification stages
/// for each of `--algos` on both backends, compared at the largest batch size; then
/// each token backend's stages against its raw rates from the same run.
fn compare_backends(
    h: &Harness<'_>,
    a: &CompareArgs,
    tokens: &Scratch,
) -> CliResult<Vec<pkit::bench::report::Table>> {
    let [b_a, b_b] = a.backends[..] else {
        return Err(CliError::usage(format!(
            "--backends: expected two backends, found {}",
            a.backends.len()
        )));
    };
    if b_a == b_b {
        return Err(CliError::usage("--backends: name two different backends"));
    }
    if !a.ops.is_empty() {
        return Err(CliError::usage(
            "--ops goes with two algorithms; --backends compares the signing and \
             verification stages",
        ));
    }
    let batch = a.pipeline.sizes.iter().copied().max().unwrap_or(1024);
    let open = |choice: BackendChoice| {
        super::token::bench_backend(
            choice,
            &tokens.path(choice.name()),
            a.common.nss_db.as_deref(),
            a.common.pin.as_deref(),
        )
    };
    let (backend_a, backend_b) = (open(b_a)?, open(b_b)?);
    let side = |choice: BackendChoice, backend| tables::BackendSide {
        name: choice.name(),
        backend,
        raw_limits: choice != BackendChoice::Openssl,
    };
    Ok(tables::compare_backends(
        h,
        [side(b_a, &backend_a), side(b_b, &backend_b)],
        &a.algos,
        batch,
        // The seeds' NSS lacks Ed25519 and ML-DSA: those rows are left out, said.
        &mut |name, alg| note!("pkit: {name} has no {alg}; its rows are left out"),
    )?)
}

/// The command line as the report shows it: a password given inline (`pass:…`) or in a
/// database URL is left out, since reports are pasted into issues and documents.
fn shown_command(args: impl Iterator<Item = String>) -> String {
    let shown = args.map(|a| {
        if pkit::store::url::is_url(&a) {
            pkit::store::url::without_password(&a)
        } else if let Some(i) = a.find("pass:") {
            if i == 0 || a[..i].ends_with('=') {
                format!("{}pass:…", &a[..i])
            } else {
                a
            }
        } else {
            a
        }
    });
    std::iter::once("pkit".to_string())
        .chain(shown)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where a pipeline's database stages run: `--db FILE` (refused when it exists, unless
/// `replace`), or SQLite scratch files and the server a `postgres://` URL names.
fn scratch_for(db: Option<&str>, passin: Option<&str>, replace: bool) -> CliResult<Scratch> {
    let Some(db) = db else {
        return Ok(Scratch::new(None)?);
    };
    if pkit::store::url::is_url(db) {
        let password = passin.map(io::read_secret).transpose()?;
        return Ok(Scratch::with_server(db, password.as_deref())?);
    }
    if passin.is_some() {
        return Err(CliError::usage(format!(
            "--db-passin: {db} is a file, not a database server"
        )));
    }
    let path = PathBuf::from(db);
    if path.exists() && !replace {
        return Err(CliError::io(format!(
            "{}: exists; use --force to replace it",
            path.display()
        )));
    }
    Ok(Scratch::new(Some(&path))?)
}

/// `--columns`, each one of `--sizes`; every size when not given.
fn columns(p: &PipelineOpts) -> CliResult<Vec<u64>> {
    if p.columns.is_empty() {
        return Ok(p.sizes.clone());
    }
    match p.columns.iter().find(|c| !p.sizes.contains(c)) {
        Some(c) => Err(CliError::usage(format!(
            "--columns {c}: not one of --sizes"
        ))),
        None => Ok(p.columns.clone()),
    }
}

mod args;

pub use args::*;

#[cfg(test)]
mod tests;
