//! `pkit crl gen`'s pipeline: the next CRL number, every revoked certificate streamed
//! from the CA's records into one TBSCertList (those expired left out when asked), the
//! lint gate over it, and the signature. What is made is handed back for the caller to
//! record and write: recording it ([`CaStore::insert_crl`]) and writing the file both
//! wait on the disk, and the command line runs them side by side.

use crate::crl::{sign_crl, CrlFields, TbsCrlBuilder};
use crate::issuer::{CaError, Issuer};
use crate::store::{CaStore, CrlRecord, StoreError};
use pkit_der::Time;
use pkit_lint::Finding;
use std::fmt;

/// What a CRL covers and for how long.
#[derive(Debug, Clone, Copy)]
pub struct CrlOptions {
    /// thisUpdate.
    pub this_update: Time,
    /// nextUpdate − thisUpdate, in seconds.
    pub lifetime: i64,
    /// Leave out the certificates that expired before thisUpdate (RFC 5280 §3.3 lets a
    /// CRL drop them once expired).
    pub drop_expired: bool,
}

/// A CRL signed and ready to record.
#[derive(Debug, Clone)]
pub struct GeneratedCrl {
    /// The CRL and its number and times, as the CA's records keep them.
    pub record: CrlRecord,
    /// How many revoked certificates it lists.
    pub entries: usize,
    /// What the lint gate found and let through (warnings; errors refuse).
    pub findings: Vec<Finding>,
}

/// Why no CRL was made.
#[derive(Debug)]
pub enum CrlError {
    /// The CA's records could not be read.
    Store(StoreError),
    /// The lint gate refused the CRL, or the signature failed.
    Ca(CaError),
}

impl fmt::Display for CrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrlError::Store(e) => write!(f, "{e}"),
            CrlError::Ca(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CrlError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CrlError::Store(e) => Some(e),
            CrlError::Ca(e) => Some(e),
        }
    }
}

impl From<StoreError> for CrlError {
    fn from(e: StoreError) -> Self {
        CrlError::Store(e)
    }
}

/// The next CRL of `issuer`'s CA over the revoked certificates in `store`, checked by
/// the CA's lint gate and signed. The CRL number is taken from the records; nothing is
/// written to them.
pub fn generate_crl(
    issuer: &Issuer,
    store: &mut dyn CaStore,
    o: &CrlOptions,
) -> Result<GeneratedCrl, CrlError> {
    let fields = CrlFields {
        this_update: o.this_update,
        next_update: o.this_update.plus_seconds(o.lifetime),
        number: store.next_crl_number()?,
    };
    let crl_issuer = issuer.crl_issuer();
    // Sizing the buffer up front spares a million-entry CRL its reallocations.
    let expected = store.revoked_count()?;
    let mut builder = TbsCrlBuilder::begin(&crl_issuer, &fields, expected);
    let now = o.this_update.unix;
    store.for_each_revoked(&mut |r| {
        if !(o.drop_expired && r.not_after < now) {
            builder.push_revoked(&r);
        }
    })?;
    let entries = builder.entries();
    let tbs = builder.finish();
    let findings = issuer
        .gate
        .check_crl(&tbs, issuer.scheme)
        .map_err(|r| CrlError::Ca(CaError::Lint(r.findings)))?;
    let mut signer = issuer
        .key
        .signer()
        .map_err(|e| CrlError::Ca(CaError::Backend(e)))?;
    let der = sign_crl(&tbs, signer.as_mut()).map_err(|e| CrlError::Ca(CaError::Backend(e)))?;
    Ok(GeneratedCrl {
        record: CrlRecord {
            number: fields.number,
            this_update: fields.this_update.unix,
            next_update: fields.next_update.unix,
            der,
        },
        entries,
        findings,
    })
}
