//! Entry points native-ossl 0.3 does not wrap, declared from `<openssl/crypto.h>`,
//! `<openssl/evp.h>` and `<openssl/x509.h>` (unchanged since OpenSSL 3.0). libcrypto is
//! linked by native-ossl-sys.

use std::ffi::{c_char, c_int, c_void};

pub(crate) const OPENSSL_VERSION: c_int = 0;

extern "C" {
    pub(crate) fn OpenSSL_version(t: c_int) -> *const c_char;
    pub(crate) fn EVP_DigestSignInit_ex(
        ctx: *mut c_void,
        pctx: *mut *mut c_void,
        mdname: *const c_char,
        libctx: *mut c_void,
        props: *const c_char,
        pkey: *mut c_void,
        params: *const c_void,
    ) -> c_int;
    pub(crate) fn EVP_DigestSign(
        ctx: *mut c_void,
        sigret: *mut u8,
        siglen: *mut usize,
        tbs: *const u8,
        tbslen: usize,
    ) -> c_int;
    pub(crate) fn EVP_PKEY_get_octet_string_param(
        pkey: *const c_void,
        key_name: *const c_char,
        buf: *mut u8,
        max_buf_sz: usize,
        out_len: *mut usize,
    ) -> c_int;
    pub(crate) fn EVP_PKEY_get_bn_param(
        pkey: *const c_void,
        key_name: *const c_char,
        bn: *mut *mut c_void,
    ) -> c_int;
    pub(crate) fn BN_bn2binpad(a: *const c_void, to: *mut u8, tolen: c_int) -> c_int;
    pub(crate) fn BN_clear_free(a: *mut c_void);
}
