//! x509-pipeline-benchmark.md's "Backend Comparison: OpenSSL vs NSS (batch=1024)": the
//! signing and verification stages of the X.509 pipeline on two backends, at one batch
//! size — `| Algorithm | Operation | OpenSSL | NSS | Ratio |` — and, for a token backend,
//! each per-item stage against the token's own raw C_Sign / C_Verify rate measured in the
//! same run, which says how much of the gap is the token's and how much is pkit's.

use super::crypto::Limit;
use super::report::{kps, measurement_json, ms, Table};
use super::x509::X509Run;
use serde_json::{json, Value};

/// The stages the seeds compare across backends: signing and verification only (the
/// database stages are the same code on either backend).
pub const OPS: [&str; 6] = [
    "cert_gen",
    "cert_verify",
    "crl_sign",
    "crl_verify",
    "ocsp_sign",
    "ocsp_verify",
];

/// B's time over A's, worded as the seeds word it.
pub fn ratio_words(ratio: f64, b_name: &str) -> String {
    if !ratio.is_finite() || ratio <= 0.0 {
        return format!("{ratio:.2}×");
    }
    if (ratio - 1.0).abs() < 0.05 {
        return "≈ equal".into();
    }
    if ratio > 1.0 {
        format!("{ratio:.1}× slower")
    } else {
        format!("{ratio:.2}× ({b_name} faster)")
    }
}

/// One backend's runs, one per algorithm, with its name.
pub struct BackendRuns<'a> {
    /// The backend's name, as the table's columns show it.
    pub name: &'a str,
    /// Its X.509 pipeline runs, one per algorithm.
    pub runs: &'a [X509Run],
}

/// The comparison table at `batch`: a row per algorithm both ran and per operation.
pub fn table(a: &BackendRuns<'_>, b: &BackendRuns<'_>, batch: u64) -> Table {
    let mut rows = Vec::new();
    let mut json_rows: Vec<Value> = Vec::new();
    for ra in a.runs {
        let Some(rb) = b.runs.iter().find(|r| r.algorithm == ra.algorithm) else {
            continue;
        };
        for op in OPS {
            let cell = |run: &X509Run| {
                run.rows
                    .iter()
                    .find(|r| r.op == op)
                    .and_then(|r| r.cell(batch))
                    .cloned()
            };
            let (Some(ma), Some(mb)) = (cell(ra), cell(rb)) else {
                continue;
            };
            let ratio = mb.mean_ns / ma.mean_ns.max(1e-9);
            rows.push(vec![
                ra.algorithm.to_string(),
                format!("`{op}`"),
                format!("{} ms", ms(ma.mean_ms())),
                format!("{} ms", ms(mb.mean_ms())),
                ratio_words(ratio, b.name),
            ]);
            json_rows.push(json!({
                "algorithm": ra.algorithm.name(),
                "operation": op,
                "a": measurement_json(&ma),
                "b": measurement_json(&mb),
                "ratio": ratio,
            }));
        }
    }
    Table {
        title: format!(
            "Backend Comparison: {} vs {} (batch={batch})",
            a.name, b.name
        ),
        notes: vec![format!(
            "Signing and verification stages only; the database stages are the same code on \
             either backend. Ratio > 1 means {b} is slower; ratio < 1 means {b} is faster. \
             Subscriber keys come from software on both (a CA's token holds the CA's key).",
            b = b.name
        )],
        header: vec![
            "Algorithm".into(),
            "Operation".into(),
            a.name.into(),
            b.name.into(),
            "Ratio".into(),
        ],
        rows,
        text_columns: vec![0, 1, 4],
        json: json!({"title": "backend comparison", "a": a.name, "b": b.name, "batch": batch, "rows": json_rows}),
    }
}

/// Which raw operation bounds a per-item stage: every item of `cert_verify` and
/// `ocsp_verify` is one verification, of `ocsp_sign` one signature. (`cert_gen` adds a
/// software key generation per item; the CRL stages handle one CRL per batch.)
fn raw_op(op: &str) -> Option<&'static str> {
    match op {
        "cert_verify" | "ocsp_verify" => Some("verify"),
        "ocsp_sign" => Some("sign"),
        _ => None,
    }
}

/// A token backend's per-item stages against its raw rates (all threads) from `limits`.
pub fn against_raw(name: &str, runs: &[X509Run], limits: &[Limit], batch: u64) -> Table {
    let mut rows = Vec::new();
    let mut json_rows: Vec<Value> = Vec::new();
    for run in runs {
        for row in &run.rows {
            let Some(raw) = raw_op(row.op) else { continue };
            let Some(stage) = row.cell(batch) else {
                continue;
            };
            let Some(limit) = limits
                .iter()
                .find(|l| l.algorithm == run.algorithm.name() && l.op == raw)
            else {
                continue;
            };
            let share = stage.per_second() / limit.all.per_second().max(1e-9);
            rows.push(vec![
                run.algorithm.to_string(),
                format!("`{}`", row.op),
                format!("{} K", kps(stage.per_second())),
                format!("{raw} {} K", kps(limit.all.per_second())),
                format!("{share:.2}"),
            ]);
            json_rows.push(json!({
                "algorithm": run.algorithm.name(),
                "operation": row.op,
                "stage_per_second": stage.per_second(),
                "raw_operation": raw,
                "raw_per_second": limit.all.per_second(),
                "share": share,
            }));
        }
    }
    Table {
        title: format!("{name}: stages against the module's raw rate (batch={batch})"),
        notes: vec![format!(
            "Raw: C_Sign / C_Verify through {name} on every thread, measured in this run \
             (`pkit bench crypto --backend`). A share near 1 means the stage costs what the \
             token's operation costs."
        )],
        header: vec![
            "Algorithm".into(),
            "Operation".into(),
            "Stage".into(),
            "Raw".into(),
            "Share".into(),
        ],
        rows,
        text_columns: vec![0, 1, 3],
        json: json!({"title": "stages against raw", "backend": name, "batch": batch, "rows": json_rows}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_worded_as_the_seeds_word_them() {
        assert_eq!(ratio_words(2.45, "NSS"), "2.5× slower");
        assert_eq!(ratio_words(0.7, "NSS"), "0.70× (NSS faster)");
        assert_eq!(ratio_words(1.03, "NSS"), "≈ equal");
        assert_eq!(ratio_words(0.96, "NSS"), "≈ equal");
    }
}
