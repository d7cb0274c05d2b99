//! How long a certificate is valid by default, and the CA/Browser Forum's maximum for TLS
//! server certificates on a given issuance date (Baseline Requirements §6.3.2, as amended
//! by ballot SC-081): 398 days before 2026-03-15, 200 days from then, 100 days from
//! 2027-03-15, 47 days from 2029-03-15.
//!
//! The BRs count a validity period inclusively (§1.6.4 "Validity Period": from notBefore
//! through notAfter), so `N` days is `notAfter = notBefore + N·86400 − 1` at most.

use super::profile::Profile;
use crate::der::Time;

/// The longest validity, in days, the BRs allow a TLS server certificate issued at `at`
/// (the schedule is the linter's, so what the CA defaults to and what its gate allows
/// cannot drift apart).
pub fn br_max_days(at: Time) -> u32 {
    u32::try_from(pkit_lint::br_max_validity_days(at.unix)).unwrap_or(u32::MAX)
}

/// A profile's default validity in days for a certificate issued at `at`: 90 days for a
/// TLS server (never above the BR maximum then in force), a year for clients and code
/// signing, 90 days for an OCSP signer (it is trusted without revocation checks, RFC 6960
/// §4.2.2.2.1, so it should not live long) and five years for an intermediate CA.
pub fn default_days(profile: Profile, at: Time) -> u32 {
    match profile {
        Profile::Server | Profile::ServerClient => 90.min(br_max_days(at)),
        Profile::Client | Profile::CodeSigning => 365,
        Profile::OcspSigner => 90,
        Profile::Ca => 5 * 365,
    }
}

/// The end of a validity of `days` days starting at `not_before`, counted inclusively as
/// the BRs count it: the last second is the one before `not_before` + `days` days.
pub fn not_after_for(not_before: Time, days: u32) -> Time {
    not_before.plus_seconds(i64::from(days) * 86_400 - 1)
}

/// A validity asked to end before it starts (or when it starts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndsBeforeStart {
    /// Its start.
    pub not_before: Time,
    /// The end asked for.
    pub not_after: Time,
}

impl std::fmt::Display for EndsBeforeStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the validity would end ({}) before it starts ({})",
            self.not_after, self.not_before
        )
    }
}

impl std::error::Error for EndsBeforeStart {}

/// The validity of a certificate of `profile` issued at `now`: from `not_before` (`now`
/// when not given) to `not_after` when given, else for `days` days (by default the
/// profile's, [`default_days`] on the start date), counted inclusively. A server validity
/// above the Baseline Requirements' maximum is allowed (a private CA may choose it): the
/// lint gate and the delivery speak of it.
pub fn window(
    profile: Profile,
    now: Time,
    not_before: Option<Time>,
    not_after: Option<Time>,
    days: Option<u32>,
) -> Result<(Time, Time), EndsBeforeStart> {
    let not_before = not_before.unwrap_or(now);
    let not_after = match not_after {
        Some(t) if t <= not_before => {
            return Err(EndsBeforeStart {
                not_before,
                not_after: t,
            })
        }
        Some(t) => t,
        None => not_after_for(
            not_before,
            days.unwrap_or_else(|| default_days(profile, not_before)),
        ),
    };
    Ok((not_before, not_after))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Time {
        Time::parse_rfc3339(s).unwrap()
    }

    #[test]
    fn the_br_steps_take_effect_on_their_dates() {
        assert_eq!(br_max_days(at("2026-03-14T23:59:59Z")), 398);
        assert_eq!(br_max_days(at("2026-03-15T00:00:00Z")), 200);
        assert_eq!(br_max_days(at("2027-03-15T00:00:00Z")), 100);
        assert_eq!(br_max_days(at("2029-03-14T00:00:00Z")), 100);
        assert_eq!(br_max_days(at("2029-03-15T00:00:00Z")), 47);
        assert_eq!(
            default_days(Profile::Server, at("2026-11-27T00:00:00Z")),
            90
        );
        assert_eq!(
            default_days(Profile::Server, at("2030-01-01T00:00:00Z")),
            47
        );
    }

    #[test]
    fn validity_is_counted_inclusively() {
        // §1.6.4: the first and the last second both count, so 200 days end one second
        // before notBefore + 200 × 86400.
        let nb = at("2026-11-27T00:00:00Z");
        let na = not_after_for(nb, 200);
        assert_eq!(na.unix - nb.unix + 1, 200 * 86_400);
    }

    #[test]
    fn a_window_from_its_start_by_days_or_to_its_end() {
        let now = at("2026-11-27T00:00:00Z");
        let later = at("2026-12-01T00:00:00Z");
        assert_eq!(
            window(Profile::Server, now, None, None, None).unwrap(),
            (now, not_after_for(now, 90))
        );
        assert_eq!(
            window(Profile::Client, now, Some(later), None, None).unwrap(),
            (later, not_after_for(later, 365))
        );
        assert_eq!(
            window(Profile::Ca, now, None, None, Some(10)).unwrap(),
            (now, not_after_for(now, 10))
        );
        assert_eq!(
            window(Profile::Server, now, None, Some(later), Some(10)).unwrap(),
            (now, later),
            "an end given wins over days"
        );
        let e = window(Profile::Server, later, None, Some(now), None).unwrap_err();
        assert_eq!(
            e,
            EndsBeforeStart {
                not_before: later,
                not_after: now
            }
        );
        assert!(window(Profile::Server, now, None, Some(now), None).is_err());
    }
}
