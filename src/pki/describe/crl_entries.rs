//! A CRL's revokedCertificates as JSON: as values for the formats that render from
//! values, or written one at a time for `-f json`, so memory does not grow with the list.

use super::ext::json_of as extension_json;
use super::json::with_reader_mode;
use crate::der::{Context, Result, Time};
use pkit_x509::crl::{Crl, RevokedCert};
use pkit_x509::extension::Extension;
use serde_json::Value;
use std::collections::HashMap;

/// Key of the list that `-f json` writes entry by entry.
pub(crate) const ENTRIES_KEY: &str = "revoked_certificates";

/// One revokedCertificates entry.
pub(crate) fn entry_json(i: usize, e: &RevokedCert<'_>) -> Result<Value> {
    let entry = EntryJson {
        serial: e.serial_hex(),
        date: e.revocation_date,
        extensions: &extensions_json(i, e)?,
    };
    Ok(serde_json::to_value(&entry).unwrap_or(Value::Null))
}

fn extensions_json(i: usize, e: &RevokedCert<'_>) -> Result<Vec<Value>> {
    Ok(entry_extensions(i, e)?.iter().map(extension_json).collect())
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

pub(crate) fn entry_extensions<'a>(i: usize, e: &RevokedCert<'a>) -> Result<Vec<Extension<'a>>> {
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
pub(crate) fn entries_json(der: &[u8], lenient: bool) -> Result<Vec<Value>> {
    let (list, _) = with_reader_mode(der, lenient, |r| {
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
/// [`super::model::Deferred::CrlEntries`].
pub(crate) struct EntriesJson<'a> {
    pub(crate) der: &'a [u8],
    pub(crate) lenient: bool,
}

impl serde::Serialize for EntriesJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq};
        let fail = |e: crate::der::Error| S::Error::custom(e.to_string());
        let (out, _) = with_reader_mode(self.der, self.lenient, |r| {
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
