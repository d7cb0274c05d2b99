//! Validating challenges from the server (RFC 8555 §8): threads apart from the HTTP
//! workers take challenge ids from a queue, fetch or look up what the client put up —
//! bounded in time and size, so a target that hangs or answers a gigabyte costs one
//! validator ten seconds and a few kilobytes — and record the outcome.

use crate::challenge::ChallengeType;
use crate::config::{AcmeConfig, TIMEOUT};
use crate::jose::{b64, Jwk};
use crate::problem::Problem;
use crate::store::{AcmeStore, StoreError};
use serde_json::Value;
use sha2::{Digest, Sha256};
// The resolver hook is ureq's unversioned API: Cargo.lock pins the release it is written
// against.
use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

/// The most of an http-01 answer read: a key authorization is under 100 bytes.
pub(crate) const MAX_ANSWER: u64 = 8 * 1024;

/// Opens a validator's own connection to the state.
pub type OpenStore = Arc<dyn Fn() -> Result<Box<dyn AcmeStore>, StoreError> + Send + Sync>;

/// Why the validators could not start.
#[derive(Debug)]
pub enum ValidatorError {
    /// The state could not be opened or read.
    Store(StoreError),
    /// A validator thread could not be started.
    Thread(std::io::Error),
}

impl std::fmt::Display for ValidatorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValidatorError::Store(e) => e.fmt(f),
            ValidatorError::Thread(e) => write!(f, "starting a validator: {e}"),
        }
    }
}

impl std::error::Error for ValidatorError {}

/// Start `n` validator threads (at least one), each on a store `open` gives it; the
/// sender takes challenge ids ([`AcmeHandler::new`](crate::AcmeHandler::new)'s
/// `validate`). Challenges a stopped server left in processing are validated first, so
/// none stays there.
pub fn spawn(
    n: usize,
    open: OpenStore,
    config: Arc<AcmeConfig>,
) -> Result<Sender<i64>, ValidatorError> {
    let (tx, rx) = channel::<i64>();
    let left = open()
        .and_then(|s| s.processing_challenges())
        .map_err(ValidatorError::Store)?;
    for id in left {
        let _ = tx.send(id);
    }
    let rx = Arc::new(Mutex::new(rx));
    for i in 0..n.max(1) {
        let store = open().map_err(ValidatorError::Store)?;
        let (rx, config) = (Arc::clone(&rx), Arc::clone(&config));
        std::thread::Builder::new()
            .name(format!("acme-validate-{i}"))
            .spawn(move || run(&rx, store, &config))
            .map_err(ValidatorError::Thread)?;
    }
    Ok(tx)
}

/// What a validation's connection reads into: an answer's status line and headers must fit.
const ANSWER_BUFFER: usize = 32 * 1024;
/// What it writes from: the GET of a challenge's path.
const REQUEST_BUFFER: usize = 4 * 1024;

/// One validator's HTTP client, made once (its buffers too): no connection is kept
/// between validations, each must reach the client's server afresh.
pub(crate) fn agent() -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .http_status_as_error(false)
        // No redirects: a client could otherwise send the server to any internal address
        // and read back what answered (the key authorization is served where asked).
        .max_redirects(0)
        .max_idle_connections(0)
        // Buffers of the size a challenge's answer needs. ureq's defaults (128 KiB each
        // way) are allocated and zeroed for every connection, and each validation is one:
        // 256 KiB a validation, a quarter of the validators' CPU under load (docs/perf.md).
        // A request here is one GET line and a host header; an answer's headers past
        // 32 KiB are refused as too large.
        .input_buffer_size(ANSWER_BUFFER)
        .max_response_header_size(ANSWER_BUFFER)
        .output_buffer_size(REQUEST_BUFFER)
        .build();
    ureq::Agent::with_parts(config, DefaultConnector::default(), Literal::default())
}

/// Addresses taken as they are, names looked up by ureq's resolver. That one bounds a
/// look-up by running it on a thread of its own, started per request: for an address
/// (an IP identifier, and every connection made with `--resolver`) that is a thread
/// and its stack made and unmade for nothing, which cost a load of validations a tenth
/// of the machine.
#[derive(Debug, Default)]
struct Literal(DefaultResolver);

impl Resolver for Literal {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let host = uri.host().unwrap_or("");
        let literal = host.trim_start_matches('[').trim_end_matches(']');
        match (literal.parse::<IpAddr>(), uri.port_u16()) {
            (Ok(ip), Some(port)) => {
                let mut one = self.empty();
                one.push(SocketAddr::new(ip, port));
                Ok(one)
            }
            _ => self.0.resolve(uri, config, timeout),
        }
    }
}

fn run(rx: &Mutex<Receiver<i64>>, mut store: Box<dyn AcmeStore>, config: &AcmeConfig) {
    let http = agent();
    loop {
        let next = rx.lock().map(|r| r.recv());
        let Ok(Ok(id)) = next else {
            return;
        };
        let outcome = validate(store.as_ref(), config, &http, id);
        let error = outcome.err().map(|p| p.json().to_string());
        let now = pkit_der::Time::now();
        if let Err(e) = store.finish_challenge(id, error.as_deref(), now.unix) {
            // Left in processing; the next start validates it again.
            pkit_serve::log_line(&serde_json::json!({
                "time": now.to_string(), "event": "error", "challenge": id,
                "error": format!("recording the validation: {e}"),
            }));
        }
    }
}

/// Validate challenge `id`: Ok when the client proved control.
pub(crate) fn validate(
    store: &dyn AcmeStore,
    config: &AcmeConfig,
    http: &ureq::Agent,
    id: i64,
) -> Result<(), Problem> {
    let c = store
        .challenge(id)
        .map_err(Problem::db)?
        .ok_or_else(|| Problem::server("the challenge vanished"))?;
    let z = store
        .authz(c.authz_id)
        .map_err(Problem::db)?
        .ok_or_else(|| Problem::server("the authorization vanished"))?;
    let account = store
        .account(z.account_id)
        .map_err(Problem::db)?
        .ok_or_else(|| Problem::server("the account vanished"))?;
    let jwk: Value =
        serde_json::from_str(&account.jwk).map_err(|e| Problem::server(e.to_string()))?;
    let jwk = Jwk::from_json(&jwk).map_err(|e| Problem::server(e.detail))?;
    let key_auth = jwk.key_authorization(&c.token);
    match c.kind {
        ChallengeType::Http01 => {
            http_01(config, http, &z.id_type, &z.id_value, &c.token, &key_auth)
        }
        ChallengeType::Dns01 => crate::dns::dns_01(
            config,
            &z.id_value,
            &b64(&Sha256::digest(key_auth.as_bytes())),
        ),
        ChallengeType::TlsAlpn01 => {
            crate::tls_alpn::tls_alpn_01(config, &z.id_type, &z.id_value, &key_auth)
        }
    }?;
    // Control proven, whether the domain lets this CA issue (with --caa-identity): here,
    // where the challenge type is known (RFC 8657's validationmethods names it) and a
    // refusal ends the authorization before any order waits on it. Addresses have no CAA.
    if z.id_type == "dns" {
        crate::caa::check(
            config,
            &z.id_value,
            z.wildcard,
            &config.account_url(account.id),
            c.kind,
        )?;
    }
    Ok(())
}

/// http-01 (§8.3): GET http://NAME:PORT/.well-known/acme-challenge/TOKEN answers the key
/// authorization. With a resolver of its own the server connects to each address it
/// finds in turn (the next when one refuses the connection) and names the host in the
/// Host header; else the system resolves the name.
fn http_01(
    config: &AcmeConfig,
    http: &ureq::Agent,
    id_type: &str,
    host: &str,
    token: &str,
    key_auth: &str,
) -> Result<(), Problem> {
    let targets: Vec<String> = match (id_type, config.resolver) {
        ("dns", Some(_)) => crate::dns::addresses(config, host)?
            .iter()
            .map(|a| a.to_string())
            .collect(),
        _ => vec![host.to_string()],
    };
    let mut last = None;
    for t in &targets {
        let host_header = (id_type == "dns" && config.resolver.is_some()).then_some(host);
        match http_01_at(config, http, t, host_header, token, key_auth) {
            Err(p) if p.kind == "connection" => last = Some(p),
            other => return other,
        }
    }
    Err(last.unwrap_or_else(|| Problem::new("connection", 400, format!("{host}: no address"))))
}

fn http_01_at(
    config: &AcmeConfig,
    agent: &ureq::Agent,
    connect: &str,
    host_header: Option<&str>,
    token: &str,
    key_auth: &str,
) -> Result<(), Problem> {
    let connect = if connect.contains(':') {
        format!("[{connect}]")
    } else {
        connect.to_string()
    };
    let url = format!(
        "http://{connect}:{}/.well-known/acme-challenge/{token}",
        config.http_port
    );
    let conn = |e: ureq::Error| Problem::new("connection", 400, format!("{url}: {e}"));
    let mut get = agent.get(&url);
    if let Some(h) = host_header {
        get = get.header("host", format!("{h}:{}", config.http_port));
    }
    let mut resp = get.call().map_err(conn)?;
    if resp.status() != 200 {
        return Err(Problem::new(
            "unauthorized",
            403,
            format!("{url} answered HTTP {}", resp.status().as_u16()),
        ));
    }
    let mut body = Vec::new();
    resp.body_mut()
        .as_reader()
        .take(MAX_ANSWER + 1)
        .read_to_end(&mut body)
        .map_err(|e| Problem::new("connection", 400, format!("{url}: {e}")))?;
    if body.len() as u64 > MAX_ANSWER {
        return Err(Problem::new(
            "unauthorized",
            403,
            format!("{url} answered more than {MAX_ANSWER} bytes"),
        ));
    }
    let got = String::from_utf8_lossy(&body);
    if got.trim_end() != key_auth {
        // What answered is not shown back: only whether it was the key authorization.
        return Err(Problem::new(
            "incorrectResponse",
            403,
            format!(
                "{url} answered {} bytes that are not the key authorization",
                body.len()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;

    /// An http-01 responder on 127.0.0.1 answering each of `pads` (one connection each)
    /// with the key authorization after a header of that many bytes.
    fn responder(key_auth: &'static str, pads: Vec<usize>) -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for pad in pads {
                let (stream, _) = listener.accept().unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                while reader.read_line(&mut line).unwrap_or(0) > 2 {
                    line.clear();
                }
                let mut out = stream;
                let _ = write!(
                    out,
                    "HTTP/1.1 200 OK\r\nX-Pad: {}\r\nContent-Length: {}\r\n\r\n{key_auth}",
                    "a".repeat(pad),
                    key_auth.len()
                );
            }
        });
        port
    }

    fn config(http_port: u16) -> AcmeConfig {
        AcmeConfig {
            http_port,
            ..AcmeConfig::for_tests("https://acme.test")
        }
    }

    #[test]
    fn an_answer_is_read_whole_up_to_its_header_bound() {
        const KEY_AUTH: &str = "token.thumbprint";
        let port = responder(KEY_AUTH, vec![0, 20 * 1024, 40 * 1024]);
        let (c, agent) = (config(port), agent());
        let get = || http_01_at(&c, &agent, "127.0.0.1", None, "token", KEY_AUTH);
        assert_eq!(get(), Ok(()));
        // Headers of 20 KiB fit the buffer the validator reads into.
        assert_eq!(get(), Ok(()));
        // 40 KiB do not: refused as a connection's failure, not read on without bound.
        let p = get().unwrap_err();
        assert_eq!(p.kind, "connection", "{p:?}");
    }
}
