//! keyUsage and extendedKeyUsage, by certificate type: a TLS subscriber's (BR
//! §7.1.2.7.10, §7.1.2.7.11), a CA's (§7.1.2.10.7), a root's (§7.1.2.1.2) and a TLS
//! subordinate CA's, told apart by its EKU (§7.1.2.10.6).

use super::{br, ca, root, sub_ca, tls, CORE, FULL};
use crate::cert_type::CertType;
use crate::der::oid_registry as oids;
use crate::der::Oid;
use crate::finding::Level;
use crate::rule::Lint;
use pkit_x509::ext::{ku, KEY_USAGE_BITS};

/// What is wrong with a subordinate CA certificate's extendedKeyUsage, the BRs' profiles
/// told apart by the EKU itself: one with only the Precertificate Signing EKU is a
/// precertificate signing CA (§7.1.2.4); one whose EKU lists neither serverAuth nor
/// anyExtendedKeyUsage is not a TLS CA (§7.1.2.3) and these rules are not its; a TLS CA
/// (§7.1.2.10.6) has serverAuth and not anyExtendedKeyUsage; a cross-certificate
/// (§7.1.2.2, `--as cross-ca`) may also have no EKU at all, or anyExtendedKeyUsage alone.
fn subca_eku_problem(
    kind: CertType,
    ekus: Option<&[crate::der::ObjectId<'_>]>,
) -> Option<&'static str> {
    let cross = kind == CertType::CrossCa;
    let Some(ekus) = ekus else {
        return (!cross).then_some(
            "a TLS subordinate CA certificate must have extendedKeyUsage (with serverAuth)",
        );
    };
    let has = |o: &Oid| ekus.iter().any(|e| *e == *o);
    let any = has(&oids::KP_ANY);
    if ekus.len() == 1 && (has(&PRECERT_SIGNING) || (cross && any)) {
        return None;
    }
    if any {
        return Some(if cross {
            "a cross-certificate with anyExtendedKeyUsage must have no other EKU"
        } else {
            "a TLS subordinate CA certificate must not have anyExtendedKeyUsage"
        });
    }
    None
}

/// RFC 6962 §3.1's Precertificate Signing Certificate EKU, which BR §7.1.2.7.10 forbids
/// in a subscriber certificate (it belongs to a CA's precertificate signer).
const PRECERT_SIGNING: Oid = Oid::new("1.3.6.1.4.1.11129.2.4.4");

/// The rules of this file.
pub(crate) static LINTS: &[Lint] = &[
    br(
        "e_cabf_eku_server_auth_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.10",
        CORE,
        tls,
        |c, r| {
            let has = c
                .ekus()
                .is_some_and(|e| e.iter().any(|o| *o == oids::KP_SERVER_AUTH));
            if !has {
                r.report(
                    "tbsCertificate.extensions",
                    c.offset_of(&oids::CE_EXT_KEY_USAGE),
                    "extendedKeyUsage must be present with id-kp-serverAuth",
                );
            }
        },
    ),
    br(
        "e_cabf_eku_forbidden",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.10",
        CORE,
        tls,
        |c, r| {
            let forbidden: [(&Oid, &str); 6] = [
                (&oids::KP_ANY, "anyExtendedKeyUsage"),
                (&oids::KP_CODE_SIGNING, "codeSigning"),
                (&oids::KP_EMAIL_PROTECTION, "emailProtection"),
                (&oids::KP_TIME_STAMPING, "timeStamping"),
                (&oids::KP_OCSP_SIGNING, "OCSPSigning"),
                (
                    &PRECERT_SIGNING,
                    "Precertificate Signing Certificate (RFC 6962 §3.1)",
                ),
            ];
            // anyExtendedKeyUsage from SC31 (BR 1.7.1, 2020-08-20); the others from
            // BR 2.0.0's profile (SC-62, 2023-09-15).
            let profile = c.at >= const { crate::dates::date("2023-09-15") };
            for e in c.ekus().unwrap_or_default() {
                if let Some((_, name)) = forbidden.iter().find(|(o, _)| *e == **o) {
                    if profile || *e == oids::KP_ANY {
                        r.report(
                            "tbsCertificate.extensions.extKeyUsage",
                            c.offset_of(&oids::CE_EXT_KEY_USAGE),
                            format!("{name} must not be in a TLS server certificate"),
                        );
                    }
                }
            }
        },
    )
    .since("2020-08-20", "Ballot SC31 (BR 1.7.1)"),
    br(
        "e_cabf_leaf_key_usage_ca_bits",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.11",
        CORE,
        tls,
        |c, r| {
            let bits = c.key_usage().unwrap_or_default();
            if bits.contains(&ku::KEY_CERT_SIGN) || bits.contains(&ku::CRL_SIGN) {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    c.offset_of(&oids::CE_KEY_USAGE),
                    "keyCertSign and cRLSign must not be set in a subscriber certificate",
                );
            }
        },
    ),
    br(
        "e_cabf_ca_key_usage_bits",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.7",
        CORE,
        ca,
        |c, r| {
            let Some(bits) = c.key_usage() else { return };
            if !(bits.contains(&ku::KEY_CERT_SIGN) && bits.contains(&ku::CRL_SIGN)) {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    c.offset_of(&oids::CE_KEY_USAGE),
                    "a CA certificate's keyUsage must set keyCertSign and cRLSign",
                );
            }
        },
    ),
    br(
        "e_cabf_ca_key_usage_not_critical",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.7",
        CORE,
        ca,
        |c, r| {
            if let Some(e) = c.extension(&oids::CE_KEY_USAGE).filter(|e| !e.critical) {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    e.value_offset,
                    "a CA certificate's keyUsage must be critical",
                );
            }
        },
    ),
    br(
        "e_cabf_leaf_key_usage_not_critical",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.11",
        CORE,
        tls,
        |c, r| {
            if let Some(e) = c.extension(&oids::CE_KEY_USAGE).filter(|e| !e.critical) {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    e.value_offset,
                    "a TLS subscriber certificate's keyUsage must be critical",
                );
            }
        },
    )
    .since("2023-09-15", "Ballot SC-62"),
    br(
        "e_cabf_leaf_key_usage_prohibited",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.11",
        CORE,
        tls,
        |c, r| {
            // The bits the profile's table allows by key: RSA digitalSignature,
            // keyEncipherment and (NOT RECOMMENDED) dataEncipherment; ECDSA
            // digitalSignature and (NOT RECOMMENDED) keyAgreement. (keyCertSign and
            // cRLSign are e_cabf_leaf_key_usage_ca_bits'.)
            let Some(bits) = c.key_usage() else { return };
            let Ok(info) = c.spki().key_info() else {
                return;
            };
            let (allowed, key): (&[usize], &str) = match info.family.as_str() {
                "RSA" => (
                    &[
                        ku::DIGITAL_SIGNATURE,
                        ku::KEY_ENCIPHERMENT,
                        ku::DATA_ENCIPHERMENT,
                    ],
                    "an RSA",
                ),
                "EC" => (&[ku::DIGITAL_SIGNATURE, ku::KEY_AGREEMENT], "an ECDSA"),
                _ => return,
            };
            for b in bits
                .iter()
                .filter(|b| !allowed.contains(b) && **b != ku::KEY_CERT_SIGN && **b != ku::CRL_SIGN)
            {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    c.offset_of(&oids::CE_KEY_USAGE),
                    format!(
                        "{} must not be set with {key} key",
                        KEY_USAGE_BITS.get(*b).unwrap_or(&"an unnamed bit")
                    ),
                );
            }
        },
    )
    .since("2023-09-15", "Ballot SC-62"),
    br(
        "e_cabf_root_eku_present",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.1.2",
        FULL,
        root,
        |c, r| {
            if let Some(e) = c.extension(&oids::CE_EXT_KEY_USAGE) {
                r.report(
                    "tbsCertificate.extensions.extKeyUsage",
                    e.value_offset,
                    "a root CA certificate must not have extendedKeyUsage",
                );
            }
        },
    ),
    br(
        "e_cabf_subca_eku_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.6",
        FULL,
        sub_ca,
        |c, r| {
            // anyExtendedKeyUsage from SC31 (2020-08-20); EKU required by BR 2.0.0's
            // profile (SC-62, 2023-09-15).
            let ekus = c.ekus();
            if ekus.is_none() && c.at < const { crate::dates::date("2023-09-15") } {
                return;
            }
            if let Some(why) = subca_eku_problem(c.kind, ekus) {
                r.report(
                    "tbsCertificate.extensions",
                    c.offset_of(&oids::CE_EXT_KEY_USAGE),
                    why,
                );
            }
        },
    )
    .since("2020-08-20", "Ballot SC31 (BR 1.7.1)"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subordinate_ca_ekus_by_profile() {
        use crate::der::ObjectId;
        let server = ObjectId::from_valid(oids::KP_SERVER_AUTH.as_bytes());
        let any = ObjectId::from_valid(oids::KP_ANY.as_bytes());
        let precert = ObjectId::from_valid(PRECERT_SIGNING.as_bytes());
        let email = ObjectId::from_valid(oids::KP_EMAIL_PROTECTION.as_bytes());
        let sub = CertType::Intermediate;
        let cross = CertType::CrossCa;
        assert!(subca_eku_problem(sub, None).is_some());
        assert!(subca_eku_problem(cross, None).is_none());
        assert!(subca_eku_problem(sub, Some(&[server])).is_none());
        assert!(subca_eku_problem(sub, Some(&[server, any])).is_some());
        assert!(subca_eku_problem(sub, Some(&[any])).is_some());
        assert!(subca_eku_problem(cross, Some(&[any])).is_none());
        assert!(subca_eku_problem(cross, Some(&[any, server])).is_some());
        assert!(subca_eku_problem(sub, Some(&[precert])).is_none());
        // A non-TLS CA: not this rule's.
        assert!(subca_eku_problem(sub, Some(&[email])).is_none());
    }
}
