//! `pkit parse` through the binary: every output format, stdin, directories, `--summary`,
//! `--type`, bare base64, `--inform`, and output order. Inputs come from the system root
//! store.
//!
//! Not tested here: `-f der` refusing to write to a terminal (tests have no terminal).

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeMap;

fn pem(label: &str, der: &[u8]) -> String {
    pem::encode_config(
        &pem::Pem::new(label, der.to_vec()),
        pem::EncodeConfig::new().set_line_ending(pem::LineEnding::LF),
    )
}

fn b64(der: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(der)
}

fn ok(run: &Run, what: &str) {
    assert!(
        run.code == Some(0) && !run.stderr_str().contains("panicked"),
        "{what}: {}",
        run.describe()
    );
}

/// One root-store certificate written as PEM and as DER into `dir`.
fn cert_files(dir: &std::path::Path) -> (StoreCert, String, String) {
    let c = root_store().swap_remove(3);
    let p = write_file(dir, "c.pem", c.pem.as_bytes());
    let d = write_file(dir, "c.der", &c.der);
    (
        c,
        p.to_string_lossy().into_owned(),
        d.to_string_lossy().into_owned(),
    )
}

#[test]
fn every_format_on_one_certificate() {
    let dir = tempdir();
    let (c, pem_path, der_path) = cert_files(dir.path());

    // json: one certificate item, its source the file.
    let run = pkit_run(&["parse", &pem_path, "-f", "json"]);
    ok(&run, "-f json");
    let items = json_items(&run);
    assert_eq!(items.len(), 1);
    let item = &items[0];
    assert_eq!(item["type"], "certificate");
    assert_eq!(item["source"], pem_path.as_str());
    let serial = item["serial_number"]
        .as_str()
        .expect("serial_number")
        .to_string();
    assert!(
        !serial.is_empty()
            && serial
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
        "serial is lowercase hex: {serial}"
    );
    // The PEM field is the certificate.
    assert_eq!(
        item["pem"].as_str(),
        Some(pem("CERTIFICATE", &c.der).as_str())
    );

    // The same from DER: identical but for the source.
    let run = pkit_run(&["parse", &der_path, "-f", "json"]);
    ok(&run, "-f json on DER");
    let mut from_der = json_items(&run).remove(0);
    from_der["source"] = item["source"].clone();
    assert_eq!(
        &from_der, item,
        "PEM and DER input describe the same certificate"
    );

    // jsonl: one line, the same object.
    let run = pkit_run(&["parse", &pem_path, "-f", "jsonl"]);
    ok(&run, "-f jsonl");
    let out = run.stdout_str();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.ends_with('\n'));
    let line: Value = serde_json::from_str(out.trim_end()).expect("jsonl line");
    assert_eq!(&line, item);

    // text: the title, the serial, the names.
    let run = pkit_run(&["parse", &pem_path]);
    ok(&run, "-f text (default)");
    let text = run.stdout_str();
    assert!(text.starts_with("Certificate ("), "{text}");
    assert!(text.contains(&serial), "text shows the serial: {text}");
    assert!(
        text.contains(item["subject_dn"].as_str().unwrap()),
        "{text}"
    );
    let explicit = pkit_run(&["parse", &pem_path, "-f", "text"]);
    assert_eq!(explicit.stdout, run.stdout, "-f text is the default");

    // pem: the input block, byte for byte (the store uses 64-column lines and LF).
    let run = pkit_run(&["parse", &der_path, "-f", "pem"]);
    ok(&run, "-f pem");
    assert_eq!(
        run.stdout_str(),
        c.pem,
        "-f pem re-encodes to the input PEM"
    );
    // …and parsing that output again gives the same certificate.
    let again = pkit_stdin(&["parse", "-", "-f", "der"], &run.stdout);
    ok(&again, "re-parse of -f pem output");
    assert_eq!(again.stdout, c.der);

    // der: the certificate's DER exactly.
    let run = pkit_run(&["parse", &pem_path, "-f", "der"]);
    ok(&run, "-f der");
    assert_eq!(run.stdout, c.der, "-f der gives the DER");

    // asn1: a tree with offsets; the root is the whole certificate.
    let run = pkit_run(&["parse", &pem_path, "-f", "asn1"]);
    ok(&run, "-f asn1");
    let tree = run.stdout_str();
    let mut lines = tree.lines();
    assert_eq!(
        lines.next(),
        Some(format!("{pem_path}:").as_str()),
        "{tree}"
    );
    let root: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    let hdr = if c.der[1] & 0x80 != 0 {
        2 + (c.der[1] & 0x7f) as usize
    } else {
        2
    };
    assert_eq!(
        root,
        ["0", &format!("{hdr}+{}", c.der.len() - hdr), "SEQUENCE"],
        "root node line: {tree}"
    );
    assert!(
        tree.contains("INTEGER") && tree.contains("BIT STRING"),
        "{tree}"
    );
}

#[test]
fn stdin_input() {
    let c = root_store().swap_remove(5);
    for (what, input) in [("PEM", c.pem.as_bytes().to_vec()), ("DER", c.der.clone())] {
        for args in [
            vec!["parse", "-", "-f", "json"],
            vec!["parse", "-f", "json"],
        ] {
            let run = pkit_stdin(&args, &input);
            ok(&run, &format!("{what} on stdin ({})", args.join(" ")));
            let items = json_items(&run);
            assert_eq!(items.len(), 1);
            assert_eq!(items[0]["type"], "certificate");
            assert_eq!(items[0]["source"], "-");
        }
    }
    // The whole store through stdin: 144 items named -#1…
    let all = std::fs::read(ROOT_STORE).unwrap();
    let run = pkit_stdin(&["parse", "-", "-f", "jsonl"], &all);
    ok(&run, "root store on stdin");
    let n = root_store().len();
    let sources: Vec<String> = run
        .stdout_str()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["source"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let expected: Vec<String> = (1..=n).map(|i| format!("-#{i}")).collect();
    assert_eq!(sources, expected);
}

#[test]
fn directory_recursive_in_stable_order() {
    let dir = tempdir();
    let certs = root_store();
    // A small tree: files at the top and in nested directories, created out of order.
    let layout = [
        "b/2.pem",
        "a.der",
        "b/1.der",
        "c/d/e.pem",
        "0.pem",
        "b/10.pem",
    ];
    let mut expected = Vec::new();
    for (i, rel) in layout.iter().enumerate() {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        if rel.ends_with(".der") {
            std::fs::write(&p, &certs[i].der).unwrap();
        } else {
            std::fs::write(&p, &certs[i].pem).unwrap();
        }
        expected.push(p.to_string_lossy().into_owned());
    }
    // Sorted path order, directories walked in place (as `find | sort` would with `/`
    // sorting before letters here).
    expected.sort();
    // What is no regular file is passed over and named on stderr: a link to nothing, and
    // a FIFO (reading it would wait for a writer that never comes).
    std::os::unix::fs::symlink(dir.path().join("gone"), dir.path().join("b/dangling")).unwrap();
    let fifo = dir.path().join("c/fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let root = dir.path().to_string_lossy().into_owned();
    let run = pkit_run(&["parse", "-r", &root, "--summary"]);
    ok(&run, "parse -r DIR with a FIFO and a dangling link");
    let err = run.stderr_str();
    assert!(
        err.contains("b/dangling: a link to nothing, skipped")
            && err.contains("c/fifo: a FIFO, skipped"),
        "{err}"
    );
    let mut first: Option<Vec<String>> = None;
    for _ in 0..3 {
        let run = pkit_run(&["parse", "-r", &root, "-f", "jsonl"]);
        ok(&run, "parse -r DIR");
        let sources: Vec<String> = run
            .stdout_str()
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["source"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(sources.len(), layout.len(), "every file once");
        let mut sorted = sources.clone();
        sorted.sort();
        assert_eq!(sorted, expected, "the files found");
        match &first {
            None => first = Some(sources),
            Some(f) => assert_eq!(&sources, f, "the order is the same on every run"),
        }
    }
    // Within one directory, the order is by name.
    let first = first.unwrap();
    let pos = |name: &str| first.iter().position(|s| s.ends_with(name)).unwrap();
    assert!(
        pos("b/1.der") < pos("b/10.pem") && pos("b/10.pem") < pos("b/2.pem"),
        "{first:?}"
    );
}

/// `{"name","count"}` lists as a map.
fn counts(v: &Value) -> BTreeMap<String, u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn summary_of_the_root_store() {
    let n = root_store().len() as u64;
    // The per-certificate view, to check the summary against.
    let run = pkit_run(&["parse", ROOT_STORE, "-f", "jsonl"]);
    ok(&run, "root store jsonl");
    let items: Vec<Value> = run
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut by_key: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_sig: BTreeMap<String, u64> = BTreeMap::new();
    for it in &items {
        let spki = &it["subject_public_key_info"];
        let label = match (spki["key_type"].as_str().unwrap(), &spki["parameters"]) {
            (t, Value::String(p)) => format!("{t} {p}"),
            (t, _) => format!("{t} {}", spki["key_bits"]),
        };
        *by_key.entry(label).or_default() += 1;
        let sig = it["signature_algorithm"]["name"]
            .as_str()
            .unwrap()
            .to_string();
        *by_sig.entry(sig).or_default() += 1;
    }

    let summary = |now: &str| -> Value {
        let run = pkit_run(&["parse", ROOT_STORE, "--summary", "-f", "json", "--now", now]);
        ok(&run, "--summary");
        let v: Value = serde_json::from_slice(&run.stdout).expect("summary JSON");
        assert_eq!(v["schema"], "pkit/v1");
        assert_eq!(v["type"], "summary");
        v["items"][0].clone()
    };
    let s = summary("2025-06-01T00:00:00Z");
    assert_eq!(s["objects"], n);
    assert_eq!(s["failures"], 0);
    assert_eq!(s["certificates"], n);
    assert_eq!(s["by_type"]["certificate"], n);
    let keys = counts(&s["by_key"]);
    let sigs = counts(&s["by_signature_algorithm"]);
    assert_eq!(keys.values().sum::<u64>(), n, "key counts add up: {keys:?}");
    assert_eq!(
        sigs.values().sum::<u64>(),
        n,
        "signature counts add up: {sigs:?}"
    );
    assert_eq!(keys, by_key, "by_key agrees with the items");
    assert_eq!(sigs, by_sig, "by_signature_algorithm agrees with the items");
    let expired_then = items
        .iter()
        .filter(|i| i["validity"]["not_after"].as_str().unwrap() < "2025-06-01T00:00:00Z")
        .count() as u64;
    assert_eq!(s["expired"], expired_then);
    assert_eq!(s["checked_at"], "2025-06-01T00:00:00Z");
    let max = items
        .iter()
        .map(|i| i["validity"]["not_after"].as_str().unwrap())
        .max();
    let min = items
        .iter()
        .map(|i| i["validity"]["not_after"].as_str().unwrap())
        .min();
    assert_eq!(s["latest_expiry"].as_str(), max);
    assert_eq!(s["earliest_expiry"].as_str(), min);

    // In 2100 every root has expired; in 1980 (almost) none is valid yet.
    let s = summary("2100-01-01T00:00:00Z");
    assert_eq!(s["expired"], n);
    assert_eq!(s["not_yet_valid"], 0);
    let s = summary("1980-01-01T00:00:00Z");
    let not_yet = items
        .iter()
        .filter(|i| i["validity"]["not_before"].as_str().unwrap() > "1980-01-01T00:00:00Z")
        .count() as u64;
    assert!(not_yet > n / 2);
    assert_eq!(s["expired"], 0);
    assert_eq!(s["not_yet_valid"], not_yet);

    // The table form.
    let run = pkit_run(&["parse", ROOT_STORE, "--summary", "-f", "table"]);
    ok(&run, "--summary -f table");
    assert!(
        run.stdout_str().contains("certificates"),
        "{}",
        run.stdout_str()
    );
    // A bad --now is a usage error.
    let run = pkit_run(&["parse", ROOT_STORE, "--summary", "--now", "yesterday"]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
}

#[test]
fn type_forcing() {
    let dir = tempdir();
    let c = root_store().swap_remove(7);
    // A certificate under a misleading PEM label: --type cert reads it as a certificate.
    let p = write_file(
        dir.path(),
        "mislabelled.pem",
        pem("X509 CRL", &c.der).as_bytes(),
    );
    let p = p.to_string_lossy();
    let run = pkit_run(&["parse", &p, "--type", "cert", "-f", "json"]);
    ok(&run, "--type cert");
    let items = json_items(&run);
    assert_eq!(items[0]["type"], "certificate");
    assert_eq!(
        items[0]["pem"].as_str(),
        Some(pem("CERTIFICATE", &c.der).as_str())
    );
    // Without it pkit goes by the label (and does not call it a certificate).
    let run = pkit_run(&["parse", &p, "-f", "json"]);
    if run.code == Some(0) {
        assert_ne!(json_items(&run)[0]["type"], "certificate");
    } else {
        assert_eq!(run.code, Some(3), "{}", run.describe());
    }
    // --type asn1: the structure only.
    let d = write_file(dir.path(), "c.der", &c.der);
    let d = d.to_string_lossy();
    let run = pkit_run(&["parse", &d, "--type", "asn1", "-f", "json"]);
    ok(&run, "--type asn1");
    let items = json_items(&run);
    assert_eq!(items[0]["type"], "asn1");
    let nodes = items[0]["nodes"].as_array().expect("nodes");
    assert_eq!(nodes[0]["offset"], 0);
    assert_eq!(nodes[0]["tag"], "SEQUENCE");
    // Forcing a type the data is not: a parse error.
    let run = pkit_run(&["parse", &d, "--type", "cert"]);
    ok(&run, "--type cert on a certificate");
    let key = write_file(dir.path(), "k.der", &[0x30, 0x03, 0x02, 0x01, 0x00]);
    let run = pkit_run(&["parse", &key.to_string_lossy(), "--type", "cert"]);
    assert_parse_failure(
        &run,
        &key.to_string_lossy(),
        "--type cert on a non-certificate",
    );
    // An unknown type name: usage error.
    let run = pkit_run(&["parse", &d, "--type", "bogus"]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
}

#[test]
fn bare_base64() {
    let dir = tempdir();
    let c = root_store().swap_remove(9);
    let one_line = b64(&c.der) + "\n";
    let wrapped: String = one_line
        .trim_end()
        .as_bytes()
        .chunks(76)
        .map(|l| String::from_utf8_lossy(l).into_owned() + "\r\n")
        .collect();
    for (name, text) in [("one-line.b64", &one_line), ("wrapped.b64", &wrapped)] {
        let p = write_file(dir.path(), name, text.as_bytes());
        let run = pkit_run(&["parse", &p.to_string_lossy(), "-f", "der"]);
        ok(&run, &format!("bare base64 ({name})"));
        assert_eq!(run.stdout, c.der, "{name}");
        let run = pkit_stdin(&["parse", "-", "-f", "der"], text.as_bytes());
        ok(&run, &format!("bare base64 on stdin ({name})"));
        assert_eq!(run.stdout, c.der, "{name} on stdin");
        let run = pkit_run(&[
            "parse",
            &p.to_string_lossy(),
            "--inform",
            "base64",
            "-f",
            "der",
        ]);
        ok(&run, &format!("--inform base64 ({name})"));
        assert_eq!(run.stdout, c.der);
    }
}

#[test]
fn inform_der_on_pem_fails() {
    let dir = tempdir();
    let (_, pem_path, der_path) = cert_files(dir.path());
    let run = pkit_run(&["parse", &pem_path, "--inform", "der"]);
    assert_parse_failure(&run, &pem_path, "--inform der on PEM");
    let run = pkit_run(&["parse", &der_path, "--inform", "pem"]);
    assert!(
        matches!(run.code, Some(3)),
        "--inform pem on DER: {}",
        run.describe()
    );
    let run = pkit_run(&["parse", &pem_path, "--inform", "pem", "-f", "json"]);
    ok(&run, "--inform pem on PEM");
}

#[test]
fn output_order_is_input_order() {
    let dir = tempdir();
    let certs = root_store();
    // One file per certificate, named so that name order is not argument order, and given
    // in a scrambled order (a fixed permutation).
    let n = certs.len();
    let order: Vec<usize> = (0..n).map(|i| (i * 89 + 17) % n).collect();
    let mut seen = order.clone();
    seen.sort();
    seen.dedup();
    assert_eq!(
        seen.len(),
        n,
        "89 is coprime with the store size; pick another step"
    );
    let mut paths = Vec::new();
    for (k, i) in order.iter().enumerate() {
        let name = format!("{:03}-{}.pem", (k * 37) % 1000, i);
        let p = write_file(dir.path(), &name, certs[*i].pem.as_bytes());
        paths.push(p.to_string_lossy().into_owned());
    }
    let mut args: Vec<&str> = vec!["parse", "-f", "jsonl"];
    args.extend(paths.iter().map(String::as_str));
    let run = pkit_run(&args);
    ok(&run, "many files");
    let got: Vec<Value> = run
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let sources: Vec<&str> = got.iter().map(|v| v["source"].as_str().unwrap()).collect();
    assert_eq!(sources, paths, "items come out in argument order");
    // And each item is the certificate of its file.
    for (v, i) in got.iter().zip(&order) {
        assert_eq!(
            v["pem"].as_str(),
            Some(pem("CERTIFICATE", &certs[*i].der).as_str())
        );
    }
    // -f der --split numbers the files in the same order.
    let out = dir.path().join("out").join("c.der");
    std::fs::create_dir(out.parent().unwrap()).unwrap();
    let out_s = out.to_string_lossy().into_owned();
    let mut args: Vec<&str> = vec!["parse", "-f", "der", "--split", "-o", &out_s];
    args.extend(paths.iter().map(String::as_str));
    let run = pkit_run(&args);
    ok(&run, "many files, -f der --split");
    for (k, i) in order.iter().enumerate() {
        let file = out.with_file_name(format!("c-{}.der", k + 1));
        assert_eq!(
            std::fs::read(&file).unwrap(),
            certs[*i].der,
            "{}",
            file.display()
        );
    }
}

/// DER holds one object per file: several objects are refused as DER (nothing, pkit
/// included, reads a concatenation back), or written one file each with --split, and
/// each file reads back as its object; an existing file stops --split before it writes.
#[test]
fn der_of_several_objects_is_refused_or_split() {
    let dir = tempdir();
    let store = root_store();
    let bundle: String = store[..3].iter().map(|c| c.pem.as_str()).collect();
    let input = write_file(dir.path(), "three.pem", bundle.as_bytes());
    let input = input.to_string_lossy().into_owned();
    let out = dir.path().join("certs.der");
    let out_s = out.to_string_lossy().into_owned();

    let run = pkit_run(&["parse", &input, "-f", "der", "-o", &out_s]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(run.stderr_str().contains("3 objects"), "{}", run.describe());
    assert!(!out.exists(), "nothing is written");

    let run = pkit_run(&["parse", &input, "-f", "der", "-o", &out_s, "--split"]);
    ok(&run, "--split");
    assert!(
        run.stderr_str().contains("pkit: created 3 files ("),
        "{}",
        run.describe()
    );
    // One object into -o is said as every creating command says what it made.
    let one = dir.path().join("one.der");
    let one_s = one.to_string_lossy().into_owned();
    let first = write_file(dir.path(), "first.pem", store[0].pem.as_bytes());
    let run = pkit_run(&["parse", &first.to_string_lossy(), "-f", "der", "-o", &one_s]);
    ok(&run, "one object -o");
    assert_eq!(
        run.stderr_str(),
        format!("pkit: created DER object in {one_s}\n"),
        "{}",
        run.describe()
    );
    assert_eq!(std::fs::read(&one).unwrap(), store[0].der);
    for (i, c) in store[..3].iter().enumerate() {
        let one = dir.path().join(format!("certs-{}.der", i + 1));
        assert_eq!(std::fs::read(&one).unwrap(), c.der, "{}", one.display());
    }
    assert!(!dir.path().join("certs-4.der").exists());

    // Again: the first name exists, so nothing is replaced without --force.
    std::fs::remove_file(dir.path().join("certs-3.der")).unwrap();
    let run = pkit_run(&["parse", &input, "-f", "der", "-o", &out_s, "--split"]);
    assert_eq!(run.code, Some(4), "{}", run.describe());
    assert!(!dir.path().join("certs-3.der").exists());

    // PEM splits too; --split without -f der or pem is a usage error.
    let pem_out = dir.path().join("c.pem").to_string_lossy().into_owned();
    ok(
        &pkit_run(&["parse", &input, "-f", "pem", "-o", &pem_out, "--split"]),
        "-f pem --split",
    );
    assert!(dir.path().join("c-2.pem").exists());
    let run = pkit_run(&["parse", &input, "-f", "json", "-o", &pem_out, "--split"]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
}
