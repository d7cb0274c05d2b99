//! `pkit mtc` through the real binary: a CA issues, checkpoints and hands out
//! certificates; `pkit mtc verify` accepts them and names the failing §7.2 step for
//! tampered ones; OpenSSL reads the DER independently, and an RFC 9162 verifier in Python
//! checks the inclusion and consistency proofs against trees it builds itself.

mod common;

use common::*;
use std::path::Path;

const NOW: &str = "2026-11-01T00:00:00Z";
const LATER: &str = "2026-11-02T00:00:00Z";

/// `pkit mtc ca new --dir DIR --ca-id CA_ID --alg ALG --now NOW`.
fn ca_new(dir: &Path, ca_id: &str, alg: &str) -> Run {
    pk(&[
        "mtc",
        "ca",
        "new",
        "--dir",
        &s(dir),
        "--ca-id",
        ca_id,
        "--alg",
        alg,
        "--now",
        NOW,
    ])
}

fn new_ca(dir: &Path, alg: &str) {
    let r = ca_new(dir, "32473.1", alg);
    assert_eq!(r.code, Some(0), "mtc ca new: {}", r.describe());
}

/// `n` entries with subjects `CN=host{i}.example`, added at NOW.
fn add_many(dir: &Path, first: usize, n: usize) {
    mtc_add(dir, first, n, None, Some(NOW));
}

/// A CA in a fresh directory with `n` entries checkpointed; the checkpoint's note.
fn checkpointed(alg: &str, n: usize) -> (tempfile::TempDir, String) {
    let t = tempdir();
    new_ca(t.path(), alg);
    add_many(t.path(), 0, n);
    let note = checkpoint(t.path());
    (t, note)
}

/// A CA with `n` entries checkpointed, and the standalone certificate of `index`.
fn issued(alg: &str, n: usize, index: u64) -> (tempfile::TempDir, std::path::PathBuf) {
    let (t, _) = checkpointed(alg, n);
    let p = cert(t.path(), index, "c.pem", &[]);
    (t, p)
}

fn checkpoint(dir: &Path) -> String {
    pk_ok(&["mtc", "checkpoint", "--dir", &s(dir), "--now", NOW]).stdout_str()
}

/// `pkit mtc cert --dir DIR --index INDEX -o OUT --now LATER [extra]`.
fn cert_run(dir: &Path, index: u64, out: &Path, extra: &[&str]) -> Run {
    let (d, idx, o) = (s(dir), index.to_string(), s(out));
    let mut args = vec![
        "mtc", "cert", "--dir", &d, "--index", &idx, "-o", &o, "--now", LATER,
    ];
    args.extend_from_slice(extra);
    pk(&args)
}

/// The certificate of `index` (with `extra` options) in `dir/name`.
fn cert(dir: &Path, index: u64, name: &str, extra: &[&str]) -> std::path::PathBuf {
    let out = dir.join(name);
    let r = cert_run(dir, index, &out, extra);
    assert_eq!(r.code, Some(0), "mtc cert: {}", r.describe());
    out
}

fn verify(dir: &Path, cert: &Path, extra: &[&str]) -> Run {
    let ca = dir.join("mtc-ca.pem");
    let mut args = vec![
        "mtc",
        "verify",
        cert.to_str().unwrap(),
        "--ca",
        ca.to_str().unwrap(),
        "--now",
        LATER,
    ];
    args.extend_from_slice(extra);
    pk(&args)
}

fn der_of(pem_path: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(pem_path).unwrap();
    pem::parse(text).unwrap().contents().to_vec()
}

/// A chain as an ACME server serves it (the certificate, then the MTC CA certificate):
/// the CA's own block is the trust anchor, skipped; the CA certificate alone is no
/// certificate to verify.
#[test]
fn a_chain_ending_with_the_ca_certificate_verifies() {
    let (t, leaf) = issued("ed25519", 3, 1);
    let dir = t.path();
    let ca = std::fs::read_to_string(dir.join("mtc-ca.pem")).unwrap();
    let chain = dir.join("fullchain.pem");
    std::fs::write(&chain, std::fs::read_to_string(&leaf).unwrap() + &ca).unwrap();
    let r = verify(dir, &chain, &[]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(r.stdout_str().lines().count(), 1, "{}", r.describe());
    let r = verify(dir, &dir.join("mtc-ca.pem"), &[]);
    common::refused(&r, 2, &["no MTC certificate", "mtc-ca.pem"], "the CA alone");
}

#[test]
fn thousand_entries_all_verify() {
    let (t, note) = checkpointed("ed25519", 1000);
    let dir = t.path();
    assert!(
        note.starts_with("oid/1.3.6.1.4.1.32473.1.0.1\n1000\n"),
        "{note}"
    );
    assert!(
        note.contains("\n\u{2014} oid/1.3.6.1.4.1.32473.1 "),
        "{note}"
    );
    let all = cert(dir, 0, "all.pem", &["--count", "1000"]);
    let r = verify(dir, &all, &[]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(
        r.stdout_str()
            .lines()
            .filter(|l| l.contains(": valid (cosigned"))
            .count(),
        1000
    );
    // A second batch is covered by the second checkpoint's subtrees.
    add_many(dir, 1000, 37);
    let note2 = checkpoint(dir);
    assert!(note2.contains("\n1037\n"), "{note2}");
    let more = cert(dir, 1000, "more.pem", &["--count", "37"]);
    let r = verify(dir, &more, &["-f", "json"]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let items = json_items(&r);
    assert_eq!(items.len(), 37);
    assert_eq!(items[0]["log"], 1);
    assert_eq!(items[0]["index"], 1000);
    assert_eq!(items[0]["cosigners"][0], "32473.1");
}

/// Flip one byte at `at` of the certificate and verify the result.
fn flipped(dir: &Path, der: &[u8], at: usize, name: &str) -> Run {
    let mut bad = der.to_vec();
    bad[at] ^= 0x01;
    let p = write_file(dir, name, &bad);
    verify(dir, &p, &["-f", "json"])
}

fn failed_step(r: &Run) -> String {
    assert_eq!(r.code, Some(1), "{}", r.describe());
    json_items(r)[0]["failed_step"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[test]
fn tampering_fails_the_named_step() {
    let (t, p) = issued("ecdsa-p256", 20, 5);
    let dir = t.path();
    let der = der_of(&p);
    assert_eq!(verify(dir, &p, &[]).code, Some(0));
    let c = pkit::pki::cert::Certificate::from_der(&der).unwrap();
    let sig_at = c.signature.bytes.as_ptr() as usize - der.as_ptr() as usize;
    let proof = pkit::mtc::proof::MtcProof::decode(c.signature.bytes).unwrap();
    assert!(!proof.inclusion_proof.is_empty());
    let key_at = c.spki.raw.as_ptr() as usize - der.as_ptr() as usize + c.spki.raw.len() - 1;
    // extensions(2) start(6) end(6) proof length(2), then the first hash.
    let hash_at = sig_at + 16 + 3;
    let cosig_at = der.len() - 1;
    assert_eq!(
        failed_step(&flipped(dir, &der, key_at, "k.der")),
        "cosignature"
    );
    assert_eq!(
        failed_step(&flipped(dir, &der, hash_at, "h.der")),
        "cosignature"
    );
    assert_eq!(
        failed_step(&flipped(dir, &der, cosig_at, "s.der")),
        "cosignature"
    );
    // The end of the subtree: [0, 20) becomes [0, 21): still valid, the proof is too
    // short for it.
    let r = flipped(dir, &der, sig_at + 2 + 11, "e.der");
    assert_eq!(failed_step(&r), "inclusion-proof");
    // Text output names the step too.
    let mut bad = der.clone();
    bad[cosig_at] ^= 1;
    let bp = write_file(dir, "text.der", &bad);
    let r = verify(dir, &bp, &[]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stdout_str().contains("invalid: step cosignature"),
        "{}",
        r.stdout_str()
    );
    // An X.509 certificate stops at the first step; what only an MTCProof could say is
    // null, not a guess.
    let x509 = dir.join("x509");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&x509),
        "--subject",
        "CN=X",
        "--no-passout",
    ]);
    let r = verify(dir, &x509.join("ca.pem"), &["-f", "json"]);
    assert_eq!(failed_step(&r), "signature-algorithm");
    let item = &json_items(&r)[0];
    for k in [
        "proof_length",
        "cosigners",
        "verified_cosigners",
        "landmark_relative",
    ] {
        assert!(item[k].is_null(), "{k}: {item}");
    }
}

/// Many certificates in one call have their cosignatures checked in one batch: a
/// certificate whose cosignature was tampered with fails alone, at its step.
#[test]
fn a_bad_cosignature_among_many_is_named() {
    let (t, note) = checkpointed("ed25519", 40);
    let dir = t.path();
    assert!(note.contains("\n40\n"), "{note}");
    let all = cert(dir, 0, "all.pem", &["--count", "40"]);
    let one = cert(dir, 7, "one.pem", &[]);
    let mut bad = der_of(&one);
    let last = bad.len() - 1;
    bad[last] ^= 0x01;
    let bad_pem = pem::encode(&pem::Pem::new("CERTIFICATE", bad));
    let mut text = std::fs::read_to_string(&all).unwrap();
    let at = text.match_indices("-----BEGIN").nth(20).unwrap().0;
    text.insert_str(at, &bad_pem);
    let mixed = write_file(dir, "mixed.pem", text.as_bytes());
    let r = verify(dir, &mixed, &["-f", "json"]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let items = json_items(&r);
    assert_eq!(items.len(), 41);
    for (i, v) in items.iter().enumerate() {
        if i == 20 {
            assert_eq!(v["failed_step"], "cosignature", "{v}");
        } else {
            assert!(v["failed_step"].is_null(), "certificate {i}: {v}");
        }
    }
}

#[test]
fn landmark_relative_certificates() {
    let t = tempdir();
    let dir = t.path();
    new_ca(dir, "ml-dsa-44");
    let d = s(dir);
    // Two batches, each checkpointed and then made a landmark.
    for (first, n) in [(0, 13), (13, 9)] {
        add_many(dir, first, n);
        checkpoint(dir);
        pk_ok(&["mtc", "landmark", "--dir", &d, "allocate", "--now", NOW]);
    }
    let list = pk_ok(&["mtc", "landmark", "--dir", &d, "list", "--now", LATER]).stdout_str();
    assert!(list.starts_with("2\n22 "), "{list}");
    let subtrees = pk_ok(&[
        "mtc",
        "landmark",
        "--dir",
        &d,
        "list",
        "--subtrees",
        "--now",
        LATER,
    ])
    .stdout_str();
    let trusted = write_file(dir, "trusted.txt", subtrees.as_bytes());
    let lm = cert(dir, 15, "lm.pem", &["--landmark"]);
    let r = verify(dir, &lm, &["--trusted-subtrees", &s(&trusted)]);
    assert_eq!(r.code, Some(0), "{}\n{subtrees}", r.describe());
    assert!(r.stdout_str().contains("trusted subtree"));
    // Against a wrong trusted hash: no fallback to signatures.
    let wrong: String = subtrees
        .lines()
        .map(|l| {
            let (head, hash) = l.rsplit_once(' ').unwrap();
            let flipped = if hash.starts_with('0') { "1" } else { "0" };
            format!("{head} {flipped}{}\n", &hash[1..])
        })
        .collect();
    let wrong = write_file(dir, "wrong.txt", wrong.as_bytes());
    let r = verify(dir, &lm, &["--trusted-subtrees", &s(&wrong), "-f", "json"]);
    assert_eq!(failed_step(&r), "trusted-subtree");
    // Without the landmark, a certificate with no cosignature is not trusted.
    let r = verify(dir, &lm, &["-f", "json"]);
    assert_eq!(failed_step(&r), "cosignature");
    // The standalone certificate of the same entry still verifies without landmarks.
    let sa = cert(dir, 15, "sa.pem", &[]);
    assert_eq!(verify(dir, &sa, &[]).code, Some(0));
}

/// `pkit mtc cert --stored` for `[index, index + count)`.
fn stored(dir: &Path, index: u64, count: u64, extra: &[&str]) -> Run {
    let (i, c) = (index.to_string(), count.to_string());
    let mut args = vec![
        "mtc",
        "cert",
        "--dir",
        dir.to_str().unwrap(),
        "--index",
        &i,
        "--count",
        &c,
        "--stored",
    ];
    args.extend_from_slice(extra);
    pk(&args)
}

#[test]
fn issued_certificates_are_recorded() {
    let t = tempdir();
    let dir = t.path();
    let d = s(dir);
    new_ca(dir, "ed25519");
    add_many(dir, 0, 6);
    checkpoint(dir);
    pk_ok(&["mtc", "landmark", "--dir", &d, "allocate", "--now", NOW]);
    // Nothing is recorded before `cert` runs.
    refused(
        &stored(dir, 0, 1, &[]),
        2,
        &["no standalone certificate of entry 0 is recorded"],
        "--stored before cert",
    );
    let all = cert(dir, 0, "all.pem", &["--count", "6"]);
    let lm = cert(dir, 4, "lm.pem", &["--landmark"]);
    let pem_all = std::fs::read_to_string(&all).unwrap();
    // --stored prints exactly what was handed out, per kind.
    assert_eq!(stored(dir, 0, 6, &[]).stdout_str(), pem_all);
    let r = stored(dir, 4, 1, &["--landmark"]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(r.stdout_str(), std::fs::read_to_string(&lm).unwrap());
    refused(
        &stored(dir, 3, 2, &["--landmark"]),
        2,
        &["no landmark certificate of entry 3 is recorded"],
        "--stored --landmark past what was issued",
    );
    // The rows in mtc.db: each certificate's DER ends with its recorded MTCProof, whose
    // subtree is the signed one holding the entry.
    {
        use pkit::mtc::store::{open, open_url, CertKind, LogStore};
        // The log's own store, wherever the CA keeps it.
        let store: Box<dyn LogStore> = if common::on_postgres() {
            let url = std::fs::read_to_string(dir.join("db.url")).unwrap();
            open_url(url.trim(), None, pkit::store::postgres::plain).unwrap()
        } else {
            open(&dir.join("mtc.db")).unwrap()
        };
        let certs = store
            .stored_certificates(0, 6, CertKind::Standalone)
            .unwrap();
        let proofs = store.proofs_in(0, 6, CertKind::Standalone).unwrap();
        assert_eq!((certs.len(), proofs.len()), (6, 6));
        let first = pem_all.split("-----END CERTIFICATE-----").next().unwrap();
        let first = pem::parse(format!("{first}-----END CERTIFICATE-----\n")).unwrap();
        assert_eq!(certs[0].der, first.contents());
        for (c, p) in certs.iter().zip(&proofs) {
            assert_eq!(c.index, p.index);
            assert!(c.der.ends_with(&p.proof));
            assert!(p.subtree.contains(p.index));
        }
        // Checkpoint [0, 6) signs [0, 4) and [4, 6).
        assert_eq!((proofs[5].subtree.start, proofs[5].subtree.end), (4, 6));
        let lm_proof = store.proof(4, CertKind::Landmark).unwrap().unwrap();
        assert_eq!((lm_proof.subtree.start, lm_proof.subtree.end), (4, 6));
        assert_ne!(
            Some(lm_proof),
            store.proof(4, CertKind::Standalone).unwrap()
        );
    }
    // Issuing again replaces the record, and the certificate still verifies.
    add_many(dir, 6, 3);
    checkpoint(dir);
    let again = cert(dir, 5, "again.pem", &[]);
    let r = stored(dir, 5, 1, &[]);
    assert_eq!(r.stdout_str(), std::fs::read_to_string(&again).unwrap());
    assert_eq!(verify(dir, &again, &[]).code, Some(0));
}

#[test]
fn openssl_reads_the_certificates() {
    if skip_corpus("openssl_reads_the_certificates") {
        return;
    }
    require_openssl();
    let (t, c) = issued("ecdsa-p256", 3, 2);
    let dir = t.path();
    let (code, out) = ossl(&["x509", "-in", &s(&c), "-noout", "-text"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("1.3.6.1.5.5.7.6.67"), "{out}");
    assert!(
        out.contains("Serial Number: 281474976710658 (0x1000000000002)"),
        "{out}"
    );
    let (code, out) = ossl(&["asn1parse", "-in", &s(&c)]);
    assert_eq!(code, Some(0), "{out}");
    let ca = dir.join("mtc-ca.pem");
    let (code, out) = ossl(&["x509", "-in", &s(&ca), "-noout", "-text"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("1.3.6.1.5.5.7.1.38: critical"), "{out}");
    assert!(out.contains("1.3.6.1.5.5.7.6.36"), "{out}");
}

#[test]
fn bad_input_and_existing_outputs() {
    let (t, c) = issued("ed25519", 2, 1);
    let dir = t.path();
    let der = der_of(&c);
    let garbage = write_file(dir, "garbage.der", &[0x30, 0x82, 0xff, 0xff, 1, 2, 3]);
    assert_parse_failure(&verify(dir, &garbage, &[]), "garbage.der", "garbage");
    let truncated = write_file(dir, "trunc.der", &der[..der.len() / 2]);
    assert_parse_failure(&verify(dir, &truncated, &[]), "trunc.der", "truncated");
    // -o on an existing file without --force: exit 4, file untouched.
    let r = cert_run(dir, 0, &c, &[]);
    assert_eq!(r.code, Some(4), "{}", r.describe());
    assert_eq!(der_of(&c), der);
    // A second CA in the same directory: exit 4.
    let r = ca_new(dir, "32473.2", "ed25519");
    assert_eq!(r.code, Some(4), "{}", r.describe());
    // An index past the log: a usage error.
    let r = pk(&["mtc", "cert", "--dir", &s(dir), "--index", "9"]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    // A proof longer than any log can have is refused, not cut to the longest.
    let r = pk(&["mtc", "size", "--alg", "ed25519", "--proof-hashes", "48"]);
    assert_eq!(r.code, Some(2), "{}", r.describe());
    assert!(r.stderr_str().contains("at most 47"), "{}", r.describe());
    // A key for a directory that does not exist: refused before the entry is appended
    // to the log (which keeps every entry for good), so no entry without its key.
    pk(&["mtc", "checkpoint", "--dir", &s(dir)]);
    let r = pk(&[
        "mtc",
        "add",
        "--dir",
        &s(dir),
        "--subject",
        "CN=f.example",
        "--san",
        "DNS:f.example",
        "--key-out",
        &s(&dir.join("nodir/f.key")),
    ]);
    assert_eq!(r.code, Some(4), "{}", r.describe());
    assert!(
        r.stderr_str().contains("no such directory"),
        "{}",
        r.describe()
    );
    let r = pk(&["mtc", "checkpoint", "--dir", &s(dir)]);
    assert!(
        r.stderr_str().contains("nothing to checkpoint"),
        "an entry was appended: {}",
        r.describe()
    );
    // A manifest whose line is not JSON: input that does not parse (exit 3), by its line.
    let bad = write_file(dir, "bad.jsonl", b"{\"subject\": \"CN=x");
    let r = pk(&["mtc", "add", "--dir", &s(dir), "--from", &s(&bad)]);
    assert_eq!(r.code, Some(3), "{}", r.describe());
    assert!(
        r.stderr_str().contains("bad.jsonl: line 1"),
        "{}",
        r.describe()
    );
}

/// `mtc ca new --passout` writes cosigner.key encrypted (PKCS#8, as `issue ca --passout`
/// does, readable by OpenSSL under the password); signing with it then needs `--passin`.
#[test]
fn an_encrypted_cosigner_key_needs_passin() {
    let t = tempdir();
    let dir = t.path();
    let d = s(dir);
    let r = pk_ok(&[
        "mtc",
        "ca",
        "new",
        "--dir",
        &d,
        "--ca-id",
        "32473.1",
        "--alg",
        "ecdsa-p256",
        "--passout",
        "pass:cosign-pw",
        "--now",
        NOW,
        "-f",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).expect("JSON");
    assert_eq!(v["items"][0]["key_encrypted"], true, "{v}");
    let key = dir.join("cosigner.key");
    let text = std::fs::read_to_string(&key).unwrap();
    assert!(
        text.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"),
        "{text}"
    );
    require_openssl();
    let (code, out) = ossl(&[
        "pkey",
        "-in",
        &s(&key),
        "-passin",
        "pass:cosign-pw",
        "-noout",
    ]);
    assert_eq!(code, Some(0), "openssl pkey: {out}");
    let (code, _) = ossl(&["pkey", "-in", &s(&key), "-passin", "pass:other", "-noout"]);
    assert_ne!(code, Some(0), "openssl read the key under another password");

    add_many(dir, 0, 3);
    let base = ["mtc", "checkpoint", "--dir", &d, "--now", NOW];
    let r = pk(&base);
    refused(
        &r,
        3,
        &["cosigner.key", "encrypted", "--passin"],
        "no --passin",
    );
    let r = pk(&[&base[..], &["--passin", "pass:wrong"]].concat());
    refused(&r, 3, &["cosigner.key", "password"], "a wrong --passin");
    let r = pk_ok(&[&base[..], &["--passin", "pass:cosign-pw"]].concat());
    assert_eq!(note_root(&r.stdout_str()).0, 3, "{}", r.describe());
    // The checkpoint it signed is the CA's: certificates from it verify.
    let c = cert(dir, 2, "c.pem", &[]);
    let r = verify(dir, &c, &[]);
    assert_eq!(r.code, Some(0), "{}", r.describe());

    // A key in the clear, as before, needs none.
    let (t2, note) = checkpointed("ed25519", 2);
    assert_eq!(note_root(&note).0, 2);
    let clear = std::fs::read_to_string(t2.path().join("cosigner.key")).unwrap();
    assert!(clear.starts_with("-----BEGIN PRIVATE KEY-----"), "{clear}");
}

#[test]
fn proof_and_size() {
    let (t, _) = checkpointed("ed25519", 7);
    let d = s(t.path());
    let r = pk_ok(&["mtc", "proof", "--dir", &d, "--index", "5", "-f", "json"]);
    let p = &json_items(&r)[0];
    // Checkpoint [0, 7) signs the covering subtrees [0, 4) and [4, 7).
    assert_eq!((&p["start"], &p["end"]), (&4.into(), &7.into()));
    assert_eq!(p["proof"].as_array().unwrap().len(), 2);
    let r = pk_ok(&["mtc", "size", "--alg", "ml-dsa-44", "-f", "json"]);
    let v = &json_items(&r)[0];
    assert!(v["landmark_relative"].as_u64() < v["standalone"].as_u64());
    assert!(v["standalone"].as_u64() < v["x509_chain"].as_u64(), "{v}");
}

/// `mtc checkpoint` says what it signed in one line on stderr and writes the note to -o
/// (stdout without it); with -f json the description stays on stdout and names the file.
#[test]
fn checkpoint_summary_and_note_file() {
    use base64::Engine;
    let t = tempdir();
    let dir = t.path();
    let d = s(dir);
    new_ca(dir, "ed25519");
    add_many(dir, 0, 3);
    let note_file = dir.join("checkpoint.txt");
    let r = pk_ok(&[
        "mtc",
        "checkpoint",
        "--dir",
        &d,
        "--now",
        NOW,
        "-o",
        &s(&note_file),
    ]);
    assert!(r.stdout.is_empty(), "{}", r.describe());
    let note = std::fs::read_to_string(&note_file).unwrap();
    let (size, root_b64) = note_root(&note);
    assert_eq!(size, 3);
    let root = base64::engine::general_purpose::STANDARD
        .decode(&root_b64)
        .unwrap();
    let hex: String = root.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        r.stderr_str(),
        format!(
            "pkit: created checkpoint of oid/1.3.6.1.4.1.32473.1.0.1 at tree size 3 (3 new \
             entries), root {hex} in {}\n",
            note_file.display()
        ),
        "{}",
        r.describe()
    );
    // The note is what `parse` reads as a checkpoint.
    let v = &json_items(&pk_ok(&["parse", &s(&note_file), "-f", "json"]))[0];
    assert_eq!(
        (&v["type"], &v["tree_size"]),
        (&"checkpoint".into(), &3.into())
    );

    // An existing -o is refused before anything is signed.
    add_many(dir, 3, 1);
    let r = pk(&[
        "mtc",
        "checkpoint",
        "--dir",
        &d,
        "--now",
        NOW,
        "-o",
        &s(&note_file),
    ]);
    refused(&r, 4, &["checkpoint.txt", "--force"], "-o exists");
    // With -f json: the item on stdout, the note in the file, no summary line.
    let r = pk_ok(&[
        "mtc",
        "checkpoint",
        "--dir",
        &d,
        "--now",
        NOW,
        "-o",
        &s(&note_file),
        "--force",
        "-f",
        "json",
    ]);
    assert!(r.stderr.is_empty(), "{}", r.describe());
    let item = &json_items(&r)[0];
    assert_eq!(item["tree_size"], 4, "{item}");
    assert_eq!(item["previous_size"], 3, "{item}");
    assert_eq!(item["files"]["note"], s(&note_file), "{item}");
    assert_eq!(item["note"], std::fs::read_to_string(&note_file).unwrap());
    // Without -o the note goes to stdout, the summary still to stderr.
    add_many(dir, 4, 1);
    let r = pk_ok(&["mtc", "checkpoint", "--dir", &d, "--now", NOW]);
    assert_eq!(note_root(&r.stdout_str()).0, 5, "{}", r.describe());
    assert!(
        r.stderr_str().contains("at tree size 5 (1 new entry)"),
        "{}",
        r.describe()
    );
    // Nothing new: said, nothing written, exit 0 — with --force or without it (as a
    // cron job's line has it, the file there from the run before).
    for force in [true, false] {
        let mut args = vec![
            "mtc",
            "checkpoint",
            "--dir",
            &d,
            "-o",
            note_file.to_str().unwrap(),
        ];
        if force {
            args.push("--force");
        }
        let r = pk_ok(&args);
        assert!(
            r.stderr_str().contains("nothing to checkpoint"),
            "{}",
            r.describe()
        );
    }
    assert_eq!(
        note_root(&std::fs::read_to_string(&note_file).unwrap()).0,
        4
    );
}

#[test]
fn parse_recognises_certificates_and_checkpoints() {
    let (t, note) = checkpointed("ed25519", 5);
    let dir = t.path();
    let c = cert(dir, 4, "c.pem", &[]);
    let r = pk_ok(&["parse", &s(&c), "-f", "json"]);
    let m = &json_items(&r)[0]["mtc"];
    assert_eq!(m["log_number"], 1);
    assert_eq!(m["index"], 4);
    assert_eq!(m["subtree"], serde_json::json!({"start": 4, "end": 5}));
    assert_eq!(m["proof_length"], 0);
    assert_eq!(m["cosigners"][0], "32473.1");
    let n = write_file(dir, "checkpoint.txt", note.as_bytes());
    let r = pk_ok(&["parse", &s(&n), "-f", "json"]);
    let v = &json_items(&r)[0];
    assert_eq!(v["type"], "checkpoint");
    assert_eq!(v["tree_size"], 5);
    assert_eq!(v["signatures"][0]["name"], "oid/1.3.6.1.4.1.32473.1");
    // A damaged note: exit 3 naming the file and an offset.
    let bad = write_file(
        dir,
        "bad.txt",
        note.replacen("\n5\n", "\n05\n", 1).as_bytes(),
    );
    assert_parse_failure(&pk(&["parse", &s(&bad)]), "bad.txt", "leading zero size");
}

/// The root hash a checkpoint note signs: its third line, base64.
fn note_root(note: &str) -> (u64, String) {
    let lines: Vec<&str> = note.lines().collect();
    (lines[1].parse().expect("tree size"), lines[2].to_string())
}

#[test]
fn proofs_verify_independently() {
    if skip_corpus("proofs_verify_independently") {
        return;
    }
    require(Peer::Python);
    // Checkpoints at 5 and at 13 entries.
    let t = tempdir();
    let dir = t.path();
    let d = s(dir);
    new_ca(dir, "ed25519");
    add_many(dir, 0, 5);
    let note5 = checkpoint(dir);
    add_many(dir, 5, 8);
    let note13 = checkpoint(dir);
    const N: u64 = 13;
    let json = |args: &[&str]| json_items(&pk_ok(args))[0].clone();
    // Each entry's inclusion proof in the last checkpoint's subtrees; its entry hash is the
    // leaf the Python side builds its trees from.
    let inclusion: Vec<serde_json::Value> = (0..N)
        .map(|i| {
            let i = i.to_string();
            json(&["mtc", "proof", "--dir", &d, "--index", &i, "-f", "json"])
        })
        .collect();
    let leaves: Vec<&serde_json::Value> = inclusion.iter().map(|p| &p["entry_hash"]).collect();
    // The consistency proof between every two sizes, 1 ≤ old ≤ new ≤ 13.
    let mut consistency = Vec::new();
    for new in 1..=N {
        for old in 1..=new {
            let (o, n) = (old.to_string(), new.to_string());
            consistency.push(json(&[
                "mtc",
                "consistency",
                "--dir",
                &d,
                "--old",
                &o,
                "--new",
                &n,
                "-f",
                "json",
            ]));
        }
    }
    let proofs_of = |items: &[serde_json::Value]| -> usize {
        items
            .iter()
            .map(|p| p["proof"].as_array().unwrap().len())
            .sum()
    };
    let doc = serde_json::json!({
        "leaves": leaves,
        "notes": [note_root(&note5), note_root(&note13)],
        "inclusion": inclusion,
        "consistency": consistency,
    });
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/rfc9162.py");
    let r = run_with(
        "python3",
        &[script.to_str().unwrap()],
        Some(doc.to_string().as_bytes()),
        HANG,
    );
    assert_eq!(r.code, Some(0), "RFC 9162 check: {}", r.describe());
    // Every proof was checked, and every mutant of it refused: per proof, two mutants for
    // each hash and one extra; consistency proofs between different sizes also with their
    // roots swapped.
    let distinct = (N * (N - 1) / 2) as usize;
    let refused =
        2 * proofs_of(&inclusion) + inclusion.len() + 2 * proofs_of(&consistency) + 2 * distinct;
    let want = serde_json::json!({
        "notes": 2,
        "inclusion": N,
        "consistency": consistency.len(),
        "refused": refused,
    });
    let got: serde_json::Value = serde_json::from_str(&r.stdout_str()).expect("python's counts");
    assert_eq!(got, want);
}
