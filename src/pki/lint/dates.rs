//! The days rules took effect and ended. A certificate is judged by the rules in force on
//! its notBefore (or on `--at`): a 2019 certificate of 825 days met the BRs of 2019.

/// A day a rule took effect or ended, and the document that says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dated {
    /// 00:00:00 UTC that day, in POSIX seconds.
    pub unix: i64,
    /// `YYYY-MM-DD`.
    pub date: &'static str,
    /// The ballot or section, e.g. "Ballot SC-31".
    pub cite: &'static str,
}

impl Dated {
    /// `date` is `YYYY-MM-DD`; anything else fails the build (these are constants).
    pub const fn new(date: &'static str, cite: &'static str) -> Dated {
        Dated {
            unix: date_unix(date),
            date,
            cite,
        }
    }
}

/// 00:00:00 UTC of `YYYY-MM-DD`, in POSIX seconds, at compile time.
pub const fn date(s: &str) -> i64 {
    date_unix(s)
}

const fn date_unix(s: &str) -> i64 {
    let b = s.as_bytes();
    assert!(
        b.len() == 10 && b[4] == b'-' && b[7] == b'-',
        "expected YYYY-MM-DD"
    );
    let y = digits(b, 0, 4);
    let m = digits(b, 5, 2);
    let d = digits(b, 8, 2);
    assert!(
        m >= 1 && m <= 12 && d >= 1 && d <= 31,
        "expected a calendar date"
    );
    days_from_civil(y, m, d) * 86_400
}

const fn digits(b: &[u8], from: usize, n: usize) -> i64 {
    let mut v = 0;
    let mut i = from;
    while i < from + n {
        assert!(b[i].is_ascii_digit(), "expected a digit");
        v = v * 10 + (b[i] - b'0') as i64;
        i += 1;
    }
    v
}

/// Days since 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse that
/// counts 400-year eras from 0000-03-01).
const fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days() {
        assert_eq!(date("1970-01-01"), 0);
        assert_eq!(date("2026-03-15"), 1_773_532_800);
        assert_eq!(date("2029-03-15"), 1_868_227_200);
        assert_eq!(date("2000-03-01"), 951_868_800);
    }
}
