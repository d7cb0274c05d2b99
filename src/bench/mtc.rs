//! The Merkle Tree Certificate pipeline of mtc-pipeline-benchmark.md, stage by stage,
//! through the `mtc` library's public calls (see the stage table in `src/mtc/mod.rs`).
//! A fresh CA (X.509 issuer and MTC cosigner, same algorithm) and a fresh log per batch
//! size; the batch's certificates are the log's entries 0..N, covered by one checkpoint.
//!
//! The proofs are those of standalone certificates: each leads to the covering subtree of
//! `[0, N)` that holds its entry, the subtree the checkpoint cosigns, and carries that
//! subtree's cosignature. `db_insert_proofs` and `db_insert_standalone` write the rows
//! `pkit mtc cert` records in `mtc.db` (`proofs`, `certificates`), and
//! `db_read_standalone` reads them back from the batch's log; an untimed check compares
//! the batch's certificates with what `pkit mtc cert` issues from that log.

use super::harness::timed;
use super::recorder::Recorder;
use super::report::OpRow;
use super::scratch::{Db, Scratch};
use super::x509::{self, insert_stage, mean_len};
use super::{BenchError, Result};
use crate::der::Time;
use pkit_mtc::add::append_bulk;
use pkit_mtc::cert::{assemble, build_tbs, entry_from_certificate, serial_number, CaInfo};
use pkit_mtc::cosign::Cosigner;
use pkit_mtc::entry::parse_entry;
use pkit_mtc::hash::{leaf_hash, Hash};
use pkit_mtc::ids::TrustAnchorId;
use pkit_mtc::issuer::{create_checkpoint, issue, MtcCa};
use pkit_mtc::proof::{Cosignature, MtcProof};
use pkit_mtc::store::{CertKind, LogStore, NewEntry, StoredCertificate, StoredProof};
use pkit_mtc::subtree::{covering_subtrees, Subtree};
use pkit_mtc::tree::{all_inclusion_proofs, evaluate_inclusion_proof, inclusion_proof, MemTree};
use pkit_mtc::verify::{verify_certificates, Policy};
use pkit_x509::alg::Algorithm;
use rayon::prelude::*;

/// The operations pkit measures, in the seed's table order, with notes.
pub const OPERATIONS: [(&str, &str); 19] = [
    ("cert_gen", "subscriber keygen + CA signature, parallel"),
    ("entry_convert", "X.509 → MTCLogEntry, parallel"),
    ("leaf_hash", "SHA-256, parallel"),
    ("db_insert_entries", "SQLite WAL, entries + tree nodes"),
    ("tree_build", "complete nodes by level + root"),
    ("proof_gen_all", "one inclusion proof per entry"),
    ("proof_gen_one", "1 proof/batch"),
    ("checkpoint_create", "signed note + subtree cosignature"),
    ("db_insert_checkpoint", "SQLite WAL"),
    ("proof_encode", "MTCProof TLS encoding, parallel"),
    (
        "db_insert_proofs",
        "SQLite WAL, 1 transaction, mtc.db proofs",
    ),
    (
        "standalone_build",
        "TBSCertificate from entry + SPKI, parallel",
    ),
    ("standalone_encode", "certificate DER, parallel"),
    (
        "db_insert_standalone",
        "SQLite WAL, 1 transaction, mtc.db certificates",
    ),
    ("proof_verify_one", "1 proof/batch"),
    ("proof_verify_all", "parallel"),
    (
        "standalone_verify",
        "pkit mtc verify: parse, proof, cosignatures batched; parallel",
    ),
    ("db_read_entries", "SQLite read"),
    ("db_read_standalone", "SQLite read, mtc.db certificates"),
];

/// The log number certificates are issued under (serials are log << 48 | index).
const LOG: u16 = 1;
/// An example CA ID (a relative OID under the draft's experimental arc).
const CA_ID: &str = "32473.1";

/// Encoded sizes, in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MtcSizes {
    /// Mean MTCLogEntry size.
    pub entry: f64,
    /// Mean MTCProof size.
    pub proof: f64,
    /// Mean standalone certificate size.
    pub standalone: f64,
}

/// One algorithm's MTC pipeline over all batch sizes.
#[derive(Debug, Clone)]
pub struct MtcRun {
    /// The CA's and subscribers' key algorithm.
    pub algorithm: Algorithm,
    /// Each stage's cells.
    pub rows: Vec<OpRow>,
    /// The encoded sizes.
    pub sizes: MtcSizes,
}

/// Run the MTC pipeline (`pkit bench mtc`) for `alg` at each of `batches`.
pub fn run(
    h: &super::harness::Harness<'_>,
    alg: Algorithm,
    batches: &[u64],
    scratch: &Scratch,
) -> Result<MtcRun> {
    let mut sizes = MtcSizes::default();
    let ops = scratch.operations(&OPERATIONS);
    let rows = Recorder::run_batches(h, format!("mtc {}", alg.name()), batches, &ops, |rec, n| {
        one_batch(rec, alg, n, scratch, &mut sizes)
    })?;
    Ok(MtcRun {
        algorithm: alg,
        rows,
        sizes,
    })
}

/// `rekey` for rows keyed by entry index: repetition `rep` records the batch of `n` as
/// entries `rep·n..(rep+1)·n`, so that no repetition replaces another's rows.
fn reindex<T>(
    n: u64,
    field: impl Fn(&mut T) -> (&mut u64, usize),
) -> impl Fn(&mut T, u64, usize) -> usize {
    move |r, rep, i| {
        let (index, len) = field(r);
        *index = rep * n + i as u64;
        len
    }
}

/// The `(entry, spki)` pairs, as `entry_from_certificate` returns them.
type Entries = Vec<(Vec<u8>, Vec<u8>)>;

fn one_batch(
    rec: &mut Recorder<'_, '_>,
    alg: Algorithm,
    n: u64,
    scratch: &Scratch,
    sizes: &mut MtcSizes,
) -> Result<()> {
    let now = Time::now();
    // ca_self_sign is the X.509 bench's; here the CA is only the means to cert_gen. Its
    // name is the MTC CA ID's, so the entries name the CA that logs them (§5.5) and
    // standalone certificates verify.
    let ca_id = TrustAnchorId::parse(CA_ID)?;
    let (issuer, _, ca_key) = x509::make_ca(rec, alg, &ca_id.to_name_der(), now)?;
    rec.cells.remove("ca_self_sign");
    let items = x509::batch_items(alg, x509::SUBJECT, n, now)?;
    let mut issued = Vec::new();
    rec.stage("cert_gen", n, || {
        let (d, v) = timed(|| x509::issue_batch(rec.h.subscriber_keys, &issuer, &items, now))?;
        issued = v;
        Ok(d)
    })?;

    let mut entries: Entries = Vec::new();
    rec.stage("entry_convert", n, || {
        let (d, v) = timed(|| {
            issued
                .par_iter()
                .map(|c| Ok(entry_from_certificate(&c.der)?))
                .collect::<Result<Entries>>()
        })?;
        entries = v;
        Ok(d)
    })?;
    sizes.entry = mean_len(entries.iter().map(|(e, _)| e.len()));

    let mut leaves: Vec<Hash> = Vec::new();
    rec.stage("leaf_hash", n, || {
        let (d, v) = timed(|| Ok(entries.par_iter().map(|(e, _)| leaf_hash(e)).collect()))?;
        leaves = v;
        Ok(d)
    })?;

    let new_entries: Vec<NewEntry> = entries
        .iter()
        .zip(&leaves)
        .map(|((entry, spki), leaf)| NewEntry {
            entry: entry.clone(),
            spki: spki.clone(),
            leaf: *leaf,
        })
        .collect();
    // Appending is what a log does, so repetitions append to one scratch log.
    let name = format!("mtc-{}-{n}", alg.name());
    let mut stores: Vec<(Db, Box<dyn LogStore>)> = Vec::new();
    for db in scratch.dbs() {
        let mut log: Box<dyn LogStore> = scratch.store(db, &name)?;
        rec.stage(scratch.row(db, "db_insert_entries"), n, || {
            // What `pkit mtc add --from` runs: chunks, with the bulk-load hint.
            timed(|| Ok(append_bulk(log.as_mut(), &new_entries)?)).map(|(d, _)| d)
        })?;
        drop(log);
        let mut store: Box<dyn LogStore> = scratch.store(db, &format!("{name}-log"))?;
        append_bulk(store.as_mut(), &new_entries)?;
        stores.push((db, store));
    }

    let mut tree = MemTree::new();
    rec.stage("tree_build", n, || {
        let input = leaves.clone();
        let (d, t) = timed(|| {
            let t = MemTree::from_leaves(input);
            std::hint::black_box(t.root());
            Ok(t)
        })?;
        tree = t;
        Ok(d)
    })?;
    // The subtrees the checkpoint will cosign, and the one holding each entry.
    let (left, right) = covering_subtrees(0, n);
    let signed: Vec<Subtree> = [left, right]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    let subtree_of = |i: u64| if left.contains(i) { left } else { right };
    let mut proofs: Vec<Vec<Hash>> = Vec::new();
    rec.stage("proof_gen_all", n, || {
        let (d, v) = timed(|| {
            let mut all = Vec::with_capacity(n as usize);
            for st in &signed {
                all.extend(all_inclusion_proofs(&tree, *st)?);
            }
            Ok(all)
        })?;
        proofs = v;
        Ok(d)
    })?;
    let mid = n / 2;
    rec.stage("proof_gen_one", 1, || {
        timed(|| Ok(inclusion_proof(&tree, mid, subtree_of(mid))?)).map(|(d, _)| d)
    })?;

    let cosigner = Cosigner::new(ca_id.clone(), Box::new(ca_key))?;
    let ca = MtcCa {
        ca_id,
        log: LOG,
        cosigner,
    };
    let stamp = u64::try_from(now.unix).unwrap_or(0);
    let mut checkpoint = None;
    rec.stage("checkpoint_create", 1, || {
        let (d, r) = timed(|| Ok(create_checkpoint(&tree, 0, &ca, stamp)?))?;
        checkpoint = Some(r);
        Ok(d)
    })?;
    let cp = checkpoint.ok_or_else(|| BenchError::Check("no checkpoint".into()))?;
    for (db, store) in &mut stores {
        let mut rep = 0u64;
        let mut cp_log: Box<dyn LogStore> = scratch.store(*db, &format!("{name}-cp"))?;
        rec.stage(scratch.row(*db, "db_insert_checkpoint"), 1, || {
            // Each repetition records a checkpoint of its own size and subtree (the keys
            // of the tables), with this checkpoint's bytes.
            rep += 1;
            let mut c = cp.checkpoint.clone();
            c.size = rep;
            let mut sigs = cp.signatures.clone();
            for s in &mut sigs {
                s.subtree = Subtree::new(rep - 1, rep);
            }
            timed(|| Ok(cp_log.insert_checkpoint(&c, &sigs)?)).map(|(d, ())| d)
        })?;
        store.insert_checkpoint(&cp.checkpoint, &cp.signatures)?;
    }

    // Each signed subtree's cosignatures, as a standalone proof carries them.
    let signatures = |st: Subtree| -> Vec<Cosignature> {
        cp.signatures
            .iter()
            .filter(|s| s.subtree == st)
            .map(|s| Cosignature {
                cosigner_id: s.cosigner.clone(),
                signature: s.signature.clone(),
            })
            .collect()
    };
    let cosigned: Vec<(Subtree, Vec<Cosignature>)> =
        signed.iter().map(|&st| (st, signatures(st))).collect();
    let mut encoded: Vec<Vec<u8>> = Vec::new();
    rec.stage("proof_encode", n, || {
        let (d, v) = timed(|| {
            proofs
                .par_iter()
                .enumerate()
                .map(|(i, p)| {
                    let (st, sigs) = cosigned
                        .iter()
                        .find(|(st, _)| st.contains(i as u64))
                        .ok_or_else(|| BenchError::Check(format!("no subtree holds {i}")))?;
                    Ok(MtcProof {
                        extensions: Vec::new(),
                        subtree: *st,
                        inclusion_proof: p.clone(),
                        signatures: sigs.clone(),
                    }
                    .encode()?)
                })
                .collect::<Result<Vec<_>>>()
        })?;
        encoded = v;
        Ok(d)
    })?;
    sizes.proof = mean_len(encoded.iter().map(Vec::len));
    let proof_rows: Vec<StoredProof> = (0..n)
        .zip(&encoded)
        .map(|(index, p)| StoredProof {
            index,
            kind: CertKind::Standalone,
            subtree: subtree_of(index),
            proof: p.clone(),
        })
        .collect();
    insert_stage(
        rec,
        "db_insert_proofs",
        scratch,
        &proof_rows,
        reindex(n, |p: &mut StoredProof| (&mut p.index, p.proof.len())),
        |s: &mut Box<dyn LogStore>, rows| Ok(s.insert_proofs(rows)?),
    )?;

    let mut tbs: Vec<Vec<u8>> = Vec::new();
    rec.stage("standalone_build", n, || {
        let (d, v) = timed(|| {
            entries
                .par_iter()
                .enumerate()
                .map(|(i, (entry, spki))| {
                    let parsed = parse_entry(entry)?;
                    Ok(build_tbs(
                        parsed.tbs_entry,
                        spki,
                        serial_number(LOG, i as u64)?,
                    )?)
                })
                .collect::<Result<Vec<_>>>()
        })?;
        tbs = v;
        Ok(d)
    })?;
    let mut certs: Vec<Vec<u8>> = Vec::new();
    rec.stage("standalone_encode", n, || {
        let (d, v) = timed(|| {
            Ok(tbs
                .par_iter()
                .zip(encoded.par_iter())
                .map(|(t, p)| assemble(t, p))
                .collect())
        })?;
        certs = v;
        Ok(d)
    })?;
    sizes.standalone = mean_len(certs.iter().map(Vec::len));
    let cert_rows: Vec<StoredCertificate> = (0..n)
        .zip(&certs)
        .map(|(index, der)| StoredCertificate {
            index,
            kind: CertKind::Standalone,
            der: der.clone(),
            created: now.unix,
        })
        .collect();
    insert_stage(
        rec,
        "db_insert_standalone",
        scratch,
        &cert_rows,
        reindex(n, |c: &mut StoredCertificate| (&mut c.index, c.der.len())),
        |s: &mut Box<dyn LogStore>, rows| Ok(s.insert_certificates(rows)?),
    )?;
    // The batch's log records them as `pkit mtc cert` does, which issues the same bytes.
    for (_, store) in &mut stores {
        store.record_issued(&proof_rows, &cert_rows)?;
        for i in [0, mid, n - 1] {
            let cli = issue(&**store, LOG, i, CertKind::Standalone, stamp)?;
            let ours = (&proof_rows[i as usize], &cert_rows[i as usize]);
            if (&cli.proof, &cli.certificate) != ours {
                return Err(BenchError::Check(format!(
                    "entry {i}: the benchmark's certificate differs from pkit mtc cert's"
                )));
            }
        }
    }

    let subtree_hashes = cp.subtrees.clone();
    let verify = |i: usize| -> Result<()> {
        let st = subtree_of(i as u64);
        let r = evaluate_inclusion_proof(i as u64, st, &leaves[i], &proofs[i])?;
        if subtree_hashes.iter().any(|(s, h)| *s == st && *h == r) {
            Ok(())
        } else {
            Err(BenchError::Check(format!(
                "inclusion proof {i} does not reach its signed subtree"
            )))
        }
    };
    rec.stage("proof_verify_one", 1, || {
        timed(|| verify(mid as usize)).map(|(d, ())| d)
    })?;
    rec.stage("proof_verify_all", n, || {
        timed(|| (0..proofs.len()).into_par_iter().try_for_each(verify)).map(|(d, ())| d)
    })?;
    // What a relying party runs on standalone certificates: every step of
    // draft-07 §7.2, the CA's cosignature over each subtree checked once in a batch.
    let ders: Vec<&[u8]> = certs.iter().map(Vec::as_slice).collect();
    let first = u64::from(LOG) << 48;
    let policy = Policy {
        ca: CaInfo {
            ca_id: ca.ca_id.clone(),
            spki: ca.cosigner.public.spki.clone(),
            min_serial: first,
            max_serial: first | ((1 << 48) - 1),
        },
        cosigners: Vec::new(),
        trusted: Vec::new(),
        now,
    };
    rec.stage("standalone_verify", n, || {
        let (d, verdicts) = timed(|| Ok(verify_certificates(rec.h.backend, &ders, &policy)))?;
        for (i, v) in verdicts.into_iter().enumerate() {
            if let Some((step, why)) = v?.failed {
                return Err(BenchError::Check(format!(
                    "standalone certificate {i} does not verify at {step:?}: {why}"
                )));
            }
        }
        Ok(d)
    })?;
    for (db, store) in &stores {
        rec.stage(scratch.row(*db, "db_read_entries"), n, || {
            let (d, rows) = timed(|| Ok(store.entries(0, n)?))?;
            if rows.len() as u64 != n {
                return Err(BenchError::Check(format!(
                    "read {} of {n} entries",
                    rows.len()
                )));
            }
            Ok(d)
        })?;
    }
    for (db, store) in &stores {
        rec.stage(scratch.row(*db, "db_read_standalone"), n, || {
            let (d, rows) = timed(|| Ok(store.stored_certificates(0, n, CertKind::Standalone)?))?;
            if rows != cert_rows {
                return Err(BenchError::Check(format!(
                    "read {} of {n} certificates, or other bytes",
                    rows.len()
                )));
            }
            Ok(d)
        })?;
    }
    Ok(())
}
