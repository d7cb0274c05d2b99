//! Each bench run and laid out as the seed documents lay it out: the tables, their titles
//! and the notes that say what was measured. `pkit bench` picks one by its arguments and
//! prints what comes back; `benches/` and the tests call the same functions.

use super::compare;
use super::crypto;
use super::datasets::{self, Dataset, Synthetic};
use super::ed25519_batch;
use super::harness::Harness;
use super::mtc;
use super::parse;
use super::parse_tables as pt;
use super::report::{pipeline_table, Table};
use super::scratch::Scratch;
use super::sizes;
use super::verify;
use super::x509;
use super::{BenchError, Result};
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;
use std::path::{Path, PathBuf};

/// The note that says which server the `db_` rows measured, when one did.
fn server_note(scratch: &Scratch) -> Option<String> {
    scratch.server_shown().map(|url| {
        format!(
            "db_ rows: PostgreSQL at {url}, schemas pkit_bench_*; db_…_sqlite rows: the \
             same stages and rows on SQLite (WAL), in the same run."
        )
    })
}

fn threads() -> usize {
    rayon::current_num_threads()
}

/// The results title every pipeline table shares.
fn title(alg: Algorithm) -> String {
    format!("Results: {}", alg.name())
}

/// Every algorithm `backend` supports, less the slow RSA sizes: `bench crypto`'s default.
pub fn default_crypto_algos(backend: &Backend) -> Vec<Algorithm> {
    Algorithm::ALL
        .into_iter()
        .filter(|a| !matches!(a, Algorithm::Rsa3072 | Algorithm::Rsa4096) && backend.supports(*a))
        .collect()
}

/// `bench crypto`: the raw limits of `algs`, and Ed25519's batch verification at
/// `batch_sizes` when Ed25519 is among them.
pub fn crypto(h: &Harness<'_>, algs: &[Algorithm], batch_sizes: &[usize]) -> Result<Vec<Table>> {
    let limits = crypto::run(h, algs)?;
    let mut tables = vec![crypto::table(&limits, threads())];
    if algs.contains(&Algorithm::Ed25519) {
        let rows = ed25519_batch::run(h, batch_sizes)?;
        tables.push(ed25519_batch::table(&rows, threads(), h.backend));
    }
    Ok(tables)
}

/// `bench x509`: the issuing pipeline at each of `sizes` (the table shows `columns`),
/// with the sizes of what it made.
pub fn x509(
    h: &Harness<'_>,
    alg: Algorithm,
    sizes: &[u64],
    columns: &[u64],
    scratch: &Scratch,
) -> Result<Vec<Table>> {
    let run = x509::run(h, alg, sizes, scratch)?;
    let mut notes = vec![format!(
        "Configuration: {} for both CA and subscriber keys; {} threads.",
        alg.name(),
        threads()
    )];
    notes.extend(server_note(scratch));
    Ok(vec![
        pipeline_table(title(alg), notes, &run.rows, columns),
        sizes::table(&[&run]),
    ])
}

/// `bench verify`: chains of `alg` verified at each of `sizes`, against `roots` (read
/// from `roots_from`) indexed as a trust store.
pub fn verify(
    h: &Harness<'_>,
    alg: Algorithm,
    sizes: &[u64],
    columns: &[u64],
    roots: &[Vec<u8>],
    roots_from: &Path,
) -> Result<Vec<Table>> {
    let rows = verify::run(h, alg, sizes, roots)?;
    let notes = vec![format!(
        "Configuration: {} root, intermediate and leaves; {} roots indexed from {}; \
         {} threads.",
        alg.name(),
        roots.len(),
        roots_from.display(),
        threads()
    )];
    Ok(vec![pipeline_table(title(alg), notes, &rows, columns)])
}

/// `bench mtc`: the MTC issuing pipeline at each of `sizes`, with the sizes of what it
/// made.
pub fn mtc(
    h: &Harness<'_>,
    alg: Algorithm,
    sizes: &[u64],
    columns: &[u64],
    scratch: &Scratch,
) -> Result<Vec<Table>> {
    let run = mtc::run(h, alg, sizes, scratch)?;
    let mut notes = vec![format!(
        "Configuration: SHA-256 Merkle hash; {} CA and subscriber keys; {} \
         threads. Proofs are standalone certificates': each leads to the covering \
         subtree of [0, N) that holds its entry and carries that subtree's \
         cosignature; the db_ stages write and read mtc.db's tables as pkit mtc \
         cert does.",
        alg.name(),
        threads()
    )];
    notes.extend(server_note(scratch));
    Ok(vec![
        pipeline_table(title(alg), notes, &run.rows, columns),
        sizes::mtc_table(&[&run]),
    ])
}

/// `bench compare` of two algorithms: the operations `ops` (names of
/// [`x509::OPERATIONS`]; [`compare::DEFAULT_OPS`] when empty) side by side.
pub fn compare_algorithms(
    h: &Harness<'_>,
    algs: (Algorithm, Algorithm),
    ops: &[String],
    sizes: &[u64],
) -> Result<Vec<Table>> {
    let ops: Vec<String> = if ops.is_empty() {
        compare::DEFAULT_OPS.iter().map(|s| s.to_string()).collect()
    } else {
        ops.to_vec()
    };
    if let Some(bad) = ops
        .iter()
        .find(|o| !x509::OPERATIONS.iter().any(|(n, _)| n == o))
    {
        return Err(BenchError::Usage(format!(
            "--ops {bad}: not an operation; valid: {}",
            x509::OPERATIONS.map(|(n, _)| n).join(", ")
        )));
    }
    let h = Harness {
        only: Some(ops.clone()),
        ..*h
    };
    let scratch = Scratch::new(None)?;
    let ra = x509::run(&h, algs.0, sizes, &scratch)?;
    let rb = x509::run(&h, algs.1, sizes, &scratch)?;
    let mut tables = compare::tables(&ra, &rb, &ops);
    tables.push(sizes::table(&[&ra, &rb]));
    Ok(tables)
}

/// The datasets `bench parse` reads: `files`, then the kinds `wanted` (the system's
/// root store, or a synthetic set of `size` certificates made from it and cached in
/// `cache`). `made` hears of each synthetic set: whether it was generated (and in how
/// many seconds) or read from the cache, and where the cache is.
pub fn parse_datasets(
    backend: &Backend,
    files: &[PathBuf],
    wanted: &[Option<Synthetic>],
    size: usize,
    cache: &Path,
    made: &mut dyn FnMut(&Dataset, Option<f64>, &Path),
) -> Result<Vec<Dataset>> {
    let mut sets: Vec<Dataset> = Vec::new();
    for f in files {
        let certs = parse::load(f)?;
        let roots = certs.len();
        sets.push(Dataset {
            name: f.display().to_string(),
            certs,
            roots,
        });
    }
    let template = if wanted.is_empty() {
        Vec::new()
    } else {
        parse::load(Path::new(pkit_verify::trust_store::SYSTEM_ROOTS))?
    };
    for kind in wanted {
        let Some(kind) = *kind else {
            sets.push(Dataset {
                name: "root store".into(),
                certs: template.clone(),
                roots: template.len(),
            });
            continue;
        };
        let started = std::time::Instant::now();
        let (set, generated) = datasets::synthetic(backend, kind, size, &template, cache)?;
        let path = datasets::cache_path(cache, kind, size);
        made(
            &set,
            generated.then(|| started.elapsed().as_secs_f64()),
            &path,
        );
        sets.push(set);
    }
    Ok(sets)
}

/// `bench parse` over `sets`: for each the one-thread and all-threads workloads, then
/// the seed's tables over all of them.
pub fn parse(h: &Harness<'_>, sets: &[Dataset]) -> Result<Vec<Table>> {
    let mut tables = Vec::new();
    for ds in sets {
        let rows = parse::run(h, &ds.certs)?;
        let bytes = ds.certs.iter().map(Vec::len).sum();
        tables.push(parse::table(
            &rows,
            &ds.name,
            ds.certs.len(),
            bytes,
            threads(),
        ));
    }
    let mut through = Vec::new();
    let mut singles = Vec::new();
    for ds in sets {
        through.extend(pt::throughput(h, ds)?);
        singles.push(pt::single(h, ds)?);
    }
    tables.push(pt::throughput_table(&through));
    tables.push(pt::single_table(&singles));
    let fields = pt::fields(h, sets)?;
    tables.push(pt::fields_table(sets, &fields));
    tables.push(pt::scalability(h, sets)?);
    if let Some(first) = sets.first() {
        tables.push(super::bundles::table(h, &first.certs)?);
    }
    tables.push(super::asn1::table(h)?);
    tables.push(pt::memory(sets)?);
    Ok(tables)
}

/// One side of `bench compare --backends`: a backend under its name, and whether its raw
/// limits are measured beside its pipeline (for token backends, whose limits are the
/// interesting figure; the software backend's are `bench crypto`'s).
pub struct BackendSide<'a> {
    /// The backend's name, as the tables show it.
    pub name: &'a str,
    /// The backend.
    pub backend: &'a Backend,
    /// Measure its raw limits too.
    pub raw_limits: bool,
}

/// `bench compare --backends A,B`: the X.509 pipeline's signing and verification stages
/// ([`super::backends::OPS`]) for each of `algs` on both backends at `batch`, side by
/// side; then each side with raw limits against them. `skipped` hears of each algorithm
/// a backend lacks (its rows are left out).
pub fn compare_backends(
    h: &Harness<'_>,
    sides: [BackendSide<'_>; 2],
    algs: &[Algorithm],
    batch: u64,
    skipped: &mut dyn FnMut(&str, Algorithm),
) -> Result<Vec<Table>> {
    use super::backends::{self, BackendRuns};
    let ops: Vec<String> = backends::OPS.iter().map(|s| s.to_string()).collect();
    let scratch = Scratch::new(None)?;
    let mut measured = Vec::new();
    for side in &sides {
        let hb = Harness {
            backend: side.backend,
            only: Some(ops.clone()),
            ..*h
        };
        let mut runs = Vec::new();
        let mut supported = Vec::new();
        for &alg in algs {
            if !side.backend.supports(alg) {
                skipped(side.name, alg);
                continue;
            }
            runs.push(x509::run(&hb, alg, &[batch], &scratch)?);
            supported.push(alg);
        }
        let limits = if side.raw_limits {
            crypto::run(&Harness { only: None, ..hb }, &supported)?
        } else {
            Vec::new()
        };
        measured.push((side.name, runs, limits));
    }
    let runs_of = |i: usize| BackendRuns {
        name: measured[i].0,
        runs: &measured[i].1,
    };
    let mut tables = vec![backends::table(&runs_of(0), &runs_of(1), batch)];
    for (name, runs, limits) in &measured {
        if !limits.is_empty() {
            tables.push(backends::against_raw(name, runs, limits, batch));
            let mut raw = crypto::table(limits, threads());
            raw.title = format!("{name}: {}", raw.title);
            tables.push(raw);
        }
    }
    Ok(tables)
}
