//! Revocation status against real signed objects: CAs, certificates, CRLs and OCSP
//! responses made by the CA library, with the extensions it does not write (IDP, delta
//! indicators, entry extensions, distribution points) encoded here.

use super::scope::append_rdn;
use super::*;
use crate::der::oid_registry as oids;
use crate::der::{integer, tag, Oid, Writer};
use pkit_ca::crl::sign_crl;
use pkit_ca::issuer::{self_signed, Issuer, Request};
use pkit_ca::ocsp::{Asked, Responder};
use pkit_ca::profile::Profile;
use pkit_ca::store::{CertStatus as StoreStatus, Revoked as StoreRevoked};
use pkit_openssl as openssl;
use pkit_x509::alg::{Algorithm, Digest};
use pkit_x509::ext::write::ext;
use pkit_x509::ocsp::OcspRequest;
use pkit_x509::ocsp_request::{encode_request, IssuerHashes};
use pkit_x509::subject::parse_subject;

const NOW: Time = Time {
    unix: 1_800_000_000,
};
const DAY: i64 = 86_400;

fn be() -> &'static Backend {
    openssl::backend()
}

fn ca(name: &str) -> Issuer {
    let key = be().generate(Algorithm::Ed25519).unwrap();
    let der = self_signed(
        key.as_ref(),
        &parse_subject(name).unwrap(),
        NOW.plus_seconds(-30 * DAY),
        NOW.plus_seconds(365 * DAY),
        None,
    )
    .unwrap();
    Issuer::new(der, key).unwrap()
}

/// One Extension TLV, as certificates copy them: (OID content, whole TLV).
fn extension(oid: &Oid, critical: bool, value: impl FnOnce(&mut Writer)) -> (Vec<u8>, Vec<u8>) {
    let mut w = Writer::new();
    ext(&mut w, oid, critical, value);
    (oid.as_bytes().to_vec(), w.finish())
}

fn issue(ca: &Issuer, profile: Profile, extra: Vec<(Vec<u8>, Vec<u8>)>) -> Vec<u8> {
    let key = be().generate(Algorithm::Ed25519).unwrap();
    let req = Request {
        key_alg: Some(Algorithm::Ed25519),
        sans: test_sans(profile),
        copied: extra,
        ..Request::new(
            parse_subject("CN=subject").unwrap(),
            key.public_key_der().unwrap(),
            profile,
            NOW.plus_seconds(-DAY),
            NOW.plus_seconds(30 * DAY),
        )
    };
    ca.issue(ca.key.signer().unwrap().as_mut(), &req)
        .unwrap()
        .der
}

fn leaf(ca: &Issuer) -> Vec<u8> {
    issue(ca, Profile::Server, Vec::new())
}

fn serial_of(der: &[u8]) -> Vec<u8> {
    integer::unsigned_bytes(Certificate::from_der(der).unwrap().serial).to_vec()
}

/// A GeneralName `uniformResourceIdentifier [6]`.
fn uri(w: &mut Writer, u: &str) {
    w.primitive(0x86, u.as_bytes());
}

/// `[0] DistributionPointName` holding fullName with one URI.
fn dp_uri(w: &mut Writer, u: &str) {
    w.explicit(0, |w| {
        w.tlv(tag::implicit_constructed(0), |w| uri(w, u));
    });
}

/// cRLDistributionPoints with one point named by URI.
fn crl_dp(u: &str) -> (Vec<u8>, Vec<u8>) {
    extension(&oids::CE_CRL_DIST_POINTS, false, |w| {
        w.sequence(|w| {
            w.sequence(|w| dp_uri(w, u));
        });
    })
}

struct Entry {
    serial: Vec<u8>,
    at: Time,
    reason: Option<u8>,
    /// Further entry Extension TLVs.
    extra: Vec<Vec<u8>>,
}

fn entry(serial: &[u8], reason: Option<u8>) -> Entry {
    Entry {
        serial: serial.to_vec(),
        at: NOW.plus_seconds(-DAY),
        reason,
        extra: Vec::new(),
    }
}

struct Spec {
    this: Time,
    next: Option<Time>,
    number: Option<u64>,
    entries: Vec<Entry>,
    /// Further CRL Extension TLVs.
    extra: Vec<Vec<u8>>,
}

fn spec(number: u64, entries: Vec<Entry>) -> Spec {
    Spec {
        this: NOW.plus_seconds(-3600),
        next: Some(NOW.plus_seconds(DAY)),
        number: Some(number),
        entries,
        extra: Vec::new(),
    }
}

/// A CRL naming `ca` as issuer, signed by `signer`'s key.
fn crl_signed_by(ca: &Issuer, signer: &Issuer, s: &Spec) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.integer_u64(1);
        signer.scheme.write_algorithm_identifier(w);
        w.raw(&ca.subject);
        w.time(s.this);
        if let Some(n) = s.next {
            w.time(n);
        }
        if !s.entries.is_empty() {
            w.sequence(|w| {
                for e in &s.entries {
                    w.sequence(|w| {
                        w.integer_unsigned(&e.serial);
                        w.time(e.at);
                        if e.reason.is_some() || !e.extra.is_empty() {
                            w.sequence(|w| {
                                if let Some(r) = e.reason {
                                    ext(w, &oids::CE_CRL_REASON, false, |w| {
                                        w.enumerated(r);
                                    });
                                }
                                for x in &e.extra {
                                    w.raw(x);
                                }
                            });
                        }
                    });
                }
            });
        }
        if s.number.is_some() || !s.extra.is_empty() {
            w.explicit(0, |w| {
                w.sequence(|w| {
                    if let Some(n) = s.number {
                        ext(w, &oids::CE_CRL_NUMBER, false, |w| {
                            w.integer_u64(n);
                        });
                    }
                    for x in &s.extra {
                        w.raw(x);
                    }
                });
            });
        }
    });
    sign_crl(&w.finish(), signer.key.signer().unwrap().as_mut()).unwrap()
}

fn crl(ca: &Issuer, s: &Spec) -> Vec<u8> {
    crl_signed_by(ca, ca, s)
}

fn delta_indicator(base: u64) -> Vec<u8> {
    extension(&oids::CE_DELTA_CRL_INDICATOR, true, |w| {
        w.integer_u64(base);
    })
    .1
}

fn idp(critical: bool, body: impl FnOnce(&mut Writer)) -> Vec<u8> {
    extension(&oids::CE_ISSUING_DIST_POINT, critical, |w| {
        w.sequence(body);
    })
    .1
}

/// An extension no one knows, 1.3.6.1.4.1.99999.1.
fn unknown_ext(critical: bool) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.primitive(
            tag::OID,
            &[0x2b, 0x06, 0x01, 0x04, 0x01, 0x86, 0x8d, 0x1f, 0x01],
        );
        if critical {
            w.boolean(true);
        }
        w.tlv(tag::OCTET_STRING, |w| {
            w.null();
        });
    });
    w.finish()
}

/// The status of `cert_der` (issued by `ca`) from `crls`.
fn status_at(ca: &Issuer, cert_der: &[u8], crls: &[Vec<u8>], now: Time) -> Status {
    let parsed: Vec<Crl<'_>> = crls.iter().map(|d| Crl::from_der(d).unwrap()).collect();
    let set = CrlSet::new(parsed);
    let cert = Certificate::from_der(cert_der).unwrap();
    let issuer = Certificate::from_der(&ca.cert_der).unwrap();
    crl_status(be(), &set, &cert, &issuer, now)
}

fn status(ca: &Issuer, cert_der: &[u8], crls: &[Vec<u8>]) -> Status {
    status_at(ca, cert_der, crls, NOW)
}

#[track_caller]
fn unknown_with(s: &Status, words: &str) {
    match s {
        Status::Unknown(why) => assert!(why.contains(words), "{why:?} lacks {words:?}"),
        other => panic!("expected Unknown ({words}), got {other:?}"),
    }
}

#[track_caller]
fn revoked_for(s: &Status, want: Option<CrlReason>) {
    match s {
        Status::Revoked { reason, at } => {
            assert_eq!(*reason, want);
            assert_eq!(*at, NOW.plus_seconds(-DAY));
        }
        other => panic!("expected Revoked, got {other:?}"),
    }
}

#[test]
fn good_and_revoked_with_reason() {
    let ca = ca("CN=Rev CA");
    let cert = leaf(&ca);
    let other = leaf(&ca);
    let list = crl(&ca, &spec(1, vec![entry(&serial_of(&other), Some(1))]));
    assert_eq!(
        status(&ca, &cert, std::slice::from_ref(&list)),
        Status::Good
    );
    let s = status(&ca, &other, &[list]);
    revoked_for(&s, Some(CrlReason::KeyCompromise));
    assert_eq!(s.reason(), Some(Reason::Revoked));
    // No reasonCode: revoked, reason unknown.
    let list = crl(&ca, &spec(2, vec![entry(&serial_of(&cert), None)]));
    revoked_for(&status(&ca, &cert, &[list]), None);
    // An empty CRL (no revokedCertificates at all).
    assert_eq!(
        status(&ca, &cert, &[crl(&ca, &spec(3, vec![]))]),
        Status::Good
    );
}

#[test]
fn no_crl_or_another_issuers_crl_is_unknown() {
    let ca1 = ca("CN=Rev CA");
    let ca2 = ca("CN=Other CA");
    let cert = leaf(&ca1);
    let s = status(&ca1, &cert, &[]);
    unknown_with(&s, "no CRL issued by CN=Rev CA");
    assert_eq!(s.reason(), Some(Reason::RevocationUnknown));
    unknown_with(
        &status(&ca1, &cert, &[crl(&ca2, &spec(1, vec![]))]),
        "no CRL issued by",
    );
}

#[test]
fn a_crl_signed_by_another_key_is_not_used() {
    let ca1 = ca("CN=Rev CA");
    // Same name, another key.
    let twin = ca("CN=Rev CA");
    let cert = leaf(&ca1);
    let forged = crl_signed_by(&ca1, &twin, &spec(1, vec![]));
    unknown_with(
        &status(&ca1, &cert, std::slice::from_ref(&forged)),
        "signature does not verify",
    );
    // A forged entry does not revoke either, and the good CRL beside it answers.
    let forged = crl_signed_by(
        &ca1,
        &twin,
        &spec(9, vec![entry(&serial_of(&cert), Some(1))]),
    );
    let good = crl(&ca1, &spec(1, vec![]));
    assert_eq!(status(&ca1, &cert, &[forged, good]), Status::Good);
}

#[test]
fn stale_and_not_yet_valid_crls() {
    let ca = ca("CN=Rev CA");
    let cert = leaf(&ca);
    let mut s = spec(1, vec![]);
    s.this = NOW.plus_seconds(-2 * DAY);
    s.next = Some(NOW.plus_seconds(-DAY));
    unknown_with(&status(&ca, &cert, &[crl(&ca, &s)]), "stale");
    // nextUpdate equal to now is already stale.
    s.next = Some(NOW);
    unknown_with(&status(&ca, &cert, &[crl(&ca, &s)]), "stale");
    // Without nextUpdate the CRL is not one (RFC 5280 §5.1.2.5), as `pkit crl verify`
    // says too.
    s.next = None;
    unknown_with(&status(&ca, &cert, &[crl(&ca, &s)]), "no nextUpdate");
    // A thisUpdate within the clock skew allowance is taken; past it, not yet.
    let mut s = spec(1, vec![]);
    s.this = NOW.plus_seconds(60);
    assert_eq!(status(&ca, &cert, &[crl(&ca, &s)]), Status::Good);
    s.this = NOW.plus_seconds(600);
    unknown_with(&status(&ca, &cert, &[crl(&ca, &s)]), "in the future");
    // The same CRL is fine once its time comes.
    let list = crl(&ca, &s);
    assert_eq!(
        status_at(&ca, &cert, &[list], NOW.plus_seconds(700)),
        Status::Good
    );
}

#[test]
fn a_crl_without_a_plain_crl_number_is_not_used() {
    let ca = ca("CN=Rev CA");
    let cert = leaf(&ca);
    let mut s = spec(1, vec![]);
    s.number = None;
    unknown_with(&status(&ca, &cert, &[crl(&ca, &s)]), "no cRLNumber");
    let mut s = spec(1, vec![]);
    s.number = None;
    s.extra.push(
        extension(&oids::CE_CRL_NUMBER, true, |w| {
            w.integer_u64(1);
        })
        .1,
    );
    unknown_with(
        &status(&ca, &cert, &[crl(&ca, &s)]),
        "cRLNumber is critical",
    );
}

#[test]
fn the_newest_crl_of_a_scope_answers() {
    let ca = ca("CN=Rev CA");
    let cert = leaf(&ca);
    let serial = serial_of(&cert);
    let mut old = spec(1, vec![entry(&serial, Some(6))]);
    old.this = NOW.plus_seconds(-7200);
    let new = spec(2, vec![]);
    let crls = [crl(&ca, &old), crl(&ca, &new)];
    assert_eq!(status(&ca, &cert, &crls), Status::Good);
    revoked_for(
        &status(&ca, &cert, &crls[..1]),
        Some(CrlReason::CertificateHold),
    );
}

#[test]
fn delta_crls() {
    let ca = ca("CN=Delta CA");
    let cert = leaf(&ca);
    let serial = serial_of(&cert);
    let complete = crl(&ca, &spec(10, vec![]));
    let delta = |number: u64, base: u64, entries: Vec<Entry>| {
        let mut s = spec(number, entries);
        s.extra.push(delta_indicator(base));
        crl(&ca, &s)
    };
    // Revoked by the delta on top of a complete CRL that does not list it.
    let d = delta(11, 10, vec![entry(&serial, Some(1))]);
    revoked_for(
        &status(&ca, &cert, &[complete.clone(), d.clone()]),
        Some(CrlReason::KeyCompromise),
    );
    // A delta alone answers nothing.
    unknown_with(&status(&ca, &cert, &[d]), "delta CRL");
    // A delta whose base is newer than the complete CRL does not apply.
    let d = delta(12, 11, vec![entry(&serial, Some(1))]);
    assert_eq!(status(&ca, &cert, &[complete.clone(), d]), Status::Good);

    // On hold in the complete CRL: revoked with certificateHold…
    let held = crl(&ca, &spec(20, vec![entry(&serial, Some(6))]));
    revoked_for(
        &status(&ca, &cert, std::slice::from_ref(&held)),
        Some(CrlReason::CertificateHold),
    );
    // …until a delta says removeFromCRL.
    let released = delta(21, 20, vec![entry(&serial, Some(8))]);
    assert_eq!(
        status(&ca, &cert, &[held.clone(), released.clone()]),
        Status::Good
    );
    // A delta that turns the hold into keyCompromise.
    let compromised = delta(21, 20, vec![entry(&serial, Some(1))]);
    revoked_for(
        &status(&ca, &cert, &[held.clone(), compromised]),
        Some(CrlReason::KeyCompromise),
    );
    // A stale delta is passed over: the complete CRL answers alone.
    let mut s = spec(22, vec![entry(&serial, Some(8))]);
    s.extra.push(delta_indicator(20));
    s.this = NOW.plus_seconds(-2 * DAY);
    s.next = Some(NOW.plus_seconds(-DAY));
    let stale_delta = crl(&ca, &s);
    revoked_for(
        &status(&ca, &cert, &[held, stale_delta]),
        Some(CrlReason::CertificateHold),
    );

    // A complete CRL past its nextUpdate serves when a current delta updates it.
    let mut s = spec(30, vec![]);
    s.this = NOW.plus_seconds(-3 * DAY);
    s.next = Some(NOW.plus_seconds(-DAY));
    let old = crl(&ca, &s);
    unknown_with(&status(&ca, &cert, std::slice::from_ref(&old)), "stale");
    let fresh = delta(31, 30, vec![]);
    assert_eq!(status(&ca, &cert, &[old.clone(), fresh]), Status::Good);
    let fresh = delta(31, 30, vec![entry(&serial, Some(4))]);
    revoked_for(
        &status(&ca, &cert, &[old, fresh]),
        Some(CrlReason::Superseded),
    );

    // A delta of another scope (it has an IDP, the complete CRL none) does not apply.
    let mut s = spec(11, vec![entry(&serial, Some(1))]);
    s.extra.push(delta_indicator(10));
    s.extra.push(idp(true, |w| {
        w.primitive(0x81, &[0xff]);
    }));
    assert_eq!(status(&ca, &cert, &[complete, crl(&ca, &s)]), Status::Good);
}

#[test]
fn a_negative_serial_is_not_the_positive_one_with_the_same_octets() {
    let ca = ca("CN=Rev CA");
    let der = crl(&ca, &spec(1, vec![entry(&[0xff], Some(1))]));
    let list = Crl::from_der(&der).unwrap();
    let index = RevokedIndex::build(&list).unwrap();
    // The entry is 255 (02 02 00 ff); 02 01 ff is -1.
    assert!(index.lookup(&[0x00, 0xff]).is_some());
    assert!(index.lookup(&[0xff]).is_none());
}

#[test]
fn remove_from_crl_in_a_complete_crl_is_not_a_revocation() {
    let ca = ca("CN=Rev CA");
    let cert = leaf(&ca);
    let list = crl(&ca, &spec(1, vec![entry(&serial_of(&cert), Some(8))]));
    assert_eq!(status(&ca, &cert, &[list]), Status::Good);
}

#[test]
fn user_and_ca_only_crls() {
    let ca = ca("CN=Scope CA");
    let user = leaf(&ca);
    let sub = issue(&ca, Profile::Ca, Vec::new());
    let ca_only = {
        let mut s = spec(1, vec![entry(&serial_of(&sub), Some(2))]);
        s.extra.push(idp(true, |w| {
            w.primitive(0x82, &[0xff]);
        }));
        crl(&ca, &s)
    };
    unknown_with(
        &status(&ca, &user, std::slice::from_ref(&ca_only)),
        "onlyContainsCACerts",
    );
    revoked_for(
        &status(&ca, &sub, std::slice::from_ref(&ca_only)),
        Some(CrlReason::CaCompromise),
    );
    let user_only = {
        let mut s = spec(2, vec![]);
        s.extra.push(idp(true, |w| {
            w.primitive(0x81, &[0xff]);
        }));
        crl(&ca, &s)
    };
    assert_eq!(
        status(&ca, &user, std::slice::from_ref(&user_only)),
        Status::Good
    );
    unknown_with(
        &status(&ca, &sub, std::slice::from_ref(&user_only)),
        "onlyContainsUserCerts",
    );
    // The two partitions together cover both kinds.
    assert_eq!(
        status(&ca, &user, &[ca_only.clone(), user_only.clone()]),
        Status::Good
    );
    revoked_for(
        &status(&ca, &sub, &[ca_only, user_only]),
        Some(CrlReason::CaCompromise),
    );
    let attr_only = {
        let mut s = spec(3, vec![]);
        s.extra.push(idp(true, |w| {
            w.primitive(0x85, &[0xff]);
        }));
        crl(&ca, &s)
    };
    unknown_with(&status(&ca, &user, &[attr_only]), "attribute");
}

#[test]
fn reason_partitioned_crls() {
    let ca = ca("CN=Reasons CA");
    let cert = leaf(&ca);
    // keyCompromise and cACompromise (bits 1, 2).
    let some = {
        let mut s = spec(1, vec![]);
        s.extra.push(idp(true, |w| {
            w.primitive(0x83, &[0x05, 0x60]);
        }));
        crl(&ca, &s)
    };
    let s = status(&ca, &cert, std::slice::from_ref(&some));
    unknown_with(&s, "cover only keyCompromise, cACompromise");
    unknown_with(&s, "none covers affiliationChanged");
    // The rest: bits 3..=8.
    let rest = {
        let mut s = spec(2, vec![]);
        s.extra.push(idp(true, |w| {
            w.primitive(0x83, &[0x07, 0x1f, 0x80]);
        }));
        crl(&ca, &s)
    };
    assert_eq!(status(&ca, &cert, &[some.clone(), rest]), Status::Good);
    // A listing on a partial CRL revokes even without full coverage.
    let listed = {
        let mut s = spec(3, vec![entry(&serial_of(&cert), Some(1))]);
        s.extra.push(idp(true, |w| {
            w.primitive(0x83, &[0x05, 0x60]);
        }));
        crl(&ca, &s)
    };
    revoked_for(
        &status(&ca, &cert, &[listed]),
        Some(CrlReason::KeyCompromise),
    );
}

#[test]
fn distribution_point_names() {
    let ca = ca("CN=DP CA");
    let cert = issue(
        &ca,
        Profile::Server,
        vec![crl_dp("http://crl.example/1.crl")],
    );
    let with_idp = |number: u64, u: &str| {
        let mut s = spec(number, vec![]);
        let u = u.to_string();
        s.extra.push(idp(true, move |w| dp_uri(w, &u)));
        crl(&ca, &s)
    };
    assert_eq!(
        status(&ca, &cert, &[with_idp(1, "http://crl.example/1.crl")]),
        Status::Good
    );
    unknown_with(
        &status(&ca, &cert, &[with_idp(1, "http://crl.example/2.crl")]),
        "names a distribution point the certificate does not list",
    );
    // A certificate without cRLDistributionPoints is not covered by a CRL for one point.
    let plain = leaf(&ca);
    unknown_with(
        &status(&ca, &plain, &[with_idp(1, "http://crl.example/1.crl")]),
        "does not list",
    );
    // A CRL without an IDP covers every certificate of its issuer.
    assert_eq!(
        status(&ca, &cert, &[crl(&ca, &spec(1, vec![]))]),
        Status::Good
    );

    // nameRelativeToCRLIssuer in the certificate against the absolute name in the IDP.
    let atv = |cn: &str| {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.oid(&oids::AT_COMMON_NAME);
            w.utf8_string(cn);
        });
        w.finish()
    };
    let rdn = atv("Partition 1");
    let rel = extension(&oids::CE_CRL_DIST_POINTS, false, |w| {
        w.sequence(|w| {
            w.sequence(|w| {
                w.explicit(0, |w| {
                    w.primitive(tag::implicit_constructed(1), &rdn);
                });
            });
        });
    });
    let cert = issue(&ca, Profile::Server, vec![rel]);
    let absolute = append_rdn(&ca.subject, &rdn).unwrap();
    let full = |number: u64, name: Vec<u8>| {
        let mut s = spec(number, vec![]);
        s.extra.push(idp(true, move |w| {
            w.explicit(0, |w| {
                w.tlv(tag::implicit_constructed(0), |w| {
                    w.explicit(4, |w| {
                        w.raw(&name);
                    });
                });
            });
        }));
        crl(&ca, &s)
    };
    assert_eq!(status(&ca, &cert, &[full(1, absolute)]), Status::Good);
    let elsewhere = append_rdn(&ca.subject, &atv("Partition 2")).unwrap();
    unknown_with(&status(&ca, &cert, &[full(1, elsewhere)]), "does not list");
}

#[test]
fn unknown_critical_extensions_make_a_crl_unusable() {
    let ca = ca("CN=Ext CA");
    let cert = leaf(&ca);
    let other = leaf(&ca);
    // On an entry, even one for another certificate.
    let mut e = entry(&serial_of(&other), None);
    e.extra.push(unknown_ext(true));
    let list = crl(&ca, &spec(1, vec![e]));
    unknown_with(&status(&ca, &cert, &[list]), "critical 1.3.6.1.4.1.99999.1");
    // On the CRL.
    let mut s = spec(1, vec![]);
    s.extra.push(unknown_ext(true));
    unknown_with(
        &status(&ca, &cert, &[crl(&ca, &s)]),
        "critical 1.3.6.1.4.1.99999.1",
    );
    // Not critical: ignored, on the CRL and on entries.
    let mut e = entry(&serial_of(&other), None);
    e.extra.push(unknown_ext(false));
    let mut s = spec(1, vec![e]);
    s.extra.push(unknown_ext(false));
    let list = crl(&ca, &s);
    assert_eq!(
        status(&ca, &cert, std::slice::from_ref(&list)),
        Status::Good
    );
    revoked_for(&status(&ca, &other, &[list]), None);
}

/// `certificateIssuer` naming `name` (a Name's DER), critical as §5.3.3 requires.
fn certificate_issuer(name: &[u8]) -> Vec<u8> {
    extension(&oids::CE_CERTIFICATE_ISSUER, true, |w| {
        w.sequence(|w| {
            w.explicit(4, |w| {
                w.raw(name);
            });
        });
    })
    .1
}

#[test]
fn indirect_crl_entries_of_other_issuers_are_not_applied() {
    let ca1 = ca("CN=Indirect CA");
    let ca2 = ca("CN=Elsewhere CA");
    let cert = leaf(&ca1);
    let serial = serial_of(&cert);
    // The first entry names ca2 and the second inherits it; the third returns to ca1.
    let mut first = entry(&serial, Some(1));
    first.extra.push(certificate_issuer(&ca2.subject));
    let second = entry(&[0x42], Some(1));
    let mut s = spec(1, vec![first, second]);
    s.extra.push(idp(true, |w| {
        w.primitive(0x84, &[0xff]);
    }));
    assert_eq!(status(&ca1, &cert, &[crl(&ca1, &s)]), Status::Good);
    let mut third = entry(&serial, Some(5));
    third.extra.push(certificate_issuer(&ca1.subject));
    s.entries.push(third);
    revoked_for(
        &status(&ca1, &cert, &[crl(&ca1, &s)]),
        Some(CrlReason::CessationOfOperation),
    );
}

#[test]
fn a_distribution_point_with_another_crl_issuer_is_reported() {
    let ca = ca("CN=Indirect CA");
    let crl_issuer = parse_subject("CN=CRL Issuer").unwrap();
    let dp = extension(&oids::CE_CRL_DIST_POINTS, false, |w| {
        w.sequence(|w| {
            w.sequence(|w| {
                dp_uri(w, "http://crl.example/indirect.crl");
                w.tlv(tag::implicit_constructed(2), |w| {
                    w.explicit(4, |w| {
                        w.raw(&crl_issuer);
                    });
                });
            });
        });
    });
    let cert = issue(&ca, Profile::Server, vec![dp]);
    let s = status(&ca, &cert, &[]);
    unknown_with(&s, "CRL issuer CN=CRL Issuer");
    unknown_with(&s, "indirect");
    // The issuer's own full CRL still covers it.
    assert_eq!(
        status(&ca, &cert, &[crl(&ca, &spec(1, vec![]))]),
        Status::Good
    );
}

#[test]
fn one_set_answers_for_many_certificates_and_issuers() {
    let ca1 = ca("CN=First CA");
    let ca2 = ca("CN=Second CA");
    let a = leaf(&ca1);
    let b = leaf(&ca2);
    let crls = [
        crl(&ca1, &spec(1, vec![entry(&serial_of(&a), Some(3))])),
        crl(&ca2, &spec(1, vec![])),
    ];
    let parsed: Vec<Crl<'_>> = crls.iter().map(|d| Crl::from_der(d).unwrap()).collect();
    let set = CrlSet::new(parsed);
    assert_eq!(set.len(), 2);
    let issuer1 = Certificate::from_der(&ca1.cert_der).unwrap();
    let issuer2 = Certificate::from_der(&ca2.cert_der).unwrap();
    let a = Certificate::from_der(&a).unwrap();
    let b = Certificate::from_der(&b).unwrap();
    for _ in 0..2 {
        assert!(matches!(
            crl_status(be(), &set, &a, &issuer1, NOW),
            Status::Revoked {
                reason: Some(CrlReason::AffiliationChanged),
                ..
            }
        ));
        assert_eq!(crl_status(be(), &set, &b, &issuer2, NOW), Status::Good);
    }
    // The wrong issuer certificate for b: its CA's CRL does not verify under that key.
    unknown_with(
        &crl_status(be(), &set, &b, &issuer1, NOW),
        "CN=Second CA: CRL 1 (thisUpdate 2027-01-15T07:00:00Z): its signature does not verify",
    );
}

/// A CA's OCSP responder (signing with the CA key itself), made once its certificates
/// are issued: it takes the key over.
struct Ocsp {
    cert_der: Vec<u8>,
    responder: Responder,
}

fn responder(ca: Issuer) -> Ocsp {
    let Issuer { cert_der, key, .. } = ca;
    let responder = Responder::new(be(), &cert_der, key, None, NOW).unwrap();
    Ocsp {
        cert_der,
        responder,
    }
}

/// A response about `cert_der`, valid for a day from `at`.
fn ocsp(r: &Ocsp, cert_der: &[u8], status: StoreStatus, at: Time) -> Vec<u8> {
    let issuer = Certificate::from_der(&r.cert_der).unwrap();
    let req = encode_request(
        &IssuerHashes::of(be(), &issuer, Digest::Sha1),
        &serial_of(cert_der),
        None,
    );
    let req = OcspRequest::from_der(&req).unwrap();
    let r = &r.responder;
    let Asked::Ours { cert_ids, .. } = r.read(&req).unwrap() else {
        panic!("the request names another CA");
    };
    r.sign(
        r.signer().unwrap().as_mut(),
        &[(&cert_ids[0], &status)],
        None,
        at,
        at.plus_seconds(DAY),
    )
    .unwrap()
}

fn ocsp_at(ca: &Ocsp, cert_der: &[u8], responses: &[Vec<u8>], now: Time) -> Status {
    let parsed: Vec<OcspResponse<'_>> = responses
        .iter()
        .map(|d| OcspResponse::from_der(d).unwrap())
        .collect();
    let cert = Certificate::from_der(cert_der).unwrap();
    let issuer = Certificate::from_der(&ca.cert_der).unwrap();
    ocsp_status(be(), &parsed, &cert, &issuer, now)
}

fn revoked_record(cert_der: &[u8], reason: Option<u8>) -> StoreStatus {
    StoreStatus::Revoked(StoreRevoked {
        serial: serial_of(cert_der),
        revoked_at: NOW.plus_seconds(-DAY).unix,
        reason,
        not_after: 0,
    })
}

#[test]
fn ocsp_good_revoked_unknown() {
    let ca = ca("CN=OCSP CA");
    let cert = leaf(&ca);
    let ca = responder(ca);
    let good = ocsp(&ca, &cert, StoreStatus::Good, NOW);
    assert_eq!(
        ocsp_at(&ca, &cert, std::slice::from_ref(&good), NOW),
        Status::Good
    );
    let revoked = ocsp(&ca, &cert, revoked_record(&cert, Some(1)), NOW);
    revoked_for(
        &ocsp_at(&ca, &cert, &[good, revoked], NOW),
        Some(CrlReason::KeyCompromise),
    );
    let unknown = ocsp(&ca, &cert, StoreStatus::Unknown, NOW);
    unknown_with(
        &ocsp_at(&ca, &cert, &[unknown], NOW),
        "does not know the certificate",
    );
    unknown_with(&ocsp_at(&ca, &cert, &[], NOW), "no OCSP response");
}

#[test]
fn ocsp_wrong_issuer_other_certificate_and_stale() {
    let ca1 = ca("CN=OCSP CA");
    let cert = leaf(&ca1);
    let other = leaf(&ca1);
    let ca1 = responder(ca1);
    let twin = responder(ca("CN=OCSP CA"));
    // Signed by another CA of the same name: neither its signature nor its CertID fit.
    let foreign = ocsp(&twin, &cert, revoked_record(&cert, Some(1)), NOW);
    unknown_with(&ocsp_at(&ca1, &cert, &[foreign], NOW), "signature");
    // About another certificate.
    let about_other = ocsp(&ca1, &other, StoreStatus::Good, NOW);
    unknown_with(&ocsp_at(&ca1, &cert, &[about_other], NOW), "cert_id");
    // Past nextUpdate, and not yet valid.
    let good = ocsp(&ca1, &cert, StoreStatus::Good, NOW);
    unknown_with(
        &ocsp_at(
            &ca1,
            &cert,
            std::slice::from_ref(&good),
            NOW.plus_seconds(DAY + 1),
        ),
        "stale",
    );
    unknown_with(
        &ocsp_at(&ca1, &cert, &[good], NOW.plus_seconds(-DAY)),
        "in the future",
    );
}

#[test]
fn ocsp_from_a_delegated_responder() {
    let issuing = ca("CN=OCSP CA");
    let cert = leaf(&issuing);
    let signer_key = be().generate(Algorithm::Ed25519).unwrap();
    let req = Request {
        key_alg: Some(Algorithm::Ed25519),
        ..Request::new(
            parse_subject("CN=OCSP Signer").unwrap(),
            signer_key.public_key_der().unwrap(),
            Profile::OcspSigner,
            NOW.plus_seconds(-DAY),
            NOW.plus_seconds(30 * DAY),
        )
    };
    let signer_der = issuing
        .issue(issuing.key.signer().unwrap().as_mut(), &req)
        .unwrap()
        .der;
    let delegated = Ocsp {
        responder: Responder::new(be(), &issuing.cert_der, signer_key, Some(signer_der), NOW)
            .unwrap(),
        cert_der: issuing.cert_der.clone(),
    };
    let revoked = ocsp(&delegated, &cert, revoked_record(&cert, Some(9)), NOW);
    revoked_for(
        &ocsp_at(&delegated, &cert, &[revoked], NOW),
        Some(CrlReason::PrivilegeWithdrawn),
    );
    // Checked against another CA of the same name, the delegation does not hold.
    let twin = responder(ca("CN=OCSP CA"));
    let good = ocsp(&delegated, &cert, StoreStatus::Good, NOW);
    unknown_with(&ocsp_at(&twin, &cert, &[good], NOW), "delegated_signer");
}

#[test]
fn an_issuer_without_crl_sign_cannot_vouch_for_crls() {
    let ca = ca("CN=Rev CA");
    let not_a_ca = leaf(&ca);
    let cert = leaf(&ca);
    let list = crl(&ca, &spec(1, vec![]));
    let set = CrlSet::new(vec![Crl::from_der(&list).unwrap()]);
    let s = crl_status(
        be(),
        &set,
        &Certificate::from_der(&cert).unwrap(),
        &Certificate::from_der(&not_a_ca).unwrap(),
        NOW,
    );
    unknown_with(&s, "cRLSign");
}

#[test]
fn malformed_extensions_are_reported_not_trusted() {
    let ca = ca("CN=Rev CA");
    let cert = leaf(&ca);
    // An IDP whose content is not a SEQUENCE.
    let mut s = spec(1, vec![]);
    s.extra.push(
        extension(&oids::CE_ISSUING_DIST_POINT, true, |w| {
            w.null();
        })
        .1,
    );
    unknown_with(
        &status(&ca, &cert, &[crl(&ca, &s)]),
        "issuingDistributionPoint extension does not decode",
    );
    // A reasonCode that is not an ENUMERATED.
    let mut e = entry(&[0x42], None);
    e.extra.push(
        extension(&oids::CE_CRL_REASON, false, |w| {
            w.integer_u64(1);
        })
        .1,
    );
    unknown_with(
        &status(&ca, &cert, &[crl(&ca, &spec(1, vec![e]))]),
        "does not decode",
    );
    // The certificate's own cRLDistributionPoints broken, signed past the lint gate
    // (which refuses an extension that does not decode).
    let broken = extension(&oids::CE_CRL_DIST_POINTS, false, |w| {
        w.sequence(|_| {});
    });
    let mut ca = ca;
    ca.gate.mode = pkit_ca::gate::GateMode::Off;
    let cert = issue(&ca, Profile::Server, vec![broken]);
    unknown_with(
        &status(&ca, &cert, &[crl(&ca, &spec(1, vec![]))]),
        "cRLDistributionPoints does not decode",
    );
}

#[test]
fn hostile_crl_bytes_never_panic() {
    let ca = ca("CN=Rev CA");
    let cert = issue(
        &ca,
        Profile::Server,
        vec![crl_dp("http://crl.example/1.crl")],
    );
    let mut e = entry(&serial_of(&cert), Some(1));
    e.extra.push(certificate_issuer(&ca.subject));
    let scope = || {
        idp(true, |w| {
            dp_uri(w, "http://crl.example/1.crl");
            w.primitive(0x83, &[0x05, 0x60]);
            w.primitive(0x84, &[0xff]);
        })
    };
    let mut s = spec(7, vec![e, entry(&[0x42], Some(6))]);
    s.extra.push(delta_indicator(5));
    s.extra.push(scope());
    let der = crl(&ca, &s);
    let mut s = spec(5, vec![]);
    s.extra.push(scope());
    let complete = crl(&ca, &s);
    let issuer = Certificate::from_der(&ca.cert_der).unwrap();
    let c = Certificate::from_der(&cert).unwrap();
    // Untouched, the delta revokes.
    let set = CrlSet::new(vec![
        Crl::from_der(&complete).unwrap(),
        Crl::from_der(&der).unwrap(),
    ]);
    revoked_for(
        &crl_status(be(), &set, &c, &issuer, NOW),
        Some(CrlReason::KeyCompromise),
    );
    let original = Crl::from_der(&der).unwrap();
    let mut parsed = 0;
    for i in 0..der.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bad = der.clone();
            bad[i] ^= flip;
            let Ok(list) = Crl::from_der(&bad) else {
                continue;
            };
            parsed += 1;
            // The signed bytes and the signature octets unchanged: only the envelope's
            // encoding moved (the signature BIT STRING's unused-bits count, say).
            let same_signed = list.tbs_raw == original.tbs_raw
                && list.signature.bytes == original.signature.bytes;
            let set = CrlSet::new(vec![Crl::from_der(&complete).unwrap(), list]);
            // Whatever the bytes, an answer comes back; a delta whose signed content was
            // tampered with never revokes.
            let s = crl_status(be(), &set, &c, &issuer, NOW);
            assert!(
                same_signed || !matches!(s, Status::Revoked { .. }),
                "byte {i} ^ {flip:#x}: {s:?}"
            );
        }
    }
    assert!(parsed > 0);
}

fn status_with(ca: &Issuer, cert_der: &[u8], crls: &[Vec<u8>], signers: &[&Issuer]) -> Status {
    let parsed: Vec<Crl<'_>> = crls.iter().map(|d| Crl::from_der(d).unwrap()).collect();
    let set = CrlSet::new(parsed);
    let cert = Certificate::from_der(cert_der).unwrap();
    let issuer = Certificate::from_der(&ca.cert_der).unwrap();
    let signers: Vec<Certificate<'_>> = signers
        .iter()
        .map(|s| Certificate::from_der(&s.cert_der).unwrap())
        .collect();
    crl_status_with(be(), &set, &cert, &issuer, &signers, NOW)
}

#[test]
fn a_separate_crl_signing_key_counts_when_given() {
    let ca1 = ca("CN=Split CA");
    // The CA's CRL-signing certificate: the same name, another key.
    let crl_signer = ca("CN=Split CA");
    let cert = leaf(&ca1);
    let good = crl_signed_by(&ca1, &crl_signer, &spec(1, vec![]));
    unknown_with(
        &status(&ca1, &cert, std::slice::from_ref(&good)),
        "signature does not verify",
    );
    assert_eq!(
        status_with(&ca1, &cert, std::slice::from_ref(&good), &[&crl_signer]),
        Status::Good
    );
    let listed = crl_signed_by(
        &ca1,
        &crl_signer,
        &spec(2, vec![entry(&serial_of(&cert), None)]),
    );
    revoked_for(&status_with(&ca1, &cert, &[listed], &[&crl_signer]), None);
    // A certificate of another name is no signer for this CA's CRLs.
    let stranger = ca("CN=Stranger");
    let by_stranger = crl_signed_by(&ca1, &stranger, &spec(1, vec![]));
    unknown_with(
        &status_with(&ca1, &cert, &[by_stranger], &[&stranger]),
        "signature does not verify",
    );
}

#[test]
fn indirect_crls_of_another_issuer() {
    let ca1 = ca("CN=Issuing CA");
    let ca2 = ca("CN=CRL Issuer");
    let point = "http://crl.example/indirect.crl";
    let dp = extension(&oids::CE_CRL_DIST_POINTS, false, |w| {
        w.sequence(|w| {
            w.sequence(|w| {
                dp_uri(w, point);
                w.tlv(tag::implicit_constructed(2), |w| {
                    w.explicit(4, |w| {
                        w.raw(&ca2.subject);
                    });
                });
            });
        });
    });
    let cert = issue(&ca1, Profile::Server, vec![dp]);
    let serial = serial_of(&cert);
    let indirect = |entries: Vec<Entry>, flag: bool| {
        let mut s = spec(1, entries);
        s.extra.push(idp(true, |w| {
            dp_uri(w, point);
            if flag {
                w.primitive(0x84, &[0xff]);
            }
        }));
        crl(&ca2, &s)
    };
    // ca2's own certificate with the same serial comes first; ca1's entry follows.
    let mut theirs = entry(&serial, Some(1));
    theirs.extra.push(certificate_issuer(&ca1.subject));
    let list = indirect(vec![entry(&serial, Some(3)), theirs], true);
    revoked_for(
        &status_with(&ca1, &cert, std::slice::from_ref(&list), &[&ca2]),
        Some(CrlReason::KeyCompromise),
    );
    // Without ca2's certificate nothing can be said.
    let s = status(&ca1, &cert, std::slice::from_ref(&list));
    unknown_with(&s, "no certificate of its issuer was given");
    unknown_with(&s, "CRL issuer CN=CRL Issuer");
    // An entry of ca2 itself is not one of ca1's.
    let list = indirect(vec![entry(&serial, Some(3))], true);
    assert_eq!(status_with(&ca1, &cert, &[list], &[&ca2]), Status::Good);
    // Without indirectCRL the CRL speaks only for ca2's own certificates.
    let list = indirect(vec![], false);
    unknown_with(
        &status_with(&ca1, &cert, &[list], &[&ca2]),
        "another issuer's CRL",
    );
    // A certificate whose point names no cRLIssuer is not covered by ca2's CRL.
    let plain = issue(&ca1, Profile::Server, vec![crl_dp(point)]);
    let list = indirect(vec![], true);
    unknown_with(
        &status_with(&ca1, &plain, &[list], &[&ca2]),
        "no CRL issued by CN=Issuing CA",
    );
}

/// A certificate issued by `ca` for `subject` with `profile` and extra extensions, with
/// its key.
fn issue_named(
    ca: &Issuer,
    subject: &str,
    profile: Profile,
    extra: Vec<(Vec<u8>, Vec<u8>)>,
) -> (Vec<u8>, Box<dyn pkit_x509::backend::PrivateKey>) {
    let key = be().generate(Algorithm::Ed25519).unwrap();
    let req = Request {
        key_alg: Some(Algorithm::Ed25519),
        sans: test_sans(profile),
        copied: extra,
        ..Request::new(
            parse_subject(subject).unwrap(),
            key.public_key_der().unwrap(),
            profile,
            NOW.plus_seconds(-DAY),
            NOW.plus_seconds(30 * DAY),
        )
    };
    let der = ca
        .issue(ca.key.signer().unwrap().as_mut(), &req)
        .unwrap()
        .der;
    (der, key)
}

/// cRLDistributionPoints with one point whose cRLIssuer is `crl_issuer`.
fn dp_with_crl_issuer(point: &str, crl_issuer: &[u8]) -> (Vec<u8>, Vec<u8>) {
    extension(&oids::CE_CRL_DIST_POINTS, false, |w| {
        w.sequence(|w| {
            w.sequence(|w| {
                dp_uri(w, point);
                w.tlv(tag::implicit_constructed(2), |w| {
                    w.explicit(4, |w| {
                        w.raw(crl_issuer);
                    });
                });
            });
        });
    })
}

/// PKITS 4.14.30's shape: a CRL issuer's certificate whose distribution point names the
/// CRL issuer itself, so the indirect CRL it signs covers its own certificate. That
/// counts; a revocation of it by its CA still wins.
#[test]
fn a_crl_issuer_may_vouch_for_itself_but_not_against_its_ca() {
    use crate::build::Verifier;
    use crate::options::{Options, RevocationScope};
    use crate::pool::Pool;
    use crate::sources::Sources;
    let root = ca("CN=Self Root");
    let (der, key) = issue_named(&root, "CN=Self CA", Profile::Ca, Vec::new());
    let ca1 = Issuer::new(der, key).unwrap();
    let point = "http://crl.example/self-indirect.crl";
    let crl_issuer_name = parse_subject("CN=Self CRL Issuer").unwrap();
    let (der, key) = issue_named(
        &ca1,
        "CN=Self CRL Issuer",
        Profile::Ca,
        vec![dp_with_crl_issuer(point, &crl_issuer_name)],
    );
    let crl_issuer = Issuer::new(der, key).unwrap();
    let (leaf, _) = issue_named(
        &ca1,
        "CN=leaf",
        Profile::Server,
        vec![dp_with_crl_issuer(point, &crl_issuer_name)],
    );
    let mut idp_spec = spec(1, Vec::new());
    idp_spec.extra.push(idp(true, |w| {
        dp_uri(w, point);
        w.primitive(0x84, &[0xff]);
    }));
    let indirect = crl(&crl_issuer, &idp_spec);
    let root_crl = crl(&root, &spec(1, Vec::new()));
    let verdict = |crls: &[&Vec<u8>]| {
        let parsed: Vec<Crl<'_>> = crls.iter().map(|d| Crl::from_der(d).unwrap()).collect();
        let sources = Sources {
            crls: CrlSet::new(parsed),
            ocsp: Vec::new(),
            ca: None,
            online: None,
            crl_online: None,
        };
        let mut roots = Pool::new();
        roots.add(Certificate::from_der(&root.cert_der).unwrap());
        let mut pool = Pool::new();
        pool.add(Certificate::from_der(&ca1.cert_der).unwrap());
        pool.add(Certificate::from_der(&crl_issuer.cert_der).unwrap());
        let verifier = Verifier::new(be(), &roots, &pool, Some(&sources));
        let mut opts = Options::at(NOW);
        opts.revocation = RevocationScope::Chain;
        let v = verifier.verify(Certificate::from_der(&leaf).unwrap(), &[], &opts);
        v.result.map(|_| ()).map_err(|f| (f.reason, f.detail))
    };
    assert_eq!(verdict(&[&root_crl, &indirect]), Ok(()));
    // Its CA revokes the CRL issuer's certificate (on a CRL of CA certificates only, so
    // that it says nothing of the leaf): the CRLs the CRL issuer signs count for nothing.
    let mut ca_only = spec(1, vec![entry(&serial_of(&crl_issuer.cert_der), Some(1))]);
    ca_only.extra.push(idp(true, |w| {
        w.primitive(0x82, &[0xff]);
    }));
    let revoking = crl(&ca1, &ca_only);
    let mut ca_only_good = spec(1, Vec::new());
    ca_only_good.extra.push(idp(true, |w| {
        w.primitive(0x82, &[0xff]);
    }));
    let not_revoking = crl(&ca1, &ca_only_good);
    assert_eq!(verdict(&[&root_crl, &indirect, &not_revoking]), Ok(()));
    let (reason, detail) = verdict(&[&root_crl, &indirect, &revoking]).unwrap_err();
    assert_eq!(reason, Reason::RevocationUnknown, "{detail}");
}

/// A SAN for the profiles that need one (the CA refuses a TLS certificate without).
fn test_sans(profile: Profile) -> Vec<Vec<u8>> {
    if profile.needs_san() {
        vec![
            pkit_x509::san::parse_san("DNS:subject.example")
                .unwrap()
                .der,
        ]
    } else {
        Vec::new()
    }
}
