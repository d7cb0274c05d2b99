//! `pkit issue renew`: a certificate again, from the one it replaces — same subject,
//! SANs, profile and extensions; a new serial, validity and (with --key-out) key; the
//! CA's current pointers. The CA's records link the two. What the renewal takes from the
//! old certificate, whether it is due, and what the command run after it (`--exec`) is
//! told, is `pkit::pki::ca::renew`'s. Made to be scheduled: nothing due is success.

use super::deliver::{deliver, DeliverArgs, HeldKey};
use crate::cmd::ca_db::{db_err, issue_err, open_store};
use crate::cmd::ca_dir::{ca_chain_file, parse_duration, parse_time};
use crate::cmd::created::print_json_with;
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
use pkit::pki::ca::renew::{RenewError, Renewal, Renewed};
use serde_json::{json, Value};
use std::path::PathBuf;

/// `issue renew --help` and its man page: the exit codes as this command uses them, and
/// what `--exec` is given.
const AFTER_HELP: &str = "Exit codes: 0 success: renewed, or nothing due (with --within: \
\"pkit: nothing due for renewal\" on stderr unless --quiet; with -f json \"status\": \
\"not_due\", \"renewed\": 0 and no items) · 1 the CA refused to sign (its chain, policy or \
lint gate, or the CA is not valid now; nothing recorded) · 2 usage error (a certificate this \
CA did not issue) · 3 an input could not be parsed or decrypted · 4 I/O failure (an output \
exists without --force) · 5 algorithm or feature unsupported in this build · 7 internal or \
crypto-library failure · 8 renewed, recorded and written, but the --exec command failed \
(its exit status on stderr; the renewal stands and the next run finds nothing due, so run \
that command by hand).\n\n\
--exec CMD runs `sh -c CMD` after a renewal (never when nothing was due), its standard \
input empty and its standard output sent to pkit's standard error (so -f json stays one \
document on stdout), with these variables set when they apply (and removed from what it \
inherits otherwise): PKIT_CERT the file -o wrote (the certificate, followed by the chain \
with --bundle) · PKIT_BUNDLE the same file, only with --bundle · PKIT_KEY the key \
(--key-out, or the --key certified) · PKIT_CHAIN the CA's chain file (DIR/chain.pem; unset \
for a root's certificates) · PKIT_P12 the --p12-out file · PKIT_SERIAL the new serial \
(hex) · PKIT_REPLACES the renewed serial · PKIT_NOT_AFTER the new certificate's end (RFC \
3339) · PKIT_SUBJECT its subject (RFC 4514).";

#[derive(Args, Debug)]
#[command(after_help = AFTER_HELP)]
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
    /// say "nothing due for renewal" and exit 0 having done nothing (for cron and timers).
    #[arg(long, value_name = "DURATION")]
    pub within: Option<String>,
    /// Print nothing when nothing is due (cron then mails only a renewal or a failure).
    #[arg(short, long)]
    pub quiet: bool,
    /// After a renewal, run this through `sh -c` with the files and serials in PKIT_*
    /// variables (below), e.g. 'systemctl reload nginx'; its failure is exit 8.
    #[arg(long, value_name = "CMD")]
    pub exec: Option<String>,
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
        let within = a.within.as_deref().unwrap_or_default();
        if a.deliver.format.json() {
            print_json_with(
                "issued",
                Vec::new(),
                json!({
                    "status": "not_due",
                    "renewed": 0,
                    "serial_number": hex(serial),
                    "not_after": old.not_after.to_string(),
                    "within": within,
                }),
            )?;
        } else if !a.quiet {
            note!(
                "pkit: nothing due for renewal: {} (serial {}) is valid until {}, more than \
                 {within} from now",
                item.name,
                hex(serial),
                old.not_after,
            );
        }
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
    a.deliver.check(
        a.key_out.as_deref(),
        true,
        "give --key-out FILE or --key FILE",
    )?;
    let validity = a.validity.window(profile, now)?;
    let issuer = a.issuer.load(be)?;
    issuer.check_valid_at(now)?;
    let key: Box<dyn PrivateKey>;
    let (spki, key_alg, key_out) = match (&a.key, &a.key_out) {
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
            (key.public_key_der()?, Some(alg), Some(path.as_path()))
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
    let note = format!("(renews serial {})", hex(serial));
    let held = HeldKey {
        key: key.as_ref(),
        out: key_out,
    };
    let mut out = deliver(
        be,
        &a.issuer.ca,
        &issued,
        profile,
        Some(held),
        &a.deliver,
        Some(&note),
    )?;
    out["replaces"] = hex(serial).into();
    let (exec, failed) = match &a.exec {
        Some(cmd) => {
            let renewed = renewed(&a, &issued.der, serial)?;
            let (report, failed) = run_exec(&renewed, cmd);
            (Some(report), failed)
        }
        None => (None, None),
    };
    if a.deliver.format.json() {
        let mut extra = json!({"status": "renewed", "renewed": 1});
        if let Some(e) = exec {
            extra["exec"] = e;
        }
        print_json_with("issued", vec![out], extra)?;
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(Exit::Ok),
    }
}

/// What the renewal wrote, for `--exec`'s environment.
fn renewed(a: &RenewArgs, der: &[u8], replaces: &[u8]) -> CliResult<Renewed> {
    let mut r = Renewed::of(der, replaces).map_err(|e| CliError::internal(e.to_string()))?;
    let d = &a.deliver;
    r.cert = d.output.out.clone().filter(|p| p.as_os_str() != "-");
    r.bundle = d.bundle && r.cert.is_some();
    r.key = a.key_out.clone().or_else(|| a.key.clone());
    r.chain = ca_chain_file(&a.issuer.ca)?;
    r.pkcs12 = d.p12_out.clone();
    Ok(r)
}

/// Run `--exec`: its report for JSON, and the error (exit 8) when it failed.
fn run_exec(renewed: &Renewed, cmd: &str) -> (Value, Option<CliError>) {
    use std::io::Write;
    use std::os::unix::process::ExitStatusExt;
    // What pkit printed comes before what the command prints.
    let _ = std::io::stdout().flush();
    let status = renewed
        .command(cmd)
        .stdin(std::process::Stdio::null())
        .stdout(std::io::stderr())
        .status();
    let renewed_note = "the renewal is recorded and its files written";
    match status {
        Ok(st) if st.success() => (
            json!({"command": cmd, "exit_code": 0, "signal": null}),
            None,
        ),
        Ok(st) => {
            let how = match (st.code(), st.signal()) {
                (Some(c), _) => format!("exited with status {c}"),
                (None, Some(sig)) => format!("was killed by signal {sig}"),
                (None, None) => format!("failed ({st})"),
            };
            let report = json!({"command": cmd, "exit_code": st.code(), "signal": st.signal()});
            let e = CliError::new(
                Exit::ExecFailed,
                format!("--exec {cmd:?} {how}; {renewed_note}"),
            );
            (report, Some(e))
        }
        Err(e) => {
            let report = json!({"command": cmd, "exit_code": null, "signal": null,
                "error": e.to_string()});
            let e = CliError::new(
                Exit::ExecFailed,
                format!("--exec {cmd:?}: cannot run sh: {e}; {renewed_note}"),
            );
            (report, Some(e))
        }
    }
}
