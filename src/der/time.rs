//! UTCTime and GeneralizedTime (X.680 §46–47, DER X.690 §11.7–11.8, RFC 5280 §4.1.2.5),
//! plus RFC 3339 for output and `--now`.

use super::error::{Error, ErrorKind, Result};
use super::reader::Reader;
use super::tag;
use std::fmt;

/// A UTC instant with one-second resolution, as X.509 uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    pub unix: i64,
}

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

/// Broken-down UTC time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    /// The year, in the proleptic Gregorian calendar.
    pub year: i64,
    /// Month of the year, 1 to 12.
    pub month: u32,
    /// Day of the month, from 1.
    pub day: u32,
    /// Hour of the day, 0 to 23.
    pub hour: u32,
    /// Minute of the hour, 0 to 59.
    pub minute: u32,
    /// Second of the minute, 0 to 59 (no leap seconds, as RFC 5280 §4.1.2.5 asks).
    pub second: u32,
}

impl Time {
    /// The instant a broken-down UTC time names; `None` when a field is out of range.
    pub fn from_civil(c: Civil) -> Option<Time> {
        if !(1..=12).contains(&c.month)
            || c.day == 0
            || c.day > days_in_month(c.year, c.month)
            || c.hour > 23
            || c.minute > 59
            || c.second > 59
        {
            return None;
        }
        let days = days_from_civil(c.year, c.month, c.day);
        Some(Time {
            unix: days * 86_400 + i64::from(c.hour * 3600 + c.minute * 60 + c.second),
        })
    }

    /// This instant broken down into UTC calendar fields.
    pub fn civil(&self) -> Civil {
        let days = self.unix.div_euclid(86_400);
        let secs = self.unix.rem_euclid(86_400) as u32;
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: secs / 3600,
            minute: secs / 60 % 60,
            second: secs % 60,
        }
    }

    /// The current time from the system clock.
    pub fn now() -> Time {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        Time { unix: secs }
    }

    /// RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050.
    pub fn uses_utc_time(&self) -> bool {
        (1950..2050).contains(&self.civil().year)
    }

    /// Parse RFC 3339 (`2026-01-02T03:04:05Z`, `…+02:00`, fractional seconds dropped), and
    /// a bare date `2026-01-02` as midnight UTC.
    pub fn parse_rfc3339(s: &str) -> Option<Time> {
        // RFC 3339 is ASCII; anything else is refused here, so that the byte positions
        // below are always character boundaries (the string may come from a request).
        if !s.is_ascii() {
            return None;
        }
        let b = s.as_bytes();
        let num = |r: std::ops::Range<usize>| -> Option<u32> {
            let part = s.get(r)?;
            part.bytes()
                .all(|c| c.is_ascii_digit())
                .then(|| part.parse().ok())?
        };
        if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let year = i64::from(num(0..4)?);
        let (month, day) = (num(5..7)?, num(8..10)?);
        if b.len() == 10 {
            return Time::from_civil(Civil {
                year,
                month,
                day,
                hour: 0,
                minute: 0,
                second: 0,
            });
        }
        if b.len() < 20 || !matches!(b[10], b'T' | b't' | b' ') || b[13] != b':' || b[16] != b':' {
            return None;
        }
        let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
        let mut rest = &s[19..];
        if let Some(frac) = rest.strip_prefix('.') {
            let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return None;
            }
            rest = &frac[digits..];
        }
        let offset: i64 = match rest.as_bytes() {
            b"Z" | b"z" => 0,
            // ±HH:MM, digits only (a sign inside would otherwise parse as a number).
            &[sign @ (b'+' | b'-'), h1, h2, b':', m1, m2]
                if [h1, h2, m1, m2].iter().all(u8::is_ascii_digit) =>
            {
                let digit = |c: u8| i64::from(c - b'0');
                let (h, m) = (digit(h1) * 10 + digit(h2), digit(m1) * 10 + digit(m2));
                if h > 23 || m > 59 {
                    return None;
                }
                (if sign == b'-' { -1 } else { 1 }) * (h * 3600 + m * 60)
            }
            _ => return None,
        };
        let t = Time::from_civil(Civil {
            year,
            month,
            day,
            hour,
            minute,
            second,
        })?;
        Some(Time {
            unix: t.unix - offset,
        })
    }

    /// The instant `secs` seconds later (earlier when negative), saturating at the ends of
    /// the `i64` range.
    pub fn plus_seconds(&self, secs: i64) -> Time {
        Time {
            unix: self.unix.saturating_add(secs),
        }
    }

    /// `YYMMDDHHMMSSZ` (years 1950–2049 only).
    pub fn to_utc_time_string(&self) -> String {
        String::from_utf8_lossy(&self.utc_time_bytes()).into_owned()
    }

    /// `YYYYMMDDHHMMSSZ`.
    pub fn to_generalized_string(&self) -> String {
        match self.generalized_time_bytes() {
            Some(b) => String::from_utf8_lossy(&b).into_owned(),
            // Outside 0000–9999 no GeneralizedTime exists; keep the digits readable.
            None => {
                let c = self.civil();
                format!(
                    "{:04}{:02}{:02}{:02}{:02}{:02}Z",
                    c.year, c.month, c.day, c.hour, c.minute, c.second
                )
            }
        }
    }

    /// The UTCTime content octets, written digit by digit: a large CRL encodes one time
    /// per entry, and going through `fmt` was a tenth of `crl gen`'s run time.
    pub fn utc_time_bytes(&self) -> [u8; 13] {
        let c = self.civil();
        let mut b = [b'Z'; 13];
        put_2digits(&mut b[0..2], c.year.rem_euclid(100) as u32);
        put_hms(&mut b[2..12], &c);
        b
    }

    /// The GeneralizedTime content octets, or `None` for a year outside 0000–9999.
    pub fn generalized_time_bytes(&self) -> Option<[u8; 15]> {
        let c = self.civil();
        let year = u32::try_from(c.year).ok().filter(|y| *y <= 9999)?;
        let mut b = [b'Z'; 15];
        put_2digits(&mut b[0..2], year / 100);
        put_2digits(&mut b[2..4], year % 100);
        put_hms(&mut b[4..14], &c);
        Some(b)
    }
}

fn put_2digits(out: &mut [u8], v: u32) {
    out[0] = b'0' + (v / 10 % 10) as u8;
    out[1] = b'0' + (v % 10) as u8;
}

/// `MMDDHHMMSS`.
fn put_hms(out: &mut [u8], c: &Civil) {
    for (i, v) in [c.month, c.day, c.hour, c.minute, c.second]
        .into_iter()
        .enumerate()
    {
        put_2digits(&mut out[2 * i..2 * i + 2], v);
    }
}

impl fmt::Display for Time {
    /// RFC 3339, UTC: `2026-01-02T03:04:05Z`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.civil();
        if !(0..=9999).contains(&c.year) {
            return write!(
                f,
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
                c.year, c.month, c.day, c.hour, c.minute, c.second
            );
        }
        // Digits into a fixed buffer: verdicts and listings print thousands of times,
        // and the padded `write!` costs several times the date arithmetic.
        let mut b = *b"0000-00-00T00:00:00Z";
        let y = c.year as u32;
        for (i, d) in [y / 1000, y / 100 % 10, y / 10 % 10, y % 10]
            .into_iter()
            .enumerate()
        {
            b[i] = b'0' + d as u8;
        }
        for (at, v) in [
            (5, c.month),
            (8, c.day),
            (11, c.hour),
            (14, c.minute),
            (17, c.second),
        ] {
            b[at] = b'0' + (v / 10) as u8;
            b[at + 1] = b'0' + (v % 10) as u8;
        }
        f.pad(std::str::from_utf8(&b).map_err(|_| fmt::Error)?)
    }
}

fn two(b: &[u8], i: usize) -> Option<u32> {
    let (h, l) = (*b.get(i)?, *b.get(i + 1)?);
    (h.is_ascii_digit() && l.is_ascii_digit())
        .then(|| u32::from(h - b'0') * 10 + u32::from(l - b'0'))
}

/// Decode UTCTime content. DER: `YYMMDDHHMMSSZ` exactly; lenient also takes missing
/// seconds and `±hhmm` offsets (both seen in old certificates).
pub fn parse_utc_time(r: &Reader<'_>, b: &[u8], offset: usize) -> Result<Time> {
    let bad = |why| Error::new(offset, ErrorKind::InvalidTime(why));
    // `YYYYMMDDHHMMSSZ` in a UTCTime: a GeneralizedTime under the wrong tag, seen in the
    // wild. Lenient mode reads the four-digit year; strict mode refuses below.
    if b.len() == 15 && b[14] == b'Z' && b.iter().take(14).all(u8::is_ascii_digit) {
        r.deviate(
            offset,
            ErrorKind::InvalidTime("a four-digit year in a UTCTime"),
        )?;
        return parse_generalized_time(r, b, offset);
    }
    let yy = two(b, 0).ok_or(bad("UTCTime YYMMDD digits"))?;
    let year = if yy >= 50 {
        1900 + i64::from(yy)
    } else {
        2000 + i64::from(yy)
    };
    parse_rest(r, b, 2, year, offset, "UTCTime")
}

/// Decode GeneralizedTime content. DER: `YYYYMMDDHHMMSS[.fff]Z`, no trailing zeros in the
/// fraction; RFC 5280 also forbids the fraction, which pkit tolerates and drops.
pub fn parse_generalized_time(r: &Reader<'_>, b: &[u8], offset: usize) -> Result<Time> {
    let bad = |why| Error::new(offset, ErrorKind::InvalidTime(why));
    let year = i64::from(
        two(b, 0).ok_or(bad("GeneralizedTime YYYY digits"))? * 100
            + two(b, 2).ok_or(bad("GeneralizedTime YYYY digits"))?,
    );
    parse_rest(r, b, 4, year, offset, "GeneralizedTime")
}

fn parse_rest(
    r: &Reader<'_>,
    b: &[u8],
    mut i: usize,
    year: i64,
    offset: usize,
    kind: &'static str,
) -> Result<Time> {
    let bad = |why| Error::new(offset, ErrorKind::InvalidTime(why));
    let month = two(b, i).ok_or(bad("month digits"))?;
    let day = two(b, i + 2).ok_or(bad("day digits"))?;
    let hour = two(b, i + 4).ok_or(bad("hour digits"))?;
    let minute = two(b, i + 6).ok_or(bad("minute digits"))?;
    i += 8;
    let second = match two(b, i) {
        Some(s) => {
            i += 2;
            s
        }
        None => {
            r.deviate(offset, ErrorKind::InvalidTime("seconds missing"))?;
            0
        }
    };
    if kind == "GeneralizedTime" && b.get(i) == Some(&b'.') {
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return Err(bad("digits after the decimal point"));
        }
        if b[i + digits] == b'0' {
            r.deviate(
                offset,
                ErrorKind::InvalidTime("trailing zero in fractional seconds"),
            )?;
        }
        i += 1 + digits;
    }
    let mut shift: i64 = 0;
    match &b[i..] {
        b"Z" => {}
        [sign @ (b'+' | b'-'), rest @ ..] if rest.len() == 4 => {
            r.deviate(
                offset,
                ErrorKind::InvalidTime("a local offset instead of Z"),
            )?;
            let hh = two(rest, 0).ok_or(bad("offset digits"))?;
            let mm = two(rest, 2).ok_or(bad("offset digits"))?;
            let s = i64::from(hh * 3600 + mm * 60);
            shift = if *sign == b'+' { s } else { -s };
        }
        [] => {
            r.deviate(offset, ErrorKind::InvalidTime("no Z (local time)"))?;
        }
        _ => return Err(bad("a trailing Z")),
    }
    let t = Time::from_civil(Civil {
        year,
        month,
        day,
        hour,
        minute,
        second,
    })
    .ok_or(bad("a real calendar date and time"))?;
    Ok(Time {
        unix: t.unix - shift,
    })
}

impl<'a> Reader<'a> {
    /// `Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }` (RFC 5280).
    pub fn read_time(&mut self) -> Result<Time> {
        let tlv = self.read_tlv()?;
        match tlv.tag {
            tag::UTC_TIME => parse_utc_time(self, tlv.content, tlv.content_offset()),
            tag::GENERALIZED_TIME => {
                parse_generalized_time(self, tlv.content, tlv.content_offset())
            }
            found => Err(Error::new(
                tlv.offset,
                ErrorKind::UnexpectedTag {
                    expected: tag::UTC_TIME,
                    found,
                },
            )),
        }
    }

    /// Read a GeneralizedTime: `YYYYMMDDHHMMSSZ` in DER (X.690 §11.7); a lenient reader
    /// logs the BER forms it accepts.
    pub fn read_generalized_time(&mut self) -> Result<Time> {
        let tlv = self.read_expect(tag::GENERALIZED_TIME)?;
        parse_generalized_time(self, tlv.content, tlv.content_offset())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::Deviations;

    fn utc(s: &str) -> Result<Time> {
        parse_utc_time(&Reader::new(&[]), s.as_bytes(), 0)
    }
    fn gen(s: &str) -> Result<Time> {
        parse_generalized_time(&Reader::new(&[]), s.as_bytes(), 0)
    }

    #[test]
    fn encodes_digits_without_fmt() {
        // 2049-12-31T23:59:58Z and 1950-01-01T00:00:00Z, the UTCTime window's ends.
        let late = Time {
            unix: 2_524_607_998,
        };
        assert_eq!(&late.utc_time_bytes(), b"491231235958Z");
        assert_eq!(late.generalized_time_bytes().unwrap(), *b"20491231235958Z");
        let early = Time { unix: -631_152_000 };
        assert_eq!(&early.utc_time_bytes(), b"500101000000Z");
        // Year 10000 has no GeneralizedTime; the string keeps its five digits.
        let far = Time {
            unix: 253_402_300_800,
        };
        assert!(far.generalized_time_bytes().is_none());
        assert_eq!(far.to_generalized_string(), "100000101000000Z");
    }

    #[test]
    fn utc_time_windows() {
        assert_eq!(
            utc("491231235959Z").unwrap().to_string(),
            "2049-12-31T23:59:59Z"
        );
        assert_eq!(
            utc("500101000000Z").unwrap().to_string(),
            "1950-01-01T00:00:00Z"
        );
        assert_eq!(utc("700101000000Z").unwrap().unix, 0);
    }

    #[test]
    fn strict_rejects_and_lenient_accepts() {
        assert!(utc("7001010000Z").is_err());
        assert!(utc("700101000000+0100").is_err());
        assert!(utc("700132000000Z").is_err());
        assert!(utc("700230000000Z").is_err());
        assert!(utc("700101000000").is_err());
        assert!(gen("20000229000000Z").is_ok());
        assert!(gen("19000229000000Z").is_err());
        assert!(gen("20240101000000.50Z").is_err());
        assert_eq!(
            gen("20240101000000.5Z").unwrap().to_string(),
            "2024-01-01T00:00:00Z"
        );
        let log = Deviations::new();
        let r = Reader::lenient(&[], &log);
        let t = parse_utc_time(&r, b"700101010000+0100", 0).unwrap();
        assert_eq!(t.unix, 0);
        assert_eq!(parse_utc_time(&r, b"7001010000Z", 0).unwrap().unix, 0);
        assert_eq!(log.take().len(), 2);
    }

    #[test]
    fn round_trips() {
        for t in [0i64, 951_782_400, 2_524_608_000, 253_402_300_799] {
            let time = Time { unix: t };
            assert_eq!(gen(&time.to_generalized_string()).unwrap(), time);
            assert_eq!(Time::parse_rfc3339(&time.to_string()).unwrap(), time);
        }
        assert_eq!(
            Time::parse_rfc3339("2026-01-02T03:04:05+01:00")
                .unwrap()
                .to_string(),
            "2026-01-02T02:04:05Z"
        );
        assert_eq!(
            Time::parse_rfc3339("2026-01-02").unwrap().to_string(),
            "2026-01-02T00:00:00Z"
        );
        assert_eq!(Time { unix: 0 }.to_string(), "1970-01-01T00:00:00Z");
        assert_eq!(
            Time {
                unix: -62_135_596_800
            }
            .to_string(),
            "0001-01-01T00:00:00Z"
        );
        assert_eq!(
            Time {
                unix: 253_402_300_800
            }
            .to_string(),
            "10000-01-01T00:00:00Z"
        );
        assert_eq!(
            format!("{:>22}", Time { unix: 0 }),
            "  1970-01-01T00:00:00Z"
        );
        assert!(Time::parse_rfc3339("2026-13-02").is_none());
        assert!(Time::parse_rfc3339("yesterday").is_none());
    }

    /// Offsets are `±HH:MM` in digits; anything else, including text that is not ASCII
    /// where a digit or the colon should be (an ACME client's notBefore reaches this), is
    /// refused, never a panic.
    #[test]
    fn refuses_malformed_offsets() {
        for bad in [
            "2024-01-01T00:00:00+0\u{e9}00",
            "2024-01-01T00:00:00+01\u{e9}0",
            "2024-01-01T00:00:0\u{e9}Z",
            "2024-01-01T00:00:00++1:00",
            "2024-01-01T00:00:00+1:000",
            "2024-01-01T00:00:00+24:00",
            "2024-01-01T00:00:00+01:60",
            "2024-01-01T00:00:00.Z",
            "\u{e9}\u{e9}\u{e9}\u{e9}-01-01",
        ] {
            assert!(Time::parse_rfc3339(bad).is_none(), "{bad}");
        }
        assert_eq!(
            Time::parse_rfc3339("2024-01-01T00:00:00-23:59")
                .unwrap()
                .unix,
            1_704_067_200 + 23 * 3600 + 59 * 60
        );
    }
}
