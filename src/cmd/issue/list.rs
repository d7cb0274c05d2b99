//! `pkit issue list` and `pkit issue export`: what a CA has issued (which certificates
//! are shown is `pkit::pki::ca::issued`'s; which files an export writes,
//! `pkit::pki::ca::undelivered`'s).

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
use pkit::pki::ca::issued::{self, Filter, State};
use pkit::pki::ca::store::CaStore;
use pkit::pki::ca::undelivered::{self, Export, ExportError, Found};
use pkit::pki::cert::Certificate;
use pkit::pki::san::sans_of;
use serde_json::{json, Value};
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
    let filter = Filter {
        state: a.status.map(|s| match s {
            StatusFilter::Valid => State::Valid,
            StatusFilter::Revoked => State::Revoked,
            StatusFilter::Expired => State::Expired,
        }),
        expiring_by: a
            .expiring
            .as_deref()
            .map(|d| parse_duration("--expiring", d).map(|s| now.unix + s))
            .transpose()?,
    };
    let listed = issued::list(store.as_ref(), &filter, now).map_err(db_err(&a.ca))?;
    let items: Vec<Value> = listed
        .iter()
        .map(|l| {
            let r = &l.record;
            let sans = Certificate::from_der(&r.der)
                .map(|c| sans_of(&c))
                .unwrap_or_default();
            json!({
                "serial_number": hex(&r.serial),
                "subject": r.subject,
                "subject_alt_names": sans,
                "not_before": Time { unix: r.not_before }.to_string(),
                "not_after": Time { unix: r.not_after }.to_string(),
                "profile": r.profile,
                "key_algorithm": r.key_algorithm,
                "status": l.status,
                "replaces": l.replaces.as_deref().map(hex),
                "replaced_by": l.replaced_by.as_deref().map(hex),
                // Signed past the lint gate (`--lint warn|off`): the mode and what it found.
                "lint": l.lint.as_ref().map(|(mode, found)| json!({
                    "mode": mode,
                    "findings": serde_json::from_str::<Value>(found).unwrap_or(Value::Null),
                })),
            })
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
        note!(
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
    if let Some(out) = a.out.as_deref() {
        crate::cmd::created::say_created(format_args!("certificate {shown}"), Some(out));
    }
    Ok(Exit::Ok)
}

/// `issue export --undelivered`: every undelivered certificate's file written again
/// (where, and whether that delivers it: `Survey::exports`; the writing and what is
/// recorded: `Survey::export`), a JSON line on stdout for each.
fn export_undelivered(be: &Backend, store: &mut dyn CaStore, a: &ExportArgs) -> CliResult<Exit> {
    let survey = undelivered::survey(be, store).map_err(db_err(&a.ca))?;
    note_in_flight(&survey);
    let mut out = std::io::stdout().lock();
    let done = survey
        .export(store, a.out_dir.as_deref(), a.force, &mut |export| {
            let w = match export {
                Export::Write(w) => w,
                Export::Foreign(f) => {
                    note!(
                        "pkit: serial {}: {} holds another run's files of that name; not \
                         touched (write it elsewhere with --out-dir)",
                        hex(&f.item.cert.serial),
                        f.item.destination
                    );
                    return Ok(());
                }
            };
            let f = w.found;
            let line = json!({
                "n": f.item.n,
                "serial_number": hex(&f.item.cert.serial),
                "subject": f.item.cert.subject,
                "cert": w.path,
                "key": w.delivers.then(|| f.key_path()),
            });
            std::io::Write::write_all(&mut out, output::json_line(&line).as_bytes())
        })
        .map_err(|e| match e {
            ExportError::Store(e) => db_err(&a.ca)(e),
            ExportError::Dir { path, error } => {
                CliError::io_at(&path.display().to_string(), &error)
            }
            ExportError::File { path, error } => io::file_err(&path, &error),
            ExportError::Report(e) => CliError::io_at("stdout", &e),
        })?;
    let (written, delivered) = (done.written, done.delivered);
    let keyless = written - delivered;
    note!(
        "pkit: wrote {written} certificate files; {} of them are delivered now (their keys \
         are in place){}",
        delivered,
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
