//! `pkit parse`. (Being implemented.)

use super::error::{CliError, CliResult, Exit};
use clap::Args;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Jsonl,
    Pem,
    Der,
    Asn1,
}

impl Format {
    pub fn is_json(self) -> bool {
        matches!(self, Format::Json | Format::Jsonl)
    }
}

#[derive(Args, Debug)]
pub struct ParseArgs {
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(_a: ParseArgs) -> CliResult<Exit> {
    Err(CliError::unsupported("not built yet"))
}
