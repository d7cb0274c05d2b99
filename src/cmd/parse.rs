//! `pkit parse`: read any PKI object (or any ASN.1) from files, directories or stdin and
//! print it as text, JSON, an ASN.1 tree, or converted PEM/DER; `--summary` for stores.
//!
//! Items are parsed in parallel (rayon) and printed in input order. A bad item prints one
//! line on stderr (`FILE#N: offset N: what was expected`); the others still print; the exit
//! code is 3 if any item failed.

use super::ca_dir::parse_time;
use super::error::{CliError, CliResult, Exit};
use super::io::{self, InForm, Item, OutputOpts};
use super::output;
use clap::Args;
use pkit::der::Deviation;
use pkit::der::{tree, Time};
use pkit::describe::{self, Ctx, Described, Summary};
use pkit::pki::backend::Backend;
use pkit::pki::detect::{self, Kind};
use rayon::prelude::*;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Readable text (default).
    Text,
    /// One JSON document: {"schema":"pkit/v1","type":"parse","items":[…]}.
    Json,
    /// One JSON object per line.
    Jsonl,
    /// Re-encode as PEM (certificates and CRLs inside PKCS#7/PKCS#12 are extracted).
    Pem,
    /// Re-encode as DER: one object (several need --split; never to a terminal).
    Der,
    /// ASN.1 tree with offsets, lengths, tags and decoded values.
    Asn1,
    /// A table (with --summary).
    Table,
}

impl Format {
    pub fn is_json(self) -> bool {
        matches!(self, Format::Json | Format::Jsonl)
    }
}

#[derive(Args, Debug)]
#[command(after_help = super::error::EXIT_CODES_HELP)]
pub struct ParseArgs {
    /// Files or directories to read; `-` (or nothing) reads stdin.
    pub inputs: Vec<PathBuf>,

    /// Read the certificates a TLS server presents instead: connect to HOST[:PORT] (443
    /// by default), offering HOST as the server name.
    #[arg(long, value_name = "HOST[:PORT]", conflicts_with = "inputs")]
    pub connect: Option<String>,

    /// Read the files in directories, recursively.
    #[arg(short, long)]
    pub recursive: bool,

    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Input encoding; detected by default.
    #[arg(long, value_enum, default_value_t = InForm::Auto)]
    pub inform: InForm,

    /// Treat every input as this type instead of detecting it.
    #[arg(long = "type", value_name = "TYPE", value_parser = super::values::KINDS)]
    pub kind: Option<Kind>,

    /// Print counts and statistics for the whole input instead of each object.
    #[arg(long)]
    pub summary: bool,

    /// Password for PKCS#12 files and encrypted keys: pass:TEXT, env:VAR, file:PATH, fd:N.
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,

    /// Include private key material in the output (off by default).
    #[arg(long)]
    pub show_private: bool,

    /// Accept BER (non-minimal lengths, indefinite lengths, bad string characters…) and
    /// report each deviation as a warning instead of failing.
    #[arg(long)]
    pub lenient: bool,

    /// Judge validity at this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,

    /// Write output to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,

    /// With -f der or pem: one file per object, named after -o with its number before
    /// the extension (-o certs.der writes certs-1.der, certs-2.der …). DER holds one
    /// object per file, so -f der of several objects needs it.
    #[arg(long, requires = "out")]
    pub split: bool,
}

/// What became of one item.
struct Outcome {
    name: String,
    result: Result<Described, CliError>,
}

pub fn run(be: &Backend, a: ParseArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let forced = a.kind;
    let ctx = Ctx {
        now,
        show_private: a.show_private,
        password: a.passin.as_deref().map(io::read_secret).transpose()?,
        lenient: a.lenient,
        backend: be,
    };
    if a.format == Format::Table && !a.summary {
        return Err(CliError::usage("-f table goes with --summary"));
    }
    if a.split && !matches!(a.format, Format::Der | Format::Pem) {
        return Err(CliError::usage("--split goes with -f der or -f pem"));
    }

    let paths = match a.connect {
        Some(_) => Vec::new(),
        None => io::collect_paths(&a.inputs, a.recursive)?,
    };
    // Read every source; an unreadable file is an item-level failure like a bad parse.
    let mut items: Vec<Result<Item, CliError>> = Vec::new();
    if let Some(target) = &a.connect {
        let (name, ders) = super::connect::peer_chain(be, target)?;
        items.extend(ders.into_iter().enumerate().map(|(i, der)| {
            Ok(Item {
                name: format!("{name}#{}", i + 1),
                label: Some(Kind::Certificate.pem_label().into()),
                der,
            })
        }));
    }
    for p in &paths {
        match io::read_source(p) {
            // A checkpoint is a text note, not PEM or DER: it is one item as it stands.
            Ok(src) if detect::looks_like_note(&src.data) => items.push(Ok(Item {
                name: src.name,
                label: Some(Kind::Checkpoint.pem_label().into()),
                der: src.data,
            })),
            Ok(src) => items.extend(io::split_items(src, a.inform)),
            // A directory without -r is the command line's mistake, not an input's.
            Err(e) if e.exit == Exit::Usage => return Err(e),
            Err(e) => items.push(Err(e)),
        }
    }
    if items.is_empty() {
        return Err(CliError::parse("no objects found in the input"));
    }

    let asn1_only = a.format == Format::Asn1;
    let mut outcomes: Vec<Outcome> = items
        .into_par_iter()
        .map(|it| match it {
            Ok(item) => {
                let result = if asn1_only {
                    asn1_tree(&item, &ctx)
                } else {
                    describe_item(&item, forced, &ctx)
                };
                Outcome {
                    name: item.name,
                    result,
                }
            }
            Err(e) => Outcome {
                name: String::new(),
                result: Err(e),
            },
        })
        .collect();

    // A container whose contents stayed locked for want of a password: extracting them
    // (-f pem, -f der) fails as a file that did not decrypt does; describing it says
    // what is left out.
    let extracting = matches!(a.format, Format::Pem | Format::Der) && !a.summary;
    for o in &mut outcomes {
        let Ok(d) = &o.result else { continue };
        if let Some(why) = d.locked.clone() {
            if extracting {
                o.result = Err(CliError::parse(format!("{}: {why}", o.name)));
            } else {
                note!("pkit: {}: {why}", o.name);
            }
        }
    }
    let mut failed = 0usize;
    for o in &outcomes {
        match &o.result {
            Err(e) => {
                failed += 1;
                e.report(a.format.is_json());
            }
            Ok(d) => {
                for w in &d.warnings {
                    note!("pkit: {}: offset {}: warning: {}", o.name, w.offset, w.what);
                }
            }
        }
    }

    let opts = OutputOpts {
        path: a.out.as_deref(),
        force: a.force,
        private: a.show_private,
        binary: a.format == Format::Der,
    };
    if a.summary {
        io::write_output(&opts, &summary(&outcomes, &ctx, a.format)?)?;
    } else if a.format.is_json() {
        // Streamed: a large CRL's entries are printed as they are decoded.
        let ok: Vec<&Described> = outcomes
            .iter()
            .filter_map(|o| o.result.as_ref().ok())
            .collect();
        io::write_output_with(&opts, |w| match a.format {
            Format::Json => output::write_envelope(w, "parse", &ok),
            _ => ok.iter().try_for_each(|d| {
                serde_json::to_writer(&mut *w, d)?;
                w.write_all(b"\n")
            }),
        })?;
    } else if a.split {
        write_split(&outcomes, a.format, &opts)?;
    } else {
        let objects = outcomes
            .iter()
            .filter_map(|o| o.result.as_ref().ok())
            .map(|d| d.objects.len())
            .sum::<usize>();
        if a.format == Format::Der && objects > 1 {
            // Back-to-back DER is no format: nothing (pkit included) reads it back.
            return Err(CliError::usage(format!(
                "-f der: the input holds {objects} objects and DER holds one per file; \
                 add --split -o FILE to write one file each, or use -f pem"
            )));
        }
        for o in &mut outcomes {
            if let Ok(d) = &mut o.result {
                d.fill_deferred().map_err(|e| CliError::der(&o.name, &e))?;
            }
        }
        io::write_output(&opts, &render(&outcomes, a.format)?)?;
        // Objects re-encoded into a file are something made, said as every creating
        // command says it; a report written to -o is not.
        if let Some(form) = match a.format {
            Format::Der => Some("DER"),
            Format::Pem => Some("PEM"),
            _ => None,
        } {
            let what = match objects {
                1 => format!("{form} object"),
                n => format!("{n} {form} objects"),
            };
            let place = opts.path.filter(|p| p.as_os_str() != "-");
            if place.is_some() {
                super::created::say_created(what, place);
            }
        }
    }
    // An input that could not be read is an I/O failure (4), whatever else failed to parse.
    let io_failed = outcomes
        .iter()
        .any(|o| matches!(&o.result, Err(e) if e.exit == Exit::Io));
    // Items that failed only for want of an algorithm (legacy PKCS#12 ciphers) exit 5.
    let all_unsupported = outcomes
        .iter()
        .all(|o| !matches!(&o.result, Err(e) if e.exit != Exit::Unsupported));
    Ok(match (failed, io_failed) {
        (0, _) => Exit::Ok,
        (_, true) => Exit::Io,
        _ if all_unsupported => Exit::Unsupported,
        _ => Exit::Parse,
    })
}

/// Detect the type and describe the item.
fn describe_item(item: &Item, forced: Option<Kind>, ctx: &Ctx) -> Result<Described, CliError> {
    let kind = forced.unwrap_or_else(|| Kind::of(item.label.as_deref(), &item.der));
    let mut d = describe::describe(kind, &item.der, ctx).map_err(|e| failure(e, &item.name))?;
    d.set_source(&item.name);
    Ok(d)
}

/// The CLI error for an object of the input named `source` that could not be described.
fn failure(f: describe::Failure, source: &str) -> CliError {
    match f {
        describe::Failure::Der(e) => CliError::der(source, &e),
        describe::Failure::Backend(e) => {
            let mut c = CliError::from(e);
            c.message = format!("{source}: {}", c.message);
            c
        }
        _ => CliError::internal(format!("{source}: {f}")),
    }
}

/// The item's ASN.1 tree, and the BER deviations a lenient walk accepted.
fn walk(item: &Item, ctx: &Ctx) -> Result<(Vec<tree::Node>, Vec<Deviation>), CliError> {
    describe::with_reader(&item.der, ctx, tree::walk).map_err(|e| CliError::der(&item.name, &e))
}

/// `-f asn1`: the tree rendered as text, dumpasn1-style.
fn asn1_tree(item: &Item, ctx: &Ctx) -> Result<Described, CliError> {
    let (nodes, warnings) = walk(item, ctx)?;
    let mut s = String::new();
    let _ = writeln!(s, "{}:", item.name);
    for n in &nodes {
        let _ = write!(
            s,
            "{:>6} {:>4}+{:<5} {}{}{}",
            n.offset,
            n.header_len,
            n.content_len,
            "  ".repeat(n.depth),
            n.label,
            if n.indefinite { " (indefinite)" } else { "" }
        );
        if let Some(v) = &n.value {
            let _ = write!(s, " {v}");
        }
        s.push('\n');
    }
    let mut d = Described::new(Kind::Asn1, Value::String(s), &item.der);
    d.warnings = warnings;
    Ok(d)
}

/// `--split`: each object in a file of its own, numbered from 1 in input order, the
/// number before -o's extension. Every name is checked before the first is written, so a
/// refusal leaves nothing behind.
fn write_split(outcomes: &[Outcome], format: Format, opts: &OutputOpts<'_>) -> CliResult {
    let Some(out) = opts.path else {
        return Err(CliError::usage("--split needs -o FILE"));
    };
    let objects: Vec<_> = outcomes
        .iter()
        .filter_map(|o| o.result.as_ref().ok())
        .flat_map(|d| d.objects.iter())
        .collect();
    let name = |n: usize| {
        let stem = out.file_stem().unwrap_or_default().to_string_lossy();
        let file = match out.extension() {
            Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
            None => format!("{stem}-{n}"),
        };
        out.with_file_name(file)
    };
    let paths: Vec<PathBuf> = (1..=objects.len()).map(name).collect();
    let each: Vec<Option<&std::path::Path>> = paths.iter().map(|p| Some(p.as_path())).collect();
    super::created::check_free(&each, opts.force)?;
    for ((kind, der), path) in objects.into_iter().zip(&paths) {
        let bytes = match format {
            Format::Pem => io::pem_encode(kind.pem_label(), der).into_bytes(),
            _ => der.clone(),
        };
        let one = OutputOpts {
            path: Some(path),
            binary: false,
            ..*opts
        };
        io::write_output(&one, &bytes)?;
    }
    match paths.as_slice() {
        [] => {}
        [one] => super::created::say_created(format_args!("1 file"), Some(one)),
        [first, .., last] => super::created::say_created(
            format_args!(
                "{} files ({} … {})",
                paths.len(),
                first.display(),
                last.display()
            ),
            None,
        ),
    }
    Ok(())
}

fn render(outcomes: &[Outcome], format: Format) -> CliResult<Vec<u8>> {
    let ok = outcomes.iter().filter_map(|o| o.result.as_ref().ok());
    Ok(match format {
        Format::Text => {
            let mut s = String::new();
            for (i, d) in ok.enumerate() {
                if i > 0 {
                    s.push('\n');
                }
                s.push_str(&output::text(&d.json, d.kind.title()));
            }
            s.into_bytes()
        }
        Format::Asn1 => ok
            .filter_map(|d| d.json.as_str().map(str::to_string))
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
        // Streamed by the caller.
        Format::Json | Format::Jsonl => Vec::new(),
        Format::Pem => ok
            .flat_map(|d| d.objects.iter())
            .map(|(k, der)| io::pem_encode(k.pem_label(), der))
            .collect::<String>()
            .into_bytes(),
        Format::Der => ok
            .flat_map(|d| d.objects.iter())
            .flat_map(|(_, der)| der.clone())
            .collect(),
        Format::Table => Vec::new(),
    })
}

/// `--summary`: counts by type, key, signature algorithm; validity against `--now`
/// (`pkit::describe::Summary`, an object read twice counted once).
fn summary(outcomes: &[Outcome], ctx: &Ctx, format: Format) -> CliResult<Vec<u8>> {
    let described = outcomes.iter().filter_map(|o| o.result.as_ref().ok());
    let failures = outcomes.iter().filter(|o| o.result.is_err()).count();
    let s = Summary::of(described, failures, ctx.now);
    Ok(match format {
        Format::Json => {
            output::json_text(&output::envelope("summary", vec![s.to_json()])).into_bytes()
        }
        Format::Jsonl => output::json_line(&s.to_json()).into_bytes(),
        _ => summary_table(&s).into_bytes(),
    })
}

fn summary_table(s: &Summary) -> String {
    use comfy_table::Table;
    let mut t = Table::new();
    t.set_header(vec!["", "count"]);
    let row = |t: &mut Table, title: String, n: usize| {
        t.add_row(vec![title, n.to_string()]);
    };
    row(&mut t, "objects".into(), s.objects);
    row(&mut t, "duplicates (counted once)".into(), s.duplicates);
    row(&mut t, "failures".into(), s.failures);
    for (k, n) in &s.by_type {
        row(&mut t, format!("  type {k}"), *n);
    }
    row(&mut t, "certificates".into(), s.certificates);
    for (title, list) in [("key", &s.by_key), ("signature", &s.by_signature)] {
        for (name, n) in list {
            row(&mut t, format!("  {title} {name}"), *n);
        }
    }
    row(&mut t, "expired".into(), s.expired);
    row(&mut t, "not yet valid".into(), s.not_yet_valid);
    let time = |t: Option<Time>| t.map_or_else(|| "-".to_string(), |t| t.to_string());
    t.add_row(vec!["earliest expiry".to_string(), time(s.earliest_expiry)]);
    t.add_row(vec!["latest expiry".to_string(), time(s.latest_expiry)]);
    format!("{t}\n")
}
