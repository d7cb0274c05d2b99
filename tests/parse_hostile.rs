//! `pkit parse` on hostile and broken input: truncation, bad lengths, garbage, deep
//! nesting, huge files, broken PEM. Each must end quickly with exit 3 and one stderr line
//! naming the file and a byte offset — never a panic, a hang or a huge allocation.
//!
//! Memory is bounded by running pkit under `ulimit -v` (1 GiB of address space, ten times
//! the largest input here): an allocation sized from a hostile length field aborts the
//! process and fails the test. Hangs are caught by killing pkit after 20 s (no timing is
//! asserted).

mod common;

use common::*;
use std::path::Path;

/// Address space pkit may use, in KiB.
const VMEM_KIB: u64 = 1 << 20;

/// Run pkit under the address-space limit.
fn pkit_bounded(args: &[&str]) -> Run {
    let script = format!("ulimit -v {VMEM_KIB} && exec \"$0\" \"$@\"");
    let mut full: Vec<String> = vec!["-c".into(), script, pkit_bin().to_string_lossy().into()];
    full.extend(args.iter().map(|s| s.to_string()));
    run_with("sh", &full, None, HANG)
}

/// A root-store certificate as DER (a real, ordinary one: RSA, a few extensions).
fn sample_cert() -> Vec<u8> {
    root_store().swap_remove(1).der
}

fn pem(label: &str, der: &[u8]) -> String {
    pem::encode_config(
        &pem::Pem::new(label, der.to_vec()),
        pem::EncodeConfig::new().set_line_ending(pem::LineEnding::LF),
    )
}

/// Parse `file` in the usual ways and assert each run fails cleanly: exit 3, no panic,
/// exactly one stderr line (text mode) naming the file and an offset.
fn assert_rejected(dir: &Path, file: &str, what: &str, lenient_too: bool) {
    assert_rejected_by(dir, file, what, lenient_too, true)
}

/// As `assert_rejected`; `asn1` says whether the ASN.1 dump (`-f asn1`) must reject it too.
fn assert_rejected_by(dir: &Path, file: &str, what: &str, lenient_too: bool, asn1: bool) {
    let path = dir.join(file);
    let p = path.to_string_lossy();
    let mut variants: Vec<Vec<&str>> = vec![vec!["parse", &p], vec!["parse", "-f", "json", &p]];
    if asn1 {
        variants.push(vec!["parse", "-f", "asn1", &p]);
    }
    if lenient_too {
        variants.push(vec!["parse", "--lenient", &p]);
        if asn1 {
            variants.push(vec!["parse", "--lenient", "-f", "asn1", &p]);
        }
    }
    for args in variants {
        let run = pkit_bounded(&args);
        let ctx = format!("{what} (pkit {})", args[1..].join(" "));
        assert_parse_failure(&run, &p, &ctx);
        let lines: Vec<&str> = std::str::from_utf8(&run.stderr)
            .unwrap_or("")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect();
        let errors: Vec<&&str> = lines.iter().filter(|l| !l.contains("warning:")).collect();
        assert_eq!(
            errors.len(),
            1,
            "{ctx}: expected one error line; {}",
            run.describe()
        );
        if !args.contains(&"json") {
            assert!(
                errors[0].starts_with(&format!("pkit: {p}")),
                "{ctx}: the error line should start with `pkit: FILE`: {}",
                errors[0]
            );
        }
    }
}

/// A deterministic byte stream (SplitMix64), so a failure reproduces.
fn prng_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        out.extend_from_slice(&z.to_le_bytes());
    }
    out.truncate(len);
    out
}

#[test]
fn truncated_certificate() {
    let dir = tempdir();
    let der = sample_cert();
    let n = der.len();
    for cut in [1, 2, 3, 4, 5, 10, 50, n / 2, n - 10, n - 1] {
        let name = format!("cut{cut}.der");
        write_file(dir.path(), &name, &der[..cut]);
        assert_rejected(
            dir.path(),
            &name,
            &format!("certificate cut at {cut} of {n}"),
            true,
        );
    }
    // The same inside PEM.
    let name = "cut.pem";
    write_file(
        dir.path(),
        name,
        pem("CERTIFICATE", &der[..n / 2]).as_bytes(),
    );
    assert_rejected(dir.path(), name, "PEM of a half certificate", true);
}

#[test]
fn non_minimal_length() {
    let dir = tempdir();
    let der = sample_cert();
    // 30 82 LL LL → 30 83 00 LL LL: the outer length in a longer form than needed.
    assert_eq!(
        &der[..2],
        &[0x30, 0x82],
        "sample certificate has a two-byte length"
    );
    let mut bad = vec![0x30, 0x83, 0x00];
    bad.extend_from_slice(&der[2..]);
    write_file(dir.path(), "nonmin.der", &bad);
    assert_rejected(dir.path(), "nonmin.der", "non-minimal length", false);

    // --lenient reads it and says so.
    let p = dir.path().join("nonmin.der");
    let run = pkit_bounded(&["parse", "--lenient", "-f", "json", &p.to_string_lossy()]);
    assert_eq!(
        run.code,
        Some(0),
        "--lenient on a non-minimal length: {}",
        run.describe()
    );
    assert!(
        run.stderr_str().contains("warning"),
        "--lenient should warn about the BER length: {}",
        run.describe()
    );
    let items = json_items(&run);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["type"], "certificate");

    // A short-form length written in long form (81 05 instead of 05) deep inside.
    let small = [0x30, 0x81, 0x03, 0x02, 0x01, 0x00];
    write_file(dir.path(), "nonmin-small.der", &small);
    assert_rejected(
        dir.path(),
        "nonmin-small.der",
        "81-form length below 128",
        false,
    );
}

#[test]
fn trailing_garbage() {
    let dir = tempdir();
    let der = sample_cert();
    // The ASN.1 dump (`-f asn1`) shows a stream of TLVs, so a second complete element
    // after the certificate is fine there; an end-of-contents marker outside an
    // indefinite-length encoding (X.690 8.1.5) or a broken TLV is not.
    let cases: [(&str, &[u8], bool); 3] = [
        ("zeros.der", b"\0\0", true),
        ("text.der", b"garbage\n", true),
        ("another-tlv.der", &[0x05, 0x00], false),
    ];
    for (name, tail, _) in cases {
        let mut v = der.clone();
        v.extend_from_slice(tail);
        write_file(dir.path(), name, &v);
        let what = format!("DER certificate + {tail:?}");
        assert_rejected_by(dir.path(), name, &what, true, false);
        // The same bytes inside a PEM block.
        let pem_name = name.replace(".der", ".pem");
        write_file(dir.path(), &pem_name, pem("CERTIFICATE", &v).as_bytes());
        let what = format!("PEM of certificate + {tail:?}");
        assert_rejected_by(dir.path(), &pem_name, &what, true, false);
    }
    for (name, tail, dump_rejects) in cases {
        let p = dir.path().join(name);
        let p = p.to_string_lossy();
        let run = pkit_bounded(&["parse", "-f", "asn1", &p]);
        let ctx = format!("pkit parse -f asn1 on a certificate + {tail:?}");
        if dump_rejects {
            assert_parse_failure(&run, &p, &ctx);
        } else {
            assert_eq!(run.code, Some(0), "{ctx}: {}", run.describe());
        }
    }
}

#[test]
fn random_100_mb() {
    let dir = tempdir();
    let size = 100 * 1024 * 1024;
    // Plain noise.
    let noise = prng_bytes(0x706b_6974, size);
    write_file(dir.path(), "noise.bin", &noise);
    assert_rejected(dir.path(), "noise.bin", "100 MB of random bytes", true);
    // Noise under a valid SEQUENCE header covering all of it, so the parser goes inside.
    let mut wrapped = der_header(0x30, size - 6);
    wrapped.extend_from_slice(&noise[..size - wrapped.len()]);
    assert_eq!(wrapped.len(), size);
    drop(noise);
    write_file(dir.path(), "seq-noise.der", &wrapped);
    drop(wrapped);
    assert_rejected(
        dir.path(),
        "seq-noise.der",
        "100 MB SEQUENCE of random bytes",
        true,
    );
    // Random bytes as a (large) PEM certificate: base64 decodes, DER does not.
    let block = pem("CERTIFICATE", &prng_bytes(7, 4 << 20));
    write_file(dir.path(), "noise.pem", block.as_bytes());
    assert_rejected(dir.path(), "noise.pem", "4 MB of random bytes in PEM", true);
}

/// `depth` nested SEQUENCEs with definite lengths around a NULL.
fn nested_definite(depth: usize) -> Vec<u8> {
    // Content lengths from the inside out, then the headers from the outside in.
    let mut content = Vec::with_capacity(depth);
    let mut len = 2usize; // NULL
    for _ in 0..depth {
        content.push(len);
        len += der_header(0x30, len).len();
    }
    let mut out = Vec::with_capacity(len);
    for l in content.iter().rev() {
        out.extend(der_header(0x30, *l));
    }
    out.extend_from_slice(&[0x05, 0x00]);
    assert_eq!(out.len(), len);
    out
}

/// `depth` nested SEQUENCEs with indefinite lengths around a NULL.
fn nested_indefinite(depth: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 * depth + 2);
    for _ in 0..depth {
        out.extend_from_slice(&[0x30, 0x80]);
    }
    out.extend_from_slice(&[0x05, 0x00]);
    for _ in 0..depth {
        out.extend_from_slice(&[0x00, 0x00]);
    }
    out
}

#[test]
fn deep_nesting() {
    let dir = tempdir();
    write_file(dir.path(), "deep.der", &nested_definite(10_000));
    assert_rejected(dir.path(), "deep.der", "10,000 nested SEQUENCEs", true);
    write_file(dir.path(), "deep-indef.der", &nested_indefinite(10_000));
    assert_rejected(
        dir.path(),
        "deep-indef.der",
        "10,000 nested indefinite-length SEQUENCEs",
        true,
    );
    // Forcing the certificate reader onto them changes nothing.
    for f in ["deep.der", "deep-indef.der"] {
        let p = dir.path().join(f);
        let p = p.to_string_lossy();
        for lenient in [false, true] {
            let mut args = vec!["parse", "--type", "cert", &p];
            if lenient {
                args.push("--lenient");
            }
            let run = pkit_bounded(&args);
            assert_parse_failure(&run, &p, &format!("pkit {}", args.join(" ")));
        }
    }
    // Shallow indefinite nesting is fine when lenient, refused when strict.
    write_file(dir.path(), "indef-3.der", &nested_indefinite(3));
    let p = dir.path().join("indef-3.der");
    let p = p.to_string_lossy();
    let run = pkit_bounded(&["parse", "-f", "asn1", &p]);
    assert_parse_failure(&run, &p, "3 indefinite-length SEQUENCEs, strict");
    let run = pkit_bounded(&["parse", "-f", "asn1", "--lenient", &p]);
    assert_eq!(
        run.code,
        Some(0),
        "3 indefinite SEQUENCEs, --lenient: {}",
        run.describe()
    );
}

/// `--lenient` reports each BER deviation it accepts as a warning, in the ASN.1 dump too.
#[test]
fn lenient_warns_about_indefinite_lengths() {
    let dir = tempdir();
    let p = write_file(dir.path(), "indef-3.der", &nested_indefinite(3));
    let p = p.to_string_lossy();
    for args in [
        vec!["parse", "-f", "asn1", "--lenient", &p],
        vec!["parse", "--lenient", &p],
    ] {
        let run = pkit_bounded(&args);
        let warnings = run
            .stderr_str()
            .lines()
            .filter(|l| l.contains("warning") && l.contains("offset"))
            .count();
        assert!(
            warnings >= 1,
            "pkit {}: expected a warning per indefinite length; {}",
            args.join(" "),
            run.describe()
        );
    }
}

#[test]
fn huge_length_fields() {
    let dir = tempdir();
    let der = sample_cert();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        // SEQUENCE claiming 4 GiB - 1, holding 3 bytes.
        (
            "4g.der",
            vec![0x30, 0x84, 0xff, 0xff, 0xff, 0xff, 0x02, 0x01, 0x00],
        ),
        // Exactly 4 GiB (5 length octets).
        (
            "4g-exact.der",
            vec![0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00],
        ),
        // 2^63 (8 length octets), and 127 length octets.
        ("2e63.der", {
            let mut v = vec![0x30, 0x88, 0x80, 0, 0, 0, 0, 0, 0, 0];
            v.extend_from_slice(&[0x05, 0x00]);
            v
        }),
        ("127-octets.der", {
            let mut v = vec![0x30, 0xfe];
            v.extend(std::iter::repeat_n(0xff, 126));
            v.extend_from_slice(&[0x05, 0x00]);
            v
        }),
        // A reserved length octet (0xff).
        ("len-ff.der", vec![0x30, 0xff, 0x05, 0x00]),
        // A real certificate whose tbsCertificate claims 4 GiB - 1.
        ("cert-tbs-4g.der", {
            let mut v = der.clone();
            // 30 82 LL LL | 30 82 LL LL …: the second header is the TBS.
            v.splice(5..8, [0x84, 0xff, 0xff, 0xff, 0xff]);
            v
        }),
    ];
    for (name, bytes) in cases {
        write_file(dir.path(), name, &bytes);
        assert_rejected(dir.path(), name, &format!("huge length ({name})"), true);
    }
}

#[test]
fn broken_pem() {
    let dir = tempdir();
    let good = pem("CERTIFICATE", &sample_cert());
    let lines: Vec<&str> = good.lines().collect();
    let mut cases: Vec<(&str, String)> = Vec::new();
    // A character outside the base64 alphabet.
    cases.push(("bad-char.pem", good.replacen(&lines[3][..4], "!!!!", 1)));
    // A base64 line missing its last character (the length is no longer a multiple of 4).
    let mut cut = lines.clone();
    let short = &lines[2][..lines[2].len() - 1];
    cut[2] = short;
    cases.push(("bad-length.pem", cut.join("\n") + "\n"));
    // Padding in the middle.
    cases.push(("mid-padding.pem", good.replacen(&lines[4][..4], "AA==", 1)));
    // No END line.
    cases.push(("no-end.pem", lines[..lines.len() - 1].join("\n") + "\n"));
    for (name, text) in cases {
        write_file(dir.path(), name, text.as_bytes());
        assert_rejected(dir.path(), name, &format!("broken PEM ({name})"), true);
    }
}

#[test]
fn empty_input() {
    let dir = tempdir();
    write_file(dir.path(), "empty", b"");
    let p = dir.path().join("empty");
    let p = p.to_string_lossy();
    for args in [vec!["parse", &*p], vec!["parse", "-f", "json", &*p]] {
        let run = pkit_bounded(&args);
        assert_parse_failure(&run, &p, &format!("empty file (pkit {})", args.join(" ")));
    }
    // Empty stdin.
    let run = pkit_stdin(&["parse", "-"], b"");
    assert_eq!(run.code, Some(3), "empty stdin: {}", run.describe());
    assert!(!run.stderr_str().contains("panicked"), "{}", run.describe());
}

#[test]
fn directory_without_recursive_is_a_usage_error() {
    let dir = tempdir();
    let run = pkit_run(&["parse", &dir.path().to_string_lossy()]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr_str().contains("-r"),
        "should suggest -r: {}",
        run.describe()
    );
}

#[test]
fn missing_file_is_an_io_error() {
    let dir = tempdir();
    let p = dir.path().join("no-such-file.pem");
    let p = p.to_string_lossy();
    let run = pkit_run(&["parse", &p]);
    assert!(!run.stderr_str().contains("panicked"), "{}", run.describe());
    assert!(
        run.stderr_str().contains(&*p),
        "should name the file: {}",
        run.describe()
    );
    assert_eq!(run.code, Some(4), "missing input file: {}", run.describe());
}

#[test]
fn one_bad_certificate_in_a_bundle() {
    let dir = tempdir();
    let certs = root_store();
    let bad = &certs[1].der[..200];
    let text = format!(
        "{}{}{}",
        pem("CERTIFICATE", &certs[0].der),
        pem("CERTIFICATE", bad),
        pem("CERTIFICATE", &certs[2].der)
    );
    let p = write_file(dir.path(), "bundle.pem", text.as_bytes());
    let p = p.to_string_lossy();
    let run = pkit_bounded(&["parse", "-f", "json", &p]);
    assert_parse_failure(
        &run,
        &format!("{p}#2"),
        "bundle with a bad middle certificate",
    );
    let items = json_items(&run);
    let sources: Vec<&str> = items
        .iter()
        .map(|i| i["source"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        sources,
        [format!("{p}#1"), format!("{p}#3")],
        "{}",
        run.describe()
    );
    let stderr = run.stderr_str();
    assert!(!stderr.contains(&format!("{p}#1")) && !stderr.contains(&format!("{p}#3")));

    // Text and PEM output carry the two good ones as well.
    let run = pkit_bounded(&["parse", "-f", "pem", &p]);
    assert_eq!(run.code, Some(3), "{}", run.describe());
    let out = run.stdout_str();
    assert_eq!(
        out,
        format!(
            "{}{}",
            pem("CERTIFICATE", &certs[0].der),
            pem("CERTIFICATE", &certs[2].der)
        )
    );
}

#[test]
fn output_file_is_not_overwritten_without_force() {
    let dir = tempdir();
    let input = write_file(
        dir.path(),
        "in.pem",
        pem("CERTIFICATE", &sample_cert()).as_bytes(),
    );
    let out = write_file(dir.path(), "out.json", b"precious\n");
    let (i, o) = (input.to_string_lossy(), out.to_string_lossy());
    let run = pkit_run(&["parse", &i, "-f", "json", "-o", &o]);
    assert_eq!(run.code, Some(4), "{}", run.describe());
    assert!(run.stderr_str().contains("--force"), "{}", run.describe());
    assert_eq!(std::fs::read(&out).unwrap(), b"precious\n");
    // With --force it is replaced, and nothing else is left in the directory.
    let run = pkit_run(&["parse", &i, "-f", "json", "-o", &o, "--force"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["items"][0]["type"], "certificate");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn prng_is_stable() {
    // The random inputs above must be the same on every machine.
    assert_eq!(
        prng_bytes(0, 8),
        [0xaf, 0xcd, 0x1d, 0x7b, 0x39, 0xa8, 0x20, 0xe2]
    );
    assert_eq!(nested_definite(2), [0x30, 0x04, 0x30, 0x02, 0x05, 0x00]);
    assert_eq!(nested_indefinite(1), [0x30, 0x80, 0x05, 0x00, 0x00, 0x00]);
}
