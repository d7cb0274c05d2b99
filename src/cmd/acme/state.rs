//! Where a CA's ACME state is: beside its records, whichever database holds them
//! (`crate::cmd::store_at`, as an MTC CA's log is found).

use crate::cmd::ca_db::DbArgs;
use crate::cmd::error::{CliError, CliResult};
use crate::cmd::store_at::{self, StoreAt};
use pkit::acme::{AcmeStore, OpenStore, SqliteAcme, StoreError};
use std::path::Path;
use std::sync::Arc;

/// The ACME state beside the CA's records: in their PostgreSQL database when they are on
/// a server, else in `DIR/acme.db`. For `acme serve` (`serving`) it is made when missing
/// and its WAL is checkpointed by a thread of the process, not in a request's commit;
/// for the other commands it must exist.
pub fn open_state(dir: &Path, db: &DbArgs, serving: bool) -> CliResult<Box<dyn AcmeStore>> {
    let missing = |path: &Path| {
        CliError::io(format!(
            "{}: no ACME state (run `pkit acme serve --ca {}` first)",
            path.display(),
            dir.display()
        ))
    };
    let missing: Option<&dyn Fn(&Path) -> CliError> = (!serving).then_some(&missing);
    match store_at::locate(dir, "ca.db", dir.join("acme.db"), db, missing)? {
        StoreAt::Server {
            url,
            name,
            password,
        } => {
            let store =
                pkit::acme::PgAcme::open(&url, password.as_deref(), pkit::tls::pg_connect::connect)
                    .map_err(|e| CliError::io(format!("{name}: {e}")))?;
            Ok(Box::new(store))
        }
        StoreAt::File { path, name } => {
            let store = if serving {
                SqliteAcme::open_serving(&path)
            } else {
                SqliteAcme::open(&path)
            }
            .map_err(|e| CliError::io(format!("{name}: {e}")))?;
            Ok(Box::new(store))
        }
    }
}

/// How each thread of a server (every worker and validator) gets the state, made before
/// the server listens: in `acme.db`, the one connection of the process, shared
/// ([`SqliteAcme`] says why); on PostgreSQL, a connection of its own each (the server
/// runs their transactions side by side).
pub fn serving_state(dir: &Path, db: &DbArgs) -> CliResult<OpenStore> {
    match store_at::locate(dir, "ca.db", dir.join("acme.db"), db, None)? {
        StoreAt::File { path, name } => {
            let shared = SqliteAcme::open_serving(&path)
                .map_err(|e| CliError::io(format!("{name}: {e}")))?;
            Ok(Arc::new(move || {
                Ok(Box::new(shared.clone()) as Box<dyn AcmeStore>)
            }))
        }
        StoreAt::Server { .. } => {
            open_state(dir, db, true)?;
            let (dir, db) = (dir.to_path_buf(), db.clone());
            Ok(Arc::new(move || {
                open_state(&dir, &db, true).map_err(|e| StoreError(e.to_string()))
            }))
        }
    }
}
