//! `pkit parse --summary`: what a whole input holds, counted from its objects'
//! descriptions — how many of each type, the certificates' keys and signature
//! algorithms, how many are expired or not yet valid at a given time, the earliest and
//! latest expiry. A store read as files (/etc/ssl/certs: a hash link beside its file, a
//! bundle beside its parts) holds objects twice; each counts once.

use crate::der::Time;
use crate::model::Described;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};

/// The counts and statistics of one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Distinct objects described.
    pub objects: usize,
    /// Objects described that were the same as one before (the same DER), passed over.
    pub duplicates: usize,
    /// Items that could not be read or described.
    pub failures: usize,
    /// Distinct objects by type (`Kind::as_str`), in name order.
    pub by_type: BTreeMap<&'static str, usize>,
    /// The certificates found: the objects themselves or those containers hold.
    pub certificates: usize,
    /// The certificates by subject key ("EC P-256", "RSA 2048"), most first, then by name.
    pub by_key: Vec<(String, usize)>,
    /// The certificates by signature algorithm, most first, then by name.
    pub by_signature: Vec<(String, usize)>,
    /// Certificates whose notAfter is before `checked_at`.
    pub expired: usize,
    /// Certificates whose notBefore is after `checked_at`.
    pub not_yet_valid: usize,
    /// The earliest notAfter of the certificates.
    pub earliest_expiry: Option<Time>,
    /// The latest notAfter of the certificates.
    pub latest_expiry: Option<Time>,
    /// The time validity was judged at.
    pub checked_at: Time,
}

impl Summary {
    /// The summary of `described` (the objects of the input described, in input order)
    /// and `failures` (the items that were not), with validity judged at `now`.
    pub fn of<'a>(
        described: impl IntoIterator<Item = &'a Described>,
        failures: usize,
        now: Time,
    ) -> Summary {
        let mut seen: HashSet<Vec<&[u8]>> = HashSet::new();
        let mut parsed = 0usize;
        let distinct: Vec<&Described> = described
            .into_iter()
            .inspect(|_| parsed += 1)
            .filter(|d| seen.insert(d.objects.iter().map(|(_, der)| der.as_slice()).collect()))
            .collect();
        let mut by_type: BTreeMap<&'static str, usize> = BTreeMap::new();
        for d in &distinct {
            *by_type.entry(d.kind.as_str()).or_default() += 1;
        }
        let certs: Vec<_> = distinct.iter().flat_map(|d| d.certs.iter()).collect();
        let mut by_key: BTreeMap<&str, usize> = BTreeMap::new();
        let mut by_sig: BTreeMap<&str, usize> = BTreeMap::new();
        for c in &certs {
            *by_key.entry(&c.key).or_default() += 1;
            *by_sig.entry(&c.signature).or_default() += 1;
        }
        Summary {
            objects: distinct.len(),
            duplicates: parsed - distinct.len(),
            failures,
            by_type,
            certificates: certs.len(),
            by_key: most_first(by_key),
            by_signature: most_first(by_sig),
            expired: certs.iter().filter(|c| now > c.not_after).count(),
            not_yet_valid: certs.iter().filter(|c| now < c.not_before).count(),
            earliest_expiry: certs.iter().map(|c| c.not_after).min(),
            latest_expiry: certs.iter().map(|c| c.not_after).max(),
            checked_at: now,
        }
    }

    /// The summary as `parse --summary -f json` prints it (`"type": "summary"`).
    pub fn to_json(&self) -> Value {
        let counts = |list: &[(String, usize)]| -> Value {
            list.iter()
                .map(|(name, count)| json!({"name": name, "count": count}))
                .collect()
        };
        json!({
            "type": "summary",
            "objects": self.objects,
            "duplicates": self.duplicates,
            "failures": self.failures,
            "by_type": self.by_type,
            "certificates": self.certificates,
            "by_key": counts(&self.by_key),
            "by_signature_algorithm": counts(&self.by_signature),
            "expired": self.expired,
            "not_yet_valid": self.not_yet_valid,
            "earliest_expiry": self.earliest_expiry.map(|t| t.to_string()),
            "latest_expiry": self.latest_expiry.map(|t| t.to_string()),
            "checked_at": self.checked_at.to_string(),
        })
    }
}

/// Counts by name, the largest first and equal counts in name order.
fn most_first(counts: BTreeMap<&str, usize>) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = counts
        .into_iter()
        .map(|(name, n)| (name.to_string(), n))
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CertFacts;
    use pkit_x509::detect::Kind;

    fn at(unix: i64) -> Time {
        Time { unix }
    }

    /// A described certificate with these facts and DER.
    fn cert(der: &[u8], key: &str, sig: &str, not_before: i64, not_after: i64) -> Described {
        let mut d = Described::new(Kind::Certificate, Value::Null, der);
        d.certs.push(CertFacts {
            key: key.into(),
            signature: sig.into(),
            not_before: at(not_before),
            not_after: at(not_after),
        });
        d
    }

    #[test]
    fn counts_each_object_once_and_judges_validity_at_the_time_given() {
        let items = [
            cert(b"a", "EC P-256", "ecdsa-with-SHA256", 0, 100),
            cert(b"b", "RSA 2048", "sha256WithRSAEncryption", 0, 300),
            // The first one again (a hash link beside its file).
            cert(b"a", "EC P-256", "ecdsa-with-SHA256", 0, 100),
            cert(b"c", "EC P-256", "ecdsa-with-SHA256", 250, 400),
            Described::new(Kind::Crl, Value::Null, b"crl"),
        ];
        let s = Summary::of(&items, 2, at(200));
        assert_eq!((s.objects, s.duplicates, s.failures), (4, 1, 2));
        assert_eq!(s.by_type, BTreeMap::from([("certificate", 3), ("crl", 1)]));
        assert_eq!(s.certificates, 3);
        assert_eq!(
            s.by_key,
            [("EC P-256".to_string(), 2), ("RSA 2048".to_string(), 1)]
        );
        assert_eq!((s.expired, s.not_yet_valid), (1, 1));
        assert_eq!(
            (s.earliest_expiry, s.latest_expiry),
            (Some(at(100)), Some(at(400)))
        );
        let j = s.to_json();
        assert_eq!(j["type"], "summary");
        assert_eq!(j["by_type"]["crl"], 1);
        assert_eq!(j["by_signature_algorithm"][0]["name"], "ecdsa-with-SHA256");
        assert_eq!(j["by_signature_algorithm"][0]["count"], 2);
        assert_eq!(j["checked_at"], at(200).to_string());
    }

    #[test]
    fn equal_counts_go_by_name_and_nothing_has_no_expiry() {
        let items = [
            cert(b"1", "RSA 4096", "s", 0, 10),
            cert(b"2", "EC P-384", "s", 0, 10),
        ];
        let s = Summary::of(&items, 0, at(5));
        assert_eq!(s.by_key[0].0, "EC P-384");
        let empty = Summary::of(&[], 1, at(5));
        assert_eq!((empty.objects, empty.certificates), (0, 0));
        assert_eq!(empty.to_json()["earliest_expiry"], Value::Null);
    }
}
