//! The one error type of the MTC library: what went wrong, and where in the input.

use crate::der;
use std::fmt;

/// What went wrong in the MTC library; each variant says which exit code the command
/// line gives it.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MtcError {
    /// Malformed input bytes: the byte offset and what was expected there (exit 3).
    Malformed {
        /// The byte offset in the input.
        offset: usize,
        /// What the bytes there should have been.
        expected: String,
    },
    /// A well-formed request the tree or log cannot answer (an index past the tree size,
    /// an invalid subtree): a usage error (exit 2).
    Invalid(String),
    /// The database failed (exit 4).
    Store(String),
    /// The crypto backend failed or lacks the algorithm.
    Backend(pkit_x509::backend::BackendError),
    /// A served log's resource could not be fetched (exit 4).
    Fetch(crate::fetch::FetchError),
    /// What a log or a witness served does not check out — a checkpoint not signed by
    /// the CA, tiles that do not prove a subtree, a cosignature that does not verify, a
    /// cosigner nobody trusts: a finding about them (exit 1), not an error in the input.
    Untrusted(String),
    /// A line of a text input (a witness's cosignature file) is malformed: its number
    /// from 1, the byte offset where it starts, and what was expected (exit 3).
    Line {
        /// The line's number, from 1.
        line: usize,
        /// The byte offset of the line's start in the input.
        offset: usize,
        /// What the line should have been.
        expected: String,
    },
    /// A checkpoint was asked for and the latest one already covers the whole log (of
    /// this many entries): nothing to sign, which is no failure.
    NothingNew {
        /// The log's size, which the latest checkpoint covers.
        size: u64,
    },
    /// Certificates recorded earlier were asked for, and this entry has none of this
    /// kind: a usage error (exit 2), since issuing it again is the remedy.
    NotRecorded {
        /// The kind of certificate asked for (`standalone`, `landmark`).
        kind: &'static str,
        /// The first entry asked for without one.
        index: u64,
    },
}

impl MtcError {
    /// A malformed-input error at `offset`, saying what was `expected`.
    pub fn malformed(offset: usize, expected: impl Into<String>) -> MtcError {
        MtcError::Malformed {
            offset,
            expected: expected.into(),
        }
    }

    /// A TLS read ([`crate::der::tls::Reader`]) that ran out of input, as MTC decoding
    /// names it: `what`, with the bytes it takes, at the offset where it starts. The
    /// reader's truncation stands at the end of the input with the bytes needed and
    /// available, from which both follow.
    pub(crate) fn short(what: &str) -> impl Fn(der::Error) -> MtcError + '_ {
        move |e| match e.kind {
            der::ErrorKind::Truncated { needed, available } => MtcError::malformed(
                e.offset - available,
                format!("{what} ({} bytes)", needed + available),
            ),
            _ => MtcError::malformed(e.offset, what),
        }
    }

    /// A TLS encoding ([`crate::der::tls::Writer`]) whose vector did not fit its length
    /// prefix (or an integer its width): a request the encoding cannot carry.
    pub(crate) fn too_long(e: der::Error) -> MtcError {
        match e.kind {
            der::ErrorKind::VectorLength {
                length,
                max: 0xffff,
                ..
            } => MtcError::Invalid(format!("{length} bytes exceed a 2^16-1 vector")),
            _ => MtcError::Invalid(e.message()),
        }
    }
}

impl fmt::Display for MtcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MtcError::Malformed { offset, expected } => {
                write!(f, "at byte {offset}: expected {expected}")
            }
            MtcError::Invalid(m) | MtcError::Store(m) | MtcError::Untrusted(m) => f.write_str(m),
            MtcError::Fetch(e) => write!(f, "{e}"),
            MtcError::Line {
                line,
                offset,
                expected,
            } => write!(f, "line {line} (byte {offset}): expected {expected}"),
            MtcError::Backend(e) => write!(f, "{e}"),
            MtcError::NothingNew { size } => write!(
                f,
                "nothing to checkpoint: the latest checkpoint covers all {size} entries"
            ),
            MtcError::NotRecorded { kind, index } => {
                write!(f, "no {kind} certificate of entry {index} is recorded")
            }
        }
    }
}

impl std::error::Error for MtcError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MtcError::Backend(e) => Some(e),
            MtcError::Fetch(e) => Some(e),
            _ => None,
        }
    }
}

impl From<pkit_x509::backend::BackendError> for MtcError {
    fn from(e: pkit_x509::backend::BackendError) -> Self {
        MtcError::Backend(e)
    }
}

/// A result with [`MtcError`].
pub type Result<T> = std::result::Result<T, MtcError>;
