//! `pkit issue`: keys, CSRs, root and intermediate CAs, leaf certificates, and parallel
//! batches, with the CA's state in `DIR/ca.db`.
//!
//! Crash safety: a certificate is committed to ca.db before its files are written, and
//! each file appears under its name only once complete (`outdir.rs`, `io.rs`), so after a
//! kill -9 every released certificate is in the database (exportable) and no half-written
//! file exists.

use super::ca_dir::{db_err, load_issuer, open_store, parse_serial, parse_time};
use super::error::{CliError, CliResult, Exit};
use super::io::{self, InForm};
use super::key::{load_private_key, AlgorithmParser};
use super::outdir::OutDir;
use super::output;
use clap::{Args, Subcommand, ValueEnum};
use pkit::der::Time;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::{self, PrivateKey, Signer};
use pkit::pki::cert::{hex, Certificate};
use pkit::pki::csr::Csr;
use pkit::pki::issue::ca::{self, Issued, Request};
use pkit::pki::issue::profile::Profile;
use pkit::pki::issue::request::encode_csr;
use pkit::pki::issue::san::parse_san;
use pkit::pki::issue::store::{CertRecord, Store};
use pkit::pki::issue::subject::parse_subject;
use pkit::pki::key::{encrypt_private_key, KdfChoice, MlDsaKeyFormat};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::io::BufRead;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = super::error::EXIT_CODES_HELP)]
pub struct IssueArgs {
    #[command(subcommand)]
    pub command: IssueCommand,
}

#[derive(Subcommand, Debug)]
pub enum IssueCommand {
    /// Create a CA directory: a root, or an intermediate with --parent.
    Ca(CaArgs),
    /// Create a PKCS#10 certificate signing request.
    Csr(CsrArgs),
    /// Issue one certificate from a CSR or for a fresh key.
    Cert(CertArgs),
    /// Issue many certificates in parallel (from a count or a JSONL manifest).
    Batch(BatchArgs),
    /// List the certificates a CA has issued.
    List(ListArgs),
    /// Print one issued certificate by serial number.
    Export(ExportArgs),
}

#[derive(Args, Debug)]
pub struct CaArgs {
    /// The CA directory to create (ca.pem, ca.key, ca.db).
    #[arg(long)]
    pub dir: PathBuf,
    /// Subject, RFC 4514 (`CN=Example Root,O=Example`) or OpenSSL's `/O=Example/CN=…`.
    #[arg(long)]
    pub subject: String,
    /// Key algorithm.
    #[arg(long, value_parser = AlgorithmParser, default_value = "ecdsa-p256")]
    pub alg: Algorithm,
    /// Validity in days.
    #[arg(long, default_value_t = 3650)]
    pub days: u32,
    /// Make an intermediate signed by the CA in this directory (recorded in its ca.db).
    #[arg(long, value_name = "DIR")]
    pub parent: Option<PathBuf>,
    /// Password source for the parent CA's key.
    #[arg(long, value_name = "SRC")]
    pub parent_passin: Option<String>,
    /// basicConstraints pathLenConstraint.
    #[arg(long)]
    pub path_len: Option<u32>,
    /// Encrypt ca.key with a password from SRC (pass:, env:, file:, fd:).
    #[arg(long, value_name = "SRC")]
    pub passout: Option<String>,
    /// Start of validity (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

#[derive(Args, Debug)]
pub struct CsrArgs {
    /// The private key to sign the request with.
    #[arg(long)]
    pub key: PathBuf,
    /// Password source for the key.
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// Subject (RFC 4514 or /-separated).
    #[arg(long, default_value = "")]
    pub subject: String,
    /// Subject alternative name: DNS:a.example, IP:192.0.2.1, email:x@a.example, URI:…
    #[arg(long)]
    pub san: Vec<String>,
    /// Output file (default stdout).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CopyExtensions {
    /// Ignore the CSR's requested extensions.
    None,
    /// Copy the CSR's requested extensions (the profile's own win).
    Copy,
}

#[derive(Args, Debug)]
pub struct CertArgs {
    /// The issuing CA directory.
    #[arg(long)]
    pub ca: PathBuf,
    /// Password source for the CA key.
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// Certify the key and subject in this CSR (its signature is checked first).
    #[arg(long, conflicts_with_all = ["key_out", "alg"])]
    pub csr: Option<PathBuf>,
    /// Subject for a fresh key (with --key-out); overrides the CSR's subject with --csr.
    #[arg(long)]
    pub subject: Option<String>,
    /// Generate a key and write it here (mode 0600).
    #[arg(long, value_name = "FILE")]
    pub key_out: Option<PathBuf>,
    /// Algorithm of the generated key.
    #[arg(long, value_parser = AlgorithmParser)]
    pub alg: Option<Algorithm>,
    /// Subject alternative name (repeatable): DNS:, IP:, email:, URI:.
    #[arg(long)]
    pub san: Vec<String>,
    /// server, client, server-client, code-signing, ocsp-signer or ca.
    #[arg(long, default_value = "server")]
    pub profile: String,
    /// Validity in days from not-before.
    #[arg(long, conflicts_with = "not_after")]
    pub days: Option<u32>,
    /// End of validity (RFC 3339).
    #[arg(long, value_name = "TIME")]
    pub not_after: Option<String>,
    /// Start of validity (RFC 3339; default now).
    #[arg(long, value_name = "TIME")]
    pub not_before: Option<String>,
    /// Whether to copy the CSR's requested extensions.
    #[arg(long, value_enum, default_value_t = CopyExtensions::Copy)]
    pub copy_extensions: CopyExtensions,
    /// Judge the CA's validity at this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Output file for the certificate (default stdout).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Overwrite output files if they exist.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct BatchArgs {
    /// The issuing CA directory.
    #[arg(long)]
    pub ca: PathBuf,
    /// Password source for the CA key.
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// How many certificates (with --subject-template).
    #[arg(long, conflicts_with = "from", required_unless_present = "from")]
    pub count: Option<u64>,
    /// JSONL manifest: one {"subject","sans":[…],"profile","alg","days"} per line.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Subject for --count; `{n}` is replaced by the certificate's number.
    #[arg(long, default_value = "CN=host-{n}.example")]
    pub subject_template: String,
    /// Key algorithm (manifest lines may override).
    #[arg(long, value_parser = AlgorithmParser, default_value = "ecdsa-p256")]
    pub alg: Algorithm,
    /// Profile (manifest lines may override).
    #[arg(long, default_value = "server")]
    pub profile: String,
    /// Validity in days (manifest lines may override).
    #[arg(long, default_value_t = 365)]
    pub days: u32,
    /// Directory for N.pem and N.key files (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,
    /// Judge validity from this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Certificates per database transaction.
    #[arg(long, default_value_t = 1024)]
    pub chunk: usize,
    /// Afterwards, time the raw limit on the same threads (one key generation plus one
    /// CA signature per certificate, in memory) and print it beside the batch's rate.
    #[arg(long)]
    pub measure_limit: bool,
}

#[derive(Args, Debug)]
pub struct ListArgs {
    /// The CA directory.
    #[arg(long)]
    pub ca: PathBuf,
    /// text (a table) or json.
    #[arg(short, long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
    Jsonl,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The CA directory.
    #[arg(long)]
    pub ca: PathBuf,
    /// Serial number, hex.
    pub serial: String,
    /// Output file (default stdout).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(a: IssueArgs) -> CliResult<Exit> {
    match a.command {
        IssueCommand::Ca(a) => run_ca(a),
        IssueCommand::Csr(a) => run_csr(a),
        IssueCommand::Cert(a) => run_cert(a),
        IssueCommand::Batch(a) => run_batch(a),
        IssueCommand::List(a) => run_list(a),
        IssueCommand::Export(a) => run_export(a),
    }
}

fn profile(s: &str) -> CliResult<Profile> {
    Profile::from_name(s).ok_or_else(|| {
        CliError::usage(format!(
            "--profile {s}: expected server, client, server-client, code-signing, ocsp-signer or ca"
        ))
    })
}

pub(crate) fn subject(s: &str) -> CliResult<Vec<u8>> {
    parse_subject(s).map_err(|e| CliError::usage(format!("--subject: {e}")))
}

pub(crate) fn sans(list: &[String]) -> CliResult<Vec<Vec<u8>>> {
    list.iter()
        .map(|s| parse_san(s).map(|x| x.der).map_err(CliError::usage))
        .collect()
}

pub(crate) fn key_pem(key: &dyn PrivateKey, passout: Option<&str>) -> CliResult<String> {
    Ok(match passout {
        Some(spec) => {
            let mut pw = io::read_secret(spec)?;
            let der = encrypt_private_key(
                backend::default_backend(),
                key,
                &pw,
                KdfChoice::default(),
                MlDsaKeyFormat::default(),
            );
            pw.fill(0);
            io::pem_encode("ENCRYPTED PRIVATE KEY", &der?)
        }
        None => io::pem_encode("PRIVATE KEY", &key.to_pkcs8_der(MlDsaKeyFormat::default())?),
    })
}

pub(crate) fn generate(alg: Algorithm) -> CliResult<Box<dyn PrivateKey>> {
    Ok(backend::default_backend().generate(alg)?)
}

fn record(issued: &Issued, subject: &str, profile: Profile, key_alg: &str) -> CertRecord {
    issued.record(subject, profile, key_alg)
}

fn dn_of(der: &[u8]) -> String {
    Certificate::from_der(der)
        .ok()
        .and_then(|c| c.subject.to_rfc4514().ok())
        .unwrap_or_default()
}

fn run_ca(a: CaArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let subj = subject(&a.subject)?;
    if subj == [0x30, 0x00] {
        return Err(CliError::usage("--subject: a CA needs a non-empty subject"));
    }
    for f in ["ca.pem", "ca.key", "ca.db"] {
        if a.dir.join(f).exists() {
            return Err(CliError::io(format!(
                "{}: already exists; refusing to replace a CA",
                a.dir.join(f).display()
            )));
        }
    }
    let not_after = now.plus_seconds(i64::from(a.days) * 86_400);
    let key = generate(a.alg)?;
    let key_text = key_pem(key.as_ref(), a.passout.as_deref())?;
    let cert_der = match &a.parent {
        None => ca::self_signed(key.as_ref(), &subj, now, not_after, a.path_len)?,
        Some(parent) => {
            let issuer = load_issuer(parent, a.parent_passin.as_deref())?;
            issuer.check_valid_at(now)?;
            let req = Request {
                subject: subj.clone(),
                spki: key.public_key_der()?,
                key_alg: Some(a.alg),
                profile: Profile::Ca,
                sans: Vec::new(),
                not_before: now,
                not_after,
                path_len: a.path_len,
                copied: Vec::new(),
            };
            let mut signer = issuer.key.signer()?;
            let issued = issuer.issue(signer.as_mut(), &req)?;
            let mut store = Store::open(&parent.join("ca.db")).map_err(db_err(parent))?;
            store
                .insert_certificates(&[record(&issued, &a.subject, Profile::Ca, a.alg.name())])
                .map_err(db_err(parent))?;
            issued.der
        }
    };
    std::fs::create_dir_all(&a.dir)
        .map_err(|e| CliError::io_at(&a.dir.display().to_string(), &e))?;
    Store::open(&a.dir.join("ca.db")).map_err(db_err(&a.dir))?;
    io::write_file_atomic(&a.dir.join("ca.key"), key_text.as_bytes(), false, true)?;
    io::write_file_atomic(
        &a.dir.join("ca.pem"),
        io::pem_encode("CERTIFICATE", &cert_der).as_bytes(),
        false,
        false,
    )?;
    eprintln!(
        "pkit: created CA {} ({}) in {}",
        dn_of(&cert_der),
        a.alg,
        a.dir.display()
    );
    Ok(Exit::Ok)
}

fn run_csr(a: CsrArgs) -> CliResult<Exit> {
    let key = load_private_key(&a.key, a.passin.as_deref())?;
    let subj = subject(&a.subject)?;
    let sans = sans(&a.san)?;
    if subj == [0x30, 0x00] && sans.is_empty() {
        return Err(CliError::usage(
            "a CSR needs a --subject or at least one --san",
        ));
    }
    let der = encode_csr(key.as_ref(), &subj, &sans)?;
    io::write_text(
        a.out.as_deref(),
        a.force,
        &io::pem_encode("CERTIFICATE REQUEST", &der),
    )?;
    Ok(Exit::Ok)
}

/// The subject, key and extensions a CSR asks for, after checking its signature.
pub(crate) struct FromCsr {
    pub(crate) subject: Vec<u8>,
    pub(crate) spki: Vec<u8>,
    pub(crate) extensions: Vec<(Vec<u8>, Vec<u8>)>,
}

pub(crate) fn read_csr(path: &Path) -> CliResult<FromCsr> {
    let src = io::read_source(path)?;
    let item = io::split_items(src, InForm::Auto)
        .into_iter()
        .next()
        .ok_or_else(|| CliError::parse(format!("{}: empty", path.display())))??;
    let csr = Csr::from_der(&item.der).map_err(|e| CliError::der(&item.name, &e))?;
    let scheme = csr
        .signature_algorithm
        .signature_scheme()
        .map_err(|e| CliError::der(&item.name, &e))?
        .ok_or_else(|| {
            CliError::unsupported(format!(
                "{}: signature algorithm {} is not supported",
                item.name,
                csr.signature_algorithm.name()
            ))
        })?;
    let ok = backend::default_backend().verify(
        csr.spki.raw,
        scheme,
        csr.tbs_raw(),
        csr.signature.bytes,
    )?;
    if !ok {
        return Err(CliError::negative(format!(
            "{}: the CSR's signature does not verify with its own key",
            item.name
        )));
    }
    let mut extensions = Vec::new();
    if let Some(attr) = csr
        .attributes
        .find(&pkit::der::oid_registry::PKCS9_EXTENSION_REQUEST)
        .map_err(|e| CliError::der(&item.name, &e))?
    {
        let mut v = attr
            .single_value()
            .map_err(|e| CliError::der(&item.name, &e))?;
        let exts = pkit::pki::extension::Extensions::read(&mut v)
            .map_err(|e| CliError::der(&item.name, &e))?;
        let mut body = exts
            .raw_elements()
            .map_err(|e| CliError::der(&item.name, &e))?;
        extensions.append(&mut body);
    }
    Ok(FromCsr {
        subject: csr.subject.raw.to_vec(),
        spki: csr.spki.raw.to_vec(),
        extensions,
    })
}

fn run_cert(a: CertArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let not_before = parse_time("--not-before", &a.not_before)?.unwrap_or(now);
    let not_after = match parse_time("--not-after", &a.not_after)? {
        Some(t) => t,
        None => not_before.plus_seconds(i64::from(a.days.unwrap_or(365)) * 86_400),
    };
    let prof = profile(&a.profile)?;
    let sans = sans(&a.san)?;
    // Fail on existing outputs before doing any work.
    for p in [a.out.as_ref(), a.key_out.as_ref()].into_iter().flatten() {
        if !a.force && p.exists() && p.as_os_str() != "-" {
            return Err(CliError::io(format!(
                "{}: already exists (use --force to overwrite)",
                p.display()
            )));
        }
    }
    let issuer = load_issuer(&a.ca, a.passin.as_deref())?;
    issuer.check_valid_at(now)?;
    let (subj, spki, key, copied, key_alg) = match (&a.csr, &a.key_out) {
        (Some(csr_path), _) => {
            let c = read_csr(csr_path)?;
            let subj = match &a.subject {
                Some(s) => subject(s)?,
                None => c.subject,
            };
            let copied = match a.copy_extensions {
                CopyExtensions::Copy => c.extensions,
                CopyExtensions::None => Vec::new(),
            };
            let alg = Algorithm::from_spki(&c.spki);
            (subj, c.spki, None, copied, alg)
        }
        (None, Some(_)) => {
            let alg = a.alg.unwrap_or(Algorithm::EcdsaP256);
            let key = generate(alg)?;
            let subj = subject(a.subject.as_deref().unwrap_or(""))?;
            (
                subj,
                key.public_key_der()?,
                Some(key),
                Vec::new(),
                Some(alg),
            )
        }
        (None, None) => {
            return Err(CliError::usage(
                "give --csr FILE, or --subject and --key-out FILE for a fresh key",
            ))
        }
    };
    if subj == [0x30, 0x00]
        && sans.is_empty()
        && !copied
            .iter()
            .any(|(o, _)| o.as_slice() == pkit::der::oid_registry::CE_SUBJECT_ALT_NAME.as_bytes())
    {
        return Err(CliError::usage(
            "the certificate needs a subject or at least one --san",
        ));
    }
    let req = Request {
        subject: subj,
        spki,
        key_alg,
        profile: prof,
        sans,
        not_before,
        not_after,
        path_len: None,
        copied,
    };
    let mut signer = issuer.key.signer()?;
    let issued = issuer.issue(signer.as_mut(), &req)?;
    let dn = dn_of(&issued.der);
    let alg_name = key_alg.map_or("other", Algorithm::name);
    let mut store = Store::open(&a.ca.join("ca.db")).map_err(db_err(&a.ca))?;
    store
        .insert_certificates(&[record(&issued, &dn, prof, alg_name)])
        .map_err(db_err(&a.ca))?;
    if let (Some(path), Some(key)) = (&a.key_out, &key) {
        io::write_file_atomic(path, key_pem(key.as_ref(), None)?.as_bytes(), a.force, true)?;
    }
    io::write_text(
        a.out.as_deref(),
        a.force,
        &io::pem_encode("CERTIFICATE", &issued.der),
    )?;
    eprintln!("pkit: issued serial {} for {dn}", hex(&issued.serial));
    Ok(Exit::Ok)
}

/// One certificate a batch will issue.
struct BatchItem {
    n: u64,
    subject_text: String,
    subject: Vec<u8>,
    sans: Vec<Vec<u8>>,
    profile: Profile,
    alg: Algorithm,
    days: u32,
}

fn manifest_items(a: &BatchArgs) -> CliResult<Vec<BatchItem>> {
    let default_profile = profile(&a.profile)?;
    if let Some(count) = a.count {
        return (1..=count)
            .map(|n| {
                let text = a.subject_template.replace("{n}", &n.to_string());
                Ok(BatchItem {
                    n,
                    subject: subject(&text)?,
                    subject_text: text,
                    sans: Vec::new(),
                    profile: default_profile,
                    alg: a.alg,
                    days: a.days,
                })
            })
            .collect();
    }
    let path = a
        .from
        .as_ref()
        .ok_or_else(|| CliError::usage("give --count N or --from FILE"))?;
    let name = path.display().to_string();
    let f = std::fs::File::open(path).map_err(|e| CliError::io_at(&name, &e))?;
    let mut out = Vec::new();
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|e| CliError::io_at(&name, &e))?;
        if line.trim().is_empty() {
            continue;
        }
        let at = |m: String| CliError::usage(format!("{name}: line {}: {m}", i + 1));
        let v: Value = serde_json::from_str(&line).map_err(|e| at(format!("bad JSON: {e}")))?;
        let subject_text = v["subject"].as_str().unwrap_or("").to_string();
        let san_list: Vec<String> = match &v["sans"] {
            Value::Null => Vec::new(),
            Value::Array(xs) => xs
                .iter()
                .map(|x| {
                    x.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| at("sans must be strings".into()))
                })
                .collect::<CliResult<_>>()?,
            _ => return Err(at("sans must be an array".into())),
        };
        let alg = match v["alg"].as_str() {
            Some(s) => Algorithm::from_name(s).ok_or_else(|| at(format!("unknown alg '{s}'")))?,
            None => a.alg,
        };
        let prof = match v["profile"].as_str() {
            Some(s) => Profile::from_name(s).ok_or_else(|| at(format!("unknown profile '{s}'")))?,
            None => default_profile,
        };
        let days = match &v["days"] {
            Value::Null => a.days,
            d => d
                .as_u64()
                .and_then(|d| u32::try_from(d).ok())
                .ok_or_else(|| at("days must be a positive integer".into()))?,
        };
        let subj = parse_subject(&subject_text).map_err(|e| at(e.0))?;
        let sans = san_list
            .iter()
            .map(|s| parse_san(s).map(|x| x.der).map_err(at))
            .collect::<CliResult<Vec<_>>>()?;
        if subj == [0x30, 0x00] && sans.is_empty() {
            return Err(at("needs a subject or sans".into()));
        }
        out.push(BatchItem {
            n: out.len() as u64 + 1,
            subject_text,
            subject: subj,
            sans,
            profile: prof,
            alg,
            days,
        });
    }
    Ok(out)
}

/// One certificate of a batch, ready to be recorded and written.
struct BatchOutput {
    record: CertRecord,
    key_pem: String,
    cert_pem: String,
    key_name: String,
    cert_name: String,
    /// The JSONL report line.
    line: String,
}

fn run_batch(a: BatchArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let items = manifest_items(&a)?;
    let issuer = load_issuer(&a.ca, a.passin.as_deref())?;
    issuer.check_valid_at(now)?;
    let out_dir = OutDir::open(&a.out_dir)?;
    let mut store = Store::open(&a.ca.join("ca.db")).map_err(db_err(&a.ca))?;
    store.checkpoint_in_background().map_err(db_err(&a.ca))?;
    let started = std::time::Instant::now();
    let bar = io::progress_bar(items.len() as u64, "certificates");
    let stdout = std::io::stdout();
    // Everything that costs CPU happens here, in parallel with one signer per worker
    // thread: key generation, signing, and the bytes of both files and the report line.
    let batch_output =
        |it: &BatchItem, key: &dyn PrivateKey, signer: &mut dyn Signer| -> CliResult<BatchOutput> {
            let req = Request {
                subject: it.subject.clone(),
                spki: key.public_key_der()?,
                key_alg: Some(it.alg),
                profile: it.profile,
                sans: it.sans.clone(),
                not_before: now,
                not_after: now.plus_seconds(i64::from(it.days) * 86_400),
                path_len: None,
                copied: Vec::new(),
            };
            let cert = issuer.issue(signer, &req)?;
            let (key_name, cert_name) = (format!("{}.key", it.n), format!("{}.pem", it.n));
            let line = output::json_line(&json!({
                "n": it.n,
                "serial_number": hex(&cert.serial),
                "subject": it.subject_text,
                "cert": out_dir.path().join(&cert_name),
                "key": out_dir.path().join(&key_name),
            }));
            Ok(BatchOutput {
                record: record(&cert, &it.subject_text, it.profile, it.alg.name()),
                key_pem: key_pem(key, None)?,
                cert_pem: io::pem_encode("CERTIFICATE", &cert.der),
                key_name,
                cert_name,
                line,
            })
        };
    let issue_chunk = |chunk: &[BatchItem]| -> CliResult<Vec<BatchOutput>> {
        let per_job = backend::keys_per_job(chunk.len());
        let jobs = chunk
            .par_chunks(per_job)
            .map_init(
                || issuer.key.signer(),
                |signer, items| -> CliResult<Vec<BatchOutput>> {
                    let signer = signer.as_mut().map_err(|e| CliError::from(e.clone()))?;
                    let algs: Vec<Algorithm> = items.iter().map(|it| it.alg).collect();
                    let keys = backend::default_backend().generate_each(&algs)?;
                    items
                        .iter()
                        .zip(keys)
                        .map(|(it, key)| batch_output(it, key.as_ref(), signer.as_mut()))
                        .collect()
                },
            )
            .collect::<CliResult<Vec<_>>>()?;
        Ok(jobs.into_iter().flatten().collect())
    };
    // Chunk k is committed, then its files are written, while chunk k+1 is being signed:
    // the commit and the file system calls (which on ext4 serialise on the directory's
    // lock) overlap the cryptography instead of leaving cores idle.
    let mut commit_and_write = |chunk: &[BatchOutput]| -> CliResult {
        store
            .insert_certificates(chunk.iter().map(|o| &o.record))
            .map_err(db_err(&a.ca))?;
        // Committed before any file of the chunk exists. In parallel too: a thread that
        // has finished signing the next chunk takes files from here.
        chunk.par_iter().try_for_each(|o| -> CliResult {
            out_dir.write(&o.key_name, o.key_pem.as_bytes(), true)?;
            out_dir.write(&o.cert_name, o.cert_pem.as_bytes(), false)?;
            Ok(())
        })?;
        use std::io::Write;
        let mut out = stdout.lock();
        for o in chunk {
            let _ = out.write_all(o.line.as_bytes());
        }
        bar.inc(chunk.len() as u64);
        Ok(())
    };
    let mut chunks = items.chunks(a.chunk.max(1));
    let mut pending = match chunks.next() {
        Some(c) => issue_chunk(c)?,
        None => Vec::new(),
    };
    while !pending.is_empty() {
        let next = chunks.next();
        let (written, signed) =
            rayon::join(|| commit_and_write(&pending), || next.map(&issue_chunk));
        written?;
        pending = signed.transpose()?.unwrap_or_default();
    }
    bar.finish_and_clear();
    if items.is_empty() {
        // An empty manifest or --count 0: nothing to time, and no limit to hold it against.
        eprintln!("pkit: issued no certificates (nothing was asked for)");
        return Ok(Exit::Ok);
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "pkit: issued {} certificates in {:.2} s ({:.0}/s, {:.1} µs each) on {} threads",
        items.len(),
        secs,
        items.len() as f64 / secs,
        secs * 1e6 / items.len() as f64,
        rayon::current_num_threads()
    );
    if a.measure_limit {
        let algs: Vec<Algorithm> = items.iter().map(|it| it.alg).collect();
        let limit = raw_limit(&issuer, &algs)?;
        let rate = items.len() as f64 / secs;
        eprintln!(
            "pkit: raw limit (key generation + one CA signature per certificate, in memory, \
             same threads): {limit:.0}/s, {:.1} µs each; this batch ran at {:.0}% of it",
            1e6 / limit,
            100.0 * rate / limit
        );
    }
    Ok(Exit::Ok)
}

/// Certificates per second that key generation plus one CA signature allow on the pool:
/// one fresh key (`Backend::generate`, as `pkit bench crypto` times it) and one signature
/// over a TBSCertificate-sized message per entry of `algs`.
fn raw_limit(issuer: &ca::Issuer, algs: &[Algorithm]) -> CliResult<f64> {
    let message = [0x5au8; pkit::bench::crypto::MESSAGE_LEN];
    let started = std::time::Instant::now();
    algs.par_iter()
        .map_init(
            || issuer.key.signer(),
            |signer, &alg| -> CliResult {
                let signer = signer.as_mut().map_err(|e| CliError::from(e.clone()))?;
                std::hint::black_box(generate(alg)?);
                std::hint::black_box(signer.sign(&message)?);
                Ok(())
            },
        )
        .collect::<CliResult<Vec<()>>>()?;
    Ok(algs.len() as f64 / started.elapsed().as_secs_f64().max(1e-9))
}

fn run_list(a: ListArgs) -> CliResult<Exit> {
    if !a.ca.join("ca.db").exists() {
        return Err(CliError::io(format!(
            "{}: not a CA directory (no ca.db)",
            a.ca.display()
        )));
    }
    let store = open_store(&a.ca)?;
    let rows = store.list().map_err(db_err(&a.ca))?;
    let items: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "serial_number": hex(&r.serial),
                "subject": r.subject,
                "not_before": Time { unix: r.not_before }.to_string(),
                "not_after": Time { unix: r.not_after }.to_string(),
                "profile": r.profile,
                "key_algorithm": r.key_algorithm,
                "status": r.status,
            })
        })
        .collect();
    let text = match a.format {
        ListFormat::Json => output::json_text(&output::envelope("issued", items)),
        ListFormat::Jsonl => items.iter().map(output::json_line).collect(),
        ListFormat::Text => {
            let mut t = comfy_table::Table::new();
            t.set_header(vec![
                "serial",
                "subject",
                "not after",
                "profile",
                "key",
                "status",
            ]);
            for i in &items {
                t.add_row(
                    [
                        "serial_number",
                        "subject",
                        "not_after",
                        "profile",
                        "key_algorithm",
                        "status",
                    ]
                    .map(|k| i[k].as_str().unwrap_or("").to_string()),
                );
            }
            format!("{t}\n")
        }
    };
    io::write_text(None, false, &text)?;
    Ok(Exit::Ok)
}

fn run_export(a: ExportArgs) -> CliResult<Exit> {
    let serial = parse_serial(&a.serial)?;
    let store = open_store(&a.ca)?;
    let rec = store.get(&serial).map_err(db_err(&a.ca))?.ok_or_else(|| {
        CliError::negative(format!("serial {} is not in {}", a.serial, a.ca.display()))
    })?;
    io::write_text(
        a.out.as_deref(),
        a.force,
        &io::pem_encode("CERTIFICATE", &rec.der),
    )?;
    Ok(Exit::Ok)
}
