//! Many signatures over the thread pool: the items cut into one chunk per worker (none
//! smaller than [`MIN_CHUNK`]), each chunk one [`Backend::verify_batch`].

use super::api::VerifyItem;
use super::error::Result;
use super::provider::Backend;
use rayon::prelude::*;

/// Below this a chunk's batch saves too little to be worth a thread of its own.
pub(crate) const MIN_CHUNK: usize = 8;

/// One verdict per item, in order, as [`Backend::verify`] would answer each.
pub fn verify_batch_parallel(backend: &Backend, items: &[VerifyItem<'_>]) -> Vec<Result<bool>> {
    let chunk = items
        .len()
        .div_ceil(rayon::current_num_threads())
        .max(MIN_CHUNK);
    if items.len() <= chunk {
        return backend.verify_batch(items);
    }
    items
        .par_chunks(chunk)
        .flat_map_iter(|c| backend.verify_batch(c))
        .collect()
}
