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

use super::gate::{GateMode, LintGate};
use super::issuer::CaError;
use super::settings::CaSettings;
use super::store::CertStatus as StoreStatus;
use crate::der::oid_registry as oids;
use crate::der::{integer, tag, Context, Error, Result as DerResult, Time, Writer};
use pkit_lint::Finding;
use pkit_x509::alg::Digest;
use pkit_x509::backend::{Backend, BackendError, PrivateKey, Signer};
use pkit_x509::cert::Certificate;
use pkit_x509::ocsp::{CertId, OcspRequest, ResponseStatus};
use pkit_x509::ocsp_request::{
    digest_of, find_nonce, responder_key_hash, write_nonce_extension, IssuerHashes,
};
use pkit_x509::ocsp_verify::check_delegated_signer;

/// What a request asks, once checked against this responder's CA.
pub enum Asked<'a> {
    /// Every CertID names this CA; the nonce to echo, if any.
    Ours {
        /// The CertIDs asked about, in the request's order.
        cert_ids: Vec<CertId<'a>>,
        /// The nonce to echo (RFC 8954), if the request has one.
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
    key_hash: Vec<u8>,
    /// The delegated responder's certificate, sent in `certs`.
    delegated: Option<Vec<u8>>,
}

impl Responder {
    /// A responder for the CA certificate `ca_der`, signing with `key`: the CA's own key,
    /// or (with `delegated`) the key of a delegated OCSP signer's certificate, which must
    /// be issued by this CA, carry id-kp-OCSPSigning, be valid at `now` and match `key`.
    /// `backend` checks the delegated certificate and hashes the CA for CertIDs.
    pub fn new(
        backend: &Backend,
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
                responder_key_hash(backend, &ca)
            }
            Some(der) => {
                let signer = Certificate::from_der(der)
                    .map_err(|e| CaError::Parse(format!("responder certificate: {e}")))?;
                check_delegated_signer(backend, &ca, &signer, now).map_err(CaError::Refused)?;
                if public != signer.spki.raw {
                    return Err(CaError::Refused(
                        "the responder key does not match the responder certificate".into(),
                    ));
                }
                responder_key_hash(backend, &signer)
            }
        };
        let hashes = [Digest::Sha1, Digest::Sha256, Digest::Sha384, Digest::Sha512]
            .into_iter()
            .map(|d| IssuerHashes::of(backend, &ca, d))
            .collect();
        Ok(Responder {
            hashes,
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
                req.request_list_offset(),
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
        let tbs = self.build_tbs(answers, nonce, now, next_update);
        self.sign_tbs(signer, &tbs)
    }

    /// The ResponseData DER that [`Responder::sign`] signs (§4.2.1):
    ///
    /// ```asn1
    /// ResponseData ::= SEQUENCE {
    ///    version              [0] EXPLICIT Version DEFAULT v1,
    ///    responderID              ResponderID,
    ///    producedAt               GeneralizedTime,
    ///    responses                SEQUENCE OF SingleResponse,
    ///    responseExtensions   [1] EXPLICIT Extensions OPTIONAL }
    /// ```
    pub fn build_tbs(
        &self,
        answers: &[(&CertId<'_>, &StoreStatus)],
        nonce: Option<&[u8]>,
        now: Time,
        next_update: Time,
    ) -> Vec<u8> {
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
        w.finish()
    }

    /// Sign ResponseData from [`Responder::build_tbs`] and wrap it into an OCSPResponse
    /// (successful, id-pkix-ocsp-basic), with the delegated signer's certificate if any.
    pub fn sign_tbs(&self, signer: &mut dyn Signer, tbs: &[u8]) -> Result<Vec<u8>, BackendError> {
        let sig = signer.sign(tbs)?;
        let scheme = signer.scheme();
        let mut b = Writer::with_capacity(tbs.len() + sig.len() + 64);
        b.sequence(|w| {
            w.raw(tbs);
            scheme.write_algorithm_identifier(w);
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

/// Whether a responder may sign responses that stand `seconds` (nextUpdate less
/// thisUpdate, the same for every response it signs): asked of the CA's lint gate once,
/// when the responder starts, under the rule sets the CA was set up with (`settings`,
/// `ca.json`'s `lint_rules`) and the gate's `mode`. A CA set for public trust needs 8
/// hours to 10 days (BR §4.9.10). The findings the gate let through, or
/// [`CaError::Lint`] with its findings when it refused.
pub fn gate_lifetime(
    settings: &CaSettings,
    mode: GateMode,
    seconds: i64,
) -> Result<Vec<Finding>, CaError> {
    let gate = LintGate {
        rules: settings.lint_rules,
        mode,
    };
    gate.check_ocsp_lifetime(seconds)
        .map_err(|r| CaError::Lint(r.findings))
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
pub(crate) fn status_name(s: &StoreStatus) -> &'static str {
    match s {
        StoreStatus::Good => "good",
        StoreStatus::Revoked(_) => "revoked",
        StoreStatus::Unknown => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issuer::self_signed;
    use crate::store::Revoked;
    use pkit_openssl as openssl;
    use pkit_x509::alg::Algorithm;
    use pkit_x509::ocsp::{CertStatus, OcspResponse, ResponderId};
    use pkit_x509::ocsp_request::encode_request;
    use pkit_x509::ocsp_verify::{verify, Expect};
    use pkit_x509::subject::parse_subject;

    const NOW: Time = Time {
        unix: 1_800_000_000,
    };

    fn ca(name: &str) -> (Vec<u8>, Box<dyn PrivateKey>) {
        let key = openssl::backend().generate(Algorithm::EcdsaP256).unwrap();
        let subject = parse_subject(name).unwrap();
        let der = self_signed(
            key.as_ref(),
            &subject,
            NOW.plus_seconds(-86_400),
            NOW.plus_seconds(86_400),
            None,
        )
        .unwrap();
        (der, key)
    }

    fn request(ca_der: &[u8], serial: &[u8], nonce: Option<&[u8]>) -> Vec<u8> {
        let ca = Certificate::from_der(ca_der).unwrap();
        encode_request(
            &IssuerHashes::of(openssl::backend(), &ca, Digest::Sha1),
            serial,
            nonce,
        )
    }

    #[test]
    fn answers_and_verifies() {
        let (ca_der, key) = ca("CN=Responder Test CA");
        let r = Responder::new(openssl::backend(), &ca_der, key, None, NOW).unwrap();
        let serial = [0x41; 20];
        let req_der = request(&ca_der, &serial, Some(&[7; 32]));
        let req = OcspRequest::from_der(&req_der).unwrap();
        let Asked::Ours { cert_ids, nonce } = r.read(&req).unwrap() else {
            panic!("our own CertID read as foreign");
        };
        assert_eq!(Asked::serial(&cert_ids[0]), serial);
        assert_eq!(nonce, Some(&[7u8; 32][..]));
        let revoked = StoreStatus::Revoked(Revoked {
            serial: serial.to_vec(),
            revoked_at: 1_700_000_000,
            reason: Some(4),
            not_after: 0,
        });
        let mut signer = r.signer().unwrap();
        let der = r
            .sign(
                signer.as_mut(),
                &[(&cert_ids[0], &revoked)],
                nonce,
                NOW,
                NOW.plus_seconds(3600),
            )
            .unwrap();
        let resp = OcspResponse::from_der(&der).unwrap();
        let basic = resp.basic.as_ref().unwrap();
        assert!(matches!(basic.responder_id, ResponderId::ByKey(k) if k.len() == 20));
        assert_eq!(basic.produced_at, NOW);
        let single = basic.responses().unwrap()[0];
        assert_eq!(single.cert_id.raw, cert_ids[0].raw);
        assert_eq!(single.this_update, NOW);
        assert_eq!(single.next_update, Some(NOW.plus_seconds(3600)));
        assert!(matches!(
            single.cert_status,
            CertStatus::Revoked { revocation_time, revocation_reason: Some(r) }
                if revocation_time.unix == 1_700_000_000 && r.code() == 4
        ));

        let ca_cert = Certificate::from_der(&ca_der).unwrap();
        let want = Expect {
            backend: openssl::backend(),
            issuer: &ca_cert,
            cert: None,
            request: Some(&req),
            now: NOW,
        };
        let v = verify(&resp, &want).unwrap();
        let failed: Vec<_> = v.checks.iter().filter(|c| !c.ok).map(|c| c.name).collect();
        assert_eq!(failed, ["cert_status"], "{:?}", v.checks);

        // Another nonce in the request: the nonce check fails.
        let other = request(&ca_der, &serial, Some(&[8; 32]));
        let other = OcspRequest::from_der(&other).unwrap();
        let v = verify(
            &resp,
            &Expect {
                backend: openssl::backend(),
                request: Some(&other),
                ..want
            },
        )
        .unwrap();
        assert!(v.checks.iter().any(|c| c.name == "nonce" && !c.ok));

        // Stale after nextUpdate; too early beyond the skew.
        for now in [NOW.plus_seconds(3601), NOW.plus_seconds(-301)] {
            let v = verify(&resp, &Expect { now, ..want }).unwrap();
            assert!(!v.valid());
            assert!(v
                .checks
                .iter()
                .any(|c| c.name.ends_with("_update") && !c.ok));
        }

        // Another CA with the same name verifies nothing.
        let (other_der, _) = ca("CN=Responder Test CA");
        let other_ca = Certificate::from_der(&other_der).unwrap();
        let v = verify(
            &resp,
            &Expect {
                backend: openssl::backend(),
                issuer: &other_ca,
                ..want
            },
        )
        .unwrap();
        assert!(v.checks.iter().any(|c| c.name == "signature" && !c.ok));
        assert!(!v.valid());
    }

    #[test]
    fn foreign_and_empty_requests() {
        let (ca_der, key) = ca("CN=A");
        let (other_der, _) = ca("CN=A");
        let r = Responder::new(openssl::backend(), &ca_der, key, None, NOW).unwrap();
        let foreign = request(&other_der, &[1; 20], None);
        let q = OcspRequest::from_der(&foreign).unwrap();
        assert!(matches!(r.read(&q).unwrap(), Asked::Foreign));

        // SEQUENCE { SEQUENCE { SEQUENCE {} } }: no Request at all.
        let empty = [0x30, 0x04, 0x30, 0x02, 0x30, 0x00];
        let q = OcspRequest::from_der(&empty).unwrap();
        let e = r.read(&q).err().expect("an empty requestList is malformed");
        assert_eq!(e.path_string(), "tbsRequest.requestList");
        assert_eq!(e.offset, empty.len());

        let der = error_response(ResponseStatus::Unauthorized);
        assert_eq!(der, [0x30, 0x03, 0x0a, 0x01, 0x06]);
        assert_eq!(
            OcspResponse::from_der(&der).unwrap().status,
            ResponseStatus::Unauthorized
        );
    }

    #[test]
    fn refuses_a_key_of_another_certificate() {
        let (ca_der, _) = ca("CN=A");
        let (_, other_key) = ca("CN=B");
        assert!(matches!(
            Responder::new(openssl::backend(), &ca_der, other_key, None, NOW),
            Err(CaError::Refused(_))
        ));
    }

    #[test]
    fn the_lifetime_gate_holds_a_public_ca_to_the_brs() {
        let private = CaSettings::default();
        let public = CaSettings {
            lint_rules: pkit_lint::Rules::parse("rfc5280,cabf-tls").unwrap(),
            ..CaSettings::default()
        };
        let hour = 3600;
        // A private CA's responder may sign for an hour; a public one's may not.
        assert_eq!(
            gate_lifetime(&private, GateMode::Enforce, hour).unwrap(),
            []
        );
        let Err(CaError::Lint(found)) = gate_lifetime(&public, GateMode::Enforce, hour) else {
            panic!("an hour is under the BRs' 8 hours");
        };
        assert!(found.iter().any(|f| f.level == pkit_lint::Level::Error));
        // Warn lets it through with what it found; off finds nothing.
        assert_eq!(gate_lifetime(&public, GateMode::Warn, hour).unwrap(), found);
        assert_eq!(gate_lifetime(&public, GateMode::Off, hour).unwrap(), []);
        // A day is in range, and 11 days past it.
        assert_eq!(
            gate_lifetime(&public, GateMode::Enforce, 86_400).unwrap(),
            []
        );
        assert!(gate_lifetime(&public, GateMode::Enforce, 11 * 86_400).is_err());
    }
}
