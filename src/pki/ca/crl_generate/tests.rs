//! `pkit crl gen`'s pipeline over a `ca.db` in a temporary directory: the stages make what
//! the whole makes, and a CRL the records refuse leaves no file.

use super::*;
use pkit_x509::crl::Crl;

const NOW: Time = Time {
    unix: 1_800_000_000,
};

fn issuer() -> Issuer {
    crate::testing::issuer(NOW)
}

/// A store holding three certificates, all revoked; the second expired before [`NOW`].
fn store(dir: &Path) -> crate::store::SqliteCaStore {
    crate::testing::revoked_store(dir, NOW)
}

fn options(drop_expired: bool) -> CrlOptions {
    CrlOptions {
        this_update: NOW,
        lifetime: 7 * 86_400,
        drop_expired,
    }
}

#[test]
fn the_stages_make_what_the_whole_makes() {
    let (ca, dir) = (issuer(), tempfile::tempdir().unwrap());
    let mut s = store(dir.path());

    let tbs = build(&ca, &mut s, &options(false)).unwrap();
    assert_eq!((tbs.fields.number, tbs.entries), (1, 3));
    assert_eq!(tbs.fields.next_update, NOW.plus_seconds(7 * 86_400));
    let findings = gate(&ca, &tbs).unwrap();
    let made = sign(ca.key.signer().unwrap().as_mut(), &tbs, findings).unwrap();
    let crl = Crl::from_der(&made.record.der).unwrap();
    assert_eq!(crl.tbs_raw, tbs.tbs.as_slice(), "signed as built");
    assert_eq!(crl.revoked_count().unwrap(), 3);

    // The whole pipeline takes the next number and, asked to, drops what expired.
    let whole = generate_crl(&ca, &mut s, &options(true)).unwrap();
    assert_eq!((whole.record.number, whole.entries), (2, 2));
    let crl = Crl::from_der(&whole.record.der).unwrap();
    assert_eq!(crl.revoked_count().unwrap(), 2);
    assert_eq!(whole.record.this_update, NOW.unix);
}

#[test]
fn a_crl_the_records_refuse_leaves_no_file() {
    let (ca, dir) = (issuer(), tempfile::tempdir().unwrap());
    let mut s = store(dir.path());
    let made = generate_crl(&ca, &mut s, &options(false)).unwrap();
    let out = dir.path().join("out.crl");
    let write = || std::fs::write(&out, &made.record.der);

    record_and_write(&mut s, &made.record, Some(&out), write).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), made.record.der);
    assert_eq!(s.latest_crl().unwrap().unwrap().number, made.record.number);

    // The same number again: refused by the records, and the file written meanwhile goes.
    std::fs::remove_file(&out).unwrap();
    let e = record_and_write(&mut s, &made.record, Some(&out), write).unwrap_err();
    assert!(matches!(e, PublishError::Store(_)), "{e}");
    assert!(!out.exists());

    // A write that fails once the CRL is on record says so.
    let next = generate_crl(&ca, &mut s, &options(false)).unwrap();
    let e = record_and_write(&mut s, &next.record, None, || Err("disk full")).unwrap_err();
    assert!(matches!(e, PublishError::Write("disk full")));
    assert_eq!(s.latest_crl().unwrap().unwrap().number, next.record.number);
}
