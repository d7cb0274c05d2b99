//! CAA (RFC 8659) decisions over property sets, and look-ups against a DNS server on
//! 127.0.0.1.

use super::*;
use crate::store::{NewAuthz, SqliteAcme};
use std::net::UdpSocket;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn prop(critical: bool, tag: &str, value: &str) -> Property {
    Property {
        critical,
        tag: tag.into(),
        value: value.as_bytes().to_vec(),
    }
}

fn issue(value: &str) -> Property {
    prop(false, "issue", value)
}

fn issuewild(value: &str) -> Property {
    prop(false, "issuewild", value)
}

const ACCOUNT: &str = "https://acme.test/acct/7";

fn rq(wildcard: bool, method: &'static str) -> Request<'static> {
    Request {
        identity: "ca.example",
        wildcard,
        account_uri: ACCOUNT,
        method: ChallengeType::parse(method),
    }
}

fn allows(set: &[Property], wildcard: bool, method: &'static str) -> bool {
    evaluate(set, &rq(wildcard, method)).is_ok()
}

#[test]
fn issue_values_parse_as_rfc_8659_writes_them() {
    fn ok(v: &str) -> Option<IssueValue<'_>> {
        IssueValue::parse(v.as_bytes())
    }
    let none: Vec<(&str, &str)> = Vec::new();
    assert_eq!(
        ok("ca.example"),
        Some(IssueValue {
            issuer: Some("ca.example"),
            parameters: none.clone()
        })
    );
    assert_eq!(ok(" \tca.example \t").unwrap().issuer, Some("ca.example"));
    for empty in [";", "", " ; ", "\t;"] {
        assert_eq!(
            ok(empty),
            Some(IssueValue {
                issuer: None,
                parameters: none.clone()
            }),
            "{empty:?}"
        );
    }
    assert_eq!(
        ok("ca.example; accounturi=https://acme.test/acct/7 ;validationmethods = dns-01,http-01")
            .unwrap()
            .parameters,
        vec![
            ("accounturi", "https://acme.test/acct/7"),
            ("validationmethods", "dns-01,http-01"),
        ]
    );
    // A value may hold "=" and be empty; a name may start with a digit and hold "--".
    assert_eq!(
        ok("1ca--x.example;u=a=b;e=").unwrap().parameters,
        vec![("u", "a=b"), ("e", "")]
    );
    assert_eq!(ok("ca.example;").unwrap().parameters, none);
    for bad in [
        "ca..example",
        ".ca.example",
        "ca.example.",
        "-ca.example",
        "ca-.example",
        "ca_x.example",
        "ca.example a=b",
        "ca.example; a=b;",
        "ca.example;;",
        "ca.example; a=b;; c=d",
        "ca.example; =b",
        "ca.example; a b=c",
        "ca.example; -a=b",
        "ca.example; a=b c",
        "ca.example; a",
        "cä.example",
        "ca.example; a=\u{7f}",
    ] {
        assert_eq!(ok(bad), None, "{bad:?}");
    }
    assert_eq!(IssueValue::parse(b"ca.example\xff"), None);
}

#[test]
fn no_governing_property_restricts_nothing() {
    assert!(allows(&[], false, "http-01"));
    assert!(allows(&[], true, "dns-01"));
    let report_only = [prop(false, "iodef", "mailto:caa@example.test")];
    assert!(allows(&report_only, false, "http-01"));
    // issuewild does not govern a name that is not a wildcard.
    assert!(allows(&[issuewild(";")], false, "http-01"));
    // An unknown property that is not critical is ignored.
    assert!(allows(&[prop(false, "tbs", "anything")], false, "http-01"));
}

#[test]
fn issue_names_the_issuers_and_an_empty_one_forbids_all() {
    assert!(allows(&[issue("ca.example")], false, "http-01"));
    assert!(!allows(&[issue("other.example")], false, "http-01"));
    assert!(!allows(&[issue(";")], false, "http-01"));
    assert!(!allows(&[issue("")], false, "http-01"));
    // Any one property naming this CA is enough.
    assert!(allows(
        &[issue("other.example"), issue(";"), issue("ca.example")],
        false,
        "http-01"
    ));
    // Domains and tags compare case-insensitively.
    assert!(allows(&[issue("CA.Example")], false, "http-01"));
    assert!(allows(
        &[prop(false, "ISSUE", "ca.example")],
        false,
        "http-01"
    ));
    assert!(!allows(
        &[prop(false, "Issue", "other.example")],
        false,
        "http-01"
    ));
    // A malformed value grants nothing but still governs.
    assert!(!allows(&[issue("ca.example; bad")], false, "http-01"));
    assert!(allows(
        &[issue("ca.example; bad"), issue("ca.example")],
        false,
        "http-01"
    ));
    let why = evaluate(&[issue("other.example"), issue(";")], &rq(false, "http-01")).unwrap_err();
    assert!(
        why.contains("\"other.example\": names another issuer than ca.example"),
        "{why}"
    );
    assert!(why.contains("\";\": names no issuer"), "{why}");
}

#[test]
fn a_wildcard_is_governed_by_issuewild_when_there_is_one() {
    // issue allows, issuewild forbids: names yes, wildcards no.
    let no_wildcards = [issue("ca.example"), issuewild(";")];
    assert!(allows(&no_wildcards, false, "dns-01"));
    assert!(!allows(&no_wildcards, true, "dns-01"));
    // issuewild alone decides for wildcards, even against issue.
    let only_wildcards = [issue(";"), issuewild("ca.example")];
    assert!(!allows(&only_wildcards, false, "dns-01"));
    assert!(allows(&only_wildcards, true, "dns-01"));
    // Without issuewild, issue governs wildcards too.
    assert!(allows(&[issue("ca.example")], true, "dns-01"));
    assert!(!allows(&[issue("other.example")], true, "dns-01"));
    let why = evaluate(&no_wildcards, &rq(true, "dns-01")).unwrap_err();
    assert!(why.starts_with("issuewild \";\""), "{why}");
}

#[test]
fn a_critical_property_not_understood_forbids_issuance() {
    let set = [issue("ca.example"), prop(true, "tbs", "x")];
    let why = evaluate(&set, &rq(false, "http-01")).unwrap_err();
    assert!(why.contains("\"tbs\""), "{why}");
    assert!(!allows(&set, true, "dns-01"));
    // Critical and understood: as any other.
    assert!(allows(
        &[prop(true, "issue", "ca.example")],
        false,
        "http-01"
    ));
    assert!(allows(
        &[
            issue("ca.example"),
            prop(true, "iodef", "mailto:a@example.test")
        ],
        false,
        "http-01"
    ));
    assert!(allows(
        &[issue("ca.example"), prop(true, "IssueMail", ";")],
        false,
        "http-01"
    ));
}

#[test]
fn accounturi_must_name_the_ordering_account() {
    let mine = format!("ca.example; accounturi={ACCOUNT}");
    assert!(allows(&[issue(&mine)], false, "http-01"));
    assert!(!allows(
        &[issue("ca.example; accounturi=https://acme.test/acct/8")],
        false,
        "http-01"
    ));
    // Exact: no trailing slash, no other case.
    assert!(!allows(&[issue(&format!("{mine}/"))], false, "http-01"));
    assert!(!allows(
        &[issue("ca.example; accounturi=HTTPS://acme.test/acct/7")],
        false,
        "http-01"
    ));
    // Twice: satisfied by no account (RFC 8657 §3).
    let twice = format!("{mine}; accounturi={ACCOUNT}");
    assert!(!allows(&[issue(&twice)], false, "http-01"));
    // The parameter's tag in another case restricts as well.
    assert!(!allows(
        &[issue("ca.example; AccountURI=https://acme.test/acct/8")],
        false,
        "http-01"
    ));
    // One property for another account, one for this: allowed.
    assert!(allows(
        &[
            issue("ca.example; accounturi=https://acme.test/acct/8"),
            issue(&mine)
        ],
        false,
        "http-01"
    ));
    // Unknown parameters are ignored.
    assert!(allows(&[issue("ca.example; policy=ev")], false, "http-01"));
}

#[test]
fn validationmethods_must_list_the_challenge_used() {
    let both = [issue("ca.example; validationmethods=dns-01,http-01")];
    assert!(allows(&both, false, "http-01"));
    assert!(allows(&both, false, "dns-01"));
    assert!(!allows(&both, false, "tls-alpn-01"));
    let dns_only = [issue("ca.example; validationmethods=dns-01")];
    assert!(!allows(&dns_only, false, "http-01"));
    let why = evaluate(&dns_only, &rq(false, "http-01")).unwrap_err();
    assert!(why.contains("does not list http-01"), "{why}");
    for bad in [
        "ca.example; validationmethods=",
        "ca.example; validationmethods=dns-01,,http-01",
        "ca.example; validationmethods=http-01,",
        "ca.example; validationmethods=http_01",
        "ca.example; validationmethods=http-01; validationmethods=http-01",
    ] {
        assert!(!allows(&[issue(bad)], false, "http-01"), "{bad}");
    }
    // Both parameters at once: both must hold.
    let both_params = format!("ca.example; accounturi={ACCOUNT}; validationmethods=http-01");
    assert!(allows(&[issue(&both_params)], false, "http-01"));
    assert!(!allows(&[issue(&both_params)], false, "dns-01"));
}

/// Drive the climb with a lookup that answers from `zone` (name → RRset, or `None` for a
/// failure) and records the names asked.
fn climb(
    name: &str,
    zone: &[(&str, Option<Vec<Property>>)],
) -> (Result<Relevant, String>, Vec<String>) {
    let asked = std::cell::RefCell::new(Vec::new());
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let out = rt.block_on(relevant_rrset(name, |fqdn| {
        asked.borrow_mut().push(fqdn.clone());
        let answer = match zone.iter().find(|(n, _)| *n == fqdn) {
            Some((_, Some(set))) => Ok(set.clone()),
            Some((_, None)) => Err(format!("SERVFAIL at {fqdn}")),
            None => Ok(Vec::new()),
        };
        async move { answer }
    }));
    (out, asked.into_inner())
}

#[test]
fn the_relevant_rrset_is_found_climbing_to_the_parents() {
    let zone = [
        ("example.test.", Some(vec![issue("ca.example")])),
        ("deep.sub.example.test.", Some(vec![issue(";")])),
        ("broken.example.test.", None),
    ];
    let (found, asked) = climb("a.b.example.test", &zone);
    assert_eq!(
        found.unwrap(),
        Some(("example.test".to_string(), vec![issue("ca.example")]))
    );
    assert_eq!(
        asked,
        ["a.b.example.test.", "b.example.test.", "example.test."]
    );
    // The first non-empty set stops the climb: a child's records override its parent's.
    let (found, asked) = climb("deep.sub.example.test.", &zone);
    assert_eq!(found.unwrap().unwrap().0, "deep.sub.example.test");
    assert_eq!(asked.len(), 1);
    // None anywhere: up to the top-level domain, never the root.
    let (found, asked) = climb("www.other.test", &zone);
    assert_eq!(found.unwrap(), None);
    assert_eq!(asked, ["www.other.test.", "other.test.", "test."]);
    // A failed look-up ends the search with its error, not with a parent's records.
    let (found, asked) = climb("x.broken.example.test", &zone);
    assert_eq!(found.unwrap_err(), "SERVFAIL at broken.example.test.");
    assert_eq!(asked, ["x.broken.example.test.", "broken.example.test."]);
}

/// A DNS server on 127.0.0.1 (UDP) for these tests: CAA records from `zone` (the
/// wire-format RDATA of each, by lower-case FQDN), SERVFAIL for names under
/// `broken.test.`, an empty NOERROR answer for anything else. It counts the questions it
/// answers and ends 30 s after the last.
fn dns_server(zone: Vec<(&'static str, Property)>) -> (std::net::SocketAddr, Arc<AtomicUsize>) {
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let addr = sock.local_addr().unwrap();
    let asked = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&asked);
    std::thread::spawn(move || {
        let mut buf = [0u8; 1500];
        while let Ok((n, peer)) = sock.recv_from(&mut buf) {
            let q = &buf[..n];
            // The question's name: labels from byte 12 to a zero length.
            let mut at = 12;
            let mut labels = Vec::new();
            while at < q.len() && q[at] != 0 {
                let len = q[at] as usize;
                labels.push(String::from_utf8_lossy(&q[at + 1..at + 1 + len]).to_lowercase());
                at += 1 + len;
            }
            let question_end = at + 5;
            let qtype = u16::from_be_bytes([q[at + 1], q[at + 2]]);
            let fqdn = format!("{}.", labels.join("."));
            count.fetch_add(1, Ordering::SeqCst);
            let servfail = fqdn.ends_with("broken.test.");
            let answers: Vec<&Property> = zone
                .iter()
                .filter(|(n, _)| qtype == 257 && *n == fqdn && !servfail)
                .map(|(_, p)| p)
                .collect();
            let mut r = q[..2].to_vec();
            // QR, the query's opcode and RD, AA; RA; the response code.
            r.push(0x84 | (q[2] & 0x79));
            r.push(0x80 | if servfail { 2 } else { 0 });
            r.extend([0, 1]);
            r.extend((answers.len() as u16).to_be_bytes());
            r.extend([0, 0, 0, 0]);
            r.extend(&q[12..question_end]);
            for p in answers {
                let mut rdata = vec![if p.critical { 128 } else { 0 }, p.tag.len() as u8];
                rdata.extend(p.tag.as_bytes());
                rdata.extend(&p.value);
                // The question's name (a pointer to offset 12), CAA, IN, TTL 1.
                r.extend([0xc0, 12, 1, 1, 0, 1, 0, 0, 0, 1]);
                r.extend((rdata.len() as u16).to_be_bytes());
                r.extend(rdata);
            }
            let _ = sock.send_to(&r, peer);
        }
    });
    (addr, asked)
}

fn config(resolver: std::net::SocketAddr, identity: Option<&str>) -> AcmeConfig {
    AcmeConfig {
        resolver: Some(resolver),
        caa_identity: identity.map(str::to_string),
        ..AcmeConfig::for_tests("https://acme.test")
    }
}

fn test_zone() -> Vec<(&'static str, Property)> {
    vec![
        ("allow.test.", issue("ca.example")),
        ("forbid.test.", issue("other.example")),
        ("nowild.test.", issue("ca.example")),
        ("nowild.test.", issuewild(";")),
    ]
}

#[test]
fn check_asks_the_resolver_and_refuses_with_caa_or_dns() {
    let (addr, asked) = dns_server(test_zone());
    let c = config(addr, Some("ca.example"));
    let check =
        |name: &str, wildcard: bool| check(&c, name, wildcard, ACCOUNT, ChallengeType::Dns01);
    // www.allow.test has no records; allow.test's govern it.
    assert_eq!(check("www.allow.test", false), Ok(()));
    assert_eq!(asked.load(Ordering::SeqCst), 2);
    assert_eq!(check("www.nowild.test", false), Ok(()));
    assert_eq!(check("nowild.test", true).unwrap_err().kind, "caa");
    let p = check("forbid.test", false).unwrap_err();
    assert_eq!((p.kind, p.status), ("caa", 403));
    assert!(
        p.detail.starts_with(
            "the CAA records at forbid.test forbid ca.example to issue for forbid.test: issue"
        ),
        "{}",
        p.detail
    );
    let p = check("nowild.test", true).unwrap_err();
    assert!(
        p.detail.contains("for *.nowild.test: issuewild"),
        "{}",
        p.detail
    );
    // No CAA anywhere: allowed.
    assert_eq!(check("a.b.unset.test", false), Ok(()));
    // SERVFAIL refuses, naming the name.
    let p = check("www.broken.test", false).unwrap_err();
    assert_eq!(p.kind, "dns", "{p:?}");
    assert!(
        p.detail.starts_with("CAA for www.broken.test: "),
        "{}",
        p.detail
    );
    assert!(p.detail.contains("www.broken.test."), "{}", p.detail);
    // Without an identity nothing is asked.
    let before = asked.load(Ordering::SeqCst);
    let off = config(addr, None);
    assert_eq!(
        crate::caa::check(&off, "forbid.test", false, ACCOUNT, ChallengeType::Http01),
        Ok(())
    );
    assert_eq!(asked.load(Ordering::SeqCst), before);
}

/// An account with one order for `name`, its http-01 challenge validated at `at`: the
/// store and the order's authorizations.
fn validated(dir: &std::path::Path, name: &str, at: i64) -> (SqliteAcme, Vec<Authz>) {
    let mut db = SqliteAcme::open(&dir.join("acme.db")).unwrap();
    let account = db
        .create_account("thumb", "{}", b"spki", "[]", None, at)
        .unwrap();
    let authz = NewAuthz {
        id_type: "dns".into(),
        id_value: name.into(),
        wildcard: false,
        reuse: None,
        challenges: vec![(ChallengeType::Http01, "token".into())],
    };
    let order = db
        .create_order(
            account,
            "[]",
            None,
            None,
            (None, None),
            at + 86_400,
            &[authz],
            at,
        )
        .unwrap();
    let crate::store::Created::Order(order) = order else {
        panic!("{order:?}");
    };
    let authzs = db.order_authzs(order).unwrap();
    let challenge = db.challenges(authzs[0].id).unwrap()[0].id;
    assert!(db.start_challenge(challenge).unwrap());
    db.finish_challenge(challenge, None, at).unwrap();
    let authzs = db.order_authzs(order).unwrap();
    assert_eq!(authzs[0].status, "valid");
    (db, authzs)
}

#[test]
fn finalize_checks_again_an_authorization_older_than_a_check_stands() {
    let (addr, asked) = dns_server(test_zone());
    let c = config(addr, Some("ca.example"));
    let dir = tempfile::tempdir().unwrap();
    let at = 1_000_000;
    let (db, authzs) = validated(dir.path(), "forbid.test", at);
    // Fresh: the check made at validation stands, nothing is asked.
    assert_eq!(recheck(&db, &c, &authzs, at + STANDS_FOR - 1), Ok(()));
    assert_eq!(asked.load(Ordering::SeqCst), 0);
    // Older: asked again, with the method that validated it, and refused.
    let p = recheck(&db, &c, &authzs, at + STANDS_FOR).unwrap_err();
    assert_eq!(p.kind, "caa", "{p:?}");
    assert!(p.detail.contains("forbid.test"), "{}", p.detail);
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    // Without an identity: no check.
    assert_eq!(
        recheck(&db, &config(addr, None), &authzs, at + 2 * STANDS_FOR),
        Ok(())
    );
}

#[test]
fn a_resolver_that_never_answers_refuses_within_the_validation_time() {
    // Bound, never read: questions go unanswered.
    let silent = UdpSocket::bind("127.0.0.1:0").unwrap();
    let c = config(silent.local_addr().unwrap(), Some("ca.example"));
    let started = std::time::Instant::now();
    let p = check(&c, "www.allow.test", false, ACCOUNT, ChallengeType::Http01).unwrap_err();
    assert!(started.elapsed() <= crate::config::TIMEOUT + Duration::from_secs(2));
    assert_eq!((p.kind, p.status), ("dns", 400), "{p:?}");
    assert!(
        p.detail.starts_with("CAA for www.allow.test: "),
        "{}",
        p.detail
    );
}
