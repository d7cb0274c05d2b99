//! The ACME resources (RFC 8555 §7): one [`AcmeHandler`] per worker of the HTTP layer,
//! each with its own connections to `acme.db` and the CA's records. Every POST is a JWS
//! checked for its URL, its nonce (used once, across workers and processes) and its
//! signature before anything else is read.

mod account;
mod authz;
mod cert;
mod directory;
mod finalize;
mod order;
mod renewal;
mod signed;

use crate::ca::Ca;
use crate::config::AcmeConfig;
use crate::problem::Problem;
use crate::store::AcmeStore;
use pkit_ca::store::CaStore;
use pkit_der::Time;
use pkit_mtc::store::LogStore;
use pkit_serve::{Body, Clock, Handler, Method, Reply, Request};
use pkit_x509::backend::Backend;
use serde_json::{json, Value};
use std::sync::mpsc::Sender;
use std::sync::Arc;

/// One worker's ACME server.
pub struct AcmeHandler {
    /// How the server runs, shared by every worker.
    pub config: Arc<AcmeConfig>,
    /// The CA certificates are issued from, shared by every worker.
    pub ca: Arc<Ca>,
    /// This worker's connection to the ACME state.
    pub db: Box<dyn AcmeStore>,
    /// This worker's connection to the CA's records, where issued certificates and
    /// revocations are recorded.
    pub ca_store: Box<dyn CaStore>,
    /// Challenges to validate, by id, for the validator threads.
    pub validate: Sender<i64>,
    /// The crypto backend JWS and CSR signatures are verified with.
    pub backend: &'static Backend,
    /// The time requests are judged at.
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
            "route": "acme",
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
            body: body.into(),
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

/// The resources answered to POST (JWS) requests.
enum Posted {
    NewAccount,
    NewOrder,
    Revoke,
    KeyChange,
    Account,
    Finalize,
    Order,
    Authz,
    Challenge,
    Certificate,
}

/// Which POST resource `path` is, if any: the one table both a POST's dispatch and a
/// GET's answer (405 for a resource fetched with POST-as-GET, 404 for nothing) go by.
fn posted(path: &str) -> Option<Posted> {
    Some(match path {
        "/new-account" => Posted::NewAccount,
        "/new-order" => Posted::NewOrder,
        "/revoke-cert" => Posted::Revoke,
        "/key-change" => Posted::KeyChange,
        p if p.starts_with("/acct/") => Posted::Account,
        p if p.starts_with("/order/") && p.ends_with("/finalize") => Posted::Finalize,
        p if p.starts_with("/order/") => Posted::Order,
        p if p.starts_with("/authz/") => Posted::Authz,
        p if p.starts_with("/chall/") => Posted::Challenge,
        p if p.starts_with("/cert/") => Posted::Certificate,
        _ => return None,
    })
}

fn id_of(path: &str, prefix: &str) -> Option<i64> {
    path.strip_prefix(prefix)?.parse().ok()
}

impl AcmeHandler {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.config.base_url)
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
            (p, true) if posted(p).is_none() => {
                return Err(Problem::new("malformed", 404, "no such resource"))
            }
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
        match posted(path) {
            Some(Posted::NewAccount) => self.new_account(signed),
            Some(Posted::NewOrder) => self.new_order(signed),
            Some(Posted::Revoke) => self.revoke(signed),
            Some(Posted::KeyChange) => self.key_change(signed),
            Some(Posted::Account) => self.account(signed, path),
            Some(Posted::Finalize) => self.finalize(signed, path),
            Some(Posted::Order) => self.order(signed, path),
            Some(Posted::Authz) => self.authz(signed, path),
            Some(Posted::Challenge) => self.challenge(signed, path),
            Some(Posted::Certificate) => self.certificate(signed, path),
            None => Err(Problem::new("malformed", 404, "no such resource")),
        }
    }
}
