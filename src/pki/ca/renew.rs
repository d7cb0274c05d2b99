//! Renewing a certificate: what the new one takes from the one it replaces (subject,
//! extensions, SANs among them, profile, pathLenConstraint) and what it gets anew
//! (serial, validity, the CA's current pointers, perhaps a key); whether the old one is
//! due; that the CA issued it, which its records say; and the command run after a
//! renewal to deploy it ([`Renewed::command`]). `pkit issue renew` runs this.

use super::issuer::Request;
use super::profile::Profile;
use super::store::{CaStore, StoreError};
use crate::der::{hex, integer, Time};
use pkit_x509::alg::Algorithm;
use pkit_x509::cert::Certificate;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

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
            key_alg,
            path_len: self.path_len,
            copied: self.extensions.clone(),
            clip,
            ..Request::new(self.subject.clone(), spki, profile, not_before, not_after)
        }
    }
}

/// What a renewal made and wrote, as the command run after it is told (environment
/// variables: [`Renewed::environment`]).
#[derive(Debug, Clone)]
pub struct Renewed {
    /// The new certificate's serial number (content octets).
    pub serial: Vec<u8>,
    /// The serial of the certificate it replaces.
    pub replaces: Vec<u8>,
    /// The end of its validity.
    pub not_after: Time,
    /// Its subject, RFC 4514 (empty for an empty subject).
    pub subject: String,
    /// The file the certificate was written to (with `bundle`, followed by the chain);
    /// `None` when it went to standard output.
    pub cert: Option<PathBuf>,
    /// Whether `cert` holds the chain after the certificate.
    pub bundle: bool,
    /// The private key's file: the new key written, or the existing key certified.
    pub key: Option<PathBuf>,
    /// The CA's chain file, which the certificate is served with (none for a root's).
    pub chain: Option<PathBuf>,
    /// The PKCS#12 file written.
    pub pkcs12: Option<PathBuf>,
}

/// The variables a renewal's command is given, in the order the help lists them.
pub const ENVIRONMENT: [&str; 9] = [
    "PKIT_CERT",
    "PKIT_BUNDLE",
    "PKIT_KEY",
    "PKIT_CHAIN",
    "PKIT_P12",
    "PKIT_SERIAL",
    "PKIT_REPLACES",
    "PKIT_NOT_AFTER",
    "PKIT_SUBJECT",
];

impl Renewed {
    /// What the certificate `der`, which renews serial `replaces`, says of itself; no
    /// files yet.
    pub fn of(der: &[u8], replaces: &[u8]) -> crate::der::Result<Renewed> {
        let c = Certificate::from_der(der)?;
        let (_, not_after) = c.validity()?;
        Ok(Renewed {
            serial: integer::unsigned_bytes(c.serial).to_vec(),
            replaces: replaces.to_vec(),
            not_after,
            subject: c.subject.to_rfc4514()?,
            cert: None,
            bundle: false,
            key: None,
            chain: None,
            pkcs12: None,
        })
    }

    /// The environment of [`ENVIRONMENT`], each variable with its value or `None` when
    /// it does not apply (then it is removed from what the command inherits, so a stale
    /// value from the caller cannot mislead it). Serials are lowercase hex, the time RFC
    /// 3339; `PKIT_BUNDLE` is the same file as `PKIT_CERT`, set only when that file is
    /// a bundle.
    pub fn environment(&self) -> Vec<(&'static str, Option<OsString>)> {
        let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.clone().into_os_string());
        let text = |t: String| Some(OsString::from(t));
        let values = [
            path(&self.cert),
            path(&self.cert).filter(|_| self.bundle),
            path(&self.key),
            path(&self.chain),
            path(&self.pkcs12),
            text(hex(&self.serial)),
            text(hex(&self.replaces)),
            text(self.not_after.to_string()),
            text(self.subject.clone()),
        ];
        ENVIRONMENT.into_iter().zip(values).collect()
    }

    /// `sh -c COMMAND` with [`Renewed::environment`]; the caller chooses its standard
    /// streams and runs it. Through the shell, so that an operator writes what a cron
    /// line or a systemd `ExecStartPost` would (`systemctl reload nginx && …`).
    pub fn command(&self, command: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c").arg(command);
        for (name, value) in self.environment() {
            match value {
                Some(v) => c.env(name, v),
                None => c.env_remove(name),
            };
        }
        c
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

    #[test]
    fn the_command_after_a_renewal_is_told_what_was_written() {
        let be = openssl::backend();
        let key = be.generate(Algorithm::EcdsaP256).unwrap();
        let start = Time {
            unix: 1_800_000_000,
        };
        let der = self_signed(
            key.as_ref(),
            &name("svc"),
            start,
            start.plus_seconds(60),
            None,
        )
        .unwrap();
        let mut r = Renewed::of(&der, &[0x0a, 0xbc]).unwrap();
        assert_eq!(r.subject, "CN=svc");
        r.cert = Some("out/svc.pem".into());
        r.key = Some("out/svc.key".into());
        let env = r.environment();
        let get = |n: &str| {
            env.iter()
                .find(|(k, _)| *k == n)
                .unwrap()
                .1
                .as_ref()
                .map(|v| v.to_str().unwrap().to_string())
        };
        assert_eq!(get("PKIT_CERT").as_deref(), Some("out/svc.pem"));
        assert_eq!(get("PKIT_BUNDLE"), None);
        assert_eq!(get("PKIT_KEY").as_deref(), Some("out/svc.key"));
        assert_eq!(get("PKIT_P12"), None);
        assert_eq!(get("PKIT_REPLACES").as_deref(), Some("0abc"));
        assert_eq!(get("PKIT_SERIAL").unwrap(), hex(&r.serial));
        assert_eq!(
            get("PKIT_NOT_AFTER").as_deref(),
            Some("2027-01-15T08:01:00Z")
        );
        assert_eq!(env.len(), ENVIRONMENT.len());
        r.bundle = true;
        assert_eq!(
            r.environment()[1].1.as_deref(),
            Some(std::ffi::OsStr::new("out/svc.pem"))
        );

        // The shell runs it with those values; what does not apply is removed from what
        // it inherits.
        let mut c = r.command("echo \"$PKIT_CERT|$PKIT_SUBJECT\"; exit 3");
        assert!(c.get_envs().any(|(k, v)| k == "PKIT_P12" && v.is_none()));
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(3));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "out/svc.pem|CN=svc\n");
    }
}
