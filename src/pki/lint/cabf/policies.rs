//! The policies a certificate asserts and the subject a CA names: a TLS subscriber's
//! reserved policy identifier (BR §7.1.2.7.9), a subordinate CA's policies (§7.1.2.10.5)
//! and a CA's subject attributes (§7.1.2.10.2).

use super::{br, ca, sub_ca, tls, FULL};
use crate::der::oid_registry as oids;
use crate::der::Oid;
use crate::finding::Level;
use crate::rule::Lint;

/// The CA/Browser Forum's reserved policy identifiers for TLS certificates (§7.1.6.1).
const RESERVED_POLICIES: [Oid; 4] = [oids::CABF_DV, oids::CABF_OV, oids::CABF_IV, oids::CABF_EV];

/// The rules of this file.
pub(crate) static LINTS: &[Lint] = &[
    br(
        "e_cabf_policy_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.9",
        FULL,
        tls,
        |c, r| {
            // BR 1.x §7.1.6.4: a policy identifier that says the certificate follows the
            // BRs (the CA's own OID would do); from SC31 (2020-09-30) a reserved one.
            let policies = c.policy_oids();
            let reserved = policies
                .iter()
                .any(|p| RESERVED_POLICIES.iter().any(|o| *p == *o));
            if c.at < const { crate::dates::date("2020-09-30") } {
                if policies.is_empty() {
                    r.report(
                        "tbsCertificate.extensions",
                        c.offset_of(&oids::CE_CERT_POLICIES),
                        "certificatePolicies must hold a policy identifier",
                    );
                }
            } else if !reserved {
                r.report(
                    "tbsCertificate.extensions",
                    c.offset_of(&oids::CE_CERT_POLICIES),
                    "certificatePolicies must hold one of the CA/B Forum's reserved policy OIDs",
                );
            }
        },
    ),
    br(
        "e_cabf_ca_subject_attributes_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.2",
        FULL,
        ca,
        |c, r| {
            // An empty value says nothing: it is not the attribute being present.
            let has = |oid: &Oid| c.subject_has(oid);
            for (oid, name) in [
                (&oids::AT_COUNTRY, "countryName"),
                (&oids::AT_ORGANIZATION, "organizationName"),
            ] {
                if !has(oid) {
                    r.report(
                        "tbsCertificate.subject",
                        c.cert.subject.offset,
                        format!("a CA certificate's subject must have {name}"),
                    );
                }
            }
        },
    ),
    br(
        "e_cabf_subca_policy_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.5",
        FULL,
        sub_ca,
        |c, r| {
            if c.extension(&oids::CE_CERT_POLICIES).is_none() {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "a subordinate CA certificate must have certificatePolicies",
                );
            }
        },
    ),
];
