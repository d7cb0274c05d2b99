//! Unit tests of `constraints.rs`.

use super::*;
use crate::der::{tag, Oid, Writer};
use crate::testcert::{
    cert, dir, dns, email, ip, name, name_constraints, raw_name_constraints, san, uri, utf8_name,
};

fn cn(v: &str) -> Vec<u8> {
    utf8_name(&[(oids::AT_COMMON_NAME, v)])
}

/// A state after one CA (subject `ca`) with these permitted and excluded bases.
fn state(permitted: &[Vec<u8>], excluded: &[Vec<u8>]) -> NameConstraintState {
    let mut s = NameConstraintState::new();
    add(&mut s, "CA 1", permitted, excluded);
    s
}

fn add(s: &mut NameConstraintState, ca: &str, permitted: &[Vec<u8>], excluded: &[Vec<u8>]) {
    let der = cert(&cn(ca), &[name_constraints(permitted, excluded)]);
    s.update(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
        .unwrap();
}

/// Check a leaf with this subject and these SANs.
fn leaf(s: &NameConstraintState, subject: &[u8], sans: &[Vec<u8>]) -> Result<(), String> {
    let exts = if sans.is_empty() {
        vec![]
    } else {
        vec![san(sans)]
    };
    let der = cert(subject, &exts);
    s.check(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
        .map_err(|e| e.to_string())
}

/// A leaf with an empty subject and one SAN.
fn one(s: &NameConstraintState, n: Vec<u8>) -> Result<(), String> {
    leaf(s, &name(&[]), &[n])
}

fn other_name() -> Vec<u8> {
    other_name_of(&Oid::new("1.3.6.1.4.1.311.20.2.3"), "user@example.com")
}

fn other_name_of(oid: &Oid, value: &str) -> Vec<u8> {
    let mut w = Writer::new();
    w.tlv(0xa0, |w| {
        w.oid(oid);
        w.explicit(0, |w| {
            w.utf8_string(value);
        });
    });
    w.finish()
}

#[test]
fn nothing_constrained_passes_everything() {
    let s = NameConstraintState::new();
    assert!(s.is_unconstrained());
    assert!(one(&s, dns("anything.example")).is_ok());
    assert!(one(&s, dns("")).is_ok());
    // A CA without the extension changes nothing.
    let mut s = NameConstraintState::new();
    let der = cert(&cn("CA"), &[]);
    s.update(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
        .unwrap();
    assert!(s.is_unconstrained());
}

#[test]
fn dns_permitted() {
    let s = state(&[dns("example.com")], &[]);
    for ok in [
        "example.com",
        "www.example.com",
        "a.b.example.com",
        "*.example.com",
        "WWW.EXAMPLE.COM.",
    ] {
        assert!(one(&s, dns(ok)).is_ok(), "{ok}");
    }
    for bad in ["badexample.com", "example.org", "example.com.evil", "com"] {
        let err = one(&s, dns(bad)).unwrap_err();
        assert!(err.contains(bad), "{err}");
        assert!(err.contains("dNSName \"example.com\""), "{err}");
        assert!(err.contains("CN=CA 1"), "{err}");
    }
    // Leading dot: below the domain only.
    let s = state(&[dns(".example.com")], &[]);
    assert!(one(&s, dns("www.example.com")).is_ok());
    assert!(one(&s, dns("example.com")).is_err());
    // Other forms are not constrained by a DNS constraint.
    assert!(one(&s, ip(&[192, 0, 2, 1])).is_ok());
    assert!(one(&s, email("a@elsewhere.example")).is_ok());
}

#[test]
fn dns_excluded() {
    let s = state(&[], &[dns("secret.example.com")]);
    assert!(one(&s, dns("www.example.com")).is_ok());
    let err = one(&s, dns("a.Secret.example.com")).unwrap_err();
    assert!(
        err.contains("excluded subtree dNSName \"secret.example.com\""),
        "{err}"
    );
    assert!(one(&s, dns("secret.example.com")).is_err());
    // A wildcard that could stand for an excluded name is excluded.
    assert!(one(&s, dns("*.example.com")).is_err());
    assert!(one(&s, dns("*.secret.example.com")).is_err());
    // …but not one that cannot reach it.
    assert!(one(&s, dns("*.other.example.com")).is_ok());
    let s = state(&[], &[dns("a.b.example.com")]);
    assert!(one(&s, dns("*.example.com")).is_ok());
    // An empty constraint is the whole name space.
    let s = state(&[], &[dns("")]);
    assert!(one(&s, dns("example.com")).is_err());
}

#[test]
fn malformed_dns_names_fail_any_dns_constraint() {
    for s in [
        state(&[dns("example.com")], &[]),
        state(&[], &[dns("other.example")]),
    ] {
        for bad in [
            "",
            ".",
            "*",
            "..example.com",
            "a..example.com",
            "evil\0.example.com",
            "a b.example.com",
            "f*.example.com",
            "*.*.example.com",
        ] {
            let err = one(&s, dns(bad)).unwrap_err();
            assert!(err.contains("not a valid host name"), "{bad:?}: {err}");
        }
        let long = format!("{}.example.com", "a".repeat(100_000));
        assert!(one(&s, dns(&long)).is_err());
    }
    // Hostile constraint values are refused as constraints, without a panic.
    for bad in ["\0", "..", "*..", "\x7f"] {
        let r = refused(&[dns(bad)], &[], Rules::Rfc5280);
        assert!(matches!(r, Some(NcError::Invalid(_))), "{bad:?}: {r:?}");
    }
    // "." is the root, and like the empty constraint covers every name.
    let s = state(&[], &[dns(".")]);
    assert!(one(&s, dns("example.com")).is_err());
}

#[test]
fn email_forms() {
    let s = state(
        &[
            email("Boss@corp.example"),
            email("mail.example"),
            email(".staff.example"),
        ],
        &[],
    );
    assert!(one(&s, email("Boss@CORP.example")).is_ok());
    // Mailbox constraints compare the local part exactly.
    assert!(one(&s, email("boss@corp.example")).is_err());
    assert!(one(&s, email("anyone@mail.example")).is_ok());
    assert!(one(&s, email("anyone@sub.mail.example")).is_err());
    assert!(one(&s, email("anyone@x.staff.example")).is_ok());
    assert!(one(&s, email("anyone@staff.example")).is_err());
    // Not a mailbox at all.
    for bad in ["mail.example", "@mail.example", "anyone@", ""] {
        let err = one(&s, email(bad)).unwrap_err();
        assert!(err.contains("not a mailbox"), "{err}");
    }
    let s = state(&[], &[email(".evil.example")]);
    assert!(one(&s, email("x@a.evil.example")).is_err());
    assert!(one(&s, email("x@evil.example")).is_ok());
}

#[test]
fn smtp_utf8_mailboxes_are_bound_by_rfc822_constraints() {
    let utf8 = |v: &str| other_name_of(&oids::ON_SMTP_UTF8_MAILBOX, v);
    let s = state(&[email("example.com")], &[]);
    assert!(one(&s, utf8("用户@example.com")).is_ok());
    let err = one(&s, utf8("用户@evil.example")).unwrap_err();
    assert!(err.starts_with("subjectAltName SmtpUTF8Mailbox"), "{err}");
    let err = one(&s, utf8("用户@例子.example")).unwrap_err();
    assert!(err.contains("not ASCII"), "{err}");
    // A mailbox constraint never matches a UTF-8 local part.
    let s = state(&[email("user@example.com")], &[]);
    assert!(one(&s, utf8("úser@example.com")).is_err());
    let s = state(&[], &[email(".evil.example")]);
    assert!(one(&s, utf8("用户@mail.evil.example")).is_err());
    // Without rfc822Name constraints it is not read at all.
    let s = state(&[dns("example.com")], &[]);
    assert!(one(&s, utf8("用户@例子.example")).is_ok());
}

/// A name that is not a valid one of its form (RFC 5280 §4.2.1.6) has no place in the
/// name space, so it fails every constraint of that form, permitted or excluded, under
/// both rule sets; a valid name beside it does not save the certificate.
#[test]
fn invalid_names_fail_every_constraint_of_their_form() {
    // (a permitted subtree, an excluded one, an invalid name, a valid name in both)
    let cases: [[Vec<u8>; 4]; 4] = [
        [
            email("example.com"),
            email("other.example"),
            email("a@b@example.com"),
            email("good@example.com"),
        ],
        [
            dns("example.com"),
            dns("other.example"),
            dns(".example.com"),
            dns("foo.example.com"),
        ],
        [
            uri("example.com"),
            uri("other.example"),
            uri("https://exa mple.com/"),
            uri("https://example.com/"),
        ],
        [
            ip(&[192, 0, 2, 0, 255, 255, 255, 0]),
            ip(&[198, 51, 100, 0, 255, 255, 255, 0]),
            // An address and mask, as a constraint has, in a SAN.
            ip(&[192, 0, 2, 0, 255, 255, 255, 0]),
            ip(&[192, 0, 2, 1]),
        ],
    ];
    for rules in [Rules::Rfc5280, Rules::WebPki] {
        for [permit, exclude, bad, good] in &cases {
            for (p, e) in [
                (vec![permit.clone()], vec![]),
                (vec![], vec![exclude.clone()]),
            ] {
                let mut s = NameConstraintState::new();
                let der = cert(&cn("CA"), &[name_constraints(&p, &e)]);
                s.update(&Certificate::from_der(&der).unwrap(), rules)
                    .unwrap();
                let check = |sans: &[Vec<u8>]| {
                    let der = cert(&name(&[]), &[san(sans)]);
                    s.check(&Certificate::from_der(&der).unwrap(), rules)
                };
                assert!(check(std::slice::from_ref(good)).is_ok(), "{rules:?}");
                let err = check(&[good.clone(), bad.clone()]).unwrap_err();
                assert!(matches!(err, NcError::Violation(_)), "{rules:?}: {err}");
            }
        }
    }
    let s = state(&[email("example.com")], &[]);
    let err = one(&s, email("invalid@address@example.com")).unwrap_err();
    assert!(err.contains("not a mailbox"), "{err}");
    // An iPAddress of 8 octets in a SAN does not even decode (the subjectAltName is
    // malformed), which fails the check the same way.
    let s = state(&[], &[ip(&[198, 51, 100, 0, 255, 255, 255, 0])]);
    let err = one(&s, ip(&[192, 0, 2, 1, 255, 255, 255, 255])).unwrap_err();
    assert!(err.contains("4 (IPv4) or 16 (IPv6) octets"), "{err}");
    // An SmtpUTF8Mailbox's local part may be UTF-8 (RFC 6531), but it must still be one.
    let utf8 = |v: &str| other_name_of(&oids::ON_SMTP_UTF8_MAILBOX, v);
    let s = state(&[email("example.com")], &[]);
    assert!(one(&s, utf8("用户@example.com")).is_ok());
    assert!(one(&s, utf8("用@户@example.com")).is_err());
}

#[test]
fn subject_email_attribute_is_an_rfc822_name() {
    let s = state(&[email("example.com")], &[]);
    let subject = |addr: &str| {
        name(&[
            (oids::AT_COMMON_NAME, tag::UTF8_STRING, "Alice"),
            (oids::AT_EMAIL, tag::IA5_STRING, addr),
        ])
    };
    assert!(leaf(&s, &subject("alice@example.com"), &[]).is_ok());
    let err = leaf(&s, &subject("alice@evil.example"), &[]).unwrap_err();
    assert!(err.starts_with("subject emailAddress"), "{err}");
    let s = state(&[], &[email("evil.example")]);
    assert!(leaf(&s, &subject("alice@evil.example"), &[]).is_err());
}

#[test]
fn ip_addresses() {
    let s = state(&[ip(&[192, 0, 2, 0, 255, 255, 255, 0])], &[]);
    assert!(one(&s, ip(&[192, 0, 2, 200])).is_ok());
    let err = one(&s, ip(&[198, 51, 100, 1])).unwrap_err();
    assert!(err.contains("iPAddress 198.51.100.1"), "{err}");
    assert!(err.contains("iPAddress 192.0.2.0/24"), "{err}");
    // An IPv4 subtree never covers an IPv6 address, so an IPv6 name is outside the
    // permitted iPAddress subtrees.
    let mut v6 = [0u8; 16];
    v6[..4].copy_from_slice(&[0x20, 0x01, 0x0d, 0xb8]);
    v6[15] = 1;
    assert!(one(&s, ip(&v6)).is_err());
    // …and an excluded IPv4 everything does not exclude IPv6 names.
    let s = state(&[], &[ip(&[0; 8])]);
    assert!(one(&s, ip(&v6)).is_ok());
    assert!(one(&s, ip(&[10, 0, 0, 1])).is_err());
    // IPv6 with a /32.
    let mut net = [0u8; 32];
    net[..4].copy_from_slice(&[0x20, 0x01, 0x0d, 0xb8]);
    net[16..20].copy_from_slice(&[0xff; 4]);
    let s = state(&[ip(&net)], &[]);
    assert!(one(&s, ip(&v6)).is_ok());
    v6[3] = 0xb9;
    assert!(one(&s, ip(&v6)).is_err());
}

#[test]
fn directory_names() {
    let org = name(&[
        (oids::AT_COUNTRY, tag::PRINTABLE_STRING, "US"),
        (
            oids::AT_ORGANIZATION,
            tag::PRINTABLE_STRING,
            "Example  Corp",
        ),
    ]);
    let s = state(&[dir(&org)], &[]);
    let subject = |o: &str, t: u8| {
        name(&[
            (oids::AT_COUNTRY, tag::PRINTABLE_STRING, "US"),
            (oids::AT_ORGANIZATION, t, o),
            (oids::AT_COMMON_NAME, tag::UTF8_STRING, "leaf"),
        ])
    };
    assert!(leaf(&s, &subject("Example  Corp", tag::PRINTABLE_STRING), &[]).is_ok());
    // §7.1: case, surrounding and repeated spaces, and the string type do not count.
    assert!(leaf(&s, &subject(" EXAMPLE corp ", tag::UTF8_STRING), &[]).is_ok());
    assert!(leaf(&s, &subject("example\tCORP", tag::UTF8_STRING), &[]).is_ok());
    let err = leaf(&s, &subject("Other Corp", tag::UTF8_STRING), &[]).unwrap_err();
    assert!(err.starts_with("subject directoryName"), "{err}");
    // The constraint is a prefix: a shorter name, or one in another order, is out.
    let short = name(&[(oids::AT_COUNTRY, tag::PRINTABLE_STRING, "US")]);
    assert!(leaf(&s, &short, &[]).is_err());
    let reordered = name(&[
        (oids::AT_ORGANIZATION, tag::PRINTABLE_STRING, "Example Corp"),
        (oids::AT_COUNTRY, tag::PRINTABLE_STRING, "US"),
    ]);
    assert!(leaf(&s, &reordered, &[]).is_err());
    // A directoryName in the SAN is checked too; an empty subject is not.
    let outside = dir(&short);
    assert!(leaf(&s, &name(&[]), &[dns("x.example")]).is_ok());
    assert!(leaf(&s, &name(&[]), &[outside]).is_err());
    // Excluded.
    let s = state(&[], &[dir(&org)]);
    assert!(leaf(&s, &subject("example corp", tag::UTF8_STRING), &[]).is_err());
    assert!(leaf(&s, &subject("Example", tag::UTF8_STRING), &[]).is_ok());
}

#[test]
fn multi_valued_rdns_compare_as_sets() {
    let rdn = |first: (Oid, &str), second: (Oid, &str)| {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.set(|w| {
                for (o, v) in [first, second] {
                    w.sequence(|w| {
                        w.oid(&o);
                        w.utf8_string(v);
                    });
                }
            });
        });
        w.finish()
    };
    let c = rdn((oids::AT_COMMON_NAME, "a"), (oids::AT_ORG_UNIT, "b"));
    let s = state(&[dir(&c)], &[]);
    assert!(leaf(
        &s,
        &rdn((oids::AT_COMMON_NAME, "A"), (oids::AT_ORG_UNIT, "b")),
        &[]
    )
    .is_ok());
    assert!(leaf(
        &s,
        &rdn((oids::AT_COMMON_NAME, "a"), (oids::AT_ORG_UNIT, "c")),
        &[]
    )
    .is_err());
    assert!(leaf(&s, &cn("a"), &[]).is_err());
}

#[test]
fn uris_by_host() {
    let s = state(&[uri(".example.com"), uri("host.example.org")], &[]);
    for ok in [
        "https://www.example.com/path",
        "https://user:pw@www.example.com:8443/x?y#z",
        "ldap://a.b.example.com",
        "https://HOST.example.org./",
    ] {
        assert!(one(&s, uri(ok)).is_ok(), "{ok}");
    }
    for bad in [
        "https://example.com/",
        "https://sub.host.example.org/",
        "https://www.example.com@evil.example/",
        "https://evil.example/www.example.com",
        "https://evil.example?.example.com",
    ] {
        assert!(one(&s, uri(bad)).is_err(), "{bad}");
    }
    // No host, an IP literal, or a malformed one: nothing to compare, so it fails.
    for bad in [
        "urn:isbn:0451450523",
        "mailto:a@www.example.com",
        "https://[2001:db8::1]/",
        "https://192.0.2.1/",
        "https://www.example.com:80x/",
        "https:///path",
        "://www.example.com",
        "",
    ] {
        let err = one(&s, uri(bad)).unwrap_err();
        assert!(err.contains("no host name"), "{bad}: {err}");
    }
    let s = state(&[], &[uri(".evil.example")]);
    assert!(one(&s, uri("https://a.evil.example/")).is_err());
    assert!(one(&s, uri("https://good.example/")).is_ok());
}

#[test]
fn successive_cas_narrow() {
    let mut s = state(&[dns("example.com")], &[]);
    add(&mut s, "CA 2", &[dns(".eng.example.com")], &[]);
    assert!(one(&s, dns("a.eng.example.com")).is_ok());
    let err = one(&s, dns("a.example.com")).unwrap_err();
    assert!(err.contains("CN=CA 2"), "{err}");
    // The second CA cannot widen what the first permitted.
    let mut s = state(&[dns("example.com")], &[]);
    add(
        &mut s,
        "CA 2",
        &[dns("example.com"), dns("example.org")],
        &[],
    );
    assert!(one(&s, dns("www.example.com")).is_ok());
    let err = one(&s, dns("www.example.org")).unwrap_err();
    assert!(err.contains("CN=CA 1"), "{err}");
    // Disjoint sets leave no DNS name permitted.
    let mut s = state(&[dns("a.example")], &[]);
    add(&mut s, "CA 2", &[dns("b.example")], &[]);
    assert!(one(&s, dns("a.example")).is_err());
    assert!(one(&s, dns("b.example")).is_err());
    // A CA constraining another form leaves DNS as it was.
    let mut s = state(&[dns("example.com")], &[]);
    add(
        &mut s,
        "CA 2",
        &[ip(&[10, 0, 0, 0, 255, 0, 0, 0])],
        &[dns("x.example.com")],
    );
    assert!(one(&s, dns("www.example.com")).is_ok());
    assert!(one(&s, dns("www.example.org")).is_err());
    assert!(one(&s, dns("x.example.com")).is_err());
    assert!(one(&s, ip(&[10, 1, 2, 3])).is_ok());
    assert!(one(&s, ip(&[11, 1, 2, 3])).is_err());
}

#[test]
fn common_name_as_host_name_without_dns_sans() {
    let s = state(&[dns("example.com")], &[]);
    assert!(leaf(&s, &cn("www.example.com"), &[]).is_ok());
    let err = leaf(&s, &cn("www.evil.example"), &[]).unwrap_err();
    assert!(err.starts_with("subject commonName"), "{err}");
    assert!(leaf(&s, &cn("*.evil.example"), &[]).is_err());
    // A CN that is no host name is left alone.
    assert!(leaf(&s, &cn("Example Server"), &[]).is_ok());
    assert!(leaf(&s, &cn("localhost"), &[]).is_ok());
    // With a dNSName in the SAN, the CN is not read as one.
    assert!(leaf(&s, &cn("www.evil.example"), &[dns("www.example.com")]).is_ok());
    // Nor with a SAN of any other form: an IP-only leaf is not judged by its CN.
    let s = state(&[], &[dns("localhost")]);
    assert!(leaf(&s, &cn("test.localhost"), &[ip(&[127, 0, 0, 1])]).is_ok());
    // And never under webpki.
    let s = state(&[dns("example.com")], &[]);
    let der = cert(&cn("www.evil.example"), &[]);
    assert!(s
        .check(&Certificate::from_der(&der).unwrap(), Rules::WebPki)
        .is_ok());
}

/// The error `update` gives for a CA with these subtrees under `rules`.
fn refused(permitted: &[Vec<u8>], excluded: &[Vec<u8>], rules: Rules) -> Option<NcError> {
    let der = cert(&cn("CA"), &[name_constraints(permitted, excluded)]);
    NameConstraintState::new()
        .update(&Certificate::from_der(&der).unwrap(), rules)
        .err()
}

#[test]
fn invalid_constraints_are_refused() {
    let invalid =
        |p: &[Vec<u8>], e: &[Vec<u8>], r| matches!(refused(p, e, r), Some(NcError::Invalid(_)));
    // IP: non-contiguous mask, bits past the mask, a wrong length.
    assert!(invalid(
        &[],
        &[ip(&[192, 0, 2, 0, 255, 0, 255, 0])],
        Rules::Rfc5280
    ));
    assert!(invalid(
        &[ip(&[192, 0, 2, 1, 255, 255, 255, 0])],
        &[],
        Rules::Rfc5280
    ));
    assert!(refused(&[ip(&[192, 0, 2, 0, 255])], &[], Rules::Rfc5280).is_some());
    assert!(refused(&[ip(&[192, 0, 2, 0, 255, 255, 255, 0])], &[], Rules::WebPki).is_none());
    // Email: not a mailbox, host or domain.
    assert!(invalid(&[email("a@b@example.com")], &[], Rules::Rfc5280));
    assert!(invalid(&[email("exa mple.com")], &[], Rules::Rfc5280));
    assert!(refused(&[email(".example.com")], &[], Rules::Rfc5280).is_none());
    // DNS: wildcards and leading periods are refused under webpki only.
    assert!(invalid(&[dns("*.example.com")], &[], Rules::WebPki));
    assert!(invalid(&[], &[dns(".example.com")], Rules::WebPki));
    assert!(refused(&[dns(".example.com")], &[], Rules::Rfc5280).is_none());
    assert!(refused(&[dns("example.com")], &[], Rules::WebPki).is_none());
    // Under rfc5280 too, a malformed DNS or URI subtree is refused rather than read
    // as excluding nothing.
    assert!(invalid(&[], &[dns("*.evil.example")], Rules::Rfc5280));
    assert!(invalid(&[], &[dns("evil .example")], Rules::Rfc5280));
    assert!(invalid(&[], &[uri("http://evil.example")], Rules::Rfc5280));
    assert!(refused(&[uri(".example.com")], &[], Rules::Rfc5280).is_none());
    // Empty constraints cover every name of their form.
    for empty in [dns(""), email(""), uri("")] {
        assert!(refused(&[empty], &[], Rules::WebPki).is_none());
    }
}

#[test]
fn comparisons_are_bounded() {
    let subtrees: Vec<Vec<u8>> = (0..600).map(|i| dns(&format!("n{i}.example"))).collect();
    let s = state(&subtrees, &[]);
    let sans: Vec<Vec<u8>> = (0..600).map(|i| dns(&format!("h{i}.example"))).collect();
    let der = cert(&name(&[]), &[san(&sans)]);
    let started = std::time::Instant::now();
    let err = s
        .check(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
        .unwrap_err();
    assert!(matches!(err, NcError::Budget(_)), "{err}");
    assert!(started.elapsed().as_secs() < 1);
}

#[test]
fn unprocessable_forms_fail_when_constrained() {
    let s = state(&[other_name()], &[]);
    let err = one(&s, other_name()).unwrap_err();
    assert!(err.contains("otherName"), "{err}");
    assert!(err.contains("cannot compare"), "{err}");
    // Names of other forms are unaffected.
    assert!(one(&s, dns("example.com")).is_ok());
    let s = state(&[], &[gn_registered_id()]);
    assert!(one(&s, gn_registered_id()).is_err());
    // In a non-critical extension such a constraint is ignored.
    let mut subtree = Writer::new();
    subtree.sequence(|w| {
        w.raw(&other_name());
    });
    let ext = raw_name_constraints(&[subtree.finish()], &[], false);
    let der = cert(&cn("CA"), &[ext]);
    let mut s = NameConstraintState::new();
    s.update(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
        .unwrap();
    assert!(s.is_unconstrained());
    assert!(one(&s, other_name()).is_ok());
}

fn gn_registered_id() -> Vec<u8> {
    crate::testcert::gn(0x88, Oid::new("1.2.3.4").as_bytes())
}

#[test]
fn minimum_and_maximum_are_refused() {
    let subtree = |extra: &[u8]| {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.raw(&dns("example.com"));
            w.raw(extra);
        });
        w.finish()
    };
    for extra in [&[0x80, 0x01, 0x01][..], &[0x81, 0x01, 0x00]] {
        let ext = raw_name_constraints(&[], &[subtree(extra)], true);
        let der = cert(&cn("CA"), &[ext]);
        let Err(NcError::Malformed(err)) = NameConstraintState::new()
            .update(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
        else {
            panic!("a minimum or maximum was taken in");
        };
        assert_eq!(err.path_string(), "nameConstraints.excludedSubtrees[0]");
        assert!(err.message().contains("minimum 0"), "{err}");
    }
}

#[test]
fn malformed_extensions_are_errors() {
    // An empty NameConstraints SEQUENCE.
    let der = cert(
        &cn("CA"),
        &[(oids::CE_NAME_CONSTRAINTS, true, vec![0x30, 0x00])],
    );
    let c = Certificate::from_der(&der).unwrap();
    assert!(NameConstraintState::new()
        .update(&c, Rules::Rfc5280)
        .is_err());
    // A broken SAN under a constraint fails the check.
    let s = state(&[dns("example.com")], &[]);
    let (oid, _, _) = san(&[]);
    let der = cert(&cn("x"), &[(oid, false, vec![0x30, 0x02, 0x89, 0x00])]);
    let err = s
        .check(&Certificate::from_der(&der).unwrap(), Rules::Rfc5280)
        .unwrap_err()
        .to_string();
    assert!(err.contains("subjectAltName"), "{err}");
}
