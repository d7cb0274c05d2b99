//! Trust decisions: building a path from a certificate to a trust anchor and validating it
//! (RFC 5280 §6.1), matching the names a relying party expects (RFC 6125/9525) and
//! checking revocation (CRLs, OCSP). Each failure carries a stable [`Reason`] that
//! `pkit verify` prints and scripts match on.
//!
//! - [`Reason`]: the reason codes;
//! - [`names`]: host name, IP address and email matching against a certificate;
//!   `mailbox`: RFC 5321 mailbox syntax, which rfc822Names are held to;
//! - `constraints`: name constraints along a path (§6.1.2 (b)(c), §6.1.3 (b)(c),
//!   §6.1.4 (g));
//! - [`policy`]: the certificate policy tree (§6.1.2–§6.1.5);
//! - [`revocation`]: a certificate's status from CRLs and OCSP responses;
//! - `dn`: name comparison for chaining; [`pool`]: certificates by subject;
//! - [`options`]: what the relying party asks; [`validate`]: §6.1 over one path;
//! - `failure`: a check and a failure, as [`validate`] reports them;
//! - `inherited_key`: DSA keys that take their issuer's parameters (RFC 3279 §2.3.2);
//! - `keyid`: key identifier rules (both rule sets); `webpki`: the `webpki` rule set's
//!   profile checks per certificate (the Public Suffix List through
//!   `pkit_x509::dns_name`); `role`: leaf, intermediate or trust anchor;
//! - [`build`]: path building with backtracking and a work budget; `prebatch`: the
//!   signatures it will check, found ahead for one batch; [`many`]: many targets at
//!   once, as `pkit verify` and its benchmark run them;
//! - [`sources`]: CRL files, OCSP responses and a CA database asked together;
//! - [`crl_verify`]: the one CRL rule set `pkit crl verify` and `verify --crl` apply;
//! - [`preissue`]: a CA's certificate validated through its own chain before it is
//!   signed.
//!
//! Verify a chain: a CA, and a server certificate it issued, checked for a host name:
//!
//! ```
//! use pkit_ca::issuer::{self_signed, Issuer, Request};
//! use pkit_ca::profile::Profile;
//! use pkit_x509::{san::parse_san, subject::parse_subject};
//! use pkit_verify::build::Verifier;
//! use pkit_verify::names::Identity;
//! use pkit_verify::options::{Options, Purpose};
//! use pkit_verify::pool::Pool;
//! use pkit_x509::alg::Algorithm;
//! use pkit_openssl as openssl;
//! use pkit_x509::cert::Certificate;
//! use pkit_x509::der::Time;
//!
//! let be = openssl::backend();
//! let now = Time::now();
//! let ca_key = be.generate(Algorithm::EcdsaP256).unwrap();
//! let ca_name = parse_subject("CN=Example Root").unwrap();
//! let ca_der = self_signed(&*ca_key, &ca_name, now.plus_seconds(-60), now.plus_seconds(86_400), None).unwrap();
//! let issuer = Issuer::new(ca_der.clone(), ca_key).unwrap();
//! let leaf_key = be.generate(Algorithm::EcdsaP256).unwrap();
//! let issued = issuer
//!     .issue(
//!         issuer.key.signer().unwrap().as_mut(),
//!         &Request {
//!             key_alg: Some(Algorithm::EcdsaP256),
//!             sans: vec![parse_san("DNS:www.example.com").unwrap().der],
//!             ..Request::new(
//!                 parse_subject("CN=www.example.com").unwrap(),
//!                 leaf_key.public_key_der().unwrap(),
//!                 Profile::Server,
//!                 now.plus_seconds(-60),
//!                 now.plus_seconds(3600),
//!             )
//!         },
//!     )
//!     .unwrap();
//!
//! let mut roots = Pool::new();
//! roots.add(Certificate::from_der(&ca_der).unwrap());
//! let leaf = Certificate::from_der(&issued.der).unwrap();
//! let none = Pool::new();
//! let verifier = Verifier::new(be, &roots, &none, None);
//! let mut opts = Options::at(now);
//! opts.purpose = Purpose::Server;
//! opts.identity = Some(Identity::Dns("www.example.com"));
//! assert!(verifier.verify(leaf, &[], &opts).valid());
//! // Another name: no.
//! opts.identity = Some(Identity::Dns("mail.example.com"));
//! assert!(!verifier.verify(leaf, &[], &opts).valid());
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

/// The DER engine, under the path the modules use.
use pkit_der as der;

pub mod build;
mod constraints;
pub mod crl_verify;
mod dn;
mod failure;
mod inherited_key;
mod keyid;
mod mailbox;
pub mod many;
pub mod names;
pub mod options;
pub mod policy;
pub mod pool;
mod prebatch;
pub mod preissue;
mod reason;
pub mod revocation;
mod role;
mod rules;
pub mod sources;
pub mod trust_store;
pub mod validate;
mod webpki;

#[cfg(test)]
mod testcert;

pub use reason::Reason;
