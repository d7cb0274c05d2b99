//! Comparing distinguished names the way path validation must (RFC 5280 §7.1): issuers
//! and subjects chain when they are the same name, not only the same bytes. Attribute
//! values of the string types compare after case folding and with leading, trailing and
//! repeated inner spaces removed (RFC 4518's insignificant-space handling, as far as
//! ASCII goes); other values compare by their encoding.

use pkit_x509::name::{Attribute, Name};

/// A canonical form of `name`: two names are the same name exactly when their keys are
/// equal. Names that cannot be read key by their bytes (and so match only themselves).
pub(crate) fn key(name: &Name<'_>) -> Vec<u8> {
    match name.rdns() {
        Ok(rdns) => rdns.iter().flat_map(|r| rdn_key(r)).collect(),
        Err(_) => tagged(0xff, name.raw),
    }
}

/// The canonical form of one RDN. A multi-valued RDN is a set: its order carries no
/// meaning, so its attributes are sorted.
pub(crate) fn rdn_key(rdn: &[Attribute<'_>]) -> Vec<u8> {
    let mut atvs: Vec<Vec<u8>> = rdn
        .iter()
        .map(|a| {
            let mut v = tagged(0x06, a.oid.as_bytes());
            match folded_text(a) {
                Some(t) => v.extend(tagged(0x0c, fold(&t).as_bytes())),
                None => v.extend(tagged(0x04, a.value_raw)),
            }
            v
        })
        .collect();
    atvs.sort();
    let mut out = vec![0x31];
    out.extend((atvs.len() as u32).to_be_bytes());
    for a in atvs {
        out.extend(a);
    }
    out
}

/// [`key`] of a Name given as its DER.
pub(crate) fn key_der(der: &[u8]) -> Vec<u8> {
    match Name::from_der(der, 0) {
        Ok(n) => key(&n),
        Err(_) => tagged(0xff, der),
    }
}

/// Whether two names are the same name. RDN by RDN, stopping at the first difference:
/// path validation asks this of every certificate (is it self-issued?), and most
/// answers are "no" at the first RDN or by the count.
pub(crate) fn equal(a: &Name<'_>, b: &Name<'_>) -> bool {
    if a.raw == b.raw {
        return true;
    }
    match (a.rdns(), b.rdns()) {
        (Ok(x), Ok(y)) => x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| rdn_equal(p, q)),
        // A name that cannot be read is equal to its own bytes only.
        _ => false,
    }
}

/// Whether two RDNs are the same, as their [`rdn_key`]s would say. A single-valued RDN
/// (nearly all of them) is compared without building keys: same attribute type, then the
/// folded strings (or the encodings) compared as they are produced.
fn rdn_equal(p: &[Attribute<'_>], q: &[Attribute<'_>]) -> bool {
    match (p, q) {
        ([a], [b]) => {
            if a.oid.as_bytes() != b.oid.as_bytes() {
                return false;
            }
            if a.value_raw == b.value_raw {
                return true;
            }
            // Values compared by their encoding differ: their bytes were not equal.
            match (folded_text(a), folded_text(b)) {
                (Some(s), Some(t)) => folded(&s).eq(folded(&t)),
                _ => false,
            }
        }
        _ => rdn_key(p) == rdn_key(q),
    }
}

/// The value's text when it compares folded; `None` when it compares by its encoding.
/// Folded only where decoding kept every character: a replacement character, or a T.61
/// family string (read as UTF-8 or Latin-1, whichever fits), could make two different
/// values one.
fn folded_text(a: &Attribute<'_>) -> Option<String> {
    match a.text() {
        Ok(t) if foldable(a.value_tag) && !t.contains('\u{FFFD}') => Some(t),
        _ => None,
    }
}

/// The characters of [`fold`]`(s)`, without building it.
fn folded(s: &str) -> impl Iterator<Item = char> + '_ {
    s.split_whitespace().enumerate().flat_map(|(i, word)| {
        (i > 0)
            .then_some(' ')
            .into_iter()
            .chain(word.chars().flat_map(char::to_lowercase))
    })
}

/// String types whose decoding is one to one.
fn foldable(t: u8) -> bool {
    use crate::der::tag;
    matches!(
        t,
        tag::UTF8_STRING
            | tag::PRINTABLE_STRING
            | tag::IA5_STRING
            | tag::BMP_STRING
            | tag::UNIVERSAL_STRING
    )
}

/// Lowercase with insignificant white space removed (leading, trailing, and runs of it
/// made one space).
fn fold(s: &str) -> String {
    folded(s).collect()
}

/// A length-prefixed piece, so that concatenated pieces cannot run into each other.
fn tagged(t: u8, bytes: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(bytes.len() + 5);
    v.push(t);
    v.extend((bytes.len() as u32).to_be_bytes());
    v.extend_from_slice(bytes);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::{tag, Writer};
    use pkit_x509::subject::parse_subject;

    fn name(der: &[u8]) -> Name<'_> {
        Name::from_der(der, 0).unwrap()
    }

    #[test]
    fn case_and_spaces_do_not_matter_for_strings() {
        let a = parse_subject("CN=Good  CA,O=Test Certificates 2011,C=US").unwrap();
        let b = parse_subject("CN=good ca,O=TEST CERTIFICATES 2011,C=US").unwrap();
        let c = parse_subject("CN=Other CA,O=Test Certificates 2011,C=US").unwrap();
        assert!(equal(&name(&a), &name(&b)));
        assert!(!equal(&name(&a), &name(&c)));
    }

    #[test]
    fn string_types_may_differ_and_order_of_rdns_may_not() {
        let utf8 = |w: &mut Writer, t: u8| {
            w.sequence(|w| {
                w.set(|w| {
                    w.sequence(|w| {
                        w.oid(&crate::der::oid_registry::AT_COMMON_NAME);
                        w.primitive(t, b"Root");
                    });
                });
            });
        };
        let mut a = Writer::new();
        utf8(&mut a, tag::UTF8_STRING);
        let mut b = Writer::new();
        utf8(&mut b, tag::PRINTABLE_STRING);
        let (a, b) = (a.finish(), b.finish());
        assert!(equal(&name(&a), &name(&b)));
        let x = parse_subject("CN=A,O=B").unwrap();
        let y = parse_subject("O=B,CN=A").unwrap();
        assert!(!equal(&name(&x), &name(&y)));
    }

    #[test]
    fn rdn_equal_agrees_with_rdn_keys() {
        let t61 = |v: &[u8]| {
            let mut w = Writer::new();
            w.sequence(|w| {
                w.set(|w| {
                    w.sequence(|w| {
                        w.oid(&crate::der::oid_registry::AT_COMMON_NAME);
                        w.primitive(tag::TELETEX_STRING, v);
                    });
                });
            });
            w.finish()
        };
        let ders = [
            parse_subject("CN=Bench Root").unwrap(),
            parse_subject("CN=bench   root").unwrap(),
            parse_subject("CN= Bench Root ").unwrap(),
            parse_subject("CN=Bench Int").unwrap(),
            parse_subject("O=Bench Root").unwrap(),
            parse_subject("CN=A+O=B").unwrap(),
            parse_subject("O=B+CN=A").unwrap(),
            parse_subject("CN=Ünïcode").unwrap(),
            parse_subject("CN=üNÏCODE").unwrap(),
            t61(b"Bench Root"),
            t61(b"bench root"),
        ];
        let names: Vec<Name<'_>> = ders.iter().map(|d| name(d)).collect();
        for a in &names {
            for b in &names {
                let (x, y) = (a.rdns().unwrap(), b.rdns().unwrap());
                assert_eq!(
                    rdn_equal(&x[0], &y[0]),
                    rdn_key(&x[0]) == rdn_key(&y[0]),
                    "{:?} / {:?}",
                    a.to_rfc4514(),
                    b.to_rfc4514()
                );
            }
        }
        assert!(equal(&names[0], &names[1]) && equal(&names[0], &names[2]));
        assert!(!equal(&names[0], &names[3]) && !equal(&names[0], &names[4]));
        assert!(equal(&names[5], &names[6]) && equal(&names[7], &names[8]));
        assert!(
            !equal(&names[9], &names[10]),
            "T.61 values compare by encoding"
        );
    }

    #[test]
    fn unreadable_names_match_only_themselves() {
        let bad = [0x30, 0x03, 0x31, 0x01, 0x00];
        let n = Name::from_der(&bad, 0);
        if let Ok(n) = n {
            assert_eq!(key(&n), key(&n));
            let other = parse_subject("CN=x").unwrap();
            assert!(!equal(&n, &name(&other)));
        }
    }
}
