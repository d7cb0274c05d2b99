//! A served log's resources over HTTP: the transport `pkit mtc audit`, `cosign` and
//! `verify --url` hand to the library's checks (`pkit::mtc::remote`).

use crate::cmd::error::{CliError, CliResult};
use crate::cmd::http_get::{self, HttpError};
use pkit::mtc::fetch::{Fetch, FetchError};
use std::time::Duration;

/// Resources are tiles (8 KiB) and entry bundles (256 entries of up to 64 KiB).
const MAX_RESOURCE: u64 = 256 * 65_538;
const TIMEOUT: Duration = Duration::from_secs(30);

/// GETs under the log's prefix, over one connection pool.
pub struct Remote {
    /// The log's prefix URL, without a trailing slash.
    pub base: String,
    agent: ureq::Agent,
}

impl Fetch for Remote {
    fn fetch(&self, path: &str) -> Result<Vec<u8>, FetchError> {
        let url = format!("{}/{path}", self.base);
        let failed = |e: &dyn std::fmt::Display| FetchError::Failed(format!("{url}: {e}"));
        http_get::get(&self.agent, &url, MAX_RESOURCE).map_err(|e| match e {
            HttpError::Status(s) if s.as_u16() == 404 => {
                FetchError::NotFound(format!("{url}: HTTP 404"))
            }
            HttpError::Status(s) => failed(&format!("HTTP {}", s.as_u16())),
            HttpError::TooLarge(_) => failed(&"larger than any tile or entry bundle"),
            HttpError::Failed(m) => FetchError::Failed(m),
        })
    }
}

impl Remote {
    /// A log at `url`, an http:// or https:// prefix URL (a log behind a CDN or an
    /// object store's website endpoint is usually https://).
    pub fn new(url: &str) -> CliResult<Remote> {
        let rest = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"));
        if rest.is_none_or(str::is_empty) {
            return Err(CliError::usage(format!(
                "--url {url}: expected an http:// or https:// URL, the log's prefix"
            )));
        }
        Ok(Remote {
            base: url.trim_end_matches('/').to_string(),
            agent: http_get::agent(TIMEOUT),
        })
    }
}
