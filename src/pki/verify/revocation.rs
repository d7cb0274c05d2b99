//! A certificate's revocation status from CRLs (RFC 5280 §6.3) and from OCSP responses
//! (RFC 6960), for one link of a validated path: the certificate and the issuer whose key
//! signed it.
//!
//! CRLs are parsed once per run into a [`CrlSet`] and indexed by issuer name; each CRL's
//! extensions are read when the set is built, its entries and its signature only when a
//! certificate of its issuer is first checked against it, and both results are kept for
//! the next certificate.
//!
//! The answer is [`Status::Unknown`] with a sentence saying why whenever no usable CRL
//! covers the certificate: the caller decides whether that fails the path.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::crl_verify::{self, NextUpdate, RevokedIndex};
use crate::der::Time;
use crate::dn;
use crate::reason::Reason;
use pkit_x509::backend::Backend;
use pkit_x509::cert::Certificate;
use pkit_x509::crl::Crl;
use pkit_x509::ext::CrlReason;
use pkit_x509::ocsp::{CertStatus, OcspResponse};
use pkit_x509::ocsp_verify::{self, Expect, VerifyError};
use pkit_x509::signed::verify_signed;

mod scope;

use scope::{
    coverage, crl_issuer_names, entries_for, number_cmp, number_text, other_crl_issuer, read_meta,
    reason_names, subject_facts, Meta, Subject, ALL_REASONS,
};

/// What the revocation sources say about one certificate.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// A source in scope vouches the certificate is not revoked.
    Good,
    /// Listed (a CRL entry or an OCSP `revoked`); certificateHold is reported here too,
    /// with its reason, since a held certificate must not be relied on (§5.3.1).
    Revoked {
        /// The CRLReason, if the source gave one.
        reason: Option<CrlReason>,
        /// When it was revoked.
        at: Time,
    },
    /// No usable source answered; the text says why (no CRL in scope, stale, bad
    /// signature, an extension pkit cannot process…).
    Unknown(String),
}

impl Status {
    /// The reason code a failed path reports: `revoked` or `revocation-unknown`.
    pub fn reason(&self) -> Option<Reason> {
        match self {
            Status::Good => None,
            Status::Revoked { .. } => Some(Reason::Revoked),
            Status::Unknown(_) => Some(Reason::RevocationUnknown),
        }
    }
}

/// One CRL of the set, with what was learned about it so far.
struct Listed<'a> {
    crl: Crl<'a>,
    meta: Result<Meta<'a>, String>,
    /// Entries sorted by serial, per certificate issuer (Name DER) they were picked for:
    /// an indirect CRL answers for several.
    index: Mutex<Vec<(Vec<u8>, IndexOutcome<'a>)>>,
    /// Signature outcomes by signer SPKI: a CRL is verified once per key per run.
    signed: Mutex<Vec<SignatureOutcome>>,
}

/// A signer's SPKI DER and whether the CRL's signature verified under it.
type SignatureOutcome = (Vec<u8>, Result<(), String>);

type IndexOutcome<'a> = Result<Arc<RevokedIndex<'a>>, String>;

/// A run's CRLs, parsed once and indexed by issuer name for checking many certificates;
/// what lookups learn is cached in the set and shared by the threads of a run. Names
/// compare as path validation compares them (`dn::key`: case and insignificant spaces
/// do not matter).
pub struct CrlSet<'a> {
    crls: Vec<Listed<'a>>,
    by_issuer: HashMap<Vec<u8>, Vec<usize>>,
}

impl<'a> CrlSet<'a> {
    /// The set of `crls`, indexed by issuer name.
    pub fn new(crls: Vec<Crl<'a>>) -> Self {
        let mut by_issuer: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
        let crls: Vec<Listed<'a>> = crls
            .into_iter()
            .enumerate()
            .map(|(i, crl)| {
                by_issuer.entry(dn::key(&crl.issuer)).or_default().push(i);
                Listed {
                    meta: read_meta(&crl),
                    crl,
                    index: Mutex::new(Vec::new()),
                    signed: Mutex::new(Vec::new()),
                }
            })
            .collect();
        CrlSet { crls, by_issuer }
    }

    /// How many CRLs the set holds.
    pub fn len(&self) -> usize {
        self.crls.len()
    }

    /// Whether the set holds no CRL.
    pub fn is_empty(&self) -> bool {
        self.crls.is_empty()
    }

    fn issued_by<'s>(&'s self, name: &[u8]) -> impl Iterator<Item = &'s Listed<'a>> + 's {
        self.by_issuer
            .get(&dn::key_der(name))
            .into_iter()
            .flatten()
            .map(|&i| &self.crls[i])
    }
}

/// A cache's contents; a panic elsewhere while it was held leaves it usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<'a> Listed<'a> {
    /// The entries for certificates of `target` (an issuer's Name DER).
    fn index(&self, target: &[u8]) -> IndexOutcome<'a> {
        if let Some((_, r)) = lock(&self.index).iter().find(|(k, _)| k == target) {
            return r.clone();
        }
        let r = entries_for(&self.crl, target).map(Arc::new);
        lock(&self.index).push((target.to_vec(), r.clone()));
        r
    }

    fn signed_by(&self, backend: &Backend, issuer: &Certificate<'_>) -> Result<(), String> {
        let spki = issuer.spki.raw;
        let known = lock(&self.signed)
            .iter()
            .find(|(k, _)| k == spki)
            .map(|(_, r)| r.clone());
        if let Some(r) = known {
            return r;
        }
        let r = check_signature(backend, &self.crl, issuer);
        lock(&self.signed).push((spki.to_vec(), r.clone()));
        r
    }

    /// How messages name this CRL: `CRL 12 (thisUpdate …)`.
    fn describe(&self) -> String {
        let delta = matches!(&self.meta, Ok(m) if m.base.is_some());
        let kind = if delta { "delta CRL" } else { "CRL" };
        match self.meta.as_ref().ok().and_then(|m| m.number) {
            Some(n) => format!(
                "{kind} {} (thisUpdate {})",
                number_text(n),
                self.crl.this_update
            ),
            None => format!("{kind} of thisUpdate {}", self.crl.this_update),
        }
    }
}

fn check_signature(
    backend: &Backend,
    crl: &Crl<'_>,
    issuer: &Certificate<'_>,
) -> Result<(), String> {
    crl.check_signature_algorithms_match()
        .map_err(|e| format!("{e}"))?;
    match verify_signed(
        backend,
        issuer.spki.raw,
        &crl.signature_algorithm,
        crl.tbs_raw,
        crl.signature.bytes,
    ) {
        Ok(true) => Ok(()),
        Ok(false) => Err("its signature does not verify under the issuer's key".into()),
        Err(e) => Err(format!("its signature cannot be checked: {e}")),
    }
}

/// What one complete CRL (with its delta, if any) says.
struct Answer<'s> {
    /// The CRL issuer's name and the IDP: one answer per such pair is kept, the newest.
    issuer: &'s [u8],
    scope: &'s [u8],
    this_update: Time,
    covers: u16,
    revoked: Option<(Option<CrlReason>, Time)>,
}

/// The newest usable delta CRL for complete CRL `base` (§5.2.4, §6.3.3 (c)): same issuer
/// and key, same scope, a BaseCRLNumber not above the complete CRL's number, a number of
/// its own above it, current at `now`. A delta that fails any of this is passed over:
/// the complete CRL still answers alone. Any delta at hand that fits is used, whether or
/// not a freshestCRL extension (§4.2.1.15, §5.2.6) pointed to it.
fn newest_delta<'a>(
    backend: &Backend,
    set: &CrlSet<'a>,
    base: &Listed<'a>,
    m: &Meta<'a>,
    signer: &Certificate<'_>,
    target: &[u8],
    now: Time,
) -> Option<Arc<RevokedIndex<'a>>> {
    let number = m.number?;
    set.issued_by(base.crl.issuer.raw)
        .filter_map(|d| {
            let dm = d.meta.as_ref().ok()?;
            let (b, n) = (dm.base?, dm.number?);
            let applies = dm.scope == m.scope
                && number_cmp(b, number).is_le()
                && number_cmp(n, number).is_gt()
                && crl_verify::is_current(&d.crl, now);
            if !applies || d.signed_by(backend, signer).is_err() {
                return None;
            }
            Some((n, d.index(target).ok()?))
        })
        .max_by(|x, y| number_cmp(x.0, y.0))
        .map(|(_, index)| index)
}

/// The first of `signers` that may sign CRLs (keyUsage) and under whose key `c` verifies.
fn pick_signer<'c, 'x>(
    backend: &Backend,
    c: &Listed<'_>,
    signers: &[&'c Certificate<'x>],
) -> Result<&'c Certificate<'x>, String> {
    let mut why = Vec::new();
    for &s in signers {
        let fits = crl_verify::check_issuer_may_sign(s)
            .and_then(|()| crl_verify::check_authority_key_id(&c.crl, s))
            .and_then(|()| c.signed_by(backend, s));
        match fits {
            Ok(()) => return Ok(s),
            Err(e) => why.push(e),
        }
    }
    match why.len() {
        0 => Err("no certificate of its issuer was given to check its signature".into()),
        1 => Err(why.remove(0)),
        _ => Err(format!(
            "none of the keys that may sign it verifies it: {}",
            why.join(", ")
        )),
    }
}

/// Consult one complete CRL for `cert`, with the certificates that may have signed it.
fn consult<'s, 'a>(
    backend: &Backend,
    set: &'s CrlSet<'a>,
    c: &'s Listed<'a>,
    subject: &Subject<'_>,
    cert: &Certificate<'_>,
    signers: &[&Certificate<'_>],
    now: Time,
) -> Result<Answer<'s>, String> {
    let m = c.meta.as_ref().map_err(Clone::clone)?;
    if m.base.is_some() {
        return Err("a delta CRL, which only updates a complete CRL (RFC 5280 §5.2.4)".into());
    }
    let covers = coverage(subject, cert, &c.crl, m)?;
    crl_verify::check_this_update(&c.crl, now)?;
    let signer = pick_signer(backend, c, signers)?;
    let target = cert.issuer.raw;
    let index = c.index(target)?;
    // §6.3.3 (a)(1)(i): a complete CRL past its nextUpdate still serves when a current
    // delta CRL brings it up to date.
    let delta = newest_delta(backend, set, c, m, signer, target, now);
    match NextUpdate::of(&c.crl, now) {
        NextUpdate::Current(_) => {}
        NextUpdate::Passed(_) if delta.is_some() => {}
        stale_or_missing => return Err(stale_or_missing.problem().unwrap_or_default()),
    }
    // An entry in the delta supersedes the complete CRL's (§5.2.4): its removeFromCRL
    // takes a held certificate off the list; any other reason, certificateHold included,
    // is revoked.
    let entry = delta
        .as_deref()
        .and_then(|d| d.lookup(cert.serial))
        .or_else(|| index.lookup(cert.serial));
    let revoked = entry.and_then(|l| {
        l.revokes()
            .then(|| (l.reason().ok().flatten(), l.entry.revocation_date))
    });
    Ok(Answer {
        issuer: c.crl.issuer.raw,
        scope: m.scope,
        this_update: c.crl.this_update,
        covers,
        revoked,
    })
}

/// The status of `cert`, issued by `issuer` (the next certificate up the path, whose key
/// signed it), from the CRLs in `set` at `now` (RFC 5280 §6.3.3, as far as implemented):
///
/// - only CRLs whose issuer name equals the certificate's issuer name, signed by
///   `issuer`'s key (whose keyUsage, if present, must allow cRLSign), with
///   thisUpdate <= now and nextUpdate absent or after now (a complete CRL past its
///   nextUpdate still serves under a current delta CRL, §6.3.3 (a)(1)(i));
/// - the issuingDistributionPoint decides scope (see `scope`): user/CA/attribute-only
///   CRLs, distribution point names against the certificate's cRLDistributionPoints,
///   onlySomeReasons: "not listed" is good only once the CRLs in scope cover every reason;
/// - delta CRLs are applied on top of a complete CRL of the same scope whose number is at
///   least their BaseCRLNumber; their removeFromCRL takes an entry off the list;
/// - of several complete CRLs of one scope, the newest (by thisUpdate) answers;
/// - in indirect CRLs, certificateIssuer entry extensions decide which entries belong to
///   this issuer; CRLs signed by anyone but `issuer` need [`crl_status_with`], so a
///   certificate whose distribution points send it to another CRL issuer gets Unknown
///   here unless a CRL of its own issuer covers it;
/// - an unknown critical CRL or entry extension makes that CRL unusable (§5.2, §5.3).
pub fn crl_status(
    backend: &Backend,
    set: &CrlSet<'_>,
    cert: &Certificate<'_>,
    issuer: &Certificate<'_>,
    now: Time,
) -> Status {
    crl_status_with(backend, set, cert, issuer, &[], now)
}

/// As [`crl_status`], with more certificates that may sign CRLs about `cert`. The caller
/// must have validated each one's own path, to the trust anchor of `cert`'s path
/// (§6.3.3 (f)); this function only checks their names, keyUsage and signatures.
///
/// - A certificate with the name of `cert`'s issuer and another key: the CA's separate
///   CRL-signing key. A CRL verified by it counts as the issuer's own.
/// - The certificate of a CRL issuer that a cRLIssuer field of `cert`'s
///   cRLDistributionPoints names: that issuer's indirect CRLs (IDP indirectCRL) in scope
///   of such a point answer for `cert`, through the entries whose certificateIssuer
///   names `cert`'s issuer (§5.3.3, §6.3.3 (b)(1)).
pub fn crl_status_with(
    backend: &Backend,
    set: &CrlSet<'_>,
    cert: &Certificate<'_>,
    issuer: &Certificate<'_>,
    crl_signers: &[Certificate<'_>],
    now: Time,
) -> Status {
    let subject = match subject_facts(cert) {
        Ok(s) => s,
        Err(why) => return Status::Unknown(why),
    };
    let issuer_dn = cert.issuer.to_rfc4514().unwrap_or_default();
    let mut names = vec![cert.issuer.raw];
    for n in crl_issuer_names(&subject) {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let mut rejected = Vec::new();
    let mut newest: Vec<Answer<'_>> = Vec::new();
    for name in names {
        let own = dn::key_der(name) == dn::key(&cert.issuer);
        let signers: Vec<&Certificate<'_>> = own
            .then_some(issuer)
            .into_iter()
            .chain(
                crl_signers
                    .iter()
                    .filter(|c| dn::key(&c.subject) == dn::key_der(name)),
            )
            .collect();
        for c in set.issued_by(name) {
            match consult(backend, set, c, &subject, cert, &signers, now) {
                Ok(a) => match newest
                    .iter_mut()
                    .find(|n| (n.issuer, n.scope) == (a.issuer, a.scope))
                {
                    Some(n) if a.this_update > n.this_update => *n = a,
                    Some(_) => {}
                    None => newest.push(a),
                },
                Err(why) if own => rejected.push(format!("{}: {why}", c.describe())),
                Err(why) => rejected.push(format!(
                    "{} of {}: {why}",
                    c.describe(),
                    c.crl.issuer.to_rfc4514().unwrap_or_default()
                )),
            }
        }
    }
    // §6.3.3 (i): listed on any CRL in scope is revoked, partitioned or not.
    if let Some((reason, at)) = newest.iter().find_map(|a| a.revoked) {
        return Status::Revoked { reason, at };
    }
    let covered = newest.iter().fold(0, |m, a| m | a.covers) & ALL_REASONS;
    if covered == ALL_REASONS {
        return Status::Good;
    }
    let mut why = if newest.is_empty() && rejected.is_empty() {
        format!("no CRL issued by {issuer_dn} is at hand")
    } else if newest.is_empty() {
        format!("no usable CRL for {issuer_dn}: {}", rejected.join("; "))
    } else {
        format!(
            "the CRLs in scope for {issuer_dn} cover only {}; none covers {}",
            reason_names(covered),
            reason_names(ALL_REASONS & !covered)
        )
    };
    if let Some(other) = other_crl_issuer(&subject, cert) {
        why.push_str(&format!(
            " (its cRLDistributionPoints name the CRL issuer {other}: its indirect CRLs count \
             only with its certificate)"
        ));
    }
    Status::Unknown(why)
}

/// The status of `cert` from OCSP responses (RFC 6960), each checked by
/// [`ocsp_verify::verify`]: a response is usable when its signer is `issuer` or a
/// delegated responder of it (§4.2.2.2), it has a SingleResponse for this certificate's
/// CertID, and that answer is current at `now` (thisUpdate not in the future, nextUpdate
/// not passed). Any usable `revoked` answer wins over `good`; `unknown` from the
/// responder and unusable responses leave the status Unknown with the reasons.
pub(crate) fn ocsp_status(
    backend: &Backend,
    responses: &[OcspResponse<'_>],
    cert: &Certificate<'_>,
    issuer: &Certificate<'_>,
    now: Time,
) -> Status {
    let mut good = false;
    let mut why = Vec::new();
    for (i, resp) in responses.iter().enumerate() {
        let n = i + 1;
        let want = Expect {
            backend,
            issuer,
            cert: Some(cert),
            request: None,
            now,
        };
        let verdict = match ocsp_verify::verify(resp, &want) {
            Ok(v) => v,
            Err(VerifyError::Der(e)) => {
                why.push(format!("response {n} does not decode: {e}"));
                continue;
            }
            Err(e) => {
                why.push(format!("response {n}: {e}"));
                continue;
            }
        };
        // cert_status is the answer itself; every other check is about the response.
        let failed: Vec<String> = verdict
            .checks
            .iter()
            .filter(|c| !c.ok && c.name != "cert_status")
            .map(|c| format!("{}: {}", c.name, c.detail))
            .collect();
        if !failed.is_empty() {
            why.push(format!("response {n}: {}", failed.join(", ")));
            continue;
        }
        match verdict.status {
            Some(CertStatus::Revoked {
                revocation_time,
                revocation_reason,
            }) => {
                return Status::Revoked {
                    reason: revocation_reason,
                    at: revocation_time,
                }
            }
            Some(CertStatus::Good) => good = true,
            Some(CertStatus::Unknown) => why.push(format!(
                "response {n}: the responder does not know the certificate"
            )),
            None => why.push(format!("response {n} has no status for the certificate")),
        }
    }
    if good {
        Status::Good
    } else if why.is_empty() {
        Status::Unknown("no OCSP response is at hand".into())
    } else {
        Status::Unknown(why.join("; "))
    }
}

#[cfg(test)]
mod tests;
