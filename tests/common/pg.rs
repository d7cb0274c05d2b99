//! A PostgreSQL server for the CLI tests: one throwaway cluster per test process
//! (`scripts/pg-cluster`, which runs the server as an unprivileged user and stops it once
//! this process has exited), and a fresh, empty database per test; a cluster of its own
//! for a test that restarts the server.

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
        let dir = self.cluster.to_string_lossy();
        cluster_script(&["psql", &dir, "-d", &self.name, "-A", "-t", "-c", sql])
    }

    /// The test CA certificate that issued the server's of a TLS cluster
    /// ([`PgCluster::start_tls`]): what `sslrootcert` names for verify-ca and verify-full.
    pub fn root_cert(&self) -> PathBuf {
        self.cluster.join("root.crt")
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

/// `scripts/pg-cluster ARGS…`, which must succeed: its stdout.
fn cluster_script(args: &[&str]) -> String {
    let out = Command::new(script())
        .args(args)
        .output()
        .expect("running scripts/pg-cluster");
    assert!(
        out.status.success(),
        "scripts/pg-cluster {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Start a cluster (with `extra` options of `scripts/pg-cluster start`), stopped once
/// this process has exited.
fn start_cluster(extra: &[&str]) -> PathBuf {
    let pid = std::process::id().to_string();
    PathBuf::from(cluster_script(
        &[&["start", "--watch", &pid], extra].concat(),
    ))
}

/// The shared cluster's directory, started on first use; `None` when PostgreSQL is
/// missing.
fn cluster() -> Option<&'static PathBuf> {
    static CLUSTER: OnceLock<Option<PathBuf>> = OnceLock::new();
    CLUSTER
        .get_or_init(|| installed().then(|| start_cluster(&[])))
        .as_ref()
}

/// PostgreSQL is missing: a note, or with `CI=true` a failure.
fn not_installed(test: &str) {
    missing(
        test,
        "PostgreSQL is not installed",
        "apt-get install postgresql (scripts/test does it when run as root)",
    );
    assert!(!in_ci());
}

/// A fresh database named for `test` in the cluster in `dir`.
fn create_database(dir: &Path, test: &str) -> PgDb {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!("t{}_{}", NEXT.fetch_add(1, Ordering::Relaxed), test);
    let name: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(60)
        .collect();
    cluster_script(&["createdb", &dir.to_string_lossy(), &name]);
    let port = std::fs::read_to_string(dir.join("port")).expect("the cluster's port");
    let password = std::fs::read_to_string(dir.join("password")).expect("its password");
    PgDb {
        url: format!("postgres://pkit@127.0.0.1:{}/{name}", port.trim()),
        password: password.trim().to_string(),
        cluster: dir.to_path_buf(),
        name,
    }
}

/// A fresh database for the test `test` in the shared cluster, or `None` (after a note)
/// when PostgreSQL is not installed; with `CI=true` its absence fails the test instead.
pub fn pg_database(test: &str) -> Option<PgDb> {
    let Some(dir) = cluster() else {
        not_installed(test);
        return None;
    };
    Some(create_database(dir, test))
}

/// A cluster of one test's own, for trials that stop or restart the server; stopped
/// when dropped.
pub struct PgCluster {
    dir: PathBuf,
}

impl PgCluster {
    /// `None` (after a note; a failure with `CI=true`) when PostgreSQL is not installed.
    pub fn start(test: &str) -> Option<PgCluster> {
        Self::start_with(test, &[])
    }

    /// A cluster that accepts TCP connections over TLS only, with a certificate for
    /// 127.0.0.1 (an iPAddress subjectAltName, no host name) from a test CA
    /// ([`PgDb::root_cert`]).
    pub fn start_tls(test: &str) -> Option<PgCluster> {
        Self::start_with(test, &["--tls"])
    }

    fn start_with(test: &str, extra: &[&str]) -> Option<PgCluster> {
        if !installed() {
            not_installed(test);
            return None;
        }
        Some(PgCluster {
            dir: start_cluster(extra),
        })
    }

    pub fn database(&self, test: &str) -> PgDb {
        create_database(&self.dir, test)
    }

    /// Stop the server, cutting its connections, and start it again.
    pub fn restart(&self) {
        cluster_script(&["restart", &self.dir.to_string_lossy()]);
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = Command::new(script())
            .args(["stop", &self.dir.to_string_lossy()])
            .output();
    }
}
