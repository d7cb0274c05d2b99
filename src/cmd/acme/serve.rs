//! `pkit acme serve`: the ACME server on pkit's HTTP layer, one handler per worker, and
//! the threads that validate challenges.

use crate::cmd::ca_db::DbArgs;
use crate::cmd::ca_dir::{ca_chain, load_ca_cert, load_issuer, parse_duration};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::flags::KeySecretArgs;
use crate::cmd::serve_args::{HttpArgs, BEHAVIOUR_HELP};
use clap::Args;
use pkit::acme::{
    AcmeConfig, AcmeHandler, Ca, Issues, MtcLog, MtcStart, MtcStartError, ProfileOffer, Schedule,
};
use pkit::der::Time;
use pkit::mtc::setup::CaFiles;
use pkit::pki::backend::Backend;
use pkit::serve::{log_line, Clock, TlsIdentity};
use serde_json::json;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

const ACME_HELP: &str = "ACME: the directory is BASE/directory (BASE is --base-url, \
by default https://ADDR:PORT of --listen, http:// with --plain-http). State (accounts, orders, authorizations, \
challenges, nonces) is in DIR/acme.db, or in the CA's PostgreSQL database when its \
records are there (tables acme_*), shared by every `acme serve` on the CA: a nonce from \
one is good at another, and an order is finalized once. \
Certificates are issued by the CA in DIR through its lint gate (ca.json lint_rules) and \
recorded in its records like `issue cert`'s. Challenges: http-01 (GET \
http://NAME:--http-port/.well-known/acme-challenge/TOKEN, 10 s, 8 KiB at most), dns-01 \
(TXT _acme-challenge.NAME at --resolver or the system's resolver), tls-alpn-01 (TLS to \
NAME:--tls-port offering acme-tls/1, 10 s); a wildcard only by dns-01, an IP address \
(RFC 8738) by http-01 or tls-alpn-01. With --caa-identity, a DNS name's CAA records \
(RFC 8659, 8657) are checked when its challenge is validated (caa when they forbid, dns \
when the look-up fails; an authorization validated over 8 hours before is checked again \
at finalize); without it, CAA is not checked. With --mtc, orders without a profile (and \
profiles NAME=mtc) get Merkle Tree Certificates: finalize appends the entry to the MTC \
CA's log and the order stays processing (Retry-After: --checkpoint-every) until a \
checkpoint covers it; then the order is valid and its certificate the standalone one, \
with the landmark-relative one as a Link rel=\"alternate\" (CERT/landmark) once an \
active landmark covers it. Every request, checkpoint and landmark is logged as a JSON \
line on stderr.";

#[derive(Args, Debug)]
#[command(after_long_help = format!("{ACME_HELP}\n\n{BEHAVIOUR_HELP}"))]
pub struct ServeArgs {
    /// The CA directory that issues (ca.pem, ca.key, its records).
    #[arg(long)]
    pub ca: PathBuf,
    #[command(flatten)]
    pub db: DbArgs,
    #[command(flatten)]
    pub secrets: KeySecretArgs,
    #[command(flatten)]
    pub http: HttpArgs,
    #[command(flatten)]
    pub acme: AcmeOptions,
}

/// What an ACME server is asked to be, beside its CA and where it listens: `acme serve`
/// and `ca serve --acme` take the same.
#[derive(Args, Debug)]
pub struct AcmeOptions {
    /// The URL clients reach this server at (what the directory's URLs start with); by
    /// default https://ADDR:PORT of --listen (http:// with --plain-http).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The HTTPS certificate chain (PEM, leaf first); without it the server issues itself
    /// one from the CA for the host of the base URL, with a fresh P-256 key, and keeps it
    /// in DIR/acme-tls.pem and DIR/acme-tls.key for the next start, which uses it again
    /// while it names the host and over a third of its validity is left.
    #[arg(
        long,
        value_name = "FILE",
        requires = "tls_key",
        conflicts_with = "plain_http"
    )]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM, PKCS#8 or SEC 1).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Speak plain HTTP, for a server behind a proxy that terminates TLS (ACME clients
    /// talk HTTPS only, RFC 8555 §6.1).
    #[arg(long)]
    pub plain_http: bool,
    /// The port http-01 validation connects to.
    #[arg(long, value_name = "PORT", default_value_t = 80)]
    pub http_port: u16,
    /// The port tls-alpn-01 validation connects to.
    #[arg(long, value_name = "PORT", default_value_t = 443)]
    pub tls_port: u16,
    /// The DNS server validation asks (ADDR:PORT): dns-01's TXT records, http-01's
    /// addresses and CAA records; default: the system's resolver.
    #[arg(long, value_name = "ADDR:PORT")]
    pub resolver: Option<SocketAddr>,
    /// The issuer domain name this CA goes by in CAA records (RFC 8659); without it, CAA
    /// is not checked.
    ///
    /// With it, a DNS name's CAA records (the first found climbing from the name to its
    /// parents) must let this CA issue — issue, or issuewild for a wildcard, with RFC
    /// 8657's accounturi and validationmethods honoured — when its challenge is
    /// validated, and again at finalize for an authorization validated over 8 hours
    /// before; a failed look-up refuses too (caa, dns). Without it, CAA is not checked.
    #[arg(long, value_name = "DOMAIN")]
    pub caa_identity: Option<String>,
    /// External account binding keys (lines of `KID BASE64URL-KEY`): new accounts must
    /// bind to one of them.
    #[arg(long, value_name = "FILE")]
    pub eab_keys: Option<PathBuf>,
    /// A profile the server offers (repeatable): NAME[=PKIT-PROFILE]:DAYS[:DESCRIPTION];
    /// orders that name it get certificates of pkit's profile server (serverAuth, the
    /// default) or server-client (serverAuth and clientAuth), or Merkle Tree Certificates
    /// (mtc, with --mtc), valid DAYS days.
    #[arg(long = "profile", value_name = "NAME[=PROFILE]:DAYS[:TEXT]")]
    pub profiles: Vec<String>,
    /// An MTC CA directory (`pkit mtc ca new`): orders without a profile get Merkle Tree
    /// Certificates from its log (its mtc.db, or the PostgreSQL database its db.url
    /// names).
    #[arg(long, value_name = "DIR")]
    pub mtc: Option<PathBuf>,
    /// Password source of the MTC CA's cosigner.key when `mtc ca new --passout` encrypted
    /// it (pass:, env:, file:, fd:); default: --passin's.
    #[arg(long, value_name = "SRC", requires = "mtc")]
    pub mtc_passin: Option<String>,
    /// Password source for the MTC CA's PostgreSQL database (pass:, env:, file:, fd:);
    /// default: --db-passin's.
    #[arg(long, value_name = "SRC", requires = "mtc")]
    pub mtc_db_passin: Option<String>,
    /// Days an MTC certificate is valid when the order's profile does not say.
    #[arg(long, value_name = "DAYS", default_value_t = 7, requires = "mtc",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub mtc_days: u32,
    /// After each checkpoint, publish the MTC log into this S3-compatible bucket, as
    /// `pkit mtc tiles --to` does (the tiles it adds, the checkpoint last); the
    /// credentials are AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
    #[arg(long, value_name = "s3://BUCKET[/PREFIX]", requires = "mtc")]
    pub mtc_to: Option<String>,
    /// A witness the MTC checkpointer asks before it records a checkpoint
    /// (c2sp.org/tlog-witness): its submission prefix URL and public key or certificate
    /// file, or its verifier key (repeatable), as `pkit mtc checkpoint --witness`.
    #[arg(long, value_name = "URL=KEY", requires = "mtc")]
    pub mtc_witness: Vec<String>,
    /// How many --mtc-witness cosignatures a checkpoint needs (default: all). Short of
    /// it, the checkpoint is not recorded and the log line says which witnesses failed.
    #[arg(long, value_name = "K", requires = "mtc_witness")]
    pub mtc_witness_quorum: Option<usize>,
    /// How long each --mtc-witness has to answer.
    #[arg(long, value_name = "DURATION", default_value = "10s", requires = "mtc")]
    pub mtc_witness_timeout: String,
    #[command(flatten)]
    pub mtc_bucket: crate::cmd::mtc::bucket::BucketArgs,
    /// How often the MTC log is checkpointed (when entries were added): how long a
    /// client waits for its certificate, at most.
    #[arg(long, value_name = "DURATION", default_value = "10s", requires = "mtc")]
    pub checkpoint_every: String,
    /// Allocate an MTC landmark this often (default: never; `pkit mtc landmark allocate`
    /// by hand).
    #[arg(long, value_name = "DURATION", requires = "mtc")]
    pub landmark_every: Option<String>,
    /// How long each landmark the server allocates stays active.
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "7d",
        requires = "landmark_every"
    )]
    pub landmark_lifetime: String,
    /// New orders an account may make in a window: N/DURATION (Let's Encrypt's 300 in 3
    /// hours by default); `none` for no limit. Past it: rateLimited (429, Retry-After).
    #[arg(long, value_name = "N/DURATION", default_value = "300/3h")]
    pub orders_per_account: String,
    /// How long an order has to be completed.
    #[arg(long, value_name = "DURATION", default_value = "7d")]
    pub order_lifetime: String,
    /// The terms of service URL the directory names.
    #[arg(long, value_name = "URL")]
    pub terms_of_service: Option<String>,
    /// Validator threads (each validates one challenge at a time).
    #[arg(long, value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub validators: u16,
}

/// `--tls-cert`/`--tls-key`, or a certificate the CA issues the server for its URL's host.
fn tls_identity(
    be: &Backend,
    at: &At<'_>,
    a: &AcmeOptions,
    ca: &Ca,
    config: &AcmeConfig,
) -> CliResult<TlsIdentity> {
    if let (Some(cert), Some(key)) = (&a.tls_cert, &a.tls_key) {
        let read = |p: &PathBuf| {
            std::fs::read(p).map_err(|e| CliError::io_at(&p.display().to_string(), &e))
        };
        return Ok(TlsIdentity {
            chain_pem: read(cert)?,
            key_pem: read(key)?,
            source: format!("{} and {}", cert.display(), key.display()),
        });
    }
    let host = config.host();
    let mut store = crate::cmd::ca_db::open_store(at.ca, at.db)?;
    let id = pkit::acme::server_identity_kept(at.ca, ca, store.as_mut(), host, be, Time::now())
        .map_err(|e| match e {
            pkit::acme::IdentityError::Issue(p) => CliError::new(
                crate::cmd::error::Exit::Negative,
                format!("the server's own certificate for {host}: {}", p.detail),
            ),
            e @ pkit::acme::IdentityError::Write(_) => {
                CliError::io(format!("the server's own certificate for {host}: {e}"))
            }
        })?;
    let kept = if id.reused { ", kept from before" } else { "" };
    Ok(TlsIdentity {
        chain_pem: id.chain_pem.into_bytes(),
        key_pem: id.key_pem.into_bytes(),
        source: format!(
            "a certificate from {} for {host} ({}{kept})",
            at.ca.display(),
            pkit::acme::IDENTITY_CERT_FILE
        ),
    })
}

/// `--caa-identity`: an issuer domain name as CAA `issue` values write one.
fn caa_identity(s: &str) -> CliResult<String> {
    if pkit::acme::is_domain_name(s) {
        Ok(s.to_string())
    } else {
        Err(CliError::usage(format!(
            "--caa-identity {s}: expected a domain name as CAA issue properties name CAs \
             (letters, digits and hyphens in dot-separated labels, no trailing dot)"
        )))
    }
}

fn order_rate(s: &str) -> CliResult<Option<(i64, i64)>> {
    if s == "none" {
        return Ok(None);
    }
    let bad = || {
        CliError::usage(format!(
            "--orders-per-account {s}: expected N/DURATION or none"
        ))
    };
    let (n, d) = s.split_once('/').ok_or_else(bad)?;
    let n: i64 = n.parse().ok().filter(|n| *n > 0).ok_or_else(bad)?;
    Ok(Some((n, parse_duration("--orders-per-account", d)?)))
}

/// `--profile NAME[=PKIT-PROFILE]:DAYS[:TEXT]`.
fn profile(s: &str, mtc: bool) -> CliResult<ProfileOffer> {
    use pkit::pki::ca::profile::Profile;
    let usage = |why: &str| CliError::usage(format!("--profile {s}: {why}"));
    let mut parts = s.splitn(3, ':');
    let (head, days) = (parts.next().unwrap_or(""), parts.next());
    let days: u32 = days
        .and_then(|d| d.parse().ok())
        .filter(|d| *d > 0)
        .ok_or_else(|| usage("expected NAME[=server|server-client|mtc]:DAYS[:TEXT]"))?;
    let (name, issues) = match head.split_once('=') {
        None => (head, Issues::X509(Profile::Server)),
        Some((n, "mtc")) if mtc => (n, Issues::Mtc),
        Some((_, "mtc")) => return Err(usage("an mtc profile needs --mtc DIR")),
        Some((n, p)) => match Profile::from_name(p) {
            Some(pr @ (Profile::Server | Profile::ServerClient)) => (n, Issues::X509(pr)),
            _ => {
                return Err(usage(
                    "the pkit profile of an ACME one is server, server-client or mtc",
                ))
            }
        },
    };
    if name.is_empty() {
        return Err(usage("the name is empty"));
    }
    // Longer than the Baseline Requirements allow today, every order would be refused by
    // the lint gate at finalize: said now instead.
    let max = pkit::pki::ca::validity::br_max_days(Time::now());
    if days > max {
        return Err(usage(&format!(
            "{days} days; TLS certificates issued today have at most {max}"
        )));
    }
    Ok(ProfileOffer {
        name: name.to_string(),
        description: parts
            .next()
            .map_or_else(|| format!("{days}-day certificates"), str::to_string),
        issues,
        days,
    })
}

/// `--mtc DIR`: the MTC CA's log as the handlers see it, and the thread that
/// checkpoints it (`pkit::acme::MtcStart`).
fn mtc_log(be: &'static Backend, at: &At<'_>, a: &AcmeOptions, dir: &Path) -> CliResult<MtcLog> {
    let db = mtc_db(at, a);
    let (store, name) = crate::cmd::mtc::open_log(dir, &db)?;
    let ca = crate::cmd::mtc::load_ca(
        be,
        dir,
        &*store,
        &name,
        a.mtc_passin.as_deref().or(at.secrets.passin()),
        at.secrets.pin(),
    )?;
    let every = parse_duration("--checkpoint-every", &a.checkpoint_every)?;
    let landmarks = match &a.landmark_every {
        Some(e) => Some((
            Duration::from_secs(parse_duration("--landmark-every", e)?.unsigned_abs()),
            parse_duration("--landmark-lifetime", &a.landmark_lifetime)?.unsigned_abs(),
        )),
        None => None,
    };
    let ca_path = CaFiles::in_dir(dir).cert;
    let ca_pem = std::fs::read_to_string(&ca_path)
        .map_err(|e| CliError::io_at(&ca_path.display().to_string(), &e))?;
    // `--mtc-to`: the checkpointer publishes into the bucket after each checkpoint, as
    // `pkit mtc checkpoint --to` does; the bucket's settings are checked now.
    let publish: Option<pkit::acme::Publish> = match &a.mtc_to {
        Some(to) => {
            crate::cmd::mtc::bucket::S3Mirror::open(to, &a.mtc_bucket)?;
            let (to, bucket, dir, name) = (
                to.clone(),
                a.mtc_bucket.clone(),
                dir.to_path_buf(),
                name.clone(),
            );
            Some(Box::new(move |store| {
                crate::cmd::mtc::tiles::publish_to(store, &name, &dir, &to, &bucket, true)
                    .map(|(done, requests, to)| {
                        serde_json::json!({"to": to, "tree_size": done.size,
                            "previous_size": done.previous, "requests": requests})
                    })
                    .map_err(|e| e.message)
            }))
        }
        None => None,
    };
    // `--mtc-witness`: the checkpointer asks the witnesses, as `pkit mtc checkpoint
    // --witness` does, and records a checkpoint only with the quorum.
    let witness: Option<pkit::acme::Witness> = if a.mtc_witness.is_empty() {
        None
    } else {
        let panel = crate::cmd::mtc::witnesses::Panel::from_args(
            &a.mtc_witness,
            a.mtc_witness_quorum,
            &a.mtc_witness_timeout,
            dir,
            "--mtc-witness",
        )?;
        Some(Box::new(move |store, r, ca| {
            let (lines, asked) = panel.cosign(be, store, r, ca);
            // A witness that cosigned the checkpoint but not one of its subtrees holds
            // nothing back; its own log line says what it refused.
            for w in &asked {
                for (st, got) in &w.subtrees {
                    if let Err(why) = got {
                        log_line(&serde_json::json!({
                            "time": Time::now().to_string(),
                            "event": "mtc_witness_subtree",
                            "witness": w.url,
                            "start": st.start,
                            "end": st.end,
                            "error": why,
                        }));
                    }
                }
            }
            match lines {
                Err(pkit::mtc::MtcError::Untrusted(m)) => {
                    let why: Vec<String> = asked
                        .iter()
                        .filter_map(|w| w.outcome.as_ref().err().map(|e| format!("{}: {e}", w.url)))
                        .collect();
                    Err(pkit::mtc::MtcError::Untrusted(format!(
                        "{m} ({})",
                        why.join("; ")
                    )))
                }
                other => other,
            }
        }))
    };
    let start = MtcStart {
        store,
        ca,
        ca_pem,
        days: a.mtc_days,
        schedule: Schedule {
            checkpoint_every: Duration::from_secs(every.unsigned_abs()),
            landmarks,
        },
        hooks: pkit::acme::Hooks { witness, publish },
    };
    let now = || u64::try_from(Time::now().unix).unwrap_or(0);
    let report = Arc::new(|v: serde_json::Value| {
        // The time first, as every line of the log has it.
        let mut line = serde_json::Map::new();
        line.insert("time".into(), Time::now().to_string().into());
        if let serde_json::Value::Object(fields) = v {
            line.extend(fields);
        }
        log_line(&serde_json::Value::Object(line));
    });
    start.start(now, report).map_err(|e| match e {
        MtcStartError::TooLong { days, max } => CliError::usage(format!(
            "--mtc-days {days}: TLS certificates issued today have at most {max}"
        )),
        MtcStartError::Log(e) => CliError::io(format!("{name}: {e}")),
        MtcStartError::NotACertificate => CliError::parse(format!(
            "{}: expected the MTC CA certificate (PEM)",
            ca_path.display()
        )),
        e @ MtcStartError::Spawn(_) => CliError::io(e.to_string()),
    })
}

/// The MTC CA's records: its own (DIR/mtc.db, or DIR/db.url's server), opened with the
/// server password --mtc-db-passin (else --db-passin) gives.
fn mtc_db(at: &At<'_>, a: &AcmeOptions) -> DbArgs {
    DbArgs {
        db: None,
        db_passin: a.mtc_db_passin.clone().or_else(|| at.db.db_passin.clone()),
    }
}

/// The CA an ACME server issues from, and how its records and key are reached.
pub struct At<'a> {
    /// The CA directory.
    pub ca: &'a Path,
    /// Its records.
    pub db: &'a DbArgs,
    /// Its key's password or PIN.
    pub secrets: &'a KeySecretArgs,
}

/// An ACME server ready to answer: its configuration, its CA, its HTTPS identity and
/// its validators running; [`AcmeServer::handler`] makes each worker's handler.
pub struct AcmeServer {
    config: Arc<AcmeConfig>,
    ca: Arc<Ca>,
    validate: std::sync::mpsc::Sender<i64>,
    /// Each worker's way to the ACME state (`state::serving_state`).
    open: pkit::acme::OpenStore,
    dir: PathBuf,
    db: DbArgs,
    mtc: Option<(PathBuf, DbArgs)>,
    /// The HTTPS certificate and key (none with --plain-http).
    pub tls: Option<TlsIdentity>,
    /// The directory URL, for the `listening` line.
    pub directory: String,
    /// The state is on a database server: the handlers wait on it
    /// (`ServerOptions::blocking`).
    pub on_server: bool,
}

impl AcmeServer {
    /// Read the options, load the CA, make its state's tables, start the validators (and
    /// the MTC log's checkpointer, with --mtc): everything an ACME server needs before it
    /// listens at `listen`.
    pub fn start(
        be: &'static Backend,
        at: &At<'_>,
        a: &AcmeOptions,
        listen: &str,
    ) -> CliResult<AcmeServer> {
        let scheme = if a.plain_http { "http" } else { "https" };
        let base_url = a
            .base_url
            .clone()
            .unwrap_or_else(|| format!("{scheme}://{listen}"))
            .trim_end_matches('/')
            .to_string();
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(CliError::usage(format!(
                "--base-url {base_url}: expected an http(s) URL"
            )));
        }
        let eab_keys = match &a.eab_keys {
            Some(p) => {
                let text = std::fs::read_to_string(p)
                    .map_err(|e| CliError::io_at(&p.display().to_string(), &e))?;
                pkit::acme::parse_eab_keys(&text)
                    .map_err(|e| CliError::parse(format!("{}: {e}", p.display())))?
            }
            None => Default::default(),
        };
        let config = Arc::new(AcmeConfig {
            base_url,
            http_port: a.http_port,
            tls_port: a.tls_port,
            resolver: a.resolver,
            order_lifetime: parse_duration("--order-lifetime", &a.order_lifetime)?,
            order_rate: order_rate(&a.orders_per_account)?,
            profiles: a
                .profiles
                .iter()
                .map(|p| profile(p, a.mtc.is_some()))
                .collect::<CliResult<_>>()?,
            terms_of_service: a.terms_of_service.clone(),
            eab_keys,
            mtc: a
                .mtc
                .as_deref()
                .map(|d| mtc_log(be, at, a, d))
                .transpose()?,
            caa_identity: a.caa_identity.as_deref().map(caa_identity).transpose()?,
        });
        let issuer = load_issuer(be, at.ca, at.secrets.passin(), at.secrets.pin())?;
        let chain = Ca::served_chain(ca_chain(at.ca)?, || load_ca_cert(at.ca))?;
        let ca = Arc::new(Ca { issuer, chain });
        let tls = if a.plain_http {
            None
        } else {
            Some(tls_identity(be, at, a, &ca, &config)?)
        };
        // The state opens before the server listens (its tables made once).
        let open = super::state::serving_state(at.ca, at.db)?;
        // The state is beside the CA's records, on their server when they are on one.
        let on_server = crate::cmd::ca_db::on_server(at.ca, "ca.db", at.db)?;
        let validate = pkit::acme::spawn_validators(
            a.validators.into(),
            Arc::clone(&open),
            Arc::clone(&config),
        )
        .map_err(|e| CliError::io(format!("starting validators: {e}")))?;
        let directory = format!("{}/directory", config.base_url);
        Ok(AcmeServer {
            config,
            ca,
            validate,
            open,
            dir: at.ca.to_path_buf(),
            db: at.db.clone(),
            mtc: a.mtc.clone().map(|d| (d, mtc_db(at, a))),
            tls,
            directory,
            on_server,
        })
    }

    /// One worker's handler: its own connections to the state, the CA's records and the
    /// MTC log.
    pub fn handler(&self, be: &'static Backend) -> CliResult<AcmeHandler> {
        let h = AcmeHandler::new(
            Arc::clone(&self.config),
            Arc::clone(&self.ca),
            (self.open)().map_err(|e| {
                CliError::io(format!("{}: the ACME state: {e}", self.dir.display()))
            })?,
            crate::cmd::ca_db::open_store(&self.dir, &self.db)?,
            self.validate.clone(),
            be,
            Clock::System,
        )
        .map_err(|e| CliError::io(format!("{}: the ACME state: {e}", self.dir.display())))?;
        Ok(match &self.mtc {
            Some((dir, db)) => h.with_mtc(crate::cmd::mtc::open_log(dir, db)?.0),
            None => h,
        })
    }
}

pub fn run(be: &'static Backend, a: ServeArgs) -> CliResult<Exit> {
    let mut opts = a.http.options()?;
    let at = At {
        ca: &a.ca,
        db: &a.db,
        secrets: &a.secrets,
    };
    let acme = AcmeServer::start(be, &at, &a.acme, &a.http.listen)?;
    for e in &mut opts.endpoints {
        e.tls.clone_from(&acme.tls);
    }
    opts.blocking = acme.on_server;
    let make = || acme.handler(be);
    let sig = pkit::serve::serve(&opts, make, |l| {
        log_line(
            &json!({"time": Time::now().to_string(), "event": "listening",
                         "listen": l.addr.to_string(), "threads": l.threads,
                         "directory": acme.directory}),
        );
    })?;
    log_line(&json!({"time": Time::now().to_string(), "event": "shutdown", "signal": sig}));
    Ok(Exit::Ok)
}
