//! `pkit issue policy`: show, change or try a CA's policy on names (ca.json `allow` and
//! `deny`, [`pkit::pki::ca::policy`]), and `--allow`/`--deny` of `issue ca`.

use crate::cmd::ca_dir::{chain_to_anchor, load_settings};
use crate::cmd::created::{print_json, FormatArgs};
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io;
use clap::Args;
use pkit::pki::backend::Backend;
use pkit::pki::ca::policy::{Policy, Rule};
use pkit::pki::ca::precheck::names_allowed;
use pkit::pki::ca::settings;
use pkit::pki::san::parse_san;
use pkit::pki::verify::preissue::{PreIssue, Refusal};
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
    let adding = a.add.parse()?;
    let changes = a.clear || !a.remove.is_empty() || !adding.is_empty();
    if changes {
        let policy = &mut settings.policy;
        if a.clear {
            *policy = Policy::default();
        }
        for r in &a.remove {
            if !policy.remove(r) && !a.clear {
                return Err(CliError::usage(format!(
                    "--remove {r}: the CA's policy has no such rule"
                )));
            }
        }
        policy.merge(adding);
        io::write_file_atomic(
            &a.ca.join(settings::FILE),
            settings.to_json().as_bytes(),
            true,
            false,
        )?;
    }
    let checks = if a.check.is_empty() {
        Vec::new()
    } else {
        let chain = PreIssue::new(be, chain_to_anchor(&a.ca)?)
            .map_err(|r| CliError::negative(format!("the CA's chain: {r}")))?;
        a.check
            .iter()
            .map(|n| Ok((n.clone(), check_name(&settings.policy, &chain, n)?)))
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
            eprintln!("pkit: updated {}", a.ca.join(settings::FILE).display());
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
        for (n, r) in &checks {
            match r {
                Ok(()) => println!("{n}: allowed"),
                Err(r) => println!("{n}: refused: {r}"),
            }
        }
    }
    Ok(if checks.iter().any(|(_, r)| r.is_err()) {
        Exit::Negative
    } else {
        Exit::Ok
    })
}

/// Whether a certificate naming `name` in its SAN (and nothing in its subject) would
/// pass the policy and the chain's name constraints.
fn check_name(policy: &Policy, chain: &PreIssue, name: &str) -> CliResult<Result<(), Refusal>> {
    let san = parse_san(name).map_err(|e| CliError::usage(format!("--check {e}")))?;
    Ok(names_allowed(
        policy,
        Some(chain),
        &[0x30, 0x00],
        &[san.der],
    ))
}
