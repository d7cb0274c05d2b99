//! `pkit issue list` and `pkit issue export`: what a CA has issued.

use crate::cmd::ca_db::db_err;
use crate::cmd::ca_db::open_store;
use crate::cmd::ca_dir::{parse_duration, parse_serial, parse_time};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::output;
use clap::{Args, ValueEnum};
use pkit::der::hex;
use pkit::der::Time;
use pkit::pki::backend::Backend;
use pkit::pki::ca::store::CaStore;
use pkit::pki::ca::undelivered::{self, FileState, Found};
use pkit::pki::cert::Certificate;
use pkit::pki::san::sans_of;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ListArgs {
    /// The CA directory.
    #[arg(long)]
    pub ca: PathBuf,
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// text (a table) or json.
    #[arg(short, long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
    /// Only the certificates a batch committed but never delivered (killed or failed
    /// before writing their files), with what their output directory holds for each:
    /// `pkit issue export --undelivered` writes their certificate files, `pkit crl revoke
    /// --undelivered` revokes them.
    #[arg(long, conflicts_with_all = ["expiring", "status"])]
    pub undelivered: bool,
    /// Only certificates that expire within this window from now (e.g. 30d, 4w, 12h):
    /// the renewal list.
    #[arg(long, value_name = "DURATION")]
    pub expiring: Option<String>,
    /// Only certificates in this state (expired: past not-after and not revoked).
    #[arg(long, value_enum)]
    pub status: Option<StatusFilter>,
    /// Judge expiry at this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatusFilter {
    Valid,
    Revoked,
    Expired,
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
    #[command(flatten)]
    pub db: crate::cmd::ca_db::DbArgs,
    /// Serial number, hex.
    #[arg(
        required_unless_present = "undelivered",
        conflicts_with = "undelivered"
    )]
    pub serial: Option<String>,
    /// Output file (default stdout).
    #[arg(short, long, conflicts_with = "undelivered")]
    pub out: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Write the certificate file `<n>.pem` of every certificate a batch committed but
    /// never delivered (see `pkit issue list --undelivered`), into the batch's output
    /// directory or --out-dir, and print a report line for each. A certificate whose key
    /// file is in place is delivered by this; one whose key is gone stays undelivered
    /// until revoked (`pkit crl revoke --undelivered`).
    #[arg(long)]
    pub undelivered: bool,
    /// With --undelivered: write the files here instead of the batch's output directory.
    #[arg(long, value_name = "DIR", requires = "undelivered")]
    pub out_dir: Option<PathBuf>,
}

pub fn run_list(be: &Backend, a: ListArgs) -> CliResult<Exit> {
    let store = open_store(&a.ca, &a.db)?;
    if a.undelivered {
        return list_undelivered(be, store.as_ref(), &a);
    }
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let horizon = a
        .expiring
        .as_deref()
        .map(|d| parse_duration("--expiring", d).map(|s| now.unix + s))
        .transpose()?;
    let rows = store.list().map_err(db_err(&a.ca))?;
    let renewals = store.renewals().map_err(db_err(&a.ca))?;
    let overrides = store.lint_overrides().map_err(db_err(&a.ca))?;
    let past_gate: HashMap<&[u8], (&str, &str)> = overrides
        .iter()
        .map(|(serial, mode, found)| (serial.as_slice(), (mode.as_str(), found.as_str())))
        .collect();
    let replaced_by: HashMap<&[u8], &[u8]> = renewals
        .iter()
        .map(|(new, old)| (old.as_slice(), new.as_slice()))
        .collect();
    let replaces: HashMap<&[u8], &[u8]> = renewals
        .iter()
        .map(|(new, old)| (new.as_slice(), old.as_slice()))
        .collect();
    let items: Vec<Value> = rows
        .iter()
        .filter_map(|r| {
            let status = match r.status.as_str() {
                "valid" if r.not_after < now.unix => "expired",
                s => s,
            };
            let wanted = a.status.is_none_or(|f| {
                status
                    == match f {
                        StatusFilter::Valid => "valid",
                        StatusFilter::Revoked => "revoked",
                        StatusFilter::Expired => "expired",
                    }
            });
            // The renewal list: still valid, ending before the horizon.
            let expiring = horizon.is_none_or(|h| status == "valid" && r.not_after <= h);
            if !(wanted && expiring) {
                return None;
            }
            let sans = Certificate::from_der(&r.der)
                .map(|c| sans_of(&c))
                .unwrap_or_default();
            let link = |m: &HashMap<&[u8], &[u8]>| m.get(r.serial.as_slice()).map(|s| hex(s));
            Some(json!({
                "serial_number": hex(&r.serial),
                "subject": r.subject,
                "subject_alt_names": sans,
                "not_before": Time { unix: r.not_before }.to_string(),
                "not_after": Time { unix: r.not_after }.to_string(),
                "profile": r.profile,
                "key_algorithm": r.key_algorithm,
                "status": status,
                "replaces": link(&replaces),
                "replaced_by": link(&replaced_by),
                // Signed past the lint gate (`--lint warn|off`): the mode and what it found.
                "lint": past_gate.get(r.serial.as_slice()).map(|(mode, found)| json!({
                    "mode": mode,
                    "findings": serde_json::from_str::<Value>(found).unwrap_or(Value::Null),
                })),
            }))
        })
        .collect();
    print_list(
        a.format,
        "issued",
        &items,
        &[
            ("serial", "serial_number"),
            ("subject", "subject"),
            ("SANs", "subject_alt_names"),
            ("not after", "not_after"),
            ("profile", "profile"),
            ("key", "key_algorithm"),
            ("status", "status"),
        ],
    )
}

/// `items` as a table (`columns`: header and JSON field), a JSON envelope of `kind`, or
/// JSON lines.
fn print_list(
    format: ListFormat,
    kind: &str,
    items: &[Value],
    columns: &[(&str, &str)],
) -> CliResult<Exit> {
    let text = match format {
        ListFormat::Json => output::json_text(&output::envelope(kind, items.to_vec())),
        ListFormat::Jsonl => items.iter().map(output::json_line).collect(),
        ListFormat::Text => {
            let mut t = comfy_table::Table::new();
            t.set_header(columns.iter().map(|c| c.0));
            for i in items {
                t.add_row(columns.iter().map(|c| {
                    match &i[c.1] {
                        Value::String(s) => s.clone(),
                        Value::Null => String::new(),
                        Value::Array(xs) => xs
                            .iter()
                            .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                            .collect::<Vec<_>>()
                            .join(", "),
                        v => v.to_string(),
                    }
                }));
            }
            format!("{t}\n")
        }
    };
    io::write_text(None, false, &text)?;
    Ok(Exit::Ok)
}

fn undelivered_json(f: &Found) -> Value {
    json!({
        "serial_number": hex(&f.item.cert.serial),
        "n": f.item.n,
        "subject": f.item.cert.subject,
        "not_after": Time { unix: f.item.cert.not_after }.to_string(),
        "status": f.item.cert.status,
        "key": f.key.name(),
        "key_file": f.key_path(),
        "certificate": f.cert.name(),
        "cert_file": f.cert_path(),
    })
}

fn list_undelivered(be: &Backend, store: &dyn CaStore, a: &ListArgs) -> CliResult<Exit> {
    let survey = undelivered::survey(be, store).map_err(db_err(&a.ca))?;
    note_in_flight(&survey);
    let items: Vec<Value> = survey.found.iter().map(undelivered_json).collect();
    print_list(
        a.format,
        "undelivered",
        &items,
        &[
            ("serial", "serial_number"),
            ("n", "n"),
            ("subject", "subject"),
            ("status", "status"),
            ("key", "key"),
            ("certificate", "certificate"),
            ("certificate file", "cert_file"),
        ],
    )
}

fn note_in_flight(survey: &undelivered::Survey) {
    if survey.in_flight > 0 {
        eprintln!(
            "pkit: {} more certificates are being delivered by a batch still running",
            survey.in_flight
        );
    }
}

pub fn run_export(be: &Backend, a: ExportArgs) -> CliResult<Exit> {
    let mut store = open_store(&a.ca, &a.db)?;
    let Some(shown) = &a.serial else {
        return export_undelivered(be, store.as_mut(), &a);
    };
    let serial = parse_serial(shown)?;
    let rec = store.get(&serial).map_err(db_err(&a.ca))?.ok_or_else(|| {
        CliError::negative(format!("serial {shown} is not in {}", a.ca.display()))
    })?;
    io::write_text(
        a.out.as_deref(),
        a.force,
        &io::pem_encode("CERTIFICATE", &rec.der),
    )?;
    Ok(Exit::Ok)
}

/// `issue export --undelivered`: every undelivered certificate's file written again.
fn export_undelivered(be: &Backend, store: &mut dyn CaStore, a: &ExportArgs) -> CliResult<Exit> {
    let survey = undelivered::survey(be, store).map_err(db_err(&a.ca))?;
    note_in_flight(&survey);
    let mut delivered = Vec::new();
    let mut out = std::io::stdout().lock();
    let mut written = 0;
    for f in &survey.found {
        let dir = match &a.out_dir {
            Some(d) => d.clone(),
            // Files of the same names from another run are theirs: neither replaced nor
            // given a certificate that does not go with them.
            None if f.key == FileState::Replaced || f.cert == FileState::Replaced => {
                eprintln!(
                    "pkit: serial {}: {} holds another run's files of that name; not \
                     touched (write it elsewhere with --out-dir)",
                    hex(&f.item.cert.serial),
                    f.item.destination
                );
                continue;
            }
            None => PathBuf::from(&f.item.destination),
        };
        std::fs::create_dir_all(&dir)
            .map_err(|e| CliError::io_at(&dir.display().to_string(), &e))?;
        let path = dir.join(format!("{}.pem", f.item.n));
        io::write_file_atomic(
            &path,
            io::pem_encode("CERTIFICATE", &f.item.cert.der).as_bytes(),
            a.out_dir.is_none() || a.force,
            false,
        )?;
        written += 1;
        // Its key in place beside it: this certificate is delivered now.
        let in_place = a.out_dir.is_none() && f.key == FileState::Present;
        if in_place {
            delivered.push(f.item.id);
        }
        let line = json!({
            "n": f.item.n,
            "serial_number": hex(&f.item.cert.serial),
            "subject": f.item.cert.subject,
            "cert": path,
            "key": in_place.then(|| f.key_path()),
        });
        std::io::Write::write_all(&mut out, output::json_line(&line).as_bytes())
            .map_err(|e| CliError::io_at("stdout", &e))?;
    }
    survey.save(store, &delivered).map_err(db_err(&a.ca))?;
    let keyless = written - delivered.len();
    eprintln!(
        "pkit: wrote {written} certificate files; {} of them are delivered now (their keys \
         are in place){}",
        delivered.len(),
        if keyless > 0 {
            format!(
                "; {keyless} have no key: revoke them with `pkit crl revoke --ca {} \
                 --undelivered`",
                a.ca.display()
            )
        } else {
            String::new()
        }
    );
    Ok(Exit::Ok)
}
