//! Merging revocations into entries kept encoded gives, byte for byte, the entries a
//! fresh walk of the records would encode.

use super::*;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::collections::BTreeMap;

fn rev(serial: &[u8], at: i64, reason: Option<u8>) -> Revoked {
    Revoked {
        serial: serial.to_vec(),
        revoked_at: at,
        reason,
        not_after: i64::MAX,
    }
}

/// The list a walk of these records gives: pushed in the order of their encoded serials.
fn walked(records: &BTreeMap<Vec<u8>, Revoked>) -> RevokedList {
    let mut l = RevokedList::default();
    for r in records.values() {
        l.push_revoked(r);
    }
    l
}

/// Records keyed as the list orders them.
fn keyed(rs: &[Revoked]) -> BTreeMap<Vec<u8>, Revoked> {
    rs.iter()
        .map(|r| (encoded_serial(&r.serial), r.clone()))
        .collect()
}

#[test]
fn new_entries_go_in_order_and_replace_their_serial() {
    let old = [
        rev(&[0x10], 1, Some(6)),
        rev(&[0x20], 2, None),
        rev(&[0x30], 3, Some(1)),
    ];
    let mut l = walked(&keyed(&old));
    let new = [
        rev(&[0x05], 4, Some(4)),     // first
        rev(&[0x10], 5, Some(1)),     // the hold replaced
        rev(&[0x25], 6, None),        // between
        rev(&[0x40], 7, Some(0)),     // last, unspecified left out
        rev(&[0x25], 8, Some(3)),     // the same serial twice: the later wins
        rev(&[0x00, 0x90], 9, None),  // a leading zero the encoding drops
        rev(&[0xff, 0x01], 10, None), // a high bit the encoding pads
    ];
    assert!(l.merge(&new));
    let mut all = keyed(&old);
    all.extend(keyed(&new));
    let want = walked(&all);
    assert_eq!(l.body(), want.body());
    assert_eq!(l.len(), 8);
    assert_eq!(l.starts, want.starts);
}

#[test]
fn merging_nothing_or_into_nothing() {
    let mut l = RevokedList::default();
    assert!(l.merge(&[]));
    assert!(l.is_empty());
    assert!(l.merge(&[rev(&[2], 1, None), rev(&[1], 1, None)]));
    assert_eq!(l.len(), 2);
    assert_eq!(serial_of(l.entry(0)), [1]);
}

#[test]
fn a_list_out_of_order_is_not_merged_into() {
    let mut l = RevokedList::default();
    l.push(&[2], Time { unix: 1 }, None);
    l.push(&[1], Time { unix: 1 }, None);
    let before = l.body().to_vec();
    assert!(!l.merge(&[rev(&[3], 1, None)]));
    assert_eq!(l.body(), before);
}

/// A serial's magnitude: 1 to 20 octets, leading zeros and high bits included.
fn serial() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 1..=20)
}

fn revoked() -> impl Strategy<Value = Revoked> {
    (
        serial(),
        0i64..4_000_000_000,
        prop::option::of(prop::sample::select(vec![0u8, 1, 3, 4, 5, 6, 9])),
    )
        .prop_map(|(s, at, reason)| rev(&s, at, reason))
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/crl_entries.txt",
        ))),
        ..ProptestConfig::with_cases(256)
    })]

    /// Old entries, then new ones merged (some of the same serials, some repeated):
    /// the same bytes as one walk over the records as they then stand.
    #[test]
    fn merge_is_a_walk_of_the_records_after(
        old in prop::collection::vec(revoked(), 0..64),
        new in prop::collection::vec(revoked(), 0..16),
        again in prop::collection::vec(0usize..64, 0..8),
    ) {
        // Some new records revoke a serial the old ones hold.
        let mut new = new;
        for i in again {
            if let Some(o) = old.get(i) {
                new.push(rev(&o.serial, o.revoked_at + 1, Some(1)));
            }
        }
        let old = keyed(&old);
        let mut l = walked(&old);
        prop_assert!(l.merge(&new));
        let mut all = old;
        for r in &new {
            all.insert(encoded_serial(&r.serial), r.clone());
        }
        let want = walked(&all);
        prop_assert_eq!(l.body(), want.body());
        prop_assert_eq!(&l.starts, &want.starts);
    }
}
