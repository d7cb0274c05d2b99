//! Finalizing an order (RFC 8555 §7.4): the CSR is checked (it parses, its signature
//! verifies with its own key, the key and names pass the CA's lints, and it names exactly
//! the order's identifiers), then the CA issues through the same [`Issuer`] and lint gate
//! `pkit issue cert` uses, and records the certificate in the CA's records.

use crate::ca::Ca;
use crate::config::{AcmeConfig, Issues};
use crate::csr::{order_names, subject_and_sans, CheckedCsr};
use crate::problem::Problem;
use crate::store::{IssuedCert, Order};
use pkit_ca::issue_one::{IssueError, RecordAs};
use pkit_ca::issuer::{CaError, Request};
use pkit_ca::profile::Profile;
use pkit_ca::store::CaStore;
use pkit_der::Time;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;
use std::collections::BTreeSet;
use std::net::IpAddr;

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
        key_alg: key.key_alg,
        sans,
        clip: true,
        ..Request::new(subject, key.spki.clone(), profile, not_before, not_after)
    };
    let mut signer = ca
        .issuer
        .key
        .signer()
        .map_err(|e| Problem::server(format!("the CA's key: {e}")))?;
    // What the gate let through (under `warn`) goes on record with the certificate, in
    // its transaction, as for every certificate the CA signs.
    let issued = ca
        .issuer
        .issue_and_record(signer.as_mut(), &req, store, RecordAs::default())
        .map_err(|e| match e {
            IssueError::Ca(CaError::Lint(findings)) => Problem::new(
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
            IssueError::Ca(CaError::Forbidden(r)) => Problem::new(
                "rejectedIdentifier",
                400,
                format!("the CA refused to sign: {r}"),
            ),
            IssueError::Ca(other) => Problem::server(format!("issuing: {other}")),
            IssueError::Store(e) => Problem::server(format!("the CA's records: {e}")),
        })?;
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
    Ok((chain, pkit_x509::der::pem::encode("PRIVATE KEY", &pkcs8)))
}

fn pem_block(der: &[u8]) -> String {
    pkit_x509::der::pem::encode("CERTIFICATE", der)
}
