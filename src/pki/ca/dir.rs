//! A CA directory as every command that acts for a CA sees it: `DIR/ca.pem` (the CA
//! certificate), `DIR/ca.key` (its key, or the PKCS#11 URI of a key in a token), and its
//! records, which this file locates: `DIR/ca.db` (SQLite, the default; an MTC CA's `DIR/mtc.db`), or a database
//! on a PostgreSQL server named by a URL given for this run or recorded in `DIR/db.url`
//! when the CA was made, so that later runs find it without repeating it.

#![forbid(unsafe_code)]

use pkit_store::url::{is_url, without_password as shown};
use std::path::{Path, PathBuf};

/// The file in a CA directory that records its database's URL (without a password).
pub const URL_FILE: &str = "db.url";

/// Where a CA's records are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Records {
    /// A SQLite file in the directory.
    File(PathBuf),
    /// A PostgreSQL database, by URL.
    Server(String),
}

/// Why a CA directory's records could not be located.
#[derive(Debug)]
#[non_exhaustive]
pub enum LocateError {
    /// The URL given is not a `postgres://` URL (shown without its password).
    NotAUrl(String),
    /// A URL was given for a CA whose records are in its own file, at this path.
    OwnFile(PathBuf),
    /// The recorded URL file, at this path, holds something else.
    BadRecordedUrl(PathBuf),
    /// The recorded URL file could not be read.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for LocateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LocateError::NotAUrl(u) => write!(f, "{u}: expected a postgres:// URL"),
            LocateError::OwnFile(p) => write!(
                f,
                "{}: this CA keeps its records there, not in another database",
                p.display()
            ),
            LocateError::BadRecordedUrl(p) => {
                write!(f, "{}: expected a postgres:// URL", p.display())
            }
            LocateError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for LocateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LocateError::Io(_, e) => Some(e),
            _ => None,
        }
    }
}

/// Where the records of the CA in `dir`, whose own file would be `file` (`ca.db`,
/// `mtc.db`), are: `url` when given (refused for a CA that has its own file: its records
/// are not in another database, whatever the environment says), else the URL recorded in
/// `DIR/db.url`, else the file.
pub fn locate(dir: &Path, file: &str, url: Option<&str>) -> Result<Records, LocateError> {
    if let Some(url) = url.filter(|u| !u.is_empty()) {
        if !is_url(url) {
            return Err(LocateError::NotAUrl(shown(url)));
        }
        let own = dir.join(file);
        if own.is_file() {
            return Err(LocateError::OwnFile(own));
        }
        return Ok(Records::Server(url.to_string()));
    }
    let recorded = dir.join(URL_FILE);
    match std::fs::read_to_string(&recorded) {
        Ok(text) => {
            let url = text.trim();
            if !is_url(url) {
                return Err(LocateError::BadRecordedUrl(recorded));
            }
            Ok(Records::Server(url.to_string()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Records::File(dir.join(file))),
        Err(e) => Err(LocateError::Io(recorded, e)),
    }
}

/// The text `DIR/db.url` holds for `url`: the URL without its password.
pub fn url_file_text(url: &str) -> String {
    format!("{}\n", shown(url))
}

/// Make a new CA directory, readable by its owner only (0700: it holds the CA's key and
/// records), its parents as needed; one that exists already is used as it is.
pub fn create(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::DirBuilder::new().mode(0o700).create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_found_where_the_ca_keeps_them() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        assert_eq!(
            locate(dir, "ca.db", None).unwrap(),
            Records::File(dir.join("ca.db"))
        );
        let url = "postgres://ca@db.example/pkit";
        assert_eq!(
            locate(dir, "ca.db", Some(url)).unwrap(),
            Records::Server(url.into())
        );
        assert!(matches!(
            locate(dir, "ca.db", Some("ca.sqlite")),
            Err(LocateError::NotAUrl(_))
        ));
        std::fs::write(
            dir.join(URL_FILE),
            url_file_text("postgres://ca:secret@db/pkit"),
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join(URL_FILE)).unwrap(),
            "postgres://ca@db/pkit\n"
        );
        assert_eq!(
            locate(dir, "ca.db", None).unwrap(),
            Records::Server("postgres://ca@db/pkit".into())
        );
        std::fs::write(dir.join("ca.db"), b"").unwrap();
        assert!(matches!(
            locate(dir, "ca.db", Some(url)),
            Err(LocateError::OwnFile(_))
        ));
        std::fs::write(dir.join(URL_FILE), b"nonsense").unwrap();
        assert!(matches!(
            locate(dir, "ca.db", None),
            Err(LocateError::BadRecordedUrl(_))
        ));
    }
}
