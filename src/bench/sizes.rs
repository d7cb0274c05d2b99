//! The encoded sizes that drive the costs, per algorithm: what a post-quantum migration
//! does to certificates, CRLs and OCSP responses.

use super::mtc::MtcRun;
use super::report::Table;
use super::x509::X509Run;
use serde_json::json;

fn bytes(b: f64) -> String {
    format!("{b:.0}")
}

/// `| Algorithm | Certificate | OCSP response | CRL, empty | CRL per entry |` in bytes.
pub fn table(runs: &[&X509Run]) -> Table {
    let rows = runs
        .iter()
        .map(|r| {
            vec![
                r.algorithm.name().to_string(),
                bytes(r.sizes.certificate),
                bytes(r.sizes.ocsp_response),
                bytes(r.sizes.crl_empty),
                format!("{:.1}", r.sizes.crl_entry),
            ]
        })
        .collect();
    let json_rows: Vec<_> = runs
        .iter()
        .map(|r| {
            json!({
                "algorithm": r.algorithm.name(),
                "certificate": r.sizes.certificate,
                "ocsp_response": r.sizes.ocsp_response,
                "crl_empty": r.sizes.crl_empty,
                "crl_per_entry": r.sizes.crl_entry,
            })
        })
        .collect();
    Table {
        title: "Encoded sizes (bytes)".into(),
        notes: vec![
            "Certificate: a server certificate with the CA's key type for both keys; OCSP \
             response: one SingleResponse, no nonce, no certs; CRL: v2 with AKI and CRL number, \
             each entry a 20-byte serial, UTCTime and reasonCode."
                .into(),
        ],
        header: vec![
            "Algorithm".into(),
            "Certificate".into(),
            "OCSP response".into(),
            "CRL, empty".into(),
            "CRL per entry".into(),
        ],
        rows,
        text_columns: vec![0],
        json: json!({"title": "sizes", "rows": json_rows}),
    }
}

/// `| Algorithm | Log entry B | MTCProof B | Standalone certificate B |`.
pub fn mtc_table(runs: &[&MtcRun]) -> Table {
    let rows = runs
        .iter()
        .map(|r| {
            vec![
                r.algorithm.name().to_string(),
                bytes(r.sizes.entry),
                bytes(r.sizes.proof),
                bytes(r.sizes.standalone),
            ]
        })
        .collect();
    let json_rows: Vec<_> = runs
        .iter()
        .map(|r| {
            json!({
                "algorithm": r.algorithm.name(),
                "log_entry": r.sizes.entry,
                "mtc_proof": r.sizes.proof,
                "standalone_certificate": r.sizes.standalone,
            })
        })
        .collect();
    Table {
        title: "MTC encoded sizes (bytes)".into(),
        notes: vec![
            "MTCProof: the largest batch's inclusion proof plus one cosignature by the CA \
             key; standalone certificate: TBSCertificate + MTCProof as signatureValue."
                .into(),
        ],
        header: vec![
            "Algorithm".into(),
            "Log entry".into(),
            "MTCProof".into(),
            "Standalone certificate".into(),
        ],
        rows,
        text_columns: vec![0],
        json: json!({"title": "mtc sizes", "rows": json_rows}),
    }
}
