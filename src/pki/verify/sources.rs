//! The revocation sources one run of `pkit verify` is given — CRL files, OCSP response
//! files, a pkit CA's database — asked together. A revocation from any source stands;
//! otherwise one source that vouches for the certificate is enough; otherwise the
//! answer is unknown, with every source's reason.

use super::revocation::{crl_status_with, ocsp_status, CrlSet, Status};
use super::validate::{RevocationSource, StatusQuery};
use crate::der::oid_registry as oids;
use crate::der::{integer, Time};
use pkit_x509::alg::Digest;
use pkit_x509::backend::Backend;
use pkit_x509::cert::Certificate;
use pkit_x509::crl::Crl;
use pkit_x509::ext::DistributionPointName;
use pkit_x509::ext::{ExtensionValue, GeneralName};
use pkit_x509::ocsp::OcspResponse;
use pkit_x509::ocsp_request::{encode_request, responder_urls, IssuerHashes};
use std::sync::{Arc, Mutex};

/// A CA's own records of what it signed, asked by serial (a pkit CA's database, which
/// `pkit-ca` answers through). Its answer is the revocation status; a record that
/// cannot be read is [`Status::Unknown`] saying why.
pub trait IssuedRecords: Send {
    /// The status of the certificate with this serial (the INTEGER's unsigned
    /// big-endian bytes) by the records.
    fn status(&self, serial: &[u8]) -> Status;
}

/// A pkit CA directory: its certificate and its records, which know the status of
/// every certificate that CA issued.
pub struct CaDatabase<'a> {
    /// The CA's certificate: the issuer whose certificates the records answer for.
    pub cert: Certificate<'a>,
    /// A database connection serves one thread at a time.
    pub records: Mutex<Box<dyn IssuedRecords>>,
}

/// Sends an OCSP request (DER) to a responder URL and returns the response's DER: the
/// caller's transport (the library does no network I/O of its own).
pub type Fetch<'a> = &'a (dyn Fn(&str, &[u8]) -> Result<Vec<u8>, FetchError> + Sync);

/// Fetches a CRL (DER) by URL: the caller's transport, which also bounds its size and
/// time and keeps what it fetched for the rest of the run.
pub type CrlFetch<'a> = &'a (dyn Fn(&str) -> Result<Arc<Vec<u8>>, FetchError> + Sync);

/// Why the caller's transport brought nothing back: the URL and what went wrong (an HTTP
/// status, a timeout, a size limit), as the revocation status that results says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchError(String);

impl FetchError {
    /// An error that reads `message`, which names the URL.
    pub fn new(message: impl Into<String>) -> FetchError {
        FetchError(message.into())
    }
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FetchError {}

/// Every revocation source of a run, asked together: CRLs, OCSP responses, a CA's
/// database, and (when allowed) the CRLs and responders certificates point to.
pub struct Sources<'a> {
    /// The CRLs given.
    pub crls: CrlSet<'a>,
    /// The OCSP responses given.
    pub ocsp: Vec<OcspResponse<'a>>,
    /// The CA database given, if any.
    pub ca: Option<CaDatabase<'a>>,
    /// Ask the OCSP responders certificates name in their authorityInfoAccess.
    pub online: Option<Fetch<'a>>,
    /// Fetch the CRLs certificates name in their cRLDistributionPoints.
    pub crl_online: Option<CrlFetch<'a>>,
}

impl RevocationSource for Sources<'_> {
    fn status(&self, backend: &Backend, q: &StatusQuery<'_, '_>) -> Status {
        self.status_by(backend, q).0
    }

    fn status_by(
        &self,
        backend: &Backend,
        q: &StatusQuery<'_, '_>,
    ) -> (Status, Option<&'static str>) {
        let (cert, issuer, crl_signers, now) = (q.cert, q.issuer, q.crl_signers, q.now);
        let mut answers = Vec::with_capacity(3);
        if let Some(ca) = &self.ca {
            answers.push(("the CA's records", database_status(ca, cert, issuer)));
        }
        if !self.ocsp.is_empty() {
            let s = ocsp_status(backend, &self.ocsp, cert, issuer, now);
            answers.push(("an OCSP response given", s));
        }
        if let Some(fetch) = self.online {
            let s = online_status(backend, fetch, cert, issuer, now);
            answers.push(("its OCSP responder", s));
        }
        if let Some(fetch) = self.crl_online {
            answers.push((
                "the CRL it points to",
                fetched_crl_status(backend, fetch, q),
            ));
        }
        let given = crl_status_with(backend, &self.crls, cert, issuer, crl_signers, now);
        answers.push(("a CRL given", given));
        combine(answers)
    }
}

/// Fetch the CRLs `cert`'s cRLDistributionPoints name (http fullName URIs, RFC 5280
/// §4.2.1.13) and read them as CRL files given on the command line are read.
fn fetched_crl_status(backend: &Backend, fetch: CrlFetch<'_>, q: &StatusQuery<'_, '_>) -> Status {
    let urls = distribution_urls(q.cert);
    if urls.is_empty() {
        return Status::Unknown("its cRLDistributionPoints name no http CRL".into());
    }
    let mut fetched = Vec::with_capacity(urls.len());
    let mut failed = Vec::new();
    for url in &urls {
        match fetch(url) {
            Ok(der) => fetched.push((url, der)),
            Err(why) => failed.push(why.to_string()),
        }
    }
    let mut crls = Vec::with_capacity(fetched.len());
    for (url, der) in &fetched {
        match Crl::from_der(der) {
            Ok(c) => crls.push(c),
            Err(e) => failed.push(format!("{url}: the CRL does not parse: {e}")),
        }
    }
    if crls.is_empty() {
        return Status::Unknown(failed.join("; "));
    }
    let set = CrlSet::new(crls);
    crl_status_with(backend, &set, q.cert, q.issuer, q.crl_signers, q.now)
}

/// The http URLs in the full names of `cert`'s cRLDistributionPoints.
fn distribution_urls(cert: &Certificate<'_>) -> Vec<String> {
    let Some(ExtensionValue::CrlDistributionPoints(points)) =
        cert.extension_value(&oids::CE_CRL_DIST_POINTS)
    else {
        return Vec::new();
    };
    points
        .iter()
        .filter_map(|p| match &p.distribution_point {
            Some(DistributionPointName::FullName(names)) => Some(names),
            _ => None,
        })
        .flatten()
        .filter_map(|n| match n {
            GeneralName::Uri(u) if u.starts_with("http://") => Some(u.to_string()),
            _ => None,
        })
        .collect()
}

/// Ask each OCSP responder `cert`'s authorityInfoAccess names (http only; RFC 6960
/// Appendix A.1) about it, and read the answers as response files are read.
fn online_status(
    backend: &Backend,
    fetch: Fetch<'_>,
    cert: &Certificate<'_>,
    issuer: &Certificate<'_>,
    now: Time,
) -> Status {
    let urls = responder_urls(cert);
    if urls.is_empty() {
        return Status::Unknown("its authorityInfoAccess names no http OCSP responder".into());
    }
    let request = encode_request(
        &IssuerHashes::of(backend, issuer, Digest::Sha1),
        cert.serial,
        None,
    );
    let mut answers = Vec::with_capacity(urls.len());
    for url in urls {
        let answer = fetch(&url, &request)
            .map_err(|e| e.to_string())
            .and_then(|der| {
                OcspResponse::from_der(&der)
                    .map(|r| ocsp_status(backend, &[r], cert, issuer, now))
                    .map_err(|e| format!("{url}: the response does not parse: {e}"))
            });
        answers.push(("its OCSP responder", answer.unwrap_or_else(Status::Unknown)));
    }
    combine(answers).0
}

/// Revoked beats good beats unknown; the source of a revocation or a good answer (the
/// first that gave it).
fn combine(answers: Vec<(&'static str, Status)>) -> (Status, Option<&'static str>) {
    if let Some((by, r)) = answers
        .iter()
        .find(|(_, s)| matches!(s, Status::Revoked { .. }))
    {
        return (r.clone(), Some(by));
    }
    if let Some((by, _)) = answers.iter().find(|(_, s)| *s == Status::Good) {
        return (Status::Good, Some(by));
    }
    let why: Vec<String> = answers
        .into_iter()
        .filter_map(|(_, s)| match s {
            Status::Unknown(w) => Some(w),
            _ => None,
        })
        .collect();
    let why = if why.is_empty() {
        "no revocation source covers it".into()
    } else {
        why.join("; ")
    };
    (Status::Unknown(why), None)
}

fn database_status(
    ca: &CaDatabase<'_>,
    cert: &Certificate<'_>,
    issuer: &Certificate<'_>,
) -> Status {
    // The database answers only for what this CA signed: same name, same key.
    if issuer.spki.raw != ca.cert.spki.raw || issuer.subject.raw != ca.cert.subject.raw {
        return Status::Unknown("not issued by the CA whose database was given".into());
    }
    let records = ca.records.lock().unwrap_or_else(|e| e.into_inner());
    records.status(integer::unsigned_bytes(cert.serial))
}
