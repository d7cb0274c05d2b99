//! `pkit issue policy`: show, change or try a CA's policy on names (ca.json `allow` and
//! `deny`, [`pkit::pki::ca::policy`]), and `--allow`/`--deny` of `issue ca`.

use crate::cmd::ca_dir::{chain_to_anchor, load_settings};
use crate::cmd::created::{print_json, FormatArgs};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use clap::Args;
use pkit::pki::backend::Backend;
use pkit::pki::ca::policy::{NoSuchRule, Policy, PolicyChange, Rule};
use pkit::pki::ca::precheck::name_allowed;
use pkit::pki::ca::settings;
use pkit::pki::verify::preissue::PreIssue;
use serde_json::{json, Value};
use std::path::PathBuf;

/// `--allow`, `--deny`: the CA's rules on names.
#[derive(Args, Debug, Clone, Default)]
pub struct PolicyArgs {
    /// Names the CA may certify, beyond what its certificate's constraints say (kept in
    /// ca.json `allow`), repeatable: DNS:host.example (that name), DNS:*.corp.example
    /// (every name below corp.example), IP:10.0.0.0/8, IP:192.0.2.1, email:user@example,
    /// email:@corp.example (any mailbox there), email:@*.corp.example, URI:*.corp.example
    /// (the URI's host). Once there is an allow rule, every name in a certificate must
    /// match one of its type; a type no rule names is refused.
    #[arg(long, value_name = "TYPE:PATTERN")]
    pub allow: Vec<String>,
    /// Names it never certifies (ca.json `deny`), as --allow; a deny rule wins over
    /// every allow rule, and a wildcard name is refused when a name it covers is.
    #[arg(long, value_name = "TYPE:PATTERN")]
    pub deny: Vec<String>,
}

impl PolicyArgs {
    pub fn parse(&self) -> CliResult<Policy> {
        let rules = |flag: &str, list: &[String]| -> CliResult<Vec<Rule>> {
            list.iter()
                .map(|r| Rule::parse(r).map_err(|e| CliError::usage(format!("{flag} {e}"))))
                .collect()
        };
        Ok(Policy {
            allow: rules("--allow", &self.allow)?,
            deny: rules("--deny", &self.deny)?,
        })
    }
}

#[derive(Args, Debug)]
#[command(
    after_long_help = "Without a change, prints the policy (after checking ca.json: an \
edited file with a rule pkit cannot use is reported with its key and rule, exit 3). Rules \
take effect at the CA's next signature: `issue cert`, `batch`, `renew`, `ca --parent` and \
`acme serve` (which refuses an order naming a forbidden identifier with rejectedIdentifier) \
load them each time.\n\n--check NAME says whether the CA would certify a name: its policy, \
then the name constraints of its chain (exit 1 when any name is refused)."
)]
pub struct PolicyCmdArgs {
    /// The CA directory.
    #[arg(long, value_name = "DIR")]
    pub ca: PathBuf,
    #[command(flatten)]
    pub add: PolicyArgs,
    /// Remove this rule (as written) from whichever list holds it, repeatable.
    #[arg(long, value_name = "TYPE:PATTERN")]
    pub remove: Vec<String>,
    /// Remove every rule first.
    #[arg(long)]
    pub clear: bool,
    /// Whether the CA would certify this name (DNS:, IP:, email:, URI: as --san takes
    /// them), repeatable.
    #[arg(long, value_name = "TYPE:VALUE")]
    pub check: Vec<String>,
    #[command(flatten)]
    pub format: FormatArgs,
}

pub fn run_policy(be: &Backend, a: PolicyCmdArgs) -> CliResult<Exit> {
    let mut settings = load_settings(&a.ca)?;
    let change = PolicyChange {
        clear: a.clear,
        remove: a.remove.clone(),
        add: a.add.parse()?,
    };
    let changes = !change.is_empty();
    if changes {
        settings.policy.change(change).map_err(|NoSuchRule(r)| {
            CliError::usage(format!("--remove {r}: the CA's policy has no such rule"))
        })?;
        let file = a.ca.join(settings::FILE);
        settings.save(&a.ca).map_err(|e| io::file_err(&file, &e))?;
    }
    let checks = if a.check.is_empty() {
        Vec::new()
    } else {
        let chain = PreIssue::new(be, chain_to_anchor(&a.ca)?)
            .map_err(|r| CliError::negative(format!("the CA's chain: {r}")))?;
        a.check
            .iter()
            .map(|n| {
                let allowed = name_allowed(&settings.policy, &chain, n)
                    .map_err(|e| CliError::usage(format!("--check {e}")))?;
                Ok((n.clone(), allowed))
            })
            .collect::<CliResult<Vec<_>>>()?
    };
    let (allow, deny) = settings.policy.texts();
    if a.format.json() {
        let checked: Vec<Value> = checks
            .iter()
            .map(|(n, r)| match r {
                Ok(()) => json!({"name": n, "allowed": true, "reason": null, "detail": null}),
                Err(r) => {
                    json!({"name": n, "allowed": false, "reason": r.code, "detail": r.detail})
                }
            })
            .collect();
        print_json(
            "ca-policy",
            vec![
                json!({"type": "ca-policy", "ca": a.ca.display().to_string(), "allow": allow,
                        "deny": deny, "checks": checked}),
            ],
        )?;
    } else {
        if changes {
            note!("pkit: updated {}", a.ca.join(settings::FILE).display());
        }
        if checks.is_empty() {
            let mut out = String::new();
            if allow.is_empty() && deny.is_empty() {
                out.push_str("no policy: every name its chain allows\n");
            }
            for r in &allow {
                out.push_str(&format!("allow {r}\n"));
            }
            for r in &deny {
                out.push_str(&format!("deny {r}\n"));
            }
            io::write_text(None, false, &out)?;
        }
        let verdicts: String = checks
            .iter()
            .map(|(n, r)| match r {
                Ok(()) => format!("{n}: allowed\n"),
                Err(r) => format!("{n}: refused: {r}\n"),
            })
            .collect();
        io::write_text(None, false, &verdicts)?;
    }
    Ok(if checks.iter().any(|(_, r)| r.is_err()) {
        Exit::Negative
    } else {
        Exit::Ok
    })
}
