//! `pkit crl gen`'s pipeline, in stages that `pkit bench x509` times one by one:
//! [`build`] (a CRL number, every revoked certificate streamed from the CA's
//! records into one TBSCertList, those expired left out when asked), [`gate`] (the lint
//! gate over it) and [`sign`]; [`generate_crl`] runs the three. What is made is handed
//! back for the caller to publish with [`record_and_write`]: recording it
//! ([`CaStore::insert_crl`]) and writing the file both wait on the disk, so they run side
//! by side, and a file is not left behind for a CRL that did not go on record.

use crate::crl::{sign_crl, CrlFields, TbsCrlBuilder};
use crate::issuer::{CaError, Issuer};
use crate::store::{CaStore, CrlRecord, StoreError};
use pkit_der::Time;
use pkit_lint::Finding;
use pkit_x509::backend::Signer;
use std::fmt;
use std::path::Path;

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

/// A CRL's TBSCertList, built and not yet signed ([`build`]).
#[derive(Debug, Clone)]
pub struct CrlTbs {
    /// Its number and times.
    pub fields: CrlFields,
    /// The TBSCertList's DER.
    pub tbs: Vec<u8>,
    /// How many revoked certificates it lists.
    pub entries: usize,
}

/// The first stage: the next CRL number, taken from `store` (and so spent there), and
/// every revoked certificate in it streamed into one TBSCertList for `issuer`'s CA;
/// with [`CrlOptions::drop_expired`], those expired before thisUpdate are left out.
pub fn build(issuer: &Issuer, store: &mut dyn CaStore, o: &CrlOptions) -> Result<CrlTbs, CrlError> {
    let number = store.next_crl_number()?;
    build_numbered(issuer, &*store, o, number)
}

/// [`build`] under CRL number `number`, which is not taken here: [`generate_crl`] claims
/// it once the gate has let the CRL through.
pub fn build_numbered(
    issuer: &Issuer,
    store: &dyn CaStore,
    o: &CrlOptions,
    number: u64,
) -> Result<CrlTbs, CrlError> {
    let fields = CrlFields {
        this_update: o.this_update,
        next_update: o.this_update.plus_seconds(o.lifetime),
        number,
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
    Ok(CrlTbs {
        fields,
        tbs: builder.finish(),
        entries,
    })
}

/// The second stage: the CA's lint gate over the TBSCertList. What it lets through comes
/// back (warnings; errors too under `warn`); a refusal is [`CaError::Lint`].
pub fn gate(issuer: &Issuer, tbs: &CrlTbs) -> Result<Vec<Finding>, CrlError> {
    issuer
        .gate
        .check_crl(&tbs.tbs, issuer.scheme)
        .map_err(|r| CrlError::Ca(CaError::Lint(r.findings)))
}

/// The last stage: the signature, with `signer` (one of the CA key's).
pub fn sign(
    signer: &mut dyn Signer,
    tbs: &CrlTbs,
    findings: Vec<Finding>,
) -> Result<GeneratedCrl, CrlError> {
    let der = sign_crl(&tbs.tbs, signer).map_err(|e| CrlError::Ca(CaError::Backend(e)))?;
    Ok(GeneratedCrl {
        record: CrlRecord {
            number: tbs.fields.number,
            this_update: tbs.fields.this_update.unix,
            next_update: tbs.fields.next_update.unix,
            der,
        },
        entries: tbs.entries,
        findings,
    })
}

/// The next CRL of `issuer`'s CA over the revoked certificates in `store`, checked by
/// the CA's lint gate and signed: [`build_numbered`], [`gate`], [`sign`]. Its number is
/// claimed in the records only once the gate let it through, so CRL numbers strictly
/// increase and a refused CRL spends none (another process that took the number
/// meanwhile makes this one build again under the next). The CRL itself is not
/// recorded ([`record_and_write`]).
pub fn generate_crl(
    issuer: &Issuer,
    store: &mut dyn CaStore,
    o: &CrlOptions,
) -> Result<GeneratedCrl, CrlError> {
    let (tbs, findings) = loop {
        let number = store.last_crl_number()? + 1;
        let tbs = build_numbered(issuer, &*store, o, number)?;
        let findings = gate(issuer, &tbs)?;
        if store.claim_crl_number(number)? {
            break (tbs, findings);
        }
    };
    let mut signer = issuer
        .key
        .signer()
        .map_err(|e| CrlError::Ca(CaError::Backend(e)))?;
    sign(signer.as_mut(), &tbs, findings)
}

/// Why a CRL made was not published ([`record_and_write`]).
#[derive(Debug)]
pub enum PublishError<E> {
    /// The records refused it: it is not published, and no file of it is left.
    Store(StoreError),
    /// Writing it out failed (it is on record).
    Write(E),
}

impl<E: fmt::Display> fmt::Display for PublishError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PublishError::Store(e) => write!(f, "{e}"),
            PublishError::Write(e) => write!(f, "{e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for PublishError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PublishError::Store(e) => Some(e),
            PublishError::Write(e) => Some(e),
        }
    }
}

/// Publish a CRL made: record it in `store` (a flushed file and a row, or a row on a
/// database server) while `write` writes it out — both wait mostly on the disk, so they
/// run side by side. When recording fails, `file` (what `write` created, if anything) is
/// removed again: no output is left for a CRL that is not on record. A failed record
/// is reported before a failed write.
pub fn record_and_write<E: Send>(
    store: &mut dyn CaStore,
    crl: &CrlRecord,
    file: Option<&Path>,
    write: impl FnOnce() -> Result<(), E> + Send,
) -> Result<(), PublishError<E>> {
    let (stored, written) = rayon::join(|| store.insert_crl(crl), write);
    if let Err(e) = stored {
        if let (Ok(()), Some(p)) = (&written, file) {
            // Best effort: the error that matters is the record's.
            let _ = std::fs::remove_file(p);
        }
        return Err(PublishError::Store(e));
    }
    written.map_err(PublishError::Write)
}

#[cfg(test)]
mod tests;
