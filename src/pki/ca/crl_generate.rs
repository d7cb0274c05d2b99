//! `pkit crl gen`'s pipeline, in stages that `pkit bench x509` times one by one:
//! [`build`] (a CRL number, every revoked certificate streamed from the CA's
//! records into one TBSCertList, those expired left out when asked), [`gate`] (the lint
//! gate over it) and [`sign`]; [`generate_crl`] runs the three. What is made is handed
//! back for the caller to publish with [`record_and_write`]: recording it
//! ([`CaStore::insert_crl`]) and writing the file both wait on the disk, so they run side
//! by side, and a file is not left behind for a CRL that did not go on record.

use crate::crl::{sign_crl, tbs_cert_list, CrlFields};
use crate::crl_entries::RevokedList;
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
    let mut all = build_scopes(issuer, store, o, &[Scope::Whole], number)?;
    Ok(all.remove(0))
}

/// Which revoked certificates a CRL lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Every one: the CA's whole CRL, at its `crl_urls`.
    Whole,
    /// Those whose serial falls in this shard of the CA's `crl_shards`
    /// ([`crate::pointers::shard_of`]), with an issuingDistributionPoint naming the
    /// shard's URLs ([`crate::pointers::shard_url`]), as their certificates'
    /// cRLDistributionPoints do.
    Shard(u32),
}

impl Scope {
    /// Every scope a CA publishes: the whole CRL, then each shard.
    pub fn all_of(issuer: &Issuer) -> Vec<Scope> {
        let shards = if issuer.crl_shards > 1 {
            issuer.crl_shards
        } else {
            0
        };
        std::iter::once(Scope::Whole)
            .chain((0..shards).map(Scope::Shard))
            .collect()
    }

    /// Where a CRL of this scope is served: the CA's CRL URLs, or the shard's.
    pub fn urls(self, issuer: &Issuer) -> Vec<String> {
        match self {
            Scope::Whole => issuer.pointers.crl.clone(),
            Scope::Shard(k) => issuer
                .pointers
                .crl
                .iter()
                .map(|u| crate::pointers::shard_url(u, k))
                .collect(),
        }
    }
}

/// The entries of each of `scopes`, from one walk over the revoked certificates.
pub fn walk_scopes(
    issuer: &Issuer,
    store: &dyn CaStore,
    o: &CrlOptions,
    scopes: &[Scope],
) -> Result<Vec<RevokedList>, CrlError> {
    // Sizing the buffers up front spares a million-entry CRL its reallocations.
    let expected = store.revoked_count()?;
    let shards = issuer.crl_shards.max(1);
    let mut lists: Vec<RevokedList> = scopes
        .iter()
        .map(|scope| match scope {
            Scope::Whole => RevokedList::with_capacity(expected),
            Scope::Shard(_) => RevokedList::with_capacity(expected / shards as usize),
        })
        .collect();
    let now = o.this_update.unix;
    store.for_each_revoked(&mut |r| {
        if o.drop_expired && r.not_after < now {
            return;
        }
        for i in scope_indices(issuer, scopes, &r.serial) {
            lists[i].push_revoked(&r);
        }
    })?;
    Ok(lists)
}

/// Which of `scopes` list the certificate with `serial`: the whole CRL, and its shard's.
pub fn scope_indices<'a>(
    issuer: &Issuer,
    scopes: &'a [Scope],
    serial: &[u8],
) -> impl Iterator<Item = usize> + 'a {
    let shard =
        (issuer.crl_shards > 1).then(|| crate::pointers::shard_of(serial, issuer.crl_shards));
    scopes
        .iter()
        .enumerate()
        .filter(move |(_, s)| match s {
            Scope::Whole => true,
            Scope::Shard(k) => Some(*k) == shard,
        })
        .map(|(i, _)| i)
}

/// The TBSCertList of one scope over `entries`, numbered `number`.
pub fn tbs_of(
    issuer: &Issuer,
    o: &CrlOptions,
    scope: Scope,
    entries: &RevokedList,
    number: u64,
) -> CrlTbs {
    let fields = CrlFields {
        this_update: o.this_update,
        next_update: o.this_update.plus_seconds(o.lifetime),
        number,
    };
    let idp = match scope {
        Scope::Whole => Vec::new(),
        Scope::Shard(_) => scope.urls(issuer),
    };
    CrlTbs {
        tbs: tbs_cert_list(&issuer.crl_issuer(), &fields, &idp, entries),
        fields,
        entries: entries.len(),
    }
}

/// The TBSCertLists of `scopes` in one walk over the revoked certificates, numbered
/// from `first` in the order given.
pub fn build_scopes(
    issuer: &Issuer,
    store: &dyn CaStore,
    o: &CrlOptions,
    scopes: &[Scope],
    first: u64,
) -> Result<Vec<CrlTbs>, CrlError> {
    let lists = walk_scopes(issuer, store, o, scopes)?;
    Ok(scopes
        .iter()
        .zip(&lists)
        .zip(first..)
        .map(|((scope, list), number)| tbs_of(issuer, o, *scope, list, number))
        .collect())
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
/// the CA's lint gate and signed: [`generate_crls`] of the whole CRL alone.
pub fn generate_crl(
    issuer: &Issuer,
    store: &mut dyn CaStore,
    o: &CrlOptions,
) -> Result<GeneratedCrl, CrlError> {
    let mut made = generate_crls(issuer, store, o, &[Scope::Whole])?;
    Ok(made.remove(0))
}

/// The next CRLs of `scopes` ([`walk_scopes`], one walk), each checked by the CA's lint
/// gate, then signed ([`sign_lists`]). They are not recorded ([`record_and_write`]).
pub fn generate_crls(
    issuer: &Issuer,
    store: &mut dyn CaStore,
    o: &CrlOptions,
    scopes: &[Scope],
) -> Result<Vec<GeneratedCrl>, CrlError> {
    let lists = walk_scopes(issuer, &*store, o, scopes)?;
    sign_lists(issuer, store, o, &ToSign::unjudged(scopes, &lists))
}

/// One CRL for [`sign_lists`] to sign.
#[derive(Debug, Clone, Copy)]
pub struct ToSign<'a> {
    /// What it covers.
    pub scope: Scope,
    /// Every entry it lists.
    pub entries: &'a RevokedList,
    /// Those of `entries` the lint gate has not judged yet: all of them, or only those a
    /// publisher merged in since its last CRL of this scope. The gate's CRL lints judge
    /// entries one at a time (none compares two: `pkit_lint`'s `crl.rs` keeps it so),
    /// so the entries of a CRL it let through need not be read again; what it judges
    /// is this CRL's own frame (number, times, extensions) around the unjudged entries.
    pub unjudged: &'a RevokedList,
}

impl<'a> ToSign<'a> {
    /// The CRLs of `scopes` over `lists` (in the same order), no entry judged yet: what
    /// a walk of the records made.
    pub fn unjudged(scopes: &[Scope], lists: &'a [RevokedList]) -> Vec<ToSign<'a>> {
        scopes
            .iter()
            .zip(lists)
            .map(|(scope, entries)| ToSign {
                scope: *scope,
                entries,
                unjudged: entries,
            })
            .collect()
    }
}

/// The next CRLs over entries already gathered, each checked by the CA's lint gate, then
/// signed. Their numbers are claimed in the records only once the gate let every one
/// through, so CRL numbers strictly increase and a refused CRL spends none (when another
/// process took the numbers meanwhile, these are written again under the next). They are
/// not recorded ([`record_and_write`]).
pub fn sign_lists(
    issuer: &Issuer,
    store: &mut dyn CaStore,
    o: &CrlOptions,
    parts: &[ToSign<'_>],
) -> Result<Vec<GeneratedCrl>, CrlError> {
    let count = parts.len() as u64;
    let (built, findings) = loop {
        let first = store.last_crl_number()? + 1;
        let built: Vec<CrlTbs> = parts
            .iter()
            .zip(first..)
            .map(|(p, number)| tbs_of(issuer, o, p.scope, p.entries, number))
            .collect();
        let findings = parts
            .iter()
            .zip(&built)
            .map(|(p, tbs)| {
                if std::ptr::eq(p.entries, p.unjudged) {
                    gate(issuer, tbs)
                } else {
                    gate(
                        issuer,
                        &tbs_of(issuer, o, p.scope, p.unjudged, tbs.fields.number),
                    )
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        if store.claim_crl_numbers(first, count)? {
            break (built, findings);
        }
    };
    let mut signer = issuer
        .key
        .signer()
        .map_err(|e| CrlError::Ca(CaError::Backend(e)))?;
    built
        .iter()
        .zip(findings)
        .map(|(t, f)| sign(signer.as_mut(), t, f))
        .collect()
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
