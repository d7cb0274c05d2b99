//! The ACME server through the crate's public API: a real CA (a self-signed root made
//! here), the state in SQLite under a temporary directory, and requests handed to an
//! [`AcmeHandler`] as the HTTP layer hands them over. The client's side (JWK, JWS,
//! CSR) is built here with the backend, as any ACME client would; a challenge is
//! validated by recording its outcome in the state, as the validator threads do.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use pkit_acme::{AcmeConfig, AcmeHandler, AcmeStore, Ca, ChallengeType, SqliteAcme};
use pkit_ca::issuer::{self_signed, Issuer};
use pkit_der::Time;
use pkit_openssl as openssl;
use pkit_serve::{Body, Clock, Handler, Method, Reply, Request};
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::PrivateKey;
use pkit_x509::san::parse_san;
use pkit_x509::subject::parse_subject;
use serde_json::{json, Value};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

const BASE: &str = "http://acme.test";
const NAME: &str = "www.example.com";

fn b64(b: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(b)
}

/// A server on a fresh CA and state, and the receiving end of its validation queue.
struct Server {
    handler: AcmeHandler,
    queue: Receiver<i64>,
    /// A second connection to the state: the validators' side.
    state: SqliteAcme,
    _dir: tempfile::TempDir,
}

fn server() -> Server {
    server_gated(pkit_ca::gate::GateMode::Enforce)
}

/// A server whose CA's lint gate runs in `mode`.
fn server_gated(mode: pkit_ca::gate::GateMode) -> Server {
    let be = openssl::backend();
    let dir = tempfile::tempdir().unwrap();
    let now = Time::now();
    let ca_key = be.generate(Algorithm::EcdsaP256).unwrap();
    let ca_name = parse_subject("CN=Flow Test CA").unwrap();
    let ca_der = self_signed(
        &*ca_key,
        &ca_name,
        now.plus_seconds(-3600),
        now.plus_seconds(86_400 * 730),
        None,
    )
    .unwrap();
    let mut issuer = Issuer::new(ca_der.clone(), ca_key).unwrap();
    issuer.gate.mode = mode;
    let ca = Arc::new(Ca {
        issuer,
        chain: vec![ca_der],
    });
    let config = Arc::new(AcmeConfig {
        base_url: BASE.into(),
        http_port: 80,
        tls_port: 443,
        resolver: None,
        order_lifetime: 3600,
        profiles: Vec::new(),
        terms_of_service: None,
        order_rate: None,
        eab_keys: Default::default(),
        mtc: None,
        caa_identity: None,
    });
    let path = dir.path().join("acme.db");
    let db = SqliteAcme::open(&path).unwrap();
    let ca_store = pkit_ca::store::open(&dir.path().join("ca.db")).unwrap();
    let (tx, queue) = channel();
    let handler =
        AcmeHandler::new(config, ca, Box::new(db), ca_store, tx, be, Clock::System).unwrap();
    Server {
        handler,
        queue,
        state: SqliteAcme::open(&path).unwrap(),
        _dir: dir,
    }
}

/// A client: its Ed25519 key (JWS alg EdDSA, RFC 8037) and, once made, its account URL.
struct Client {
    key: Box<dyn PrivateKey>,
    kid: Option<String>,
}

impl Client {
    fn new() -> Client {
        let key = openssl::backend().generate(Algorithm::Ed25519).unwrap();
        Client { key, kid: None }
    }

    fn jwk(&self) -> Value {
        // An Ed25519 SPKI ends with the 32-byte public key.
        let spki = self.key.public_key_der().unwrap();
        json!({"kty": "OKP", "crv": "Ed25519", "x": b64(&spki[spki.len() - 32..])})
    }

    /// A flattened JWS of `payload` (`None`: POST-as-GET) for `url`, signed with
    /// `signer`'s key but naming this client (by `kid` once it has an account).
    fn jws_signed_by(
        &self,
        signer: &Client,
        url: &str,
        nonce: &str,
        payload: Option<&Value>,
    ) -> Vec<u8> {
        let mut header = json!({"alg": "EdDSA", "url": url, "nonce": nonce});
        match &self.kid {
            Some(kid) => header["kid"] = kid.clone().into(),
            None => header["jwk"] = self.jwk(),
        }
        let protected = b64(header.to_string().as_bytes());
        let payload = payload.map_or(String::new(), |p| b64(p.to_string().as_bytes()));
        let signature = signer
            .key
            .sign(format!("{protected}.{payload}").as_bytes())
            .unwrap();
        json!({"protected": protected, "payload": payload, "signature": b64(&signature)})
            .to_string()
            .into_bytes()
    }

    fn jws(&self, url: &str, nonce: &str, payload: Option<&Value>) -> Vec<u8> {
        self.jws_signed_by(self, url, nonce, payload)
    }
}

fn ask(h: &mut AcmeHandler, method: Method, path: &str, body: Vec<u8>) -> Reply {
    h.handle(Request {
        method: &method,
        target: path,
        content_type: Some("application/jose+json"),
        accept: None,
        peer: ([127, 0, 0, 1], 40000).into(),
        body: Body::Read(body.into()),
        endpoint: 0,
        received: Instant::now(),
    })
}

fn header<'a>(r: &'a Reply, name: &str) -> Option<&'a str> {
    r.made_headers
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

fn json_of(r: &Reply) -> Value {
    serde_json::from_slice(&r.body).unwrap()
}

fn nonce(h: &mut AcmeHandler) -> String {
    let r = ask(h, Method::HEAD, "/new-nonce", Vec::new());
    assert_eq!(r.status, 200);
    header(&r, "replay-nonce").unwrap().to_string()
}

/// POST `payload` (or POST-as-GET) to `url` (a full URL or a path) as `c`.
fn post(h: &mut AcmeHandler, c: &Client, url: &str, payload: Option<&Value>) -> Reply {
    let path = url.strip_prefix(BASE).unwrap_or(url).to_string();
    let n = nonce(h);
    let body = c.jws(&format!("{BASE}{path}"), &n, payload);
    ask(h, Method::POST, &path, body)
}

/// A client with an account on `s`.
fn account(s: &mut Server) -> Client {
    let mut c = Client::new();
    let r = post(
        &mut s.handler,
        &c,
        "/new-account",
        Some(&json!({"termsOfServiceAgreed": true, "contact": ["mailto:ops@example.com"]})),
    );
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(json_of(&r)["status"], "valid");
    c.kid = Some(header(&r, "location").unwrap().to_string());
    c
}

#[test]
fn an_order_goes_from_account_to_certificate() {
    let mut s = server();
    order_to_certificate(&mut s);
}

#[test]
fn what_the_gate_let_through_is_on_record_with_the_certificate() {
    let mut s = server_gated(pkit_ca::gate::GateMode::Warn);
    let serial = order_to_certificate(&mut s);
    let records = pkit_ca::store::open(&s._dir.path().join("ca.db")).unwrap();
    let overrides = records.lint_overrides().unwrap();
    let (_, mode, findings) = overrides
        .iter()
        .find(|(sn, _, _)| *sn == serial)
        .expect("the certificate's gate record");
    assert_eq!(mode, "warn");
    assert!(serde_json::from_str::<Value>(findings).unwrap().is_array());
}

/// A new order for [`NAME`] by `c`, checked created (201).
fn order_for_name(h: &mut AcmeHandler, c: &Client) -> Reply {
    let r = post(
        h,
        c,
        "/new-order",
        Some(&json!({"identifiers": [{"type": "dns", "value": NAME}]})),
    );
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    r
}

/// An order for [`NAME`] from a new account through http-01 to its certificate, each
/// step checked; the certificate's serial (its INTEGER's unsigned bytes).
fn order_to_certificate(s: &mut Server) -> Vec<u8> {
    let dir = json_of(&ask(&mut s.handler, Method::GET, "/directory", Vec::new()));
    assert_eq!(dir["newOrder"], format!("{BASE}/new-order"));
    let c = account(s);

    let r = order_for_name(&mut s.handler, &c);
    let order_url = header(&r, "location").unwrap().to_string();
    let order = json_of(&r);
    assert_eq!(order["status"], "pending");

    // The authorization offers every type a plain DNS name may be proven by.
    let authz_url = order["authorizations"][0].as_str().unwrap().to_string();
    let authz = json_of(&post(&mut s.handler, &c, &authz_url, None));
    assert_eq!(authz["identifier"], json!({"type": "dns", "value": NAME}));
    let offered: Vec<ChallengeType> = authz["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|ch| ChallengeType::parse(ch["type"].as_str().unwrap()).unwrap())
        .collect();
    assert_eq!(offered, ChallengeType::ALL);

    // Asking for http-01's validation queues it, once.
    let http = authz["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|ch| ch["type"] == ChallengeType::Http01.as_str())
        .unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    let r = post(&mut s.handler, &c, &http, Some(&json!({})));
    assert_eq!(r.status, 200);
    assert_eq!(json_of(&r)["status"], "processing");
    let id = s.queue.recv_timeout(Duration::from_secs(5)).unwrap();
    let again = post(&mut s.handler, &c, &http, Some(&json!({})));
    assert_eq!(again.status, 200);
    assert!(s.queue.try_recv().is_err(), "a challenge is validated once");

    // The validator's verdict: control proven.
    s.state
        .finish_challenge(id, None, Time::now().unix)
        .unwrap();
    let order = json_of(&post(&mut s.handler, &c, &order_url, None));
    assert_eq!(order["status"], "ready");

    // Finalize with a CSR naming exactly the order's identifier.
    let key = openssl::backend().generate(Algorithm::EcdsaP256).unwrap();
    let csr = pkit_ca::request::encode_csr(
        &*key,
        &parse_subject(&format!("CN={NAME}")).unwrap(),
        &[parse_san(&format!("DNS:{NAME}")).unwrap().der],
    )
    .unwrap();
    let finalize = order["finalize"].as_str().unwrap().to_string();
    let r = post(
        &mut s.handler,
        &c,
        &finalize,
        Some(&json!({"csr": b64(&csr)})),
    );
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let order = json_of(&r);
    assert_eq!(order["status"], "valid");

    // The certificate: for the key in the CSR, naming the identifier, then the CA.
    let cert_url = order["certificate"].as_str().unwrap().to_string();
    let r = post(&mut s.handler, &c, &cert_url, None);
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type, "application/pem-certificate-chain");
    let pem = String::from_utf8(r.body.to_vec()).unwrap();
    assert_eq!(pem.matches("-----BEGIN CERTIFICATE-----").count(), 2);
    const END: &str = "-----END CERTIFICATE-----";
    let first = &pem[..pem.find(END).unwrap() + END.len()];
    let leaf = pkit_x509::der::pem::decode(first.as_bytes()).unwrap();
    let cert = pkit_x509::cert::Certificate::from_der(&leaf.der).unwrap();
    assert_eq!(cert.spki.raw, key.public_key_der().unwrap().as_slice());
    let serial = pkit_der::integer::unsigned_bytes(cert.serial).to_vec();
    let issued = s
        .state
        .cert(&pkit_der::hex(&serial))
        .unwrap()
        .expect("recorded");
    assert!(!issued.revoked);
    serial
}

/// An order's notBefore/notAfter come from the client: one that is not RFC 3339 — text
/// that is not ASCII where the offset's colon stands, a sign inside the offset — is a
/// `malformed` problem, and the server answers the next request as before.
#[test]
fn a_hostile_order_window_is_malformed() {
    let mut s = server();
    let c = account(&mut s);
    for bad in ["2024-01-01T00:00:00+0\u{e9}00", "2024-01-01T00:00:00++1:00"] {
        for field in ["notBefore", "notAfter"] {
            let r = post(
                &mut s.handler,
                &c,
                "/new-order",
                Some(&json!({"identifiers": [{"type": "dns", "value": NAME}], field: bad})),
            );
            assert_eq!(
                r.status,
                400,
                "{field} {bad}: {}",
                String::from_utf8_lossy(&r.body)
            );
            assert_eq!(json_of(&r)["type"], "urn:ietf:params:acme:error:malformed");
        }
    }
    order_for_name(&mut s.handler, &c);
}

/// A GET of a resource that is fetched with POST-as-GET is told so (405); a GET of a
/// path the server has nothing at is not found (404).
#[test]
fn a_get_tells_a_post_resource_from_nothing() {
    let mut s = server();
    for (path, status) in [
        ("/nothing", 404),
        ("/", 404),
        ("/new-orderx", 404),
        ("/new-order", 405),
        ("/order/1", 405),
        ("/cert/1", 405),
        ("/directory", 200),
    ] {
        let r = ask(&mut s.handler, Method::GET, path, Vec::new());
        assert_eq!(
            r.status,
            status,
            "{path}: {}",
            String::from_utf8_lossy(&r.body)
        );
    }
}

#[test]
fn a_nonce_is_spent_once() {
    let mut s = server();
    let c = Client::new();
    let n = nonce(&mut s.handler);
    let url = format!("{BASE}/new-account");
    let payload = json!({"termsOfServiceAgreed": true});
    let first = ask(
        &mut s.handler,
        Method::POST,
        "/new-account",
        c.jws(&url, &n, Some(&payload)),
    );
    assert_eq!(first.status, 201);
    let replayed = ask(
        &mut s.handler,
        Method::POST,
        "/new-account",
        c.jws(&url, &n, Some(&payload)),
    );
    assert_eq!(replayed.status, 400);
    assert_eq!(
        json_of(&replayed)["type"],
        "urn:ietf:params:acme:error:badNonce"
    );
    // A nonce this server never made is refused the same way.
    let forged = ask(
        &mut s.handler,
        Method::POST,
        "/new-account",
        c.jws(&url, "AAAAAAAAAAAAAAAAAAAAAA", Some(&payload)),
    );
    assert_eq!(
        json_of(&forged)["type"],
        "urn:ietf:params:acme:error:badNonce"
    );
}

#[test]
fn a_jws_signed_by_another_key_is_refused() {
    let mut s = server();
    let c = account(&mut s);
    let intruder = Client::new();
    let n = nonce(&mut s.handler);
    let url = format!("{BASE}/new-order");
    let payload = json!({"identifiers": [{"type": "dns", "value": NAME}]});
    // The account's kid, another key's signature.
    let r = ask(
        &mut s.handler,
        Method::POST,
        "/new-order",
        c.jws_signed_by(&intruder, &url, &n, Some(&payload)),
    );
    assert!(
        r.status == 400 || r.status == 401 || r.status == 403,
        "{}",
        r.status
    );
    assert_eq!(r.content_type, "application/problem+json");
    // No order was made for it.
    let orders = s.state.orders(None).unwrap();
    assert!(orders.is_empty());
    // The same request signed by the account's own key goes through.
    let r = post(&mut s.handler, &c, "/new-order", Some(&payload));
    assert_eq!(r.status, 201);
}

#[test]
fn challenge_types_round_trip_through_their_names() {
    for t in ChallengeType::ALL {
        assert_eq!(ChallengeType::parse(t.as_str()), Some(t));
        assert_eq!(t.to_string(), t.as_str());
    }
    let names: Vec<&str> = ChallengeType::ALL.iter().map(|t| t.as_str()).collect();
    assert_eq!(names, ["http-01", "dns-01", "tls-alpn-01"]);
    for unknown in ["", "HTTP-01", "http-02", "dns-account-01", "tls-alpn-01 "] {
        assert_eq!(ChallengeType::parse(unknown), None, "{unknown:?}");
    }
}
