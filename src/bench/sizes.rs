//! The encoded sizes that drive the costs, per algorithm: what a post-quantum migration
//! does to certificates, CRLs and OCSP responses.

use super::mtc::MtcRun;
use super::report::Table;
use super::x509::X509Run;
use pkit_x509::alg::Algorithm;
use serde_json::{json, Map, Value};

/// One column of a sizes table: its header, its JSON key, the value and its decimals.
struct Column<S> {
    header: &'static str,
    key: &'static str,
    value: fn(&S) -> f64,
    decimals: usize,
}

fn col<S>(
    header: &'static str,
    key: &'static str,
    decimals: usize,
    value: fn(&S) -> f64,
) -> Column<S> {
    Column {
        header,
        key,
        value,
        decimals,
    }
}

/// `| Algorithm | column… |`: one row per run, in bytes.
fn sizes_table<S>(
    title: &str,
    json_title: &str,
    note: &str,
    runs: &[(Algorithm, S)],
    columns: &[Column<S>],
) -> Table {
    let rows = runs
        .iter()
        .map(|(alg, s)| {
            std::iter::once(alg.name().to_string())
                .chain(
                    columns
                        .iter()
                        .map(|c| format!("{:.*}", c.decimals, (c.value)(s))),
                )
                .collect()
        })
        .collect();
    let json_rows: Vec<Value> = runs
        .iter()
        .map(|(alg, s)| {
            let mut row = Map::new();
            row.insert("algorithm".into(), json!(alg.name()));
            for c in columns {
                row.insert(c.key.into(), json!((c.value)(s)));
            }
            Value::Object(row)
        })
        .collect();
    Table {
        title: title.into(),
        notes: vec![note.into()],
        header: std::iter::once("Algorithm")
            .chain(columns.iter().map(|c| c.header))
            .map(String::from)
            .collect(),
        rows,
        text_columns: vec![0],
        json: json!({"title": json_title, "rows": json_rows}),
    }
}

/// `| Algorithm | Certificate | OCSP response | CRL, empty | CRL per entry |` in bytes.
pub fn table(runs: &[&X509Run]) -> Table {
    let runs: Vec<_> = runs.iter().map(|r| (r.algorithm, r.sizes)).collect();
    sizes_table(
        "Encoded sizes (bytes)",
        "sizes",
        "Certificate: a server certificate with the CA's key type for both keys; OCSP \
         response: one SingleResponse, no nonce, no certs; CRL: v2 with AKI and CRL number, \
         each entry a 20-byte serial, UTCTime and reasonCode.",
        &runs,
        &[
            col("Certificate", "certificate", 0, |s| s.certificate),
            col("OCSP response", "ocsp_response", 0, |s| s.ocsp_response),
            col("CRL, empty", "crl_empty", 0, |s| s.crl_empty),
            col("CRL per entry", "crl_per_entry", 1, |s| s.crl_entry),
        ],
    )
}

/// `| Algorithm | Log entry B | MTCProof B | Standalone certificate B |`.
pub fn mtc_table(runs: &[&MtcRun]) -> Table {
    let runs: Vec<_> = runs.iter().map(|r| (r.algorithm, r.sizes)).collect();
    sizes_table(
        "MTC encoded sizes (bytes)",
        "mtc sizes",
        "MTCProof: the largest batch's inclusion proof plus one cosignature by the CA \
         key; standalone certificate: TBSCertificate + MTCProof as signatureValue.",
        &runs,
        &[
            col("Log entry", "log_entry", 0, |s| s.entry),
            col("MTCProof", "mtc_proof", 0, |s| s.proof),
            col("Standalone certificate", "standalone_certificate", 0, |s| {
                s.standalone
            }),
        ],
    )
}
