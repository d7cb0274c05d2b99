//! The programs and corpora written by others that the tests check pkit against, found in
//! one place so that every test treats a missing one the same way:
//!
//! - [`require`] fails the test when the peer is missing, with the command that installs it.
//! - [`optional`] lets a test go on without the checks that need the peer: outside CI it
//!   prints a note (past the test harness's output capture, so it is seen) and returns
//!   `None`; with `CI=true` a missing peer fails the test like [`require`], because a check
//!   that quietly did not run proves nothing.
//!
//! Each peer is probed once per test binary.

use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

/// How long a probe may take before it counts as a hang: far above what a cold Python
/// import needs on a busy machine.
const PROBE_LIMIT: Duration = Duration::from_secs(60);

/// A program or package that checks what pkit writes or reads the same inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// The system `openssl` command line tool.
    Openssl,
    /// `python3` itself, standard library only.
    Python,
    /// Python 3 with `cryptography`, recent enough for ML-DSA (46 or later).
    PythonCryptography,
    /// The `cryptography_vectors` corpus (a Python package of test files).
    CryptographyVectors,
    /// util-linux `script`, which runs a command on a pseudo-terminal.
    Script,
    /// The Go toolchain, which builds tests/go programs on Go's own libraries.
    Go,
    /// Java's `keytool`, which opens PKCS#12 keystores.
    Keytool,
    /// pkilint (Python), the linter CAs use for the Baseline Requirements.
    Pkilint,
    /// certbot (Python), the ACME client, in target/certbot (scripts/test installs it).
    Certbot,
    /// prometheus_client (Python), whose parser reads what `/metrics` serves.
    PrometheusClient,
    /// boto3 (Python), the AWS SDK, which reads an S3 bucket back.
    Boto3,
    /// MinIO, an S3-compatible object store (at PKIT_MINIO; scripts/test builds it).
    Minio,
}

const PEERS: [Peer; 12] = [
    Peer::Openssl,
    Peer::Python,
    Peer::PythonCryptography,
    Peer::CryptographyVectors,
    Peer::Script,
    Peer::Go,
    Peer::Keytool,
    Peer::Pkilint,
    Peer::Certbot,
    Peer::PrometheusClient,
    Peer::Boto3,
    Peer::Minio,
];

impl Peer {
    fn name(self) -> &'static str {
        match self {
            Peer::Openssl => "the openssl command line tool",
            Peer::Python => "python3",
            Peer::PythonCryptography => "Python's cryptography package with ML-DSA",
            Peer::CryptographyVectors => "the cryptography_vectors corpus",
            Peer::Script => "util-linux `script`",
            Peer::Go => "the Go toolchain",
            Peer::Keytool => "Java's keytool",
            Peer::Pkilint => "pkilint",
            Peer::Certbot => "certbot",
            Peer::PrometheusClient => "Python's prometheus_client",
            Peer::Boto3 => "Python's boto3",
            Peer::Minio => "MinIO",
        }
    }

    /// How to install it; scripts/test does this for the Python packages.
    fn install(self) -> &'static str {
        match self {
            Peer::Openssl => "apt-get install openssl (any OpenSSL 3.x CLI)",
            Peer::Python => "apt-get install python3",
            Peer::PythonCryptography => {
                "python3 -m pip install cryptography==50.0.2 (scripts/test installs it into \
                 target/pydeps; set PYTHONPATH=target/pydeps when running cargo directly)"
            }
            Peer::CryptographyVectors => {
                "python3 -m pip install cryptography_vectors==50.0.2 (scripts/test installs \
                 it into target/pydeps; set PYTHONPATH=target/pydeps when running cargo \
                 directly)"
            }
            Peer::Script => "apt-get install util-linux (bsdutils on Debian)",
            Peer::Go => "Go >= 1.22 (apt-get install golang-go where Debian has it that recent)",
            Peer::Keytool => "apt-get install default-jre-headless",
            Peer::Pkilint => {
                "python3 -m pip install pkilint==0.13.3 (scripts/test installs it; set \
                 PYTHONPATH=target/pydeps when running cargo directly)"
            }
            Peer::Certbot => {
                "python3 -m pip install --target target/certbot certbot==5.8.0 (scripts/test \
                 does)"
            }
            Peer::PrometheusClient => {
                "python3 -m pip install prometheus_client==0.26.0 (scripts/test installs it; \
                 set PYTHONPATH=target/pydeps when running cargo directly)"
            }
            Peer::Boto3 => {
                "python3 -m pip install boto3==1.44.5 (scripts/test installs it; set \
                 PYTHONPATH=target/pydeps when running cargo directly)"
            }
            Peer::Minio => {
                "scripts/test builds it (go install github.com/minio/minio@VERSION into \
                 ~/.cache/pkit) and sets PKIT_MINIO to it; set PKIT_MINIO when running cargo \
                 directly"
            }
        }
    }

    /// Look for it: what was found (a version, or the corpus directory), or why not.
    fn probe(self) -> Result<String, String> {
        const PY_VECTORS: &str =
            "import cryptography_vectors, os; print(os.path.dirname(cryptography_vectors.__file__))";
        let (program, args): (&str, &[&str]) = match self {
            Peer::Openssl => ("openssl", &["version"]),
            Peer::Python => (
                "python3",
                &["-c", "import sys; print(sys.version.split()[0])"],
            ),
            Peer::PythonCryptography => (
                "python3",
                &[
                    "-c",
                    "import cryptography; \
                     from cryptography.hazmat.primitives.asymmetric import mldsa; \
                     print(cryptography.__version__)",
                ],
            ),
            Peer::CryptographyVectors => ("python3", &["-c", PY_VECTORS]),
            Peer::Script => ("script", &["--version"]),
            Peer::Go => ("go", &["version"]),
            Peer::Keytool => ("keytool", &["-help"]),
            Peer::Pkilint => (
                "python3",
                &[
                    "-c",
                    "import importlib.metadata as m; print(m.version('pkilint'))",
                ],
            ),
            Peer::Certbot => ("env", &[CERTBOT_ENV, CERTBOT, "--version"]),
            Peer::PrometheusClient => (
                "python3",
                &[
                    "-c",
                    "import importlib.metadata as m; print(m.version('prometheus_client'))",
                ],
            ),
            Peer::Boto3 => (
                "python3",
                &[
                    "-c",
                    "import importlib.metadata as m; print(m.version('boto3'))",
                ],
            ),
            Peer::Minio => {
                let path = std::env::var("PKIT_MINIO")
                    .ok()
                    .or_else(built_minio)
                    .ok_or_else(|| {
                        "PKIT_MINIO is not set and none is built in ~/.cache/pkit".to_string()
                    })?;
                let run = super::try_run_with(&path, &["--version"], None, PROBE_LIMIT)
                    .map_err(|e| format!("cannot run {path}: {e}"))?;
                return match run.code {
                    Some(0) => Ok(path),
                    _ => Err(format!("{path} --version failed")),
                };
            }
        };
        let run = super::try_run_with(program, args, None, PROBE_LIMIT)
            .map_err(|e| format!("cannot run {program}: {e}"))?;
        let stdout = run.stdout_str().trim().to_string();
        if run.code != Some(0) {
            // The last line says it (a Python traceback ends with the missing module).
            let err = run.stderr_str();
            let last = err.trim().lines().last().unwrap_or("no message");
            let how = match run.code {
                Some(c) => format!("exit {c}"),
                None => "killed (hung)".to_string(),
            };
            return Err(format!("`{program} {}`: {how}: {last}", args.join(" ")));
        }
        if self == Peer::CryptographyVectors {
            // The package can be installed without its data (a broken or partial wheel).
            let dir = PathBuf::from(&stdout);
            for sub in ["x509", "pkcs12", "pkcs7", "asymmetric"] {
                if !dir.join(sub).is_dir() {
                    return Err(format!("{} has no {sub}/ directory", dir.display()));
                }
            }
        }
        Ok(stdout)
    }

    /// [`Peer::probe`], once per test binary.
    fn found(self) -> &'static Result<String, String> {
        static FOUND: [OnceLock<Result<String, String>>; PEERS.len()] =
            [const { OnceLock::new() }; PEERS.len()];
        let i = PEERS.iter().position(|p| *p == self).expect("listed peer");
        FOUND[i].get_or_init(|| self.probe())
    }
}

/// The MinIO scripts/test built into ~/.cache/pkit (the newest, when PKIT_MINIO does not
/// name one).
fn built_minio() -> Option<String> {
    let cache = std::env::var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|_| std::env::var("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .ok()?;
    let mut found: Vec<PathBuf> = std::fs::read_dir(cache.join("pkit"))
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("minio-"))
        .map(|e| e.path().join("minio"))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found.pop().map(|p| p.display().to_string())
}

/// certbot as scripts/test installs it: its own directory on PYTHONPATH.
pub const CERTBOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/certbot/bin/certbot");
pub const CERTBOT_ENV: &str = concat!("PYTHONPATH=", env!("CARGO_MANIFEST_DIR"), "/target/certbot");

/// Whether the tests run in CI (`CI=true`, as CI services set it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// What `peer` reported (its version, or the corpus directory); fails the test, with the
/// command that installs it, when it is missing.
pub fn require(peer: Peer) -> &'static str {
    match peer.found() {
        Ok(found) => found,
        Err(why) => panic!(
            "this test needs {} ({why}). Install it: {}",
            peer.name(),
            peer.install()
        ),
    }
}

/// Like [`require`], except that outside CI a missing `peer` is a note, not a failure:
/// the caller then skips `what`, the checks that need it.
pub fn optional(peer: Peer, what: &str) -> Option<&'static str> {
    match peer.found() {
        Ok(found) => Some(found),
        Err(why) => {
            missing(
                what,
                &format!("{} is missing ({why})", peer.name()),
                peer.install(),
            );
            None
        }
    }
}

/// `what` cannot run, for `reason`: with `CI=true` the test fails; otherwise a note says
/// what was skipped and how to make it run.
pub fn missing(what: &str, reason: &str, remedy: &str) {
    assert!(
        !in_ci(),
        "{what}: {reason}. With CI=true this fails instead of skipping. Fix: {remedy}"
    );
    note(&format!(
        "note: {what} skipped: {reason}. To run it: {remedy}"
    ));
}

/// A line on the real stderr: the harness captures `eprintln!` of passing tests, which
/// would hide that something was skipped.
pub fn note(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The `vectors` directory of the `cryptography_vectors` package (required).
pub fn cryptography_vectors() -> PathBuf {
    PathBuf::from(require(Peer::CryptographyVectors))
}

/// `go build PACKAGE` from the module tests/go/NAME (which pins PACKAGE's version and
/// its dependencies in go.mod and go.sum; `.` for the module's own program), built into
/// the target's temporary directory; `None` (outside CI) without Go or when it does not
/// build.
pub fn go_tool(name: &str, package: &str, what: &str, remedy: &str) -> Option<PathBuf> {
    optional(Peer::Go, what)?;
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/go")
        .join(name);
    let r = std::process::Command::new("go")
        .arg("build")
        .arg("-o")
        .arg(&out)
        .arg(package)
        .current_dir(&src)
        .env("GOFLAGS", "-mod=readonly")
        .output()
        .expect("running go build");
    if !r.status.success() {
        missing(
            &format!("building {package} in tests/go/{name}"),
            &String::from_utf8_lossy(&r.stderr),
            remedy,
        );
        return None;
    }
    Some(out)
}

/// Build the Go program `tests/go/NAME` into the test target's scratch directory; its
/// path, or `None` (outside CI) without Go or when its modules cannot be fetched. `what`
/// names the checks that need it, `remedy` how to make the build work.
pub fn go_program(name: &str, what: &str, remedy: &str) -> Option<PathBuf> {
    go_tool(name, ".", what, remedy)
}
