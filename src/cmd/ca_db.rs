//! Where a CA's records are: `DIR/ca.db` (SQLite, the default), or a PostgreSQL database
//! named by `--db URL` (or `PKIT_DATABASE_URL`) or recorded in `DIR/db.url` by
//! `pkit issue ca --db`, so that later commands find it without repeating it. Every
//! command that opens a CA's records takes the same [`DbArgs`]; an MTC CA's log
//! (`DIR/mtc.db`) is found the same way ([`server_url`]).

use super::error::{CliError, CliResult};
use super::io;
use pkit::pki::ca::create::{check_unused, CreateError};
use pkit::pki::ca::dir::{self as ca_dir, LocateError, Records};
use pkit::pki::ca::issue_one::IssueError;
use pkit::pki::ca::store::{self, CaStore, StoreError};
use pkit::store::url::without_password;
use std::path::Path;

pub use pkit::pki::ca::dir::URL_FILE;

/// A store error as one line naming what failed: `DIR/ca.db`, or for a CA whose records
/// are on a database server (whose URL was named when it was opened), the CA directory.
pub fn db_err(dir: &Path) -> impl Fn(StoreError) -> CliError + '_ {
    move |e| {
        if e.is_server() || dir.join(URL_FILE).is_file() {
            CliError::io(format!("{}: {e}", dir.display()))
        } else {
            CliError::io(format!("{}: {e}", dir.join("ca.db").display()))
        }
    }
}

/// A certificate not issued and recorded (`Issuer::issue_and_record`): the CA's refusal
/// as such, the records' error as [`db_err`] names it.
pub fn issue_err(dir: &Path) -> impl Fn(IssueError) -> CliError + '_ {
    move |e| match e {
        IssueError::Ca(e) => e.into(),
        IssueError::Store(e) => db_err(dir)(e),
    }
}

/// `--db`, `--db-passin`: the CA's records on a PostgreSQL server.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct DbArgs {
    /// The CA's records in a PostgreSQL database instead of DIR/ca.db (an MTC CA's
    /// DIR/mtc.db):
    /// postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full
    /// (or verify-ca) authenticates the server with the CA certificates in FILE (default
    /// ~/.postgresql/root.crt; `system`: the system's). `issue ca --db` records it
    /// (without a password) in DIR/db.url (so does `mtc ca new --db`), which later
    /// commands use when --db is not given.
    #[arg(
        long,
        value_name = "URL",
        env = "PKIT_DATABASE_URL",
        hide_env_values = true
    )]
    pub db: Option<String>,
    /// Password source for the --db server (pass:, env:, file:, fd:); default: the URL's
    /// own, else none.
    #[arg(long, value_name = "SRC")]
    pub db_passin: Option<String>,
}

/// `--db` (or its variable) when given, else the URL in `DIR/db.url`, else `DIR/ca.db`.
/// A URL given for a CA that has a `ca.db` is refused.
fn locate(dir: &Path, db: &DbArgs) -> CliResult<Records> {
    locate_file(dir, "ca.db", db)
}

/// The database server that holds the records of the CA in `dir` whose own file would
/// be `file` (`mtc.db`), or `None` when they are in that file.
pub fn server_url(dir: &Path, file: &str, db: &DbArgs) -> CliResult<Option<String>> {
    Ok(match locate_file(dir, file, db)? {
        Records::Server(url) => Some(url),
        Records::File(_) => None,
    })
}

/// Whether those records are on a database server: a server's handlers then wait on it
/// and answer beside their workers (`ServerOptions::blocking`). The URL only: the
/// password (`--db-passin fd:N`, read once) is not read here.
pub fn on_server(dir: &Path, file: &str, db: &DbArgs) -> CliResult<bool> {
    Ok(server_url(dir, file, db)?.is_some())
}

/// The password `--db-passin` gives, if any.
pub fn password(db: &DbArgs) -> CliResult<Option<Vec<u8>>> {
    db.db_passin.as_deref().map(io::read_secret).transpose()
}

/// [`locate`] for a CA whose own file is `file` (`pkit::pki::ca::dir::locate`), its
/// refusals named by the flag that asked.
fn locate_file(dir: &Path, file: &str, db: &DbArgs) -> CliResult<Records> {
    ca_dir::locate(dir, file, db.db.as_deref()).map_err(|e| match e {
        LocateError::NotAUrl(shown) => {
            CliError::usage(format!("--db {shown}: expected a postgres:// URL"))
        }
        // A CA whose records are in its ca.db is not moved by a URL (least of all one
        // left in the environment for another CA): its certificates are not there.
        LocateError::OwnFile(own) => CliError::usage(format!(
            "{}: this CA keeps its records there; --db (or PKIT_DATABASE_URL) names \
             another database",
            own.display()
        )),
        LocateError::BadRecordedUrl(path) => {
            CliError::io(format!("{}: expected a postgres:// URL", path.display()))
        }
        LocateError::Io(path, e) => CliError::io_at(&path.display().to_string(), &e),
        other => CliError::io(other.to_string()),
    })
}

fn open_server(url: &str, db: &DbArgs) -> CliResult<Box<dyn CaStore>> {
    let password = password(db)?;
    // TLS, when the URL asks for it or the server offers it, on the OpenSSL pkit links.
    store::open_url(url, password.as_deref(), pkit::tls::pg_connect::connect)
        .map_err(|e| CliError::io(format!("{}: {e}", without_password(url))))
}

/// Open the CA's records, which must already exist: a typo in `--ca` is an error, not a
/// new empty CA database.
pub fn open_store(dir: &Path, db: &DbArgs) -> CliResult<Box<dyn CaStore>> {
    match locate(dir, db)? {
        Records::Server(url) => open_server(&url, db),
        Records::File(path) => {
            if !path.is_file() {
                return Err(CliError::io(format!(
                    "{}: no CA database (create the CA with `pkit issue ca --dir {}`)",
                    path.display(),
                    dir.display()
                )));
            }
            store::open(&path).map_err(db_err(dir))
        }
    }
}

/// For a new CA in `dir` whose records go to a database server: open it (creating its
/// tables) before anything is written, so that a wrong URL or password changes nothing,
/// and check that it holds no other CA's certificates (one CA per database). The URL,
/// or `None` when the records go to `DIR/ca.db`.
pub fn check_new_server(dir: &Path, db: &DbArgs) -> CliResult<Option<String>> {
    let Records::Server(url) = locate(dir, db)? else {
        return Ok(None);
    };
    let s = open_server(&url, db)?;
    check_unused(s.as_ref()).map_err(|e| match e {
        CreateError::Store(e) => db_err(dir)(e),
        e => CliError::io(format!("{}: {e}", without_password(&url))),
    })?;
    Ok(Some(url))
}
