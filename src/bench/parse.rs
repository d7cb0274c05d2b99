//! Certificate parse speed (der-parse-performance.md's two workloads) on one thread and
//! on every thread: *parse-only* is `Certificate::from_der` (structure checked, fields
//! kept as byte spans); *parse+fields* then reads what a caller usually wants — version,
//! serial as hex, issuer and subject as RFC 4514 strings, signature and key algorithm
//! names, validity, key and signature bytes. `benches/parse.rs` measures the same
//! [`all_fields`] under Criterion.

use super::harness::{timed, Harness, Measurement};
use super::report::{group, measurement_json, Table};
use super::{BenchError, Result};
use crate::der::Result as DerResult;
use pkit_verify::trust_store::{certificates_in, TrustStoreError};
use pkit_x509::cert::Certificate;
use rayon::prelude::*;
use serde_json::json;
use std::hint::black_box;
use std::path::Path;

/// Parse `der` and touch every field a typical caller reads; the result depends on all of
/// them, so none can be optimised away.
pub fn all_fields(der: &[u8]) -> DerResult<usize> {
    let c = Certificate::from_der(der)?;
    let serial = c.serial_hex();
    let issuer = c.issuer.to_rfc4514()?;
    let subject = c.subject.to_rfc4514()?;
    let sig_alg = c.signature_algorithm.oid.name();
    let (not_before, not_after) = c.validity()?;
    let key_alg = c.spki.algorithm.oid.name();
    let key = c.spki.key.bytes;
    black_box((&not_before, &not_after));
    Ok(c.version as usize
        + serial.len()
        + issuer.len()
        + subject.len()
        + sig_alg.map_or(0, str::len)
        + key_alg.map_or(0, str::len)
        + key.len()
        + c.signature.bytes.len())
}

/// The certificates in `path`, read as a trust store's file is
/// ([`pkit_verify::trust_store::certificates_in`]: PEM, DER or base64). Each must pass
/// [`all_fields`], so the timed loops cannot fail.
pub fn load(path: &Path) -> Result<Vec<Vec<u8>>> {
    let name = path.display();
    let certs = certificates_in(path).map_err(|e| match e {
        TrustStoreError::Io { .. } => BenchError::Io(e.to_string()),
        e => BenchError::Parse(e.to_string()),
    })?;
    if certs.is_empty() {
        return Err(BenchError::Parse(format!(
            "{name}: expected certificates (PEM, DER or base64), found none"
        )));
    }
    for (cert, der) in &certs {
        all_fields(der).map_err(|e| BenchError::Parse(format!("{cert}: {e}")))?;
    }
    Ok(certs.into_iter().map(|(_, der)| der).collect())
}

/// One workload over the whole set, on one thread and on all.
#[derive(Debug, Clone)]
pub struct ParseRow {
    /// The workload: parse-only or parse+fields.
    pub workload: &'static str,
    /// On one thread.
    pub one: Measurement,
    /// On every thread.
    pub all: Measurement,
}

/// One certificate's worth of a workload.
type Workload = fn(&[u8]) -> Result<()>;

fn parse_only(d: &[u8]) -> Result<()> {
    black_box(Certificate::from_der(black_box(d)).map_err(|e| BenchError::Parse(e.to_string()))?);
    Ok(())
}

fn parse_fields(d: &[u8]) -> Result<()> {
    black_box(all_fields(black_box(d)).map_err(|e| BenchError::Parse(e.to_string()))?);
    Ok(())
}

/// Both workloads over `ders`, on one thread and on every thread.
pub fn run(h: &Harness<'_>, ders: &[Vec<u8>]) -> Result<Vec<ParseRow>> {
    let n = ders.len() as u64;
    let workloads: [(&'static str, Workload); 2] =
        [("parse-only", parse_only), ("parse+fields", parse_fields)];
    let mut rows = Vec::new();
    for (workload, f) in workloads {
        let one = h.measure(&format!("{workload} (1 thread)"), n, || {
            timed(|| ders.iter().try_for_each(|d| f(d))).map(|(d, ())| d)
        })?;
        let all = h.measure(&format!("{workload} (all threads)"), n, || {
            timed(|| ders.par_iter().try_for_each(|d| f(d))).map(|(d, ())| d)
        })?;
        rows.push(ParseRow { workload, one, all });
    }
    Ok(rows)
}

/// `| Workload | ns/cert (1 thread) | certs/s | ns/cert (N threads) | certs/s |`.
pub fn table(rows: &[ParseRow], source: &str, certs: usize, bytes: usize, threads: usize) -> Table {
    let header = vec![
        "Workload".to_string(),
        "1 thread ns/cert".into(),
        "certs/s".into(),
        format!("{threads} threads ns/cert"),
        "certs/s".into(),
    ];
    let text = rows
        .iter()
        .map(|r| {
            vec![
                r.workload.to_string(),
                format!("{:.1}", r.one.ns_per_item()),
                group(r.one.per_second().round() as u64),
                format!("{:.1}", r.all.ns_per_item()),
                group(r.all.per_second().round() as u64),
            ]
        })
        .collect();
    let json_rows: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({
                "workload": r.workload,
                "one_thread": measurement_json(&r.one),
                "all_threads": measurement_json(&r.all),
            })
        })
        .collect();
    Table {
        title: format!("Certificate parsing: {source}"),
        notes: vec![format!(
            "{certs} certificates, {bytes} bytes of DER ({:.0} B average); each repetition \
             parses the whole set.",
            bytes as f64 / certs.max(1) as f64
        )],
        header,
        rows: text,
        text_columns: vec![0],
        json: json!({
            "title": "certificate parsing",
            "source": source,
            "certificates": certs,
            "bytes": bytes,
            "threads": threads,
            "rows": json_rows,
        }),
    }
}
