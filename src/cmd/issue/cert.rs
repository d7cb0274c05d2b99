//! `pkit issue cert`: one certificate, for a new key or from a CSR.

use super::deliver::{deliver, report, DeliverArgs};
use crate::cmd::ca_db::db_err;
use crate::cmd::ca_dir::parse_time;
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::key::AlgorithmParser;
use crate::cmd::request::{dn_of, generate, profile, read_csr, record, sans, subject};
use clap::{Args, ValueEnum};
use pkit::der::Time;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::Backend;
use pkit::pki::ca::issuer::Request;
use pkit::pki::ca::profile::Profile;
use pkit::pki::ca::template::Template;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CopyExtensions {
    /// Ignore the CSR's requested extensions.
    None,
    /// Copy the CSR's requested extensions (the profile's own win).
    Copy,
}

#[derive(Args, Debug)]
pub struct CertArgs {
    #[command(flatten)]
    pub issuer: crate::cmd::flags::IssuingCaArgs,
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
    /// server, client, server-client, code-signing, ocsp-signer or ca (default: server,
    /// or what --template describes).
    #[arg(long)]
    pub profile: Option<String>,
    /// Take the subject, SANs and extensions from this JSON: a certificate as `pkit parse
    /// -f json` prints it, or a hand-written subset (docs/json.md, Templates). Its
    /// extensions are reproduced byte for byte but the key identifiers; --subject, --san,
    /// --profile and the pointer flags override it.
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
    #[command(flatten)]
    pub validity: crate::cmd::flags::ValidityArgs,
    /// Pointers for this certificate instead of the CA's (each kind given replaces that
    /// kind; see `issue ca --ocsp-url`).
    #[command(flatten)]
    pub pointers: crate::cmd::flags::PointerArgs,
    /// Whether to copy the CSR's requested extensions.
    #[arg(long, value_enum, default_value_t = CopyExtensions::Copy)]
    pub copy_extensions: CopyExtensions,
    /// Judge the CA's validity at this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    #[command(flatten)]
    pub deliver: DeliverArgs,
}

pub fn run_cert(be: &Backend, a: CertArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let template = a.template.as_deref().map(read_template).transpose()?;
    let prof = match (&a.profile, &template) {
        (Some(p), _) => profile(p)?,
        (None, Some(t)) => t.implied_profile(),
        (None, None) => Profile::Server,
    };
    let (not_before, not_after) = a.validity.window(prof, now)?;
    let sans = match (&template, a.san.is_empty()) {
        (Some(t), true) => t.sans.clone(),
        _ => sans(&a.san)?,
    };
    // Fail on existing outputs before doing any work.
    a.deliver.check(a.key_out.as_deref())?;
    let issuer = a.issuer.load(be)?;
    issuer.check_valid_at(now)?;
    let (subj, spki, key, copied, key_alg) = match (&a.csr, &a.key_out) {
        (Some(csr_path), _) => {
            let c = read_csr(be, csr_path)?;
            let subj = match (
                &a.subject,
                template.as_ref().and_then(|t| t.subject.clone()),
            ) {
                (Some(s), _) => subject(s)?,
                (None, Some(t)) => t,
                (None, None) => c.subject,
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
            let key = generate(be, alg)?;
            let subj = match (
                &a.subject,
                template.as_ref().and_then(|t| t.subject.clone()),
            ) {
                (Some(s), _) => subject(s)?,
                (None, Some(t)) => t,
                (None, None) => subject("")?,
            };
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
    // A template's extensions first; a CSR's fill in what it does not set.
    let copied = match &template {
        Some(t) => {
            let mut all = t.extensions.clone();
            all.extend(
                copied
                    .into_iter()
                    .filter(|(o, _)| !t.extensions.iter().any(|(x, _)| x == o)),
            );
            all
        }
        None => copied,
    };
    let base_pointers = template
        .as_ref()
        .and_then(|t| t.pointers.clone())
        .unwrap_or_else(|| issuer.pointers.clone());
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
        pointers: Some(a.pointers.over(&base_pointers)?),
        name_constraints: None,
        clip: a.validity.clip_validity,
        copied_wins: template.is_some(),
    };
    let mut signer = issuer.key.signer()?;
    let issued = issuer.issue(signer.as_mut(), &req)?;
    let dn = dn_of(&issued.der);
    let alg_name = key_alg.map_or("other", Algorithm::name);
    let mut store = crate::cmd::ca_db::open_store(&a.issuer.ca, &a.issuer.db)?;
    issued
        .record_in(
            store.as_mut(),
            &record(&issued, &dn, prof, alg_name),
            None,
            issuer.gate.mode,
        )
        .map_err(db_err(&a.issuer.ca))?;
    let key = match (&key, &a.key_out) {
        (Some(k), Some(p)) => Some((k.as_ref(), p.as_path())),
        _ => None,
    };
    let item = deliver(be, &a.issuer.ca, &issued, prof, key, &a.deliver, "issued")?;
    report(&a.deliver, vec![item])?;
    Ok(Exit::Ok)
}

/// Read a `--template` file.
fn read_template(path: &Path) -> CliResult<Template> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io_at(&name, &e))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        CliError::parse(format!(
            "{name}: line {} column {}: expected JSON: {e}",
            e.line(),
            e.column()
        ))
    })?;
    Template::from_json(&v).map_err(|e| CliError::parse(format!("{name}: {e}")))
}
