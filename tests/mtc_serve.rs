//! `pkit mtc tiles` and `pkit mtc serve`: the issuance log published as tlog-tiles, read
//! back by Go's golang.org/x/mod/sumdb/tlog (tests/go/tlogcheck) on 127.0.0.1, served
//! while the log grows, and refusing hostile paths.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const NOW: &str = "2026-11-01T00:00:00Z";
const LATER: &str = "2026-11-02T00:00:00Z";

/// A CA (Ed25519 cosigner) in `dir` with `n` entries and a checkpoint.
fn log_with(dir: &Path, n: usize) {
    common::new_mtc_ca(dir);
    grow(dir, 0, n);
}

/// Append entries `first..first+n` and sign a checkpoint; its note.
fn grow(dir: &Path, first: usize, n: usize) -> String {
    mtc_add(dir, first, n, Some("ed25519"), Some(NOW));
    pk_ok(&["mtc", "checkpoint", "--dir", &s(dir)]).stdout_str()
}

/// A copy of the CA directory (same key, same log so far) at `to`: a second history.
fn copy_ca(dir: &Path, to: &Path) -> PathBuf {
    std::fs::create_dir(to).unwrap();
    for f in ["mtc-ca.pem", "cosigner.key", "mtc.db"] {
        std::fs::copy(dir.join(f), to.join(f)).unwrap();
    }
    to.to_path_buf()
}

/// Size and root (base64) of a checkpoint note.
fn size_root(note: &str) -> (u64, String) {
    let l: Vec<&str> = note.lines().collect();
    (l[1].parse().unwrap(), l[2].to_string())
}

fn serve(dir: &Path, extra: &[&str]) -> (Server, String) {
    let port = free_port();
    let mut cmd = Command::new(pkit_bin());
    let listen = format!("127.0.0.1:{port}");
    cmd.args(["mtc", "serve", "--dir", &s(dir), "--listen", &listen]);
    cmd.args(extra);
    let server = Server::start(cmd, dir.join("serve.log"), "\"listening\"");
    (server, format!("http://{listen}"))
}

/// An HTTP client that returns error statuses as answers, bounded in time.
/// GET `url`: status and body.
fn get(url: &str) -> (u16, Vec<u8>) {
    let (status, _, body) = common::http_get(url);
    (status, body)
}

/// tests/go/tlogcheck, built once; `None` (outside CI) without Go.
fn tlogcheck() -> Option<&'static PathBuf> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| {
        common::go_program(
            "tlogcheck",
            "reading the log with Go's sumdb/tlog",
            "reach the Go module proxy (golang.org/x/mod is fetched from it)",
        )
    })
    .as_ref()
}

/// Run tlogcheck against `url`; its JSON verdict.
fn go_check(bin: &Path, url: &str, old: Option<(u64, &str)>, extra: &[&str]) -> Value {
    let mut cmd = Command::new(bin);
    cmd.args(extra);
    if let Some((size, root)) = old {
        cmd.args(["-old-size", &size.to_string(), "-old-root", root]);
    }
    let r = cmd.arg(url).output().expect("running tlogcheck");
    let v: Value = serde_json::from_slice(&r.stdout)
        .unwrap_or_else(|_| panic!("tlogcheck: {}", String::from_utf8_lossy(&r.stderr)));
    assert_eq!(v["ok"], true, "tlogcheck on {url}: {v}");
    v
}

/// Every file `mtc tiles` wrote, by path under the directory.
fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.path().is_dir() {
                walk(&e.path(), out);
            } else {
                out.push(e.path());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// The log served and written as files is what Go's tlog computes from it: root from the
/// tiles, entries hashing to their leaves, inclusion and consistency proofs; the files are
/// byte for byte what the server answers.
#[test]
fn go_reads_the_served_and_the_written_log() {
    let t = tempdir();
    let dir = t.path().join("ca");
    log_with(&dir, 1000);
    let (mut server, url) = serve(&dir, &[]);
    let (status, note) = get(&format!("{url}/checkpoint"));
    assert_eq!(status, 200);
    let (size0, root0) = size_root(&String::from_utf8(note).unwrap());
    assert_eq!(size0, 1000);
    // The CA's Ed25519 key, for Go's note package to check the checkpoint's
    // cosignature/v1 signature.
    let ca_pem = std::fs::read_to_string(dir.join("mtc-ca.pem")).unwrap();
    let ca_der = pem::parse(ca_pem).unwrap().contents().to_vec();
    let ca_cert = pkit::pki::cert::Certificate::from_der(&ca_der).unwrap();
    use base64::Engine;
    let key = base64::engine::general_purpose::STANDARD.encode(ca_cert.spki.key.bytes);
    let ca_signer = format!("oid/1.3.6.1.4.1.32473.1=ed25519:{key}");
    let signer = ["-cosigner", ca_signer.as_str()];
    if let Some(bin) = tlogcheck() {
        let v = go_check(bin, &url, None, &signer);
        assert_eq!(v["size"], 1000);
        assert_eq!(v["entries_checked"], 16);
        assert_eq!(v["signed_by"][0], "oid/1.3.6.1.4.1.32473.1");
    }
    // The log grows while the server runs; the new checkpoint is consistent with the old.
    let note = grow(&dir, 1000, 70_000 - 1000 + 123);
    let (size1, root1) = size_root(&note);
    assert_eq!(size1, 70_123);
    let (_, served) = get(&format!("{url}/checkpoint"));
    assert_eq!(String::from_utf8(served).unwrap(), note);
    if let Some(bin) = tlogcheck() {
        // pkit's own proofs, checked by Go against the tiles it fetched.
        let d = s(&dir);
        let inc = pk_ok(&[
            "mtc",
            "proof",
            "--dir",
            &d,
            "--index",
            "12345",
            "--subtree",
            "0:70123",
            "-f",
            "json",
        ]);
        let inc_file = write_file(t.path(), "inclusion.json", inc.stdout_str().as_bytes());
        let con = pk_ok(&[
            "mtc",
            "consistency",
            "--dir",
            &d,
            "--old",
            "1000",
            "--new",
            "70123",
            "-f",
            "json",
        ]);
        let con_file = write_file(t.path(), "consistency.json", con.stdout_str().as_bytes());
        let (i, c) = (s(&inc_file), s(&con_file));
        let mut args = signer.to_vec();
        args.extend(["-inclusion", i.as_str(), "-consistency", c.as_str()]);
        let v = go_check(bin, &url, Some((size0, &root0)), &args);
        assert_eq!(v["pkit_proofs_checked"], 2, "{v}");
    }
    // The same log as files: byte for byte the server's answers.
    let out = t.path().join("out");
    let r = pk_ok(&[
        "mtc",
        "tiles",
        "--dir",
        &s(&dir),
        "--out-dir",
        &s(&out),
        "-f",
        "json",
    ]);
    let v = &json_items(&r)[0];
    assert_eq!(v["tree_size"], 70_123);
    assert_eq!(v["hash_tiles"], 273 + 1 + 2 + 1);
    assert_eq!(v["entry_bundles"], 274);
    let written = files(&out);
    assert_eq!(written.len(), 277 + 274 + 2);
    for f in &written {
        let rel = f.strip_prefix(&out).unwrap().to_str().unwrap();
        let (status, body) = get(&format!("{url}/{rel}"));
        assert_eq!(status, 200, "{rel}");
        assert_eq!(body, std::fs::read(f).unwrap(), "{rel}");
    }
    assert_eq!(
        root1,
        size_root(&std::fs::read_to_string(out.join("checkpoint")).unwrap()).1
    );
    assert_eq!(server.terminate(), Some(0), "{}", server.log_text());
}

/// Only what grew is written again; a directory of another log, or of a larger tree, is
/// refused before anything is written.
#[test]
fn tiles_are_incremental_and_keep_to_their_log() {
    let t = tempdir();
    let dir = t.path().join("ca");
    log_with(&dir, 300);
    let out = t.path().join("out");
    let tiles = |extra: &[&str]| {
        let mut a = vec!["mtc", "tiles", "--dir", dir.to_str().unwrap()];
        a.extend_from_slice(&["--out-dir", out.to_str().unwrap(), "-f", "json"]);
        a.extend_from_slice(extra);
        json_items(&pk_ok(&a))[0].clone()
    };
    let v = tiles(&[]);
    assert_eq!(
        (v["hash_tiles"].as_u64(), v["entry_bundles"].as_u64()),
        (Some(3), Some(2))
    );
    let v = tiles(&[]);
    assert_eq!(
        (v["hash_tiles"].as_u64(), v["entry_bundles"].as_u64()),
        (Some(0), Some(0))
    );
    grow(&dir, 300, 10);
    let v = tiles(&["--no-entries"]);
    assert_eq!(v["previous_size"], 300);
    // Level 0: the partial tile of 54; level 1: still width 1 (not rewritten).
    assert_eq!(
        (v["hash_tiles"].as_u64(), v["entry_bundles"].as_u64()),
        (Some(1), Some(0))
    );
    assert!(out.join("tile/0/001.p/54").is_file());
    assert!(!out.join("tile/entries/001.p/54").exists());
    // Another log's directory.
    let other = t.path().join("other");
    pk_ok(&[
        "mtc",
        "ca",
        "new",
        "--dir",
        &s(&other),
        "--ca-id",
        "32473.2",
        "--alg",
        "ed25519",
    ]);
    grow(&other, 0, 5);
    let r = pk(&["mtc", "tiles", "--dir", &s(&other), "--out-dir", &s(&out)]);
    refused(
        &r,
        2,
        &["checkpoint", "32473.1.0.1", "not of this log"],
        "foreign out-dir",
    );
    // A log with no checkpoint yet.
    let empty = t.path().join("empty");
    pk_ok(&[
        "mtc",
        "ca",
        "new",
        "--dir",
        &s(&empty),
        "--ca-id",
        "32473.3",
        "--alg",
        "ed25519",
    ]);
    let r = pk(&[
        "mtc",
        "tiles",
        "--dir",
        &s(&empty),
        "--out-dir",
        &s(&t.path().join("o2")),
    ]);
    refused(&r, 2, &["no checkpoint yet"], "no checkpoint");
}

/// Paths that are not resources get 404, malformed tile paths 400, other methods 405; a
/// tile past the checkpoint is not served; `--prefix` mounts the log elsewhere.
#[test]
fn hostile_and_unknown_paths() {
    let t = tempdir();
    let dir = t.path().join("ca");
    log_with(&dir, 300);
    let (mut server, url) = serve(&dir, &["--prefix", "/mtc/1"]);
    for (path, want) in [
        ("/mtc/1/checkpoint", 200),
        ("/mtc/1/landmarks", 200),
        ("/mtc/1/tile/0/000", 200),
        ("/mtc/1/tile/0/001.p/44", 200),
        ("/mtc/1/tile/1/000.p/1", 200),
        ("/mtc/1/tile/entries/001.p/44", 200),
        ("/mtc/1/checkpoint?x=1", 200),
        ("/checkpoint", 404),
        ("/mtc/2/checkpoint", 404),
        ("/mtc/1/", 404),
        ("/mtc/1/etc/passwd", 404),
        ("/mtc/1/../../etc/passwd", 404),
        ("/mtc/1/tile/0/../../mtc.db", 400),
        ("/mtc/1/tile/0/001", 404),
        ("/mtc/1/tile/0/001.p/45", 404),
        ("/mtc/1/tile/1/000", 404),
        ("/mtc/1/tile/0/x999/x999/x999/x999/x999/999", 404),
        ("/mtc/1/tile/0/x999/x999/x999/x999/x999/x999/999", 400),
        ("/mtc/1/tile/0/x99999999999999999999/000", 400),
        ("/mtc/1/tile/64/000", 400),
        ("/mtc/1/tile/a/000", 400),
        ("/mtc/1/tile/00/000", 400),
        ("/mtc/1/tile/0/000.p/0", 400),
        ("/mtc/1/tile/0/000.p/256", 400),
        ("/mtc/1/tile/0/%2e%2e/000", 400),
        ("/mtc/1/tile/entries/x000/000", 400),
    ] {
        let (status, _) = get(&format!("{url}{path}"));
        assert_eq!(status, want, "{path}");
    }
    let agent = common::http_agent();
    let r = agent
        .post(&format!("{url}/mtc/1/checkpoint"))
        .send(&b"x"[..])
        .unwrap();
    assert_eq!(r.status().as_u16(), 405);
    let r = agent
        .get(&format!("{url}/mtc/1/tile/0/000"))
        .call()
        .unwrap();
    assert_eq!(
        r.headers().get("cache-control").unwrap(),
        "public, max-age=31536000, immutable"
    );
    assert_eq!(
        r.headers().get("content-type").unwrap(),
        "application/octet-stream"
    );
    // HEAD: GET's headers, no body.
    let mut r = agent
        .head(&format!("{url}/mtc/1/tile/0/000"))
        .call()
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers().get("content-length").unwrap(), "8192");
    assert!(r.body_mut().read_to_vec().unwrap().is_empty());
    let r = agent
        .get(&format!("{url}/mtc/1/checkpoint"))
        .call()
        .unwrap();
    assert_eq!(
        r.headers().get("cache-control").unwrap(),
        "public, max-age=2"
    );
    assert_eq!(server.terminate(), Some(0), "{}", server.log_text());
    assert!(!server.log_text().contains("panicked"));
    // Bad arguments.
    let r = pk(&[
        "mtc",
        "serve",
        "--dir",
        &s(&dir),
        "--listen",
        "127.0.0.1:1",
        "--prefix",
        "a/../b",
    ]);
    refused(&r, 2, &["--prefix"], "bad prefix");
    let r = pk(&[
        "mtc",
        "serve",
        "--dir",
        &s(&t.path().join("none")),
        "--listen",
        "127.0.0.1:1",
    ]);
    refused(&r, 4, &["no MTC database"], "missing log");
}

/// `pkit mtc audit URL --ca … --state FILE`: its JSON item.
fn audit(url: &str, ca: &Path, state: &Path) -> Run {
    pk(&[
        "mtc",
        "audit",
        "--url",
        url,
        "--ca",
        &s(ca),
        "--state",
        &s(state),
        "--entries",
        "-f",
        "json",
    ])
}

/// A first audit, then one that fetches only what the log added; a log that was
/// rewritten after the state was taken is a fork naming both trees, and the state stays.
#[test]
fn audits_follow_the_log_and_catch_a_fork() {
    let t = tempdir();
    let dir = t.path().join("ca");
    log_with(&dir, 600);
    // A copy of the CA (same key) whose log goes another way after 600 entries.
    let copy = copy_ca(&dir, &t.path().join("copy"));
    let ca = dir.join("mtc-ca.pem");
    let state = t.path().join("state.json");
    let (mut server, url) = serve(&dir, &[]);
    let r = audit(&url, &ca, &state);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v = &json_items(&r)[0];
    assert_eq!(v["size"], 600);
    assert_eq!(v["previous_size"], Value::Null);
    assert_eq!(v["tiles"], 3 + 1);
    assert_eq!(v["entry_bundles"], 3);
    grow(&dir, 600, 100);
    let r = audit(&url, &ca, &state);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v = &json_items(&r)[0];
    assert_eq!(
        (v["size"].as_u64(), v["previous_size"].as_u64()),
        (Some(700), Some(600))
    );
    // Level 0 from tile 2 (entries 512..700) on, and the level-1 tile, checked against
    // the tree seen before though no level-8 node was completed.
    assert_eq!(v["tiles"], 2);
    let saved = std::fs::read(&state).unwrap();
    server.terminate();
    // The copy: 600 entries, then 150 others.
    let note = grow(&copy, 10_000, 150);
    let (size, root) = size_root(&note);
    let (mut other, url2) = serve(&copy, &[]);
    let r = audit(&url2, &ca, &state);
    let line = r.stderr_str();
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert!(
        line.contains(&format!(
            "fork: the checkpoint of size {size} (root {root})"
        )) && line.contains("the tree of size 700"),
        "{line}"
    );
    assert_eq!(std::fs::read(&state).unwrap(), saved, "the state changed");
    // Signed by a key that is not the CA's: another CA of the same ID.
    let stranger = t.path().join("stranger");
    pk_ok(&[
        "mtc",
        "ca",
        "new",
        "--dir",
        &s(&stranger),
        "--ca-id",
        "32473.1",
        "--alg",
        "ed25519",
    ]);
    let r = audit(
        &url2,
        &stranger.join("mtc-ca.pem"),
        &t.path().join("s2.json"),
    );
    refused(&r, 1, &["not signed by the CA's key"], "unknown key");
    other.terminate();
    // Nothing listening.
    let r = audit(&url2, &ca, &t.path().join("s3.json"));
    assert_eq!(r.code, Some(4), "{}", r.describe());
}

/// A wrong hash in a tile, a truncated tile: the tile is named (exit 1).
#[test]
fn audits_name_damaged_tiles() {
    let t = tempdir();
    let dir = t.path().join("ca");
    log_with(&dir, 66_000);
    let ca = dir.join("mtc-ca.pem");
    let out = t.path().join("out");
    pk_ok(&["mtc", "tiles", "--dir", &s(&dir), "--out-dir", &s(&out)]);
    // A level-8 node that is not the root of the tile below it.
    {
        let db = rusqlite::Connection::open(dir.join("mtc.db")).unwrap();
        let n = db
            .execute(
                "UPDATE nodes SET hash = zeroblob(32) WHERE level = 8 AND idx = 3",
                [],
            )
            .unwrap();
        assert_eq!(n, 1);
    }
    let (mut server, url) = serve(&dir, &[]);
    let r = audit(&url, &ca, &t.path().join("a.json"));
    refused(
        &r,
        1,
        &["tile/1/000: hash 3 is not the root of tile/0/003"],
        "wrong hash",
    );
    server.terminate();
    // A truncated tile, served as a file.
    let Some(_) = optional(Peer::Python, "serving damaged tile files") else {
        return;
    };
    let tile = out.join("tile/0/005");
    let bytes = std::fs::read(&tile).unwrap();
    std::fs::write(&tile, &bytes[..100]).unwrap();
    let port = free_port();
    // http.server says it is ready on stdout; the helper watches stderr.
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        &format!("exec python3 -u -m http.server {port} --bind 127.0.0.1 1>&2"),
    ]);
    cmd.current_dir(&out);
    let _files = Server::start(cmd, t.path().join("http.log"), "Serving HTTP");
    let r = audit(
        &format!("http://127.0.0.1:{port}"),
        &ca,
        &t.path().join("b.json"),
    );
    refused(
        &r,
        1,
        &["tile/0/005: 100 bytes; a tile of width 256 has 8192"],
        "truncated tile",
    );
}

/// `pkit mtc verify --url`: the certificate's subtree, looked up in the served log and
/// proven consistent with its signed checkpoint, is trusted without its cosignatures; a
/// certificate of another history is refused at the trusted-subtree step.
#[test]
fn verify_looks_the_subtree_up_in_the_log() {
    let t = tempdir();
    let dir = t.path().join("ca");
    log_with(&dir, 300);
    let copy = copy_ca(&dir, &t.path().join("copy"));
    grow(&dir, 300, 40);
    grow(&copy, 9_000, 40);
    let cert = t.path().join("c.pem");
    let (d, c) = (s(&dir), s(&cert));
    pk_ok(&[
        "mtc", "cert", "--dir", &d, "--index", "310", "-o", &c, "--now", LATER,
    ]);
    let ca = s(&dir.join("mtc-ca.pem"));
    let verify = |url: &str| {
        pk(&[
            "mtc", "verify", &c, "--ca", &ca, "--url", url, "--now", LATER, "-f", "json",
        ])
    };
    let (mut server, url) = serve(&dir, &[]);
    let r = verify(&url);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v = &json_items(&r)[0];
    assert_eq!(v["trusted_subtree"], true, "{v}");
    server.terminate();
    // The same CA's other history: its tiles give another hash for that subtree.
    let (mut other, url2) = serve(&copy, &[]);
    let r = verify(&url2);
    assert_eq!(r.code, Some(1), "{}", r.describe());
    assert_eq!(
        json_items(&r)[0]["failed_step"],
        "trusted-subtree",
        "{}",
        r.describe()
    );
    other.terminate();
    // Nothing listening: an I/O error, not a verdict.
    let r = verify(&url2);
    assert_eq!(r.code, Some(4), "{}", r.describe());
}

/// A witness key pair in `dir`: (private key file, public key file, raw public key
/// base64 for Ed25519).
fn witness(dir: &Path, name: &str, alg: &str) -> (PathBuf, PathBuf) {
    let key = dir.join(format!("{name}.key"));
    let public = dir.join(format!("{name}.pub"));
    pk_ok(&["key", "gen", "--alg", alg, "-o", &s(&key)]);
    pk_ok(&["key", "pub", &s(&key), "-o", &s(&public)]);
    (key, public)
}

/// Witnesses cosign a checkpoint only when the log extends what they cosigned before;
/// the CA adds their lines to its checkpoint, which then verifies with Go's note package
/// (cosignature/v1) and with `pkit mtc audit --cosigner`.
#[test]
fn witnesses_cosign_consistent_checkpoints_only() {
    let t = tempdir();
    let dir = t.path().join("ca");
    log_with(&dir, 300);
    let copy = copy_ca(&dir, &t.path().join("copy"));
    let ca = dir.join("mtc-ca.pem");
    let (w1, w1_pub) = witness(t.path(), "w1", "ed25519");
    let (w2, w2_pub) = witness(t.path(), "w2", "ml-dsa-44");
    let cosign = |url: &str, key: &Path, id: &str, state: &str| {
        pk(&[
            "mtc",
            "cosign",
            "--url",
            url,
            "--ca",
            &s(&ca),
            "--key",
            &s(key),
            "--id",
            id,
            "--state",
            &s(&t.path().join(state)),
            "-f",
            "json",
        ])
    };
    let (mut server, url) = serve(&dir, &[]);
    let mut lines = Vec::new();
    for (key, id, state) in [(&w1, "32473.50", "w1.json"), (&w2, "32473.51", "w2.json")] {
        let r = cosign(&url, key, id, state);
        assert_eq!(r.code, Some(0), "{}", r.describe());
        let v = &json_items(&r)[0];
        assert_eq!(v["size"], 300);
        let f = t.path().join(format!("{id}.sig"));
        std::fs::write(&f, format!("{}\n", v["line"].as_str().unwrap())).unwrap();
        lines.push(f);
    }
    // The CA takes both lines; a line from a witness it was not told about is refused.
    let (w1c, w2c) = (
        format!("32473.50={}", s(&w1_pub)),
        format!("32473.51={}", s(&w2_pub)),
    );
    let d = s(&dir);
    let r = pk(&[
        "mtc",
        "checkpoint",
        "--dir",
        &d,
        "--cosignature",
        &s(&lines[0]),
        "--cosignature",
        &s(&lines[1]),
        "--cosigner",
        &w1c,
    ]);
    refused(
        &r,
        1,
        &["oid/1.3.6.1.4.1.32473.51", "not one of the --cosigner keys"],
        "unknown witness",
    );
    let r = pk(&[
        "mtc",
        "checkpoint",
        "--dir",
        &d,
        "--cosignature",
        &s(&lines[0]),
        "--cosignature",
        &s(&lines[1]),
        "--cosigner",
        &w1c,
        "--cosigner",
        &w2c,
    ]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    // The note on stdout, and on stderr one line saying who cosigned.
    assert_eq!(
        r.stdout_str().matches("\n\u{2014} ").count(),
        3,
        "{}",
        r.describe()
    );
    let said = r.stderr_str();
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.starts_with("pkit: checkpoint of oid/1.3.6.1.4.1.32473.1.0.1 at tree size ")
            && said.contains("cosigned by oid/1.3.6.1.4.1.32473.50, oid/1.3.6.1.4.1.32473.51"),
        "{said}"
    );
    let (_, note) = get(&format!("{url}/checkpoint"));
    let note = String::from_utf8(note).unwrap();
    assert_eq!(note.matches("\n\u{2014} ").count(), 3, "{note}");
    // Go's note package checks the Ed25519 witness's cosignature/v1 line.
    // Go's note package checks the witnesses' lines: Ed25519 cosignature/v1 and ML-DSA-44
    // subtree/v1 (circl's ML-DSA).
    if let Some(bin) = tlogcheck() {
        let raw = |p: &Path, len: usize| {
            let der = pem::parse(std::fs::read(p).unwrap())
                .unwrap()
                .contents()
                .to_vec();
            use base64::Engine;
            base64::engine::general_purpose::STANDARD.encode(&der[der.len() - len..])
        };
        let w1_arg = format!("oid/1.3.6.1.4.1.32473.50=ed25519:{}", raw(&w1_pub, 32));
        let w2_arg = format!("oid/1.3.6.1.4.1.32473.51=mldsa44:{}", raw(&w2_pub, 1312));
        let v = go_check(
            bin,
            &url,
            None,
            &["-cosigner", &w1_arg, "-cosigner", &w2_arg],
        );
        let by: Vec<&str> = v["signed_by"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(by.len(), 2, "{v}");
        assert!(by.contains(&"oid/1.3.6.1.4.1.32473.51"), "{v}");
    }
    // pkit's auditor checks both witnesses' lines.
    let r = pk(&[
        "mtc",
        "audit",
        "--url",
        &url,
        "--ca",
        &s(&ca),
        "--cosigner",
        &w1c,
        "--cosigner",
        &w2c,
        "-f",
        "json",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    assert_eq!(json_items(&r)[0]["signed_by"].as_array().unwrap().len(), 3);
    // The log grows; the witness follows. A second history of the same CA, as large,
    // is a fork: no cosignature, the state kept.
    grow(&dir, 300, 40);
    assert_eq!(cosign(&url, &w1, "32473.50", "w1.json").code, Some(0));
    server.terminate();
    grow(&copy, 9_000, 40);
    let (mut other, url2) = serve(&copy, &[]);
    let before = std::fs::read(t.path().join("w1.json")).unwrap();
    let r = cosign(&url2, &w1, "32473.50", "w1.json");
    refused(&r, 1, &["not cosigned: fork", "size 340"], "fork");
    assert_eq!(std::fs::read(t.path().join("w1.json")).unwrap(), before);
    other.terminate();
    // Witness keys are ML-DSA-44 or Ed25519.
    let (ec, _) = witness(t.path(), "ec", "ecdsa-p256");
    let r = cosign(&url2, &ec, "32473.52", "ec.json");
    refused(&r, 2, &["ml-dsa-44 or ed25519"], "ECDSA witness");
}

/// An ML-DSA-44 witness also signs the subtrees the CA signed for its certificates; the
/// CA takes those cosignatures, and standalone certificates then carry the witness's
/// cosignature beside the CA's.
#[test]
fn witness_subtree_cosignatures_go_into_certificates() {
    let t = tempdir();
    let dir = t.path().join("ca");
    log_with(&dir, 300);
    let ca = s(&dir.join("mtc-ca.pem"));
    let (w, w_pub) = witness(t.path(), "w", "ml-dsa-44");
    let (e, _) = witness(t.path(), "e", "ed25519");
    let witness_arg = format!("32473.51={}", s(&w_pub));
    let (mut server, url) = serve(&dir, &[]);
    let d = s(&dir);
    let state = s(&t.path().join("w.json"));
    // One round: cosign (with subtrees), the CA takes them, a certificate carries them.
    let round = |n: usize, index: &str| {
        let subtrees = t.path().join(format!("w{n}.subtrees"));
        let r = pk(&[
            "mtc",
            "cosign",
            "--url",
            &url,
            "--ca",
            &ca,
            "--key",
            &s(&w),
            "--id",
            "32473.51",
            "--state",
            &state,
            "--subtrees",
            &s(&subtrees),
            "-f",
            "json",
        ]);
        assert_eq!(r.code, Some(0), "{}", r.describe());
        let r = pk(&[
            "mtc",
            "checkpoint",
            "--dir",
            &d,
            "--subtree-cosignature",
            &s(&subtrees),
            "--cosigner",
            &witness_arg,
            "-f",
            "json",
        ]);
        assert_eq!(r.code, Some(0), "{}", r.describe());
        assert!(!json_items(&r)[0]["subtree_cosignatures"]
            .as_array()
            .unwrap()
            .is_empty());
        let cert = t.path().join(format!("c{n}.pem"));
        pk_ok(&[
            "mtc",
            "cert",
            "--dir",
            &d,
            "--index",
            index,
            "-o",
            &s(&cert),
            "--now",
            LATER,
        ]);
        let r = pk(&[
            "mtc",
            "verify",
            &s(&cert),
            "--ca",
            &ca,
            "--cosigner",
            &witness_arg,
            "--now",
            LATER,
            "-f",
            "json",
        ]);
        assert_eq!(r.code, Some(0), "{}", r.describe());
        let v = &json_items(&r)[0];
        assert_eq!(
            v["cosigners"],
            serde_json::json!(["32473.1", "32473.51"]),
            "{v}"
        );
        assert_eq!(
            v["verified_cosigners"],
            serde_json::json!(["32473.1", "32473.51"]),
            "{v}"
        );
        subtrees
    };
    let first = round(0, "5");
    grow(&dir, 300, 40);
    round(1, "310");
    // A subtree the CA never signed is refused.
    let text = std::fs::read_to_string(&first).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut forged = line.clone();
    forged["start"] = 0.into();
    forged["end"] = 128.into();
    let f = write_file(t.path(), "forged.jsonl", format!("{forged}\n").as_bytes());
    let r = pk(&[
        "mtc",
        "checkpoint",
        "--dir",
        &d,
        "--subtree-cosignature",
        &s(&f),
        "--cosigner",
        &witness_arg,
    ]);
    refused(
        &r,
        1,
        &["[0, 128)", "not a subtree the CA has signed"],
        "unsigned subtree",
    );
    // Subtree cosignatures go into certificates: ML-DSA-44 only.
    let r = pk(&[
        "mtc",
        "cosign",
        "--url",
        &url,
        "--ca",
        &ca,
        "--key",
        &s(&e),
        "--id",
        "32473.52",
        "--state",
        &s(&t.path().join("e.json")),
        "--subtrees",
        &s(&t.path().join("e.sub")),
    ]);
    refused(&r, 2, &["ML-DSA-44"], "Ed25519 subtree cosigner");
    server.terminate();
}

/// `mtc verify --url` and a landmark-relative certificate: its subtree is trusted when
/// the log's landmark list has it as an active landmark's (today's time throughout, as
/// the served list is today's).
#[test]
fn verify_takes_landmarks_from_the_log() {
    let t = tempdir();
    let dir = t.path().join("ca");
    let d = s(&dir);
    pk_ok(&[
        "mtc", "ca", "new", "--dir", &d, "--ca-id", "32473.1", "--alg", "ed25519",
    ]);
    mtc_add(&dir, 0, 300, Some("ed25519"), None);
    pk_ok(&["mtc", "checkpoint", "--dir", &d]);
    pk_ok(&["mtc", "landmark", "--dir", &d, "allocate"]);
    let relative = s(&t.path().join("r.pem"));
    pk_ok(&[
        "mtc",
        "cert",
        "--dir",
        &d,
        "--index",
        "17",
        "--landmark",
        "-o",
        &relative,
    ]);
    let ca = s(&dir.join("mtc-ca.pem"));
    let (mut server, url) = serve(&dir, &[]);
    let (_, list) = get(&format!("{url}/landmarks"));
    assert!(String::from_utf8(list).unwrap().ends_with("\n0 0\n"));
    let r = pk(&[
        "mtc", "verify", &relative, "--ca", &ca, "--url", &url, "-f", "json",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v = &json_items(&r)[0];
    assert_eq!(
        (&v["trusted_subtree"], &v["landmark_relative"]),
        (&Value::Bool(true), &Value::Bool(true)),
        "{v}"
    );
    server.terminate();
    // Without the log, the landmark-relative certificate has nothing to stand on.
    let r = pk(&["mtc", "verify", &relative, "--ca", &ca]);
    assert_eq!(r.code, Some(1), "{}", r.describe());
}

/// Bad input to the log commands: one line naming it, a documented exit code, nothing
/// written.
#[test]
fn bad_inputs_to_the_log_commands() {
    let t = tempdir();
    let dir = t.path().join("ca");
    log_with(&dir, 10);
    let ca = s(&dir.join("mtc-ca.pem"));
    let d = s(&dir);
    for url in ["https://", "ftp://x", "ca.example"] {
        let r = pk(&["mtc", "audit", "--url", url, "--ca", &ca]);
        refused(&r, 2, &["--url", url], "not an http:// URL");
    }
    let (mut server, url) = serve(&dir, &[]);
    let not_state = write_file(t.path(), "m.json", b"{\"subject\":\"CN=a\"}");
    let r = pk(&[
        "mtc",
        "audit",
        "--url",
        &url,
        "--ca",
        &ca,
        "--state",
        &s(&not_state),
    ]);
    refused(
        &r,
        3,
        &["m.json", "expected an audit or witness state"],
        "foreign state file",
    );
    let state = t.path().join("w.json");
    let r = pk(&[
        "mtc",
        "cosign",
        "--url",
        &url,
        "--ca",
        &ca,
        "--key",
        &s(&dir.join("cosigner.key")),
        "--id",
        "32473.5",
        "--state",
        &s(&state),
        "-o",
        "/nonexistent/dir/x.sig",
    ]);
    refused(&r, 4, &["/nonexistent/dir/x.sig"], "unwritable --out");
    assert!(
        !state.exists(),
        "the witness recorded a tree it did not hand a signature for"
    );
    server.terminate();
    let bad = write_file(t.path(), "bad.sig", b"\n\ngarbage\n");
    let w = format!("32473.5={ca}");
    let r = pk(&[
        "mtc",
        "checkpoint",
        "--dir",
        &d,
        "--cosignature",
        &s(&bad),
        "--cosigner",
        &w,
    ]);
    refused(
        &r,
        3,
        &["bad.sig: line 3", "signature line"],
        "not a signature line",
    );
    let bad = write_file(t.path(), "bad.jsonl", b"{\"cosigner\":\"32473.5\"}\n");
    let r = pk(&[
        "mtc",
        "checkpoint",
        "--dir",
        &d,
        "--subtree-cosignature",
        &s(&bad),
        "--cosigner",
        &w,
    ]);
    refused(&r, 3, &["bad.jsonl: line 1", "subtree"], "no subtree");
}
