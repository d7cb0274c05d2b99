//! Property tests: what the DER writer writes, the strict reader reads back the same,
//! for random INTEGERs, OIDs, times, strings and BIT STRINGs.

use super::integer::{is_negative, to_u64, unsigned_bytes};
use super::oid::encode_dotted;
use super::reader::Reader;
use super::tag;
use super::time::Time;
use super::writer::Writer;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn one(build: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::new();
    build(&mut w);
    w.finish()
}

/// An OID's arcs: the first 0–2, the second under 40 below arc 2, then a few more.
fn oid_arcs() -> impl Strategy<Value = Vec<u64>> {
    (
        0u64..=2,
        any::<u32>(),
        prop::collection::vec(any::<u64>(), 0..8),
    )
        .prop_map(|(first, second, rest)| {
            let second = if first < 2 {
                u64::from(second % 40)
            } else {
                u64::from(second)
            };
            let mut arcs = vec![first, second];
            arcs.extend(rest);
            arcs
        })
}

proptest! {
    // The crate's sources sit in its folder with no `src/` (docs/architecture.md), where
    // proptest's default would keep the failure seeds in the folder above, beside other
    // crates': they stay in this crate's folder (tests run there).
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/properties.txt",
        ))),
        ..ProptestConfig::with_cases(512)
    })]

    #[test]
    fn integers_round_trip(v in any::<u64>(), magnitude in prop::collection::vec(any::<u8>(), 1..40)) {
        let der = one(|w| { w.integer_u64(v); });
        let mut r = Reader::new(&der);
        let content = r.read_integer().unwrap();
        prop_assert!(r.finish().is_ok());
        prop_assert_eq!(to_u64(content, 0).unwrap(), v);

        let der = one(|w| { w.integer_unsigned(&magnitude); });
        let mut r = Reader::new(&der);
        let content = r.read_integer().unwrap();
        prop_assert!(!is_negative(content));
        let want: Vec<u8> = magnitude.iter().copied().skip_while(|b| *b == 0).collect();
        let got = unsigned_bytes(content);
        if want.is_empty() {
            prop_assert!(got.is_empty() || got == [0]);
        } else {
            prop_assert_eq!(got, &want[..]);
        }
    }

    #[test]
    fn oids_round_trip(arcs in oid_arcs()) {
        let dotted = arcs.iter().map(u64::to_string).collect::<Vec<_>>().join(".");
        let content = encode_dotted(&dotted).unwrap();
        let der = one(|w| { w.primitive(tag::OID, &content); });
        let mut r = Reader::new(&der);
        let oid = r.read_oid().unwrap();
        prop_assert_eq!(oid.arcs().collect::<Vec<_>>(), arcs);
    }

    /// UTCTime for 1950–2049, GeneralizedTime otherwise (RFC 5280 §4.1.2.5), to the
    /// second, back to the same instant.
    #[test]
    fn times_round_trip(unix in -62_135_596_800i64..253_402_300_799) {
        let t = Time { unix };
        let der = one(|w| { w.time(t); });
        let mut r = Reader::new(&der);
        prop_assert_eq!(r.read_time().unwrap(), t);
    }

    /// RFC 3339 text from anywhere (flags, an ACME request's notBefore) is refused or
    /// read, never a panic; what reads is what `Display` wrote back.
    #[test]
    fn rfc3339_never_panics(s in "[0-9T:+.Zz -]{0,30}|.{0,30}", unix in -62_135_596_800i64..253_402_300_799) {
        let _ = Time::parse_rfc3339(&s);
        let t = Time { unix };
        prop_assert_eq!(Time::parse_rfc3339(&t.to_string()), Some(t));
    }

    #[test]
    fn strings_round_trip(s in ".{0,64}", p in "[A-Za-z0-9 '()+,./:=?-]{0,64}", a in "[\\x00-\\x7f]{0,64}") {
        for (der, want) in [
            (one(|w| { w.utf8_string(&s); }), &s),
            (one(|w| { w.printable_string(&p); }), &p),
            (one(|w| { w.ia5_string(&a); }), &a),
        ] {
            let mut r = Reader::new(&der);
            prop_assert_eq!(&r.read_any_string().unwrap(), want);
        }
    }

    #[test]
    fn bit_strings_round_trip(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let der = one(|w| { w.bit_string(&bytes); });
        let mut r = Reader::new(&der);
        let b = r.read_bit_string().unwrap();
        prop_assert_eq!(b.unused_bits, 0);
        prop_assert_eq!(b.bytes, &bytes[..]);
    }
}

/// The largest arc a u64 holds (ten base-128 groups, the first 0x81) is read; one more
/// is refused, as is an eleventh group.
#[test]
fn oid_arcs_up_to_u64_max() {
    let max = encode_dotted(&format!("1.2.{}", u64::MAX)).unwrap();
    let der = one(|w| {
        w.primitive(tag::OID, &max);
    });
    let mut r = Reader::new(&der);
    assert_eq!(r.read_oid().unwrap().arcs().last(), Some(u64::MAX));
    for bad in [
        &[
            0x2a, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
        ][..],
        &[
            0x2a, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
        ][..],
    ] {
        let der = one(|w| {
            w.primitive(tag::OID, bad);
        });
        assert!(Reader::new(&der).read_oid().is_err(), "{bad:02x?}");
    }
}
