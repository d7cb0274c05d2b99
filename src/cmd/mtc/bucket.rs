//! `pkit mtc tiles --to s3://BUCKET/PREFIX`: the log's static copy in an S3-compatible
//! bucket (AWS S3, MinIO, R2, …), for a CDN to serve at the log's prefix URL. The
//! requests are signed by `rusty-s3` (AWS Signature V4, presigned) and sent by the
//! binary's HTTP client; the order is `publish::catch_up`'s — tiles and entry bundles
//! first, in parallel, then the landmark list, then the checkpoint, each PUT whole — so
//! a reader never finds a checkpoint whose tiles are not there, and a run killed midway
//! leaves the old checkpoint with every tile it names: the next run starts from it.
//!
//! Full tiles and entry bundles never change (a partial one is named by its width), so
//! they go up with `Cache-Control: public, max-age=31536000, immutable`; the checkpoint
//! with `public, max-age=2` and the landmark list with `public, max-age=60`, as
//! `pkit mtc serve` answers them.

use crate::cmd::error::{CliError, CliResult};
use crate::cmd::io;
use clap::Args;
use pkit::mtc::publish::{Mirror, Resource};
use rusty_s3::actions::{GetObject, PutObject, S3Action};
use rusty_s3::{Bucket, Credentials, UrlStyle};
use std::time::Duration;

/// How long a presigned request stays valid: it is sent at once.
const SIGNED_FOR: Duration = Duration::from_secs(600);
/// Tries per request: a 5xx or a broken connection is tried again, after 0.2 and 0.8 s.
const TRIES: u64 = 3;

/// Where and how to reach the bucket.
#[derive(Args, Debug, Clone)]
pub struct BucketArgs {
    /// The S3 endpoint (default: AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, else AWS's
    /// for the region). With an endpoint, objects are addressed path-style
    /// (ENDPOINT/BUCKET/KEY), as MinIO and most S3-compatible stores want.
    #[arg(long, value_name = "URL")]
    pub s3_endpoint: Option<String>,
    /// The bucket's region (default: AWS_REGION or AWS_DEFAULT_REGION, else us-east-1).
    /// The credentials are AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and, when set,
    /// AWS_SESSION_TOKEN.
    #[arg(long, value_name = "REGION")]
    pub s3_region: Option<String>,
    /// Uploads in flight at once.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub s3_jobs: u16,
}

/// A bucket as the log's static copy.
pub struct S3Mirror {
    bucket: Bucket,
    credentials: Credentials,
    /// The key prefix, "" or ending in '/'.
    prefix: String,
    /// `s3://BUCKET/PREFIX`, for messages.
    name: String,
    http: ureq::Agent,
    jobs: usize,
    /// Tiles waiting to go up together.
    pending: Vec<(String, Vec<u8>)>,
    bar: indicatif::ProgressBar,
    /// Requests sent (retries included).
    pub requests: u64,
}

fn env(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|n| std::env::var(n).ok().filter(|v| !v.is_empty()))
}

impl S3Mirror {
    /// The bucket of `to` (`s3://BUCKET[/PREFIX]`).
    pub fn open(to: &str, a: &BucketArgs) -> CliResult<S3Mirror> {
        let rest = to
            .strip_prefix("s3://")
            .ok_or_else(|| CliError::usage(format!("--to {to}: expected s3://BUCKET[/PREFIX]")))?;
        let (name, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if name.is_empty() {
            return Err(CliError::usage(format!("--to {to}: no bucket name")));
        }
        let prefix = prefix.trim_matches('/');
        let prefix = if prefix.is_empty() {
            String::new()
        } else {
            format!("{prefix}/")
        };
        let region = a
            .s3_region
            .clone()
            .or_else(|| env(&["AWS_REGION", "AWS_DEFAULT_REGION"]))
            .unwrap_or_else(|| "us-east-1".into());
        let endpoint = a
            .s3_endpoint
            .clone()
            .or_else(|| env(&["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"]));
        let (url, style) = match &endpoint {
            Some(e) => (e.clone(), UrlStyle::Path),
            None => (
                format!("https://s3.{region}.amazonaws.com"),
                UrlStyle::VirtualHost,
            ),
        };
        let url = url
            .parse()
            .map_err(|e| CliError::usage(format!("--s3-endpoint {url}: not a URL ({e})")))?;
        let bucket = Bucket::new(url, style, name.to_string(), region)
            .map_err(|e| CliError::usage(format!("--to {to}: {e}")))?;
        let credentials = Credentials::from_env().ok_or_else(|| {
            CliError::usage(format!(
                "--to {to}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the bucket"
            ))
        })?;
        Ok(S3Mirror {
            bucket,
            credentials,
            name: format!("s3://{name}/{prefix}"),
            prefix,
            http: crate::cmd::http_get::agent(Duration::from_secs(60)),
            jobs: usize::from(a.s3_jobs),
            pending: Vec::new(),
            bar: indicatif::ProgressBar::hidden(),
            requests: 0,
        })
    }

    /// `s3://BUCKET/PREFIX` as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn key(&self, path: &str) -> String {
        format!("{}{path}", self.prefix)
    }

    /// PUT one object, tried again on a 5xx or a broken connection. The number of
    /// requests it took.
    fn put_object(&self, key: &str, bytes: &[u8], cache: &str, ct: &str) -> CliResult<u64> {
        let mut action = PutObject::new(&self.bucket, Some(&self.credentials), key);
        action.headers_mut().insert("cache-control", cache);
        action.headers_mut().insert("content-type", ct);
        let mut sent = 0;
        loop {
            sent += 1;
            let url = action.sign(SIGNED_FOR);
            let outcome = self
                .http
                .put(url.as_str())
                .header("cache-control", cache)
                .header("content-type", ct)
                .send(bytes);
            match outcome {
                Ok(r) if r.status().is_success() => return Ok(sent),
                Ok(mut r) => {
                    let status = r.status().as_u16();
                    if status < 500 || sent >= TRIES {
                        let body = r.body_mut().read_to_string().unwrap_or_default();
                        return Err(self.failed(key, &format!("HTTP {status}{}", s3_code(&body))));
                    }
                }
                Err(e) if sent >= TRIES => return Err(self.failed(key, &e.to_string())),
                Err(_) => {}
            }
            std::thread::sleep(Duration::from_millis(200 * 4u64.pow((sent - 1) as u32)));
        }
    }

    fn failed(&self, key: &str, why: &str) -> CliError {
        let bucket = self.name.trim_start_matches("s3://");
        let bucket = bucket.split('/').next().unwrap_or(bucket);
        CliError::io(format!("s3://{bucket}/{key}: {why}"))
    }

    /// Upload every pending tile, `jobs` at a time.
    fn flush(&mut self) -> CliResult {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let this = &*self;
        let results: Vec<CliResult<u64>> = std::thread::scope(|s| {
            // A worker the system will not start leaves the others more to do; none at
            // all is an error.
            let workers: Vec<_> = (0..this.jobs.min(pending.len()))
                .filter_map(|_| {
                    std::thread::Builder::new()
                        .spawn_scoped(s, || {
                            let mut sent = 0;
                            loop {
                                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                let Some((path, bytes)) = pending.get(i) else {
                                    return Ok(sent);
                                };
                                sent += this.put_object(
                                    &this.key(path),
                                    bytes,
                                    "public, max-age=31536000, immutable",
                                    "application/octet-stream",
                                )?;
                                this.bar.inc(1);
                            }
                        })
                        .ok()
                })
                .collect();
            if workers.is_empty() {
                return vec![Err(CliError::io("could not start an upload thread"))];
            }
            workers
                .into_iter()
                .map(|w| {
                    w.join()
                        .unwrap_or_else(|_| Err(CliError::internal("an upload thread panicked")))
                })
                .collect()
        });
        for r in results {
            self.requests += r?;
        }
        Ok(())
    }
}

/// ` (Code: Message)` of an S3 error body, when it has one.
fn s3_code(body: &str) -> String {
    let field = |tag: &str| {
        let open = format!("<{tag}>");
        let start = body.find(&open)? + open.len();
        let end = body[start..].find("</")? + start;
        Some(body[start..end].to_string())
    };
    match (field("Code"), field("Message")) {
        (Some(c), Some(m)) => format!(" ({c}: {m})"),
        (Some(c), None) => format!(" ({c})"),
        _ => String::new(),
    }
}

impl Mirror for S3Mirror {
    type Error = CliError;

    fn prepare(&mut self) -> CliResult {
        Ok(())
    }

    fn checkpoint(&mut self) -> CliResult<Option<String>> {
        let key = self.key(&Resource::Checkpoint.path());
        let url = GetObject::new(&self.bucket, Some(&self.credentials), &key).sign(SIGNED_FOR);
        self.requests += 1;
        let mut r = self
            .http
            .get(url.as_str())
            .call()
            .map_err(|e| self.failed(&key, &e.to_string()))?;
        match r.status().as_u16() {
            200 => r
                .body_mut()
                .with_config()
                .limit(1 << 20)
                .read_to_string()
                .map(Some)
                .map_err(|e| self.failed(&key, &e.to_string())),
            404 => Ok(None),
            status => {
                let body = r.body_mut().read_to_string().unwrap_or_default();
                Err(self.failed(&key, &format!("HTTP {status}{}", s3_code(&body))))
            }
        }
    }

    fn planned(&mut self, count: usize) {
        self.bar = io::progress_bar(count as u64, "tiles");
    }

    fn put_tile(&mut self, path: &str, bytes: &[u8]) -> CliResult {
        self.pending.push((path.to_string(), bytes.to_vec()));
        // A few rounds of uploads buffered: memory stays bounded (tiles are at most
        // 8 KiB, entry bundles a few hundred KiB).
        if self.pending.len() >= self.jobs * 4 {
            self.flush()?;
        }
        Ok(())
    }

    fn put(&mut self, resource: Resource, bytes: &[u8]) -> CliResult {
        // Every tile is up before the landmark list and the checkpoint that names them.
        self.flush()?;
        self.bar.finish_and_clear();
        let cache = match resource {
            Resource::Checkpoint => "public, max-age=2",
            _ => "public, max-age=60",
        };
        self.requests += self.put_object(
            &self.key(&resource.path()),
            bytes,
            cache,
            "text/plain; charset=utf-8",
        )?;
        Ok(())
    }
}
