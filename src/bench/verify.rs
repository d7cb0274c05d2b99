//! `pkit bench verify`: chain validation as `pkit verify` does it — a leaf, its
//! intermediate and a trusted root, the path built and validated by
//! [`pkit_verify::build::Verifier`] — next to the raw limit it is judged against
//! (one signature verification per leaf), and the "trust hierarchy" row of the parse
//! document: indexing a root store by subject.

use super::harness::timed;
use super::recorder::Recorder;
use super::report::OpRow;
use super::x509::{batch_items, issue_batch};
use super::{BenchError, Result};
use crate::der::Time;
use pkit_ca::issuer::{self_signed, Issuer, Request};
use pkit_ca::profile::Profile;
use pkit_verify::many::verify_many;
use pkit_verify::options::Options;
use pkit_verify::pool::Pool;
use pkit_x509::alg::Algorithm;
use pkit_x509::cert::Certificate;
use pkit_x509::signed::verify_signed;
use pkit_x509::subject::parse_subject;
use rayon::prelude::*;

/// The operations, in table order, with their notes.
pub const OPERATIONS: [(&str, &str); 3] = [
    (
        "chain_verify",
        "leaf → intermediate → root, path building + RFC 5280 §6.1, parallel",
    ),
    (
        "signature_verify",
        "the leaf's signature alone, parallel: the raw limit of chain_verify",
    ),
    (
        "root_index_build",
        "the trust store indexed by subject; items = roots",
    ),
];

/// Every batch size for `alg`; `roots` are the DER certificates of a trust store.
pub fn run(
    h: &super::harness::Harness<'_>,
    alg: Algorithm,
    batches: &[u64],
    roots: &[Vec<u8>],
) -> Result<Vec<OpRow>> {
    Recorder::run_batches(
        h,
        format!("verify {}", alg.name()),
        batches,
        &OPERATIONS,
        |rec, n| one_batch(rec, alg, n, roots),
    )
}

fn one_batch(rec: &mut Recorder<'_, '_>, alg: Algorithm, n: u64, store: &[Vec<u8>]) -> Result<()> {
    let backend = rec.h.backend;
    let now = Time::now();
    let later = now.plus_seconds(2 * 365 * 86_400);
    let check = |e: String| BenchError::Check(e);
    let subject = |s: &str| parse_subject(s).map_err(|e| check(e.to_string()));
    // A root, an intermediate under it, and n leaves under that.
    let root_key = backend.generate(alg)?;
    let root_der = self_signed(
        root_key.as_ref(),
        &subject("CN=pkit bench root")?,
        now,
        later,
        None,
    )?;
    let root = Issuer::new(root_der.clone(), root_key)?;
    let int_key = backend.generate(alg)?;
    let int_req = Request {
        key_alg: Some(alg),
        path_len: Some(0),
        ..Request::new(
            subject("CN=pkit bench intermediate")?,
            int_key.public_key_der()?,
            Profile::Ca,
            now,
            later,
        )
    };
    let int_der = root.issue(root.key.signer()?.as_mut(), &int_req)?.der;
    let int = Issuer::new(int_der.clone(), int_key)?;
    let leaves = issue_batch(
        backend,
        &int,
        &batch_items(alg, "CN=leaf.bench", n, now)?,
        now,
    )?;
    let root_cert = parse(&root_der)?;
    let int_cert = parse(&int_der)?;
    let leaf_certs = leaves
        .iter()
        .map(|l| parse(&l.der))
        .collect::<Result<Vec<_>>>()?;
    let mut roots = Pool::new();
    roots.add(root_cert);
    let mut intermediates = Pool::new();
    intermediates.add(int_cert);
    let opts = Options::at(now);

    rec.stage("chain_verify", n, || {
        let (d, valid) = timed(|| {
            // What `pkit verify LEAF…` runs: a fresh verifier per run (each invocation
            // starts with an empty signature cache), the batch of likely signatures
            // first where one pays.
            let verdicts = verify_many(
                backend,
                &roots,
                &intermediates,
                None,
                &opts,
                &leaf_certs,
                |l| Ok::<_, ()>((*l, Vec::new())),
                |_, v| v.is_ok_and(|v| v.valid()),
            );
            Ok(verdicts.into_iter().filter(|ok| *ok).count())
        })?;
        if valid as u64 != n {
            return Err(check(format!("{valid} of {n} chains verified")));
        }
        Ok(d)
    })?;
    rec.stage("signature_verify", n, || {
        let (d, ok) = timed(|| {
            Ok(leaf_certs
                .par_iter()
                .filter(|l| {
                    verify_signed(
                        backend,
                        int_cert.spki.raw,
                        &l.signature_algorithm,
                        l.tbs_raw,
                        l.signature.bytes,
                    )
                    .unwrap_or(false)
                })
                .count())
        })?;
        if ok as u64 != n {
            return Err(check(format!("{ok} of {n} signatures verified")));
        }
        Ok(d)
    })?;
    let store_certs = store.iter().map(|d| parse(d)).collect::<Result<Vec<_>>>()?;
    rec.stage("root_index_build", store_certs.len() as u64, || {
        let (d, pool) = timed(|| {
            let mut p = Pool::new();
            for c in &store_certs {
                p.add(*c);
            }
            Ok(p)
        })?;
        if pool.is_empty() {
            return Err(check("the root store holds no certificate".into()));
        }
        Ok(d)
    })?;
    Ok(())
}

fn parse(der: &[u8]) -> Result<Certificate<'_>> {
    Certificate::from_der(der).map_err(|e| BenchError::Parse(e.to_string()))
}
