//! JSON model of PKCS#7 / CMS (field names follow RFC 5652's ASN.1): the content type,
//! and for SignedData its digests, encapsulated content, certificates, CRLs and signers.
//!
//! The container is BER by specification and is read leniently without warnings; the
//! certificates and CRLs inside are objects of their own, read strictly (or leniently,
//! with warnings, under `--lenient`). `-f pem` extracts them.

use super::cert::cert_json;
use super::json::{algid_json, b64, dn, oid_json};
use super::{Ctx, Described};
use crate::der::hex;
use crate::der::oid_registry as oids;
use crate::der::{Context, Deviations, Reader, Result};
use pkit_x509::cert::Certificate;
use pkit_x509::detect::Kind;
use pkit_x509::pkcs7::{ContentInfo, EncapContent, SignedData, SignerId};
use serde_json::{json, Map, Value};

pub(crate) fn describe(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let container = Deviations::new();
    let ci = ContentInfo::parse(Reader::lenient(der, &container))?;
    let mut d = Described::new(Kind::Pkcs7, Value::Null, der);
    // `-f pem` on a container gives what it contains.
    d.objects.clear();
    let mut m = Map::new();
    m.insert("type".into(), Kind::Pkcs7.as_str().into());
    m.insert("content_type".into(), oid_json(ci.content_type));
    if ci.is(&oids::PKCS7_SIGNED_DATA) {
        let sd = ci.signed_data()?;
        m.insert("signed_data".into(), signed_data_json(&sd, ctx, &mut d)?);
    } else if ci.is(&oids::PKCS7_DATA) {
        let len = ci.data()?.map(|o| o.bytes.len());
        m.insert("content_length".into(), len.into());
    } else if let Some(t) = ci.content_tlv()? {
        // Enveloped, encrypted, digested…: named and sized, not opened.
        m.insert("content_length".into(), t.total_len.into());
    }
    m.insert("pem".into(), super::json::pem_json(Kind::Pkcs7, der));
    d.json = Value::Object(m);
    Ok(d)
}

/// A certificate inside a container: parsed in the mode `--lenient` asks for, described,
/// and recorded for `--summary` and `-f pem`.
pub(crate) fn contained_cert(
    raw: &[u8],
    offset: usize,
    ctx: &Ctx,
    d: &mut Described,
) -> Result<Value> {
    let log = Deviations::new();
    let mode = if ctx.lenient {
        Reader::lenient(&[], &log)
    } else {
        Reader::new(&[])
    };
    let c = Certificate::parse(mode.with_base(raw, offset))?;
    let (json, facts) = cert_json(&c, ctx)?;
    d.warnings.extend(log.take());
    d.certs.push(facts);
    d.objects.push((Kind::Certificate, raw.to_vec()));
    Ok(json)
}

/// A CRL inside a container, likewise.
pub(crate) fn contained_crl(
    raw: &[u8],
    offset: usize,
    ctx: &Ctx,
    d: &mut Described,
) -> Result<Value> {
    let log = Deviations::new();
    let mode = if ctx.lenient {
        Reader::lenient(&[], &log)
    } else {
        Reader::new(&[])
    };
    let json = super::crl::crl_json_from(mode.with_base(raw, offset), ctx)?;
    d.warnings.extend(log.take());
    d.objects.push((Kind::Crl, raw.to_vec()));
    Ok(json)
}

fn signed_data_json(sd: &SignedData<'_>, ctx: &Ctx, d: &mut Described) -> Result<Value> {
    let mut m = Map::new();
    m.insert("version".into(), sd.version.into());
    let digests: Vec<Value> = sd
        .digest_algorithms()
        .at("signedData")?
        .iter()
        .map(algid_json)
        .collect();
    m.insert("digest_algorithms".into(), Value::Array(digests));
    m.insert("encap_content_type".into(), oid_json(sd.encap_content_type));
    match &sd.encap_content {
        Some(c) => {
            m.insert("encap_content_length".into(), c.len().into());
            if let EncapContent::Other(t) = c {
                // PKCS#7 v1.5 content that is not an OCTET STRING (e.g. Authenticode).
                m.insert(
                    "encap_content_tag".into(),
                    crate::der::tag::describe(t.tag).into(),
                );
            }
        }
        None => {
            m.insert("encap_content_length".into(), Value::Null);
        }
    }
    if !sd.is_degenerate() {
        // A signature without content signs something elsewhere (RFC 5652 §5.2); a
        // certs-only bag has no signature and nothing is detached.
        m.insert("detached".into(), sd.encap_content.is_none().into());
    }
    let mut certs = Vec::new();
    for (i, c) in sd.certificates().at("signedData")?.iter().enumerate() {
        if c.is_certificate() {
            certs.push(
                contained_cert(c.raw, c.offset, ctx, d)
                    .at_index(i)
                    .at("signedData.certificates")?,
            );
        } else {
            certs.push(json!({ "kind": c.kind(), "der_b64": b64(c.raw) }));
        }
    }
    m.insert("certificates".into(), Value::Array(certs));
    let mut crls = Vec::new();
    for (i, c) in sd.crls().at("signedData")?.iter().enumerate() {
        if c.is_crl() {
            crls.push(
                contained_crl(c.raw, c.offset, ctx, d)
                    .at_index(i)
                    .at("signedData.crls")?,
            );
        } else {
            crls.push(json!({ "kind": "other", "der_b64": b64(c.raw) }));
        }
    }
    m.insert("crls".into(), Value::Array(crls));
    let mut signers = Vec::new();
    for (i, s) in sd.signer_infos().at("signedData")?.iter().enumerate() {
        let at = |r: Result<Value>| r.at_index(i).at("signedData.signerInfos");
        let sid = match &s.sid {
            SignerId::IssuerAndSerialNumber { issuer, serial } => json!({
                "issuer_dn": at(dn(issuer).map(Value::from))?,
                "serial_number": hex(crate::der::integer::unsigned_bytes(serial)),
            }),
            SignerId::SubjectKeyIdentifier(k) => json!({ "subject_key_identifier": hex(k) }),
        };
        let mut sm = Map::new();
        sm.insert("version".into(), s.version.into());
        sm.insert("sid".into(), sid);
        sm.insert("digest_algorithm".into(), algid_json(&s.digest_algorithm));
        sm.insert(
            "signed_attributes".into(),
            at(attributes_json(s.signed_attrs.as_ref()))?,
        );
        sm.insert(
            "signature_algorithm".into(),
            algid_json(&s.signature_algorithm),
        );
        sm.insert("signature_b64".into(), b64(&s.signature.bytes).into());
        sm.insert(
            "unsigned_attributes".into(),
            at(attributes_json(s.unsigned_attrs.as_ref()))?,
        );
        signers.push(Value::Object(sm));
    }
    m.insert("signer_infos".into(), Value::Array(signers));
    Ok(Value::Object(m))
}

fn attributes_json(a: Option<&pkit_x509::csr::Attributes<'_>>) -> Result<Value> {
    let Some(a) = a else {
        return Ok(Value::Array(Vec::new()));
    };
    let mut out = Vec::new();
    for x in a.list()? {
        out.push(super::csr::attribute_json(&x)?);
    }
    Ok(Value::Array(out))
}
