//! `pkit parse` against the OpenSSL command line tool on every certificate of the system
//! root store: names, serial, validity, signature and public-key algorithm must agree.
//!
//! Only presentation is normalised: OpenSSL prints the serial in uppercase and its dates as
//! `Dec 31 09:37:37 2030 GMT`. Names are compared as printed by
//! `-nameopt RFC2253,-esc_msb` (RFC 2253/4514 order and escaping, UTF-8 kept as is), which
//! is the form pkit's `subject_dn`/`issuer_dn` promise.

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// What OpenSSL says about one certificate.
#[derive(Debug, Default)]
struct OpensslView {
    fields: BTreeMap<&'static str, String>,
}

fn month(m: &str) -> Option<u32> {
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    months.iter().position(|x| *x == m).map(|i| i as u32 + 1)
}

/// `Dec 31 09:37:37 2030 GMT` → `2030-12-31T09:37:37Z`.
fn openssl_date_to_rfc3339(s: &str) -> Option<String> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    let [mon, day, time, year, "GMT"] = parts.as_slice() else {
        return None;
    };
    let m = month(mon)?;
    let d: u32 = day.parse().ok()?;
    let y: u32 = year.parse().ok()?;
    if time.len() != 8 {
        return None;
    }
    Some(format!("{y:04}-{m:02}-{d:02}T{time}Z"))
}

fn openssl_view(pem: &str) -> Result<OpensslView, String> {
    let r = run_with(
        "openssl",
        &[
            "x509",
            "-noout",
            "-subject",
            "-issuer",
            "-serial",
            "-startdate",
            "-enddate",
            "-nameopt",
            "RFC2253,-esc_msb",
            "-text",
        ],
        Some(pem.as_bytes()),
        Duration::from_secs(30),
    );
    if r.code != Some(0) {
        return Err(format!("openssl x509 failed: {}", r.describe()));
    }
    let out = r.stdout_str();
    let mut v = OpensslView::default();
    for line in out.lines() {
        let put = |v: &mut OpensslView, k: &'static str, val: &str| {
            v.fields.entry(k).or_insert_with(|| val.to_string());
        };
        if let Some(s) = line.strip_prefix("subject=") {
            put(&mut v, "subject_dn", s);
        } else if let Some(s) = line.strip_prefix("issuer=") {
            put(&mut v, "issuer_dn", s);
        } else if let Some(s) = line.strip_prefix("serial=") {
            put(&mut v, "serial_number", &s.to_ascii_lowercase());
        } else if let Some(s) = line.strip_prefix("notBefore=") {
            let d = openssl_date_to_rfc3339(s).ok_or(format!("odd date {s}"))?;
            put(&mut v, "not_before", &d);
        } else if let Some(s) = line.strip_prefix("notAfter=") {
            let d = openssl_date_to_rfc3339(s).ok_or(format!("odd date {s}"))?;
            put(&mut v, "not_after", &d);
        } else {
            let t = line.trim();
            if let Some(s) = t.strip_prefix("Signature Algorithm: ") {
                put(&mut v, "signature_algorithm", s);
            } else if let Some(s) = t.strip_prefix("Public Key Algorithm: ") {
                put(&mut v, "key_algorithm", s);
            } else if let Some(s) = t
                .strip_prefix("Public-Key: (")
                .or_else(|| t.strip_prefix("RSA Public-Key: ("))
            {
                put(&mut v, "key_bits", s.trim_end_matches(" bit)"));
            } else if let Some(s) = t.strip_prefix("NIST CURVE: ") {
                put(&mut v, "curve", s);
            }
        }
    }
    for k in [
        "subject_dn",
        "issuer_dn",
        "serial_number",
        "not_before",
        "not_after",
        "signature_algorithm",
        "key_algorithm",
        "key_bits",
    ] {
        if !v.fields.contains_key(k) {
            return Err(format!("openssl printed no {k}:\n{out}"));
        }
    }
    Ok(v)
}

/// The same fields from pkit's JSON for one certificate.
fn pkit_view(item: &Value) -> BTreeMap<&'static str, String> {
    let s = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => "<missing>".to_string(),
        other => other.to_string(),
    };
    let spki = &item["subject_public_key_info"];
    let mut m = BTreeMap::new();
    m.insert("subject_dn", s(&item["subject_dn"]));
    m.insert("issuer_dn", s(&item["issuer_dn"]));
    m.insert("serial_number", s(&item["serial_number"]));
    m.insert("not_before", s(&item["validity"]["not_before"]));
    m.insert("not_after", s(&item["validity"]["not_after"]));
    m.insert(
        "signature_algorithm",
        s(&item["signature_algorithm"]["name"]),
    );
    m.insert("key_algorithm", s(&spki["algorithm"]["name"]));
    m.insert("key_bits", s(&spki["key_bits"]));
    if spki["key_type"] == "EC" {
        m.insert("curve", s(&spki["parameters"]));
    }
    m
}

#[test]
fn root_store_agrees_with_openssl() {
    if skip_corpus("root_store_agrees_with_openssl") {
        return;
    }
    require_openssl();
    let certs = root_store();

    // pkit: the whole store in one run, one JSON object per certificate, in file order.
    let run = pkit_run(&["parse", ROOT_STORE, "-f", "jsonl"]);
    assert_eq!(
        run.code,
        Some(0),
        "pkit parse {ROOT_STORE}: {}",
        run.describe()
    );
    let items: Vec<Value> = run
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).expect("pkit jsonl line"))
        .collect();
    assert_eq!(
        items.len(),
        certs.len(),
        "pkit printed {} objects for {} certificates",
        items.len(),
        certs.len()
    );

    // OpenSSL: one run per certificate, a few at a time.
    let workers = 4;
    let views: Vec<Result<OpensslView, String>> = std::thread::scope(|s| {
        let chunks: Vec<_> = certs
            .chunks(certs.len().div_ceil(workers))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|c| openssl_view(&c.pem))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        chunks
            .into_iter()
            .flat_map(|h| h.join().expect("openssl worker"))
            .collect()
    });

    let mut mismatches = Vec::new();
    let mut compared = 0usize;
    for (i, (item, view)) in items.iter().zip(&views).enumerate() {
        let n = i + 1;
        let source = format!("{ROOT_STORE}#{n}");
        assert_eq!(item["source"], source.as_str(), "item order");
        assert_eq!(item["type"], "certificate", "{source}");
        let view = match view {
            Ok(v) => v,
            Err(e) => {
                mismatches.push(format!("#{n}: {e}"));
                continue;
            }
        };
        let ours = pkit_view(item);
        for (k, theirs) in &view.fields {
            let mine = ours.get(k).map(String::as_str).unwrap_or("<missing>");
            compared += 1;
            if mine != theirs {
                mismatches.push(format!(
                    "#{n} ({}): {k}: pkit {mine:?}, openssl {theirs:?}",
                    view.fields["subject_dn"]
                ));
            }
        }
    }
    eprintln!(
        "root store: {} certificates, {compared} fields compared, {} mismatches",
        certs.len(),
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "pkit and `openssl x509` disagree on {} field(s):\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn openssl_date_conversion() {
    assert_eq!(
        openssl_date_to_rfc3339("Dec 31 09:37:37 2030 GMT").as_deref(),
        Some("2030-12-31T09:37:37Z")
    );
    assert_eq!(
        openssl_date_to_rfc3339("May  5 09:37:37 2011 GMT").as_deref(),
        Some("2011-05-05T09:37:37Z")
    );
    assert_eq!(openssl_date_to_rfc3339("garbage"), None);
}
