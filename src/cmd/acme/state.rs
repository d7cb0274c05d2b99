//! Where a CA's ACME state is: beside its records, whichever database holds them.

use crate::cmd::ca_db::{password, server_url, DbArgs};
use crate::cmd::error::{CliError, CliResult};
use pkit::acme::{AcmeStore, SqliteAcme};
use std::path::Path;

/// The ACME state beside the CA's records: in their PostgreSQL database when they are on
/// a server, else in `DIR/acme.db` (made when `create`, else it must exist).
pub fn open_state(dir: &Path, db: &DbArgs, create: bool) -> CliResult<Box<dyn AcmeStore>> {
    if let Some(url) = server_url(dir, "ca.db", db)? {
        let pw = password(db)?;
        let store = pkit::acme::PgAcme::open(
            &url,
            pw.as_deref(),
            pkit::pki::ca::store::pg_connect::connect,
        )
        .map_err(|e| CliError::io(format!("{}: {e}", pkit::store::url::without_password(&url))))?;
        return Ok(Box::new(store));
    }
    let path = dir.join("acme.db");
    if !create && !path.is_file() {
        return Err(CliError::io(format!(
            "{}: no ACME state (run `pkit acme serve --ca {}` first)",
            path.display(),
            dir.display()
        )));
    }
    let store =
        SqliteAcme::open(&path).map_err(|e| CliError::io(format!("{}: {e}", path.display())))?;
    Ok(Box::new(store))
}
