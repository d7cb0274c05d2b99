//! Merkle Tree Certificate log speed, single thread.
//!
//! ```text
//! cargo xtask bench --bench mtc
//! ```
//!
//! - `mtc/tree_build/1048576` (Criterion): [`MemTree::from_leaves`] plus the root over
//!   2^20 pre-computed leaf hashes; the `thrpt` line is leaves per second.
//! - `tree_10m` (one-shot, after Criterion): 10,000,000 pre-computed leaf hashes → every
//!   complete node and the checkpoint root; prints the best of three wall times and the
//!   process's peak resident memory (`VmHWM`, which includes the leaf hashes themselves).
//! - `db_append` (one-shot): 1,000,000 pre-generated ~700-byte entries appended to a fresh
//!   `mtc.db` ([`pkit::mtc::store::LogStore::append_entries`], chunks of 10,000), leaf
//!   hashing included; prints entries per second.
//!
//! `PKIT_BENCH_MTC_LEAVES` and `PKIT_BENCH_MTC_ENTRIES` change the two one-shot sizes.
//! The allocator is mimalloc, as in the `pkit` binary. Results: docs/perf.md.

use criterion::{BenchmarkId, Criterion, Throughput};
use pkit::mtc::hash::{leaf_hash, Hash};
use pkit::mtc::store::{open, NewEntry};
use pkit::mtc::tree::MemTree;
use std::hint::black_box;
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn leaves(n: u64) -> Vec<Hash> {
    (0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect()
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn bench_tree(c: &mut Criterion) {
    let n = 1u64 << 20;
    let base = leaves(n);
    let mut g = c.benchmark_group("mtc");
    g.throughput(Throughput::Elements(n));
    g.sample_size(20);
    g.bench_function(BenchmarkId::new("tree_build", n), |b| {
        b.iter_batched(
            || base.clone(),
            |l| black_box(MemTree::from_leaves(l).root()),
            criterion::BatchSize::LargeInput,
        )
    });
    g.finish();
}

/// Peak resident set size of this process in MiB.
fn peak_rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}

fn tree_10m() {
    let n = env_u64("PKIT_BENCH_MTC_LEAVES", 10_000_000);
    let mut best = f64::MAX;
    for _ in 0..3 {
        let l = leaves(n);
        let t = Instant::now();
        let tree = MemTree::from_leaves(l);
        let root = black_box(tree.root());
        best = best.min(t.elapsed().as_secs_f64());
        drop(tree);
        black_box(root);
    }
    println!(
        "tree_10m: {n} leaves -> root in {best:.3} s ({:.1} ns/leaf), peak RSS {} MiB",
        best * 1e9 / n as f64,
        peak_rss_mib()
    );
}

/// ~700 bytes: an MTCLogEntry-sized blob that differs per index.
fn entry_bytes(i: u64) -> Vec<u8> {
    let mut e = vec![0u8; 700];
    e[..8].copy_from_slice(&i.to_be_bytes());
    e[690..698].copy_from_slice(&i.wrapping_mul(0x9e37_79b9_7f4a_7c15).to_be_bytes());
    e
}

fn db_append() {
    let n = env_u64("PKIT_BENCH_MTC_ENTRIES", 1_000_000);
    let spki = vec![0x30u8; 91];
    let raw: Vec<Vec<u8>> = (0..n).map(entry_bytes).collect();
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("db_append: temporary directory: {e}");
            return;
        }
    };
    let Ok(mut store) = open(&dir.path().join("mtc.db")) else {
        eprintln!("db_append: cannot open mtc.db");
        return;
    };
    // As `pkit mtc add --from` does.
    if let Err(e) = store.prepare_bulk_append() {
        eprintln!("db_append: {e}");
        return;
    }
    let t = Instant::now();
    let mut it = raw.into_iter();
    loop {
        let batch: Vec<NewEntry> = it
            .by_ref()
            .take(10_000)
            .map(|e| NewEntry {
                leaf: leaf_hash(&e),
                entry: e,
                spki: spki.clone(),
            })
            .collect();
        if batch.is_empty() {
            break;
        }
        if let Err(e) = store.append_entries(&batch) {
            eprintln!("db_append: {e}");
            return;
        }
    }
    // The last checkpoint belongs to the append.
    drop(store);
    let s = t.elapsed().as_secs_f64();
    println!(
        "db_append: {n} entries of 700 bytes in {s:.2} s ({:.0} entries/s)",
        n as f64 / s
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_tree(&mut c);
    c.final_summary();
    // `cargo test --benches` runs each benchmark once without measuring; skip the big ones.
    if std::env::args().any(|a| a == "--bench") {
        tree_10m();
        db_append();
    }
}
