//! The CA as a library: subject strings, SANs, profiles, TBS encoding, issuance, CRL
//! signing, the OCSP responder and its cache, and the CA's state (`ca.db`) that issuance
//! records into.

#![forbid(unsafe_code)]

pub mod batch;
pub mod crl;
pub mod issuer;
pub mod ocsp;
pub mod ocsp_answer;
pub mod ocsp_cache;
pub mod profile;
pub mod request;
pub mod san;
pub mod store;
pub mod subject;
pub mod tbs;

#[cfg(test)]
mod properties;

/// Fill `buf` from the operating system's CSPRNG.
pub fn random_bytes(buf: &mut [u8]) -> std::io::Result<()> {
    getrandom::fill(buf).map_err(|e| std::io::Error::other(e.to_string()))
}
