//! `pkit lint`: what RFC 5280, RFC 2986, RFC 6960 and the CA/Browser Forum's Baseline
//! Requirements say of certificates, CRLs, OCSP responses and CSRs (the rules are
//! `pkit::lint`'s), for any number of files, as text, JSON or
//! a summary table; exit 1 when a finding reaches `--fail-on`.

use super::error::{CliError, CliResult, Exit};
use super::io::{self, InForm};
use super::output;
use clap::{Args, ValueEnum};
use pkit::lint::{lint_object, lints, CertType, Finding, Level, LintOptions, Rules};
use pkit::pki::backend::Backend;
use pkit::pki::detect::Kind;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Each file's findings, one line each.
    Text,
    /// One pkit/v1 envelope (type `lint`), an item per object.
    Json,
    /// One JSON object per object.
    Jsonl,
    /// A table of how often each lint fired, over all inputs.
    Summary,
}

#[derive(Args, Debug)]
pub struct LintArgs {
    /// Files or directories to lint; `-` (or nothing) reads stdin.
    pub inputs: Vec<PathBuf>,
    /// Read the files in directories, recursively; each distinct object found is linted
    /// once, under the first name it was found by (hash links and bundles repeat them).
    #[arg(short, long)]
    pub recursive: bool,
    /// Rule sets, comma-separated: rfc5280, cabf-tls-core (the Baseline Requirements'
    /// rules a private CA keeps: validity, keys, SANs, key usages), cabf-tls (all of
    /// them, for a publicly trusted CA), cabf-smime (the S/MIME BRs, for mailbox
    /// certificates), none.
    #[arg(long, default_value = "rfc5280,cabf-tls-core", value_parser = crate::cmd::values::RULE_SETS)]
    pub rules: Rules,
    /// Lint every certificate as this type instead of the one its contents say.
    #[arg(long = "as", value_name = "TYPE", value_parser = crate::cmd::values::CERT_TYPES)]
    pub as_type: Option<CertType>,
    /// Judge by the rules in force on this day (YYYY-MM-DD or RFC 3339) instead of those
    /// in force on each certificate's notBefore.
    #[arg(long, value_name = "DATE")]
    pub at: Option<String>,
    /// Exit 1 when a finding reaches this level.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// List the lints (name, object, level, rule set, source, in force since and until)
    /// and exit.
    #[arg(long)]
    pub list: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Notice,
}

impl FailOn {
    fn level(self) -> Level {
        match self {
            FailOn::Error => Level::Error,
            FailOn::Warning => Level::Warning,
            FailOn::Notice => Level::Notice,
        }
    }
}

impl LintArgs {
    pub fn wants_json(&self) -> bool {
        matches!(self.format, Format::Json | Format::Jsonl)
    }
}

/// One linted object and where it came from.
struct Linted {
    source: String,
    linted: pkit::lint::Linted,
}

impl std::ops::Deref for Linted {
    type Target = pkit::lint::Linted;
    fn deref(&self) -> &pkit::lint::Linted {
        &self.linted
    }
}

/// One finding as a text line.
pub fn finding_text(f: &Finding) -> String {
    format!(
        "{} {} ({}) at {}, offset {}: {}",
        f.level.name(),
        f.lint,
        f.source,
        f.path,
        f.offset,
        f.message
    )
}

pub fn run(be: &Backend, a: LintArgs) -> CliResult<Exit> {
    let rules = a.rules;
    if a.list {
        return list_lints();
    }
    let as_type = a.as_type;
    let at =
        a.at.as_deref()
            .map(|d| {
                let t = if d.len() == 10 {
                    pkit::der::Time::parse_rfc3339(&format!("{d}T00:00:00Z"))
                } else {
                    pkit::der::Time::parse_rfc3339(d)
                };
                t.map(|t| t.unix).ok_or_else(|| {
                    CliError::usage(format!(
                        "--at {d}: expected a date, YYYY-MM-DD or RFC 3339 (2026-01-02T03:04:05Z)"
                    ))
                })
            })
            .transpose()?;
    let opts = LintOptions { rules, as_type, at };
    let mut linted = Vec::new();
    // An input that does not parse is named on stderr and makes the run exit 3; the
    // others are still linted.
    let mut unreadable: Option<CliError> = None;
    let json = a.wants_json();
    let mut report = |e: CliError| {
        e.report(json);
        unreadable.get_or_insert(e);
    };
    // With -r each distinct object is linted once, under the first name it was found by:
    // a directory such as /etc/ssl/certs holds each root as a file, as hash links to it
    // and again in the bundle (parse --summary counts them alike). Files named one by one
    // are each linted: whoever names two copies asks about both.
    let mut seen = std::collections::HashSet::new();
    let mut again = 0usize;
    let named_paths: std::collections::HashSet<&PathBuf> = a.inputs.iter().collect();
    for path in io::collect_paths(&a.inputs, a.recursive)? {
        // Named on the command line (stdin included), as opposed to found with -r.
        let named = path.as_os_str() == "-" || named_paths.contains(&path);
        let src = io::read_source(&path)?;
        let (linted_before, mut refused) = (linted.len(), false);
        // Objects of kinds pkit does not lint (a key beside a certificate), said once the
        // file is done: skipped beside what was linted, an error when they were all a
        // named file held.
        let mut passed_over = Vec::new();
        for item in io::split_items(src, InForm::Auto) {
            if let (true, Ok(it)) = (a.recursive, &item) {
                if !seen.insert(it.der.clone()) {
                    again += 1;
                    continue;
                }
            }
            match item.map(|it| (lint_item(be, &it, &opts), it)) {
                Err(e) | Ok((Some(Err(e)), _)) => {
                    refused = true;
                    report(e)
                }
                Ok((Some(Ok(l)), _)) => linted.push(l),
                // DER of no known structure, named: most often a certificate cut short or
                // damaged past reading; what a certificate's decoder says of it (where,
                // and what it expected) is its error, exit 3. Found with -r, or a known
                // kind pkit does not lint (a key beside the certificate), it is skipped.
                Ok((None, it)) if named && Kind::of(it.label.as_deref(), &it.der) == Kind::Asn1 => {
                    let why = pkit::pki::cert::Certificate::from_der(&it.der).err();
                    refused = true;
                    report(match why {
                        Some(e) => CliError::der(&it.name, &e),
                        None => CliError::parse(format!(
                            "{}: not a certificate, CRL, OCSP response or CSR",
                            it.name
                        )),
                    });
                }
                Ok((None, it)) => passed_over.push(it.name),
            }
        }
        let nothing_linted = linted.len() == linted_before && !refused;
        match passed_over.first() {
            // A script that names a file and gets exit 0 must have had it checked.
            Some(first) if named && nothing_linted => report(CliError::parse(format!(
                "{first}: not a certificate, CRL, OCSP response or CSR: nothing in it to lint"
            ))),
            _ => {
                for name in passed_over {
                    note!(
                        "pkit: {name}: not a certificate, CRL, OCSP response or CSR (not linted)"
                    );
                }
            }
        }
    }
    if again > 0 {
        note!(
            "pkit: {again} object{} found again in the directories (links, bundles) and \
             linted once",
            if again == 1 { " was" } else { "s were" }
        );
    }
    print(&a, &rules, &linted)?;
    if let Some(e) = unreadable {
        return Err(CliError::new(
            e.exit,
            "inputs above could not be linted; the rest were",
        ));
    }
    let fails = linted
        .iter()
        .flat_map(|l| &l.findings)
        .any(|f| f.level >= a.fail_on.level());
    Ok(if fails { Exit::Negative } else { Exit::Ok })
}

/// Lint one object by its kind (`pkit::lint::lint_object`); `None` for a kind pkit does
/// not lint.
fn lint_item(be: &Backend, item: &io::Item, opts: &LintOptions) -> Option<CliResult<Linted>> {
    let kind = Kind::of(item.label.as_deref(), &item.der);
    let linted = lint_object(kind, &item.der, be, opts)?;
    Some(
        linted
            .map(|linted| Linted {
                source: item.name.clone(),
                linted,
            })
            .map_err(|e| CliError::der(&item.name, &e)),
    )
}

/// A day as RFC 3339, for the output.
fn day(unix: i64) -> String {
    pkit::der::Time { unix }.to_string()
}

fn item_json(l: &Linted, rules: &Rules) -> Value {
    let mut v = json!({
        "type": "lint",
        "source": l.source,
        "object": l.object,
    });
    match &l.cert_type {
        Some((t, why)) => {
            v["subject_dn"] = l.name.clone().into();
            v["serial_number"] = l.serial.clone().into();
            v["certificate_type"] = t.name().into();
            v["certificate_type_reason"] = why.clone().into();
            v["judged_at"] = l.judged_at.map(day).into();
        }
        None if l.object == "crl" => v["issuer_dn"] = l.name.clone().into(),
        None if l.object == "csr" => v["subject_dn"] = l.name.clone().into(),
        None => v["response_status"] = l.name.clone().into(),
    }
    let rest = json!({
        "rules": rules.name(),
        "errors": l.findings.iter().filter(|f| f.level == Level::Error).count(),
        "warnings": l.findings.iter().filter(|f| f.level == Level::Warning).count(),
        "notices": l.findings.iter().filter(|f| f.level == Level::Notice).count(),
        "findings": l.findings.iter().map(Finding::to_json).collect::<Vec<_>>(),
        "not_run": l
            .not_run
            .iter()
            .map(|n| json!({"lint": n.lint, "reason": n.reason}))
            .collect::<Vec<_>>(),
    });
    if let (Value::Object(m), Value::Object(r)) = (&mut v, rest) {
        m.extend(r);
    }
    v
}

fn print(a: &LintArgs, rules: &Rules, linted: &[Linted]) -> CliResult {
    let text = match a.format {
        Format::Json => output::json_text(&output::envelope(
            "lint",
            linted.iter().map(|l| item_json(l, rules)).collect(),
        )),
        Format::Jsonl => linted
            .iter()
            .map(|l| output::json_line(&item_json(l, rules)))
            .collect(),
        Format::Text => {
            let mut s = String::new();
            for l in linted {
                let what = match (&l.cert_type, l.object) {
                    (Some((t, why)), _) => format!("{}: {why}", t.name()),
                    (None, "crl") => "CRL".into(),
                    (None, "csr") => "CSR".into(),
                    (None, _) => "OCSP response".into(),
                };
                let _ = writeln!(
                    s,
                    "{}: {} ({what}), {}",
                    l.source,
                    if l.name.is_empty() {
                        "(empty name)"
                    } else {
                        &l.name
                    },
                    match l.findings.len() {
                        0 => "no findings".to_string(),
                        1 => "1 finding".to_string(),
                        n => format!("{n} findings"),
                    }
                );
                for f in &l.findings {
                    let _ = writeln!(s, "  {}", finding_text(f));
                }
                for n in &l.not_run {
                    let _ = writeln!(s, "  not run: {} ({})", n.lint, n.reason);
                }
            }
            s
        }
        Format::Summary => summary_table(linted),
    };
    io::write_text(None, false, &text)
}

fn summary_table(linted: &[Linted]) -> String {
    let mut by_lint: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for f in linted.iter().flat_map(|l| &l.findings) {
        *by_lint.entry((f.level.name(), f.lint)).or_default() += 1;
    }
    let clean = linted.iter().filter(|l| l.findings.is_empty()).count();
    let mut t = comfy_table::Table::new();
    t.set_header(["level", "lint", "certificates"]);
    for ((level, lint), n) in &by_lint {
        t.add_row([level.to_string(), lint.to_string(), n.to_string()]);
    }
    t.add_row([
        String::new(),
        "no findings".to_string(),
        format!("{clean} of {}", linted.len()),
    ]);
    format!("{t}\n")
}

fn list_lints() -> CliResult<Exit> {
    let mut t = comfy_table::Table::new();
    t.set_header([
        "lint", "object", "level", "rule set", "source", "since", "until",
    ]);
    let dated = |d: Option<pkit::lint::Dated>| {
        d.map_or_else(String::new, |d| format!("{} ({})", d.date, d.cite))
    };
    for l in lints() {
        t.add_row([
            l.name,
            l.object().name(),
            l.level.name(),
            l.set.name(),
            l.source,
            &dated(l.since),
            &dated(l.until),
        ]);
    }
    io::write_text(None, false, &format!("{t}\n"))?;
    Ok(Exit::Ok)
}
