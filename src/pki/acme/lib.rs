//! pkit's ACME server (RFC 8555, with RFC 8738's IP identifiers, RFC 9773's renewal
//! information and the `profiles` extension): a fleet's clients (certbot, lego, Caddy,
//! cert-manager) ask the CA for certificates and prove control of their names.
//!
//! - [`AcmeHandler`]: the resources, one per worker of pkit's HTTP layer (`pkit-serve`),
//!   configured by an [`AcmeConfig`] and issuing from a [`Ca`];
//! - [`AcmeStore`]: the state (`DIR/acme.db` as [`SqliteAcme`], or the CA's PostgreSQL
//!   database), shared by every process serving the CA, and its records ([`Account`],
//!   [`Order`], [`Authz`], [`Challenge`], [`IssuedCert`]);
//! - [`spawn_validators`]: challenges ([`ChallengeType`]) validated from the server,
//!   bounded in time and size, on threads of their own, CAA included (RFC 8659, 8657);
//! - [`MtcLog`] and [`spawn_checkpointer`]: Merkle Tree Certificates, appended to an MTC
//!   CA's log at finalize and downloadable once checkpointed; [`MtcStart`]: a server's
//!   start on an MTC CA, checked, its checkpointer started;
//! - [`Jwk`]: a client's key as its JWS carries it; [`parse_eab_keys`]: external account
//!   binding keys (RFC 8555 §7.3.4); [`Problem`]: the error documents (§6.7).
//!
//! A client's key as its JWK says it, the thumbprint its key authorizations carry, and
//! the challenge types as they are named on the wire:
//!
//! ```
//! use pkit_acme::{ChallengeType, Jwk};
//! let jwk = serde_json::json!({
//!     "kty": "EC", "crv": "P-256",
//!     "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
//!     "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM",
//! });
//! let key = Jwk::from_json(&jwk).unwrap();
//! assert!(key.key_authorization("token").starts_with("token."));
//! // An SPKI the backend verifies JWS signatures with.
//! assert_eq!(key.spki[0], 0x30);
//! assert_eq!(ChallengeType::parse("tls-alpn-01"), Some(ChallengeType::TlsAlpn01));
//! assert_eq!(ChallengeType::Dns01.as_str(), "dns-01");
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

mod ari;
mod ca;
mod caa;
mod challenge;
mod config;
mod csr;
mod dns;
mod eab;
mod finalize;
mod handler;
mod identity;
mod jose;
mod mtc;
mod nonce;
mod problem;
mod store;
mod tls_alpn;
mod validate;

pub use ca::Ca;
pub use caa::is_domain_name;
pub use challenge::ChallengeType;
pub use config::{AcmeConfig, Issues, ProfileOffer, MAX_IDENTIFIERS};
pub use eab::{parse_keys as parse_eab_keys, EabKeysError};
pub use finalize::server_identity;
pub use handler::AcmeHandler;
pub use identity::{
    load_or_issue as server_identity_kept, IdentityError, ServerIdentity,
    CERT_FILE as IDENTITY_CERT_FILE, KEY_FILE as IDENTITY_KEY_FILE,
};
pub use jose::{JoseError, Jwk};
pub use mtc::{
    spawn_checkpointer, Hooks, MtcLog, MtcStart, MtcStartError, Publish, Schedule, Witness,
};
pub use problem::Problem;
#[cfg(feature = "postgres")]
pub use store::PgAcme;
pub use store::{
    Account, AcmeStore, Authz, Challenge, Created, IssuedCert, NewAuthz, Order, Replacing,
    SqliteAcme, StoreError,
};
pub use validate::{spawn as spawn_validators, OpenStore, ValidatorError};
