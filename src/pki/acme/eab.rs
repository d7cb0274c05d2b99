//! External account binding (RFC 8555 §7.3.4): a new account proves it belongs to an
//! account the CA already knows with a JWS over its own key, MACed (HS256) with a key the
//! CA handed out (`--eab-keys FILE`: lines of `KID BASE64URL-KEY`).

use crate::config::AcmeConfig;
use crate::jose::{Jwk, Jws, Signer};
use crate::problem::Problem;
use serde_json::Value;

/// The EAB key id a new account is bound to, `None` without binding; a problem when the
/// binding is missing where required, or does not hold.
pub(crate) fn check(
    config: &AcmeConfig,
    payload: &Value,
    account_key: &Jwk,
    url: &str,
) -> Result<Option<String>, Problem> {
    let Some(binding) = payload.get("externalAccountBinding") else {
        if config.eab_required() {
            return Err(Problem::new(
                "externalAccountRequired",
                400,
                "this CA binds new accounts to ones it knows: send externalAccountBinding",
            ));
        }
        return Ok(None);
    };
    let bad = |why: &str| {
        Problem::new(
            "unauthorized",
            401,
            format!("externalAccountBinding: {why}"),
        )
    };
    let jws = Jws::from_value(binding).map_err(|e| bad(&e.detail))?;
    if jws.alg != "HS256" {
        return Err(bad("the MAC must be HS256"));
    }
    let Signer::Kid(kid) = &jws.signer else {
        return Err(bad("the binding names its key with \"kid\""));
    };
    if jws.url != url || jws.nonce.is_some() {
        return Err(bad("it must name the newAccount URL and carry no nonce"));
    }
    let key = config
        .eab_keys
        .get(kid)
        .ok_or_else(|| bad("unknown key id"))?;
    if !jws.mac_verifies(key) {
        return Err(bad("the MAC does not verify"));
    }
    let bound = jws.json().ok().flatten().ok_or_else(|| bad("no payload"))?;
    let bound = Jwk::from_json(&bound).map_err(|e| bad(&e.detail))?;
    if bound.thumbprint != account_key.thumbprint {
        return Err(bad("it binds another key than the account's"));
    }
    Ok(Some(kid.clone()))
}

/// Why a file of external account binding keys was refused: the line, and what is wrong
/// with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EabKeysError {
    /// The line, counting from 1.
    pub line: usize,
    /// What is wrong with it.
    pub why: &'static str,
}

impl std::fmt::Display for EabKeysError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for EabKeysError {}

/// Read `--eab-keys` (RFC 8555 §7.3.4's MAC keys, by key id, for
/// [`AcmeConfig::eab_keys`]): `KID KEY` per line, the key base64url of 16 bytes or more,
/// `#` comments.
pub fn parse_keys(text: &str) -> Result<std::collections::HashMap<String, Vec<u8>>, EabKeysError> {
    let mut keys = std::collections::HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(kid), Some(key), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(EabKeysError {
                line: i + 1,
                why: "expected KID and a base64url key",
            });
        };
        let key = crate::jose::unb64(key)
            .filter(|k| k.len() >= 16)
            .ok_or(EabKeysError {
                line: i + 1,
                why: "the key is not base64url of 16 bytes or more",
            })?;
        keys.insert(kid.to_string(), key);
    }
    Ok(keys)
}
