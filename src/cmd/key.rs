//! `pkit key`: generate private keys, extract public keys. (Being implemented.)

use super::error::{CliError, CliResult, Exit};
use clap::Args;

#[derive(Args, Debug)]
pub struct KeyArgs {}

pub fn run(_a: KeyArgs) -> CliResult<Exit> {
    Err(CliError::unsupported("pkit key: not built yet"))
}
