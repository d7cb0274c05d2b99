//! Malformed certificates, CRLs and CSRs, one per class of malformation RFC 5280 names
//! (explicit DEFAULT, wrong version for the contents, times not in Zulu or with a
//! fraction, bad string types, negative and non-minimal integers, extension values that
//! are not DER, empty RDNs, unsorted SETs, BER lengths) and one per part that does not
//! decode at all. Built byte by byte here, since no encoder pkit trusts writes them; the
//! signatures are zeros (the lints do not check certificate signatures).
//! `tests/lint_malformed.rs` checks that `pkit lint` lints each with the finding named.

use super::tlv;

/// One malformed object and what `pkit lint` must say of it.
pub struct Malformed {
    pub name: &'static str,
    pub der: Vec<u8>,
    /// The lint that must fire, and a word its message must hold.
    pub lint: &'static str,
    pub message: &'static str,
    /// Lints that must not fire (a "missing" finding for a part that is there).
    pub absent: &'static [&'static str],
    /// Lints that must be reported as not run (they need a part that did not decode).
    pub not_run: &'static [&'static str],
}

const SEQ: u8 = 0x30;
const SET: u8 = 0x31;
const INT: u8 = 0x02;
const BITS: u8 = 0x03;
const OCTETS: u8 = 0x04;
const OID: u8 = 0x06;
const UTF8: u8 = 0x0c;
const PRINTABLE: u8 = 0x13;
const UTC: u8 = 0x17;
const GENERALIZED: u8 = 0x18;

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// Ed25519 (RFC 8410): the algorithm and a public key of 32 bytes.
fn ed25519_alg() -> Vec<u8> {
    tlv(SEQ, &tlv(OID, &[0x2b, 0x65, 0x70]))
}

fn spki() -> Vec<u8> {
    let mut key = vec![0];
    key.extend([0x11; 32]);
    tlv(SEQ, &cat(&[&ed25519_alg(), &tlv(BITS, &key)]))
}

/// One attribute in one RDN.
fn rdn(oid: &[u8], string_tag: u8, value: &[u8]) -> Vec<u8> {
    tlv(
        SET,
        &tlv(SEQ, &cat(&[&tlv(OID, oid), &tlv(string_tag, value)])),
    )
}

const CN: [u8; 3] = [0x55, 0x04, 0x03];
const O: [u8; 3] = [0x55, 0x04, 0x0a];
const C: [u8; 3] = [0x55, 0x04, 0x06];

fn name(cn: &str) -> Vec<u8> {
    tlv(
        SEQ,
        &cat(&[
            &rdn(&C, PRINTABLE, b"US"),
            &rdn(&O, UTF8, b"Example"),
            &rdn(&CN, UTF8, cn.as_bytes()),
        ]),
    )
}

/// An Extension: OID content, an encoded critical BOOLEAN (or none), the value's DER.
fn ext(oid: &[u8], critical: Option<&[u8]>, value: &[u8]) -> Vec<u8> {
    tlv(
        SEQ,
        &cat(&[&tlv(OID, oid), critical.unwrap_or(&[]), &tlv(OCTETS, value)]),
    )
}

const TRUE: &[u8] = &[0x01, 0x01, 0xff];
const KU: [u8; 3] = [0x55, 0x1d, 0x0f];
const BC: [u8; 3] = [0x55, 0x1d, 0x13];
const SAN: [u8; 3] = [0x55, 0x1d, 0x11];
const SKI: [u8; 3] = [0x55, 0x1d, 0x0e];
const AKI: [u8; 3] = [0x55, 0x1d, 0x23];
const EKU: [u8; 3] = [0x55, 0x1d, 0x25];
const POLICIES: [u8; 3] = [0x55, 0x1d, 0x20];

fn ski() -> Vec<u8> {
    ext(&SKI, None, &tlv(OCTETS, &[0x22; 20]))
}

fn aki() -> Vec<u8> {
    ext(&AKI, None, &tlv(SEQ, &tlv(0x80, &[0x33; 20])))
}

/// A TLS leaf's extensions: SAN example.com, serverAuth, digitalSignature, key IDs.
fn leaf_exts() -> Vec<Vec<u8>> {
    vec![
        ext(&SAN, None, &tlv(SEQ, &tlv(0x82, b"www.example.com"))),
        ext(
            &EKU,
            None,
            &tlv(SEQ, &tlv(OID, &[0x2b, 6, 1, 5, 5, 7, 3, 1])),
        ),
        ext(&KU, Some(TRUE), &tlv(BITS, &[7, 0x80])),
        ski(),
        aki(),
    ]
}

/// A CA's extensions, with `ku` as the keyUsage value and `bc` as basicConstraints'.
fn ca_exts(bc: &[u8], ku: &[u8]) -> Vec<Vec<u8>> {
    vec![
        ext(&BC, Some(TRUE), bc),
        ext(&KU, Some(TRUE), ku),
        ski(),
        aki(),
    ]
}

/// The parts of a TBSCertificate, each as its DER (the version as its `[0]` element).
struct Tbs {
    version: Option<Vec<u8>>,
    serial: Vec<u8>,
    issuer: Vec<u8>,
    not_before: Vec<u8>,
    not_after: Vec<u8>,
    subject: Vec<u8>,
    /// `[2] IMPLICIT` subjectUniqueID, when given.
    subject_unique_id: Option<Vec<u8>>,
    extensions: Option<Vec<Vec<u8>>>,
    /// The outer signatureAlgorithm, when it is to differ from the TBS's.
    outer_alg: Option<Vec<u8>>,
}

impl Tbs {
    fn leaf() -> Tbs {
        Tbs {
            version: Some(v(2)),
            serial: tlv(INT, &[0x4a, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]),
            issuer: name("Malformed CA"),
            not_before: tlv(UTC, b"260101000000Z"),
            not_after: tlv(UTC, b"260301000000Z"),
            subject: name("www.example.com"),
            subject_unique_id: None,
            extensions: Some(leaf_exts()),
            outer_alg: None,
        }
    }

    fn ca(bc: &[u8], ku: &[u8]) -> Tbs {
        Tbs {
            subject: name("Malformed Sub CA"),
            extensions: Some(ca_exts(bc, ku)),
            ..Tbs::leaf()
        }
    }

    fn cert(&self) -> Vec<u8> {
        let exts = self.extensions.as_ref().map(|list| {
            let all: Vec<u8> = list.concat();
            tlv(0xa3, &tlv(SEQ, &all))
        });
        let tbs = tlv(
            SEQ,
            &cat(&[
                self.version.as_deref().unwrap_or(&[]),
                &self.serial,
                &ed25519_alg(),
                &self.issuer,
                &tlv(SEQ, &cat(&[&self.not_before, &self.not_after])),
                &self.subject,
                &spki(),
                self.subject_unique_id.as_deref().unwrap_or(&[]),
                exts.as_deref().unwrap_or(&[]),
            ]),
        );
        let outer = self.outer_alg.clone().unwrap_or_else(ed25519_alg);
        tlv(SEQ, &cat(&[&tbs, &outer, &tlv(BITS, &[0u8; 65])]))
    }
}

/// `[0] EXPLICIT INTEGER n` (n = 0 for v1, 2 for v3).
fn v(n: u8) -> Vec<u8> {
    tlv(0xa0, &tlv(INT, &[n]))
}

/// A CRL by `issuer`, its times as given, `version` (an INTEGER's DER, or none).
fn crl(version: &[u8], this_update: &[u8]) -> Vec<u8> {
    let exts = tlv(
        0xa0,
        &tlv(
            SEQ,
            &cat(&[&aki(), &ext(&[0x55, 0x1d, 0x14], None, &tlv(INT, &[1]))]),
        ),
    );
    let tbs = tlv(
        SEQ,
        &cat(&[
            version,
            &ed25519_alg(),
            &name("Malformed CA"),
            this_update,
            &tlv(UTC, b"260108000000Z"),
            &exts,
        ]),
    );
    tlv(SEQ, &cat(&[&tbs, &ed25519_alg(), &tlv(BITS, &[0u8; 65])]))
}

/// A CSR for `subject` (its signature does not verify: zeros).
fn csr(subject: &[u8]) -> Vec<u8> {
    let info = tlv(
        SEQ,
        &cat(&[&tlv(INT, &[0]), subject, &spki(), &tlv(0xa0, &[])]),
    );
    tlv(SEQ, &cat(&[&info, &ed25519_alg(), &tlv(BITS, &[0u8; 65])]))
}

/// Every malformed object.
pub fn all() -> Vec<Malformed> {
    let mk = |name, der, lint, message| Malformed {
        name,
        der,
        lint,
        message,
        absent: &[],
        not_run: &[],
    };
    let mut out = vec![
        mk(
            "explicit-default-version",
            Tbs {
                version: Some(v(0)),
                extensions: None,
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_default_value_encoded",
            "version v1",
        ),
        mk(
            "v1-with-extensions",
            Tbs {
                version: None,
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_version_not_v3_with_extensions",
            "version 3",
        ),
        mk(
            "v4",
            Tbs {
                version: Some(v(3)),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_version_invalid",
            "v1 to v3",
        ),
        mk(
            "time-local-offset",
            Tbs {
                not_before: tlv(UTC, b"260101000000+0100"),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_time_not_der",
            "local offset",
        ),
        mk(
            "time-without-seconds",
            Tbs {
                not_after: tlv(UTC, b"2603010000Z"),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_time_not_der",
            "seconds missing",
        ),
        mk(
            "time-fractional-seconds",
            Tbs {
                not_after: tlv(GENERALIZED, b"20260301000000.5Z"),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_validity_time_format",
            "fractional",
        ),
        mk(
            "generalized-time-before-2050",
            Tbs {
                not_before: tlv(GENERALIZED, b"20260101000000Z"),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_validity_time_format",
            "UTCTime",
        ),
        mk(
            "printable-string-with-at-sign",
            Tbs {
                subject: tlv(SEQ, &rdn(&CN, PRINTABLE, b"a@example.com")),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_string_invalid",
            "PrintableString",
        ),
        Malformed {
            absent: &["e_cabf_san_missing"],
            ..mk(
                "san-dns-name-not-ia5",
                Tbs {
                    extensions: Some({
                        let mut e = leaf_exts();
                        e[0] = ext(&SAN, None, &tlv(SEQ, &tlv(0x82, b"ex\xe9mple.com")));
                        e
                    }),
                    ..Tbs::leaf()
                }
                .cert(),
                "e_rfc_string_invalid",
                "IA5String",
            )
        },
        mk(
            "negative-serial",
            Tbs {
                serial: tlv(INT, &[0xff, 0x11]),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_serial_not_positive",
            "positive",
        ),
        mk(
            "non-minimal-integer",
            Tbs {
                serial: tlv(INT, &[0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_integer_not_minimal",
            "INTEGER",
        ),
        Malformed {
            absent: &[
                "e_rfc_ca_key_usage_missing",
                "e_rfc_ca_key_cert_sign_missing",
            ],
            ..mk(
                "key-usage-unused-bits-set",
                // keyCertSign and cRLSign (0x06) with the one unused bit set.
                Tbs::ca(&tlv(SEQ, &[0x01, 0x01, 0xff]), &tlv(BITS, &[1, 0x07])).cert(),
                "e_rfc_bit_string_not_der",
                "unused bits",
            )
        },
        Malformed {
            absent: &["e_rfc_ca_key_usage_missing"],
            not_run: &["e_rfc_ca_key_usage_missing", "e_cabf_ca_key_usage_bits"],
            ..mk(
                "key-usage-unused-bits-above-7",
                Tbs::ca(&tlv(SEQ, &[0x01, 0x01, 0xff]), &tlv(BITS, &[8, 0x06])).cert(),
                "e_rfc_field_undecodable",
                "keyUsage",
            )
        },
        Malformed {
            not_run: &["e_rfc_key_cert_sign_without_ca"],
            ..mk(
                "negative-path-length",
                Tbs::ca(
                    &tlv(SEQ, &cat(&[&[0x01, 0x01, 0xff], &tlv(INT, &[0xff])])),
                    &tlv(BITS, &[1, 0x06]),
                )
                .cert(),
                "e_rfc_field_undecodable",
                "non-negative",
            )
        },
        mk(
            "critical-false-encoded",
            Tbs {
                extensions: Some({
                    let mut e = leaf_exts();
                    e[3] = ext(&SKI, Some(&[0x01, 0x01, 0x00]), &tlv(OCTETS, &[0x22; 20]));
                    e
                }),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_default_value_encoded",
            "FALSE",
        ),
        mk(
            "ber-length-in-extension",
            Tbs {
                extensions: Some({
                    let mut e = leaf_exts();
                    // The key identifier's length in the long form: 0x81 0x14.
                    let mut value = vec![OCTETS, 0x81, 20];
                    value.extend([0x22; 20]);
                    e[3] = ext(&SKI, None, &value);
                    e
                }),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_ber_length",
            "length",
        ),
        mk(
            "boolean-not-der",
            Tbs::ca(&tlv(SEQ, &[0x01, 0x01, 0x01]), &tlv(BITS, &[1, 0x06])).cert(),
            "e_rfc_boolean_not_der",
            "BOOLEAN",
        ),
        mk(
            "empty-rdn",
            Tbs {
                issuer: tlv(
                    SEQ,
                    &cat(&[&tlv(SET, &[]), &rdn(&CN, UTF8, b"Malformed CA")]),
                ),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_malformed",
            "RDN",
        ),
        mk(
            "unsorted-multi-valued-rdn",
            Tbs {
                subject: tlv(
                    SEQ,
                    &tlv(
                        SET,
                        &cat(&[
                            // DER sorts the encodings: the longer CN after the O.
                            &tlv(SEQ, &cat(&[&tlv(OID, &CN), &tlv(UTF8, b"www.example.com")])),
                            &tlv(SEQ, &cat(&[&tlv(OID, &O), &tlv(UTF8, b"Example")])),
                        ]),
                    ),
                ),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_set_not_sorted",
            "SET OF",
        ),
        Malformed {
            absent: &["e_rfc_aki_missing"],
            ..mk(
                "aki-serial-without-issuer",
                Tbs {
                    extensions: Some({
                        let mut e = leaf_exts();
                        e[4] = ext(
                            &AKI,
                            None,
                            &tlv(SEQ, &cat(&[&tlv(0x80, &[0x33; 20]), &tlv(0x82, &[1])])),
                        );
                        e
                    }),
                    ..Tbs::leaf()
                }
                .cert(),
                "e_rfc_malformed",
                "authorityKeyIdentifier",
            )
        },
        // pkit's CA refuses to sign what it cannot read back, even with `--lint off`.
        mk(
            "duplicate-extension",
            Tbs {
                extensions: Some({
                    let mut e = leaf_exts();
                    let x = ext(&[0x2a, 0x03, 0x04], None, &[0x05, 0x00]);
                    e.push(x.clone());
                    e.push(x);
                    e
                }),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_duplicate_extension",
            "1.2.3.4 appears more than once",
        ),
        mk(
            "duplicate-policy",
            Tbs {
                extensions: Some({
                    let mut e = leaf_exts();
                    let dv = tlv(SEQ, &tlv(OID, &[0x67, 0x81, 0x0c, 0x01, 0x02, 0x01]));
                    e.push(ext(&POLICIES, None, &tlv(SEQ, &cat(&[&dv, &dv]))));
                    e
                }),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_malformed",
            "policy",
        ),
        Malformed {
            absent: &["e_rfc_aki_missing"],
            not_run: &["e_rfc_aki_missing"],
            ..mk(
                "extensions-list-broken",
                Tbs {
                    extensions: Some({
                        // A good SKI, then an element that is not an Extension.
                        vec![ski(), tlv(SEQ, &tlv(INT, &[1]))]
                    }),
                    ..Tbs::leaf()
                }
                .cert(),
                "e_rfc_field_undecodable",
                "extensions",
            )
        },
        mk(
            "unique-identifier",
            Tbs {
                subject_unique_id: Some(tlv(0x82, &[0, 0x12, 0x34])),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_unique_id_present",
            "unique identifiers",
        ),
        mk(
            "signature-algorithm-mismatch",
            Tbs {
                // Ed448 outside, Ed25519 inside.
                outer_alg: Some(tlv(SEQ, &tlv(OID, &[0x2b, 0x65, 0x71]))),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_signature_algorithm_mismatch",
            "signatureAlgorithm",
        ),
        mk(
            "key-identifier-critical",
            Tbs {
                extensions: Some({
                    let mut e = leaf_exts();
                    e[3] = ext(&SKI, Some(TRUE), &tlv(OCTETS, &[0x22; 20]));
                    e
                }),
                ..Tbs::leaf()
            }
            .cert(),
            "e_rfc_key_id_critical",
            "critical",
        ),
        mk(
            "name-constraints-not-critical",
            Tbs {
                extensions: Some({
                    let mut e = ca_exts(&tlv(SEQ, &[0x01, 0x01, 0xff]), &tlv(BITS, &[1, 0x06]));
                    let permitted = tlv(0xa0, &tlv(SEQ, &tlv(0x80, &tlv(0x82, b"example.com"))));
                    e.push(ext(&[0x55, 0x1d, 0x1e], None, &tlv(SEQ, &permitted)));
                    e
                }),
                ..Tbs::ca(&[], &[])
            }
            .cert(),
            "e_rfc_name_constraints_not_critical",
            "critical",
        ),
        mk(
            "ca-without-subject-key-identifier",
            Tbs {
                extensions: Some(vec![
                    ext(&BC, Some(TRUE), &tlv(SEQ, &[0x01, 0x01, 0xff])),
                    ext(&KU, Some(TRUE), &tlv(BITS, &[1, 0x06])),
                    aki(),
                ]),
                ..Tbs::ca(&[], &[])
            }
            .cert(),
            "e_rfc_ca_ski_missing",
            "subjectKeyIdentifier",
        ),
        mk(
            "crl-time-local-offset",
            crl(&tlv(INT, &[1]), &tlv(UTC, b"260101000000+0200")),
            "e_rfc_time_not_der",
            "local offset",
        ),
        mk(
            "crl-explicit-v1",
            crl(&tlv(INT, &[0]), &tlv(UTC, b"260101000000Z")),
            "e_rfc_version_invalid",
            "version",
        ),
        mk(
            "csr-empty-rdn",
            csr(&tlv(
                SEQ,
                &cat(&[&tlv(SET, &[]), &rdn(&CN, UTF8, b"www.example.com")]),
            )),
            "e_rfc_malformed",
            "RDN",
        ),
    ];
    out.sort_by_key(|m| m.name);
    out
}
