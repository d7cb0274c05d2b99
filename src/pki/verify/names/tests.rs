//! Name matching: host names, wildcards, IP addresses and mailboxes.

use super::*;
use crate::testcert::{self as tc, cert, dns, email, ip, san, uri, utf8_name};
use std::net::Ipv6Addr;

fn cn(v: &str) -> Vec<u8> {
    utf8_name(&[(oids::AT_COMMON_NAME, v)])
}

/// Whether a certificate with these SANs (and subject CN `subject_cn`) matches `id`.
fn check(sans: &[Vec<u8>], subject_cn: &str, id: Identity<'_>, fallback: bool) -> bool {
    let exts = if sans.is_empty() {
        vec![]
    } else {
        vec![san(sans)]
    };
    let der = cert(&cn(subject_cn), &exts);
    let c = Certificate::from_der(&der).unwrap();
    let rules = if fallback {
        Rules::Rfc5280
    } else {
        Rules::WebPki
    };
    matches(&c, &id, rules).unwrap()
}

fn host(sans: &[&str], reference: &str) -> bool {
    let sans: Vec<Vec<u8>> = sans.iter().map(|s| dns(s)).collect();
    let id = Identity::parse_dns(reference).unwrap();
    check(&sans, "unrelated", id, false)
}

#[test]
fn exact_case_insensitive_and_trailing_dots() {
    assert!(host(&["www.example.com"], "www.example.com"));
    assert!(host(&["WWW.Example.COM"], "www.example.com"));
    assert!(host(&["www.example.com"], "WWW.EXAMPLE.com"));
    assert!(host(&["www.example.com."], "www.example.com"));
    assert!(host(&["www.example.com"], "www.example.com."));
    assert!(host(&["www.example.com."], "www.example.com."));
    assert!(!host(&["www.example.com.."], "www.example.com"));
    assert!(!host(&["example.com"], "www.example.com"));
    assert!(!host(&["www.example.com"], "example.com"));
    assert!(!host(&["www.example.co"], "www.example.com"));
    // Any one of several SANs.
    assert!(host(&["a.example", "b.example", "c.example"], "b.example"));
}

#[test]
fn wildcards() {
    assert!(host(&["*.example.com"], "a.example.com"));
    assert!(host(&["*.EXAMPLE.com"], "A.example.COM"));
    assert!(host(&["*.example.com."], "a.example.com"));
    assert!(!host(&["*.example.com"], "example.com"));
    assert!(!host(&["*.example.com"], "a.b.example.com"));
    // Only the whole leftmost label.
    assert!(!host(&["f*.example.com"], "foo.example.com"));
    assert!(!host(&["*o.example.com"], "foo.example.com"));
    assert!(!host(&["a.*.example.com"], "a.b.example.com"));
    assert!(!host(&["*.*.example.com"], "a.b.example.com"));
    assert!(!host(&["**.example.com"], "a.example.com"));
    // Not over a single label.
    assert!(!host(&["*.com"], "example.com"));
    assert!(!host(&["*.com."], "example.com"));
    assert!(!host(&["*"], "localhost"));
    assert!(!host(&["*."], "localhost"));
    // The reference is never a pattern.
    assert!(Identity::parse_dns("*.example.com").is_err());
}

/// Under webpki a wildcard over a public suffix matches nothing, but the other SANs
/// of the same certificate still do (BR §3.2.2.6; Chrome's behaviour).
#[test]
fn public_suffix_wildcards_match_nothing_under_webpki() {
    let sans = [dns("*.co.uk"), dns("www.example.co.uk")];
    let web = |r: &str| check(&sans, "x", Identity::Dns(r), false);
    let rfc = |r: &str| check(&sans, "x", Identity::Dns(r), true);
    assert!(!web("foo.co.uk"));
    assert!(web("www.example.co.uk"));
    assert!(rfc("foo.co.uk"));
    assert!(!check(
        &[dns("*.s3.amazonaws.com")],
        "x",
        Identity::Dns("a.s3.amazonaws.com"),
        false
    ));
    assert!(check(
        &[dns("*.example.co.uk")],
        "x",
        Identity::Dns("a.example.co.uk"),
        false
    ));
}

#[test]
fn a_labels() {
    // IDNs compare in their ASCII form, case-insensitively.
    assert!(host(&["xn--bcher-kva.example"], "XN--BCHER-KVA.example"));
    assert!(host(
        &["*.xn--bcher-kva.example"],
        "shop.xn--bcher-kva.example"
    ));
    // A wildcard inside an A-label is no wildcard.
    assert!(!host(&["xn--*.example.com"], "xn--bcher-kva.example.com"));
    assert!(!host(
        &["xn--bcher-*.example.com"],
        "xn--bcher-kva.example.com"
    ));
    // U-labels are refused as references; in a SAN they match nothing.
    assert!(Identity::parse_dns("bücher.example").is_err());
}

#[test]
fn hostile_presented_names_never_match() {
    for p in [
        "",
        ".",
        "*",
        "*.",
        "..",
        ".example.com",
        "www..example.com",
        "www.example.com\0.evil",
        "www.example.com\0",
        " www.example.com",
        "www.example.com ",
    ] {
        assert!(!host(&[p], "www.example.com"), "{p:?}");
    }
    let long = format!("{}.example.com", "a".repeat(5000));
    assert!(!host(&[&long], "www.example.com"));
    let many = "a.".repeat(3000) + "example.com";
    assert!(!host(&[&many], "a.example.com"));
    // A non-ASCII byte makes the IA5String invalid: an error, not a match.
    let der = cert(&cn("x"), &[san(&[tc::gn(0x82, b"www.\xffexample.com")])]);
    let c = Certificate::from_der(&der).unwrap();
    assert!(matches(&c, &Identity::Dns("www.example.com"), Rules::Rfc5280).is_err());
    // An identity built by hand that the parser refuses matches nothing.
    assert!(!check(&[dns("*")], "x", Identity::Dns("*"), true));
    assert!(!check(&[dns("")], "x", Identity::Dns(""), true));
    assert!(!check(&[dns("a..b")], "x", Identity::Dns("a..b"), true));
}

#[test]
fn reference_host_names() {
    assert_eq!(
        Identity::parse_dns("Example.COM.").unwrap(),
        Identity::Dns("Example.COM")
    );
    assert!(Identity::parse_dns("_srv.example.com").is_ok());
    for bad in [
        "",
        ".",
        "a..b",
        ".a.b",
        "a.b..",
        "a b.example",
        "a\0.example",
        "-a.example",
        "a-.example",
        "192.0.2.1",
        "a/b",
    ] {
        assert!(Identity::parse_dns(bad).is_err(), "{bad:?}");
    }
    assert!(Identity::parse_dns(&"a".repeat(64)).is_err());
    assert!(Identity::parse_dns(&"a".repeat(63)).is_ok());
    let too_long = vec!["a".repeat(63); 4].join(".");
    assert!(Identity::parse_dns(&too_long).is_err());
}

#[test]
fn parse_picks_the_kind() {
    assert_eq!(
        Identity::parse("192.0.2.1").unwrap(),
        Identity::Ip("192.0.2.1".parse().unwrap())
    );
    assert_eq!(
        Identity::parse("[2001:db8::1]").unwrap(),
        Identity::Ip("2001:db8::1".parse().unwrap())
    );
    assert_eq!(
        Identity::parse("a@example.com").unwrap(),
        Identity::Email("a@example.com")
    );
    assert_eq!(
        Identity::parse("example.com").unwrap(),
        Identity::Dns("example.com")
    );
    assert!(Identity::parse("a@").is_err());
    assert!(Identity::parse("@example.com").is_err());
    assert!(Identity::parse("a b@example.com").is_err());
    assert!(Identity::parse("[example.com]").is_err());
}

#[test]
fn a_host_is_an_address_or_a_host_name_never_a_mailbox() {
    assert_eq!(
        Identity::parse_host("10.1.2.3").unwrap(),
        Identity::Ip("10.1.2.3".parse().unwrap())
    );
    // An IPv6 address as URLs and `--connect` targets write it.
    for v6 in ["[::1]", "::1"] {
        assert_eq!(
            Identity::parse_host(v6).unwrap(),
            Identity::Ip("::1".parse().unwrap()),
            "{v6}"
        );
    }
    assert_eq!(
        Identity::parse_host("Example.com.").unwrap(),
        Identity::Dns("Example.com")
    );
    let e = Identity::parse_host("a@example.com").unwrap_err();
    assert!(e.0.starts_with("host name \"a@example.com\""), "{e}");
    assert!(Identity::parse_host("[example.com]").is_err());
}

#[test]
fn cn_fallback_only_without_sans() {
    let id = Identity::Dns("www.example.com");
    // No SAN at all: the CN counts only with the fallback.
    assert!(check(&[], "www.example.com", id, true));
    assert!(!check(&[], "www.example.com", id, false));
    assert!(check(&[], "*.example.com", id, true));
    assert!(!check(&[], "example.com", id, true));
    // SANs of other types stop the fallback too: the CN would escape name
    // constraints, which read it only when there is no SAN.
    assert!(!check(&[ip(&[192, 0, 2, 1])], "www.example.com", id, true));
    // A DNS SAN does, even when it does not match.
    assert!(!check(
        &[dns("other.example.com")],
        "www.example.com",
        id,
        true
    ));
    // A single-label CN names no host (name constraints would not read it as one).
    assert!(!check(&[], "localhost", Identity::Dns("localhost"), true));
    // Every CN is tried.
    let subject = utf8_name(&[
        (oids::AT_COMMON_NAME, "Example Server"),
        (oids::AT_COMMON_NAME, "www.example.com"),
    ]);
    let der = cert(&subject, &[]);
    let c = Certificate::from_der(&der).unwrap();
    assert!(matches(&c, &id, Rules::Rfc5280).unwrap());
    // A CN that is not a string does not match and is no error.
    let mut w = crate::der::Writer::new();
    w.sequence(|w| {
        w.set(|w| {
            w.sequence(|w| {
                w.oid(&oids::AT_COMMON_NAME);
                w.integer_u64(7);
            });
        });
    });
    let der = cert(&w.finish(), &[]);
    let c = Certificate::from_der(&der).unwrap();
    assert!(!matches(&c, &id, Rules::Rfc5280).unwrap());
}

#[test]
fn ip_addresses() {
    let v4 = Identity::parse_ip("192.0.2.1").unwrap();
    let v6 = Identity::parse_ip("2001:db8::1").unwrap();
    let v6_bytes = "2001:db8::1".parse::<Ipv6Addr>().unwrap().octets();
    assert!(check(&[ip(&[192, 0, 2, 1])], "x", v4, false));
    assert!(!check(&[ip(&[192, 0, 2, 2])], "x", v4, false));
    assert!(check(&[ip(&v6_bytes)], "x", v6, false));
    assert!(!check(&[ip(&[192, 0, 2, 1])], "x", v6, false));
    // An IPv4-mapped IPv6 address is a different name.
    let mapped = "::ffff:192.0.2.1".parse::<Ipv6Addr>().unwrap().octets();
    assert!(!check(&[ip(&mapped)], "x", v4, false));
    // Never a DNS name or the CN, fallback or not.
    assert!(!check(&[dns("192.0.2.1")], "192.0.2.1", v4, true));
    assert!(!check(&[], "192.0.2.1", v4, true));
    assert!(!check(&[uri("https://192.0.2.1/")], "x", v4, true));
}

#[test]
fn email_addresses() {
    let id = Identity::parse_email("Alice@Example.COM").unwrap();
    assert!(check(&[email("Alice@example.com")], "x", id, false));
    assert!(check(&[email("Alice@EXAMPLE.com.")], "x", id, false));
    // The local part is case-sensitive.
    assert!(!check(&[email("alice@example.com")], "x", id, false));
    assert!(!check(&[email("Alice@other.example")], "x", id, false));
    // Host-only and hostile values match nothing.
    for p in [
        "example.com",
        "@example.com",
        "Alice@",
        "",
        "@",
        "Alice@example.com\0",
    ] {
        assert!(!check(&[email(p)], "x", id, false), "{p:?}");
    }
    // Not a DNS name, not the CN.
    assert!(!check(
        &[dns("Alice@Example.COM")],
        "Alice@Example.COM",
        id,
        true
    ));
    // The subject's emailAddress only with the fallback, only without rfc822Names.
    let subject = tc::name(&[
        (oids::AT_COMMON_NAME, crate::der::tag::UTF8_STRING, "Alice"),
        (
            oids::AT_EMAIL,
            crate::der::tag::IA5_STRING,
            "Alice@example.com",
        ),
    ]);
    let der = cert(&subject, &[]);
    let c = Certificate::from_der(&der).unwrap();
    assert!(matches(&c, &id, Rules::Rfc5280).unwrap());
    assert!(!matches(&c, &id, Rules::WebPki).unwrap());
    let der = cert(&subject, &[san(&[email("bob@example.com")])]);
    let c = Certificate::from_der(&der).unwrap();
    assert!(!matches(&c, &id, Rules::Rfc5280).unwrap());
}

#[test]
fn malformed_subject_alt_name_is_an_error() {
    let (oid, critical, _) = san(&[]);
    // A SEQUENCE holding a [9] element, which is no GeneralName.
    let der = cert(&cn("x"), &[(oid, critical, vec![0x30, 0x02, 0x89, 0x00])]);
    let c = Certificate::from_der(&der).unwrap();
    let err = matches(&c, &Identity::Dns("x.example"), Rules::WebPki).unwrap_err();
    assert!(err.path_string().starts_with("subjectAltName"), "{err:?}");
    // An empty GeneralNames is malformed too (SIZE (1..MAX)).
    let der = cert(&cn("x"), &[san(&[])]);
    let c = Certificate::from_der(&der).unwrap();
    assert!(matches(&c, &Identity::Dns("x.example"), Rules::Rfc5280).is_err());
}
