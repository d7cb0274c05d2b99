//! `pkit verify`: is this certificate to be trusted? For each input, its first
//! certificate is the target and the rest are intermediates it came with; a path to a
//! trust anchor is built and validated (`pkit::pki::verify`), and one verdict per input
//! is printed. Exit 0 when every input is valid, 1 when any is not.

use super::ca_db::{open_store, DbArgs};
use super::ca_dir::{load_ca_cert, parse_duration, parse_time};
use super::error::{CliError, CliResult, Exit};
use super::io::{self, InForm, Item};
use super::output;
use clap::{Args, ValueEnum};
use pkit::der::Time;
use pkit::pki::backend::Backend;
use pkit::pki::cert::Certificate;
use pkit::pki::crl::Crl;
use pkit::pki::detect::Kind;
use pkit::pki::ocsp::OcspResponse;
use pkit::pki::verify::many::{verify_many, Chain as CertChain};
use pkit::pki::verify::names::Identity;
use pkit::pki::verify::options::{
    Budget, Options, Purpose, RevocationRequest, RevocationScope, Rules,
};
use pkit::pki::verify::policy::PolicyInputs;
use pkit::pki::verify::pool::Pool;
use pkit::pki::verify::revocation::CrlSet;
use pkit::pki::verify::sources::{CaDatabase, FetchError, Sources};
use pkit::pki::verify::trust_store::{self, TrustStore, TrustStoreError};
use pkit::pki::verify::validate::RevocationSource;
use rayon::prelude::*;
use report::{ChainEntries, Report};
use std::path::PathBuf;
use std::sync::Mutex;

mod fetch;
mod report;

/// What `pkit verify --help` and its man page add: the exit codes as this command uses
/// them, and the reason codes a failed verdict carries.
const AFTER_HELP: &str = "Exit codes: 0 every input is valid · 1 any input is not (an \
algorithm pkit lacks, e.g. Ed448, is a verdict: unsupported-algorithm) · 2 usage error · 3 an \
input or roots file that does not parse or holds no certificate · 4 a file that cannot be \
read.\n\nReason codes (JSON `reason`): expired, not-yet-valid, signature-invalid, \
unknown-issuer, not-a-ca, path-length-exceeded, key-usage, eku-mismatch, name-constraints, \
policy, unknown-critical-extension, hostname-mismatch, revoked, revocation-unknown, \
depth-exceeded, budget-exceeded, malformed, weak-algorithm, unsupported-algorithm, \
expires-soon, key-identifier, invalid-name, invalid-serial, invalid-extension.\n\nThe trust \
anchor's own nameConstraints, policyConstraints, pathLenConstraint and critical extensions \
bind the path below it. Both rule sets: key identifiers (AKI below the anchor, SKI in \
intermediates, neither critical), nameConstraints only in CAs and valid in form, at most 250,000 \
name-to-subtree comparisons per certificate. --rules webpki adds: no SHA-1; RSA of 2048 \
bits or more in whole octets, EC on P-256/P-384/P-521, no DSA; serials positive, non-zero, \
at most 20 octets (below the anchor); critical basicConstraints in intermediates, critical \
policyConstraints, \
non-critical well-formed authorityInfoAccess; a SAN critical exactly when the subject is \
empty, no CA with an empty subject; on the leaf: an extendedKeyUsage allowing --purpose \
(unless it is any), not critical and without anyExtendedKeyUsage, no cA or keyCertSign, DNS SANs without underscores, no CN \
that names a SAN in another spelling (a CN naming nothing in the SAN is ignored); a \
wildcard SAN over a public suffix matches no name; no extendedKeyUsage in the \
root; no CN fallback for names, DNS constraints never applied to the CN; dNSName \
constraints without wildcards or a leading period. Details: docs/verify.md.";

#[derive(Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct VerifyArgs {
    /// Certificates to verify (PEM or DER; `-` for stdin). In each file the first
    /// certificate is verified, the others are intermediates sent with it.
    #[arg(value_name = "CERT", required_unless_present = "connect")]
    pub certs: Vec<PathBuf>,
    /// Verify the chain a TLS server sends: connect to HOST[:PORT] (443 by default),
    /// offer HOST as the server name, and take the certificates it presents. The name
    /// to match defaults to HOST.
    #[arg(long, value_name = "HOST[:PORT]", conflicts_with = "certs")]
    pub connect: Option<String>,
    /// Read the files in directories given as CERT, recursively. A file in them that
    /// holds no certificate (a key, a CRL, a README) is skipped and counted, not an error
    /// (--verbose names each); a file named on the command line must hold one.
    #[arg(short, long)]
    pub recursive: bool,
    /// Trusted roots: a file or a directory of PEM/DER certificates (repeatable). A
    /// directory is read as `openssl verify -CApath` reads one: its files that hold
    /// certificates, by content (other files and subdirectories are skipped; --verbose
    /// names them), each certificate once. Default: SSL_CERT_FILE / SSL_CERT_DIR, else
    /// the system store.
    #[arg(long, value_name = "FILE|DIR")]
    pub roots: Vec<PathBuf>,
    /// More candidate intermediates (repeatable).
    #[arg(long, value_name = "FILE")]
    pub untrusted: Vec<PathBuf>,
    /// Verify as of this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// At most N intermediates between the certificate and the trust anchor; self-issued
    /// ones are not counted (RFC 5280 §6.1.4 (l)).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,
    /// The extended key usage the certificate must allow.
    #[arg(long, default_value = "any", value_parser = purpose_parser())]
    pub purpose: Purpose,
    /// The DNS name (or IP address) the certificate must be valid for.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["ip", "email"])]
    pub hostname: Option<String>,
    /// The IP address the certificate must be valid for.
    #[arg(long, value_name = "ADDR", conflicts_with = "email")]
    pub ip: Option<String>,
    /// The email address the certificate must be valid for.
    #[arg(long, value_name = "ADDR")]
    pub email: Option<String>,
    /// An acceptable certificate policy OID (repeatable; default: any policy).
    #[arg(long, value_name = "OID")]
    pub policy: Vec<String>,
    /// Require a valid policy for the whole path (RFC 5280 initial-explicit-policy).
    #[arg(long)]
    pub require_explicit_policy: bool,
    /// Do not follow policy mappings (initial-policy-mapping-inhibit).
    #[arg(long)]
    pub inhibit_policy_mapping: bool,
    /// Do not let anyPolicy stand for other policies (initial-any-policy-inhibit).
    #[arg(long)]
    pub inhibit_any_policy: bool,
    /// RFC 5280 alone, or with the CA/Browser Forum rules browsers enforce (see below).
    #[arg(long, value_enum, default_value_t = RulesArg::Rfc5280)]
    pub rules: RulesArg,
    /// A CRL to check revocation against (repeatable; a file may hold several).
    #[arg(long, value_name = "FILE")]
    pub crl: Vec<PathBuf>,
    /// A pkit CA directory whose ca.db answers for the certificates it issued.
    #[arg(long, value_name = "DIR")]
    pub ca: Option<PathBuf>,
    #[command(flatten)]
    pub db: DbArgs,
    /// An OCSP response to check revocation against (repeatable).
    #[arg(long, value_name = "FILE")]
    pub ocsp_response: Vec<PathBuf>,
    /// Ask the OCSP responder each certificate names (authorityInfoAccess, http) about it.
    #[arg(long, conflicts_with = "offline")]
    pub ocsp: bool,
    /// Fetch the CRL each certificate names (cRLDistributionPoints, http; once per run).
    #[arg(long, conflicts_with = "offline")]
    pub crl_download: bool,
    /// Never fetch revocation data. Without it, --check-revocation given with no CRL,
    /// OCSP response or --ca asks the OCSP responders and fetches the CRLs the
    /// certificates name, as --ocsp --crl-download do.
    #[arg(long)]
    pub offline: bool,
    /// Which certificates to check for revocation. Default: leaf when a CRL, --ca, an
    /// OCSP response, --ocsp or --crl-download is given, else none.
    #[arg(long, value_enum)]
    pub check_revocation: Option<ScopeArg>,
    /// What an unknown revocation status means.
    #[arg(long, value_enum, default_value_t = FailArg::HardFail)]
    pub revocation_policy: FailArg,
    /// Fail when a certificate of the chain expires within this window (e.g. 30d).
    #[arg(long, value_name = "DURATION")]
    pub expires_within: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Name the files of --roots directories (and of -r directories) that hold no
    /// certificate, and count the certificates found more than once.
    #[arg(short, long)]
    pub verbose: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    Rfc5280,
    Webpki,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    None,
    Leaf,
    Chain,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailArg {
    SoftFail,
    HardFail,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Jsonl,
}

impl VerifyArgs {
    pub fn wants_json(&self) -> bool {
        self.format != Format::Text
    }
}

/// One input: its name and the certificates in it (the first is the target).
struct Input {
    name: String,
    ders: Vec<Vec<u8>>,
}

pub fn run(be: &Backend, a: VerifyArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let backend = be;
    // Everything is read and checked before any verdict, so a bad roots file is an
    // error, not a row of failures.
    let inputs = match &a.connect {
        Some(target) => {
            let (name, ders) = super::connect::peer_chain(backend, target)?;
            vec![Input { name, ders }]
        }
        None => {
            let (inputs, skipped) = read_inputs(&a.certs, a.recursive)?;
            if !skipped.is_empty() {
                if a.verbose {
                    for s in &skipped {
                        note!("pkit: skipped {s}");
                    }
                }
                note!(
                    "pkit: skipped {} file{} in directories that hold no certificate{}",
                    skipped.len(),
                    if skipped.len() == 1 { "" } else { "s" },
                    if a.verbose {
                        ""
                    } else {
                        " (--verbose names them)"
                    }
                );
            }
            inputs
        }
    };
    let root_ders = read_roots(&a)?;
    let untrusted_ders = read_all(&a.untrusted, "--untrusted")?;
    let crl_ders = read_all(&a.crl, "--crl")?;
    let ocsp_ders = read_all(&a.ocsp_response, "--ocsp-response")?;
    let ca_der = a.ca.as_deref().map(load_ca_cert).transpose()?;
    let roots = pool_of(&root_ders)?;
    if roots.is_empty() {
        return Err(CliError::parse("the trusted roots hold no certificate"));
    }
    if !trust_store::holds_an_anchor(roots.iter()) {
        let files: Vec<String> = a.roots.iter().map(|p| p.display().to_string()).collect();
        return Err(CliError::parse(format!(
            "{}: no certificate in the trusted roots is a CA or self-issued",
            files.join(", ")
        )));
    }
    let untrusted = pool_of(&untrusted_ders)?;
    let crls = crl_ders
        .iter()
        .map(|(n, d)| Crl::from_der(d).map_err(|e| CliError::der(n, &e)))
        .collect::<CliResult<Vec<_>>>()?;
    let ocsp = ocsp_ders
        .iter()
        .map(|(n, d)| OcspResponse::from_der(d).map_err(|e| CliError::der(n, &e)))
        .collect::<CliResult<Vec<_>>>()?;
    let ca = match (&a.ca, &ca_der) {
        (Some(dir), Some(der)) => Some(CaDatabase {
            cert: Certificate::from_der(der)
                .map_err(|e| CliError::der(&dir.join("ca.pem").display().to_string(), &e))?,
            records: Mutex::new(Box::new(open_store(dir, &a.db)?)),
        }),
        _ => None,
    };
    let plan = RevocationRequest {
        local: !crls.is_empty() || !ocsp.is_empty() || ca.is_some(),
        ocsp: a.ocsp,
        crl_download: a.crl_download,
        offline: a.offline,
        scope: a.check_revocation.map(|s| match s {
            ScopeArg::None => RevocationScope::None,
            ScopeArg::Leaf => RevocationScope::Leaf,
            ScopeArg::Chain => RevocationScope::Chain,
        }),
        hard_fail: a.revocation_policy == FailArg::HardFail,
    }
    .plan();
    let fetcher = (plan.ask_ocsp || plan.fetch_crls).then(fetch::Fetcher::new);
    let ocsp_fetch = |url: &str, request: &[u8]| match &fetcher {
        Some(f) => f.ocsp(url, request).map_err(FetchError::new),
        None => Err(FetchError::new("not fetching")),
    };
    let crl_fetch = |url: &str| match &fetcher {
        Some(f) => f.crl(url).map_err(FetchError::new),
        None => Err(FetchError::new("not fetching")),
    };
    let sources = Sources {
        crls: CrlSet::new(crls),
        ocsp,
        ca,
        online: plan.ask_ocsp.then_some(&ocsp_fetch as _),
        crl_online: plan.fetch_crls.then_some(&crl_fetch as _),
    };
    let identity = identity(&a)?;
    let opts = Options {
        now,
        target_profile: true,
        max_depth: a.max_depth,
        purpose: a.purpose,
        identity,
        policy: policy_inputs(&a)?,
        rules: match a.rules {
            RulesArg::Rfc5280 => Rules::Rfc5280,
            RulesArg::Webpki => Rules::WebPki,
        },
        revocation: plan.scope,
        hard_fail: plan.hard_fail,
        expires_within: a
            .expires_within
            .as_deref()
            .map(|d| parse_duration("--expires-within", d))
            .transpose()?,
        budget: Budget::default(),
    };
    let revocation: Option<&dyn RevocationSource> = plan.any_source.then_some(&sources as _);
    let certs = ChainEntries::new(&roots, &untrusted);
    let bar = io::progress_bar(inputs.len() as u64, "certificates");
    // Each verdict is also rendered on the thread that made it (a JSON line or the text
    // lines), so that writing out ten thousand of them is only copying.
    let format = a.format;
    let results: Vec<CliResult<(Report, String)>> = verify_many(
        backend,
        &roots,
        &untrusted,
        revocation,
        &opts,
        &inputs,
        chain_of,
        |input, verdict| {
            let out = verdict.map(|v| {
                let r = Report::new(input.name.clone(), v, &certs);
                let line = match format {
                    Format::Jsonl => r.json_line(),
                    Format::Text => r.text(),
                    Format::Json => String::new(),
                };
                (r, line)
            });
            bar.inc(1);
            out
        },
    );
    bar.finish_and_clear();
    let (reports, lines): (Vec<Report>, Vec<String>) = results
        .into_iter()
        .collect::<CliResult<Vec<(Report, String)>>>()?
        .into_iter()
        .unzip();
    let all_valid = reports.iter().all(Report::valid);
    if reports.len() > 1 {
        report::summary(&reports, io::stderr_is_terminal());
    }
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let failed = |e: std::io::Error| CliError::io_at("stdout", &e);
    match a.format {
        Format::Json => output::write_envelope(&mut out, "verify", &reports).map_err(failed)?,
        Format::Jsonl | Format::Text => {
            for line in &lines {
                out.write_all(line.as_bytes()).map_err(failed)?;
            }
        }
    }
    out.flush().map_err(failed)?;
    Ok(if all_valid { Exit::Ok } else { Exit::Negative })
}

/// An input's certificates: the first is verified, the others came with it.
fn chain_of(input: &Input) -> CliResult<CertChain<'_>> {
    let mut certs = input
        .ders
        .iter()
        .enumerate()
        .map(|(i, d)| {
            Certificate::from_der(d).map_err(|e| {
                let name = if i == 0 {
                    input.name.clone()
                } else {
                    format!("{} (certificate {})", input.name, i + 1)
                };
                CliError::der(&name, &e)
            })
        })
        .collect::<CliResult<Vec<_>>>()?;
    if certs.is_empty() {
        return Err(CliError::parse(format!("{}: no certificate", input.name)));
    }
    let target = certs.remove(0);
    Ok((target, certs))
}

/// `--purpose`: the library's purpose names, listed for help and completions.
fn purpose_parser() -> impl clap::builder::TypedValueParser<Value = Purpose> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Purpose::ALL.map(Purpose::name))
        .map(|s| Purpose::from_name(&s).unwrap_or(Purpose::Any))
}

fn identity(a: &VerifyArgs) -> CliResult<Option<Identity<'_>>> {
    if let (Some(target), None, None, None) = (&a.connect, &a.hostname, &a.ip, &a.email) {
        // The name to match defaults to the host connected to.
        let host = super::connect::target(target)?.host;
        return Identity::parse(host)
            .map(Some)
            .map_err(|e| CliError::usage(format!("--connect {e}")));
    }
    if let Some(h) = &a.hostname {
        // An address given as the host is matched as one (iPAddress SANs), as
        // `openssl verify -verify_hostname` users expect of `--hostname 10.1.2.3`.
        return Identity::parse_host(h)
            .map(Some)
            .map_err(|e| CliError::usage(format!("--hostname {h}: {e}")));
    }
    if let Some(ip) = &a.ip {
        return Identity::parse_ip(ip)
            .map(Some)
            .map_err(|e| CliError::usage(format!("--ip {e}")));
    }
    if let Some(e) = &a.email {
        return Identity::parse_email(e)
            .map(Some)
            .map_err(|m| CliError::usage(format!("--email {m}")));
    }
    Ok(None)
}

fn policy_inputs(a: &VerifyArgs) -> CliResult<PolicyInputs> {
    let initial_policy_set = a
        .policy
        .iter()
        .map(|p| {
            pkit::der::encode_dotted(p)
                .ok_or_else(|| CliError::usage(format!("--policy {p}: expected a dotted OID")))
        })
        .collect::<CliResult<Vec<_>>>()?;
    Ok(PolicyInputs {
        initial_policy_set,
        initial_explicit_policy: a.require_explicit_policy,
        initial_policy_mapping_inhibit: a.inhibit_policy_mapping,
        initial_any_policy_inhibit: a.inhibit_any_policy,
    })
}

/// Each CERT argument (or directory entry) is one input, and what was skipped: the files
/// found in -r directories that hold no certificate, each with why. Read on every core:
/// ten thousand small files cost more in system calls than their chains cost to verify.
fn read_inputs(args: &[PathBuf], recursive: bool) -> CliResult<(Vec<Input>, Vec<String>)> {
    // Each path, and whether it was named (true) or found in a directory (false).
    let mut paths: Vec<(PathBuf, bool)> = Vec::new();
    for p in io::collect_paths(args, false)? {
        if recursive && p.as_os_str() != "-" && p.is_dir() {
            let found = io::collect_paths(std::slice::from_ref(&p), true)?;
            paths.extend(found.into_iter().map(|f| (f, false)));
        } else {
            paths.push((p, true));
        }
    }
    let read: Vec<CliResult<Result<Input, String>>> = paths
        .par_iter()
        .map(|(p, named)| {
            let input = io::read_source(p).and_then(|src| {
                let name = src.name.clone();
                let ders = certificates(src, &name)?;
                let input = Input { name, ders };
                // A file found in a directory that does not decode as certificates (a
                // binary blob that reads as some ASN.1, random bytes) is skipped with
                // why, as one holding no certificate is: it must not end the run.
                if !named {
                    chain_of(&input)?;
                }
                Ok(input)
            });
            match input {
                Ok(i) => Ok(Ok(i)),
                // As --roots reads a directory: what is not a certificate is skipped.
                Err(e) if !named => Ok(Err(e.message)),
                Err(e) => Err(e),
            }
        })
        .collect();
    let (mut inputs, mut skipped) = (Vec::new(), Vec::new());
    for r in read {
        match r? {
            Ok(i) => inputs.push(i),
            Err(why) => skipped.push(why),
        }
    }
    if inputs.is_empty() {
        return Err(CliError::parse(format!(
            "no certificate in {} ({} files skipped)",
            args.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            skipped.len()
        )));
    }
    Ok((inputs, skipped))
}

/// The certificates of one source; a source without any is an input error. An object
/// that is plainly something else (a key, a CRL, a CSR beside the chain in one PEM file)
/// is left out; one that reads as nothing known stays, so that its error is reported
/// with its offset.
fn certificates(src: io::Source, name: &str) -> CliResult<Vec<Vec<u8>>> {
    let items = io::split_items(src, InForm::Auto)
        .into_iter()
        .collect::<CliResult<Vec<Item>>>()?;
    let ders: Vec<Vec<u8>> = items
        .into_iter()
        .filter(|i| {
            matches!(
                Kind::of(i.label.as_deref(), &i.der),
                Kind::Certificate | Kind::Asn1
            )
        })
        .map(|i| i.der)
        .collect();
    if ders.is_empty() {
        return Err(CliError::parse(format!("{name}: no certificate")));
    }
    Ok(ders)
}

/// Every object in `paths` (directories read whole), named for messages.
fn read_all(paths: &[PathBuf], flag: &str) -> CliResult<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    for p in paths {
        let files = if p.is_dir() {
            io::collect_paths(std::slice::from_ref(p), true)?
        } else {
            vec![p.clone()]
        };
        for f in files {
            let src = io::read_source(&f)?;
            let name = src.name.clone();
            let items = io::split_items(src, InForm::Auto)
                .into_iter()
                .collect::<CliResult<Vec<Item>>>()?;
            if items.is_empty() {
                return Err(CliError::parse(format!("{flag} {name}: holds nothing")));
            }
            out.extend(items.into_iter().map(|i| (i.name, i.der)));
        }
    }
    Ok(out)
}

/// The trust anchors: --roots, else SSL_CERT_FILE / SSL_CERT_DIR, else the system store;
/// directories read as `openssl verify -CApath` reads them (`pkit_verify::trust_store`).
fn read_roots(a: &VerifyArgs) -> CliResult<Vec<(String, Vec<u8>)>> {
    let paths = if a.roots.is_empty() {
        trust_store::default_paths()
    } else {
        a.roots.clone()
    };
    let store = TrustStore::read(&paths).map_err(|e| match e {
        TrustStoreError::Io { path, error } => CliError::io_at(&path, &error),
        TrustStoreError::Certificate { name, error } => {
            CliError::der(&format!("--roots {name}"), &error)
        }
        e => CliError::parse(format!("--roots {e}")),
    })?;
    if a.verbose {
        for s in &store.skipped {
            note!("pkit: roots: skipped {s}");
        }
        note!(
            "pkit: roots: {} certificates ({} found again and counted once)",
            store.certs.len(),
            store.duplicates
        );
    }
    Ok(store.certs)
}

/// Parse `ders` into a pool; a certificate that does not parse names its file.
fn pool_of(ders: &[(String, Vec<u8>)]) -> CliResult<Pool<'_>> {
    let mut pool = Pool::new();
    for (name, der) in ders {
        pool.add(Certificate::from_der(der).map_err(|e| CliError::der(name, &e))?);
    }
    Ok(pool)
}
