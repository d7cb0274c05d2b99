//! Why a certificate was not trusted, as stable codes: `pkit verify`'s JSON carries them
//! and scripts match on them, so a code, once published, keeps its spelling.

use std::fmt;

/// Why a certificate or path was not trusted; [`Reason::code`] is the code printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// A certificate's notAfter has passed (§6.1.3 (a)(2)).
    Expired,
    /// A certificate's notBefore is still to come (§6.1.3 (a)(2)).
    NotYetValid,
    /// A signature does not verify (§6.1.3 (a)(1)).
    SignatureInvalid,
    /// No path reaches a trust anchor: an issuer is missing.
    UnknownIssuer,
    /// An issuer is not a CA: no basicConstraints cA (§6.1.4 (k)).
    NotACa,
    /// More CAs follow one than its pathLenConstraint allows (§6.1.4 (l)(m)).
    PathLengthExceeded,
    /// A keyUsage that does not fit the certificate's role: a CA's without keyCertSign
    /// (§6.1.4 (n)), or a leaf's that allows keyCertSign.
    KeyUsage,
    /// The extendedKeyUsage does not allow the purpose asked for.
    EkuMismatch,
    /// A name is outside the path's name constraints (§6.1.3 (b)(c)), or the constraints
    /// are not valid ones.
    NameConstraints,
    /// The certificate policies do not satisfy the inputs (§6.1.3 (d)–(f), §6.1.5 (g)).
    Policy,
    /// A critical extension this validation does not implement (§6.1.4 (o), §6.1.5 (f)).
    UnknownCriticalExtension,
    /// The target does not carry the name asked for (RFC 9525).
    HostnameMismatch,
    /// A certificate is revoked.
    Revoked,
    /// No revocation source could say, and a status was required.
    RevocationUnknown,
    /// No path within the depth asked for.
    DepthExceeded,
    /// Path building ran out of its work budget.
    BudgetExceeded,
    /// A certificate or extension does not decode.
    Malformed,
    /// An algorithm or key the rule set refuses as weak: under `webpki` (BR §6.1.5, §7.1.3)
    /// SHA-1, DSA, other curves than P-256/384/521.
    WeakAlgorithm,
    /// An algorithm pkit cannot check a signature with: a verdict, not an error.
    UnsupportedAlgorithm,
    /// The target expires within the window asked for.
    ExpiresSoon,
    /// A subject or authority key identifier missing or critical (§4.2.1.1, §4.2.1.2), or
    /// a root's AKI that is not its own SKI (`webpki`).
    KeyIdentifier,
    /// A name breaks the `webpki` rules: a CN that is not one of the SANs, an underscore or a
    /// wildcard over a public suffix in a dNSName, a subjectAltName critical beside a
    /// non-empty subject or not critical beside an empty one, a CA with an empty subject.
    InvalidName,
    /// A serial number that is zero, negative or over 20 octets (`webpki`, BR §7.1).
    InvalidSerial,
    /// An extension the `webpki` rules forbid where it is or as it is marked (BR §7.1.2):
    /// a non-critical basicConstraints in an intermediate, a critical extendedKeyUsage in a
    /// leaf, a leaf that is a CA.
    InvalidExtension,
}

impl Reason {
    /// Every reason, in the order the documentation lists them.
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

    /// The reason a printed code names, if any.
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
