//! Lint any object pkit lints, by its kind: what `pkit lint` does with each input, and
//! what a fuzz target or another program calls. The object is read leniently: what is
//! not DER is a finding (under RFC 5280's rules); only what is not the object at all is
//! an error. Signatures the rules need to know about (a self-issued certificate's, a
//! CSR's proof of possession) are checked with the backend the caller gives.

use crate::cert_type::CertType;
use crate::context::CertContext;
use crate::csr_context::CsrFacts;
use crate::encoding::deviation_findings;
use crate::finding::{Finding, NotRun};
use crate::options::LintOptions;
use crate::run::{lint_parsed_crl, lint_parsed_csr, lint_parsed_ocsp, lint_report};
use pkit_der::{integer, Deviations, Reader};
use pkit_x509::backend::Backend;
use pkit_x509::cert::Certificate;
use pkit_x509::crl::Crl;
use pkit_x509::csr::Csr;
use pkit_x509::detect::Kind;
use pkit_x509::ocsp::OcspResponse;
use pkit_x509::signed::verify_signed;

/// One linted object.
#[derive(Debug, Clone)]
pub struct Linted {
    /// `certificate`, `crl`, `ocsp_response` or `csr`.
    pub object: &'static str,
    /// A certificate's or CSR's subject, a CRL's issuer (RFC 4514), a response's status.
    pub name: String,
    /// A certificate's serial, in hex; other objects have none.
    pub serial: Option<String>,
    /// A certificate's type, and why it was taken for one.
    pub cert_type: Option<(CertType, String)>,
    /// The day (Unix seconds) a certificate was judged as of: its notBefore, or `at`.
    pub judged_at: Option<i64>,
    /// What the lints found.
    pub findings: Vec<Finding>,
    /// Lints that could not run: a part they need did not decode.
    pub not_run: Vec<NotRun>,
}

/// Lint `der`, an object of `kind`; `None` for a kind pkit does not lint, an error when
/// it is not such an object at all.
pub fn lint_object(
    kind: Kind,
    der: &[u8],
    backend: &Backend,
    opts: &LintOptions,
) -> Option<Result<Linted, pkit_der::Error>> {
    let log = Deviations::new();
    let reader = Reader::lenient(der, &log);
    let linted = |object, name: String, mut findings: Vec<Finding>, path: &str| {
        if opts.rules.rfc5280 {
            findings.extend(deviation_findings(&log, path));
        }
        Linted {
            object,
            name,
            serial: None,
            cert_type: None,
            judged_at: None,
            findings,
            not_run: Vec::new(),
        }
    };
    Some(match kind {
        Kind::Certificate => Certificate::parse(reader).map(|cert| {
            // Self-signed or only self-issued: RFC 5280's exemptions are for the former,
            // and only the signature tells.
            let self_signed = cert
                .is_self_issued()
                .then(|| {
                    verify_signed(
                        backend,
                        cert.spki.raw,
                        &cert.signature_algorithm,
                        cert.tbs_raw,
                        cert.signature.bytes,
                    )
                    .ok()
                })
                .flatten();
            let ctx = CertContext::lenient(&cert, opts.as_type, &log, opts.at, self_signed);
            let report = lint_report(&ctx, &opts.rules);
            Linted {
                object: "certificate",
                name: cert.subject.to_rfc4514().unwrap_or_default(),
                serial: Some(pkit_der::hex(integer::unsigned_bytes(cert.serial))),
                cert_type: Some((ctx.kind, ctx.kind_reason.clone())),
                judged_at: Some(ctx.at),
                findings: report.findings,
                not_run: report.not_run,
            }
        }),
        Kind::Crl => Crl::parse(reader).map(|crl| {
            let findings = lint_parsed_crl(&crl, opts);
            linted(
                "crl",
                crl.issuer.to_rfc4514().unwrap_or_default(),
                findings,
                "tbsCertList",
            )
        }),
        Kind::Csr => Csr::parse(reader).map(|req| {
            // Proof of possession is a signature check, which the lints leave to the caller.
            let facts = CsrFacts {
                signature_verifies: verify_signed(
                    backend,
                    req.spki.raw,
                    &req.signature_algorithm,
                    req.tbs_raw(),
                    req.signature.bytes,
                )
                .ok(),
            };
            let findings = lint_parsed_csr(&req, facts, opts);
            linted(
                "csr",
                req.subject.to_rfc4514().unwrap_or_default(),
                findings,
                "certificationRequestInfo",
            )
        }),
        Kind::OcspResponse => OcspResponse::parse(reader).map(|resp| {
            let findings = lint_parsed_ocsp(&resp, opts);
            linted(
                "ocsp_response",
                resp.status.name().unwrap_or("").to_string(),
                findings,
                "responseBytes",
            )
        }),
        _ => return None,
    })
}
