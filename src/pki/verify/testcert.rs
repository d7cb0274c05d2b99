//! Certificates for the unit tests of this module: only the parts name checks read
//! (subject, subjectAltName, nameConstraints) carry meaning; the key and signature are
//! placeholders, since nothing here verifies a signature.

use crate::der::oid_registry as oids;
use crate::der::{tag, Oid, Writer};

/// One GeneralName TLV: `t` is its context tag (0x82 dNSName, 0x87 iPAddress, …).
pub(crate) fn gn(t: u8, content: &[u8]) -> Vec<u8> {
    let mut w = Writer::new();
    w.primitive(t, content);
    w.finish()
}

pub(crate) fn dns(s: &str) -> Vec<u8> {
    gn(0x82, s.as_bytes())
}

pub(crate) fn email(s: &str) -> Vec<u8> {
    gn(0x81, s.as_bytes())
}

pub(crate) fn uri(s: &str) -> Vec<u8> {
    gn(0x86, s.as_bytes())
}

pub(crate) fn ip(bytes: &[u8]) -> Vec<u8> {
    gn(0x87, bytes)
}

/// directoryName: `[4]` around a Name.
pub(crate) fn dir(name: &[u8]) -> Vec<u8> {
    let mut w = Writer::new();
    w.tlv(0xa4, |w| {
        w.raw(name);
    });
    w.finish()
}

/// A Name with one attribute per RDN; `t` is each value's string tag.
pub(crate) fn name(attrs: &[(Oid, u8, &str)]) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        for (oid, t, v) in attrs {
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(oid);
                    w.primitive(*t, v.as_bytes());
                });
            });
        }
    });
    w.finish()
}

/// A Name of UTF8String attributes.
pub(crate) fn utf8_name(attrs: &[(Oid, &str)]) -> Vec<u8> {
    let with_tags: Vec<(Oid, u8, &str)> = attrs
        .iter()
        .map(|(o, v)| (*o, tag::UTF8_STRING, *v))
        .collect();
    name(&with_tags)
}

/// A subjectAltName extension holding these GeneralName TLVs.
pub(crate) fn san(names: &[Vec<u8>]) -> (Oid, bool, Vec<u8>) {
    let mut w = Writer::new();
    w.sequence(|w| {
        for n in names {
            w.raw(n);
        }
    });
    (oids::CE_SUBJECT_ALT_NAME, false, w.finish())
}

/// A nameConstraints extension (critical) from GeneralName TLVs, each a subtree with
/// the default minimum and no maximum.
pub(crate) fn name_constraints(
    permitted: &[Vec<u8>],
    excluded: &[Vec<u8>],
) -> (Oid, bool, Vec<u8>) {
    let wrap = |v: &[Vec<u8>]| -> Vec<Vec<u8>> {
        v.iter()
            .map(|base| {
                let mut w = Writer::new();
                w.sequence(|w| {
                    w.raw(base);
                });
                w.finish()
            })
            .collect()
    };
    raw_name_constraints(&wrap(permitted), &wrap(excluded), true)
}

/// A nameConstraints extension from complete GeneralSubtree TLVs.
pub(crate) fn raw_name_constraints(
    permitted: &[Vec<u8>],
    excluded: &[Vec<u8>],
    critical: bool,
) -> (Oid, bool, Vec<u8>) {
    let mut w = Writer::new();
    w.sequence(|w| {
        if !permitted.is_empty() {
            w.tlv(0xa0, |w| {
                for s in permitted {
                    w.raw(s);
                }
            });
        }
        if !excluded.is_empty() {
            w.tlv(0xa1, |w| {
                for s in excluded {
                    w.raw(s);
                }
            });
        }
    });
    (oids::CE_NAME_CONSTRAINTS, critical, w.finish())
}

/// A v3 certificate with this subject (a complete Name DER) and these extensions.
pub(crate) fn cert(subject: &[u8], exts: &[(Oid, bool, Vec<u8>)]) -> Vec<u8> {
    let alg = |w: &mut Writer| {
        w.sequence(|w| {
            w.oid(&Oid::new("1.3.101.112"));
        });
    };
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.explicit(0, |w| {
                w.integer_u64(2);
            });
            w.integer_u64(1);
            alg(w);
            w.raw(&utf8_name(&[(oids::AT_COMMON_NAME, "Test CA")]));
            w.sequence(|w| {
                w.primitive(tag::UTC_TIME, b"250101000000Z");
                w.primitive(tag::UTC_TIME, b"350101000000Z");
            });
            w.raw(subject);
            w.sequence(|w| {
                alg(w);
                w.bit_string(&[0; 32]);
            });
            if !exts.is_empty() {
                w.explicit(3, |w| {
                    w.sequence(|w| {
                        for (oid, critical, value) in exts {
                            w.sequence(|w| {
                                w.oid(oid);
                                if *critical {
                                    w.boolean(true);
                                }
                                w.octet_string(value);
                            });
                        }
                    });
                });
            }
        });
        alg(w);
        w.bit_string(&[0; 64]);
    });
    w.finish()
}
