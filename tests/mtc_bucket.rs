//! `pkit mtc tiles --to s3://…`: the issuance log published into an S3-compatible bucket
//! (MinIO on 127.0.0.1, started here), read back with boto3 (every object, its bytes
//! and Cache-Control, against the same log written as files), over plain HTTP with Go's
//! golang.org/x/mod/sumdb/tlog (tests/go/tlogcheck) and `pkit mtc audit`, and an upload
//! killed midway that the next run completes without a damaged or missing tile.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const NOW: &str = "2026-11-01T00:00:00Z";
const USER: &str = "pkit-test";
const SECRET: &str = "pkit-test-secret";
const BUCKET: &str = "pkit-log";

/// boto3 on the bucket: `mkbucket` (created, readable by anyone, as a CDN's origin
/// is), `count PREFIX`, `checkpoint PREFIX`, `compare PREFIX DIR` (every object against
/// the directory's files: the same names and bytes, and each one's Cache-Control).
const BOTO: &str = r#"
import boto3, json, os, sys
from botocore.config import Config
endpoint, user, secret, bucket, cmd = sys.argv[1:6]
s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=user,
                  aws_secret_access_key=secret, region_name="us-east-1",
                  config=Config(s3={"addressing_style": "path"}))
def keys(prefix):
    out = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        out += [o["Key"] for o in page.get("Contents", [])]
    return out
if cmd == "mkbucket":
    s3.create_bucket(Bucket=bucket)
    s3.put_bucket_policy(Bucket=bucket, Policy=json.dumps({"Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Principal": {"AWS": ["*"]},
                       "Action": ["s3:GetObject"], "Resource": ["arn:aws:s3:::%s/*" % bucket]}]}))
elif cmd == "count":
    print(len(keys(sys.argv[6])))
elif cmd == "checkpoint":
    try:
        print(s3.get_object(Bucket=bucket, Key=sys.argv[6] + "checkpoint")["Body"].read().decode(), end="")
    except s3.exceptions.NoSuchKey:
        pass
elif cmd == "compare":
    prefix, root = sys.argv[6], sys.argv[7]
    files = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            files[prefix + os.path.relpath(p, root)] = p
    got = set(keys(prefix))
    assert got == set(files), ("objects that are not files", sorted(got - set(files))[:5],
                               "files that are not objects", sorted(set(files) - got)[:5])
    caches = {}
    for k, p in files.items():
        o = s3.get_object(Bucket=bucket, Key=k)
        assert o["Body"].read() == open(p, "rb").read(), k
        kind = "tile" if k[len(prefix):].startswith("tile/") else k[len(prefix):]
        caches.setdefault(kind, set()).add(o.get("CacheControl"))
    print(json.dumps({"objects": len(files), "cache": {k: sorted(v) for k, v in caches.items()}}))
"#;

struct Minio {
    _server: Server,
    endpoint: String,
}

fn minio(dir: &Path) -> Minio {
    let bin = require(Peer::Minio);
    require(Peer::Boto3);
    let (port, console) = (free_port(), free_port());
    let mut cmd = Command::new(bin);
    cmd.args([
        "server",
        &s(&dir.join("minio")),
        "--address",
        &format!("127.0.0.1:{port}"),
        "--console-address",
        &format!("127.0.0.1:{console}"),
    ])
    .env("MINIO_ROOT_USER", USER)
    .env("MINIO_ROOT_PASSWORD", SECRET)
    .env("MINIO_BROWSER", "off")
    .env("MINIO_UPDATE", "off");
    let server = Server::start(cmd, dir.join("minio.log"), "API:");
    let endpoint = format!("http://127.0.0.1:{port}");
    // Listening is not yet serving: wait until it says it is live.
    let t = Instant::now();
    while http_agent()
        .get(&format!("{endpoint}/minio/health/live"))
        .call()
        .map_or(true, |r| r.status() != 200)
    {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "MinIO did not come up"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    boto(&endpoint, &["mkbucket"]);
    Minio {
        _server: server,
        endpoint,
    }
}

fn boto(endpoint: &str, args: &[&str]) -> String {
    let mut a = vec!["-c", BOTO, endpoint, USER, SECRET, BUCKET];
    a.extend(args);
    let r = run_with("python3", &a, None, Duration::from_secs(300));
    assert_eq!(r.code, Some(0), "boto3 {args:?}: {}", r.describe());
    r.stdout_str().to_string()
}

/// `pkit mtc tiles --dir DIR --to s3://pkit-log/mtc/1 …` with the bucket's credentials.
fn tiles_cmd(dir: &Path, endpoint: &str, extra: &[&str]) -> Command {
    let mut cmd = Command::new(pkit_bin());
    cmd.args([
        "mtc",
        "tiles",
        "--dir",
        &s(dir),
        "--to",
        "s3://pkit-log/mtc/1",
    ])
    .args(["--s3-endpoint", endpoint, "-f", "json"])
    .args(extra)
    .env("AWS_ACCESS_KEY_ID", USER)
    .env("AWS_SECRET_ACCESS_KEY", SECRET)
    .env_remove("AWS_ENDPOINT_URL")
    .env_remove("AWS_REGION");
    cmd
}

fn tiles(dir: &Path, endpoint: &str) -> Value {
    let out = tiles_cmd(dir, endpoint, &[]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["items"][0].clone()
}

fn tlogcheck() -> Option<PathBuf> {
    go_program(
        "tlogcheck",
        "reading the bucket with Go's sumdb/tlog",
        "reach the Go module proxy (golang.org/x/mod is fetched from it)",
    )
}

#[test]
fn the_log_in_a_bucket_is_its_tiles_and_survives_a_killed_upload() {
    let t = tempdir();
    let dir = t.path().join("ca");
    new_mtc_ca(&dir);
    mtc_add(&dir, 0, 3000, Some("ed25519"), Some(NOW));
    pk_ok(&["mtc", "checkpoint", "--dir", &s(&dir)]);
    let m = minio(t.path());
    let files = t.path().join("files");

    // First publication: the same objects as the files, tiles immutable, the checkpoint
    // short-lived.
    let v = tiles(&dir, &m.endpoint);
    assert_eq!(
        (v["tree_size"].as_u64(), v["previous_size"].as_u64()),
        (Some(3000), Some(0))
    );
    assert_eq!(v["to"], "s3://pkit-log/mtc/1/");
    pk_ok(&["mtc", "tiles", "--dir", &s(&dir), "--out-dir", &s(&files)]);
    let cmp: Value =
        serde_json::from_str(&boto(&m.endpoint, &["compare", "mtc/1/", &s(&files)])).unwrap();
    let objects = cmp["objects"].as_u64().unwrap();
    // Every object is one PUT, and the old checkpoint one GET.
    assert_eq!(v["requests"].as_u64(), Some(objects + 1), "{v} {cmp}");
    assert_eq!(
        cmp["cache"]["tile"],
        serde_json::json!(["public, max-age=31536000, immutable"])
    );
    assert_eq!(
        cmp["cache"]["checkpoint"],
        serde_json::json!(["public, max-age=2"])
    );
    assert_eq!(
        cmp["cache"]["landmarks"],
        serde_json::json!(["public, max-age=60"])
    );

    // Read back over HTTP, as a CDN's clients would: Go's tlog and pkit's auditor.
    let url = format!("{}/{BUCKET}/mtc/1", m.endpoint);
    if let Some(bin) = tlogcheck() {
        let r = Command::new(bin).arg(&url).output().unwrap();
        let v: Value = serde_json::from_slice(&r.stdout)
            .unwrap_or_else(|_| panic!("tlogcheck: {}", String::from_utf8_lossy(&r.stderr)));
        assert_eq!(v["ok"], true, "{v}");
    }
    let audit = |state: &str| {
        pk(&[
            "mtc",
            "audit",
            "--url",
            &url,
            "--ca",
            &s(&dir.join("mtc-ca.pem")),
            "--state",
            &s(&t.path().join(state)),
        ])
    };
    let r = audit("audit.json");
    assert_eq!(r.code, Some(0), "{}", r.describe());

    // The log grows; an upload of what it added, one object at a time, is killed once
    // some are up. The bucket's checkpoint is still the old one and every tile it names
    // is there (the auditor, from scratch, says so); the next run goes on from it.
    mtc_add(&dir, 3000, 20000, Some("ed25519"), Some(NOW));
    pk_ok(&["mtc", "checkpoint", "--dir", &s(&dir)]);
    let before: usize = boto(&m.endpoint, &["count", "mtc/1/"])
        .trim()
        .parse()
        .unwrap();
    let mut child = tiles_cmd(&dir, &m.endpoint, &["--s3-jobs", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    loop {
        let now: usize = boto(&m.endpoint, &["count", "mtc/1/"])
            .trim()
            .parse()
            .unwrap();
        if now >= before + 10 {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "no upload progress"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the upload finished before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let cp = boto(&m.endpoint, &["checkpoint", "mtc/1/"]);
    assert_eq!(cp.lines().nth(1), Some("3000"), "{cp}");
    let r = audit("fresh.json");
    assert_eq!(r.code, Some(0), "{}", r.describe());
    let v = tiles(&dir, &m.endpoint);
    assert_eq!(
        (v["tree_size"].as_u64(), v["previous_size"].as_u64()),
        (Some(23000), Some(3000))
    );
    pk_ok(&["mtc", "tiles", "--dir", &s(&dir), "--out-dir", &s(&files)]);
    boto(&m.endpoint, &["compare", "mtc/1/", &s(&files)]);
    let r = audit("audit.json");
    assert_eq!(r.code, Some(0), "{}", r.describe());

    // The checkpointing path publishes too: `mtc checkpoint --to`.
    mtc_add(&dir, 23000, 100, Some("ed25519"), Some(NOW));
    let out = Command::new(pkit_bin())
        .args([
            "mtc",
            "checkpoint",
            "--dir",
            &s(&dir),
            "--to",
            "s3://pkit-log/mtc/1",
        ])
        .args(["--s3-endpoint", &m.endpoint, "-f", "json"])
        .env("AWS_ACCESS_KEY_ID", USER)
        .env("AWS_SECRET_ACCESS_KEY", SECRET)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = &v["items"][0]["published"];
    assert_eq!(
        (p["tree_size"].as_u64(), p["previous_size"].as_u64()),
        (Some(23100), Some(23000)),
        "{v}"
    );
    let cp = boto(&m.endpoint, &["checkpoint", "mtc/1/"]);
    assert_eq!(cp, v["items"][0]["note"].as_str().unwrap());
    let r = audit("audit.json");
    assert_eq!(r.code, Some(0), "{}", r.describe());
}

/// Wrong credentials, a bucket that is not there, a malformed --to: one line, exit 4 or 2.
#[test]
fn a_bucket_that_refuses_is_one_line() {
    let t = tempdir();
    let dir = t.path().join("ca");
    new_mtc_ca(&dir);
    mtc_add(&dir, 0, 10, Some("ed25519"), Some(NOW));
    pk_ok(&["mtc", "checkpoint", "--dir", &s(&dir)]);
    let m = minio(t.path());
    let run = |cmd: &mut Command| {
        let out = cmd.output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, err) = run(tiles_cmd(&dir, &m.endpoint, &[]).env("AWS_SECRET_ACCESS_KEY", "wrong"));
    assert_eq!(code, Some(4), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("s3://pkit-log/mtc/1/checkpoint: HTTP 403"),
        "{err}"
    );
    let mut cmd = tiles_cmd(&dir, &m.endpoint, &[]);
    let args: Vec<String> = cmd
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let args: Vec<String> = args
        .into_iter()
        .map(|a| a.replace("s3://pkit-log", "s3://no-such-bucket"))
        .collect();
    cmd = Command::new(pkit_bin());
    cmd.args(&args)
        .env("AWS_ACCESS_KEY_ID", USER)
        .env("AWS_SECRET_ACCESS_KEY", SECRET);
    let (code, err) = run(&mut cmd);
    assert_eq!(code, Some(4), "{err}");
    assert!(err.contains("NoSuchBucket"), "{err}");
    let (code, err) = run(Command::new(pkit_bin()).args([
        "mtc",
        "tiles",
        "--dir",
        &s(&dir),
        "--to",
        "https://bucket",
    ]));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("expected s3://BUCKET[/PREFIX]"), "{err}");
}

/// `acme serve --mtc DIR --mtc-to s3://…`: the server's checkpointer publishes into the
/// bucket after each checkpoint it signs (entries appended here by `pkit mtc add` from
/// another process, as orders would), and says so in its log.
#[test]
fn the_acme_servers_checkpointer_publishes_into_the_bucket() {
    let t = tempdir();
    let dir = t.path().join("mtc");
    new_mtc_ca(&dir);
    let ca = issue_ca(t.path(), "ca", "CN=ACME Bucket CA", &[]);
    let m = minio(t.path());
    let mut cmd = acme_checkpointing(
        &ca,
        &dir,
        &[
            "--mtc-to",
            "s3://pkit-log/acme",
            "--s3-endpoint",
            &m.endpoint,
        ],
    );
    cmd.env("AWS_ACCESS_KEY_ID", USER)
        .env("AWS_SECRET_ACCESS_KEY", SECRET);
    let server = Server::start(cmd, t.path().join("acme.log"), "\"listening\"");
    mtc_add(&dir, 0, 100, Some("ed25519"), Some(NOW));
    let t0 = Instant::now();
    loop {
        let cp = boto(&m.endpoint, &["checkpoint", "acme/"]);
        if cp.lines().nth(1) == Some("100") {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "not published: {}",
            server.log_text()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let log = server.log_text();
    assert!(log.contains("\"event\":\"mtc_publish\""), "{log}");
    assert!(log.contains("s3://pkit-log/acme/"), "{log}");
    drop(server);
}
