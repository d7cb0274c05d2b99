//! Merkle Tree Certificates through ACME (`acme serve --mtc DIR`, draft-ietf-plants-
//! merkle-tree-certs-07): finalize appends the order's entry to the MTC CA's issuance log
//! and leaves the order `processing` (with Retry-After); once a checkpoint covers the
//! entry, the next look at the order makes its standalone certificate and the order
//! `valid`. When a landmark covers the entry too, the certificate's download names the
//! landmark-relative certificate as an `alternate` (RFC 8555 §7.4.2), made on request.
//! Clients that know nothing of MTC poll as RFC 8555 §7.4 tells them to, and get the
//! standalone certificate.
//!
//! The log is checkpointed (and landmarks allocated) by [`spawn_checkpointer`], one
//! thread per server; with several servers on one PostgreSQL database the store lets one
//! lead at a time, and any server makes any order's certificate.

use crate::csr::{subject_and_sans, CheckedCsr};
use crate::problem::Problem;
use pkit_der::Time;
use pkit_mtc::add::{entry_valid, EntryRequest};
use pkit_mtc::cert::serial_number;
use pkit_mtc::ids::TrustAnchorId;
use pkit_mtc::issuer::{
    allocate_landmark_if_due, checkpoint_witnessed, issue, CheckpointResult, MtcCa, Witnessed,
};
use pkit_mtc::landmark::landmark_for;
use pkit_mtc::store::{CertKind, LogStore};
use pkit_mtc::MtcError;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

/// The MTC CA an ACME server issues from.
#[derive(Debug, Clone)]
pub struct MtcLog {
    /// The MTC CA's trust anchor ID.
    pub ca_id: TrustAnchorId,
    /// The current issuance log's number.
    pub log: u16,
    /// Days an order's certificate is valid when no profile says.
    pub days: u32,
    /// Seconds between checkpoints: what a client polling a processing order is told to
    /// wait (Retry-After).
    pub checkpoint_every: u64,
    /// The MTC CA certificate (§5.5) as PEM, served after each certificate as its chain
    /// (RFC 8555 §7.4.2: the issuer follows; certbot refuses a chain of one).
    pub ca_pem: String,
}

/// What a certificate's download serves: the certificate, then the MTC CA certificate.
pub(crate) fn chain_pem(log: &MtcLog, der: &[u8]) -> String {
    let mut pem = pkit_x509::der::pem::encode("CERTIFICATE", der);
    pem.push_str(&log.ca_pem);
    pem
}

impl MtcLog {
    /// The log's trust anchor ID, dotted, as orders record it.
    pub fn log_id(&self) -> String {
        self.ca_id.log_id(self.log).dotted().to_string()
    }

    /// The entry an order recorded, when it is in this log.
    pub fn entry_of(&self, o: &crate::store::Order) -> Result<Option<u64>, Problem> {
        let (Some(log), Some(index)) = (&o.mtc_log, o.mtc_index) else {
            return Ok(None);
        };
        if *log != self.log_id() {
            return Err(Problem::server(format!(
                "the order's certificate is entry {index} of MTC log {log}; this server \
                 issues from log {}",
                self.log_id()
            )));
        }
        Ok(u64::try_from(index).ok())
    }
}

fn store_problem(e: MtcError) -> Problem {
    Problem::server(format!("the MTC log: {e}"))
}

/// Append the entry of a certificate for `names` to `key`, valid over `validity`; its
/// index in the log.
pub(crate) fn append(
    store: &mut dyn LogStore,
    log: &MtcLog,
    names: &BTreeSet<(String, String)>,
    key: &CheckedCsr,
    validity: (Time, Time),
) -> Result<u64, Problem> {
    let (subject, sans) = subject_and_sans(names)?;
    let req = EntryRequest {
        subject,
        spki: key.spki.clone(),
        sans,
        copied: Vec::new(),
        days: 0,
    };
    let entry = entry_valid(&log.ca_id.to_name_der(), validity, &req).map_err(|e| match e {
        MtcError::Malformed { .. } | MtcError::Invalid(_) => {
            Problem::new("badCSR", 400, format!("the MTC log entry: {e}"))
        }
        other => store_problem(other),
    })?;
    store.append_entries(&[entry]).map_err(store_problem)
}

/// The serial number (hex, as the ACME state keys certificates) of entry `index`.
pub(crate) fn serial_hex(log: &MtcLog, index: u64) -> Result<String, Problem> {
    let serial = serial_number(log.log, index).map_err(store_problem)?;
    Ok(pkit_der::hex(pkit_der::integer::unsigned_bytes(
        &serial.to_be_bytes(),
    )))
}

/// The certificate of `kind` for entry `index`, made from the log as it is now and
/// recorded in it; `None` while no checkpoint (standalone) or active landmark
/// (landmark-relative) covers the entry.
pub(crate) fn certificate(
    store: &mut dyn LogStore,
    log: &MtcLog,
    index: u64,
    kind: CertKind,
    now: u64,
) -> Result<Option<Vec<u8>>, Problem> {
    if !available(store, index, kind, now)? {
        return Ok(None);
    }
    let made = issue(&*store, log.log, index, kind, now).map_err(store_problem)?;
    store
        .record_issued(&[made.proof], std::slice::from_ref(&made.certificate))
        .map_err(store_problem)?;
    Ok(Some(made.certificate.der))
}

/// Whether a certificate of `kind` can be made for entry `index` now.
pub(crate) fn available(
    store: &mut dyn LogStore,
    index: u64,
    kind: CertKind,
    now: u64,
) -> Result<bool, Problem> {
    // What covers the entry is read first, the log's size after: a checkpoint or
    // landmark committed in between covers entries this store has seen, never ones past
    // its size (from which no proof could be made).
    let covered = match kind {
        CertKind::Standalone => store
            .latest_checkpoint()
            .map_err(store_problem)?
            .is_some_and(|c| c.size > index),
        CertKind::Landmark => {
            landmark_for(&store.landmarks().map_err(store_problem)?, index, now).is_some()
        }
    };
    store.refresh().map_err(store_problem)?;
    Ok(covered)
}

/// When the checkpointer signs and allocates.
#[derive(Debug, Clone, Copy)]
pub struct Schedule {
    /// Between checkpoints (each signs whatever was appended since the last).
    pub checkpoint_every: Duration,
    /// Between landmarks, and how long each stays active (seconds); `None`: landmarks are
    /// allocated by hand (`pkit mtc landmark allocate`). Checked at each checkpoint
    /// against the log's last landmark, so servers sharing a log allocate one per period.
    pub landmarks: Option<(Duration, u64)>,
}

/// What the checkpointer reports, one JSON object per event.
pub(crate) type Report = Arc<dyn Fn(Value) + Send + Sync>;

/// Run after each checkpoint the checkpointer records: publish the log (into a bucket,
/// `acme serve --mtc-to`). What it did, for the report, or why it failed; a failure costs
/// the next checkpoint's run a longer catch-up, never the checkpoint.
pub type Publish = Box<dyn FnMut(&dyn LogStore) -> Result<Value, String> + Send>;

/// Run between signing a checkpoint and recording it: ask witnesses (`acme serve
/// --mtc-witness`), the lines to add to its note and the subtree cosignatures, or an
/// error, and then the checkpoint is not recorded
/// ([`pkit_mtc::issuer::checkpoint_witnessed`]).
pub type Witness =
    Box<dyn FnMut(&dyn LogStore, &CheckpointResult, &MtcCa) -> pkit_mtc::Result<Witnessed> + Send>;

/// What the checkpointer does besides signing.
#[derive(Default)]
pub struct Hooks {
    /// Ask witnesses before a checkpoint is recorded.
    pub witness: Option<Witness>,
    /// Publish the log after a checkpoint is recorded.
    pub publish: Option<Publish>,
}

/// Start the thread that checkpoints the log on `schedule` (when anything was appended)
/// and allocates landmarks. It runs as long as the process.
pub fn spawn_checkpointer(
    mut store: Box<dyn LogStore>,
    ca: MtcCa,
    schedule: Schedule,
    now: fn() -> u64,
    report: Report,
    hooks: Hooks,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let Hooks {
        mut witness,
        mut publish,
    } = hooks;
    std::thread::Builder::new()
        .name("mtc-checkpoints".into())
        .spawn(move || loop {
            std::thread::sleep(schedule.checkpoint_every);
            let made = checkpoint_witnessed(&mut *store, &ca, now(), &mut |log, r| match witness
                .as_mut()
            {
                Some(w) => w(log, r, &ca),
                None => Ok(Witnessed::default()),
            });
            match made {
                Ok(r) => {
                    report(json!({
                        "event": "mtc_checkpoint",
                        "tree_size": r.checkpoint.size,
                        "previous_size": r.previous_size,
                    }));
                    if let Some(p) = publish.as_mut() {
                        report(match p(&*store) {
                            Ok(done) => json!({"event": "mtc_publish", "published": done}),
                            Err(e) => json!({"event": "mtc_publish", "error": e}),
                        });
                    }
                }
                Err(MtcError::NothingNew { .. }) => {}
                Err(e) => report(json!({"event": "mtc_checkpoint", "error": e.to_string()})),
            }
            let Some((every, lifetime)) = schedule.landmarks else {
                continue;
            };
            match allocate_landmark_if_due(&mut *store, now(), every.as_secs(), lifetime) {
                Ok(Some(l)) => report(json!({
                    "event": "mtc_landmark",
                    "number": l.number,
                    "tree_size": l.tree_size,
                    "expiry": l.expiry,
                })),
                Ok(None) => {}
                Err(e) => report(json!({"event": "mtc_landmark", "error": e.to_string()})),
            }
        })
}

/// What an ACME server issuing Merkle Tree Certificates starts from (`acme serve --mtc
/// DIR`): the MTC CA's log, opened, the CA with its cosigner key, and what the server is
/// told to do with them.
pub struct MtcStart {
    /// The MTC CA's log, which the checkpointer signs (the handlers open their own).
    pub store: Box<dyn LogStore>,
    /// The MTC CA, whose cosigner key signs the checkpoints.
    pub ca: MtcCa,
    /// The MTC CA certificate (§5.5) as PEM, served after each certificate.
    pub ca_pem: String,
    /// Days an order's certificate is valid when no profile says.
    pub days: u32,
    /// When the checkpointer signs and allocates.
    pub schedule: Schedule,
    /// What it does besides signing: witnesses, publishing.
    pub hooks: Hooks,
}

/// Why an ACME server cannot issue from an MTC CA.
#[derive(Debug)]
pub enum MtcStartError {
    /// Certificates of `days` days would outlive what the Baseline Requirements allow a
    /// TLS certificate issued today (`max` days): MTC certificates are TLS certificates
    /// too, and every order would be refused.
    TooLong {
        /// The days asked for.
        days: u32,
        /// The most the BRs allow today.
        max: u32,
    },
    /// The log could not be read.
    Log(MtcError),
    /// What was given as the MTC CA certificate is not one: it is served after every
    /// certificate, for clients to build the chain with.
    NotACertificate,
    /// The checkpointer's thread could not be started.
    Spawn(std::io::Error),
}

impl std::fmt::Display for MtcStartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MtcStartError::TooLong { days, max } => write!(
                f,
                "{days} days: TLS certificates issued today have at most {max}"
            ),
            MtcStartError::Log(e) => write!(f, "the MTC log: {e}"),
            MtcStartError::NotACertificate => f.write_str("expected the MTC CA certificate (PEM)"),
            MtcStartError::Spawn(e) => write!(f, "starting the MTC checkpointer: {e}"),
        }
    }
}

impl std::error::Error for MtcStartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MtcStartError::Log(e) => Some(e),
            MtcStartError::Spawn(e) => Some(e),
            _ => None,
        }
    }
}

impl MtcStart {
    /// Check what the server was given — the validity against the BRs in force at
    /// `now()`, the log read up to date, the CA certificate one — then start the
    /// checkpointer ([`spawn_checkpointer`], reporting to `report`). The log as the
    /// handlers see it ([`crate::AcmeConfig::mtc`]).
    pub fn start(self, now: fn() -> u64, report: Report) -> Result<MtcLog, MtcStartError> {
        let MtcStart {
            mut store,
            ca,
            ca_pem,
            days,
            schedule,
            hooks,
        } = self;
        let today = Time {
            unix: i64::try_from(now()).unwrap_or(i64::MAX),
        };
        let max = pkit_ca::validity::br_max_days(today);
        if days > max {
            return Err(MtcStartError::TooLong { days, max });
        }
        store.refresh().map_err(MtcStartError::Log)?;
        let parses = pkit_x509::der::pem::decode(ca_pem.as_bytes())
            .is_ok_and(|b| pkit_x509::cert::Certificate::from_der(&b.der).is_ok());
        if !parses {
            return Err(MtcStartError::NotACertificate);
        }
        let log = MtcLog {
            ca_id: ca.ca_id.clone(),
            log: ca.log,
            days,
            checkpoint_every: schedule.checkpoint_every.as_secs(),
            ca_pem,
        };
        spawn_checkpointer(store, ca, schedule, now, report, hooks)
            .map_err(MtcStartError::Spawn)?;
        Ok(log)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkit_mtc::cosign::Cosigner;
    use pkit_mtc::issuer::checkpoint_store;
    use pkit_mtc::store::SqliteLogStore;
    use pkit_openssl as openssl;
    use pkit_x509::alg::Algorithm;

    /// An order's entry: no certificate until a checkpoint covers it, no landmark-relative
    /// one until a landmark does; then each is made, with the entry's serial.
    #[test]
    fn certificates_wait_for_their_checkpoint_and_landmark() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteLogStore::open(&dir.path().join("mtc.db")).unwrap();
        let ca_id = TrustAnchorId::parse("32473.1").unwrap();
        let be = openssl::backend();
        let ca = MtcCa {
            ca_id: ca_id.clone(),
            log: 1,
            cosigner: Cosigner::new(ca_id.clone(), be.generate(Algorithm::Ed25519).unwrap())
                .unwrap(),
        };
        let log = MtcLog {
            ca_id,
            log: 1,
            days: 7,
            checkpoint_every: 1,
            ca_pem: String::new(),
        };
        let key = CheckedCsr {
            spki: be
                .generate(Algorithm::EcdsaP256)
                .unwrap()
                .public_key_der()
                .unwrap(),
            key_alg: Some(Algorithm::EcdsaP256),
        };
        let names = BTreeSet::from([("dns".to_string(), "a.example".to_string())]);
        let now = Time {
            unix: 1_800_000_000,
        };
        let validity = (now, now.plus_seconds(7 * 86_400));
        let first = append(&mut store, &log, &names, &key, validity).unwrap();
        let second = append(&mut store, &log, &names, &key, validity).unwrap();
        assert_eq!((first, second), (0, 1));
        let t = now.unix as u64;
        let cert = |s: &mut SqliteLogStore, kind| certificate(s, &log, second, kind, t).unwrap();
        assert_eq!(cert(&mut store, CertKind::Standalone), None);
        checkpoint_store(&mut store, &ca, t).unwrap();
        let der = cert(&mut store, CertKind::Standalone).expect("checkpointed");
        let c = pkit_x509::cert::Certificate::from_der(&der).unwrap();
        assert_eq!(
            pkit_der::hex(pkit_der::integer::unsigned_bytes(c.serial)),
            serial_hex(&log, second).unwrap()
        );
        assert_eq!(c.validity().unwrap(), validity);
        assert_eq!(cert(&mut store, CertKind::Landmark), None);
        // The first landmark is due at once; the next not before its period has passed.
        let due = |s: &mut SqliteLogStore, at| allocate_landmark_if_due(s, at, 3600, 86_400);
        assert_eq!(due(&mut store, t).unwrap().unwrap().number, 1);
        assert_eq!(due(&mut store, t + 60).unwrap(), None);
        assert!(cert(&mut store, CertKind::Landmark).is_some());
        // Past the landmark's lifetime it is no longer offered.
        assert!(!available(&mut store, second, CertKind::Landmark, t + 86_401).unwrap());
    }

    /// A start on an MTC CA: refused for a validity the BRs do not allow or a CA
    /// certificate that is none; otherwise the log as the handlers see it.
    #[test]
    fn a_start_checks_what_it_was_given() {
        let dir = tempfile::tempdir().unwrap();
        let ca_id = TrustAnchorId::parse("32473.1").unwrap();
        let be = openssl::backend();
        let der = std::fs::read("../../../tests/data/pkits/certs/TrustAnchorRootCertificate.crt")
            .unwrap();
        let start = |days, ca_pem: &str| MtcStart {
            store: Box::new(SqliteLogStore::open(&dir.path().join("mtc.db")).unwrap()),
            ca: MtcCa {
                ca_id: ca_id.clone(),
                log: 3,
                cosigner: Cosigner::new(ca_id.clone(), be.generate(Algorithm::Ed25519).unwrap())
                    .unwrap(),
            },
            ca_pem: ca_pem.to_string(),
            days,
            schedule: Schedule {
                // The checkpointer sleeps first: long enough to do nothing in a test.
                checkpoint_every: Duration::from_secs(86_400),
                landmarks: None,
            },
            hooks: Hooks::default(),
        };
        // 2027-01-15, when the BRs allow 200 days.
        let now = || 1_800_000_000;
        let quiet: Report = Arc::new(|_| {});
        let pem = pkit_x509::der::pem::encode("CERTIFICATE", &der);
        match start(400, &pem).start(now, quiet.clone()) {
            Err(MtcStartError::TooLong { days: 400, max }) => assert!(max < 400),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            start(7, "not PEM").start(now, quiet.clone()),
            Err(MtcStartError::NotACertificate)
        ));
        let key = pkit_x509::der::pem::encode("PUBLIC KEY", b"\x30\x00");
        assert!(matches!(
            start(7, &key).start(now, quiet.clone()),
            Err(MtcStartError::NotACertificate)
        ));
        let log = start(7, &pem).start(now, quiet).unwrap();
        assert_eq!((log.log, log.days, log.checkpoint_every), (3, 7, 86_400));
        assert_eq!(log.ca_pem, pem);
        assert_eq!(log.log_id(), "32473.1.0.3");
    }
}
