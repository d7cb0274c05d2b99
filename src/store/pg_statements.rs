//! Statements prepared once per connection. The `postgres` client, handed SQL text,
//! prepares it on the server, runs it and closes it: two round trips where one would do,
//! on every call. A server's store makes the same few dozen statements all day (an ACME
//! server: about twenty-five calls an order, each blocking the worker that made it), so
//! each connection keeps what it prepared, keyed by the SQL text, and runs it again by
//! name: one round trip.
//!
//! [`Session`] (a connection) and [`Tx`] (a transaction on it) take SQL text as the
//! client does, through [`Prepared`]'s methods; the statements are the connection's, so a
//! transaction uses and adds to the same ones.

use postgres::types::ToSql;
use postgres::{Client, Error, GenericClient, Row, Statement, Transaction};
use std::collections::HashMap;

/// The statements one connection prepared, by their SQL text.
#[derive(Default)]
pub struct Statements(HashMap<String, Statement>);

impl Statements {
    fn get<C: GenericClient>(&mut self, client: &mut C, sql: &str) -> Result<Statement, Error> {
        if let Some(s) = self.0.get(sql) {
            return Ok(s.clone());
        }
        let s = client.prepare(sql)?;
        self.0.insert(sql.to_owned(), s.clone());
        Ok(s)
    }

    /// `sql`'s statement, run by `run`; a statement that failed is prepared afresh next
    /// time (a table another process migrated meanwhile: "cached plan must not change
    /// result type" once, not on every call after).
    fn run<C: GenericClient, T>(
        &mut self,
        client: &mut C,
        sql: &str,
        run: impl FnOnce(&mut C, &Statement) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let s = self.get(client, sql)?;
        let out = run(client, &s);
        if out.is_err() {
            self.0.remove(sql);
        }
        out
    }
}

/// Parameters as the client takes them.
pub type Params<'p> = &'p [&'p (dyn ToSql + Sync)];

/// Running SQL text through the connection's prepared statements: the client's own four
/// calls, each preparing its statement the first time only.
pub trait Prepared {
    /// The client or transaction the statements run on.
    type On: GenericClient;
    /// It, and the connection's statements.
    fn parts(&mut self) -> (&mut Self::On, &mut Statements);

    /// `run` with `sql`'s statement, prepared the first time only.
    fn prepared<T>(
        &mut self,
        sql: &str,
        run: impl FnOnce(&mut Self::On, &Statement) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let (on, statements) = self.parts();
        statements.run(on, sql, run)
    }

    /// As `Client::execute`: the rows changed.
    fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<u64, Error> {
        self.prepared(sql, |on, s| on.execute(s, params))
    }
    /// As `Client::query`: every row.
    fn query(&mut self, sql: &str, params: Params<'_>) -> Result<Vec<Row>, Error> {
        self.prepared(sql, |on, s| on.query(s, params))
    }
    /// As `Client::query_one`: exactly one row, else an error.
    fn query_one(&mut self, sql: &str, params: Params<'_>) -> Result<Row, Error> {
        self.prepared(sql, |on, s| on.query_one(s, params))
    }
    /// As `Client::query_opt`: at most one row.
    fn query_opt(&mut self, sql: &str, params: Params<'_>) -> Result<Option<Row>, Error> {
        self.prepared(sql, |on, s| on.query_opt(s, params))
    }
}

/// A connection and its prepared statements.
pub struct Session<'a> {
    client: &'a mut Client,
    statements: &'a mut Statements,
}

impl<'a> Session<'a> {
    /// `client`, running its SQL through `statements` (kept with the client: statements
    /// belong to the connection that prepared them).
    pub fn new(client: &'a mut Client, statements: &'a mut Statements) -> Self {
        Session { client, statements }
    }

    /// A transaction, whose statements are the connection's.
    pub fn transaction(&mut self) -> Result<Tx<'_>, Error> {
        Ok(Tx {
            tx: self.client.transaction()?,
            statements: self.statements,
        })
    }
}

impl Prepared for Session<'_> {
    type On = Client;
    fn parts(&mut self) -> (&mut Client, &mut Statements) {
        (self.client, self.statements)
    }
}

/// A transaction on a [`Session`]; rolled back when dropped without [`Tx::commit`].
pub struct Tx<'a> {
    tx: Transaction<'a>,
    statements: &'a mut Statements,
}

impl Tx<'_> {
    /// Commit it.
    pub fn commit(self) -> Result<(), Error> {
        self.tx.commit()
    }
}

impl<'a> Prepared for Tx<'a> {
    type On = Transaction<'a>;
    fn parts(&mut self) -> (&mut Transaction<'a>, &mut Statements) {
        (&mut self.tx, self.statements)
    }
}
