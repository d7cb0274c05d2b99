//! The raw limits: key generation, signing and verification per algorithm, on one thread
//! and on every thread of the pool, plus the Merkle node hash `SHA-256(0x01 || left ||
//! right)` (`mtc::hash::node_hash`, the unit a tree build is made of). A pipeline stage is judged against these: issuing a certificate
//! cannot beat one key generation plus one signature.

use super::harness::{timed, Harness, Measurement};
use super::report::{group, measurement_json, Table};
use super::Result;
use pkit_ca::issuer::Issuer;
use pkit_mtc::hash::node_hash;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;
use rayon::prelude::*;
use serde_json::{json, Value};

/// A message the size of a typical TBSCertificate, so a signature here costs what one
/// in issuance does (ML-DSA and Ed25519 hash the whole message).
pub const MESSAGE_LEN: usize = 400;

/// Certificates per second that key generation plus one CA signature allow on the pool —
/// the most `pkit issue batch --measure-limit` could reach: one fresh key
/// ([`Backend::generate`], as [`run`] times it) and one signature by `issuer` over a
/// TBSCertificate-sized message per entry of `algs`.
pub fn issuance_limit(issuer: &Issuer, backend: &Backend, algs: &[Algorithm]) -> Result<f64> {
    signing_rate(issuer, algs.len(), |i| {
        std::hint::black_box(backend.generate(algs[i])?);
        Ok(())
    })
}

/// Signatures per second the CA's key makes on the pool (one signer per worker) over
/// `n` TBSCertificate-sized messages: for a key in a token, the token's raw C_Sign rate
/// as the batch pipeline drives it.
pub fn signing_limit(issuer: &Issuer, n: usize) -> Result<f64> {
    signing_rate(issuer, n, |_| Ok(()))
}

/// Items per second on the pool when item `i` is `before(i)` and then one signature by
/// `issuer` over a TBSCertificate-sized message, with one signer per worker.
fn signing_rate(
    issuer: &Issuer,
    n: usize,
    before: impl Fn(usize) -> Result<()> + Sync,
) -> Result<f64> {
    let message = [0x5au8; MESSAGE_LEN];
    let (elapsed, ()) = timed(|| {
        (0..n).into_par_iter().try_for_each_init(
            || issuer.key.signer(),
            |signer, i| -> Result<()> {
                let signer = signer.as_mut().map_err(|e| e.clone())?;
                before(i)?;
                std::hint::black_box(signer.sign(&message)?);
                Ok(())
            },
        )
    })?;
    Ok(n as f64 / elapsed.as_secs_f64().max(1e-9))
}

/// One row: an operation on one thread and on all of them.
#[derive(Debug, Clone)]
pub struct Limit {
    /// The algorithm's name.
    pub algorithm: String,
    /// The operation: key generation, signing or verification.
    pub op: &'static str,
    /// On one thread.
    pub one: Measurement,
    /// On every thread.
    pub all: Measurement,
}

/// Repetitions of `op` per measured run: one on a single thread, a few per worker in
/// parallel, so the pool is busy for the whole run.
fn per_thread_batch(alg: Option<Algorithm>) -> usize {
    match alg {
        Some(a) if a.is_rsa() => 1,
        Some(_) => 16,
        None => 4096,
    }
}

/// Signatures and verifications per worker and measured run: enough that a run lasts
/// as long as a pipeline stage of a thousand items (what the stages are compared with),
/// so starting the run does not weigh on the rate.
const SIGN_VERIFY_BATCH: usize = 256;

/// Distinct signed messages the verification limit cycles through.
const DISTINCT_SIGNATURES: usize = 64;

/// Time `op` once per item on one thread, then over `threads × batch` items in parallel.
fn both<S: Send>(
    h: &Harness<'_>,
    label: &str,
    batch: usize,
    init: impl Fn() -> Result<S> + Sync + Send,
    op: impl Fn(&mut S) -> Result<()> + Sync + Send,
) -> Result<(Measurement, Measurement)> {
    let mut state = init()?;
    let one = h.measure(&format!("{label} (1 thread)"), batch as u64, || {
        timed(|| (0..batch).try_for_each(|_| op(&mut state))).map(|(d, ())| d)
    })?;
    let n = batch * rayon::current_num_threads();
    let all = h.measure(&format!("{label} (all threads)"), n as u64, || {
        timed(|| {
            (0..n)
                .into_par_iter()
                .try_for_each_init(&init, |s, _| match s {
                    Ok(s) => op(s),
                    Err(e) => Err(super::BenchError::Check(e.to_string())),
                })
        })
        .map(|(d, ())| d)
    })?;
    Ok((one, all))
}

/// Key generation, signing and verification for each of `algs`, then SHA-256.
pub fn run(h: &Harness<'_>, algs: &[Algorithm]) -> Result<Vec<Limit>> {
    let backend = h.backend;
    let msg = vec![0x5au8; MESSAGE_LEN];
    let mut out = Vec::new();
    for &alg in algs {
        let name = alg.name();
        let batch = per_thread_batch(Some(alg));
        let key = backend.generate(alg)?;
        let spki = key.public_key_der()?;
        // Distinct messages and signatures, as a pipeline verifies: one pair verified
        // over and over runs faster than real work does in some tokens (NSS's RSA).
        let signed = (0..DISTINCT_SIGNATURES)
            .map(|i| {
                let mut m = msg.clone();
                m[..8].copy_from_slice(&(i as u64).to_be_bytes());
                let sig = key.sign(&m)?;
                Ok((m, sig))
            })
            .collect::<Result<Vec<(Vec<u8>, Vec<u8>)>>>()?;
        let scheme = key.algorithm().default_scheme();
        let (one, all) = both(
            h,
            &format!("{name} keygen"),
            batch,
            || Ok(()),
            |_| backend.generate(alg).map(drop).map_err(Into::into),
        )?;
        out.push(Limit {
            algorithm: name.into(),
            op: "keygen",
            one,
            all,
        });
        let (one, all) = both(
            h,
            &format!("{name} sign"),
            if alg.is_rsa() { 16 } else { SIGN_VERIFY_BATCH },
            || Ok(key.signer()?),
            |s| s.sign(&msg).map(drop).map_err(Into::into),
        )?;
        out.push(Limit {
            algorithm: name.into(),
            op: "sign",
            one,
            all,
        });
        let (one, all) = both(
            h,
            &format!("{name} verify"),
            SIGN_VERIFY_BATCH,
            || Ok(0usize),
            |next| {
                let (m, sig) = &signed[*next % signed.len()];
                *next += 1;
                match backend.verify(&spki, scheme, m, sig)? {
                    true => Ok(()),
                    false => Err(super::BenchError::Check(format!(
                        "{name}: a fresh signature does not verify"
                    ))),
                }
            },
        )?;
        out.push(Limit {
            algorithm: name.into(),
            op: "verify",
            one,
            all,
        });
    }
    // The Merkle node hash the MTC tree is built from, so tree_build has its own limit.
    let (left, right) = ([0x11u8; 32], [0x22u8; 32]);
    let (one, all) = both(
        h,
        "sha256 node",
        per_thread_batch(None),
        || Ok(()),
        |_| {
            std::hint::black_box(node_hash(
                std::hint::black_box(&left),
                std::hint::black_box(&right),
            ));
            Ok(())
        },
    )?;
    out.push(Limit {
        algorithm: "sha256".into(),
        op: "hash 65-byte node",
        one,
        all,
    });
    Ok(out)
}

/// `| Algorithm | Operation | 1 thread ops/s | µs/op | N threads ops/s | Scaling |`.
pub fn table(limits: &[Limit], threads: usize) -> Table {
    let header = vec![
        "Algorithm".to_string(),
        "Operation".into(),
        "1 thread ops/s".into(),
        "µs/op".into(),
        format!("{threads} threads ops/s"),
        "Scaling".into(),
    ];
    let rows = limits
        .iter()
        .map(|l| {
            vec![
                l.algorithm.clone(),
                l.op.to_string(),
                group(l.one.per_second().round() as u64),
                format!("{:.2}", l.one.ns_per_item() / 1000.0),
                group(l.all.per_second().round() as u64),
                format!("{:.2}×", l.all.per_second() / l.one.per_second().max(1e-9)),
            ]
        })
        .collect();
    let json_rows: Vec<Value> = limits
        .iter()
        .map(|l| {
            json!({
                "algorithm": l.algorithm,
                "operation": l.op,
                "one_thread": measurement_json(&l.one),
                "all_threads": measurement_json(&l.all),
            })
        })
        .collect();
    Table {
        title: "Raw limits: key generation, signing, verification, hashing".into(),
        notes: vec![format!(
            "sign and verify use a {MESSAGE_LEN}-byte message (a typical TBSCertificate) \
             with each algorithm's default scheme; one signer per thread."
        )],
        header,
        rows,
        text_columns: vec![0, 1],
        json: json!({"title": "raw limits", "threads": threads, "rows": json_rows}),
    }
}
