//! pkit: a PKI toolkit. The library holds everything but argument parsing and printing:
//! `der` (bytes and tags) ← `pki` (X.509, CRL, OCSP, PKCS, keys, crypto backend) ←
//! `mtc` (Merkle Tree Certificates) ← `bench` (timed pipelines). The binary's `cmd`
//! module turns arguments into calls and results into text or JSON.

pub mod atomic_file;
pub mod bench;
pub mod der;
pub mod mtc;
pub mod pki;
pub mod store;
