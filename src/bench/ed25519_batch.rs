//! The Ed25519 batch verification playbook's rows: one verification at a time, then
//! `verify_batch` over N signatures on one thread (one multiscalar multiplication) and
//! chunked over the pool's threads, with the batch's time, elements per second and the
//! effective cost of one verification.

use super::crypto::MESSAGE_LEN;
use super::harness::{timed, Harness, Measurement};
use super::report::{group, measurement_json, Table};
use super::{BenchError, Result};
use pkit_x509::alg::{Algorithm, SignatureScheme};
use pkit_x509::backend::{verify_batch_parallel, Backend, VerifyItem};
use serde_json::{json, Value};

/// The playbook's batch sizes.
pub const SIZES: [usize; 6] = [8, 32, 64, 128, 256, 512];

/// Distinct signing keys the signatures cycle through: a verifier sees a few keys (a
/// CA's, a log's cosigners') many times, and the batch prepares each key once.
const KEYS: usize = 64;

/// How a batch was run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One signature verified at a time.
    Single,
    /// One batch verification on one thread.
    Serial,
    /// One batch verification spread over every thread.
    Parallel,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Single => "single verify",
            Mode::Serial => "verify_batch, serial",
            Mode::Parallel => "verify_batch, parallel",
        }
    }
}

/// One row of the Ed25519 batch table: a batch size and how it was run.
#[derive(Debug, Clone)]
pub struct Row {
    /// The batch size.
    pub n: usize,
    /// How it was run.
    pub mode: Mode,
    /// One measured run is one batch of `n` (the single row: `n` verifications).
    pub m: Measurement,
}

/// Signatures by [`KEYS`] keys over distinct TBSCertificate-sized messages.
struct Signed {
    spkis: Vec<Vec<u8>>,
    messages: Vec<Vec<u8>>,
    signatures: Vec<Vec<u8>>,
}

impl Signed {
    fn new(backend: &Backend, n: usize) -> Result<Signed> {
        let keys = (0..KEYS.min(n))
            .map(|_| backend.generate(Algorithm::Ed25519))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let spkis = keys
            .iter()
            .map(|k| k.public_key_der())
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let messages: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let mut m = vec![0x5au8; MESSAGE_LEN];
                m[..8].copy_from_slice(&(i as u64).to_be_bytes());
                m
            })
            .collect();
        let signatures = messages
            .iter()
            .enumerate()
            .map(|(i, m)| keys[i % keys.len()].sign(m))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(Signed {
            spkis,
            messages,
            signatures,
        })
    }

    fn items(&self, n: usize) -> Vec<VerifyItem<'_>> {
        (0..n)
            .map(|i| VerifyItem {
                spki_der: &self.spkis[i % self.spkis.len()],
                scheme: SignatureScheme::Ed25519,
                message: &self.messages[i],
                signature: &self.signatures[i],
            })
            .collect()
    }
}

fn all_valid(verdicts: Vec<pkit_x509::backend::Result<bool>>) -> Result<()> {
    for v in verdicts {
        if !v? {
            return Err(BenchError::Check(
                "a fresh Ed25519 signature does not verify in a batch".into(),
            ));
        }
    }
    Ok(())
}

/// Single verification, then each of `sizes` serial and parallel.
pub fn run(h: &Harness<'_>, sizes: &[usize]) -> Result<Vec<Row>> {
    let backend = h.backend;
    let largest = sizes.iter().copied().max().unwrap_or(1);
    let signed = Signed::new(backend, largest.max(KEYS))?;
    let all = signed.items(largest.max(KEYS));
    let mut next = 0usize;
    let single = h.repeat("ed25519 single verify", all.len() as u64, || {
        let it = &all[next % all.len()];
        next += 1;
        all_valid(vec![backend.verify(
            it.spki_der,
            it.scheme,
            it.message,
            it.signature,
        )])
    })?;
    let mut rows = vec![Row {
        n: 1,
        mode: Mode::Single,
        m: Measurement {
            items: 1,
            repetitions: single.repetitions * single.items,
            mean_ns: single.mean_ns / single.items as f64,
            min_ns: single.min_ns / single.items as f64,
            max_ns: single.max_ns / single.items as f64,
        },
    }];
    for &n in sizes {
        let items = &all[..n];
        for mode in [Mode::Serial, Mode::Parallel] {
            let label = format!("ed25519 {} N={n}", mode.name());
            let m = h.measure(&label, n as u64, || {
                let (d, verdicts) = timed(|| {
                    Ok(match mode {
                        Mode::Parallel => verify_batch_parallel(backend, items),
                        _ => backend.verify_batch(items),
                    })
                })?;
                all_valid(verdicts)?;
                Ok(d)
            })?;
            rows.push(Row { n, mode, m });
        }
    }
    Ok(rows)
}

/// `| N | Mode | Batch time | Elements/s | µs/verify | × single |`.
pub fn table(rows: &[Row], threads: usize, backend: &Backend) -> Table {
    let single_ns = rows
        .iter()
        .find(|r| r.mode == Mode::Single)
        .map(|r| r.m.ns_per_item())
        .unwrap_or(f64::NAN);
    let header = [
        "N",
        "Mode",
        "Batch time (µs)",
        "Elements/s",
        "µs/verify",
        "× single verify",
    ]
    .map(String::from)
    .to_vec();
    let cells = |r: &Row| {
        let per = r.m.ns_per_item();
        vec![
            r.n.to_string(),
            r.mode.name().to_string(),
            format!("{:.1}", r.m.mean_ns / 1000.0),
            group(r.m.per_second().round() as u64),
            format!("{:.2}", per / 1000.0),
            format!("{:.2}", per / single_ns),
        ]
    };
    let json_rows: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "n": r.n,
                "mode": r.mode.name(),
                "measurement": measurement_json(&r.m),
                "us_per_verify": r.m.ns_per_item() / 1000.0,
                "vs_single": r.m.ns_per_item() / single_ns,
            })
        })
        .collect();
    Table {
        title: "Ed25519 batch verification".into(),
        notes: vec![
            format!(
                "{}; single verify is the backend's one-at-a-time verification. \
                 Signatures by {KEYS} keys over distinct {MESSAGE_LEN}-byte messages; \
                 parallel cuts the batch into one chunk per thread ({threads}).",
                backend.version()
            ),
            "verify_batch gives single verification's verdicts: signatures with a \
             small-order component or a non-canonical encoding are left to it \
             (docs/bench/ed25519-batch.md)."
                .into(),
        ],
        header,
        rows: rows.iter().map(cells).collect(),
        text_columns: vec![1],
        json: json!({"title": "ed25519 batch verification", "threads": threads, "rows": json_rows}),
    }
}
