//! Certificate parse speed on the system root store, single thread.
//!
//! ```text
//! cargo xtask bench --bench parse -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! Every benchmark iterates over the whole store once (the PEM is decoded before timing
//! starts), so Criterion's `thrpt` line is certificates per second; after the run a
//! `ns/cert` line per benchmark is printed from Criterion's own estimates.
//!
//! - `tlv_walk`: read the TLV headers of the certificate's top two levels (Certificate;
//!   tbsCertificate, signatureAlgorithm, signatureValue; the fields of each) with a bare
//!   `Reader` loop: the headers any typed parser must read, and the floor for one.
//! - `tlv_walk_all`: the same loop descending into every constructed element.
//! - `parse_only`: `Certificate::from_der` (structure checked, fields kept as spans).
//! - `parse_all_fields`: parse, then read what a caller usually wants: version, serial as
//!   hex, issuer and subject as RFC 4514 strings, signature algorithm name, validity
//!   times, SPKI algorithm name and key bytes, signature bytes.
//! - `asn1_tree`: `der::tree::walk`, the generic walk behind `pkit parse -f asn1`.
//!
//! The allocator is mimalloc, as in the `pkit` binary.
//!
//! `PKIT_BENCH_STORE=FILE` replaces the default store (`/etc/ssl/certs/ca-certificates.crt`).
//! `PKIT_BENCH_ONCE=1` runs each workload exactly once over the store without Criterion, in
//! functions named `once_<benchmark>`, for instruction counts under callgrind
//! (`scripts/bench-instructions`). Results: docs/perf.md.

use criterion::{BenchmarkId, Criterion, Throughput};
use pkit::der::{tree, Reader};
use pkit::pki::cert::Certificate;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use pkit::pki::verify::trust_store::SYSTEM_ROOTS;
const GROUP: &str = "parse";

/// The DER of every certificate in the store, or `None` (with a message) when it is absent.
fn load_store() -> Option<(String, Vec<Vec<u8>>)> {
    let path = std::env::var("PKIT_BENCH_STORE").unwrap_or_else(|_| SYSTEM_ROOTS.into());
    let text = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("parse bench: {path}: {e}; nothing to measure");
            return None;
        }
    };
    let ders: Vec<Vec<u8>> = pem::parse_many(&text)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into_iter()
        .filter(|p| p.tag() == "CERTIFICATE")
        .map(pem::Pem::into_contents)
        .collect();
    for (i, d) in ders.iter().enumerate() {
        if let Err(e) = Certificate::from_der(d) {
            panic!("{path}: certificate #{i} does not parse: {e}");
        }
    }
    Some((path, ders))
}

/// Number of TLVs in `r` down to `levels` levels deep, descending into constructed elements.
fn tlv_walk(mut r: Reader<'_>, levels: u32) -> usize {
    let mut n = 0;
    while !r.is_empty() {
        let tlv = r.read_tlv().expect("checked before timing");
        n += 1;
        if levels > 1 && tlv.is_constructed() {
            n += tlv_walk(r.with_base(tlv.content, tlv.content_offset()), levels - 1);
        }
    }
    n
}

/// Certificate → {tbsCertificate, signatureAlgorithm, signatureValue} → their fields.
const TOP_LEVELS: u32 = 3;

/// Touch every field a typical caller reads: the same function `pkit bench parse` times.
fn all_fields(der: &[u8]) -> usize {
    pkit::bench::parse::all_fields(der).expect("checked before timing")
}

// One pass over the store per workload; the timed loops and the callgrind entry points share
// these so both measure the same code.

#[inline]
fn work_tlv_walk(ders: &[Vec<u8>], levels: u32) -> usize {
    let mut n = 0;
    for d in ders {
        n += tlv_walk(Reader::new(black_box(d)), levels);
    }
    n
}

#[inline]
fn work_parse_only(ders: &[Vec<u8>]) {
    for d in ders {
        black_box(Certificate::from_der(black_box(d)).expect("checked before timing"));
    }
}

#[inline]
fn work_parse_all_fields(ders: &[Vec<u8>]) -> usize {
    let mut n = 0;
    for d in ders {
        n += all_fields(black_box(d));
    }
    n
}

#[inline]
fn work_asn1_tree(ders: &[Vec<u8>]) {
    for d in ders {
        black_box(tree::walk(Reader::new(black_box(d))).expect("checked before timing"));
    }
}

const IDS: [&str; 5] = [
    "tlv_walk",
    "tlv_walk_all",
    "parse_only",
    "parse_all_fields",
    "asn1_tree",
];

fn bench_parse(c: &mut Criterion) {
    let Some((path, ders)) = load_store() else {
        return;
    };
    let total: usize = ders.iter().map(Vec::len).sum();
    eprintln!(
        "parse bench: {} certificates, {} bytes of DER, from {path}",
        ders.len(),
        total
    );
    // Check the all-fields path once outside the timed loop, so a failure is a clear panic.
    for d in &ders {
        let c = Certificate::from_der(d).unwrap();
        c.issuer.to_rfc4514().unwrap();
        c.subject.to_rfc4514().unwrap();
        c.validity().unwrap();
        tlv_walk(Reader::new(d), u32::MAX);
    }
    let top: usize = ders
        .iter()
        .map(|d| tlv_walk(Reader::new(d), TOP_LEVELS))
        .sum();
    let all: usize = ders
        .iter()
        .map(|d| tlv_walk(Reader::new(d), u32::MAX))
        .sum();
    eprintln!(
        "parse bench: TLVs per certificate: {:.1} in the top levels, {:.1} in all",
        top as f64 / ders.len() as f64,
        all as f64 / ders.len() as f64
    );

    let mut g = c.benchmark_group(GROUP);
    g.throughput(Throughput::Elements(ders.len() as u64));
    g.bench_function(BenchmarkId::from_parameter("tlv_walk"), |b| {
        b.iter(|| work_tlv_walk(&ders, TOP_LEVELS))
    });
    g.bench_function(BenchmarkId::from_parameter("tlv_walk_all"), |b| {
        b.iter(|| work_tlv_walk(&ders, u32::MAX))
    });
    g.bench_function(BenchmarkId::from_parameter("parse_only"), |b| {
        b.iter(|| work_parse_only(&ders))
    });
    g.bench_function(BenchmarkId::from_parameter("parse_all_fields"), |b| {
        b.iter(|| work_parse_all_fields(&ders))
    });
    g.bench_function(BenchmarkId::from_parameter("asn1_tree"), |b| {
        b.iter(|| work_asn1_tree(&ders))
    });
    g.finish();
    STORE_SIZE.set(ders.len()).ok();
}

static STORE_SIZE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();

/// Where Criterion writes its estimates: `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`,
/// else `target/criterion` in the package. Set explicitly so the summary reads the same place.
fn criterion_home() -> PathBuf {
    if let Some(d) = std::env::var_os("CRITERION_HOME") {
        return d.into();
    }
    if let Some(d) = std::env::var_os("CARGO_TARGET_DIR") {
        return Path::new(&d).join("criterion");
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/criterion")
}

/// One `ns/cert` line per benchmark measured in this run (Criterion's mean and median
/// estimates divided by the number of certificates).
fn print_per_cert(home: &Path, started: SystemTime) {
    let Some(&n) = STORE_SIZE.get() else { return };
    let mut lines = Vec::new();
    for id in IDS {
        let f = home.join(GROUP).join(id).join("new/estimates.json");
        let fresh = std::fs::metadata(&f)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t >= started);
        if !fresh {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let est = |k: &str| v[k]["point_estimate"].as_f64().map(|ns| ns / n as f64);
        if let (Some(mean), Some(median)) = (est("mean"), est("median")) {
            lines.push(format!(
                "{GROUP}/{id:<17} {mean:>9.1} ns/cert (mean)  {median:>9.1} ns/cert (median)"
            ));
        }
    }
    if !lines.is_empty() {
        println!("\nper certificate ({n} certificates per iteration):");
        for l in lines {
            println!("  {l}");
        }
    }
}

// Entry points for callgrind (`PKIT_BENCH_ONCE=1`): never inlined, so their inclusive
// instruction counts are exactly one pass of each workload.

#[inline(never)]
fn once_tlv_walk(ders: &[Vec<u8>]) -> usize {
    work_tlv_walk(ders, TOP_LEVELS)
}
#[inline(never)]
fn once_tlv_walk_all(ders: &[Vec<u8>]) -> usize {
    work_tlv_walk(ders, u32::MAX)
}
#[inline(never)]
fn once_parse_only(ders: &[Vec<u8>]) {
    work_parse_only(ders)
}
#[inline(never)]
fn once_parse_all_fields(ders: &[Vec<u8>]) -> usize {
    work_parse_all_fields(ders)
}
#[inline(never)]
fn once_asn1_tree(ders: &[Vec<u8>]) {
    work_asn1_tree(ders)
}

fn run_once() {
    let Some((path, ders)) = load_store() else {
        return;
    };
    // Warm up (first-use initialisation, allocator pools) outside the counted functions.
    work_tlv_walk(&ders, u32::MAX);
    work_parse_only(&ders);
    work_parse_all_fields(&ders);
    work_asn1_tree(&ders);
    black_box(once_tlv_walk(black_box(&ders)));
    black_box(once_tlv_walk_all(black_box(&ders)));
    once_parse_only(black_box(&ders));
    black_box(once_parse_all_fields(black_box(&ders)));
    once_asn1_tree(black_box(&ders));
    println!(
        "ran once_{{{}}} over {} certificates from {path}",
        IDS.join(","),
        ders.len()
    );
}

fn main() {
    if std::env::var_os("PKIT_BENCH_ONCE").is_some_and(|v| v == "1") {
        run_once();
        return;
    }
    let started = SystemTime::now();
    let home = criterion_home();
    {
        let mut c = Criterion::default()
            .output_directory(&home)
            .configure_from_args();
        bench_parse(&mut c);
        c.final_summary();
    }
    // `cargo test --benches` runs each benchmark once without measuring; nothing to report.
    if std::env::args().any(|a| a == "--bench") {
        print_per_cert(&home, started);
    }
}
