//! `pkit ocsp`: make requests, answer them from a CA's ca.db, check responses, and serve
//! them over HTTP (the server lives in `serve.rs`; what both answerers share in
//! `responder.rs`).

mod responder;
mod serve;

use super::ca_dir::parse_time;
use super::created::{check_free, print_json, say_created, Files, FormatArgs};
use super::error::{CliError, CliResult, Exit};
use super::flags::OutputArgs;
use super::http_get;
use super::io::{self, parse_cert, read_item};
use super::output;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use clap::{Args, Subcommand, ValueEnum};
use pkit::der::{hex, Time};
use pkit::pki::alg::Digest;
use pkit::pki::backend::Backend;
use pkit::pki::ca::ocsp_answer::{answer, AnswerError};
use pkit::pki::cert::Certificate;
use pkit::pki::ocsp::{CertStatus, OcspRequest, OcspResponse};
use pkit::pki::ocsp_request::{
    encode_request, new_nonce, read_request, responder_urls, IssuerHashes,
};
use pkit::pki::ocsp_verify::{self, Expect, OcspVerdict, VerifyError};
use pkit::pki::signed::SignedError;
pub use responder::{load_responder, SignerArgs};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = super::error::EXIT_CODES_HELP)]
pub struct OcspArgs {
    #[command(subcommand)]
    pub command: OcspCommand,
}

#[derive(Subcommand, Debug)]
pub enum OcspCommand {
    /// Build an OCSP request (RFC 6960) for a certificate; with --url, send it and check
    /// the answer.
    ///
    /// Without --url the request is written (to -o or stdout) and nothing goes over the
    /// network, even when the certificate names a responder. With --url URL the request
    /// is POSTed there (`application/ocsp-request`, at most 10 s, a response of at most
    /// 1 MiB) and the response is checked as `pkit ocsp verify` checks one: signed by the
    /// issuer or a delegated responder it certifies, the CertID answered, the nonce back
    /// when --nonce sent one, thisUpdate/nextUpdate current; the report goes to stdout
    /// and -o saves the response (DER). `--url` without a value asks the first http OCSP
    /// URL in the certificate's authorityInfoAccess. Exit 0 when the answer is valid and
    /// good, 1 when it is revoked, unknown or fails a check, 3 when it does not parse, 4
    /// when the responder could not be reached or answered with an HTTP status other than
    /// 200. With -f json the report is `ocsp verify -f json`'s envelope, `files` naming
    /// the response saved.
    Request(RequestArgs),
    /// Answer an OCSP request from a CA directory's ca.db.
    Respond(RespondArgs),
    /// Check an OCSP response: signer, certificate, nonce, freshness, status.
    Verify(VerifyArgs),
    /// Run an OCSP responder over HTTP (RFC 6960 Appendix A) for a CA directory.
    ///
    /// Requests: POST of an `application/ocsp-request` body (a POST without a Content-Type
    /// is read as one), or GET of `/` followed by the base64 request, URL-encoded or not.
    /// Every answer is `application/ocsp-response`: 200 with the response (`unauthorized`
    /// for another CA's certificates, `internalError` when the store or the signer fails);
    /// 400 for a body or path that is not an OCSP request, 415 for a POST of another
    /// Content-Type, 405 for other methods, 413 for a body over 64 KiB, 408 for a body
    /// that does not arrive within --header-timeout, each with a `malformedRequest`
    /// response as its body. The answer for one certificate without a nonce is signed once
    /// and served again until the certificate's status changes or half its validity has
    /// passed. One JSON line per request on stderr.
    Serve(serve::ServeArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CertIdHash {
    Sha1,
    Sha256,
}

#[derive(Args, Debug)]
pub struct RequestArgs {
    /// The certificate to ask about.
    #[arg(long)]
    pub cert: PathBuf,
    /// The certificate of the CA that issued it.
    #[arg(long)]
    pub issuer: PathBuf,
    /// Hash for the CertID (responders expect sha1).
    #[arg(long, value_enum, default_value_t = CertIdHash::Sha1)]
    pub hash: CertIdHash,
    /// Add a 32-byte random nonce (RFC 8954).
    #[arg(long)]
    pub nonce: bool,
    /// Send the request to the OCSP responder at URL (http://…) and check the response;
    /// without a value, to the one the certificate's authorityInfoAccess names. -o then
    /// saves the response.
    #[arg(long, value_name = "URL", num_args = 0..=1)]
    pub url: Option<Option<String>>,
    #[command(flatten)]
    pub output: crate::cmd::flags::OutputArgs,
    /// json: describe the request on stdout (serial, CertID hash, nonce, files; its DER
    /// as der_b64 when no -o is given).
    #[command(flatten)]
    pub format: FormatArgs,
}

#[derive(Args, Debug)]
pub struct RespondArgs {
    #[command(flatten)]
    pub signer: SignerArgs,
    /// The OCSP request (DER, PEM or base64).
    #[arg(long)]
    pub request: PathBuf,
    /// Answer as of this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    #[command(flatten)]
    pub output: crate::cmd::flags::OutputArgs,
    /// json: describe the response on stdout (serials, status, files; its DER as
    /// der_b64 when no -o is given).
    #[command(flatten)]
    pub format: FormatArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VerifyFormat {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The OCSP response (DER, PEM or base64).
    pub response: PathBuf,
    /// The certificate of the CA that issued the certificate in question.
    #[arg(long)]
    pub issuer: PathBuf,
    /// The certificate in question (its serial must be answered).
    #[arg(long)]
    pub cert: Option<PathBuf>,
    /// The request this response answers (its nonce must come back).
    #[arg(long)]
    pub request: Option<PathBuf>,
    /// Judge freshness at this time (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    #[arg(short, long, value_enum, default_value_t = VerifyFormat::Text)]
    pub format: VerifyFormat,
}

pub fn run(be: &Backend, a: OcspArgs) -> CliResult<Exit> {
    match a.command {
        OcspCommand::Request(a) => run_request(be, a),
        OcspCommand::Respond(a) => run_respond(be, a),
        OcspCommand::Verify(a) => run_verify(be, a),
        OcspCommand::Serve(a) => serve::run(be, a),
    }
}

fn run_request(be: &Backend, a: RequestArgs) -> CliResult<Exit> {
    let leaf_item = read_item(&a.cert)?;
    let issuer_item = read_item(&a.issuer)?;
    let leaf = parse_cert(&leaf_item)?;
    let issuer = parse_cert(&issuer_item)?;
    leaf.check_issued_by(&issuer).map_err(|e| {
        CliError::negative(format!("{}: {e} ({})", leaf_item.name, issuer_item.name))
    })?;
    let digest = match a.hash {
        CertIdHash::Sha1 => Digest::Sha1,
        CertIdHash::Sha256 => Digest::Sha256,
    };
    let nonce = a
        .nonce
        .then(|| new_nonce(be))
        .transpose()
        .map_err(|e| CliError::io(format!("randomness: {e}")))?;
    let der = encode_request(
        &IssuerHashes::of(be, &issuer, digest),
        leaf.serial,
        nonce.as_ref().map(|n| n.as_slice()),
    );
    if let Some(url) = &a.url {
        let url = match url {
            Some(u) => u.clone(),
            None => responder_urls(&leaf).into_iter().next().ok_or_else(|| {
                CliError::usage(format!(
                    "{}: names no http OCSP responder in authorityInfoAccess; give --url URL",
                    leaf_item.name
                ))
            })?,
        };
        let sent = Sent {
            url: &url,
            request: &der,
            leaf: &leaf,
            issuer: &issuer,
        };
        return ask_responder(be, &a, sent);
    }
    let serial = hex(pkit::der::integer::unsigned_bytes(leaf.serial));
    let hash = match a.hash {
        CertIdHash::Sha1 => "sha1",
        CertIdHash::Sha256 => "sha256",
    };
    let what = format!(
        "OCSP request (serial {serial}, {hash} CertID{})",
        if nonce.is_some() { ", nonce" } else { "" }
    );
    let item = json!({
        "type": "ocsp_request",
        "serial_number": serial,
        "hash_algorithm": hash,
        "nonce": nonce.map(|n| hex(&n)),
    });
    deliver_der(&a.output, &a.format, "ocsp_request", item, &der, &what)
}

/// A request on its way to a responder, and what its answer must be about.
struct Sent<'s, 'c> {
    url: &'s str,
    request: &'s [u8],
    leaf: &'s Certificate<'c>,
    issuer: &'s Certificate<'c>,
}

/// `ocsp request --url`: POST the request, save the response when -o names a file, and
/// report the check of it as `ocsp verify` does.
fn ask_responder(be: &Backend, a: &RequestArgs, sent: Sent<'_, '_>) -> CliResult<Exit> {
    let url = sent.url;
    if !url.starts_with("http://") {
        return Err(CliError::usage(format!(
            "--url {url}: not an http:// URL (OCSP is asked over plain HTTP; pkit's client \
             has no TLS)"
        )));
    }
    check_free(&[a.output.out.as_deref()], a.output.force)?;
    let agent = http_get::agent(http_get::OCSP_TIMEOUT);
    let der = http_get::post_ocsp(&agent, url, sent.request)
        .map_err(|e| CliError::io(http_get::one_line(url, e)))?;
    let resp = OcspResponse::from_der(&der).map_err(|e| CliError::der(url, &e))?;
    let req = read_request(sent.request).map_err(|e| CliError::internal(e.to_string()))?;
    let verdict = check_response(
        &resp,
        &Expect {
            backend: be,
            issuer: sent.issuer,
            cert: Some(sent.leaf),
            request: Some(&req),
            now: Time::now(),
        },
        url,
    )?;
    let mut files = Files::default();
    if let Some(p) = a.output.out.as_deref() {
        write_der(Some(p), a.output.force, &der)?;
        files.add("ocsp_response", p);
    }
    let text = if a.format.json() {
        let mut item = verdict_json(url, &verdict);
        item["files"] = files.into_value();
        output::json_text(&output::envelope("ocsp_verify", vec![item]))
    } else {
        verdict_text(url, &verdict)
    };
    io::write_text(None, false, &text)?;
    Ok(if verdict.valid() {
        Exit::Ok
    } else {
        Exit::Negative
    })
}

/// Write `der` to -o (or stdout) and say `what` was created, or with `-f json` describe
/// it on stdout (its DER as `der_b64` when there is no -o).
fn deliver_der(
    output: &OutputArgs,
    format: &FormatArgs,
    kind: &str,
    mut item: Value,
    der: &[u8],
    what: &str,
) -> CliResult<Exit> {
    if !format.json() {
        write_der(output.out.as_deref(), output.force, der)?;
        say_created(what, output.out.as_deref());
        return Ok(Exit::Ok);
    }
    let mut files = Files::default();
    match output.out.as_deref().filter(|p| p.as_os_str() != "-") {
        Some(p) => {
            write_der(Some(p), output.force, der)?;
            files.add(kind, p);
        }
        None => item["der_b64"] = B64.encode(der).into(),
    }
    item["files"] = files.into_value();
    print_json(kind, vec![item])?;
    Ok(Exit::Ok)
}

fn write_der(out: Option<&Path>, force: bool, der: &[u8]) -> CliResult<Exit> {
    io::write_output(
        &io::OutputOpts {
            path: out,
            force,
            private: false,
            binary: true,
        },
        der,
    )?;
    Ok(Exit::Ok)
}

fn run_respond(be: &Backend, a: RespondArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let item = read_item(&a.request)?;
    let req = OcspRequest::from_der(&item.der).map_err(|e| CliError::der(&item.name, &e))?;
    let (responder, store, lifetime) = load_responder(be, &a.signer, now)?;
    let mut signer = responder.signer()?;
    let answered = match answer(
        &responder,
        signer.as_mut(),
        &*store,
        &req,
        now,
        lifetime,
        None,
    ) {
        Ok(x) => x,
        Err(AnswerError::Malformed(e)) => return Err(CliError::der(&item.name, &e)),
        Err(AnswerError::Internal(m)) => return Err(CliError::io(m)),
        Err(other) => return Err(CliError::internal(other.to_string())),
    };
    let described = json!({
        "type": "ocsp_response",
        "serial_numbers": answered.serials,
        "status": if answered.serials.is_empty() { "unauthorized".to_string() } else { answered.status.to_string() },
        "produced_at": now.to_string(),
    });
    let what = if answered.serials.is_empty() {
        format!(
            "OCSP response (unauthorized: {} names a certificate of another issuer)",
            item.name
        )
    } else {
        format!(
            "OCSP response (serial {}: {})",
            answered.serials.join(","),
            answered.status
        )
    };
    deliver_der(
        &a.output,
        &a.format,
        "ocsp_response",
        described,
        &answered.der,
        &what,
    )
}

fn run_verify(be: &Backend, a: VerifyArgs) -> CliResult<Exit> {
    let now = parse_time("--now", &a.now)?.unwrap_or_else(Time::now);
    let resp_item = read_item(&a.response)?;
    let resp =
        OcspResponse::from_der(&resp_item.der).map_err(|e| CliError::der(&resp_item.name, &e))?;
    let issuer_item = read_item(&a.issuer)?;
    let issuer = parse_cert(&issuer_item)?;
    let cert_item = a.cert.as_deref().map(read_item).transpose()?;
    let cert = cert_item.as_ref().map(parse_cert).transpose()?;
    let req_item = a.request.as_deref().map(read_item).transpose()?;
    let req = req_item
        .as_ref()
        .map(|item| read_request(&item.der).map_err(|e| CliError::der(&item.name, &e)))
        .transpose()?;
    let verdict = check_response(
        &resp,
        &Expect {
            backend: be,
            issuer: &issuer,
            cert: cert.as_ref(),
            request: req.as_ref(),
            now,
        },
        &resp_item.name,
    )?;
    let text = match a.format {
        VerifyFormat::Json => output::json_text(&output::envelope(
            "ocsp_verify",
            vec![verdict_json(&resp_item.name, &verdict)],
        )),
        VerifyFormat::Text => verdict_text(&resp_item.name, &verdict),
    };
    io::write_text(None, false, &text)?;
    Ok(if verdict.valid() {
        Exit::Ok
    } else {
        Exit::Negative
    })
}

/// Check the response read from `source` (a file or a URL), its failures to check as
/// errors naming it.
fn check_response(
    resp: &OcspResponse<'_>,
    want: &Expect<'_, '_>,
    source: &str,
) -> CliResult<OcspVerdict> {
    ocsp_verify::verify(resp, want).map_err(|e| match e {
        VerifyError::Der(e) => CliError::der(source, &e),
        VerifyError::Signed(SignedError::UnsupportedAlgorithm(n)) => CliError::unsupported(
            format!("{source}: signature algorithm {n} is not supported"),
        ),
        VerifyError::Signed(e) => CliError::parse(format!("{source}: {e}")),
        other => CliError::internal(format!("{source}: {other}")),
    })
}

/// The envelope's one item: `{"source","valid","status","revocation_time","reason","checks"}`.
fn verdict_json(source: &str, v: &OcspVerdict) -> Value {
    let (status, time, reason) = status_parts(v.status.as_ref());
    json!({
        "source": source,
        "valid": v.valid(),
        "status": status,
        "revocation_time": time,
        "reason": reason,
        "checks": v.checks.iter().map(|c| json!({
            "name": c.name,
            "ok": c.ok,
            "detail": c.detail,
        })).collect::<Vec<_>>(),
    })
}

fn status_parts(s: Option<&CertStatus>) -> (Value, Value, Value) {
    match s {
        None => (Value::Null, Value::Null, Value::Null),
        Some(CertStatus::Good) => ("good".into(), Value::Null, Value::Null),
        Some(CertStatus::Unknown) => ("unknown".into(), Value::Null, Value::Null),
        Some(CertStatus::Revoked {
            revocation_time,
            revocation_reason,
        }) => (
            "revoked".into(),
            revocation_time.to_string().into(),
            revocation_reason
                .and_then(|r| r.name())
                .map_or(Value::Null, Value::from),
        ),
    }
}

fn verdict_text(name: &str, v: &OcspVerdict) -> String {
    let status = v
        .status
        .as_ref()
        .map_or_else(|| "no status".to_string(), ocsp_verify::describe);
    let mut s = format!(
        "{name}: {status} — {}\n",
        if v.valid() { "valid" } else { "NOT valid" }
    );
    for c in &v.checks {
        s.push_str(&format!(
            "  {} {}: {}\n",
            if c.ok { "ok  " } else { "FAIL" },
            c.name,
            c.detail
        ));
    }
    s
}
