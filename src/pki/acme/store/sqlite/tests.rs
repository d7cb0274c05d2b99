//! The ACME state on SQLite: one replacing order per certificate, spent nonces across
//! the v5 schema upgrade, clones sharing one connection.

use super::*;

#[test]
fn one_order_at_a_time_replaces_a_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = SqliteAcme::open(&dir.path().join("acme.db")).unwrap();
    let account = db.create_account("t", "{}", b"k", "[]", None, 0).unwrap();
    let r = Replacing {
        cert_id: "AQID.BA".into(),
        serial: "04".into(),
    };
    let order = |db: &mut SqliteAcme, replaces: Option<&Replacing>| {
        db.create_order(account, "[]", None, replaces, (None, None), 60, &[], 0)
            .unwrap()
    };
    let Created::Order(first) = order(&mut db, Some(&r)) else {
        panic!("the first replacement is made");
    };
    assert_eq!(
        db.order(first).unwrap().unwrap().replaces.as_deref(),
        Some("AQID.BA")
    );
    assert_eq!(order(&mut db, Some(&r)), Created::AlreadyReplaced(first));
    // Orders that replace nothing, or something else, are not in the way.
    assert!(matches!(order(&mut db, None), Created::Order(_)));
    let other = Replacing {
        cert_id: "AQID.BQ".into(),
        serial: "05".into(),
    };
    assert!(matches!(order(&mut db, Some(&other)), Created::Order(_)));
    // An invalid replacement frees the certificate for the next.
    db.set_order_status(first, "invalid", None).unwrap();
    let Created::Order(second) = order(&mut db, Some(&r)) else {
        panic!("replaceable again once the first is invalid");
    };
    let replacing: Vec<i64> = db
        .orders_replacing("AQID.BA")
        .unwrap()
        .iter()
        .map(|o| o.id)
        .collect();
    assert_eq!(replacing, [first, second]);
}

/// A state made before v5 keeps its spent nonces spent: a replay across the upgrade is
/// still refused, and pruning by age still works on the new table.
#[test]
fn spent_nonces_survive_the_v5_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("acme.db");
    {
        let old = sqlite::open_versioned(&path, &MIGRATIONS[..4]).unwrap();
        old.execute(
            "INSERT INTO spent_nonces (nonce, made) VALUES ('spent-before', 100)",
            [],
        )
        .unwrap();
    }
    let db = SqliteAcme::open(&path).unwrap();
    assert!(!db.spend_nonce("spent-before", 100, 100, false).unwrap());
    assert!(db.spend_nonce("fresh", 200, 200, false).unwrap());
    assert!(!db.spend_nonce("fresh", 200, 200, false).unwrap());
    // Past the lifetime the first goes; the second, younger, stays.
    let later = 100 + crate::nonce::LIFETIME + 1;
    assert!(db.spend_nonce("another", later, later, true).unwrap());
    let left: Vec<String> = db
        .lock()
        .prepare("SELECT nonce FROM spent_nonces ORDER BY made, nonce")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(left, ["fresh", "another"]);
}

/// The clones a server hands its threads are one connection: a nonce spent through one
/// is spent for all, and of threads spending one nonce at once exactly one succeeds.
#[test]
fn clones_share_one_connection() {
    let dir = tempfile::tempdir().unwrap();
    let db = SqliteAcme::open(&dir.path().join("acme.db")).unwrap();
    let id = db.create_account("t", "{}", b"k", "[]", None, 0).unwrap();
    let other = db.clone();
    assert_eq!(other.account(id).unwrap().unwrap().thumbprint, "t");
    let won: usize = std::thread::scope(|s| {
        let spends: Vec<_> = (0..8)
            .map(|_| {
                let db = db.clone();
                s.spawn(move || usize::from(db.spend_nonce("n", 5, 5, false).unwrap()))
            })
            .collect();
        spends.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(won, 1);
}
