//! `pkit acme accounts` and `pkit acme orders`: what a CA's ACME server holds, from
//! DIR/acme.db, as a table or pkit/v1 JSON.

use crate::cmd::ca_db::DbArgs;
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use crate::cmd::output;
use clap::{Args, ValueEnum};
use pkit::der::Time;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct AccountsArgs {
    /// The CA directory (its DIR/acme.db, or its records' PostgreSQL database).
    #[arg(long)]
    pub ca: PathBuf,
    #[command(flatten)]
    pub db: DbArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct OrdersArgs {
    /// The CA directory (its DIR/acme.db, or its records' PostgreSQL database).
    #[arg(long)]
    pub ca: PathBuf,
    #[command(flatten)]
    pub db: DbArgs,
    /// Only this account's orders.
    #[arg(long, value_name = "ID")]
    pub account: Option<i64>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

impl AccountsArgs {
    pub fn wants_json(&self) -> bool {
        self.format == Format::Json
    }
}

impl OrdersArgs {
    pub fn wants_json(&self) -> bool {
        self.format == Format::Json
    }
}

fn db(ca: &Path) -> impl Fn(pkit::acme::StoreError) -> CliError + '_ {
    move |e| CliError::io(format!("{}: the ACME state: {e}", ca.display()))
}

fn print(
    format: Format,
    kind: &str,
    items: Vec<Value>,
    header: &[&str],
    row: impl Fn(&Value) -> Vec<String>,
) -> CliResult<Exit> {
    let text = match format {
        Format::Json => output::json_text(&output::envelope(kind, items)),
        Format::Text => {
            let mut t = comfy_table::Table::new();
            t.set_header(header);
            for i in &items {
                t.add_row(row(i));
            }
            format!("{t}\n")
        }
    };
    io::write_text(None, false, &text)?;
    Ok(Exit::Ok)
}

pub fn accounts(a: AccountsArgs) -> CliResult<Exit> {
    let store = super::state::open_state(&a.ca, &a.db, false)?;
    let items = store
        .accounts()
        .map_err(db(&a.ca))?
        .iter()
        .map(|x| {
            json!({
                "type": "acme_account",
                "id": x.id,
                "status": x.status,
                "contact": serde_json::from_str::<Value>(&x.contact).unwrap_or(json!([])),
                "key_thumbprint": x.thumbprint,
                "created": Time { unix: x.created }.to_string(),
            })
        })
        .collect();
    print(
        a.format,
        "acme_accounts",
        items,
        &["id", "status", "contact", "key thumbprint", "created"],
        |v| {
            vec![
                v["id"].to_string(),
                v["status"].as_str().unwrap_or("").into(),
                v["contact"]
                    .as_array()
                    .map(|l| {
                        l.iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .unwrap_or_default(),
                v["key_thumbprint"].as_str().unwrap_or("").into(),
                v["created"].as_str().unwrap_or("").into(),
            ]
        },
    )
}

pub fn orders(a: OrdersArgs) -> CliResult<Exit> {
    let store = super::state::open_state(&a.ca, &a.db, false)?;
    let items = store
        .orders(a.account)
        .map_err(db(&a.ca))?
        .iter()
        .map(|o| {
            json!({
                "type": "acme_order",
                "id": o.id,
                "account": o.account_id,
                "status": o.status,
                "identifiers": serde_json::from_str::<Value>(&o.identifiers).unwrap_or(json!([])),
                "profile": o.profile,
                "replaces": o.replaces,
                "serial_number": o.cert_serial,
                // The MTC log entry of an order finalized on an MTC CA (`acme serve --mtc`).
                "mtc_index": o.mtc_index,
                "error": o.error.as_deref().and_then(|e| serde_json::from_str::<Value>(e).ok()),
                "created": Time { unix: o.created }.to_string(),
                "expires": Time { unix: o.expires }.to_string(),
            })
        })
        .collect();
    print(
        a.format,
        "acme_orders",
        items,
        &[
            "id",
            "account",
            "status",
            "identifiers",
            "serial",
            "created",
        ],
        |v| {
            vec![
                v["id"].to_string(),
                v["account"].to_string(),
                v["status"].as_str().unwrap_or("").into(),
                v["identifiers"]
                    .as_array()
                    .map(|l| {
                        l.iter()
                            .filter_map(|i| i["value"].as_str())
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .unwrap_or_default(),
                v["serial_number"].as_str().unwrap_or("").into(),
                v["created"].as_str().unwrap_or("").into(),
            ]
        },
    )
}
