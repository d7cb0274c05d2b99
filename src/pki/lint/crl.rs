//! What RFC 5280 §5 (and, for a publicly trusted CA, the Baseline Requirements §4.9.7
//! and §7.2) say of a CRL. Entries are walked as they stream from the DER, never held,
//! so a million-entry CRL costs a pass or two of its bytes.
//!
//! Every lint here judges an entry on its own, never two entries together: a CA's CRL
//! publisher (`pkit_ca::crl_publish`) relies on it, gating only the entries it has not
//! gated before in the frame of each new CRL. A lint that compares entries (duplicate
//! serials, say) must tell that publisher to judge every entry again.
//!
//! Each lint is judged in force or not by the CRL's thisUpdate (or `--at`).

use crate::crl_context::CrlPart;
use crate::der::oid_registry as oids;
use crate::finding::{Finding, Level};
use crate::options::RuleSet;
use crate::rule::{Lint, Reporter};
use pkit_x509::crl::Crl;
use pkit_x509::ext::{self, ExtensionValue};

/// Where `part` (a slice of the CRL) starts in it.
fn at(crl: &Crl<'_>, part: &[u8]) -> usize {
    (part.as_ptr() as usize).saturating_sub(crl.raw.as_ptr() as usize)
}

fn ext_offset(crl: &Crl<'_>, oid: &crate::der::Oid) -> Option<(usize, bool)> {
    let e = crl
        .extensions?
        .all()
        .ok()?
        .into_iter()
        .find(|e| e.oid == *oid)?;
    Some((e.value_offset, e.critical))
}

/// An RFC 5280 §5 lint that reads `reads` beyond the CRL's fixed fields.
const fn rfc(
    name: &'static str,
    level: Level,
    source: &'static str,
    reads: &'static [CrlPart],
    check: fn(&Crl<'_>, &mut Reporter<'_>),
) -> Lint {
    Lint::crl(name, level, source, RuleSet::Rfc5280, reads, check)
}

/// The CRL lints.
pub(crate) static LINTS: &[Lint] = &[
    rfc(
        "e_rfc_crl_version_not_v2",
        Level::Error,
        "RFC 5280 §5.1.2.1",
        &[],
        |c, r| {
            if c.version != 1 && c.extensions.is_some() {
                r.report(
                    "tbsCertList.version",
                    at(c, c.tbs_raw),
                    "a CRL with extensions must be version 2",
                );
            }
        },
    ),
    rfc(
        "e_rfc_crl_signature_algorithm_mismatch",
        Level::Error,
        "RFC 5280 §5.1.1.2",
        &[],
        |c, r| {
            if c.tbs_signature.raw != c.signature_algorithm.raw {
                r.report(
                    "signatureAlgorithm",
                    c.signature_algorithm.offset,
                    "signatureAlgorithm differs from the signature field inside the TBS",
                );
            }
        },
    ),
    rfc(
        "e_rfc_crl_next_update_missing",
        Level::Error,
        "RFC 5280 §5.1.2.5",
        &[],
        |c, r| match c.next_update {
            None => r.report(
                "tbsCertList.nextUpdate",
                at(c, c.tbs_raw),
                "conforming CAs must include nextUpdate",
            ),
            Some(n) if n <= c.this_update => r.report(
                "tbsCertList.nextUpdate",
                at(c, c.tbs_raw),
                format!("nextUpdate {n} is not after thisUpdate {}", c.this_update),
            ),
            Some(_) => {}
        },
    ),
    rfc(
        "e_rfc_crl_number_missing",
        Level::Error,
        "RFC 5280 §5.2.3",
        &[CrlPart::Extensions, CrlPart::CrlNumber],
        |c, r| match ext_offset(c, &oids::CE_CRL_NUMBER) {
            None => r.report(
                "tbsCertList.crlExtensions",
                at(c, c.tbs_raw),
                "conforming CAs must include cRLNumber",
            ),
            Some((o, true)) => r.report(
                "tbsCertList.crlExtensions.cRLNumber",
                o,
                "cRLNumber must not be critical",
            ),
            Some(_) => {}
        },
    ),
    rfc(
        "e_rfc_crl_aki_missing",
        Level::Error,
        "RFC 5280 §5.2.1",
        &[CrlPart::Extensions, CrlPart::AuthorityKeyId],
        |c, r| {
            let has = c
                .extensions
                .and_then(|x| x.find(&oids::CE_AUTHORITY_KEY_ID).ok().flatten())
                .and_then(|e| match ext::decode(e.oid, e.value, e.value_offset) {
                    Ok(ExtensionValue::AuthorityKeyIdentifier(a)) => a.key_identifier,
                    _ => None,
                })
                .is_some();
            if !has {
                r.report(
                    "tbsCertList.crlExtensions",
                    at(c, c.tbs_raw),
                    "conforming CAs must include authorityKeyIdentifier with a keyIdentifier",
                );
            }
        },
    ),
    rfc(
        "w_rfc_crl_entry_reason_unspecified",
        Level::Warning,
        "RFC 5280 §5.3.1",
        &[CrlPart::Entries],
        |c, r| {
            for e in c.revoked().flatten() {
                let Some(x) = e.extensions else { continue };
                let Ok(Some(reason)) = x.find(&oids::CE_CRL_REASON) else {
                    continue;
                };
                if reason.value == [0x0a, 0x01, 0x00] {
                    r.report(
                        "tbsCertList.revokedCertificates.crlEntryExtensions.reasonCode",
                        reason.value_offset,
                        format!(
                            "entry {}: reasonCode unspecified should be left out instead",
                            e.serial_hex()
                        ),
                    );
                }
            }
        },
    ),
    Lint::crl(
        "e_cabf_crl_next_update_too_far",
        Level::Error,
        "CA/B Forum TLS BR §4.9.7",
        RuleSet::CabfTls,
        &[CrlPart::Extensions, CrlPart::IssuingDistributionPoint],
        |c, r| {
            // A CRL of subscriber certificates: nextUpdate at most ten days after
            // thisUpdate; one that says (issuingDistributionPoint onlyContainsCACerts) it
            // covers CA certificates only, at most twelve months. Without that, a CA's
            // CRL cannot be told from a subscribers' one and is held to ten days.
            let arl = c
                .extensions
                .and_then(|x| x.all().ok())
                .and_then(|list| list.into_iter().find(|e| e.oid == oids::CE_ISSUING_DIST_POINT))
                .and_then(|e| ext::decode(e.oid, e.value, e.value_offset).ok())
                .is_some_and(|v| {
                    matches!(v, ExtensionValue::IssuingDistributionPoint(idp) if idp.only_contains_ca_certs)
                });
            let (limit, what) = if arl {
                (366.0, "twelve months")
            } else {
                (10.0, "10 days")
            };
            if let Some(n) = c.next_update {
                let days = (n.unix - c.this_update.unix) as f64 / 86_400.0;
                if days > limit {
                    r.report(
                        "tbsCertList.nextUpdate",
                        at(c, c.tbs_raw),
                        format!("nextUpdate is {days:.1} days after thisUpdate; at most {what}"),
                    );
                }
            }
        },
    )
    .since("2012-07-01", "BR 1.0"),
];

/// The parts that do not decode (strictly nor leniently), each reported as a finding.
pub(crate) fn undecodable_parts(crl: &Crl<'_>, out: &mut Vec<Finding>) -> Vec<CrlPart> {
    let mut broken = Vec::new();
    if let Some(list) = crl.extensions {
        let (exts, err) = list.all_partial();
        if let Some(e) = err {
            out.push(crate::encoding::undecodable(
                "tbsCertList.crlExtensions",
                &e,
            ));
            broken.push(CrlPart::Extensions);
        }
        for e in exts {
            if ext::decode(e.oid, e.value, e.value_offset).is_ok() {
                continue;
            }
            let log = crate::der::Deviations::new();
            let lenient = crate::der::Reader::lenient(&[], &log);
            let path = format!("tbsCertList.crlExtensions.{}", e.oid.name_or_dotted());
            match ext::decode_with(&lenient, e.oid, e.value, e.value_offset) {
                // Read leniently: each deviation is a finding; the value is whole.
                Ok(_) => out.extend(crate::encoding::deviation_findings(&log, &path)),
                Err(err) => {
                    out.push(crate::encoding::undecodable(&path, &err));
                    let part = if e.oid == oids::CE_CRL_NUMBER {
                        CrlPart::CrlNumber
                    } else if e.oid == oids::CE_AUTHORITY_KEY_ID {
                        CrlPart::AuthorityKeyId
                    } else if e.oid == oids::CE_ISSUING_DIST_POINT {
                        CrlPart::IssuingDistributionPoint
                    } else {
                        continue;
                    };
                    broken.push(part);
                }
            }
        }
    }
    if let Some(Err(e)) = crl.revoked().find(Result::is_err) {
        out.push(crate::encoding::undecodable(
            "tbsCertList.revokedCertificates",
            &e,
        ));
        broken.push(CrlPart::Entries);
    }
    broken
}
