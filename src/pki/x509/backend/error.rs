//! What can go wrong in a backend, sorted by what the user should do about it.

use std::fmt;

/// Backend failures, sorted by what the user should do about them.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackendError {
    /// The algorithm or feature is not available in this build (exit 5).
    Unsupported(String),
    /// The key bytes are not a key pkit can load (exit 3).
    BadKey(String),
    /// The key bytes are not DER of a key: where they break it (exit 3, the offset and
    /// field path kept for JSON errors).
    BadKeyAt(pkit_der::Error),
    /// Decryption of a private key failed: wrong or missing password (exit 3).
    BadPassword(String),
    /// A token needs a PIN to log in and none was given (exit 3); the message names the
    /// token, the caller says how to give one.
    PinNeeded(String),
    /// The library failed an operation that should have worked (exit 7: internal).
    Crypto(String),
    /// What holds the key cannot be reached: a PKCS#11 module, token or key object
    /// that is not there (exit 4, like a missing file).
    Unavailable(String),
    /// The request cannot be honoured as made: a malformed key URI, or one that matches
    /// several tokens or keys (exit 2).
    Usage(String),
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendError::Unsupported(m)
            | BackendError::BadKey(m)
            | BackendError::BadPassword(m)
            | BackendError::PinNeeded(m)
            | BackendError::Crypto(m)
            | BackendError::Unavailable(m)
            | BackendError::Usage(m) => f.write_str(m),
            BackendError::BadKeyAt(e) => write!(f, "not a valid key: {e}"),
        }
    }
}

impl std::error::Error for BackendError {}

/// A `Result` whose error is a [`BackendError`].
pub type Result<T> = std::result::Result<T, BackendError>;
