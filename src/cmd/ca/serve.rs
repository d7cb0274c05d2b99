//! `pkit ca serve`: one process answering every URL the CAs write into certificates —
//! OCSP, CRLs, issuer certificates — plus `/health`, `/metrics` and, with `--acme`, the
//! ACME server on an HTTPS endpoint of its own. The URLs are each CA's ca.json
//! pointers; what a request gets is `pkit::serve::CaHandler`'s, a CRL is kept true by a
//! `pkit::pki::ca::crl_publish::CrlPublisher` per CA.

use crate::cmd::acme::{AcmeOptions, AcmeServer, At};
use crate::cmd::ca_db::{db_err, open_store, DbArgs};
use crate::cmd::ca_dir::{load_ca_cert, load_issuer, load_settings, parse_duration};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::flags::{KeySecretArgs, LintGateArgs};
use crate::cmd::ocsp::{load_responder, SignerArgs};
use crate::cmd::serve_args::{HttpArgs, BEHAVIOUR_HELP};
use clap::Args;
use pkit::der::{hex, Time};
use pkit::pki::backend::Backend;
use pkit::pki::ca::crl_generate::{CrlError, Scope};
use pkit::pki::ca::crl_publish::{
    CrlPublisher, CurrentCrl, Event, PublishStartError, Published, PublisherThread, Schedule,
};
use pkit::pki::ca::gate::GateMode;
use pkit::pki::ca::ocsp::gate_lifetime;
use pkit::pki::ca::ocsp::Responder;
use pkit::pki::ca::ocsp_cache::ResponseCache;
use pkit::pki::ca::pointers::{in_certificate, shard_url, Pointers};
use pkit::pki::ca::written::{unlisted, Unlisted, WrittenError};
use pkit::pki::cert::Certificate;
use pkit::serve::{
    log_line, url_path, CaHandler, CaRoute, CaUrls, Clock, Endpoint, Handler, Metrics, OcspHandler,
    Routes, OWN,
};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Distinct certificates whose OCSP responses are kept signed, per CA.
const CACHE_ENTRIES: usize = 100_000;

/// URLs of each kind the `listening` line names from a CA's certificates (all are
/// answered; a CA that gave every certificate a URL of its own would otherwise log them
/// all in one line).
const LISTED: usize = 32;

const SERVE_HELP: &str = "What is served: for each --ca DIR, the URLs of its ca.json \
(set by `issue ca --ocsp-url/--crl-url/--issuer-url`), and any other URL its certificates \
still in force carry (from before ca.json changed, or a template's: read from its records \
at start and named in the `listening` line's from_certificates; a CRL URL among them gets \
the whole CRL; one whose path something else answers is left to it and logged), at their \
paths on --listen: OCSP (POST application/ocsp-request, or GET PATH/BASE64, RFC 6960 \
Appendix A) answered from the CA's records and signed by its key; the CRL (DER, \
application/pkix-crl), made at start and again within --crl-max-age of any revocation \
recorded in the CA's records (by `pkit crl revoke`, ACME revokeCert or another process) \
and once half of its --crl-next-update window has passed; the CA's certificate (DER, \
application/pkix-cert). Several CAs may share an OCSP URL (the request's CertID picks the \
CA). GET /health: JSON with each CA's CRL, 503 when one is past its nextUpdate. GET \
/metrics: Prometheus (OpenMetrics when the Accept header asks for it, as Prometheus does; \
else the classic 0.0.4 text format): requests by route and status, OCSP answers by \
status, OCSP and CRL signing latency, CRL number, entries and age, revocations. Refused at \
start, before any CRL is signed: two things at one path, a CA with no URL to serve, a \
served CA whose certificate points to a URL its issuer (also served) does not answer, and \
a certificate whose CRL URL is another shard's than its serial's (ca.json's crl_shards \
changed after it was issued) or its own shard's at another host (the shard's CRL names \
ca.json's URL). With --acme, the ACME server of --acme-ca (default: the last --ca) \
listens on --acme-listen (HTTPS with a certificate it keeps, as `acme serve` does).";

#[derive(Args, Debug)]
#[command(after_long_help = format!("{SERVE_HELP}\n\n{BEHAVIOUR_HELP}"))]
pub struct ServeArgs {
    /// A CA directory whose URLs are served (repeatable: a root and its intermediates).
    #[arg(long = "ca", value_name = "DIR", required = true)]
    pub cas: Vec<PathBuf>,
    /// Password source for the CAs' PostgreSQL databases (each CA's records are those its
    /// directory names: DIR/ca.db, or the server in DIR/db.url).
    #[arg(long, value_name = "SRC")]
    pub db_passin: Option<String>,
    /// Password source of the CAs' key files (pass:TEXT, env:VAR, file:PATH, fd:N): once
    /// for every --ca, or once per --ca in their order (a root and an intermediate with
    /// passwords of their own).
    #[arg(long, value_name = "SRC")]
    pub passin: Vec<String>,
    /// PIN source of the PKCS#11 tokens that hold the CAs' keys: once for every --ca, or
    /// once per --ca in their order; default: each key URI's pin-value or pin-source.
    #[arg(long, value_name = "SRC")]
    pub pin: Vec<String>,
    #[command(flatten)]
    pub http: HttpArgs,
    /// How long an OCSP response stands: nextUpdate = now + this (default 1h, or 8h for
    /// a CA whose lint rules hold the CA/B Forum TLS BRs, which ask at least 8 hours,
    /// §4.9.10).
    #[arg(long, value_name = "DURATION")]
    pub ocsp_next_update: Option<String>,
    /// How long a CRL stands: nextUpdate = thisUpdate + this. A new one is made once half
    /// of it has passed.
    #[arg(long, value_name = "DURATION", default_value = "24h")]
    pub crl_next_update: String,
    /// A revocation recorded in a CA's records is in its served CRL within this: the
    /// records are asked every 50 ms whether one was (one row read), and the CRLs it
    /// changes are signed again with it merged in (0.1–0.35 s at a million entries on 2
    /// cores; each `crl` log line's within_max_age says whether its CRL was made within
    /// this bound). Whole seconds, 1s at least.
    #[arg(long, value_name = "DURATION", default_value = "2s")]
    pub crl_max_age: String,
    /// Keep certificates that expired in the CRLs (by default they are left out once
    /// expired, as RFC 5280 §3.3 allows).
    #[arg(long)]
    pub keep_expired: bool,
    /// Serve ACME too, on --acme-listen.
    #[arg(long, requires = "acme_listen")]
    pub acme: bool,
    /// Where the ACME server listens (HTTPS unless --plain-http).
    #[arg(long, value_name = "ADDR:PORT", requires = "acme",
          value_parser = crate::cmd::serve_args::listen_address)]
    pub acme_listen: Option<String>,
    /// The CA that issues through ACME (one of the --ca; default: the last).
    #[arg(long, value_name = "DIR", requires = "acme")]
    pub acme_ca: Option<PathBuf>,
    #[command(flatten)]
    pub acme_options: AcmeOptions,
}

impl ServeArgs {
    /// The secrets that open the key of `dir` (one of the --ca): the one --passin (--pin)
    /// given, or the one given in its place.
    fn secrets_of(&self, dir: &Path) -> CliResult<KeySecretArgs> {
        let same = |d: &PathBuf| {
            d == dir || matches!((d.canonicalize(), dir.canonicalize()), (Ok(a), Ok(b)) if a == b)
        };
        let at = self.cas.iter().position(same);
        let pick = |flag: &str, given: &[String]| match (given.len(), at) {
            (0, _) => Ok(None),
            (1, _) => Ok(Some(given[0].clone())),
            (n, Some(i)) if n == self.cas.len() => Ok(Some(given[i].clone())),
            (n, None) if n == self.cas.len() => Err(CliError::usage(format!(
                "{}: not one of the --ca, so no {flag} of theirs is its",
                dir.display()
            ))),
            (n, _) => Err(CliError::usage(format!(
                "{flag} was given {n} times for {} --ca: give it once (for every CA) or once \
                 per --ca, in their order",
                self.cas.len()
            ))),
        };
        Ok(KeySecretArgs {
            passin: pick("--passin", &self.passin)?,
            pin: pick("--pin", &self.pin)?,
        })
    }
}

/// One CA as loaded for serving.
struct Served {
    dir: PathBuf,
    name: String,
    cert: Vec<u8>,
    /// Its ca.json's URLs.
    pointers: Pointers,
    /// Its ca.json's crl_shards.
    crl_shards: u32,
    /// What its certificates still in force point to beyond them (answered too, but for
    /// those [`skip_claimed`] leaves to another).
    unlisted: Unlisted,
    responder: Arc<Responder>,
    cache: Arc<ResponseCache>,
    db: DbArgs,
    /// How long its OCSP responses stand, in seconds.
    lifetime: i64,
}

impl Served {
    /// The URLs routed to it: its ca.json's, then those only its certificates name (its
    /// CRL shards' come from its publisher).
    fn routed(&self) -> Pointers {
        let also = self.unlisted.pointers();
        let join = |a: &[String], b: Vec<String>| a.iter().cloned().chain(b).collect();
        Pointers {
            ocsp: join(&self.pointers.ocsp, also.ocsp),
            ca_issuers: join(&self.pointers.ca_issuers, also.ca_issuers),
            crl: join(&self.pointers.crl, also.crl),
        }
    }

    /// Its CRL shards' URLs, when it shards ([`Scope::urls`] makes the same).
    fn shard_urls(&self) -> Vec<String> {
        let shards = if self.crl_shards > 1 {
            self.crl_shards
        } else {
            0
        };
        (0..shards)
            .flat_map(|k| self.pointers.crl.iter().map(move |u| shard_url(u, k)))
            .collect()
    }

    /// Every URL answered for it: those routed, and its CRL shards'.
    fn answered(&self) -> Pointers {
        let mut all = self.routed();
        all.crl.extend(self.shard_urls());
        all
    }
}

/// Leave out of what each CA's certificates alone name a CRL or certificate path that a
/// ca.json (any CA's: a template may point a certificate at its root's certificate), the
/// server itself or an earlier CA already answers: one answer per path, and a start
/// never refused for URLs the operator cannot change. Each one left is logged.
fn skip_claimed(cas: &mut [Served]) {
    let mut claimed: std::collections::HashMap<String, String> = OWN
        .iter()
        .map(|p| (p.to_string(), "the server".into()))
        .collect();
    for c in cas.iter() {
        let own = c.pointers.crl.iter().chain(&c.pointers.ca_issuers);
        for u in own.cloned().chain(c.shard_urls()) {
            claimed
                .entry(url_path(&u))
                .or_insert_with(|| c.name.clone());
        }
    }
    for c in cas.iter_mut() {
        let name = c.name.clone();
        let mut keep =
            |(url, serial, _): &(String, Vec<u8>, u64)| match claimed.entry(url_path(url)) {
                std::collections::hash_map::Entry::Occupied(by) => {
                    log_line(&json!({"time": Time::now().to_string(),
                                 "event": "from_certificates_skipped", "ca": name, "url": url,
                                 "serial": hex(serial), "answered_by": by.get()}));
                    false
                }
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(name.clone());
                    true
                }
            };
        c.unlisted.crl.retain(&mut keep);
        c.unlisted.ca_issuers.retain(&mut keep);
    }
}

/// The name a CA goes by in logs and metrics: its directory's.
fn name_of(dir: &Path) -> String {
    dir.canonicalize()
        .ok()
        .as_deref()
        .unwrap_or(dir)
        .file_name()
        .map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
}

fn load(be: &Backend, a: &ServeArgs, dir: &Path, now: Time) -> CliResult<Served> {
    let db = DbArgs {
        db: None,
        db_passin: a.db_passin.clone(),
    };
    let signer = SignerArgs {
        ca: dir.to_path_buf(),
        db: db.clone(),
        responder_cert: None,
        responder_key: None,
        secrets: a.secrets_of(dir)?,
        next_update: ocsp_lifetime(a, dir)?,
        lint: LintGateArgs::default(),
    };
    let (responder, store, lifetime) = load_responder(be, &signer, now)?;
    let settings = load_settings(dir)?;
    let unlisted =
        unlisted(&*store, &settings.pointers, settings.crl_shards, now.unix).map_err(|e| {
            let message = format!("{}: {e}", dir.display());
            match e {
                WrittenError::Store(e) => db_err(dir)(e),
                WrittenError::OtherShard { .. } | WrittenError::ShardElsewhere { .. } => {
                    CliError::usage(message)
                }
            }
        })?;
    if let Some((serial, message)) = &unlisted.first_unreadable {
        // Their rows still serve OCSP and CRLs; only what they point to is unknown.
        log_line(
            &json!({"time": Time::now().to_string(), "event": "records_unreadable",
                         "ca": name_of(dir), "certificates": unlisted.unreadable,
                         "first_serial": hex(serial), "message": message}),
        );
    }
    Ok(Served {
        dir: dir.to_path_buf(),
        name: name_of(dir),
        cert: load_ca_cert(dir)?,
        pointers: settings.pointers,
        crl_shards: settings.crl_shards,
        unlisted,
        responder: Arc::new(responder),
        cache: Arc::new(ResponseCache::new(CACHE_ENTRIES)),
        db,
        lifetime,
    })
}

/// How long the OCSP responses of the CA in `dir` stand: --ocsp-next-update, checked
/// against the CA's lint rules here so that a refusal names this command's flag; or, not
/// given, 1h where the rules allow it and 8h where they ask at least that (the CA/B
/// Forum TLS BRs, §4.9.10).
fn ocsp_lifetime(a: &ServeArgs, dir: &Path) -> CliResult<String> {
    let settings = load_settings(dir)?;
    let allowed = |v: &str| -> CliResult<bool> {
        let secs = parse_duration("--ocsp-next-update", v)?;
        Ok(gate_lifetime(&settings, GateMode::Enforce, secs).is_ok())
    };
    match &a.ocsp_next_update {
        Some(v) if !allowed(v)? => Err(CliError::negative(format!(
            "{}: --ocsp-next-update {v}: its lint rules ({}) refuse OCSP responses that \
             stand so long or so short (the CA/B Forum TLS BRs ask 8 hours to 10 days, \
             §4.9.10)",
            dir.display(),
            settings.lint_rules.name()
        ))),
        Some(v) => Ok(v.clone()),
        None if allowed("1h")? => Ok("1h".into()),
        None => Ok("8h".into()),
    }
}

/// Refuse what would leave a URL unanswered: a CA with no URL, and a served CA's
/// certificate pointing to a URL its issuer, served here too, does not list.
fn check_answered(cas: &[Served]) -> CliResult<()> {
    for c in cas {
        if c.pointers.is_empty() && c.unlisted.is_empty() {
            return Err(CliError::usage(format!(
                "{}: its ca.json names no OCSP, CRL or issuer URL, so there is nothing to \
                 serve for it (a CA gets them when it is made, `issue ca --ocsp-url \
                 --crl-url --issuer-url`; for one made without, list them in its ca.json's \
                 ocsp_urls, crl_urls and issuer_urls: certificates it issues from then on \
                 carry them)",
                c.dir.display()
            )));
        }
    }
    for child in cas {
        let cert = Certificate::from_der(&child.cert)
            .map_err(|e| CliError::parse(format!("{}/ca.pem: {e}", child.dir.display())))?;
        if cert.issuer.raw == cert.subject.raw {
            continue;
        }
        let Some(parent) = cas.iter().find(|p| {
            Certificate::from_der(&p.cert).is_ok_and(|pc| pc.subject.raw == cert.issuer.raw)
        }) else {
            continue;
        };
        let wrote = match &cert.extensions {
            Some(e) => in_certificate(e)
                .map_err(|e| CliError::parse(format!("{}/ca.pem: {e}", child.dir.display())))?,
            None => Pointers::default(),
        };
        let answered = parent.answered();
        let kinds = [
            ("authorityInfoAccess OCSP", &wrote.ocsp, &answered.ocsp),
            (
                "authorityInfoAccess caIssuers",
                &wrote.ca_issuers,
                &answered.ca_issuers,
            ),
            ("cRLDistributionPoints", &wrote.crl, &answered.crl),
        ];
        for (what, urls, answered) in kinds {
            for url in urls {
                let path = url_path(url);
                if !answered.iter().any(|u| url_path(u) == path) {
                    return Err(CliError::usage(format!(
                        "{}/ca.pem: its {what} {url} is not among the URLs of its issuer {} \
                         (ca.json), so nothing here would answer it",
                        child.dir.display(),
                        parent.dir.display()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// One CA's CRL publisher, nothing signed yet: its routes are checked before its first
/// CRL spends a number.
fn publisher(be: &Backend, a: &ServeArgs, c: &Served) -> CliResult<CrlPublisher> {
    // Read here too, so that a bad value is refused before anything is signed.
    crl_max_age(a)?;
    let schedule = Schedule {
        lifetime: parse_duration("--crl-next-update", &a.crl_next_update)?,
        poll: POLL,
        drop_expired: !a.keep_expired,
    };
    let secrets = a.secrets_of(&c.dir)?;
    let issuer = load_issuer(be, &c.dir, secrets.passin(), secrets.pin())?;
    let store = open_store(&c.dir, &c.db)?;
    Ok(CrlPublisher::new(issuer, store, schedule))
}

/// How often the records are asked whether a revocation came: the question is one row,
/// so asked every 50 ms it leaves nearly all of --crl-max-age (a whole number of
/// seconds, 1 s at least) for making the CRL.
const POLL: Duration = Duration::from_millis(50);

fn crl_max_age(a: &ServeArgs) -> CliResult<Duration> {
    let secs = parse_duration("--crl-max-age", &a.crl_max_age)?;
    Ok(Duration::from_secs(secs.unsigned_abs()))
}

/// Each CRL shard's URLs and where its newest CRL is read.
type Shards = Vec<(Vec<String>, Arc<CurrentCrl>)>;

/// What a publisher serves: its whole CRL, and its shards.
fn crl_urls(p: &CrlPublisher) -> (Arc<CurrentCrl>, Shards) {
    let shards = p
        .scopes()
        .into_iter()
        .filter(|(scope, _, _)| *scope != Scope::Whole)
        .map(|(_, urls, crl)| (urls, crl))
        .collect();
    (p.current(), shards)
}

/// Sign a CA's first CRLs and keep them true on a thread of the publisher's own.
fn start_publishing(
    mut publisher: CrlPublisher,
    a: &ServeArgs,
    c: &Served,
    metrics: &Arc<Metrics>,
    now: Time,
) -> CliResult<PublisherThread> {
    let first = publisher.first(now).map_err(|e| {
        let e = match e {
            PublishStartError::Store(e) => db_err(&c.dir)(e),
            // Refused by the lint gate (1) or not signed, as `crl gen` says it.
            PublishStartError::Crl(CrlError::Ca(e)) => CliError::from(e),
            PublishStartError::Crl(CrlError::Store(e)) => db_err(&c.dir)(e),
        };
        CliError::new(
            e.exit,
            format!("{}: the first CRL: {}", c.dir.display(), e.message),
        )
    })?;
    let max_age = crl_max_age(a)?;
    let (name, m) = (c.name.clone(), Arc::clone(metrics));
    for crl in &first {
        m.crl_published(&name, crl);
        log_line(&crl_line(&name, crl, "start", max_age));
    }
    let thread = publisher
        .spawn(move |e| match e {
            Event::Published { crl, why } => {
                m.crl_published(&name, &crl);
                log_line(&crl_line(&name, &crl, why, max_age));
            }
            Event::Failed { message } => log_line(&json!({
                "time": Time::now().to_string(), "event": "crl_failed", "ca": name,
                "message": message})),
        })
        .map_err(|e| CliError::io(format!("starting the CRL publisher: {e}")))?;
    Ok(thread)
}

/// A CRL's log line. `within_max_age`, for a CRL made for a revocation: whether a poll
/// and making it took less than --crl-max-age, the bound a revocation is served within;
/// false says the bound is not kept at this CRL's size and the operator should raise it.
/// Null for the others (a walk of every record at start or refresh, which no revocation
/// waits on).
fn crl_line(ca: &str, crl: &Published, why: &str, max_age: Duration) -> serde_json::Value {
    let shard = match crl.scope {
        Scope::Whole => None,
        Scope::Shard(k) => Some(k),
    };
    let within = (why == "revocation").then(|| crl.took + POLL < max_age);
    json!({"time": Time::now().to_string(), "event": "crl", "ca": ca, "why": why, "shard": shard,
           "number": crl.number, "entries": crl.entries,
           "next_update": Time { unix: crl.next_update }.to_string(),
           "ms": crl.took.as_millis() as u64, "within_max_age": within})
}

pub fn run(be: &'static Backend, a: ServeArgs) -> CliResult<Exit> {
    let mut opts = a.http.options()?;
    let now = Time::now();
    let mut cas = a
        .cas
        .iter()
        .map(|d| load(be, &a, d, now))
        .collect::<CliResult<Vec<_>>>()?;
    skip_claimed(&mut cas);
    check_answered(&cas)?;
    // Records on a database server: the answers that look them up wait on it.
    for c in &cas {
        opts.blocking |= crate::cmd::ca_db::on_server(&c.dir, "ca.db", &c.db)?;
    }
    let metrics = Arc::new(Metrics::new());
    let mut urls = Vec::with_capacity(cas.len());
    let mut publishers = Vec::with_capacity(cas.len());
    for c in &cas {
        let publisher = publisher(be, &a, c)?;
        let (crl, shards) = crl_urls(&publisher);
        publishers.push(publisher);
        let answered = c.routed();
        urls.push(CaUrls {
            ca: CaRoute {
                name: c.name.clone(),
                crl,
            },
            cert: c.cert.clone().into(),
            ocsp: answered.ocsp,
            crl: answered.crl,
            issuer: answered.ca_issuers,
            shards,
        });
    }
    // Refused before any CRL is signed (as is a bad ACME set-up, below): a start that
    // is refused spends no CRL number.
    let routes = Arc::new(Routes::new(urls).map_err(|e| CliError::usage(e.0))?);
    let acme = match (&a.acme, &a.acme_listen) {
        (true, Some(listen)) => {
            let dir = a
                .acme_ca
                .clone()
                .or_else(|| a.cas.last().cloned())
                .unwrap_or_default();
            let db = DbArgs {
                db: None,
                db_passin: a.db_passin.clone(),
            };
            let secrets = a.secrets_of(&dir)?;
            let at = At {
                ca: &dir,
                db: &db,
                secrets: &secrets,
            };
            let server = AcmeServer::start(be, &at, &a.acme_options, listen)?;
            opts.blocking |= server.on_server;
            opts.endpoints.push(Endpoint {
                listen: listen.clone(),
                tls: server.tls.clone(),
            });
            Some(server)
        }
        _ => None,
    };
    // The first CRLs are signed in the first worker's set-up, once the addresses are
    // bound (`serve` binds before it makes handlers): a start refused for anything, a
    // port in use included, spends no CRL number.
    let unstarted = std::cell::RefCell::new(Some(publishers));
    let publishers = std::cell::RefCell::new(Vec::new());
    // Each worker: its own signer and records connection per CA, and its ACME handler.
    let make = || {
        let ocsp = cas
            .iter()
            .map(|c| {
                Ok::<_, CliError>(OcspHandler {
                    responder: Arc::clone(&c.responder),
                    signer: c.responder.signer()?,
                    store: open_store(&c.dir, &c.db)?,
                    lifetime: c.lifetime,
                    cache: Arc::clone(&c.cache),
                    clock: Clock::System,
                })
            })
            .collect::<CliResult<Vec<_>>>()?;
        let acme = match &acme {
            Some(s) => Some((1, Box::new(s.handler(be)?) as Box<dyn Handler + Send>)),
            None => None,
        };
        // After the first handler is made: one that cannot be made spends nothing either.
        if let Some(unstarted) = unstarted.borrow_mut().take() {
            *publishers.borrow_mut() = cas
                .iter()
                .zip(unstarted)
                .map(|(c, p)| start_publishing(p, &a, c, &metrics, Time::now()))
                .collect::<CliResult<Vec<_>>>()?;
        }
        Ok::<_, CliError>(CaHandler {
            routes: Arc::clone(&routes),
            metrics: Arc::clone(&metrics),
            ocsp,
            acme,
        })
    };
    let served: Vec<_> = cas
        .iter()
        .map(|c| {
            let mut v = json!({"ca": c.name, "ocsp": c.pointers.ocsp, "crl": c.pointers.crl,
                               "issuer": c.pointers.ca_issuers});
            if !c.unlisted.is_empty() {
                // Answered too: URLs its certificates carry that ca.json no longer names
                // (the first of each kind: certificates may carry one each).
                let also = c.unlisted.pointers();
                let first = |l: Vec<String>| l.into_iter().take(LISTED).collect::<Vec<_>>();
                let total = also.ocsp.len() + also.crl.len() + also.ca_issuers.len();
                v["from_certificates"] = json!({"ocsp": first(also.ocsp),
                                                "crl": first(also.crl),
                                                "issuer": first(also.ca_issuers),
                                                "urls": total});
            }
            v
        })
        .collect();
    let sig = pkit::serve::serve(&opts, make, |l| {
        let mut line = json!({"time": Time::now().to_string(), "event": "listening",
                              "listen": l.addr.to_string(), "threads": l.threads,
                              "cas": served});
        if let (Some(s), Some(addr)) = (&acme, l.addrs.get(1)) {
            line["acme_listen"] = addr.to_string().into();
            line["directory"] = s.directory.clone().into();
        }
        log_line(&line);
    })?;
    drop(publishers);
    log_line(&json!({"time": Time::now().to_string(), "event": "shutdown", "signal": sig}));
    Ok(Exit::Ok)
}
