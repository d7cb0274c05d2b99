//! `pkit acme serve` against the clients fleets use: certbot (PyPI, pinned by
//! scripts/test), lego (the Go library the lego command is built on,
//! `tests/go/legoclient`) and Caddy's CertMagic (`tests/go/caddyclient`), each pinned by
//! its go.sum, on 127.0.0.1 over HTTPS with the server's own certificate from its CA.
//! Each certificate is checked by `openssl verify` and `pkit verify`; each Merkle Tree
//! Certificate (`--mtc`) by `pkit mtc verify` and a relying party written from the draft
//! in Python (`tests/peers/mtc_verify.py`). A hostile client
//! (`tests/acme/hostile_client.py`) gets a problem document of the right type for each
//! thing it does wrong, and nothing is issued; two servers on one CA share their state.

mod common;

use common::{free_port, pk_ok, require, s, Peer, Server, CERTBOT, CERTBOT_ENV};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long one client run may take (a few challenges, each polled).
const CLIENT: Duration = Duration::from_secs(120);

struct Acme {
    server: Server,
    directory: String,
    http_port: u16,
    tls_port: u16,
}

/// `pkit acme serve --ca CA` on a free port, validating http-01 at `http_port` and
/// tls-alpn-01 at another free port.
fn serve(ca: &Path, log: &Path, http_port: u16, extra: &[&str]) -> Acme {
    let port = free_port();
    let tls_port = free_port();
    let mut cmd = common::pkit();
    cmd.args([
        "acme",
        "serve",
        "--ca",
        &s(ca),
        "--listen",
        &format!("127.0.0.1:{port}"),
        "--http-port",
        &http_port.to_string(),
        "--tls-port",
        &tls_port.to_string(),
        "--threads",
        "2",
        "--validators",
        "2",
    ])
    .args(extra);
    Acme {
        server: Server::start(cmd, log.to_path_buf(), "\"listening\""),
        directory: format!("https://127.0.0.1:{port}/directory"),
        http_port,
        tls_port,
    }
}

fn new_ca(dir: &Path) -> PathBuf {
    common::issue_ca(dir, "ca", "CN=ACME Test CA,O=Example,C=US", &[])
}

/// The first certificate of a PEM file verifies to the CA, by OpenSSL and by pkit, for
/// `host`.
fn verified(cert: &Path, ca: &Path, host: &str) {
    let (code, out) = common::ossl(&[
        "verify",
        "-CAfile",
        &s(&ca.join("ca.pem")),
        "-untrusted",
        &s(cert),
        &s(cert),
    ]);
    assert_eq!(code, Some(0), "openssl verify {}: {out}", cert.display());
    pk_ok(&[
        "verify",
        "--roots",
        &s(&ca.join("ca.pem")),
        "--purpose",
        "server",
        "--hostname",
        host,
        &s(cert),
    ]);
}

/// certbot's state directories under `dir`, and the server's URL and CA.
fn certbot_base(dir: &Path, acme: &Acme) -> Vec<String> {
    vec![
        "--server".into(),
        acme.directory.clone(),
        "--config-dir".into(),
        s(&dir.join("cfg")),
        "--work-dir".into(),
        s(&dir.join("work")),
        "--logs-dir".into(),
        s(&dir.join("logs")),
        "--non-interactive".into(),
    ]
}

fn certbot_run(dir: &Path, ca: &Path, acme: &Acme, args: &[&str]) -> common::Run {
    require(Peer::Certbot);
    // certbot trusts the CA through requests' bundle variable.
    let bundle = format!("REQUESTS_CA_BUNDLE={}", s(&ca.join("ca.pem")));
    let mut all: Vec<String> = vec![CERTBOT_ENV.into(), bundle, CERTBOT.into()];
    all.extend(args.iter().map(|a| a.to_string()));
    all.extend(certbot_base(dir, acme));
    let r = common::run_with("env", &all, None, CLIENT);
    assert!(!r.timed_out, "certbot hung: {}", r.describe());
    r
}

/// `certbot certonly --standalone -d NAME…` (http-01 on the server's port for it), a
/// new account agreeing to the terms.
fn certbot_certonly(dir: &Path, ca: &Path, acme: &Acme, names: &[&str]) -> common::Run {
    let hp = acme.http_port.to_string();
    let mut args = vec![
        "certonly",
        "--standalone",
        "--http-01-port",
        &hp,
        "--http-01-address",
        "127.0.0.1",
        "--agree-tos",
        "--register-unsafely-without-email",
    ];
    for n in names {
        args.extend(["-d", n]);
    }
    certbot_run(dir, ca, acme, &args)
}

fn issued_rows(ca: &Path) -> Vec<Value> {
    let r = pk_ok(&["issue", "list", "--ca", &s(ca), "-f", "json"]);
    common::json_items(&r)
}

#[test]
fn certbot_gets_and_revokes_a_certificate_and_binds_its_account() {
    require(Peer::Certbot);
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d);
    let acme = serve(&ca, &d.join("serve.log"), free_port(), &[]);
    let r = certbot_certonly(d, &ca, &acme, &["localhost"]);
    assert_eq!(r.code, Some(0), "certbot certonly: {}", r.describe());
    let live = d.join("cfg/live/localhost");
    verified(&live.join("fullchain.pem"), &ca, "localhost");
    // The CA recorded it like any certificate it issues; the ACME records say whose.
    let rows = issued_rows(&ca);
    let ours = rows
        .iter()
        .find(|r| r["subject"] == "CN=localhost")
        .unwrap_or_else(|| panic!("not in the CA's records: {rows:?}"));
    let orders = common::json_items(&pk_ok(&["acme", "orders", "--ca", &s(&ca), "-f", "json"]));
    assert_eq!(orders.len(), 1, "{orders:?}");
    assert_eq!(orders[0]["status"], "valid");
    assert_eq!(orders[0]["serial_number"], ours["serial_number"]);
    // certbot revokes it with its account key; the CA's records say revoked.
    let cert = s(&live.join("cert.pem"));
    let r = certbot_run(
        d,
        &ca,
        &acme,
        &["revoke", "--cert-path", &cert, "--no-delete-after-revoke"],
    );
    assert_eq!(r.code, Some(0), "certbot revoke: {}", r.describe());
    let rows = issued_rows(&ca);
    let row = rows
        .iter()
        .find(|r| r["serial_number"] == ours["serial_number"])
        .unwrap();
    assert_eq!(row["status"], "revoked", "{row}");
    // A server that binds accounts (EAB): certbot without a binding is refused with
    // externalAccountRequired, and with one it registers.
    let keys = common::write_file(
        d,
        "eab.keys",
        b"# kid key\nfleet-1 c2VjcmV0LXNoYXJlZC13aXRoLXRoZS1mbGVldA\n",
    );
    let bound = serve(
        &ca,
        &d.join("serve-eab.log"),
        free_port(),
        &["--eab-keys", &s(&keys)],
    );
    let e = d.join("eab");
    let r = certbot_run(
        &e,
        &ca,
        &bound,
        &[
            "register",
            "--agree-tos",
            "--register-unsafely-without-email",
        ],
    );
    assert_ne!(r.code, Some(0), "{}", r.describe());
    let text = format!("{}{}", r.stdout_str(), r.stderr_str());
    assert!(
        text.contains("externalAccountRequired") || text.contains("external account"),
        "{text}"
    );
    let r = certbot_run(
        &e,
        &ca,
        &bound,
        &[
            "register",
            "--agree-tos",
            "--register-unsafely-without-email",
            "--eab-kid",
            "fleet-1",
            "--eab-hmac-key",
            "c2VjcmV0LXNoYXJlZC13aXRoLXRoZS1mbGVldA",
        ],
    );
    assert_eq!(
        r.code,
        Some(0),
        "certbot register with EAB: {}",
        r.describe()
    );
    let accounts = common::json_items(&pk_ok(&["acme", "accounts", "--ca", &s(&ca), "-f", "json"]));
    assert_eq!(accounts.len(), 2, "{accounts:?}");
}

/// A CA that may certify only `fleet.internal` and 127.0.0.0/8 (nameConstraints), and
/// whose policy denies 127.0.0.2: an order naming anything else is refused at newOrder
/// with rejectedIdentifier, naming the rule, before any authorization exists; what the
/// chain allows is issued.
#[test]
fn clients_are_refused_names_the_cas_chain_or_policy_forbids_before_any_authorization() {
    require(Peer::Certbot);
    let t = common::tempdir();
    let d = t.path();
    let ca = common::issue_ca(
        d,
        "ca",
        "CN=ACME Constrained CA,O=Example,C=US",
        &[
            "--permit",
            "DNS:fleet.internal",
            "--permit",
            "IP:127.0.0.0/8",
            "--deny",
            "IP:127.0.0.2",
        ],
    );
    let acme = serve(&ca, &d.join("serve.log"), free_port(), &[]);
    let r = certbot_certonly(d, &ca, &acme, &["localhost"]);
    assert_ne!(r.code, Some(0), "certbot certonly: {}", r.describe());
    let text = format!("{}{}", r.stdout_str(), r.stderr_str());
    assert!(
        text.contains("the CA will not issue for localhost: name-constraints"),
        "{text}"
    );
    // certbot prints the detail; its log has the problem document's type.
    let log = std::fs::read_to_string(d.join("logs/letsencrypt.log")).unwrap_or_default();
    assert!(
        log.contains("urn:ietf:params:acme:error:rejectedIdentifier"),
        "{log}"
    );
    let orders = common::json_items(&pk_ok(&["acme", "orders", "--ca", &s(&ca), "-f", "json"]));
    assert!(orders.is_empty(), "an order was made: {orders:?}");
    assert_eq!(
        issued_rows(&ca).len(),
        1,
        "only the server's own certificate"
    );
    let Some(bin) = lego() else {
        return;
    };
    let state = d.join("lego");
    let denied = common::run_with(
        "env",
        &[
            format!("LEGO_CA_CERTIFICATES={}", s(&ca.join("ca.pem"))),
            s(&bin),
            "-server".into(),
            acme.directory.clone(),
            "-state".into(),
            s(&state),
            "-http-port".into(),
            acme.http_port.to_string(),
            "-tls-port".into(),
            acme.tls_port.to_string(),
            "-domains".into(),
            "127.0.0.2".into(),
            "obtain".into(),
            s(&d.join("denied.pem")),
        ],
        None,
        CLIENT,
    );
    assert_ne!(denied.code, Some(0), "{}", denied.describe());
    let text = denied.stderr_str();
    assert!(
        text.contains("rejectedIdentifier")
            && text.contains("denied by the CA's rule deny IP:127.0.0.2"),
        "{text}"
    );
    assert!(
        common::json_items(&pk_ok(&["acme", "orders", "--ca", &s(&ca), "-f", "json"])).is_empty()
    );
    let allowed = d.join("allowed.pem");
    lego_run(
        &bin,
        &ca,
        &acme,
        &state,
        &["-domains", "127.0.0.1", "obtain", &s(&allowed)],
    );
    verified(&allowed, &ca, "127.0.0.1");
    assert_eq!(
        issued_rows(&ca).len(),
        2,
        "the server's own and the client's"
    );
}

/// `tests/go/legoclient`, built.
fn lego() -> Option<PathBuf> {
    common::go_program(
        "legoclient",
        "lego asks pkit acme serve for certificates",
        "Go >= 1.22 with the module proxy reachable (tests/go/legoclient/go.sum pins lego v5.6.0)",
    )
}

fn lego_run(bin: &Path, ca: &Path, acme: &Acme, state: &Path, args: &[&str]) -> Value {
    client_report("env", &lego_args(bin, ca, acme, state, args))
}

/// legoclient's command line (through `env`, which gives it the CA to trust).
fn lego_args(bin: &Path, ca: &Path, acme: &Acme, state: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec![
        format!("LEGO_CA_CERTIFICATES={}", s(&ca.join("ca.pem"))),
        s(bin),
        "-server".into(),
        acme.directory.clone(),
        "-state".into(),
        s(state),
        "-http-port".into(),
        acme.http_port.to_string(),
        "-tls-port".into(),
        acme.tls_port.to_string(),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    all
}

/// Run a client program that ends with a JSON report line; the report.
fn client_report(program: &str, args: &[String]) -> Value {
    let r = common::run_with(program, args, None, CLIENT);
    assert_eq!(r.code, Some(0), "{program} {args:?}: {}", r.describe());
    // The clients log on stdout too; the report is the last line.
    let last = r.stdout_str().lines().last().unwrap_or("").to_string();
    serde_json::from_str(&last).unwrap_or_else(|e| panic!("{e}: {}", r.describe()))
}

#[test]
fn lego_gets_certificates_by_each_challenge_and_renews_by_ari() {
    let Some(bin) = lego() else {
        return;
    };
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d);
    let dns = free_port();
    let acme = serve(
        &ca,
        &d.join("serve.log"),
        free_port(),
        &[
            "--resolver",
            &format!("127.0.0.1:{dns}"),
            "--profile",
            "shortlived:7:Seven-day certificates",
            "--profile",
            "classic=server-client:90:Server and client authentication",
        ],
    );
    let state = d.join("lego");
    // http-01 for a name and an address (RFC 8738).
    let first = d.join("first.pem");
    lego_run(
        &bin,
        &ca,
        &acme,
        &state,
        &["-domains", "localhost,127.0.0.1", "obtain", &s(&first)],
    );
    verified(&first, &ca, "localhost");
    verified(&first, &ca, "127.0.0.1");
    // dns-01 for a wildcard, against the DNS server legoclient runs on 127.0.0.1, which
    // the ACME server asks (--resolver); with the short-lived profile.
    let wild = d.join("wild.pem");
    lego_run(
        &bin,
        &ca,
        &acme,
        &state,
        &[
            "-challenge",
            "dns-01",
            "-dns",
            &format!("127.0.0.1:{dns}"),
            "-profile",
            "shortlived",
            "-domains",
            "www.example.test,*.example.test",
            "obtain",
            &s(&wild),
        ],
    );
    verified(&wild, &ca, "any.example.test");
    // tls-alpn-01 (RFC 8737) for a name and an address (SNI its reverse name), by a new
    // account, so that no authorization is reused.
    let alpn = d.join("alpn.pem");
    lego_run(
        &bin,
        &ca,
        &acme,
        &d.join("lego-alpn"),
        &[
            "-challenge",
            "tls-alpn-01",
            "-profile",
            "classic",
            "-dns",
            &format!("127.0.0.1:{dns}"),
            "-domains",
            "localhost,127.0.0.1",
            "obtain",
            &s(&alpn),
        ],
    );
    verified(&alpn, &ca, "127.0.0.1");
    // The classic profile is pkit's server-client: clientAuth beside serverAuth.
    let (code, text) = common::ossl(&[
        "x509",
        "-in",
        &s(&alpn),
        "-noout",
        "-ext",
        "extendedKeyUsage",
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("TLS Web Client Authentication"), "{text}");
    let v = common::json_items(&pk_ok(&["parse", "-f", "json", &s(&wild)]));
    let at = |k: &str| {
        pkit::der::Time::parse_rfc3339(v[0]["validity"][k].as_str().unwrap())
            .unwrap()
            .unix
    };
    let days = (at("not_after") - at("not_before") + 1) as f64 / 86_400.0;
    assert!(days > 0.0 && days <= 7.0, "the profile's 7 days: {}", v[0]);
    // Renewal: lego reads the renewal window (RFC 9773) and orders with `replaces`.
    let out = lego_run(&bin, &ca, &acme, &state, &["renew", &s(&first)]);
    assert!(out["window_start"].is_string(), "{out}");
    verified(&d.join("first.pem.new"), &ca, "localhost");
    let orders = common::json_items(&pk_ok(&["acme", "orders", "--ca", &s(&ca), "-f", "json"]));
    let renewal = orders.last().unwrap();
    assert!(renewal["replaces"].is_string(), "{orders:?}");
    assert_eq!(
        orders.iter().filter(|o| o["status"] == "valid").count(),
        4,
        "{orders:?}"
    );
}

/// A client run that must fail, its problems named: what it printed.
fn client_refused(r: &common::Run, needles: &[&str]) -> String {
    assert!(!r.timed_out, "hung: {}", r.describe());
    assert_ne!(r.code, Some(0), "expected a refusal: {}", r.describe());
    let text = format!("{}{}", r.stdout_str(), r.stderr_str());
    for n in needles {
        assert!(text.contains(n), "{n:?} not in: {text}");
    }
    text
}

#[test]
fn caa_records_let_lego_and_certbot_through_or_not() {
    let Some(bin) = lego() else {
        return;
    };
    require(Peer::Certbot);
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d);
    let resolver = format!("127.0.0.1:{}", free_port());
    let acme = serve(
        &ca,
        &d.join("serve.log"),
        free_port(),
        &["--resolver", &resolver, "--caa-identity", "ca.example"],
    );
    let before = issued_rows(&ca).len();
    // lego's account is the first this CA has; certbot's the second.
    let lego_account = acme.directory.replace("/directory", "/acct/1");
    let zone = common::write_file(
        d,
        "caa.zone",
        format!(
            "# Names and wildcards under allow.test: this CA.
allow.test. CAA 0 issue \"ca.example\"
# Another CA only; alias.test is a CNAME to it.
forbid.test. CAA 0 issue \"other.example\"
alias.test. CNAME forbid.test.
# Names yes, wildcards no.
nowild.test. CAA 0 issue \"CA.Example\"
nowild.test. CAA 0 issuewild \";\"
# RFC 8657: by dns-01 only; for lego's account only.
methods.test. CAA 0 issue \"ca.example; validationmethods=dns-01\"
account.test. CAA 0 issue \"ca.example; accounturi={lego_account}\"
# Every question about it fails.
broken.test. SERVFAIL
"
        )
        .as_bytes(),
    );
    let (zone, state) = (s(&zone), d.join("lego"));
    // lego by dns-01, against the DNS server legoclient runs with the zone.
    let dns01 = |domains: &str, cert: &Path| {
        let args = lego_args(
            &bin,
            &ca,
            &acme,
            &state,
            &[
                "-challenge",
                "dns-01",
                "-dns",
                &resolver,
                "-zone",
                &zone,
                "-domains",
                domains,
                "obtain",
                &s(cert),
            ],
        );
        common::run_with("env", &args, None, CLIENT)
    };
    // Allowed: names climbing to allow.test, its wildcard, a name where only wildcards
    // are forbidden, dns-01 where only dns-01 is allowed, this account where only it is.
    let allowed = d.join("allowed.pem");
    let r = dns01(
        "www.allow.test,*.allow.test,www.nowild.test,methods.test,account.test",
        &allowed,
    );
    assert_eq!(r.code, Some(0), "lego: {}", r.describe());
    let report: Value = serde_json::from_str(r.stdout_str().lines().last().unwrap_or("")).unwrap();
    assert_eq!(report["account"], lego_account.as_str(), "{report}");
    verified(&allowed, &ca, "any.allow.test");
    verified(&allowed, &ca, "account.test");
    // Refused: another CA's name, a wildcard where wildcards are forbidden (caa), and a
    // look-up that fails (dns), each problem naming its name.
    let r = dns01(
        "forbid.test,*.nowild.test,www.broken.test",
        &d.join("no.pem"),
    );
    client_refused(
        &r,
        &[
            "error:caa",
            "CAA records at forbid.test forbid ca.example to issue for forbid.test",
            "CAA records at nowild.test forbid ca.example to issue for *.nowild.test: issuewild",
            "error:dns",
            "CAA for www.broken.test",
        ],
    );
    // certbot by http-01: the server resolves each name at the DNS server (A 127.0.0.1,
    // where certbot answers) and asks it for CAA.
    let mut cmd = std::process::Command::new(&bin);
    cmd.args(["-dns", &resolver, "-zone", &zone, "dns"]);
    let _dns = Server::start(cmd, d.join("dns.log"), "serving DNS");
    let certonly =
        |dir: &str, domains: &[&str]| certbot_certonly(&d.join(dir), &ca, &acme, domains);
    let r = certonly("certbot", &["www.allow.test"]);
    assert_eq!(r.code, Some(0), "certbot: {}", r.describe());
    verified(
        &d.join("certbot/cfg/live/www.allow.test/fullchain.pem"),
        &ca,
        "www.allow.test",
    );
    // Refused: through a CNAME to another CA's name; by http-01 where dns-01 only is
    // allowed; by an account the records do not name.
    let r = certonly("certbot", &["alias.test", "methods.test", "account.test"]);
    client_refused(
        &r,
        &[
            "caa",
            "CAA records at alias.test forbid ca.example to issue for alias.test",
            "validationmethods does not list http-01",
            "accounturi is not this account",
        ],
    );
    // Two orders valid, two certificates issued; the refused orders issued nothing.
    let orders = common::json_items(&pk_ok(&["acme", "orders", "--ca", &s(&ca), "-f", "json"]));
    let valid = orders.iter().filter(|o| o["status"] == "valid").count();
    assert_eq!((orders.len(), valid), (4, 2), "{orders:?}");
    assert_eq!(issued_rows(&ca).len(), before + 2);
}

fn hostile(acme: &Acme, ca: &Path, other: Option<&str>) -> Vec<Value> {
    require(Peer::PythonCryptography);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/acme/hostile_client.py");
    let mut args = vec![
        s(&script),
        acme.directory.clone(),
        s(&ca.join("ca.pem")),
        acme.http_port.to_string(),
        acme.tls_port.to_string(),
    ];
    args.extend(other.map(str::to_string));
    let r = common::run_with("python3", &args, None, CLIENT);
    assert_eq!(r.code, Some(0), "hostile_client.py: {}", r.describe());
    r.stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The hostile client's report of `name`.
fn scenario<'a>(seen: &'a [Value], name: &str) -> &'a Value {
    seen.iter()
        .find(|v| v["scenario"] == name)
        .unwrap_or_else(|| panic!("no {name} in {seen:?}"))
}

/// Servers `a` and `b` on one CA share their state: a nonce the first issued is good at
/// the second, once; the account the second made is the first's too.
fn shared_between(a: &Acme, b: &Acme, ca: &Path) {
    let seen = hostile(a, ca, Some(&b.directory));
    let status = |name: &str| scenario(&seen, name)["status"].clone();
    assert_eq!(status("nonce_from_first_at_second"), 201, "{seen:?}");
    assert_eq!(status("same_nonce_back_at_first"), 400, "{seen:?}");
    assert_eq!(status("account_from_second_at_first"), 200, "{seen:?}");
}

#[test]
fn a_hostile_client_gets_the_right_problems_and_nothing_wrong_is_issued() {
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d);
    let acme = serve(
        &ca,
        &d.join("serve.log"),
        free_port(),
        &["--orders-per-account", "10/1h"],
    );
    let before = issued_rows(&ca).len();
    let seen = hostile(&acme, &ca, None);
    let by = |name: &str| scenario(&seen, name);
    let acme_type = |name: &str| {
        by(name)["type"]
            .as_str()
            .unwrap_or("")
            .trim_start_matches("urn:ietf:params:acme:error:")
            .to_string()
    };
    for (scenario, kind, status) in [
        ("nonce_replayed", "badNonce", 400),
        ("nonce_made_up", "badNonce", 400),
        ("wrong_url", "unauthorized", 401),
        ("not_the_accounts_key", "malformed", 400),
        ("jwk_for_order", "malformed", 400),
        ("not_jose", "malformed", 400),
        ("only_existing", "accountDoesNotExist", 400),
        ("bad_identifier", "rejectedIdentifier", 400),
        ("csr_other_names", "badCSR", 400),
        ("others_order", "unauthorized", 403),
        ("revoke_forged", "unauthorized", 403),
        ("revoke_by_other_key", "unauthorized", 403),
        ("revoke_again", "alreadyRevoked", 400),
        ("replaces_not_a_cert_id", "malformed", 400),
        ("replaces_unknown_serial", "malformed", 400),
        ("replaces_other_issuer", "malformed", 400),
        ("replaces_others_cert", "unauthorized", 403),
        ("replaces_other_names", "malformed", 400),
        ("replaces_again", "alreadyReplaced", 409),
    ] {
        assert_eq!(acme_type(scenario), kind, "{}", by(scenario));
        assert_eq!(by(scenario)["status"], status, "{}", by(scenario));
        assert_eq!(by(scenario)["content_type"], "application/problem+json");
    }
    assert_eq!(by("nonce_first_use")["status"], 201);
    // The renewal's order records the certificate it replaces; the next is refused
    // naming it, until it is invalid.
    assert_eq!(
        by("replaces_first")["status"],
        201,
        "{}",
        by("replaces_first")
    );
    assert_eq!(by("replaces_first")["same_id"], true);
    let first = by("replaces_first")["location"].as_str().unwrap();
    assert!(
        by("replaces_again")["detail"]
            .as_str()
            .unwrap()
            .contains(first),
        "{}",
        by("replaces_again")
    );
    assert_eq!(by("replaces_after_invalid")["status"], 201);
    // A bad CSR leaves the order ready, with no certificate.
    assert_eq!(by("order_after_bad_csr")["order"], "ready");
    assert!(by("order_after_bad_csr")["certificate"].is_null());
    // A target that never answers costs the validation timeout, one that floods is cut at
    // 8 KiB: both challenges end invalid.
    assert_eq!(by("target_hangs")["authz"], "invalid");
    assert_eq!(acme_type("target_hangs"), "connection");
    assert!(by("target_hangs")["seconds"].as_f64().unwrap() < 20.0);
    assert_eq!(by("target_floods")["authz"], "invalid");
    assert!(by("target_floods")["detail"]
        .as_str()
        .unwrap()
        .contains("8192 bytes"));
    // The account's tenth order in the hour is its last (seven were made above).
    assert_eq!(
        acme_type("rate_limited"),
        "rateLimited",
        "{}",
        by("rate_limited")
    );
    assert_eq!(by("rate_limited")["status"], 429);
    // tls-alpn-01 needs acme-tls/1 negotiated (RFC 8737 §3), not only the right
    // certificate.
    assert_eq!(by("alpn_not_negotiated")["authz"], "invalid");
    assert_eq!(acme_type("alpn_not_negotiated"), "unauthorized");
    assert!(by("alpn_not_negotiated")["detail"]
        .as_str()
        .unwrap()
        .contains("acme-tls/1"));
    assert_eq!(
        by("rate_limited")["accepted_before"],
        3,
        "{}",
        by("rate_limited")
    );
    assert!(by("rate_limited")["retry_after"].is_string());
    assert_eq!(by("revoke_by_account")["status"], 200);
    // One certificate was issued (the order finalized properly), and it is revoked;
    // nothing else (the server's own HTTPS certificate was, at start).
    let rows = issued_rows(&ca);
    assert_eq!(rows.len(), before + 1, "{rows:?}");
    assert_eq!(rows.iter().filter(|r| r["status"] == "revoked").count(), 1);
    let mut acme = acme;
    assert_eq!(
        acme.server.terminate(),
        Some(0),
        "{}",
        acme.server.log_text()
    );
}

#[test]
fn two_servers_on_one_ca_share_nonces_and_accounts() {
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d);
    let a = serve(&ca, &d.join("a.log"), free_port(), &[]);
    let b = serve(&ca, &d.join("b.log"), free_port(), &[]);
    shared_between(&a, &b, &ca);
}

#[test]
fn two_servers_on_one_postgresql_database_serve_one_ca() {
    let Some(db) = common::pg_database("acme_two_servers") else {
        return;
    };
    let t = common::tempdir();
    let d = t.path();
    // The CA's records on the server (DIR/db.url); the ACME state goes beside them.
    let args = db.args();
    let ca = common::issue_ca(
        d,
        "ca",
        "CN=ACME PG CA,O=Example,C=US",
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let passin = format!("pass:{}", db.password);
    let pg = ["--db-passin", passin.as_str()];
    let a = serve(&ca, &d.join("a.log"), free_port(), &pg);
    let b = serve(&ca, &d.join("b.log"), free_port(), &pg);
    assert!(!ca.join("acme.db").exists(), "the state is in PostgreSQL");
    // A nonce from one is spent at the other, once; an account made at one is the other's.
    shared_between(&a, &b, &ca);
    // Clients spread over both: an order at one, its renewal at the other.
    if let Some(bin) = lego() {
        let state = d.join("lego");
        let cert = d.join("c.pem");
        lego_run(
            &bin,
            &ca,
            &a,
            &state,
            &["-domains", "localhost", "obtain", &s(&cert)],
        );
        verified(&cert, &ca, "localhost");
        lego_run(
            &bin,
            &ca,
            &b,
            &state,
            &["-domains", "localhost", "renew", &s(&cert)],
        );
        verified(&d.join("c.pem.new"), &ca, "localhost");
        assert_eq!(
            db.psql("SELECT count(*) FROM acme_orders WHERE status = 'valid'"),
            "2"
        );
        assert_eq!(
            db.psql("SELECT count(*) FROM acme_orders WHERE replaces IS NOT NULL"),
            "1"
        );
        // The same certificate renewed again, at the first: replaced already (409
        // alreadyReplaced, RFC 9773 §5), which lego answers by ordering without
        // `replaces`.
        lego_run(
            &bin,
            &ca,
            &a,
            &state,
            &["-domains", "localhost", "renew", &s(&cert)],
        );
        assert!(
            a.server
                .log_text()
                .contains("\"problem\":\"alreadyReplaced\""),
            "{}",
            a.server.log_text()
        );
        assert_eq!(
            db.psql("SELECT count(*) FROM acme_orders WHERE status = 'valid'"),
            "3"
        );
        assert_eq!(
            db.psql("SELECT count(*) FROM acme_orders WHERE replaces IS NOT NULL"),
            "1"
        );
    }
    let ca_dir = s(&ca);
    let mut list = vec!["acme", "orders", "--ca", &ca_dir, "-f", "json"];
    list.extend_from_slice(&pg);
    let orders = common::json_items(&pk_ok(&list));
    assert!(orders.iter().all(|o| o["status"] == "valid"), "{orders:?}");
    // SIGTERM drains both: each closes its connections and exits 0.
    let (mut a, mut b) = (a, b);
    assert_eq!(a.server.terminate(), Some(0), "{}", a.server.log_text());
    assert_eq!(b.server.terminate(), Some(0), "{}", b.server.log_text());
}

/// GET `url` (trusting `ca` for HTTPS): the body as JSON.
fn get_json(url: &str, ca: &Path) -> Value {
    require(Peer::Python);
    let code = "import ssl, sys, urllib.request as u; \
                ctx = ssl.create_default_context(cafile=sys.argv[2]); \
                print(u.urlopen(sys.argv[1], context=ctx, timeout=20).read().decode())";
    let r = common::run_with(
        "python3",
        &["-c", code, url, &s(&ca.join("ca.pem"))],
        None,
        common::HANG,
    );
    assert_eq!(r.code, Some(0), "GET {url}: {}", r.describe());
    serde_json::from_str(r.stdout_str().trim()).unwrap()
}

#[test]
fn the_servers_options_and_what_it_refuses_at_start() {
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d);
    // Plain HTTP behind a proxy, with terms of service and a profile in the directory.
    let plain = serve(
        &ca,
        &d.join("plain.log"),
        free_port(),
        &[
            "--plain-http",
            "--terms-of-service",
            "https://example.com/tos",
            "--profile",
            "shortlived:6",
        ],
    );
    let url = plain.directory.replace("https://", "http://");
    let dir = get_json(&url, &ca);
    assert_eq!(
        dir["meta"]["termsOfService"], "https://example.com/tos",
        "{dir}"
    );
    assert_eq!(dir["meta"]["profiles"]["shortlived"], "6-day certificates");
    assert!(
        dir["newOrder"].as_str().unwrap().starts_with("http://"),
        "{dir}"
    );
    // HTTPS with a certificate and key given.
    let cert = common::issue_leaf(&ca, d, "tls", &["--san", "IP:127.0.0.1"]);
    let given = serve(
        &ca,
        &d.join("given.log"),
        free_port(),
        &["--tls-cert", &s(&cert), "--tls-key", &s(&d.join("tls.key"))],
    );
    let dir = get_json(&given.directory, &ca);
    assert!(
        dir["newNonce"].as_str().unwrap().starts_with("https://"),
        "{dir}"
    );
    // An MTC CA whose cosigner.key `mtc ca new --passout` encrypted: --mtc-passin.
    let sealed = d.join("sealed");
    std::fs::create_dir_all(&sealed).unwrap();
    let sealed = new_mtc_ca(&sealed, &["--passout", "pass:mtc-pw"]);
    let with_mtc = serve(
        &ca,
        &d.join("sealed.log"),
        free_port(),
        &["--mtc", &s(&sealed), "--mtc-passin", "pass:mtc-pw"],
    );
    get_json(&with_mtc.directory, &ca);
    drop(with_mtc);
    // Refused at start, each with one line naming what is wrong, and nothing served.
    let bad_key = common::write_file(d, "bad.key", b"not a key\n");
    let eab = common::write_file(d, "eab.keys", b"kid-only\n");
    let port = free_port().to_string();
    let listen = format!("127.0.0.1:{port}");
    let base = ["acme", "serve", "--ca", &s(&ca), "--listen", &listen];
    for (extra, code, words) in [
        (
            vec![
                "--tls-cert".to_string(),
                s(&cert),
                "--tls-key".into(),
                s(&bad_key),
            ],
            4,
            vec!["bad.key", "private key"],
        ),
        (
            vec!["--eab-keys".into(), s(&eab)],
            3,
            vec!["eab.keys", "line 1"],
        ),
        (
            vec!["--profile".into(), "long:400".into()],
            2,
            vec!["--profile long:400", "at most"],
        ),
        (
            vec!["--profile".into(), "x=code-signing:10".into()],
            2,
            vec!["server, server-client or mtc"],
        ),
        (
            vec!["--profile".into(), "m=mtc:7".into()],
            2,
            vec!["--profile m=mtc:7", "needs --mtc DIR"],
        ),
        (
            vec![
                "--mtc".into(),
                s(&new_mtc_ca(d, &[])),
                "--checkpoint-every".into(),
                "0s".into(),
            ],
            2,
            vec!["--checkpoint-every 0s", "expected a duration"],
        ),
        (
            vec![
                "--mtc".into(),
                s(&d.join("mtc")),
                "--mtc-days".into(),
                "400".into(),
            ],
            2,
            vec!["--mtc-days 400", "at most"],
        ),
        (
            vec!["--mtc".into(), s(&damaged_mtc_ca(d))],
            3,
            vec!["mtc-ca.pem", "expected the MTC CA certificate"],
        ),
        (
            vec!["--mtc".into(), s(&sealed)],
            3,
            vec!["cosigner.key", "encrypted", "--passin"],
        ),
        (
            vec![
                "--mtc".into(),
                s(&sealed),
                "--mtc-passin".into(),
                "pass:wrong".into(),
            ],
            3,
            vec!["cosigner.key", "wrong password"],
        ),
        (
            vec!["--mtc".into(), s(&d.join("no-mtc"))],
            4,
            vec!["no-mtc", "no MTC database", "mtc ca new"],
        ),
        (
            vec!["--orders-per-account".into(), "lots".into()],
            2,
            vec!["N/DURATION"],
        ),
        (
            vec!["--caa-identity".into(), "ca.example.".into()],
            2,
            vec!["--caa-identity ca.example.", "domain name"],
        ),
    ] {
        let mut args: Vec<String> = base.iter().map(|a| a.to_string()).collect();
        args.extend(extra);
        let r = common::pk(&args.iter().map(String::as_str).collect::<Vec<_>>());
        common::refused(&r, code, &words, "a bad option");
    }
    // The state of a CA that never served ACME is reported missing, not made.
    let other = common::issue_ca(d, "other", "CN=Other,O=Example,C=US", &[]);
    let r = common::pk(&["acme", "orders", "--ca", &s(&other)]);
    common::refused(&r, 4, &["acme.db", "acme serve"], "no ACME state");
    assert!(!other.join("acme.db").exists());
}

/// `pkit mtc ca new` in DIR/mtc, with an Ed25519 cosigner (a key Python's
/// `cryptography` checks without ML-DSA).
fn new_mtc_ca(dir: &Path, extra: &[&str]) -> PathBuf {
    let mtc = dir.join("mtc");
    let m = s(&mtc);
    let mut args = vec![
        "mtc", "ca", "new", "--dir", &m, "--ca-id", "32473.1", "--alg", "ed25519",
    ];
    args.extend_from_slice(extra);
    pk_ok(&args);
    mtc
}

/// An MTC CA whose certificate file was damaged (its log and key intact).
fn damaged_mtc_ca(dir: &Path) -> PathBuf {
    let mtc = dir.join("damaged");
    std::fs::create_dir_all(&mtc).unwrap();
    let made = new_mtc_ca(&mtc, &[]);
    std::fs::write(
        made.join("mtc-ca.pem"),
        "-----BEGIN CERTIFICATE-----\nAAAA\n",
    )
    .unwrap();
    made
}

/// An MTC certificate verifies (§7.2) to the MTC CA in `mtc` by pkit and by the relying
/// party in Python written from the draft (tests/peers/mtc_verify.py, which also refuses
/// tampered copies), and OpenSSL reads it; with `subtrees`, landmark subtrees are
/// trusted. The Python verdict.
fn mtc_verified(cert: &Path, mtc: &Path, subtrees: Option<&Path>) -> Value {
    let ca = s(&mtc.join("mtc-ca.pem"));
    let c = s(cert);
    let mut args = vec!["mtc", "verify", "--ca", &ca, &c];
    let st = subtrees.map(s);
    if let Some(st) = &st {
        args.extend(["--trusted-subtrees", st]);
    }
    pk_ok(&args);
    let (code, text) = common::ossl(&["x509", "-in", &c, "-noout", "-serial", "-dates"]);
    assert_eq!(code, Some(0), "openssl x509 {c}: {text}");
    require(Peer::PythonCryptography);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/mtc_verify.py");
    let mut py = vec![s(&script), ca.clone(), c.clone()];
    py.extend(st);
    let r = common::run_with("python3", &py, None, CLIENT);
    assert_eq!(r.code, Some(0), "mtc_verify.py {c}: {}", r.describe());
    let v: Value = serde_json::from_str(r.stdout_str().trim()).expect("mtc_verify.py's JSON");
    assert_eq!(v["refused"], 3, "every tampered copy refused: {v}");
    v
}

/// The steps tests/acme/mtc_client.py reports, by name (the last of each).
fn mtc_client(acme: &Acme, ca: &Path, out: &Path) -> Vec<Value> {
    require(Peer::PythonCryptography);
    std::fs::create_dir_all(out).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/acme/mtc_client.py");
    let args = [
        s(&script),
        acme.directory.clone(),
        s(&ca.join("ca.pem")),
        acme.http_port.to_string(),
        s(out),
    ];
    let r = common::run_with("python3", &args, None, CLIENT);
    assert_eq!(r.code, Some(0), "mtc_client.py: {}", r.describe());
    r.stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn steps<'a>(seen: &'a [Value], name: &str) -> Vec<&'a Value> {
    seen.iter().filter(|v| v["step"] == name).collect()
}

#[test]
fn mtc_certificates_through_acme_standalone_then_landmark_relative() {
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d);
    let mtc = new_mtc_ca(d, &[]);
    let mut acme = serve(
        &ca,
        &d.join("serve.log"),
        free_port(),
        &[
            "--mtc",
            &s(&mtc),
            "--checkpoint-every",
            "1s",
            "--landmark-every",
            "2s",
            "--landmark-lifetime",
            "1d",
            "--profile",
            "classic=server-client:90:X.509 certificates from the CA",
        ],
    );
    // lego knows nothing of MTC: it polls the processing order (RFC 8555 §7.4) and gets
    // the standalone certificate; with the classic profile, an X.509 one beside it.
    if let Some(bin) = lego() {
        let state = d.join("lego");
        let first = d.join("lego-mtc.pem");
        lego_run(
            &bin,
            &ca,
            &acme,
            &state,
            &["-domains", "localhost", "obtain", &s(&first)],
        );
        assert_eq!(mtc_verified(&first, &mtc, None)["kind"], "standalone");
        let classic = d.join("lego-x509.pem");
        lego_run(
            &bin,
            &ca,
            &acme,
            &state,
            &[
                "-profile",
                "classic",
                "-domains",
                "localhost",
                "obtain",
                &s(&classic),
            ],
        );
        verified(&classic, &ca, "localhost");
    }
    // certbot too: it needs a chain of two, the MTC CA certificate after the leaf.
    let cb = d.join("certbot");
    let r = certbot_run(
        &cb,
        &ca,
        &acme,
        &[
            "certonly",
            "--standalone",
            "-d",
            "localhost",
            "--http-01-port",
            &acme.http_port.to_string(),
            "--agree-tos",
            "--register-unsafely-without-email",
        ],
    );
    assert_eq!(r.code, Some(0), "certbot: {}", r.describe());
    let live = cb.join("cfg/live/localhost");
    assert_eq!(
        mtc_verified(&live.join("cert.pem"), &mtc, None)["kind"],
        "standalone"
    );
    assert_eq!(
        std::fs::read_to_string(live.join("chain.pem")).unwrap(),
        std::fs::read_to_string(mtc.join("mtc-ca.pem")).unwrap()
    );
    // A client that follows the alternate link to the landmark-relative certificate.
    let out = d.join("py");
    let seen = mtc_client(&acme, &ca, &out);
    for f in steps(&seen, "finalized") {
        assert_eq!(f["status"], 200, "{seen:?}");
        assert_eq!(f["order"], "processing", "until a checkpoint: {seen:?}");
        assert_eq!(f["retry_after"], "1", "the checkpoint interval: {seen:?}");
    }
    let orders = steps(&seen, "order");
    assert_eq!(orders.len(), 3, "{seen:?}");
    assert!(orders.iter().all(|o| o["order"] == "valid"), "{seen:?}");
    for st in steps(&seen, "standalone") {
        assert_eq!(st["content_type"], "application/pem-certificate-chain");
    }
    let landmark = steps(&seen, "landmark")[0];
    assert_eq!(landmark["status"], 200, "{seen:?}");
    // The landmark-relative certificate names the standalone one as its alternate.
    let last = orders[2]["certificate"].as_str().unwrap();
    assert_eq!(landmark["alternates"][0], last, "{seen:?}");
    let revoke = steps(&seen, "revoke")[0];
    assert_eq!(revoke["status"], 400, "{seen:?}");
    assert_eq!(revoke["type"], "urn:ietf:params:acme:error:malformed");
    for i in 0..3 {
        let v = mtc_verified(&out.join(format!("standalone-{i}.pem")), &mtc, None);
        assert_eq!(v["kind"], "standalone", "{v}");
    }
    // The landmark subtrees a relying party is given (`mtc landmark list --subtrees`).
    let list = pk_ok(&["mtc", "landmark", "--dir", &s(&mtc), "list", "--subtrees"]);
    let subtrees = d.join("subtrees.txt");
    std::fs::write(&subtrees, list.stdout_str()).unwrap();
    let v = mtc_verified(&out.join("landmark.pem"), &mtc, Some(&subtrees));
    assert_eq!(v["kind"], "landmark", "{v}");
    // The ACME state names each MTC order's log entry; the server logged its checkpoints
    // and landmarks.
    let listed = common::json_items(&pk_ok(&["acme", "orders", "--ca", &s(&ca), "-f", "json"]));
    let mtc_orders = listed.iter().filter(|o| o["mtc_index"].is_u64()).count();
    assert_eq!(
        mtc_orders,
        if lego().is_some() { 5 } else { 4 },
        "{listed:?}"
    );
    assert_eq!(acme.server.terminate(), Some(0));
    let log = acme.server.log_text();
    assert!(log.contains("\"event\":\"mtc_checkpoint\""), "{log}");
    assert!(log.contains("\"event\":\"mtc_landmark\""), "{log}");
    // Every request line names what answered it, as `ca serve`'s lines do.
    let requests: Vec<Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["event"] == "request")
        .collect();
    assert!(
        !requests.is_empty() && requests.iter().all(|v| v["route"] == "acme"),
        "{log}"
    );
}

#[test]
fn mtc_orders_at_two_servers_on_postgresql_share_one_log() {
    let Some(records) = common::pg_database("acme_mtc_records") else {
        return;
    };
    let Some(log_db) = common::pg_database("acme_mtc_log") else {
        return;
    };
    let Some(bin) = lego() else {
        return;
    };
    let t = common::tempdir();
    let d = t.path();
    let args = records.args();
    let ca = common::issue_ca(
        d,
        "ca",
        "CN=ACME PG CA,O=Example,C=US",
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let log_args = log_db.args();
    let mtc = new_mtc_ca(d, &log_args.iter().map(String::as_str).collect::<Vec<_>>());
    let (passin, mtc_passin) = (
        format!("pass:{}", records.password),
        format!("pass:{}", log_db.password),
    );
    let opts = [
        "--db-passin",
        passin.as_str(),
        "--mtc",
        &s(&mtc),
        "--mtc-db-passin",
        mtc_passin.as_str(),
        "--checkpoint-every",
        "1s",
    ];
    let mut a = serve(&ca, &d.join("a.log"), free_port(), &opts);
    let mut b = serve(&ca, &d.join("b.log"), free_port(), &opts);
    // One order at each server: both entries in the one log, each certificate made by
    // whichever server the client polled, both checkpointers taking turns.
    let state = d.join("lego");
    for (server, name) in [(&a, "at-a.pem"), (&b, "at-b.pem")] {
        let cert = d.join(name);
        lego_run(
            &bin,
            &ca,
            server,
            &state,
            &["-domains", "localhost", "obtain", &s(&cert)],
        );
        mtc_verified(&cert, &mtc, None);
    }
    assert_eq!(log_db.psql("SELECT count(*) FROM entries"), "2");
    assert_eq!(
        records.psql(
            "SELECT count(*) FROM acme_orders WHERE status = 'valid' AND mtc_index IS NOT NULL"
        ),
        "2"
    );
    // The two serials are the log's entries 0 and 1.
    let serials = records.psql("SELECT serial FROM acme_certs ORDER BY serial");
    assert_eq!(serials, "01000000000000\n01000000000001", "{serials}");
    assert_eq!(a.server.terminate(), Some(0), "{}", a.server.log_text());
    assert_eq!(b.server.terminate(), Some(0), "{}", b.server.log_text());
}

#[test]
fn an_order_a_stopped_server_left_processing_ends_invalid() {
    require(Peer::PythonCryptography);
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d);
    let acme = serve(&ca, &d.join("serve.log"), free_port(), &[]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/acme/abandoned.py");
    let args = [
        s(&script),
        acme.directory.clone(),
        s(&ca.join("ca.pem")),
        acme.http_port.to_string(),
        s(&ca.join("acme.db")),
    ];
    let order = client_report("python3", &args);
    assert_eq!(order["status"], "invalid", "{order}");
    assert_eq!(
        order["error"]["type"], "urn:ietf:params:acme:error:serverInternal",
        "{order}"
    );
    assert!(order["error"]["detail"]
        .as_str()
        .unwrap()
        .contains("order again"));
}

fn caddy() -> Option<PathBuf> {
    common::go_program(
        "caddyclient",
        "Caddy's ACME issuer (CertMagic) asks pkit acme serve for certificates",
        "Go >= 1.22 with the module proxy reachable (tests/go/caddyclient/go.sum pins CertMagic v0.25.6)",
    )
}

fn caddy_run(bin: &Path, ca: &Path, acme: &Acme, args: &[&str]) -> Value {
    let mut all = vec![
        "-server".to_string(),
        acme.directory.clone(),
        "-ca".into(),
        s(&ca.join("ca.pem")),
        "-http-port".into(),
        acme.http_port.to_string(),
        "-tls-port".into(),
        acme.tls_port.to_string(),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    client_report(&s(bin), &all)
}

#[test]
fn caddy_certmagic_gets_and_renews_certificates() {
    let Some(bin) = caddy() else {
        return;
    };
    let t = common::tempdir();
    let d = t.path();
    let ca = new_ca(d);
    let acme = serve(&ca, &d.join("serve.log"), free_port(), &[]);
    let storage = s(&d.join("certmagic"));
    // http-01 for a name, tls-alpn-01 for an address (RFC 8737, 8738): CertMagic answers
    // both itself, as Caddy does.
    let name = d.join("name.pem");
    caddy_run(
        &bin,
        &ca,
        &acme,
        &[
            "-storage",
            &storage,
            "-domain",
            "localhost",
            "obtain",
            &s(&name),
        ],
    );
    verified(&name, &ca, "localhost");
    let addr = d.join("addr.pem");
    caddy_run(
        &bin,
        &ca,
        &acme,
        &[
            "-storage",
            &storage,
            "-domain",
            "127.0.0.1",
            "-challenge",
            "tls-alpn-01",
            "obtain",
            &s(&addr),
        ],
    );
    verified(&addr, &ca, "127.0.0.1");
    // A forced renewal: CertMagic reads the renewal window (RFC 9773) and orders with
    // `replaces`.
    let renewed = d.join("renewed.pem");
    let out = caddy_run(
        &bin,
        &ca,
        &acme,
        &[
            "-storage",
            &storage,
            "-domain",
            "localhost",
            "renew",
            &s(&renewed),
        ],
    );
    verified(&renewed, &ca, "localhost");
    let orders = common::json_items(&pk_ok(&["acme", "orders", "--ca", &s(&ca), "-f", "json"]));
    assert_eq!(orders.len(), 3, "{orders:?}");
    assert!(orders.iter().all(|o| o["status"] == "valid"), "{orders:?}");
    assert!(orders[2]["replaces"].is_string(), "{orders:?}");
    assert_eq!(
        orders[2]["serial_number"]
            .as_str()
            .unwrap()
            .trim_start_matches('0'),
        out["serial"].as_str().unwrap().trim_start_matches('0'),
        "{out}"
    );
}
