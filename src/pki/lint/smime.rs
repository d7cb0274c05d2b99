//! What the CA/Browser Forum's S/MIME Baseline Requirements (version 1.0.x) say of a
//! mailbox certificate: the rules every generation (legacy, multipurpose, strict) shares.
//! They apply to S/MIME leaves (emailProtection in extendedKeyUsage, or `--as smime-leaf`).

use crate::cabf::keys::weak_key;
use crate::cabf::revocation::has_http_crl;
use crate::cert_type::CertType;
use crate::context::CertContext;
use crate::der::oid_registry as oids;
use crate::detect::{is_smime_policy, mailboxes};
use crate::finding::Level;
use crate::options::RuleSet;
use crate::rule::{Lint, Reporter};

/// An S/MIME BR rule of mailbox certificates, in force from the S/MIME BRs' effective
/// date.
const fn smime(
    name: &'static str,
    level: Level,
    source: &'static str,
    check: fn(&CertContext<'_>, &mut Reporter<'_>),
) -> Lint {
    Lint::certificate(
        name,
        level,
        source,
        RuleSet::CabfSmime,
        |t| t == CertType::SmimeLeaf,
        check,
    )
    .since("2023-09-01", "S/MIME BR 1.0.0 effective date")
}

/// §6.3.2: at most 825 days for the Strict and Multipurpose generations, 1185 for
/// Legacy (policy 2.23.140.1.5.x.1).
fn max_days(c: &CertContext<'_>) -> i64 {
    if generation(c) == Some(LEGACY) {
        1185
    } else {
        825
    }
}

/// The generations (§7.1.6.1), the last arc of the reserved policy.
const LEGACY: u64 = 1;
const STRICT: u64 = 3;

/// The generation the certificate's reserved S/MIME policy names, if it has one.
fn generation(c: &CertContext<'_>) -> Option<u64> {
    c.policy_oids()
        .iter()
        .find(|p| is_smime_policy(p))
        .and_then(|p| p.arcs().nth(6))
}

/// `local@domain.tld`, nothing else: one `@`, no spaces, a dot in the domain.
fn looks_like_mailbox(v: &str) -> bool {
    let Some((local, domain)) = v.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.contains('@')
        && !v.chars().any(char::is_whitespace)
}

const EXTS: &str = "tbsCertificate.extensions";
const EKU: &str = "tbsCertificate.extensions.extKeyUsage";

/// The S/MIME BRs' certificate lints.
pub(crate) static LINTS: &[Lint] = &[
    smime(
        "e_smime_validity_too_long",
        Level::Error,
        "CA/B Forum S/MIME BR §6.3.2",
        |c, r| {
            let Some((nb, na)) = c.validity() else { return };
            let secs = na - nb + 1;
            let max = max_days(c);
            if secs > max * 86_400 {
                r.report(
                    "tbsCertificate.validity",
                    c.cert.validity_offset(),
                    format!(
                        "{} days of validity; an S/MIME certificate of its generation has at \
                         most {max}",
                        (secs + 86_399) / 86_400
                    ),
                );
            }
        },
    ),
    smime(
        "e_smime_weak_key",
        Level::Error,
        "CA/B Forum S/MIME BR §6.1.5",
        weak_key,
    ),
    smime(
        "e_smime_eku_email_protection_missing",
        Level::Error,
        "CA/B Forum S/MIME BR §7.1.2.3(f)",
        |c, r| {
            let has = c
                .ekus()
                .is_some_and(|e| e.iter().any(|o| *o == oids::KP_EMAIL_PROTECTION));
            if !has {
                r.report(
                    EXTS,
                    c.offset_of(&oids::CE_EXT_KEY_USAGE),
                    "extendedKeyUsage must be present with id-kp-emailProtection",
                );
            }
        },
    ),
    smime(
        "e_smime_eku_forbidden",
        Level::Error,
        "CA/B Forum S/MIME BR §7.1.2.3(f)",
        |c, r| {
            let forbidden = [
                (&oids::KP_SERVER_AUTH, "serverAuth"),
                (&oids::KP_CODE_SIGNING, "codeSigning"),
                (&oids::KP_TIME_STAMPING, "timeStamping"),
                (&oids::KP_ANY, "anyExtendedKeyUsage"),
            ];
            // The Strict generation (2.23.140.1.5.x.3) allows emailProtection alone.
            let strict = generation(c) == Some(STRICT);
            for e in c.ekus().unwrap_or_default() {
                if let Some((_, name)) = forbidden.iter().find(|(o, _)| *e == **o) {
                    r.report(
                        EKU,
                        c.offset_of(&oids::CE_EXT_KEY_USAGE),
                        format!("{name} must not be in an S/MIME certificate"),
                    );
                } else if strict && *e != oids::KP_EMAIL_PROTECTION {
                    r.report(
                        EKU,
                        c.offset_of(&oids::CE_EXT_KEY_USAGE),
                        format!(
                            "{} must not be in a Strict S/MIME certificate: emailProtection \
                             only",
                            e.name_or_dotted()
                        ),
                    );
                }
            }
        },
    ),
    smime(
        "e_smime_mailbox_missing",
        Level::Error,
        "CA/B Forum S/MIME BR §7.1.2.3(h)",
        |c, r| {
            if mailboxes(c).is_empty() {
                r.report(
                    EXTS,
                    c.offset_of(&oids::CE_SUBJECT_ALT_NAME),
                    "subjectAltName must name a mailbox (rfc822Name or SmtpUTF8Mailbox)",
                );
            }
        },
    ),
    smime(
        "e_smime_subject_email_not_in_san",
        Level::Error,
        "CA/B Forum S/MIME BR §7.1.4.2.2(h)",
        |c, r| {
            let sans = mailboxes(c);
            for a in c.subject_attributes() {
                // emailAddress, and any other attribute that holds a mailbox address (a
                // commonName may, §7.1.4.2.2(a)): each must be one of the SAN's.
                let Ok(v) = a.text() else { continue };
                if a.oid != oids::AT_EMAIL && !looks_like_mailbox(&v) {
                    continue;
                }
                if !sans.contains(&v.to_lowercase()) {
                    r.report(
                        "tbsCertificate.subject",
                        c.cert.subject.offset,
                        format!("{v:?} in the subject is not a mailbox of the subjectAltName"),
                    );
                }
            }
        },
    ),
    smime(
        "e_smime_key_usage_missing",
        Level::Error,
        "CA/B Forum S/MIME BR §7.1.2.3(e)",
        |c, r| {
            if c.key_usage().is_none() {
                r.report(
                    EXTS,
                    c.extensions_offset(),
                    "keyUsage must be present in an S/MIME certificate",
                );
            }
        },
    ),
    smime(
        "e_smime_policy_missing",
        Level::Error,
        "CA/B Forum S/MIME BR §7.1.2.3(a)",
        |c, r| {
            // §7.1.2.3(a): exactly one of the reserved identifiers (it names the
            // validation type and generation the certificate claims).
            let reserved = c
                .policy_oids()
                .iter()
                .filter(|p| is_smime_policy(p))
                .count();
            if reserved != 1 {
                r.report(
                    EXTS,
                    c.offset_of(&oids::CE_CERT_POLICIES),
                    if reserved == 0 {
                        "certificatePolicies must hold one of the CA/B Forum's S/MIME policy \
                         OIDs (2.23.140.1.5.x.y)"
                            .to_string()
                    } else {
                        format!(
                            "certificatePolicies holds {reserved} of the CA/B Forum's S/MIME \
                             policy OIDs; exactly one is allowed"
                        )
                    },
                );
            }
        },
    ),
    smime(
        "e_smime_crl_distribution_point_missing",
        Level::Error,
        "CA/B Forum S/MIME BR §7.1.2.3(b)",
        |c, r| {
            if !has_http_crl(c) {
                r.report(
                    EXTS,
                    c.offset_of(&oids::CE_CRL_DIST_POINTS),
                    "cRLDistributionPoints must give the CA's CRL over http",
                );
            }
        },
    ),
];
