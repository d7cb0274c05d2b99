//! What the CRL tests of this crate stand on: a CA and records holding revoked
//! certificates, made one way for all of them.

use crate::issuer::{self_signed, Issuer};
use crate::store::{CaStore, CertRecord, SqliteCaStore};
use pkit_der::Time;
use pkit_openssl as openssl;
use pkit_x509::alg::Algorithm;
use pkit_x509::subject::parse_subject;
use std::path::Path;

/// A self-signed P-256 CA valid from a day before `now` for a year.
pub(crate) fn issuer(now: Time) -> Issuer {
    let be = openssl::backend();
    let key = be.generate(Algorithm::EcdsaP256).unwrap();
    let name = parse_subject("CN=CRL CA").unwrap();
    let ca = self_signed(
        key.as_ref(),
        &name,
        now.plus_seconds(-86_400),
        now.plus_seconds(365 * 86_400),
        None,
    )
    .unwrap();
    Issuer::new(ca, key).unwrap()
}

/// A record of serial `[n; 20]` valid until `not_after`.
pub(crate) fn record(n: u8, not_after: i64) -> CertRecord {
    CertRecord {
        serial: vec![n; 20],
        subject: "CN=x".into(),
        not_before: 0,
        not_after,
        profile: "server".into(),
        key_algorithm: "ecdsa-p256".into(),
        status: "valid".into(),
        issued_at: 0,
        der: vec![0x30, 0],
    }
}

/// `dir/ca.db` holding three certificates, all revoked a minute before `now`; the
/// second expired before `now`.
pub(crate) fn revoked_store(dir: &Path, now: Time) -> SqliteCaStore {
    let mut s = SqliteCaStore::open(&dir.join("ca.db")).unwrap();
    let later = now.unix + 86_400;
    s.insert_certificates(&[record(1, later), record(2, now.unix - 1), record(3, later)])
        .unwrap();
    for n in 1..=3 {
        s.revoke(&[n; 20], now.unix - 60, Some(1)).unwrap();
    }
    s
}
