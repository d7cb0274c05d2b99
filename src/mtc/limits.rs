//! The bounds of the MTC wire format's integers, shared by the modules that encode
//! indices (proofs, serial numbers) so that none has to reach into another for them.

/// Largest uint48: entry indices, subtree ends, the low 48 bits of a serial number.
pub const UINT48_MAX: u64 = (1 << 48) - 1;
