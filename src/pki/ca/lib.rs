//! The CA as a library: profiles, policies, TBS encoding, issuance, CRL
//! signing, the OCSP responder and its cache, and the CA's state (`ca.db`) that issuance
//! records into.
//!
//! Make a CA and issue a server certificate from it, checked by OpenSSL:
//!
//! ```
//! use pkit_ca::issuer::{self_signed, Issuer, Request};
//! use pkit_ca::profile::Profile;
//! use pkit_x509::{san::parse_san, subject::parse_subject};
//! use pkit_x509::alg::Algorithm;
//! use pkit_openssl as openssl;
//! use pkit_x509::cert::Certificate;
//! use pkit_x509::der::Time;
//! use pkit_x509::signed::verify_signed;
//!
//! let be = openssl::backend();
//! let now = Time::now();
//! let ca_key = be.generate(Algorithm::EcdsaP256).unwrap();
//! let ca_name = parse_subject("CN=Example CA").unwrap();
//! let ca_der = self_signed(&*ca_key, &ca_name, now, now.plus_seconds(86_400 * 365), None).unwrap();
//! let issuer = Issuer::new(ca_der, ca_key).unwrap();
//!
//! let leaf_key = be.generate(Algorithm::Ed25519).unwrap();
//! let request = Request {
//!     key_alg: Some(Algorithm::Ed25519),
//!     sans: vec![parse_san("DNS:www.example.com").unwrap().der],
//!     ..Request::new(
//!         parse_subject("CN=www.example.com").unwrap(),
//!         leaf_key.public_key_der().unwrap(),
//!         Profile::Server,
//!         now,
//!         now.plus_seconds(86_400 * 90),
//!     )
//! };
//! let issued = issuer.issue(issuer.key.signer().unwrap().as_mut(), &request).unwrap();
//!
//! let cert = Certificate::from_der(&issued.der).unwrap();
//! assert_eq!(cert.issuer.to_rfc4514().unwrap(), "CN=Example CA");
//! let ca = Certificate::from_der(&issuer.cert_der).unwrap();
//! let ok = verify_signed(be, ca.spki.raw, &cert.signature_algorithm, cert.tbs_raw, cert.signature.bytes);
//! assert!(ok.unwrap());
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

/// The DER engine, under the path the modules use.
use pkit_der as der;

pub mod batch;
pub mod batch_items;
pub mod ca_files;
pub mod compose;
pub mod create;
pub mod crl;
pub mod crl_entries;
pub mod crl_generate;
pub mod crl_publish;
pub mod dir;
pub mod gate;
pub mod issue_one;
pub mod issued;
pub mod issuer;
pub mod name_constraints;
pub mod ocsp;
pub mod ocsp_answer;
pub mod ocsp_cache;
pub mod pointers;
pub mod policy;
pub mod precheck;
pub mod profile;
pub mod renew;
pub mod request;
pub mod settings;
pub mod store;
mod tbs;
pub mod template;
pub mod undelivered;
pub mod validity;
pub mod written;

#[cfg(test)]
mod properties;
#[cfg(test)]
mod testing;

/// Fill `buf` from the operating system's CSPRNG.
pub fn random_bytes(buf: &mut [u8]) -> std::io::Result<()> {
    getrandom::fill(buf).map_err(|e| std::io::Error::other(e.to_string()))
}
