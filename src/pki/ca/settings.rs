//! What a CA decided when it was made and applies to everything it issues, kept in
//! `DIR/ca.json` beside its certificate: the revocation pointers ([`Pointers`]) its
//! certificates carry, the rule sets its lint gate applies and its policy on names
//! ([`Policy`]: `allow` and `deny` rules). A directory without the file has no pointers,
//! the default rules and no policy (CAs made before it existed). The file may be edited:
//! every command that loads the CA checks it, and names the key and rule it cannot use.
//!
//! ```json
//! {"ocsp_urls": ["http://ocsp.example/"], "crl_urls": ["http://ca.example/ca.crl"],
//!  "issuer_urls": ["http://ca.example/ca.der"], "lint_rules": "rfc5280,cabf-tls-core",
//!  "allow": ["DNS:*.corp.example", "IP:10.0.0.0/8"], "deny": ["DNS:*.lab.corp.example"]}
//! ```

use super::pointers::{check_url, Pointers};
use super::policy::{Policy, Rule};
use pkit_lint::Rules;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The file in a CA directory that holds its settings.
pub const FILE: &str = "ca.json";

/// Why the settings could not be read.
#[derive(Debug)]
pub struct SettingsError {
    /// The settings file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub message: String,
    /// It could not be read (rather than read and found wrong).
    pub io: bool,
}

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for SettingsError {}

/// A CA's settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaSettings {
    /// What the certificates this CA issues point to.
    pub pointers: Pointers,
    /// The rule sets its lint gate applies (`issue ca --lint-rules`).
    pub lint_rules: Rules,
    /// The names it may and may not certify, beyond its certificate's constraints.
    pub policy: Policy,
    /// Into how many partitioned CRLs its revocations are published (0: one CRL). Each
    /// certificate's cRLDistributionPoints names its shard ([`crate::pointers::shard_of`]),
    /// fixed at issuance, so the count is set when the CA is made.
    pub crl_shards: u32,
}

/// The most CRL shards a CA may have.
pub const MAX_CRL_SHARDS: u32 = 4096;

impl CaSettings {
    /// The settings of the CA in `dir` (defaults when it has no settings file).
    pub fn load(dir: &Path) -> Result<CaSettings, SettingsError> {
        let path = dir.join(FILE);
        let err = |message: String| SettingsError {
            path: path.clone(),
            message,
            io: false,
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(CaSettings::default()),
            Err(e) => {
                return Err(SettingsError {
                    io: true,
                    ..err(e.to_string())
                })
            }
        };
        let v: Value = serde_json::from_str(&text).map_err(|e| {
            err(format!(
                "line {} column {}: expected a JSON object: {e}",
                e.line(),
                e.column()
            ))
        })?;
        let urls = |key: &str| -> Result<Vec<String>, SettingsError> {
            let list = match &v[key] {
                Value::Null => return Ok(Vec::new()),
                Value::Array(a) => a,
                _ => return Err(err(format!("{key}: expected an array of http:// URLs"))),
            };
            list.iter()
                .map(|u| {
                    let u = u
                        .as_str()
                        .ok_or_else(|| err(format!("{key}: expected strings")))?;
                    check_url(key, u).map_err(|e| err(e.0))?;
                    Ok(u.to_string())
                })
                .collect()
        };
        let lint_rules = match &v["lint_rules"] {
            Value::Null => Rules::default(),
            Value::String(s) => Rules::parse(s).map_err(|e| err(format!("lint_rules: {e}")))?,
            _ => {
                return Err(err(
                    "lint_rules: expected a string such as \"rfc5280,cabf-tls\"".into(),
                ))
            }
        };
        let rules = |key: &str| -> Result<Vec<String>, SettingsError> {
            match &v[key] {
                Value::Null => Ok(Vec::new()),
                Value::Array(a) => a
                    .iter()
                    .map(|r| {
                        r.as_str().map(str::to_string).ok_or_else(|| {
                            err(format!(
                                "{key}: expected strings such as \"DNS:*.corp.example\""
                            ))
                        })
                    })
                    .collect(),
                _ => Err(err(format!(
                    "{key}: expected an array of rules such as [\"DNS:*.corp.example\"]"
                ))),
            }
        };
        let parsed = |key: &str| -> Result<Vec<Rule>, SettingsError> {
            rules(key)?
                .iter()
                .map(|r| Rule::parse(r).map_err(|e| err(format!("{key}: {e}"))))
                .collect()
        };
        let policy = Policy {
            allow: parsed("allow")?,
            deny: parsed("deny")?,
        };
        let crl_shards = match &v["crl_shards"] {
            Value::Null => 0,
            Value::Number(n) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n <= MAX_CRL_SHARDS)
                .ok_or_else(|| {
                    err(format!(
                        "crl_shards: expected a count from 0 to {MAX_CRL_SHARDS}"
                    ))
                })?,
            _ => {
                return Err(err(format!(
                    "crl_shards: expected a count from 0 to {MAX_CRL_SHARDS}"
                )))
            }
        };
        let pointers = Pointers {
            ocsp: urls("ocsp_urls")?,
            ca_issuers: urls("issuer_urls")?,
            crl: urls("crl_urls")?,
        };
        if crl_shards > 1 && pointers.crl.is_empty() {
            return Err(err(
                "crl_shards: sharded CRLs need crl_urls (each shard is served beside them)".into(),
            ));
        }
        Ok(CaSettings {
            pointers,
            lint_rules,
            policy,
            crl_shards,
        })
    }

    /// Write the settings to `DIR/ca.json`, replacing the file whole: a command that
    /// loads the CA meanwhile reads the old settings or the new, never part of either.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        let text = self.to_json();
        pkit_store::atomic_file::create(&dir.join(FILE), true, false, |w| {
            w.write_all(text.as_bytes())
        })
    }

    /// The file's text.
    pub fn to_json(&self) -> String {
        let p = &self.pointers;
        let (allow, deny) = self.policy.texts();
        let mut v = json!({
            "ocsp_urls": p.ocsp,
            "crl_urls": p.crl,
            "issuer_urls": p.ca_issuers,
            "lint_rules": self.lint_rules.name(),
            "allow": allow,
            "deny": deny,
        });
        if self.crl_shards > 1 {
            v["crl_shards"] = self.crl_shards.into();
        }
        let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_default_when_absent() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(CaSettings::load(d.path()).unwrap(), CaSettings::default());
        let s = CaSettings {
            pointers: Pointers {
                ocsp: vec!["http://127.0.0.1:8080/".into()],
                ca_issuers: vec![],
                crl: vec!["http://127.0.0.1:8081/ca.crl".into()],
            },
            lint_rules: Rules::parse("rfc5280,cabf-tls").unwrap(),
            policy: Policy::parse(&["DNS:*.corp.example".into()], &["IP:10.0.0.0/8".into()])
                .unwrap(),
            crl_shards: 16,
        };
        s.save(d.path()).unwrap();
        assert_eq!(CaSettings::load(d.path()).unwrap(), s);
        std::fs::write(d.path().join(FILE), "{\"ocsp_urls\": [\"ftp://x\"]}").unwrap();
        let e = CaSettings::load(d.path()).unwrap_err().to_string();
        assert!(
            e.contains("ca.json: ocsp_urls ftp://x: expected an http:// URL"),
            "{e}"
        );
        std::fs::write(d.path().join(FILE), "{\"deny\": [\"DNS:a.*.b\"]}").unwrap();
        let e = CaSettings::load(d.path()).unwrap_err().to_string();
        assert!(
            e.contains("ca.json: deny: DNS:a.*.b: expected a host name"),
            "{e}"
        );
        std::fs::write(d.path().join(FILE), "{").unwrap();
        assert!(CaSettings::load(d.path()).is_err());
    }
}
