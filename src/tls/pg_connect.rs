//! The connector pkit hands a store on a PostgreSQL server (the CA's, the ACME state's
//! and the MTC log's, for the commands and the benchmark's database stages): the check
//! its URL asks for (`pkit_store::pg_ssl`, which knows no cryptography) done by this
//! crate's TLS ([`crate::pg`], which knows no URLs).
//!
//! It is here, not beside the stores in `pkit-ca`, so that no store crate links OpenSSL:
//! the stores take the connector as an argument, and `pkit-ca`, `pkit-mtc`, `pkit-serve`
//! and `pkit-acme` compile while `cargo xtask` builds OpenSSL (docs/perf.md, "Build
//! time").

use crate::pg as pg_tls;
use crate::pg_verify::{Roots, Verify};
use pkit_store::pg_ssl;
use pkit_store::postgres::Server;

/// Connect to `server`, over TLS when its configuration asks for it or the server offers
/// it, checking the server's certificate as its URL says.
pub fn connect(server: &Server) -> Result<postgres::Client, postgres::Error> {
    let verify = server.check.as_ref().map(|c| Verify {
        roots: match &c.roots {
            pg_ssl::Roots::File(path) => Roots::File(path.clone()),
            pg_ssl::Roots::System => Roots::System,
        },
        host: c.host,
    });
    pg_tls::connect(&server.config, verify.as_ref())
}
