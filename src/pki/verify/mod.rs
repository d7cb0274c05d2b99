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
//! - [`revocation`]: a certificate's status from CRLs and OCSP responses;
//! - [`dn`]: name comparison for chaining; [`pool`]: certificates by subject;
//! - [`options`]: what the relying party asks; [`validate`]: §6.1 over one path;
//! - `failure`: a check and a failure, as [`validate`] reports them;
//! - `keyid`: key identifier rules (both rule sets); `webpki`: the `webpki` rule set's
//!   profile checks per certificate; `role`: leaf, intermediate or trust anchor;
//! - [`build`]: path building with backtracking and a work budget; [`prebatch`]: the
//!   signatures it will check, found ahead for one batch; [`many`]: many targets at
//!   once, as `pkit verify` and its benchmark run them;
//! - [`sources`]: CRL files, OCSP responses and a CA database asked together.

#![forbid(unsafe_code)]

pub mod build;
pub mod constraints;
pub mod dn;
mod failure;
mod keyid;
pub mod many;
pub mod names;
pub mod options;
pub mod policy;
pub mod pool;
pub mod prebatch;
pub mod reason;
pub mod revocation;
mod role;
pub mod sources;
pub mod validate;
mod webpki;

#[cfg(test)]
mod testcert;

pub use reason::Reason;
