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
