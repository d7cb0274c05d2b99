//! JSON model of a CRL (field names follow RFC 5280 §5.1's ASN.1). Entries are decoded
//! one at a time from the lazy view; for `-f json` they are also printed one at a time
//! (`Deferred::CrlEntries`), so memory does not grow with the list.

use super::crl_entries::{entry_extensions, entry_json, ENTRIES_KEY};
use super::json::{
    algid_json, b64, dn, fingerprints_json, name_attributes_json, pem_json, time_json,
};
use super::{Ctx, Deferred, Described};
use crate::der::{Context, Reader, Result};
use pkit_x509::crl::Crl;
use pkit_x509::detect::Kind;
use serde_json::{Map, Value};

pub(crate) fn describe(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let (json, warnings) = super::json::with_reader(der, ctx, |r| {
        let c = Crl::parse(r)?;
        crl_json_with(&c, ctx, Entries::Deferred)
    })?;
    let mut d = Described::new(Kind::Crl, json, der);
    d.warnings = warnings;
    d.deferred = Some(Deferred::CrlEntries {
        lenient: ctx.lenient,
    });
    Ok(d)
}

/// Parse and describe the CRL that `r` spans.
pub(crate) fn crl_json_from(r: Reader<'_>, ctx: &Ctx) -> Result<Value> {
    let c = Crl::parse(r)?;
    crl_json(&c, ctx)
}

/// The CRL's JSON with its entries (for CRLs inside PKCS#7 and PKCS#12 containers).
pub(crate) fn crl_json(c: &Crl<'_>, ctx: &Ctx) -> Result<Value> {
    crl_json_with(c, ctx, Entries::Inline)
}

/// Whether `revoked_certificates` is filled in, or checked and left for the printer.
#[derive(PartialEq)]
enum Entries {
    Inline,
    Deferred,
}

fn crl_json_with(c: &Crl<'_>, ctx: &Ctx, entries: Entries) -> Result<Value> {
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
    let list = match entries {
        Entries::Inline => c
            .revoked()
            .enumerate()
            .map(|(i, e)| entry_json(i, &e?))
            .collect::<Result<_>>()?,
        Entries::Deferred => {
            // Every error the printer could meet is met here, before anything is printed.
            for (i, e) in c.revoked().enumerate() {
                entry_extensions(i, &e?)?;
            }
            Vec::new()
        }
    };
    m.insert(ENTRIES_KEY.into(), Value::Array(list));
    let exts = match &c.extensions {
        Some(x) => x
            .list()
            .at("tbsCertList.crlExtensions")?
            .iter()
            .map(super::ext::json_of)
            .collect(),
        None => Vec::new(),
    };
    m.insert("crl_extensions".into(), Value::Array(exts));
    m.insert("signature_value_b64".into(), b64(c.signature.bytes).into());
    m.insert("fingerprints".into(), fingerprints_json(c.raw));
    m.insert("pem".into(), pem_json(Kind::Crl, c.raw));
    Ok(Value::Object(m))
}
