//! der-parse-performance.md's Library Comparison in one run: the same certificates parsed
//! by pkit, synta-certificate, x509-parser, x509-cert and OpenSSL's `d2i_X509` (the linked
//! 3.5, through native-ossl), parse-only and parse + all fields, on three sets: the
//! system root store, the generated CCADB-shaped hierarchy and its ML-DSA twin (the sets
//! `pkit bench parse` makes and caches).
//!
//! ```text
//! cargo xtask bench --bench compare            # markdown tables on stdout
//! PKIT_COMPARE_TIME=2 PKIT_COMPARE_SIZE=9898 cargo xtask bench --bench compare
//! ```
//!
//! Each cell is the median of three rounds; in a round every library parses the whole set
//! repeatedly for `PKIT_COMPARE_TIME` seconds (default 0.5), the libraries taking turns,
//! so drift of the machine spreads over all of them. One thread throughout.
//!
//! "All fields" is the same for every library: serial number as hex, issuer and subject as
//! strings, both validity times, the signature and key algorithm identifiers, the key and
//! signature bytes, each through the library's own accessors.
//!
//! Under `cargo test` (no `--bench` argument) each library parses each certificate of the
//! root store once, so the test run checks that the bench still builds and agrees.

use pkit::bench::datasets::{self, Dataset, Synthetic};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use x509_cert::der::Decode as _;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Parse = fn(&[u8]) -> Option<usize>;

struct Lib {
    name: &'static str,
    parse: Parse,
    fields: Parse,
}

fn hex(b: &[u8]) -> String {
    pkit::der::hex(b)
}

fn pkit_parse(d: &[u8]) -> Option<usize> {
    pkit::pki::cert::Certificate::from_der(d)
        .ok()
        .map(|c| c.raw.len())
}

fn pkit_fields(d: &[u8]) -> Option<usize> {
    pkit::bench::parse::all_fields(d).ok()
}

fn synta_decode(d: &[u8]) -> Option<synta_certificate::Certificate<'_>> {
    synta::Decoder::new(d, synta::Encoding::Der).decode().ok()
}

fn synta_parse(d: &[u8]) -> Option<usize> {
    synta_decode(d).map(|c| c.signature_value.as_bytes().len())
}

fn synta_time(t: &synta_certificate::Time) -> String {
    match t {
        synta_certificate::Time::UtcTime(u) => u.to_string(),
        synta_certificate::Time::GeneralTime(g) => g.to_string(),
    }
}

fn synta_fields(d: &[u8]) -> Option<usize> {
    let c = synta_decode(d)?;
    let t = &c.tbs_certificate;
    let serial = hex(t.serial_number.as_bytes());
    let issuer = synta_certificate::name::format_dn(t.issuer.as_bytes());
    let subject = synta_certificate::name::format_dn(t.subject.as_bytes());
    let (nb, na) = (
        synta_time(&t.validity.not_before),
        synta_time(&t.validity.not_after),
    );
    let sig_alg = c.signature_algorithm.algorithm.to_string();
    let key_alg = t.subject_public_key_info.algorithm.algorithm.to_string();
    let key = t
        .subject_public_key_info
        .subject_public_key
        .as_bytes()
        .len();
    let sig = c.signature_value.as_bytes().len();
    Some(
        serial.len()
            + issuer.len()
            + subject.len()
            + nb.len()
            + na.len()
            + sig_alg.len()
            + key_alg.len()
            + key
            + sig,
    )
}

fn x509_parser_parse(d: &[u8]) -> Option<usize> {
    x509_parser::parse_x509_certificate(d)
        .ok()
        .map(|(_, c)| c.signature_value.data.len())
}

fn x509_parser_fields(d: &[u8]) -> Option<usize> {
    let (_, c) = x509_parser::parse_x509_certificate(d).ok()?;
    let serial = c.raw_serial_as_string();
    let issuer = c.issuer().to_string();
    let subject = c.subject().to_string();
    let (nb, na) = (
        c.validity().not_before.to_string(),
        c.validity().not_after.to_string(),
    );
    let sig_alg = c.signature_algorithm.algorithm.to_id_string();
    let key_alg = c.public_key().algorithm.algorithm.to_id_string();
    let key = c.public_key().subject_public_key.data.len();
    let sig = c.signature_value.data.len();
    Some(
        serial.len()
            + issuer.len()
            + subject.len()
            + nb.len()
            + na.len()
            + sig_alg.len()
            + key_alg.len()
            + key
            + sig,
    )
}

fn x509_cert_parse(d: &[u8]) -> Option<usize> {
    x509_cert::Certificate::from_der(d)
        .ok()
        .map(|c| c.signature().raw_bytes().len())
}

fn x509_cert_fields(d: &[u8]) -> Option<usize> {
    let c = x509_cert::Certificate::from_der(d).ok()?;
    let t = c.tbs_certificate();
    let serial = t.serial_number().to_string();
    let issuer = t.issuer().to_string();
    let subject = t.subject().to_string();
    let (nb, na) = (
        t.validity().not_before.to_string(),
        t.validity().not_after.to_string(),
    );
    let sig_alg = c.signature_algorithm().oid.to_string();
    let key_alg = t.subject_public_key_info().algorithm.oid.to_string();
    let key = t
        .subject_public_key_info()
        .subject_public_key
        .raw_bytes()
        .len();
    let sig = c.signature().raw_bytes().len();
    Some(
        serial.len()
            + issuer.len()
            + subject.len()
            + nb.len()
            + na.len()
            + sig_alg.len()
            + key_alg.len()
            + key
            + sig,
    )
}

fn openssl_parse(d: &[u8]) -> Option<usize> {
    native_ossl::x509::X509::from_der(d)
        .ok()
        .map(|c| black_box(c).serial_number().map_or(0, |_| 1))
}

fn openssl_fields(d: &[u8]) -> Option<usize> {
    let c = native_ossl::x509::X509::from_der(d).ok()?;
    let serial = hex(&c.serial_number_bytes().unwrap_or_default());
    let issuer = c.issuer_name().to_string().unwrap_or_default();
    let subject = c.subject_name().to_string().unwrap_or_default();
    let (nb, na) = (
        c.not_before_str().unwrap_or_default(),
        c.not_after_str().unwrap_or_default(),
    );
    let info = c.signature_info().ok();
    let key_bits = c.public_key_bits().unwrap_or(0) as usize;
    Some(
        serial.len()
            + issuer.len()
            + subject.len()
            + nb.len()
            + na.len()
            + usize::from(info.is_some())
            + key_bits,
    )
}

const LIBS: [Lib; 5] = [
    Lib {
        name: "pkit",
        parse: pkit_parse,
        fields: pkit_fields,
    },
    Lib {
        name: "synta",
        parse: synta_parse,
        fields: synta_fields,
    },
    Lib {
        name: "x509-parser",
        parse: x509_parser_parse,
        fields: x509_parser_fields,
    },
    Lib {
        name: "x509-cert",
        parse: x509_cert_parse,
        fields: x509_cert_fields,
    },
    Lib {
        name: "OpenSSL d2i_X509",
        parse: openssl_parse,
        fields: openssl_fields,
    },
];

/// Nanoseconds per certificate of `f` over `set`, repeated for at least `time`; `None`
/// when the library cannot parse some certificate of the set.
fn ns_per_cert(f: Parse, set: &[Vec<u8>], time: Duration) -> Option<f64> {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < time || n == 0 {
        for d in set {
            black_box(f(black_box(d))?);
        }
        n += set.len() as u64;
    }
    Some(start.elapsed().as_nanos() as f64 / n as f64)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn cell(v: Option<f64>) -> String {
    match v {
        Some(ns) if ns >= 1000.0 => format!("{:.2} µs", ns / 1000.0),
        Some(ns) => format!("{ns:.0} ns"),
        None => "fails".into(),
    }
}

fn sets(size: usize) -> Vec<Dataset> {
    let store = PathBuf::from(pkit::pki::verify::trust_store::SYSTEM_ROOTS);
    let template = pkit::bench::parse::load(&store).expect("the system root store");
    let cache = datasets::default_cache_dir();
    let backend = pkit::pki::backend::openssl::backend();
    let mut out = vec![Dataset {
        name: "root store".into(),
        roots: template.len(),
        certs: template.clone(),
    }];
    for kind in [Synthetic::Ccadb, Synthetic::MlDsa] {
        let (set, _) =
            datasets::synthetic(backend, kind, size, &template, &cache).expect("a generated set");
        out.push(set);
    }
    out
}

fn main() {
    let benching = std::env::args().any(|a| a == "--bench");
    if !benching {
        // Test mode: every library reads every root; pkit must agree that they parse.
        let store = PathBuf::from(pkit::pki::verify::trust_store::SYSTEM_ROOTS);
        let Ok(roots) = pkit::bench::parse::load(&store) else {
            eprintln!("compare bench: no root store; nothing to check");
            return;
        };
        for lib in &LIBS {
            let parsed = roots.iter().filter(|d| (lib.parse)(d).is_some()).count();
            let fields = roots.iter().filter(|d| (lib.fields)(d).is_some()).count();
            eprintln!(
                "compare bench (test mode): {} parses {parsed}/{} roots, fields {fields}",
                lib.name,
                roots.len()
            );
            if lib.name == "pkit" {
                assert_eq!((parsed, fields), (roots.len(), roots.len()));
            }
        }
        return;
    }
    let time = Duration::from_secs_f64(
        std::env::var("PKIT_COMPARE_TIME")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.5),
    );
    let size = std::env::var("PKIT_COMPARE_SIZE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(datasets::CCADB_TOTAL);
    let sets = sets(size);
    for (title, pick) in [
        ("Parse Only", (|l: &Lib| l.parse) as fn(&Lib) -> Parse),
        ("Parse + All Fields", |l: &Lib| l.fields),
    ] {
        println!("## Library Comparison — {title}\n");
        let mut header = vec!["Dataset".to_string()];
        header.extend(LIBS.iter().map(|l| l.name.to_string()));
        header.push("pkit / synta".into());
        println!("| {} |", header.join(" | "));
        println!("|---|{}", "---:|".repeat(header.len() - 1));
        for set in &sets {
            let mut rounds: Vec<Vec<Option<f64>>> = vec![Vec::new(); LIBS.len()];
            for _ in 0..3 {
                for (i, lib) in LIBS.iter().enumerate() {
                    rounds[i].push(ns_per_cert(pick(lib), &set.certs, time));
                }
            }
            let cells: Vec<Option<f64>> = rounds
                .into_iter()
                .map(|r| r.into_iter().collect::<Option<Vec<f64>>>().map(median))
                .collect();
            let ratio = match (cells[0], cells[1]) {
                (Some(p), Some(s)) => format!("{:.2}×", p / s),
                _ => "–".into(),
            };
            let mut row = vec![format!("{} ({} certs)", set.name, set.certs.len())];
            row.extend(cells.into_iter().map(cell));
            row.push(ratio);
            println!("| {} |", row.join(" | "));
        }
        println!();
    }
}
