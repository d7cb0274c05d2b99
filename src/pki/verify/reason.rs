//! Why a certificate was not trusted, as stable codes: `pkit verify`'s JSON carries them
//! and scripts match on them, so a code, once published, keeps its spelling.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    Expired,
    NotYetValid,
    SignatureInvalid,
    UnknownIssuer,
    NotACa,
    PathLengthExceeded,
    KeyUsage,
    EkuMismatch,
    NameConstraints,
    Policy,
    UnknownCriticalExtension,
    HostnameMismatch,
    Revoked,
    RevocationUnknown,
    DepthExceeded,
    BudgetExceeded,
    Malformed,
    WeakAlgorithm,
    UnsupportedAlgorithm,
    ExpiresSoon,
    KeyIdentifier,
    InvalidName,
    InvalidSerial,
    InvalidExtension,
}

impl Reason {
    pub const ALL: [Reason; 24] = [
        Reason::Expired,
        Reason::NotYetValid,
        Reason::SignatureInvalid,
        Reason::UnknownIssuer,
        Reason::NotACa,
        Reason::PathLengthExceeded,
        Reason::KeyUsage,
        Reason::EkuMismatch,
        Reason::NameConstraints,
        Reason::Policy,
        Reason::UnknownCriticalExtension,
        Reason::HostnameMismatch,
        Reason::Revoked,
        Reason::RevocationUnknown,
        Reason::DepthExceeded,
        Reason::BudgetExceeded,
        Reason::Malformed,
        Reason::WeakAlgorithm,
        Reason::UnsupportedAlgorithm,
        Reason::ExpiresSoon,
        Reason::KeyIdentifier,
        Reason::InvalidName,
        Reason::InvalidSerial,
        Reason::InvalidExtension,
    ];

    /// The code as printed: lowercase words joined by `-`.
    pub fn code(self) -> &'static str {
        match self {
            Reason::Expired => "expired",
            Reason::NotYetValid => "not-yet-valid",
            Reason::SignatureInvalid => "signature-invalid",
            Reason::UnknownIssuer => "unknown-issuer",
            Reason::NotACa => "not-a-ca",
            Reason::PathLengthExceeded => "path-length-exceeded",
            Reason::KeyUsage => "key-usage",
            Reason::EkuMismatch => "eku-mismatch",
            Reason::NameConstraints => "name-constraints",
            Reason::Policy => "policy",
            Reason::UnknownCriticalExtension => "unknown-critical-extension",
            Reason::HostnameMismatch => "hostname-mismatch",
            Reason::Revoked => "revoked",
            Reason::RevocationUnknown => "revocation-unknown",
            Reason::DepthExceeded => "depth-exceeded",
            Reason::BudgetExceeded => "budget-exceeded",
            Reason::Malformed => "malformed",
            Reason::WeakAlgorithm => "weak-algorithm",
            Reason::UnsupportedAlgorithm => "unsupported-algorithm",
            Reason::ExpiresSoon => "expires-soon",
            Reason::KeyIdentifier => "key-identifier",
            Reason::InvalidName => "invalid-name",
            Reason::InvalidSerial => "invalid-serial",
            Reason::InvalidExtension => "invalid-extension",
        }
    }

    pub fn from_code(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == s)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_round_trip() {
        let codes: std::collections::BTreeSet<&str> =
            Reason::ALL.iter().map(|r| r.code()).collect();
        assert_eq!(codes.len(), Reason::ALL.len());
        for r in Reason::ALL {
            assert_eq!(Reason::from_code(r.code()), Some(r));
        }
    }
}
