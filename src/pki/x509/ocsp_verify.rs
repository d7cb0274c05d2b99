//! Checking an OCSP response (RFC 6960 §3.2) for one certificate: who signed it, whether
//! it answers the question asked, and whether it is fresh. Every check is reported by
//! name with a reason, so a caller can show which one failed; the response is valid only
//! when all pass and the certificate's status is good.

#![forbid(unsafe_code)]

use crate::backend::Backend;
use crate::cert::Certificate;
use crate::der::hex;
use crate::der::oid_registry as oids;
use crate::der::{Context, Error, Time};
use crate::ext::ExtensionValue;
use crate::ocsp::{
    BasicOcspResponse, CertStatus, OcspRequest, OcspResponse, ResponderId, ResponseStatus,
    SingleResponse,
};
use crate::ocsp_request::{digest_of, find_nonce, responder_key_hash, same_serial, IssuerHashes};
use crate::signed::{verify_signed, SignedError};

/// How far `thisUpdate` may lie in the future (clock skew between responder and client).
pub const SKEW_SECONDS: i64 = 300;

/// One named check and its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The check's short name, as the report prints it.
    pub name: &'static str,
    /// Whether the response passed it.
    pub ok: bool,
    /// What was found, in a line.
    pub detail: String,
}

/// Every check made, and the certificate's status when a SingleResponse was found.
#[derive(Debug, Clone)]
pub struct OcspVerdict {
    /// The SingleResponse's certStatus, when one for the certificate was found.
    pub status: Option<CertStatus>,
    /// Every check, in the order made.
    pub checks: Vec<Check>,
}

impl OcspVerdict {
    /// Valid and good: every check passed (the status check among them).
    pub fn valid(&self) -> bool {
        !self.checks.is_empty() && self.checks.iter().all(|c| c.ok)
    }

    fn add(&mut self, name: &'static str, ok: bool, detail: impl Into<String>) -> bool {
        self.checks.push(Check {
            name,
            ok,
            detail: detail.into(),
        });
        ok
    }
}

/// Why a response could not be checked at all.
#[non_exhaustive]
#[derive(Debug)]
pub enum VerifyError {
    /// A part of the response (or request) does not decode.
    Der(Error),
    /// The signature algorithm is unsupported or malformed.
    Signed(SignedError),
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::Der(e) => write!(f, "{e}"),
            VerifyError::Signed(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::Der(e) => Some(e),
            VerifyError::Signed(e) => Some(e),
        }
    }
}

impl From<Error> for VerifyError {
    fn from(e: Error) -> Self {
        VerifyError::Der(e)
    }
}

/// What the response is checked against.
pub struct Expect<'a, 'b> {
    /// The backend that checks signatures and computes CertID hashes.
    pub backend: &'b Backend,
    /// The CA that issued the certificate in question.
    pub issuer: &'b Certificate<'a>,
    /// The certificate in question (its serial picks the SingleResponse).
    pub cert: Option<&'b Certificate<'a>>,
    /// The request the response answers (its nonce must come back; without `cert`, its
    /// first CertID's serial picks the SingleResponse).
    pub request: Option<&'b OcspRequest<'a>>,
    /// The time the response must be current at.
    pub now: Time,
}

/// Check `resp` against `want`.
pub fn verify(resp: &OcspResponse<'_>, want: &Expect<'_, '_>) -> Result<OcspVerdict, VerifyError> {
    let mut v = OcspVerdict {
        status: None,
        checks: Vec::new(),
    };
    let st = resp.status;
    let name = st
        .name()
        .map_or_else(|| st.code().to_string(), str::to_string);
    if !v.add(
        "response_status",
        st == ResponseStatus::Successful,
        name.clone(),
    ) {
        return Ok(v);
    }
    let Some(basic) = &resp.basic else {
        let t = resp
            .response_bytes
            .map(|b| b.response_type.name_or_dotted())
            .unwrap_or_default();
        v.add(
            "response_type",
            false,
            format!("expected id-pkix-ocsp-basic, found {t}"),
        );
        return Ok(v);
    };
    check_signature(&mut v, basic, want)?;
    let serial = match (want.cert, want.request) {
        (Some(c), _) => Some(c.serial.to_vec()),
        (None, Some(q)) => q.requests()?.first().map(|r| r.cert_id.serial.to_vec()),
        (None, None) => None,
    };
    let responses = basic.responses()?;
    let Some(single) = find_single(want.backend, &responses, want.issuer, serial.as_deref()) else {
        let what = serial.map_or_else(
            || "any certificate".to_string(),
            |s| format!("serial {}", hex(crate::der::integer::unsigned_bytes(&s))),
        );
        v.add(
            "cert_id",
            false,
            format!("no SingleResponse names {what} of this issuer"),
        );
        return Ok(v);
    };
    v.add(
        "cert_id",
        true,
        format!(
            "serial {}, issuer hashes ({}) match",
            single.cert_id.serial_hex(),
            single.cert_id.hash_algorithm.name()
        ),
    );
    check_nonce(&mut v, basic, want.request)?;
    check_freshness(&mut v, single, want.now);
    let status = single.cert_status;
    v.status = Some(status);
    v.add("cert_status", status == CertStatus::Good, describe(&status));
    Ok(v)
}

/// The signer is the CA (ResponderID names its key or subject) or a certificate in
/// `certs` the ResponderID names, which must be a delegated signer of this CA.
fn check_signature(
    v: &mut OcspVerdict,
    basic: &BasicOcspResponse<'_>,
    want: &Expect<'_, '_>,
) -> Result<(), VerifyError> {
    let ca = want.issuer;
    let certs = basic.certs()?;
    let names = |c: &Certificate<'_>| match basic.responder_id {
        ResponderId::ByKey(h) => h == responder_key_hash(want.backend, c).as_slice(),
        ResponderId::ByName(n) => n.raw == c.subject.raw,
    };
    let signer = if names(ca) {
        ca
    } else if let Some(d) = certs.iter().find(|c| names(c)) {
        let r = check_delegated_signer(want.backend, ca, d, want.now);
        let subject = d.subject.to_rfc4514().unwrap_or_default();
        let ok = r.is_ok();
        v.add(
            "delegated_signer",
            ok,
            r.err()
                .unwrap_or_else(|| format!("{subject}: issued by the CA, OCSPSigning")),
        );
        if !ok {
            return Ok(());
        }
        d
    } else {
        v.add(
            "signature",
            false,
            "the ResponderID names neither the CA nor a certificate in the response",
        );
        return Ok(());
    };
    let good = verify_signed(
        want.backend,
        signer.spki.raw,
        &basic.signature_algorithm,
        basic.tbs_raw,
        basic.signature.bytes,
    )
    .map_err(VerifyError::Signed)?;
    let who = if std::ptr::eq(signer, ca) {
        "the CA"
    } else {
        "the delegated signer"
    };
    let detail = if good {
        format!("{} by {who}", basic.signature_algorithm.name())
    } else {
        format!(
            "{} signature does not verify under {who}'s key",
            basic.signature_algorithm.name()
        )
    };
    v.add("signature", good, detail);
    Ok(())
}

/// RFC 6960 §4.2.2.2: a delegated responder's certificate is issued directly by the CA
/// and carries id-kp-OCSPSigning; it must also be valid now.
pub fn check_delegated_signer(
    backend: &Backend,
    ca: &Certificate<'_>,
    signer: &Certificate<'_>,
    now: Time,
) -> Result<(), String> {
    if signer.issuer.raw != ca.subject.raw {
        return Err("the responder certificate was not issued by this CA".into());
    }
    let sig_ok = verify_signed(
        backend,
        ca.spki.raw,
        &signer.signature_algorithm,
        signer.tbs_raw,
        signer.signature.bytes,
    )
    .map_err(|e| format!("the responder certificate's signature: {e}"))?;
    if !sig_ok {
        return Err(
            "the responder certificate's signature does not verify under the CA key".into(),
        );
    }
    let has_eku = signer
        .extensions
        .and_then(|x| x.find(&oids::CE_EXT_KEY_USAGE).ok().flatten())
        .and_then(|e| crate::ext::decode(e.oid, e.value, e.value_offset).ok())
        .is_some_and(|v| {
            matches!(v, ExtensionValue::ExtendedKeyUsage(list)
                if list.iter().any(|o| *o == oids::KP_OCSP_SIGNING))
        });
    if !has_eku {
        return Err(
            "the responder certificate lacks the id-kp-OCSPSigning extended key usage".into(),
        );
    }
    let (nb, na) = signer
        .validity()
        .map_err(|e| format!("the responder certificate's validity: {e}"))?;
    if now < nb || now > na {
        return Err(format!(
            "the responder certificate is valid {nb} .. {na}, not at {now}"
        ));
    }
    Ok(())
}

/// The SingleResponse for `serial` (INTEGER content octets) of `issuer`, or the first one
/// of `issuer` when no serial is given. Hashes are recomputed with each CertID's own
/// digest.
fn find_single<'a, 'r>(
    backend: &Backend,
    responses: &'r [SingleResponse<'a>],
    issuer: &Certificate<'_>,
    serial: Option<&[u8]>,
) -> Option<&'r SingleResponse<'a>> {
    responses.iter().find(|s| {
        let id = &s.cert_id;
        digest_of(id).is_some_and(|d| IssuerHashes::of(backend, issuer, d).issued(id))
            && serial.is_none_or(|want| same_serial(id.serial, want))
    })
}

/// RFC 8954: when the request carried a nonce, the response must carry the same one.
fn check_nonce(
    v: &mut OcspVerdict,
    basic: &BasicOcspResponse<'_>,
    request: Option<&OcspRequest<'_>>,
) -> Result<(), VerifyError> {
    let Some(q) = request else {
        return Ok(());
    };
    let Some(asked) = find_nonce(q.request_extensions.as_ref()).at("request")? else {
        return Ok(());
    };
    match find_nonce(basic.response_extensions.as_ref())? {
        Some(n) if n == asked => v.add("nonce", true, format!("{} octets, as requested", n.len())),
        Some(_) => v.add(
            "nonce",
            false,
            "the response's nonce differs from the request's",
        ),
        None => v.add(
            "nonce",
            false,
            "the request had a nonce; the response has none",
        ),
    };
    Ok(())
}

/// thisUpdate not in the future (beyond the skew), nextUpdate (when set) not passed.
fn check_freshness(v: &mut OcspVerdict, s: &SingleResponse<'_>, now: Time) {
    let this = s.this_update;
    v.add(
        "this_update",
        this <= now.plus_seconds(SKEW_SECONDS),
        if this <= now.plus_seconds(SKEW_SECONDS) {
            format!("{this}")
        } else {
            format!("{this} is in the future (now {now})")
        },
    );
    match s.next_update {
        Some(n) => v.add(
            "next_update",
            n >= now,
            if n >= now {
                format!("{n}")
            } else {
                format!("{n} has passed (now {now}): the response is stale")
            },
        ),
        // RFC 6960 §4.2.2.1 makes a response without nextUpdate the equivalent of a CRL
        // without one, and §2.4 reads the absence as "newer revocation information is
        // available all the time": nothing to be stale against, so accepted at any age
        // (as OpenSSL's `ocsp` accepts it; its own responder leaves nextUpdate out unless
        // given -nmin or -ndays). thisUpdate is still checked above.
        None => v.add(
            "next_update",
            true,
            "not set: newer status is available at any time (RFC 6960 2.4)",
        ),
    };
}

/// `good`, `revoked at T (reason)`, `unknown`.
pub fn describe(s: &CertStatus) -> String {
    match s {
        CertStatus::Good => "good".into(),
        CertStatus::Unknown => "unknown".into(),
        CertStatus::Revoked {
            revocation_time,
            revocation_reason,
        } => match revocation_reason {
            Some(r) => format!(
                "revoked at {revocation_time} ({})",
                r.name()
                    .map_or_else(|| r.code().to_string(), str::to_string)
            ),
            None => format!("revoked at {revocation_time}"),
        },
    }
}
