//! The CSR of a finalize request (RFC 8555 §7.4): it parses, its signature verifies
//! with its own key, its key and names pass the CA's lints, and it names exactly the
//! order's identifiers; and the subject and SANs a certificate for those identifiers
//! carries (X.509 and MTC alike).

use crate::ca::Ca;
use crate::problem::Problem;
use crate::store::Order;
use pkit_lint::{lint_csr_context, CsrContext, CsrFacts, Level, LintOptions};
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;
use pkit_x509::csr::Csr;
use pkit_x509::ext::GeneralName;
use pkit_x509::san::parse_san;
use serde_json::Value;
use std::collections::BTreeSet;
use std::net::IpAddr;

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
        pkit_x509::subject::parse_subject(&cn.map(|c| format!("CN={c}")).unwrap_or_default())
            .map_err(|e| Problem::server(e.to_string()))?;
    Ok((subject, sans))
}
