//! `pkit issue list` and `pkit issue export`: what a CA has issued.

use crate::cmd::ca_dir::{db_err, open_store, parse_serial};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::output;
use clap::{Args, ValueEnum};
use pkit::der::hex;
use pkit::der::Time;
use serde_json::{json, Value};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ListArgs {
    /// The CA directory.
    #[arg(long)]
    pub ca: PathBuf,
    /// text (a table) or json.
    #[arg(short, long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
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
    /// Serial number, hex.
    pub serial: String,
    /// Output file (default stdout).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run_list(a: ListArgs) -> CliResult<Exit> {
    if !a.ca.join("ca.db").exists() {
        return Err(CliError::io(format!(
            "{}: not a CA directory (no ca.db)",
            a.ca.display()
        )));
    }
    let store = open_store(&a.ca)?;
    let rows = store.list().map_err(db_err(&a.ca))?;
    let items: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "serial_number": hex(&r.serial),
                "subject": r.subject,
                "not_before": Time { unix: r.not_before }.to_string(),
                "not_after": Time { unix: r.not_after }.to_string(),
                "profile": r.profile,
                "key_algorithm": r.key_algorithm,
                "status": r.status,
            })
        })
        .collect();
    let text = match a.format {
        ListFormat::Json => output::json_text(&output::envelope("issued", items)),
        ListFormat::Jsonl => items.iter().map(output::json_line).collect(),
        ListFormat::Text => {
            let mut t = comfy_table::Table::new();
            t.set_header(vec![
                "serial",
                "subject",
                "not after",
                "profile",
                "key",
                "status",
            ]);
            for i in &items {
                t.add_row(
                    [
                        "serial_number",
                        "subject",
                        "not_after",
                        "profile",
                        "key_algorithm",
                        "status",
                    ]
                    .map(|k| i[k].as_str().unwrap_or("").to_string()),
                );
            }
            format!("{t}\n")
        }
    };
    io::write_text(None, false, &text)?;
    Ok(Exit::Ok)
}

pub fn run_export(a: ExportArgs) -> CliResult<Exit> {
    let serial = parse_serial(&a.serial)?;
    let store = open_store(&a.ca)?;
    let rec = store.get(&serial).map_err(db_err(&a.ca))?.ok_or_else(|| {
        CliError::negative(format!("serial {} is not in {}", a.serial, a.ca.display()))
    })?;
    io::write_text(
        a.out.as_deref(),
        a.force,
        &io::pem_encode("CERTIFICATE", &rec.der),
    )?;
    Ok(Exit::Ok)
}
