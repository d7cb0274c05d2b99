//! What a CA has issued, as `pkit issue list` shows it: each certificate with its state
//! at a given time (expired is a valid certificate past its end), the renewals that link
//! it to others and what the lint gate let through for it, and which of them a filter
//! (a state, the renewal horizon) selects.

use super::store::{CaStore, CertRecord, Result};
use crate::der::Time;
use std::collections::HashMap;

/// A certificate's state at a given time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Issued, not revoked, not past its end.
    Valid,
    /// Revoked.
    Revoked,
    /// Past its end and not revoked.
    Expired,
}

impl State {
    /// The state as listings spell it.
    pub fn name(self) -> &'static str {
        match self {
            State::Valid => "valid",
            State::Revoked => "revoked",
            State::Expired => "expired",
        }
    }
}

/// The state of `rec` at `now`, as listings spell it: its recorded status (`valid`,
/// `revoked`), `expired` for a valid one past its end.
pub fn status_at(rec: &CertRecord, now: Time) -> &str {
    match rec.status.as_str() {
        "valid" if rec.not_after < now.unix => State::Expired.name(),
        s => s,
    }
}

/// Which certificates a listing shows; all by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only those in this state.
    pub state: Option<State>,
    /// Only those still valid that end by this time (Unix seconds): the renewal list.
    pub expiring_by: Option<i64>,
}

impl Filter {
    /// Whether `rec` is shown at `now`.
    pub fn selects(&self, rec: &CertRecord, now: Time) -> bool {
        let status = status_at(rec, now);
        let wanted = self.state.is_none_or(|s| status == s.name());
        let expiring = self
            .expiring_by
            .is_none_or(|h| status == State::Valid.name() && rec.not_after <= h);
        wanted && expiring
    }
}

/// One certificate of a listing.
#[derive(Debug, Clone)]
pub struct Listed {
    /// Its record.
    pub record: CertRecord,
    /// Its state at the listing's time ([`status_at`]).
    pub status: String,
    /// The serial of the certificate it renewed, if it is a renewal.
    pub replaces: Option<Vec<u8>>,
    /// The serial of the certificate that renewed it, if any.
    pub replaced_by: Option<Vec<u8>>,
    /// Signed past the lint gate (`--lint warn|off`): the mode and the findings (JSON).
    pub lint: Option<(String, String)>,
}

/// The certificates in `store` that `filter` selects at `now`, in the order issued.
pub fn list(store: &dyn CaStore, filter: &Filter, now: Time) -> Result<Vec<Listed>> {
    let rows = store.list()?;
    let renewals = store.renewals()?;
    let overrides = store.lint_overrides()?;
    let past_gate: HashMap<&[u8], (&str, &str)> = overrides
        .iter()
        .map(|(serial, mode, found)| (serial.as_slice(), (mode.as_str(), found.as_str())))
        .collect();
    let replaced_by: HashMap<&[u8], &[u8]> = renewals
        .iter()
        .map(|(new, old)| (old.as_slice(), new.as_slice()))
        .collect();
    let replaces: HashMap<&[u8], &[u8]> = renewals
        .iter()
        .map(|(new, old)| (new.as_slice(), old.as_slice()))
        .collect();
    Ok(rows
        .into_iter()
        .filter(|r| filter.selects(r, now))
        .map(|r| {
            let link = |m: &HashMap<&[u8], &[u8]>| m.get(r.serial.as_slice()).map(|s| s.to_vec());
            Listed {
                status: status_at(&r, now).to_string(),
                replaces: link(&replaces),
                replaced_by: link(&replaced_by),
                lint: past_gate
                    .get(r.serial.as_slice())
                    .map(|(mode, found)| (mode.to_string(), found.to_string())),
                record: r,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{LintOverrides, SqliteCaStore};

    fn rec(serial: u8, not_after: i64) -> CertRecord {
        CertRecord {
            serial: vec![serial; 20],
            subject: format!("CN={serial}"),
            not_before: 0,
            not_after,
            profile: "server".into(),
            key_algorithm: "ecdsa-p256".into(),
            status: "valid".into(),
            issued_at: 0,
            der: vec![0x30, 0],
        }
    }

    fn serials(list: &[Listed]) -> Vec<u8> {
        list.iter().map(|l| l.record.serial[0]).collect()
    }

    #[test]
    fn states_filters_and_links() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
        // 1 expired at 100, 2 ends at 1000, 3 (revoked) at 1000, 4 renews 2, ends at 5000
        // and was signed past the gate.
        s.insert_certificates(&[rec(1, 99), rec(2, 1000), rec(3, 1000)])
            .unwrap();
        s.revoke(&[3; 20], 50, None).unwrap();
        let past = LintOverrides {
            mode: "warn".into(),
            certs: vec![(vec![4; 20], "[]".into())],
        };
        s.insert_renewal(&rec(4, 5000), &[2; 20], &past).unwrap();
        let now = Time { unix: 100 };

        let all = list(&s, &Filter::default(), now).unwrap();
        assert_eq!(serials(&all), [1, 2, 3, 4]);
        let status: Vec<&str> = all.iter().map(|l| l.status.as_str()).collect();
        assert_eq!(status, ["expired", "valid", "revoked", "valid"]);
        assert_eq!(all[1].replaced_by.as_deref(), Some(&[4; 20][..]));
        assert_eq!(all[3].replaces.as_deref(), Some(&[2; 20][..]));
        assert_eq!(all[3].lint, Some(("warn".into(), "[]".into())));
        assert_eq!(all[0].lint, None);

        let only = |state| Filter {
            state: Some(state),
            expiring_by: None,
        };
        assert_eq!(
            serials(&list(&s, &only(State::Valid), now).unwrap()),
            [2, 4]
        );
        assert_eq!(serials(&list(&s, &only(State::Revoked), now).unwrap()), [3]);
        assert_eq!(serials(&list(&s, &only(State::Expired), now).unwrap()), [1]);
        // The renewal list: valid, ending by the horizon (the revoked one is not renewed).
        let expiring = Filter {
            state: None,
            expiring_by: Some(1000),
        };
        assert_eq!(serials(&list(&s, &expiring, now).unwrap()), [2]);
    }
}
