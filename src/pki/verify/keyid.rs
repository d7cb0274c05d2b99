//! Key identifiers along a path (RFC 5280 §4.2.1.1, §4.2.1.2): what each certificate
//! must carry so that paths can be built by key, under both rule sets.
//!
//! - every certificate below the trust anchor carries an authorityKeyIdentifier (unless
//!   its issuer has no subjectKeyIdentifier for it to name), every intermediate a
//!   subjectKeyIdentifier;
//! - neither extension is critical ("Conforming CAs MUST mark this extension as
//!   non-critical");
//! - under `webpki`, a self-issued anchor's authorityKeyIdentifier, when present, holds
//!   a keyIdentifier equal to its subjectKeyIdentifier and no authorityCertIssuer or
//!   authorityCertSerialNumber (CA/Browser Forum BR §7.1.2.1.3).
//!
//! The trust anchor is not required to have a subjectKeyIdentifier: it is the relying
//! party's own choice, and roots the browsers trust lack one (Hongkong Post Root CA 1,
//! TWCA Global Root CA in Mozilla's store); RFC 5280 §6.1.1 takes an anchor as a name
//! and a key.
//!
//! A version 1 or 2 certificate has no extensions at all; under `rfc5280` it is exempt
//! from the presence rules (RFC 5280 profiles version 3 certificates), under `webpki`
//! not.

use super::failure::Failure;
use super::options::Rules;
use super::reason::Reason;
use super::role::Role;
use crate::der::oid_registry as oids;
use crate::der::{hex, Reader};
use pkit_x509::cert::Certificate;
use pkit_x509::ext::AuthorityKeyIdentifier;
use pkit_x509::extension::Extension;

fn fail(at: usize, detail: impl Into<String>) -> Failure {
    Failure::new(Reason::KeyIdentifier, Some(at), detail)
}

/// Certificate `at` of the path, in `role`, with its extensions `exts`.
pub(super) fn check(
    cert: &Certificate<'_>,
    issuer: Option<&Certificate<'_>>,
    exts: &[Extension<'_>],
    role: Role,
    rules: Rules,
    at: usize,
) -> Result<(), Failure> {
    let aki = exts.iter().find(|e| e.oid == oids::CE_AUTHORITY_KEY_ID);
    let ski = exts.iter().find(|e| e.oid == oids::CE_SUBJECT_KEY_ID);
    for (e, name) in [
        (aki, "authorityKeyIdentifier"),
        (ski, "subjectKeyIdentifier"),
    ] {
        if e.is_some_and(|e| e.critical) {
            return Err(fail(
                at,
                format!("{name} is critical (RFC 5280 §4.2.1.1/§4.2.1.2: MUST be non-critical)"),
            ));
        }
    }
    // Version 1 and 2 certificates predate extensions (the field holds version - 1).
    let exempt = cert.version < 2 && rules == Rules::Rfc5280;
    if !exempt {
        // An issuer without a key identifier leaves nothing to name (§4.2.1.1's other
        // form, issuer and serial, is not required either).
        let nameable = || {
            issuer
                .and_then(|i| i.extensions)
                .and_then(|x| x.find(&oids::CE_SUBJECT_KEY_ID).ok().flatten())
                .is_some()
        };
        if role != Role::Anchor && aki.is_none() && nameable() {
            return Err(fail(
                at,
                "no authorityKeyIdentifier (RFC 5280 §4.2.1.1: MUST be present below the \
                 trust anchor)",
            ));
        }
        if role == Role::Intermediate && ski.is_none() {
            return Err(fail(
                at,
                "a CA certificate without subjectKeyIdentifier (RFC 5280 §4.2.1.2)",
            ));
        }
    }
    if role == Role::Anchor && rules == Rules::WebPki && cert.is_self_issued() {
        if let Some(aki) = aki {
            anchor_aki(cert, aki, at)?;
        }
    }
    Ok(())
}

/// BR §7.1.2.1.3: a root's authorityKeyIdentifier, if present, is its own key
/// identifier and nothing else.
fn anchor_aki(cert: &Certificate<'_>, aki: &Extension<'_>, at: usize) -> Result<(), Failure> {
    let v = AuthorityKeyIdentifier::read(&mut Reader::new(aki.value))
        .map_err(|e| Failure::new(Reason::Malformed, Some(at), e.to_string()))?;
    if v.authority_cert_issuer.is_some() || v.authority_cert_serial_number.is_some() {
        return Err(fail(
            at,
            "the trust anchor's authorityKeyIdentifier names an issuer and serial \
             (the Web PKI allows only keyIdentifier)",
        ));
    }
    let Some(kid) = v.key_identifier else {
        return Err(fail(
            at,
            "the trust anchor's authorityKeyIdentifier has no keyIdentifier",
        ));
    };
    match cert.subject_key_id() {
        Some(ski) if ski == kid => Ok(()),
        Some(ski) => Err(fail(
            at,
            format!(
                "the trust anchor's authorityKeyIdentifier {} is not its subjectKeyIdentifier {}",
                hex(kid),
                hex(&ski)
            ),
        )),
        None => Err(fail(
            at,
            "the trust anchor's subjectKeyIdentifier does not decode",
        )),
    }
}
