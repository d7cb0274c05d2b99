//! With `--db postgres://…` each database stage runs twice in a batch: on the server under
//! its own name, then on SQLite as `<name>_sqlite` in the row right below, so that the two
//! databases' figures, from the same run and the same rows, stand side by side.

/// Which database a stage runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Db {
    /// The `--db postgres://…` server.
    Server,
    /// The SQLite scratch files, measured beside the server in the same run.
    Sqlite,
}

/// Each database stage: its name, its SQLite twin's, and what the server's row measures.
const STAGES: [(&str, &str, &str); 12] = [
    (
        "db_insert_certs",
        "db_insert_certs_sqlite",
        "PostgreSQL, binary COPY, 1 transaction",
    ),
    ("db_read_certs", "db_read_certs_sqlite", "PostgreSQL read"),
    ("db_insert_crl", "db_insert_crl_sqlite", "PostgreSQL"),
    ("db_read_crl", "db_read_crl_sqlite", "PostgreSQL read"),
    (
        "db_insert_ocsp",
        "db_insert_ocsp_sqlite",
        "PostgreSQL, binary COPY, 1 transaction",
    ),
    ("db_read_ocsp", "db_read_ocsp_sqlite", "PostgreSQL read"),
    (
        "db_insert_entries",
        "db_insert_entries_sqlite",
        "PostgreSQL, binary COPY, entries + tree nodes",
    ),
    (
        "db_insert_checkpoint",
        "db_insert_checkpoint_sqlite",
        "PostgreSQL",
    ),
    (
        "db_insert_proofs",
        "db_insert_proofs_sqlite",
        "PostgreSQL, binary COPY, 1 transaction, mtc.db proofs",
    ),
    (
        "db_insert_standalone",
        "db_insert_standalone_sqlite",
        "PostgreSQL, binary COPY, 1 transaction, mtc.db certificates",
    ),
    (
        "db_read_entries",
        "db_read_entries_sqlite",
        "PostgreSQL read",
    ),
    (
        "db_read_standalone",
        "db_read_standalone_sqlite",
        "PostgreSQL read, mtc.db certificates",
    ),
];

/// The row name of database stage `op` measured on `db`: its own name, except SQLite's
/// twin when a server's row takes that name.
pub fn row_name(op: &'static str, db: Db, server: bool) -> &'static str {
    if db == Db::Server || !server {
        return op;
    }
    STAGES
        .iter()
        .find(|(name, _, _)| *name == op)
        .map_or(op, |(_, twin, _)| twin)
}

/// The table's operations when a server is measured: each database stage with the
/// server's notes, followed by its SQLite twin with the notes SQLite's row has alone.
pub fn operations(ops: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::with_capacity(ops.len() * 2);
    for &(op, notes) in ops {
        match STAGES.iter().find(|(name, _, _)| *name == op) {
            Some(&(_, twin, server_notes)) => {
                out.push((op, server_notes));
                out.push((twin, notes));
            }
            None => out.push((op, notes)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_database_stage_has_a_twin() {
        let all = super::super::x509::OPERATIONS
            .iter()
            .chain(super::super::mtc::OPERATIONS.iter());
        for (op, _) in all.filter(|(op, _)| op.starts_with("db_")) {
            let twin = row_name(op, Db::Sqlite, true);
            assert_eq!(twin, format!("{op}_sqlite"), "{op}");
            assert_eq!(row_name(op, Db::Sqlite, false), *op);
            assert_eq!(row_name(op, Db::Server, true), *op);
        }
    }

    #[test]
    fn twins_follow_their_stage() {
        let ops = [("cert_gen", "a"), ("db_read_certs", "SQLite read")];
        assert_eq!(
            operations(&ops),
            vec![
                ("cert_gen", "a"),
                ("db_read_certs", "PostgreSQL read"),
                ("db_read_certs_sqlite", "SQLite read"),
            ]
        );
    }
}
