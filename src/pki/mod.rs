//! PKI structures over the DER engine: X.509 certificates, names, extensions, CSRs, CRLs,
//! OCSP, PKCS#7/#12 certificate extraction, keys, algorithm identifiers, and the crypto
//! backend trait. Each type quotes the ASN.1 it implements.

pub mod alg;
pub mod algid;
pub mod backend;
pub mod ca;
pub mod cert;
pub mod crl;
pub mod crl_verify;
pub mod csr;
pub mod detect;
pub mod ext;
pub mod extension;
pub mod key;
pub mod name;
pub mod ocsp;
pub mod ocsp_request;
pub mod ocsp_verify;
pub mod pem;
pub mod pkcs12;
pub mod pkcs7;
pub mod signed;
pub mod spki;
pub mod split;
pub mod verify;
