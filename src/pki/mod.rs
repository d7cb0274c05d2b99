//! PKI under the paths pkit has always had (`pkit::pki::cert`, `pkit::pki::verify`,
//! `pkit::pki::backend::pkcs11`, …), each a crate of its own: the objects, keys and
//! the crypto backend's capabilities are `pkit-x509` (src/pki/x509), the OpenSSL backend
//! `pkit-openssl` (src/pki/openssl), the PKCS#11 backend `pkit-pkcs11` (src/pki/pkcs11), the CA `pkit-ca` (src/pki/ca), path validation and revocation
//! `pkit-verify` (src/pki/verify).

pub use pkit_x509::{
    alg, algid, cert, crl, csr, detect, ext, extension, key, manifest, name, ocsp, ocsp_request,
    ocsp_verify, pkcs12, pkcs7, san, signed, spki, split, subject,
};

/// The crypto backend (`pkit_x509::backend`), with its implementations: OpenSSL
/// (`pkit-openssl`) and PKCS#11 (`pkit-pkcs11`).
pub mod backend {
    pub use pkit_openssl as openssl;
    #[cfg(feature = "pkcs11")]
    pub use pkit_pkcs11 as pkcs11;
    pub use pkit_x509::backend::*;
}

pub use pkit_ca as ca;
pub use pkit_verify as verify;
