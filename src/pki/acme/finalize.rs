//! Finalizing an order (RFC 8555 §7.4): the CSR is checked (it parses, its signature
//! verifies with its own key, the key and names pass the CA's lints, and it names exactly
//! the order's identifiers), then the CA issues through the same [`Issuer`] and lint gate
//! `pkit issue cert` uses, and records the certificate in the CA's records.

use crate::problem::Problem;
use crate::store::{IssuedCert, Order};
use crate::{AcmeConfig, Issues};
use pkit_ca::issuer::{CaError, Issuer, Request};
use pkit_ca::profile::Profile;
use pkit_ca::san::parse_san;
use pkit_ca::store::CaStore;
use pkit_der::Time;
use pkit_lint::{lint_csr_context, CsrContext, CsrFacts, Level, LintOptions};
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;
use pkit_x509::csr::Csr;
use pkit_x509::ext::GeneralName;
use serde_json::Value;
use std::collections::BTreeSet;
use std::net::IpAddr;

/// The CA an ACME server issues from.
pub struct Ca {
    /// The CA certificate and key, with its lint gate and name policy.
    pub issuer: Issuer,
    /// What follows the leaf in the chain served (intermediates, or the CA itself).
    pub chain: Vec<Vec<u8>>,
}

/// A CSR that passed: the key the certificate gets.
pub(crate) struct CheckedCsr {
    pub spki: Vec<u8>,
    pub key_alg: Option<Algorithm>,
}

fn bad(detail: impl Into<String>) -> Problem {
    Problem::new("badCSR", 400, detail)
}

/// The order's identifiers as (type, value), wildcards with their `*.`.
pub(crate) fn order_names(o: &Order) -> BTreeSet<(String, String)> {
    serde_json::from_str::<Value>(&o.identifiers)
        .ok()
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|i| {
            Some((
                i["type"].as_str()?.to_string(),
                i["value"].as_str()?.to_string(),
            ))
        })
        .collect()
}

/// Check a finalize CSR against its order.
pub(crate) fn check_csr(
    der: &[u8],
    o: &Order,
    ca: &Ca,
    backend: &Backend,
) -> Result<CheckedCsr, Problem> {
    let csr = Csr::from_der(der).map_err(|e| bad(format!("the CSR does not parse: {e}")))?;
    let verifies = pkit_x509::signed::verify_signed(
        backend,
        csr.spki.raw,
        &csr.signature_algorithm,
        csr.tbs_raw(),
        csr.signature.bytes,
    )
    .map_err(|e| bad(format!("the CSR's signature: {e}")))?;
    // Read once: the lints and the name check below share it.
    let ctx = CsrContext::new(
        &csr,
        CsrFacts {
            signature_verifies: Some(verifies),
        },
    );
    let findings = lint_csr_context(
        &ctx,
        &LintOptions {
            rules: ca.issuer.gate.rules,
            ..LintOptions::default()
        },
    );
    if let Some(f) = findings.iter().find(|f| f.level == Level::Error) {
        return Err(bad(format!("{}: {}", f.lint, f.message)));
    }
    // The names it asks for: its SAN's DNS names and addresses, and a commonName.
    let mut asked = BTreeSet::new();
    for n in ctx.sans() {
        match n {
            GeneralName::DnsName(d) => {
                asked.insert(("dns".to_string(), d.to_ascii_lowercase()));
            }
            GeneralName::IpAddress(ip) => {
                let a = ip
                    .address()
                    .ok_or_else(|| bad("an iPAddress of the wrong length"))?;
                asked.insert(("ip".to_string(), a.to_string()));
            }
            other => {
                return Err(bad(format!(
                    "a {} name: only DNS names and IP addresses",
                    other.kind()
                )))
            }
        }
    }
    let wanted = order_names(o);
    for a in csr.subject.rdns().unwrap_or_default().iter().flatten() {
        if a.oid == pkit_der::oid_registry::AT_COMMON_NAME {
            let cn = a
                .text()
                .map_err(|_| bad("an unreadable commonName"))?
                .to_ascii_lowercase();
            let as_ip = cn
                .parse::<IpAddr>()
                .map(|ip| ("ip".to_string(), ip.to_string()));
            let found = wanted.contains(&("dns".to_string(), cn.clone()))
                || as_ip.as_ref().is_ok_and(|x| wanted.contains(x));
            if !found {
                return Err(bad(format!(
                    "the commonName {cn:?} is not one of the order's identifiers"
                )));
            }
        }
    }
    if asked != wanted {
        let list = |s: &BTreeSet<(String, String)>| {
            s.iter()
                .map(|(_, v)| v.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(bad(format!(
            "the CSR names [{}]; the order is for [{}]",
            list(&asked),
            list(&wanted)
        )));
    }
    Ok(CheckedCsr {
        spki: csr.spki.raw.to_vec(),
        key_alg: Algorithm::from_spki(csr.spki.raw),
    })
}

/// Issue the order's certificate, record it in the CA's records, and return it with its
/// chain.
pub(crate) fn issue(
    ca: &Ca,
    store: &mut dyn CaStore,
    config: &AcmeConfig,
    o: &Order,
    csr: CheckedCsr,
    now: Time,
) -> Result<IssuedCert, Problem> {
    let (profile, days) = match config.issues(o.profile.as_deref()) {
        (Issues::X509(p), days) => (p, days),
        (Issues::Mtc, _) => return Err(Problem::server("an MTC order is not signed by the CA")),
    };
    let window = (
        o.not_before.map(|t| Time { unix: t }),
        o.not_after.map(|t| Time { unix: t }),
    );
    let (issued, chain_pem) =
        issue_for_names(ca, store, &order_names(o), &csr, profile, window, days, now)?;
    Ok(IssuedCert {
        serial: pkit_der::hex(pkit_der::integer::unsigned_bytes(&issued.serial)),
        order_id: o.id,
        account_id: o.account_id,
        chain_pem,
        not_before: issued.not_before.unix,
        not_after: issued.not_after.unix,
        revoked: false,
    })
}

/// The subject and SANs (GeneralName TLVs) of a certificate for `names` ((type, value):
/// `dns` or `ip`): every name in the SAN, and the first DNS name short enough for a
/// commonName (64) as the subject's, else an empty subject (clients read the SAN).
pub(crate) fn subject_and_sans(
    names: &BTreeSet<(String, String)>,
) -> Result<(Vec<u8>, Vec<Vec<u8>>), Problem> {
    let sans = names
        .iter()
        .map(|(t, v)| {
            let spec = if t == "ip" {
                format!("IP:{v}")
            } else {
                format!("DNS:{v}")
            };
            parse_san(&spec)
                .map(|s| s.der)
                .map_err(|e| Problem::server(format!("{spec}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let cn = names
        .iter()
        .find(|(t, v)| t == "dns" && v.len() <= 64)
        .map(|(_, v)| v.clone());
    let subject =
        pkit_ca::subject::parse_subject(&cn.map(|c| format!("CN={c}")).unwrap_or_default())
            .map_err(|e| Problem::server(e.to_string()))?;
    Ok((subject, sans))
}

/// Issue a TLS server certificate for `names` ((type, value): `dns` or `ip`) to `key`,
/// through the CA's lint gate, recorded in its records; the certificate and the chain
/// as PEM.
#[allow(clippy::too_many_arguments)]
pub(crate) fn issue_for_names(
    ca: &Ca,
    store: &mut dyn CaStore,
    names: &BTreeSet<(String, String)>,
    key: &CheckedCsr,
    profile: Profile,
    window: (Option<Time>, Option<Time>),
    days: Option<u32>,
    now: Time,
) -> Result<(pkit_ca::issuer::Issued, String), Problem> {
    let (subject, sans) = subject_and_sans(names)?;
    let days = days.unwrap_or_else(|| pkit_ca::validity::default_days(profile, now));
    let not_before = window.0.unwrap_or(now);
    let not_after = window
        .1
        .unwrap_or_else(|| pkit_ca::validity::not_after_for(not_before, days));
    let req = Request {
        subject,
        spki: key.spki.clone(),
        key_alg: key.key_alg,
        profile,
        sans,
        not_before,
        not_after,
        path_len: None,
        copied: Vec::new(),
        pointers: None,
        name_constraints: None,
        clip: true,
        copied_wins: false,
    };
    let mut signer = ca
        .issuer
        .key
        .signer()
        .map_err(|e| Problem::server(format!("the CA's key: {e}")))?;
    let issued = ca
        .issuer
        .issue(signer.as_mut(), &req)
        .map_err(|e| match e {
            CaError::Lint(findings) => Problem::new(
                "rejectedIdentifier",
                400,
                format!(
                    "the CA's lint gate refused the certificate: {}",
                    findings
                        .iter()
                        .map(|f| format!("{} ({})", f.lint, f.message))
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            ),
            // The CA's policy changed since the order was made, or the CSR names what
            // the chain forbids: the client's request, not the server, is at fault.
            CaError::Forbidden(r) => Problem::new(
                "rejectedIdentifier",
                400,
                format!("the CA refused to sign: {r}"),
            ),
            other => Problem::server(format!("issuing: {other}")),
        })?;
    let dn = pkit_x509::cert::Certificate::from_der(&issued.der)
        .ok()
        .and_then(|c| c.subject.to_rfc4514().ok())
        .unwrap_or_default();
    let alg = key.key_alg.map_or("other", Algorithm::name);
    store
        .insert_certificates(&[issued.record(&dn, profile, alg)])
        .map_err(|e| Problem::server(format!("the CA's records: {e}")))?;
    let mut chain_pem = pem_block(&issued.der);
    for c in &ca.chain {
        chain_pem.push_str(&pem_block(c));
    }
    Ok((issued, chain_pem))
}

/// The server's own HTTPS identity, from its CA: a fresh P-256 key and a certificate for
/// `host` (a name or an address). The chain and the key, as PEM.
pub fn server_identity(
    ca: &Ca,
    store: &mut dyn CaStore,
    host: &str,
    backend: &Backend,
    now: Time,
) -> Result<(String, String), Problem> {
    let key = backend
        .generate(Algorithm::EcdsaP256)
        .map_err(|e| Problem::server(format!("a key: {e}")))?;
    let spki = key
        .public_key_der()
        .map_err(|e| Problem::server(e.to_string()))?;
    let pkcs8 = key
        .to_pkcs8_der(Default::default())
        .map_err(|e| Problem::server(e.to_string()))?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let name = match host.parse::<IpAddr>() {
        Ok(ip) => ("ip".to_string(), ip.to_string()),
        Err(_) => ("dns".to_string(), host.to_ascii_lowercase()),
    };
    let checked = CheckedCsr {
        spki,
        key_alg: Some(Algorithm::EcdsaP256),
    };
    let names = BTreeSet::from([name]);
    let (_, chain) = issue_for_names(
        ca,
        store,
        &names,
        &checked,
        Profile::Server,
        (None, None),
        None,
        now,
    )?;
    Ok((chain, pkit_x509::pem::encode("PRIVATE KEY", &pkcs8)))
}

fn pem_block(der: &[u8]) -> String {
    pkit_x509::pem::encode("CERTIFICATE", der)
}
