//! ML-DSA (FIPS 204) certificates made by OpenSSL ≥ 3.5 — the library linked into pkit,
//! through `native-ossl` — must parse with the right algorithm names, OIDs (RFC 9881:
//! id-ml-dsa-44/65/87 = 2.16.840.1.101.3.4.3.17/18/19, no parameters) and sizes. Python
//! `cryptography` (its own OpenSSL) loads the same files and checks their self-signatures,
//! as an independent reader.
//!
//! When pkit is built against an OpenSSL without ML-DSA (the system 3.0 instead of the
//! xtask's 3.5), the certificates come from Python `cryptography` instead, and the test
//! says so. `PKIT_SKIP_CORPUS=1` skips what needs Python.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

struct Variant {
    name: &'static str,
    oid: &'static str,
    public_key_len: usize,
    signature_len: usize,
}

const VARIANTS: [Variant; 3] = [
    Variant {
        name: "ML-DSA-44",
        oid: "2.16.840.1.101.3.4.3.17",
        public_key_len: 1312,
        signature_len: 2420,
    },
    Variant {
        name: "ML-DSA-65",
        oid: "2.16.840.1.101.3.4.3.18",
        public_key_len: 1952,
        signature_len: 3309,
    },
    Variant {
        name: "ML-DSA-87",
        oid: "2.16.840.1.101.3.4.3.19",
        public_key_len: 2592,
        signature_len: 4627,
    },
];

/// A self-signed certificate made with the OpenSSL linked through native-ossl, as DER;
/// `None` when that OpenSSL has no ML-DSA.
fn make_with_native_ossl(alg: &str) -> Option<Vec<u8>> {
    use native_ossl::pkey::{KeygenCtx, Pkey, Public};
    use native_ossl::x509::{X509Builder, X509NameOwned};
    let cname = std::ffi::CString::new(alg).unwrap();
    let Ok(mut kgen) = KeygenCtx::new(&cname) else {
        return None;
    };
    let key = kgen.generate().ok()?;
    let public = Pkey::<Public>::from(key.clone());
    let mut name = X509NameOwned::new().expect("X509_NAME_new");
    name.add_entry_by_txt(c"CN", format!("pkit test {alg}").as_bytes())
        .expect("CN");
    name.add_entry_by_txt(c"O", b"pkit").expect("O");
    let cert = X509Builder::new()
        .and_then(|b| b.set_version(2))
        .and_then(|b| b.set_serial_number(0x1234_5678))
        .and_then(|b| b.set_not_before_offset(0))
        .and_then(|b| b.set_not_after_offset(86_400))
        .and_then(|b| b.set_subject_name(&name))
        .and_then(|b| b.set_issuer_name(&name))
        .and_then(|b| b.set_public_key(&public))
        .and_then(|b| b.sign(&key, None))
        .unwrap_or_else(|e| panic!("building an {alg} certificate with OpenSSL: {e:?}"))
        .build();
    Some(cert.to_der().expect("i2d_X509"))
}

/// The same with Python `cryptography`, written to `dir`.
fn make_with_python(dir: &Path) -> Vec<PathBuf> {
    require_python_cryptography();
    let script = r#"
import datetime, sys
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives.asymmetric import mldsa
from cryptography.hazmat.primitives import serialization
out = sys.argv[1]
for n, cls in (("44", mldsa.MLDSA44PrivateKey), ("65", mldsa.MLDSA65PrivateKey),
               ("87", mldsa.MLDSA87PrivateKey)):
    k = cls.generate()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pkit test ML-DSA-" + n)])
    t = datetime.datetime(2025, 1, 1)
    c = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
         .public_key(k.public_key()).serial_number(0x12345678)
         .not_valid_before(t).not_valid_after(t + datetime.timedelta(days=1))
         .sign(k, None))
    open(f"{out}/ML-DSA-{n}.der", "wb").write(c.public_bytes(serialization.Encoding.DER))
"#;
    let r = run_with(
        "python3",
        &["-c", script, &dir.to_string_lossy()],
        None,
        std::time::Duration::from_secs(120),
    );
    assert_eq!(
        r.code,
        Some(0),
        "making ML-DSA certificates with Python cryptography (python3 -m pip install \
         cryptography==50.0.2): {}",
        r.describe()
    );
    VARIANTS
        .iter()
        .map(|v| dir.join(format!("{}.der", v.name)))
        .collect()
}

fn b64_len(v: &Value) -> usize {
    use base64::Engine;
    let s = v
        .as_str()
        .unwrap_or_else(|| panic!("not a base64 string: {v}"));
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .unwrap_or_else(|e| panic!("bad base64 ({e}): {s}"))
        .len()
}

#[test]
fn mldsa_certificates_parse() {
    let dir = tempdir();
    let mut made_by = "OpenSSL linked through native-ossl";
    let mut files: Vec<PathBuf> = Vec::new();
    for v in &VARIANTS {
        match make_with_native_ossl(v.name) {
            Some(der) => files.push(write_file(dir.path(), &format!("{}.der", v.name), &der)),
            None => {
                made_by = "Python cryptography (the linked OpenSSL has no ML-DSA)";
                files.clear();
                break;
            }
        }
    }
    let native = !files.is_empty();
    if !native && skip_corpus("mldsa_certificates_parse (the linked OpenSSL has no ML-DSA)") {
        return;
    }
    if !native {
        files = make_with_python(dir.path());
    }
    eprintln!("ML-DSA certificates made by {made_by}");
    // PEM copies too, to parse both encodings.
    let mut all = files.clone();
    for (f, v) in files.iter().zip(&VARIANTS) {
        let der = std::fs::read(f).unwrap();
        let text = pem::encode(&pem::Pem::new("CERTIFICATE", der));
        all.push(write_file(
            dir.path(),
            &format!("{}.pem", v.name),
            text.as_bytes(),
        ));
    }

    let mut args: Vec<String> = vec!["parse".into(), "-f".into(), "json".into()];
    args.extend(all.iter().map(|p| p.to_string_lossy().into_owned()));
    let run = pkit_run(&args);
    assert_eq!(run.code, Some(0), "pkit parse: {}", run.describe());
    let items = json_items(&run);
    assert_eq!(items.len(), 6);
    for (i, item) in items.iter().enumerate() {
        let v = &VARIANTS[i % 3];
        let what = format!("{} ({})", v.name, item["source"]);
        assert_eq!(item["type"], "certificate", "{what}");
        assert_eq!(
            item["source"],
            all[i].to_string_lossy().as_ref(),
            "{what}: order"
        );
        assert_eq!(item["serial_number"], "12345678", "{what}");
        assert_eq!(item["signature_algorithm"]["name"], v.name, "{what}");
        assert_eq!(item["signature_algorithm"]["oid"], v.oid, "{what}");
        assert!(
            item["signature_algorithm"].get("parameters_b64").is_none(),
            "{what}: ML-DSA AlgorithmIdentifiers have no parameters"
        );
        let spki = &item["subject_public_key_info"];
        assert_eq!(spki["algorithm"]["name"], v.name, "{what}");
        assert_eq!(spki["algorithm"]["oid"], v.oid, "{what}");
        assert!(spki["algorithm"].get("parameters_b64").is_none(), "{what}");
        assert_eq!(spki["key_type"], "ML-DSA", "{what}");
        assert_eq!(spki["parameters"], v.name, "{what}");
        assert_eq!(
            b64_len(&spki["public_key_b64"]),
            v.public_key_len,
            "{what}: public key"
        );
        assert_eq!(
            b64_len(&item["signature_value_b64"]),
            v.signature_len,
            "{what}: signature"
        );
        assert_eq!(item["subject_dn"], item["issuer_dn"], "{what}");
        let dn = if native {
            format!("O=pkit,CN=pkit test {}", v.name)
        } else {
            format!("CN=pkit test {}", v.name)
        };
        assert_eq!(item["subject_dn"], dn.as_str(), "{what}: RFC 4514 order");
    }

    // Text output names the algorithm; --summary groups by it.
    let run = pkit_run(&["parse", &all[1].to_string_lossy()]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(
        run.stdout_str().contains("ML-DSA-65"),
        "{}",
        run.stdout_str()
    );
    let mut args: Vec<String> = vec![
        "parse".into(),
        "--summary".into(),
        "-f".into(),
        "json".into(),
    ];
    args.extend(files.iter().map(|p| p.to_string_lossy().into_owned()));
    let run = pkit_run(&args);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let s: Value = serde_json::from_slice(&run.stdout).unwrap();
    let keys: Vec<(String, u64)> = s["items"][0]["by_key"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["count"].as_u64().unwrap(),
            )
        })
        .collect();
    for v in &VARIANTS {
        assert!(keys.contains(&(v.name.to_string(), 1)), "{keys:?}");
    }

    if skip_corpus("mldsa_certificates_parse: the Python cryptography cross-check") {
        return;
    }
    // The independent reader: Python cryptography loads each file, reports the same OID and
    // sizes, and verifies the self-signature.
    require_python_cryptography();
    let script = r#"
import sys
from cryptography import x509
from cryptography.hazmat.primitives import serialization
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    c = (x509.load_pem_x509_certificate if data.startswith(b"-----") else
         x509.load_der_x509_certificate)(data)
    pub = c.public_key().public_bytes(serialization.Encoding.Raw,
                                      serialization.PublicFormat.Raw)
    c.verify_directly_issued_by(c)
    print(c.signature_algorithm_oid.dotted_string, type(c.public_key()).__name__,
          len(pub), len(c.signature), "verified")
"#;
    let mut args: Vec<String> = vec!["-c".into(), script.into()];
    args.extend(all.iter().map(|p| p.to_string_lossy().into_owned()));
    let r = run_with("python3", &args, None, std::time::Duration::from_secs(120));
    assert_eq!(
        r.code,
        Some(0),
        "Python cryptography on the certificates: {}",
        r.describe()
    );
    let lines: Vec<String> = r.stdout_str().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 6, "{lines:?}");
    for (i, line) in lines.iter().enumerate() {
        let v = &VARIANTS[i % 3];
        let class = format!("MLDSA{}PublicKey", &v.name[7..]);
        assert_eq!(
            line,
            &format!(
                "{} {class} {} {} verified",
                v.oid, v.public_key_len, v.signature_len
            ),
            "{}",
            all[i].display()
        );
    }
}
