//! `pkit parse` over the x509 tree of the pinned `cryptography_vectors` corpus (real and
//! deliberately malformed certificates, CRLs, CSRs and OCSP messages), judged against the
//! OpenSSL command line tool.
//!
//! Rules:
//! (a) pkit never panics, never hangs, and exits 0 or 3 only;
//! (b) every file pkit rejects gets exit 3 and an error line with a byte offset;
//! (c) every file on which pkit and OpenSSL disagree (either way, or pkit reads it as
//!     another type) is listed, with pkit's verdict, its `--lenient` verdict and a reason,
//!     in the table in docs/corpus.md. The table is the recorded verdict: an unlisted
//!     disagreement fails the test, and so does a row whose verdict has changed or whose
//!     file now agrees;
//! (d) per-kind counts are printed (`cargo test --test parse_corpus -- --nocapture`).

mod common;

use common::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Certificate,
    Crl,
    Csr,
    OcspRequest,
    OcspResponse,
}

impl Kind {
    /// The `type` pkit's JSON gives this kind.
    fn pkit_type(self) -> &'static str {
        match self {
            Kind::Certificate => "certificate",
            Kind::Crl => "crl",
            Kind::Csr => "csr",
            Kind::OcspRequest => "ocsp_request",
            Kind::OcspResponse => "ocsp_response",
        }
    }

    /// PEM labels OpenSSL reads for this kind.
    fn pem_labels(self) -> &'static [&'static str] {
        match self {
            Kind::Certificate => &["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"],
            Kind::Crl => &["X509 CRL"],
            Kind::Csr => &["CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST"],
            Kind::OcspRequest | Kind::OcspResponse => &[],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Pem,
    Der,
}

#[derive(Debug, Clone)]
struct Entry {
    /// Path relative to `vectors/x509`, `/`-separated: the name used in docs/corpus.md.
    rel: String,
    path: PathBuf,
    kind: Kind,
    form: Form,
}

/// Files in `dir` (not recursive), sorted.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn ext(p: &Path) -> &str {
    p.extension().and_then(|e| e.to_str()).unwrap_or("")
}

/// The kind a PEM file holds, from its first block's label; `None` for keys and the rest.
fn pem_kind(path: &Path) -> Option<Kind> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .filter_map(|l| l.strip_prefix("-----BEGIN "))
        .map(|l| l.trim_end_matches('-'))
        .find_map(|label| {
            [Kind::Certificate, Kind::Crl, Kind::Csr]
                .into_iter()
                .find(|k| k.pem_labels().contains(&label))
        })
}

/// Classify the corpus: by directory, extension, PEM label and (for DER outside the typed
/// directories) by name.
fn collect(x509: &Path) -> (Vec<Entry>, Vec<String>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let rel = |p: &Path| {
        p.strip_prefix(x509)
            .expect("under x509")
            .to_string_lossy()
            .replace('\\', "/")
    };
    let mut push = |p: PathBuf, kind: Option<Kind>, form: Form| match kind {
        Some(kind) => out.push(Entry {
            rel: rel(&p),
            path: p,
            kind,
            form,
        }),
        None => skipped.push(rel(&p)),
    };
    // Certificates (and a few CRLs) at the top level and in custom/, ed25519/, ed448/.
    for dir in ["", "custom", "custom/ca", "ed25519", "ed448"] {
        for p in files_in(&x509.join(dir)) {
            match ext(&p) {
                "pem" => {
                    let k = pem_kind(&p);
                    push(p, k, Form::Pem)
                }
                "der" => {
                    let name = p.file_name().unwrap().to_string_lossy();
                    let k = if name.starts_with("crl_") {
                        Kind::Crl
                    } else {
                        Kind::Certificate
                    };
                    push(p, Some(k), Form::Der)
                }
                _ => push(p, None, Form::Der),
            }
        }
    }
    for p in files_in(&x509.join("requests")) {
        let form = if ext(&p) == "pem" {
            Form::Pem
        } else {
            Form::Der
        };
        push(p, Some(Kind::Csr), form);
    }
    for p in files_in(&x509.join("ocsp")) {
        let name = p.file_name().unwrap().to_string_lossy();
        let k = if name.starts_with("req-") || name.ends_with("-req.der") {
            Kind::OcspRequest
        } else {
            Kind::OcspResponse
        };
        push(p, Some(k), Form::Der);
    }
    for p in files_in(&x509.join("PKITS_data/certs")) {
        let k = (ext(&p) == "crt").then_some(Kind::Certificate);
        push(p, k, Form::Der);
    }
    for p in files_in(&x509.join("PKITS_data/crls")) {
        let k = (ext(&p) == "crl").then_some(Kind::Crl);
        push(p, k, Form::Der);
    }
    (out, skipped)
}

/// The PEM blocks of `e` that OpenSSL's parser for its kind reads (a DER file becomes one
/// block).
fn openssl_units(e: &Entry) -> Vec<String> {
    let bytes = std::fs::read(&e.path).expect("read corpus file");
    match e.form {
        Form::Der => {
            let label = e.kind.pem_labels().first().copied().unwrap_or("DATA");
            vec![pem::encode(&pem::Pem::new(label, bytes))]
        }
        Form::Pem => pem_blocks(&String::from_utf8_lossy(&bytes))
            .into_iter()
            .filter(|b| {
                e.kind
                    .pem_labels()
                    .iter()
                    .any(|l| b.starts_with(&format!("-----BEGIN {l}-----")))
            })
            .collect(),
    }
}

/// Do all these certificate blocks load? One `openssl crl2pkcs7 -certfile` run reads them
/// all with the same `X509` decoder `openssl x509` uses, and fails if one fails.
fn openssl_certs_load(dir: &Path, blocks: &[&str]) -> bool {
    let f = dir.join("batch.pem");
    std::fs::write(&f, blocks.concat()).expect("write batch");
    let r = run_with(
        "openssl",
        &[
            "crl2pkcs7",
            "-nocrl",
            "-certfile",
            &f.to_string_lossy(),
            "-out",
            "/dev/null",
        ],
        None,
        Duration::from_secs(60),
    );
    r.code == Some(0)
}

/// Indices of the blocks that do not load, by bisection (few of them fail).
fn openssl_bad_certs(dir: &Path, blocks: &[(usize, &str)], bad: &mut BTreeSet<usize>) {
    let texts: Vec<&str> = blocks.iter().map(|b| b.1).collect();
    if blocks.is_empty() || openssl_certs_load(dir, &texts) {
        return;
    }
    if blocks.len() == 1 {
        bad.insert(blocks[0].0);
        return;
    }
    let (a, b) = blocks.split_at(blocks.len() / 2);
    openssl_bad_certs(dir, a, bad);
    openssl_bad_certs(dir, b, bad);
}

/// OpenSSL's verdict: does its parser for this kind accept the file? For PEM, every block
/// with one of the kind's labels must load (OpenSSL's `x509` reads the first one only, so
/// each block is fed to it separately).
fn openssl_accepts(e: &Entry) -> (bool, String) {
    let limit = Duration::from_secs(60);
    let inform = match e.form {
        Form::Pem => "PEM",
        Form::Der => "DER",
    };
    let sub = match e.kind {
        Kind::Certificate => "x509",
        Kind::Crl => "crl",
        Kind::Csr => "req",
        Kind::OcspRequest => {
            let p = e.path.to_string_lossy();
            let r = run_with("openssl", &["ocsp", "-reqin", &p, "-req_text"], None, limit);
            return (r.code == Some(0), openssl_reason(&r.stderr_str()));
        }
        Kind::OcspResponse => {
            let p = e.path.to_string_lossy();
            let r = run_with(
                "openssl",
                &["ocsp", "-respin", &p, "-resp_text", "-noverify"],
                None,
                limit,
            );
            // A response whose status is not `successful` (or unknown) makes the tool exit 1
            // after decoding it: "Responder Error: unauthorized (6)". That is a parse.
            let out = r.stdout_str() + &r.stderr_str();
            let ok = r.code == Some(0) || out.contains("Responder Error:");
            return (ok, openssl_reason(&out));
        }
    };
    let args = ["-noout", "-inform", inform];
    match e.form {
        Form::Der => {
            let p = e.path.to_string_lossy();
            let r = run_with(
                "openssl",
                &[sub, args[0], args[1], args[2], "-in", &p],
                None,
                limit,
            );
            (r.code == Some(0), openssl_reason(&r.stderr_str()))
        }
        Form::Pem => {
            let text = String::from_utf8_lossy(&std::fs::read(&e.path).expect("read corpus file"))
                .into_owned();
            let blocks: Vec<String> = pem_blocks(&text)
                .into_iter()
                .filter(|b| {
                    e.kind
                        .pem_labels()
                        .iter()
                        .any(|l| b.starts_with(&format!("-----BEGIN {l}-----")))
                })
                .collect();
            if blocks.is_empty() {
                return (false, "no PEM block of this kind".into());
            }
            for b in blocks {
                let r = run_with(
                    "openssl",
                    &[sub, args[0], args[1], args[2]],
                    Some(b.as_bytes()),
                    limit,
                );
                if r.code != Some(0) {
                    return (false, openssl_reason(&r.stderr_str()));
                }
            }
            (true, String::new())
        }
    }
}

/// The reason of OpenSSL's first error-queue line (`PID:error:CODE:lib:func:reason:file:
/// line:data`), or its first line.
fn openssl_reason(stderr: &str) -> String {
    for l in stderr.lines() {
        let f: Vec<&str> = l.split(':').collect();
        if f.len() >= 6 && f[1] == "error" {
            let data = f.get(8..).map(|d| d.join(":")).unwrap_or_default();
            return format!("{} {}", f[5], data).trim().to_string();
        }
    }
    first_line(stderr)
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(160).collect()
}

/// pkit's verdict on one file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Verdict {
    /// Parsed, as the expected kind.
    Ok,
    /// Exit 3 with an error line.
    Fail,
    /// Parsed, but as another type (the types pkit printed).
    As(String),
}

impl Verdict {
    fn text(&self) -> String {
        match self {
            Verdict::Ok => "ok".into(),
            Verdict::Fail => "fail".into(),
            Verdict::As(t) => format!("as {t}"),
        }
    }
}

/// Key blocks next to certificates in a PEM file are not what the file is about.
const KEY_TYPES: [&str; 3] = ["public_key", "private_key", "encrypted_private_key"];

/// pkit's verdict from its items and error lines for one file.
fn verdict(kind: Kind, items: &[&Value], errors: &[String]) -> Verdict {
    if !errors.is_empty() {
        return Verdict::Fail;
    }
    let types: BTreeSet<&str> = items
        .iter()
        .map(|i| i["type"].as_str().unwrap_or("?"))
        .filter(|t| !KEY_TYPES.contains(t))
        .collect();
    if types.len() == 1 && types.contains(kind.pkit_type()) {
        Verdict::Ok
    } else if types.is_empty() {
        Verdict::As("nothing".into())
    } else {
        Verdict::As(types.into_iter().collect::<Vec<_>>().join("+"))
    }
}

/// Does this stderr line / item source belong to `path`?
fn names(s: &str, path: &str) -> bool {
    let mut from = 0;
    while let Some(i) = s[from..].find(path) {
        let after = s[from + i + path.len()..].chars().next();
        if matches!(after, Some(':') | Some('#')) {
            return true;
        }
        from += i + 1;
    }
    false
}

/// What one pkit run over a set of files said about each of them.
struct Batch {
    /// Per path: (items, error lines).
    per_file: BTreeMap<String, (Vec<Value>, Vec<String>)>,
    /// Broken rules (a)/(b) for this run.
    problems: Vec<String>,
}

/// The message of a stderr line: JSON `{"error":{"message"}}` in JSON mode, else the line.
fn error_message(line: &str) -> String {
    serde_json::from_str::<Value>(line)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
        .unwrap_or_else(|| line.to_string())
}

fn run_pkit_on(paths: &[&str], extra: &[&str]) -> (Run, Batch) {
    let mut args: Vec<&str> = vec!["parse", "-f", "json"];
    args.extend_from_slice(extra);
    args.extend_from_slice(paths);
    // A hang detector only: 20 s plus a generous allowance per file.
    let limit = HANG + Duration::from_millis(200) * paths.len() as u32;
    let run = run_with(pkit_bin(), &args, None, limit);
    let mut batch = Batch {
        per_file: paths
            .iter()
            .map(|p| (p.to_string(), (Vec::new(), Vec::new())))
            .collect(),
        problems: Vec::new(),
    };
    let err = run.stderr_str();
    let what = if paths.len() == 1 {
        paths[0].to_string()
    } else {
        format!("a run over {} files", paths.len())
    };
    if run.timed_out {
        batch.problems.push(format!("{what}: pkit hung (killed)"));
    }
    if err.contains("panicked") {
        batch
            .problems
            .push(format!("{what}: pkit panicked: {}", first_line(&err)));
    }
    if !matches!(run.code, Some(0) | Some(3)) {
        batch
            .problems
            .push(format!("{what}: exit {:?} (expected 0 or 3)", run.code));
    }
    if !batch.problems.is_empty() {
        return (run, batch);
    }
    if !run.stdout.is_empty() {
        for item in json_items(&run) {
            let src = item["source"].as_str().unwrap_or("").to_string();
            let owner = paths.iter().find(|p| src == **p || names(&src, p));
            match owner {
                Some(p) => batch.per_file.get_mut(*p).unwrap().0.push(item),
                None => batch
                    .problems
                    .push(format!("{what}: item with unknown source {src:?}")),
            }
        }
    }
    for line in err.lines().filter(|l| !l.trim().is_empty()) {
        let msg = error_message(line);
        if msg.contains("warning:") {
            continue;
        }
        let owner = paths.iter().find(|p| names(&msg, p));
        match owner {
            Some(p) => {
                if !msg.contains("offset") {
                    batch
                        .problems
                        .push(format!("{p}: error line without a byte offset: {msg}"));
                }
                batch.per_file.get_mut(*p).unwrap().1.push(msg);
            }
            None => batch
                .problems
                .push(format!("{what}: stderr line naming no input: {line}")),
        }
    }
    let any_error = batch.per_file.values().any(|(_, e)| !e.is_empty());
    if any_error != (run.code == Some(3)) {
        batch.problems.push(format!(
            "{what}: exit {:?} but {} error lines",
            run.code,
            if any_error { "some" } else { "no" }
        ));
    }
    (run, batch)
}

/// One row of the table in docs/corpus.md.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    file: String,
    kind: String,
    openssl: String,
    pkit: String,
    lenient: String,
    reason: String,
}

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/corpus.md");
const BEGIN: &str = "<!-- verdicts:begin -->";
const END: &str = "<!-- verdicts:end -->";

fn cells(line: &str) -> Vec<String> {
    let t = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut c: Vec<String> = t.split('|').map(|c| c.trim().to_string()).collect();
    if let Some(file) = c.first_mut() {
        *file = file.trim_matches('`').to_string();
    }
    c
}

/// The recorded verdicts: the table rows between the markers in docs/corpus.md.
fn recorded() -> BTreeMap<String, Row> {
    let doc = std::fs::read_to_string(DOC).unwrap_or_default();
    let mut rows = BTreeMap::new();
    let (Some(b), Some(e)) = (doc.find(BEGIN), doc.find(END)) else {
        return rows;
    };
    for line in doc[b + BEGIN.len()..e].lines() {
        let c = cells(line);
        if !line.trim_start().starts_with('|') || c.len() < 6 {
            continue;
        }
        if c[0] == "file" || c[0].starts_with("---") {
            continue;
        }
        rows.insert(
            c[0].clone(),
            Row {
                file: c[0].clone(),
                kind: c[1].clone(),
                openssl: c[2].clone(),
                pkit: c[3].clone(),
                lenient: c[4].clone(),
                reason: c[5..].join("|"),
            },
        );
    }
    rows
}

fn row_line(r: &Row) -> String {
    format!(
        "| `{}` | {} | {} | {} | {} | {} |",
        r.file, r.kind, r.openssl, r.pkit, r.lenient, r.reason
    )
}

#[test]
fn cryptography_vectors_x509_corpus() {
    if skip_corpus("cryptography_vectors_x509_corpus") {
        return;
    }
    require_openssl();
    let x509 = cryptography_vectors_x509();
    let (entries, skipped) = collect(&x509);
    assert!(
        entries.len() > 700,
        "only {} corpus files found under {}",
        entries.len(),
        x509.display()
    );

    // OpenSSL. `openssl x509` costs about 40 ms a run (its decoder setup), so certificates
    // are first loaded in bulk; the files that fail there get the real `openssl x509` run,
    // as do all other kinds (whose tools are quick), a few processes at a time.
    let scratch = tempfile::tempdir().expect("temporary directory");
    let mut blocks: Vec<(usize, String)> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if e.kind == Kind::Certificate {
            blocks.extend(openssl_units(e).into_iter().map(|b| (i, b)));
        }
    }
    let mut bad_blocks = BTreeSet::new();
    let block_refs: Vec<(usize, &str)> = blocks.iter().map(|(i, b)| (*i, b.as_str())).collect();
    for chunk in block_refs.chunks(64) {
        openssl_bad_certs(scratch.path(), chunk, &mut bad_blocks);
    }
    let needs_tool: Vec<usize> = (0..entries.len())
        .filter(|i| entries[*i].kind != Kind::Certificate || bad_blocks.contains(i))
        .collect();
    let workers = 4;
    let tool: BTreeMap<usize, (bool, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = needs_tool
            .chunks(needs_tool.len().div_ceil(workers).max(1))
            .map(|chunk| {
                let entries = &entries;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|i| (*i, openssl_accepts(&entries[*i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("openssl worker"))
            .collect()
    });
    let mut openssl: Vec<(bool, String)> = (0..entries.len())
        .map(|i| tool.get(&i).cloned().unwrap_or((true, String::new())))
        .collect();

    // pkit: many files per run. A run that breaks rule (a) is repeated file by file to name
    // the culprit.
    let mut problems: Vec<String> = Vec::new();
    let mut per_file: BTreeMap<String, (Vec<Value>, Vec<String>)> = BTreeMap::new();
    let paths: Vec<String> = entries
        .iter()
        .map(|e| e.path.to_string_lossy().into_owned())
        .collect();
    for chunk in paths.chunks(200) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        let (_, batch) = run_pkit_on(&refs, &[]);
        let broken = batch
            .problems
            .iter()
            .any(|p| p.contains("hung") || p.contains("panicked") || p.contains("exit "));
        if broken {
            for p in &refs {
                let (_, one) = run_pkit_on(&[p], &[]);
                problems.extend(one.problems);
                per_file.extend(one.per_file);
            }
        } else {
            problems.extend(batch.problems);
            per_file.extend(batch.per_file);
        }
    }

    // Verdicts, counts and disagreements.
    #[derive(Default)]
    struct Counts {
        files: usize,
        openssl_ok: usize,
        pkit_ok: usize,
        both: usize,
        disagree: usize,
    }
    let mut counts: BTreeMap<Kind, Counts> = BTreeMap::new();
    let mut found: BTreeMap<String, Row> = BTreeMap::new();
    let table = recorded();
    for (i, e) in entries.iter().enumerate() {
        let path = e.path.to_string_lossy().into_owned();
        let (items, errors) = per_file.get(&path).cloned().unwrap_or_default();
        let item_refs: Vec<&Value> = items.iter().collect();
        let v = verdict(e.kind, &item_refs, &errors);
        if v != Verdict::Ok && !tool.contains_key(&i) {
            // The bulk load passed it; a disagreement is judged by `openssl x509` itself.
            openssl[i] = openssl_accepts(e);
        }
        let (ossl_ok, ossl_msg) = &openssl[i];
        let c = counts.entry(e.kind).or_default();
        c.files += 1;
        c.openssl_ok += *ossl_ok as usize;
        c.pkit_ok += (v == Verdict::Ok) as usize;
        c.both += (*ossl_ok && v == Verdict::Ok) as usize;
        let agree = (v == Verdict::Ok) == *ossl_ok && !matches!(v, Verdict::As(_));
        if agree {
            continue;
        }
        c.disagree += 1;
        // The file alone, strict (its exit code is the verdict) and with --lenient.
        let (one, b1) = run_pkit_on(&[&path], &[]);
        problems.extend(b1.problems);
        let v1 = {
            let (i, er) = b1.per_file.get(&path).cloned().unwrap_or_default();
            verdict(e.kind, &i.iter().collect::<Vec<_>>(), &er)
        };
        if v1 != v || (v == Verdict::Fail) != (one.code == Some(3)) {
            problems.push(format!(
                "{}: verdict {} in a batch but {} (exit {:?}) alone",
                e.rel,
                v.text(),
                v1.text(),
                one.code
            ));
        }
        let (_, bl) = run_pkit_on(&[&path], &["--lenient"]);
        problems.extend(bl.problems);
        let lenient = {
            let (i, er) = bl.per_file.get(&path).cloned().unwrap_or_default();
            verdict(e.kind, &i.iter().collect::<Vec<_>>(), &er)
        };
        let pkit_msg = errors.first().map(|m| first_line(m)).unwrap_or_default();
        let reason = table
            .get(&e.rel)
            .map(|r| r.reason.clone())
            .unwrap_or_else(|| {
                format!(
                    "TODO: say why. openssl: {} / pkit: {}",
                    if ossl_msg.is_empty() { "-" } else { ossl_msg },
                    pkit_msg
                        .replace(&path, "FILE")
                        .replace(&*x509.to_string_lossy(), "")
                )
                .replace('|', "/")
            });
        found.insert(
            e.rel.clone(),
            Row {
                file: e.rel.clone(),
                kind: e.kind.pkit_type().to_string(),
                openssl: if *ossl_ok { "ok" } else { "fail" }.into(),
                pkit: v.text(),
                lenient: lenient.text(),
                reason,
            },
        );
    }

    // (d) the counts.
    let mut report = String::new();
    report.push_str("| kind | files | openssl ok | pkit ok | both ok | disagreements |\n");
    report.push_str("|---|---:|---:|---:|---:|---:|\n");
    let mut total = Counts::default();
    for (k, c) in &counts {
        report.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            k.pkit_type(),
            c.files,
            c.openssl_ok,
            c.pkit_ok,
            c.both,
            c.disagree
        ));
        total.files += c.files;
        total.openssl_ok += c.openssl_ok;
        total.pkit_ok += c.pkit_ok;
        total.both += c.both;
        total.disagree += c.disagree;
    }
    report.push_str(&format!(
        "| all | {} | {} | {} | {} | {} |\n",
        total.files, total.openssl_ok, total.pkit_ok, total.both, total.disagree
    ));
    eprintln!(
        "cryptography_vectors x509 corpus ({}):\n{report}",
        x509.display()
    );
    eprintln!(
        "not classified as certificate/CRL/CSR/OCSP (not checked): {}",
        skipped.join(", ")
    );

    // (c) the recorded table.
    let mut table_errors = Vec::new();
    for (file, row) in &found {
        match table.get(file) {
            None => table_errors.push(format!("unlisted disagreement: {}", row_line(row))),
            Some(rec) => {
                let same = rec.kind == row.kind
                    && rec.openssl == row.openssl
                    && rec.pkit == row.pkit
                    && rec.lenient == row.lenient;
                if !same {
                    table_errors.push(format!(
                        "verdict changed for {file}:\n  recorded {}\n  now      {}",
                        row_line(rec),
                        row_line(row)
                    ));
                }
            }
        }
    }
    for (file, rec) in &table {
        if !found.contains_key(file) {
            table_errors.push(format!(
                "{file}: pkit and OpenSSL now agree (or the file is gone); remove its row: {}",
                row_line(rec)
            ));
        }
    }
    if !table_errors.is_empty() {
        let rows: Vec<String> = found.values().map(row_line).collect();
        eprintln!(
            "The table as it stands now (paste between the markers in docs/corpus.md, then \
             replace each TODO with pkit's intended verdict and why):\n\
             | file | kind | openssl | pkit | pkit --lenient | reason |\n\
             |---|---|---|---|---|---|\n{}",
            rows.join("\n")
        );
    }

    let mut all = problems;
    all.extend(table_errors);
    assert!(
        all.is_empty(),
        "{} problem(s) in the cryptography_vectors corpus:\n{}",
        all.len(),
        all.join("\n")
    );
}

#[test]
fn stderr_line_matching() {
    assert!(names("/a/b.pem: offset 3: x", "/a/b.pem"));
    assert!(names("/a/b.pem#2: offset 3: x", "/a/b.pem"));
    assert!(!names("/a/b.pem.bak: offset 3", "/a/b.pem"));
    assert!(!names("/a/b.pemx: offset 3", "/a/b.pem"));
}
