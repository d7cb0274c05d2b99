//! The publisher over a `ca.db` in a temporary directory: a CRL at start, a new one after
//! a revocation recorded by another connection, a refresh at half its window, none
//! otherwise, and a bounded history.

use super::*;
use crate::store::SqliteCaStore;
use crate::testing::{issuer, record, revoked_store};
use pkit_x509::crl::Crl;

const NOW: Time = Time {
    unix: 1_800_000_000,
};

fn schedule() -> Schedule {
    Schedule {
        lifetime: 86_400,
        poll: Duration::from_millis(10),
        drop_expired: true,
    }
}

#[test]
fn republishes_on_revocation_and_before_next_update() {
    let dir = tempfile::tempdir().unwrap();
    let mut other = revoked_store(dir.path(), NOW);
    let store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    let (mut p, first) =
        CrlPublisher::start(issuer(NOW), Box::new(store), schedule(), NOW).unwrap();
    // The expired one is left out.
    assert_eq!((first[0].number, first[0].entries), (1, 2));
    assert_eq!(p.current().get().unwrap().number, 1);

    // Nothing new: nothing made.
    assert!(p.tick(NOW.plus_seconds(60)).is_empty());

    // Another process revokes: the next tick republishes, listing it.
    other
        .insert_certificates(&[record(7, NOW.unix + 86_400)])
        .unwrap();
    other.revoke(&[7; 20], NOW.unix, None).unwrap();
    let [Event::Published { crl, why }] = &p.tick(NOW.plus_seconds(61))[..] else {
        panic!("no CRL after a revocation")
    };
    let (crl, why) = (Arc::clone(crl), *why);
    assert_eq!((why, crl.number, crl.entries), ("revocation", 2, 3));
    let parsed = Crl::from_der(&crl.der).unwrap();
    assert_eq!(parsed.revoked_count().unwrap(), 3);
    assert!(p.tick(NOW.plus_seconds(62)).is_empty());

    // Half the window gone: refreshed.
    let half = NOW.plus_seconds(61 + 43_200);
    let [Event::Published { why, crl }] = &p.tick(half)[..] else {
        panic!("no refresh")
    };
    assert_eq!((*why, crl.number), ("refresh", 3));
    assert_eq!(crl.this_update, half.unix);
}

#[test]
fn keeps_a_bounded_history() {
    let dir = tempfile::tempdir().unwrap();
    let mut other = revoked_store(dir.path(), NOW);
    let store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    let (mut p, _) = CrlPublisher::start(issuer(NOW), Box::new(store), schedule(), NOW).unwrap();
    for n in 10..30u8 {
        other
            .insert_certificates(&[record(n, NOW.unix + 86_400)])
            .unwrap();
        other.revoke(&[n; 20], NOW.unix, None).unwrap();
        assert!(matches!(
            &p.tick(NOW)[..],
            [Event::Published {
                why: "revocation",
                ..
            }]
        ));
    }
    let files = std::fs::read_dir(dir.path().join("crls")).unwrap().count();
    assert_eq!(files as u64, KEPT);
    assert_eq!(other.latest_crl().unwrap().unwrap().number, 21);
}

#[test]
fn the_thread_stops_when_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let mut other = revoked_store(dir.path(), NOW);
    let store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    let (p, _) = CrlPublisher::start(issuer(NOW), Box::new(store), schedule(), NOW).unwrap();
    let current = p.current();
    let (tx, rx) = mpsc::channel();
    let thread = p.spawn(move |e| {
        let _ = tx.send(matches!(e, Event::Published { .. }));
    });
    let thread = thread.unwrap();
    other.insert_certificates(&[record(9, i64::MAX)]).unwrap();
    other.revoke(&[9; 20], NOW.unix, None).unwrap();
    assert!(rx.recv_timeout(Duration::from_secs(30)).unwrap());
    assert_eq!(current.get().unwrap().number, 2);
    drop(thread);
}

#[test]
fn shards_list_each_revocation_once_under_their_own_scope() {
    use crate::crl_generate::Scope;
    use crate::pointers::{shard_of, shard_url};
    let dir = tempfile::tempdir().unwrap();
    let mut other = revoked_store(dir.path(), NOW);
    for n in 10..60u8 {
        other
            .insert_certificates(&[record(n, NOW.unix + 86_400)])
            .unwrap();
        other.revoke(&[n; 20], NOW.unix, None).unwrap();
    }
    let mut ca = issuer(NOW);
    ca.pointers.crl = vec!["http://ca.example/int.crl".into()];
    ca.crl_shards = 4;
    let store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    let (p, first) = CrlPublisher::start(ca, Box::new(store), schedule(), NOW).unwrap();
    // The whole CRL and four shards, numbered in one block.
    let numbers: Vec<u64> = first.iter().map(|c| c.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
    assert_eq!(first[0].entries, 52);
    let mut seen = 0;
    for (scope, urls, current) in p.scopes().into_iter().skip(1) {
        let Scope::Shard(k) = scope else {
            panic!("{scope:?}")
        };
        assert_eq!(urls, [shard_url("http://ca.example/int.crl", k)]);
        let crl = current.get().unwrap();
        let parsed = Crl::from_der(&crl.der).unwrap();
        // Each entry is in the shard its serial names, and no other.
        for e in parsed.revoked() {
            let e = e.unwrap();
            assert_eq!(
                shard_of(crate::der::integer::unsigned_bytes(e.serial), 4),
                k
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 52);
}

/// The serials, dates and reasons a CRL lists, in order.
fn listed(der: &[u8]) -> Vec<(Vec<u8>, i64, bool)> {
    Crl::from_der(der)
        .unwrap()
        .revoked()
        .map(|e| {
            let e = e.unwrap();
            (
                e.serial.to_vec(),
                e.revocation_date.unix,
                e.extensions.is_some(),
            )
        })
        .collect()
}

#[test]
fn a_revocation_resigns_its_shard_and_the_whole_crl_only_as_a_walk_would() {
    use crate::pointers::shard_of;
    let dir = tempfile::tempdir().unwrap();
    let mut other = revoked_store(dir.path(), NOW);
    for n in 10..40u8 {
        other
            .insert_certificates(&[record(n, NOW.unix + 86_400)])
            .unwrap();
        other.revoke(&[n; 20], NOW.unix, Some(6)).unwrap();
    }
    let sharded = || {
        let mut ca = issuer(NOW);
        ca.pointers.crl = vec!["http://ca.example/int.crl".into()];
        ca.crl_shards = 4;
        ca
    };
    let store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    let (mut p, _) = CrlPublisher::start(sharded(), Box::new(store), schedule(), NOW).unwrap();

    // A new certificate revoked, and a hold made final: the whole CRL and the two
    // shards they fall in are signed again, no other.
    other
        .insert_certificates(&[record(50, NOW.unix + 86_400)])
        .unwrap();
    other.revoke(&[50; 20], NOW.unix + 5, Some(1)).unwrap();
    other.revoke(&[12; 20], NOW.unix + 6, Some(1)).unwrap();
    let later = NOW.plus_seconds(10);
    let events = p.tick(later);
    let mut scopes: Vec<Scope> = events
        .iter()
        .map(|e| match e {
            Event::Published { crl, why } => {
                assert_eq!(*why, "revocation");
                crl.scope
            }
            Event::Failed { message } => panic!("{message}"),
        })
        .collect();
    let mut want = vec![Scope::Whole, Scope::Shard(shard_of(&[50; 20], 4))];
    if !want.contains(&Scope::Shard(shard_of(&[12; 20], 4))) {
        want.push(Scope::Shard(shard_of(&[12; 20], 4)));
    }
    scopes.sort_by_key(|s| format!("{s:?}"));
    want.sort_by_key(|s| format!("{s:?}"));
    assert_eq!(scopes, want);

    // Every CRL served lists what one walk of the records now gives.
    let ca = sharded();
    let options = CrlOptions {
        this_update: later,
        lifetime: schedule().lifetime,
        drop_expired: schedule().drop_expired,
    };
    let walked = crate::crl_generate::build_scopes(
        &ca,
        &SqliteCaStore::open(&dir.path().join("ca.db")).unwrap(),
        &options,
        &Scope::all_of(&ca),
        1,
    )
    .unwrap();
    for ((scope, _, current), walk) in p.scopes().into_iter().zip(walked) {
        let served = current.get().unwrap();
        let signed = crate::crl::sign_crl(&walk.tbs, ca.key.signer().unwrap().as_mut()).unwrap();
        assert_eq!(listed(&served.der), listed(&signed), "{scope:?}");
    }
    let whole = listed(&p.current().get().unwrap().der);
    assert_eq!(whole.len(), 2 + 30 + 1);
    let twelve = whole.iter().find(|e| e.0 == [12; 20]).unwrap();
    assert_eq!(twelve.1, NOW.unix + 6);
}
