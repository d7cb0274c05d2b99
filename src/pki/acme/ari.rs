//! ACME Renewal Information (RFC 9773): how a certificate is named (§4.1) and when it
//! should be renewed (§4.2).

use crate::jose::{b64, unb64};

/// A certificate's unique identifier (RFC 9773 §4.1): the keyIdentifier of its Authority
/// Key Identifier and its serial number (the DER INTEGER's content octets), each
/// base64url-encoded without padding, joined by ".".
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CertId {
    pub key_id: Vec<u8>,
    pub serial: Vec<u8>,
}

impl CertId {
    /// Read `AKI.SERIAL`; `None` unless both parts are non-empty unpadded base64url.
    pub(crate) fn parse(s: &str) -> Option<CertId> {
        let (key_id, serial) = s.split_once('.')?;
        let (key_id, serial) = (unb64(key_id)?, unb64(serial)?);
        (!key_id.is_empty() && !serial.is_empty()).then_some(CertId { key_id, serial })
    }
}

impl std::fmt::Display for CertId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", b64(&self.key_id), b64(&self.serial))
    }
}

/// The suggested renewal window of a certificate valid from `not_before` to `not_after`
/// (POSIX seconds): the last third of its life begins the window, which lasts a fiftieth
/// of it (two days of a 90-day certificate, as Let's Encrypt suggests); a revoked one is
/// to be renewed now (a window that has begun).
pub(crate) fn window(not_before: i64, not_after: i64, revoked: bool, now: i64) -> (i64, i64) {
    if revoked {
        return (now - 3600, now);
    }
    let life = (not_after - not_before).max(1);
    let start = not_before + life * 2 / 3;
    (start, start + (life / 50).max(3600))
}

#[cfg(test)]
mod tests {
    use super::CertId;

    #[test]
    fn cert_ids() {
        // RFC 9773 §4.1's example.
        let id = CertId::parse("aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE").unwrap();
        assert_eq!(id.key_id[..2], [0x69, 0x88]);
        assert_eq!(id.serial, [0x00, 0x87, 0x65, 0x43, 0x21]);
        assert_eq!(id.to_string(), "aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE");
        for bad in [
            "",
            ".",
            "aYhba4dGQEHhs3uEe6CuLN4ByNQ",
            "aYhba4dGQEHhs3uEe6CuLN4ByNQ.",
            ".AIdlQyE",
            "aYhba4dGQEHhs3uEe6CuLN4ByNQ=.AIdlQyE",
            "aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdl+QyE",
            "a.b.c",
        ] {
            assert_eq!(CertId::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn windows() {
        let day = 86_400;
        let (s, e) = super::window(0, 90 * day, false, 0);
        assert_eq!((s, e), (60 * day, 60 * day + 90 * day / 50));
        let (s, e) = super::window(0, 90 * day, true, 1000);
        assert!(s < 1000 && e == 1000);
    }
}
