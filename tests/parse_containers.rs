//! `pkit parse` on real CSRs, CRLs, OCSP messages, PKCS#7 and PKCS#12 files and keys
//! from the pinned `cryptography_vectors` package (`python3 -m pip install
//! cryptography_vectors==50.0.2`): a few files of each kind, with the fields their
//! contents are known to have. Passwords are the ones cryptography's own tests use.
//! Without the package each test prints a note and passes, except with `CI=true`, where
//! it fails.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The package's vectors directory, or `None` (after a note; a failure with `CI=true`)
/// when it is not installed.
fn vectors(test: &str) -> Option<PathBuf> {
    optional(
        Peer::CryptographyVectors,
        &format!("parse_containers::{test}"),
    )
    .map(PathBuf::from)
}

/// Parse one vector as JSON and return its single item (exit 0 required).
fn item(root: &Path, rel: &str, extra: &[&str]) -> Value {
    let path = root.join(rel);
    let mut args = vec!["parse".to_string(), path.display().to_string()];
    args.extend(["-f", "json"].iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    let run = pkit_run(&args);
    assert_eq!(run.code, Some(0), "{rel}: {}", run.describe());
    let items = json_items(&run);
    assert_eq!(items.len(), 1, "{rel}");
    items[0].clone()
}

#[test]
fn csr_crl_and_ocsp() {
    let Some(v) = vectors("csr_crl_and_ocsp") else {
        return;
    };
    let csr = item(&v, "x509/requests/san_rsa_sha1.pem", &[]);
    assert_eq!(csr["type"], "csr");
    assert_eq!(csr["version"], 1);
    assert!(csr["subject_dn"]
        .as_str()
        .unwrap()
        .contains("CN=cryptography.io"));
    assert_eq!(csr["extensions"][0]["name"], "subjectAltName");
    assert_eq!(csr["subject_public_key_info"]["key_type"], "RSA");

    let crl = item(&v, "x509/custom/crl_almost_10k.pem", &[]);
    assert_eq!(crl["type"], "crl");
    assert_eq!(crl["revoked_count"], 9999);
    assert_eq!(crl["revoked_certificates"].as_array().unwrap().len(), 9999);
    let crl = item(&v, "x509/custom/crl_all_reasons.pem", &[]);
    assert_eq!(crl["version"], 2);
    assert_eq!(crl["next_update"], "2016-01-01T00:00:00Z");

    let req = item(&v, "x509/ocsp/req-sha1.der", &[]);
    assert_eq!(req["type"], "ocsp_request");
    let id = &req["request_list"][0]["cert_id"];
    assert_eq!(id["hash_algorithm"]["name"], "sha1");
    assert_eq!(id["issuer_name_hash"].as_str().unwrap().len(), 40);

    let resp = item(&v, "x509/ocsp/resp-revoked-reason.der", &[]);
    assert_eq!(resp["response_status"], "successful");
    let status = &resp["responses"][0]["cert_status"];
    assert_eq!(status["status"], "revoked");
    assert_eq!(status["revocation_reason"]["name"], "superseded");
    assert_eq!(resp["certs"][0]["type"], "certificate");
    let key_hash = item(&v, "x509/ocsp/resp-responder-key-hash.der", &[]);
    assert!(key_hash["responder_id"]["by_key"].is_string());

    let unauth = item(&v, "x509/ocsp/resp-unauthorized.der", &[]);
    assert_eq!(unauth["response_status"], "unauthorized");
    assert!(unauth.get("responses").is_none());
}

#[test]
fn pkcs7() {
    let Some(v) = vectors("pkcs7") else { return };
    let p = item(&v, "pkcs7/amazon-roots.der", &[]);
    let sd = &p["signed_data"];
    assert_eq!(sd["certificates"].as_array().unwrap().len(), 2);
    assert!(sd["signer_infos"].as_array().unwrap().is_empty());
    // -f pem extracts the certificates.
    let run = pkit_run(&[
        "parse".to_string(),
        v.join("pkcs7/amazon-roots.der").display().to_string(),
        "-f".into(),
        "pem".into(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.stdout_str().matches("BEGIN CERTIFICATE").count(), 2);

    let a = item(&v, "pkcs7/authenticode.der", &[]);
    let sd = &a["signed_data"];
    assert_eq!(sd["encap_content_type"]["name"], "spcIndirectDataContext");
    let signer = &sd["signer_infos"][0];
    assert_eq!(signer["digest_algorithm"]["name"], "sha256");
    let names: Vec<&str> = signer["signed_attributes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|x| x["name"].as_str())
        .collect();
    assert!(names.contains(&"messageDigest"), "{names:?}");

    let e = item(&v, "pkcs7/enveloped.pem", &[]);
    assert_eq!(e["content_type"]["name"], "pkcs7-envelopedData");
}

#[test]
fn pkcs12() {
    let Some(v) = vectors("pkcs12") else { return };
    let p = item(
        &v,
        "pkcs12/cert-key-aes256cbc.p12",
        &["--passin", "pass:cryptography"],
    );
    assert_eq!(p["mac_data"]["verified"], true);
    let safes = p["auth_safe"].as_array().unwrap();
    assert_eq!(safes[0]["encrypted"], true);
    assert_eq!(safes[0]["encryption_algorithm"]["name"], "PBES2");
    let cert = &safes[0]["bags"][0]["certificate"];
    let key = &safes[1]["bags"][0]["private_key"];
    assert_eq!(key["key_type"], "EC");
    // The key is the certificate's.
    assert_eq!(
        key["public_key"]["sha256"],
        cert["subject_public_key_info"]["sha256"]
    );
    assert!(key.get("private_key_b64").is_none());

    // Written without a password: the MAC is under the absent or the empty one.
    let n = item(&v, "pkcs12/name-all-no-pwd.p12", &[]);
    assert_eq!(n["mac_data"]["password"], "absent");
    let names = n.to_string();
    assert!(names.contains("\"friendlyName\""), "{names}");
    let j = item(&v, "pkcs12/java-truststore.p12", &[]);
    assert_eq!(j["mac_data"]["password"], "empty");

    // An encrypted safe without --passin: the file described as far as it can be seen
    // (the safe's encryption, its bags null) with a line saying what is left out; asked
    // for its contents (-f pem), exit 3 with that line.
    let locked = v.join("pkcs12/no-name-pwd.p12").display().to_string();
    let run = pkit_run(&["parse", &locked, "-f", "json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(
        run.stderr_str().contains("listed with --passin"),
        "{}",
        run.describe()
    );
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let safes = doc["items"][0]["auth_safe"].as_array().unwrap();
    let shut: Vec<&serde_json::Value> = safes.iter().filter(|s| s["encrypted"] == true).collect();
    assert!(!shut.is_empty(), "{doc}");
    for s in shut {
        assert!(
            s["bags"].is_null() && s["encrypted_data_length"].as_u64() > Some(0),
            "{s}"
        );
        assert!(s["encryption_algorithm"]["name"].is_string(), "{s}");
    }
    assert_eq!(
        doc["items"][0]["mac_data"]["verified"],
        serde_json::Value::Null
    );
    let run = pkit_run(&["parse", &locked, "-f", "pem"]);
    assert_eq!(run.code, Some(3), "{}", run.describe());
    assert!(run.stdout.is_empty(), "{}", run.describe());
    assert!(
        run.stderr_str().contains("listed with --passin"),
        "{}",
        run.describe()
    );
    // A wrong password fails the MAC.
    let run = pkit_run(&[
        "parse".to_string(),
        v.join("pkcs12/no-name-pwd.p12").display().to_string(),
        "--passin".into(),
        "pass:wrong".into(),
    ]);
    assert_eq!(run.code, Some(3), "{}", run.describe());
    let ok = item(&v, "pkcs12/no-name-pwd.p12", &["--passin", "pass:password"]);
    assert_eq!(ok["mac_data"]["verified"], true);

    // RC2-40 needs OpenSSL's legacy provider: parsed where it exists, exit 5 where not.
    let run = pkit_run(&[
        "parse".to_string(),
        v.join("pkcs12/cert-rc2-key-3des.p12").display().to_string(),
        "--passin".into(),
        "pass:cryptography".into(),
    ]);
    match run.code {
        Some(0) => {}
        Some(5) => assert!(run.stderr_str().contains("legacy provider")),
        _ => panic!("{}", run.describe()),
    }
}

#[test]
fn keys() {
    let Some(v) = vectors("keys") else { return };
    let k = item(&v, "asymmetric/MLDSA/mldsa44_priv.der", &[]);
    assert_eq!(k["type"], "private_key");
    assert_eq!(k["parameters"], "ML-DSA-44");
    assert_eq!(k["ml_dsa_private_key_form"], "seed");
    assert!(k.get("seed_b64").is_none());
    let k = item(&v, "asymmetric/MLDSA/mldsa44_priv.der", &["--show-private"]);
    assert!(k["seed_b64"].is_string());
    let k = item(&v, "asymmetric/MLDSA/mldsa65_noseed_priv.der", &[]);
    assert_eq!(k["ml_dsa_private_key_form"], "expanded");
    let p = item(&v, "asymmetric/MLDSA/mldsa44_pub.der", &[]);
    assert_eq!(p["public_key"]["parameters"], "ML-DSA-44");

    let e = item(&v, "asymmetric/PKCS8/ed25519-scrypt.pem", &[]);
    assert_eq!(e["type"], "encrypted_private_key");
    assert_eq!(e["encryption_algorithm"]["kdf"]["name"], "id-scrypt");
    assert!(e.get("private_key").is_none());
    let e = item(
        &v,
        "asymmetric/PKCS8/ed25519-scrypt.pem",
        &["--passin", "pass:hunter42"],
    );
    assert_eq!(e["private_key"]["key_type"], "Ed25519");
    let e = item(
        &v,
        "asymmetric/PKCS8/enc-rsa-pkcs8.pem",
        &["--passin", "pass:foobar"],
    );
    assert_eq!(e["private_key"]["key_bits"], 1024);
    let r = item(&v, "asymmetric/PKCS8/unenc-rsa-pkcs8.pem", &[]);
    assert_eq!(r["key_type"], "RSA");
    assert!(r["public_key"]["sha256"].is_string());
}
