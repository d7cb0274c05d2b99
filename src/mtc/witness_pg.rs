//! A witness's state in PostgreSQL: the `witness_logs` table, one row per log origin
//! with the latest checkpoint cosigned. Each `add-checkpoint` locks its origin's row
//! (made first if new) from the read to the write, in one transaction, so witnesses on
//! several hosts sharing the database never roll one another back. Connections are
//! made again when lost, as the log store's are.

use super::hash::Hash;
use super::tlog_witness::{Decide, Recorded, Refusal, WitnessState};
use crate::error::{MtcError, Result};
use pkit_store::postgres::{off_runtime, open_versioned, server, Connector, Server};
use postgres::Client;

/// Forward migrations; index i takes the schema from version i to i + 1.
const MIGRATIONS: &[&str] = &["CREATE TABLE witness_logs (
        origin  TEXT PRIMARY KEY,
        size    BIGINT NOT NULL,
        root    BYTEA NOT NULL,
        updated BIGINT NOT NULL
    );"];

/// The name under which the witness's schema version is kept in `pkit_schema`.
const STORE: &str = "witness";

/// The state in a PostgreSQL database.
pub struct PgWitnessState {
    client: Client,
    server: Server,
    connector: Connector,
}

fn off<T: Send>(f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    off_runtime(f, || {
        MtcError::Store("database: a call ended abnormally on its thread".into())
    })
}

impl PgWitnessState {
    /// Connect to `url` (with `password`, through `connector`), check that the database
    /// is empty or pkit's, and migrate it.
    pub fn open(url: &str, password: Option<&[u8]>, connector: Connector) -> Result<Self> {
        let open_err = |e: pkit_store::open_error::OpenError| MtcError::Store(e.to_string());
        let server = server(url, password).map_err(open_err)?;
        off(move || {
            let mut client = connector(&server)
                .map_err(pkit_store::open_error::OpenError::from)
                .map_err(open_err)?;
            open_versioned(&mut client, STORE, MIGRATIONS).map_err(open_err)?;
            Ok(PgWitnessState {
                client,
                server,
                connector,
            })
        })
    }

    fn live(&mut self) -> std::result::Result<&mut Client, postgres::Error> {
        if self.client.is_closed() {
            self.client = (self.connector)(&self.server)?;
        }
        Ok(&mut self.client)
    }
}

fn row_of(size: i64, root: Vec<u8>) -> Option<Recorded> {
    Some(Recorded {
        size: u64::try_from(size).ok()?,
        root: Hash::try_from(root).ok()?,
    })
}

impl WitnessState for PgWitnessState {
    fn advance(
        &mut self,
        origin: &str,
        decide: &mut Decide<'_>,
    ) -> std::result::Result<Recorded, Refusal> {
        let store_err = |e: postgres::Error| Refusal::Store(format!("the witness's state: {e}"));
        off_runtime(
            || -> std::result::Result<Recorded, Refusal> {
                let client = self.live().map_err(store_err)?;
                let mut tx = client.transaction().map_err(store_err)?;
                // The row exists before it is locked, so that two first submissions of
                // one origin queue on it too.
                tx.execute(
                    "INSERT INTO witness_logs (origin, size, root, updated)
                     VALUES ($1, 0, ''::bytea, 0) ON CONFLICT (origin) DO NOTHING",
                    &[&origin],
                )
                .map_err(store_err)?;
                let row = tx
                    .query_one(
                        "SELECT size, root FROM witness_logs WHERE origin = $1 FOR UPDATE",
                        &[&origin],
                    )
                    .map_err(store_err)?;
                let size: i64 = row.try_get(0).map_err(store_err)?;
                let root: Vec<u8> = row.try_get(1).map_err(store_err)?;
                let now = if size == 0 { None } else { row_of(size, root) };
                // A refusal drops the transaction: nothing is recorded.
                let new = decide(now)?;
                let size = i64::try_from(new.size).map_err(|_| {
                    Refusal::Malformed(format!("tree size {} is too large", new.size))
                })?;
                let at = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs() as i64);
                tx.execute(
                    "UPDATE witness_logs SET size = $2, root = $3, updated = $4 WHERE origin = $1",
                    &[&origin, &size, &&new.root[..], &at],
                )
                .map_err(store_err)?;
                tx.commit().map_err(store_err)?;
                Ok(new)
            },
            || Refusal::Store("the witness's state: a call ended abnormally".into()),
        )
    }

    fn recorded(&mut self, origin: &str) -> Result<Option<Recorded>> {
        off(|| {
            let client = self.live().map_err(|e| MtcError::Store(e.to_string()))?;
            let row = client
                .query_opt(
                    "SELECT size, root FROM witness_logs WHERE origin = $1",
                    &[&origin],
                )
                .map_err(|e| MtcError::Store(e.to_string()))?;
            Ok(match row {
                Some(r) => {
                    let size: i64 = r.try_get(0).map_err(|e| MtcError::Store(e.to_string()))?;
                    let root: Vec<u8> = r.try_get(1).map_err(|e| MtcError::Store(e.to_string()))?;
                    if size == 0 {
                        None
                    } else {
                        row_of(size, root)
                    }
                }
                None => None,
            })
        })
    }
}
