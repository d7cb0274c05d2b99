//! classic-vs-pq-benchmark.md: two algorithms through the same X.509 pipeline over a
//! batch-size sweep, one table per operation —
//! `| Batch | A ms | A K/s | B ms | B K/s | Ratio |`, the ratio being B's time over A's.

use super::report::{kps, measurement_json, Table};
use super::x509::X509Run;
use serde_json::{json, Value};

/// The operations compared when `--ops` is not given: the signing and verification
/// stages, where the algorithms differ, and the database pair, where their sizes do.
pub const DEFAULT_OPS: [&str; 7] = [
    "cert_gen",
    "cert_verify",
    "crl_sign",
    "ocsp_sign",
    "ocsp_verify",
    "db_insert_certs",
    "db_read_certs",
];

/// One table per operation present in both runs.
pub fn tables(a: &X509Run, b: &X509Run, ops: &[String]) -> Vec<Table> {
    let (an, bn) = (a.algorithm.name(), b.algorithm.name());
    let mut out = Vec::new();
    for op in ops {
        let (Some(ra), Some(rb)) = (
            a.rows.iter().find(|r| r.op == op),
            b.rows.iter().find(|r| r.op == op),
        ) else {
            continue;
        };
        let mut rows = Vec::new();
        let mut json_rows: Vec<Value> = Vec::new();
        for (batch, ma) in &ra.cells {
            let Some(mb) = rb.cell(*batch) else { continue };
            let ratio = mb.mean_ns / ma.mean_ns.max(1e-9);
            rows.push(vec![
                batch.to_string(),
                format!("{:.3}", ma.mean_ms()),
                format!("{} K", kps(ma.per_second())),
                format!("{:.3}", mb.mean_ms()),
                format!("{} K", kps(mb.per_second())),
                ratio_text(ratio),
            ]);
            json_rows.push(json!({
                "batch": batch,
                "a": measurement_json(ma),
                "b": measurement_json(mb),
                "ratio": ratio,
            }));
        }
        out.push(Table {
            title: format!("{op} — {}", ra.notes),
            notes: Vec::new(),
            header: vec![
                "Batch".into(),
                format!("{an} ms"),
                format!("{an} K/s"),
                format!("{bn} ms"),
                format!("{bn} K/s"),
                "Ratio".into(),
            ],
            rows,
            text_columns: Vec::new(),
            json: json!({"title": op, "a": an, "b": bn, "rows": json_rows}),
        });
    }
    out
}

/// B's time over A's: one decimal as the seed tables print it, but never rounded to
/// "0.0×" — a ratio under 1 keeps two significant digits (0.014×).
fn ratio_text(ratio: f64) -> String {
    if ratio >= 1.0 || ratio <= 0.0 || !ratio.is_finite() {
        return format!("{ratio:.1}×");
    }
    let decimals = (1.0 - ratio.log10().floor()) as usize;
    format!("{ratio:.decimals$}×")
}

#[cfg(test)]
mod tests {
    use super::ratio_text;

    #[test]
    fn small_ratios_keep_two_significant_digits() {
        assert_eq!(ratio_text(12.34), "12.3×");
        assert_eq!(ratio_text(1.0), "1.0×");
        assert_eq!(ratio_text(0.5), "0.50×");
        assert_eq!(ratio_text(0.014), "0.014×");
        assert_eq!(ratio_text(0.000_123), "0.00012×");
    }
}
