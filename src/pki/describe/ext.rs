//! JSON description of extensions for `pkit parse`:
//! `{"oid", "name", "critical", "value", "der_b64"}` per extension, `value` being the
//! decoded extension in snake_case keys that follow the RFC field names and `der_b64`
//! its extnValue octets.
//!
//! Conventions (shared with the other describe modules): OIDs are `{"oid", "name"}`
//! objects, the name empty when pkit has none; key identifiers,
//! serial numbers and nonces are lowercase hex without separators; blobs are base64
//! under a `_b64` key; times are RFC 3339 UTC; optional fields that are absent are left
//! out. A list-valued extension (subjectAltName, extendedKeyUsage, …) has an array as
//! its value. An extension pkit does not decode is `{"der_b64"}`; one that fails to
//! decode is `{"error", "der_b64"}`, so one bad extension never hides the rest of the
//! certificate.

use super::json::{algid_json as alg, b64, oid_json as oid};
use crate::der::hex;
use crate::der::Reader;
use crate::der::{ObjectId, Result, Time};
use pkit_x509::ext::GeneralName;
use pkit_x509::ext::RelativeName;
use pkit_x509::ext::{self, DistributionPointName, ExtensionValue, GeneralSubtree, NamedBits};
use pkit_x509::ext::{notice_number_u64, PolicyQualifier};
use serde_json::{json, Map, Value};

/// One extension's JSON: `{oid, name, critical, value}`, the value decoded by
/// `pkit_x509::ext` (unknown extensions show their DER).
pub(crate) fn json_of(x: &pkit_x509::extension::Extension<'_>) -> Value {
    extension_json(x.oid, x.critical, x.value, x.value_offset)
}

/// One extension: `{"oid", "name", "critical", "value"}`, decoded strictly.
pub(crate) fn extension_json(
    oid: ObjectId<'_>,
    critical: bool,
    value: &[u8],
    value_offset: usize,
) -> Value {
    extension_json_in(&Reader::new(&[]), oid, critical, value, value_offset)
}

/// As [`extension_json`], decoding in the mode of `ctx` (a lenient reader logs
/// deviations to its log and describes what it could decode).
pub(crate) fn extension_json_in<'a>(
    ctx: &Reader<'a>,
    oid: ObjectId<'a>,
    critical: bool,
    value: &'a [u8],
    value_offset: usize,
) -> Value {
    let mut m = Map::new();
    m.insert("oid".into(), oid.to_string().into());
    m.insert("name".into(), oid.name().unwrap_or("").into());
    m.insert("critical".into(), critical.into());
    m.insert("value".into(), value_json_in(ctx, oid, value, value_offset));
    // The extnValue itself, so the JSON can serve as a template (`issue cert --template`).
    m.insert("der_b64".into(), b64(value).into());
    Value::Object(m)
}

/// The `value` member alone.
pub(crate) fn value_json_in<'a>(
    ctx: &Reader<'a>,
    oid: ObjectId<'a>,
    value: &'a [u8],
    value_offset: usize,
) -> Value {
    match ext::decode_with(ctx, oid, value, value_offset).and_then(|v| describe(&v)) {
        Ok(v) => v,
        Err(e) => json!({ "error": e.to_string(), "der_b64": b64(value) }),
    }
}

/// The JSON for a decoded value. Fallible only because names are formatted on demand.
pub(crate) fn describe(v: &ExtensionValue<'_>) -> Result<Value> {
    use ExtensionValue as E;
    Ok(match v {
        E::SubjectAltName(n) | E::IssuerAltName(n) | E::CertificateIssuer(n) => general_names(n)?,
        E::KeyUsage(b) | E::NetscapeCertType(b) => bits(b),
        E::ExtendedKeyUsage(list) => list.iter().map(|o| oid(*o)).collect(),
        E::BasicConstraints(bc) => {
            let mut m = Map::new();
            m.insert("ca".into(), bc.ca.into());
            if let Some(n) = bc.path_len_constraint {
                m.insert("path_len_constraint".into(), n.into());
            }
            Value::Object(m)
        }
        E::SubjectKeyIdentifier(id) => json!({ "key_identifier": hex(id) }),
        E::AuthorityKeyIdentifier(aki) => {
            let mut m = Map::new();
            if let Some(id) = aki.key_identifier {
                m.insert("key_identifier".into(), hex(id).into());
            }
            if let Some(n) = &aki.authority_cert_issuer {
                m.insert("authority_cert_issuer".into(), general_names(n)?);
            }
            if let Some(s) = aki.serial_magnitude() {
                m.insert("authority_cert_serial_number".into(), hex(s).into());
            }
            Value::Object(m)
        }
        E::CrlDistributionPoints(dps) | E::FreshestCrl(dps) => {
            let mut out = Vec::with_capacity(dps.len());
            for dp in dps {
                let mut m = Map::new();
                if let Some(n) = &dp.distribution_point {
                    m.insert("distribution_point".into(), dp_name(n)?);
                }
                if let Some(r) = &dp.reasons {
                    m.insert("reasons".into(), bits(r));
                }
                if let Some(n) = &dp.crl_issuer {
                    m.insert("crl_issuer".into(), general_names(n)?);
                }
                out.push(Value::Object(m));
            }
            Value::Array(out)
        }
        E::AuthorityInfoAccess(list) | E::SubjectInfoAccess(list) => {
            let mut out = Vec::with_capacity(list.len());
            for ad in list {
                out.push(json!({
                    "access_method": oid(ad.access_method),
                    "access_location": general_name(&ad.access_location)?,
                }));
            }
            Value::Array(out)
        }
        E::CertificatePolicies(list) => Value::Array(
            list.iter()
                .map(|p| {
                    let mut m = Map::new();
                    m.insert("policy_identifier".into(), oid(p.policy_identifier));
                    if !p.policy_qualifiers.is_empty() {
                        let q = p.policy_qualifiers.iter().map(qualifier).collect();
                        m.insert("policy_qualifiers".into(), Value::Array(q));
                    }
                    Value::Object(m)
                })
                .collect(),
        ),
        E::PolicyMappings(list) => list
            .iter()
            .map(|pm| {
                json!({
                    "issuer_domain_policy": oid(pm.issuer_domain_policy),
                    "subject_domain_policy": oid(pm.subject_domain_policy),
                })
            })
            .collect(),
        E::PolicyConstraints(pc) => {
            let mut m = Map::new();
            if let Some(n) = pc.require_explicit_policy {
                m.insert("require_explicit_policy".into(), n.into());
            }
            if let Some(n) = pc.inhibit_policy_mapping {
                m.insert("inhibit_policy_mapping".into(), n.into());
            }
            Value::Object(m)
        }
        E::InhibitAnyPolicy(n) => json!({ "skip_certs": n }),
        E::NameConstraints(nc) => {
            let mut m = Map::new();
            if let Some(t) = &nc.permitted_subtrees {
                m.insert("permitted_subtrees".into(), subtrees(t)?);
            }
            if let Some(t) = &nc.excluded_subtrees {
                m.insert("excluded_subtrees".into(), subtrees(t)?);
            }
            Value::Object(m)
        }
        E::SctList(list) => {
            let scts: Vec<Value> = list.scts.iter().map(sct).collect();
            json!({ "count": scts.len(), "scts": scts })
        }
        E::CtPoison | E::OcspExtendedRevoke | E::OcspNoCheck => Value::Null,
        E::TlsFeature(list) => list
            .iter()
            .map(|f| {
                let mut m = Map::new();
                m.insert("feature".into(), f.0.into());
                if let Some(n) = f.name() {
                    m.insert("name".into(), n.into());
                }
                Value::Object(m)
            })
            .collect(),
        // CRL numbers may be 20 octets: decimal strings keep every digit.
        E::CrlNumber(n) => json!({ "crl_number": decimal(n) }),
        E::DeltaCrlIndicator(n) => json!({ "base_crl_number": decimal(n) }),
        E::IssuingDistributionPoint(idp) => {
            let mut m = Map::new();
            if let Some(n) = &idp.distribution_point {
                m.insert("distribution_point".into(), dp_name(n)?);
            }
            m.insert(
                "only_contains_user_certs".into(),
                idp.only_contains_user_certs.into(),
            );
            m.insert(
                "only_contains_ca_certs".into(),
                idp.only_contains_ca_certs.into(),
            );
            if let Some(r) = &idp.only_some_reasons {
                m.insert("only_some_reasons".into(), bits(r));
            }
            m.insert("indirect_crl".into(), idp.indirect_crl.into());
            m.insert(
                "only_contains_attribute_certs".into(),
                idp.only_contains_attribute_certs.into(),
            );
            Value::Object(m)
        }
        E::CrlReason(r) => {
            let mut m = Map::new();
            if let Some(n) = r.name() {
                m.insert("reason".into(), n.into());
            }
            m.insert("code".into(), r.code().into());
            Value::Object(m)
        }
        E::InvalidityDate(t) => json!({ "invalidity_date": t.to_string() }),
        E::OcspNonce(n) => json!({ "nonce": hex(n) }),
        E::OcspArchiveCutoff(t) => json!({ "archive_cutoff": t.to_string() }),
        E::OcspPrefSigAlgs(list) => list
            .iter()
            .map(|p| {
                let mut m = Map::new();
                m.insert("sig_identifier".into(), alg(&p.sig_identifier));
                if let Some(a) = &p.pub_key_alg_identifier {
                    m.insert("pub_key_alg_identifier".into(), alg(a));
                }
                Value::Object(m)
            })
            .collect(),
        E::NetscapeComment(s) => json!({ "comment": s }),
        E::MsCertificateTemplate(t) => {
            let mut m = Map::new();
            m.insert("template_id".into(), oid(t.template_id));
            if let Some(v) = t.major_version {
                m.insert("major_version".into(), v.into());
            }
            if let Some(v) = t.minor_version {
                m.insert("minor_version".into(), v.into());
            }
            Value::Object(m)
        }
        E::MsCertificateTemplateName(s) => json!({ "name": s }),
        E::Unknown(raw) => json!({ "der_b64": b64(raw) }),
    })
}

fn bits(b: &NamedBits<'_>) -> Value {
    b.set_names().into_iter().map(Value::from).collect()
}

fn general_names(list: &[GeneralName<'_>]) -> Result<Value> {
    list.iter()
        .map(general_name)
        .collect::<Result<Vec<_>>>()
        .map(Value::Array)
}

/// `{"type", "value"}`, with `type` one of other_name, email, dns, x400_address,
/// directory_name, edi_party_name, uri, ip, registered_id.
pub(crate) fn general_name(g: &GeneralName<'_>) -> Result<Value> {
    let mut m = Map::new();
    m.insert("type".into(), g.kind().into());
    match g {
        GeneralName::OtherName(on) => {
            m.insert("type_id".into(), oid(on.type_id));
            match on.text() {
                Some(t) => m.insert("value".into(), t.into()),
                None => m.insert("value_der_b64".into(), b64(on.value_der).into()),
            };
        }
        GeneralName::Rfc822Name(s) | GeneralName::DnsName(s) | GeneralName::Uri(s) => {
            m.insert("value".into(), s.as_ref().into());
        }
        GeneralName::X400Address(raw) => {
            m.insert("value_der_b64".into(), b64(raw).into());
        }
        GeneralName::DirectoryName(n) => {
            m.insert("value".into(), n.to_rfc4514()?.into());
        }
        GeneralName::EdiPartyName(e) => {
            if let Some(a) = &e.name_assigner {
                m.insert("name_assigner".into(), a.as_ref().into());
            }
            m.insert("party_name".into(), e.party_name.as_ref().into());
        }
        GeneralName::IpAddress(ip) => {
            m.insert("value".into(), ip.to_string().into());
        }
        GeneralName::RegisteredId(o) => {
            m.insert("value".into(), oid(*o));
        }
    }
    Ok(Value::Object(m))
}

fn dp_name(n: &DistributionPointName<'_>) -> Result<Value> {
    Ok(match n {
        DistributionPointName::FullName(names) => json!({ "full_name": general_names(names)? }),
        DistributionPointName::NameRelativeToCrlIssuer(rn) => {
            json!({ "name_relative_to_crl_issuer": relative_name(rn)? })
        }
    })
}

fn relative_name(rn: &RelativeName<'_>) -> Result<String> {
    rn.to_rfc4514()
}

fn qualifier(q: &PolicyQualifier<'_>) -> Value {
    let mut m = Map::new();
    m.insert("policy_qualifier_id".into(), oid(q.id()));
    match q {
        PolicyQualifier::CpsUri(s) => {
            m.insert("cps_uri".into(), s.as_ref().into());
        }
        PolicyQualifier::UserNotice(un) => {
            let mut n = Map::new();
            if let Some(r) = &un.notice_ref {
                let numbers: Vec<Value> = r
                    .notice_numbers
                    .iter()
                    .map(|c| match notice_number_u64(c) {
                        Some(v) => v.into(),
                        // Beyond 64 bits (never seen in practice): keep every digit.
                        None => decimal(c).into(),
                    })
                    .collect();
                n.insert(
                    "notice_ref".into(),
                    json!({ "organization": r.organization, "notice_numbers": numbers }),
                );
            }
            if let Some(t) = &un.explicit_text {
                n.insert("explicit_text".into(), t.as_ref().into());
            }
            m.insert("user_notice".into(), Value::Object(n));
        }
        PolicyQualifier::Other { qualifier, .. } => {
            m.insert("qualifier_der_b64".into(), b64(qualifier).into());
        }
    }
    Value::Object(m)
}

fn subtrees(list: &[GeneralSubtree<'_>]) -> Result<Value> {
    let mut out = Vec::with_capacity(list.len());
    for t in list {
        let mut m = Map::new();
        m.insert("base".into(), general_name(&t.base)?);
        // minimum is DEFAULT 0: shown only when it says something.
        if t.minimum != 0 {
            m.insert("minimum".into(), t.minimum.into());
        }
        if let Some(max) = t.maximum {
            m.insert("maximum".into(), max.into());
        }
        out.push(Value::Object(m));
    }
    Ok(Value::Array(out))
}

/// One SCT. `version` counts from 1 as X.509 versions are shown (`v1` is encoded 0).
fn sct(s: &ext::SignedCertificateTimestamp<'_>) -> Value {
    let mut m = Map::new();
    m.insert("version".into(), (u16::from(s.version) + 1).into());
    match &s.v1 {
        Some(v1) => {
            m.insert("log_id_b64".into(), b64(v1.log_id).into());
            m.insert("timestamp".into(), time_ms(v1.timestamp_ms).into());
            m.insert("timestamp_ms".into(), v1.timestamp_ms.into());
            if !v1.extensions.is_empty() {
                m.insert("extensions_b64".into(), b64(v1.extensions).into());
            }
            m.insert(
                "hash_algorithm".into(),
                v1.hash_name()
                    .map_or_else(|| v1.hash_algorithm.to_string(), str::to_string)
                    .into(),
            );
            m.insert(
                "signature_algorithm".into(),
                v1.signature_name()
                    .map_or_else(|| v1.signature_algorithm.to_string(), str::to_string)
                    .into(),
            );
            m.insert("signature_b64".into(), b64(v1.signature).into());
        }
        None => {
            m.insert("sct_b64".into(), b64(s.raw).into());
        }
    }
    Value::Object(m)
}

/// RFC 3339 with milliseconds (`2023-11-14T22:13:20.123Z`): CT timestamps carry them.
fn time_ms(ms: u64) -> String {
    let secs = Time {
        unix: (ms / 1000) as i64,
    }
    .to_string();
    let base = secs.strip_suffix('Z').unwrap_or(&secs);
    format!("{base}.{:03}Z", ms % 1000)
}

/// Decimal digits of a big-endian unsigned magnitude (schoolbook division by 10; CRL
/// numbers are at most 20 octets, so this is a few hundred steps).
fn decimal(magnitude: &[u8]) -> String {
    let mut n: Vec<u8> = magnitude.to_vec();
    let mut digits = Vec::new();
    while n.iter().any(|&b| b != 0) {
        let mut rem = 0u16;
        for b in n.iter_mut() {
            let cur = (rem << 8) | u16::from(*b);
            *b = (cur / 10) as u8;
            rem = cur % 10;
        }
        digits.push(b'0' + rem as u8);
    }
    if digits.is_empty() {
        return "0".into();
    }
    digits.reverse();
    String::from_utf8(digits).unwrap_or_default()
}

#[cfg(test)]
mod tests;
