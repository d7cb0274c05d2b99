//! OpenSSL >= 3.5: the system's when pkg-config reports one, else a private build cached
//! outside the checkout.
//!
//! The build runs in a process of its own (this program again, `CHILD_VERB`), its output
//! in a log beside the cache, so that cargo can compile everything that does not link
//! OpenSSL at the same time (gate.rs holds back only native-ossl-sys). A terminal sees
//! its progress as lines (objects compiled of those the Makefile names) between cargo's
//! own; a pipe sees one line when it starts and one when it ends.

use std::env;
use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The OpenSSL release the cache holds; bump together with the `openssl-src` pin (whose
/// crate carries the source).
const OPENSSL_TAG: &str = "openssl-3.5.5";
/// How it is configured: a static libcrypto and libssl (pkit-tls links the latter) with
/// what pkit, native-ossl's bindings and the TLS client use, and none of what they do not
/// (about 15% of the objects: QUIC, DTLS, CMP, time stamps, CT, SRP, ARIA, engines, and
/// the ciphers only OpenSSL 3's legacy provider offers, which is not built). Every
/// option here changes the cache entry's name ([`entry_name`]): a changed list builds
/// afresh.
const CONFIGURE: &[&str] = &[
    "no-shared",
    "no-module",
    "no-tests",
    "no-docs",
    "no-comp",
    "no-zlib",
    "no-zlib-dynamic",
    "no-legacy",
    "no-engine",
    "no-quic",
    "no-dtls",
    "no-ssl3",
    "no-weak-ssl-ciphers",
    "no-cmp",
    "no-ts",
    "no-ct",
    "no-srp",
    "no-aria",
    "no-camellia",
    "no-idea",
    "no-seed",
    "no-md2",
    "no-rc2",
    "no-rc4",
    "no-rc5",
    "no-bf",
    "no-cast",
    "no-mdc2",
    "no-whirlpool",
    "--libdir=lib",
    // As the library was built before (cc's flags for a Rust build): position-independent
    // objects for a PIE binary, one section per function and datum so that the final
    // link keeps only what pkit calls, and -O2 (the assembly does the hot work).
    "-O2",
    "-fPIC",
    "-ffunction-sections",
    "-fdata-sections",
];
const MIN_SYSTEM_OPENSSL: (u32, u32) = (3, 5);
/// `xtask CHILD_VERB ROOT SCRATCH`: build into SCRATCH, then rename it to ROOT.
pub const CHILD_VERB: &str = "__build-openssl";

pub enum Openssl {
    /// pkg-config's OpenSSL is recent enough.
    System,
    /// A finished private build (or `NATIVE_OSSL_OPENSSL_SOURCES` as given).
    Cached(PathBuf),
    /// A private build under way.
    Building(Build),
}

impl Openssl {
    /// The directory to hand native-ossl (None: the system's), waiting for a build.
    pub fn finished(self) -> Result<Option<PathBuf>, String> {
        match self {
            Openssl::System => Ok(None),
            Openssl::Cached(dir) => Ok(Some(dir)),
            Openssl::Building(build) => {
                let dir = build.install_dir();
                build.wait()?;
                Ok(Some(dir))
            }
        }
    }
}

/// Finds a usable OpenSSL, starting the private build when there is none.
pub fn find() -> Result<Openssl, String> {
    if let Ok(dir) = env::var("NATIVE_OSSL_OPENSSL_SOURCES") {
        return Ok(Openssl::Cached(PathBuf::from(dir)));
    }
    if let Some(v) = system_openssl_version() {
        if v >= MIN_SYSTEM_OPENSSL {
            return Ok(Openssl::System);
        }
        eprintln!(
            "xtask: system OpenSSL is {}.{}, pkit needs >= {}.{} for ML-DSA; using a private build",
            v.0, v.1, MIN_SYSTEM_OPENSSL.0, MIN_SYSTEM_OPENSSL.1
        );
    }
    let root = cache_root()?.join(entry_name());
    if complete(&root.join("install")) {
        return Ok(Openssl::Cached(root.join("install")));
    }
    Build::start(root).map(Openssl::Building)
}

/// The cache entry: the release and a digest of [`CONFIGURE`] (FNV-1a, stable across
/// toolchains, unlike std's hasher).
fn entry_name() -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in CONFIGURE.join(" ").bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    format!("{OPENSSL_TAG}-{h:08x}")
}

/// Whether `install` holds what native-ossl-sys reads: the headers and libcrypto.a.
pub fn complete(install: &Path) -> bool {
    install.join("libcrypto.a").exists() && install.join("include/openssl/opensslv.h").exists()
}

fn system_openssl_version() -> Option<(u32, u32)> {
    let out = Command::new("pkg-config")
        .args(["--modversion", "openssl"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.trim().split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

fn cache_root() -> Result<PathBuf, String> {
    if let Some(dir) = env::var_os("PKIT_OPENSSL_CACHE") {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = env::var_os("XDG_CACHE_HOME") {
        return Ok(PathBuf::from(dir).join("pkit"));
    }
    let home = env::var_os("HOME").ok_or("neither PKIT_OPENSSL_CACHE nor HOME is set")?;
    Ok(PathBuf::from(home).join(".cache/pkit"))
}

/// A build of OpenSSL in a child process, watched by a thread that shows its progress and
/// records its end.
pub struct Build {
    root: PathBuf,
    failed: PathBuf,
    pid: u32,
    watcher: JoinHandle<Result<(), String>>,
}

impl Build {
    fn start(root: PathBuf) -> Result<Build, String> {
        let parent = root.parent().ok_or("bad cache path")?.to_path_buf();
        fs::create_dir_all(&parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        // Per process: two xtask runs building at once share nothing but the cache entry
        // (the second to finish keeps the first's).
        let me = std::process::id();
        let scratch = parent.join(format!("{OPENSSL_TAG}.building-{me}"));
        let log = parent.join(format!("{OPENSSL_TAG}.building-{me}.log"));
        let failed = parent.join(format!("{OPENSSL_TAG}.building-{me}.failed"));
        let out = fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out
            .try_clone()
            .map_err(|e| format!("{}: {e}", log.display()))?;
        let exe = env::current_exe().map_err(|e| format!("the xtask's own path: {e}"))?;
        let child = Command::new(exe)
            .arg(CHILD_VERB)
            .arg(&root)
            .arg(&scratch)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("starting the OpenSSL build: {e}"))?;
        eprintln!(
            "xtask: building {OPENSSL_TAG} (static libcrypto) into {} once, beside the Rust \
             build (about 4 minutes on 2 cores); its log: {}",
            root.display(),
            log.display()
        );
        let pid = child.id();
        let watch = Watch {
            child,
            inner: scratch.join("build/src"),
            root: root.clone(),
            log,
            failed: failed.clone(),
        };
        let watcher = thread::spawn(move || watch.run());
        Ok(Build {
            root,
            failed,
            pid,
            watcher,
        })
    }

    /// Where the finished build's headers and libcrypto.a will be.
    pub fn install_dir(&self) -> PathBuf {
        self.root.join("install")
    }

    /// The file whose presence tells a waiting rustc wrapper that the build failed.
    pub fn failed_marker(&self) -> &Path {
        &self.failed
    }

    /// The build process, for a waiting wrapper to see that it is still alive.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Waits for the build to end (its progress still shown); the error says where its
    /// log is.
    pub fn wait(self) -> Result<(), String> {
        let r = self
            .watcher
            .join()
            .map_err(|_| "the OpenSSL build's watcher panicked".to_string())?;
        // Cargo is done: no wrapper reads the failure's marker any more.
        let _ = fs::remove_file(&self.failed);
        r
    }
}

struct Watch {
    child: Child,
    /// The source tree openssl-src configures and compiles in.
    inner: PathBuf,
    root: PathBuf,
    log: PathBuf,
    failed: PathBuf,
}

impl Watch {
    fn run(mut self) -> Result<(), String> {
        let started = Instant::now();
        let terminal = std::io::stderr().is_terminal();
        // The Makefile's object count, read again while Configure may still be writing it
        // (keyed by its length).
        let mut total: (u64, usize) = (0, 0);
        let mut shown = (0, Instant::now());
        let outcome = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status.success(),
                Ok(None) => {}
                Err(e) => return Err(format!("waiting for the OpenSSL build: {e}")),
            }
            if terminal {
                let makefile = self.inner.join("Makefile");
                let len = fs::metadata(&makefile).map_or(0, |m| m.len());
                if len != total.0 {
                    total = (len, objects_named(&makefile).unwrap_or(0));
                }
                if let Some(total) = Some(total.1).filter(|&t| t > 0) {
                    let done = objects_built(&self.inner).min(total - 1);
                    let tenth = done * 10 / total;
                    if tenth > shown.0 || shown.1.elapsed() >= Duration::from_secs(30) {
                        // `\r\x1b[K` clears cargo's progress bar first; cargo redraws it.
                        eprintln!(
                            "\r\x1b[Kxtask: {OPENSSL_TAG}: {done}/{total} objects ({}%), {}",
                            done * 100 / total,
                            elapsed(started)
                        );
                        shown = (tenth, Instant::now());
                    }
                }
            }
            thread::sleep(Duration::from_millis(250));
        };
        let lead = if terminal { "\r\x1b[K" } else { "" };
        if outcome && complete(&self.root.join("install")) {
            eprintln!(
                "{lead}xtask: {OPENSSL_TAG} ready in {} ({})",
                self.root.display(),
                elapsed(started)
            );
            let _ = fs::remove_file(&self.log);
            Ok(())
        } else {
            // Printed by whoever reads it: the waiting rustc wrapper (through cargo) and
            // the xtask's own exit.
            let msg = format!(
                "the OpenSSL build failed; its log: {} (the end of it: `tail -30 {}`)",
                self.log.display(),
                self.log.display()
            );
            let _ = fs::write(&self.failed, &msg);
            // The log keeps what went wrong; the half-built tree is only weight.
            if let Some(scratch) = self.inner.parent().and_then(Path::parent) {
                let _ = fs::remove_dir_all(scratch);
            }
            Err(msg)
        }
    }
}

fn elapsed(since: Instant) -> String {
    let s = since.elapsed().as_secs();
    format!("{}m{:02}s", s / 60, s % 60)
}

/// The library objects the configured Makefile builds (`…/libcrypto-lib-x.o: …` rules).
fn objects_named(makefile: &Path) -> Option<usize> {
    let text = fs::read_to_string(makefile).ok()?;
    Some(
        text.lines()
            .filter_map(|l| l.split_once(": ").map(|(target, _)| target))
            .filter(|t| is_lib_object(t))
            .count(),
    )
}

fn is_lib_object(name: &str) -> bool {
    !name.contains(' ')
        && name.ends_with(".o")
        && name.rsplit('/').next().is_some_and(|f| f.contains("-lib-"))
}

/// How many of those exist yet under the source tree.
fn objects_built(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| {
            let path = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                objects_built(&path)
            } else {
                usize::from(is_lib_object(&e.file_name().to_string_lossy()))
            }
        })
        .sum()
}

/// The child: builds into SCRATCH and renames it into place, so an interrupted build
/// never leaves a cache entry that looks complete. Its output is the log.
pub fn child(args: &[std::ffi::OsString]) -> i32 {
    let [root, scratch] = args else {
        eprintln!("usage: xtask {CHILD_VERB} ROOT SCRATCH");
        return 2;
    };
    match build(Path::new(root), Path::new(scratch)) {
        Ok(()) => 0,
        Err(msg) => {
            eprintln!("xtask: {msg}");
            1
        }
    }
}

fn build(root: &Path, scratch: &Path) -> Result<(), String> {
    let _ = fs::remove_dir_all(scratch);
    let src = scratch.join("build/src");
    let install = scratch.join("install");
    copy_tree(&openssl_src::source_dir(), &src)?;
    let jobs = thread::available_parallelism().map_or(2, |n| n.get());
    // Configure guesses the platform (as `./config` does) when given none.
    let mut configure = Command::new("perl");
    configure
        .arg("./Configure")
        .args(CONFIGURE)
        .arg(format!("--prefix={}", install.display()))
        // Where the library looks for the system's certificates and configuration.
        .arg("--openssldir=/usr/lib/ssl");
    run(configure.current_dir(&src))?;
    run(Command::new("make")
        .arg(format!("-j{jobs}"))
        .arg("build_libs")
        .current_dir(&src))?;
    run(Command::new("make").arg("install_dev").current_dir(&src))?;
    // native-ossl-sys wants libcrypto.a directly under the directory it is given.
    let lib = install.join("lib/libcrypto.a");
    fs::copy(&lib, install.join("libcrypto.a")).map_err(|e| format!("{}: {e}", lib.display()))?;
    let _ = fs::remove_dir_all(scratch.join("build"));
    // Another run finished first: its entry may be in use by its cargo; keep it.
    if complete(&root.join("install")) {
        let _ = fs::remove_dir_all(scratch);
        return Ok(());
    }
    let _ = fs::remove_dir_all(root);
    fs::rename(scratch, root).map_err(|e| format!("{}: {e}", root.display()))?;
    Ok(())
}

/// Runs a step of the build, its output in the log (the child's own stdout and stderr).
fn run(cmd: &mut Command) -> Result<(), String> {
    let shown = format!("{cmd:?}");
    let status = cmd.status().map_err(|e| format!("{shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown}: {status}"))
    }
}

/// The source tree, copied (Configure and make write into it).
fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let (path, dest) = (entry.path(), to.join(entry.file_name()));
        let kind = entry
            .file_type()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if kind.is_dir() {
            copy_tree(&path, &dest)?;
        } else {
            fs::copy(&path, &dest).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}
