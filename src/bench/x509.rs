//! The X.509 pipeline of x509-pipeline-benchmark.md, stage by stage, through the code
//! `pkit issue` and `pkit ocsp` run. A fresh ephemeral CA per batch size; each stage is a
//! cell of the table. Serials are pkit's (20 random bytes), not a counter.
//!
//! Stages that are not asked for (`--ops`) still run once, untimed, because later stages
//! need their output.

use super::harness::{timed, Harness};
use super::recorder::Recorder;
use super::report::OpRow;
use super::scratch::{rep_serial, Db, InsertTarget, Scratch, ScratchDb};
use super::{BenchError, Result};
use crate::der::Time;
use pkit_ca::batch::{self, BatchItem};
use pkit_ca::batch_items;
use pkit_ca::crl::{sign_crl, tbs_cert_list};
use pkit_ca::crl_entries::RevokedList;
use pkit_ca::crl_generate::{self, CrlError, CrlOptions};
use pkit_ca::issuer::{self_signed, Issued, Issuer};
use pkit_ca::ocsp::Responder;
use pkit_ca::ocsp_answer::{ask, Question};
use pkit_ca::profile::Profile;
use pkit_ca::store::{CaStore, CertRecord, CertStatus, CrlRecord, OcspRecord};
use pkit_verify::crl_verify;
use pkit_verify::preissue::PreIssue;
use pkit_x509::alg::{Algorithm, Digest};
use pkit_x509::backend::{verify_batch_parallel, Backend, Prechecked, PrivateKey, VerifyItem};
use pkit_x509::cert::Certificate;
use pkit_x509::crl::Crl;
use pkit_x509::ocsp::{OcspRequest, OcspResponse};
use pkit_x509::ocsp_request::{encode_request, IssuerHashes};
use pkit_x509::ocsp_verify::{self, Expect};
use pkit_x509::signed::verify_item;
use pkit_x509::subject::parse_subject;
use rayon::prelude::*;
use std::sync::Arc;

/// The operations, in table order, with the seeds' notes.
pub const OPERATIONS: [(&str, &str); 15] = [
    ("ca_self_sign", "1 cert/batch"),
    ("cert_gen", "subscriber keygen + CA signature, parallel"),
    ("db_insert_certs", "SQLite WAL, 1 transaction"),
    ("cert_verify", "parse + signature check, parallel"),
    ("db_read_certs", "SQLite read"),
    (
        "crl_build",
        "1 CRL covering N serials from the records; TBS DER + lint gate",
    ),
    ("crl_sign", "1 signature over the whole TBS"),
    ("db_insert_crl", "SQLite WAL"),
    ("crl_verify", "parse + issuer, key id, signature, freshness"),
    ("db_read_crl", "SQLite read"),
    ("ocsp_build", "parallel; TBS DER only"),
    ("ocsp_sign", "parallel"),
    ("db_insert_ocsp", "SQLite WAL, 1 transaction"),
    (
        "ocsp_verify",
        "parse response + request, full check, parallel",
    ),
    ("db_read_ocsp", "SQLite read"),
];

/// Subscriber certificates are valid this long: pkit's default for a TLS server, within
/// the Baseline Requirements' maximum on every date, so the lint gate (which the batch
/// passes through, as `issue batch` does) lets them by.
const VALIDITY_DAYS: u32 = 90;
/// OCSP responses' nextUpdate, as `pkit ocsp respond`'s default.
const OCSP_LIFETIME: i64 = 86_400;
/// CRLReason keyCompromise (RFC 5280 §5.3.1), the reason every benchmark revocation gives.
const KEY_COMPROMISE: u8 = 1;
/// CRL nextUpdate, as `pkit crl gen`'s default.
const CRL_LIFETIME: i64 = 7 * 86_400;
/// The subject of every subscriber certificate the pipeline issues.
pub const SUBJECT: &str = "CN=bench.example";
/// Its name as a SAN: a TLS server certificate carries it there (pkit refuses one without).
pub const SAN: &str = "DNS:bench.example";

/// Encoded sizes that drive the costs, in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sizes {
    /// Mean certificate size.
    pub certificate: f64,
    /// Mean OCSP response size.
    pub ocsp_response: f64,
    /// A CRL with no entries, and what each revoked serial adds.
    pub crl_empty: f64,
    /// Bytes each revoked serial adds to a CRL.
    pub crl_entry: f64,
}

/// One algorithm's run over all batch sizes.
#[derive(Debug, Clone)]
pub struct X509Run {
    /// The CA's and subscribers' key algorithm.
    pub algorithm: Algorithm,
    /// Each stage's cells.
    pub rows: Vec<OpRow>,
    /// The encoded sizes.
    pub sizes: Sizes,
}

fn check(ok: bool, what: impl FnOnce() -> String) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(BenchError::Check(what()))
    }
}

/// Parse certificates and check their signatures under the CA's key, as verification
/// does: parsed in parallel, then checked in one batch chunked over the threads
/// (Ed25519 by one multiscalar multiplication per chunk).
fn verify_certs(backend: &Backend, ders: &[&[u8]], ca_spki: &[u8]) -> Result<()> {
    let certs = ders
        .par_iter()
        .map(|d| Certificate::from_der(d).map_err(|e| BenchError::Parse(e.to_string())))
        .collect::<Result<Vec<_>>>()?;
    let items = certs
        .iter()
        .map(|c| {
            verify_item(
                ca_spki,
                &c.signature_algorithm,
                c.tbs_raw,
                c.signature.bytes,
            )
            .map_err(|e| BenchError::Check(e.to_string()))
        })
        .collect::<Result<Vec<_>>>()?;
    for ok in verify_batch_parallel(backend, &items) {
        check(ok?, || "an issued certificate does not verify".into())?;
    }
    Ok(())
}

/// Run every batch size for `alg`.
pub fn run(h: &Harness<'_>, alg: Algorithm, batches: &[u64], scratch: &Scratch) -> Result<X509Run> {
    let mut sizes = Sizes::default();
    let ops = scratch.operations(&OPERATIONS);
    let rows = Recorder::run_batches(h, alg.name().to_string(), batches, &ops, |rec, n| {
        one_batch(rec, alg, n, scratch, &mut sizes)
    })?;
    Ok(X509Run {
        algorithm: alg,
        rows,
        sizes,
    })
}

/// A CA: its issuer, the OCSP responder signing with the same key, and a handle on that
/// key for whatever else signs for the CA (the MTC cosigner). The key is shared, not
/// copied: a key in a token cannot be exported.
pub fn make_ca(
    rec: &mut Recorder<'_, '_>,
    alg: Algorithm,
    subject: &[u8],
    now: Time,
) -> Result<(Issuer, Responder, Arc<dyn PrivateKey>)> {
    let backend = rec.h.backend;
    let key: Arc<dyn PrivateKey> = Arc::from(backend.generate(alg)?);
    let later = now.plus_seconds(2 * i64::from(VALIDITY_DAYS) * 86_400);
    let mut ca_der = Vec::new();
    rec.stage("ca_self_sign", 1, || {
        let (d, der) = timed(|| Ok(self_signed(key.as_ref(), subject, now, later, None)?))?;
        ca_der = der;
        Ok(d)
    })?;
    let responder = Responder::new(backend, &ca_der, Box::new(key.clone()), None, now)?;
    // As `issue batch` loads a CA: what it signs is validated through its chain first.
    let chain = PreIssue::new(backend, vec![ca_der.clone()])
        .map_err(|r| BenchError::Ca(pkit_ca::issuer::CaError::Forbidden(r)))?;
    let mut issuer = Issuer::new(ca_der, Box::new(key.clone()))?;
    issuer.chain = Some(chain);
    Ok((issuer, responder, key))
}

fn one_batch(
    rec: &mut Recorder<'_, '_>,
    alg: Algorithm,
    n: u64,
    scratch: &Scratch,
    sizes: &mut Sizes,
) -> Result<()> {
    let now = Time::now();
    let subject =
        parse_subject("CN=pkit bench CA").map_err(|e| BenchError::Check(e.to_string()))?;
    let (issuer, responder, _) = make_ca(rec, alg, &subject, now)?;

    // Issuance: what `pkit issue batch` does per chunk, less the files (its items are
    // made before its clock starts, as here).
    let items = batch_items(alg, SUBJECT, n, now)?;
    let mut issued: Vec<Issued> = Vec::new();
    rec.stage("cert_gen", n, || {
        let (d, v) = timed(|| issue_batch(rec.h.subscriber_keys, &issuer, &items, now))?;
        issued = v;
        Ok(d)
    })?;
    sizes.certificate = mean_len(issued.iter().map(|c| c.der.len()));

    let records: Vec<CertRecord> = issued
        .iter()
        .map(|c| c.record(SUBJECT, Profile::Server, alg.name()))
        .collect();
    insert_stage(
        rec,
        "db_insert_certs",
        scratch,
        &records,
        reserial(|r: &mut CertRecord| (&mut r.serial, r.der.len())),
        |s: &mut Box<dyn CaStore>, rows| Ok(s.insert_certificates(rows)?),
    )?;
    let mut stores = Vec::new();
    for db in scratch.dbs() {
        let mut store = scratch.ca_store(db)?;
        store.insert_certificates(&records)?;
        stores.push((db, store));
    }

    let ca =
        Certificate::from_der(&issuer.cert_der).map_err(|e| BenchError::Parse(e.to_string()))?;
    let ders: Vec<&[u8]> = issued.iter().map(|c| c.der.as_slice()).collect();
    rec.stage("cert_verify", n, || {
        timed(|| verify_certs(rec.h.backend, &ders, ca.spki.raw)).map(|(d, ())| d)
    })?;
    for (db, store) in &stores {
        rec.stage(scratch.row(*db, "db_read_certs"), n, || {
            let (d, rows) = timed(|| Ok(store.list()?))?;
            check(rows.len() as u64 == n, || {
                format!("read {} of {n} certificates", rows.len())
            })?;
            Ok(d)
        })?;
    }

    // Nothing is revoked yet: the common OCSP answer is "good". Then every certificate
    // is revoked and one CRL covers them all (table order follows the seeds, not this).
    let mut batch = Batch {
        ca: &ca,
        issued: &issued,
        stores: &mut stores,
        scratch,
        now,
    };
    ocsp(rec, &responder, &mut batch, sizes)?;
    crl_stages(rec, &issuer, &mut batch, sizes)
}

/// What the revocation stages share: the batch's CA certificate and issued certificates,
/// the CA databases holding them (one per [`Db`]), the scratch directory and the time.
struct Batch<'a, 'c> {
    ca: &'a Certificate<'c>,
    issued: &'a [Issued],
    stores: &'a mut [(Db, Box<dyn CaStore>)],
    scratch: &'a Scratch,
    now: Time,
}

/// An insert stage, on each of the scratch's databases: each repetition inserts `records`
/// into a scratch database under keys of its own: `rekey(row, repetition, position)`
/// gives the row its key and returns its size in bytes.
pub fn insert_stage<S: ScratchDb, T: Clone>(
    rec: &mut Recorder<'_, '_>,
    op: &'static str,
    scratch: &Scratch,
    records: &[T],
    rekey: impl Fn(&mut T, u64, usize) -> usize,
    mut insert: impl FnMut(&mut S, &[T]) -> Result<()>,
) -> Result<()> {
    for db in scratch.dbs() {
        let mut target = InsertTarget::new(scratch, db);
        rec.stage(scratch.row(db, op), records.len() as u64, || {
            let mut rows = records.to_vec();
            let rep = target.rep();
            let bytes = rows
                .iter_mut()
                .enumerate()
                .map(|(i, r)| rekey(r, rep, i))
                .sum();
            let store = target.next(bytes)?;
            timed(|| insert(store, &rows)).map(|(d, ())| d)
        })?;
    }
    Ok(())
}

/// `rekey` for rows keyed by serial: a serial unique to the repetition and position.
fn reserial<T>(
    field: impl Fn(&mut T) -> (&mut Vec<u8>, usize),
) -> impl Fn(&mut T, u64, usize) -> usize {
    move |r, rep, i| {
        let (serial, len) = field(r);
        *serial = rep_serial(rep, i);
        len
    }
}

/// What `cert_gen` issues: `n` TLS server certificates of `alg` keys for `subject` (RFC
/// 4514 text) with [`SAN`], made as `pkit issue batch --count` makes its items
/// ([`batch_items::numbered_items`]; no `{n}` in either, so every item names the same).
pub fn batch_items(alg: Algorithm, subject: &str, n: u64, now: Time) -> Result<Vec<BatchItem>> {
    let defaults = batch_items::ItemDefaults {
        profile: Profile::Server,
        alg,
        days: Some(VALIDITY_DAYS),
        now,
    };
    batch_items::numbered_items(n, subject, &[SAN.to_string()], &defaults)
        .map_err(|e| BenchError::Check(e.to_string()))
}

/// `cert_gen`: a subscriber key and certificate for each of `items`, in parallel with one
/// CA signer per worker: the signing stage of `pkit issue batch` ([`batch::Batch::sign`]),
/// without the files.
pub fn issue_batch(
    backend: &Backend,
    issuer: &Issuer,
    items: &[BatchItem],
    now: Time,
) -> Result<Vec<Issued>> {
    let batch = batch::Batch {
        issuer,
        backend,
        now,
        stop: None,
        clip: true,
    };
    batch.sign(items, |_, _, cert| Ok(cert))
}

/// The mean of `lens`, 0 for none.
pub fn mean_len(lens: impl Iterator<Item = usize>) -> f64 {
    let (sum, count) = lens.fold((0usize, 0usize), |(s, c), l| (s + l, c + 1));
    sum as f64 / count.max(1) as f64
}

/// ocsp_build, ocsp_sign, db_insert_ocsp, ocsp_verify, db_read_ocsp: one request per
/// certificate, answered as `pkit ocsp respond` answers it ([`ask`], then the two halves
/// of [`Responder::sign`]).
fn ocsp(
    rec: &mut Recorder<'_, '_>,
    responder: &Responder,
    b: &mut Batch<'_, '_>,
    sizes: &mut Sizes,
) -> Result<()> {
    let (ca, issued, now) = (b.ca, b.issued, b.now);
    let n = issued.len() as u64;
    let ca_der = ca.raw;
    let next_update = now.plus_seconds(OCSP_LIFETIME);
    let hashes = IssuerHashes::of(rec.h.backend, ca, Digest::Sha1);
    let req_ders: Vec<Vec<u8>> = issued
        .iter()
        .map(|c| encode_request(&hashes, &c.serial, None))
        .collect();
    let reqs = req_ders
        .iter()
        .map(|d| OcspRequest::from_der(d))
        .collect::<crate::der::Result<Vec<_>>>()
        .map_err(|e| BenchError::Parse(e.to_string()))?;
    // The look-up stage of `pkit ocsp respond` (untimed: the seeds time build and sign).
    let mut ids = Vec::with_capacity(reqs.len());
    let mut statuses: Vec<CertStatus> = Vec::with_capacity(reqs.len());
    for r in &reqs {
        match ask(responder, &*b.stores[0].1, r).map_err(|e| BenchError::Parse(format!("{e:?}")))? {
            Question::Ours {
                cert_ids,
                statuses: st,
                ..
            } => {
                ids.extend(cert_ids);
                statuses.extend(st);
            }
            Question::Foreign => return Err(BenchError::Check("a request read as foreign".into())),
        }
    }

    let mut tbs: Vec<Vec<u8>> = Vec::new();
    rec.stage("ocsp_build", n, || {
        let (d, v) = timed(|| {
            Ok(ids
                .par_iter()
                .zip(statuses.par_iter())
                .map(|(id, st)| responder.build_tbs(&[(id, st)], None, now, next_update))
                .collect())
        })?;
        tbs = v;
        Ok(d)
    })?;
    let mut responses: Vec<Vec<u8>> = Vec::new();
    rec.stage("ocsp_sign", n, || {
        let (d, v) = timed(|| {
            tbs.par_iter()
                .map_init(
                    || responder.signer(),
                    |s, t| -> Result<Vec<u8>> {
                        let s = s.as_mut().map_err(|e| BenchError::Backend(e.clone()))?;
                        Ok(responder.sign_tbs(s.as_mut(), t)?)
                    },
                )
                .collect::<Result<Vec<_>>>()
        })?;
        responses = v;
        Ok(d)
    })?;
    sizes.ocsp_response = mean_len(responses.iter().map(Vec::len));

    let records: Vec<OcspRecord> = issued
        .iter()
        .zip(&responses)
        .map(|(c, der)| OcspRecord {
            serial: c.serial.to_vec(),
            produced_at: now.unix,
            next_update: next_update.unix,
            der: der.clone(),
        })
        .collect();
    insert_stage(
        rec,
        "db_insert_ocsp",
        b.scratch,
        &records,
        reserial(|r: &mut OcspRecord| (&mut r.serial, r.der.len())),
        |s: &mut Box<dyn CaStore>, rows| Ok(s.put_ocsp_responses(rows)?),
    )?;
    for (_, store) in b.stores.iter_mut() {
        store.put_ocsp_responses(&records)?;
    }

    rec.stage("ocsp_verify", n, || {
        timed(|| {
            let parse = |e: crate::der::Error| BenchError::Parse(e.to_string());
            let ca = Certificate::from_der(ca_der).map_err(parse)?;
            let parsed = responses
                .par_iter()
                .zip(req_ders.par_iter())
                .map(|(der, req)| {
                    Ok((
                        OcspResponse::from_der(der).map_err(parse)?,
                        OcspRequest::from_der(req).map_err(parse)?,
                    ))
                })
                .collect::<Result<Vec<_>>>()?;
            // The responses' signatures in one batch first; the checks below then find
            // them answered.
            let items: Vec<VerifyItem<'_>> = parsed
                .iter()
                .filter_map(|(r, _)| r.basic.as_ref())
                .filter_map(|b| {
                    verify_item(
                        ca.spki.raw,
                        &b.signature_algorithm,
                        b.tbs_raw,
                        b.signature.bytes,
                    )
                    .ok()
                })
                .collect();
            let backend = Prechecked::over(rec.h.backend, &items);
            parsed.par_iter().try_for_each(|(resp, req)| {
                let want = Expect {
                    backend: &backend,
                    issuer: &ca,
                    cert: None,
                    request: Some(req),
                    now,
                };
                let v = ocsp_verify::verify(resp, &want)
                    .map_err(|e| BenchError::Check(format!("{e:?}")))?;
                check(v.valid(), || {
                    format!("an OCSP response does not verify: {:?}", v.checks)
                })
            })
        })
        .map(|(d, ())| d)
    })?;
    for (db, store) in b.stores.iter() {
        rec.stage(b.scratch.row(*db, "db_read_ocsp"), n, || {
            let (d, rows) = timed(|| Ok(store.ocsp_responses()?))?;
            check(rows.len() as u64 == n, || {
                format!("read {} of {n} OCSP responses", rows.len())
            })?;
            Ok(d)
        })?;
    }
    Ok(())
}

/// crl_build, crl_sign, db_insert_crl, crl_verify, db_read_crl: every certificate of the
/// batch revoked (as `pkit crl revoke` records a revocation), then one CRL covering them
/// made by `pkit crl gen`'s own stages ([`crl_generate`]) over the first database:
/// `crl_build` is [`crl_generate::build`] (the next CRL number, the entries streamed
/// from the records, the TBS) and [`crl_generate::gate`] (the lint gate), `crl_sign` is
/// [`crl_generate::sign`]. Each repetition of `crl_build` spends a CRL number, as each
/// `crl gen` does.
fn crl_stages(
    rec: &mut Recorder<'_, '_>,
    issuer: &Issuer,
    b: &mut Batch<'_, '_>,
    sizes: &mut Sizes,
) -> Result<()> {
    let (ca, issued, now) = (b.ca, b.issued, b.now);
    let n = issued.len();
    for (_, store) in b.stores.iter_mut() {
        for c in issued {
            store.revoke(&c.serial, now.unix, Some(KEY_COMPROMISE))?;
        }
    }
    let options = CrlOptions {
        this_update: now,
        lifetime: CRL_LIFETIME,
        drop_expired: false,
    };
    let crl_err = |e: CrlError| match e {
        CrlError::Store(e) => BenchError::from(e),
        CrlError::Ca(e) => BenchError::Ca(e),
    };
    let mut built = None;
    let store = b.stores[0].1.as_mut();
    rec.stage("crl_build", 1, || {
        let (d, t) = timed(|| {
            let tbs = crl_generate::build(issuer, store, &options).map_err(crl_err)?;
            let findings = crl_generate::gate(issuer, &tbs).map_err(crl_err)?;
            Ok((tbs, findings))
        })?;
        built = Some(t);
        Ok(d)
    })?;
    let (tbs, findings) = built.ok_or_else(|| BenchError::Check("no CRL was built".into()))?;
    check(tbs.entries == n, || {
        format!("{} of {n} revoked", tbs.entries)
    })?;
    let mut signer = issuer.key.signer()?;
    let mut made = None;
    rec.stage("crl_sign", 1, || {
        let (d, m) =
            timed(|| crl_generate::sign(signer.as_mut(), &tbs, findings.clone()).map_err(crl_err))?;
        made = Some(m);
        Ok(d)
    })?;
    let made = made.ok_or_else(|| BenchError::Check("no CRL was signed".into()))?;
    let crl = made.record.der.clone();
    let empty = sign_crl(
        &tbs_cert_list(
            &issuer.crl_issuer(),
            &tbs.fields,
            &[],
            &RevokedList::default(),
        ),
        signer.as_mut(),
    )?;
    sizes.crl_empty = empty.len() as f64;
    sizes.crl_entry = crl.len().saturating_sub(empty.len()) as f64 / n.max(1) as f64;

    let record = made.record;
    insert_stage(
        rec,
        "db_insert_crl",
        b.scratch,
        std::slice::from_ref(&record),
        // A CRL number is used once: each repetition stores its own.
        |r: &mut CrlRecord, rep, _| {
            r.number = rep + 1;
            r.der.len()
        },
        |s: &mut Box<dyn CaStore>, rows| rows.iter().try_for_each(|r| Ok(s.insert_crl(r)?)),
    )?;
    for (_, store) in b.stores.iter_mut() {
        store.insert_crl(&record)?;
    }

    rec.stage("crl_verify", 1, || {
        timed(|| {
            let c = Crl::from_der(&crl).map_err(|e| BenchError::Parse(e.to_string()))?;
            let checks = crl_verify::verify(rec.h.backend, &c, ca, now)
                .map_err(|e| BenchError::Check(format!("{e:?}")))?;
            check(checks.iter().all(|c| c.ok), || {
                format!("the CRL does not verify: {checks:?}")
            })
        })
        .map(|(d, ())| d)
    })?;
    for (db, store) in b.stores.iter() {
        rec.stage(b.scratch.row(*db, "db_read_crl"), 1, || {
            let (d, got) = timed(|| Ok(store.latest_crl()?))?;
            check(got.is_some_and(|r| r.der == crl), || {
                "the stored CRL differs".into()
            })?;
            Ok(d)
        })?;
    }
    Ok(())
}
