//! Where a served log's resources come from: HTTP for the command line, a closure over a
//! store or a tree in tests. The library never opens a connection itself, so it runs
//! the same checks against any transport.

use std::fmt;

/// Why a resource could not be fetched. A missing resource is told apart because some
/// are optional (a log without a landmark list serves no `landmarks`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// The log does not serve the resource (HTTP 404): the message names it.
    NotFound(String),
    /// The resource could not be read (the log or the network is down, the answer is
    /// too large): the message names the resource and why.
    Failed(String),
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::NotFound(m) | FetchError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for FetchError {}

/// The bytes of a served log's resources, by path under its prefix.
pub trait Fetch: Sync {
    /// The bytes at `path` under the log's prefix (e.g. `tile/0/000.p/12`).
    fn fetch(&self, path: &str) -> Result<Vec<u8>, FetchError>;
}

impl<F: Fn(&str) -> Result<Vec<u8>, FetchError> + Sync> Fetch for F {
    fn fetch(&self, path: &str) -> Result<Vec<u8>, FetchError> {
        self(path)
    }
}
