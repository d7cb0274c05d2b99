//! The ACME state in the CA's PostgreSQL database (tables `acme_*`, schema versioned as
//! the store `acme` in `pkit_schema`): `acme serve` processes on several hosts serving
//! one CA share it. Every change that must happen once is one statement or one
//! transaction the server serializes: a nonce is deleted by exactly one taker, an order
//! claimed by exactly one finalizer.

use super::api::*;
use pkit_store::open_error::OpenError;
use pkit_store::pg_statements::{Prepared, Session, Statements};
use pkit_store::postgres::{off_runtime, open_versioned, server, Connector};
use postgres::Client;
use rows::{account_row, authz_row, challenge_row, order_row, pg};
use schema::MIGRATIONS;
use std::cell::RefCell;

mod rows;
mod schema;

const STORE: &str = "acme";

/// One connection to the CA's database, and the statements it prepared.
pub struct PgAcme {
    /// `None` once dropped.
    client: RefCell<Option<(Client, Statements)>>,
}

impl PgAcme {
    /// Connect to `url` (the CA's database) and bring the ACME tables up to date.
    pub fn open(
        url: &str,
        password: Option<&[u8]>,
        connector: Connector,
    ) -> std::result::Result<PgAcme, OpenError> {
        let server = server(url, password)?;
        let client = off_runtime(
            move || {
                let mut client = connector(&server).map_err(OpenError::from)?;
                open_versioned(&mut client, STORE, MIGRATIONS)?;
                Ok::<_, OpenError>(client)
            },
            || OpenError::Location("the connecting thread died".into()),
        )?;
        Ok(PgAcme {
            client: RefCell::new(Some((client, Statements::default()))),
        })
    }

    /// Run `f` on the connection (its statements prepared once each), off the worker's
    /// runtime (the sync client drives its own).
    fn run<T: Send>(
        &self,
        f: impl FnOnce(&mut Session<'_>) -> std::result::Result<T, postgres::Error> + Send,
    ) -> Result<T> {
        let mut guard = self
            .client
            .try_borrow_mut()
            .map_err(|_| StoreError("the database connection is in use".into()))?;
        let (client, statements) = guard
            .as_mut()
            .ok_or_else(|| StoreError("the database connection is closed".into()))?;
        off_runtime(
            move || f(&mut Session::new(client, statements)).map_err(pg),
            || StoreError("the database thread died".into()),
        )
    }
}

impl Drop for PgAcme {
    /// Closing the client blocks (and panics on a worker's runtime): off it, as every call.
    fn drop(&mut self) {
        if let Some((client, _)) = self.client.get_mut().take() {
            let _ = off_runtime(
                move || {
                    drop(client);
                    Ok::<(), ()>(())
                },
                || (),
            );
        }
    }
}

impl AcmeStore for PgAcme {
    fn nonce_key(&self, fresh: &[u8; 32]) -> Result<Vec<u8>> {
        self.run(|c| {
            c.execute(
                "INSERT INTO acme_secrets (name, value) VALUES ('nonce', $1) ON CONFLICT DO NOTHING",
                &[&&fresh[..]],
            )?;
            Ok(c.query_one("SELECT value FROM acme_secrets WHERE name = 'nonce'", &[])?
                .get(0))
        })
    }

    // Committed like every write: a spent nonce lost to a crash could replay a signed
    // request (a revocation, a key change) within its hour. The insert is atomic alone,
    // and the pruning needs no transaction with it: one round trip for most requests.
    fn spend_nonce(&self, nonce: &str, made: i64, now: i64, prune: bool) -> Result<bool> {
        self.run(|c| {
            let n = c.execute(
                "INSERT INTO acme_spent_nonces (nonce, made) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&nonce, &made],
            )?;
            if prune {
                c.execute(
                    "DELETE FROM acme_spent_nonces WHERE made < $1",
                    &[&(now - crate::nonce::LIFETIME)],
                )?;
            }
            Ok(n == 1)
        })
    }

    fn account_by_thumbprint(&self, t: &str) -> Result<Option<Account>> {
        self.run(|c| {
            Ok(c.query_opt(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM acme_accounts WHERE thumbprint = $1"),
                &[&t],
            )?
            .as_ref()
            .map(account_row))
        })
    }

    fn account(&self, id: i64) -> Result<Option<Account>> {
        self.run(|c| {
            Ok(c.query_opt(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM acme_accounts WHERE id = $1"),
                &[&id],
            )?
            .as_ref()
            .map(account_row))
        })
    }

    fn accounts(&self) -> Result<Vec<Account>> {
        self.run(|c| {
            Ok(c.query(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM acme_accounts ORDER BY id"),
                &[],
            )?
            .iter()
            .map(account_row)
            .collect())
        })
    }

    fn create_account(
        &self,
        thumbprint: &str,
        jwk: &str,
        spki: &[u8],
        contact: &str,
        eab_kid: Option<&str>,
        now: i64,
    ) -> Result<i64> {
        self.run(|c| {
            Ok(c.query_one(
                "INSERT INTO acme_accounts (thumbprint, jwk, spki, status, contact, eab_kid, created)
                 VALUES ($1, $2, $3, 'valid', $4, $5, $6) RETURNING id",
                &[&thumbprint, &jwk, &spki, &contact, &eab_kid, &now],
            )?
            .get(0))
        })
    }

    fn update_account(&self, id: i64, contact: &str, status: &str) -> Result<()> {
        self.run(|c| {
            c.execute(
                "UPDATE acme_accounts SET contact = $2, status = $3 WHERE id = $1",
                &[&id, &contact, &status],
            )?;
            Ok(())
        })
    }

    fn rekey_account(&self, id: i64, thumbprint: &str, jwk: &str, spki: &[u8]) -> Result<bool> {
        self.run(|c| {
            // ON CONFLICT: another account holds the key; nothing changes.
            let n = c.execute(
                "UPDATE acme_accounts SET thumbprint = $2, jwk = $3, spki = $4 WHERE id = $1
                 AND NOT EXISTS (SELECT 1 FROM acme_accounts WHERE thumbprint = $2 AND id <> $1)",
                &[&id, &thumbprint, &jwk, &spki],
            )?;
            Ok(n == 1)
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn create_order(
        &mut self,
        account_id: i64,
        identifiers: &str,
        profile: Option<&str>,
        replaces: Option<&Replacing>,
        window: (Option<i64>, Option<i64>),
        expires: i64,
        authzs: &[NewAuthz],
        now: i64,
    ) -> Result<Created> {
        self.run(|c| {
            let mut tx = c.transaction()?;
            if let Some(r) = replaces {
                // The replaced certificate's row, locked until commit, serializes the
                // orders that replace it: the second looks once the first is committed
                // (READ COMMITTED reads anew at each statement) and sees it.
                tx.execute(
                    "SELECT 1 FROM acme_certs WHERE serial = $1 FOR UPDATE",
                    &[&r.serial],
                )?;
                if let Some(other) = tx.query_opt(
                    "SELECT id FROM acme_orders WHERE replaces = $1 AND status != 'invalid'
                     LIMIT 1",
                    &[&r.cert_id],
                )? {
                    return Ok(Created::AlreadyReplaced(other.get(0)));
                }
            }
            let replaces = replaces.map(|r| r.cert_id.as_str());
            let order: i64 = tx
                .query_one(
                    "INSERT INTO acme_orders (account_id, status, identifiers, profile, replaces,
                                              not_before, not_after, expires, created)
                     VALUES ($1, 'pending', $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                    &[
                        &account_id,
                        &identifiers,
                        &profile,
                        &replaces,
                        &window.0,
                        &window.1,
                        &expires,
                        &now,
                    ],
                )?
                .get(0);
            for a in authzs {
                let authz = match a.reuse {
                    Some(id) => id,
                    None => {
                        let id: i64 = tx
                            .query_one(
                                "INSERT INTO acme_authzs (account_id, id_type, id_value, wildcard,
                                                          status, expires)
                                 VALUES ($1, $2, $3, $4, 'pending', $5) RETURNING id",
                                &[&account_id, &a.id_type, &a.id_value, &a.wildcard, &expires],
                            )?
                            .get(0);
                        for (kind, token) in &a.challenges {
                            tx.execute(
                                "INSERT INTO acme_challenges (authz_id, type, token, status)
                                 VALUES ($1, $2, $3, 'pending')",
                                &[&id, &kind.as_str(), token],
                            )?;
                        }
                        id
                    }
                };
                tx.execute(
                    "INSERT INTO acme_order_authzs (order_id, authz_id) VALUES ($1, $2)
                     ON CONFLICT DO NOTHING",
                    &[&order, &authz],
                )?;
            }
            tx.commit()?;
            Ok(Created::Order(order))
        })
    }

    fn reusable_authz(
        &self,
        account_id: i64,
        id_type: &str,
        id_value: &str,
        wildcard: bool,
        now: i64,
    ) -> Result<Option<i64>> {
        self.run(|c| {
            Ok(c.query_opt(
                "SELECT id FROM acme_authzs WHERE account_id = $1 AND id_type = $2
                 AND id_value = $3 AND wildcard = $4 AND status = 'valid' AND expires > $5
                 ORDER BY expires DESC LIMIT 1",
                &[&account_id, &id_type, &id_value, &wildcard, &now],
            )?
            .map(|r| r.get(0)))
        })
    }

    fn orders_since(&self, account_id: i64, since: i64) -> Result<i64> {
        self.run(|c| {
            Ok(c.query_one(
                "SELECT count(*) FROM acme_orders WHERE account_id = $1 AND created >= $2",
                &[&account_id, &since],
            )?
            .get(0))
        })
    }

    fn order(&self, id: i64) -> Result<Option<Order>> {
        self.run(|c| {
            Ok(c.query_opt(
                &format!("SELECT {ORDER_COLUMNS} FROM acme_orders WHERE id = $1"),
                &[&id],
            )?
            .as_ref()
            .map(order_row))
        })
    }

    fn orders_replacing(&self, cert_id: &str) -> Result<Vec<Order>> {
        self.run(|c| {
            Ok(c.query(
                &format!("SELECT {ORDER_COLUMNS} FROM acme_orders WHERE replaces = $1 ORDER BY id"),
                &[&cert_id],
            )?
            .iter()
            .map(order_row)
            .collect())
        })
    }

    fn orders(&self, account_id: Option<i64>) -> Result<Vec<Order>> {
        self.run(|c| {
            Ok(c.query(
                &format!(
                    "SELECT {ORDER_COLUMNS} FROM acme_orders
                     WHERE $1::BIGINT IS NULL OR account_id = $1 ORDER BY id"
                ),
                &[&account_id],
            )?
            .iter()
            .map(order_row)
            .collect())
        })
    }

    fn order_authzs(&self, order: i64) -> Result<Vec<Authz>> {
        self.run(|c| {
            Ok(c.query(
                &format!(
                    "SELECT {AUTHZ_COLUMNS_OF_A} FROM acme_authzs a
                     JOIN acme_order_authzs o ON o.authz_id = a.id
                     WHERE o.order_id = $1 ORDER BY a.id"
                ),
                &[&order],
            )?
            .iter()
            .map(authz_row)
            .collect())
        })
    }

    fn authz(&self, id: i64) -> Result<Option<Authz>> {
        self.run(|c| {
            Ok(c.query_opt(
                &format!("SELECT {AUTHZ_COLUMNS} FROM acme_authzs WHERE id = $1"),
                &[&id],
            )?
            .as_ref()
            .map(authz_row))
        })
    }

    fn set_authz_status(&self, id: i64, status: &str) -> Result<()> {
        self.run(|c| {
            c.execute(
                "UPDATE acme_authzs SET status = $2 WHERE id = $1",
                &[&id, &status],
            )?;
            Ok(())
        })
    }

    fn challenges(&self, authz: i64) -> Result<Vec<Challenge>> {
        self.run(|c| {
            c.query(
                &format!(
                    "SELECT {CHALLENGE_COLUMNS} FROM acme_challenges WHERE authz_id = $1 ORDER BY id"
                ),
                &[&authz],
            )?
            .iter()
            .map(challenge_row)
            .collect()
        })
    }

    fn challenge(&self, id: i64) -> Result<Option<Challenge>> {
        self.run(|c| {
            c.query_opt(
                &format!("SELECT {CHALLENGE_COLUMNS} FROM acme_challenges WHERE id = $1"),
                &[&id],
            )?
            .as_ref()
            .map(challenge_row)
            .transpose()
        })
    }

    fn start_challenge(&self, id: i64) -> Result<bool> {
        self.run(|c| {
            Ok(c.execute(
                "UPDATE acme_challenges SET status = 'processing' WHERE id = $1 AND status = 'pending'",
                &[&id],
            )? == 1)
        })
    }

    fn processing_challenges(&self) -> Result<Vec<i64>> {
        self.run(|c| {
            Ok(c.query(
                "SELECT id FROM acme_challenges WHERE status = 'processing' ORDER BY id",
                &[],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect())
        })
    }

    fn finish_challenge(&mut self, id: i64, error: Option<&str>, now: i64) -> Result<()> {
        self.run(|c| {
            let mut tx = c.transaction()?;
            let status = if error.is_none() { "valid" } else { "invalid" };
            let validated = error.is_none().then_some(now);
            // Only from processing: a second validation does not overwrite the first.
            let Some(row) = tx.query_opt(
                "UPDATE acme_challenges SET status = $2, validated = $3, error = $4
                 WHERE id = $1 AND status = 'processing' RETURNING authz_id",
                &[&id, &status, &validated, &error],
            )?
            else {
                return Ok(());
            };
            let authz: i64 = row.get(0);
            tx.execute(
                "UPDATE acme_authzs SET status = $2 WHERE id = $1 AND status = 'pending'",
                &[&authz, &status],
            )?;
            tx.commit()
        })
    }

    fn claim_order(&self, id: i64, now: i64) -> Result<bool> {
        self.run(|c| {
            Ok(c.execute(
                "UPDATE acme_orders SET status = 'processing', claimed = $2
                 WHERE id = $1 AND status = 'ready'",
                &[&id, &now],
            )? == 1)
        })
    }

    fn advance_order(&self, id: i64, from: &str, to: &str) -> Result<bool> {
        self.run(|c| {
            Ok(c.execute(
                "UPDATE acme_orders SET status = $3 WHERE id = $1 AND status = $2",
                &[&id, &from, &to],
            )? == 1)
        })
    }

    fn set_order_status(&self, id: i64, status: &str, error: Option<&str>) -> Result<()> {
        self.run(|c| {
            c.execute(
                "UPDATE acme_orders SET status = $2, error = $3 WHERE id = $1",
                &[&id, &status, &error],
            )?;
            Ok(())
        })
    }

    fn set_order_mtc(&self, id: i64, log: &str, index: i64) -> Result<()> {
        self.run(|c| {
            c.execute(
                "UPDATE acme_orders SET mtc_log = $2, mtc_index = $3 WHERE id = $1",
                &[&id, &log, &index],
            )?;
            Ok(())
        })
    }

    fn complete_order(&mut self, order: &Order, cert: &IssuedCert) -> Result<bool> {
        self.run(|c| {
            let mut tx = c.transaction()?;
            if tx.execute(
                "UPDATE acme_orders SET status = 'valid', cert_serial = $2
                 WHERE id = $1 AND status = 'processing'",
                &[&order.id, &cert.serial],
            )? == 0
            {
                return Ok(false);
            }
            tx.execute(
                "INSERT INTO acme_certs (serial, order_id, account_id, chain_pem, not_before, not_after)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[&cert.serial, &order.id, &order.account_id, &cert.chain_pem, &cert.not_before, &cert.not_after],
            )?;
            tx.commit()?;
            Ok(true)
        })
    }

    fn cert(&self, serial: &str) -> Result<Option<IssuedCert>> {
        self.run(|c| {
            Ok(c.query_opt(
                "SELECT serial, order_id, account_id, chain_pem, not_before, not_after, revoked
                 FROM acme_certs WHERE serial = $1",
                &[&serial],
            )?
            .map(|r| IssuedCert {
                serial: r.get(0),
                order_id: r.get(1),
                account_id: r.get(2),
                chain_pem: r.get(3),
                not_before: r.get(4),
                not_after: r.get(5),
                revoked: r.get(6),
            }))
        })
    }

    fn mark_revoked(&self, serial: &str) -> Result<()> {
        self.run(|c| {
            c.execute(
                "UPDATE acme_certs SET revoked = true WHERE serial = $1",
                &[&serial],
            )?;
            Ok(())
        })
    }
}
