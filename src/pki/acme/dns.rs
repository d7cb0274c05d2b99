//! DNS for validation: dns-01's TXT records (RFC 8555 §8.4), CAA's records
//! and, where the server is given its own resolver (`--resolver`), the addresses http-01
//! connects to. Each look-up
//! asks a fresh resolver (no cache to go stale between a client's TXT update and its
//! challenge POST) on a one-thread runtime, within [`crate::config::TIMEOUT`].

use crate::config::{AcmeConfig, TIMEOUT};
use crate::problem::Problem;
use hickory_resolver::config::{NameServerConfig, ResolverConfig};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::rr::RData;
use hickory_resolver::Resolver;
use std::future::Future;
use std::net::IpAddr;

pub(crate) fn dns_problem(detail: String) -> Problem {
    Problem::new("dns", 400, detail)
}

/// Run `f` with a resolver for `config` on a runtime of its own, all of it within
/// [`TIMEOUT`].
pub(crate) fn with_resolver<T, F: Future<Output = Result<T, Problem>>>(
    config: &AcmeConfig,
    f: impl FnOnce(Resolver<TokioRuntimeProvider>) -> F,
) -> Result<T, Problem> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Problem::server(format!("a resolver runtime: {e}")))?;
    rt.block_on(async {
        let built = match config.resolver {
            Some(addr) => {
                let mut ns = NameServerConfig::udp_and_tcp(addr.ip());
                for c in &mut ns.connections {
                    c.port = addr.port();
                }
                Resolver::builder_with_config(
                    ResolverConfig::from_parts(None, Vec::new(), vec![ns]),
                    TokioRuntimeProvider::new(),
                )
                .build()
            }
            None => hickory_resolver::TokioResolver::builder_tokio().and_then(|b| b.build()),
        };
        let resolver = built.map_err(|e| Problem::server(format!("the resolver: {e}")))?;
        match tokio::time::timeout(TIMEOUT, f(resolver)).await {
            Ok(r) => r,
            Err(_) => Err(dns_problem(format!(
                "no answer within {} s",
                TIMEOUT.as_secs()
            ))),
        }
    })
}

/// dns-01: a TXT record at `_acme-challenge.NAME` holds `digest` (base64url SHA-256 of
/// the key authorization).
pub(crate) fn dns_01(config: &AcmeConfig, name: &str, digest: &str) -> Result<(), Problem> {
    let fqdn = format!("_acme-challenge.{name}.");
    let found = with_resolver(config, |r| async move {
        let lookup = r
            .txt_lookup(fqdn.as_str())
            .await
            .map_err(|e| dns_problem(format!("TXT {fqdn}: {e}")))?;
        Ok(lookup
            .answers()
            .iter()
            .filter_map(|rec| match &rec.data {
                RData::TXT(t) => Some(
                    t.txt_data
                        .iter()
                        .flat_map(|s| s.iter().copied())
                        .collect::<Vec<u8>>(),
                ),
                _ => None,
            })
            .collect::<Vec<_>>())
    })?;
    if found.iter().any(|t| t == digest.as_bytes()) {
        return Ok(());
    }
    Err(Problem::new(
        "incorrectResponse",
        403,
        format!(
            "no TXT record at _acme-challenge.{name} holds the key authorization's digest ({} found)",
            found.len()
        ),
    ))
}

/// The addresses of `name`, asked of the configured resolver.
pub(crate) fn addresses(config: &AcmeConfig, name: &str) -> Result<Vec<IpAddr>, Problem> {
    let fqdn = format!("{name}.");
    let found: Vec<IpAddr> = with_resolver(config, |r| async move {
        Ok(r.lookup_ip(fqdn.as_str())
            .await
            .map_err(|e| dns_problem(format!("{fqdn}: {e}")))?
            .iter()
            .collect())
    })?;
    if found.is_empty() {
        return Err(dns_problem(format!("{name} has no address")));
    }
    Ok(found)
}
