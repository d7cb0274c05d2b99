//! The one OpenSSL function this crate calls that native-ossl does not wrap.

use std::ffi::{c_char, c_long};

extern "C" {
    /// OpenSSL's text for an `X509_V_ERR_*` code (a static string, never freed).
    pub(crate) fn X509_verify_cert_error_string(n: c_long) -> *const c_char;
}
