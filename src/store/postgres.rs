//! Connecting to a PostgreSQL server the way pkit's stores use one: a URL whose password
//! is never shown, a bounded connect time, and a schema version per store in
//! `pkit_schema` moved forward by migrations (what `PRAGMA user_version` is to SQLite).
//! libpq's `sslmode=verify-ca|verify-full` and `sslrootcert`, which the client's URL
//! parser does not know, are taken out of the URL first ([`super::pg_ssl`]).
//!
//! Stores in a database's default schema, each with its own tables and row in
//! `pkit_schema` (a CA's records and its ACME server's state share one). A database that
//! holds tables but no `pkit_schema` is someone else's: pkit refuses it rather than add
//! its tables beside theirs.

use super::open_error::OpenError;
use super::pg_error::one_line;
use super::pg_ssl::{take_tls_params, ServerCheck};
use postgres::{Client, Config};
use std::path::PathBuf;
use std::time::Duration;

/// How long a connection attempt may take when the URL does not say (`connect_timeout`):
/// an unreachable server is an error after this, not a hang.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The advisory lock key that serialises schema checks and migrations between processes
/// opening the same database at once ("pkit" in ASCII).
const SCHEMA_LOCK: i64 = 0x706b_6974;

/// A database server to connect to: the client's configuration, and what its TLS must
/// check of the server (`None`: nothing, libpq's `require`).
#[derive(Debug, Clone)]
pub struct Server {
    /// Host, port, database, user and password, and the TLS mode, as the client takes them.
    pub config: Config,
    /// What the TLS handshake must prove of the server (`verify-ca`, `verify-full`);
    /// `None` checks nothing (libpq's `require`).
    pub check: Option<ServerCheck>,
}

/// How a connection is made once its configuration is complete: the caller chooses the
/// TLS it speaks and does the [`ServerCheck`] (`store` knows no cryptography; pkit's
/// commands pass theirs, which runs `pki::backend::openssl::pg_tls` on the OpenSSL pkit
/// links).
pub type Connector = fn(&Server) -> Result<Client, postgres::Error>;

/// In plain text only (`NoTls`): for tests, and servers reached over a unix socket.
pub fn plain(server: &Server) -> Result<Client, postgres::Error> {
    server.config.connect(postgres::NoTls)
}

/// How to reach the database `url` names, with `password` when given (else the URL's
/// own, or none for a server that trusts the connection). An error is one line that
/// does not repeat the URL: the caller names it.
pub fn server(url: &str, password: Option<&[u8]>) -> Result<Server, OpenError> {
    // libpq looks for ~/.postgresql/root.crt in the home directory $HOME names.
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let (url, check) = take_tls_params(url, home.as_deref()).map_err(OpenError::Location)?;
    let mut config: Config = url.parse().map_err(|e: postgres::Error| {
        OpenError::Location(format!("not a PostgreSQL URL: {}", one_line(&e)))
    })?;
    if let Some(p) = password {
        config.password(p);
    }
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_application_name().is_none() {
        config.application_name("pkit");
    }
    Ok(Server { config, check })
}

/// Run `f` where the sync client may block. The client drives its own runtime and cannot
/// do so inside another (it panics): called from a thread that runs one (`ocsp serve`'s
/// and `mtc serve`'s workers answer from theirs), `f` runs on a thread of its own for the
/// call, and `died` names the failure should that thread end abnormally.
pub fn off_runtime<T: Send, E: Send>(
    f: impl FnOnce() -> Result<T, E> + Send,
    died: impl FnOnce() -> E,
) -> Result<T, E> {
    if tokio::runtime::Handle::try_current().is_err() {
        return f();
    }
    std::thread::scope(|s| match std::thread::Builder::new().spawn_scoped(s, f) {
        Ok(h) => h.join().unwrap_or_else(|_| Err(died())),
        Err(_) => Err(died()),
    })
}

/// Bring the store `store`'s tables to the newest schema: the `migrations` not yet applied
/// (index i takes the schema from version i to i + 1), in one transaction under an
/// advisory lock, so that processes opening a new database at once create it once.
pub fn open_versioned(
    client: &mut Client,
    store: &str,
    migrations: &[&str],
) -> Result<(), OpenError> {
    let known = migrations.len() as i64;
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])?;
    let versioned: bool = tx
        .query_one("SELECT to_regclass('pkit_schema') IS NOT NULL", &[])?
        .try_get(0)?;
    let found: Option<i64> = if versioned {
        match tx.query_opt(
            "SELECT version::bigint FROM pkit_schema WHERE store = $1",
            &[&store],
        ) {
            Ok(row) => row.map(|r| r.try_get(0)).transpose()?,
            // A `pkit_schema` of another shape is not ours either.
            Err(e) if e.as_db_error().is_some() => {
                return Err(OpenError::Foreign(format!(
                    "not a pkit database: its pkit_schema table is not pkit's ({})",
                    one_line(&e)
                )))
            }
            Err(e) => return Err(e.into()),
        }
    } else {
        None
    };
    let found = match found {
        Some(v) => v,
        None => {
            let tables: Vec<String> = tx
                .query(
                    "SELECT tablename::text FROM pg_catalog.pg_tables
                     WHERE schemaname = current_schema() AND tablename <> 'pkit_schema'
                     ORDER BY tablename LIMIT 3",
                    &[],
                )?
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?;
            // A pkit database (it has `pkit_schema`) takes another pkit store's tables
            // beside its own (an ACME server's beside its CA's); any other, none.
            if !tables.is_empty() && !versioned {
                // Three names are enough to recognise whose database it is.
                let more = if tables.len() == 3 { ", …" } else { "" };
                return Err(OpenError::Foreign(format!(
                    "not a pkit {store} database: it holds other tables ({}{more}) and no \
                     pkit schema version; give pkit an empty database",
                    tables.join(", ")
                )));
            }
            tx.batch_execute(
                "CREATE TABLE IF NOT EXISTS pkit_schema (
                    store   TEXT PRIMARY KEY,
                    version BIGINT NOT NULL
                )",
            )?;
            tx.execute(
                "INSERT INTO pkit_schema (store, version) VALUES ($1, 0)",
                &[&store],
            )?;
            0
        }
    };
    if found > known {
        return Err(OpenError::TooNew { found, known });
    }
    for m in migrations.iter().skip(usize::try_from(found).unwrap_or(0)) {
        tx.batch_execute(m)?;
    }
    if found < known {
        tx.execute(
            "UPDATE pkit_schema SET version = $2 WHERE store = $1",
            &[&store, &known],
        )?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url::{is_url, without_password};

    #[test]
    fn passwords_are_never_shown() {
        assert_eq!(
            without_password("postgres://ca:s3cret@db.example:5433/pkit"),
            "postgres://ca@db.example:5433/pkit"
        );
        assert_eq!(
            without_password("postgresql://ca@h/pkit?password=x&sslmode=require"),
            "postgresql://ca@h/pkit?sslmode=require"
        );
        assert_eq!(
            without_password("postgres://h/pkit?password=x"),
            "postgres://h/pkit"
        );
        assert_eq!(without_password("postgres://a:b:c@h"), "postgres://a@h");
        assert!(is_url("postgresql://h/db") && !is_url("ca/ca.db"));
    }

    #[test]
    fn a_bad_url_is_one_line_without_its_password() {
        // The caller names the URL (without its password); the error says only why.
        for url in [
            "postgres://u:pw@h:notaport/db",
            "postgres://u:pw@h/db?sslmode=verify-all",
            "postgres://u:pw@h/db?sslrootcert=/nonexistent/root.crt&sslmode=verify-full",
        ] {
            let text = server(url, None).err().map(|e| e.to_string());
            let text = text.unwrap_or_default();
            assert!(!text.is_empty() && !text.contains("pw"), "{url}: {text}");
            assert!(!text.contains("postgres://"), "{url}: {text}");
            assert_eq!(text.lines().count(), 1, "{text}");
        }
    }

    #[test]
    fn the_client_gets_the_url_without_the_tls_parameters() {
        let s = server(
            "postgres://u@h/db?sslrootcert=system&connect_timeout=3",
            None,
        );
        let s = s.ok().map(|s| (s.config.get_ssl_mode(), s.check.is_some()));
        assert_eq!(s, Some((postgres::config::SslMode::Require, true)));
    }
}
