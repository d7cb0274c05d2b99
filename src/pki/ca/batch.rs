//! Issuing many certificates at once: the pipeline behind `pkit issue batch`, whose
//! signing stage `pkit bench x509` times as `cert_gen`.
//!
//! Keys are made a job at a time (a backend makes a run of EC keys for less than one
//! key's cost each) and signed on every core with one CA signer per worker thread. Chunks
//! go through in turn: chunk k is committed to the CA store and then delivered (files,
//! report lines: the caller's [`Delivery`]) while chunk k+1 is being signed, so the commit
//! and the file system calls overlap the cryptography instead of leaving cores idle. A
//! chunk is always committed before any of it is delivered: a certificate the caller
//! hands out is one the CA has on record. What a lint gate set to `warn` or `off` let
//! through goes into the chunk's transaction with its certificates, so a process killed
//! mid-batch leaves no committed certificate without its record of it.
//!
//! The items a batch issues are made by [`crate::batch_items`] from `--count` templates or
//! a manifest.

use super::gate::{self, GateMode};
use super::issuer::{CaError, Issued, Issuer, Request};
use super::profile::Profile;
use super::store::{CaStore, CertRecord, DeliveryNote, LintOverrides, StoreError};
use crate::der::Time;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::{Backend, BackendError, PrivateKey};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// One certificate a batch will issue.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchItem {
    /// Its place in the batch, from 1.
    pub n: u64,
    /// The subject as the user wrote it, for the CA's record.
    pub subject_text: String,
    /// The subject Name DER.
    pub subject: Vec<u8>,
    /// Encoded GeneralName TLVs.
    pub sans: Vec<Vec<u8>>,
    /// The certificate profile: its key usages and basicConstraints.
    pub profile: Profile,
    /// The new key's algorithm.
    pub alg: Algorithm,
    /// Validity in days from the batch's time.
    pub days: u32,
}

/// What the caller does with each certificate of a batch.
pub trait Delivery: Sync {
    /// What [`Delivery::prepare`] makes of one certificate (for the CLI: the PEM of the
    /// key and certificate and the report line).
    type Output: Send + Sync;
    /// What fails in preparing or delivering; a signing failure becomes one.
    type Error: From<CaError> + From<BackendError> + Send;
    /// On the signing thread, right after `cert` was signed for `item` over the new `key`:
    /// whatever costs CPU in delivering it.
    fn prepare(
        &self,
        item: &BatchItem,
        key: &dyn PrivateKey,
        cert: &Issued,
    ) -> Result<Self::Output, Self::Error>;
    /// Hand out one chunk, in batch order, once it is committed. May run beside the
    /// signing of the next chunk.
    fn deliver(&self, chunk: &[Self::Output]) -> Result<(), Self::Error>;
    /// Where the chunk starting with `first` is delivered, to be recorded with its
    /// certificates until [`Delivery::deliver`] returns (see
    /// [`crate::store::DeliveryNote`]); `None` records nothing.
    fn note(&self, first: &BatchItem) -> Option<DeliveryNote> {
        let _ = first;
        None
    }
}

/// How a batch ended without an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finished {
    /// Certificates committed and delivered.
    pub issued: usize,
    /// Whether [`Batch::stop`] ended it before every item was issued.
    pub stopped: bool,
}

/// Why a batch stopped: its store refused a commit, or signing or delivering failed.
#[non_exhaustive]
#[derive(Debug)]
pub enum BatchError<E> {
    /// The store refused to commit a chunk.
    Store(StoreError),
    /// Signing, preparing or delivering failed.
    Other(E),
}

impl<E: std::fmt::Display> std::fmt::Display for BatchError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Store(e) => write!(f, "{e}"),
            BatchError::Other(e) => write!(f, "{e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for BatchError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BatchError::Store(e) => Some(e),
            BatchError::Other(e) => Some(e),
        }
    }
}

impl<E> From<E> for BatchError<E> {
    fn from(e: E) -> Self {
        BatchError::Other(e)
    }
}

/// A batch's signing context: the CA, the backend that makes the subscribers' keys, and
/// the time every certificate starts at.
pub struct Batch<'a> {
    /// The CA that signs every certificate of the batch.
    pub issuer: &'a Issuer,
    /// The backend that generates each subscriber's key.
    pub backend: &'a Backend,
    /// The time every certificate's validity starts at.
    pub now: Time,
    /// Set (by a signal handler) to stop at the next chunk boundary: the chunk in hand is
    /// committed and delivered, no further chunk is signed.
    pub stop: Option<&'a AtomicBool>,
    /// Cut validities that reach past the issuer's to end with it instead of refusing.
    pub clip: bool,
}

/// How many keys one parallel job of a batch generates together: enough to share the
/// cost [`Backend::generate_many`] saves (beyond 64 EC keys it is under 2%), few enough
/// that every thread of the pool gets several jobs.
pub(crate) fn keys_per_job(batch: usize) -> usize {
    (batch / (4 * rayon::current_num_threads())).clamp(1, 64)
}

impl Batch<'_> {
    /// New keys and certificates for `items` on the rayon pool, in the order of `items`;
    /// `make` turns each into the caller's value on the thread that signed it. Refused
    /// whole, before the first signature, when the CA's policy or chain forbids any item.
    pub fn sign<T, E>(
        &self,
        items: &[BatchItem],
        make: impl Fn(&BatchItem, &dyn PrivateKey, Issued) -> Result<T, E> + Sync,
    ) -> Result<Vec<T>, E>
    where
        T: Send,
        E: From<CaError> + From<BackendError> + Send,
    {
        self.precheck(items)?;
        self.sign_checked(items, make)
    }

    /// [`Batch::sign`] for items [`Batch::precheck`] allowed: each certificate still
    /// passes the lint gate, not the chain again.
    fn sign_checked<T, E>(
        &self,
        items: &[BatchItem],
        make: impl Fn(&BatchItem, &dyn PrivateKey, Issued) -> Result<T, E> + Sync,
    ) -> Result<Vec<T>, E>
    where
        T: Send,
        E: From<CaError> + From<BackendError> + Send,
    {
        let jobs = items
            .par_chunks(keys_per_job(items.len()))
            .map_init(
                || self.issuer.key.signer(),
                |signer, job| -> Result<Vec<T>, E> {
                    let signer = signer.as_mut().map_err(|e| E::from(e.clone()))?;
                    let algs: Vec<Algorithm> = job.iter().map(|it| it.alg).collect();
                    let keys = self.backend.generate_each(&algs)?;
                    job.iter()
                        .zip(keys)
                        .map(|(it, key)| {
                            let req = self.request(it, key.as_ref())?;
                            let cert = self.issuer.issue_prechecked(signer.as_mut(), &req)?;
                            make(it, key.as_ref(), cert)
                        })
                        .collect()
                },
            )
            .collect::<Result<Vec<_>, E>>()?;
        Ok(jobs.into_iter().flatten().collect())
    }

    /// The whole batch: `items` in chunks of `chunk` certificates, each chunk signed,
    /// committed to `store` in one transaction (with what a gate that did not enforce
    /// let through, and the delivery's note, if it keeps one), then handed to
    /// `delivery`. Stops at the first error; chunks committed before it stay committed,
    /// each certificate with its overrides (and were delivered, unless delivering is
    /// what failed: their notes then say so).
    pub fn run<D: Delivery>(
        &self,
        items: &[BatchItem],
        chunk: usize,
        store: &mut dyn CaStore,
        delivery: &D,
    ) -> Result<Finished, BatchError<D::Error>> {
        struct Signed<O> {
            note: Option<DeliveryNote>,
            records: Vec<CertRecord>,
            /// What the gate let through, committed with the certificates.
            overrides: LintOverrides,
            outputs: Vec<O>,
        }
        let mode = self.issuer.gate.mode;
        let sign_chunk = |c: &[BatchItem]| -> Result<Signed<D::Output>, D::Error> {
            let signed = self.sign_checked(c, |it, key, cert| -> Result<_, D::Error> {
                let out = delivery.prepare(it, key, &cert)?;
                let past_gate = (mode != GateMode::Enforce)
                    .then(|| gate::override_row(&cert.serial, &cert.findings));
                Ok((
                    cert.record(&it.subject_text, it.profile, it.alg.name()),
                    past_gate,
                    out,
                ))
            })?;
            let mut records = Vec::with_capacity(signed.len());
            let mut past_gate = Vec::new();
            let mut outputs = Vec::with_capacity(signed.len());
            for (record, row, out) in signed {
                records.push(record);
                past_gate.extend(row);
                outputs.push(out);
            }
            Ok(Signed {
                note: c.first().and_then(|first| delivery.note(first)),
                records,
                overrides: LintOverrides {
                    mode: mode.name().to_string(),
                    certs: past_gate,
                },
                outputs,
            })
        };
        let mut commit_and_deliver = |s: &Signed<D::Output>| -> Result<(), BatchError<D::Error>> {
            let Some(note) = &s.note else {
                store
                    .insert_with_overrides(&s.records, &s.overrides)
                    .map_err(BatchError::Store)?;
                return Ok(delivery.deliver(&s.outputs)?);
            };
            let id = store
                .insert_for_delivery(&s.records, note, &s.overrides)
                .map_err(BatchError::Store)?;
            delivery.deliver(&s.outputs)?;
            store.delivered(id).map_err(BatchError::Store)
        };
        self.precheck(items)
            .map_err(|e| BatchError::Other(e.into()))?;
        let stopping = || self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let mut chunks = items.chunks(chunk.max(1));
        let mut issued = 0;
        let Some(first) = chunks.next() else {
            return Ok(Finished {
                issued,
                stopped: false,
            });
        };
        // A stop asked for before anything was signed: nothing is.
        if stopping() {
            return Ok(Finished {
                issued,
                stopped: true,
            });
        }
        let mut pending = sign_chunk(first).map_err(BatchError::Other)?;
        loop {
            // A stop asked for while this chunk was signed: it is committed and
            // delivered, and the next is not started.
            let next = if stopping() { None } else { chunks.next() };
            let (done, signed) =
                rayon::join(|| commit_and_deliver(&pending), || next.map(&sign_chunk));
            done?;
            issued += pending.records.len();
            match signed.transpose().map_err(BatchError::Other)? {
                Some(p) => pending = p,
                None => {
                    return Ok(Finished {
                        issued,
                        stopped: issued < items.len(),
                    })
                }
            }
        }
    }

    /// Refuse the whole batch before its first signature when the CA's policy or chain
    /// forbids any of it: every item's names, and one whole certificate of each kind it
    /// holds (profile, validity, key algorithm), checked over the CA's own public key.
    /// Certificates of one kind differ only in their names, key and serial, and only
    /// the names concern the chain: each is then signed without the chain asked again
    /// (a batch of 10,000 pays for 10,000 name checks, not 10,000 path validations).
    fn precheck(&self, items: &[BatchItem]) -> Result<(), CaError> {
        let item_err = |it: &BatchItem, e: CaError| match e {
            CaError::Forbidden(mut r) => {
                r.detail = format!("item {} ({}): {}", it.n, it.subject_text, r.detail);
                CaError::Forbidden(r)
            }
            other => other,
        };
        items.par_iter().try_for_each(|it| {
            self.issuer
                .check_names(&it.subject, &it.sans)
                .map_err(|e| item_err(it, e))
        })?;
        let spki = self.issuer.key.public_key_der()?;
        let mut seen: Vec<(Profile, u32, Algorithm)> = Vec::new();
        for it in items {
            if seen.contains(&(it.profile, it.days, it.alg)) {
                continue;
            }
            seen.push((it.profile, it.days, it.alg));
            let req = self.request_for(it, spki.clone());
            self.issuer.precheck(&req).map_err(|e| item_err(it, e))?;
        }
        Ok(())
    }

    fn request(&self, it: &BatchItem, key: &dyn PrivateKey) -> Result<Request, BackendError> {
        Ok(self.request_for(it, key.public_key_der()?))
    }

    fn request_for(&self, it: &BatchItem, spki: Vec<u8>) -> Request {
        Request {
            key_alg: Some(it.alg),
            sans: it.sans.clone(),
            clip: self.clip,
            ..Request::new(
                it.subject.clone(),
                spki,
                it.profile,
                self.now,
                crate::validity::not_after_for(self.now, it.days),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::{oid_registry as oids, Writer};
    use crate::issuer::self_signed;
    use crate::store::SqliteCaStore;
    use pkit_openssl as openssl;
    use std::collections::HashMap;
    use std::sync::atomic::AtomicUsize;

    /// Why the test's delivery stopped.
    #[derive(Debug)]
    struct Stopped;

    impl From<CaError> for Stopped {
        fn from(e: CaError) -> Self {
            panic!("signing failed: {e}")
        }
    }

    impl From<BackendError> for Stopped {
        fn from(e: BackendError) -> Self {
            panic!("the backend failed: {e}")
        }
    }

    /// Delivers the first chunk, then stops as a process killed after its second
    /// commit would: that chunk is on record, its files never written.
    struct StopsAtSecond {
        chunks: AtomicUsize,
    }

    impl Delivery for StopsAtSecond {
        type Output = ();
        type Error = Stopped;

        fn prepare(&self, _: &BatchItem, _: &dyn PrivateKey, _: &Issued) -> Result<(), Stopped> {
            Ok(())
        }

        fn deliver(&self, _: &[()]) -> Result<(), Stopped> {
            match self.chunks.fetch_add(1, Ordering::SeqCst) {
                0 => Ok(()),
                _ => Err(Stopped),
            }
        }

        fn note(&self, first: &BatchItem) -> Option<DeliveryNote> {
            Some(DeliveryNote {
                destination: "out".into(),
                owner: "test".into(),
                first_n: first.n,
            })
        }
    }

    fn common_name(cn: &str) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(&oids::AT_COMMON_NAME);
                    w.utf8_string(cn);
                });
            });
        });
        w.finish()
    }

    /// A dNSName GeneralName.
    fn dns_name(name: &str) -> Vec<u8> {
        let mut w = Writer::new();
        w.primitive(crate::der::tag::implicit(2), name.as_bytes());
        w.finish()
    }

    fn items(n: u64) -> Vec<BatchItem> {
        (1..=n)
            .map(|n| BatchItem {
                n,
                subject_text: format!("CN=client {n}"),
                subject: common_name(&format!("client {n}")),
                sans: vec![dns_name(&format!("client-{n}.example"))],
                profile: Profile::Client,
                alg: Algorithm::EcdsaP256,
                days: 30,
            })
            .collect()
    }

    fn issuer(be: &Backend, mode: GateMode) -> Issuer {
        let now = Time::now();
        let key = be.generate(Algorithm::EcdsaP256).unwrap();
        let der = self_signed(
            key.as_ref(),
            &common_name("Batch Test CA"),
            now.plus_seconds(-60),
            now.plus_seconds(86_400 * 365),
            None,
        )
        .unwrap();
        let mut issuer = Issuer::new(der, key).unwrap();
        issuer.gate.mode = mode;
        issuer
    }

    /// A batch stopped after its second commit: every certificate committed has its
    /// overrides on record (they went in with it), none that was not committed has.
    #[test]
    fn each_committed_certificate_has_its_overrides() {
        let be = openssl::backend();
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
        let issuer = issuer(be, GateMode::Warn);
        let batch = Batch {
            issuer: &issuer,
            backend: be,
            now: Time::now(),
            stop: None,
            clip: false,
        };
        let delivery = StopsAtSecond {
            chunks: AtomicUsize::new(0),
        };
        let run = batch.run(&items(7), 2, &mut store, &delivery);
        assert!(matches!(run, Err(BatchError::Other(Stopped))));
        let committed = store.list().unwrap();
        assert_eq!(committed.len(), 4, "two chunks of two were committed");
        let overrides: HashMap<Vec<u8>, (String, String)> = store
            .lint_overrides()
            .unwrap()
            .into_iter()
            .map(|(serial, mode, found)| (serial, (mode, found)))
            .collect();
        assert_eq!(overrides.len(), committed.len());
        for c in &committed {
            let (mode, found) = &overrides[&c.serial];
            assert_eq!(mode, "warn");
            assert!(serde_json::from_str::<serde_json::Value>(found)
                .unwrap()
                .is_array());
        }
        // The second chunk is on record as undelivered, overrides and all.
        assert_eq!(store.undelivered().unwrap().len(), 2);
    }

    /// Under an enforcing gate nothing is recorded beside the certificates.
    #[test]
    fn an_enforcing_gate_records_no_overrides() {
        let be = openssl::backend();
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
        let issuer = issuer(be, GateMode::Enforce);
        let batch = Batch {
            issuer: &issuer,
            backend: be,
            now: Time::now(),
            stop: None,
            clip: false,
        };
        let delivery = StopsAtSecond {
            chunks: AtomicUsize::new(0),
        };
        let run = batch.run(&items(2), 2, &mut store, &delivery).unwrap();
        assert_eq!(run.issued, 2);
        assert_eq!(store.count().unwrap(), 2);
        assert!(store.lint_overrides().unwrap().is_empty());
    }
    /// A stop asked for before the batch starts (a signal while it opened its records):
    /// nothing is signed or recorded, and the batch says it was stopped.
    #[test]
    fn a_stop_before_the_first_chunk_signs_nothing() {
        let be = openssl::backend();
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteCaStore::open(&dir.path().join("ca.db")).unwrap();
        let issuer = issuer(be, GateMode::Enforce);
        let stop = std::sync::atomic::AtomicBool::new(true);
        let batch = Batch {
            issuer: &issuer,
            backend: be,
            now: Time::now(),
            stop: Some(&stop),
            clip: false,
        };
        let delivery = StopsAtSecond {
            chunks: AtomicUsize::new(0),
        };
        let run = batch.run(&items(3), 1024, &mut store, &delivery).unwrap();
        assert_eq!((run.issued, run.stopped), (0, true));
        assert_eq!(store.count().unwrap(), 0);
    }
}
