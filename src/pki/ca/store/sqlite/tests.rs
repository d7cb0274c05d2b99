//! The SQLite CA store against a `ca.db` in a temporary directory.

use super::schema::SCHEMA_VERSION;
use super::*;
use crate::store::api::CERTIFICATE_HOLD;
use crate::store::CaStore;

fn rec(serial: u8) -> CertRecord {
    CertRecord {
        serial: vec![serial; 20],
        subject: "CN=x".into(),
        not_before: 0,
        not_after: 1,
        profile: "server".into(),
        key_algorithm: "ecdsa-p256".into(),
        status: "valid".into(),
        issued_at: 0,
        der: vec![0x30, 0],
    }
}

#[test]
fn migrates_inserts_and_rejects_duplicate_serials() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("ca.db");
    let mut s = SqliteCaStore::open(&p).unwrap();
    s.insert_certificates(&[rec(1), rec(2)]).unwrap();
    assert!(s.insert_certificates(&[rec(3), rec(1)]).is_err());
    assert_eq!(
        s.count().unwrap(),
        2,
        "a failed batch leaves nothing behind"
    );
    drop(s);
    let s = SqliteCaStore::open(&p).unwrap();
    assert_eq!(s.list().unwrap().len(), 2);
    assert!(s.get(&[2; 20]).unwrap().is_some());
    let v: i64 = s
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
}

#[test]
fn revocation_status_and_crl_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    s.insert_certificates(&[rec(1), rec(2), rec(3)]).unwrap();
    assert_eq!(s.status(&[1; 20]).unwrap(), CertStatus::Good);
    assert_eq!(s.status(&[9; 20]).unwrap(), CertStatus::Unknown);
    assert_eq!(s.revoke(&[9; 20], 5, None).unwrap(), RevokeOutcome::Unknown);
    assert_eq!(
        s.revoke(&[3; 20], 5, Some(1)).unwrap(),
        RevokeOutcome::Revoked
    );
    assert_eq!(
        s.revoke(&[1; 20], 7, Some(CERTIFICATE_HOLD)).unwrap(),
        RevokeOutcome::Revoked
    );
    // A second revocation keeps the first record...
    assert!(matches!(
        s.revoke(&[3; 20], 9, Some(4)).unwrap(),
        RevokeOutcome::AlreadyRevoked(Revoked {
            revoked_at: 5,
            reason: Some(1),
            ..
        })
    ));
    // ...except that a hold may become final.
    assert_eq!(
        s.revoke(&[1; 20], 8, Some(1)).unwrap(),
        RevokeOutcome::Revoked
    );
    let mut seen = Vec::new();
    s.for_each_revoked(&mut |r| seen.push((r.serial[0], r.revoked_at, r.reason)))
        .unwrap();
    assert_eq!(seen, vec![(1, 8, Some(1)), (3, 5, Some(1))]);
    assert!(matches!(
        s.status(&[3; 20]).unwrap(),
        CertStatus::Revoked(_)
    ));
    assert_eq!(s.get(&[3; 20]).unwrap().unwrap().status, "revoked");
    assert_eq!(s.next_crl_number().unwrap(), 1);
    assert_eq!(s.next_crl_number().unwrap(), 2);
    // A number is claimed only when it is the next one, and once.
    assert_eq!(s.last_crl_number().unwrap(), 2);
    assert!(!s.claim_crl_numbers(2, 1).unwrap());
    assert!(!s.claim_crl_numbers(4, 1).unwrap());
    assert!(s.claim_crl_numbers(3, 1).unwrap());
    assert!(!s.claim_crl_numbers(3, 1).unwrap());
    // A block: 4 to 6.
    assert!(s.claim_crl_numbers(4, 3).unwrap());
    assert_eq!(s.next_crl_number().unwrap(), 7);
}

#[test]
fn revocations_are_counted_once_each() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    assert_eq!(s.revocations_recorded().unwrap(), 0);
    s.insert_certificates(&[rec(1), rec(2)]).unwrap();
    s.revoke(&[1; 20], 5, None).unwrap();
    s.revoke(&[1; 20], 6, None).unwrap(); // already revoked: nothing changes
    s.revoke(&[9; 20], 6, None).unwrap(); // unknown
    assert_eq!(s.revocations_recorded().unwrap(), 1);
    s.revoke(&[2; 20], 7, Some(1)).unwrap();
    assert_eq!(s.revocations_recorded().unwrap(), 2);
}

#[test]
fn crls_and_ocsp_responses() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
    assert_eq!(s.latest_crl().unwrap(), None);
    let crl = |number| CrlRecord {
        number,
        this_update: 1,
        next_update: 2,
        der: vec![0x30, 0],
    };
    s.insert_crl(&crl(1)).unwrap();
    s.insert_crl(&crl(2)).unwrap();
    assert!(s.insert_crl(&crl(2)).is_err(), "a CRL number is used once");
    assert_eq!(s.latest_crl().unwrap(), Some(crl(2)));
    // The DER is a file beside ca.db; a changed file is refused, not returned.
    let file = dir.path().join(CRL_DIR).join("2.crl");
    assert_eq!(std::fs::read(&file).unwrap(), [0x30, 0]);
    std::fs::write(&file, [0x30, 1]).unwrap();
    assert!(matches!(s.latest_crl(), Err(StoreError::File(_))));
    // A leftover file for a number not on record is replaced.
    std::fs::write(dir.path().join(CRL_DIR).join("3.crl"), b"junk").unwrap();
    s.insert_crl(&crl(3)).unwrap();
    assert_eq!(s.latest_crl().unwrap(), Some(crl(3)));
    let resp = |serial, at| OcspRecord {
        serial: vec![serial; 20],
        produced_at: at,
        next_update: at + 1,
        der: vec![0x30, 0],
    };
    s.put_ocsp_responses(&[resp(2, 1), resp(1, 1)]).unwrap();
    s.put_ocsp_responses(&[resp(2, 5)]).unwrap();
    assert_eq!(s.ocsp_responses().unwrap(), vec![resp(1, 1), resp(2, 5)]);
}
