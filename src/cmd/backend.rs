//! The crypto backend a command runs on. The library has no default: every operation that
//! needs cryptography is handed a `&dyn Backend`, and this is where the commands choose
//! one: OpenSSL. A key named by a `pkcs11:` URI brings its token's backend with it, and
//! the benchmarks' `--backend` picks one; both are made in `token.rs`, on top of this one
//! (a token hands digests, PBE and TLS back to software).

use pkit::pki::backend::openssl::OpensslBackend;
use pkit::pki::backend::Backend;

/// The backend for this run.
pub fn backend() -> &'static dyn Backend {
    static OPENSSL: OpensslBackend = OpensslBackend;
    &OPENSSL
}
