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

    /// Take the session advisory lock `key` in a psql session of its own and keep it
    /// until the holder is dropped: a pkit process that needs the lock waits meanwhile.
    pub fn hold_advisory_lock(&self, key: i64) -> LockHolder {
        use std::io::{BufRead, Write};
        let dir = self.cluster.to_string_lossy();
        let mut psql = Command::new(script())
            .args(["psql", &dir, "-d", &self.name, "-A", "-t", "-q"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("psql");
        let mut stdin = psql.stdin.take().expect("psql's stdin");
        writeln!(stdin, "SELECT 'locked', pg_advisory_lock({key});").expect("to psql");
        stdin.flush().expect("to psql");
        // Held once psql has answered.
        let mut out = std::io::BufReader::new(psql.stdout.take().expect("psql's stdout"));
        let mut line = String::new();
        while !line.contains("locked") {
            line.clear();
            assert!(
                out.read_line(&mut line).expect("psql's answer") > 0,
                "psql ended"
            );
        }
        LockHolder { psql, stdin }
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

/// A psql session holding an advisory lock; the lock goes when it is dropped.
pub struct LockHolder {
    psql: std::process::Child,
    stdin: std::process::ChildStdin,
}

impl Drop for LockHolder {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = writeln!(self.stdin, "\\q");
        let _ = self.stdin.flush();
        let _ = self.psql.wait();
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

/// When `PKIT_TEST_DATABASE=postgres`, the CLI tests' CAs keep their records on
/// PostgreSQL: `args` that create a CA (`issue ca`, `mtc ca new`) get `--db` with a fresh
/// database of the shared cluster, reached over its unix socket (trusted, so later
/// commands need no password: they find the URL the CA directory records). `None` for
/// every other command, or when the variable is not set.
pub fn on_test_database(args: &[std::ffi::OsString]) -> Option<Vec<std::ffi::OsString>> {
    if std::env::var("PKIT_TEST_DATABASE").ok()? != "postgres" {
        return None;
    }
    let words: Vec<&str> = args.iter().filter_map(|a| a.to_str()).collect();
    let creates = words.starts_with(&["issue", "ca"]) || words.starts_with(&["mtc", "ca", "new"]);
    let asked = words
        .iter()
        .any(|w| *w == "--db" || w.starts_with("--db=") || *w == "--help" || *w == "-h");
    if !creates || asked {
        return None;
    }
    let dir = cluster().expect("PKIT_TEST_DATABASE=postgres needs PostgreSQL installed");
    let db = create_database(dir, "cli");
    let port = std::fs::read_to_string(dir.join("port")).expect("the cluster's port");
    let socket_dir = dir.to_string_lossy().replace('/', "%2F");
    let url = format!("postgres://pkit@{socket_dir}:{}/{}", port.trim(), db.name);
    let mut out = args.to_vec();
    out.extend(["--db".into(), url.into()]);
    Some(out)
}

/// Run `sql` (as the cluster's superuser, through psql) in the database whose URL the
/// CA directory `ca` records: what PostgreSQL itself says, not pkit.
pub fn psql_for_ca(ca: &Path, sql: &str) -> String {
    let url = std::fs::read_to_string(ca.join("db.url")).expect("the CA's db.url");
    let name = url.trim().rsplit('/').next().unwrap_or_default();
    let name = name.split('?').next().unwrap_or_default();
    let dir = cluster().expect("PostgreSQL");
    cluster_script(&[
        "psql",
        &dir.to_string_lossy(),
        "-d",
        name,
        "-A",
        "-t",
        "-c",
        sql,
    ])
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
