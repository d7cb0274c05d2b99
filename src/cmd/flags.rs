//! Flag groups several commands take, declared once and flattened into each: the
//! secrets that open a signing key, the CA that signs, and where output goes.

use super::ca_db::DbArgs;
use super::ca_dir::load_issuer;
use super::ca_dir::parse_time;
use super::error::{CliError, CliResult};
use clap::Args;
use pkit::der::Time;
use pkit::pki::backend::Backend;
use pkit::pki::ca::gate::GateMode;
use pkit::pki::ca::issuer::Issuer;
use pkit::pki::ca::pointers::{PointerNames, Pointers};
use pkit::pki::ca::profile::Profile;
use pkit::pki::ca::validity;
use std::path::PathBuf;

/// `--passin`, `--pin`: what opens the key that signs.
#[derive(Args, Debug, Clone, Default)]
pub struct KeySecretArgs {
    /// Password source of the signing key's file: pass:TEXT, env:VAR, file:PATH (first
    /// line) or fd:N.
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the
    /// key URI's pin-value or pin-source.
    #[arg(long, value_name = "SRC")]
    pub pin: Option<String>,
}

impl KeySecretArgs {
    pub fn passin(&self) -> Option<&str> {
        self.passin.as_deref()
    }

    pub fn pin(&self) -> Option<&str> {
        self.pin.as_deref()
    }
}

/// `--ca`, `--db`, `--passin`, `--pin`, `--lint`: the CA that signs, its records, its key
/// and its lint gate.
#[derive(Args, Debug, Clone)]
pub struct IssuingCaArgs {
    /// The issuing CA directory (ca.pem, ca.key, ca.db).
    #[arg(long)]
    pub ca: PathBuf,
    #[command(flatten)]
    pub db: DbArgs,
    #[command(flatten)]
    pub secrets: KeySecretArgs,
    #[command(flatten)]
    pub lint: LintGateArgs,
}

impl IssuingCaArgs {
    /// The CA's certificate and signing key, its gate set as asked.
    pub fn load(&self, be: &Backend) -> CliResult<Issuer> {
        let mut issuer = load_issuer(be, &self.ca, self.secrets.passin(), self.secrets.pin())?;
        issuer.gate.mode = self.lint.mode();
        Ok(issuer)
    }
}

/// `--lint enforce|warn|off`: what the lint gate does before the CA signs.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct LintGateArgs {
    /// Lint what is about to be signed with the CA's rule sets (ca.json `lint_rules`):
    /// enforce refuses it on an error finding (exit 1, nothing signed or written), warn
    /// signs and prints the findings, off does not lint.
    #[arg(long = "lint", value_enum, default_value_t = LintMode::Enforce)]
    pub lint: LintMode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LintMode {
    #[default]
    Enforce,
    Warn,
    Off,
}

impl LintGateArgs {
    pub fn mode(&self) -> GateMode {
        match self.lint {
            LintMode::Enforce => GateMode::Enforce,
            LintMode::Warn => GateMode::Warn,
            LintMode::Off => GateMode::Off,
        }
    }
}

/// `-o/--out`, `--force`: where the output goes.
#[derive(Args, Debug, Clone, Default)]
pub struct OutputArgs {
    /// Output file (default stdout).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// `--ocsp-url`, `--crl-url`, `--issuer-url`: where relying parties find revocation
/// data and the issuer's certificate (authorityInfoAccess, cRLDistributionPoints).
#[derive(Args, Debug, Clone, Default)]
pub struct PointerArgs {
    /// OCSP responder URL (http://…) put in authorityInfoAccess (repeatable).
    #[arg(long, value_name = "URL")]
    pub ocsp_url: Vec<String>,
    /// CRL URL (http://…) put in cRLDistributionPoints (repeatable).
    #[arg(long, value_name = "URL")]
    pub crl_url: Vec<String>,
    /// URL of the issuing CA's certificate (http://…, DER) put in authorityInfoAccess
    /// caIssuers (repeatable).
    #[arg(long, value_name = "URL")]
    pub issuer_url: Vec<String>,
}

impl PointerArgs {
    /// `base` with each kind of URL given here replacing that kind.
    pub fn over(&self, base: &Pointers) -> CliResult<Pointers> {
        let given = Pointers {
            ocsp: self.ocsp_url.clone(),
            ca_issuers: self.issuer_url.clone(),
            crl: self.crl_url.clone(),
        };
        let names = PointerNames {
            ocsp: "--ocsp-url",
            ca_issuers: "--issuer-url",
            crl: "--crl-url",
        };
        base.replaced_by(&given, &names)
            .map_err(|e| CliError::usage(e.0))
    }
}

/// `--days`, `--not-before`, `--not-after`, `--clip-validity`: a certificate's validity.
#[derive(Args, Debug, Clone, Default)]
pub struct ValidityArgs {
    /// Validity in days from not-before, counted as the CA/Browser Forum counts it (the
    /// last second is included). Default by profile: server and server-client 90 (never
    /// above the Baseline Requirements' maximum on the issuance date), client and
    /// code-signing 365, ocsp-signer 90, ca 1825.
    #[arg(long, conflicts_with = "not_after", value_parser = clap::value_parser!(u32).range(1..))]
    pub days: Option<u32>,
    /// End of validity (RFC 3339).
    #[arg(long, value_name = "TIME")]
    pub not_after: Option<String>,
    /// Start of validity (RFC 3339; default now).
    #[arg(long, value_name = "TIME")]
    pub not_before: Option<String>,
    /// Cut a validity that reaches past the issuing CA's to end with it, instead of
    /// refusing (exit 2).
    #[arg(long)]
    pub clip_validity: bool,
}

impl ValidityArgs {
    /// (not before, not after) for a certificate of `profile` issued at `now`
    /// (`pkit::pki::ca::validity::window`).
    pub fn window(&self, profile: Profile, now: Time) -> CliResult<(Time, Time)> {
        let not_before = parse_time("--not-before", &self.not_before)?;
        let not_after = parse_time("--not-after", &self.not_after)?;
        validity::window(profile, now, not_before, not_after, self.days).map_err(|e| {
            CliError::usage(format!(
                "--not-after {}: the validity would end before it starts ({})",
                e.not_after, e.not_before
            ))
        })
    }
}
