//! The servers' JSON log lines on stderr, one per request.
//!
//! On a worker thread lines are gathered in a buffer and written when the worker is about
//! to sleep (nothing left to answer) or the buffer passes [`FLUSH_AT`]: under load one
//! write carries many lines, and an idle server still writes each line at once. A write
//! per line was about a tenth of the CPU time of a cached `ocsp serve` answer (1.5 of
//! 12.6 µs, ab -k against a log on disk). Elsewhere (the `listening` and `shutdown`
//! lines) a line is written at once. Either way only whole lines are written, so workers
//! sharing stderr never interleave within a line.

use serde::Serialize;
use std::cell::RefCell;
use std::io::Write;

/// Past this many bytes a worker's lines are written without waiting for it to go idle.
const FLUSH_AT: usize = 32 * 1024;

thread_local! {
    /// The lines this thread has not written yet; `None` off the worker threads.
    static PENDING: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// One JSON line for stderr.
pub fn log_line(line: &impl Serialize) {
    PENDING.with(|p| match p.try_borrow_mut().as_deref_mut() {
        Ok(Some(buf)) => {
            let mark = buf.len();
            if serde_json::to_writer(&mut *buf, line).is_err() {
                buf.truncate(mark);
                return;
            }
            buf.push(b'\n');
            if buf.len() >= FLUSH_AT {
                write_out(buf);
            }
        }
        _ => {
            if let Ok(mut one) = serde_json::to_vec(line) {
                one.push(b'\n');
                write_out(&mut one);
            }
        }
    });
}

/// From now on, gather this thread's lines (see the module doc).
pub(crate) fn gather() {
    PENDING.with(|p| {
        if let Ok(mut p) = p.try_borrow_mut() {
            p.get_or_insert_with(|| Vec::with_capacity(FLUSH_AT + 1024));
        }
    });
}

/// Write what this thread has gathered.
pub(crate) fn flush() {
    PENDING.with(|p| {
        if let Ok(Some(buf)) = p.try_borrow_mut().as_deref_mut() {
            if !buf.is_empty() {
                write_out(buf);
            }
        }
    });
}

fn write_out(buf: &mut Vec<u8>) {
    // A log that cannot be written must not stop the answers.
    let _ = std::io::stderr().write_all(buf);
    buf.clear();
}
