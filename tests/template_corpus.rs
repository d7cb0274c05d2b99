//! Templates, round trip, over real certificates: every certificate of the system root
//! store and of the cryptography_vectors corpus goes through `pkit parse -f json`, and
//! the JSON goes to `pkit issue cert --template`. The new certificate must carry every
//! extension of the original byte for byte (criticality included), but the key
//! identifiers, which are the new key's and the issuing CA's.

mod common;

use common::{pk, pk_ok, s};
use pkit::pki::cert::Certificate;
use std::path::{Path, PathBuf};

/// Every certificate file of the corpus directory that pkit reads as one certificate.
fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_files(&p, out);
        } else if certificate_der(&p).is_some() {
            out.push(p);
        }
    }
}

/// The one certificate in a PEM or DER file, if it holds exactly that.
fn certificate_der(p: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(p).ok()?;
    let der = match pem::parse_many(&bytes) {
        Ok(blocks) if blocks.len() == 1 && blocks[0].tag() == "CERTIFICATE" => {
            blocks[0].contents().to_vec()
        }
        Ok(blocks) if blocks.is_empty() => bytes,
        _ => return None,
    };
    let ok = Certificate::from_der(&der).is_ok();
    ok.then_some(der)
}

/// (OID, whole Extension TLV) of each extension.
fn extensions(der: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let c = Certificate::from_der(der).expect("a certificate");
    c.extensions
        .map(|x| x.raw_elements().expect("extensions"))
        .unwrap_or_default()
}

/// What happened to one certificate.
enum Outcome {
    Kept,
    /// `pkit parse` rejects it (a malformed certificate the corpus holds on purpose): no
    /// template to take.
    Unparsed,
    /// pkit refused to issue it, for this reason (stderr).
    Refused(String),
}

fn round_trip(ca: &Path, work: &Path, n: usize, file: &Path, der: &[u8]) -> Outcome {
    let parsed = pk(&["parse", &s(file), "-f", "json"]);
    if parsed.code != Some(0) {
        assert_eq!(
            parsed.code,
            Some(3),
            "{}: {}",
            file.display(),
            parsed.describe()
        );
        return Outcome::Unparsed;
    }
    let template = work.join(format!("{n}.json"));
    std::fs::write(&template, &parsed.stdout).unwrap();
    let cert = Certificate::from_der(der).unwrap();
    let is_ca = cert.basic_constraints().is_some_and(|b| b.ca);
    let has_san = extensions(der)
        .iter()
        .any(|(o, _)| o.as_slice() == pkit::der::oid_registry::CE_SUBJECT_ALT_NAME.as_bytes());
    let (out, key) = (work.join(format!("{n}.pem")), work.join(format!("{n}.key")));
    let (t, o, k, c) = (s(&template), s(&out), s(&key), s(ca));
    let mut args = vec![
        "issue",
        "cert",
        "--ca",
        &c,
        "--template",
        &t,
        "--key-out",
        &k,
        "-o",
        &o,
        "--alg",
        "ed25519",
        // What the corpus holds is reproduced as it is, findings and all: the lint gate
        // would (rightly) refuse many of these extensions.
        "--lint",
        "off",
    ];
    // pkit refuses a TLS certificate without a SAN whatever its template says; the
    // extensions are what this test is about, so such a leaf is issued under a profile
    // that needs none (the template's own usages still replace the profile's).
    if !is_ca && !has_san {
        args.extend(["--profile", "code-signing"]);
    }
    if cert.subject.raw == [0x30, 0x00] && !has_san {
        args.extend(["--subject", "CN=empty subject"]);
    }
    let r = pk(&args);
    if r.code != Some(0) {
        assert!(!r.stderr_str().contains("panicked"), "{}", r.describe());
        return Outcome::Refused(r.stderr_str().trim().to_string());
    }
    let new = std::fs::read(&out).unwrap();
    let new = pem::parse(&new).unwrap().into_contents();
    let got = extensions(&new);
    let never = [
        pkit::der::oid_registry::CE_SUBJECT_KEY_ID,
        pkit::der::oid_registry::CE_AUTHORITY_KEY_ID,
    ];
    for (oid, raw) in extensions(der) {
        if never.iter().any(|o| o.as_bytes() == oid.as_slice()) {
            continue;
        }
        assert!(
            got.iter().any(|(_, g)| *g == raw),
            "{}: extension {} was not reproduced",
            file.display(),
            pkit::der::ObjectId::from_content(&oid, 0)
                .map_or_else(|_| "?".into(), |o| o.to_string())
        );
    }
    Outcome::Kept
}

#[test]
fn parse_then_template_then_issue_keeps_every_extension() {
    if common::skip_corpus("parse_then_template_then_issue_keeps_every_extension") {
        return;
    }
    let t = common::tempdir();
    let ca = t.path().join("ca");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&ca),
        "--subject",
        "CN=Template CA",
        "--no-passout",
        "--alg",
        "ed25519",
    ]);
    let store = t.path().join("store");
    std::fs::create_dir(&store).unwrap();
    let mut files = Vec::new();
    for (i, c) in common::root_store().iter().enumerate() {
        let p = store.join(format!("root-{i}.pem"));
        std::fs::write(&p, &c.pem).unwrap();
        files.push(p);
    }
    let roots = files.len();
    corpus_files(&common::cryptography_vectors_x509(), &mut files);
    let work = t.path().join("work");
    std::fs::create_dir(&work).unwrap();
    // Two threads: a process per step, the machine's cores kept busy.
    let outcomes: Vec<(PathBuf, Outcome)> = std::thread::scope(|scope| {
        let halves: Vec<_> = files
            .chunks(files.len().div_ceil(2))
            .enumerate()
            .map(|(h, part)| {
                let (ca, work) = (&ca, &work);
                scope.spawn(move || {
                    part.iter()
                        .enumerate()
                        .map(|(i, f)| {
                            let der = certificate_der(f).unwrap();
                            let n = h * 100_000 + i;
                            (f.clone(), round_trip(ca, work, n, f, &der))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let refused: Vec<String> = outcomes
        .iter()
        .filter_map(|(f, o)| match o {
            Outcome::Refused(why) => Some(format!("{}: {why}", f.display())),
            Outcome::Kept | Outcome::Unparsed => None,
        })
        .collect();
    let unparsed = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Unparsed))
        .count();
    let outcomes: Vec<_> = outcomes
        .into_iter()
        .filter(|(_, o)| !matches!(o, Outcome::Unparsed))
        .collect();
    let kept = outcomes.len() - refused.len();
    eprintln!(
        "templates: {kept} of {} certificates ({roots} roots) reissued with every extension \
         ({unparsed} more that parse rejects)",
        outcomes.len()
    );
    for r in &refused {
        eprintln!("templates: refused {r}");
    }
    // Every root is reissued; in the corpus only what pkit refuses for a stated reason
    // (e.g. a template whose extensions do not decode) is left, and those are few.
    assert!(
        refused.iter().all(|r| !r.contains("/store/root-")),
        "roots refused: {refused:#?}"
    );
    assert!(
        refused.len() * 10 < outcomes.len(),
        "{} of {} refused: {refused:#?}",
        refused.len(),
        outcomes.len()
    );
}
