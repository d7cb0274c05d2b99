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
