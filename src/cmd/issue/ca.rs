//! `pkit issue ca`: a root CA, or an intermediate under `--parent`.

use crate::cmd::ca_db::db_err;
use crate::cmd::ca_db::{self, DbArgs};
use crate::cmd::ca_dir::{load_issuer, new_ca_key, parse_time, ExistingKeyArgs, NewCaKey};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::key::AlgorithmParser;
use crate::cmd::request::{dn_of, record, subject};
use clap::Args;
use pkit::der::Time;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::Backend;
use pkit::pki::ca::issuer::{self, Request};
use pkit::pki::ca::profile::Profile;
use pkit::pki::ca::store::{self};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CaArgs {
    /// The CA directory to create (ca.pem, ca.key, ca.db).
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
    /// Validity in days.
    #[arg(long, default_value_t = 3650)]
    pub days: u32,
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
    /// Encrypt ca.key with a password from SRC (pass:, env:, file:, fd:).
    #[arg(long, value_name = "SRC")]
    pub passout: Option<String>,
    /// Start of validity (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

pub fn run_ca(be: &Backend, a: CaArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let subj = subject(&a.subject)?;
    if subj == [0x30, 0x00] {
        return Err(CliError::usage("--subject: a CA needs a non-empty subject"));
    }
    for f in ["ca.pem", "ca.key", "ca.db", ca_db::URL_FILE] {
        if a.dir.join(f).exists() {
            return Err(CliError::io(format!(
                "{}: already exists; refusing to replace a CA",
                a.dir.join(f).display()
            )));
        }
    }
    let server = ca_db::check_new_server(&a.dir, &a.db)?;
    let not_after = now.plus_seconds(i64::from(a.days) * 86_400);
    let NewCaKey {
        key,
        file_text: key_text,
    } = new_ca_key(
        be,
        &a.existing,
        a.alg,
        Algorithm::EcdsaP256,
        a.passout.as_deref(),
    )?;
    let alg = key.algorithm();
    let cert_der = match &a.parent {
        None => issuer::self_signed(key.as_ref(), &subj, now, not_after, a.path_len)?,
        Some(parent) => {
            let issuer = load_issuer(
                be,
                parent,
                a.parent_passin.as_deref(),
                a.parent_pin.as_deref(),
            )?;
            issuer.check_valid_at(now)?;
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
            };
            let mut signer = issuer.key.signer()?;
            let issued = issuer.issue(signer.as_mut(), &req)?;
            // The parent's records are where its directory says (its db.url, else its
            // ca.db), reached with the same --db-passin.
            let parent_db = DbArgs {
                db: None,
                db_passin: a.db.db_passin.clone(),
            };
            let mut store = ca_db::open_store(parent, &parent_db)?;
            store
                .insert_certificates(&[record(&issued, &a.subject, Profile::Ca, alg.name())])
                .map_err(db_err(parent))?;
            issued.der
        }
    };
    crate::cmd::ca_dir::create_ca_dir(&a.dir)?;
    match &server {
        Some(url) => ca_db::record_url(&a.dir, url)?,
        None => drop(store::open(&a.dir.join("ca.db")).map_err(db_err(&a.dir))?),
    }
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
        alg,
        a.dir.display()
    );
    Ok(Exit::Ok)
}
