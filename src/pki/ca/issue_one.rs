//! One certificate issued and put on record: signed through [`Issuer::issue`] (policy,
//! chain, lint gate), then its row and what the gate let through committed in one
//! transaction — what `pkit issue cert`, `pkit issue renew`, an intermediate made by
//! `pkit issue ca --parent` and an ACME order's finalize all do.

use crate::issuer::{CaError, Issued, Issuer, Request};
use crate::store::{CaStore, StoreError};
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Signer;
use pkit_x509::cert::subject_dn;
use std::fmt;

/// What goes on record with a certificate besides what it says itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct RecordAs<'a> {
    /// The subject as the records show it; `None`: the certificate's subject as RFC 4514
    /// text.
    pub subject: Option<&'a str>,
    /// The serial of the certificate it renews, which the records link it to.
    pub renews: Option<&'a [u8]>,
}

/// Why a certificate was not issued and recorded.
#[derive(Debug)]
pub enum IssueError {
    /// Nothing was signed: the CA refused the request, or signing failed.
    Ca(CaError),
    /// It was signed, and the records refused it: it is not issued (no one was given it).
    Store(StoreError),
}

impl fmt::Display for IssueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IssueError::Ca(e) => write!(f, "{e}"),
            IssueError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for IssueError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IssueError::Ca(e) => Some(e),
            IssueError::Store(e) => Some(e),
        }
    }
}

impl From<CaError> for IssueError {
    fn from(e: CaError) -> Self {
        IssueError::Ca(e)
    }
}

impl Issuer {
    /// Sign `req` with `signer` ([`Issuer::issue`]) and record the certificate in `store`
    /// with what the lint gate let through, in one transaction ([`Issued::record_in`]):
    /// its profile and key algorithm as the request gives them (`other` for a key pkit
    /// does not make), its subject and renewal link as `record` says.
    pub fn issue_and_record(
        &self,
        signer: &mut dyn Signer,
        req: &Request,
        store: &mut dyn CaStore,
        record: RecordAs<'_>,
    ) -> Result<Issued, IssueError> {
        let issued = self.issue(signer, req)?;
        let subject = match record.subject {
            Some(s) => s.to_string(),
            None => subject_dn(&issued.der).unwrap_or_default(),
        };
        let alg = req.key_alg.map_or("other", Algorithm::name);
        issued
            .record_in(
                store,
                &issued.record(&subject, req.profile, alg),
                record.renews,
                self.gate.mode,
            )
            .map_err(IssueError::Store)?;
        Ok(issued)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::Time;
    use crate::issuer::self_signed;
    use crate::profile::Profile;
    use crate::store::SqliteCaStore;
    use pkit_openssl as openssl;
    use pkit_x509::san::parse_san;
    use pkit_x509::subject::parse_subject;

    fn request(ca: &Issuer, subject: &str, key_alg: Option<Algorithm>, now: Time) -> Request {
        let be = openssl::backend();
        let key = be.generate(Algorithm::Ed25519).unwrap();
        Request {
            key_alg,
            sans: vec![parse_san("DNS:www.example.com").unwrap().der],
            ..Request::new(
                parse_subject(subject).unwrap(),
                key.public_key_der().unwrap(),
                Profile::Server,
                now,
                now.plus_seconds(86_400).min(ca.not_after),
            )
        }
    }

    #[test]
    fn issued_then_recorded_with_its_subject_profile_and_renewal() {
        let be = openssl::backend();
        let now = Time::now();
        let key = be.generate(Algorithm::EcdsaP256).unwrap();
        let name = parse_subject("CN=Record CA").unwrap();
        let der = self_signed(
            key.as_ref(),
            &name,
            now,
            now.plus_seconds(86_400 * 30),
            None,
        );
        let ca = Issuer::new(der.unwrap(), key).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
        let mut signer = ca.key.signer().unwrap();

        let req = request(
            &ca,
            "O=Example,CN=www.example.com",
            Some(Algorithm::Ed25519),
            now,
        );
        let first = ca
            .issue_and_record(signer.as_mut(), &req, &mut store, RecordAs::default())
            .unwrap();
        let row = store.get(&first.serial).unwrap().unwrap();
        assert_eq!(row.subject, subject_dn(&first.der).unwrap());
        assert_eq!(
            (row.profile.as_str(), row.key_algorithm.as_str()),
            ("server", "ed25519")
        );
        assert_eq!(row.der, first.der);

        // A renewal, recorded under the subject given, for a key pkit did not make.
        let req = request(&ca, "CN=www.example.com", None, now);
        let as_given = RecordAs {
            subject: Some("CN=as typed"),
            renews: Some(&first.serial),
        };
        let second = ca
            .issue_and_record(signer.as_mut(), &req, &mut store, as_given)
            .unwrap();
        let row = store.get(&second.serial).unwrap().unwrap();
        assert_eq!(
            (row.subject.as_str(), row.key_algorithm.as_str()),
            ("CN=as typed", "other")
        );

        // Refused (a server certificate without a SAN): nothing signed, nothing recorded.
        let mut bad = request(&ca, "CN=www.example.com", None, now);
        bad.sans.clear();
        let e = ca
            .issue_and_record(signer.as_mut(), &bad, &mut store, RecordAs::default())
            .err()
            .unwrap();
        assert!(matches!(e, IssueError::Ca(_)), "{e}");
        assert_eq!(store.count().unwrap(), 2);

        // Renewing a serial the records do not have: signed, refused by the records.
        let req = request(&ca, "CN=www.example.com", None, now);
        let orphan = RecordAs {
            subject: None,
            renews: Some(&[9; 20]),
        };
        let e = ca
            .issue_and_record(signer.as_mut(), &req, &mut store, orphan)
            .err()
            .unwrap();
        assert!(matches!(e, IssueError::Store(_)), "{e}");
        assert_eq!(store.count().unwrap(), 2);
    }
}
