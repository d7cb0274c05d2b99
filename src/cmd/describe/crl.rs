//! JSON model of a CRL (field names follow RFC 5280 §5.1's ASN.1). Entries are decoded
//! one at a time from the lazy view; only the JSON itself grows with the list.

use super::{
    algid_json, b64, dn, fingerprints_json, name_attributes_json, pem_json, time_json, Ctx,
    Described,
};
use pkit::der::{Context, Reader, Result};
use pkit::pki::crl::Crl;
use pkit::pki::detect::Kind;
use serde_json::{Map, Value};

pub fn describe(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let (json, warnings) = super::with_reader(der, ctx, |r| crl_json_from(r, ctx))?;
    let mut d = Described::new(Kind::Crl, json, der);
    d.warnings = warnings;
    Ok(d)
}

/// Parse and describe the CRL that `r` spans.
pub fn crl_json_from(r: Reader<'_>, ctx: &Ctx) -> Result<Value> {
    let c = Crl::parse(r)?;
    crl_json(&c, ctx)
}

/// The CRL's JSON (also used for CRLs inside PKCS#7 and PKCS#12 containers).
pub fn crl_json(c: &Crl<'_>, ctx: &Ctx) -> Result<Value> {
    let mut m = Map::new();
    m.insert("type".into(), Kind::Crl.as_str().into());
    m.insert("version".into(), (u64::from(c.version) + 1).into());
    m.insert(
        "signature_algorithm".into(),
        algid_json(&c.signature_algorithm),
    );
    if c.check_signature_algorithms_match().is_err() {
        // RFC 5280 §5.1.1.2 requires the two to be equal; show both when they differ.
        m.insert("tbs_signature".into(), algid_json(&c.tbs_signature));
    }
    m.insert(
        "issuer_dn".into(),
        dn(&c.issuer).at("tbsCertList.issuer")?.into(),
    );
    m.insert(
        "issuer".into(),
        name_attributes_json(&c.issuer).at("tbsCertList.issuer")?,
    );
    m.insert("this_update".into(), time_json(c.this_update));
    m.insert(
        "next_update".into(),
        c.next_update.map_or(Value::Null, time_json),
    );
    if let Some(n) = c.next_update {
        m.insert("expired".into(), (ctx.now > n).into());
    }
    m.insert("revoked_count".into(), c.revoked_count()?.into());
    let mut entries = Vec::new();
    for (i, e) in c.revoked().enumerate() {
        let e = e?;
        let mut em = Map::new();
        em.insert("serial_number".into(), e.serial_hex().into());
        em.insert("revocation_date".into(), time_json(e.revocation_date));
        let exts = match &e.extensions {
            Some(x) => x
                .list()
                .at("crlEntryExtensions")
                .at_index(i)
                .at("tbsCertList.revokedCertificates")?
                .iter()
                .map(super::extension_json)
                .collect(),
            None => Vec::new(),
        };
        em.insert("extensions".into(), Value::Array(exts));
        entries.push(Value::Object(em));
    }
    m.insert("revoked_certificates".into(), Value::Array(entries));
    let exts = match &c.extensions {
        Some(x) => x
            .list()
            .at("tbsCertList.crlExtensions")?
            .iter()
            .map(super::extension_json)
            .collect(),
        None => Vec::new(),
    };
    m.insert("crl_extensions".into(), Value::Array(exts));
    m.insert("signature_value_b64".into(), b64(c.signature.bytes).into());
    m.insert("fingerprints".into(), fingerprints_json(c.raw));
    m.insert("pem".into(), pem_json(Kind::Crl, c.raw));
    Ok(Value::Object(m))
}
