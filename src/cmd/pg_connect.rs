//! The connector pkit's commands hand a store on a PostgreSQL server: the check its URL
//! asks for (`store::pg_ssl`, which knows no cryptography) done by the TLS on the OpenSSL
//! pkit links (`pki::backend::openssl::pg_tls`, which knows no URLs).

use pkit::pki::backend::openssl::pg_tls;
use pkit::pki::backend::openssl::pg_verify::{Roots, Verify};
use pkit::store::pg_ssl;
use pkit::store::postgres::Server;

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
