//! The `webpki` rule set's profile checks on each certificate of a path: what the
//! CA/Browser Forum Baseline Requirements and RFC 5280's MUSTs for issuers demand, and
//! Web PKI verifiers (Chrome, Go's `crypto/x509`, pyca `cryptography`, rustls-webpki)
//! enforce, beyond the path processing of RFC 5280 §6.1.
//!
//! - serial numbers below the trust anchor: positive, not zero, at most 20 octets (RFC
//!   5280 §4.1.2.2);
//! - keys: RSA of at least 2048 bits with a modulus a whole number of octets, EC on
//!   P-256, P-384 or P-521, no DSA (BR §6.1.5);
//! - criticality: basicConstraints critical in an intermediate, policyConstraints critical,
//!   authorityInfoAccess not critical and well formed (RFC 5280 §4.2.1.9, §4.2.1.11,
//!   §4.2.2.1);
//! - names: a subjectAltName critical exactly when the subject is empty (§4.2.1.6), no
//!   CA with an empty subject (§4.1.2.6); on the leaf, dNSNames of host-name syntax
//!   without underscores (BR §7.1.4.2.1), and no commonName that names a
//!   subjectAltName value in another spelling (BR §7.1.4.3; see `cn`). A wildcard over
//!   a public suffix (`*.co.uk`) is not refused here: [`names::matches`] gives it no
//!   name to match;
//! - usages: the leaf is no CA (basicConstraints cA, keyUsage keyCertSign) and its
//!   extendedKeyUsage is neither critical nor anyExtendedKeyUsage; a root (a self-issued
//!   trust anchor) has no extendedKeyUsage (BR §7.1.2.1).
//!
//! Keys of the other algorithms pkit signs with (Ed25519, ML-DSA) are let through: the
//! BRs predate them, and pyca's Web PKI policy takes ML-DSA too.

use super::failure::Failure;
use super::names;
use super::reason::Reason;
use super::role::Role;
use crate::der::oid_registry as oids;
use cn::SanValue;
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{self, ExtensionValue, GeneralName};
use pkit_x509::extension::Extension;

/// RFC 5280 §4.1.2.2: "Conforming CAs MUST NOT use serialNumber values longer than 20
/// octets."
const MAX_SERIAL_OCTETS: usize = 20;

/// keyUsage bit 5 (RFC 5280 §4.2.1.3).
const KEY_CERT_SIGN: usize = 5;

mod cn;

/// Certificate `at` of the path, in `role`, with its extensions `exts`.
pub(super) fn check(
    cert: &Certificate<'_>,
    exts: &[Extension<'_>],
    role: Role,
    at: usize,
) -> Result<(), Failure> {
    // A trust anchor is the relying party's own choice, trusted as configured: roots
    // Mozilla's and Chrome's stores carry have serial 0 (Go Daddy and Starfield G2,
    // HARICA 2015), so the serial rule applies below the anchor only. Its key is held
    // to the rules like every other (a weak root key weakens every path).
    if role != Role::Anchor {
        serial(cert, at)?;
    }
    key(cert, at)?;
    criticality(exts, role, at)?;
    subject_and_san(cert, exts, role, at)?;
    match role {
        Role::Leaf => {
            leaf_usages(exts, at)?;
            leaf_names(cert, at)?;
        }
        // A root, that is: an intermediate trusted as an anchor may well carry an EKU.
        Role::Anchor if cert.is_self_issued() => {
            if exts.iter().any(|e| e.oid == oids::CE_EXT_KEY_USAGE) {
                return Err(Failure::new(
                    Reason::InvalidExtension,
                    Some(at),
                    "the trust anchor has an extendedKeyUsage (BR §7.1.2.1: a root has none)",
                ));
            }
        }
        Role::Anchor | Role::Intermediate => {}
    }
    Ok(())
}

fn serial(cert: &Certificate<'_>, at: usize) -> Result<(), Failure> {
    let bad = |why: &str| {
        Failure::new(
            Reason::InvalidSerial,
            Some(at),
            format!(
                "serial number {} {why} (RFC 5280 §4.1.2.2)",
                cert.serial_hex()
            ),
        )
    };
    if cert.serial_is_negative() {
        return Err(bad("is negative"));
    }
    if cert.serial.iter().all(|&b| b == 0) {
        return Err(bad("is zero"));
    }
    if cert.serial.len() > MAX_SERIAL_OCTETS {
        return Err(bad(&format!(
            "is {} octets long, over {MAX_SERIAL_OCTETS}",
            cert.serial.len()
        )));
    }
    Ok(())
}

fn key(cert: &Certificate<'_>, at: usize) -> Result<(), Failure> {
    let k = cert
        .spki
        .key_info()
        .map_err(|e| Failure::new(Reason::Malformed, Some(at), e.to_string()))?;
    let weak = |why: String| Failure::new(Reason::WeakAlgorithm, Some(at), why);
    match (k.family.as_str(), k.bits) {
        ("RSA", Some(b)) if b < 2048 => Err(weak(format!("RSA key of {b} bits"))),
        ("RSA", Some(b)) if b % 8 != 0 => Err(weak(format!(
            "RSA modulus of {b} bits, not a whole number of octets (BR §6.1.5)"
        ))),
        ("EC", _) => match k.parameters.as_deref() {
            Some("P-256" | "P-384" | "P-521") => Ok(()),
            other => Err(weak(format!(
                "EC key on {} (the Web PKI allows P-256, P-384 and P-521)",
                other.unwrap_or("an unnamed curve")
            ))),
        },
        ("DSA", _) => Err(weak("DSA key (the Web PKI allows none)".into())),
        _ => Ok(()),
    }
}

fn criticality(exts: &[Extension<'_>], role: Role, at: usize) -> Result<(), Failure> {
    let invalid = |why: &str| Failure::new(Reason::InvalidExtension, Some(at), why.to_string());
    for e in exts {
        // Below the anchor only: roots in the browsers' stores (Go Daddy and Starfield
        // Class 2, ePKI) carry a non-critical basicConstraints, which pkit still reads
        // and applies (cA, pathLenConstraint) as it does a critical one.
        if e.oid == oids::CE_BASIC_CONSTRAINTS && role == Role::Intermediate && !e.critical {
            return Err(invalid(
                "basicConstraints of a CA is not critical (RFC 5280 §4.2.1.9)",
            ));
        }
        if e.oid == oids::CE_POLICY_CONSTRAINTS && !e.critical {
            return Err(invalid(
                "policyConstraints is not critical (RFC 5280 §4.2.1.11)",
            ));
        }
        if e.oid == oids::PE_AUTHORITY_INFO_ACCESS {
            if e.critical {
                return Err(invalid(
                    "authorityInfoAccess is critical (RFC 5280 §4.2.2.1)",
                ));
            }
            ext::decode(e.oid, e.value, e.value_offset).map_err(|x| {
                Failure::new(
                    Reason::Malformed,
                    Some(at),
                    x.at("authorityInfoAccess").to_string(),
                )
            })?;
        }
    }
    Ok(())
}

fn subject_and_san(
    cert: &Certificate<'_>,
    exts: &[Extension<'_>],
    role: Role,
    at: usize,
) -> Result<(), Failure> {
    let invalid = |why: &str| Failure::new(Reason::InvalidName, Some(at), why.to_string());
    let empty = cert.subject.is_empty();
    if empty && role.is_ca() {
        return Err(invalid(
            "a CA certificate with an empty subject (RFC 5280 §4.1.2.6)",
        ));
    }
    match exts.iter().find(|e| e.oid == oids::CE_SUBJECT_ALT_NAME) {
        Some(san) if empty && !san.critical => Err(invalid(
            "the subject is empty and subjectAltName is not critical (RFC 5280 §4.2.1.6)",
        )),
        Some(san) if !empty && san.critical => Err(invalid(
            "subjectAltName is critical beside a non-empty subject (RFC 5280 §4.2.1.6)",
        )),
        None if empty => Err(invalid(
            "neither a subject nor a subjectAltName names the certificate",
        )),
        _ => Ok(()),
    }
}

fn leaf_usages(exts: &[Extension<'_>], at: usize) -> Result<(), Failure> {
    let malformed = |e: crate::der::Error| Failure::new(Reason::Malformed, Some(at), e.to_string());
    for e in exts {
        let decoded = || ext::decode(e.oid, e.value, e.value_offset).map_err(malformed);
        if e.oid == oids::CE_BASIC_CONSTRAINTS {
            if let ExtensionValue::BasicConstraints(b) = decoded()? {
                if b.ca {
                    return Err(Failure::new(
                        Reason::InvalidExtension,
                        Some(at),
                        "the end-entity certificate is a CA (basicConstraints cA)",
                    ));
                }
            }
        } else if e.oid == oids::CE_KEY_USAGE {
            if let ExtensionValue::KeyUsage(k) = decoded()? {
                if k.contains(KEY_CERT_SIGN) {
                    return Err(Failure::new(
                        Reason::KeyUsage,
                        Some(at),
                        "the end-entity certificate's keyUsage allows keyCertSign",
                    ));
                }
            }
        } else if e.oid == oids::CE_EXT_KEY_USAGE {
            if e.critical {
                return Err(Failure::new(
                    Reason::InvalidExtension,
                    Some(at),
                    "extendedKeyUsage is critical (BR §7.1.2.7.10: non-critical)",
                ));
            }
            if let ExtensionValue::ExtendedKeyUsage(v) = decoded()? {
                if v.iter().any(|o| *o == oids::KP_ANY) {
                    return Err(Failure::new(
                        Reason::EkuMismatch,
                        Some(at),
                        "extendedKeyUsage lists anyExtendedKeyUsage (BR §7.1.2.7.10)",
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The leaf's dNSNames and commonNames (BR §7.1.4.2.1, §7.1.4.3).
fn leaf_names(cert: &Certificate<'_>, at: usize) -> Result<(), Failure> {
    let invalid = |why: String| Failure::new(Reason::InvalidName, Some(at), why);
    let sans = names::subject_alt_names(cert)
        .map_err(|e| Failure::new(Reason::Malformed, Some(at), e.to_string()))?;
    let mut values: Vec<SanValue<'_>> = Vec::with_capacity(sans.len());
    for n in &sans {
        match n {
            GeneralName::DnsName(d) => {
                dns_san(d).map_err(|why| invalid(format!("subjectAltName dNSName {d:?} {why}")))?;
                values.push(SanValue::Dns(d));
            }
            GeneralName::IpAddress(a) => values.push(SanValue::Ip(a.bytes)),
            _ => {}
        }
    }
    let attrs = cert
        .subject
        .attributes()
        .map_err(|e| Failure::new(Reason::Malformed, Some(at), e.to_string()))?;
    for a in attrs.iter().filter(|a| a.oid == oids::AT_COMMON_NAME) {
        let cn = a
            .text()
            .map_err(|e| Failure::new(Reason::Malformed, Some(at), e.to_string()))?;
        if let Some(san) = cn::names_a_san_otherwise(&cn, &values) {
            let san = match san {
                SanValue::Dns(d) => format!("dNSName {d:?}"),
                SanValue::Ip(b) => format!("iPAddress {}", pkit_x509::ext::IpAddress { bytes: b }),
            };
            return Err(invalid(format!(
                "the commonName {cn:?} names the subjectAltName {san} in another spelling; \
                 it must copy it byte for byte (BR §7.1.4.3)"
            )));
        }
    }
    Ok(())
}

/// A presented dNSName as the Baseline Requirements allow it: a preferred-syntax host
/// name in A-labels, no underscore, a wildcard only as the whole leftmost label. A
/// wildcard over a public suffix passes here: it makes that SAN match nothing
/// ([`names::matches`]), not the certificate invalid, so a certificate whose other SAN
/// names the host exactly still serves it.
fn dns_san(d: &str) -> Result<(), String> {
    if d.contains('_') {
        return Err("has an underscore (BR §7.1.4.2.1)".into());
    }
    let rest = d.strip_prefix("*.").unwrap_or(d);
    names::check_host_name(rest).map_err(|why| format!("is not a host name: it {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_sans_by_the_baseline_requirements() {
        assert!(dns_san("www.example.com").is_ok());
        assert!(dns_san("*.example.co.uk").is_ok());
        // Unusable for matching, but no reason to refuse the certificate.
        assert!(dns_san("*.co.uk").is_ok());
        assert!(dns_san("a_b.example.com")
            .unwrap_err()
            .contains("underscore"));
        assert!(dns_san("www..example.com").is_err());
        assert!(dns_san("w*w.example.com").is_err());
        assert!(dns_san("*").is_err());
    }
}
