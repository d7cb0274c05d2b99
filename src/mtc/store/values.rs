//! How both log stores turn the log's values into database columns and back: indices and
//! sizes are `u64` in the tree and signed 64-bit integers in SQLite and PostgreSQL, hashes
//! are 32-byte blobs. A stored value that does not fit is the database's fault (exit 4);
//! an index past the database's range is the caller's (exit 2).

use crate::error::{MtcError, Result};
use crate::hash::Hash;

/// An index or size as the databases store it.
pub(super) fn to_i64(v: u64) -> Result<i64> {
    i64::try_from(v).map_err(|_| MtcError::Invalid(format!("{v} exceeds the database range")))
}

/// A stored index or size: never negative in pkit's rows.
#[cfg(feature = "postgres")]
pub(super) fn to_u64(v: i64) -> Result<u64> {
    u64::try_from(v)
        .map_err(|_| MtcError::Store(format!("database: a stored index is negative ({v})")))
}

/// A stored hash.
pub(super) fn blob_hash(v: &[u8]) -> Result<Hash> {
    v.try_into()
        .map_err(|_| MtcError::Store("database: a stored hash is not 32 bytes".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_errors() {
        assert!(matches!(to_i64(u64::MAX), Err(MtcError::Invalid(_))));
        assert!(matches!(to_u64(-1), Err(MtcError::Store(_))));
        assert!(matches!(blob_hash(&[0; 31]), Err(MtcError::Store(_))));
        assert_eq!(to_u64(to_i64(7).unwrap()).unwrap(), 7);
        assert_eq!(blob_hash(&[1; 32]).unwrap(), [1; 32]);
    }
}
