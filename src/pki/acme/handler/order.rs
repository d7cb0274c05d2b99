//! Orders (RFC 8555 §7.4): made with their authorizations, their status moved on as
//! those are, and shown to the account that made them.

use super::id_of;
use super::signed::Signed;
use super::{json_answer, time, AcmeHandler, Answer, Outcome};
use crate::challenge::ChallengeType;
use crate::config::Issues;
use crate::jose;
use crate::problem::Problem;
use crate::store::{Created, NewAuthz, Order};
use pkit_der::Time;
use pkit_x509::dns_name;
use serde_json::{json, Value};
use std::net::IpAddr;

/// Seconds after which an order claimed for finalization, with no certificate and no MTC
/// entry, was abandoned by a server that stopped: finalizing takes milliseconds.
const ABANDONED: i64 = 300;

impl AcmeHandler {
    pub(super) fn new_order(&mut self, s: Signed) -> Outcome {
        let a = s.signer_account()?.clone();
        let p = s
            .jws
            .json()
            .map_err(Problem::jose)?
            .ok_or_else(|| Problem::new("malformed", 400, "newOrder needs a payload"))?;
        let ids = p["identifiers"]
            .as_array()
            .filter(|l| !l.is_empty())
            .ok_or_else(|| {
                Problem::new("malformed", 400, "\"identifiers\" must be a non-empty list")
            })?;
        if ids.len() > crate::config::MAX_IDENTIFIERS {
            return Err(Problem::new(
                "rejectedIdentifier",
                400,
                format!(
                    "at most {} identifiers in an order",
                    crate::config::MAX_IDENTIFIERS
                ),
            ));
        }
        let now = self.clock.now().unix;
        if let Some((limit, window)) = self.config.order_rate {
            if self
                .db
                .orders_since(a.id, now - window)
                .map_err(Problem::db)?
                >= limit
            {
                let mut p = Problem::new(
                    "rateLimited",
                    429,
                    format!("at most {limit} new orders per account in {window} s"),
                );
                p.retry_after = Some(window.min(3600));
                return Err(p);
            }
        }
        let mut authzs = Vec::new();
        let mut listed = Vec::new();
        for id in ids {
            let (kind, value) = identifier(id)?;
            let (value, wildcard) = match value.strip_prefix("*.") {
                Some(base) if kind == "dns" => (base.to_string(), true),
                _ => (value, false),
            };
            listed.push(json!({"type": kind, "value": if wildcard { format!("*.{value}") } else { value.clone() }}));
            let reuse = self
                .db
                .reusable_authz(a.id, &kind, &value, wildcard, now)
                .map_err(Problem::db)?;
            let mut challenges = Vec::new();
            if reuse.is_none() {
                for k in ChallengeType::offered(&kind, wildcard) {
                    let mut t = [0u8; 32];
                    pkit_ca::random_bytes(&mut t).map_err(|e| Problem::server(e.to_string()))?;
                    challenges.push((*k, jose::b64(&t)));
                }
            }
            authzs.push(NewAuthz {
                id_type: kind,
                id_value: value,
                wildcard,
                reuse,
                challenges,
            });
        }
        let profile = match p.get("profile").and_then(Value::as_str) {
            Some(name) if !self.config.profiles.iter().any(|x| x.name == name) => {
                return Err(Problem::new(
                    "invalidProfile",
                    400,
                    format!("no profile {name} here"),
                ))
            }
            other => other.map(str::to_string),
        };
        let window: (Option<i64>, Option<i64>) = (
            p.get("notBefore")
                .and_then(Value::as_str)
                .map(order_time)
                .transpose()?,
            p.get("notAfter")
                .and_then(Value::as_str)
                .map(order_time)
                .transpose()?,
        );
        // A client may narrow the validity, not stretch or backdate it: notBefore no
        // earlier than an hour ago, the whole no longer than the profile (or the CA's
        // default for servers) gives.
        let days = match self.config.issues(profile.as_deref()) {
            (_, Some(days)) => days,
            (Issues::X509(p), None) => pkit_ca::validity::default_days(p, self.clock.now()),
            (Issues::Mtc, None) => 0,
        };
        let start = window.0.unwrap_or(now);
        let too_long = window
            .1
            .is_some_and(|end| end - start + 1 > i64::from(days) * 86_400 || end <= start);
        if start < now - 3600 || too_long {
            return Err(Problem::new(
                "malformed",
                400,
                format!(
                    "notBefore may be at most an hour ago and the validity at most {days} days"
                ),
            ));
        }
        if let (Issues::X509(_), _) = self.config.issues(profile.as_deref()) {
            self.forbidden_identifiers(&listed)?;
        }
        let replaces = self.replaced(&a, &p, &listed)?;
        let created = self
            .db
            .create_order(
                a.id,
                &Value::Array(listed).to_string(),
                profile.as_deref(),
                replaces.as_ref(),
                window,
                now + self.config.order_lifetime,
                &authzs,
                now,
            )
            .map_err(Problem::db)?;
        let id = match created {
            Created::Order(id) => id,
            Created::AlreadyReplaced(other) => {
                return Err(Problem::new(
                    "alreadyReplaced",
                    409,
                    format!(
                        "order {} replaces that certificate already (RFC 9773 §5)",
                        self.url(&format!("/order/{other}"))
                    ),
                ))
            }
        };
        let o = self.refreshed_order(id)?;
        Ok(json_answer(201, &self.order_json(&o)?)
            .with("location", self.url(&format!("/order/{id}"))))
    }

    /// Refuse an order naming what the CA's policy or chain forbids, before any
    /// authorization exists for it: `rejectedIdentifier` (RFC 8555 §7.4: "the server
    /// will not issue certificates for the identifier"), with a subproblem naming each
    /// such identifier and why (§6.7.1). A certificate for it would be refused at
    /// finalize; a client told now does not prove control of names for nothing.
    pub(super) fn forbidden_identifiers(&self, listed: &[Value]) -> Result<(), Problem> {
        let mut refused: Vec<(&Value, String)> = Vec::new();
        for id in listed {
            let value = id["value"].as_str().unwrap_or_default();
            let text = match id["type"].as_str() {
                Some("ip") => format!("IP:{value}"),
                _ => format!("DNS:{value}"),
            };
            let why = match pkit_x509::san::parse_san(&text) {
                Ok(san) => match self.ca.issuer.check_names(&[0x30, 0x00], &[san.der]) {
                    Ok(()) => continue,
                    Err(pkit_ca::issuer::CaError::Forbidden(r)) => r.to_string(),
                    Err(e) => e.to_string(),
                },
                Err(e) => e.to_string(),
            };
            refused.push((id, why));
        }
        let Some((_, first_why)) = refused.first() else {
            return Ok(());
        };
        let names: Vec<&str> = refused
            .iter()
            .filter_map(|(id, _)| id["value"].as_str())
            .collect();
        let mut p = Problem::new(
            "rejectedIdentifier",
            400,
            format!(
                "the CA will not issue for {}: {first_why}",
                names.join(", ")
            ),
        );
        let subproblems = refused
            .iter()
            .map(|(id, why)| {
                json!({
                    "type": "urn:ietf:params:acme:error:rejectedIdentifier",
                    "detail": format!("the CA will not issue for {}: {why}",
                                      id["value"].as_str().unwrap_or_default()),
                    "identifier": id,
                })
            })
            .collect();
        p.subproblems = subproblems;
        Err(p)
    }

    /// An order with its status moved on by its authorizations (§7.1.6).
    pub(super) fn refreshed_order(&mut self, id: i64) -> Result<Order, Problem> {
        let mut o = self
            .db
            .order(id)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::new("malformed", 404, "no such order"))?;
        let now = self.clock.now().unix;
        if o.status == "ready" && o.expires <= now {
            // An order not finalized in time is over (§7.1.6).
            if self
                .db
                .advance_order(id, "ready", "invalid")
                .map_err(Problem::db)?
            {
                o.status = "invalid".into();
            }
        }
        if o.status == "processing" && o.cert_serial.is_none() {
            if o.mtc_index.is_some() {
                return self.mtc_made(o);
            }
            // Claimed, and neither issued nor appended long after: the server finalizing
            // it stopped in between. Over, so that its client orders again rather than
            // wait for ever.
            if o.claimed.is_some_and(|t| t < now - ABANDONED) {
                let p = Problem::server("finalization was interrupted; order again");
                if self
                    .db
                    .advance_order(id, "processing", "invalid")
                    .map_err(Problem::db)?
                {
                    self.db
                        .set_order_status(id, "invalid", Some(&p.json().to_string()))
                        .map_err(Problem::db)?;
                }
                return self.refreshed_order(id);
            }
        }
        if o.status == "pending" {
            let authzs = self.db.order_authzs(id).map_err(Problem::db)?;
            let next = if o.expires <= now
                || authzs
                    .iter()
                    .any(|a| a.status == "invalid" || a.status == "deactivated")
            {
                Some("invalid")
            } else if authzs.iter().all(|a| a.status == "valid") {
                Some("ready")
            } else {
                None
            };
            if let Some(n) = next {
                // Only from pending: another request may have moved it on meanwhile.
                if self
                    .db
                    .advance_order(id, "pending", n)
                    .map_err(Problem::db)?
                {
                    o.status = n.to_string();
                } else {
                    return self.refreshed_order(id);
                }
            }
        }
        Ok(o)
    }

    pub(super) fn order_json(&self, o: &Order) -> Result<Value, Problem> {
        let authzs = self.db.order_authzs(o.id).map_err(Problem::db)?;
        let mut v = json!({
            "status": o.status,
            "expires": time(o.expires),
            "identifiers": serde_json::from_str::<Value>(&o.identifiers).unwrap_or(json!([])),
            "authorizations": authzs.iter().map(|a| self.url(&format!("/authz/{}", a.id))).collect::<Vec<_>>(),
            "finalize": self.url(&format!("/order/{}/finalize", o.id)),
        });
        if let Some(t) = o.not_before {
            v["notBefore"] = time(t).into();
        }
        if let Some(t) = o.not_after {
            v["notAfter"] = time(t).into();
        }
        if let Some(p) = &o.profile {
            v["profile"] = p.clone().into();
        }
        if let Some(r) = &o.replaces {
            v["replaces"] = r.clone().into();
        }
        if let Some(e) = &o.error {
            v["error"] = serde_json::from_str(e).unwrap_or(Value::Null);
        }
        if let Some(serial) = &o.cert_serial {
            v["certificate"] = self.url(&format!("/cert/{serial}")).into();
        }
        Ok(v)
    }

    pub(super) fn own_order(&mut self, s: &Signed, id: Option<i64>) -> Result<Order, Problem> {
        let a = s.signer_account()?;
        let o = self
            .refreshed_order(id.ok_or_else(|| Problem::new("malformed", 404, "no such order"))?)?;
        if o.account_id != a.id {
            return Err(Problem::new(
                "unauthorized",
                403,
                "not this account's order",
            ));
        }
        Ok(o)
    }

    pub(super) fn order(&mut self, s: Signed, path: &str) -> Outcome {
        let o = self.own_order(&s, id_of(path, "/order/"))?;
        let answer = json_answer(200, &self.order_json(&o)?);
        Ok(self.poll_later(&o, answer))
    }

    /// A processing order tells its client when to look again (§7.4): an MTC one at the
    /// next checkpoint.
    pub(super) fn poll_later(&self, o: &Order, answer: Answer) -> Answer {
        if o.status != "processing" {
            return answer;
        }
        let wait = match (&self.config.mtc, o.mtc_index) {
            (Some(m), Some(_)) => m.checkpoint_every,
            _ => 1,
        };
        answer.with("retry-after", wait.max(1).to_string())
    }
}

/// One identifier of a new order: `dns` (lower-cased, a well-formed name, a wildcard only
/// as its whole first label) or `ip` (RFC 8738, the address in its canonical form).
fn identifier(v: &Value) -> Result<(String, String), Problem> {
    let (kind, value) = (v["type"].as_str(), v["value"].as_str());
    match (kind, value) {
        (Some("dns"), Some(name)) => {
            let name = name.to_ascii_lowercase();
            let base = name.strip_prefix("*.").unwrap_or(&name);
            let ok = dns_name::check(base, dns_name::Syntax::HOST).is_ok();
            if !ok || base.parse::<IpAddr>().is_ok() {
                return Err(Problem::new(
                    "rejectedIdentifier",
                    400,
                    format!("{name:?} is not a DNS name this CA issues for"),
                ));
            }
            Ok(("dns".into(), name))
        }
        (Some("ip"), Some(addr)) => addr
            .parse::<IpAddr>()
            .map(|a| ("ip".to_string(), a.to_string()))
            .map_err(|_| Problem::new("malformed", 400, format!("{addr:?} is not an IP address"))),
        (Some(other), _) => Err(Problem::new(
            "unsupportedIdentifier",
            400,
            format!("identifier type {other} is not supported (dns, ip)"),
        )),
        _ => Err(Problem::new(
            "malformed",
            400,
            "an identifier needs a type and a value",
        )),
    }
}

fn order_time(s: &str) -> Result<i64, Problem> {
    Time::parse_rfc3339(s)
        .map(|t| t.unix)
        .ok_or_else(|| Problem::new("malformed", 400, format!("{s:?} is not an RFC 3339 time")))
}
