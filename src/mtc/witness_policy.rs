//! A relying party's witness policy in c2sp.org/tlog-policy's format: the logs it
//! accepts, the witnesses it knows, and the quorum of them a checkpoint (or a
//! certificate's proof) needs.
//!
//! ```text
//! log <vkey> [<url>]
//! witness <name> <vkey> [<url>]
//! group <name> all|any|<k> <name>...
//! quorum <name>|none
//! ```
//!
//! Keys are signed-note verifier keys, `<key name>+<key ID, 8 hex>+<base64 of the type
//! byte and the key>`; the key ID must be the key's. A witness named by a trust anchor ID
//! (`oid/1.3.6.1.4.1.<ID>`, as pkit's are) may have any of pkit's cosigner key types
//! ([`key_id_type`]: 0x04 Ed25519, 0x06 ML-DSA-44, …); one named otherwise
//! (`example.com/w1`, as most witnesses are) is an Ed25519 `cosignature/v1` key (0x04),
//! checked on checkpoints only (certificates carry cosigners by trust anchor ID).

use super::cosign::{key_id_type, CosignerKey};
use super::ids::{TrustAnchorId, NOTE_PREFIX};
use crate::error::{MtcError, Result};
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use pkit_x509::alg::Algorithm;
use std::collections::HashMap;

/// A parsed policy.
#[derive(Debug, Clone)]
pub struct WitnessPolicy {
    /// The logs (their keys) it accepts; empty when the log is known from elsewhere.
    pub logs: Vec<CosignerKey>,
    /// The witnesses, by their name in the policy.
    pub witnesses: Vec<(String, WitnessKey)>,
    quorum: Rule,
}

/// A witness's key as a policy names it.
#[derive(Debug, Clone)]
pub enum WitnessKey {
    /// A cosigner named by its trust anchor ID.
    Cosigner(CosignerKey),
    /// An Ed25519 `cosignature/v1` witness under another note name.
    Named {
        /// Its note name (what its signature lines carry).
        name: String,
        /// Its public key's SubjectPublicKeyInfo.
        spki: Vec<u8>,
    },
}

impl WitnessKey {
    /// The name its signature lines carry.
    pub fn note_name(&self) -> String {
        match self {
            WitnessKey::Cosigner(k) => k.id.note_name(),
            WitnessKey::Named { name, .. } => name.clone(),
        }
    }

    fn spki(&self) -> &[u8] {
        match self {
            WitnessKey::Cosigner(k) => &k.spki,
            WitnessKey::Named { spki, .. } => spki,
        }
    }
}

/// A witness's verifier key: by trust anchor ID ([`parse_vkey`]), or an Ed25519
/// `cosignature/v1` key under any other name.
pub fn parse_witness_vkey(vkey: &str) -> std::result::Result<WitnessKey, String> {
    let name = vkey.split('+').next().unwrap_or("");
    if name.starts_with(NOTE_PREFIX) {
        return parse_vkey(vkey).map(WitnessKey::Cosigner);
    }
    let (name, id_hex, raw) = split_vkey(vkey)?;
    let (&ty, key) = raw
        .split_first()
        .ok_or_else(|| format!("{name}: an empty key"))?;
    if ty != 0x04 || key.len() != 32 {
        return Err(format!(
            "{name}: a witness not named by a trust anchor ID has an Ed25519 cosignature/v1 key (type 0x04)"
        ));
    }
    let mut m = name.as_bytes().to_vec();
    m.push(b'\n');
    m.push(ty);
    m.extend_from_slice(key);
    let want: String = crate::hash::sha256(&m)[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if !id_hex.eq_ignore_ascii_case(&want) {
        return Err(format!("{name}: key ID {id_hex} is not the key's ({want})"));
    }
    let spki = pkit_x509::key::encode::spki(Algorithm::Ed25519, key)
        .ok_or_else(|| format!("{name}: not an Ed25519 key"))?;
    Ok(WitnessKey::Named {
        name: name.to_string(),
        spki,
    })
}

/// A quorum rule: nothing, one witness, or k of a group's members.
#[derive(Debug, Clone)]
enum Rule {
    None,
    Witness(usize),
    Group { k: usize, members: Vec<Rule> },
}

/// A verifier key's parts: its name, its key ID as written, and the key (type byte,
/// then the key) decoded.
fn split_vkey(vkey: &str) -> std::result::Result<(&str, &str, Vec<u8>), String> {
    let mut parts = vkey.splitn(3, '+');
    let (Some(name), Some(id_hex), Some(b64)) = (parts.next(), parts.next(), parts.next()) else {
        return Err("expected a verifier key NAME+KEYID+BASE64".into());
    };
    let raw = B64
        .decode(b64)
        .map_err(|_| format!("{name}: the key is not base64"))?;
    Ok((name, id_hex, raw))
}

/// A signed-note verifier key as pkit can check it.
pub fn parse_vkey(vkey: &str) -> std::result::Result<CosignerKey, String> {
    let (name, id_hex, raw) = split_vkey(vkey)?;
    let id = name
        .strip_prefix(NOTE_PREFIX)
        .and_then(|d| TrustAnchorId::parse(d).ok())
        .ok_or_else(|| format!("key name {name}: expected a trust anchor ID, {NOTE_PREFIX}<ID>"))?;
    let (&ty, key) = raw
        .split_first()
        .ok_or_else(|| format!("{name}: an empty key"))?;
    let alg = [
        Algorithm::Ed25519,
        Algorithm::MlDsa44,
        Algorithm::EcdsaP256,
        Algorithm::MlDsa65,
        Algorithm::MlDsa87,
    ]
    .into_iter()
    .find(|a| key_id_type(*a) == Some(ty))
    .ok_or_else(|| format!("{name}: key type 0x{ty:02x} is not one pkit checks"))?;
    let spki =
        pkit_x509::key::encode::spki(alg, key).ok_or_else(|| format!("{name}: not a {alg} key"))?;
    let k = CosignerKey::new(id, spki).map_err(|e| e.to_string())?;
    let want: String = k.key_id().iter().map(|b| format!("{b:02x}")).collect();
    if !id_hex.eq_ignore_ascii_case(&want) {
        return Err(format!("{name}: key ID {id_hex} is not the key's ({want})"));
    }
    Ok(k)
}

/// The verifier key of `k` (the inverse of [`parse_vkey`]).
pub fn vkey_of(k: &CosignerKey) -> String {
    let raw = pkit_x509::spki::Spki::from_der(&k.spki)
        .map(|s| s.key.bytes.to_vec())
        .unwrap_or_default();
    let mut blob = vec![key_id_type(k.alg).unwrap_or(0)];
    blob.extend_from_slice(&raw);
    let id: String = k.key_id().iter().map(|b| format!("{b:02x}")).collect();
    format!("{}+{id}+{}", k.id.note_name(), B64.encode(blob))
}

impl WitnessPolicy {
    /// Read a policy; a line that breaks the format is [`MtcError::Line`].
    pub fn parse(text: &str) -> Result<WitnessPolicy> {
        let mut logs: Vec<CosignerKey> = Vec::new();
        let mut witnesses: Vec<(String, WitnessKey)> = Vec::new();
        // Names (witnesses and groups share one namespace) to their rule.
        let mut names: HashMap<String, Rule> = HashMap::new();
        let mut quorum = None;
        let mut offset = 0;
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            let at = offset;
            offset += raw.len();
            let bad = |expected: String| MtcError::Line {
                line: i + 1,
                offset: at,
                expected,
            };
            if raw
                .bytes()
                .any(|b| b < 0x20 && b != b'\t' && b != b'\n' || b == 0x7f)
            {
                return Err(bad("no control characters but tab".into()));
            }
            let words: Vec<&str> = raw
                .split([' ', '\t', '\n'])
                .filter(|w| !w.is_empty())
                .collect();
            let Some(&keyword) = words.first() else {
                continue;
            };
            if keyword.starts_with('#') {
                continue;
            }
            match (keyword, &words[1..]) {
                ("log", [vkey] | [vkey, _]) => {
                    let k = parse_vkey(vkey).map_err(bad)?;
                    if logs.iter().any(|l| l.spki == k.spki) {
                        return Err(bad(format!("{}: this log is listed twice", k.id.note_name())));
                    }
                    logs.push(k);
                }
                ("witness", [name, vkey] | [name, vkey, _]) => {
                    let k = parse_witness_vkey(vkey).map_err(bad)?;
                    if *name == "none" || names.contains_key(*name) {
                        return Err(bad(format!("name {name} is taken")));
                    }
                    if witnesses
                        .iter()
                        .any(|(_, w)| w.spki() == k.spki() || w.note_name() == k.note_name())
                    {
                        return Err(bad(format!("{}: this witness is listed twice", k.note_name())));
                    }
                    names.insert(name.to_string(), Rule::Witness(witnesses.len()));
                    witnesses.push((name.to_string(), k));
                }
                ("group", [name, k, members @ ..]) if !members.is_empty() => {
                    if *name == "none" || names.contains_key(*name) {
                        return Err(bad(format!("name {name} is taken")));
                    }
                    let n = members.len();
                    let k = match *k {
                        "all" => n,
                        "any" => 1,
                        k => k
                            .parse::<usize>()
                            .ok()
                            .filter(|k| (1..=n).contains(k) && !k.to_string().starts_with('0'))
                            .ok_or_else(|| bad(format!("a threshold of 1 to {n}, all or any")))?,
                    };
                    let mut rules = Vec::new();
                    for (j, m) in members.iter().enumerate() {
                        if members[..j].contains(m) {
                            return Err(bad(format!("{m} is a member twice")));
                        }
                        rules.push(
                            names
                                .get(*m)
                                .cloned()
                                .ok_or_else(|| bad(format!("{m}: not defined on a line before")))?,
                        );
                    }
                    names.insert(name.to_string(), Rule::Group { k, members: rules });
                }
                ("quorum", [name]) => {
                    if quorum.is_some() {
                        return Err(bad("one quorum line".into()));
                    }
                    quorum = Some(if *name == "none" {
                        Rule::None
                    } else {
                        names
                            .get(*name)
                            .cloned()
                            .ok_or_else(|| bad(format!("{name}: not defined on a line before")))?
                    });
                }
                _ => {
                    return Err(bad(
                        "log VKEY [URL], witness NAME VKEY [URL], group NAME all|any|K NAME…, quorum NAME|none or a # comment"
                            .into(),
                    ))
                }
            }
        }
        let quorum = quorum.ok_or_else(|| MtcError::Line {
            line: text.lines().count() + 1,
            offset: text.len(),
            expected: "a quorum line".into(),
        })?;
        Ok(WitnessPolicy {
            logs,
            witnesses,
            quorum,
        })
    }

    /// The keys of the witnesses named by trust anchor ID, to check their signatures
    /// with as cosigners.
    pub fn keys(&self) -> Vec<CosignerKey> {
        self.witnesses
            .iter()
            .filter_map(|(_, k)| match k {
                WitnessKey::Cosigner(c) => Some(c.clone()),
                WitnessKey::Named { .. } => None,
            })
            .collect()
    }

    /// The witnesses named otherwise: (note name, SPKI), checked on checkpoints with
    /// `tlog_witness::accept_named_cosignature`.
    pub fn named(&self) -> Vec<(String, Vec<u8>)> {
        self.witnesses
            .iter()
            .filter_map(|(_, k)| match k {
                WitnessKey::Named { name, spki } => Some((name.clone(), spki.clone())),
                WitnessKey::Cosigner(_) => None,
            })
            .collect()
    }

    /// Whether the witnesses whose signature verified (`cosigned`, by the note names
    /// their lines carry) meet the quorum.
    pub fn met_by(&self, cosigned: &[String]) -> bool {
        fn met(r: &Rule, ws: &[(String, WitnessKey)], cosigned: &[String]) -> bool {
            match r {
                Rule::None => true,
                Rule::Witness(i) => cosigned.contains(&ws[*i].1.note_name()),
                Rule::Group { k, members } => {
                    members.iter().filter(|m| met(m, ws, cosigned)).count() >= *k
                }
            }
        }
        met(&self.quorum, &self.witnesses, cosigned)
    }

    /// Whether `spki` is one of the policy's logs (any log, when it lists none).
    pub fn accepts_log(&self, spki: &[u8]) -> bool {
        self.logs.is_empty() || self.logs.iter().any(|l| l.spki == spki)
    }
}

#[cfg(test)]
mod tests;
