//! ACME Renewal Information (RFC 9773 §4.2): when a certificate should be renewed.

/// The suggested renewal window of a certificate valid from `not_before` to `not_after`
/// (POSIX seconds): the last third of its life begins the window, which lasts a fiftieth
/// of it (two days of a 90-day certificate, as Let's Encrypt suggests); a revoked one is
/// to be renewed now (a window that has begun).
pub fn window(not_before: i64, not_after: i64, revoked: bool, now: i64) -> (i64, i64) {
    if revoked {
        return (now - 3600, now);
    }
    let life = (not_after - not_before).max(1);
    let start = not_before + life * 2 / 3;
    (start, start + (life / 50).max(3600))
}

#[cfg(test)]
mod tests {
    #[test]
    fn windows() {
        let day = 86_400;
        let (s, e) = super::window(0, 90 * day, false, 0);
        assert_eq!((s, e), (60 * day, 60 * day + 90 * day / 50));
        let (s, e) = super::window(0, 90 * day, true, 1000);
        assert!(s < 1000 && e == 1000);
    }
}
