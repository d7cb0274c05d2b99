//! What the ACME server is told at start: its URLs and ports, the profiles it offers
//! (X.509 or MTC certificates), order limits, External Account Binding keys, the MTC log
//! and the CAA identity it checks names against.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

/// How long one validation may take, connection and redirects included.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(10);

/// The most identifiers one order may name (Let's Encrypt's limit too).
pub const MAX_IDENTIFIERS: usize = 100;

/// What an order's certificate is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Issues {
    /// An X.509 certificate the CA signs, of this pkit profile (server, or server-client
    /// for serverAuth and clientAuth).
    X509(pkit_ca::profile::Profile),
    /// A Merkle Tree Certificate from the MTC CA ([`AcmeConfig::mtc`]).
    Mtc,
}

/// A profile the server offers (the `profiles` directory meta field): a name, what it is,
/// what its certificates are, and how long they are valid.
#[derive(Debug, Clone)]
pub struct ProfileOffer {
    /// The name orders give as their `profile`.
    pub name: String,
    /// What the directory says of it.
    pub description: String,
    /// The certificates its orders get.
    pub issues: Issues,
    /// How many days they are valid, at most.
    pub days: u32,
}

/// How the server runs.
#[derive(Debug, Clone)]
pub struct AcmeConfig {
    /// The URL clients reach the server at, without a trailing slash
    /// (`http://127.0.0.1:14000`): every resource URL starts with it, and JWS `url`s must.
    pub base_url: String,
    /// The port http-01 validation connects to (80; another for tests).
    pub http_port: u16,
    /// The port tls-alpn-01 validation connects to (443; another for tests).
    pub tls_port: u16,
    /// The DNS server validation asks (dns-01, and http-01's addresses); `None`: the
    /// system's.
    pub resolver: Option<SocketAddr>,
    /// How long an order (and its new authorizations) may take, in seconds.
    pub order_lifetime: i64,
    /// The profiles offered; orders without one get the MTC CA's certificates with
    /// [`AcmeConfig::mtc`], else pkit's server profile.
    pub profiles: Vec<ProfileOffer>,
    /// The terms of service URL the directory names (RFC 8555 §7.1.1 `termsOfService`).
    pub terms_of_service: Option<String>,
    /// At most this many new orders per account in `.1` seconds (`None`: no limit).
    pub order_rate: Option<(i64, i64)>,
    /// External account binding keys by key id; new accounts must bind to one when any
    /// are given.
    pub eab_keys: HashMap<String, Vec<u8>>,
    /// The MTC CA, when the server has one: orders without a profile get its
    /// certificates.
    pub mtc: Option<crate::mtc::MtcLog>,
    /// The issuer domain name this CA recognises as its own in CAA `issue` and
    /// `issuewild` properties (RFC 8659 §4.2); `None`: CAA is not looked up.
    pub caa_identity: Option<String>,
}

impl AcmeConfig {
    /// Whether new accounts must be bound to an external account (RFC 8555 §7.3.4): the
    /// directory's `externalAccountRequired`.
    pub fn eab_required(&self) -> bool {
        !self.eab_keys.is_empty()
    }

    /// The host of [`AcmeConfig::base_url`] (a name, an IPv4 address or a bracketed IPv6
    /// one), without its port: what the server's own certificate is for when it makes
    /// one.
    pub fn host(&self) -> &str {
        let authority = self
            .base_url
            .split("://")
            .nth(1)
            .unwrap_or("")
            .split('/')
            .next()
            .unwrap_or("");
        // host:port, [v6]:port or a bare host (a bare [v6] ends in `]`, not digits).
        match authority.rsplit_once(':') {
            Some((h, p)) if p.bytes().all(|b| b.is_ascii_digit()) && !h.is_empty() => h,
            _ => authority,
        }
    }

    /// Account `id`'s URL: its `kid`, and what a CAA `accounturi` names (RFC 8657 §3).
    pub fn account_url(&self, id: i64) -> String {
        format!("{}/acct/{id}", self.base_url)
    }

    /// What an order of `profile` gets, and for how many days (`None`: the pkit
    /// profile's default for today).
    pub fn issues(&self, profile: Option<&str>) -> (Issues, Option<u32>) {
        match self
            .profiles
            .iter()
            .find(|p| Some(p.name.as_str()) == profile)
        {
            Some(p) => (p.issues, Some(p.days)),
            None => match &self.mtc {
                Some(m) => (Issues::Mtc, Some(m.days)),
                None => (Issues::X509(pkit_ca::profile::Profile::Server), None),
            },
        }
    }
}

#[cfg(test)]
impl AcmeConfig {
    /// The tests' server: at `base_url`, validating on the standard ports, the system's
    /// resolver, no profiles, limits, external accounts, MTC or CAA identity.
    pub(crate) fn for_tests(base_url: &str) -> AcmeConfig {
        AcmeConfig {
            base_url: base_url.into(),
            http_port: 80,
            tls_port: 443,
            resolver: None,
            order_lifetime: 3600,
            profiles: Vec::new(),
            terms_of_service: None,
            order_rate: None,
            eab_keys: HashMap::new(),
            mtc: None,
            caa_identity: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(base_url: &str) -> AcmeConfig {
        AcmeConfig::for_tests(base_url)
    }

    #[test]
    fn the_host_of_the_base_url() {
        for (url, host) in [
            ("https://acme.example:8443", "acme.example"),
            ("https://acme.example/acme", "acme.example"),
            ("http://127.0.0.1:14000", "127.0.0.1"),
            ("https://[::1]:8443/x", "[::1]"),
            ("https://[::1]", "[::1]"),
            ("https://acme.example", "acme.example"),
        ] {
            assert_eq!(at(url).host(), host, "{url}");
        }
    }
}
