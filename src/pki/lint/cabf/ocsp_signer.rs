//! A delegated OCSP responder's certificate (BR §7.1.2.8): id-pkix-ocsp-nocheck and an
//! extendedKeyUsage of id-kp-OCSPSigning alone.

use super::{br, ocsp_signer, CORE};
use crate::der::oid_registry as oids;
use crate::finding::Level;
use crate::rule::Lint;

/// The rules of this file.
pub(crate) static LINTS: &[Lint] = &[
    br(
        "e_cabf_ocsp_signer_nocheck_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.8.2",
        CORE,
        ocsp_signer,
        |c, r| {
            if c.extension(&oids::PKIX_OCSP_NOCHECK).is_none() {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "a delegated OCSP responder's certificate must carry id-pkix-ocsp-nocheck, \
                     or clients check its revocation with itself",
                );
            }
        },
    ),
    br(
        "e_cabf_ocsp_signer_eku",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.8.5",
        CORE,
        ocsp_signer,
        |c, r| {
            let ekus = c.ekus().unwrap_or_default();
            let signing = ekus.iter().any(|o| *o == oids::KP_OCSP_SIGNING);
            if !signing || ekus.len() != 1 {
                r.report(
                    "tbsCertificate.extensions.extKeyUsage",
                    c.offset_of(&oids::CE_EXT_KEY_USAGE),
                    "a delegated OCSP responder's extendedKeyUsage must be id-kp-OCSPSigning \
                     alone",
                );
            }
        },
    )
    .since("2023-09-15", "Ballot SC-62"),
];
