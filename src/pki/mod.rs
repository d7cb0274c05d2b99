//! PKI over the DER engine. The objects, keys and the crypto backend are the crate
//! `pkit-x509` (crates/x509) and the PKCS#11 backend the crate `pkit-pkcs11`
//! (crates/pkcs11), re-exported here under their old paths (`pkit::pki::cert`,
//! `pkit::pki::backend::pkcs11`, …); path validation and revocation (`verify`,
//! `crl_verify`) and the CA (`ca`) are still modules of this crate.

pub use pkit_x509::{
    alg, algid, cert, crl, csr, detect, ext, extension, key, name, ocsp, ocsp_request, ocsp_verify,
    pem, pkcs12, pkcs7, signed, spki, split,
};

/// The crypto backend (`pkit_x509::backend`), with the PKCS#11 one beside OpenSSL.
pub mod backend {
    pub use pkit_pkcs11 as pkcs11;
    pub use pkit_x509::backend::*;
}

pub mod ca;
pub mod crl_verify;
pub mod verify;
