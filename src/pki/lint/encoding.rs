//! Malformations: what in a certificate, CRL, OCSP response or CSR is not the DER or the
//! ASN.1 that RFC 5280 (and RFC 6960, RFC 2986) fix. The object is read leniently, so
//! that it is linted at all; each deviation the reader logged is a finding here, named by
//! its class, and a part that would not decode even leniently is
//! `e_rfc_field_undecodable` (the lints that need that part are then reported as not
//! run, never as if it were absent).

use crate::context::{CertContext, Problem};
use crate::der::ErrorKind;
use crate::finding::Finding;
use crate::rule::Lint;

const fn class(name: &'static str, source: &'static str) -> Lint {
    Lint::malformation(name, source)
}

/// A part that would not decode even leniently.
pub(crate) const UNDECODABLE: Lint = class("e_rfc_field_undecodable", "RFC 5280 §4.1");
const BER_LENGTH: Lint = class("e_rfc_ber_length", "X.690 §10.1; RFC 5280 §4.1");
const DEFAULT_ENCODED: Lint = class("e_rfc_default_value_encoded", "X.690 §11.5; RFC 5280 §4.1");
const INTEGER_NOT_MINIMAL: Lint = class("e_rfc_integer_not_minimal", "X.690 §8.3.2; RFC 5280 §4.1");
const INTEGER_NEGATIVE: Lint = class("e_rfc_integer_negative", "RFC 5280 §4.1");
const BIT_STRING: Lint = class("e_rfc_bit_string_not_der", "X.690 §11.2; RFC 5280 §4.1");
const BOOLEAN: Lint = class("e_rfc_boolean_not_der", "X.690 §11.1; RFC 5280 §4.1");
const SET_ORDER: Lint = class("e_rfc_set_not_sorted", "X.690 §11.6; RFC 5280 §4.1");
const TIME: Lint = class("e_rfc_time_not_der", "RFC 5280 §4.1.2.5.1, §4.1.2.5.2");
const STRING: Lint = class("e_rfc_string_invalid", "RFC 5280 §4.1.2.4, §4.2.1.6");
const VERSION: Lint = class("e_rfc_version_invalid", "RFC 5280 §4.1.2.1, §5.1.2.1");
const MALFORMED: Lint = class("e_rfc_malformed", "RFC 5280 §4.1");

/// Every class, as lints of any object.
pub(crate) static LINTS: &[Lint] = &[
    UNDECODABLE,
    BER_LENGTH,
    DEFAULT_ENCODED,
    INTEGER_NOT_MINIMAL,
    INTEGER_NEGATIVE,
    BIT_STRING,
    BOOLEAN,
    SET_ORDER,
    TIME,
    STRING,
    VERSION,
    MALFORMED,
];

/// The class a reader's error or deviation belongs to.
fn classify(kind: &ErrorKind) -> &'static Lint {
    use ErrorKind::*;
    match kind {
        NonMinimalLength | IndefiniteLength | LengthTooLarge => &BER_LENGTH,
        DefaultEncoded(_) => &DEFAULT_ENCODED,
        NonMinimalInteger | EmptyInteger => &INTEGER_NOT_MINIMAL,
        NegativeInteger => &INTEGER_NEGATIVE,
        InvalidBitString(_) => &BIT_STRING,
        InvalidBoolean => &BOOLEAN,
        UnsortedSet => &SET_ORDER,
        InvalidTime(_) => &TIME,
        InvalidString(_) => &STRING,
        WrongVersion(_) | UnknownVersion { .. } => &VERSION,
        _ => &MALFORMED,
    }
}

/// The finding for one problem.
fn finding(path: &str, offset: usize, kind: &ErrorKind, undecodable: bool) -> Finding {
    let (m, message) = if undecodable {
        (
            &UNDECODABLE,
            format!("{kind}; the lints that need this part did not run"),
        )
    } else {
        (classify(kind), kind.to_string())
    };
    m.finding(path, offset, message)
}

/// The finding for a part at `path` that did not decode.
pub(crate) fn undecodable(path: &str, e: &crate::der::Error) -> Finding {
    finding(path, e.offset, &e.kind, true)
}

/// The certificate's malformations as findings.
pub(crate) fn certificate_findings<'c>(
    c: &'c CertContext<'_>,
) -> impl Iterator<Item = Finding> + 'c {
    c.problems()
        .iter()
        .filter(|p| !named_elsewhere(&p.kind))
        .map(|p: &Problem| finding(&p.path, p.offset, &p.kind, p.undecodable))
}

/// A version the certificate's or CRL's own version lint names (with extensions but not
/// v3 or v2): one finding for it, not two.
fn named_elsewhere(kind: &ErrorKind) -> bool {
    matches!(kind, ErrorKind::WrongVersion(expected)
        if *expected == pkit_x509::cert::EXTENSIONS_NEED_V3
            || *expected == pkit_x509::crl::EXTENSIONS_NEED_V2)
}

/// The deviations a lenient reader logged while an object was read and linted, as
/// findings at `path` (the object's top-level field: `tbsCertList`, `tbsResponseData`…),
/// each once (the lints may walk a part more than once, and each walk logs again).
pub fn deviation_findings(log: &crate::der::Deviations, path: &str) -> Vec<Finding> {
    let mut all = log.take();
    // By offset (a stable sort keeps the order found), then each (offset, kind) once:
    // O(n log n), since a hostile CRL can log a deviation in each of a million entries.
    all.sort_by_key(|d| d.offset);
    let mut out: Vec<Finding> = Vec::new();
    let mut group: Vec<&ErrorKind> = Vec::new();
    for (i, d) in all.iter().enumerate() {
        if i == 0 || all[i - 1].offset != d.offset {
            group.clear();
        }
        if named_elsewhere(&d.what) || group.contains(&&d.what) {
            continue;
        }
        group.push(&d.what);
        out.push(finding(path, d.offset, &d.what, false));
    }
    out
}
