//! A served log's resources over HTTP: the transport `pkit mtc audit`, `cosign` and
//! `verify --url` hand to the library's checks (`pkit::mtc::remote`).

use crate::cmd::error::{CliError, CliResult};
use pkit::mtc::fetch::{Fetch, FetchError};
use std::io::Read;
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
        let mut r = self.agent.get(&url).call().map_err(|e| failed(&e))?;
        match r.status().as_u16() {
            200 => {}
            404 => return Err(FetchError::NotFound(format!("{url}: HTTP 404"))),
            code => return Err(failed(&format!("HTTP {code}"))),
        }
        let mut out = Vec::new();
        r.body_mut()
            .as_reader()
            .take(MAX_RESOURCE + 1)
            .read_to_end(&mut out)
            .map_err(|e| failed(&e))?;
        if out.len() as u64 > MAX_RESOURCE {
            return Err(failed(&"larger than any tile or entry bundle"));
        }
        Ok(out)
    }
}

impl Remote {
    /// A log at `url`, which must be an http:// URL: pkit's HTTP client is built without
    /// TLS (an https:// log is read through a mirror or proxy on http://).
    pub fn new(url: &str) -> CliResult<Remote> {
        if url.starts_with("https://") {
            return Err(CliError::usage(format!(
                "--url {url}: https:// is not supported yet (pkit's HTTP client has no TLS); read the log over http://"
            )));
        }
        if !url.starts_with("http://") || url.len() == "http://".len() {
            return Err(CliError::usage(format!(
                "--url {url}: expected an http:// URL, the log's prefix"
            )));
        }
        Ok(Remote {
            base: url.trim_end_matches('/').to_string(),
            agent: ureq::Agent::config_builder()
                .timeout_global(Some(TIMEOUT))
                .http_status_as_error(false)
                .build()
                .into(),
        })
    }
}
