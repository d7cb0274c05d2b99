//! Path building's own rules, apart from the validation it runs.

use super::*;
use crate::testcert::{cert, utf8_name};

#[test]
fn self_issued_intermediates_are_not_counted() {
    // testcert's certificates are all issued by "CN=Test CA".
    let leaf = cert(&utf8_name(&[(oids::AT_COMMON_NAME, "leaf")]), &[]);
    let other = cert(&utf8_name(&[(oids::AT_COMMON_NAME, "Other CA")]), &[]);
    let self_issued = cert(&utf8_name(&[(oids::AT_COMMON_NAME, "Test CA")]), &[]);
    fn c(d: &[u8]) -> Certificate<'_> {
        Certificate::from_der(d).unwrap()
    }
    assert_eq!(counted_intermediates(&[c(&leaf)]), 0);
    assert_eq!(counted_intermediates(&[c(&leaf), c(&other)]), 1);
    assert_eq!(counted_intermediates(&[c(&leaf), c(&self_issued)]), 0);
    assert_eq!(
        counted_intermediates(&[c(&leaf), c(&self_issued), c(&other), c(&self_issued)]),
        1
    );
    // The target is never an intermediate, self-issued or not.
    assert_eq!(counted_intermediates(&[c(&self_issued), c(&other)]), 1);
}
