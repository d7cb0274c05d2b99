//! Setting up an MTC CA (`pkit mtc ca new`): its §5.5 CA certificate with the serial
//! range of its log, and the log's own record of whose it is — the CA's ID, the log's
//! number and the cosigner's algorithm, kept in the log store's `meta` so that every
//! later command (and `acme serve --mtc`) knows the log without the certificate.

use crate::cert::{ca_certificate, CaCertInput};
use crate::cosign::COSIGNER_ALGORITHMS;
use crate::error::{MtcError, Result};
use crate::ids::TrustAnchorId;
use crate::limits::UINT48_MAX;
use crate::store::LogStore;
use pkit_der::Time;
use pkit_x509::alg::Algorithm;

/// The `meta` keys of a log's record.
const META_CA_ID: &str = "ca_id";
const META_LOG: &str = "log";
const META_ALG: &str = "alg";

/// A new MTC CA, as `pkit mtc ca new` is asked for it.
#[derive(Debug, Clone)]
pub struct NewMtcCa<'a> {
    /// The CA's trust anchor ID.
    pub ca_id: &'a TrustAnchorId,
    /// The log's number under the CA: 1 to 65535.
    pub log: u16,
    /// The cosigner key's SubjectPublicKeyInfo.
    pub spki: &'a [u8],
    /// The cosigner key's algorithm: one of [`COSIGNER_ALGORITHMS`].
    pub alg: Algorithm,
    /// The start of the CA certificate's validity.
    pub not_before: Time,
    /// How many days the CA certificate stands.
    pub days: u32,
}

/// The serial range of log `log`: the log number in the top 16 bits of a 64-bit serial,
/// the entry's index (48 bits) below (draft §5.4).
pub fn serial_range(log: u16) -> (u64, u64) {
    let base = u64::from(log) << 48;
    (base, base | UINT48_MAX)
}

/// The CA certificate (DER) of `ca`; a log number of 0 or an algorithm no cosigner uses
/// is refused ([`MtcError::Invalid`]).
pub fn new_ca_certificate(ca: &NewMtcCa<'_>) -> Result<Vec<u8>> {
    if ca.log == 0 {
        return Err(MtcError::Invalid("log numbers are 1..65535".into()));
    }
    if !COSIGNER_ALGORITHMS.contains(&ca.alg) {
        return Err(MtcError::Invalid(format!(
            "a {} key; MTC cosigners use ecdsa-p256, ed25519, ml-dsa-44, ml-dsa-65 or ml-dsa-87",
            ca.alg
        )));
    }
    let (min_serial, max_serial) = serial_range(ca.log);
    Ok(ca_certificate(&CaCertInput {
        ca_id: ca.ca_id,
        spki: ca.spki,
        alg: ca.alg,
        not_before: ca.not_before,
        not_after: ca.not_before.plus_seconds(i64::from(ca.days) * 86_400),
        min_serial,
        max_serial,
    }))
}

/// Whether `store` already holds a log (another CA's, or this one's): one log per
/// database.
pub fn holds_a_log(store: &dyn LogStore) -> Result<bool> {
    Ok(store.meta(META_CA_ID)?.is_some() || store.size() > 0)
}

/// Record in a new log's store whose log it is.
pub fn record_log(store: &mut dyn LogStore, ca: &NewMtcCa<'_>) -> Result<()> {
    for (k, v) in [
        (META_CA_ID, ca.ca_id.dotted().to_string()),
        (META_LOG, ca.log.to_string()),
        (META_ALG, ca.alg.name().to_string()),
    ] {
        store.set_meta(k, &v)?;
    }
    Ok(())
}

/// The CA's ID and the log's number, as the store records them; a store without them is
/// malformed (not a log `pkit mtc ca new` made).
pub fn log_of_store(store: &dyn LogStore) -> Result<(TrustAnchorId, u16)> {
    let get = |k: &str| -> Result<String> {
        store
            .meta(k)?
            .ok_or_else(|| MtcError::malformed(0, format!("{k} in the log's meta")))
    };
    let id = TrustAnchorId::parse(&get(META_CA_ID)?)?;
    let log = get(META_LOG)?
        .parse()
        .map_err(|_| MtcError::malformed(0, "a log number (1..65535) in the log's meta"))?;
    Ok((id, log))
}
