//! The parse document's "PKCS#7 and PKCS#12 Certificate Extraction": certificates taken
//! out of a certs-only PKCS#7 bundle (a degenerate SignedData, RFC 5652 §5, what `.p7b`
//! files are) and out of an unencrypted PKCS#12 file (RFC 7292: certBags in a plain
//! `data` safe, no MAC), both built here from the set's certificates.

use super::harness::{timed, Harness};
use super::report::{measurement_json, Table};
use super::{BenchError, Result};
use crate::der::{oid_registry as oids, tag, Reader, Writer};
use pkit_x509::cert::Certificate;
use pkit_x509::pkcs12::{authenticated_safe, safe_contents, BagKind, Pfx};
use pkit_x509::pkcs7::ContentInfo;
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

/// An unencrypted PFX without a MAC, its one safe holding a certBag per certificate.
pub fn pkcs12_bundle(certs: &[&[u8]]) -> Vec<u8> {
    let mut bags = Writer::new();
    bags.sequence(|w| {
        for c in certs {
            w.sequence(|w| {
                w.oid(&oids::P12_CERT_BAG);
                w.explicit(0, |w| {
                    w.sequence(|w| {
                        w.oid(&oids::PKCS9_X509_CERTIFICATE);
                        w.explicit(0, |w| {
                            w.octet_string(c);
                        });
                    });
                });
            });
        }
    });
    let data = |w: &mut Writer, content: &[u8]| {
        w.sequence(|w| {
            w.oid(&oids::PKCS7_DATA);
            w.explicit(0, |w| {
                w.octet_string(content);
            });
        });
    };
    let mut safe = Writer::new();
    safe.sequence(|w| data(w, &bags.finish()));
    let safe = safe.finish();
    let mut w = Writer::new();
    w.sequence(|w| {
        w.integer_u64(3);
        data(w, &safe);
    });
    w.finish()
}

/// Parse the PFX, its authenticated safe and the plain safes in it, and every
/// certificate of their certBags: how many there were.
pub fn extract_pkcs12(der: &[u8]) -> Result<usize> {
    let bad = |e: crate::der::Error| BenchError::Parse(e.to_string());
    let pfx = Pfx::parse(Reader::new(der)).map_err(bad)?;
    let content = pfx.auth_safe_content().map_err(bad)?;
    let mut n = 0;
    for ci in authenticated_safe(content.reader(pfx.mode())).map_err(bad)? {
        let Some(safe) = ci.data().map_err(bad)? else {
            continue;
        };
        for bag in safe_contents(safe.reader(pfx.mode())).map_err(bad)? {
            if bag.kind() == BagKind::Cert {
                let cert = bag.typed_value().and_then(|t| t.octets()).map_err(bad)?;
                black_box(Certificate::from_der(&cert.bytes).map_err(bad)?);
                n += 1;
            }
        }
    }
    Ok(n)
}

/// Extraction from bundles of 2 and of up to 100 certificates of `certs`.
pub fn table(h: &Harness<'_>, certs: &[Vec<u8>]) -> Result<Table> {
    let mut rows = Vec::new();
    let mut json_rows = Vec::new();
    type Build = fn(&[&[u8]]) -> Vec<u8>;
    type Extract = fn(&[u8]) -> Result<usize>;
    let kinds: [(&str, Build, Extract); 2] = [
        ("pkcs7", pkcs7_bundle, extract),
        ("pkcs12", pkcs12_bundle, extract_pkcs12),
    ];
    for (kind, build, take) in kinds {
        for n in [2usize, 100] {
            let n = n.min(certs.len());
            if n == 0 {
                continue;
            }
            let picked: Vec<&[u8]> = certs.iter().take(n).map(Vec::as_slice).collect();
            let bundle = build(&picked);
            let m = h.measure(&format!("{kind} {n} certs"), 1, || {
                let (d, got) = timed(|| take(&bundle))?;
                if got != n {
                    return Err(BenchError::Check(format!(
                        "{kind}: extracted {got} of {n} certificates"
                    )));
                }
                Ok(d)
            })?;
            let ns = m.mean_ns;
            rows.push(vec![
                format!("`{kind}/pkit/{n}_certs`"),
                format!("{} B", bundle.len()),
                n.to_string(),
                if ns >= 1000.0 {
                    format!("{:.2} µs", ns / 1000.0)
                } else {
                    format!("{ns:.0} ns")
                },
                format!("{:.0} ns", ns / n as f64),
            ]);
            json_rows.push(json!({"format": kind, "certs": n, "bytes": bundle.len(), "measurement": measurement_json(&m)}));
        }
    }
    Ok(Table {
        title: "PKCS#7 and PKCS#12 Certificate Extraction".into(),
        notes: vec![
            "Bundles built from the set's first certificates: a certs-only SignedData \
             (ContentInfo, SignedData, then each certificate parsed) and an unencrypted \
             PKCS#12 file without a MAC (PFX, authenticated safe, safe, each certBag's \
             certificate parsed)."
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
            crate::parse::load(std::path::Path::new(pkit_verify::trust_store::SYSTEM_ROOTS));
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
        assert_eq!(
            extract_pkcs12(&pkcs12_bundle(&picked)).unwrap(),
            picked.len()
        );
    }

    /// OpenSSL reads both bundles and finds the same certificates.
    #[test]
    fn openssl_reads_the_bundles() {
        let Ok(certs) =
            crate::parse::load(std::path::Path::new(pkit_verify::trust_store::SYSTEM_ROOTS))
        else {
            return;
        };
        let picked: Vec<&[u8]> = certs.iter().take(3).map(Vec::as_slice).collect();
        let dir = tempfile::tempdir().unwrap();
        let (p7, p12) = (dir.path().join("b.p7b"), dir.path().join("b.p12"));
        std::fs::write(&p7, pkcs7_bundle(&picked)).unwrap();
        std::fs::write(&p12, pkcs12_bundle(&picked)).unwrap();
        let run = |args: &[&str]| std::process::Command::new("openssl").args(args).output();
        let p7s = p7.to_str().unwrap();
        let Ok(out) = run(&["pkcs7", "-inform", "DER", "-in", p7s, "-print_certs"]) else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true: openssl is needed"
            );
            return;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.matches("BEGIN CERTIFICATE").count(), 3, "{text}");
        let p12s = p12.to_str().unwrap();
        let out = run(&[
            "pkcs12",
            "-in",
            p12s,
            "-nokeys",
            "-nomacver",
            "-passin",
            "pass:",
        ])
        .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(text.matches("BEGIN CERTIFICATE").count(), 3, "{err}");
    }
}
