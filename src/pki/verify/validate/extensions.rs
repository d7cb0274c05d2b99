//! A path certificate's extensions as §6.1 reads them: decoded strictly, each failure
//! naming the certificate's place on the path, and the critical ones this validation
//! does not implement refused.

use crate::der::oid_registry as oids;
use crate::der::{ObjectId, Oid};
use crate::failure::Failure;
use crate::options::Purpose;
use crate::reason::Reason;
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{self, BasicConstraints, ExtensionValue, NamedBits};
use pkit_x509::extension::Extension;

/// Extensions whose meaning this validation implements; a critical extension outside
/// this list fails the path (§6.1.3 (o)... §6.1.5 (b)... RFC 5280 §4.2).
const UNDERSTOOD: [Oid; 11] = [
    oids::CE_BASIC_CONSTRAINTS,
    oids::CE_KEY_USAGE,
    oids::CE_EXT_KEY_USAGE,
    oids::CE_SUBJECT_ALT_NAME,
    oids::CE_NAME_CONSTRAINTS,
    oids::CE_CERT_POLICIES,
    oids::CE_POLICY_MAPPINGS,
    oids::CE_POLICY_CONSTRAINTS,
    oids::CE_INHIBIT_ANY_POLICY,
    oids::CE_SUBJECT_KEY_ID,
    oids::CE_AUTHORITY_KEY_ID,
];

fn malformed(at: usize) -> impl Fn(crate::der::Error) -> Failure {
    move |e| Failure::new(Reason::Malformed, Some(at), e.to_string())
}

/// Certificate `at`'s extensions (none for a v1 certificate).
pub(super) fn extensions<'a>(
    c: &Certificate<'a>,
    at: usize,
) -> Result<Vec<Extension<'a>>, Failure> {
    match c.extensions {
        Some(x) => x.list().map_err(malformed(at)),
        None => Ok(Vec::new()),
    }
}

/// The decoded value of extension `oid` among `exts`, if present.
pub(super) fn extension<'a>(
    exts: &[Extension<'a>],
    oid: &Oid,
    at: usize,
) -> Result<Option<ExtensionValue<'a>>, Failure> {
    match exts.iter().find(|e| e.oid == *oid) {
        Some(e) => ext::decode(e.oid, e.value, e.value_offset)
            .map(Some)
            .map_err(malformed(at)),
        None => Ok(None),
    }
}

pub(super) fn basic_constraints(
    exts: &[Extension<'_>],
    at: usize,
) -> Result<Option<BasicConstraints>, Failure> {
    Ok(match extension(exts, &oids::CE_BASIC_CONSTRAINTS, at)? {
        Some(ExtensionValue::BasicConstraints(b)) => Some(b),
        _ => None,
    })
}

pub(super) fn key_usage<'a>(
    exts: &[Extension<'a>],
    at: usize,
) -> Result<Option<NamedBits<'a>>, Failure> {
    Ok(match extension(exts, &oids::CE_KEY_USAGE, at)? {
        Some(ExtensionValue::KeyUsage(k)) => Some(k),
        _ => None,
    })
}

/// The certificate's extendedKeyUsage must allow `purpose` when it has one; under the
/// `webpki` rules the target must have one.
pub(super) fn eku(
    exts: &[Extension<'_>],
    at: usize,
    purpose: Purpose,
    required: bool,
) -> Result<(), Failure> {
    let listed: Option<Vec<ObjectId<'_>>> = match extension(exts, &oids::CE_EXT_KEY_USAGE, at)? {
        Some(ExtensionValue::ExtendedKeyUsage(v)) => Some(v),
        _ => None,
    };
    let Some(listed) = listed else {
        return if required && purpose != Purpose::Any {
            Err(Failure::new(
                Reason::EkuMismatch,
                Some(at),
                "no extendedKeyUsage (the webpki rules require one)",
            ))
        } else {
            Ok(())
        };
    };
    let Some(want) = purpose.eku() else {
        return Ok(());
    };
    if listed.iter().any(|o| *o == want || *o == oids::KP_ANY) {
        Ok(())
    } else {
        Err(Failure::new(
            Reason::EkuMismatch,
            Some(at),
            format!(
                "extendedKeyUsage does not allow {}",
                want.id().name_or_dotted()
            ),
        ))
    }
}

/// §6.1.3 (o)-style: a critical extension this validation does not implement.
pub(super) fn critical_extensions(exts: &[Extension<'_>], at: usize) -> Result<(), Failure> {
    for e in exts.iter().filter(|e| e.critical) {
        if !UNDERSTOOD.iter().any(|o| e.oid == *o) {
            return Err(Failure::new(
                Reason::UnknownCriticalExtension,
                Some(at),
                format!(
                    "critical extension {} is not understood",
                    e.oid.name_or_dotted()
                ),
            ));
        }
    }
    Ok(())
}
