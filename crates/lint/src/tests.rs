//! The registry's shape: names unique, prefixed by level, sources named.

use super::*;

#[test]
fn lint_names_are_unique_and_say_their_level() {
    let mut names: Vec<&str> = certificate_lints()
        .map(|l| l.name)
        .chain(crl::LINTS.iter().map(|l| l.name))
        .chain(ocsp::lints().map(|l| l.0))
        .collect();
    for l in certificate_lints() {
        let prefix = match l.level {
            Level::Error => "e_",
            Level::Warning => "w_",
            Level::Notice => "n_",
        };
        assert!(l.name.starts_with(prefix), "{}", l.name);
        assert!(l.source.contains('§'), "{}: {}", l.name, l.source);
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
