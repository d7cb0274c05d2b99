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
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut buf)
        .map_err(|e| CliError::io(format!("man page {name}: {e}")))?;
    let p = dir.join(format!("{name}.1"));
    std::fs::write(&p, buf).map_err(|e| CliError::io_at(&p.display().to_string(), &e))?;
    for sub in cmd.get_subcommands() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        write_man(sub, &format!("{name}-{}", sub.get_name()), dir)?;
    }
    Ok(())
}
