//! A PostgreSQL server for the CLI tests: one throwaway cluster per test process
//! (`scripts/pg-cluster`, which runs the server as an unprivileged user and stops it once
//! this process has exited), and a fresh, empty database per test.

use super::{in_ci, missing};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// A database of its own for one test.
#[derive(Debug, Clone)]
pub struct PgDb {
    /// `postgres://pkit@127.0.0.1:PORT/NAME`: no password in it.
    pub url: String,
    pub password: String,
    /// The cluster's directory (its socket, `password`, `port`).
    pub cluster: PathBuf,
    pub name: String,
}

impl PgDb {
    /// `--db URL --db-passin pass:…`, for a command that opens the CA's records.
    pub fn args(&self) -> Vec<String> {
        vec![
            "--db".into(),
            self.url.clone(),
            "--db-passin".into(),
            format!("pass:{}", self.password),
        ]
    }

    /// Run `sql` in this database as the cluster's superuser; its output (unaligned,
    /// tuples only).
    pub fn psql(&self, sql: &str) -> String {
        let out = Command::new(script())
            .args(["psql", &self.cluster.to_string_lossy(), "-d", &self.name])
            .args(["-A", "-t", "-c", sql])
            .output()
            .expect("running scripts/pg-cluster psql");
        assert!(
            out.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A URL for this database on `port` instead (a server that is not there).
    pub fn url_on_port(&self, port: u16) -> String {
        format!("postgres://pkit@127.0.0.1:{port}/{}", self.name)
    }
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/pg-cluster")
}

/// Whether Debian's PostgreSQL server programs are installed.
fn installed() -> bool {
    std::fs::read_dir("/usr/lib/postgresql")
        .map(|versions| {
            versions
                .flatten()
                .any(|v| v.path().join("bin/initdb").is_file())
        })
        .unwrap_or(false)
}

/// The cluster's directory, started on first use; `None` when PostgreSQL is missing.
fn cluster() -> Option<&'static PathBuf> {
    static CLUSTER: OnceLock<Option<PathBuf>> = OnceLock::new();
    CLUSTER
        .get_or_init(|| {
            if !installed() {
                return None;
            }
            let out = Command::new(script())
                .args(["start", "--watch", &std::process::id().to_string()])
                .output()
                .expect("running scripts/pg-cluster start");
            assert!(
                out.status.success(),
                "scripts/pg-cluster start: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
        })
        .as_ref()
}

/// A fresh database for the test `test`, or `None` (after a note) when PostgreSQL is not
/// installed; with `CI=true` its absence fails the test instead.
pub fn pg_database(test: &str) -> Option<PgDb> {
    let Some(dir) = cluster() else {
        missing(
            test,
            "PostgreSQL is not installed",
            "apt-get install postgresql (scripts/test does it when run as root)",
        );
        assert!(!in_ci());
        return None;
    };
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!("t{}_{}", NEXT.fetch_add(1, Ordering::Relaxed), test);
    let name: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(60)
        .collect();
    let out = Command::new(script())
        .args(["createdb", &dir.to_string_lossy(), &name])
        .output()
        .expect("running scripts/pg-cluster createdb");
    assert!(
        out.status.success(),
        "createdb {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let port = std::fs::read_to_string(dir.join("port")).expect("the cluster's port");
    let password = std::fs::read_to_string(dir.join("password")).expect("its password");
    Some(PgDb {
        url: format!("postgres://pkit@127.0.0.1:{}/{name}", port.trim()),
        password: password.trim().to_string(),
        cluster: dir.clone(),
        name,
    })
}
