//! The registry's shape: names unique, prefixed by level, sources named.

use crate::dates::date;
use crate::encoding;
use crate::finding::Level;
use crate::options::{RuleSet, Rules};
use crate::rule::Object;
use crate::run::lints;

#[test]
fn lint_names_are_unique_and_say_their_level() {
    let mut names: Vec<&str> = lints().map(|l| l.name).collect();
    for l in lints() {
        let prefix = match l.level {
            Level::Error => "e_",
            Level::Warning => "w_",
            Level::Notice => "n_",
        };
        assert!(l.name.starts_with(prefix), "{}", l.name);
        assert!(l.source.contains('§'), "{}: {}", l.name, l.source);
        assert!(
            l.until.is_none()
                || l.since
                    .is_none_or(|s| s.unix < l.until.map_or(0, |u| u.unix))
        );
    }
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n, "duplicate lint names");
}

#[test]
fn rule_sets_read_back() {
    for s in [
        "rfc5280",
        "rfc5280,cabf-tls-core",
        "rfc5280,cabf-tls",
        "none",
        "cabf-tls",
    ] {
        assert_eq!(Rules::parse(s).unwrap().name(), s);
    }
    assert!(Rules::parse("rfc5281").is_err());
    assert_eq!(Rules::default().name(), "rfc5280,cabf-tls-core");
}

#[test]
fn dated_rules_cite_their_source_and_end_after_they_start() {
    for l in lints() {
        for d in l.since.iter().chain(l.until.iter()) {
            assert!(!d.cite.is_empty(), "{}", l.name);
            assert_eq!(d.unix % 86_400, 0, "{}: {}", l.name, d.date);
        }
        if let (Some(a), Some(b)) = (l.since, l.until) {
            assert!(a.unix < b.unix, "{}", l.name);
        }
        // A BR rule of certificates is never older than the BRs (the CSR rules have no
        // date: a request is judged by today's rules).
        if l.object() == Object::Certificate
            && matches!(
                l.set,
                RuleSet::CabfTls | RuleSet::CabfTlsCore | RuleSet::CabfSmime
            )
        {
            assert!(
                l.since.is_some_and(|d| d.unix >= date("2012-07-01")),
                "{}",
                l.name
            );
        }
    }
    let cn = lints().find(|l| l.name == "e_cabf_eku_forbidden").unwrap();
    assert!(!cn.in_force(date("2020-08-19")));
    assert!(cn.in_force(date("2020-08-20")));
}

#[test]
fn deviations_are_reported_once_each_even_by_the_hundred_thousand() {
    let log = crate::der::Deviations::new();
    // Three walks over 100,000 entries, each logging the same deviation per entry, and a
    // second kind at one offset: one finding per (offset, kind), in offset order.
    for _ in 0..3 {
        for i in (0..100_000).rev() {
            log.push(i * 10, crate::der::ErrorKind::NonMinimalLength);
        }
    }
    log.push(50, crate::der::ErrorKind::InvalidBoolean);
    let found = encoding::deviation_findings(&log, "tbsCertList");
    assert_eq!(found.len(), 100_001);
    assert!(found.windows(2).all(|w| w[0].offset <= w[1].offset));
    assert_eq!(found.iter().filter(|f| f.offset == 50).count(), 2);
    assert!(log.is_empty());
}
