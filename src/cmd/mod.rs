//! Command-line front end: the only place that reads arguments or prints. Each subcommand
//! lives in its own file with its own clap `Args`; this file holds the top-level command,
//! `--version`, and the error-to-exit-code mapping.

#![forbid(unsafe_code)]
// Every message goes through `note!` (stderr.rs) and every output through `io`, which
// keep a closed pipe from aborting the process.
#![deny(clippy::print_stderr, clippy::print_stdout)]

#[macro_use]
mod stderr;

pub mod acme;
pub mod bench;
pub mod ca;
pub mod ca_db;
pub mod ca_dir;
pub mod completions;
pub mod connect;
pub mod created;
pub mod crl;
pub mod error;
pub mod examples;
pub mod flags;
pub mod http_get;
pub mod io;
pub mod issue;
pub mod key;
pub mod key_file;
pub mod lint;
pub mod mtc;
pub mod ocsp;
pub mod outdir;
pub mod output;
pub mod p12;
pub mod parse;
pub mod request;
pub mod serve_args;
pub mod store_at;
pub mod token;
pub mod values;
pub mod verify;

use clap::{CommandFactory, Parser, Subcommand};
use error::{CliError, Exit};
use pkit::pki::backend::Backend;

const ABOUT: &str = "pkit: a PKI toolkit — parse, keys, issuance, revocation, OCSP and Merkle \
Tree Certificates, with ML-DSA";

#[derive(Parser, Debug)]
#[command(
    name = "pkit",
    about = ABOUT,
    after_help = error::EXIT_CODES_ALL_HELP,
    disable_version_flag = true,
    subcommand_required = false,
    arg_required_else_help = true
)]
pub struct Cli {
    /// Print pkit's version, the linked OpenSSL version and the algorithms available.
    #[arg(short = 'V', long)]
    pub version: bool,

    /// When to colour text output (never for JSON). NO_COLOR also turns it off.
    #[arg(long, global = true, value_enum, default_value_t = output::ColorChoice::Auto)]
    pub color: output::ColorChoice,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Read certificates, CSRs, CRLs, OCSP messages, PKCS#7, PKCS#12, keys or any ASN.1.
    Parse(parse::ParseArgs),
    /// Generate private keys and extract public keys.
    Key(key::KeyArgs),
    /// Issue certificates: CAs, CSRs, leaves, batches; the CA's state lives in ca.db.
    Issue(issue::IssueArgs),
    /// Revocation: revoke in a CA's ca.db, generate and verify CRLs, look serials up.
    Crl(crl::CrlArgs),
    /// OCSP: build requests, answer them from a CA's ca.db, verify responses, serve HTTP.
    Ocsp(ocsp::OcspArgs),
    /// Is a certificate to be trusted: build and validate its path to a trusted root
    /// (RFC 5280), with names, purposes, policies and revocation.
    Verify(verify::VerifyArgs),
    /// Check certificates, CRLs, OCSP responses and CSRs against RFC 5280 and the
    /// CA/Browser Forum Baseline Requirements (TLS and S/MIME): each finding with its
    /// rule, level, source, field and byte offset.
    Lint(lint::LintArgs),
    /// Serve ACME (RFC 8555) for a CA, so that a fleet's clients (certbot, lego, Caddy,
    /// cert-manager) get and renew certificates by themselves; inspect its accounts and
    /// orders.
    Acme(acme::AcmeArgs),
    /// Run a CA's public face: one server for every URL its certificates point to (OCSP,
    /// CRLs, issuer certificates), with health, metrics and ACME.
    Ca(ca::CaArgs),
    /// Merkle Tree Certificates: run an MTC CA, issue and verify MTC certificates.
    Mtc(mtc::MtcArgs),
    /// Measure the pipelines (X.509, OCSP, MTC), parsing and raw crypto on this machine.
    Bench(bench::BenchArgs),
    /// Print shell completions (bash, zsh, fish).
    Completions(completions::CompletionsArgs),
    /// Write man pages and completions into a directory (used to refresh man/ and
    /// completions/).
    #[command(hide = true, name = "gen-docs")]
    GenDocs(completions::GenDocsArgs),
}

/// The clap command tree (parsing, completions and man pages), every command of it ending
/// its help with the exit codes (those that explain their own keep theirs).
pub fn command() -> clap::Command {
    with_exit_codes(Cli::command())
}

fn with_exit_codes(c: clap::Command) -> clap::Command {
    let c = c.mut_subcommands(with_exit_codes);
    let c = if c.get_after_help().is_some() {
        c
    } else {
        c.after_help(error::EXIT_CODES_HELP)
    };
    // A long help of its own (`--help`, the man page) gets them too.
    match c.get_after_long_help().map(ToString::to_string) {
        Some(long) if !long.contains("Exit codes") => {
            c.after_long_help(format!("{long}\n\n{}", error::EXIT_CODES_HELP))
        }
        _ => c,
    }
}

/// Parse arguments, run, print any error, and return the exit code.
pub fn main() -> i32 {
    let parsed = command()
        .try_get_matches()
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return 0;
            }
            // The arguments did not parse, so what -f asked for is read from them as
            // they are: a script that asked for JSON gets its error as JSON too.
            if asks_for_json(std::env::args_os().skip(1)) {
                CliError::usage(clap_message(&e)).report(true);
            } else {
                let _ = e.print();
            }
            return Exit::Usage as i32;
        }
    };
    output::set_color(cli.color);
    file_size_limit_is_an_error();
    let json_errors = wants_json_errors(&cli);
    match run(cli) {
        Ok(exit) => exit as i32,
        Err(e) => {
            e.report(json_errors);
            e.exit as i32
        }
    }
}

/// Whether raw arguments ask for JSON output: `-f json`, `--format json`, `-fjson`,
/// `--format=json` (or `jsonl`).
fn asks_for_json(args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    let is_json = |v: &str| matches!(v, "json" | "jsonl");
    let mut format_next = false;
    for a in args {
        let a = a.to_string_lossy();
        if format_next && is_json(&a) {
            return true;
        }
        format_next = a == "-f" || a == "--format";
        if let Some(v) = a
            .strip_prefix("--format=")
            .or_else(|| a.strip_prefix("-f="))
            .or_else(|| a.strip_prefix("-f").filter(|v| !v.is_empty()))
        {
            if is_json(v) {
                return true;
            }
        }
    }
    false
}

/// A clap error as one line: what is wrong and the values that would do (its lines
/// before the usage), without clap's `error: ` prefix or styling.
fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let said: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    let line = said.join(" ");
    line.strip_prefix("error: ").unwrap_or(&line).to_string()
}

fn wants_json_errors(cli: &Cli) -> bool {
    match &cli.command {
        Some(Command::Parse(a)) => a.format.is_json(),
        Some(Command::Lint(a)) => a.wants_json(),
        Some(Command::Acme(a)) => a.wants_json(),
        Some(Command::Crl(a)) => crl::wants_json(a),
        Some(Command::Ocsp(o)) => match &o.command {
            ocsp::OcspCommand::Verify(v) => v.format == ocsp::VerifyFormat::Json,
            ocsp::OcspCommand::Request(r) => r.format.json(),
            ocsp::OcspCommand::Respond(r) => r.format.json(),
            _ => false,
        },
        Some(Command::Issue(i)) => issue::wants_json(i),
        Some(Command::Key(k)) => matches!(&k.command, key::KeyCommand::Gen(g) if g.format.json()),
        Some(Command::Mtc(m)) => m.wants_json(),
        Some(Command::Verify(v)) => v.wants_json(),
        Some(Command::Bench(b)) => b.common().format == bench::Format::Json,
        _ => false,
    }
}

fn run(cli: Cli) -> Result<Exit, CliError> {
    // The crypto backend, chosen once and handed down: OpenSSL (a key in a PKCS#11 token
    // brings its token's backend with it, and `bench --backend` picks its own).
    let backend = pkit::pki::backend::openssl::backend();
    if cli.version {
        io::write_text(None, false, &version_text(backend))?;
        return Ok(Exit::Ok);
    }
    match cli.command {
        Some(Command::Parse(a)) => parse::run(backend, a),
        Some(Command::Lint(a)) => lint::run(backend, a),
        Some(Command::Acme(a)) => acme::run(backend, a),
        Some(Command::Ca(a)) => ca::run(backend, a),
        Some(Command::Key(a)) => key::run(backend, a),
        Some(Command::Issue(a)) => issue::run(backend, a),
        Some(Command::Crl(a)) => crl::run(backend, a),
        Some(Command::Ocsp(a)) => ocsp::run(backend, a),
        Some(Command::Verify(a)) => verify::run(backend, a),
        Some(Command::Mtc(a)) => mtc::run(backend, a),
        Some(Command::Bench(a)) => bench::run(backend, a),
        Some(Command::Completions(a)) => completions::run(a, command()),
        Some(Command::GenDocs(a)) => completions::gen_docs(a, command()),
        None => Err(CliError::usage("no command given; see pkit --help")),
    }
}

/// `pkit --version`: pkit, the backend library, and which algorithms work in this build.
pub fn version_text(backend: &Backend) -> String {
    use pkit::pki::alg::Algorithm;
    let (yes, no): (Vec<Algorithm>, Vec<Algorithm>) =
        Algorithm::ALL.iter().partition(|a| backend.supports(**a));
    let names = |v: &[Algorithm]| v.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ");
    let mut s = format!(
        "pkit {}\n{}\nalgorithms: {}\n",
        env!("CARGO_PKG_VERSION"),
        backend.version(),
        names(&yes)
    );
    if !no.is_empty() {
        s.push_str(&format!(
            "unavailable (needs OpenSSL >= 3.5; build with `cargo xtask build --release`): {}\n",
            names(&no)
        ));
    }
    s
}

/// Under a file size limit (`ulimit -f`), a write past it raises SIGXFSZ, whose default
/// action kills the process mid-way with a core dump. Caught instead, the write fails
/// with EFBIG ("File too large"), which every output path already reports as one line
/// with exit 4, after rolling back what it had begun.
fn file_size_limit_is_an_error() {
    let _ = signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_asked_for_in_every_spelling() {
        let asks = |args: &[&str]| asks_for_json(args.iter().map(std::ffi::OsString::from));
        for yes in [
            &["verify", "-f", "json", "x"][..],
            &["lint", "--format", "jsonl"],
            &["parse", "-fjson"],
            &["issue", "list", "--format=json"],
            &["crl", "verify", "-f=json"],
        ] {
            assert!(asks(yes), "{yes:?}");
        }
        for no in [
            &["verify", "x"][..],
            &["verify", "-f", "text"],
            &["parse", "json"],
            &["issue", "cert", "--subject", "CN=json"],
            &["lint", "-f"],
        ] {
            assert!(!asks(no), "{no:?}");
        }
    }
}
