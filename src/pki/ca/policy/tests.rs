//! The policy's rules read, matched and refused as ca.json and `issue policy` use them.

use super::*;

fn policy(allow: &[&str], deny: &[&str]) -> Policy {
    let s = |l: &[&str]| l.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    Policy::parse(&s(allow), &s(deny)).unwrap()
}

fn dns(p: &Policy, n: &str) -> Result<(), String> {
    p.check(&PolicyName::Dns(n)).map_err(|e| e.to_string())
}

#[test]
fn dns_exact_and_below() {
    let p = policy(&["DNS:*.corp.example", "DNS:www.example.com"], &[]);
    assert!(dns(&p, "a.corp.example").is_ok());
    assert!(dns(&p, "A.B.Corp.Example.").is_ok());
    assert!(dns(&p, "*.corp.example").is_ok());
    assert!(dns(&p, "*.x.corp.example").is_ok());
    assert!(dns(&p, "www.example.com").is_ok());
    let e = dns(&p, "corp.example").unwrap_err();
    assert!(
        e.contains(
            "not allowed by the CA's policy (allow DNS:*.corp.example, DNS:www.example.com)"
        ),
        "{e}"
    );
    assert!(dns(&p, "evilcorp.example").is_err());
    assert!(dns(&p, "*.example.com").is_err());
    assert!(dns(&p, "a.www.example.com").is_err());
}

#[test]
fn deny_wins_and_catches_wildcards_that_cover_it() {
    let p = policy(
        &["DNS:*.corp.example"],
        &["DNS:secret.corp.example", "DNS:*.lab.corp.example"],
    );
    let e = dns(&p, "secret.corp.example").unwrap_err();
    assert!(
        e.contains("denied by the CA's rule deny DNS:secret.corp.example"),
        "{e}"
    );
    // A wildcard one label above a denied name covers it.
    assert!(dns(&p, "*.corp.example").is_err());
    assert!(dns(&p, "x.y.lab.corp.example").is_err());
    assert!(dns(&p, "*.lab.corp.example").is_err());
    assert!(dns(&p, "lab.corp.example").is_ok());
    assert!(dns(&p, "*.other.corp.example").is_ok());
}

#[test]
fn a_type_without_allow_rules_is_refused_when_others_have_some() {
    let p = policy(&["DNS:*.corp.example"], &[]);
    let e = p
        .check(&PolicyName::Ip("10.0.0.1".parse().unwrap()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("allows no IP addresses"), "{e}");
    // Deny rules alone leave other names free.
    let p = policy(&[], &["IP:10.0.0.0/8"]);
    assert!(dns(&p, "anything.example").is_ok());
    assert!(p
        .check(&PolicyName::Ip("10.1.2.3".parse().unwrap()))
        .is_err());
    assert!(p
        .check(&PolicyName::Ip("11.1.2.3".parse().unwrap()))
        .is_ok());
}

#[test]
fn ip_networks() {
    let p = policy(&["IP:10.0.0.0/8", "IP:fd00::/8", "IP:192.0.2.7"], &[]);
    let ip = |s: &str| p.check(&PolicyName::Ip(s.parse().unwrap()));
    assert!(ip("10.255.0.1").is_ok());
    assert!(ip("11.0.0.1").is_err());
    assert!(ip("fd12::1").is_ok());
    assert!(ip("fe80::1").is_err());
    assert!(ip("192.0.2.7").is_ok());
    assert!(ip("192.0.2.8").is_err());
    // An IPv4-mapped IPv6 address is not the IPv4 address.
    assert!(ip("::ffff:10.0.0.1").is_err());
    let p = policy(&["IP:0.0.0.0/0"], &[]);
    assert!(p.check(&PolicyName::Ip("1.2.3.4".parse().unwrap())).is_ok());
}

#[test]
fn email_forms() {
    let p = policy(
        &[
            "email:@corp.example",
            "email:boss@example.com",
            "email:@*.lab.example",
        ],
        &[],
    );
    let em = |s: &str| p.check(&PolicyName::Email(s));
    assert!(em("anyone@CORP.example").is_ok());
    assert!(em("boss@example.com").is_ok());
    assert!(em("Boss@example.com").is_err());
    assert!(em("x@a.lab.example").is_ok());
    assert!(em("x@lab.example").is_err());
    assert!(em("x@sub.corp.example").is_err());
    assert!(em("@corp.example").is_err());
}

#[test]
fn uri_hosts() {
    let p = policy(&["URI:*.corp.example"], &[]);
    let u = |s: &str| p.check(&PolicyName::Uri(s));
    assert!(u("https://a.corp.example/x").is_ok());
    assert!(u("spiffe://user@svc.corp.example:8443/ns").is_ok());
    assert!(u("https://corp.example.evil.com/").is_err());
    assert!(u("urn:uuid:1234").is_err());
}

#[test]
fn bad_rules_say_what_was_expected() {
    for (rule, want) in [
        ("nothing", "expected TYPE:PATTERN"),
        (
            "DNS:a.*.example",
            "a wildcard may only be the whole first label",
        ),
        ("DNS:", "expected a host name"),
        ("IP:10.0.0.1/8", "bits set past the prefix"),
        ("IP:10.0.0.0/33", "prefix length of 0 to 32"),
        ("email:a@*.example", "a wildcard host takes no local part"),
        ("email:nobody", "expected a mailbox"),
        ("X400:foo", "unknown type 'x400'"),
    ] {
        let e = Rule::parse(rule).unwrap_err().0;
        assert!(e.starts_with(rule) && e.contains(want), "{rule}: {e}");
    }
}

#[test]
fn rules_are_removed_by_their_text_and_merged_once() {
    let mut p = policy(&["DNS:*.example.com"], &["DNS:bad.example.com"]);
    assert!(p.remove("DNS:bad.example.com"));
    assert!(!p.remove("DNS:bad.example.com"));
    p.merge(policy(
        &["DNS:*.example.com", "IP:10.0.0.0/8"],
        &["DNS:x.example.com"],
    ));
    assert_eq!(
        p.texts(),
        (
            vec!["DNS:*.example.com".to_string(), "IP:10.0.0.0/8".to_string()],
            vec!["DNS:x.example.com".to_string()]
        )
    );
}

#[test]
fn changes_clear_remove_then_add() {
    let texts = |p: &Policy| p.texts();
    let mut p = policy(&["DNS:*.corp.example"], &["IP:10.0.0.0/8"]);
    let change = PolicyChange {
        remove: vec!["IP:10.0.0.0/8".into()],
        add: policy(&["DNS:*.corp.example", "DNS:www.example.com"], &[]),
        ..PolicyChange::default()
    };
    assert!(!change.is_empty() && PolicyChange::default().is_empty());
    p.change(change).unwrap();
    assert_eq!(
        texts(&p),
        (
            vec![
                "DNS:*.corp.example".to_string(),
                "DNS:www.example.com".to_string()
            ],
            Vec::new()
        )
    );
    let missing = PolicyChange {
        remove: vec!["DNS:nope.example".into()],
        ..PolicyChange::default()
    };
    let e = p.clone().change(missing.clone()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "DNS:nope.example: the CA's policy has no such rule"
    );
    // Clearing first: a rule to remove need not be there.
    p.change(PolicyChange {
        clear: true,
        add: policy(&[], &["DNS:bad.example"]),
        ..missing
    })
    .unwrap();
    assert_eq!(texts(&p), (Vec::new(), vec!["DNS:bad.example".to_string()]));
}
