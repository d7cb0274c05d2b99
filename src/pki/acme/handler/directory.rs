//! The directory (RFC 8555 §7.1.1) and fresh nonces (§7.2): what a client reads before
//! it signs anything.

use super::AcmeHandler;
use crate::problem::Problem;
use serde_json::{json, Value};

impl AcmeHandler {
    pub(super) fn directory(&self) -> Value {
        let mut meta = json!({
            "externalAccountRequired": self.config.eab_required(),
        });
        if !self.config.profiles.is_empty() {
            meta["profiles"] = self
                .config
                .profiles
                .iter()
                .map(|p| (p.name.clone(), Value::String(p.description.clone())))
                .collect::<serde_json::Map<_, _>>()
                .into();
        }
        if let Some(t) = &self.config.terms_of_service {
            meta["termsOfService"] = t.clone().into();
        }
        json!({
            "newNonce": self.url("/new-nonce"),
            "newAccount": self.url("/new-account"),
            "newOrder": self.url("/new-order"),
            "revokeCert": self.url("/revoke-cert"),
            "keyChange": self.url("/key-change"),
            "renewalInfo": self.url("/renewal-info"),
            "meta": meta,
        })
    }

    pub(super) fn new_nonce(&self, now: i64) -> Result<String, Problem> {
        crate::nonce::make(&self.nonce_key, now).map_err(|e| Problem::server(e.to_string()))
    }
}
