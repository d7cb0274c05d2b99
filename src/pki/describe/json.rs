//! JSON pieces every described type uses: OIDs, AlgorithmIdentifiers, names, keys,
//! times, fingerprints, PEM, extensions, and readers strict or lenient.

use super::ctx::Ctx;
use crate::der::hex;
use crate::der::Deviation;
use crate::der::{Deviations, ObjectId, Reader, Time};
use base64::Engine;
use pkit_x509::algid::AlgId;
use pkit_x509::detect::Kind;
use pkit_x509::name::Name;
use pkit_x509::spki::Spki;
use serde_json::{json, Map, Value};
use sha2::Digest as _;

/// Run `f` over a reader for `der`: strict, or lenient (BER accepted) when `ctx.lenient`
/// asks; `f`'s result with the deviations the lenient reader accepted.
pub fn with_reader<T>(
    der: &[u8],
    ctx: &Ctx,
    f: impl FnOnce(Reader<'_>) -> crate::der::Result<T>,
) -> crate::der::Result<(T, Vec<Deviation>)> {
    with_reader_mode(der, ctx.lenient, f)
}

/// [`with_reader`] for callers with an error type of their own.
pub(crate) fn with_reader_mode<T, E>(
    der: &[u8],
    lenient: bool,
    f: impl FnOnce(Reader<'_>) -> Result<T, E>,
) -> Result<(T, Vec<Deviation>), E> {
    let log = Deviations::new();
    let r = if lenient {
        Reader::lenient(der, &log)
    } else {
        Reader::new(der)
    };
    let v = f(r)?;
    Ok((v, log.take()))
}

pub(crate) fn oid_json(o: ObjectId<'_>) -> Value {
    json!({"oid": o.to_string(), "name": o.name().unwrap_or("")})
}

/// AlgorithmIdentifier: `{oid, name}`, plus `parameters_b64` when parameters other than
/// NULL are present.
pub(crate) fn algid_json(a: &AlgId<'_>) -> Value {
    let mut m = Map::new();
    m.insert("oid".into(), a.oid.to_string().into());
    m.insert("name".into(), a.oid.name().unwrap_or("").into());
    if let Some(p) = a.params {
        if p != [0x05, 0x00] {
            m.insert("parameters_b64".into(), b64(p).into());
        }
    }
    Value::Object(m)
}

pub(crate) fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub(crate) fn time_json(t: Time) -> Value {
    Value::String(t.to_string())
}

/// A Name as its RFC 4514 string.
pub(crate) fn dn(n: &Name<'_>) -> crate::der::Result<String> {
    n.to_rfc4514()
}

/// A Name as a list of attributes, RDN order as encoded.
pub(crate) fn name_attributes_json(n: &Name<'_>) -> crate::der::Result<Value> {
    let mut out = Vec::new();
    for rdn in n.rdns()? {
        for a in rdn {
            out.push(json!({
                "type": oid_json(a.oid),
                "value": a.text()?,
            }));
        }
    }
    Ok(Value::Array(out))
}

/// SubjectPublicKeyInfo: algorithm, family, size, key bytes, and the SHA-256 of the SPKI
/// (what pinning and MTC use).
pub(crate) fn spki_json(s: &Spki<'_>) -> crate::der::Result<Value> {
    let info = s.key_info()?;
    let mut m = Map::new();
    m.insert("algorithm".into(), algid_json(&s.algorithm));
    m.insert("key_type".into(), info.family.into());
    m.insert("key_bits".into(), info.bits.into());
    if let Some(p) = info.parameters {
        m.insert("parameters".into(), p.into());
    }
    m.insert("public_key_b64".into(), b64(s.key.bytes).into());
    m.insert("sha256".into(), hex(&sha2::Sha256::digest(s.raw)).into());
    Ok(Value::Object(m))
}

/// "RSA 2048", "EC P-256", "ML-DSA-65" — the key label summaries group by.
pub(crate) fn key_label(s: &Spki<'_>) -> String {
    match s.key_info() {
        Ok(i) => match (i.family.as_str(), i.parameters, i.bits) {
            ("ML-DSA", Some(p), _) => p,
            (f, Some(p), _) => format!("{f} {p}"),
            (f, None, Some(b)) if f == "RSA" || f == "DSA" => format!("{f} {b}"),
            (f, _, _) => f.to_string(),
        },
        Err(_) => "unreadable key".into(),
    }
}

/// SHA-256 and SHA-1 fingerprints of the whole DER, lowercase hex.
pub(crate) fn fingerprints_json(der: &[u8]) -> Value {
    json!({
        "sha256": hex(&sha2::Sha256::digest(der)),
    })
}

/// The PEM text of an object.
pub(crate) fn pem_json(kind: Kind, der: &[u8]) -> Value {
    Value::String(pkit_x509::der::pem::encode(kind.pem_label(), der))
}
