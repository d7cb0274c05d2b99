//! JSON model of an X.509 certificate (field names follow RFC 5280's ASN.1).

use super::json::{
    algid_json, b64, dn, fingerprints_json, key_label, name_attributes_json, pem_json, spki_json,
    time_json,
};
use super::{CertFacts, Ctx, Described};
use crate::der::{Context, Result};
use pkit_x509::cert::Certificate;
use pkit_x509::detect::Kind;
use serde_json::{Map, Value};

pub(crate) fn describe(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let (v, warnings) = super::json::with_reader(der, ctx, |r| {
        let c = Certificate::parse(r)?;
        let (json, facts) = cert_json(&c, ctx)?;
        Ok((json, facts))
    })?;
    let (json, facts) = v;
    let mut d = Described::new(Kind::Certificate, json, der);
    d.warnings = warnings;
    d.certs.push(facts);
    Ok(d)
}

/// The certificate's JSON and its summary facts (also used for certificates inside
/// PKCS#7 and PKCS#12 containers).
pub(crate) fn cert_json(c: &Certificate<'_>, ctx: &Ctx) -> Result<(Value, CertFacts)> {
    let (not_before, not_after) = c.validity()?;
    let mut m = Map::new();
    m.insert("type".into(), "certificate".into());
    m.insert("version".into(), (u64::from(c.version) + 1).into());
    m.insert("serial_number".into(), c.serial_hex().into());
    if c.serial_is_negative() {
        m.insert("serial_number_negative".into(), true.into());
    }
    m.insert(
        "signature_algorithm".into(),
        algid_json(&c.signature_algorithm),
    );
    m.insert(
        "issuer_dn".into(),
        dn(&c.issuer).at("tbsCertificate.issuer")?.into(),
    );
    m.insert(
        "issuer".into(),
        name_attributes_json(&c.issuer).at("tbsCertificate.issuer")?,
    );
    m.insert(
        "validity".into(),
        serde_json::json!({
            "not_before": time_json(not_before),
            "not_after": time_json(not_after),
            "expired": ctx.now > not_after,
            "not_yet_valid": ctx.now < not_before,
        }),
    );
    m.insert(
        "subject_dn".into(),
        dn(&c.subject).at("tbsCertificate.subject")?.into(),
    );
    m.insert(
        "subject".into(),
        name_attributes_json(&c.subject).at("tbsCertificate.subject")?,
    );
    m.insert(
        "subject_public_key_info".into(),
        spki_json(&c.spki).at("tbsCertificate.subjectPublicKeyInfo")?,
    );
    if let Some(u) = c.issuer_unique_id {
        m.insert("issuer_unique_id_b64".into(), b64(u.bytes).into());
    }
    if let Some(u) = c.subject_unique_id {
        m.insert("subject_unique_id_b64".into(), b64(u.bytes).into());
    }
    let mut exts = Vec::new();
    if let Some(e) = &c.extensions {
        for x in e.list().at("tbsCertificate")? {
            exts.push(super::ext::json_of(&x));
        }
    }
    m.insert("extensions".into(), Value::Array(exts));
    m.insert("self_issued".into(), c.is_self_issued().into());
    m.insert("signature_value_b64".into(), b64(c.signature.bytes).into());
    if let Some(v) = super::mtc::proof_json(c) {
        m.insert("mtc".into(), v);
    }
    m.insert("fingerprints".into(), fingerprints_json(c.raw));
    m.insert("pem".into(), pem_json(Kind::Certificate, c.raw));
    let facts = CertFacts {
        key: key_label(&c.spki),
        signature: c.signature_algorithm.name(),
        not_before,
        not_after,
    };
    Ok((Value::Object(m), facts))
}
