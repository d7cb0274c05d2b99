//! What RFC 5280 says a certificate MUST (errors) and SHOULD (warnings) be.

use crate::cert_type::CertType;
use crate::context::CertContext;
use crate::der::oid_registry as oids;
use crate::finding::Level;
use crate::options::RuleSet;
use crate::rule::{Lint, Reporter};
use pkit_x509::ext::ku;
use pkit_x509::ext::ExtensionValue;
use pkit_x509::extension::SeenOids;

/// An RFC 5280 rule of the certificates `applies` accepts, in force always.
const fn rfc(
    name: &'static str,
    level: Level,
    source: &'static str,
    applies: fn(CertType) -> bool,
    check: fn(&CertContext<'_>, &mut Reporter<'_>),
) -> Lint {
    Lint::certificate(name, level, source, RuleSet::Rfc5280, applies, check)
}

/// Every certificate.
fn any(_: CertType) -> bool {
    true
}

/// RFC 5280's CA rules go by what basicConstraints says (the check asks), not by the
/// type a certificate is linted as.
fn asserts_ca(_: CertType) -> bool {
    true
}

/// RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050, and
/// (§4.1.2.5.2) no fractional seconds, which DER itself allows. (Times not in Zulu or
/// without seconds are not DER either: the reader reports those.) What is wrong with one
/// encoded time, if anything.
fn validity_time_problem(tag: u8, content: &[u8], year: Option<i64>) -> Option<String> {
    use crate::der::tag;
    if tag == tag::GENERALIZED_TIME && content.contains(&b'.') {
        return Some(format!(
            "GeneralizedTime {:?} has fractional seconds",
            String::from_utf8_lossy(content)
        ));
    }
    match year {
        Some(y) if y >= 2050 && tag == tag::UTC_TIME => {
            Some(format!("a date in {y} must be a GeneralizedTime"))
        }
        Some(y) if y < 2050 && tag == tag::GENERALIZED_TIME => Some(format!(
            "a date in {y} must be a UTCTime (GeneralizedTime is for 2050 and later)"
        )),
        _ => None,
    }
}

/// RFC 5280's certificate lints.
pub(crate) static LINTS: &[Lint] = &[
    rfc(
        "e_rfc_validity_time_format",
        Level::Error,
        "RFC 5280 §4.1.2.5",
        any,
        |c, r| {
            // Asked first: a validity that did not decode marks this lint as not run.
            let years = c.validity().map(|(nb, na)| [nb, na]);
            let Ok(times) = c.cert.validity_encoding() else {
                return;
            };
            for (i, (tag, content, offset)) in times.into_iter().enumerate() {
                let year = years.map(|y| crate::der::Time { unix: y[i] }.civil().year);
                if let Some(why) = validity_time_problem(tag, content, year) {
                    let field = if i == 0 { "notBefore" } else { "notAfter" };
                    r.report(&format!("tbsCertificate.validity.{field}"), offset, why);
                }
            }
        },
    ),
    rfc(
        "e_rfc_version_not_v3_with_extensions",
        Level::Error,
        "RFC 5280 §4.1.2.1",
        any,
        |c, r| {
            if c.cert.extensions.is_some() && c.cert.version != 2 {
                r.report(
                    "tbsCertificate.version",
                    c.offset_in(c.cert.tbs_raw),
                    "a certificate with extensions must be version 3",
                );
            }
        },
    ),
    rfc(
        "e_rfc_serial_not_positive",
        Level::Error,
        "RFC 5280 §4.1.2.2",
        any,
        |c, r| {
            let s = c.cert.serial;
            let zero = s.iter().all(|b| *b == 0);
            if zero || s.first().is_some_and(|b| b & 0x80 != 0) {
                r.report(
                    "tbsCertificate.serialNumber",
                    c.cert.serial_offset,
                    "the serial number must be a positive integer",
                );
            }
        },
    ),
    rfc(
        "e_rfc_serial_too_long",
        Level::Error,
        "RFC 5280 §4.1.2.2",
        any,
        |c, r| {
            // The INTEGER's octets as encoded, its sign octet included: 20 octets of
            // magnitude with the top bit set take 21 (RFC 5280 §4.1.2.2, "serialNumber
            // values longer than 20 octets").
            let octets = c.cert.serial.len();
            if octets > 20 {
                r.report(
                    "tbsCertificate.serialNumber",
                    c.cert.serial_offset,
                    format!("the serial number takes {octets} octets; at most 20 are allowed"),
                );
            }
        },
    ),
    rfc(
        "e_rfc_signature_algorithm_mismatch",
        Level::Error,
        "RFC 5280 §4.1.1.2",
        any,
        |c, r| {
            if c.cert.tbs_signature.raw != c.cert.signature_algorithm.raw {
                r.report(
                    "signatureAlgorithm",
                    c.cert.signature_algorithm.offset,
                    "signatureAlgorithm differs from the signature field inside the TBS",
                );
            }
        },
    ),
    rfc(
        "e_rfc_unique_id_present",
        Level::Error,
        "RFC 5280 §4.1.2.8",
        any,
        |c, r| {
            if c.cert.issuer_unique_id.is_some() || c.cert.subject_unique_id.is_some() {
                r.report(
                    "tbsCertificate.issuerUniqueID",
                    c.extensions_offset(),
                    "conforming CAs must not generate certificates with unique identifiers",
                );
            }
        },
    ),
    rfc(
        "e_rfc_duplicate_extension",
        Level::Error,
        "RFC 5280 §4.2",
        any,
        |c, r| {
            let mut seen = SeenOids::default();
            for e in &c.extensions {
                if !seen.first_time(e.oid) {
                    r.report(
                        "tbsCertificate.extensions",
                        e.value_offset,
                        format!(
                            "extension {} appears more than once",
                            e.oid.name_or_dotted()
                        ),
                    );
                }
            }
        },
    ),
    rfc(
        "e_rfc_ca_basic_constraints_not_critical",
        Level::Error,
        "RFC 5280 §4.2.1.9",
        asserts_ca,
        |c, r| {
            if !c.asserts_ca() {
                return;
            }
            if let Some(e) = c.extension(&oids::CE_BASIC_CONSTRAINTS) {
                if !e.critical {
                    r.report(
                        "tbsCertificate.extensions.basicConstraints",
                        e.value_offset,
                        "a CA certificate's basicConstraints must be critical",
                    );
                }
            }
        },
    ),
    rfc(
        "e_rfc_ca_key_usage_missing",
        Level::Error,
        "RFC 5280 §4.2.1.3",
        asserts_ca,
        |c, r| {
            if c.asserts_ca() && c.key_usage().is_none() {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "a CA certificate must have keyUsage",
                );
            }
        },
    ),
    rfc(
        "e_rfc_ca_key_cert_sign_missing",
        Level::Error,
        "RFC 5280 §4.2.1.9",
        asserts_ca,
        |c, r| {
            if c.asserts_ca()
                && c.key_usage()
                    .is_some_and(|b| !b.contains(&ku::KEY_CERT_SIGN))
            {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    c.offset_of(&oids::CE_KEY_USAGE),
                    "cA is asserted, so keyUsage must assert keyCertSign",
                );
            }
        },
    ),
    rfc(
        "e_rfc_key_cert_sign_without_ca",
        Level::Error,
        "RFC 5280 §4.2.1.3",
        any,
        |c, r| {
            let ca = c.basic_constraints().is_some_and(|b| b.ca);
            if !ca
                && c.key_usage()
                    .is_some_and(|b| b.contains(&ku::KEY_CERT_SIGN))
            {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    c.offset_of(&oids::CE_KEY_USAGE),
                    "keyCertSign is asserted, so basicConstraints must assert cA",
                );
            }
        },
    ),
    rfc(
        "e_rfc_path_len_without_key_cert_sign",
        Level::Error,
        "RFC 5280 §4.2.1.9",
        any,
        |c, r| {
            let Some(bc) = c.basic_constraints() else {
                return;
            };
            let cert_sign = c
                .key_usage()
                .is_some_and(|b| b.contains(&ku::KEY_CERT_SIGN));
            if bc.path_len_constraint.is_some() && !(bc.ca && cert_sign) {
                r.report(
                    "tbsCertificate.extensions.basicConstraints",
                    c.offset_of(&oids::CE_BASIC_CONSTRAINTS),
                    "pathLenConstraint needs cA and keyCertSign",
                );
            }
        },
    ),
    rfc(
        "e_rfc_aki_missing",
        Level::Error,
        "RFC 5280 §4.2.1.1",
        any,
        |c, r| {
            // A CA's self-signed certificate may leave it out; everyone else names the
            // issuer's key, a self-issued end-entity certificate included.
            if c.kind == CertType::Root {
                return;
            }
            let has_key_id = matches!(
                c.value(&oids::CE_AUTHORITY_KEY_ID),
                Some(ExtensionValue::AuthorityKeyIdentifier(a)) if a.key_identifier.is_some()
            );
            if !has_key_id {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "authorityKeyIdentifier with a keyIdentifier must be present",
                );
            }
        },
    ),
    rfc(
        "e_rfc_ca_ski_missing",
        Level::Error,
        "RFC 5280 §4.2.1.2",
        asserts_ca,
        |c, r| {
            if c.asserts_ca() && c.extension(&oids::CE_SUBJECT_KEY_ID).is_none() {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "a CA certificate must have subjectKeyIdentifier",
                );
            }
        },
    ),
    rfc(
        "w_rfc_ski_missing",
        Level::Warning,
        "RFC 5280 §4.2.1.2",
        any,
        |c, r| {
            if !c.asserts_ca() && c.extension(&oids::CE_SUBJECT_KEY_ID).is_none() {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "an end-entity certificate should have subjectKeyIdentifier",
                );
            }
        },
    ),
    rfc(
        "e_rfc_key_id_critical",
        Level::Error,
        "RFC 5280 §4.2.1.1, §4.2.1.2",
        any,
        |c, r| {
            for oid in [oids::CE_AUTHORITY_KEY_ID, oids::CE_SUBJECT_KEY_ID] {
                if let Some(e) = c.extension(&oid).filter(|e| e.critical) {
                    r.report(
                        "tbsCertificate.extensions",
                        e.value_offset,
                        format!("{} must not be critical", oid.id().name_or_dotted()),
                    );
                }
            }
        },
    ),
    rfc(
        "w_rfc_key_usage_not_critical",
        Level::Warning,
        "RFC 5280 §4.2.1.3",
        any,
        |c, r| {
            if let Some(e) = c.extension(&oids::CE_KEY_USAGE).filter(|e| !e.critical) {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    e.value_offset,
                    "keyUsage should be critical",
                );
            }
        },
    ),
    rfc(
        "e_rfc_empty_subject_without_critical_san",
        Level::Error,
        "RFC 5280 §4.2.1.6",
        any,
        |c, r| {
            if c.cert.subject.raw != [0x30, 0x00] {
                return;
            }
            match c.extension(&oids::CE_SUBJECT_ALT_NAME) {
                None => r.report(
                    "tbsCertificate.subject",
                    c.cert.subject.offset,
                    "the subject is empty, so subjectAltName must be present",
                ),
                Some(e) if !e.critical => r.report(
                    "tbsCertificate.extensions.subjectAltName",
                    e.value_offset,
                    "the subject is empty, so subjectAltName must be critical",
                ),
                Some(_) => {}
            }
        },
    ),
    rfc(
        "e_rfc_name_constraints_not_critical",
        Level::Error,
        "RFC 5280 §4.2.1.10",
        any,
        |c, r| {
            if let Some(e) = c
                .extension(&oids::CE_NAME_CONSTRAINTS)
                .filter(|e| !e.critical)
            {
                r.report(
                    "tbsCertificate.extensions.nameConstraints",
                    e.value_offset,
                    "nameConstraints must be critical",
                );
            }
        },
    ),
    rfc(
        "e_rfc_name_constraints_in_end_entity",
        Level::Error,
        "RFC 5280 §4.2.1.10",
        any,
        |c, r| {
            if c.asserts_ca() {
                return;
            }
            if let Some(e) = c.extension(&oids::CE_NAME_CONSTRAINTS) {
                r.report(
                    "tbsCertificate.extensions.nameConstraints",
                    e.value_offset,
                    "nameConstraints belong only in CA certificates",
                );
            }
        },
    ),
    rfc(
        "e_rfc_aia_critical",
        Level::Error,
        "RFC 5280 §4.2.2.1",
        any,
        |c, r| {
            if let Some(e) = c
                .extension(&oids::PE_AUTHORITY_INFO_ACCESS)
                .filter(|e| e.critical)
            {
                r.report(
                    "tbsCertificate.extensions.authorityInfoAccess",
                    e.value_offset,
                    "authorityInfoAccess must not be critical",
                );
            }
        },
    ),
];
