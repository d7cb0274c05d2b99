//! The statements a store's connection prepares once (`pkit::store::pg_statements`),
//! against a throwaway server (`tests/common/pg.rs`): what PostgreSQL itself lists as the
//! session's prepared statements, not pkit's word.

mod common;

use common::pg_database;
use pkit::store::pg_statements::{Prepared, Session, Statements};

/// The session's prepared statements whose text starts with `prefix`, as the server
/// lists them (the listing's own statement is unnamed and not among them).
fn prepared(client: &mut postgres::Client, prefix: &str) -> i64 {
    client
        .query_one(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE $1 || '%'",
            &[&prefix],
        )
        .unwrap()
        .get(0)
}

#[test]
fn each_statement_is_prepared_once_per_connection() {
    let Some(db) = pg_database("pg_statements") else {
        return;
    };
    let mut client = postgres::Config::new()
        .host("127.0.0.1")
        .port(
            db.url
                .rsplit(':')
                .next()
                .unwrap()
                .split('/')
                .next()
                .unwrap()
                .parse()
                .unwrap(),
        )
        .user("pkit")
        .password(&db.password)
        .dbname(&db.name)
        .connect(postgres::NoTls)
        .unwrap();
    client
        .batch_execute("CREATE TABLE t (n BIGINT PRIMARY KEY)")
        .unwrap();
    let mut statements = Statements::default();
    {
        let mut s = Session::new(&mut client, &mut statements);
        for n in 0..5i64 {
            assert_eq!(
                s.execute("INSERT INTO t (n) VALUES ($1)", &[&n]).unwrap(),
                1
            );
        }
        // A transaction runs the connection's statements and keeps the ones it adds.
        let mut tx = s.transaction().unwrap();
        tx.execute("INSERT INTO t (n) VALUES ($1)", &[&5i64])
            .unwrap();
        let row = tx
            .query_one("SELECT count(*) FROM t WHERE n >= $1", &[&0i64])
            .unwrap();
        assert_eq!(row.get::<_, i64>(0), 6);
        tx.commit().unwrap();
        assert_eq!(
            s.query_opt("SELECT count(*) FROM t WHERE n >= $1", &[&3i64])
                .unwrap()
                .unwrap()
                .get::<_, i64>(0),
            3
        );
        assert_eq!(
            s.query("SELECT n FROM t WHERE n >= $1", &[&4i64])
                .unwrap()
                .len(),
            2
        );
    }
    // Six inserts and two counts, each prepared once and still there to run again.
    assert_eq!(prepared(&mut client, "INSERT INTO t"), 1);
    assert_eq!(prepared(&mut client, "SELECT count(*) FROM t"), 1);
    assert_eq!(prepared(&mut client, "SELECT n FROM t"), 1);
    // A transaction rolled back (dropped) keeps the connection's statements usable.
    {
        let mut s = Session::new(&mut client, &mut statements);
        let mut tx = s.transaction().unwrap();
        tx.execute("INSERT INTO t (n) VALUES ($1)", &[&6i64])
            .unwrap();
        drop(tx);
        assert_eq!(
            s.query_one("SELECT count(*) FROM t WHERE n >= $1", &[&0i64])
                .unwrap()
                .get::<_, i64>(0),
            6
        );
    }
    assert_eq!(prepared(&mut client, "INSERT INTO t"), 1);

    // A statement that fails is prepared afresh next time: the failed one is closed, and
    // one is prepared again on the next call, which works.
    {
        let mut s = Session::new(&mut client, &mut statements);
        let dup = s.execute("INSERT INTO t (n) VALUES ($1)", &[&0i64]);
        assert!(dup.is_err(), "a duplicate key");
    }
    assert_eq!(prepared(&mut client, "INSERT INTO t"), 0);
    {
        let mut s = Session::new(&mut client, &mut statements);
        assert_eq!(
            s.execute("INSERT INTO t (n) VALUES ($1)", &[&7i64])
                .unwrap(),
            1
        );
        // First prepared inside a transaction that is rolled back: the statement is the
        // session's, not the transaction's, and runs after.
        let mut tx = s.transaction().unwrap();
        tx.execute("DELETE FROM t WHERE n = $1", &[&7i64]).unwrap();
        drop(tx);
        assert_eq!(
            s.execute("DELETE FROM t WHERE n = $1", &[&7i64]).unwrap(),
            1
        );
    }
    assert_eq!(prepared(&mut client, "INSERT INTO t"), 1);
    assert_eq!(prepared(&mut client, "DELETE FROM t"), 1);
}
