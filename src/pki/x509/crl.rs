//! Certificate revocation lists (RFC 5280 §5.1) as a zero-copy view.
//!
//! ```asn1
//! CertificateList  ::=  SEQUENCE  {
//!      tbsCertList          TBSCertList,
//!      signatureAlgorithm   AlgorithmIdentifier,
//!      signatureValue       BIT STRING  }
//!
//! TBSCertList  ::=  SEQUENCE  {
//!      version                 Version OPTIONAL,
//!                                   -- if present, MUST be v2
//!      signature               AlgorithmIdentifier,
//!      issuer                  Name,
//!      thisUpdate              Time,
//!      nextUpdate              Time OPTIONAL,
//!      revokedCertificates     SEQUENCE OF SEQUENCE  {
//!           userCertificate         CertificateSerialNumber,
//!           revocationDate          Time,
//!           crlEntryExtensions      Extensions OPTIONAL
//!                                    -- if present, version MUST be v2
//!                                }  OPTIONAL,
//!      crlExtensions           [0]  EXPLICIT Extensions OPTIONAL
//!                                    -- if present, version MUST be v2
//!                                }
//! ```
//!
//! CRLs grow to millions of entries, so parsing reads the header and steps over the
//! revoked list as one span: memory is O(1) whatever the size. Entries decode one at a
//! time through [`Crl::revoked`]; [`Crl::revoked_count`] walks the entry headers without
//! decoding or allocating anything.

#![forbid(unsafe_code)]

use crate::algid::AlgId;
use crate::der::hex;
use crate::der::primitives::BitString;
use crate::der::{integer, tag, Context, Error, ErrorKind, Reader, Result, Time};
use crate::extension::Extensions;
use crate::name::Name;

/// What a v1 CRL with CRL or entry extensions is told (RFC 5280 §5.1.2.1); the linter's
/// version lint names it, so its malformations leave it out.
pub const EXTENSIONS_NEED_V2: &str = "version v2 for a CRL with extensions";

#[derive(Debug, Clone, Copy)]
/// A borrowed `CertificateList` (RFC 5280 §5.1): `SEQUENCE { tbsCertList TBSCertList,
/// signatureAlgorithm AlgorithmIdentifier, signatureValue BIT STRING }`.
pub struct Crl<'a> {
    /// The whole CRL DER.
    pub raw: &'a [u8],
    /// The TBSCertList TLV: the bytes the signature covers.
    pub tbs_raw: &'a [u8],
    /// 0 = v1 (version absent), 1 = v2.
    pub version: u8,
    /// The TBSCertList's `signature` field (RFC 5280 §5.1.2.2), which must match
    /// `signature_algorithm`.
    pub tbs_signature: AlgId<'a>,
    /// The issuer's distinguished name (RFC 5280 §5.1.2.3).
    pub issuer: Name<'a>,
    /// thisUpdate: when this CRL was issued (RFC 5280 §5.1.2.4).
    pub this_update: Time,
    /// nextUpdate: when the next CRL will be issued at the latest (RFC 5280 §5.1.2.5), if
    /// given.
    pub next_update: Option<Time>,
    /// Reader over the revokedCertificates SEQUENCE content (empty when absent).
    revoked: Reader<'a>,
    /// True when the revokedCertificates element is present (possibly empty).
    pub revoked_present: bool,
    /// The `[0] EXPLICIT` crlExtensions (RFC 5280 §5.1.2.7), if present.
    pub extensions: Option<Extensions<'a>>,
    /// The outer signatureAlgorithm (RFC 5280 §5.1.1.2).
    pub signature_algorithm: AlgId<'a>,
    /// The signatureValue BIT STRING (RFC 5280 §5.1.1.3).
    pub signature: BitString<'a>,
}

/// One entry of `revokedCertificates`.
#[derive(Debug, Clone, Copy)]
pub struct RevokedCert<'a> {
    /// userCertificate INTEGER content octets (sign included).
    pub serial: &'a [u8],
    /// Absolute byte offset of the userCertificate INTEGER.
    pub serial_offset: usize,
    /// When the certificate was revoked (RFC 5280 §5.1.2.6).
    pub revocation_date: Time,
    /// The crlEntryExtensions (RFC 5280 §5.3), if present.
    pub extensions: Option<Extensions<'a>>,
}

impl RevokedCert<'_> {
    /// The serial as lowercase hex of its magnitude (as certificates print theirs).
    pub fn serial_hex(&self) -> String {
        hex(integer::unsigned_bytes(self.serial))
    }
}

impl<'a> Crl<'a> {
    /// Parse one CRL spanning all of `der` (strict DER).
    pub fn from_der(der: &'a [u8]) -> Result<Self> {
        Self::parse(Reader::new(der))
    }

    /// Parse with a reader (strict or lenient); trailing bytes are an error. Reads the
    /// header only: the revoked entries are checked when iterated.
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let raw = r.remaining();
        let mut outer = r.read_sequence().at("certificateList")?;
        let raw = &raw[..raw.len() - r.remaining().len()];
        r.finish()?;
        let tbs_start = outer.remaining();
        let mut t = outer.read_sequence().at("tbsCertList")?;
        let tbs_raw = &tbs_start[..tbs_start.len() - outer.remaining().len()];
        let signature_algorithm = AlgId::read(&mut outer).at("signatureAlgorithm")?;
        let signature = outer.read_bit_string().at("signatureValue")?;
        outer.finish().at("certificateList")?;

        let version = read_version(&mut t).at("tbsCertList.version")?;
        let tbs_signature = AlgId::read(&mut t).at("tbsCertList.signature")?;
        let issuer = Name::read(&mut t).at("tbsCertList.issuer")?;
        let this_update = t.read_time().at("tbsCertList.thisUpdate")?;
        let next_update = match t.peek_tag() {
            Some(tag::UTC_TIME | tag::GENERALIZED_TIME) => {
                Some(t.read_time().at("tbsCertList.nextUpdate")?)
            }
            _ => None,
        };
        let (revoked, revoked_present) = match t.read_optional(tag::SEQUENCE)? {
            Some(tlv) => (t.with_base(tlv.content, tlv.content_offset()), true),
            None => (t.with_base(&[], t.offset()), false),
        };
        let extensions = match t.read_optional(tag::explicit(0))? {
            Some(tlv) => {
                let mut e = t.with_base(tlv.content, tlv.content_offset());
                let exts = Extensions::read(&mut e).at("tbsCertList.crlExtensions")?;
                e.finish().at("tbsCertList.crlExtensions")?;
                if version == 0 {
                    t.deviate(tlv.offset, ErrorKind::WrongVersion(EXTENSIONS_NEED_V2))
                        .at("tbsCertList.crlExtensions")?;
                }
                Some(exts)
            }
            None => None,
        };
        t.finish().at("tbsCertList")?;
        Ok(Crl {
            raw,
            tbs_raw,
            version,
            tbs_signature,
            issuer,
            this_update,
            next_update,
            revoked,
            revoked_present,
            extensions,
            signature_algorithm,
            signature,
        })
    }

    /// The revoked entries, decoded one at a time (nothing is allocated per entry).
    /// After an error the iterator ends.
    pub fn revoked(&self) -> RevokedIter<'a> {
        RevokedIter {
            r: self.revoked,
            index: 0,
            v2: self.version >= 1,
        }
    }

    /// How many entries the list holds, from their headers alone: O(1) memory.
    pub fn revoked_count(&self) -> Result<usize> {
        let mut r = self.revoked;
        let mut n = 0usize;
        while !r.is_empty() {
            r.read_expect(tag::SEQUENCE)
                .at_index(n)
                .at("tbsCertList.revokedCertificates")?;
            n += 1;
        }
        Ok(n)
    }

    /// The entry for `serial` (INTEGER content octets, as certificates hold them), by a
    /// linear scan: CRLs are not sorted by serial.
    pub fn find(&self, serial: &[u8]) -> Result<Option<RevokedCert<'a>>> {
        for e in self.revoked() {
            let e = e?;
            if e.serial == serial {
                return Ok(Some(e));
            }
        }
        Ok(None)
    }

    /// The outer and inner signature algorithms must match (RFC 5280 §5.1.1.2).
    pub fn check_signature_algorithms_match(&self) -> Result<()> {
        if self.tbs_signature.raw == self.signature_algorithm.raw {
            Ok(())
        } else {
            Err(Error::invalid(
                self.signature_algorithm.offset,
                "expected signatureAlgorithm to equal tbsCertList.signature",
            ))
        }
    }
}

/// Iterator over `revokedCertificates`.
#[derive(Debug, Clone)]
pub struct RevokedIter<'a> {
    r: Reader<'a>,
    index: usize,
    v2: bool,
}

impl<'a> Iterator for RevokedIter<'a> {
    type Item = Result<RevokedCert<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.r.is_empty() {
            return None;
        }
        let i = self.index;
        self.index += 1;
        let item = read_entry(&mut self.r, self.v2)
            .at_index(i)
            .at("tbsCertList.revokedCertificates");
        if item.is_err() {
            // Stop: the cursor is no longer on an element boundary.
            self.r = self.r.with_base(&[], self.r.offset());
        }
        Some(item)
    }
}

fn read_entry<'a>(r: &mut Reader<'a>, v2: bool) -> Result<RevokedCert<'a>> {
    let mut s = r.read_sequence()?;
    let serial_offset = s.offset();
    let serial = s.read_integer().at("userCertificate")?;
    let revocation_date = s.read_time().at("revocationDate")?;
    let extensions = if s.is_empty() {
        None
    } else {
        let at = s.offset();
        let e = Extensions::read(&mut s).at("crlEntryExtensions")?;
        if !v2 {
            s.deviate(at, ErrorKind::WrongVersion(EXTENSIONS_NEED_V2))
                .at("crlEntryExtensions")?;
        }
        Some(e)
    };
    s.finish()?;
    Ok(RevokedCert {
        serial,
        serial_offset,
        revocation_date,
        extensions,
    })
}

/// `version Version OPTIONAL -- if present, MUST be v2`. An explicit v1 is tolerated
/// as a deviation (it decodes to the same CRL); an unknown version is an error, and in
/// lenient mode a deviation read with the v2 layout (the only one with all fields).
fn read_version(t: &mut Reader<'_>) -> Result<u8> {
    if t.peek_tag() != Some(tag::INTEGER) {
        return Ok(0);
    }
    let at = t.offset();
    match t.read_u64()? {
        1 => Ok(1),
        0 => {
            t.deviate(
                at,
                ErrorKind::WrongVersion("version v2 when version is present"),
            )?;
            Ok(0)
        }
        n => {
            t.deviate(
                at,
                ErrorKind::UnknownVersion {
                    found: u32::try_from(n).unwrap_or(u32::MAX - 1),
                    highest: 1,
                },
            )?;
            Ok(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::oid_registry as oids;
    use crate::der::{Deviations, Writer};

    fn t(unix: i64) -> Time {
        Time { unix }
    }

    fn alg(w: &mut Writer) {
        w.sequence(|w| {
            w.oid(&oids::ECDSA_WITH_SHA256);
        });
    }

    /// A v2 CRL with `n` entries (every third with a reason code) and a CRL number.
    fn sample(n: u64, version: Option<u64>, entry: impl Fn(&mut Writer, u64)) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                if let Some(v) = version {
                    w.integer_u64(v);
                }
                alg(w);
                w.sequence(|w| {
                    w.set(|w| {
                        w.sequence(|w| {
                            w.oid(&oids::AT_COMMON_NAME);
                            w.utf8_string("CA");
                        });
                    });
                });
                w.time(t(1_700_000_000));
                w.time(t(1_700_086_400));
                if n > 0 {
                    w.sequence(|w| {
                        for i in 0..n {
                            entry(w, i);
                        }
                    });
                }
                w.explicit(0, |w| {
                    w.sequence(|w| {
                        w.sequence(|w| {
                            w.oid(&oids::CE_CRL_NUMBER);
                            w.octet_string(&[2, 1, 7]);
                        });
                    });
                });
            });
            alg(w);
            w.bit_string(&[9; 70]);
        });
        w.finish()
    }

    fn entry(w: &mut Writer, i: u64) {
        w.sequence(|w| {
            w.integer_u64(1000 + i);
            w.time(t(1_699_000_000 + i as i64));
            if i % 3 == 0 {
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::CE_CRL_REASON);
                        w.octet_string(&[0x0a, 0x01, 0x01]);
                    });
                });
            }
        });
    }

    #[test]
    fn parses_header_and_entries() {
        let der = sample(5, Some(1), entry);
        let c = Crl::from_der(&der).unwrap();
        assert_eq!(c.version, 1);
        assert_eq!(c.issuer.to_rfc4514().unwrap(), "CN=CA");
        assert_eq!(c.this_update, t(1_700_000_000));
        assert_eq!(c.next_update, Some(t(1_700_086_400)));
        assert_eq!(c.revoked_count().unwrap(), 5);
        let entries: Vec<_> = c.revoked().collect::<Result<_>>().unwrap();
        assert_eq!(entries.len(), 5);
        assert_eq!(entries[1].serial_hex(), "03e9");
        assert_eq!(entries[1].revocation_date, t(1_699_000_001));
        assert!(entries[0].extensions.is_some());
        assert!(entries[1].extensions.is_none());
        assert!(c.find(&[0x03, 0xea]).unwrap().is_some());
        assert!(c.find(&[0x01]).unwrap().is_none());
        let exts = c.extensions.unwrap().list().unwrap();
        assert_eq!(exts[0].oid, oids::CE_CRL_NUMBER);
        c.check_signature_algorithms_match().unwrap();
    }

    #[test]
    fn empty_and_v1_crls() {
        let der = sample(0, Some(1), entry);
        let c = Crl::from_der(&der).unwrap();
        assert!(!c.revoked_present);
        assert_eq!(c.revoked_count().unwrap(), 0);
        assert_eq!(c.revoked().count(), 0);
        // v1 with extensions is an error that names the field.
        let der = sample(0, None, entry);
        let e = Crl::from_der(&der).unwrap_err();
        assert_eq!(e.path_string(), "tbsCertList.crlExtensions");
    }

    #[test]
    fn bad_versions() {
        let der = sample(1, Some(2), entry);
        let e = Crl::from_der(&der).unwrap_err();
        assert_eq!(e.path_string(), "tbsCertList.version");
        // 30 81 xx | 30 xx | 02 01 02
        assert_eq!(&der[5..8], &[2, 1, 2]);
        assert_eq!(e.offset, 5);
        let der = sample(1, Some(0), |w, i| {
            w.sequence(|w| {
                w.integer_u64(i);
                w.time(t(0));
            });
        });
        assert!(Crl::from_der(&der).is_err());
    }

    #[test]
    fn a_bad_entry_is_reported_with_its_index_and_offset_and_ends_iteration() {
        let der = sample(3, Some(1), |w, i| {
            w.sequence(|w| {
                w.integer_u64(i);
                if i == 1 {
                    w.null();
                } else {
                    w.time(t(0));
                }
            });
        });
        let c = Crl::from_der(&der).unwrap();
        // Counting reads headers only: the broken entry still counts.
        assert_eq!(c.revoked_count().unwrap(), 3);
        let items: Vec<_> = c.revoked().collect();
        assert_eq!(items.len(), 2);
        let e = items[1].as_ref().unwrap_err();
        assert_eq!(
            e.path_string(),
            "tbsCertList.revokedCertificates[1].revocationDate"
        );
        assert_eq!(der[e.offset], tag::NULL);
    }

    #[test]
    fn truncated_wrong_tag_trailing() {
        let der = sample(4, Some(1), entry);
        for cut in [0, 1, 5, der.len() / 2, der.len() - 1] {
            assert!(Crl::from_der(&der[..cut]).is_err(), "cut {cut}");
        }
        let mut bad = der.clone();
        bad[0] = 0x04;
        assert_eq!(Crl::from_der(&bad).unwrap_err().offset, 0);
        let mut trailing = der.clone();
        trailing.extend([0, 0]);
        let e = Crl::from_der(&trailing).unwrap_err();
        assert_eq!(e.offset, der.len());
    }

    #[test]
    fn large_lists_parse_in_constant_memory() {
        // The header parse must not look at the entries at all.
        let der = sample(20_000, Some(1), entry);
        let c = Crl::from_der(&der).unwrap();
        assert_eq!(c.revoked_count().unwrap(), 20_000);
        assert_eq!(c.revoked().filter(|e| e.is_ok()).count(), 20_000);
    }

    #[test]
    fn lenient_reader_accepts_explicit_v1() {
        let der = sample(1, Some(0), |w, i| {
            w.sequence(|w| {
                w.integer_u64(i);
                w.time(t(0));
            });
        });
        assert!(Crl::from_der(&der).is_err());
        let log = Deviations::new();
        // Explicit v1 is logged, and so are the entry extensions that v1 does not allow.
        let crl = Crl::parse(Reader::lenient(&der, &log)).unwrap();
        assert_eq!(crl.revoked_count().unwrap(), 1);
        assert!(log.take().len() >= 2);
    }
}
