//! Authority and subject information access (RFC 5280 §4.2.2.1, §4.2.2.2): where to fetch
//! the issuer's certificate or ask OCSP, and what services the subject offers.

use super::fields::read_seq_of;
use super::general_name::{GeneralName, IpForm};
use crate::der::{tag, Context, ObjectId, Reader, Result};

/// ```asn1
/// AuthorityInfoAccessSyntax  ::=
///         SEQUENCE SIZE (1..MAX) OF AccessDescription
/// SubjectInfoAccessSyntax  ::=
///         SEQUENCE SIZE (1..MAX) OF AccessDescription
/// AccessDescription  ::=  SEQUENCE {
///         accessMethod          OBJECT IDENTIFIER,
///         accessLocation        GeneralName  }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct AccessDescription<'a> {
    /// accessMethod: what the location serves (id-ad-caIssuers, id-ad-ocsp, …).
    pub access_method: ObjectId<'a>,
    /// accessLocation: where, usually a URI.
    pub access_location: GeneralName<'a>,
}

pub(crate) fn read_info_access<'a>(r: &mut Reader<'a>) -> Result<Vec<AccessDescription<'a>>> {
    read_seq_of(r, tag::SEQUENCE, "AccessDescription", |r| {
        let mut s = r.read_sequence()?;
        let access_method = s.read_oid().at("accessMethod")?;
        let access_location = GeneralName::read(&mut s, IpForm::Address).at("accessLocation")?;
        s.finish()?;
        Ok(AccessDescription {
            access_method,
            access_location,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::oid_registry as oids;
    use crate::der::Writer;

    #[test]
    fn ocsp_and_ca_issuers() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::AD_OCSP);
                w.primitive(0x86, b"http://ocsp.example.com");
            });
            w.sequence(|w| {
                w.oid(&oids::AD_CA_ISSUERS);
                w.primitive(0x86, b"http://ca.example.com/ca.der");
            });
        });
        let der = w.finish();
        let v = read_info_access(&mut Reader::new(&der)).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].access_method, oids::AD_OCSP);
        assert_eq!(
            v[1].access_location,
            GeneralName::Uri("http://ca.example.com/ca.der".into())
        );
    }

    #[test]
    fn errors() {
        assert!(read_info_access(&mut Reader::new(&[0x30, 0x00])).is_err());
        // accessLocation missing.
        let der = [0x30, 0x05, 0x30, 0x03, 0x06, 0x01, 0x2a];
        let err = read_info_access(&mut Reader::new(&der)).unwrap_err();
        assert_eq!(err.path_string(), "[0].accessLocation");
        assert_eq!(err.offset, 7);
        // Bad IP length in accessLocation.
        let der = [0x30, 0x08, 0x30, 0x06, 0x06, 0x01, 0x2a, 0x87, 0x01, 0x01];
        let err = read_info_access(&mut Reader::new(&der)).unwrap_err();
        assert_eq!(err.offset, 9);
    }
}
