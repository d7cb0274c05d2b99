//! JSON model of a CRL (field names follow RFC 5280 §5.1's ASN.1). Entries are decoded
//! one at a time from the lazy view; for `-f json` they are also printed one at a time
//! (`Deferred::CrlEntries`), so memory does not grow with the list.

use super::{
    algid_json, b64, dn, fingerprints_json, name_attributes_json, pem_json, time_json, Ctx,
    Deferred, Described,
};
use pkit::der::{Context, Reader, Result, Time};
use pkit::pki::crl::{Crl, RevokedCert};
use pkit::pki::detect::Kind;
use pkit::pki::extension::Extension;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Key of the list that `-f json` writes entry by entry.
pub const ENTRIES_KEY: &str = "revoked_certificates";

pub fn describe(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let (json, warnings) = super::with_reader(der, ctx, |r| {
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
pub fn crl_json_from(r: Reader<'_>, ctx: &Ctx) -> Result<Value> {
    let c = Crl::parse(r)?;
    crl_json(&c, ctx)
}

/// The CRL's JSON with its entries (for CRLs inside PKCS#7 and PKCS#12 containers).
pub fn crl_json(c: &Crl<'_>, ctx: &Ctx) -> Result<Value> {
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

/// One revokedCertificates entry.
fn entry_json(i: usize, e: &RevokedCert<'_>) -> Result<Value> {
    let entry = EntryJson {
        serial: e.serial_hex(),
        date: e.revocation_date,
        extensions: &extensions_json(i, e)?,
    };
    Ok(serde_json::to_value(&entry).unwrap_or(Value::Null))
}

fn extensions_json(i: usize, e: &RevokedCert<'_>) -> Result<Vec<Value>> {
    Ok(entry_extensions(i, e)?
        .iter()
        .map(super::extension_json)
        .collect())
}

/// An entry's JSON, defined once: serialized straight to the output for `-f json`,
/// turned into a value for the other formats.
struct EntryJson<'a> {
    serial: String,
    date: Time,
    extensions: &'a [Value],
}

impl serde::Serialize for EntryJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("serial_number", &self.serial)?;
        m.serialize_entry("revocation_date", &self.date.to_string())?;
        m.serialize_entry("extensions", self.extensions)?;
        m.end()
    }
}

fn entry_extensions<'a>(i: usize, e: &RevokedCert<'a>) -> Result<Vec<Extension<'a>>> {
    match &e.extensions {
        Some(x) => x
            .list()
            .at("crlEntryExtensions")
            .at_index(i)
            .at("tbsCertList.revokedCertificates"),
        None => Ok(Vec::new()),
    }
}

/// Every entry's JSON, for the formats that render from values.
pub fn entries_json(der: &[u8], lenient: bool) -> Result<Vec<Value>> {
    let (list, _) = super::with_reader_mode(der, lenient, |r| {
        let c = Crl::parse(r)?;
        c.revoked()
            .enumerate()
            .map(|(i, e)| entry_json(i, &e?))
            .collect::<Result<Vec<_>>>()
    })?;
    Ok(list)
}

/// How many distinct entry extension sets `-f json` remembers.
const DISTINCT_EXTENSION_SETS: usize = 64;

/// The entries of the CRL in `der`, serialized one at a time: the printer's side of
/// [`super::Deferred::CrlEntries`].
pub struct EntriesJson<'a> {
    pub der: &'a [u8],
    pub lenient: bool,
}

impl serde::Serialize for EntriesJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq};
        let fail = |e: pkit::der::Error| S::Error::custom(e.to_string());
        let (out, _) = super::with_reader_mode(self.der, self.lenient, |r| {
            let c = Crl::parse(r).map_err(fail)?;
            let mut seq = s.serialize_seq(c.revoked_count().ok())?;
            // Entries mostly repeat a handful of extension sets (a reasonCode each): their
            // JSON is made once per distinct encoding, up to a bound a hostile CRL cannot
            // inflate.
            let mut seen: HashMap<&[u8], Vec<Value>> = HashMap::new();
            let none = Vec::new();
            for (i, e) in c.revoked().enumerate() {
                let e = e.map_err(fail)?;
                let key = e.extensions.as_ref().map_or(&[][..], |x| x.content());
                let fresh;
                let extensions = match seen.get(key) {
                    Some(v) => v,
                    None if key.is_empty() => &none,
                    None => {
                        fresh = extensions_json(i, &e).map_err(fail)?;
                        // An error names its offset, which differs per entry.
                        let clean = fresh.iter().all(|x| x["value"].get("error").is_none());
                        if clean && seen.len() < DISTINCT_EXTENSION_SETS {
                            seen.insert(key, fresh.clone());
                        }
                        &fresh
                    }
                };
                seq.serialize_element(&EntryJson {
                    serial: e.serial_hex(),
                    date: e.revocation_date,
                    extensions,
                })?;
            }
            seq.end()
        })?;
        Ok(out)
    }
}
