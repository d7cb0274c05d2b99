//! BR §6.3.2: how long a TLS subscriber certificate may be valid, by the rules in force
//! on the day it was issued (60 months, 39 months, 825 days, 398 days, then ballot
//! SC-081's steps down to 47 days).

use super::{br, tls, CORE};
use crate::finding::Level;
use crate::rule::Lint;

/// BR §6.3.2 (SC-081): the longest validity, in days, for a TLS subscriber certificate
/// issued at `at` (POSIX seconds).
pub fn max_validity_days(at: i64) -> i64 {
    const STEPS: [(i64, i64); 3] = [
        (1_773_532_800, 200), // 2026-03-15
        (1_805_068_800, 100), // 2027-03-15
        (1_868_227_200, 47),  // 2029-03-15
    ];
    STEPS
        .iter()
        .rev()
        .find(|(from, _)| at >= *from)
        .map_or(398, |(_, d)| *d)
}

/// The longest validity a TLS subscriber certificate issued at `at` may have, and the
/// rule that says so: BR 1.0 §9.4 (60 months), BR 1.x §6.3.2 (39 months from 2015-04-01;
/// 825 days from 2018-03-01, Ballot 193; 398 days from 2020-09-01, Ballot SC-31), then
/// ballot SC-081's steps.
pub(crate) fn validity_limit(at: i64) -> (Limit, &'static str) {
    use crate::dates::date;
    if at >= const { date("2026-03-15") } {
        (Limit::Days(max_validity_days(at)), "Ballot SC-081")
    } else if at >= const { date("2020-09-01") } {
        (Limit::Days(398), "Ballot SC-31")
    } else if at >= const { date("2018-03-01") } {
        (Limit::Days(825), "Ballot 193")
    } else if at >= const { date("2015-04-01") } {
        (Limit::Months(39), "BR 1.x §6.3.2")
    } else {
        (Limit::Months(60), "BR 1.0 §9.4")
    }
}

/// A validity limit, in days or in calendar months.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Limit {
    Days(i64),
    Months(i64),
}

impl Limit {
    /// Whether a validity from `nb` to `na` (inclusive, POSIX seconds) exceeds it.
    fn exceeded(self, nb: i64, na: i64) -> bool {
        match self {
            // §1.6.4: the validity period includes both its first and its last second.
            Limit::Days(d) => na - nb + 1 > d * 86_400,
            Limit::Months(m) => {
                // Calendar months, a day past the target month's end rolling into the
                // next (2017-01-31 + 39 months = 2020-05-01), as zlint's Go counts them.
                let c = crate::der::Time { unix: nb }.civil();
                let months = i64::from(c.month) - 1 + m;
                let first = crate::der::Time::from_civil(crate::der::Civil {
                    year: c.year + months / 12,
                    month: (months % 12 + 1) as u32,
                    day: 1,
                    ..c
                });
                first.is_some_and(|f| na > f.unix + (i64::from(c.day) - 1) * 86_400)
            }
        }
    }

    fn text(self) -> String {
        match self {
            Limit::Days(d) => format!("{d} days"),
            Limit::Months(m) => format!("{m} months"),
        }
    }
}

/// The rules of this file.
pub(crate) static LINTS: &[Lint] = &[br(
    "e_cabf_validity_too_long",
    Level::Error,
    "CA/B Forum TLS BR §6.3.2",
    CORE,
    tls,
    |c, r| {
        let Some((nb, na)) = c.validity() else { return };
        let (limit, rule) = validity_limit(c.at);
        if limit.exceeded(nb, na) {
            r.report(
                "tbsCertificate.validity",
                c.cert.validity_offset(),
                format!(
                    "{} days of validity; at most {} by the rules of {} ({rule})",
                    (na - nb + 86_400) / 86_400,
                    limit.text(),
                    crate::der::Time { unix: c.at }
                        .to_string()
                        .split('T')
                        .next()
                        .unwrap_or_default()
                ),
            );
        }
    },
)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_validity_schedule_by_issuance() {
        use crate::dates::date;
        let day = 86_400;
        assert_eq!(max_validity_days(1_773_532_799), 398);
        assert_eq!(max_validity_days(1_868_227_200), 47);
        let limit = |d: &str| validity_limit(date(d)).0;
        assert_eq!(limit("2013-01-01"), Limit::Months(60));
        assert_eq!(limit("2015-04-01"), Limit::Months(39));
        assert_eq!(limit("2018-02-28"), Limit::Months(39));
        assert_eq!(limit("2018-03-01"), Limit::Days(825));
        assert_eq!(limit("2020-08-31"), Limit::Days(825));
        assert_eq!(limit("2020-09-01"), Limit::Days(398));
        assert_eq!(limit("2026-03-15"), Limit::Days(200));
        assert_eq!(limit("2027-03-15"), Limit::Days(100));
        assert_eq!(limit("2029-03-15"), Limit::Days(47));
        // Inclusive of the last second (§1.6.4): 398 days end one second early.
        let nb = date("2021-01-01");
        assert!(!Limit::Days(398).exceeded(nb, nb + 398 * day - 1));
        assert!(Limit::Days(398).exceeded(nb, nb + 398 * day));
        // 39 calendar months from 2017-01-01 end on 2020-04-01; from 2017-01-31, on
        // 2020-05-01 (April has 30 days).
        let nb = date("2017-01-01");
        assert!(!Limit::Months(39).exceeded(nb, date("2020-04-01")));
        assert!(Limit::Months(39).exceeded(nb, date("2020-04-01") + 1));
        let nb = date("2017-01-31");
        assert!(!Limit::Months(39).exceeded(nb, date("2020-05-01")));
        assert!(Limit::Months(39).exceeded(nb, date("2020-05-01") + 1));
    }
}
