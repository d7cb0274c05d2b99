//! `pkit issue renew`: a certificate again, from the one it replaces — same subject,
//! SANs, profile and extensions; a new serial, validity and (with --key-out) key; the
//! CA's current pointers. The CA's records link the two. What the renewal takes from the
//! old certificate, and whether it is due, is `pkit::pki::ca::renew`'s.

use super::deliver::{deliver, report, DeliverArgs};
use crate::cmd::ca_db::{db_err, issue_err, open_store};
use crate::cmd::ca_dir::{parse_duration, parse_time};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::flags::{IssuingCaArgs, ValidityArgs};
use crate::cmd::io;
use crate::cmd::key::{load_private_key, AlgorithmParser};
use crate::cmd::request::generate;
use clap::Args;
use pkit::der::{hex, Time};
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::{Backend, PrivateKey};
use pkit::pki::ca::issue_one::RecordAs;
use pkit::pki::ca::renew::{RenewError, Renewal};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct RenewArgs {
    #[command(flatten)]
    pub issuer: IssuingCaArgs,
    /// The certificate to renew (issued by this CA: its serial is in the CA's records).
    #[arg(long, value_name = "FILE")]
    pub cert: PathBuf,
    /// Certify this key (the certificate's own, or another) instead of making a new one.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["key_out", "alg"], required_unless_present = "key_out")]
    pub key: Option<PathBuf>,
    /// Password source of an encrypted --key.
    #[arg(long, value_name = "SRC", requires = "key")]
    pub key_passin: Option<String>,
    /// Make a new key (mode 0600) and certify it.
    #[arg(long, value_name = "FILE")]
    pub key_out: Option<PathBuf>,
    /// Algorithm of the new key (default: the old key's).
    #[arg(long, value_parser = AlgorithmParser, requires = "key_out")]
    pub alg: Option<Algorithm>,
    /// Renew only when the certificate expires within this window (e.g. 30d); otherwise
    /// say so and exit 0 having done nothing (for cron).
    #[arg(long, value_name = "DURATION")]
    pub within: Option<String>,
    #[command(flatten)]
    pub validity: ValidityArgs,
    /// Judge the CA's validity (and --within) at this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    #[command(flatten)]
    pub deliver: DeliverArgs,
}

pub fn run_renew(be: &Backend, a: RenewArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let window = a
        .within
        .as_deref()
        .map(|w| parse_duration("--within", w))
        .transpose()?;
    let item = io::read_item(&a.cert)?;
    let old = Renewal::of(&io::parse_cert(&item)?).map_err(|e| CliError::der(&item.name, &e))?;
    let serial = &old.serial;
    if !old.is_due(now, window) {
        if !a.deliver.format.json() {
            eprintln!(
                "pkit: {}: valid until {}, more than {} from now; not renewed",
                item.name,
                old.not_after,
                a.within.as_deref().unwrap_or_default()
            );
        }
        report(&a.deliver, Vec::new())?;
        return Ok(Exit::Ok);
    }
    let mut store = open_store(&a.issuer.ca, &a.issuer.db)?;
    let profile = old.profile_in(store.as_ref()).map_err(|e| match e {
        RenewError::NotIssued => CliError::usage(format!(
            "{}: serial {} is not a certificate {} issued",
            item.name,
            hex(serial),
            a.issuer.ca.display()
        )),
        RenewError::UnknownProfile(p) => CliError::parse(format!(
            "{}: the records give serial {} the unknown profile '{p}'",
            a.issuer.ca.display(),
            hex(serial),
        )),
        RenewError::Store(e) => db_err(&a.issuer.ca)(e),
        other => CliError::internal(other.to_string()),
    })?;
    a.deliver.check(a.key_out.as_deref())?;
    let validity = a.validity.window(profile, now)?;
    let issuer = a.issuer.load(be)?;
    issuer.check_valid_at(now)?;
    let key: Box<dyn PrivateKey>;
    let (spki, key_alg, new_key) = match (&a.key, &a.key_out) {
        (Some(path), _) => {
            key = load_private_key(be, path, a.key_passin.as_deref(), None)?;
            (key.public_key_der()?, Some(key.algorithm()), None)
        }
        (None, Some(path)) => {
            let alg = a.alg.or(old.key_alg).ok_or_else(|| {
                CliError::unsupported(format!(
                    "{}: pkit cannot make a key like the certificate's; give --alg",
                    item.name
                ))
            })?;
            key = generate(be, alg)?;
            (
                key.public_key_der()?,
                Some(alg),
                Some((key.as_ref(), path.as_path())),
            )
        }
        (None, None) => return Err(CliError::usage("give --key FILE or --key-out FILE")),
    };
    let req = old.request(profile, spki, key_alg, validity, a.validity.clip_validity);
    let renewal = RecordAs {
        subject: None,
        renews: Some(serial),
    };
    let issued = issuer
        .issue_and_record(issuer.key.signer()?.as_mut(), &req, store.as_mut(), renewal)
        .map_err(issue_err(&a.issuer.ca))?;
    let what = format!("renewed serial {} as", hex(serial));
    let mut out = deliver(
        be,
        &a.issuer.ca,
        &issued,
        profile,
        new_key,
        &a.deliver,
        &what,
    )?;
    out["replaces"] = hex(serial).into();
    report(&a.deliver, vec![out])?;
    Ok(Exit::Ok)
}
