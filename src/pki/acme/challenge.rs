//! The challenge types this server offers and validates. Inside the server a type is a
//! [`ChallengeType`]; its name (`http-01`, …) is written only where the type leaves it:
//! the JSON a client reads, the database's `type` column, and CAA's `validationmethods`
//! (RFC 8657 §4), which names types as strings of its own.

use std::fmt;

/// A way for a client to prove control of an identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChallengeType {
    /// `http-01` (RFC 8555 §8.3): the key authorization served at
    /// `http://NAME/.well-known/acme-challenge/TOKEN`.
    Http01,
    /// `dns-01` (RFC 8555 §8.4): the key authorization's SHA-256 digest in a TXT record at
    /// `_acme-challenge.NAME`; the only proof for a wildcard.
    Dns01,
    /// `tls-alpn-01` (RFC 8737): a certificate carrying the key authorization's digest,
    /// presented on port 443 in a handshake that negotiates `acme-tls/1`.
    TlsAlpn01,
}

impl ChallengeType {
    /// Every type this server knows, in the order it offers them.
    pub const ALL: [ChallengeType; 3] = [
        ChallengeType::Http01,
        ChallengeType::Dns01,
        ChallengeType::TlsAlpn01,
    ];

    /// The type's name on the wire and in the database (`http-01`, `dns-01`,
    /// `tls-alpn-01`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ChallengeType::Http01 => "http-01",
            ChallengeType::Dns01 => "dns-01",
            ChallengeType::TlsAlpn01 => "tls-alpn-01",
        }
    }

    /// The type named `name`, as [`ChallengeType::as_str`] writes it; `None` for a type
    /// this server does not know.
    pub fn parse(name: &str) -> Option<ChallengeType> {
        ChallengeType::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// The types a new authorization for an identifier of `id_type` (`dns` or `ip`)
    /// offers: a wildcard is proven by DNS only (RFC 8555 §7.1.3, §8.4), an IP address
    /// never by DNS (RFC 8738 §7).
    pub(crate) fn offered(id_type: &str, wildcard: bool) -> &'static [ChallengeType] {
        match (id_type, wildcard) {
            ("dns", true) => &[ChallengeType::Dns01],
            ("dns", false) => &ChallengeType::ALL,
            _ => &[ChallengeType::Http01, ChallengeType::TlsAlpn01],
        }
    }
}

impl fmt::Display for ChallengeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
