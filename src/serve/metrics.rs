//! What `pkit ca serve` tells Prometheus at `/metrics` (the text exposition format,
//! written by the `prometheus-client` crate): requests and answers by route and status,
//! OCSP answers by certificate status, how long signing takes, and each CA's CRL: its
//! number, entries, age and the revocations it was made after.
//!
//! Counters and histograms are atomics the workers update without a lock; the CRL's age
//! is worked out when scraped, from the thisUpdate of the CRL served.

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

type Labels = Vec<(&'static str, String)>;

/// Signing latencies from 50 µs to about 1.6 s (an OCSP response is under a
/// millisecond; a million-entry CRL under a second).
fn latency_buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(0.000_05, 2.0, 16)
}

/// One server's metrics, shared by its workers.
pub struct Metrics {
    registry: Registry,
    requests: Family<Labels, Counter>,
    ocsp: Family<Labels, Counter>,
    ocsp_sign: Histogram,
    crl_sign: Family<Labels, Histogram>,
    crl_number: Family<Labels, Gauge>,
    crl_entries: Family<Labels, Gauge>,
    crl_age: Family<Labels, Gauge>,
    revocations: Family<Labels, Counter>,
    /// Per CA and CRL (`all`, or a shard's number): the served CRL's thisUpdate and the
    /// revocations counted so far.
    crls: Mutex<HashMap<(String, String), (i64, u64)>>,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// Every metric registered, at zero.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("pkit");
        let requests = Family::<Labels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route (ocsp, crl, ca_issuers, acme, health, metrics, none) and status code",
            requests.clone(),
        );
        let ocsp = Family::<Labels, Counter>::default();
        registry.register(
            "ocsp_responses",
            "OCSP answers by CA and status: each certificate an answer covers, good, revoked or unknown; a failed answer once, by its responseStatus",
            ocsp.clone(),
        );
        let ocsp_sign = Histogram::new(latency_buckets());
        registry.register(
            "ocsp_sign_seconds",
            "Time to answer an OCSP request that was signed (not served from the cache), look-up included",
            ocsp_sign.clone(),
        );
        let crl_sign =
            Family::<Labels, Histogram>::new_with_constructor(|| Histogram::new(latency_buckets()));
        registry.register(
            "crl_sign_seconds",
            "Time to build, lint and sign a CA's CRLs (all its shards in one walk), by CA and CRL (all, or the shard)",
            crl_sign.clone(),
        );
        let crl_number = Family::<Labels, Gauge>::default();
        registry.register(
            "crl_number",
            "cRLNumber of the CRL served, by CA",
            crl_number.clone(),
        );
        let crl_entries = Family::<Labels, Gauge>::default();
        registry.register(
            "crl_entries",
            "Revoked certificates listed in the CRL served, by CA",
            crl_entries.clone(),
        );
        let crl_age = Family::<Labels, Gauge>::default();
        registry.register(
            "crl_age_seconds",
            "Seconds since the thisUpdate of the CRL served, by CA",
            crl_age.clone(),
        );
        let revocations = Family::<Labels, Counter>::default();
        registry.register(
            "revocations",
            "Revocations recorded in the CA's records (by any process), as of its latest CRL",
            revocations.clone(),
        );
        Metrics {
            registry,
            requests,
            ocsp,
            ocsp_sign,
            crl_sign,
            crl_number,
            crl_entries,
            crl_age,
            revocations,
            crls: Mutex::new(HashMap::new()),
        }
    }

    /// One request answered.
    pub fn request(&self, route: &'static str, status: u16) {
        self.requests
            .get_or_create(&vec![
                ("route", route.to_string()),
                ("code", status.to_string()),
            ])
            .inc();
    }

    /// One OCSP answer, `status` as [`OcspOutcome`](crate::ocsp_http::OcspOutcome) has
    /// it (a status per certificate, comma-separated); `signed_in` when it was signed
    /// rather than served from the cache. Each certificate's status counts once under its
    /// own label: a label of the whole list would be a new series for every mix a client
    /// asks about, which a client could make without end (the series stay for good).
    pub fn ocsp_answer(&self, ca: &str, status: &str, signed_in: Option<Duration>) {
        // Counted here first: one look-up per status, not per certificate.
        let mut counts: Vec<(&str, u64)> = Vec::new();
        for one in status.split(',') {
            match counts.iter_mut().find(|(s, _)| *s == one) {
                Some((_, n)) => *n += 1,
                None => counts.push((one, 1)),
            }
        }
        for (one, n) in counts {
            self.ocsp
                .get_or_create(&vec![("ca", ca.to_string()), ("status", one.to_string())])
                .inc_by(n);
        }
        if let Some(d) = signed_in {
            self.ocsp_sign.observe(d.as_secs_f64());
        }
    }

    /// A CRL of `ca` is now served.
    pub fn crl_published(&self, ca: &str, crl: &pkit_ca::crl_publish::Published) {
        let scope = match crl.scope {
            pkit_ca::crl_generate::Scope::Whole => "all".to_string(),
            pkit_ca::crl_generate::Scope::Shard(k) => k.to_string(),
        };
        let labels = vec![("ca", ca.to_string()), ("crl", scope.clone())];
        self.crl_sign
            .get_or_create(&labels)
            .observe(crl.took.as_secs_f64());
        self.crl_number
            .get_or_create(&labels)
            .set(i64::try_from(crl.number).unwrap_or(i64::MAX));
        self.crl_entries
            .get_or_create(&labels)
            .set(i64::try_from(crl.entries).unwrap_or(i64::MAX));
        if let Ok(mut crls) = self.crls.lock() {
            let seen = crls.entry((ca.to_string(), scope)).or_insert((0, 0));
            if crl.scope == pkit_ca::crl_generate::Scope::Whole {
                // The records' count only grows; a CRL made from an older read adds
                // nothing. Counted once per CA, with its whole CRL.
                let more = crl.revocations.saturating_sub(seen.1);
                self.revocations
                    .get_or_create(&vec![("ca", ca.to_string())])
                    .inc_by(more);
                seen.1 += more;
            }
            seen.0 = crl.this_update;
        }
    }

    /// The text exposition at `now` (Unix seconds).
    pub fn encode(&self, now: i64) -> String {
        if let Ok(crls) = self.crls.lock() {
            for ((ca, crl), (this_update, _)) in crls.iter() {
                self.crl_age
                    .get_or_create(&vec![("ca", ca.clone()), ("crl", crl.clone())])
                    .set(now - this_update);
            }
        }
        let mut out = String::new();
        // Writing to a String does not fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

/// The media type of OpenMetrics, what Prometheus asks for first.
pub(crate) const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The media type of Prometheus's classic text format (0.0.4), for every other scraper.
pub(crate) const CLASSIC_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The exposition at `now` in the format an `Accept` header asks for: OpenMetrics when it
/// names it (Prometheus does, first), else the classic text format, as client_golang
/// negotiates: what curl, older Prometheus servers and the classic parsers read.
pub(crate) fn negotiate(m: &Metrics, now: i64, accept: Option<&str>) -> (&'static str, String) {
    let open = m.encode(now);
    if accept.is_some_and(|a| a.contains("application/openmetrics-text")) {
        (CONTENT_TYPE, open)
    } else {
        (CLASSIC_CONTENT_TYPE, classic(&open))
    }
}

/// OpenMetrics text as Prometheus's 0.0.4 format has it. The two differ, for what pkit
/// exposes (counters, gauges, histograms; no exemplars), in three things: a counter's
/// family is named with its `_total` suffix in HELP and TYPE, `unknown` is `untyped`, and
/// there are no `# UNIT` or `# EOF` lines.
fn classic(open: &str) -> String {
    let counters: std::collections::HashSet<&str> = open
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(open.len());
    for line in open.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        let meta = ["# HELP ", "# TYPE "]
            .into_iter()
            .find_map(|p| line.strip_prefix(p).map(|rest| (p, rest)));
        match meta {
            Some((p, rest)) => {
                let (name, tail) = rest.split_once(' ').unwrap_or((rest, ""));
                let name = if counters.contains(name) {
                    format!("{name}_total")
                } else {
                    name.to_string()
                };
                let tail = if p == "# TYPE " && tail == "unknown" {
                    "untyped"
                } else {
                    tail
                };
                out.push_str(format!("{p}{name} {tail}").trim_end());
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classic format names a counter's family as its samples are named, and has
    /// neither UNIT nor EOF lines; gauges and histograms are as in OpenMetrics.
    #[test]
    fn the_classic_format_names_counters_by_their_samples() {
        let m = Metrics::new();
        m.request("ocsp", 200);
        m.ocsp_answer("int", "good", Some(Duration::from_micros(300)));
        let (open_type, open) =
            negotiate(&m, 0, Some("application/openmetrics-text;version=1.0.0"));
        let (classic_type, text) = negotiate(&m, 0, Some("*/*"));
        assert!(open_type.starts_with("application/openmetrics-text"));
        assert!(classic_type.starts_with("text/plain; version=0.0.4"));
        assert!(
            open.ends_with("# EOF\n") && !text.contains("# EOF"),
            "{text}"
        );
        assert!(!text.contains("# UNIT "), "{text}");
        for line in text.lines().filter(|l| l.starts_with("# TYPE ")) {
            let mut parts = line.split(' ').skip(2);
            let (name, kind) = (parts.next().unwrap(), parts.next().unwrap());
            assert_eq!(kind == "counter", name.ends_with("_total"), "{line}");
            // Each family's samples carry its name (histograms: _bucket, _sum, _count).
            assert!(
                text.lines()
                    .any(|l| !l.starts_with('#') && l.starts_with(name)),
                "{line}"
            );
        }
        assert!(
            text.contains("# TYPE pkit_http_requests_total counter"),
            "{text}"
        );
    }

    #[test]
    fn counts_show_in_the_exposition() {
        let m = Metrics::new();
        m.request("ocsp", 200);
        m.request("ocsp", 200);
        m.ocsp_answer("int", "good", Some(Duration::from_micros(300)));
        // Several certificates in one answer: each counted under its own status.
        m.ocsp_answer("int", "good,revoked,good", None);
        let crl = pkit_ca::crl_publish::Published {
            scope: pkit_ca::crl_generate::Scope::Whole,
            der: Vec::new().into(),
            number: 7,
            this_update: 1000,
            next_update: 2000,
            entries: 3,
            took: Duration::from_millis(2),
            revocations: 5,
        };
        m.crl_published("int", &crl);
        m.crl_published("int", &crl);
        let text = m.encode(1010);
        for line in [
            "pkit_http_requests_total{route=\"ocsp\",code=\"200\"} 2",
            "pkit_ocsp_responses_total{ca=\"int\",status=\"good\"} 3",
            "pkit_ocsp_responses_total{ca=\"int\",status=\"revoked\"} 1",
            "pkit_crl_number{ca=\"int\",crl=\"all\"} 7",
            "pkit_crl_entries{ca=\"int\",crl=\"all\"} 3",
            "pkit_crl_age_seconds{ca=\"int\",crl=\"all\"} 10",
            "pkit_revocations_total{ca=\"int\"} 5",
            "pkit_ocsp_sign_seconds_count 1",
        ] {
            assert!(text.contains(line), "{line} not in\n{text}");
        }
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
