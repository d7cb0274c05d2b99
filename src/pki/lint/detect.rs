//! What a certificate is for, which decides the rules that apply. Told as the Baseline
//! Requirements tell it (or set with `--as`): a CA by basicConstraints; a subscriber
//! certificate by the CA/Browser Forum policy it asserts (TLS 2.23.140.1.2.x, EV
//! 2.23.140.1.1, S/MIME 2.23.140.1.5.x), whatever its EKU; otherwise by its extended key
//! usages; a precertificate (RFC 6962's poison) as the TLS certificate it stands for.

//!
//! The certificate's context is built here, since telling its type is the last step of
//! reading it: [`CertContext::new`], [`CertContext::lenient`], [`CertContext::at`].

use crate::cert_type::CertType;
use crate::context::CertContext;
use crate::der::oid_registry as oids;
use crate::der::{Deviations, ObjectId};
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{ExtensionValue, GeneralName};

impl<'a> CertContext<'a> {
    /// The context of a certificate parsed strictly (nothing to report of its encoding
    /// but what its parts' own decoding finds); `as_type` is its type instead of the one
    /// its contents say.
    pub fn new(cert: &'a Certificate<'a>, as_type: Option<CertType>) -> CertContext<'a> {
        build(cert, as_type, None, None, None)
    }

    /// The context of a certificate parsed with `Reader::lenient(der, log)`: the
    /// deviations in `log` become findings too. `at` judges the rules as of that day
    /// instead of the certificate's notBefore; `self_signed` says whether its own key
    /// verifies its signature, when the caller checked.
    pub fn lenient(
        cert: &'a Certificate<'a>,
        as_type: Option<CertType>,
        log: &'a Deviations,
        at: Option<i64>,
        self_signed: Option<bool>,
    ) -> CertContext<'a> {
        build(cert, as_type, Some(log), at, self_signed)
    }

    /// As [`CertContext::new`], judged as of `at` (the gate: today's rules whatever the
    /// notBefore).
    pub fn at(cert: &'a Certificate<'a>, as_type: Option<CertType>, at: i64) -> CertContext<'a> {
        build(cert, as_type, None, Some(at), None)
    }
}

/// Read the certificate, then tell its type (or take the one asked for).
fn build<'a>(
    cert: &'a Certificate<'a>,
    as_type: Option<CertType>,
    log: Option<&'a Deviations>,
    at: Option<i64>,
    self_signed: Option<bool>,
) -> CertContext<'a> {
    let mut ctx = CertContext::read(cert, log, at, self_signed);
    match as_type {
        Some(t) => ctx.told(t, "as asked (--as)".to_string(), None),
        None => {
            ctx.begin_check();
            let (kind, mut reason) = detect(&ctx);
            let unsure = ctx.touched();
            if let Some(part) = unsure {
                // A type read through a part that did not decode is a guess: the lints
                // that depend on the type do not run on it (`--as` says).
                reason = format!("{reason}; {} did not decode", ctx.part_name(part));
            }
            ctx.told(kind, reason, unsure);
        }
    }
    ctx
}
/// A CA/Browser Forum TLS subscriber policy: DV, OV, IV (2.23.140.1.2.1–3) or EV
/// (2.23.140.1.1), BR §7.1.6.1.
pub(crate) fn is_tls_policy(oid: &ObjectId<'_>) -> bool {
    *oid == oids::CABF_EV || oid.arcs().take(5).eq([2, 23, 140, 1, 2])
}

/// An S/MIME BR policy: 2.23.140.1.5.{1–4}.{1–3} (mailbox, organization, sponsor,
/// individual validated × legacy, multipurpose, strict), S/MIME BR §7.1.6.1.
pub(crate) fn is_smime_policy(oid: &ObjectId<'_>) -> bool {
    matches!(
        oid.arcs().collect::<Vec<_>>()[..],
        [2, 23, 140, 1, 5, 1..=4, 1..=3]
    )
}

/// The type a certificate's contents say, and why.
fn detect(ctx: &CertContext<'_>) -> (CertType, String) {
    if ctx.basic_constraints().is_some_and(|b| b.ca) {
        if !ctx.cert.is_self_issued() {
            return (
                CertType::Intermediate,
                "basicConstraints cA, issued by another name".into(),
            );
        }
        // Self-issued under another key (a key rollover) is not a root: a signature
        // its own key does not verify, or an AKI naming another key, says so.
        if ctx.self_signed == Some(false) {
            return (
                CertType::Intermediate,
                "basicConstraints cA, self-issued, not signed by its own key".into(),
            );
        }
        return match (authority_key_id(ctx), subject_key_id(ctx)) {
            (Some(aki), Some(ski)) if aki != ski => (
                CertType::Intermediate,
                "basicConstraints cA, self-issued under another key (AKI ≠ SKI)".into(),
            ),
            _ => (CertType::Root, "basicConstraints cA, self-issued".into()),
        };
    }
    let precert = ctx.extension(&oids::CT_PRECERT_POISON).is_some();
    let suffix = if precert { " (a precertificate)" } else { "" };
    let ekus = ctx.ekus();
    let has = |o: &crate::der::Oid| ekus.as_ref().is_some_and(|l| l.iter().any(|e| *e == *o));
    // BR §7.1.2.8: a delegated OCSP responder is one by its EKU, whatever policy it
    // carries.
    if has(&oids::KP_OCSP_SIGNING) && !has(&oids::KP_SERVER_AUTH) {
        return (CertType::OcspSigner, "extendedKeyUsage OCSPSigning".into());
    }
    let policies = ctx.policy_oids();
    if let Some(p) = policies.iter().find(|p| is_tls_policy(p)) {
        return (
            CertType::TlsLeaf,
            format!("CA/B Forum TLS policy {p}{suffix}"),
        );
    }
    if let Some(p) = policies.iter().find(|p| is_smime_policy(p)) {
        return (CertType::SmimeLeaf, format!("S/MIME BR policy {p}"));
    }
    let hosts = ctx.dns_or_ip_sans() > 0;
    match ekus {
        Some(_) => {
            if has(&oids::KP_SERVER_AUTH) {
                (
                    CertType::TlsLeaf,
                    format!("extendedKeyUsage serverAuth{suffix}"),
                )
            } else if precert {
                (CertType::TlsLeaf, "a precertificate (CT poison)".into())
            } else if has(&oids::KP_ANY) && hosts {
                // Capable of serverAuth and naming hosts: the TLS BRs' (as zlint
                // takes it too).
                (
                    CertType::TlsLeaf,
                    "anyExtendedKeyUsage, DNS or IP names in subjectAltName".into(),
                )
            } else if has(&oids::KP_EMAIL_PROTECTION) && !mailboxes(ctx).is_empty() {
                // S/MIME BR §1.1: emailProtection and a mailbox address in the SAN.
                (
                    CertType::SmimeLeaf,
                    "extendedKeyUsage emailProtection, a mailbox in subjectAltName".into(),
                )
            } else {
                (
                    CertType::Leaf,
                    "extendedKeyUsage without serverAuth, OCSPSigning or emailProtection".into(),
                )
            }
        }
        None if precert => (CertType::TlsLeaf, "a precertificate (CT poison)".into()),
        None if hosts => (
            CertType::TlsLeaf,
            "no extendedKeyUsage, DNS or IP names in subjectAltName".into(),
        ),
        None => (
            CertType::Leaf,
            "no extendedKeyUsage, no DNS or IP names".into(),
        ),
    }
}

fn subject_key_id(ctx: &CertContext<'_>) -> Option<Vec<u8>> {
    match ctx.value(&oids::CE_SUBJECT_KEY_ID) {
        Some(ExtensionValue::SubjectKeyIdentifier(k)) => Some(k.to_vec()),
        _ => None,
    }
}

fn authority_key_id(ctx: &CertContext<'_>) -> Option<Vec<u8>> {
    match ctx.value(&oids::CE_AUTHORITY_KEY_ID) {
        Some(ExtensionValue::AuthorityKeyIdentifier(a)) => a.key_identifier.map(<[u8]>::to_vec),
        _ => None,
    }
}

/// The mailbox addresses the certificate names in subjectAltName (rfc822Name and
/// SmtpUTF8Mailbox otherName), lowercased for comparison.
pub(crate) fn mailboxes(c: &CertContext<'_>) -> std::collections::HashSet<String> {
    c.sans()
        .iter()
        .filter_map(|n| match n {
            GeneralName::Rfc822Name(m) => Some(m.to_ascii_lowercase()),
            GeneralName::OtherName(o) if o.type_id == oids::ON_SMTP_UTF8_MAILBOX => {
                o.text().map(|s| s.to_lowercase())
            }
            _ => None,
        })
        .collect()
}
