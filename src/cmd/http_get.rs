//! The binary's HTTP client: one way to make an agent, to read a response bounded in
//! size and to ask an OCSP responder, for `pkit verify`'s OCSP and CRL fetches
//! (`verify/fetch.rs`), `pkit ocsp request --url` and a served MTC log's resources
//! (`mtc/remote.rs`), the witnesses `mtc checkpoint --witness` asks and the buckets
//! `mtc tiles --to s3://` writes (HTTPS for S3 endpoints: rustls on ring, the webpki
//! roots).

use std::time::Duration;

/// Why a GET (or a POST's response) brought no body back.
#[derive(Debug)]
pub enum HttpError {
    /// No answer, or a body that could not be read: `URL: why`.
    Failed(String),
    /// Answered with a status other than 200.
    Status(ureq::http::StatusCode),
    /// The body is larger than the limit: `URL: why`, in the client's words.
    TooLarge(String),
}

/// How long one OCSP exchange may take, connection included.
pub const OCSP_TIMEOUT: Duration = Duration::from_secs(10);
/// The most an OCSP response may be: a hostile responder cannot fill memory.
pub const OCSP_MAX_RESPONSE: u64 = 1 << 20;

/// An agent whose every exchange, connection included, ends within `timeout`, and that
/// hands back any status for the caller to judge.
pub fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .build()
        .into()
}

/// GET `url`: the body of a 200 answer, at most `limit` bytes.
pub fn get(agent: &ureq::Agent, url: &str, limit: u64) -> Result<Vec<u8>, HttpError> {
    let response = agent
        .get(url)
        .call()
        .map_err(|e| HttpError::Failed(format!("{url}: {e}")))?;
    body(response, url, limit)
}

/// The body of `response` (from `url`) when its status is 200, at most `limit` bytes: a
/// hostile server cannot fill memory.
pub fn body(
    mut response: ureq::http::Response<ureq::Body>,
    url: &str,
    limit: u64,
) -> Result<Vec<u8>, HttpError> {
    if response.status() != 200 {
        return Err(HttpError::Status(response.status()));
    }
    response
        .body_mut()
        .with_config()
        .limit(limit)
        .read_to_vec()
        .map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) => HttpError::TooLarge(format!("{url}: {e}")),
            e => HttpError::Failed(format!("{url}: {e}")),
        })
}

/// POST the DER OCSP request `request` to the responder at `url` (RFC 6960 Appendix
/// A.1: `application/ocsp-request`); the response's DER, at most [`OCSP_MAX_RESPONSE`].
pub fn post_ocsp(agent: &ureq::Agent, url: &str, request: &[u8]) -> Result<Vec<u8>, HttpError> {
    let response = agent
        .post(url)
        .header("Content-Type", "application/ocsp-request")
        .send(request)
        .map_err(|e| HttpError::Failed(format!("{url}: {e}")))?;
    body(response, url, OCSP_MAX_RESPONSE)
}

/// A failed exchange with `url` as one line naming it.
pub fn one_line(url: &str, e: HttpError) -> String {
    match e {
        HttpError::Failed(m) | HttpError::TooLarge(m) => m,
        // The status with its reason phrase ("404 Not Found").
        HttpError::Status(status) => format!("{url}: HTTP {status}"),
    }
}
