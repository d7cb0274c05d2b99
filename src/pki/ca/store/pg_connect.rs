//! The connector pkit hands a store on a PostgreSQL server (the CA's, and the MTC log's,
//! for the commands and the benchmark's database stages): the check its URL
//! asks for (`store::pg_ssl`, which knows no cryptography) done by the TLS on the OpenSSL
//! pkit links (the crate `pkit-tls`, which knows no URLs).

use pkit_store::pg_ssl;
use pkit_store::postgres::Server;
use pkit_tls::pg as pg_tls;
use pkit_tls::pg_verify::{Roots, Verify};

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
