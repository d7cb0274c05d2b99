//! The ACME resources (RFC 8555 §7): one [`AcmeHandler`] per worker of the HTTP layer,
//! each with its own connections to `acme.db` and the CA's records. Every POST is a JWS
//! checked for its URL, its nonce (used once, across workers and processes) and its
//! signature before anything else is read.

use crate::ari::CertId;
use crate::finalize::{self, Ca};
use crate::jose::{self, Jwk, Jws, Signer};
use crate::problem::Problem;
use crate::store::{AcmeStore, Authz, Challenge, Created, NewAuthz, Order, Replacing};
use crate::{AcmeConfig, Issues};
use pkit_ca::store::CaStore;
use pkit_der::Time;
use pkit_mtc::store::{CertKind, LogStore};
use pkit_serve::http::{Body, Clock, Handler, Method, Reply, Request};
use pkit_x509::backend::Backend;
use serde_json::{json, Value};
use std::net::IpAddr;
use std::sync::mpsc::Sender;
use std::sync::Arc;

/// One worker's ACME server.
pub struct AcmeHandler {
    pub config: Arc<AcmeConfig>,
    pub ca: Arc<Ca>,
    pub db: Box<dyn AcmeStore>,
    pub ca_store: Box<dyn CaStore>,
    /// Challenges to validate, by id, for the validator threads.
    pub validate: Sender<i64>,
    pub backend: &'static Backend,
    pub clock: Clock,
    /// The key every server on the CA MACs its nonces with ([`crate::nonce`]).
    nonce_key: Vec<u8>,
    /// The MTC CA's log, with [`AcmeConfig::mtc`] ([`AcmeHandler::with_mtc`]).
    mtc: Option<Box<dyn LogStore>>,
}

/// What a resource answers before the common headers are added.
struct Answer {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    headers: Vec<(&'static str, String)>,
}

type Outcome = Result<Answer, Problem>;

fn json_answer(status: u16, v: &Value) -> Answer {
    Answer {
        status,
        content_type: "application/json",
        body: serde_json::to_vec_pretty(v).unwrap_or_default(),
        headers: Vec::new(),
    }
}

impl Answer {
    fn with(mut self, name: &'static str, value: String) -> Answer {
        self.headers.push((name, value));
        self
    }
}

fn time(unix: i64) -> String {
    Time { unix }.to_string()
}

/// A verified request: who sent it and what.
struct Signed {
    jws: Jws,
    /// The account, for a `kid` JWS.
    account: Option<crate::store::Account>,
}

impl Handler for AcmeHandler {
    fn handle(&mut self, rq: Request<'_>) -> Reply {
        let path = rq.target.split('?').next().unwrap_or("/").to_string();
        let outcome = self.route(&rq, &path);
        let now = self.clock.now().unix;
        let (status, content_type, body, mut headers, problem) = match outcome {
            Ok(a) => (a.status, a.content_type, a.body, a.headers, None),
            Err(p) => {
                let body = p.body();
                // rateLimited says when to come back (RFC 8555 §6.6).
                let headers = p
                    .retry_after
                    .map(|s| vec![("retry-after", s.to_string())])
                    .unwrap_or_default();
                (
                    p.status,
                    "application/problem+json",
                    body,
                    headers,
                    Some(p.kind),
                )
            }
        };
        // Every answer carries a fresh nonce (§6.5) and the directory link (§7.1).
        if let Ok(n) = self.new_nonce(now) {
            headers.push(("replay-nonce", n));
        }
        headers.push((
            "link",
            format!("<{}/directory>;rel=\"index\"", self.config.base_url),
        ));
        let log = vec![json!({
            "event": "request",
            "method": rq.method.as_str(),
            "path": path,
            "status": status,
            "peer": rq.peer.to_string(),
            "problem": problem,
            "us": rq.received.elapsed().as_micros() as u64,
        })];
        Reply {
            status,
            content_type,
            headers: &[("cache-control", "no-store")],
            made_headers: headers,
            body,
            log,
        }
    }
}

impl AcmeHandler {
    /// A worker's handler; the nonce key is read from (or made in) the state.
    pub fn new(
        config: Arc<AcmeConfig>,
        ca: Arc<Ca>,
        db: Box<dyn AcmeStore>,
        ca_store: Box<dyn CaStore>,
        validate: Sender<i64>,
        backend: &'static Backend,
        clock: Clock,
    ) -> Result<AcmeHandler, crate::store::StoreError> {
        let mut fresh = [0u8; 32];
        pkit_ca::random_bytes(&mut fresh).map_err(|e| crate::store::StoreError(e.to_string()))?;
        let nonce_key = db.nonce_key(&fresh)?;
        Ok(AcmeHandler {
            config,
            ca,
            db,
            ca_store,
            validate,
            backend,
            clock,
            nonce_key,
            mtc: None,
        })
    }

    /// This worker's connection to the MTC CA's log, for a server with
    /// [`AcmeConfig::mtc`].
    pub fn with_mtc(mut self, log: Box<dyn LogStore>) -> AcmeHandler {
        self.mtc = Some(log);
        self
    }
}

/// Seconds after which an order claimed for finalization, with no certificate and no MTC
/// entry, was abandoned by a server that stopped: finalizing takes milliseconds.
const ABANDONED: i64 = 300;

fn id_of(path: &str, prefix: &str) -> Option<i64> {
    path.strip_prefix(prefix)?.parse().ok()
}

impl AcmeHandler {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.config.base_url)
    }

    fn new_nonce(&self, now: i64) -> Result<String, Problem> {
        crate::nonce::make(&self.nonce_key, now).map_err(|e| Problem::server(e.to_string()))
    }

    fn route(&mut self, rq: &Request<'_>, path: &str) -> Outcome {
        let get = *rq.method == Method::GET || *rq.method == Method::HEAD;
        match (path, get) {
            ("/directory", true) => return Ok(json_answer(200, &self.directory())),
            ("/new-nonce", true) => {
                // §7.2: 200 to HEAD, 204 to GET; the nonce is added to every answer.
                let status = if *rq.method == Method::HEAD { 200 } else { 204 };
                return Ok(Answer {
                    status,
                    content_type: "application/json",
                    body: Vec::new(),
                    headers: Vec::new(),
                });
            }
            (p, true) if p.starts_with("/renewal-info/") => return self.renewal_info(p),
            (_, true) => {
                return Err(Problem::new(
                    "malformed",
                    405,
                    "resources other than the directory, nonces and renewal info are \
                     fetched with POST-as-GET",
                ))
            }
            _ => {}
        }
        if *rq.method != Method::POST {
            return Err(Problem::new("malformed", 405, "method not allowed"));
        }
        if rq
            .content_type
            .map(|c| c.split(';').next().unwrap_or("").trim())
            != Some("application/jose+json")
        {
            return Err(Problem::new(
                "malformed",
                415,
                "requests are application/jose+json",
            ));
        }
        let body = match &rq.body {
            Body::Read(b) => b.clone(),
            Body::TooLarge => {
                return Err(Problem::new("malformed", 413, "the request is too large"))
            }
            _ => {
                return Err(Problem::new(
                    "malformed",
                    400,
                    "the request body was not read whole",
                ))
            }
        };
        let signed = self.verify(&body, path)?;
        match path {
            "/new-account" => self.new_account(signed),
            "/new-order" => self.new_order(signed),
            "/revoke-cert" => self.revoke(signed),
            "/key-change" => self.key_change(signed),
            p if p.starts_with("/acct/") => self.account(signed, p),
            p if p.starts_with("/order/") && p.ends_with("/finalize") => self.finalize(signed, p),
            p if p.starts_with("/order/") => self.order(signed, p),
            p if p.starts_with("/authz/") => self.authz(signed, p),
            p if p.starts_with("/chall/") => self.challenge(signed, p),
            p if p.starts_with("/cert/") => self.certificate(signed, p),
            _ => Err(Problem::new("malformed", 404, "no such resource")),
        }
    }

    fn directory(&self) -> Value {
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

    /// §6.2–6.5: the URL the JWS names is this one, its nonce is fresh, and its signature
    /// verifies with its `jwk` or its account's key.
    fn verify(&mut self, body: &[u8], path: &str) -> Result<Signed, Problem> {
        let jws = Jws::parse(body).map_err(Problem::jose)?;
        let now = self.clock.now().unix;
        if jws.url != self.url(path) {
            return Err(Problem::new(
                "unauthorized",
                401,
                format!("the JWS is for {}, not {}", jws.url, self.url(path)),
            ));
        }
        let nonce = jws
            .nonce
            .as_deref()
            .ok_or_else(|| Problem::new("badNonce", 400, "the JWS has no nonce"))?;
        let bad = || {
            Problem::new(
                "badNonce",
                400,
                "the nonce was not issued here, has expired or was used already",
            )
        };
        let made = crate::nonce::made_at(&self.nonce_key, nonce, now).ok_or_else(bad)?;
        // One spend in 64 (by the nonce's own random first character) clears out the
        // expired ones.
        let prune = nonce.as_bytes()[0] == b'A';
        if !self
            .db
            .spend_nonce(nonce, made, now, prune)
            .map_err(Problem::db)?
        {
            return Err(bad());
        }
        let uses_jwk = matches!(path, "/new-account" | "/revoke-cert");
        match &jws.signer {
            Signer::Jwk(jwk) => {
                if !uses_jwk {
                    return Err(Problem::new(
                        "malformed",
                        400,
                        "this resource wants a JWS signed by an account (\"kid\")",
                    ));
                }
                jws.verify(self.backend, &jwk.spki).map_err(Problem::jose)?;
                Ok(Signed { jws, account: None })
            }
            Signer::Kid(kid) => {
                if path == "/new-account" {
                    return Err(Problem::new(
                        "malformed",
                        400,
                        "newAccount is signed with the new key (\"jwk\"), not an account",
                    ));
                }
                let account = kid
                    .strip_prefix(&self.url("/acct/"))
                    .and_then(|id| id.parse().ok())
                    .map(|id| self.db.account(id))
                    .transpose()
                    .map_err(Problem::db)?
                    .flatten()
                    .ok_or_else(|| {
                        Problem::new("accountDoesNotExist", 400, format!("no account {kid}"))
                    })?;
                jws.verify(self.backend, &account.spki)
                    .map_err(Problem::jose)?;
                if account.status != "valid" {
                    return Err(Problem::new(
                        "unauthorized",
                        401,
                        format!("the account is {}", account.status),
                    ));
                }
                Ok(Signed {
                    jws,
                    account: Some(account),
                })
            }
        }
    }

    fn account_json(&self, a: &crate::store::Account) -> Value {
        json!({
            "status": a.status,
            "contact": serde_json::from_str::<Value>(&a.contact).unwrap_or(json!([])),
            "orders": self.url(&format!("/acct/{}/orders", a.id)),
            "createdAt": time(a.created),
        })
    }

    fn new_account(&mut self, s: Signed) -> Outcome {
        let Signer::Jwk(jwk) = &s.jws.signer else {
            unreachable!("verify lets only a jwk through to newAccount")
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

    fn account(&mut self, s: Signed, path: &str) -> Outcome {
        let a = s.account.as_ref().expect("kid");
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

    fn key_change(&mut self, s: Signed) -> Outcome {
        let a = s.account.expect("kid");
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
            .expect("account");
        Ok(json_answer(200, &self.account_json(&a)))
    }

    fn new_order(&mut self, s: Signed) -> Outcome {
        let a = s.account.expect("kid");
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
        if ids.len() > crate::MAX_IDENTIFIERS {
            return Err(Problem::new(
                "rejectedIdentifier",
                400,
                format!("at most {} identifiers in an order", crate::MAX_IDENTIFIERS),
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
                // §8.4: a wildcard is proven by DNS only; an IP address not by DNS (RFC 8738 §7).
                let kinds: &[&str] = match (kind.as_str(), wildcard) {
                    ("dns", true) => &["dns-01"],
                    ("dns", false) => &["http-01", "dns-01", "tls-alpn-01"],
                    _ => &["http-01", "tls-alpn-01"],
                };
                for k in kinds {
                    let mut t = [0u8; 32];
                    pkit_ca::random_bytes(&mut t).map_err(|e| Problem::server(e.to_string()))?;
                    challenges.push((k.to_string(), jose::b64(&t)));
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
    fn forbidden_identifiers(&self, listed: &[Value]) -> Result<(), Problem> {
        let mut refused: Vec<(&Value, String)> = Vec::new();
        for id in listed {
            let value = id["value"].as_str().unwrap_or_default();
            let text = match id["type"].as_str() {
                Some("ip") => format!("IP:{value}"),
                _ => format!("DNS:{value}"),
            };
            let why = match pkit_ca::san::parse_san(&text) {
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

    /// A new order's `replaces` (RFC 9773 §5): the ARI CertID of a certificate this
    /// server issued to this account, for at least one of the order's identifiers. That
    /// no other order replaces it already is for the store to decide, at creation, once
    /// the orders that do have had their status brought up to date (one past its expiry
    /// or with a failed authorization is invalid, and does not count).
    fn replaced(
        &mut self,
        a: &crate::store::Account,
        p: &Value,
        listed: &[Value],
    ) -> Result<Option<Replacing>, Problem> {
        let given = match p.get("replaces") {
            None | Some(Value::Null) => return Ok(None),
            Some(v) => v.as_str().unwrap_or_default(),
        };
        let id = CertId::parse(given).ok_or_else(|| {
            Problem::new(
                "malformed",
                400,
                format!(
                    "replaces {given:?}: expected a certificate's ARI identifier, base64url \
                     AKI keyIdentifier \".\" base64url serial (RFC 9773 §4.1)"
                ),
            )
        })?;
        let unknown = || {
            Problem::new(
                "malformed",
                400,
                format!("replaces {given}: this server issued no such certificate"),
            )
        };
        let serial = pkit_der::hex(pkit_der::integer::unsigned_bytes(&id.serial));
        let issued = self
            .db
            .cert(&serial)
            .map_err(Problem::db)?
            .ok_or_else(unknown)?;
        let der = leaf_der(&issued.chain_pem)
            .ok_or_else(|| Problem::server(format!("certificate {serial}: no PEM recorded")))?;
        let cert = pkit_x509::cert::Certificate::from_der(&der)
            .map_err(|e| Problem::server(format!("certificate {serial}: {e}")))?;
        // The serial is this CA's; so must the key identifier be. A certificate without
        // one (a Merkle Tree Certificate) is named by its serial, as renewal info names it.
        let aki = match cert.extension_value(&pkit_der::oid_registry::CE_AUTHORITY_KEY_ID) {
            Some(pkit_x509::ext::ExtensionValue::AuthorityKeyIdentifier(aki)) => {
                aki.key_identifier.map(<[u8]>::to_vec)
            }
            _ => None,
        };
        if aki.as_ref().is_some_and(|k| *k != id.key_id) {
            return Err(unknown());
        }
        if issued.account_id != a.id {
            return Err(Problem::new(
                "unauthorized",
                403,
                format!("replaces {given}: that certificate was issued to another account"),
            ));
        }
        let old = self
            .db
            .order(issued.order_id)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::server(format!("certificate {serial}: its order vanished")))?;
        let old: Vec<Value> = serde_json::from_str(&old.identifiers).unwrap_or_default();
        if !listed.iter().any(|i| old.contains(i)) {
            return Err(Problem::new(
                "malformed",
                400,
                format!("replaces {given}: the order names none of that certificate's identifiers"),
            ));
        }
        // Recorded as the certificate gives it, so that two spellings of one serial are
        // one replacement.
        let cert_id = CertId {
            key_id: aki.unwrap_or(id.key_id),
            serial: cert.serial.to_vec(),
        }
        .to_string();
        for o in self.db.orders_replacing(&cert_id).map_err(Problem::db)? {
            if o.status != "invalid" {
                self.refreshed_order(o.id)?;
            }
        }
        Ok(Some(Replacing {
            cert_id,
            serial: issued.serial,
        }))
    }

    /// An order with its status moved on by its authorizations (§7.1.6).
    fn refreshed_order(&mut self, id: i64) -> Result<Order, Problem> {
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

    fn order_json(&self, o: &Order) -> Result<Value, Problem> {
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

    fn own_order(&mut self, s: &Signed, id: Option<i64>) -> Result<Order, Problem> {
        let a = s.account.as_ref().expect("kid");
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

    fn order(&mut self, s: Signed, path: &str) -> Outcome {
        let o = self.own_order(&s, id_of(path, "/order/"))?;
        let answer = json_answer(200, &self.order_json(&o)?);
        Ok(self.poll_later(&o, answer))
    }

    /// A processing order tells its client when to look again (§7.4): an MTC one at the
    /// next checkpoint.
    fn poll_later(&self, o: &Order, answer: Answer) -> Answer {
        if o.status != "processing" {
            return answer;
        }
        let wait = match (&self.config.mtc, o.mtc_index) {
            (Some(m), Some(_)) => m.checkpoint_every,
            _ => 1,
        };
        answer.with("retry-after", wait.max(1).to_string())
    }

    /// The MTC log, for an order finalized on it.
    fn mtc_log(&mut self) -> Result<(&crate::mtc::MtcLog, &mut dyn LogStore), Problem> {
        match (&self.config.mtc, self.mtc.as_deref_mut()) {
            (Some(m), Some(store)) => Ok((m, store)),
            _ => Err(Problem::server(
                "this server has no MTC CA (start it with --mtc)",
            )),
        }
    }

    /// An MTC order still processing: made valid with its standalone certificate once a
    /// checkpoint covers its entry, else as it was.
    fn mtc_made(&mut self, o: Order) -> Result<Order, Problem> {
        let now = self.clock.now().unix;
        let (log, store) = self.mtc_log()?;
        let index = log
            .entry_of(&o)?
            .ok_or_else(|| Problem::server("the order's log entry is not recorded"))?;
        let serial = crate::mtc::serial_hex(log, index)?;
        let Some(der) =
            crate::mtc::certificate(store, log, index, CertKind::Standalone, now.max(0) as u64)?
        else {
            return Ok(o);
        };
        let cert = pkit_x509::cert::Certificate::from_der(&der)
            .map_err(|e| Problem::server(format!("the MTC certificate made: {e}")))?;
        let (not_before, not_after) = cert
            .validity()
            .map_err(|e| Problem::server(format!("the MTC certificate made: {e}")))?;
        let issued = crate::store::IssuedCert {
            serial,
            order_id: o.id,
            account_id: o.account_id,
            chain_pem: crate::mtc::chain_pem(log, &der),
            not_before: not_before.unix,
            not_after: not_after.unix,
            revoked: false,
        };
        // Another server may have made it at the same moment: then its record stands.
        self.db.complete_order(&o, &issued).map_err(Problem::db)?;
        self.db
            .order(o.id)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::new("malformed", 404, "no such order"))
    }

    fn authz_json(&self, a: &Authz, challenges: &[Challenge]) -> Value {
        let value = if a.wildcard {
            format!("*.{}", a.id_value)
        } else {
            a.id_value.clone()
        };
        let mut v = json!({
            "status": a.status,
            "expires": time(a.expires),
            "identifier": {"type": a.id_type, "value": value},
            "challenges": challenges.iter().map(|c| self.challenge_json(c)).collect::<Vec<_>>(),
        });
        if a.wildcard {
            v["wildcard"] = true.into();
            v["identifier"]["value"] = a.id_value.clone().into();
        }
        v
    }

    fn challenge_json(&self, c: &Challenge) -> Value {
        let mut v = json!({
            "type": c.kind,
            "url": self.url(&format!("/chall/{}", c.id)),
            "token": c.token,
            "status": c.status,
        });
        if let Some(t) = c.validated {
            v["validated"] = time(t).into();
        }
        if let Some(e) = &c.error {
            v["error"] = serde_json::from_str(e).unwrap_or(Value::Null);
        }
        v
    }

    fn own_authz(&self, s: &Signed, id: Option<i64>) -> Result<Authz, Problem> {
        let a = s.account.as_ref().expect("kid");
        let z = id
            .map(|id| self.db.authz(id))
            .transpose()
            .map_err(Problem::db)?
            .flatten()
            .ok_or_else(|| Problem::new("malformed", 404, "no such authorization"))?;
        if z.account_id != a.id {
            return Err(Problem::new(
                "unauthorized",
                403,
                "not this account's authorization",
            ));
        }
        Ok(z)
    }

    fn authz(&mut self, s: Signed, path: &str) -> Outcome {
        let mut z = self.own_authz(&s, id_of(path, "/authz/"))?;
        if let Some(p) = s.jws.json().map_err(Problem::jose)? {
            if p["status"] == json!("deactivated") {
                if !matches!(z.status.as_str(), "pending" | "valid") {
                    return Err(Problem::new(
                        "malformed",
                        400,
                        format!(
                            "an authorization that is {} cannot be deactivated",
                            z.status
                        ),
                    ));
                }
                self.db
                    .set_authz_status(z.id, "deactivated")
                    .map_err(Problem::db)?;
                z.status = "deactivated".into();
            }
        }
        let ch = self.db.challenges(z.id).map_err(Problem::db)?;
        let mut a = json_answer(200, &self.authz_json(&z, &ch));
        if ch.iter().any(|c| c.status == "processing") {
            a = a.with("retry-after", "1".into());
        }
        Ok(a)
    }

    fn challenge(&mut self, s: Signed, path: &str) -> Outcome {
        let id = id_of(path, "/chall/");
        let c = id
            .map(|id| self.db.challenge(id))
            .transpose()
            .map_err(Problem::db)?
            .flatten()
            .ok_or_else(|| Problem::new("malformed", 404, "no such challenge"))?;
        let z = self.own_authz(&s, Some(c.authz_id))?;
        // A POST with a payload ({}) asks for validation (§7.5.1); POST-as-GET only looks.
        let asks = !s.jws.payload.is_empty();
        if asks && z.expires <= self.clock.now().unix {
            return Err(Problem::new(
                "malformed",
                400,
                "the authorization has expired",
            ));
        }
        let c = if asks
            && z.status == "pending"
            && self.db.start_challenge(c.id).map_err(Problem::db)?
        {
            self.validate
                .send(c.id)
                .map_err(|_| Problem::server("the validators have stopped"))?;
            self.db.challenge(c.id).map_err(Problem::db)?.unwrap_or(c)
        } else {
            c
        };
        let mut a = json_answer(200, &self.challenge_json(&c)).with(
            "link",
            format!("<{}>;rel=\"up\"", self.url(&format!("/authz/{}", z.id))),
        );
        // As the authorization says (§8.2): lego waits 5 s before its first look
        // without it, where a validation takes milliseconds.
        if c.status == "processing" {
            a = a.with("retry-after", "1".into());
        }
        Ok(a)
    }

    fn finalize(&mut self, s: Signed, path: &str) -> Outcome {
        let id = path
            .strip_suffix("/finalize")
            .and_then(|p| id_of(p, "/order/"));
        let o = self.own_order(&s, id)?;
        if o.status != "ready" {
            return Err(Problem::new(
                "orderNotReady",
                403,
                format!("the order is {}, not ready", o.status),
            ));
        }
        let p = s.jws.json().map_err(Problem::jose)?.unwrap_or(json!({}));
        let csr = p["csr"]
            .as_str()
            .and_then(jose::unb64)
            .ok_or_else(|| Problem::new("badCSR", 400, "\"csr\" must be a base64url DER CSR"))?;
        // The proof must still stand: every authorization valid and unexpired (a reused
        // one may expire before the order, and any may be deactivated, §7.5.2).
        let now = self.clock.now().unix;
        let authzs = self.db.order_authzs(o.id).map_err(Problem::db)?;
        if authzs
            .iter()
            .any(|z| z.status != "valid" || z.expires <= now)
        {
            self.db
                .advance_order(o.id, "ready", "invalid")
                .map_err(Problem::db)?;
            return Err(Problem::new(
                "orderNotReady",
                403,
                "an authorization of the order is no longer valid",
            ));
        }
        // CAA, checked when each authorization was validated, stands 8 hours (BR
        // §3.2.2.8): a reused one validated before that is checked again. Like the CSR,
        // before the order is claimed: a refusal leaves it ready, to finalize once the
        // records allow it.
        crate::caa::recheck(self.db.as_ref(), &self.config, &authzs, now)?;
        // Checked before the order is claimed, so a bad CSR leaves it ready to retry.
        let checked = finalize::check_csr(&csr, &o, &self.ca, self.backend)?;
        if !self.db.claim_order(o.id, now).map_err(Problem::db)? {
            return Err(Problem::new(
                "orderNotReady",
                403,
                "the order is being finalized already",
            ));
        }
        if let (Issues::Mtc, days) = self.config.issues(o.profile.as_deref()) {
            return self.finalize_mtc(o, checked, days.unwrap_or(1));
        }
        match finalize::issue(
            &self.ca,
            self.ca_store.as_mut(),
            &self.config,
            &o,
            checked,
            self.clock.now(),
        ) {
            Ok(cert) => {
                if let Err(e) = self.db.complete_order(&o, &cert).and_then(|done| {
                    done.then_some(()).ok_or_else(|| {
                        crate::store::StoreError("the order was no longer processing".into())
                    })
                }) {
                    // Signed and in the CA's records, but not in the ACME state: the order
                    // says which certificate it was, rather than stay processing.
                    let p = Problem::server(format!(
                        "certificate {} was issued but could not be recorded for the order: {e}",
                        cert.serial
                    ));
                    let _ = self
                        .db
                        .set_order_status(o.id, "invalid", Some(&p.json().to_string()));
                    return Err(p);
                }
            }
            Err(p) => {
                self.db
                    .set_order_status(o.id, "invalid", Some(&p.json().to_string()))
                    .map_err(Problem::db)?;
                return Err(p);
            }
        }
        let o = self.refreshed_order(o.id)?;
        Ok(json_answer(200, &self.order_json(&o)?)
            .with("location", self.url(&format!("/order/{}", o.id))))
    }

    /// An MTC order claimed: its entry appended to the log, the order left processing
    /// until a checkpoint covers it ([`crate::mtc`]).
    fn finalize_mtc(&mut self, o: Order, key: finalize::CheckedCsr, days: u32) -> Outcome {
        let now = self.clock.now();
        let not_before = o.not_before.map_or(now, |t| Time { unix: t });
        let not_after = o.not_after.map_or_else(
            || not_before.plus_seconds(i64::from(days) * 86_400),
            |t| Time { unix: t },
        );
        let names = finalize::order_names(&o);
        let (log, store) = self.mtc_log()?;
        let log_id = log.log_id();
        let appended = crate::mtc::append(store, log, &names, &key, (not_before, not_after));
        let recorded = appended
            .and_then(|i| i64::try_from(i).map_err(|_| Problem::server("a log index past 2^63")))
            .and_then(|i| self.db.set_order_mtc(o.id, &log_id, i).map_err(Problem::db));
        if let Err(p) = recorded {
            // Not left processing with no entry to wait for.
            self.db
                .set_order_status(o.id, "invalid", Some(&p.json().to_string()))
                .map_err(Problem::db)?;
            return Err(p);
        }
        // Processing, as recorded: the certificate is made when the client looks again
        // after Retry-After (not here, should a checkpoint have come meanwhile).
        let o = self
            .db
            .order(o.id)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::server("the order vanished"))?;
        let answer = json_answer(200, &self.order_json(&o)?)
            .with("location", self.url(&format!("/order/{}", o.id)));
        Ok(self.poll_later(&o, answer))
    }

    fn certificate(&mut self, s: Signed, path: &str) -> Outcome {
        let a = s.account.as_ref().expect("kid");
        let rest = path.strip_prefix("/cert/").unwrap_or("");
        let (serial, landmark) = match rest.strip_suffix("/landmark") {
            Some(serial) => (serial, true),
            None => (rest, false),
        };
        let c = self
            .db
            .cert(serial)
            .map_err(Problem::db)?
            .filter(|c| c.account_id == a.id)
            .ok_or_else(|| Problem::new("malformed", 404, "no such certificate"))?;
        let pem = |body: String, headers| Answer {
            status: 200,
            content_type: "application/pem-certificate-chain",
            body: body.into_bytes(),
            headers,
        };
        // Only a server with an MTC CA looks the order up: an X.509 download stays one
        // query.
        let order = match self.config.mtc {
            Some(_) => self
                .db
                .order(c.order_id)
                .map_err(Problem::db)?
                .filter(|o| o.mtc_index.is_some()),
            None => None,
        };
        let Some(order) = order else {
            if landmark {
                return Err(Problem::new("malformed", 404, "no such certificate"));
            }
            return Ok(pem(c.chain_pem, Vec::new()));
        };
        // An MTC certificate: the landmark-relative one is an alternate (§7.4.2) once an
        // active landmark covers the entry, made when asked for.
        let now = self.clock.now().unix.max(0) as u64;
        let (standalone_url, landmark_url) = (
            self.url(&format!("/cert/{serial}")),
            self.url(&format!("/cert/{serial}/landmark")),
        );
        let (log, store) = self.mtc_log()?;
        let index = log
            .entry_of(&order)?
            .ok_or_else(|| Problem::server("the order's log entry is not recorded"))?;
        if landmark {
            let der = crate::mtc::certificate(store, log, index, CertKind::Landmark, now)?
                .ok_or_else(|| {
                    Problem::new(
                        "malformed",
                        404,
                        "no active landmark covers this certificate's entry yet",
                    )
                })?;
            let up = format!("<{standalone_url}>;rel=\"alternate\"");
            return Ok(pem(crate::mtc::chain_pem(log, &der), vec![("link", up)]));
        }
        let mut headers = Vec::new();
        if crate::mtc::available(store, index, CertKind::Landmark, now)? {
            headers.push(("link", format!("<{landmark_url}>;rel=\"alternate\"")));
        }
        Ok(pem(c.chain_pem, headers))
    }

    fn revoke(&mut self, s: Signed) -> Outcome {
        let p = s
            .jws
            .json()
            .map_err(Problem::jose)?
            .ok_or_else(|| Problem::new("malformed", 400, "revokeCert needs a payload"))?;
        let der = p["certificate"]
            .as_str()
            .and_then(jose::unb64)
            .ok_or_else(|| {
                Problem::new("malformed", 400, "\"certificate\" must be base64url DER")
            })?;
        let reason = match p.get("reason") {
            None => None,
            Some(r) => match r.as_u64() {
                Some(n @ (0..=6 | 8..=10)) => Some(n as u8),
                _ => {
                    return Err(Problem::new(
                        "badRevocationReason",
                        400,
                        "not a CRLReason code pkit accepts",
                    ))
                }
            },
        };
        let cert = pkit_x509::cert::Certificate::from_der(&der).map_err(|e| {
            Problem::new(
                "malformed",
                400,
                format!("the certificate does not parse: {e}"),
            )
        })?;
        let serial = pkit_der::hex(pkit_der::integer::unsigned_bytes(cert.serial));
        let issued = self.db.cert(&serial).map_err(Problem::db)?.ok_or_else(|| {
            Problem::new(
                "malformed",
                404,
                "this server did not issue that certificate",
            )
        })?;
        let mtc = self
            .db
            .order(issued.order_id)
            .map_err(Problem::db)?
            .is_some_and(|o| o.mtc_index.is_some());
        // Before the byte comparison: the landmark-relative certificate has the same
        // serial and other bytes, and gets this answer too.
        if mtc {
            return Err(Problem::new(
                "malformed",
                400,
                "a Merkle Tree Certificate is not revoked one by one: its CA revokes ranges \
                 of serial numbers",
            ));
        }
        // The certificate posted must be the one issued, byte for byte: a forged one with
        // its serial and the poster's key would otherwise pass the key check below.
        if leaf_der(&issued.chain_pem).as_deref() != Some(der.as_slice()) {
            return Err(Problem::new(
                "unauthorized",
                403,
                "that is not the certificate this server issued with this serial",
            ));
        }
        // §7.6: by the account that ordered it, or by the certificate's own key.
        let allowed = match (&s.account, &s.jws.signer) {
            (Some(a), _) => a.id == issued.account_id,
            (None, Signer::Jwk(jwk)) => jwk.spki == cert.spki.raw,
            _ => false,
        };
        if !allowed {
            return Err(Problem::new(
                "unauthorized",
                403,
                "only the account that ordered it or the certificate's key may revoke it",
            ));
        }
        if issued.revoked {
            return Err(Problem::new(
                "alreadyRevoked",
                400,
                "the certificate is revoked already",
            ));
        }
        let raw_serial = pkit_der::integer::unsigned_bytes(cert.serial).to_vec();
        self.ca_store
            .revoke(&raw_serial, self.clock.now().unix, reason)
            .map_err(|e| Problem::server(format!("the CA's records: {e}")))?;
        self.db.mark_revoked(&serial).map_err(Problem::db)?;
        Ok(Answer {
            status: 200,
            content_type: "application/json",
            body: Vec::new(),
            headers: Vec::new(),
        })
    }

    /// RFC 9773: the window in which to renew a certificate, by its ARI identifier
    /// (base64url AKI keyIdentifier "." base64url serial).
    fn renewal_info(&self, path: &str) -> Outcome {
        let id = path.trim_start_matches("/renewal-info/");
        let serial = id
            .split_once('.')
            .and_then(|(_, s)| jose::unb64(s))
            .ok_or_else(|| Problem::new("malformed", 400, "expected AKI.serial, each base64url"))?;
        let serial = pkit_der::hex(pkit_der::integer::unsigned_bytes(&serial));
        let c = self
            .db
            .cert(&serial)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::new("malformed", 404, "no such certificate"))?;
        let (start, end) =
            crate::ari::window(c.not_before, c.not_after, c.revoked, self.clock.now().unix);
        Ok(json_answer(
            200,
            &json!({"suggestedWindow": {"start": time(start), "end": time(end)}}),
        )
        .with("retry-after", "21600".into()))
    }
}

/// The DER of the first certificate of a recorded chain: the one issued.
fn leaf_der(chain_pem: &str) -> Option<Vec<u8>> {
    const END: &str = "-----END CERTIFICATE-----";
    let leaf = chain_pem.find(END).map(|i| &chain_pem[..i + END.len()])?;
    pkit_x509::pem::decode(leaf.as_bytes())
        .and_then(|b| b.ok())
        .map(|b| b.der)
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

/// One identifier of a new order: `dns` (lower-cased, a well-formed name, a wildcard only
/// as its whole first label) or `ip` (RFC 8738, the address in its canonical form).
fn identifier(v: &Value) -> Result<(String, String), Problem> {
    let (kind, value) = (v["type"].as_str(), v["value"].as_str());
    match (kind, value) {
        (Some("dns"), Some(name)) => {
            let name = name.to_ascii_lowercase();
            let base = name.strip_prefix("*.").unwrap_or(&name);
            let ok = !base.is_empty()
                && base.len() <= 253
                && base.split('.').all(|l| {
                    !l.is_empty()
                        && l.len() <= 63
                        && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                        && !l.starts_with('-')
                        && !l.ends_with('-')
                });
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
