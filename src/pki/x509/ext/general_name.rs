//! GeneralName and GeneralNames (RFC 5280 §4.2.1.6), the name forms shared by
//! subjectAltName, issuerAltName, authorityKeyIdentifier, CRL distribution points,
//! access descriptions, name constraints and the CRL entry's certificateIssuer.
//!
//! The ASN.1 module of RFC 5280 Appendix A.2 uses IMPLICIT tags, so the tag octet alone
//! says which alternative follows: `[1]` IA5String is primitive 0x81, the SEQUENCE-based
//! alternatives are constructed (0xa0, 0xa3, 0xa5), and `directoryName [4] Name` is
//! explicitly tagged (0xa4 around the Name SEQUENCE) because Name is itself a CHOICE.

use super::fields::read_seq_of;
use crate::der::Tlv;
use crate::der::{string, tag, Context, Error, ErrorKind, ObjectId, Reader, Result};
use crate::name::Name;
use std::borrow::Cow;
use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

/// ```asn1
/// GeneralName ::= CHOICE {
///      otherName                       [0]     OtherName,
///      rfc822Name                      [1]     IA5String,
///      dNSName                         [2]     IA5String,
///      x400Address                     [3]     ORAddress,
///      directoryName                   [4]     Name,
///      ediPartyName                    [5]     EDIPartyName,
///      uniformResourceIdentifier       [6]     IA5String,
///      iPAddress                       [7]     OCTET STRING,
///      registeredID                    [8]     OBJECT IDENTIFIER }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum GeneralName<'a> {
    /// `[0]` otherName: a name form identified by OID.
    OtherName(OtherName<'a>),
    /// `[1]` rfc822Name: an email address.
    Rfc822Name(Cow<'a, str>),
    /// `[2]` dNSName: a host name, possibly with a leading wildcard label.
    DnsName(Cow<'a, str>),
    /// The whole `[3]` element: ORAddress (X.411) is rare enough that pkit shows its DER.
    X400Address(&'a [u8]),
    /// `[4]` directoryName: a distinguished name.
    DirectoryName(Name<'a>),
    /// `[5]` ediPartyName.
    EdiPartyName(EdiPartyName<'a>),
    /// `[6]` uniformResourceIdentifier.
    Uri(Cow<'a, str>),
    /// `[7]` iPAddress: an address, or an address and mask in name constraints.
    IpAddress(IpAddress<'a>),
    /// `[8]` registeredID: a name that is an OBJECT IDENTIFIER.
    RegisteredId(ObjectId<'a>),
}

/// ```asn1
/// OtherName ::= SEQUENCE {
///      type-id    OBJECT IDENTIFIER,
///      value      [0] EXPLICIT ANY DEFINED BY type-id }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OtherName<'a> {
    /// The OID that says what the value is (e.g. the Microsoft UPN).
    pub type_id: ObjectId<'a>,
    /// The element inside the `[0] EXPLICIT` wrapper.
    pub value: Tlv<'a>,
    /// That element's complete DER (shown for values that are not strings).
    pub value_der: &'a [u8],
}

impl<'a> OtherName<'a> {
    /// The value as text when it is a string type (UPN, SmtpUTF8Mailbox and most other
    /// registered forms are UTF8String); `None` for structured values.
    pub fn text(&self) -> Option<Cow<'a, str>> {
        if !string::is_string_tag(self.value.tag) {
            return None;
        }
        string::decode(
            &Reader::new(&[]),
            self.value.tag,
            self.value.content,
            self.value.content_offset(),
        )
        .ok()
    }
}

/// ```asn1
/// EDIPartyName ::= SEQUENCE {
///      nameAssigner            [0]     DirectoryString OPTIONAL,
///      partyName               [1]     DirectoryString }
/// ```
/// DirectoryString is a CHOICE, so both fields are explicitly tagged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdiPartyName<'a> {
    /// The `[0]` nameAssigner, if present.
    pub name_assigner: Option<Cow<'a, str>>,
    /// The `[1]` partyName.
    pub party_name: Cow<'a, str>,
}

/// `iPAddress [7] OCTET STRING`: an IPv4 or IPv6 address (4 or 16 octets, §4.2.1.6), or
/// in name constraints an address followed by a mask (8 or 32 octets, §4.2.1.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpAddress<'a> {
    /// The OCTET STRING content: 4, 8, 16 or 32 octets.
    pub bytes: &'a [u8],
}

/// Which iPAddress lengths a GeneralName may carry where it appears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IpForm {
    /// A single address: 4 or 16 octets.
    Address,
    /// A name-constraints subtree base: address and mask, 8 or 32 octets.
    Subtree,
}

impl IpAddress<'_> {
    /// The address, when this is a single one (4 or 16 octets; not a subtree's).
    pub fn address(&self) -> Option<std::net::IpAddr> {
        match self.bytes.len() {
            4 => <[u8; 4]>::try_from(self.bytes).ok().map(Into::into),
            16 => <[u8; 16]>::try_from(self.bytes).ok().map(Into::into),
            _ => None,
        }
    }

    /// The mask's prefix length when its one bits are contiguous from the top.
    fn prefix_len(mask: &[u8]) -> Option<u32> {
        let ones: u32 = mask.iter().map(|b| b.count_ones()).sum();
        let mut expect = ones;
        for &b in mask {
            let take = expect.min(8);
            let want = if take == 0 { 0 } else { 0xffu8 << (8 - take) };
            if b != want {
                return None;
            }
            expect -= take;
        }
        Some(ones)
    }
}

impl fmt::Display for IpAddress<'_> {
    /// Addresses in their usual text forms (RFC 5952 for IPv6); an address with a
    /// contiguous mask in CIDR notation (`192.0.2.0/24`), any other mask spelled out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v4 = |b: &[u8]| Ipv4Addr::new(b[0], b[1], b[2], b[3]);
        let v6 = |b: &[u8]| {
            let mut a = [0u8; 16];
            a.copy_from_slice(b);
            Ipv6Addr::from(a)
        };
        let b = self.bytes;
        match b.len() {
            4 => write!(f, "{}", v4(b)),
            16 => write!(f, "{}", v6(b)),
            8 => match Self::prefix_len(&b[4..]) {
                Some(n) => write!(f, "{}/{n}", v4(&b[..4])),
                None => write!(f, "{}/{}", v4(&b[..4]), v4(&b[4..])),
            },
            32 => match Self::prefix_len(&b[16..]) {
                Some(n) => write!(f, "{}/{n}", v6(&b[..16])),
                None => write!(f, "{}/{}", v6(&b[..16]), v6(&b[16..])),
            },
            // Parsing admits only the lengths above; anything else shows as hex.
            _ => {
                for x in b {
                    write!(f, "{x:02x}")?;
                }
                Ok(())
            }
        }
    }
}

/// DirectoryString (RFC 5280 §4.1.2.4) allows exactly these five string types.
fn is_directory_string(t: u8) -> bool {
    matches!(
        t,
        tag::TELETEX_STRING
            | tag::PRINTABLE_STRING
            | tag::UNIVERSAL_STRING
            | tag::UTF8_STRING
            | tag::BMP_STRING
    )
}

/// One DirectoryString inside an explicit `[n]` wrapper.
fn read_directory_string<'a>(r: &mut Reader<'a>, t: u8) -> Result<Cow<'a, str>> {
    let mut inner = r.read_nested(t)?;
    let s = inner.read_tlv()?;
    if !is_directory_string(s.tag) {
        return Err(Error::new(
            s.offset,
            ErrorKind::Invalid(format!(
                "expected a DirectoryString, found {}",
                tag::describe(s.tag)
            )),
        ));
    }
    let text = string::decode(&inner, s.tag, s.content, s.content_offset())?;
    inner.finish()?;
    Ok(text)
}

fn ia5<'a>(r: &Reader<'a>, tlv: &Tlv<'a>) -> Result<Cow<'a, str>> {
    string::decode(r, tag::IA5_STRING, tlv.content, tlv.content_offset())
}

impl<'a> GeneralName<'a> {
    /// Read one GeneralName at the cursor. `ip` says which iPAddress lengths are valid.
    pub fn read(r: &mut Reader<'a>, ip: IpForm) -> Result<Self> {
        let start = r.remaining();
        let tlv = r.read_tlv()?;
        let mut inner = r.with_base(tlv.content, tlv.content_offset());
        let name = match tlv.tag {
            0xa0 => {
                let type_id = inner.read_oid().at("type-id")?;
                let mut wrapped = inner.read_nested(tag::explicit(0)).at("value")?;
                let value_start = wrapped.remaining();
                let value = wrapped.read_tlv().at("value")?;
                wrapped.finish().at("value")?;
                if string::is_string_tag(value.tag) {
                    // Validate the character set now so a bad UPN is reported here.
                    string::decode(&wrapped, value.tag, value.content, value.content_offset())
                        .at("value")?;
                }
                inner.finish()?;
                GeneralName::OtherName(OtherName {
                    type_id,
                    value,
                    value_der: &value_start[..value.total_len],
                })
            }
            0x81 => GeneralName::Rfc822Name(ia5(r, &tlv)?),
            0x82 => GeneralName::DnsName(ia5(r, &tlv)?),
            0xa3 => GeneralName::X400Address(&start[..tlv.total_len]),
            0xa4 => {
                let name = Name::read(&mut inner)?;
                inner.finish()?;
                // Decode every attribute once so a malformed RDN fails here, with its
                // offset, rather than when the name is printed.
                name.rdns()?;
                GeneralName::DirectoryName(name)
            }
            0xa5 => {
                let name_assigner = if inner.peek_tag() == Some(tag::explicit(0)) {
                    Some(read_directory_string(&mut inner, tag::explicit(0)).at("nameAssigner")?)
                } else {
                    None
                };
                let party_name =
                    read_directory_string(&mut inner, tag::explicit(1)).at("partyName")?;
                inner.finish()?;
                GeneralName::EdiPartyName(EdiPartyName {
                    name_assigner,
                    party_name,
                })
            }
            0x86 => GeneralName::Uri(ia5(r, &tlv)?),
            0x87 => {
                let ok = match ip {
                    IpForm::Address => matches!(tlv.content.len(), 4 | 16),
                    IpForm::Subtree => matches!(tlv.content.len(), 8 | 32),
                };
                if !ok {
                    let want = match ip {
                        IpForm::Address => "4 (IPv4) or 16 (IPv6)",
                        IpForm::Subtree => "8 (IPv4 and mask) or 32 (IPv6 and mask)",
                    };
                    return Err(Error::invalid(
                        tlv.content_offset(),
                        format!(
                            "expected an iPAddress of {want} octets, found {}",
                            tlv.content.len()
                        ),
                    ));
                }
                GeneralName::IpAddress(IpAddress { bytes: tlv.content })
            }
            0x88 => GeneralName::RegisteredId(ObjectId::from_content(
                tlv.content,
                tlv.content_offset(),
            )?),
            found => {
                return Err(Error::invalid(
                    tlv.offset,
                    format!(
                        "expected a GeneralName ([0]..[8]), found {} (tag 0x{found:02x})",
                        tag::describe(found)
                    ),
                ))
            }
        };
        Ok(name)
    }

    /// The JSON `type` word for this alternative.
    pub fn kind(&self) -> &'static str {
        match self {
            GeneralName::OtherName(_) => "other_name",
            GeneralName::Rfc822Name(_) => "email",
            GeneralName::DnsName(_) => "dns",
            GeneralName::X400Address(_) => "x400_address",
            GeneralName::DirectoryName(_) => "directory_name",
            GeneralName::EdiPartyName(_) => "edi_party_name",
            GeneralName::Uri(_) => "uri",
            GeneralName::IpAddress(_) => "ip",
            GeneralName::RegisteredId(_) => "registered_id",
        }
    }
}

/// ```asn1
/// GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName
/// ```
/// `t` is the tag the SEQUENCE carries where it appears (`SEQUENCE` in subjectAltName,
/// `[1]` in authorityKeyIdentifier, `[0]` in DistributionPointName, …).
pub(crate) fn read_general_names<'a>(r: &mut Reader<'a>, t: u8) -> Result<Vec<GeneralName<'a>>> {
    read_seq_of(r, t, "GeneralName", |r| {
        GeneralName::read(r, IpForm::Address)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::oid_registry as oids;
    use crate::der::{Oid, Writer};

    fn names(der: &[u8], base: usize) -> Result<Vec<GeneralName<'_>>> {
        let mut r = Reader::new(&[]).with_base(der, base);
        let v = read_general_names(&mut r, tag::SEQUENCE)?;
        r.finish()?;
        Ok(v)
    }

    #[test]
    fn every_alternative() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.tlv(0xa0, |w| {
                w.oid(&Oid::new("1.3.6.1.4.1.311.20.2.3"));
                w.explicit(0, |w| {
                    w.utf8_string("user@example.com");
                });
            });
            w.primitive(0x81, b"user@example.com");
            w.primitive(0x82, b"www.example.com");
            w.tlv(0xa3, |w| {
                w.sequence(|_| {});
            });
            w.tlv(0xa4, |w| {
                w.sequence(|w| {
                    w.set(|w| {
                        w.sequence(|w| {
                            w.oid(&oids::AT_COMMON_NAME);
                            w.utf8_string("Example");
                        });
                    });
                });
            });
            w.tlv(0xa5, |w| {
                w.explicit(0, |w| {
                    w.utf8_string("assigner");
                });
                w.explicit(1, |w| {
                    w.printable_string("party");
                });
            });
            w.primitive(0x86, b"https://example.com/");
            w.primitive(0x87, &[192, 0, 2, 1]);
            w.primitive(
                0x87,
                &[0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            );
            w.primitive(0x88, Oid::new("1.2.3.4").as_bytes());
        });
        let der = w.finish();
        let v = names(&der, 0).unwrap();
        assert_eq!(v.len(), 10);
        let GeneralName::OtherName(on) = &v[0] else {
            panic!("{:?}", v[0])
        };
        assert_eq!(on.type_id.to_string(), "1.3.6.1.4.1.311.20.2.3");
        assert_eq!(on.text().unwrap(), "user@example.com");
        assert_eq!(v[1], GeneralName::Rfc822Name("user@example.com".into()));
        assert_eq!(v[2], GeneralName::DnsName("www.example.com".into()));
        assert!(matches!(v[3], GeneralName::X400Address([0xa3, 2, 0x30, 0])));
        let GeneralName::DirectoryName(n) = &v[4] else {
            panic!()
        };
        assert_eq!(n.to_rfc4514().unwrap(), "CN=Example");
        assert_eq!(
            v[5],
            GeneralName::EdiPartyName(EdiPartyName {
                name_assigner: Some("assigner".into()),
                party_name: "party".into()
            })
        );
        assert_eq!(v[6], GeneralName::Uri("https://example.com/".into()));
        let GeneralName::IpAddress(ip) = v[7] else {
            panic!()
        };
        assert_eq!(ip.to_string(), "192.0.2.1");
        let GeneralName::IpAddress(ip) = v[8] else {
            panic!()
        };
        assert_eq!(ip.to_string(), "2001:db8::1");
        let GeneralName::RegisteredId(id) = v[9] else {
            panic!()
        };
        assert_eq!(id.to_string(), "1.2.3.4");
        assert_eq!(
            v.iter().map(GeneralName::kind).collect::<Vec<_>>(),
            [
                "other_name",
                "email",
                "dns",
                "x400_address",
                "directory_name",
                "edi_party_name",
                "uri",
                "ip",
                "ip",
                "registered_id"
            ]
        );
    }

    #[test]
    fn ip_lengths_depend_on_context() {
        let one = |bytes: &[u8], form| {
            let mut w = Writer::new();
            w.primitive(0x87, bytes);
            let der = w.finish();
            let mut r = Reader::new(&der);
            GeneralName::read(&mut r, form).map(|g| match g {
                GeneralName::IpAddress(ip) => ip.to_string(),
                other => format!("{other:?}"),
            })
        };
        assert_eq!(
            one(&[10, 0, 0, 0, 255, 0, 0, 0], IpForm::Subtree).unwrap(),
            "10.0.0.0/8"
        );
        assert_eq!(
            one(&[10, 0, 0, 0, 255, 0, 255, 0], IpForm::Subtree).unwrap(),
            "10.0.0.0/255.0.255.0"
        );
        let mut v6 = vec![0x20, 0x01, 0x0d, 0xb8];
        v6.extend([0; 12]);
        v6.extend([0xff; 4]);
        v6.extend([0xfe]);
        v6.extend([0; 11]);
        assert_eq!(one(&v6, IpForm::Subtree).unwrap(), "2001:db8::/39");
        let err = one(&[10, 0, 0, 0, 255, 0, 0, 0], IpForm::Address).unwrap_err();
        assert_eq!(err.offset, 2);
        assert!(err.to_string().contains("found 8"), "{err}");
        assert!(one(&[1, 2, 3, 4], IpForm::Subtree).is_err());
        assert!(one(&[1, 2, 3], IpForm::Address).is_err());
        assert!(one(&[], IpForm::Address).is_err());
    }

    #[test]
    fn malformed_names_report_offsets() {
        // Wrong tag: a primitive [2] encoded constructed.
        let err = names(&[0x30, 0x03, 0xa2, 0x01, 0x61], 100).unwrap_err();
        assert_eq!(err.offset, 102);
        assert_eq!(err.path_string(), "[0]");
        // Non-ASCII byte in a dNSName, at its own offset.
        let err = names(&[0x30, 0x04, 0x82, 0x02, 0x61, 0xc3], 10).unwrap_err();
        assert_eq!(err.offset, 15);
        // Empty GeneralNames violates SIZE (1..MAX).
        assert!(names(&[0x30, 0x00], 0).is_err());
        // Truncated content.
        assert!(names(&[0x30, 0x04, 0x82, 0x05, 0x61, 0x62], 0).is_err());
        // otherName without its [0] EXPLICIT value.
        assert!(names(&[0x30, 0x05, 0xa0, 0x03, 0x06, 0x01, 0x2a], 0).is_err());
        // A malformed Name inside directoryName: empty RDN SET, at the SET.
        let err = names(&[0x30, 0x06, 0xa4, 0x04, 0x30, 0x02, 0x31, 0x00], 0).unwrap_err();
        assert_eq!(err.offset, 6);
        // EDIPartyName with an IA5String, which DirectoryString does not allow.
        let err = names(&[0x30, 0x07, 0xa5, 0x05, 0xa1, 0x03, 0x16, 0x01, 0x61], 0).unwrap_err();
        assert_eq!(err.offset, 6);
        // An unknown context tag.
        let err = names(&[0x30, 0x02, 0x89, 0x00], 0).unwrap_err();
        assert!(err.to_string().contains("GeneralName"), "{err}");
    }
}
