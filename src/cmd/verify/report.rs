//! One verdict as it is printed: the JSON object documented in docs/json.md, its text
//! lines, and the summary of many. Written straight from typed fields: for ten thousand
//! small chains, building `serde_json::Value` trees cost an eighth of the run.

use pkit::der::hex;
use pkit::pki::cert::Certificate;
use pkit::pki::verify::build::PathVerdict;
use pkit::pki::verify::pool::Pool;
use pkit::pki::verify::validate::{Check, Failure};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use sha2::Digest as _;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

/// One input's verdict, owning what it prints.
pub struct Report {
    pub input: String,
    pub chain: Vec<Arc<ChainEntry>>,
    pub result: Result<Vec<Check>, Failure>,
}

/// A certificate of the chosen chain as the report names it.
pub struct ChainEntry {
    subject: String,
    issuer: String,
    serial_number: String,
    sha256: String,
    not_after: String,
}

impl Report {
    pub fn new(input: String, verdict: PathVerdict<'_>, certs: &ChainEntries<'_, '_>) -> Report {
        Report {
            input,
            chain: verdict.chain.iter().map(|c| certs.of(c)).collect(),
            result: verdict.result,
        }
    }

    pub fn valid(&self) -> bool {
        self.result.is_ok()
    }

    /// The reason code of a failed verdict.
    pub fn reason(&self) -> Option<&'static str> {
        self.result.as_ref().err().map(|f| f.reason.code())
    }

    /// One compact JSON line.
    pub fn json_line(&self) -> String {
        let mut s = serde_json::to_string(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// The verdict line, then the chain, one certificate a line.
    pub fn text(&self) -> String {
        let mut s = String::with_capacity(256);
        let name = &self.input;
        match &self.result {
            Ok(checks) => {
                let _ = writeln!(s, "{name}: OK");
                // Which source vouched for each certificate, or that soft-fail let it pass.
                for c in checks.iter().filter(|c| c.name == "revocation") {
                    let _ = writeln!(s, "  revocation: {}", c.detail);
                }
            }
            Err(f) => {
                let at = f
                    .cert
                    .map_or_else(String::new, |i| format!(" (certificate {i})"));
                let _ = writeln!(s, "{name}: FAILED {}{at}: {}", f.reason.code(), f.detail);
            }
        }
        for (i, c) in self.chain.iter().enumerate() {
            let _ = writeln!(s, "  {i} {} (not after {})", c.subject, c.not_after);
        }
        s
    }
}

/// Field order and presence are the documented schema: `reason` is null on a valid
/// verdict, `detail` and `certificate` appear only on a failed one.
impl Serialize for Report {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        // `source`, as every other command's items name their file; `input`, its first
        // name, stays for v1 (nothing is renamed or removed within a schema).
        m.serialize_entry("source", &self.input)?;
        m.serialize_entry("input", &self.input)?;
        m.serialize_entry("valid", &self.valid())?;
        m.serialize_entry("reason", &self.reason())?;
        if let Err(f) = &self.result {
            m.serialize_entry("detail", &f.detail)?;
            m.serialize_entry("certificate", &f.cert)?;
        }
        m.serialize_entry("chain", &Chain(&self.chain))?;
        m.serialize_entry("checks", &Checks(&self.result))?;
        m.end()
    }
}

/// The chain's entries (shared with other reports, hence behind `Arc`s).
struct Chain<'a>(&'a [Arc<ChainEntry>]);

impl Serialize for Chain<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|c| &**c))
    }
}

/// The checks that passed, then (on a failed verdict) the one that failed.
struct Checks<'a>(&'a Result<Vec<Check>, Failure>);

impl Serialize for Checks<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let (passed, failed) = match self.0 {
            Ok(checks) => (checks, None),
            Err(f) => (&f.passed, Some(f)),
        };
        let mut q = s.serialize_seq(Some(passed.len() + usize::from(failed.is_some())))?;
        for c in passed {
            q.serialize_element(&CheckJson(c.name, c.ok, &c.detail))?;
        }
        if let Some(f) = failed {
            q.serialize_element(&CheckJson(f.reason.code(), false, &f.detail))?;
        }
        q.end()
    }
}

struct CheckJson<'a>(&'a str, bool, &'a str);

impl Serialize for CheckJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("name", self.0)?;
        m.serialize_entry("ok", &self.1)?;
        m.serialize_entry("detail", self.2)?;
        m.end()
    }
}

impl Serialize for ChainEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(5))?;
        m.serialize_entry("subject", &self.subject)?;
        m.serialize_entry("issuer", &self.issuer)?;
        m.serialize_entry("serial_number", &self.serial_number)?;
        m.serialize_entry("sha256", &self.sha256)?;
        m.serialize_entry("not_after", &self.not_after)?;
        m.end()
    }
}

/// Chain entries, remembered for the certificates of the pools: a root and an
/// intermediate stand in thousands of chains, and their names and fingerprint cost more
/// to write out than a path costs to check.
pub struct ChainEntries<'p, 'a> {
    pools: [&'p Pool<'a>; 2],
    known: Mutex<HashMap<usize, Arc<ChainEntry>>>,
}

impl<'p, 'a> ChainEntries<'p, 'a> {
    pub fn new(roots: &'p Pool<'a>, untrusted: &'p Pool<'a>) -> Self {
        ChainEntries {
            pools: [roots, untrusted],
            known: Mutex::new(HashMap::new()),
        }
    }

    fn of(&self, c: &Certificate<'_>) -> Arc<ChainEntry> {
        let pooled = self.pools.iter().any(|p| p.owns(c));
        if !pooled {
            return Arc::new(ChainEntry::of(c));
        }
        let at = c.raw.as_ptr() as usize;
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known
            .entry(at)
            .or_insert_with(|| Arc::new(ChainEntry::of(c)))
            .clone()
    }
}

impl ChainEntry {
    fn of(c: &Certificate<'_>) -> ChainEntry {
        ChainEntry {
            subject: c.subject.to_rfc4514().unwrap_or_default(),
            issuer: c.issuer.to_rfc4514().unwrap_or_default(),
            serial_number: c.serial_hex(),
            sha256: hex(&sha2::Sha256::digest(c.raw)),
            not_after: c
                .validity()
                .map(|(_, na)| na.to_string())
                .unwrap_or_default(),
        }
    }
}

/// Several inputs: the counts by outcome on stderr — one line a script can read, and on
/// a terminal a table of valid and invalid inputs by reason.
pub fn summary(reports: &[Report], table: bool) {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in reports {
        *counts.entry(r.reason().unwrap_or("valid")).or_default() += 1;
    }
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    note!("pkit: {} certificates: {}", reports.len(), parts.join(", "));
    if table {
        let mut t = comfy_table::Table::new();
        t.set_header(vec!["outcome", "certificates"]);
        let valid = counts.remove("valid").unwrap_or(0);
        t.add_row(vec!["valid".to_string(), valid.to_string()]);
        for (reason, n) in &counts {
            t.add_row(vec![format!("invalid: {reason}"), n.to_string()]);
        }
        note!("{t}");
    }
}
