//! `pkit issue ca`: a root CA, or an intermediate under `--parent`.

use crate::cmd::ca_db::db_err;
use crate::cmd::ca_db::{self, DbArgs};
use crate::cmd::ca_dir::note_findings;
use crate::cmd::ca_dir::{
    chain_to_anchor, load_issuer, new_ca_key, note_clear_key, parse_time, ExistingKeyArgs, Passout,
};
use crate::cmd::created::{certificate_item, print_json, Files, FormatArgs};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::flags::{LintGateArgs, PointerArgs};
use crate::cmd::io;
use crate::cmd::issue::policy::PolicyArgs;
use crate::cmd::key::AlgorithmParser;
use crate::cmd::request::{dn_of, record, subject};
use clap::Args;
use pkit::der::Time;
use pkit::lint::Rules;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::Backend;
use pkit::pki::ca::ca_files::{CHAIN_FILE, ROOT_FILE};
use pkit::pki::ca::gate::LintGate;
use pkit::pki::ca::issuer::{self, Request};
use pkit::pki::ca::pointers::Pointers;
use pkit::pki::ca::profile::Profile;
use pkit::pki::ca::settings::{self, CaSettings};
use pkit::pki::ca::store::{self};
use pkit::pki::ca::{name_constraints, validity};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct CaArgs {
    /// The CA directory to create (ca.pem, ca.key, ca.db, ca.json; chain.pem for an
    /// intermediate).
    #[arg(long)]
    pub dir: PathBuf,
    /// Subject, RFC 4514 (`CN=Example Root,O=Example`) or OpenSSL's `/O=Example/CN=…`.
    #[arg(long)]
    pub subject: String,
    /// Key algorithm of a new key (default ecdsa-p256); with --key, the key's.
    #[arg(long, value_parser = AlgorithmParser)]
    pub alg: Option<Algorithm>,
    #[command(flatten)]
    pub existing: ExistingKeyArgs,
    #[command(flatten)]
    pub db: DbArgs,
    /// Validity in days (default: 3650 for a root, 1825 for an intermediate).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub days: Option<u32>,
    /// With --parent: cut a validity that reaches past the parent's to end with it,
    /// instead of refusing (exit 2).
    #[arg(long, requires = "parent")]
    pub clip_validity: bool,
    /// Make an intermediate signed by the CA in this directory (recorded in its ca.db).
    #[arg(long, value_name = "DIR")]
    pub parent: Option<PathBuf>,
    /// Password source for the parent CA's key.
    #[arg(long, value_name = "SRC")]
    pub parent_passin: Option<String>,
    /// PIN of the token holding the parent CA's key.
    #[arg(long, value_name = "SRC")]
    pub parent_pin: Option<String>,
    /// basicConstraints pathLenConstraint.
    #[arg(long)]
    pub path_len: Option<u32>,
    /// Names the CA and every CA below it may certify (nameConstraints, critical; RFC
    /// 5280 §4.2.1.10), repeatable: DNS:example.com, DNS:.internal, IP:10.0.0.0/8,
    /// email:example.com, URI:.example.com, DN:O=Example.
    #[arg(long, value_name = "TYPE:VALUE")]
    pub permit: Vec<String>,
    /// Names it may never certify (excludedSubtrees), repeatable, as --permit.
    #[arg(long, value_name = "TYPE:VALUE")]
    pub exclude: Vec<String>,
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Where relying parties find this CA's OCSP responder, CRL and certificate: recorded
    /// in DIR/ca.json and put in every certificate the CA issues.
    #[command(flatten)]
    pub pointers: PointerArgs,
    /// Encrypt ca.key with a password from SRC (pass:, env:, file:, fd:). Without it (or
    /// --no-passout), a passphrase is asked for at a terminal; without a terminal the key
    /// is written in clear, with a warning.
    #[arg(long, value_name = "SRC", conflicts_with = "no_passout")]
    pub passout: Option<String>,
    /// Write ca.key in clear (for a key kept safe by other means).
    #[arg(long)]
    pub no_passout: bool,
    /// Start of validity (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// The rule sets this CA's lint gate applies to what it signs (recorded in ca.json):
    /// rfc5280 and cabf-tls-core by default (what a private CA keeps of the Baseline
    /// Requirements); cabf-tls for a CA meant to be publicly trusted, which then needs
    /// --issuer-url, --crl-url and C and O in its subject, and puts the CA/B Forum's
    /// domain-validated policy in its TLS server certificates; cabf-smime adds the S/MIME
    /// BRs for the S/MIME certificates it issues.
    #[arg(long, value_name = "RULES", default_value = "rfc5280,cabf-tls-core")]
    pub lint_rules: String,
    #[command(flatten)]
    pub lint: LintGateArgs,
    #[command(flatten)]
    pub format: FormatArgs,
}

pub fn run_ca(be: &Backend, a: CaArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let subj = subject(&a.subject)?;
    if subj == [0x30, 0x00] {
        return Err(CliError::usage("--subject: a CA needs a non-empty subject"));
    }
    let settings = CaSettings {
        pointers: a.pointers.over(&Pointers::default())?,
        lint_rules: Rules::parse(&a.lint_rules)
            .map_err(|e| CliError::usage(format!("--lint-rules: {e}")))?,
        policy: a.policy.parse()?,
    };
    if settings.lint_rules.cabf_tls
        && (settings.pointers.ca_issuers.is_empty() || settings.pointers.crl.is_empty())
    {
        // What the BRs require of every certificate it will issue (§7.1.2.7.7, §7.1.2.11.2).
        return Err(CliError::usage(
            "--lint-rules cabf-tls: a CA meant for public trust needs --issuer-url and \
             --crl-url (its certificates must carry caIssuers and cRLDistributionPoints)",
        ));
    }
    let bases = |flag: &str, list: &[String]| -> CliResult<Vec<Vec<u8>>> {
        list.iter()
            .map(|s| {
                name_constraints::parse_base(s).map_err(|e| CliError::usage(format!("{flag} {e}")))
            })
            .collect()
    };
    let constraints = name_constraints::encode(
        &bases("--permit", &a.permit)?,
        &bases("--exclude", &a.exclude)?,
    );
    for f in [
        "ca.pem",
        "ca.key",
        "ca.db",
        ca_db::URL_FILE,
        settings::FILE,
        CHAIN_FILE,
        ROOT_FILE,
    ] {
        if a.dir.join(f).exists() {
            return Err(CliError::io(format!(
                "{}: already exists; refusing to replace a CA",
                a.dir.join(f).display()
            )));
        }
    }
    let server = ca_db::check_new_server(&a.dir, &a.db)?;
    let default_days = if a.parent.is_some() {
        validity::default_days(Profile::Ca, now)
    } else {
        3650
    };
    let not_after = validity::not_after_for(now, a.days.unwrap_or(default_days));
    // The parent is loaded (its key opened) before a passphrase is asked for the new key.
    let parent = match &a.parent {
        Some(dir) => {
            let issuer = load_issuer(be, dir, a.parent_passin.as_deref(), a.parent_pin.as_deref())?;
            issuer.check_valid_at(now)?;
            Some((dir, issuer))
        }
        None => None,
    };
    let key_file = a.dir.join("ca.key");
    let passout = match (&a.passout, a.no_passout) {
        (Some(src), _) => Passout::Source(src),
        (None, true) => Passout::Clear,
        (None, false) => Passout::Ask,
    };
    let new_key = new_ca_key(
        be,
        &a.existing,
        a.alg,
        Algorithm::EcdsaP256,
        passout,
        &key_file,
    )?;
    let key = &new_key.key;
    let alg = key.algorithm();
    let (cert_der, chain, findings) = match &parent {
        None => {
            // A root is linted with the rules it will apply to what it signs.
            let gate = LintGate {
                rules: settings.lint_rules,
                mode: a.lint.mode(),
            };
            let (der, findings) = issuer::self_signed_with(
                key.as_ref(),
                &subj,
                now,
                not_after,
                a.path_len,
                constraints.as_deref(),
                &gate,
            )?;
            (der, None, findings)
        }
        Some((parent_dir, issuer)) => {
            let req = Request {
                subject: subj.clone(),
                spki: key.public_key_der()?,
                key_alg: Some(alg),
                profile: Profile::Ca,
                sans: Vec::new(),
                not_before: now,
                not_after,
                path_len: a.path_len,
                copied: Vec::new(),
                pointers: None,
                name_constraints: constraints.clone(),
                clip: a.clip_validity,
                copied_wins: false,
            };
            let mut signer = issuer.key.signer()?;
            let issued = issuer.issue(signer.as_mut(), &req)?;
            // The parent's records are where its directory says (its db.url, else its
            // ca.db), reached with the same --db-passin.
            let parent_db = DbArgs {
                db: None,
                db_passin: a.db.db_passin.clone(),
            };
            let mut store = ca_db::open_store(parent_dir, &parent_db)?;
            issued
                .record_in(
                    store.as_mut(),
                    &record(&issued, &a.subject, Profile::Ca, alg.name()),
                    None,
                    issuer.gate.mode,
                )
                .map_err(db_err(parent_dir))?;
            let chain = chain_below(parent_dir, &issued.der)?;
            (
                issued.der,
                Some((chain, anchor_of(parent_dir)?)),
                issued.findings,
            )
        }
    };
    note_findings(&findings);
    crate::cmd::ca_dir::create_ca_dir(&a.dir)?;
    match &server {
        Some(url) => ca_db::record_url(&a.dir, url)?,
        None => drop(store::open(&a.dir.join("ca.db")).map_err(db_err(&a.dir))?),
    }
    io::write_file_atomic(&key_file, new_key.file_text.as_bytes(), false, true)?;
    note_clear_key(&new_key, passout, &key_file);
    io::write_file_atomic(
        &a.dir.join(settings::FILE),
        settings.to_json().as_bytes(),
        false,
        false,
    )?;
    if let Some((chain, root)) = &chain {
        io::write_file_atomic(&a.dir.join(CHAIN_FILE), chain.as_bytes(), false, false)?;
        if let Some(root) = root {
            io::write_file_atomic(&a.dir.join(ROOT_FILE), root.as_bytes(), false, false)?;
        }
    }
    let pem_path = a.dir.join("ca.pem");
    io::write_file_atomic(
        &pem_path,
        io::pem_encode("CERTIFICATE", &cert_der).as_bytes(),
        false,
        false,
    )?;
    if a.format.json() {
        let mut files = Files::default();
        files.add("certificate", &pem_path);
        files.add("key", &key_file);
        files.add("settings", &a.dir.join(settings::FILE));
        if let Some((_, root)) = &chain {
            files.add("chain", &a.dir.join(CHAIN_FILE));
            if root.is_some() {
                files.add("root", &a.dir.join(ROOT_FILE));
            }
        }
        let mut item = certificate_item(be, &cert_der, "ca", files);
        item["key_algorithm"] = alg.name().into();
        item["key_encrypted"] = (!new_key.in_clear).into();
        print_json("ca", vec![item])?;
    } else {
        eprintln!(
            "pkit: created CA {} ({}) in {}",
            dn_of(&cert_der),
            alg,
            a.dir.display()
        );
    }
    Ok(Exit::Ok)
}

/// `root.pem` of a new intermediate: its parent's, or the parent itself when it is a
/// root (self-issued); none when the parent is an intermediate that has none.
fn anchor_of(parent: &Path) -> CliResult<Option<String>> {
    let above = chain_to_anchor(parent)?;
    let Some(top) = above.last() else {
        return Ok(None);
    };
    let self_issued = pkit::pki::cert::Certificate::from_der(top)
        .map_err(|e| CliError::der(&parent.join("ca.pem").display().to_string(), &e))?
        .is_self_issued();
    Ok(self_issued.then(|| io::pem_encode("CERTIFICATE", top)))
}

/// `chain.pem` of a new intermediate: its certificate, then the parent's chain (nothing
/// more when the parent is a root: the root is what relying parties already hold, and a
/// served chain leaves it out).
fn chain_below(parent: &Path, cert_der: &[u8]) -> CliResult<String> {
    let mut text = io::pem_encode("CERTIFICATE", cert_der);
    match std::fs::read_to_string(parent.join(CHAIN_FILE)) {
        Ok(t) => text.push_str(&t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => {
            return Err(CliError::io_at(
                &parent.join(CHAIN_FILE).display().to_string(),
                &e,
            ))
        }
    }
    Ok(text)
}
