//! JSON model of a PKCS#10 certification request (field names follow RFC 2986's ASN.1),
//! and of the PKCS#9 attributes that requests, PKCS#12 bags and CMS signers carry.

use super::json::{
    algid_json, b64, dn, fingerprints_json, name_attributes_json, oid_json, pem_json, spki_json,
    time_json,
};
use super::{Ctx, Described};
use crate::der::hex;
use crate::der::oid_registry as oids;
use crate::der::{string, tag, Context, Result};
use pkit_x509::csr::{Attribute, Csr};
use pkit_x509::detect::Kind;
use pkit_x509::extension::Extensions;
use serde_json::{Map, Value};

pub(crate) fn describe(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let (json, warnings) = super::json::with_reader(der, ctx, |r| {
        let c = Csr::parse(r)?;
        csr_json(&c)
    })?;
    let mut d = Described::new(Kind::Csr, json, der);
    d.warnings = warnings;
    Ok(d)
}

fn csr_json(c: &Csr<'_>) -> Result<Value> {
    let mut m = Map::new();
    m.insert("type".into(), Kind::Csr.as_str().into());
    m.insert("version".into(), (c.version + 1).into());
    m.insert(
        "subject_dn".into(),
        dn(&c.subject)
            .at("certificationRequestInfo.subject")?
            .into(),
    );
    m.insert(
        "subject".into(),
        name_attributes_json(&c.subject).at("certificationRequestInfo.subject")?,
    );
    m.insert(
        "subject_public_key_info".into(),
        spki_json(&c.spki).at("certificationRequestInfo.subjectPKInfo")?,
    );
    let mut attrs = Vec::new();
    let mut extensions = Vec::new();
    for a in c.attributes.list().at("certificationRequestInfo")? {
        if a.oid == oids::PKCS9_EXTENSION_REQUEST {
            // Decoded once: the list shows in the attribute and at the top.
            extensions = extension_request(&a).at("certificationRequestInfo.attributes")?;
            let mut am = match oid_json(a.oid) {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            am.insert("extensions".into(), Value::Array(extensions.clone()));
            attrs.push(Value::Object(am));
        } else {
            attrs.push(attribute_json(&a).at("certificationRequestInfo.attributes")?);
        }
    }
    m.insert("attributes".into(), Value::Array(attrs));
    // The requested extensions again at the top, where a certificate has them, so tools
    // read requests and certificates alike.
    m.insert("extensions".into(), Value::Array(extensions));
    m.insert(
        "signature_algorithm".into(),
        algid_json(&c.signature_algorithm),
    );
    m.insert("signature_value_b64".into(), b64(c.signature.bytes).into());
    m.insert("fingerprints".into(), fingerprints_json(c.raw));
    m.insert("pem".into(), pem_json(Kind::Csr, c.raw));
    Ok(Value::Object(m))
}

/// `ExtensionReq ::= Extensions` (RFC 2985 §5.4.2), single-valued.
fn extension_request(a: &Attribute<'_>) -> Result<Vec<Value>> {
    if a.values().is_empty() {
        // Only a lenient reader lets an empty value set through: nothing requested.
        return Ok(Vec::new());
    }
    let mut v = a.single_value().at("extensionRequest")?;
    let exts = Extensions::read(&mut v).at("extensionRequest")?;
    v.finish().at("extensionRequest")?;
    Ok(exts
        .list()
        .at("extensionRequest")?
        .iter()
        .map(super::ext::json_of)
        .collect())
}

/// One attribute: `{oid, name}` plus its decoded value(s). extensionRequest shows its
/// extensions; string-valued attributes (challengePassword, friendlyName,
/// unstructuredName…) their text; the CMS content type, message digest and signing time
/// their meaning; localKeyID its hex; anything else the DER of each value.
pub(crate) fn attribute_json(a: &Attribute<'_>) -> Result<Value> {
    let mut m = match oid_json(a.oid) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    if a.oid == oids::PKCS9_EXTENSION_REQUEST {
        m.insert("extensions".into(), Value::Array(extension_request(a)?));
        return Ok(Value::Object(m));
    }
    let values = a.value_tlvs()?;
    let mut out = Vec::with_capacity(values.len());
    let mode = a.values();
    for (i, v) in values.iter().enumerate() {
        let one: Value = if string::is_string_tag(v.tag) {
            string::decode(&mode, v.tag, v.content, v.content_offset())
                .at_index(i)
                .at("values")?
                .into_owned()
                .into()
        } else if v.tag == tag::OID {
            oid_json(
                crate::der::ObjectId::from_content(v.content, v.content_offset())
                    .at_index(i)
                    .at("values")?,
            )
        } else if v.tag == tag::OCTET_STRING
            && (a.oid == oids::PKCS9_LOCAL_KEY_ID || a.oid == oids::PKCS9_MESSAGE_DIGEST)
        {
            hex(v.content).into()
        } else if v.tag == tag::UTC_TIME || v.tag == tag::GENERALIZED_TIME {
            let t = if v.tag == tag::UTC_TIME {
                crate::der::parse_utc_time(&mode, v.content, v.content_offset())
            } else {
                crate::der::parse_generalized_time(&mode, v.content, v.content_offset())
            }
            .at_index(i)
            .at("values")?;
            time_json(t)
        } else {
            serde_json::json!({ "der_b64": b64(&value_der(&mode, v)) })
        };
        out.push(one);
    }
    // SINGLE VALUE attributes read better as one value.
    if out.len() == 1 {
        m.insert("value".into(), out.remove(0));
    } else {
        m.insert("values".into(), Value::Array(out));
    }
    Ok(Value::Object(m))
}

/// A value's whole TLV (header included), re-read from the attribute's value span.
fn value_der<'a>(mode: &crate::der::Reader<'a>, v: &crate::der::Tlv<'a>) -> Vec<u8> {
    let start = v.offset - mode.offset();
    mode.remaining()
        .get(start..start + v.total_len)
        .map(<[u8]>::to_vec)
        .unwrap_or_default()
}
