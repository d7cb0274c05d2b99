//! What of a CRL its lints read beyond the fixed fields ([`CrlPart`]): a CRL lint names
//! the parts it reads, and does not run on a CRL where one of them did not decode (it
//! would take the part for absent). Which parts did not decode is `crl.rs`'s.

/// A part of a CRL that a lint reads and that may not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CrlPart {
    /// The crlExtensions list.
    Extensions,
    /// The cRLNumber extension (RFC 5280 §5.2.3).
    CrlNumber,
    /// The authorityKeyIdentifier extension (RFC 5280 §5.2.1).
    AuthorityKeyId,
    /// The issuingDistributionPoint extension (RFC 5280 §5.2.5).
    IssuingDistributionPoint,
    /// The revokedCertificates entries.
    Entries,
}
