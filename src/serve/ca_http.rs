//! `pkit ca serve`'s answers: every URL a CA writes into the certificates it issues,
//! from one server. For each CA: its OCSP responder (GET and POST, RFC 6960 Appendix A,
//! at the path of each `ocsp_urls` entry of its ca.json), its CRL (DER,
//! `application/pkix-crl`, at the path of each `crl_urls` entry; the newest its
//! [`CurrentCrl`] holds), its certificate (DER, `application/pkix-cert`, at the path of
//! each `issuer_urls` entry, RFC 5280 §4.2.2.1). Beside them `/health` (JSON: each CA's
//! CRL number and nextUpdate; 503 when a CRL served is past its nextUpdate) and
//! `/metrics` (Prometheus, [`Metrics`]). With an ACME server, requests on its endpoint go
//! to it.
//!
//! The routes are made once ([`Routes`]) from the URLs; several CAs may share one OCSP
//! URL (the request's CertID says which CA it asks: [`OcspHandler::answers_for`]), but a
//! CRL or certificate path names one thing, so two at one path are refused when the
//! routes are made.

use super::http::{Handler, Method, Reply, Request};
use super::metrics::{self, Metrics};
use super::ocsp_http::OcspHandler;
use hyper::body::Bytes;
use pkit_ca::crl_publish::CurrentCrl;
pub use pkit_ca::pointers::url_path;
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;

/// What a GET of one exact path serves.
enum Static {
    /// A CA's certificate.
    Cert(Arc<[u8]>),
    /// A CA's current CRL (whole, or one shard).
    Crl(Arc<CurrentCrl>),
}

/// One CA as the routes know it.
pub struct CaRoute {
    /// Its name in logs, `/health` and `/metrics` (the CA directory's name).
    pub name: String,
    /// Its CRL as published.
    pub crl: Arc<CurrentCrl>,
}

/// Paths to what answers them, made once for every worker.
pub struct Routes {
    cas: Vec<CaRoute>,
    exact: HashMap<String, Static>,
    /// OCSP path prefixes (without a trailing `/`; empty for the root), longest first,
    /// each with the CAs answering there.
    ocsp: Vec<(String, Vec<usize>)>,
}

/// Why routes could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteError(pub String);

impl std::fmt::Display for RouteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RouteError {}

/// The URLs of one CA, with the certificate and CRL they serve.
pub struct CaUrls {
    /// The CA as routed.
    pub ca: CaRoute,
    /// Its certificate's DER.
    pub cert: Arc<[u8]>,
    /// Its OCSP URLs.
    pub ocsp: Vec<String>,
    /// Its CRL URLs.
    pub crl: Vec<String>,
    /// Its certificate's URLs (caIssuers of what it issues).
    pub issuer: Vec<String>,
    /// Its CRL shards, when it shards them: each one's URLs and CRL.
    pub shards: Vec<(Vec<String>, Arc<CurrentCrl>)>,
}

/// Paths the server answers itself.
pub const OWN: [&str; 2] = ["/health", "/metrics"];

impl Routes {
    /// The routes of these CAs, or why two things would be served at one path.
    pub fn new(cas: Vec<CaUrls>) -> Result<Routes, RouteError> {
        let mut exact: HashMap<String, Static> = HashMap::new();
        let mut owner: HashMap<String, String> = HashMap::new();
        let mut ocsp: Vec<(String, Vec<usize>)> = Vec::new();
        let mut routed = Vec::with_capacity(cas.len());
        for (i, c) in cas.into_iter().enumerate() {
            let name = c.ca.name.clone();
            let whole = c
                .crl
                .iter()
                .map(|u| (u, Static::Crl(Arc::clone(&c.ca.crl))));
            let shards = c.shards.iter().flat_map(|(urls, crl)| {
                urls.iter().map(move |u| (u, Static::Crl(Arc::clone(crl))))
            });
            let certs = c
                .issuer
                .iter()
                .map(|u| (u, Static::Cert(Arc::clone(&c.cert))));
            let statics = whole.chain(shards).chain(certs).collect::<Vec<_>>();
            for (url, what) in statics {
                let path = url_path(url);
                if OWN.contains(&path.as_str()) {
                    return Err(RouteError(format!(
                        "{name}: {url}: the server answers {path} itself"
                    )));
                }
                if let Some(other) = owner.get(&path) {
                    // The same URL twice in one CA's lists is one route.
                    if *other == format!("{name} {url}") {
                        continue;
                    }
                    return Err(RouteError(format!(
                        "{name}: {url} and {other} would be served at the same path {path}"
                    )));
                }
                owner.insert(path.clone(), format!("{name} {url}"));
                exact.insert(path, what);
            }
            for url in &c.ocsp {
                let prefix = url_path(url).trim_end_matches('/').to_string();
                match ocsp.iter_mut().find(|(p, _)| *p == prefix) {
                    Some((_, list)) if list.contains(&i) => {}
                    Some((_, list)) => list.push(i),
                    None => ocsp.push((prefix, vec![i])),
                }
            }
            routed.push(c.ca);
        }
        ocsp.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        Ok(Routes {
            cas: routed,
            exact,
            ocsp,
        })
    }

    /// The CAs, in the order given.
    pub fn cas(&self) -> &[CaRoute] {
        &self.cas
    }

    /// The OCSP prefix a request path falls under, and the rest of the path (from its
    /// `/`, as a GET request's base64 starts).
    fn ocsp_route<'a>(&self, path: &'a str) -> Option<(&[usize], &'a str)> {
        self.ocsp.iter().find_map(|(prefix, cas)| {
            let rest = path.strip_prefix(prefix.as_str())?;
            (rest.is_empty() || rest.starts_with('/')).then_some((cas.as_slice(), rest))
        })
    }
}

/// One worker's answers for the whole server.
pub struct CaHandler {
    /// The routes, shared by every worker.
    pub routes: Arc<Routes>,
    /// The metrics, shared by every worker.
    pub metrics: Arc<Metrics>,
    /// This worker's OCSP responder for each CA, in the order of [`Routes::cas`].
    pub ocsp: Vec<OcspHandler>,
    /// This worker's ACME server and the endpoint it answers on.
    pub acme: Option<(usize, Box<dyn Handler + Send>)>,
}

impl Handler for CaHandler {
    fn handle(&mut self, rq: Request<'_>) -> Reply {
        if let Some((endpoint, acme)) = &mut self.acme {
            if rq.endpoint == *endpoint {
                let reply = acme.handle(rq);
                self.metrics.request("acme", reply.status);
                return reply;
            }
        }
        let (route, reply) = self.route(rq);
        self.metrics.request(route, reply.status);
        reply
    }
}

/// A plain answer with no log line of its own beyond the request's.
fn plain(status: u16, content_type: &'static str, body: impl Into<Bytes>) -> Reply {
    Reply {
        status,
        content_type,
        headers: &[],
        made_headers: Vec::new(),
        body: body.into(),
        log: Vec::new(),
    }
}

impl CaHandler {
    fn route(&mut self, rq: Request<'_>) -> (&'static str, Reply) {
        // The target borrows from the connection, not from `rq`: no copy per request.
        let target = rq.target;
        let path = target.split('?').next().unwrap_or("/");
        let get = *rq.method == Method::GET || *rq.method == Method::HEAD;
        let logged = |route: &'static str, mut reply: Reply, rq: &Request<'_>| {
            reply.log.push(json!({
                "event": "request", "route": route, "method": rq.method.as_str(),
                "path": path, "status": reply.status, "peer": rq.peer.to_string(),
                "us": rq.received.elapsed().as_micros() as u64,
            }));
            (route, reply)
        };
        match (path, get) {
            ("/health", true) => return logged("health", self.health(), &rq),
            ("/metrics", true) => {
                let now = self
                    .ocsp
                    .first()
                    .map_or_else(|| pkit_der::Time::now().unix, |o| o.clock.now().unix);
                let (content_type, body) = metrics::negotiate(&self.metrics, now, rq.accept);
                return logged("metrics", plain(200, content_type, body), &rq);
            }
            _ => {}
        }
        let routes = Arc::clone(&self.routes);
        if let Some(what) = routes.exact.get(path) {
            let (route, reply) = match what {
                _ if !get => ("static", not_allowed()),
                Static::Cert(der) => {
                    let mut r = plain(200, "application/pkix-cert", shared(der));
                    r.headers = &[("cache-control", "public, max-age=86400")];
                    ("ca_issuers", r)
                }
                Static::Crl(crl) => match crl.get() {
                    Some(crl) => {
                        let mut r = plain(200, "application/pkix-crl", shared(&crl.der));
                        // A revocation shows in the next CRL within the publisher's bound:
                        // caches ask again rather than keep this one.
                        r.headers = &[("cache-control", "no-cache")];
                        ("crl", r)
                    }
                    None => ("crl", plain(503, "text/plain", b"no CRL yet\n".to_vec())),
                },
            };
            return logged(route, reply, &rq);
        }
        if let Some((cas, rest)) = routes.ocsp_route(path) {
            let rest = if rest.is_empty() { "/" } else { rest };
            let Some(&first) = cas.first() else {
                return logged("none", not_found(), &rq);
            };
            // Several CAs at one URL: the one whose certificates the request asks about.
            let ca = if cas.len() == 1 {
                first
            } else {
                let sub = Request { target: rest, ..rq };
                let chosen = OcspHandler::request_der(&sub)
                    .and_then(|der| {
                        cas.iter()
                            .copied()
                            .find(|&i| self.ocsp[i].answers_for(&der))
                    })
                    .unwrap_or(first);
                return self.ocsp_answer(chosen, sub);
            };
            let sub = Request { target: rest, ..rq };
            return self.ocsp_answer(ca, sub);
        }
        logged("none", not_found(), &rq)
    }

    fn ocsp_answer(&mut self, ca: usize, rq: Request<'_>) -> (&'static str, Reply) {
        let (reply, outcome) = self.ocsp[ca].respond(&rq);
        self.metrics.ocsp_answer(
            &self.routes.cas[ca].name,
            &outcome.status,
            outcome.signed_in,
        );
        ("ocsp", reply)
    }

    /// Each CA's CRL as served; 503 when one is missing or past its nextUpdate.
    fn health(&self) -> Reply {
        let now = self
            .ocsp
            .first()
            .map_or_else(pkit_der::Time::now, |o| o.clock.now());
        let mut healthy = true;
        let cas: Vec<_> = self
            .routes
            .cas
            .iter()
            .map(|c| match c.crl.get() {
                Some(crl) => {
                    let fresh = now.unix < crl.next_update;
                    healthy &= fresh;
                    json!({"ca": c.name, "crl_number": crl.number,
                           "crl_this_update": pkit_der::Time { unix: crl.this_update }.to_string(),
                           "crl_next_update": pkit_der::Time { unix: crl.next_update }.to_string(),
                           "crl_entries": crl.entries, "crl_fresh": fresh})
                }
                None => {
                    healthy = false;
                    json!({"ca": c.name, "crl_number": null, "crl_fresh": false})
                }
            })
            .collect();
        let body = json!({"status": if healthy { "ok" } else { "stale" }, "cas": cas});
        let mut r = plain(
            if healthy { 200 } else { 503 },
            "application/json",
            serde_json::to_vec_pretty(&body).unwrap_or_default(),
        );
        r.headers = &[("cache-control", "no-store")];
        r
    }
}

/// A body every request shares with the CA's copy: a million-entry CRL is 53 MB, sent
/// to each client without being copied for it.
fn shared(der: &Arc<[u8]>) -> Bytes {
    Bytes::from_owner(Arc::clone(der))
}

fn not_found() -> Reply {
    plain(404, "text/plain", b"not found\n".to_vec())
}

fn not_allowed() -> Reply {
    let mut r = plain(405, "text/plain", b"method not allowed\n".to_vec());
    r.headers = &[("allow", "GET, HEAD")];
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ca(name: &str, ocsp: &[&str], crl: &[&str], issuer: &[&str]) -> CaUrls {
        let s = |v: &[&str]| v.iter().map(|u| u.to_string()).collect();
        CaUrls {
            ca: CaRoute {
                name: name.into(),
                crl: Arc::default(),
            },
            cert: Vec::new().into(),
            ocsp: s(ocsp),
            crl: s(crl),
            issuer: s(issuer),
            shards: Vec::new(),
        }
    }

    #[test]
    fn paths_of_urls() {
        assert_eq!(url_path("http://ca.example"), "/");
        assert_eq!(url_path("http://ca.example:8080/a/b.crl?x#y"), "/a/b.crl");
        assert_eq!(url_path("http://ca.example/"), "/");
    }

    #[test]
    fn routes_refuse_two_things_at_one_path() {
        let ok = Routes::new(vec![
            ca(
                "root",
                &["http://o/"],
                &["http://c/root.crl"],
                &["http://c/root.der"],
            ),
            ca(
                "int",
                &["http://o/"],
                &["http://c/int.crl"],
                &["http://c/int.der"],
            ),
        ])
        .unwrap();
        // One OCSP URL for both: the request picks the CA.
        assert_eq!(ok.ocsp_route("/MEIw"), Some((&[0, 1][..], "/MEIw")));
        let e = Routes::new(vec![
            ca("root", &[], &["http://c/x.crl"], &[]),
            ca("int", &[], &["http://other/x.crl"], &[]),
        ])
        .err()
        .unwrap();
        assert!(e.0.contains("same path /x.crl"), "{e}");
        let e = Routes::new(vec![ca("a", &[], &["http://c/metrics"], &[])])
            .err()
            .unwrap();
        assert!(e.0.contains("answers /metrics itself"), "{e}");
    }

    #[test]
    fn ocsp_prefixes_take_the_longest() {
        let r = Routes::new(vec![
            ca("a", &["http://o/"], &[], &[]),
            ca("b", &["http://o/b"], &[], &[]),
        ])
        .unwrap();
        assert_eq!(r.ocsp_route("/b/MEIw"), Some((&[1][..], "/MEIw")));
        assert_eq!(r.ocsp_route("/b"), Some((&[1][..], "")));
        assert_eq!(r.ocsp_route("/bc"), Some((&[0][..], "/bc")));
    }
}
