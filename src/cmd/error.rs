//! The exit codes every subcommand shares (documented in every man page), and the one
//! error type `cmd` returns.

use std::fmt;

/// Exit codes, the same in every subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Success.
    Ok = 0,
    /// A check came back negative (signature invalid, revoked, proof fails, expired).
    Negative = 1,
    /// Usage error: bad arguments or options.
    Usage = 2,
    /// Input could not be parsed or decrypted.
    Parse = 3,
    /// I/O failure: file missing, unreadable, not writable, exists without --force.
    Io = 4,
    /// Algorithm or feature not supported in this build.
    Unsupported = 5,
    /// Stopped by SIGINT or SIGTERM before finishing; what was done is committed.
    Interrupted = 6,
    /// An internal failure: the crypto library failed an operation on valid input, or
    /// pkit hit a state it should never reach. Not a verdict about the input (that is 1).
    Internal = 7,
    /// A command pkit was told to run afterwards (`issue renew --exec`) failed; what pkit
    /// itself did is done and recorded.
    ExecFailed = 8,
}

/// The exit codes every command may return, then `$rest` (the end of the list).
macro_rules! exit_codes {
    ($rest:literal) => {
        concat!(
            "Exit codes: 0 success · 1 a check came back negative (signature invalid, \
             revoked, proof fails) · 2 usage error · 3 input could not be parsed or \
             decrypted · 4 I/O failure · 5 algorithm or feature unsupported in this build · \
             6 stopped by SIGINT or SIGTERM (what was done is committed) · 7 internal or \
             crypto-library failure (a bug to report, not a verdict on the input)",
            $rest
        )
    };
}

/// The text for `--help` and man pages.
pub const EXIT_CODES_HELP: &str = exit_codes!(".");

/// The same for `pkit` itself, whose page covers every command: with the code only
/// `issue renew --exec` returns.
pub const EXIT_CODES_ALL_HELP: &str = exit_codes!(
    " · 8 a command pkit was told to run afterwards failed (issue renew --exec; what pkit \
     did is done and recorded)."
);

/// An error on its way to stderr and the exit code.
#[derive(Debug)]
pub struct CliError {
    pub exit: Exit,
    pub message: String,
    /// Byte offset into the named input, when the error comes from decoding.
    pub offset: Option<usize>,
    /// Field path, when known.
    pub path: Option<String>,
}

impl CliError {
    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        CliError {
            exit,
            message: message.into(),
            offset: None,
            path: None,
        }
    }
    pub fn usage(m: impl Into<String>) -> Self {
        Self::new(Exit::Usage, m)
    }
    pub fn parse(m: impl Into<String>) -> Self {
        Self::new(Exit::Parse, m)
    }
    pub fn io(m: impl Into<String>) -> Self {
        Self::new(Exit::Io, m)
    }
    pub fn negative(m: impl Into<String>) -> Self {
        Self::new(Exit::Negative, m)
    }
    pub fn unsupported(m: impl Into<String>) -> Self {
        Self::new(Exit::Unsupported, m)
    }
    pub fn internal(m: impl Into<String>) -> Self {
        Self::new(Exit::Internal, m)
    }

    /// A DER error in the input named `source`: `source: offset N: path: expected …`.
    pub fn der(source: &str, e: &pkit::der::Error) -> Self {
        CliError {
            exit: Exit::Parse,
            message: format!("{source}: {e}"),
            offset: Some(e.offset),
            path: (!e.path.is_empty()).then(|| e.path_string()),
        }
    }

    /// Input `source` that does not parse at byte `offset` (text, as PEM's armour, rather
    /// than DER): the offset in the message and, for JSON errors, in `offset`.
    pub fn parse_at(source: &str, offset: usize, what: &str) -> Self {
        CliError {
            exit: Exit::Parse,
            message: format!("{source}: offset {offset}: {what}"),
            offset: Some(offset),
            path: None,
        }
    }

    /// An I/O error on `path`.
    pub fn io_at(path: &str, e: &std::io::Error) -> Self {
        Self::io(format!("{path}: {e}"))
    }

    /// Print one error line (or the JSON error object) to stderr.
    pub fn report(&self, json: bool) {
        if json {
            note!("{}", self.to_json());
        } else {
            note!("pkit: {}", self.message);
        }
    }

    /// The JSON form for `--format json` errors on stderr.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"error": {
            "code": self.exit as i32,
            "message": self.message,
            "offset": self.offset,
            "path": self.path,
        }})
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<pkit::pki::backend::BackendError> for CliError {
    fn from(e: pkit::pki::backend::BackendError) -> Self {
        use pkit::pki::backend::BackendError as B;
        if let B::PinNeeded(m) = &e {
            return CliError::new(
                Exit::Parse,
                format!(
                    "{m}: give --pin SRC (pass:, env:, file: or fd:) or pin-source= in the URI"
                ),
            );
        }
        if let B::BadKeyAt(d) = &e {
            return CliError {
                exit: Exit::Parse,
                message: e.to_string(),
                offset: Some(d.offset),
                path: (!d.path.is_empty()).then(|| d.path_string()),
            };
        }
        let exit = match &e {
            B::Unsupported(_) => Exit::Unsupported,
            B::BadKey(_) | B::BadPassword(_) | B::PinNeeded(_) => Exit::Parse,
            B::Crypto(_) => Exit::Internal,
            B::Unavailable(_) => Exit::Io,
            B::Usage(_) => Exit::Usage,
            // A kind this binary does not know yet: not the input's fault.
            _ => Exit::Internal,
        };
        CliError::new(exit, e.to_string())
    }
}

/// A server that could not start or went down: an I/O failure (4), named as the flag
/// that chose the address when it is the address.
impl From<pkit::serve::ServeError> for CliError {
    fn from(e: pkit::serve::ServeError) -> Self {
        use pkit::serve::ServeError as S;
        match e {
            S::Bind { listen, source } => CliError::io(format!("--listen {listen}: {source}")),
            other => CliError::io(other.to_string()),
        }
    }
}

pub type CliResult<T = ()> = Result<T, CliError>;
