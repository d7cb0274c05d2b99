//! Revocation data over HTTP for `pkit verify`: OCSP requests to the responders a
//! certificate's authorityInfoAccess names (RFC 6960 Appendix A.1: POST,
//! application/ocsp-request) and the CRLs its cRLDistributionPoints name (GET). Each
//! exchange is bounded in size and time; a CRL is fetched once per run, however many
//! certificates point to it.

use crate::cmd::http_get::{self, agent, HttpError, OCSP_TIMEOUT};
use crate::cmd::io;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// How long one CRL download may take (a CA's full CRL can be tens of megabytes).
const CRL_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest CRL taken: a million entries is about 53 MB.
const CRL_MAX: u64 = 128 << 20;

/// A CRL fetched (shared by every certificate pointing to it), or why it was not.
type Fetched = Result<Arc<Vec<u8>>, String>;

/// One run's HTTP client and what it has fetched.
pub struct Fetcher {
    ocsp: ureq::Agent,
    crl: ureq::Agent,
    /// One cell per URL: the threads asking for a CRL at once wait for one download.
    crls: Mutex<HashMap<String, Arc<OnceLock<Fetched>>>>,
}

/// A failed exchange with `url` as one line.
fn failed(url: &str) -> impl Fn(HttpError) -> String + '_ {
    move |e| http_get::one_line(url, e)
}

impl Fetcher {
    pub fn new() -> Fetcher {
        Fetcher {
            ocsp: agent(OCSP_TIMEOUT),
            crl: agent(CRL_TIMEOUT),
            crls: Mutex::new(HashMap::new()),
        }
    }

    /// POST an OCSP request to `url`; the response's DER.
    pub fn ocsp(&self, url: &str, request: &[u8]) -> Result<Vec<u8>, String> {
        http_get::post_ocsp(&self.ocsp, url, request).map_err(failed(url))
    }

    /// GET the CRL at `url` (DER, or PEM as some servers publish it), once per run.
    pub fn crl(&self, url: &str) -> Fetched {
        let cell = Arc::clone(
            self.crls
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(url.to_string())
                .or_default(),
        );
        cell.get_or_init(|| self.download_crl(url).map(Arc::new))
            .clone()
    }

    fn download_crl(&self, url: &str) -> Result<Vec<u8>, String> {
        let body = http_get::get(&self.crl, url, CRL_MAX).map_err(failed(url))?;
        if body.starts_with(b"-----BEGIN") {
            let source = io::Source {
                name: url.to_string(),
                data: body,
            };
            let item = io::split_items(source, io::InForm::Auto)
                .into_iter()
                .next()
                .ok_or_else(|| format!("{url}: an empty PEM file"))?
                .map_err(|e| e.message)?;
            return Ok(item.der);
        }
        Ok(body)
    }
}
