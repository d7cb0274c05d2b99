//! Why a store's database could not be opened, whichever database it is: the stores
//! share these causes (a newer schema, a database that is not pkit's), and the commands
//! turn each into one line.

use std::fmt;

/// Why a database could not be opened.
#[derive(Debug)]
#[non_exhaustive]
pub enum OpenError {
    /// Opening or migrating an SQLite database failed.
    Sqlite(rusqlite::Error),
    /// Connecting to or migrating a PostgreSQL database failed.
    #[cfg(feature = "postgres")]
    Postgres(postgres::Error),
    /// The database was written by a newer pkit: its schema version, and the newest this
    /// build knows.
    TooNew {
        /// The schema version recorded in the database.
        found: i64,
        /// The newest schema version this build can read and write.
        known: i64,
    },
    /// The database holds tables but not pkit's: it is someone else's, and pkit leaves it
    /// alone rather than adding its tables beside theirs.
    Foreign(String),
    /// The location itself is wrong (a URL that cannot be parsed).
    Location(String),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Sqlite(e) => write!(f, "database: {e}"),
            #[cfg(feature = "postgres")]
            OpenError::Postgres(e) => write!(f, "database: {}", super::pg_error::one_line(e)),
            OpenError::TooNew { found, known } => write!(
                f,
                "database schema version {found} is newer than this pkit understands ({known})"
            ),
            OpenError::Foreign(m) | OpenError::Location(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Sqlite(e) => Some(e),
            #[cfg(feature = "postgres")]
            OpenError::Postgres(e) => Some(e),
            OpenError::TooNew { .. } | OpenError::Foreign(_) | OpenError::Location(_) => None,
        }
    }
}

impl From<rusqlite::Error> for OpenError {
    fn from(e: rusqlite::Error) -> Self {
        OpenError::Sqlite(e)
    }
}

#[cfg(feature = "postgres")]
impl From<postgres::Error> for OpenError {
    fn from(e: postgres::Error) -> Self {
        OpenError::Postgres(e)
    }
}
