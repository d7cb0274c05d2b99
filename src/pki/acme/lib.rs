//! pkit's ACME server (RFC 8555, with RFC 8738's IP identifiers, RFC 9773's renewal
//! information and the `profiles` extension): a fleet's clients (certbot, lego, Caddy,
//! cert-manager) ask the CA for certificates and prove control of their names.
//!
//! - [`handler`]: the resources, one [`handler::AcmeHandler`] per worker of pkit's HTTP
//!   layer (`pkit-serve`);
//! - [`jose`]: the JWS every POST is, and JWKs turned into SPKIs;
//! - [`store`]: the state (`DIR/acme.db`, shared by every process serving the CA);
//! - [`validate`], [`dns`] and [`tls_alpn`]: challenges validated from the server,
//!   bounded in time and size, on threads of their own;
//! - [`caa`]: whether a domain's CAA records let the CA issue for it (RFC 8659, 8657);
//! - [`finalize`]: the CSR checked and the certificate issued through the CA's lint gate;
//! - [`mtc`]: Merkle Tree Certificates, appended to an MTC CA's log at finalize and
//!   downloadable once checkpointed;
//! - [`eab`], [`ari`], [`problem`]: account binding, renewal windows, error documents.
//!
//! A client's key as its JWK says it, the thumbprint its key authorizations carry, and
//! when a 90-day certificate should be renewed:
//!
//! ```
//! use pkit_acme::{ari, jose::Jwk};
//! let jwk = serde_json::json!({
//!     "kty": "EC", "crv": "P-256",
//!     "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
//!     "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM",
//! });
//! let key = Jwk::from_json(&jwk).unwrap();
//! assert!(key.key_authorization("token").starts_with("token."));
//! // An SPKI the backend verifies JWS signatures with.
//! assert_eq!(key.spki[0], 0x30);
//! let day = 86_400;
//! let (start, end) = ari::window(0, 90 * day, false, 0);
//! assert!(start == 60 * day && end > start);
//! ```

#![forbid(unsafe_code)]

pub mod ari;
pub mod caa;
pub mod challenge;
pub mod dns;
pub mod eab;
pub mod finalize;
pub mod handler;
pub mod jose;
pub mod mtc;
pub mod nonce;
pub mod problem;
pub mod store;
pub mod tls_alpn;
pub mod validate;

use std::collections::HashMap;
use std::net::SocketAddr;

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
    pub name: String,
    pub description: String,
    pub issues: Issues,
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
    pub profiles: Vec<ProfileOffer>,
    pub terms_of_service: Option<String>,
    /// At most this many new orders per account in `.1` seconds (`None`: no limit).
    pub order_rate: Option<(i64, i64)>,
    /// External account binding keys by key id; new accounts must bind to one when any
    /// are given.
    pub eab_keys: HashMap<String, Vec<u8>>,
    /// The MTC CA, when the server has one: orders without a profile get its
    /// certificates.
    pub mtc: Option<mtc::MtcLog>,
    /// The issuer domain name this CA recognises as its own in CAA `issue` and
    /// `issuewild` properties ([`caa`]); `None`: CAA is not looked up.
    pub caa_identity: Option<String>,
}

impl AcmeConfig {
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
