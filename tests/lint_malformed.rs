//! `pkit lint` on objects that are wrong in the ways RFC 5280 names
//! (`tests/common/malformed.rs`, one per class): each is linted, never refused (exit 1,
//! not 3), with the finding of its class; a part that does not decode is a finding of its
//! own, and the lints that need it are reported as not run instead of calling the part
//! missing. `pkit parse --lenient` reads each too.

mod common;

use common::{json_items, pk, s, write_file};
use serde_json::Value;

#[test]
fn every_malformation_is_linted_with_its_finding() {
    let t = common::tempdir();
    let cases = common::malformed::all();
    let files: Vec<String> = cases
        .iter()
        .map(|m| s(&write_file(t.path(), &format!("{}.der", m.name), &m.der)))
        .collect();
    let mut args = vec!["lint", "-f", "json", "--rules", "rfc5280,cabf-tls-core"];
    args.extend(files.iter().map(String::as_str));
    let r = pk(&args);
    // Findings, so 1; never 3 (refused) nor a crash.
    assert_eq!(r.code, Some(1), "{}", r.describe());
    let items = json_items(&r);
    assert_eq!(items.len(), cases.len(), "{}", r.describe());
    for (m, file) in cases.iter().zip(&files) {
        let item = items
            .iter()
            .find(|i| i["source"] == file.as_str())
            .unwrap_or_else(|| panic!("{}: not linted\n{}", m.name, r.describe()));
        let findings = item["findings"].as_array().unwrap();
        let named = |lint: &'static str| findings.iter().filter(move |f| f["lint"] == lint);
        assert!(
            named(m.lint).any(|f| {
                let text = format!("{} {}", f["path"], f["message"]);
                text.contains(m.message)
            }),
            "{}: expected {} ({:?}), got {}",
            m.name,
            m.lint,
            m.message,
            serde_json::to_string_pretty(item).unwrap()
        );
        for f in named(m.lint) {
            // Each finding names its field and points into the object.
            assert!(!f["path"].as_str().unwrap().is_empty(), "{}: {f}", m.name);
            assert!(
                f["offset"].as_u64().unwrap() < m.der.len() as u64,
                "{}: {f}",
                m.name
            );
        }
        for lint in m.absent {
            assert!(
                named(lint).next().is_none(),
                "{}: {lint} must not fire on a part that is there: {}",
                m.name,
                serde_json::to_string_pretty(item).unwrap()
            );
        }
        let not_run: Vec<&Value> = item["not_run"].as_array().unwrap().iter().collect();
        for lint in m.not_run {
            assert!(
                not_run.iter().any(|n| n["lint"] == *lint),
                "{}: {lint} should be reported as not run: {}",
                m.name,
                serde_json::to_string_pretty(item).unwrap()
            );
        }
    }
}

#[test]
fn parse_lenient_reads_what_lint_lints() {
    let t = common::tempdir();
    let mut refused = Vec::new();
    for m in common::malformed::all() {
        let f = s(&write_file(t.path(), &format!("{}.der", m.name), &m.der));
        let r = pk(&["parse", "--lenient", &f]);
        if r.code != Some(0) {
            refused.push(format!("{}: {}", m.name, r.describe()));
        }
    }
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}
