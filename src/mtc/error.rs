//! The one error type of the MTC library: what went wrong, and where in the input.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MtcError {
    /// Malformed input bytes: the byte offset and what was expected there (exit 3).
    Malformed { offset: usize, expected: String },
    /// A well-formed request the tree or log cannot answer (an index past the tree size,
    /// an invalid subtree): a usage error (exit 2).
    Invalid(String),
    /// The database failed (exit 4).
    Store(String),
    /// The crypto backend failed or lacks the algorithm.
    Backend(crate::pki::backend::BackendError),
}

impl MtcError {
    pub fn malformed(offset: usize, expected: impl Into<String>) -> MtcError {
        MtcError::Malformed {
            offset,
            expected: expected.into(),
        }
    }
}

impl fmt::Display for MtcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MtcError::Malformed { offset, expected } => {
                write!(f, "at byte {offset}: expected {expected}")
            }
            MtcError::Invalid(m) | MtcError::Store(m) => f.write_str(m),
            MtcError::Backend(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MtcError {}

impl From<crate::pki::backend::BackendError> for MtcError {
    fn from(e: crate::pki::backend::BackendError) -> Self {
        MtcError::Backend(e)
    }
}

impl From<rusqlite::Error> for MtcError {
    fn from(e: rusqlite::Error) -> Self {
        MtcError::Store(format!("database: {e}"))
    }
}

pub type Result<T> = std::result::Result<T, MtcError>;
