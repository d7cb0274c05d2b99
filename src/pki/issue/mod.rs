//! Building certificates: subject strings, SANs, profiles, TBS encoding, and the CA
//! directory (`ca.pem`, `ca.key`, `ca.db`) that issuance records into.

pub mod ca;
pub mod crl;
pub mod ocsp;
pub mod ocsp_cache;
pub mod profile;
pub mod request;
pub mod san;
pub mod store;
pub mod subject;
pub mod tbs;
pub mod wal_checkpoint;

/// Fill `buf` from the operating system's CSPRNG.
pub fn random_bytes(buf: &mut [u8]) -> std::io::Result<()> {
    getrandom::fill(buf).map_err(|e| std::io::Error::other(e.to_string()))
}
