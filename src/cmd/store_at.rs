//! Where a store that lives beside a CA's records is — an MTC CA's log, a CA's ACME
//! state: on the database server that holds the records (`--db`, or the URL recorded in
//! `DIR/db.url`), reached with `--db-passin`'s password; else in a file of the CA
//! directory, which must already exist unless it is being made. Both `pkit mtc` and
//! `pkit acme` open their stores through here, so a CA's stores are found one way.

use super::ca_db::{password, server_url, DbArgs};
use super::error::{CliError, CliResult};
use pkit::store::url::without_password;
use std::path::{Path, PathBuf};

/// Where the store is.
pub enum StoreAt {
    /// On the CA's database server.
    Server {
        /// The server's URL.
        url: String,
        /// The URL as messages show it (without its password).
        name: String,
        /// `--db-passin`'s password, when given.
        password: Option<Vec<u8>>,
    },
    /// In the CA directory.
    File {
        /// The file.
        path: PathBuf,
        /// The file as messages show it.
        name: String,
    },
}

/// Where the store of the CA in `dir` is, whose own records file would be `records`
/// (`ca.db`, `mtc.db`): the records' server when they are on one, else `file`. With
/// `missing`, the file must exist, and its absence is the error `missing` makes of it (a
/// typo in a directory is an error, not a new empty store).
pub fn locate(
    dir: &Path,
    records: &str,
    file: PathBuf,
    db: &DbArgs,
    missing: Option<&dyn Fn(&Path) -> CliError>,
) -> CliResult<StoreAt> {
    if let Some(url) = server_url(dir, records, db)? {
        return Ok(StoreAt::Server {
            name: without_password(&url),
            password: password(db)?,
            url,
        });
    }
    if let Some(missing) = missing {
        if !file.is_file() {
            return Err(missing(&file));
        }
    }
    Ok(StoreAt::File {
        name: file.display().to_string(),
        path: file,
    })
}
