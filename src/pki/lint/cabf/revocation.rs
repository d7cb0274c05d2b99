//! Where relying parties learn of revocation: authorityInfoAccess with its OCSP and
//! caIssuers URLs (BR §7.1.2.7.7, §7.1.2.3(c)) and cRLDistributionPoints (§7.1.2.11.2).

use super::{br, tls, FULL};
use crate::context::CertContext;
use crate::der::oid_registry as oids;
use crate::finding::Level;
use crate::rule::Lint;
use pkit_x509::ext::DistributionPointName;
use pkit_x509::ext::{ExtensionValue, GeneralName};

/// Whether cRLDistributionPoints gives a CRL over http (BR §7.1.2.11.2; S/MIME BR
/// §7.1.2.3(b)).
pub(crate) fn has_http_crl(c: &CertContext<'_>) -> bool {
    match c.value(&oids::CE_CRL_DIST_POINTS) {
        Some(ExtensionValue::CrlDistributionPoints(dps)) => dps.iter().any(|dp| {
            matches!(&dp.distribution_point, Some(DistributionPointName::FullName(names))
                if names.iter().any(|n| matches!(n, GeneralName::Uri(u) if u.starts_with("http://"))))
        }),
        _ => false,
    }
}

/// Whether authorityInfoAccess names an OCSP responder over http.
fn has_ocsp(c: &CertContext<'_>) -> bool {
    match c.value(&oids::PE_AUTHORITY_INFO_ACCESS) {
        Some(ExtensionValue::AuthorityInfoAccess(list)) => list.iter().any(|a| {
            a.access_method == oids::AD_OCSP
                && matches!(&a.access_location, GeneralName::Uri(u) if u.starts_with("http://"))
        }),
        _ => false,
    }
}

/// The rules of this file.
pub(crate) static LINTS: &[Lint] = &[
    br(
        "e_cabf_aia_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.7",
        FULL,
        tls,
        |c, r| {
            if c.extension(&oids::PE_AUTHORITY_INFO_ACCESS).is_none() {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "a TLS subscriber certificate must have authorityInfoAccess",
                );
            }
        },
    ),
    br(
        "w_cabf_aia_ca_issuers_missing",
        Level::Warning,
        "CA/B Forum TLS BR §7.1.2.7.7",
        FULL,
        tls,
        |c, r| {
            let aia = match c.value(&oids::PE_AUTHORITY_INFO_ACCESS) {
                Some(ExtensionValue::AuthorityInfoAccess(list)) => list,
                // Its absence is e_cabf_aia_missing.
                _ => return,
            };
            let has = aia.iter().any(|a| {
                a.access_method == oids::AD_CA_ISSUERS
                    && matches!(&a.access_location, GeneralName::Uri(u) if u.starts_with("http://"))
            });
            if !has {
                r.report(
                    "tbsCertificate.extensions.authorityInfoAccess",
                    c.offset_of(&oids::PE_AUTHORITY_INFO_ACCESS),
                    "authorityInfoAccess should give the issuing CA's certificate (caIssuers, \
                     http)",
                );
            }
        },
    ),
    br(
        "e_cabf_ocsp_url_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.3(c)",
        FULL,
        tls,
        |c, r| {
            // BR 1.x: authorityInformationAccess MUST hold the OCSP responder's http URL
            // (the CRL pointer was optional).
            if !has_ocsp(c) {
                r.report(
                    "tbsCertificate.extensions",
                    c.offset_of(&oids::PE_AUTHORITY_INFO_ACCESS),
                    "authorityInfoAccess must give the OCSP responder (http)",
                );
            }
        },
    )
    .until("2023-09-15", "BR 2.0.0, Ballot SC-62"),
    br(
        "e_cabf_crl_distribution_point_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.11.2",
        FULL,
        tls,
        |c, r| {
            // SC-063: a CRL is where revocation is told unless an OCSP responder is
            // named, or the certificate is short-lived (§1.6.1: ≤ 10 days; ≤ 7 from
            // 2026-03-15, SC-081).
            if has_http_crl(c) || has_ocsp(c) {
                return;
            }
            let short = if c.at >= const { crate::dates::date("2026-03-15") } {
                7
            } else {
                10
            };
            if c.validity()
                // Inclusive of the last second (§1.6.4): `na - nb + 1 <= short days`.
                .is_some_and(|(nb, na)| na - nb < short * 86_400)
            {
                return;
            }
            r.report(
                "tbsCertificate.extensions",
                c.offset_of(&oids::CE_CRL_DIST_POINTS),
                "cRLDistributionPoints must give the CA's CRL (http): the certificate names no \
                 OCSP responder and is not short-lived",
            );
        },
    )
    .since("2024-03-15", "Ballot SC-063"),
];
