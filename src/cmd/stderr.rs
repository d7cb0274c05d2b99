//! `note!`: a line on stderr, as `eprintln!` writes it, except that a stderr that cannot
//! be written (a pipe whose reader left: `pkit lint -r dir 2>&1 | head`) loses the line
//! instead of panicking. A panic would abort the process with a signal in place of the
//! documented exit code of the run, whose result no longer depends on its messages.

/// Writes its `format!` arguments and a newline to stderr; a failed write is ignored.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
