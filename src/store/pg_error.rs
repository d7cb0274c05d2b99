//! A PostgreSQL error as pkit shows it: one line. The client's own text says "db error"
//! and leaves the server's message to a source error, with its detail and hint on lines
//! of their own.

/// A PostgreSQL error as one line: the server's message (and its detail) for errors the
/// server sent, else the client's error and its causes. The client's own text puts a
/// server error's detail and hint on lines of their own.
pub fn one_line(e: &postgres::Error) -> String {
    let text = if let Some(db) = e.as_db_error() {
        match db.detail() {
            Some(d) => format!("{}: {} ({d})", db.severity(), db.message()),
            None => format!("{}: {}", db.severity(), db.message()),
        }
    } else {
        let mut s = e.to_string();
        let mut cause = std::error::Error::source(e);
        while let Some(c) = cause {
            s.push_str(": ");
            s.push_str(&c.to_string());
            cause = c.source();
        }
        s
    };
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
