//! Small extensions with one field each: TLS feature (RFC 7633), the Netscape comment, and
//! the Microsoft certificate template extensions.

use crate::der::{string, tag, Context, Error, ObjectId, Reader, Result};
use std::borrow::Cow;

/// One entry of
///
/// ```asn1
/// Features ::= SEQUENCE OF INTEGER
/// ```
/// (RFC 7633 §6): a TLS extension type number the server promises to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TlsFeature(pub u16);

impl TlsFeature {
    /// The TLS ExtensionType name (IANA registry) for the values seen in practice.
    pub fn name(self) -> Option<&'static str> {
        match self.0 {
            5 => Some("status_request"),
            17 => Some("status_request_v2"),
            _ => None,
        }
    }
}

pub(crate) fn read_tls_features(r: &mut Reader<'_>) -> Result<Vec<TlsFeature>> {
    let mut s = r.read_sequence()?;
    let mut out = Vec::new();
    while !s.is_empty() {
        let at = s.offset();
        let v = s
            .read_u64()
            .map_err(|e| e.at(&format!("[{}]", out.len())))?;
        // TLS extension types are uint16 (RFC 8446 §4.2).
        let v = u16::try_from(v).map_err(|_| {
            Error::invalid(
                at,
                format!("expected a TLS extension type below 65536, found {v}"),
            )
            .at(&format!("[{}]", out.len()))
        })?;
        out.push(TlsFeature(v));
    }
    Ok(out)
}

/// netscapeComment (2.16.840.1.113730.1.13): `IA5String`.
pub(crate) fn read_netscape_comment<'a>(r: &mut Reader<'a>) -> Result<Cow<'a, str>> {
    let t = r.read_expect(tag::IA5_STRING)?;
    string::decode(r, tag::IA5_STRING, t.content, t.content_offset())
}

/// The template name extension ([MS-WCCE] §2.2.2.7.7.1):
///
/// ```asn1
/// CertificateTemplateName ::= SEQUENCE {
///    Name            UTF8String
/// }
/// ```
/// Certificates issued by Windows CAs carry the name as a bare BMPString instead (e.g.
/// `DomainController`), so both forms are read; any string type is accepted for the bare
/// form.
pub(crate) fn read_template_name<'a>(r: &mut Reader<'a>) -> Result<Cow<'a, str>> {
    if r.peek_tag() == Some(tag::SEQUENCE) {
        let mut s = r.read_sequence()?;
        let name = s
            .read_string_as(tag::UTF8_STRING, tag::UTF8_STRING)
            .at("Name")?;
        s.finish()?;
        return Ok(name);
    }
    let at = r.offset();
    match r.peek_tag() {
        Some(t) if string::is_string_tag(t) => r.read_any_string(),
        Some(t) => Err(Error::invalid(
            at,
            format!(
                "expected a template name string, found {}",
                tag::describe(t)
            ),
        )),
        // Let the reader produce its truncation error.
        None => r.read_any_string(),
    }
}

/// The template information extension ([MS-WCCE] §2.2.2.7.7.2):
///
/// ```asn1
/// CertificateTemplateOID ::= SEQUENCE {
///     templateID              OBJECT IDENTIFIER,
///     templateMajorVersion    INTEGER (0..4294967295) OPTIONAL,
///     templateMinorVersion    INTEGER (0..4294967295) OPTIONAL
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MsCertificateTemplate<'a> {
    /// templateID: the OID of the template the certificate was issued from.
    pub template_id: ObjectId<'a>,
    /// templateMajorVersion, if given.
    pub major_version: Option<u32>,
    /// templateMinorVersion, if given.
    pub minor_version: Option<u32>,
}

impl<'a> MsCertificateTemplate<'a> {
    /// Read a certificate template extension (Microsoft's szOID_CERTIFICATE_TEMPLATE).
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let template_id = s.read_oid().at("templateID")?;
        let major_version = read_u32(&mut s).at("templateMajorVersion")?;
        let minor_version = read_u32(&mut s).at("templateMinorVersion")?;
        s.finish()?;
        Ok(MsCertificateTemplate {
            template_id,
            major_version,
            minor_version,
        })
    }
}

fn read_u32(r: &mut Reader<'_>) -> Result<Option<u32>> {
    if r.peek_tag() != Some(tag::INTEGER) {
        return Ok(None);
    }
    let at = r.offset();
    let v = r.read_u64()?;
    u32::try_from(v)
        .map(Some)
        .map_err(|_| Error::invalid(at, format!("expected a version below 2^32, found {v}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::{Oid, Writer};

    #[test]
    fn tls_feature_must_staple() {
        // The OCSP must-staple value: 30 03 02 01 05.
        let v = read_tls_features(&mut Reader::new(&[0x30, 0x03, 0x02, 0x01, 0x05])).unwrap();
        assert_eq!(v, [TlsFeature(5)]);
        assert_eq!(v[0].name(), Some("status_request"));
        let err = read_tls_features(&mut Reader::new(&[
            0x30, 0x05, 0x02, 0x03, 0x01, 0x00, 0x00,
        ]))
        .unwrap_err();
        assert_eq!((err.offset, err.path_string().as_str()), (2, "[0]"));
        // Negative: reported at the INTEGER.
        let err = read_tls_features(&mut Reader::new(&[0x30, 0x03, 0x02, 0x01, 0xff])).unwrap_err();
        assert_eq!(err.offset, 2);
    }

    #[test]
    fn netscape_comment() {
        let der = [0x16, 0x03, b'h', b'e', b'y'];
        assert_eq!(
            read_netscape_comment(&mut Reader::new(&der)).unwrap(),
            "hey"
        );
        assert!(read_netscape_comment(&mut Reader::new(&[0x16, 0x01, 0xff])).is_err());
        assert!(read_netscape_comment(&mut Reader::new(&[0x0c, 0x01, b'a'])).is_err());
    }

    #[test]
    fn template_name_both_forms() {
        // Bare BMPString "User", as Windows CAs write it.
        let der = [0x1e, 0x08, 0, b'U', 0, b's', 0, b'e', 0, b'r'];
        assert_eq!(read_template_name(&mut Reader::new(&der)).unwrap(), "User");
        let der = [0x30, 0x06, 0x0c, 0x04, b'U', b's', b'e', b'r'];
        assert_eq!(read_template_name(&mut Reader::new(&der)).unwrap(), "User");
        assert!(read_template_name(&mut Reader::new(&[0x02, 0x01, 0x00])).is_err());
        assert!(read_template_name(&mut Reader::new(&[])).is_err());
        assert!(read_template_name(&mut Reader::new(&[0x1e, 0x01, 0x00])).is_err());
    }

    #[test]
    fn template_info() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.oid(&Oid::new("1.3.6.1.4.1.311.21.8.1.2.3"));
            w.integer_u64(100);
            w.integer_u64(4);
        });
        let der = w.finish();
        let t = MsCertificateTemplate::read(&mut Reader::new(&der)).unwrap();
        assert_eq!(t.template_id.to_string(), "1.3.6.1.4.1.311.21.8.1.2.3");
        assert_eq!((t.major_version, t.minor_version), (Some(100), Some(4)));
        let mut w = Writer::new();
        w.sequence(|w| {
            w.oid(&Oid::new("1.2.3"));
            w.integer_u64(1 << 32);
        });
        let der = w.finish();
        let err = MsCertificateTemplate::read(&mut Reader::new(&der)).unwrap_err();
        assert_eq!(err.path_string(), "templateMajorVersion");
    }
}
