//! Certificates issued under one ca.json, then read back under another: what they point
//! to that the new one does not name, and a shard count changed under them.

use super::*;
use crate::issue_one::RecordAs;
use crate::issuer::{Issuer, Request};
use crate::profile::Profile;
use crate::store::SqliteCaStore;
use crate::testing::issuer;
use pkit_der::Time;
use pkit_openssl as openssl;
use pkit_x509::alg::Algorithm;
use pkit_x509::san::parse_san;
use pkit_x509::subject::parse_subject;

const NOW: Time = Time {
    unix: 1_800_000_000,
};

fn ca(crl: &str, shards: u32) -> Issuer {
    let mut ca = issuer(NOW);
    ca.pointers = Pointers {
        ocsp: vec!["http://ca.example/ocsp".into()],
        ca_issuers: vec!["http://ca.example/ca.der".into()],
        crl: vec![crl.into()],
    };
    ca.crl_shards = shards;
    ca
}

/// `n` certificates issued by `ca` into `store`, each valid for `days`; their serials.
fn issue(ca: &Issuer, store: &mut SqliteCaStore, n: usize, days: i64) -> Vec<Vec<u8>> {
    let be = openssl::backend();
    let mut signer = ca.key.signer().unwrap();
    (0..n)
        .map(|_| {
            let key = be.generate(Algorithm::EcdsaP256).unwrap();
            let req = Request {
                sans: vec![parse_san("DNS:www.example.com").unwrap().der],
                ..Request::new(
                    parse_subject("CN=www.example.com").unwrap(),
                    key.public_key_der().unwrap(),
                    Profile::Server,
                    NOW,
                    NOW.plus_seconds(days * 86_400),
                )
            };
            ca.issue_and_record(signer.as_mut(), &req, store, RecordAs::default())
                .unwrap()
                .serial
                .to_vec()
        })
        .collect()
}

#[test]
fn urls_ca_json_no_longer_names_are_found_once_each() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    let old = ca("http://ca.example/old.crl", 0);
    let first = issue(&old, &mut store, 3, 30);
    // One that expired: what it points to no longer matters.
    let mut gone = ca("http://ca.example/gone.crl", 0);
    gone.pointers.ocsp = vec!["http://gone.example/".into()];
    issue(&gone, &mut store, 1, 1);

    // Nothing beyond ca.json while it is unchanged.
    let now = NOW.unix + 2 * 86_400;
    let u = unlisted(&store, &old.pointers, 0, now).unwrap();
    assert!(u.is_empty(), "{u:?}");

    // The CRL moved: the old URL is reported, once, with the first certificate of three.
    let moved = ca("http://ca.example/new.crl", 0);
    let u = unlisted(&store, &moved.pointers, 0, now).unwrap();
    assert!(u.ocsp.is_empty() && u.ca_issuers.is_empty(), "{u:?}");
    assert_eq!(u.crl.len(), 1, "{u:?}");
    let (url, serial, n) = &u.crl[0];
    assert_eq!((url.as_str(), *n), ("http://ca.example/old.crl", 3));
    assert!(first.contains(serial));
    assert_eq!(
        u.pointers().crl,
        vec!["http://ca.example/old.crl".to_string()]
    );

    // A row whose DER does not parse is counted, not fatal: OCSP and CRLs need only its
    // serial and dates.
    store
        .insert_certificates(&[crate::testing::record(9, NOW.unix + 30 * 86_400)])
        .unwrap();
    let u = unlisted(&store, &moved.pointers, 0, now).unwrap();
    assert_eq!((u.crl.len(), u.unreadable), (1, 1), "{u:?}");
    assert_eq!(u.first_unreadable.unwrap().0, vec![9; 20]);
}

#[test]
fn a_shard_count_changed_under_issued_certificates() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    let crl = "http://ca.example/int.crl";
    let four = ca(crl, 4);
    let serials = issue(&four, &mut store, 12, 30);
    // Under the same count every certificate points to its own shard.
    assert!(unlisted(&store, &four.pointers, 4, NOW.unix)
        .unwrap()
        .is_empty());
    // Unsharded now: the shard URLs are unlisted, answered with the whole CRL.
    let u = unlisted(&store, &four.pointers, 0, NOW.unix).unwrap();
    let n: u64 = u.crl.iter().map(|(_, _, n)| n).sum();
    assert_eq!(n, 12, "{u:?}");
    assert!(u
        .crl
        .iter()
        .all(|(url, _, _)| url.starts_with("http://ca.example/int-")));
    // Three shards now: a certificate in shard 0–2 of four whose serial falls in
    // another of three names a CRL that would not list it (about half of them are).
    let moved = serials
        .iter()
        .any(|s| shard_of(s, 4) < 3 && shard_of(s, 4) != shard_of(s, 3));
    match unlisted(&store, &four.pointers, 3, NOW.unix) {
        Err(WrittenError::OtherShard { url, expected, .. }) => {
            assert!(moved);
            assert!(url.starts_with("http://ca.example/int-"), "{url}");
            assert!(expected.starts_with("http://ca.example/int-"), "{expected}");
            assert_ne!(url, expected);
            let message = unlisted(&store, &four.pointers, 3, NOW.unix)
                .unwrap_err()
                .to_string();
            assert!(message.contains("shard count changed"), "{message}");
        }
        Ok(u) => {
            // No such certificate among the twelve: every one is unlisted or its own.
            assert!(!moved, "{u:?}");
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_shard_url_at_another_host_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    let four = ca("http://old.example/int.crl", 4);
    issue(&four, &mut store, 1, 30);
    // The same path at a new host: the shard's CRL, served at that path, would name the
    // new URL in its issuingDistributionPoint, which the certificate's does not match.
    let moved = ca("http://new.example/int.crl", 4);
    match unlisted(&store, &moved.pointers, 4, NOW.unix) {
        Err(WrittenError::ShardElsewhere { url, expected, .. }) => {
            assert!(url.starts_with("http://old.example/int-"), "{url}");
            assert_eq!(
                expected,
                url.replace("old.example", "new.example"),
                "{expected}"
            );
        }
        other => panic!("{other:?}"),
    }
    // The whole CRL has no issuingDistributionPoint: a host change is no matter there.
    let whole = ca("http://old.example/int.crl", 0);
    let mut store = SqliteCaStore::open(&dir.path().join("whole.db")).unwrap();
    issue(&whole, &mut store, 1, 30);
    let u = unlisted(
        &store,
        &ca("http://new.example/int.crl", 0).pointers,
        0,
        NOW.unix,
    );
    assert!(u.unwrap().is_empty());
}
