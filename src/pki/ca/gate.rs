//! The lint gate (CA/B Forum TLS BR §4.3.1.2: a CA lints what it is about to sign): the
//! to-be-signed certificate is linted before the signature, and an error finding stops
//! it — nothing signed, recorded or written. `warn` lets it through with its findings;
//! `off` skips linting.

use super::store::LintOverrides;
use super::tbs;
use pkit_lint::{lint_parsed, Finding, Level, LintOptions, Rules};
use pkit_x509::alg::SignatureScheme;
use pkit_x509::cert::Certificate;

/// What the gate does with findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GateMode {
    /// An error finding refuses the certificate.
    #[default]
    Enforce,
    /// Findings are reported; nothing is refused.
    Warn,
    /// Nothing is linted.
    Off,
}

impl GateMode {
    /// The mode as `ca.json` and the command line spell it.
    pub fn name(self) -> &'static str {
        match self {
            GateMode::Enforce => "enforce",
            GateMode::Warn => "warn",
            GateMode::Off => "off",
        }
    }
}

/// A CA's lint gate: the rule sets it applies and what it does with findings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LintGate {
    /// The lint rule sets applied to each certificate.
    pub rules: Rules,
    /// What the findings do to the certificate.
    pub mode: GateMode,
}

/// Why the gate refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The findings that refused it (at least one error under `enforce`).
    pub findings: Vec<Finding>,
}

impl LintGate {
    /// Lint the CRL `tbs` would make (assembled with an empty signature), as
    /// [`LintGate::check`] does a certificate.
    pub fn check_crl(
        &self,
        tbs_der: &[u8],
        scheme: SignatureScheme,
    ) -> Result<Vec<Finding>, Refusal> {
        if self.mode == GateMode::Off {
            return Ok(Vec::new());
        }
        let der = tbs::assemble(tbs_der, scheme, &[]);
        let findings = match pkit_x509::crl::Crl::from_der(&der) {
            Ok(crl) => pkit_lint::lint_parsed_crl(
                &crl,
                &LintOptions {
                    rules: self.rules,
                    ..LintOptions::default()
                },
            ),
            Err(_) => vec![unreadable("tbsCertList")],
        };
        self.decide(findings)
    }

    /// Whether OCSP responses that stand `seconds` pass the gate: asked once, when a
    /// responder starts, since every response it signs stands that long.
    pub fn check_ocsp_lifetime(&self, seconds: i64) -> Result<Vec<Finding>, Refusal> {
        if self.mode == GateMode::Off {
            return Ok(Vec::new());
        }
        let opts = LintOptions {
            rules: self.rules,
            ..LintOptions::default()
        };
        self.decide(pkit_lint::ocsp_lifetime_findings(&opts, seconds))
    }

    fn decide(&self, findings: Vec<Finding>) -> Result<Vec<Finding>, Refusal> {
        if self.mode == GateMode::Enforce && findings.iter().any(|f| f.level == Level::Error) {
            return Err(Refusal { findings });
        }
        Ok(findings)
    }

    /// Lint the certificate `tbs` would make (assembled with an empty signature: the
    /// lints read the TBS). The findings, or the refusal.
    pub fn check(&self, tbs_der: &[u8], scheme: SignatureScheme) -> Result<Vec<Finding>, Refusal> {
        if self.mode == GateMode::Off {
            return Ok(Vec::new());
        }
        let der = tbs::assemble(tbs_der, scheme, &[]);
        let Ok(cert) = Certificate::from_der(&der) else {
            return Err(Refusal {
                findings: vec![unreadable("tbsCertificate")],
            });
        };
        // Today's rules, whatever notBefore the certificate is asked to have.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let findings = lint_parsed(
            &cert,
            &LintOptions {
                rules: self.rules,
                at: Some(now),
                ..LintOptions::default()
            },
        );
        self.decide(findings)
    }
}

/// pkit's own encoder made it; what it cannot read back is a bug the signature would
/// only hide.
fn unreadable(path: &str) -> Finding {
    Finding {
        lint: "e_pkit_tbs_unreadable",
        level: Level::Error,
        source: "pkit",
        path: path.into(),
        offset: 0,
        message: "what is to be signed does not parse back".into(),
    }
}

/// What the CA's records keep of the certificates signed past the gate (`--lint warn`
/// or `off`): each serial with what the gate found (its JSON), so that `issue list` says
/// so and a later `pkit lint` can be set beside it. Recorded with the certificates, in
/// their transaction ([`crate::store::CaStore::insert_with_overrides`] and the other
/// inserts); nothing when the gate enforced.
pub fn overrides<'a>(
    mode: GateMode,
    certs: impl IntoIterator<Item = (&'a [u8], &'a [Finding])>,
) -> LintOverrides {
    if mode == GateMode::Enforce {
        return LintOverrides::default();
    }
    LintOverrides {
        mode: mode.name().to_string(),
        certs: certs
            .into_iter()
            .map(|(serial, found)| override_row(serial, found))
            .collect(),
    }
}

/// One certificate's row of [`overrides`]: its serial and the findings' JSON (made on
/// the thread that signed it, in a batch).
pub fn override_row(serial: &[u8], found: &[Finding]) -> (Vec<u8>, String) {
    let list = found.iter().map(Finding::to_json).collect();
    (serial.to_vec(), serde_json::Value::Array(list).to_string())
}
