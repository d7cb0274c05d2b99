//! Renewing a certificate: what the new one takes from the one it replaces (subject,
//! extensions, SANs among them, profile, pathLenConstraint) and what it gets anew
//! (serial, validity, the CA's current pointers, perhaps a key); whether the old one is
//! due; and that the CA issued it, which its records say. `pkit issue renew` runs this.

use super::issuer::Request;
use super::profile::Profile;
use super::store::{CaStore, StoreError};
use crate::der::{integer, Time};
use pkit_x509::alg::Algorithm;
use pkit_x509::cert::Certificate;

/// Why a certificate cannot be renewed by this CA.
#[non_exhaustive]
#[derive(Debug)]
pub enum RenewError {
    /// The CA's records have no certificate with its serial, or another one.
    NotIssued,
    /// The records give it a profile this pkit does not know (this name).
    UnknownProfile(String),
    /// The records could not be read.
    Store(StoreError),
}

impl std::fmt::Display for RenewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenewError::NotIssued => f.write_str("not a certificate this CA issued"),
            RenewError::UnknownProfile(p) => {
                write!(f, "the records give it the unknown profile '{p}'")
            }
            RenewError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RenewError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RenewError::Store(e) => Some(e),
            RenewError::NotIssued | RenewError::UnknownProfile(_) => None,
        }
    }
}

/// A certificate to renew, as read from it.
#[derive(Debug, Clone)]
pub struct Renewal {
    /// The certificate's DER.
    pub der: Vec<u8>,
    /// Its serial number's content octets: what the renewal's record replaces.
    pub serial: Vec<u8>,
    /// The end of its validity.
    pub not_after: Time,
    /// Its subject Name DER, which the renewal keeps.
    pub subject: Vec<u8>,
    /// Every extension it carries, copied into the renewal (the key identifiers and
    /// pointers are the new certificate's own).
    pub extensions: Vec<(Vec<u8>, Vec<u8>)>,
    /// Its pathLenConstraint, which a renewed CA certificate keeps.
    pub path_len: Option<u32>,
    /// The algorithm of its key, when pkit makes such keys: a new key's by default.
    pub key_alg: Option<Algorithm>,
}

impl Renewal {
    /// What renewing `old` takes from it.
    pub fn of(old: &Certificate<'_>) -> crate::der::Result<Renewal> {
        let (_, not_after) = old.validity()?;
        let extensions = match &old.extensions {
            Some(x) => x.raw_elements()?,
            None => Vec::new(),
        };
        Ok(Renewal {
            der: old.raw.to_vec(),
            serial: integer::unsigned_bytes(old.serial).to_vec(),
            not_after,
            subject: old.subject.raw.to_vec(),
            extensions,
            path_len: old
                .basic_constraints()
                .and_then(|b| b.path_len_constraint)
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
            key_alg: Algorithm::from_spki(old.spki.raw),
        })
    }

    /// Whether it is due at `now`: always without a `window` (seconds), else when it
    /// ends within that window.
    pub fn is_due(&self, now: Time, window: Option<i64>) -> bool {
        window.is_none_or(|w| self.not_after.unix <= now.unix.saturating_add(w))
    }

    /// Its profile, from the records of the CA that issued it: refused when the records
    /// do not hold this very certificate.
    pub fn profile_in(&self, store: &dyn CaStore) -> Result<Profile, RenewError> {
        let rec = store
            .get(&self.serial)
            .map_err(RenewError::Store)?
            .filter(|r| r.der == self.der)
            .ok_or(RenewError::NotIssued)?;
        Profile::from_name(&rec.profile).ok_or(RenewError::UnknownProfile(rec.profile))
    }

    /// The renewal's request: its subject and extensions, for `spki` (of `key_alg`),
    /// valid from `not_before` to `not_after` (cut to the CA's with `clip`).
    pub fn request(
        &self,
        profile: Profile,
        spki: Vec<u8>,
        key_alg: Option<Algorithm>,
        (not_before, not_after): (Time, Time),
        clip: bool,
    ) -> Request {
        Request {
            subject: self.subject.clone(),
            spki,
            key_alg,
            profile,
            sans: Vec::new(),
            not_before,
            not_after,
            path_len: self.path_len,
            copied: self.extensions.clone(),
            pointers: None,
            name_constraints: None,
            clip,
            copied_wins: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issuer::self_signed;
    use crate::store::SqliteCaStore;
    use pkit_openssl as openssl;

    fn name(cn: &str) -> Vec<u8> {
        let mut w = crate::der::Writer::new();
        w.sequence(|w| {
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(&crate::der::oid_registry::AT_COMMON_NAME);
                    w.utf8_string(cn);
                });
            });
        });
        w.finish()
    }

    #[test]
    fn a_renewal_keeps_what_the_old_certificate_said() {
        let be = openssl::backend();
        let key = be.generate(Algorithm::EcdsaP256).unwrap();
        let start = Time {
            unix: 1_800_000_000,
        };
        let end = start.plus_seconds(86_400 * 30);
        let der = self_signed(key.as_ref(), &name("old"), start, end, Some(2)).unwrap();
        let old = Certificate::from_der(&der).unwrap();
        let r = Renewal::of(&old).unwrap();
        assert_eq!(r.not_after, end);
        assert_eq!(r.path_len, Some(2));
        assert_eq!(r.key_alg, Some(Algorithm::EcdsaP256));
        assert_eq!(r.subject, old.subject.raw);
        assert!(!r.extensions.is_empty());

        // Due when it ends within the window, or whenever without one.
        assert!(r.is_due(start, None));
        assert!(!r.is_due(start, Some(86_400 * 29)));
        assert!(r.is_due(start, Some(86_400 * 30)));

        let window = (end, end.plus_seconds(86_400));
        let req = r.request(Profile::Ca, b"spki".to_vec(), None, window, true);
        assert_eq!(req.subject, r.subject);
        assert_eq!(req.copied, r.extensions);
        assert_eq!(req.path_len, Some(2));
        assert_eq!((req.not_before, req.not_after), window);
        assert!(req.clip && req.sans.is_empty() && req.pointers.is_none());
    }

    #[test]
    fn only_what_the_records_hold_is_renewed() {
        let be = openssl::backend();
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
        let key = be.generate(Algorithm::EcdsaP256).unwrap();
        let now = Time {
            unix: 1_800_000_000,
        };
        let der = self_signed(key.as_ref(), &name("a"), now, now.plus_seconds(60), None).unwrap();
        let r = Renewal::of(&Certificate::from_der(&der).unwrap()).unwrap();
        assert!(matches!(r.profile_in(&store), Err(RenewError::NotIssued)));
        let mut row = crate::store::CertRecord {
            serial: r.serial.clone(),
            subject: "CN=a".into(),
            not_before: now.unix,
            not_after: r.not_after.unix,
            profile: "ca".into(),
            key_algorithm: "ecdsa-p256".into(),
            status: "valid".into(),
            issued_at: now.unix,
            der: der.clone(),
        };
        store.insert_certificates(&[row.clone()]).unwrap();
        assert_eq!(r.profile_in(&store).unwrap(), Profile::Ca);

        // Another certificate under the same serial is not this one.
        let other = Renewal {
            der: b"another".to_vec(),
            ..r.clone()
        };
        assert!(matches!(
            other.profile_in(&store),
            Err(RenewError::NotIssued)
        ));

        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
        row.profile = "teapot".into();
        store.insert_certificates(&[row]).unwrap();
        assert!(matches!(
            r.profile_in(&store),
            Err(RenewError::UnknownProfile(p)) if p == "teapot"
        ));
    }
}
