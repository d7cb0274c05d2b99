//! Certificate templates: what a new certificate should say, read from JSON — the item
//! `pkit parse -f json` prints for a certificate (or its whole output, whose first item
//! is taken), or a hand-written subset. Issuing from a template reproduces every
//! extension it lists, byte for byte, but the key identifiers (the new key's and the
//! issuing CA's); the key, serial and validity are the new certificate's own.
//!
//! ```json
//! {"subject": "CN=www.example.com,O=Example",
//!  "profile": "server",
//!  "sans": ["DNS:www.example.com", "IP:192.0.2.1"],
//!  "key_usage": ["digitalSignature"],
//!  "ext_key_usage": ["serverAuth", "1.3.6.1.5.5.7.3.2"],
//!  "policies": ["2.23.140.1.2.2"],
//!  "permit": ["DNS:.example.com"], "exclude": ["IP:10.0.0.0/8"],
//!  "ocsp_urls": ["http://ocsp.example/"], "crl_urls": [], "issuer_urls": [],
//!  "extensions": [{"oid": "1.2.3.4", "critical": false, "der_hex": "0500"}]}
//! ```
//! `subject_dn` (what parse prints) is read as `subject`. Each `extensions` entry gives
//! its extnValue as `der_b64` (what parse prints) or `der_hex`; a key above replaces an
//! entry of the same extension. Other keys (serial, validity, public key, signature) are
//! what the new certificate replaces, and are ignored.

use super::name_constraints;
use super::pointers::{check_url, Pointers};
use super::profile::Profile;
use crate::der::oid_registry::{self as oids, by_name};
use crate::der::{encode_dotted, tag, Oid, Writer};
use base64::Engine as _;
use pkit_x509::ext::KEY_USAGE_BITS;
use pkit_x509::san::parse_san;
use pkit_x509::subject::parse_subject;
use serde_json::Value;

/// A template, read.
#[derive(Debug, Clone, Default)]
pub struct Template {
    /// The subject Name DER, when the template names one.
    pub subject: Option<Vec<u8>>,
    /// The profile, when the template names one.
    pub profile: Option<Profile>,
    /// SAN GeneralName TLVs from `sans` (given to the issuer as SANs).
    pub sans: Vec<Vec<u8>>,
    /// Pointers from `ocsp_urls`/`crl_urls`/`issuer_urls`, when any is given.
    pub pointers: Option<Pointers>,
    /// Every other extension, as (OID content octets, whole Extension TLV), in order.
    pub extensions: Vec<(Vec<u8>, Vec<u8>)>,
}

/// Why a template cannot be used: the JSON path and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError(pub String);

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TemplateError {}

fn err(m: impl Into<String>) -> TemplateError {
    TemplateError(m.into())
}

/// Extensions a template never sets: the new key's identifier and the issuer's.
const NEVER: [Oid; 2] = [oids::CE_SUBJECT_KEY_ID, oids::CE_AUTHORITY_KEY_ID];

impl Template {
    /// Read a template from parsed JSON.
    pub fn from_json(v: &Value) -> Result<Template, TemplateError> {
        // `pkit parse -f json` output: the envelope's first certificate.
        let v = match v.get("items").and_then(Value::as_array) {
            Some(items) => items
                .iter()
                .find(|i| i["type"] == "certificate")
                .ok_or_else(|| err("items: expected a certificate"))?,
            None => v,
        };
        let obj = v
            .as_object()
            .ok_or_else(|| err("expected a JSON object (a certificate as parse prints it)"))?;
        let mut t = Template::default();
        let subject = obj
            .get("subject")
            .filter(|s| s.is_string())
            .or_else(|| obj.get("subject_dn"));
        if let Some(s) = subject {
            let s = s
                .as_str()
                .ok_or_else(|| err("subject: expected a string"))?;
            t.subject = Some(parse_subject(s).map_err(|e| err(format!("subject: {e}")))?);
        }
        if let Some(p) = obj.get("profile") {
            let name = p.as_str().unwrap_or_default();
            t.profile = Some(
                Profile::from_name(name)
                    .ok_or_else(|| err(format!("profile: unknown profile '{name}'")))?,
            );
        }
        for (i, e) in array(obj.get("extensions"), "extensions")?
            .iter()
            .enumerate()
        {
            let (oid, raw) = extension(e).map_err(|m| err(format!("extensions[{i}]: {m}")))?;
            if !NEVER.iter().any(|n| n.as_bytes() == oid.as_slice()) {
                t.extensions.push((oid, raw));
            }
        }
        t.sans = strings(obj.get("sans"), "sans")?
            .iter()
            .map(|s| {
                parse_san(s)
                    .map(|x| x.der)
                    .map_err(|e| err(format!("sans: {e}")))
            })
            .collect::<Result<_, _>>()?;
        if !t.sans.is_empty() {
            t.drop_extension(&oids::CE_SUBJECT_ALT_NAME);
        }
        let ku = strings(obj.get("key_usage"), "key_usage")?;
        if !ku.is_empty() {
            t.set(&oids::CE_KEY_USAGE, true, &key_usage(&ku)?);
        }
        let eku = strings(obj.get("ext_key_usage"), "ext_key_usage")?;
        if !eku.is_empty() {
            t.set(
                &oids::CE_EXT_KEY_USAGE,
                false,
                &oid_list(&eku, "ext_key_usage")?,
            );
        }
        let policies = strings(obj.get("policies"), "policies")?;
        if !policies.is_empty() {
            let list = oid_list(&policies, "policies")?;
            // certificatePolicies: SEQUENCE OF PolicyInformation { policyIdentifier }.
            let mut w = Writer::new();
            w.sequence(|w| {
                let mut r = crate::der::Reader::new(&list);
                if let Ok(mut s) = r.read_sequence() {
                    while let Ok(o) = s.read_oid() {
                        w.sequence(|w| {
                            w.primitive(tag::OID, o.as_bytes());
                        });
                    }
                }
            });
            t.set(&oids::CE_CERT_POLICIES, false, &w.finish());
        }
        let bases = |key: &str| -> Result<Vec<Vec<u8>>, TemplateError> {
            strings(obj.get(key), key)?
                .iter()
                .map(|s| name_constraints::parse_base(s).map_err(|e| err(format!("{key}: {e}"))))
                .collect()
        };
        if let Some(nc) = name_constraints::encode(&bases("permit")?, &bases("exclude")?) {
            t.set(&oids::CE_NAME_CONSTRAINTS, true, &nc);
        }
        let urls = |key: &str| -> Result<Vec<String>, TemplateError> {
            let list = strings(obj.get(key), key)?;
            for u in &list {
                check_url(key, u).map_err(|e| err(e.0))?;
            }
            Ok(list)
        };
        let pointers = Pointers {
            ocsp: urls("ocsp_urls")?,
            ca_issuers: urls("issuer_urls")?,
            crl: urls("crl_urls")?,
        };
        if !pointers.is_empty() {
            t.pointers = Some(pointers);
        }
        Ok(t)
    }

    /// The profile a template's extensions describe, when it names none: a CA when its
    /// basicConstraints say so, else by its first extended key usage; a server
    /// certificate when it says nothing.
    pub fn implied_profile(&self) -> Profile {
        if let Some(p) = self.profile {
            return p;
        }
        let find = |o: &Oid| {
            self.extensions
                .iter()
                .find(|(oid, _)| oid.as_slice() == o.as_bytes())
                .and_then(|(_, raw)| {
                    pkit_x509::extension::Extensions::read(&mut crate::der::Reader::new(&wrap(raw)))
                        .ok()?
                        .find(o)
                        .ok()
                        .flatten()
                        .map(|e| e.value.to_vec())
                })
        };
        if let Some(bc) = find(&oids::CE_BASIC_CONSTRAINTS) {
            let ca = pkit_x509::ext::BasicConstraints::read(&mut crate::der::Reader::new(&bc))
                .is_ok_and(|b| b.ca);
            if ca {
                return Profile::Ca;
            }
        }
        let Some(eku) = find(&oids::CE_EXT_KEY_USAGE) else {
            return Profile::Server;
        };
        let has = |o: &Oid| eku.windows(o.as_bytes().len()).any(|w| w == o.as_bytes());
        match (has(&oids::KP_SERVER_AUTH), has(&oids::KP_CLIENT_AUTH)) {
            (true, true) => Profile::ServerClient,
            (true, false) => Profile::Server,
            (false, true) => Profile::Client,
            _ if has(&oids::KP_CODE_SIGNING) => Profile::CodeSigning,
            _ if has(&oids::KP_OCSP_SIGNING) => Profile::OcspSigner,
            _ => Profile::Server,
        }
    }

    fn drop_extension(&mut self, oid: &Oid) {
        self.extensions
            .retain(|(o, _)| o.as_slice() != oid.as_bytes());
    }

    /// Set an extension from a top-level key, replacing an entry of the same OID.
    fn set(&mut self, oid: &Oid, critical: bool, value: &[u8]) {
        self.drop_extension(oid);
        let mut w = Writer::new();
        pkit_x509::ext::write::ext(&mut w, oid, critical, |w| {
            w.raw(value);
        });
        self.extensions.push((oid.as_bytes().to_vec(), w.finish()));
    }
}

/// `SEQUENCE { raw }`: one Extension TLV as an Extensions list, to read it back.
fn wrap(raw: &[u8]) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.raw(raw);
    });
    w.finish()
}

fn array<'a>(v: Option<&'a Value>, key: &str) -> Result<&'a [Value], TemplateError> {
    match v {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(err(format!("{key}: expected an array"))),
    }
}

fn strings(v: Option<&Value>, key: &str) -> Result<Vec<String>, TemplateError> {
    array(v, key)?
        .iter()
        .map(|x| {
            x.as_str()
                .map(str::to_string)
                .ok_or_else(|| err(format!("{key}: expected strings")))
        })
        .collect()
}

/// One `extensions` entry: `{oid, critical, der_b64 | der_hex}` → (OID, Extension TLV).
fn extension(e: &Value) -> Result<(Vec<u8>, Vec<u8>), String> {
    let dotted = e["oid"]
        .as_str()
        .ok_or("oid: expected a dotted OID string")?;
    let oid = encode_dotted(dotted).ok_or_else(|| format!("oid {dotted}: not a dotted OID"))?;
    let critical = match &e["critical"] {
        Value::Null => false,
        Value::Bool(b) => *b,
        _ => return Err("critical: expected true or false".into()),
    };
    let der = match (e["der_b64"].as_str(), e["der_hex"].as_str()) {
        (Some(b), _) => base64::engine::general_purpose::STANDARD
            .decode(b)
            .map_err(|x| format!("der_b64: {x}"))?,
        (None, Some(h)) => crate::der::parse_hex(h, |c| c == ':' || c.is_whitespace())
            .ok_or("der_hex: expected pairs of hex digits")?,
        (None, None) => {
            return Err(format!(
                "extension {dotted}: expected der_b64 or der_hex (its DER); subjectAltName, \
                 keyUsage, extKeyUsage, policies and name constraints can also be given as \
                 the keys sans, key_usage, ext_key_usage, policies, permit and exclude"
            ))
        }
    };
    let mut w = Writer::new();
    w.sequence(|w| {
        w.primitive(tag::OID, &oid);
        if critical {
            w.boolean(true);
        }
        w.octet_string(&der);
    });
    Ok((oid, w.finish()))
}

/// keyUsage from bit names (RFC 5280 §4.2.1.3 spellings, case-insensitive).
fn key_usage(names: &[String]) -> Result<Vec<u8>, TemplateError> {
    let bits = names
        .iter()
        .map(|n| {
            KEY_USAGE_BITS
                .iter()
                .position(|b| b.eq_ignore_ascii_case(n))
                .ok_or_else(|| {
                    err(format!(
                        "key_usage: unknown usage '{n}' (expected one of {})",
                        KEY_USAGE_BITS.join(", ")
                    ))
                })
        })
        .collect::<Result<Vec<usize>, _>>()?;
    let mut w = Writer::new();
    w.named_bits(&bits);
    Ok(w.finish())
}

/// `SEQUENCE OF OBJECT IDENTIFIER` from names (`serverAuth`) or dotted OIDs.
fn oid_list(items: &[String], key: &str) -> Result<Vec<u8>, TemplateError> {
    let oids = items
        .iter()
        .map(|s| {
            by_name(s)
                .map(|o| o.as_bytes().to_vec())
                .or_else(|| encode_dotted(s))
                .ok_or_else(|| {
                    err(format!(
                        "{key}: '{s}' is neither a known name nor a dotted OID"
                    ))
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut w = Writer::new();
    w.sequence(|w| {
        for o in &oids {
            w.primitive(tag::OID, o);
        }
    });
    Ok(w.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hand_written_keys_become_extensions() {
        let t = Template::from_json(&json!({
            "subject": "CN=a.example",
            "sans": ["DNS:a.example"],
            "key_usage": ["digitalSignature", "keyEncipherment"],
            "ext_key_usage": ["serverAuth", "1.3.6.1.5.5.7.3.2"],
            "policies": ["2.23.140.1.2.1"],
            "extensions": [
                {"oid": "1.2.3.4", "critical": true, "der_hex": "0500"},
                {"oid": "2.5.29.14", "der_hex": "040100"},
                {"oid": "2.5.29.17", "der_hex": "3000"}
            ]
        }))
        .unwrap();
        assert!(t.subject.is_some());
        assert_eq!(t.sans.len(), 1);
        let oids: Vec<String> = t
            .extensions
            .iter()
            .map(|(o, _)| {
                crate::der::ObjectId::from_content(o, 0)
                    .unwrap()
                    .to_string()
            })
            .collect();
        // SKI never; the entry's SAN gave way to `sans`; the keys follow the entries.
        assert_eq!(oids, ["1.2.3.4", "2.5.29.15", "2.5.29.37", "2.5.29.32"]);
        assert_eq!(
            t.extensions[0].1,
            [0x30, 0x0c, 0x06, 0x03, 0x2a, 0x03, 0x04, 0x01, 0x01, 0xff, 0x04, 0x02, 0x05, 0x00]
        );
        assert_eq!(t.implied_profile(), Profile::ServerClient);
    }

    #[test]
    fn bad_templates_name_the_key() {
        let e = |v: Value| Template::from_json(&v).unwrap_err().0;
        assert!(e(json!({"key_usage": ["signEverything"]})).starts_with("key_usage:"));
        assert!(e(json!({"extensions": [{"oid": "1.2.3", "value": {}}]})).contains("extensions[0]"));
        assert!(e(json!({"extensions": [{"oid": "x"}]})).contains("not a dotted OID"));
        assert!(e(json!({"ocsp_urls": ["https://x/"]})).contains("http://"));
        assert!(e(json!([1])).contains("expected a JSON object"));
    }
}
