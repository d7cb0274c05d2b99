//! nameConstraints (RFC 5280 §4.2.1.10): the name space a CA's subordinates must stay in.

use super::fields::{read_seq_of, read_tagged_u64};
use super::general_name::{GeneralName, IpForm};
use crate::der::{tag, Context, ErrorKind, Reader, Result};

/// ```asn1
/// NameConstraints ::= SEQUENCE {
///      permittedSubtrees       [0]     GeneralSubtrees OPTIONAL,
///      excludedSubtrees        [1]     GeneralSubtrees OPTIONAL }
/// GeneralSubtrees ::= SEQUENCE SIZE (1..MAX) OF GeneralSubtree
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NameConstraints<'a> {
    /// `[0]` permittedSubtrees: names below one of these are allowed.
    pub permitted_subtrees: Option<Vec<GeneralSubtree<'a>>>,
    /// `[1]` excludedSubtrees: names below any of these are refused.
    pub excluded_subtrees: Option<Vec<GeneralSubtree<'a>>>,
}

/// ```asn1
/// GeneralSubtree ::= SEQUENCE {
///      base                    GeneralName,
///      minimum         [0]     BaseDistance DEFAULT 0,
///      maximum         [1]     BaseDistance OPTIONAL }
/// BaseDistance ::= INTEGER (0..MAX)
/// ```
/// The profile fixes minimum at 0 and leaves maximum out; other values are decoded and
/// shown rather than refused, since they are well-formed.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneralSubtree<'a> {
    /// The name that roots the subtree.
    pub base: GeneralName<'a>,
    /// `[0]` minimum BaseDistance (DEFAULT 0).
    pub minimum: u64,
    /// `[1]` maximum BaseDistance, if given.
    pub maximum: Option<u64>,
}

impl<'a> NameConstraints<'a> {
    /// Read a NameConstraints (RFC 5280 §4.2.1.10); a SEQUENCE with neither subtree is
    /// refused.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let start = s.offset();
        let permitted_subtrees = if s.peek_tag() == Some(tag::implicit_constructed(0)) {
            Some(read_subtrees(&mut s, tag::implicit_constructed(0)).at("permittedSubtrees")?)
        } else {
            None
        };
        let excluded_subtrees = if s.peek_tag() == Some(tag::implicit_constructed(1)) {
            Some(read_subtrees(&mut s, tag::implicit_constructed(1)).at("excludedSubtrees")?)
        } else {
            None
        };
        s.finish()?;
        // §4.2.1.10: "Conforming CAs MUST NOT issue certificates where name constraints
        // is an empty sequence."
        if permitted_subtrees.is_none() && excluded_subtrees.is_none() {
            s.deviate(
                start,
                ErrorKind::Invalid(
                    "expected permittedSubtrees or excludedSubtrees, found neither".into(),
                ),
            )?;
        }
        Ok(NameConstraints {
            permitted_subtrees,
            excluded_subtrees,
        })
    }
}

fn read_subtrees<'a>(r: &mut Reader<'a>, t: u8) -> Result<Vec<GeneralSubtree<'a>>> {
    read_seq_of(r, t, "GeneralSubtree", |r| {
        let mut s = r.read_sequence()?;
        // iPAddress here is an address and a mask (§4.2.1.10).
        let base = GeneralName::read(&mut s, IpForm::Subtree).at("base")?;
        let min_at = s.offset();
        let minimum = read_tagged_u64(&mut s, tag::implicit(0)).at("minimum")?;
        if minimum == Some(0) {
            s.deviate(min_at, ErrorKind::DefaultEncoded("minimum 0"))?;
        }
        let maximum = read_tagged_u64(&mut s, tag::implicit(1)).at("maximum")?;
        s.finish()?;
        Ok(GeneralSubtree {
            base,
            minimum: minimum.unwrap_or(0),
            maximum,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::Writer;

    fn nc(der: &[u8]) -> Result<NameConstraints<'_>> {
        let mut r = Reader::new(der);
        let v = NameConstraints::read(&mut r)?;
        r.finish()?;
        Ok(v)
    }

    #[test]
    fn permitted_and_excluded() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.tlv(0xa0, |w| {
                w.sequence(|w| {
                    w.primitive(0x82, b".example.com");
                });
                w.sequence(|w| {
                    w.primitive(0x87, &[192, 0, 2, 0, 255, 255, 255, 0]);
                });
            });
            w.tlv(0xa1, |w| {
                w.sequence(|w| {
                    w.primitive(0x87, &[0; 32]);
                    w.primitive(0x81, &[2]);
                });
            });
        });
        let der = w.finish();
        let v = nc(&der).unwrap();
        let p = v.permitted_subtrees.unwrap();
        assert_eq!(p[0].base, GeneralName::DnsName(".example.com".into()));
        let GeneralName::IpAddress(ip) = p[1].base else {
            panic!()
        };
        assert_eq!(ip.to_string(), "192.0.2.0/24");
        let e = v.excluded_subtrees.unwrap();
        let GeneralName::IpAddress(ip) = e[0].base else {
            panic!()
        };
        assert_eq!(ip.to_string(), "::/0");
        assert_eq!((e[0].minimum, e[0].maximum), (0, Some(2)));
    }

    #[test]
    fn errors() {
        // Neither subtree list.
        assert!(nc(&[0x30, 0x00]).is_err());
        // Empty permitted list.
        assert!(nc(&[0x30, 0x02, 0xa0, 0x00]).is_err());
        // A 4-octet iPAddress is an address, not a subtree.
        let der = [0x30, 0x0a, 0xa0, 0x08, 0x30, 0x06, 0x87, 0x04, 10, 0, 0, 0];
        let err = nc(&der).unwrap_err();
        assert_eq!(err.offset, 8);
        assert_eq!(err.path_string(), "permittedSubtrees[0].base");
        // minimum 0 encoded.
        let der = [
            0x30, 0x09, 0xa0, 0x07, 0x30, 0x05, 0x82, 0x00, 0x80, 0x01, 0x00,
        ];
        let err = nc(&der).unwrap_err();
        assert_eq!(err.offset, 8);
    }
}
