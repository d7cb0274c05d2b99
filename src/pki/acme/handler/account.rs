//! Accounts (RFC 8555 §7.3): made or found by their key, updated, deactivated, and
//! given a new key.

use super::id_of;
use super::signed::Signed;
use super::{json_answer, time, AcmeHandler, Outcome};
use crate::jose::{Jwk, Jws, Signer};
use crate::problem::Problem;
use serde_json::{json, Value};

impl AcmeHandler {
    pub(super) fn account_json(&self, a: &crate::store::Account) -> Value {
        json!({
            "status": a.status,
            "contact": serde_json::from_str::<Value>(&a.contact).unwrap_or(json!([])),
            "orders": self.url(&format!("/acct/{}/orders", a.id)),
            "createdAt": time(a.created),
        })
    }

    pub(super) fn new_account(&mut self, s: Signed) -> Outcome {
        // `verify` lets only a jwk through to newAccount; refused here too rather than
        // trusted, should that change.
        let Signer::Jwk(jwk) = &s.jws.signer else {
            return Err(Problem::new(
                "malformed",
                400,
                "newAccount is signed with the new key (\"jwk\"), not an account",
            ));
        };
        let payload = s.jws.json().map_err(Problem::jose)?.unwrap_or(json!({}));
        let now = self.clock.now().unix;
        if let Some(a) = self
            .db
            .account_by_thumbprint(&jwk.thumbprint)
            .map_err(Problem::db)?
        {
            if a.status != "valid" {
                return Err(Problem::new(
                    "unauthorized",
                    401,
                    format!("the account of this key is {}", a.status),
                ));
            }
            // §7.3.1: the existing account, 200 with its URL.
            return Ok(json_answer(200, &self.account_json(&a))
                .with("location", self.url(&format!("/acct/{}", a.id))));
        }
        if payload["onlyReturnExisting"] == json!(true) {
            return Err(Problem::new(
                "accountDoesNotExist",
                400,
                "no account has this key",
            ));
        }
        let contact = contacts(&payload)?;
        let eab = crate::eab::check(&self.config, &payload, jwk, &self.url("/new-account"))?;
        let id = self
            .db
            .create_account(
                &jwk.thumbprint,
                &Value::Object(jwk.json.clone()).to_string(),
                &jwk.spki,
                &contact.to_string(),
                eab.as_deref(),
                now,
            )
            .map_err(Problem::db)?;
        let a = self
            .db
            .account(id)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::server("account vanished"))?;
        Ok(json_answer(201, &self.account_json(&a))
            .with("location", self.url(&format!("/acct/{id}"))))
    }

    pub(super) fn account(&mut self, s: Signed, path: &str) -> Outcome {
        let a = s.signer_account()?;
        if let Some(rest) = path.strip_suffix("/orders") {
            if id_of(rest, "/acct/") != Some(a.id) {
                return Err(Problem::new(
                    "unauthorized",
                    403,
                    "not this account's orders",
                ));
            }
            let orders: Vec<Value> = self
                .db
                .orders(Some(a.id))
                .map_err(Problem::db)?
                .iter()
                .map(|o| self.url(&format!("/order/{}", o.id)).into())
                .collect();
            return Ok(json_answer(200, &json!({ "orders": orders })));
        }
        if id_of(path, "/acct/") != Some(a.id) {
            return Err(Problem::new(
                "unauthorized",
                403,
                "a JWS may only touch its own account",
            ));
        }
        let mut a = a.clone();
        if let Some(p) = s.jws.json().map_err(Problem::jose)? {
            if p.get("contact").is_some() {
                a.contact = contacts(&p)?.to_string();
            }
            match p.get("status").and_then(Value::as_str) {
                Some("deactivated") => a.status = "deactivated".into(),
                Some("valid") | None => {}
                Some(other) => {
                    return Err(Problem::new(
                        "malformed",
                        400,
                        format!("an account cannot be set to {other}"),
                    ))
                }
            }
            self.db
                .update_account(a.id, &a.contact, &a.status)
                .map_err(Problem::db)?;
        }
        Ok(json_answer(200, &self.account_json(&a)))
    }

    pub(super) fn key_change(&mut self, s: Signed) -> Outcome {
        let a = s.signer_account()?.clone();
        let outer_url = s.jws.url.clone();
        let inner_v: Value = serde_json::from_slice(&s.jws.payload)
            .map_err(|_| Problem::new("malformed", 400, "the key change payload is not a JWS"))?;
        let inner = Jws::from_value(&inner_v).map_err(Problem::jose)?;
        let Signer::Jwk(new_key) = &inner.signer else {
            return Err(Problem::new(
                "malformed",
                400,
                "the inner JWS must carry the new key as \"jwk\"",
            ));
        };
        if inner.url != outer_url || inner.nonce.is_some() {
            return Err(Problem::new(
                "malformed",
                400,
                "the inner JWS must name the same URL and carry no nonce (§7.3.5)",
            ));
        }
        inner
            .verify(self.backend, &new_key.spki)
            .map_err(Problem::jose)?;
        let p = inner.json().map_err(Problem::jose)?.unwrap_or(json!({}));
        let old = Jwk::from_json(&p["oldKey"]).map_err(Problem::jose)?;
        if p["account"].as_str() != Some(&self.url(&format!("/acct/{}", a.id)))
            || old.thumbprint != a.thumbprint
        {
            return Err(Problem::new(
                "malformed",
                400,
                "the inner payload's account and oldKey must be this account's",
            ));
        }
        if !self
            .db
            .rekey_account(
                a.id,
                &new_key.thumbprint,
                &Value::Object(new_key.json.clone()).to_string(),
                &new_key.spki,
            )
            .map_err(Problem::db)?
        {
            return Err(Problem::new(
                "conflict",
                409,
                "another account has this key",
            ));
        }
        let a = self
            .db
            .account(a.id)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::server("account vanished"))?;
        Ok(json_answer(200, &self.account_json(&a)))
    }
}

/// The `contact` list of a payload: mailto: URLs only (§7.3).
fn contacts(p: &Value) -> Result<Value, Problem> {
    let list = match p.get("contact") {
        None | Some(Value::Null) => return Ok(json!([])),
        Some(Value::Array(l)) => l,
        Some(_) => return Err(Problem::new("malformed", 400, "\"contact\" must be a list")),
    };
    for c in list {
        let ok = c
            .as_str()
            .and_then(|s| s.strip_prefix("mailto:"))
            .is_some_and(|m| m.contains('@') && !m.contains(',') && !m.contains('?'));
        if !ok {
            return Err(Problem::new(
                "unsupportedContact",
                400,
                format!("{c}: only mailto: with one address is supported"),
            ));
        }
    }
    Ok(Value::Array(list.clone()))
}
