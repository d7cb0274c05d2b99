//! `pkit crl`: revoke certificates in a CA's ca.db, generate and sign CRLs from it, verify
//! a CRL against its CA, and look serials up in a CRL.

use super::ca_db::db_err;
use super::ca_db::{open_store, DbArgs};
use super::ca_dir::{parse_duration, parse_serial, parse_time};
use super::created::{check_free, print_json, say_created, Files, FormatArgs};
use super::error::{CliError, CliResult, Exit};
use super::io;
use super::io::{parse_cert, read_item};
use super::output;
use clap::{Args, Subcommand, ValueEnum};
use pkit::der::hex;
use pkit::der::{integer, Time};
use pkit::pki::alg::Digest;
use pkit::pki::backend::Backend;
use pkit::pki::ca::crl_generate::{
    generate_crl, record_and_write, CrlError, CrlOptions, PublishError,
};
use pkit::pki::ca::store::RevokeOutcome;
use pkit::pki::ca::undelivered;
use pkit::pki::cert::subject_dn;
use pkit::pki::crl::Crl;
use pkit::pki::ext::CrlReason;
use pkit::pki::ocsp_verify::VerifyError;
use pkit::pki::signed::SignedError;
use pkit::pki::verify::crl_verify::{self, RevokedIndex};
use serde_json::{json, Value};
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(after_help = super::error::EXIT_CODES_HELP)]
pub struct CrlArgs {
    #[command(subcommand)]
    pub command: CrlCommand,
}

#[derive(Subcommand, Debug)]
pub enum CrlCommand {
    /// Record a revocation in a CA directory's ca.db.
    Revoke(RevokeArgs),
    /// Generate and sign a CRL (v2) over the CA's revoked certificates.
    Gen(GenArgs),
    /// Check a CRL: issuer, key identifier, signature, thisUpdate/nextUpdate.
    Verify(VerifyArgs),
    /// Look serial numbers up in a CRL (exit 1 when any is listed).
    Check(CheckArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct RevokeArgs {
    /// The CA directory (ca.pem, ca.key, ca.db).
    #[arg(long)]
    pub ca: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// Serial number in hex (colons allowed), as `pkit issue list` shows it.
    #[arg(required_unless_present_any = ["cert", "undelivered"], conflicts_with_all = ["cert", "undelivered"])]
    pub serial: Option<String>,
    /// Revoke this certificate (issued by the CA) instead of naming its serial.
    #[arg(long, value_name = "FILE", conflicts_with = "undelivered")]
    pub cert: Option<PathBuf>,
    /// Revoke every certificate a batch committed but never delivered (see `pkit issue
    /// list --undelivered`): nobody received them, and keys whose files were never
    /// written are gone.
    #[arg(long)]
    pub undelivered: bool,
    /// CRLReason (RFC 5280 §5.3.1), in any case; removeFromCRL is for delta CRLs only.
    #[arg(long, value_name = "REASON", value_parser = super::values::REASONS)]
    pub reason: Option<u8>,
    /// When the revocation happened (RFC 3339; default now): not before the certificate's
    /// notBefore, not in the future.
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    #[command(flatten)]
    pub format: FormatArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutForm {
    Pem,
    Der,
}

#[derive(Args, Debug)]
pub struct GenArgs {
    #[command(flatten)]
    pub issuer: crate::cmd::flags::IssuingCaArgs,
    /// nextUpdate = thisUpdate + this (s, m, h, d).
    #[arg(long, value_name = "DURATION", default_value = "7d")]
    pub next_update: String,
    /// Leave out certificates that expired before thisUpdate (RFC 5280 §3.3 allows it).
    #[arg(long)]
    pub drop_expired: bool,
    /// thisUpdate (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Output encoding.
    #[arg(long, value_enum, default_value_t = OutForm::Pem)]
    pub outform: OutForm,
    #[command(flatten)]
    pub output: crate::cmd::flags::OutputArgs,
    /// json: describe the CRL on stdout (number, times, entries, files; its PEM when no
    /// -o is given).
    #[command(flatten)]
    pub format: FormatArgs,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The CRL (PEM, DER or base64).
    pub crl: PathBuf,
    /// The certificate of the CA that should have issued it.
    #[arg(long)]
    pub issuer: PathBuf,
    /// Judge freshness at this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The CRL (PEM, DER or base64).
    pub crl: PathBuf,
    /// Serial numbers in hex (colons allowed).
    #[arg(required = true)]
    pub serials: Vec<String>,
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(be: &Backend, a: CrlArgs) -> CliResult<Exit> {
    match a.command {
        CrlCommand::Revoke(a) => run_revoke(be, a),
        CrlCommand::Gen(a) => run_gen(be, a),
        CrlCommand::Verify(a) => run_verify(be, a),
        CrlCommand::Check(a) => run_check(a),
    }
}

/// True when the command prints JSON, so its errors are JSON too.
pub fn wants_json(a: &CrlArgs) -> bool {
    match &a.command {
        CrlCommand::Verify(v) => v.format == Format::Json,
        CrlCommand::Check(c) => c.format == Format::Json,
        CrlCommand::Gen(g) => g.format.json(),
        CrlCommand::Revoke(r) => r.format.json(),
    }
}

fn reason_name(code: Option<u8>) -> Option<&'static str> {
    code.and_then(|c| CrlReason::from_code(i64::from(c)))
        .and_then(CrlReason::name)
}

fn run_revoke(be: &Backend, a: RevokeArgs) -> CliResult<Exit> {
    let reason = a.reason;
    let at = parse_time("--at", &a.at)?.unwrap_or_else(Time::now);
    if a.undelivered {
        // Not in the future; a batch's certificates were issued when it ran, which no
        // record here dates against one --at, so notBefore is not asked.
        if a.at.is_some() {
            check_revocation_time(at, None)?;
        }
        return revoke_undelivered(be, &a.ca, &a.db, at, reason, a.format.json());
    }
    let serial = match (&a.serial, &a.cert) {
        (_, Some(path)) => {
            let item = read_item(path)?;
            let cert = parse_cert(&item)?;
            let ca_der = super::ca_dir::load_ca_cert(&a.ca)?;
            let ca = pkit::pki::cert::Certificate::from_der(&ca_der)
                .map_err(|e| CliError::der(&a.ca.join("ca.pem").display().to_string(), &e))?;
            cert.check_issued_by(&ca).map_err(|e| {
                CliError::negative(format!(
                    "{}: issued by {}, not by this CA ({})",
                    item.name, e.issuer, e.ca
                ))
            })?;
            integer::unsigned_bytes(cert.serial).to_vec()
        }
        (Some(s), None) => parse_serial(s)?,
        (None, None) => return Err(CliError::usage("give a SERIAL or --cert FILE")),
    };
    let mut store = open_store(&a.ca, &a.db)?;
    let shown = hex(&serial);
    if a.at.is_some() {
        let known = store.get(&serial).map_err(db_err(&a.ca))?;
        check_revocation_time(at, known.map(|r| Time { unix: r.not_before }))?;
    }
    match store
        .revoke(&serial, at.unix, reason)
        .map_err(db_err(&a.ca))?
    {
        RevokeOutcome::Revoked => {
            if a.format.json() {
                print_json(
                    "revoked",
                    vec![revocation_json(&shown, "revoked", at, reason)],
                )?;
            } else {
                note!(
                    "pkit: revoked serial {shown} at {at}{}",
                    reason_name(reason).map_or(String::new(), |r| format!(" ({r})"))
                );
            }
            Ok(Exit::Ok)
        }
        RevokeOutcome::AlreadyRevoked(r) => {
            let (was, was_reason) = (Time { unix: r.revoked_at }, r.reason);
            if a.format.json() {
                let item = revocation_json(&shown, "already_revoked", was, was_reason);
                print_json("revoked", vec![item])?;
            } else {
                note!(
                    "pkit: serial {shown} was already revoked at {was}{}; unchanged",
                    reason_name(was_reason).map_or(String::new(), |r| format!(" ({r})"))
                );
            }
            Ok(Exit::Ok)
        }
        RevokeOutcome::Unknown => Err(CliError::negative(format!(
            "serial {shown}: not issued by the CA in {}",
            a.ca.display()
        ))),
    }
}

/// `--at` is when the revocation happened (RFC 5280 §5.1.2.6, revocationDate): not before
/// the certificate's notBefore, when the CA's records give it, nor later than now (five
/// minutes of clocks' drift allowed). Either would put a date on the CRL that no relying
/// party can make sense of.
fn check_revocation_time(at: Time, not_before: Option<Time>) -> CliResult {
    if let Some(nb) = not_before.filter(|nb| at.unix < nb.unix) {
        return Err(CliError::usage(format!(
            "--at {at} is before the certificate's notBefore ({nb}): it cannot have been \
             revoked before it was valid"
        )));
    }
    let now = Time::now();
    if at.unix > now.unix + 300 {
        return Err(CliError::usage(format!(
            "--at {at} is in the future (now is {now}); a revocation is dated when it happened"
        )));
    }
    Ok(())
}

/// One revocation as JSON: what `crl revoke -f json` prints per serial.
fn revocation_json(serial: &str, outcome: &str, at: Time, reason: Option<u8>) -> Value {
    json!({
        "type": "revocation",
        "serial_number": serial,
        "outcome": outcome,
        "revocation_time": at.to_string(),
        "reason": reason_name(reason),
    })
}

/// `crl revoke --undelivered`: each revoked, then forgotten as undelivered.
fn revoke_undelivered(
    be: &Backend,
    ca: &std::path::Path,
    db: &DbArgs,
    at: Time,
    reason: Option<u8>,
    json: bool,
) -> CliResult<Exit> {
    let mut store = open_store(ca, db)?;
    let mut items = Vec::new();
    let survey = undelivered::revoke_all(be, store.as_mut(), at.unix, reason, &mut |f, outcome| {
        let was = match outcome {
            RevokeOutcome::Revoked => "revoked",
            RevokeOutcome::AlreadyRevoked(_) => "already_revoked",
            RevokeOutcome::Unknown => "not_found",
        };
        if json {
            items.push(revocation_json(&hex(&f.item.cert.serial), was, at, reason));
        } else {
            note!(
                "pkit: serial {}: {} (certificate {} of a batch into {})",
                hex(&f.item.cert.serial),
                was.replace('_', " "),
                f.item.n,
                f.item.destination
            );
        }
    })
    .map_err(db_err(ca))?;
    if json {
        print_json("revoked", items)?;
    }
    if survey.found.is_empty() {
        note!("pkit: no undelivered certificates to revoke");
    } else {
        note!(
            "pkit: revoked {} undelivered certificate{}{}; publish the CRL with `pkit crl gen \
             --ca {}`",
            survey.found.len(),
            if survey.found.len() == 1 { "" } else { "s" },
            reason_name(reason).map_or(String::new(), |r| format!(" ({r})")),
            ca.display()
        );
    }
    if survey.in_flight > 0 {
        note!(
            "pkit: {} more certificates are being delivered by a batch still running; left alone",
            survey.in_flight
        );
    }
    Ok(Exit::Ok)
}

fn run_gen(be: &Backend, a: GenArgs) -> CliResult<Exit> {
    let lifetime = parse_duration("--next-update", &a.next_update)?;
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    // Refuse before a CRL number is spent.
    check_free(&[a.output.out.as_deref()], a.output.force)?;
    let issuer = a.issuer.load(be)?;
    let mut store = open_store(&a.issuer.ca, &a.issuer.db)?;
    let options = CrlOptions {
        this_update: now,
        lifetime,
        drop_expired: a.drop_expired,
    };
    let made = generate_crl(&issuer, store.as_mut(), &options).map_err(|e| match e {
        CrlError::Store(e) => db_err(&a.issuer.ca)(e),
        CrlError::Ca(e) => CliError::from(e),
    })?;
    super::ca_dir::note_findings(&made.findings);
    let (record, entries) = (made.record, made.entries);
    let opts = io::OutputOpts {
        path: a.output.out.as_deref(),
        force: a.output.force,
        private: false,
        binary: a.outform == OutForm::Der,
    };
    let file = a.output.out.as_deref().filter(|p| p.as_os_str() != "-");
    record_and_write(store.as_mut(), &record, file, || {
        // In JSON without -o, the CRL travels in the description.
        if a.format.json() && a.output.out.is_none() {
            return Ok(());
        }
        io::write_output_with(&opts, |w| match a.outform {
            OutForm::Der => w.write_all(&record.der),
            OutForm::Pem => io::write_pem(w, "X509 CRL", &record.der),
        })
    })
    .map_err(|e| match e {
        PublishError::Store(e) => db_err(&a.issuer.ca)(e),
        PublishError::Write(e) => e,
    })?;
    if a.format.json() {
        let mut files = Files::default();
        if let Some(p) = a.output.out.as_deref().filter(|p| p.as_os_str() != "-") {
            files.add("crl", p);
        }
        let mut item = json!({
            "type": "crl",
            "crl_number": record.number,
            "issuer_dn": subject_dn(&issuer.cert_der),
            "this_update": Time { unix: record.this_update }.to_string(),
            "next_update": Time { unix: record.next_update }.to_string(),
            "entries": entries,
            "fingerprint_sha256": hex(&be.digest(Digest::Sha256, &record.der)),
            "files": files.into_value(),
        });
        if a.output.out.is_none() {
            item["pem"] = io::pem_encode("X509 CRL", &record.der).into();
        }
        print_json("crl", vec![item])?;
    } else {
        say_created(
            format_args!(
                "CRL number {} ({entries} entr{}, next update {})",
                record.number,
                if entries == 1 { "y" } else { "ies" },
                Time {
                    unix: record.next_update
                }
            ),
            a.output.out.as_deref(),
        );
    }
    // Its certificates name a shard each, not this CRL: say where those come from.
    let shards = super::ca_dir::load_settings(&a.issuer.ca)?.crl_shards;
    if shards > 1 {
        note!(
            "pkit: note: this is the whole CRL; the certificates of {} name one of its {shards} \
             shard CRLs each, which `pkit ca serve` publishes",
            a.issuer.ca.display()
        );
    }
    Ok(Exit::Ok)
}

fn run_verify(be: &Backend, a: VerifyArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let crl_item = read_item(&a.crl)?;
    let crl = Crl::from_der(&crl_item.der).map_err(|e| CliError::der(&crl_item.name, &e))?;
    let issuer_item = read_item(&a.issuer)?;
    let issuer = parse_cert(&issuer_item)?;
    let checks = crl_verify::verify(be, &crl, &issuer, now).map_err(|e| match e {
        VerifyError::Der(e) => CliError::der(&crl_item.name, &e),
        VerifyError::Signed(SignedError::UnsupportedAlgorithm(n)) => {
            CliError::unsupported(format!(
                "{}: signature algorithm {n} is not supported",
                crl_item.name
            ))
        }
        VerifyError::Signed(e) => CliError::parse(format!("{}: {e}", crl_item.name)),
        other => CliError::internal(format!("{}: {other}", crl_item.name)),
    })?;
    let valid = checks.iter().all(|c| c.ok);
    let entries = crl
        .revoked_count()
        .map_err(|e| CliError::der(&crl_item.name, &e))?;
    let text = match a.format {
        Format::Json => output::json_text(&output::envelope(
            "crl_verify",
            vec![json!({
                "source": crl_item.name,
                "valid": valid,
                "entries": entries,
                "checks": checks.iter().map(|c| json!({
                    "name": c.name, "ok": c.ok, "detail": c.detail,
                })).collect::<Vec<_>>(),
            })],
        )),
        Format::Text => {
            let mut s = format!(
                "{}: {entries} entr{} — {}\n",
                crl_item.name,
                if entries == 1 { "y" } else { "ies" },
                if valid { "valid" } else { "NOT valid" }
            );
            for c in &checks {
                let mark = if c.ok { "ok  " } else { "FAIL" };
                s.push_str(&format!("  {mark} {}: {}\n", c.name, c.detail));
            }
            s
        }
    };
    io::write_text(None, false, &text)?;
    Ok(if valid { Exit::Ok } else { Exit::Negative })
}

fn run_check(a: CheckArgs) -> CliResult<Exit> {
    let serials = a
        .serials
        .iter()
        .map(|s| parse_serial(s))
        .collect::<CliResult<Vec<_>>>()?;
    let item = read_item(&a.crl)?;
    let crl = Crl::from_der(&item.der).map_err(|e| CliError::der(&item.name, &e))?;
    let index = RevokedIndex::build(&crl).map_err(|e| CliError::der(&item.name, &e))?;
    let mut any = false;
    let mut text = String::new();
    let mut items = Vec::new();
    for s in &serials {
        let shown = hex(integer::unsigned_bytes(s));
        // The argument is a magnitude: the positive serial, whatever its first octet.
        let hit = index.lookup(&integer::from_unsigned(s));
        let reason = match &hit {
            Some(l) => l
                .reason()
                .map_err(|e| CliError::der(&item.name, &e))?
                .and_then(CrlReason::name),
            None => None,
        };
        // A delta CRL's removeFromCRL entry takes a certificate off hold: listed, and
        // not revoked.
        let revoked = hit.filter(|l| l.revokes()).map(|l| l.entry);
        any |= revoked.is_some();
        match (hit, revoked) {
            (_, Some(e)) => text.push_str(&format!(
                "{shown}: revoked at {}{}\n",
                e.revocation_date,
                reason.map_or(String::new(), |r| format!(" ({r})"))
            )),
            (Some(_), None) => text.push_str(&format!(
                "{shown}: not revoked ({})\n",
                reason.unwrap_or_default()
            )),
            (None, None) => text.push_str(&format!("{shown}: not listed\n")),
        }
        items.push(json!({
            "serial_number": shown,
            "revoked": revoked.is_some(),
            "revocation_date": revoked.map_or(Value::Null, |e| e.revocation_date.to_string().into()),
            "reason": reason.map_or(Value::Null, Value::from),
        }));
    }
    let text = match a.format {
        Format::Json => output::json_text(&output::envelope("crl_check", items)),
        Format::Text => text,
    };
    io::write_text(None, false, &text)?;
    Ok(if any { Exit::Negative } else { Exit::Ok })
}
