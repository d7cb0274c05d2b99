//! Shell completions and man pages, generated from the one clap definition so `--help`,
//! man pages and completions never disagree. `completions/` and `man/` in the repository
//! are refreshed with `pkit gen-docs .` and a test fails when they are stale.

use super::error::{CliError, CliResult, Exit};
use super::io::write_text;
use clap::Args;
use clap_complete::Shell;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to generate for.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Args, Debug)]
pub struct GenDocsArgs {
    /// Directory that receives man/ and completions/.
    pub dir: PathBuf,
}

/// Completions for `root`, pkit's whole command tree (handed in by the dispatcher, which
/// is what knows it).
pub fn run(a: CompletionsArgs, mut root: clap::Command) -> CliResult<Exit> {
    // Generated into memory and written like any other output: clap_complete panics on a
    // write error, and `pkit completions bash | head -1` closes the pipe early.
    let mut buf = Vec::new();
    clap_complete::generate(a.shell, &mut root, "pkit", &mut buf);
    let text = String::from_utf8(buf).map_err(|e| CliError::internal(e.to_string()))?;
    write_text(None, false, &text)?;
    Ok(Exit::Ok)
}

/// The shells whose completions are committed, with their file names.
pub const SHELLS: [(Shell, &str); 3] = [
    (Shell::Bash, "pkit.bash"),
    (Shell::Zsh, "_pkit"),
    (Shell::Fish, "pkit.fish"),
];

/// Man pages and completions for `root` under `a.dir`.
pub fn gen_docs(a: GenDocsArgs, root: clap::Command) -> CliResult<Exit> {
    let io = |p: &std::path::Path, e: std::io::Error| CliError::io_at(&p.display().to_string(), &e);
    let comp_dir = a.dir.join("completions");
    let man_dir = a.dir.join("man");
    for d in [&comp_dir, &man_dir] {
        std::fs::create_dir_all(d).map_err(|e| io(d, e))?;
    }
    for (shell, file) in SHELLS {
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut root.clone(), "pkit", &mut buf);
        let p = comp_dir.join(file);
        std::fs::write(&p, buf).map_err(|e| io(&p, e))?;
    }
    write_man(&root, "pkit", &man_dir)?;
    Ok(Exit::Ok)
}

/// One page per command and subcommand: pkit.1, pkit-parse.1, pkit-key-gen.1 …
fn write_man(cmd: &clap::Command, name: &str, dir: &std::path::Path) -> CliResult {
    let cmd = cmd.clone().name(name.to_string());
    let path = name.replace('-', " ");
    let mut buf = Vec::new();
    render_man(&cmd, &path, &mut buf).map_err(|e| CliError::io(format!("man page {name}: {e}")))?;
    let p = dir.join(format!("{name}.1"));
    std::fs::write(&p, once_preamble(&buf))
        .map_err(|e| CliError::io_at(&p.display().to_string(), &e))?;
    for sub in visible_subcommands(&cmd) {
        write_man(sub, &format!("{name}-{}", sub.get_name()), dir)?;
    }
    Ok(())
}

/// The subcommands a page lists (not the hidden ones, not `help`).
fn visible_subcommands(cmd: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    cmd.get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
}

/// A page as clap_mangen lays it out, and what a man page reader looks for beside it:
/// each subcommand's synopsis under the command's own, the notes of the long help,
/// EXAMPLES (`examples.rs`) and EXIT STATUS, one entry per code.
fn render_man(cmd: &clap::Command, path: &str, w: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Write;
    // Without clap's `help` subcommand, which has no page of its own to point to; the
    // title names the package and its version, as man(7) asks of .TH's source.
    let man = clap_mangen::Man::new(cmd.clone().disable_help_subcommand(true))
        .source(format!("pkit {}", env!("CARGO_PKG_VERSION")))
        .manual("pkit manual");
    man.render_title(w)?;
    man.render_name_section(w)?;
    man.render_synopsis_section(w)?;
    for sub in visible_subcommands(cmd) {
        let usage = sub
            .clone()
            .bin_name(format!("{path} {}", sub.get_name()))
            .render_usage()
            .to_string();
        let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage);
        let at = [" [", " <", " -"]
            .iter()
            .filter_map(|m| usage.find(m))
            .min()
            .unwrap_or(usage.len());
        let (bin, rest) = usage.split_at(at);
        writeln!(w, ".br\n\\fB{}\\fR{}", roff(bin), roff(rest))?;
    }
    man.render_description_section(w)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(w)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(w)?;
    }
    let after = cmd
        .get_after_long_help()
        .or_else(|| cmd.get_after_help())
        .map(ToString::to_string)
        .unwrap_or_default();
    let (exit, notes): (Vec<&str>, Vec<&str>) = after
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .partition(|p| p.starts_with("Exit codes"));
    if !notes.is_empty() {
        writeln!(w, ".SH NOTES")?;
        for (i, p) in notes.iter().enumerate() {
            if i > 0 {
                writeln!(w, ".PP")?;
            }
            for line in p.lines() {
                writeln!(w, "{}", roff(line))?;
            }
        }
    }
    let examples = super::examples::of(path);
    if !examples.is_empty() {
        writeln!(w, ".SH EXAMPLES")?;
        for (what, line) in &examples {
            if !what.is_empty() {
                writeln!(w, ".PP\n{}:", roff(what))?;
            }
            writeln!(w, ".RS 4\n.nf\n{}\n.fi\n.RE", roff(line))?;
        }
    }
    for p in exit {
        writeln!(w, ".SH \"EXIT STATUS\"")?;
        let list = p
            .trim_start_matches("Exit codes")
            .trim_start_matches(':')
            .trim();
        for item in list.trim_end_matches('.').split(" · ") {
            match item.split_once(' ') {
                Some((code, meaning)) if code.chars().all(|c| c.is_ascii_digit()) => {
                    writeln!(w, ".TP\n{}\n{}", roff(code), roff(meaning))?;
                }
                _ => writeln!(w, ".PP\n{}", roff(item))?,
            }
        }
    }
    if cmd.get_version().is_some() {
        man.render_version_section(w)?;
    }
    Ok(())
}

/// The page with clap_mangen's preamble (the `Aq` string defined for groff and others)
/// once, at the top, rather than before each section rendered on its own.
fn once_preamble(page: &[u8]) -> Vec<u8> {
    const PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";
    let text = String::from_utf8_lossy(page);
    let body = text.replace(PREAMBLE, "");
    format!("{PREAMBLE}{body}").into_bytes()
}

/// Text as a roff line shows it: backslashes and hyphens escaped, and a line that would
/// start with a control character guarded.
fn roff(text: &str) -> String {
    let escaped = text
        .replace('\\', "\\e")
        .replace('-', "\\-")
        .replace('\'', "\\(aq");
    if escaped.starts_with('.') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
