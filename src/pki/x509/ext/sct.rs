//! Certificate Transparency's embedded signed certificate timestamps (RFC 6962 §3.3).
//!
//! The extension value is an OCTET STRING whose content is not DER but the TLS
//! presentation language (RFC 5246 §4): big-endian integers and vectors prefixed with
//! their length. Every length is checked against what remains before it is used.

use crate::der::{tag, tls, Error, ErrorKind, Reader, Result, Time};

/// ```tls
/// opaque SerializedSCT<1..2^16-1>;
///
/// struct {
///     SerializedSCT sct_list <1..2^16-1>;
/// } SignedCertificateTimestampList;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SctList<'a> {
    /// The SCTs in the order the list gives them.
    pub scts: Vec<SignedCertificateTimestamp<'a>>,
}

/// ```tls
/// enum { v1(0), (255) } Version;
/// struct { opaque key_id[32]; } LogID;
/// opaque CtExtensions<0..2^16-1>;
///
/// struct {
///     Version sct_version;
///     LogID id;
///     uint64 timestamp;
///     CtExtensions extensions;
///     digitally-signed struct { … };
/// } SignedCertificateTimestamp;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignedCertificateTimestamp<'a> {
    /// Absolute offset of the SCT's first byte (its version).
    pub offset: usize,
    /// The serialized SCT.
    pub raw: &'a [u8],
    /// sct_version: 0 for v1, the only version RFC 6962 defines.
    pub version: u8,
    /// The fields of a v1 SCT. A later version's layout is unknown, and RFC 6962 §3.2
    /// leaves room for them, so such an SCT is kept as `raw` rather than refused.
    pub v1: Option<SctV1<'a>>,
}

/// The fields after the version in a v1 SCT. `digitally-signed` is RFC 5246 §4.7:
///
/// ```tls
/// struct {
///     SignatureAndHashAlgorithm algorithm;   /* hash (1 byte), signature (1 byte) */
///     opaque signature<0..2^16-1>;
/// } DigitallySigned;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SctV1<'a> {
    /// SHA-256 of the log's public key (32 octets).
    pub log_id: &'a [u8],
    /// Milliseconds since the Unix epoch.
    pub timestamp_ms: u64,
    /// CtExtensions: the opaque extension bytes (none are defined).
    pub extensions: &'a [u8],
    /// The hash algorithm of `digitally-signed` (4 for SHA-256).
    pub hash_algorithm: u8,
    /// The signature algorithm of `digitally-signed` (1 RSA, 3 ECDSA).
    pub signature_algorithm: u8,
    /// The signature bytes.
    pub signature: &'a [u8],
}

impl SctV1<'_> {
    /// The timestamp to the second.
    pub fn time(&self) -> Time {
        // u64::MAX / 1000 is below i64::MAX, so this cannot wrap.
        Time {
            unix: (self.timestamp_ms / 1000) as i64,
        }
    }

    /// RFC 5246 §7.4.1.4.1 HashAlgorithm name.
    pub fn hash_name(&self) -> Option<&'static str> {
        Some(match self.hash_algorithm {
            0 => "none",
            1 => "md5",
            2 => "sha1",
            3 => "sha224",
            4 => "sha256",
            5 => "sha384",
            6 => "sha512",
            _ => return None,
        })
    }

    /// RFC 5246 §7.4.1.4.1 SignatureAlgorithm name.
    pub fn signature_name(&self) -> Option<&'static str> {
        Some(match self.signature_algorithm {
            0 => "anonymous",
            1 => "rsa",
            2 => "dsa",
            3 => "ecdsa",
            _ => return None,
        })
    }
}

impl<'a> SctList<'a> {
    /// Read the OCTET STRING that wraps the TLS-encoded list.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let tlv = r.read_expect(tag::OCTET_STRING)?;
        let mut t = tls::Reader::with_base(tlv.content, tlv.content_offset());
        // The list's lower bound of 1 is a deviation, not a decoding failure.
        let mut list = t.vector(0, 0xffff)?;
        t.finish()?;
        if list.is_empty() {
            r.deviate(
                list.offset(),
                ErrorKind::Invalid("expected at least one SCT, found none".into()),
            )?;
        }
        let mut scts = Vec::new();
        while !list.is_empty() {
            let i = scts.len();
            let one = list
                .vector(0, 0xffff)
                .and_then(|sct| SignedCertificateTimestamp::parse(sct.remaining(), sct.offset()))
                .map_err(|e| e.at(&format!("[{i}]")))?;
            scts.push(one);
        }
        Ok(SctList { scts })
    }
}

impl<'a> SignedCertificateTimestamp<'a> {
    /// Parse one serialized SCT whose first byte sits at absolute `offset`.
    pub fn parse(raw: &'a [u8], offset: usize) -> Result<Self> {
        let mut t = tls::Reader::with_base(raw, offset);
        if raw.is_empty() {
            return Err(Error::invalid(
                offset,
                "expected a SerializedSCT of at least one byte",
            ));
        }
        let version = t.u8()?;
        if version != 0 {
            return Ok(SignedCertificateTimestamp {
                offset,
                raw,
                version,
                v1: None,
            });
        }
        let log_id = t.bytes(32)?;
        let timestamp_ms = t.u64()?;
        let extensions = t.vector(0, 0xffff)?.remaining();
        let hash_algorithm = t.u8()?;
        let signature_algorithm = t.u8()?;
        let signature = t.vector(0, 0xffff)?.remaining();
        t.finish()?;
        Ok(SignedCertificateTimestamp {
            offset,
            raw,
            version,
            v1: Some(SctV1 {
                log_id,
                timestamp_ms,
                extensions,
                hash_algorithm,
                signature_algorithm,
                signature,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ext::samples::{sct_ext, sct_v1};

    fn read(der: &[u8], base: usize) -> Result<SctList<'_>> {
        let mut r = Reader::new(&[]).with_base(der, base);
        let v = SctList::read(&mut r)?;
        r.finish()?;
        Ok(v)
    }

    #[test]
    fn two_scts() {
        // 2023-11-14T22:13:20.123Z
        let der = sct_ext(&[
            sct_v1(0xa4, 1_700_000_000_123, 71),
            sct_v1(0x48, 1_700_000_001_000, 70),
        ]);
        let v = read(&der, 0).unwrap();
        assert_eq!(v.scts.len(), 2);
        let s = v.scts[0].v1.unwrap();
        assert_eq!(s.log_id, &[0xa4; 32]);
        assert_eq!(s.timestamp_ms, 1_700_000_000_123);
        assert_eq!(s.time().to_string(), "2023-11-14T22:13:20Z");
        assert_eq!(
            (s.hash_name(), s.signature_name()),
            (Some("sha256"), Some("ecdsa"))
        );
        assert_eq!(s.signature.len(), 71);
        // DER header (04 81 f1) + list length (2) + SCT length (2).
        assert_eq!(v.scts[0].offset, 7);
        assert_eq!(v.scts[1].v1.unwrap().signature.len(), 70);
    }

    #[test]
    fn unknown_version_is_kept_raw() {
        let der = sct_ext(&[vec![1, 2, 3]]);
        let v = read(&der, 0).unwrap();
        assert_eq!((v.scts[0].version, v.scts[0].v1), (1, None));
        assert_eq!(v.scts[0].raw, &[1, 2, 3]);
    }

    #[test]
    fn malformed_lists() {
        // List length larger than the data.
        let err = read(&[0x04, 0x04, 0x00, 0x10, 0x00, 0x01], 100).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Truncated { .. }), "{err}");
        assert_eq!(err.offset, 106);
        // Bytes after the list.
        let err = read(&[0x04, 0x03, 0x00, 0x00, 0xff], 0).unwrap_err();
        assert_eq!(
            (err.offset, err.kind.clone()),
            (4, ErrorKind::TrailingData { count: 1 })
        );
        // Empty list.
        assert!(read(&[0x04, 0x02, 0x00, 0x00], 0).is_err());
        // An empty SerializedSCT.
        let err = read(&[0x04, 0x04, 0x00, 0x02, 0x00, 0x00], 0).unwrap_err();
        assert_eq!((err.offset, err.path_string().as_str()), (6, "[0]"));
        // Signature shorter than its length says.
        let mut sct = sct_v1(1, 0, 10);
        sct.truncate(sct.len() - 1);
        let err = read(&sct_ext(&[sct]), 0).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Truncated { .. }), "{err}");
        // Trailing byte inside one SCT.
        let mut sct = sct_v1(1, 0, 10);
        sct.push(0);
        let err = read(&sct_ext(&[sct]), 0).unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::TrailingData { count: 1 }),
            "{err}"
        );
        // Not an OCTET STRING.
        assert!(read(&[0x30, 0x00], 0).is_err());
        // Too short for the list length itself.
        assert!(read(&[0x04, 0x01, 0x00], 0).is_err());
    }
}
