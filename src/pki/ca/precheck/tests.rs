//! The CA refusing what its chain forbids, through `pkit-verify`'s pre-issuance check.

use super::*;
use crate::der::Time;
use crate::issuer::{CaError, Issuer, Request};
use crate::name_constraints::{encode, parse_base};
use crate::profile::Profile;
use pkit_openssl as openssl;
use pkit_x509::alg::Algorithm;
use pkit_x509::{san::parse_san, subject::parse_subject};

fn request(subject: &str, sans: &[&str], profile: Profile, now: Time) -> Request {
    let be = openssl::backend();
    let key = be.generate(Algorithm::EcdsaP256).unwrap();
    Request {
        key_alg: Some(Algorithm::EcdsaP256),
        sans: sans.iter().map(|s| parse_san(s).unwrap().der).collect(),
        ..Request::new(
            parse_subject(subject).unwrap(),
            key.public_key_der().unwrap(),
            profile,
            now,
            now.plus_seconds(86_400),
        )
    }
}

/// A root permitting `permit`, and an issuer for it that validates what it signs.
fn constrained_root(permit: &[&str], path_len: Option<u32>) -> Issuer {
    let be = openssl::backend();
    let now = Time::now();
    let key = be.generate(Algorithm::EcdsaP256).unwrap();
    let bases: Vec<Vec<u8>> = permit.iter().map(|p| parse_base(p).unwrap()).collect();
    let nc = encode(&bases, &[]);
    let off = crate::gate::LintGate {
        mode: crate::gate::GateMode::Off,
        ..Default::default()
    };
    let (der, _) = crate::issuer::self_signed_with(
        key.as_ref(),
        &parse_subject("CN=Root").unwrap(),
        now.plus_seconds(-60),
        now.plus_seconds(86_400 * 30),
        path_len,
        nc.as_deref(),
        &off,
    )
    .unwrap();
    let mut issuer = Issuer::new(der.clone(), key).unwrap();
    issuer.chain = Some(PreIssue::new(be, vec![der]).unwrap());
    issuer
}

fn refusal_of(e: CaError) -> Refusal {
    match e {
        CaError::Forbidden(r) => r,
        other => panic!("not a refusal: {other}"),
    }
}

#[test]
fn names_outside_the_constraints_are_refused_before_and_at_signing() {
    let ca = constrained_root(&["DNS:fleet.internal", "IP:10.0.0.0/8"], None);
    let now = Time::now();
    let mut signer = ca.key.signer().unwrap();
    assert!(ca
        .issue(
            signer.as_mut(),
            &request(
                "CN=a.fleet.internal",
                &["DNS:a.fleet.internal", "IP:10.1.2.3"],
                Profile::Server,
                now
            )
        )
        .is_ok());
    let r = refusal_of(
        ca.issue(
            signer.as_mut(),
            &request("", &["DNS:evil.example"], Profile::Server, now),
        )
        .err()
        .unwrap(),
    );
    assert_eq!((r.code, r.cert), ("name-constraints", Some(0)));
    assert!(r.detail.contains("dNSName \"evil.example\""), "{r}");
    // The commonName is held to the constraints even beside a SAN inside them.
    let r = refusal_of(
        ca.issue(
            signer.as_mut(),
            &request(
                "CN=evil.example",
                &["DNS:a.fleet.internal"],
                Profile::Server,
                now,
            ),
        )
        .err()
        .unwrap(),
    );
    assert!(r.detail.starts_with("subject commonName"), "{r}");
    // The same answers before anything is made.
    let chain = ca.chain.as_ref().unwrap();
    assert!(chain
        .names(&[0x30, 0], &[parse_san("IP:10.9.9.9").unwrap().der])
        .is_ok());
    let r = chain
        .names(&[0x30, 0], &[parse_san("IP:192.0.2.1").unwrap().der])
        .unwrap_err();
    assert_eq!(r.code, "name-constraints");
    assert!(chain
        .names(
            &parse_subject("CN=www.evil.example").unwrap(),
            &[parse_san("DNS:a.fleet.internal").unwrap().der]
        )
        .is_err());
}

#[test]
fn a_ca_below_a_path_length_of_zero_is_refused() {
    // A root allowing one CA below it; its intermediate (made as elsewhere, without a
    // pathLenConstraint of its own) may not certify another.
    let mut root = constrained_root(&[], Some(1));
    let now = Time::now();
    let be = openssl::backend();
    let int_key = be.generate(Algorithm::EcdsaP256).unwrap();
    let mut req = request("CN=Int", &[], Profile::Ca, now);
    req.spki = int_key.public_key_der().unwrap();
    // Made as elsewhere: without a pathLenConstraint of its own.
    root.path_len = None;
    let int_der = root
        .issue(root.key.signer().unwrap().as_mut(), &req)
        .unwrap()
        .der;
    let mut int = Issuer::new(int_der.clone(), int_key).unwrap();
    int.path_len = None;
    int.chain = Some(PreIssue::new(be, vec![int_der, root.cert_der.clone()]).unwrap());
    let r = refusal_of(
        int.issue(
            int.key.signer().unwrap().as_mut(),
            &request("CN=Sub", &[], Profile::Ca, now),
        )
        .err()
        .unwrap(),
    );
    assert_eq!((r.code, r.cert), ("path-length-exceeded", Some(2)));
    assert!(int
        .issue(
            int.key.signer().unwrap().as_mut(),
            &request("CN=leaf", &["DNS:a.example"], Profile::Server, now)
        )
        .is_ok());
}

#[test]
fn one_name_is_asked_of_the_policy_then_the_chain() {
    let ca = constrained_root(&["DNS:fleet.internal"], None);
    let chain = ca.chain.as_ref().unwrap();
    let policy = Policy::parse(&[], &["DNS:*.lab.fleet.internal".to_string()]).unwrap();
    assert_eq!(
        name_allowed(&policy, chain, "DNS:a.fleet.internal"),
        Ok(Ok(()))
    );
    let r = name_allowed(&policy, chain, "DNS:x.lab.fleet.internal")
        .unwrap()
        .unwrap_err();
    assert_eq!(r.code, "ca-policy");
    let r = name_allowed(&policy, chain, "DNS:evil.example")
        .unwrap()
        .unwrap_err();
    assert_eq!(r.code, "name-constraints");
    assert!(name_allowed(&policy, chain, "nonsense").is_err());
}
