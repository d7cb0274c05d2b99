//! Many targets verified against the same trust anchors and intermediates, as `pkit
//! verify` does with many inputs and as `pkit bench verify` times it: when a batch pays
//! (a pool with Ed25519 keys, more than one target), the targets' likely signatures are
//! checked together first (`prebatch`) and the searches find them answered;
//! then every target is verified in parallel by one [`Verifier`], its verdict handed to
//! the caller's function on the thread that made it (so a caller can render there).

use super::build::{PathVerdict, Verifier};
use super::options::Options;
use super::pool::Pool;
use super::prebatch;
use super::validate::RevocationSource;
use pkit_x509::backend::{Backend, Prechecked};
use pkit_x509::cert::Certificate;
use rayon::prelude::*;

/// What is verified, for each of the caller's items: the target and the certificates
/// that came with it. `None` when the item holds no usable certificate; `each` is then
/// called with `Err` and the item, to report it as the caller does.
pub type Chain<'a> = (Certificate<'a>, Vec<Certificate<'a>>);

/// Verify every item of `items` under `opts`: `chain` reads an item's certificates,
/// `each` turns the verdict (or the item's own error) into the caller's result.
#[allow(clippy::too_many_arguments)]
pub fn verify_many<'a, T, E, R>(
    backend: &Backend,
    roots: &Pool<'a>,
    untrusted: &Pool<'a>,
    revocation: Option<&dyn RevocationSource>,
    opts: &Options<'_>,
    items: &'a [T],
    chain: impl Fn(&'a T) -> Result<Chain<'a>, E> + Sync,
    each: impl Fn(&'a T, Result<PathVerdict<'a>, E>) -> R + Sync,
) -> Vec<R>
where
    T: Sync,
    E: Send,
    R: Send,
{
    // Each item's certificates are read once, for the batch and for its search.
    let chains: Vec<Result<Chain<'a>, E>> = items.par_iter().map(&chain).collect();
    let prechecked;
    let backend: &Backend = if items.len() > 1 && prebatch::worth_batching(&[roots, untrusted]) {
        let targets: Vec<Certificate<'a>> = chains
            .iter()
            .filter_map(|c| c.as_ref().ok().map(|(t, _)| *t))
            .collect();
        let likely = prebatch::likely_signatures(&[roots, untrusted], &targets);
        prechecked = Prechecked::over(backend, &likely);
        &prechecked
    } else {
        backend
    };
    let verifier = Verifier::new(backend, roots, untrusted, revocation);
    items
        .par_iter()
        .zip(chains)
        .map(|(item, chain)| {
            let verdict = chain.map(|(target, extra)| verifier.verify(target, &extra, opts));
            each(item, verdict)
        })
        .collect()
}
