//! The parse document's "PKCS#7 and PKCS#12 Certificate Extraction": certificates taken
//! out of a certs-only PKCS#7 bundle (a degenerate SignedData, RFC 5652 §5, what `.p7b`
//! files are), built here from the set's certificates.

use super::harness::{timed, Harness};
use super::report::{measurement_json, Table};
use super::{BenchError, Result};
use crate::der::{oid_registry as oids, tag, Reader, Writer};
use crate::pki::cert::Certificate;
use crate::pki::pkcs7::ContentInfo;
use serde_json::json;
use std::hint::black_box;

/// A certs-only SignedData ContentInfo holding `certs`.
pub fn pkcs7_bundle(certs: &[&[u8]]) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.oid(&oids::PKCS7_SIGNED_DATA);
        w.explicit(0, |w| {
            w.sequence(|w| {
                w.integer_u64(1);
                w.set(|_| {});
                w.sequence(|w| {
                    w.oid(&oids::PKCS7_DATA);
                });
                w.tlv(tag::implicit_constructed(0), |w| {
                    for c in certs {
                        w.raw(c);
                    }
                });
                w.set(|_| {});
            });
        });
    });
    w.finish()
}

/// Parse the bundle and every certificate in it: how many there were.
pub fn extract(bundle: &[u8]) -> Result<usize> {
    let bad = |e: crate::der::Error| BenchError::Parse(e.to_string());
    let ci = ContentInfo::parse(Reader::new(bundle)).map_err(bad)?;
    let sd = ci.signed_data().map_err(bad)?;
    let mut n = 0;
    for c in sd.certificates().map_err(bad)? {
        if c.is_certificate() {
            black_box(Certificate::from_der(c.raw).map_err(bad)?);
            n += 1;
        }
    }
    Ok(n)
}

/// Extraction from bundles of 2 and of up to 100 certificates of `certs`.
pub fn table(h: &Harness<'_>, certs: &[Vec<u8>]) -> Result<Table> {
    let mut rows = Vec::new();
    let mut json_rows = Vec::new();
    for n in [2usize, 100] {
        let n = n.min(certs.len());
        if n == 0 {
            continue;
        }
        let picked: Vec<&[u8]> = certs.iter().take(n).map(Vec::as_slice).collect();
        let bundle = pkcs7_bundle(&picked);
        let m = h.measure(&format!("pkcs7 {n} certs"), 1, || {
            let (d, got) = timed(|| extract(&bundle))?;
            if got != n {
                return Err(BenchError::Check(format!(
                    "extracted {got} of {n} certificates"
                )));
            }
            Ok(d)
        })?;
        let ns = m.mean_ns;
        rows.push(vec![
            format!("`pkcs7/pkit/{n}_certs`"),
            format!("{} B", bundle.len()),
            n.to_string(),
            if ns >= 1000.0 {
                format!("{:.2} µs", ns / 1000.0)
            } else {
                format!("{ns:.0} ns")
            },
            format!("{:.0} ns", ns / n as f64),
        ]);
        json_rows
            .push(json!({"certs": n, "bytes": bundle.len(), "measurement": measurement_json(&m)}));
    }
    Ok(Table {
        title: "PKCS#7 Certificate Extraction".into(),
        notes: vec![
            "A certs-only SignedData built from the set's first certificates: parse the \
             ContentInfo and SignedData, then each certificate. (PKCS#12 extraction is not \
             measured yet: pkit reads PKCS#12 bags in `pkit parse`, not yet as a library call.)"
                .into(),
        ],
        header: vec![
            "Benchmark".into(),
            "Size".into(),
            "Certs".into(),
            "Time".into(),
            "Per certificate".into(),
        ],
        rows,
        text_columns: vec![0],
        json: json!({"title": "pkcs7 extraction", "rows": json_rows}),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_gives_back_its_certificates() {
        let store =
            crate::bench::parse::load(std::path::Path::new(crate::bench::parse::DEFAULT_STORE));
        let Ok(certs) = store else { return };
        let picked: Vec<&[u8]> = certs.iter().take(5).map(Vec::as_slice).collect();
        let bundle = pkcs7_bundle(&picked);
        assert_eq!(extract(&bundle).unwrap(), picked.len());
        let ci = ContentInfo::parse(Reader::new(&bundle)).unwrap();
        let got: Vec<&[u8]> = ci
            .signed_data()
            .unwrap()
            .certificates()
            .unwrap()
            .iter()
            .map(|c| c.raw)
            .collect();
        assert_eq!(got, picked);
    }
}
