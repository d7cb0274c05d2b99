//! The crypto backend a command runs on. The library has no default: every operation that
//! needs cryptography is handed a `&dyn Backend`, and this is where the commands choose
//! one. Today that is always OpenSSL; a backend picked by the arguments (a PKCS#11 key
//! URI, `--backend`) is chosen here too.

use pkit::pki::backend::openssl::OpensslBackend;
use pkit::pki::backend::Backend;

/// The backend for this run.
pub fn backend() -> &'static dyn Backend {
    static OPENSSL: OpensslBackend = OpensslBackend;
    &OPENSSL
}
