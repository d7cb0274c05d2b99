//! The OCSP responder's side (RFC 6960 §2.2, §4.2): answer a parsed request from the
//! CA's store with a signed BasicOCSPResponse.
//!
//! The signer is the CA itself, or a delegated responder: a certificate this CA issued
//! with the id-kp-OCSPSigning EKU (§4.2.2.2), sent in the response's `certs` so clients
//! can check it. ResponderID is byKey (§4.2.2.3), `producedAt` = `thisUpdate` = now, and
//! `nextUpdate` is always set so clients and caches know how long an answer stands.
//!
//! A request naming a certificate of another issuer is answered `unauthorized`
//! (responseStatus 6): RFC 6960 §2.3 defines it for "the client is not authorized to make
//! this query to this server", and RFC 5019 §2.2.3 uses it for a responder that has no
//! authoritative answer, which a CA answering only for itself never has for others.

use super::ca::CaError;
use super::store::CertStatus as StoreStatus;
use crate::der::oid_registry as oids;
use crate::der::{integer, tag, Context, Error, Result as DerResult, Time, Writer};
use crate::pki::alg::{Digest, SignatureScheme};
use crate::pki::backend::{BackendError, PrivateKey, Signer};
use crate::pki::cert::Certificate;
use crate::pki::ocsp::{CertId, OcspRequest, ResponseStatus};
use crate::pki::ocsp_request::{
    digest_of, find_nonce, responder_key_hash, write_nonce_extension, IssuerHashes,
};
use crate::pki::ocsp_verify::check_delegated_signer;

/// What a request asks, once checked against this responder's CA.
pub enum Asked<'a> {
    /// Every CertID names this CA; the nonce to echo, if any.
    Ours {
        cert_ids: Vec<CertId<'a>>,
        nonce: Option<&'a [u8]>,
    },
    /// At least one CertID names another issuer (or a hash pkit does not compute).
    Foreign,
}

impl Asked<'_> {
    /// The store key of a CertID: its serial's magnitude.
    pub fn serial<'b>(id: &CertId<'b>) -> &'b [u8] {
        integer::unsigned_bytes(id.serial)
    }
}

/// A CA's responder: the CA certificate it answers for and the key that signs.
pub struct Responder {
    /// Issuer hashes under every digest a CertID may use, computed once.
    hashes: Vec<IssuerHashes>,
    key: Box<dyn PrivateKey>,
    scheme: SignatureScheme,
    key_hash: Vec<u8>,
    /// The delegated responder's certificate, sent in `certs`.
    delegated: Option<Vec<u8>>,
}

impl Responder {
    /// A responder for the CA certificate `ca_der`, signing with `key`: the CA's own key,
    /// or (with `delegated`) the key of a delegated OCSP signer's certificate, which must
    /// be issued by this CA, carry id-kp-OCSPSigning, be valid at `now` and match `key`.
    pub fn new(
        ca_der: &[u8],
        key: Box<dyn PrivateKey>,
        delegated: Option<Vec<u8>>,
        now: Time,
    ) -> Result<Responder, CaError> {
        let ca = Certificate::from_der(ca_der)
            .map_err(|e| CaError::Parse(format!("CA certificate: {e}")))?;
        let public = key.public_key_der()?;
        let key_hash = match &delegated {
            None => {
                if public != ca.spki.raw {
                    return Err(CaError::Refused(
                        "the signing key does not match the CA certificate".into(),
                    ));
                }
                responder_key_hash(&ca)
            }
            Some(der) => {
                let signer = Certificate::from_der(der)
                    .map_err(|e| CaError::Parse(format!("responder certificate: {e}")))?;
                check_delegated_signer(&ca, &signer, now).map_err(CaError::Refused)?;
                if public != signer.spki.raw {
                    return Err(CaError::Refused(
                        "the responder key does not match the responder certificate".into(),
                    ));
                }
                responder_key_hash(&signer)
            }
        };
        let hashes = [Digest::Sha1, Digest::Sha256, Digest::Sha384, Digest::Sha512]
            .into_iter()
            .map(|d| IssuerHashes::of(&ca, d))
            .collect();
        Ok(Responder {
            hashes,
            scheme: key.algorithm().default_scheme(),
            key,
            key_hash,
            delegated,
        })
    }

    /// A signer for this responder's key (reuse it across responses).
    pub fn signer(&self) -> Result<Box<dyn Signer>, BackendError> {
        self.key.signer()
    }

    /// Check the request's CertIDs against this CA and pick out the nonce. Errors are
    /// malformed requests (an empty requestList is one: there is nothing to answer).
    pub fn read<'a>(&self, req: &OcspRequest<'a>) -> DerResult<Asked<'a>> {
        let cert_ids: Vec<CertId<'a>> = req.requests()?.into_iter().map(|r| r.cert_id).collect();
        if cert_ids.is_empty() {
            return Err(Error::invalid(
                0,
                "expected at least one Request in requestList, found none",
            )
            .at("tbsRequest.requestList"));
        }
        let nonce =
            find_nonce(req.request_extensions.as_ref()).at("tbsRequest.requestExtensions")?;
        let ours = cert_ids.iter().all(|id| {
            digest_of(id).is_some_and(|d| self.hashes.iter().any(|h| h.digest == d && h.issued(id)))
        });
        Ok(if ours {
            Asked::Ours { cert_ids, nonce }
        } else {
            Asked::Foreign
        })
    }

    /// Sign a successful response: one SingleResponse per (CertID, status), the request's
    /// CertID copied byte for byte (clients match on it), valid from `now` to
    /// `next_update`.
    pub fn sign(
        &self,
        signer: &mut dyn Signer,
        answers: &[(&CertId<'_>, &StoreStatus)],
        nonce: Option<&[u8]>,
        now: Time,
        next_update: Time,
    ) -> Result<Vec<u8>, BackendError> {
        let mut w = Writer::with_capacity(256 + 128 * answers.len());
        w.sequence(|w| {
            w.explicit(2, |w| {
                w.octet_string(&self.key_hash);
            });
            w.generalized_time(now);
            w.sequence(|w| {
                for (id, status) in answers {
                    w.sequence(|w| {
                        w.raw(id.raw);
                        write_status(w, status);
                        w.generalized_time(now);
                        w.explicit(0, |w| {
                            w.generalized_time(next_update);
                        });
                    });
                }
            });
            if let Some(n) = nonce {
                w.explicit(1, |w| {
                    w.sequence(|w| write_nonce_extension(w, n));
                });
            }
        });
        let tbs = w.finish();
        let sig = signer.sign(&tbs)?;
        let mut b = Writer::with_capacity(tbs.len() + sig.len() + 64);
        b.sequence(|w| {
            w.raw(&tbs);
            self.scheme.write_algorithm_identifier(w);
            w.bit_string(&sig);
            if let Some(cert) = &self.delegated {
                w.explicit(0, |w| {
                    w.sequence(|w| {
                        w.raw(cert);
                    });
                });
            }
        });
        let basic = b.finish();
        let mut out = Writer::with_capacity(basic.len() + 32);
        out.sequence(|w| {
            w.enumerated(0);
            w.explicit(0, |w| {
                w.sequence(|w| {
                    w.oid(&oids::PKIX_OCSP_BASIC);
                    w.octet_string(&basic);
                });
            });
        });
        Ok(out.finish())
    }
}

/// `OCSPResponse ::= SEQUENCE { responseStatus }` for an unsuccessful status (§4.2.1:
/// no responseBytes).
pub fn error_response(status: ResponseStatus) -> Vec<u8> {
    let code = u8::try_from(status.code()).unwrap_or(2);
    let mut w = Writer::with_capacity(8);
    w.sequence(|w| {
        w.enumerated(code);
    });
    w.finish()
}

/// `CertStatus ::= CHOICE { good [0] IMPLICIT NULL, revoked [1] IMPLICIT RevokedInfo,
/// unknown [2] IMPLICIT UnknownInfo }`.
fn write_status(w: &mut Writer, s: &StoreStatus) {
    match s {
        StoreStatus::Good => {
            w.primitive(tag::implicit(0), &[]);
        }
        StoreStatus::Unknown => {
            w.primitive(tag::implicit(2), &[]);
        }
        StoreStatus::Revoked(r) => {
            w.tlv(tag::implicit_constructed(1), |w| {
                w.generalized_time(Time { unix: r.revoked_at });
                if let Some(code) = r.reason {
                    w.explicit(0, |w| {
                        w.enumerated(code);
                    });
                }
            });
        }
    }
}

/// The name of a store status as OCSP calls it.
pub fn status_name(s: &StoreStatus) -> &'static str {
    match s {
        StoreStatus::Good => "good",
        StoreStatus::Revoked(_) => "revoked",
        StoreStatus::Unknown => "unknown",
    }
}
