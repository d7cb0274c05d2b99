//! Answering one OCSP request from the CA's store: what `pkit ocsp respond` and every
//! request `pkit ocsp serve` takes go through, and what `pkit bench x509` times stage by
//! stage (look-up, then [`Responder::build_tbs`] and [`Responder::sign_tbs`]).

use super::ocsp::{error_response, status_name, Asked, Responder};
use super::ocsp_cache::ResponseCache;
use super::store::{CaStore, CertStatus};
use crate::der::Time;
use pkit_x509::backend::Signer;
use pkit_x509::ocsp::{CertId, OcspRequest, ResponseStatus};

/// A request checked against the responder's CA, with the store's status for each
/// certificate it asks about.
pub enum Question<'a> {
    /// At least one CertID names another issuer: the answer is `unauthorized`.
    Foreign,
    /// Every CertID names this CA.
    Ours {
        /// The CertIDs asked about, in the request's order.
        cert_ids: Vec<CertId<'a>>,
        /// The status of each CertID, in the same order.
        statuses: Vec<CertStatus>,
        /// The nonce to echo, if the request has one.
        nonce: Option<&'a [u8]>,
    },
}

/// The outcome of answering one request: the OCSPResponse and what it said.
pub struct Answered {
    /// The OCSPResponse DER.
    pub der: Vec<u8>,
    /// Serials (hex) asked about.
    pub serials: Vec<String>,
    /// good / revoked / unknown per serial, or the responseStatus name.
    pub status: String,
    /// Served from the cache rather than signed now.
    pub cached: bool,
    /// thisUpdate and nextUpdate of a successful response (for HTTP caching headers).
    pub validity: Option<(Time, Time)>,
}

/// Why a request got no successful answer.
#[non_exhaustive]
#[derive(Debug)]
pub enum AnswerError {
    /// The request does not decode: the answer is `malformedRequest`.
    Malformed(crate::der::Error),
    /// The store or the signer failed.
    Internal(String),
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerError::Malformed(e) => write!(f, "malformed request: {e}"),
            AnswerError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for AnswerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AnswerError::Malformed(e) => Some(e),
            AnswerError::Internal(_) => None,
        }
    }
}

/// Read `req` against `responder`'s CA and look each certificate up in `store`.
pub fn ask<'a>(
    responder: &Responder,
    store: &dyn CaStore,
    req: &OcspRequest<'a>,
) -> Result<Question<'a>, AnswerError> {
    let (cert_ids, nonce) = match responder.read(req).map_err(AnswerError::Malformed)? {
        Asked::Foreign => return Ok(Question::Foreign),
        Asked::Ours { cert_ids, nonce } => (cert_ids, nonce),
    };
    let statuses = cert_ids
        .iter()
        .map(|id| store.status(Asked::serial(id)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| AnswerError::Internal(format!("ca.db: {e}")))?;
    Ok(Question::Ours {
        cert_ids,
        statuses,
        nonce,
    })
}

/// Answer one parsed request, valid from `now` for `lifetime` seconds. A
/// single-certificate request without a nonce is served from `cache` when it holds a
/// response signed for the current status, and a fresh one is put there.
pub fn answer(
    responder: &Responder,
    signer: &mut dyn Signer,
    store: &dyn CaStore,
    req: &OcspRequest<'_>,
    now: Time,
    lifetime: i64,
    cache: Option<&ResponseCache>,
) -> Result<Answered, AnswerError> {
    let (cert_ids, statuses, nonce) = match ask(responder, store, req)? {
        Question::Foreign => {
            return Ok(Answered {
                der: error_response(ResponseStatus::Unauthorized),
                serials: Vec::new(),
                status: "unauthorized".into(),
                cached: false,
                validity: None,
            })
        }
        Question::Ours {
            cert_ids,
            statuses,
            nonce,
        } => (cert_ids, statuses, nonce),
    };
    let mut answered = Answered {
        der: Vec::new(),
        serials: cert_ids.iter().map(|id| id.serial_hex()).collect(),
        status: statuses
            .iter()
            .map(status_name)
            .collect::<Vec<_>>()
            .join(","),
        cached: false,
        validity: None,
    };
    let cacheable = cert_ids.len() == 1 && nonce.is_none();
    let cache = cache.filter(|_| cacheable);
    if let (Some(c), Some(id), Some(status)) = (&cache, cert_ids.first(), statuses.first()) {
        if let Some(kept) = c.get(id.raw, status, now) {
            answered.der = kept.der;
            answered.validity = Some((kept.this_update, kept.next_update));
            answered.cached = true;
            return Ok(answered);
        }
    }
    let pairs: Vec<_> = cert_ids.iter().zip(statuses.iter()).collect();
    let next_update = now.plus_seconds(lifetime);
    answered.der = responder
        .sign(signer, &pairs, nonce, now, next_update)
        .map_err(|e| AnswerError::Internal(e.to_string()))?;
    answered.validity = Some((now, next_update));
    // A cache is only passed on for a single CertID, so there is one status.
    if let (Some(c), Some(status), Some(id)) =
        (cache, statuses.into_iter().next(), cert_ids.first())
    {
        c.put(id.raw, status, answered.der.clone(), now, next_update);
    }
    Ok(answered)
}
