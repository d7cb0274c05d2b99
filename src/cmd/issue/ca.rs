//! `pkit issue ca`: a root CA, or an intermediate under `--parent`. The CA is made by
//! `pkit::pki::ca::create`; this file reads the arguments, opens the parent and the new
//! key (asking for passphrases), and says what was made.

use crate::cmd::ca_db::{self, db_err, DbArgs};
use crate::cmd::ca_dir::{
    files_err, load_issuer_with_flag, new_ca_key, note_clear_key, note_findings, parse_time,
    ExistingKeyArgs, Passout,
};
use crate::cmd::created::{certificate_item, print_json, say_created, Files, FormatArgs};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::flags::{LintGateArgs, PointerArgs};
use crate::cmd::io;
use crate::cmd::issue::policy::PolicyArgs;
use crate::cmd::key::AlgorithmParser;
use crate::cmd::request::subject;
use clap::Args;
use pkit::der::Time;
use pkit::lint::Rules;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::Backend;
use pkit::pki::ca::ca_files::KEY_FILE;
use pkit::pki::ca::create::{self, CreateError, NewCa};
use pkit::pki::ca::name_constraints;
use pkit::pki::ca::pointers::Pointers;
use pkit::pki::ca::settings::CaSettings;
use pkit::pki::cert::subject_dn;
use std::path::PathBuf;

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
    #[arg(long, value_name = "RULES", default_value = "rfc5280,cabf-tls-core",
          value_parser = crate::cmd::values::RULE_SETS)]
    pub lint_rules: Rules,
    /// Publish the CA's revocations in N partitioned CRLs (as large public CAs do): each
    /// certificate's cRLDistributionPoints names the shard of its serial (serial mod N),
    /// served beside each --crl-url with -SHARD before its extension (int.crl →
    /// int-3.crl), each with an issuingDistributionPoint naming it; the whole CRL stays at
    /// --crl-url for certificates issued before. Fixed for the CA's life (ca.json
    /// crl_shards).
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=4096))]
    pub crl_shards: u32,
    #[command(flatten)]
    pub lint: LintGateArgs,
    #[command(flatten)]
    pub format: FormatArgs,
}

pub fn run_ca(be: &Backend, a: CaArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let subj = subject(&a.subject)?;
    let settings = CaSettings {
        pointers: a.pointers.over(&Pointers::default())?,
        lint_rules: a.lint_rules,
        policy: a.policy.parse()?,
        crl_shards: a.crl_shards,
    };
    if a.crl_shards > 1 && settings.pointers.crl.is_empty() {
        return Err(CliError::usage(
            "--crl-shards: sharded CRLs need --crl-url (each shard is served beside it)",
        ));
    }
    let bases = |flag: &str, list: &[String]| -> CliResult<Vec<Vec<u8>>> {
        list.iter()
            .map(|s| {
                name_constraints::parse_base(s).map_err(|e| CliError::usage(format!("{flag} {e}")))
            })
            .collect()
    };
    let new = NewCa {
        subject: subj,
        subject_text: a.subject.clone(),
        settings,
        path_len: a.path_len,
        name_constraints: name_constraints::encode(
            &bases("--permit", &a.permit)?,
            &bases("--exclude", &a.exclude)?,
        ),
        not_before: now,
        days: a.days,
        clip: a.clip_validity,
        lint: a.lint.mode(),
    };
    new.check().map_err(|e| create_err(&a, e))?;
    create::check_free(&a.dir).map_err(|e| create_err(&a, e))?;
    let server = ca_db::check_new_server(&a.dir, &a.db)?;
    // The parent is loaded (its key opened) before a passphrase is asked for the new key.
    let parent = match &a.parent {
        Some(dir) => {
            let (passin, pin) = (a.parent_passin.as_deref(), a.parent_pin.as_deref());
            let issuer = load_issuer_with_flag(be, dir, passin, pin, "--parent-passin")?;
            issuer.check_valid_at(now)?;
            Some((dir, issuer))
        }
        None => None,
    };
    let key_file = a.dir.join(KEY_FILE);
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
    let key = new_key.key.as_ref();
    let alg = key.algorithm();
    let cert = match &parent {
        None => new.self_signed(key),
        Some((parent_dir, issuer)) => {
            // The parent's records are where its directory says (its db.url, else its
            // ca.db), reached with the same --db-passin.
            let parent_db = DbArgs {
                db: None,
                db_passin: a.db.db_passin.clone(),
            };
            let mut store = ca_db::open_store(parent_dir, &parent_db)?;
            new.under(key, issuer, parent_dir, store.as_mut())
        }
    }
    .map_err(|e| create_err(&a, e))?;
    note_findings(&cert.findings);
    let written = new
        .write(
            &a.dir,
            &cert,
            new_key.file_text.as_bytes(),
            server.as_deref(),
        )
        .map_err(|e| create_err(&a, e))?;
    note_clear_key(&new_key, passout, &key_file);
    if a.format.json() {
        let mut files = Files::default();
        files.add("certificate", &written.certificate);
        files.add("key", &written.key);
        files.add("settings", &written.settings);
        if let Some(chain) = &written.chain {
            files.add("chain", chain);
        }
        if let Some(root) = &written.root {
            files.add("root", root);
        }
        let mut item = certificate_item(be, &cert.der, "ca", files);
        item["key_algorithm"] = alg.name().into();
        item["key_encrypted"] = (!new_key.in_clear).into();
        print_json("ca", vec![item])?;
    } else {
        say_created(
            format_args!("CA {} ({alg})", subject_dn(&cert.der).unwrap_or_default()),
            Some(&a.dir),
        );
    }
    Ok(Exit::Ok)
}

/// What failed in making the CA of `a`, as the command says it.
fn create_err(a: &CaArgs, e: CreateError) -> CliError {
    match e {
        CreateError::EmptySubject => CliError::usage("--subject: a CA needs a non-empty subject"),
        // What the BRs require of every certificate it will issue (§7.1.2.7.7, §7.1.2.11.2).
        CreateError::PublicTrustPointers => CliError::usage(
            "--lint-rules cabf-tls: a CA meant for public trust needs --issuer-url and \
             --crl-url (its certificates must carry caIssuers and cRLDistributionPoints)",
        ),
        e @ CreateError::Exists(_) => CliError::io(e.to_string()),
        CreateError::Ca(e) => e.into(),
        CreateError::Store(e) => db_err(&a.dir)(e),
        CreateError::ParentStore(e) => db_err(a.parent.as_deref().unwrap_or(&a.dir))(e),
        CreateError::ParentFiles(e) => files_err(e),
        CreateError::ParentCertificate(path, e) => CliError::der(&path.display().to_string(), &e),
        CreateError::Io(path, e) => io::file_err(&path, &e),
        other => CliError::internal(other.to_string()),
    }
}
