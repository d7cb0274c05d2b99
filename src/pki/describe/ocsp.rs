//! JSON model of OCSP requests and responses (field names follow RFC 6960 §4.1.1 and
//! §4.2.1). A basic response's fields sit at the top level beside `response_status`.

use super::cert::cert_json;
use super::json::{algid_json, b64, dn, pem_json, time_json};
use super::{CertFacts, Ctx, Described};
use crate::der::hex;
use crate::der::{Context, Result};
use pkit_x509::cert::Certificate;
use pkit_x509::detect::Kind;
use pkit_x509::extension::Extensions;
use pkit_x509::ocsp::{CertId, CertStatus, OcspRequest, OcspResponse, ResponderId};
use serde_json::{json, Map, Value};

pub(crate) fn describe_request(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let ((json, facts), warnings) = super::json::with_reader(der, ctx, |r| {
        let q = OcspRequest::parse(r)?;
        request_json(&q, ctx)
    })?;
    let mut d = Described::new(Kind::OcspRequest, json, der);
    d.warnings = warnings;
    d.certs = facts;
    Ok(d)
}

pub(crate) fn describe_response(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let ((json, facts), warnings) = super::json::with_reader(der, ctx, |r| {
        let resp = OcspResponse::parse(r)?;
        response_json(&resp, ctx)
    })?;
    let mut d = Described::new(Kind::OcspResponse, json, der);
    d.warnings = warnings;
    d.certs = facts;
    Ok(d)
}

fn cert_id_json(c: &CertId<'_>) -> Value {
    json!({
        "hash_algorithm": algid_json(&c.hash_algorithm),
        "issuer_name_hash": hex(c.issuer_name_hash),
        "issuer_key_hash": hex(c.issuer_key_hash),
        "serial_number": c.serial_hex(),
    })
}

fn extensions_json(e: &Option<Extensions<'_>>, field: &str) -> Result<Value> {
    Ok(Value::Array(match e {
        Some(x) => x
            .list()
            .at(field)?
            .iter()
            .map(super::ext::json_of)
            .collect(),
        None => Vec::new(),
    }))
}

fn certs_json(certs: &[Certificate<'_>], ctx: &Ctx) -> Result<(Value, Vec<CertFacts>)> {
    let mut out = Vec::with_capacity(certs.len());
    let mut facts = Vec::with_capacity(certs.len());
    for (i, c) in certs.iter().enumerate() {
        let (j, f) = cert_json(c, ctx).at_index(i).at("certs")?;
        out.push(j);
        facts.push(f);
    }
    Ok((Value::Array(out), facts))
}

fn request_json(q: &OcspRequest<'_>, ctx: &Ctx) -> Result<(Value, Vec<CertFacts>)> {
    let mut m = Map::new();
    m.insert("type".into(), Kind::OcspRequest.as_str().into());
    m.insert("version".into(), (q.version + 1).into());
    if let Some(g) = &q.requestor_name {
        m.insert(
            "requestor_name".into(),
            super::ext::general_name(g).at("tbsRequest.requestorName")?,
        );
    }
    let mut list = Vec::new();
    for r in q.requests()? {
        list.push(json!({
            "cert_id": cert_id_json(&r.cert_id),
            "single_request_extensions": extensions_json(
                &r.single_request_extensions,
                "singleRequestExtensions",
            )?,
        }));
    }
    m.insert("request_list".into(), Value::Array(list));
    m.insert(
        "request_extensions".into(),
        extensions_json(&q.request_extensions, "tbsRequest.requestExtensions")?,
    );
    let mut facts = Vec::new();
    if let Some(s) = &q.signature {
        let certs = s.certs().at("optionalSignature")?;
        let (cj, f) = certs_json(&certs, ctx).at("optionalSignature")?;
        facts = f;
        m.insert(
            "optional_signature".into(),
            json!({
                "signature_algorithm": algid_json(&s.signature_algorithm),
                "signature_value_b64": b64(s.signature.bytes),
                "certs": cj,
            }),
        );
    }
    m.insert("pem".into(), pem_json(Kind::OcspRequest, q.raw));
    Ok((Value::Object(m), facts))
}

fn response_json(resp: &OcspResponse<'_>, ctx: &Ctx) -> Result<(Value, Vec<CertFacts>)> {
    let mut m = Map::new();
    m.insert("type".into(), Kind::OcspResponse.as_str().into());
    m.insert(
        "response_status".into(),
        resp.status.name().unwrap_or("undefined").into(),
    );
    m.insert("response_status_code".into(), resp.status.code().into());
    let mut facts = Vec::new();
    if let Some(rb) = &resp.response_bytes {
        m.insert(
            "response_type".into(),
            super::json::oid_json(rb.response_type),
        );
        if resp.basic.is_none() {
            // A response type pkit does not decode: its size and bytes.
            m.insert("response_b64".into(), b64(rb.response).into());
        }
    }
    if let Some(b) = &resp.basic {
        let at = "responseBytes.response";
        m.insert("version".into(), (b.version + 1).into());
        let rid = match &b.responder_id {
            ResponderId::ByName(n) => json!({
                "by_name": dn(n).at(at)?,
            }),
            ResponderId::ByKey(k) => json!({ "by_key": hex(k) }),
        };
        m.insert("responder_id".into(), rid);
        m.insert("produced_at".into(), time_json(b.produced_at));
        let mut list = Vec::new();
        for s in b.responses().at(at)? {
            let status = match s.cert_status {
                CertStatus::Good => json!({"status": "good"}),
                CertStatus::Unknown => json!({"status": "unknown"}),
                CertStatus::Revoked {
                    revocation_time,
                    revocation_reason,
                } => {
                    let mut r = Map::new();
                    r.insert("status".into(), "revoked".into());
                    r.insert("revocation_time".into(), time_json(revocation_time));
                    if let Some(reason) = revocation_reason {
                        r.insert(
                            "revocation_reason".into(),
                            json!({"code": reason.code(), "name": reason.name().unwrap_or("")}),
                        );
                    }
                    Value::Object(r)
                }
            };
            let mut sm = Map::new();
            sm.insert("cert_id".into(), cert_id_json(&s.cert_id));
            sm.insert("cert_status".into(), status);
            sm.insert("this_update".into(), time_json(s.this_update));
            sm.insert(
                "next_update".into(),
                s.next_update.map_or(Value::Null, time_json),
            );
            sm.insert(
                "single_extensions".into(),
                extensions_json(&s.single_extensions, "singleExtensions").at(at)?,
            );
            list.push(Value::Object(sm));
        }
        m.insert("responses".into(), Value::Array(list));
        m.insert(
            "response_extensions".into(),
            extensions_json(&b.response_extensions, "tbsResponseData.responseExtensions").at(at)?,
        );
        m.insert(
            "signature_algorithm".into(),
            algid_json(&b.signature_algorithm),
        );
        m.insert("signature_value_b64".into(), b64(b.signature.bytes).into());
        let certs = b.certs().at(at)?;
        let (cj, f) = certs_json(&certs, ctx).at(at)?;
        facts = f;
        m.insert("certs".into(), cj);
    }
    m.insert("pem".into(), pem_json(Kind::OcspResponse, resp.raw));
    Ok((Value::Object(m), facts))
}
