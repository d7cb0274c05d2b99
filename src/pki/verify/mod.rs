//! Trust decisions: building a path from a certificate to a trust anchor and validating it
//! (RFC 5280 §6.1), matching the names a relying party expects (RFC 6125/9525) and
//! checking revocation (CRLs, OCSP). Each failure carries a stable [`Reason`] that
//! `pkit verify` prints and scripts match on.
//!
//! - [`reason`]: the reason codes;
//! - [`names`]: host name, IP address and email matching against a certificate;
//! - [`constraints`]: name constraints along a path (§6.1.2 (b)(c), §6.1.3 (b)(c),
//!   §6.1.4 (g));
//! - [`policy`]: the certificate policy tree (§6.1.2–§6.1.5);
//! - [`revocation`]: a certificate's status from CRLs and OCSP responses.

#![forbid(unsafe_code)]

pub mod reason;
pub mod revocation;

pub use reason::Reason;
