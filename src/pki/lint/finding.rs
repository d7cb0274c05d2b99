//! What linting gives back: each [`Finding`] with its rule, its [`Level`], the source
//! and section it cites, the field and byte offset it is about; and, for a certificate,
//! the lints that could not run ([`NotRun`]), together a [`Report`].

/// How much a finding weighs: what the source says (MUST → error, SHOULD → warning,
/// MAY → notice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// A MAY, or what is worth knowing without being wrong.
    Notice,
    /// A SHOULD (or SHOULD NOT) not followed.
    Warning,
    /// A MUST (or MUST NOT) broken.
    Error,
}

impl Level {
    /// The level's name as the findings and `--fail-on` spell it: `error`, `warning`,
    /// `notice`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Notice => "notice",
        }
    }

    /// The level [`Level::name`] spells (`warn` too); `None` for anything else.
    pub fn from_name(s: &str) -> Option<Level> {
        Some(match s {
            "error" => Level::Error,
            "warning" | "warn" => Level::Warning,
            "notice" => Level::Notice,
            _ => return None,
        })
    }
}

/// One finding: a rule an object breaks, and where in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's stable name: `e_`/`w_`/`n_` by level, then the rule.
    pub lint: &'static str,
    /// How much it weighs.
    pub level: Level,
    /// Where the rule comes from: "RFC 5280 §4.1.2.2", "CA/B Forum TLS BR §6.3.2".
    pub source: &'static str,
    /// The field it is about, as parse's error paths name fields.
    pub path: String,
    /// Byte offset of that field in the object.
    pub offset: usize,
    /// One line saying what is wrong.
    pub message: String,
}

impl Finding {
    /// The finding as JSON (`lint`, `level`, `source`, `path`, `offset`, `message`): one
    /// item of `pkit lint -f json`'s `findings`, and what a CA records of the findings
    /// its gate let through.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "lint": self.lint,
            "level": self.level.name(),
            "source": self.source,
            "path": self.path,
            "offset": self.offset,
            "message": self.message,
        })
    }
}

/// A lint that applied but could not run: a part it needs did not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotRun {
    /// The lint's name.
    pub lint: &'static str,
    /// Why it did not run, e.g. "the subject did not decode".
    pub reason: String,
}

/// What linting one certificate found, and which lints could not run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The findings, in the order the lints ran.
    pub findings: Vec<Finding>,
    /// The lints that applied but did not run.
    pub not_run: Vec<NotRun>,
}

/// The findings at or above `level`.
pub fn at_least(findings: &[Finding], level: Level) -> impl Iterator<Item = &Finding> {
    findings.iter().filter(move |f| f.level >= level)
}
