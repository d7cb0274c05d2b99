//! The signatures path building is about to check, found ahead and checked together.
//!
//! Verifying many certificates, each target's signature is checked against the pool
//! certificates named as its issuer, one at a time, deep in the search. Where a batch
//! pays (Ed25519 signatures under Ed25519 keys: one multiscalar multiplication for
//! many), those signatures are collected first and checked in one parallel batch; the
//! search then finds them answered ([`pkit_x509::backend::Prechecked`]). Other
//! signatures, and any the batch rejects, are checked one by one as before, so the
//! verdicts are those single verification gives.

use super::dn;
use super::pool::Pool;
use crate::der::oid_registry as oids;
use pkit_x509::alg::SignatureScheme;
use pkit_x509::backend::VerifyItem;
use pkit_x509::cert::Certificate;

/// Whether any pool certificate has an Ed25519 key: without one there is nothing to
/// batch, and the targets need not be read ahead.
pub(crate) fn worth_batching(pools: &[&Pool<'_>]) -> bool {
    pools
        .iter()
        .flat_map(|p| p.iter())
        .any(|c| c.spki.algorithm.oid == oids::ED25519)
}

/// The Ed25519 signatures of `targets` under the Ed25519 keys of the pool certificates
/// whose subject is the target's issuer.
pub(crate) fn likely_signatures<'a>(
    pools: &[&Pool<'a>],
    targets: &[Certificate<'a>],
) -> Vec<VerifyItem<'a>> {
    let mut out = Vec::new();
    for c in targets {
        if !matches!(
            c.signature_algorithm.signature_scheme(),
            Ok(Some(SignatureScheme::Ed25519))
        ) {
            continue;
        }
        let computed;
        let key = match pools.iter().find_map(|p| p.known_key(&c.issuer)) {
            Some(k) => k,
            None => {
                computed = dn::key(&c.issuer);
                &computed
            }
        };
        for cand in pools.iter().flat_map(|p| p.with_subject_key(key)) {
            if cand.spki.algorithm.oid == oids::ED25519 {
                out.push(VerifyItem {
                    spki_der: cand.spki.raw,
                    scheme: SignatureScheme::Ed25519,
                    message: c.tbs_raw,
                    signature: c.signature.bytes,
                });
            }
        }
    }
    out
}
