//! Unit tests of `pkcs12.rs`.

use super::*;
use crate::der::Writer;

#[test]
fn bad_bag_is_located() {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.oid(&oids::P12_CERT_BAG);
            w.null();
        });
    });
    let der = w.finish();
    let e = safe_contents(Reader::new(&der)).unwrap_err();
    assert_eq!(e.path_string(), "safeContents[0].bagValue");
    assert_eq!(der[e.offset], tag::NULL);
}

#[test]
fn macs_compare_whole() {
    assert!(ct_eq(b"abc", b"abc"));
    assert!(!ct_eq(b"abc", b"abd"));
    assert!(!ct_eq(b"abc", b"ab"));
}
