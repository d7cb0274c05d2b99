//! der-parse-performance.md's dataset tables, one thread as the seed measures them:
//! throughput over a whole set (`parse_all`, `parse_and_access`, `parse_roots`,
//! `parse_intermediates`, `build_trust_chain`, `build_dependency_tree`), the
//! median-size certificate parsed hot, and the latency of each field accessor.

use super::datasets::Dataset;
use super::harness::{timed, Harness, Measurement};
use super::parse::all_fields;
use super::report::{kps, measurement_json, ms, Table};
use super::{BenchError, Result};
use pkit_x509::cert::Certificate;
use serde_json::{json, Value};
use sha2::Digest as _;
use std::collections::HashMap;
use std::hint::black_box;

/// One measured operation over one dataset.
#[derive(Debug, Clone)]
pub struct Row {
    /// The operation's name.
    pub op: &'static str,
    /// The dataset it ran over.
    pub dataset: String,
    /// What the operation covered (e.g. "919 roots").
    pub over: String,
    /// Its measurement.
    pub m: Measurement,
    /// Whether a rate per certificate means something (not for the tree builds).
    pub rate: bool,
}

fn parsed(ders: &[Vec<u8>]) -> Result<Vec<Certificate<'_>>> {
    ders.iter()
        .map(|d| Certificate::from_der(d).map_err(|e| BenchError::Parse(e.to_string())))
        .collect()
}

fn parse_each(ders: &[Vec<u8>]) -> Result<()> {
    for d in ders {
        black_box(
            Certificate::from_der(black_box(d)).map_err(|e| BenchError::Parse(e.to_string()))?,
        );
    }
    Ok(())
}

/// Each certificate's chain up to a self-issued certificate, found by the issuer name's
/// bytes: the total number of links (a loop ends at the set's size).
pub fn trust_chains(certs: &[Certificate<'_>]) -> usize {
    let by_subject: HashMap<&[u8], usize> = certs
        .iter()
        .enumerate()
        .map(|(i, c)| (c.subject.raw, i))
        .collect();
    let mut links = 0;
    for c in certs {
        let mut at = c;
        let mut steps = 0;
        while at.issuer.raw != at.subject.raw && steps < certs.len() {
            match by_subject.get(at.issuer.raw) {
                Some(&p) => at = &certs[p],
                None => break,
            }
            steps += 1;
        }
        links += steps;
    }
    links
}

/// Parent and children by SHA-256 fingerprint (computed beforehand): each certificate a
/// node, its parent the certificate whose subject is its issuer.
pub fn dependency_tree(certs: &[Certificate<'_>], prints: &[[u8; 32]]) -> usize {
    let by_subject: HashMap<&[u8], &[u8; 32]> = certs
        .iter()
        .zip(prints)
        .map(|(c, p)| (c.subject.raw, p))
        .collect();
    let mut children: HashMap<&[u8; 32], Vec<&[u8; 32]>> = HashMap::with_capacity(certs.len());
    for (c, p) in certs.iter().zip(prints) {
        children.entry(p).or_default();
        if c.issuer.raw != c.subject.raw {
            if let Some(parent) = by_subject.get(c.issuer.raw) {
                children.entry(parent).or_default().push(p);
            }
        }
    }
    children.values().map(Vec::len).sum()
}

/// The throughput rows for `ds`.
pub fn throughput(h: &Harness<'_>, ds: &Dataset) -> Result<Vec<Row>> {
    let n = ds.certs.len();
    let (roots, ints) = ds.certs.split_at(ds.roots.min(n));
    let mut rows = Vec::new();
    let mut row = |op, over: String, m, rate| {
        rows.push(Row {
            op,
            dataset: ds.name.clone(),
            over,
            m,
            rate,
        })
    };
    let all = format!("{n} certs");
    let m = h.measure(&format!("{} parse_all", ds.name), n as u64, || {
        timed(|| parse_each(&ds.certs)).map(|(d, ())| d)
    })?;
    row("parse_all", all.clone(), m, true);
    let m = h.measure(&format!("{} parse_and_access", ds.name), n as u64, || {
        timed(|| {
            ds.certs.iter().try_for_each(|d| {
                black_box(all_fields(d).map_err(|e| BenchError::Parse(e.to_string()))?);
                Ok(())
            })
        })
        .map(|(d, ())| d)
    })?;
    row("parse_and_access", all.clone(), m, true);
    if !roots.is_empty() && !ints.is_empty() {
        let m = h.measure(
            &format!("{} parse_roots", ds.name),
            roots.len() as u64,
            || timed(|| parse_each(roots)).map(|(d, ())| d),
        )?;
        row("parse_roots", format!("{} roots", roots.len()), m, true);
        let m = h.measure(
            &format!("{} parse_intermediates", ds.name),
            ints.len() as u64,
            || timed(|| parse_each(ints)).map(|(d, ())| d),
        )?;
        row(
            "parse_intermediates",
            format!("{} intermediates", ints.len()),
            m,
            true,
        );
    }
    let certs = parsed(&ds.certs)?;
    let m = h.measure(&format!("{} build_trust_chain", ds.name), n as u64, || {
        Ok(timed(|| Ok(black_box(trust_chains(&certs))))?.0)
    })?;
    row("build_trust_chain", all.clone(), m, false);
    let prints: Vec<[u8; 32]> = ds
        .certs
        .iter()
        .map(|d| sha2::Sha256::digest(d).into())
        .collect();
    let m = h.measure(
        &format!("{} build_dependency_tree", ds.name),
        n as u64,
        || Ok(timed(|| Ok(black_box(dependency_tree(&certs, &prints))))?.0),
    )?;
    row("build_dependency_tree", all, m, false);
    Ok(rows)
}

/// `| Benchmark | Dataset | Time | Throughput |`.
pub fn throughput_table(rows: &[Row]) -> Table {
    let text = rows
        .iter()
        .map(|r| {
            vec![
                format!("`{}`", r.op),
                format!("{} ({})", r.dataset, r.over),
                ms(r.m.mean_ms()) + " ms",
                if r.rate {
                    format!("{} K/sec", kps(r.m.per_second()))
                } else {
                    String::new()
                },
            ]
        })
        .collect();
    let json_rows: Vec<Value> = rows
        .iter()
        .map(|r| json!({"op": r.op, "dataset": r.dataset, "over": r.over, "measurement": measurement_json(&r.m)}))
        .collect();
    Table {
        title: "Throughput Results".into(),
        notes: vec![
            "One thread, as the seed measures. build_trust_chain walks every certificate's \
             chain by issuer name bytes; build_dependency_tree links parents and children by \
             SHA-256 fingerprint (computed beforehand). Both work on parsed certificates."
                .into(),
        ],
        header: vec![
            "Benchmark".into(),
            "Dataset".into(),
            "Time".into(),
            "Throughput".into(),
        ],
        rows: text,
        text_columns: vec![0, 1],
        json: json!({"title": "throughput", "rows": json_rows}),
    }
}

/// The certificate of median size in `ds`.
pub fn median_cert(ds: &Dataset) -> &[u8] {
    let mut sizes: Vec<(usize, usize)> = ds
        .certs
        .iter()
        .enumerate()
        .map(|(i, c)| (c.len(), i))
        .collect();
    sizes.sort_unstable();
    &ds.certs[sizes[sizes.len() / 2].1]
}

/// Repetitions of a single-certificate operation per measured run.
const HOT_LOOP: u64 = 10_000;

/// Time `f` `HOT_LOOP` times per run: nanoseconds per call come from the mean.
fn hot(h: &Harness<'_>, label: &str, f: impl FnMut() -> Result<()>) -> Result<Measurement> {
    h.repeat(label, HOT_LOOP, f)
}

/// One dataset's median certificate: parse, and parse + access, hot.
pub struct Single {
    /// The dataset's name.
    pub dataset: String,
    /// The median certificate's size, in bytes.
    pub size: usize,
    /// Parsing it.
    pub parse: Measurement,
    /// Parsing it and reading every field.
    pub access: Measurement,
}

/// The median certificate of `ds`, parsed hot and parsed with every field read.
pub fn single(h: &Harness<'_>, ds: &Dataset) -> Result<Single> {
    let der = median_cert(ds);
    let parse = hot(h, &format!("{} per_cert parse", ds.name), || {
        black_box(
            Certificate::from_der(black_box(der)).map_err(|e| BenchError::Parse(e.to_string()))?,
        );
        Ok(())
    })?;
    let access = hot(h, &format!("{} per_cert access", ds.name), || {
        black_box(all_fields(black_box(der)).map_err(|e| BenchError::Parse(e.to_string()))?);
        Ok(())
    })?;
    Ok(Single {
        dataset: ds.name.clone(),
        size: der.len(),
        parse,
        access,
    })
}

/// The single-certificate table, one row per dataset.
pub fn single_table(rows: &[Single]) -> Table {
    let ns = |m: &Measurement| format!("{:.0} ns", m.ns_per_item());
    Table {
        title: "Single-Certificate Performance (Hot Cache)".into(),
        notes: vec!["The median-size certificate of each set, parsed 10,000 times per run.".into()],
        header: vec![
            "Dataset".into(),
            "Cert size".into(),
            "Parse".into(),
            "Parse + access".into(),
        ],
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    r.dataset.clone(),
                    format!("{} B", r.size),
                    ns(&r.parse),
                    ns(&r.access),
                ]
            })
            .collect(),
        text_columns: vec![0],
        json: json!({"title": "single certificate", "rows": rows.iter().map(|r| json!({
            "dataset": r.dataset, "size": r.size,
            "parse": measurement_json(&r.parse), "parse_and_access": measurement_json(&r.access)})).collect::<Vec<_>>()}),
    }
}

/// The accessors the seed times, as pkit provides them.
pub const FIELDS: [(&str, &str); 10] = [
    ("issuer_raw", "the Name's DER, a borrowed span"),
    ("subject_raw", "the Name's DER, a borrowed span"),
    ("public_key_bytes", "a borrowed span"),
    ("signature_bytes", "a borrowed span"),
    ("signature_algorithm", "OID → name"),
    ("public_key_algorithm", "OID → name"),
    ("serial_number", "INTEGER → hex string"),
    ("validity", "two times decoded"),
    ("issuer_dn", "RFC 4514 String"),
    ("subject_dn", "RFC 4514 String"),
];

fn field(c: &Certificate<'_>, name: &str) -> Result<usize> {
    let bad = |e: crate::der::Error| BenchError::Parse(e.to_string());
    Ok(match name {
        "issuer_raw" => c.issuer.raw.len(),
        "subject_raw" => c.subject.raw.len(),
        "public_key_bytes" => c.spki.key.bytes.len(),
        "signature_bytes" => c.signature.bytes.len(),
        "signature_algorithm" => c.signature_algorithm.oid.name().map_or(0, str::len),
        "public_key_algorithm" => c.spki.algorithm.oid.name().map_or(0, str::len),
        "serial_number" => c.serial_hex().len(),
        "validity" => {
            let (a, b) = c.validity().map_err(bad)?;
            (a.unix ^ b.unix) as usize
        }
        "issuer_dn" => c.issuer.to_rfc4514().map_err(bad)?.len(),
        "subject_dn" => c.subject.to_rfc4514().map_err(bad)?.len(),
        _ => 0,
    })
}

/// Per-field latency on each set's median certificate, parsed once: (field, ns per set).
pub fn fields(h: &Harness<'_>, sets: &[Dataset]) -> Result<Vec<(String, Vec<Measurement>)>> {
    let meds: Vec<&[u8]> = sets.iter().map(median_cert).collect();
    let certs = meds
        .iter()
        .map(|d| Certificate::from_der(d).map_err(|e| BenchError::Parse(e.to_string())))
        .collect::<Result<Vec<_>>>()?;
    let mut out = Vec::new();
    for (name, _) in FIELDS {
        let mut per_set = Vec::new();
        for (c, ds) in certs.iter().zip(sets) {
            per_set.push(hot(h, &format!("{} {name}", ds.name), || {
                black_box(field(black_box(c), name)?);
                Ok(())
            })?);
        }
        out.push((name.to_string(), per_set));
    }
    Ok(out)
}

/// The per-field latency table: each field's access time per dataset.
pub fn fields_table(sets: &[Dataset], rows: &[(String, Vec<Measurement>)]) -> Table {
    let mut header = vec!["Field".to_string()];
    header.extend(
        sets.iter()
            .map(|s| format!("{} ({} B)", s.name, median_cert(s).len())),
    );
    header.push("Notes".into());
    let cols = header.len();
    Table {
        title: "Per-Field Access Latency".into(),
        notes: vec![
            "Each accessor on an already parsed certificate (the median-size one of each set)."
                .into(),
        ],
        header,
        rows: rows
            .iter()
            .map(|(name, ms)| {
                let mut r = vec![format!("`{name}`")];
                r.extend(ms.iter().map(|m| format!("{:.1} ns", m.ns_per_item())));
                r.push(
                    FIELDS
                        .iter()
                        .find(|(n, _)| n == name)
                        .map_or("", |(_, d)| d)
                        .to_string(),
                );
                r
            })
            .collect(),
        text_columns: vec![0, cols - 1],
        json: json!({"title": "per-field access", "datasets": sets.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
            "rows": rows.iter().map(|(n, ms)| json!({"field": n, "per_dataset": ms.iter().map(measurement_json).collect::<Vec<_>>()})).collect::<Vec<_>>()}),
    }
}

/// The smallest, median and largest certificate over `sets`.
pub fn size_points(sets: &[Dataset]) -> Vec<(&'static str, &[u8])> {
    let mut all: Vec<&[u8]> = sets
        .iter()
        .flat_map(|s| s.certs.iter().map(Vec::as_slice))
        .collect();
    all.sort_by_key(|d| d.len());
    if all.is_empty() {
        return Vec::new();
    }
    vec![
        ("Small", all[0]),
        ("Medium", all[all.len() / 2]),
        ("Large", all[all.len() - 1]),
    ]
}

/// Certificate Size Scalability: parse and parse + access of the smallest, median and
/// largest certificate of the sets, and the growth from small to large.
pub fn scalability(h: &Harness<'_>, sets: &[Dataset]) -> Result<Table> {
    let mut rows = Vec::new();
    let mut json_rows = Vec::new();
    let mut firsts: Option<(f64, f64)> = None;
    let mut last = (0.0, 0.0);
    for (label, der) in size_points(sets) {
        let parse = hot(h, &format!("size {label} parse"), || {
            black_box(
                Certificate::from_der(black_box(der))
                    .map_err(|e| BenchError::Parse(e.to_string()))?,
            );
            Ok(())
        })?;
        let access = hot(h, &format!("size {label} access"), || {
            black_box(all_fields(black_box(der)).map_err(|e| BenchError::Parse(e.to_string()))?);
            Ok(())
        })?;
        let (p, a) = (parse.ns_per_item(), access.ns_per_item());
        firsts.get_or_insert((p, a));
        last = (p, a);
        rows.push(vec![
            format!("{label} ({} B)", der.len()),
            format!("{p:.0} ns"),
            format!("{a:.0} ns"),
        ]);
        json_rows.push(json!({"size": label, "bytes": der.len(), "parse": measurement_json(&parse), "parse_and_access": measurement_json(&access)}));
    }
    if let Some((p0, a0)) = firsts {
        let growth = |x: f64, x0: f64| format!("{:+.0}%", 100.0 * (x - x0) / x0.max(1e-9));
        rows.push(vec![
            "**Growth**".into(),
            growth(last.0, p0),
            growth(last.1, a0),
        ]);
    }
    Ok(Table {
        title: "Certificate Size Scalability".into(),
        notes: vec!["The smallest, median and largest certificate of all the sets, parsed 10,000 times per run.".into()],
        header: vec!["Size".into(), "Parse".into(), "Parse + access".into()],
        rows,
        text_columns: vec![0],
        json: json!({"title": "size scalability", "rows": json_rows}),
    })
}

/// Memory: what a parsed set takes besides its DER (pkit's certificates are spans into
/// the DER, so the parsed form is a fixed size per certificate), and the process's peak
/// resident set after parsing every set.
pub fn memory(sets: &[Dataset]) -> Result<Table> {
    let per = std::mem::size_of::<Certificate<'static>>();
    let mut rows = Vec::new();
    let mut json_rows = Vec::new();
    for s in sets {
        let parsed = parsed(&s.certs)?;
        let der: usize = s.certs.iter().map(Vec::len).sum();
        let bytes = parsed.len() * per;
        rows.push(vec![
            s.name.clone(),
            s.certs.len().to_string(),
            format!("{:.1} MiB", der as f64 / (1 << 20) as f64),
            format!("{:.2} MiB", bytes as f64 / (1 << 20) as f64),
            format!("{per} B"),
        ]);
        json_rows.push(json!({"dataset": s.name, "certs": s.certs.len(), "der_bytes": der, "parsed_bytes": bytes, "bytes_per_cert": per}));
        black_box(parsed);
    }
    let peak = peak_rss_kib();
    Ok(Table {
        title: "Memory".into(),
        notes: vec![format!(
            "A parsed certificate borrows its DER: {per} bytes each, no heap allocation. \
             Peak resident set of this process after every table above: {}.",
            peak.map_or_else(
                || "unknown".to_string(),
                |k| format!("{:.1} MiB", k as f64 / 1024.0)
            )
        )],
        header: vec![
            "Dataset".into(),
            "Certificates".into(),
            "DER".into(),
            "Parsed (besides the DER)".into(),
            "Per certificate".into(),
        ],
        rows,
        text_columns: vec![0],
        json: json!({"title": "memory", "peak_rss_kib": peak, "rows": json_rows}),
    })
}

/// VmHWM from /proc/self/status, in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}
