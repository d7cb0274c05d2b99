//! `pkit bench` through the binary: each bench at `--sizes 1,4 --min-time 0.05s`, checking
//! the table shape, the operation names, that JSON parses and that every number is
//! positive. No timing assertions: CI machines vary too much.

mod common;

use common::*;
use serde_json::Value;

const FAST: [&str; 2] = ["--min-time", "0.05s"];

/// Run `pkit bench ARGS --min-time 0.05s [-f json]` and return stdout.
fn bench(args: &[&str], json: bool) -> String {
    let mut all: Vec<&str> = vec!["bench"];
    all.extend_from_slice(args);
    all.extend_from_slice(&FAST);
    if json {
        all.extend_from_slice(&["-f", "json"]);
    }
    pk_ok(&all).stdout_str()
}

/// The markdown table rows (lines starting with `|`) of the section titled `title`.
fn section_rows(md: &str, title: &str) -> Vec<Vec<String>> {
    let start = md
        .find(&format!("## {title}"))
        .unwrap_or_else(|| panic!("no section '{title}' in:\n{md}"));
    md[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// A number at the start of a cell ("0.12 ms", "1,597", "3.2 K", "1.5×").
fn number(cell: &str) -> f64 {
    let n: String = cell
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .filter(|c| *c != ',')
        .collect();
    n.parse()
        .unwrap_or_else(|_| panic!("expected a number in '{cell}'"))
}

fn json_tables(out: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(out).expect("bench -f json is JSON");
    assert_eq!(v["schema"], "pkit/v1");
    assert_eq!(v["type"], "bench");
    let item = &v["items"][0];
    assert!(item["machine"]["cpu"].is_string(), "{item}");
    assert!(item["machine"]["threads"].as_u64().unwrap() >= 1);
    // The load before the bench ran, and the cores busy just before it, so busy figures
    // can be told apart.
    for field in ["load_before", "busy_cores_before"] {
        assert!(
            item["machine"][field].as_f64().is_some_and(|l| l >= 0.0),
            "{field}: {item}"
        );
    }
    item["tables"].as_array().expect("tables").clone()
}

/// Every `mean_ms`, `min_ms`, `max_ms`, `per_second`, `repetitions`, `items` in `v` is
/// > 0, and there are some: a renamed field must not leave nothing to check.
fn all_positive(v: &Value) {
    assert!(positive_numbers(v) > 0, "no measurements found in {v}");
}

/// [`all_positive`]'s walk: asserts each measurement it finds and counts them.
fn positive_numbers(v: &Value) -> usize {
    match v {
        Value::Object(m) => m
            .iter()
            .map(|(k, x)| {
                let here = [
                    "mean_ms",
                    "min_ms",
                    "max_ms",
                    "per_second",
                    "repetitions",
                    "items",
                ]
                .contains(&k.as_str());
                if here {
                    assert!(x.as_f64().is_some_and(|f| f > 0.0), "{k} = {x}");
                }
                usize::from(here) + positive_numbers(x)
            })
            .sum(),
        Value::Array(a) => a.iter().map(positive_numbers).sum(),
        _ => 0,
    }
}

#[test]
fn crypto_reports_keygen_sign_verify_per_algorithm() {
    let md = bench(&["crypto", "--algos", "ecdsa-p256,ml-dsa-44"], false);
    for h in [
        "CPU:",
        "Threads used:",
        "Memory:",
        "OS:",
        "Crypto: OpenSSL",
        "pkit:",
        "Date:",
    ] {
        assert!(md.contains(h), "header {h} missing:\n{md}");
    }
    let rows = section_rows(&md, "Raw limits");
    assert_eq!(rows[0][0], "Algorithm");
    let body: Vec<_> = rows.iter().skip(2).collect();
    let names: Vec<(String, String)> = body.iter().map(|r| (r[0].clone(), r[1].clone())).collect();
    for alg in ["ecdsa-p256", "ml-dsa-44"] {
        for op in ["keygen", "sign", "verify"] {
            assert!(
                names.contains(&(alg.into(), op.into())),
                "{alg} {op}: {names:?}"
            );
        }
    }
    for r in &body {
        assert_eq!(r.len(), 6);
        for c in &r[2..] {
            assert!(number(c) > 0.0, "{r:?}");
        }
    }
    let json = bench(
        &["crypto", "--algos", "ed25519", "--batch-sizes", "8,16"],
        true,
    );
    let tables = json_tables(&json);
    all_positive(&Value::Array(tables.clone()));
    assert_eq!(
        tables[0]["rows"].as_array().unwrap().len(),
        4,
        "3 ops + sha256"
    );
    // The playbook's table: single verify, then each size serial and parallel.
    let batch = tables[1]["rows"].as_array().unwrap();
    let shape: Vec<(u64, &str)> = batch
        .iter()
        .map(|r| (r["n"].as_u64().unwrap(), r["mode"].as_str().unwrap()))
        .collect();
    assert_eq!(
        shape,
        [
            (1, "single verify"),
            (8, "verify_batch, serial"),
            (8, "verify_batch, parallel"),
            (16, "verify_batch, serial"),
            (16, "verify_batch, parallel"),
        ]
    );
}

#[test]
fn crypto_prints_the_ed25519_batch_table() {
    let md = bench(
        &["crypto", "--algos", "ed25519", "--batch-sizes", "4,8"],
        false,
    );
    let rows = section_rows(&md, "Ed25519 batch verification");
    assert_eq!(
        rows[0],
        [
            "N",
            "Mode",
            "Batch time (µs)",
            "Elements/s",
            "µs/verify",
            "× single verify"
        ]
    );
    assert_eq!(
        rows.len(),
        2 + 5,
        "header, rule, single + 2 sizes × 2 modes"
    );
    for r in &rows[2..] {
        for c in [&r[0], &r[2], &r[3], &r[4], &r[5]] {
            assert!(number(c) > 0.0, "{r:?}");
        }
    }
    // Without Ed25519 among the algorithms there is no batch table.
    let md = bench(&["crypto", "--algos", "ecdsa-p256"], false);
    assert!(!md.contains("Ed25519 batch"), "{md}");
    let bad = pk(&["bench", "crypto", "--batch-sizes", "1"]);
    assert_eq!(bad.code, Some(2), "{}", bad.describe());
}

#[test]
fn parse_reports_both_workloads() {
    let dir = tempdir();
    let certs = root_store();
    let bundle: String = certs.iter().take(20).map(|c| c.pem.clone()).collect();
    let f = write_file(dir.path(), "bundle.pem", bundle.as_bytes());
    let md = bench(&["parse", &s(&f)], false);
    let rows = section_rows(&md, "Certificate parsing");
    assert_eq!(rows[0].len(), 5);
    assert_eq!(rows[2][0], "parse-only");
    assert_eq!(rows[3][0], "parse+fields");
    for r in &rows[2..] {
        for c in &r[1..] {
            assert!(number(c) > 0.0, "{r:?}");
        }
    }
    assert!(md.contains("20 certificates"), "{md}");
    let tables = json_tables(&bench(&["parse", &s(&f)], true));
    all_positive(&Value::Array(tables));
    // A file that is not a certificate: exit 3, one line naming it.
    let bad = write_file(dir.path(), "bad.der", &[0x30, 0x03, 0x02, 0x01]);
    let run = pk(&["bench", "parse", &s(&bad), "--min-time", "0.05s"]);
    assert_eq!(run.code, Some(3), "{}", run.describe());
    assert!(run.stderr_str().contains("bad.der"), "{}", run.describe());
}

/// The x509 operation names in table order (CRL stages included once they run).
/// The parse document's tables over a generated set: made once, cached, read again.
#[test]
fn parse_generates_caches_and_tabulates_datasets() {
    let dir = tempdir();
    let cache = s(&dir.path().join("cache"));
    let args = [
        "parse",
        "--datasets",
        "roots,ccadb,mldsa",
        "--dataset-size",
        "60",
        "--cache-dir",
        &cache,
    ];
    let mut all: Vec<&str> = vec!["bench"];
    all.extend_from_slice(&args);
    all.extend_from_slice(&FAST);
    let first = pk_ok(&all);
    assert!(
        first
            .stderr_str()
            .contains("generated the CCADB-shaped set (60 certificates)"),
        "{}",
        first.describe()
    );
    assert!(
        first.stderr_str().contains("cached at"),
        "{}",
        first.describe()
    );
    let md = first.stdout_str();
    let rows = section_rows(&md, "Throughput Results");
    for op in [
        "parse_all",
        "parse_and_access",
        "parse_roots",
        "parse_intermediates",
        "build_trust_chain",
        "build_dependency_tree",
    ] {
        let hits: Vec<_> = rows.iter().filter(|r| r[0] == format!("`{op}`")).collect();
        let want = if op.starts_with("parse_r") || op.starts_with("parse_i") {
            2
        } else {
            3
        };
        assert_eq!(hits.len(), want, "{op}: {rows:?}");
        for r in hits {
            assert!(number(&r[2]) > 0.0, "{r:?}");
        }
    }
    let single = section_rows(&md, "Single-Certificate Performance");
    assert_eq!(single.len(), 2 + 3, "{single:?}");
    let fields = section_rows(&md, "Per-Field Access Latency");
    assert_eq!(fields.len(), 2 + 10, "{fields:?}");
    for r in &fields[2..] {
        for c in &r[1..4] {
            assert!(number(c) > 0.0, "{r:?}");
        }
    }
    let sizes = section_rows(&md, "Certificate Size Scalability");
    assert_eq!(
        sizes.len(),
        2 + 4,
        "small, medium, large, growth: {sizes:?}"
    );
    for r in &sizes[2..5] {
        assert!(number(&r[1]) > 0.0 && number(&r[2]) > 0.0, "{r:?}");
    }
    let p7 = section_rows(&md, "PKCS#7 and PKCS#12 Certificate Extraction");
    assert_eq!(p7.len(), 2 + 4, "{p7:?}");
    assert!(p7.iter().skip(2).all(|r| number(&r[3]) > 0.0), "{p7:?}");
    let prims = section_rows(&md, "ASN.1 Primitive Performance");
    assert!(prims.len() >= 2 + 12, "{prims:?}");
    assert!(
        prims.iter().skip(2).all(|r| number(&r[1]) > 0.0),
        "{prims:?}"
    );
    let mem = section_rows(&md, "Memory");
    assert_eq!(mem.len(), 2 + 3, "{mem:?}");
    assert!(md.contains("Peak resident set"), "{md}");
    // Read from the cache the second time, with the same figures' shape in JSON.
    all.extend_from_slice(&["-f", "json"]);
    let again = pk_ok(&all);
    assert!(
        again.stderr_str().contains("read from"),
        "{}",
        again.describe()
    );
    all_positive(&Value::Array(json_tables(&again.stdout_str())));
}

fn x509_ops(md: &str, title: &str) -> Vec<String> {
    section_rows(md, title)
        .iter()
        .skip(2)
        .map(|r| r[0].trim_matches('`').to_string())
        .collect()
}

#[test]
fn x509_has_every_operation_for_each_size() {
    let dir = tempdir();
    let db = dir.path().join("x.sqlite");
    for alg in ["ecdsa-p256", "ml-dsa-44"] {
        let md = bench(
            &[
                "x509",
                "--sizes",
                "1,4",
                "--ca-key-algo",
                alg,
                "--db",
                &s(&db),
                "--force",
            ],
            false,
        );
        let rows = section_rows(&md, &format!("Results: {alg}"));
        assert_eq!(
            rows[0],
            [
                "Operation",
                "B1 ms",
                "Tput K/s",
                "B4 ms",
                "Tput K/s",
                "Notes"
            ]
        );
        let ops = x509_ops(&md, &format!("Results: {alg}"));
        let want: Vec<&str> = pkit_x509_ops();
        assert_eq!(ops, want, "{md}");
        for r in rows.iter().skip(2) {
            for c in &r[1..5] {
                assert!(number(c) > 0.0, "{r:?}");
            }
        }
        let sizes = section_rows(&md, "Encoded sizes");
        assert_eq!(sizes[2][0], alg);
        assert!(number(&sizes[2][1]) > 300.0, "{sizes:?}");
    }
    assert!(db.exists(), "--db keeps the last CA's database");
    // Without --force an existing database is refused (exit 4).
    let run = pk(&[
        "bench",
        "x509",
        "--sizes",
        "1",
        "--db",
        &s(&db),
        "--min-time",
        "0.05s",
    ]);
    assert_eq!(run.code, Some(4), "{}", run.describe());

    let json = bench(
        &["x509", "--sizes", "1,4", "--ca-key-algo", "ed25519"],
        true,
    );
    let tables = json_tables(&json);
    all_positive(&Value::Array(tables.clone()));
    let ops = tables[0]["operations"].as_array().unwrap();
    assert_eq!(ops.len(), pkit_x509_ops().len());
    for op in ops {
        let cells = op["cells"].as_array().unwrap();
        let batches: Vec<u64> = cells.iter().map(|c| c["batch"].as_u64().unwrap()).collect();
        assert_eq!(batches, [1, 4], "{op}");
    }
}

#[test]
fn compare_prints_one_sweep_table_per_operation() {
    let md = bench(
        &[
            "compare",
            "--algos",
            "ecdsa-p256,ml-dsa-44",
            "--sizes",
            "1,4",
        ],
        false,
    );
    for op in [
        "cert_gen",
        "cert_verify",
        "ocsp_sign",
        "ocsp_verify",
        "db_insert_certs",
    ] {
        let rows = section_rows(&md, op);
        assert_eq!(
            rows[0],
            [
                "Batch",
                "ecdsa-p256 ms",
                "ecdsa-p256 K/s",
                "ml-dsa-44 ms",
                "ml-dsa-44 K/s",
                "Ratio"
            ],
            "{op}"
        );
        assert_eq!(rows.len(), 4, "{op}: header, rule, two batches");
        for r in &rows[2..] {
            for c in r {
                assert!(number(c) > 0.0, "{op}: {r:?}");
            }
        }
    }
    let run = pk(&["bench", "compare", "--ops", "nope", "--sizes", "1"]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
}

#[test]
fn mtc_has_every_measured_operation() {
    let md = bench(
        &["mtc", "--sizes", "1,4", "--ca-key-algo", "ecdsa-p256"],
        false,
    );
    let ops = x509_ops(&md, "Results: ecdsa-p256");
    assert_eq!(
        ops,
        [
            "cert_gen",
            "entry_convert",
            "leaf_hash",
            "db_insert_entries",
            "tree_build",
            "proof_gen_all",
            "proof_gen_one",
            "checkpoint_create",
            "db_insert_checkpoint",
            "proof_encode",
            "db_insert_proofs",
            "standalone_build",
            "standalone_encode",
            "db_insert_standalone",
            "proof_verify_one",
            "proof_verify_all",
            "standalone_verify",
            "db_read_entries",
            "db_read_standalone",
        ]
    );
    for r in section_rows(&md, "Results: ecdsa-p256").iter().skip(2) {
        for c in &r[1..5] {
            assert!(number(c) > 0.0, "{r:?}");
        }
    }
    let sizes = section_rows(&md, "MTC encoded sizes");
    assert_eq!(sizes[2][0], "ecdsa-p256");
    for c in &sizes[2][1..] {
        assert!(number(c) > 30.0, "{sizes:?}");
    }
    let tables = json_tables(&bench(
        &["mtc", "--sizes", "1,4", "--ca-key-algo", "ml-dsa-44"],
        true,
    ));
    all_positive(&Value::Array(tables));
}

/// The operations `pkit bench x509` reports, in order.
fn pkit_x509_ops() -> Vec<&'static str> {
    vec![
        "ca_self_sign",
        "cert_gen",
        "db_insert_certs",
        "cert_verify",
        "db_read_certs",
        "crl_build",
        "crl_sign",
        "db_insert_crl",
        "crl_verify",
        "db_read_crl",
        "ocsp_build",
        "ocsp_sign",
        "db_insert_ocsp",
        "ocsp_verify",
        "db_read_ocsp",
    ]
}

#[test]
fn verify_has_chain_signature_and_index_rows() {
    for alg in ["ecdsa-p256", "ml-dsa-65"] {
        let md = bench(&["verify", "--sizes", "1,4", "--ca-key-algo", alg], false);
        let title = format!("Results: {alg}");
        assert_eq!(
            x509_ops(&md, &title),
            ["chain_verify", "signature_verify", "root_index_build"]
        );
        for r in section_rows(&md, &title).iter().skip(2) {
            for c in &r[1..5] {
                assert!(number(c) > 0.0, "{r:?}");
            }
        }
    }
}

/// `--db postgres://…`: every database stage runs on the server under its own name with
/// SQLite's twin (`…_sqlite`) right below it, in schemas of the bench's own that are gone
/// afterwards; a CA already in that database is not touched.
#[test]
fn x509_and_mtc_on_postgres_put_sqlite_beside() {
    let Some(db) = pg_database("bench") else {
        return;
    };
    let t = tempdir();
    let ca = t.path().join("ca");
    let pass = format!("pass:{}", db.password);
    let mut args = vec![
        "issue",
        "ca",
        "--dir",
        ca.to_str().unwrap(),
        "--subject",
        "CN=Kept",
    ];
    let db_args = db.args();
    args.extend(db_args.iter().map(String::as_str));
    pk_ok(&args);
    let ca_arg = ca.to_str().unwrap();
    let out = t.path().join("out");
    pk_ok(&[
        "issue",
        "batch",
        "--ca",
        ca_arg,
        "--db-passin",
        &pass,
        "--count",
        "3",
        "--out-dir",
        out.to_str().unwrap(),
    ]);

    let md = bench(
        &[
            "x509",
            "--sizes",
            "1,4",
            "--db",
            &db.url,
            "--db-passin",
            &pass,
        ],
        false,
    );
    let want: Vec<String> = pkit_x509_ops()
        .into_iter()
        .flat_map(|op| {
            let mut v = vec![op.to_string()];
            if op.starts_with("db_") {
                v.push(format!("{op}_sqlite"));
            }
            v
        })
        .collect();
    assert_eq!(x509_ops(&md, "Results: ecdsa-p256"), want, "{md}");
    let rows = section_rows(&md, "Results: ecdsa-p256");
    for r in rows.iter().skip(2) {
        for c in &r[1..5] {
            assert!(number(c) > 0.0, "{r:?}");
        }
        let notes = &r[5];
        if r[0].starts_with("`db_") {
            let on = if r[0].ends_with("_sqlite`") {
                "SQLite"
            } else {
                "PostgreSQL"
            };
            assert!(notes.starts_with(on), "{r:?}");
        }
    }
    assert!(md.contains(&format!("PostgreSQL at {}", db.url)), "{md}");
    assert!(!md.contains(&db.password), "the password is never shown");

    let tables = json_tables(&bench(
        &["mtc", "--sizes", "4", "--db", &db.url, "--db-passin", &pass],
        true,
    ));
    all_positive(&Value::Array(tables.clone()));
    let ops: Vec<&str> = tables[0]["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["operation"].as_str().unwrap())
        .collect();
    for op in [
        "db_insert_entries",
        "db_insert_proofs",
        "db_read_standalone",
    ] {
        let at = ops.iter().position(|o| *o == op).expect(op);
        assert_eq!(ops[at + 1], format!("{op}_sqlite"), "{ops:?}");
    }

    let left = db.psql("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'pkit_bench%'");
    assert_eq!(left.trim(), "0", "the bench's schemas are dropped");
    let listed = pk_ok(&[
        "issue",
        "list",
        "--ca",
        ca_arg,
        "--db-passin",
        &pass,
        "-f",
        "json",
    ]);
    assert_eq!(
        json_items(&listed).len(),
        3,
        "the CA in the database is untouched"
    );

    // A server that is not there: one line naming it, exit 4. A password source for a
    // file: a usage error.
    let gone = pk(&[
        "bench",
        "x509",
        "--sizes",
        "1",
        "--min-time",
        "0.05s",
        "--db",
        &db.url_on_port(free_port()),
    ]);
    assert_eq!(gone.code, Some(4), "{}", gone.describe());
    assert!(
        gone.stderr_str().contains("127.0.0.1:"),
        "{}",
        gone.describe()
    );
    let f = t.path().join("b.db");
    let usage = pk(&[
        "bench",
        "mtc",
        "--sizes",
        "1",
        "--db",
        f.to_str().unwrap(),
        "--db-passin",
        "pass:x",
    ]);
    assert_eq!(usage.code, Some(2), "{}", usage.describe());
}

/// Other work taking every core just before a bench (threads of this test spinning, as a
/// build would) is warned of before anything is measured, though the 1-minute load
/// average has not seen it yet; the report's header says so too.
#[test]
fn a_busy_machine_is_warned_of() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let stop = Arc::new(AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let spinners: Vec<_> = (0..cores)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            })
        })
        .collect();
    let r = pk(&[
        "bench",
        "crypto",
        "--algos",
        "ed25519",
        "--min-time",
        "0.01s",
    ]);
    stop.store(true, Ordering::Relaxed);
    for s in spinners {
        s.join().unwrap();
    }
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert!(
        r.stderr_str()
            .contains("pkit: warning: the machine is busy ("),
        "{}",
        r.describe()
    );
    assert!(
        r.stdout_str().contains("(busy: figures are low and noisy)"),
        "{}",
        r.describe()
    );
}
