//! `pkit issue cert`: one certificate, for a new key or from a CSR (what each source
//! says is weighed in `pkit::pki::ca::compose`).

use super::deliver::{deliver, report, DeliverArgs, HeldKey};
use crate::cmd::ca_db::issue_err;
use crate::cmd::ca_dir::parse_time;
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::key::AlgorithmParser;
use crate::cmd::request::{generate, read_csr, sans, subject};
use clap::{Args, ValueEnum};
use pkit::der::Time;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::Backend;
use pkit::pki::ca::compose::{Asked, Keyed};
use pkit::pki::ca::issue_one::RecordAs;
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
    /// The certificate's profile: its key usages, extended key usages and basic
    /// constraints (default: server, or what --template describes).
    #[arg(long, value_parser = crate::cmd::values::PROFILES)]
    pub profile: Option<Profile>,
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
    let mut asked = Asked {
        profile: a.profile,
        template,
        ..Asked::default()
    };
    let (not_before, not_after) = a.validity.window(asked.profile(), now)?;
    asked.sans = sans(&a.san)?;
    // Fail on existing outputs before doing any work.
    a.deliver.check(
        a.key_out.as_deref(),
        a.key_out.is_some(),
        "give --key-out FILE for a new key",
    )?;
    let issuer = a.issuer.load(be)?;
    issuer.check_valid_at(now)?;
    let (keyed, key) = match (&a.csr, &a.key_out) {
        (Some(csr_path), _) => {
            let c = read_csr(be, csr_path)?;
            let keyed = Keyed {
                key_alg: Algorithm::from_spki(&c.spki),
                spki: c.spki,
                subject: Some(c.subject),
                extensions: match a.copy_extensions {
                    CopyExtensions::Copy => c.extensions,
                    CopyExtensions::None => Vec::new(),
                },
            };
            (keyed, None)
        }
        (None, Some(_)) => {
            let alg = a.alg.unwrap_or(Algorithm::EcdsaP256);
            let key = generate(be, alg)?;
            let keyed = Keyed {
                spki: key.public_key_der()?,
                key_alg: Some(alg),
                ..Keyed::default()
            };
            (keyed, Some(key))
        }
        (None, None) => {
            return Err(CliError::usage(
                "give --csr FILE, or --subject and --key-out FILE for a fresh key",
            ))
        }
    };
    asked.subject = a.subject.as_deref().map(subject).transpose()?;
    let pointers = a.pointers.over(&asked.base_pointers(&issuer.pointers))?;
    let req = asked.request(
        keyed,
        (not_before, not_after),
        pointers,
        a.validity.clip_validity,
    )?;
    let prof = req.profile;
    let mut signer = issuer.key.signer()?;
    let mut store = crate::cmd::ca_db::open_store(&a.issuer.ca, &a.issuer.db)?;
    let issued = issuer
        .issue_and_record(signer.as_mut(), &req, store.as_mut(), RecordAs::default())
        .map_err(issue_err(&a.issuer.ca))?;
    let key = key.as_deref().map(|k| HeldKey {
        key: k,
        out: a.key_out.as_deref(),
    });
    let item = deliver(be, &a.issuer.ca, &issued, prof, key, &a.deliver, None)?;
    report(&a.deliver, vec![item])?;
    Ok(Exit::Ok)
}

/// Read a `--template` file.
fn read_template(path: &Path) -> CliResult<Template> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| CliError::io_at(&name, &e))?;
    // A DER certificate or another binary file given by mistake: input, not I/O.
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        CliError::parse_at(&name, at, "expected a JSON template (UTF-8 text)")
    })?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        CliError::parse(format!(
            "{name}: line {} column {}: expected JSON: {e}",
            e.line(),
            e.column()
        ))
    })?;
    Template::from_json(&v).map_err(|e| CliError::parse(format!("{name}: {e}")))
}
