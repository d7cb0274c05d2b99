//! The rule set a relying party verifies under (`--rules`), apart from the rest of the
//! options (`options`): name matching (`names`) depends on it, and the options on name
//! matching's `Identity`.

/// Which rules apply (`--rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// RFC 5280 as written.
    Rfc5280,
    /// RFC 5280 plus the CA/Browser Forum rules browsers enforce: no SHA-1 signatures,
    /// RSA keys of at least 2048 bits, a SAN for the name asked for (no CN fallback), an
    /// extendedKeyUsage on the leaf.
    WebPki,
}
