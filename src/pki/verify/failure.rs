//! A validation's outcome, check by check: what passed, and the failure with its stable
//! reason code and the certificate it concerns.

use super::reason::Reason;

/// One check that passed or failed, for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The check's name, as the report prints it.
    pub name: &'static str,
    /// Whether it passed.
    pub ok: bool,
    /// What it found.
    pub detail: String,
}

/// Why a path is not valid: the reason code, what was wrong, and which certificate
/// (0 = the target, counting up towards the anchor) it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The stable reason code.
    pub reason: Reason,
    /// What was wrong.
    pub detail: String,
    /// The certificate it concerns, if one.
    pub cert: Option<usize>,
    /// The checks that passed before this one failed.
    pub passed: Vec<Check>,
}

impl Failure {
    /// A failure with no checks passed yet.
    pub fn new(reason: Reason, cert: Option<usize>, detail: impl Into<String>) -> Failure {
        Failure {
            reason,
            detail: detail.into(),
            cert,
            passed: Vec::new(),
        }
    }
}
