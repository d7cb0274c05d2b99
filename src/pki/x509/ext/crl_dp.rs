//! Where to find CRLs: cRLDistributionPoints and freshestCRL in certificates (RFC 5280
//! §4.2.1.13, §4.2.1.15), and the issuingDistributionPoint a CRL carries to say which
//! part of that space it covers (§5.2.5).

use super::fields::{read_flag, read_named_bits, read_seq_of, NamedBits};
use super::general_name::{read_general_names, GeneralName};
use crate::der::{tag, Context, Error, ErrorKind, Reader, Result, Writer};
use crate::name::Name;

/// ```asn1
/// ReasonFlags ::= BIT STRING {
///      unused                  (0),
///      keyCompromise           (1),
///      cACompromise            (2),
///      affiliationChanged      (3),
///      superseded              (4),
///      cessationOfOperation    (5),
///      certificateHold         (6),
///      privilegeWithdrawn      (7),
///      aACompromise            (8) }
/// ```
pub const REASON_FLAGS_BITS: &[&str] = &[
    "unused",
    "keyCompromise",
    "cACompromise",
    "affiliationChanged",
    "superseded",
    "cessationOfOperation",
    "certificateHold",
    "privilegeWithdrawn",
    "aACompromise",
];

/// ```asn1
/// DistributionPoint ::= SEQUENCE {
///      distributionPoint       [0]     DistributionPointName OPTIONAL,
///      reasons                 [1]     ReasonFlags OPTIONAL,
///      cRLIssuer               [2]     GeneralNames OPTIONAL }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DistributionPoint<'a> {
    /// `[0]` distributionPoint: where the CRL is, if given here rather than by
    /// `crl_issuer`.
    pub distribution_point: Option<DistributionPointName<'a>>,
    /// `[1]` reasons: the revocation reasons this CRL covers; absent means all.
    pub reasons: Option<NamedBits<'a>>,
    /// `[2]` cRLIssuer: who signs the CRL, when not the certificate's issuer.
    pub crl_issuer: Option<Vec<GeneralName<'a>>>,
}

/// ```asn1
/// DistributionPointName ::= CHOICE {
///      fullName                [0]     GeneralNames,
///      nameRelativeToCRLIssuer [1]     RelativeDistinguishedName }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum DistributionPointName<'a> {
    /// `[0]` fullName: the CRL's locations, usually URIs.
    FullName(Vec<GeneralName<'a>>),
    /// `[1]` nameRelativeToCRLIssuer: an RDN appended to the CRL issuer's name.
    NameRelativeToCrlIssuer(RelativeName<'a>),
}

/// A RelativeDistinguishedName held as the content of its `[1] IMPLICIT SET`: the
/// AttributeTypeAndValue elements, and the absolute offset of the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelativeName<'a> {
    /// The AttributeTypeAndValue elements' DER, one after another.
    pub content: &'a [u8],
    /// Absolute byte offset of the first element.
    pub offset: usize,
}

impl RelativeName<'_> {
    /// RFC 4514 form of the one RDN (e.g. `CN=CRL1`), relative to the CRL issuer's name.
    ///
    /// The Name reader formats whole Names, so the RDN is wrapped as the one-RDN Name it
    /// would be (`SEQUENCE { SET { … } }`) and read at a base chosen so that its offsets
    /// still point into the original input.
    pub fn to_rfc4514(&self) -> Result<String> {
        let mut w = Writer::with_capacity(self.content.len() + 12);
        w.sequence(|w| {
            w.primitive(tag::SET, self.content);
        });
        let wrapped = w.finish();
        let header = wrapped.len() - self.content.len();
        let name = Name::from_der(&wrapped, self.offset.saturating_sub(header))?;
        name.to_rfc4514()
    }
}

/// ```asn1
/// CRLDistributionPoints ::= SEQUENCE SIZE (1..MAX) OF DistributionPoint
/// FreshestCRL ::= CRLDistributionPoints
/// ```
pub(crate) fn read_distribution_points<'a>(
    r: &mut Reader<'a>,
) -> Result<Vec<DistributionPoint<'a>>> {
    read_seq_of(
        r,
        tag::SEQUENCE,
        "DistributionPoint",
        DistributionPoint::read,
    )
}

impl<'a> DistributionPoint<'a> {
    /// Read a DistributionPoint (RFC 5280 §4.2.1.13).
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let start = s.offset();
        let distribution_point = if s.peek_tag() == Some(tag::explicit(0)) {
            Some(read_dp_name(&mut s).at("distributionPoint")?)
        } else {
            None
        };
        let reasons = if s.peek_tag() == Some(tag::implicit(1)) {
            Some(read_named_bits(&mut s, tag::implicit(1), REASON_FLAGS_BITS).at("reasons")?)
        } else {
            None
        };
        let crl_issuer = if s.peek_tag() == Some(tag::implicit_constructed(2)) {
            Some(read_general_names(&mut s, tag::implicit_constructed(2)).at("cRLIssuer")?)
        } else {
            None
        };
        s.finish()?;
        // §4.2.1.13: "a DistributionPoint MUST NOT consist of only the reasons field;
        // either distributionPoint or cRLIssuer MUST be present."
        if distribution_point.is_none() && crl_issuer.is_none() {
            s.deviate(
                start,
                ErrorKind::Invalid(
                    "expected distributionPoint or cRLIssuer in a DistributionPoint".into(),
                ),
            )?;
        }
        Ok(DistributionPoint {
            distribution_point,
            reasons,
            crl_issuer,
        })
    }
}

/// `[0] DistributionPointName`: explicit, because DistributionPointName is a CHOICE.
fn read_dp_name<'a>(r: &mut Reader<'a>) -> Result<DistributionPointName<'a>> {
    let mut outer = r.read_nested(tag::explicit(0))?;
    let name = match outer.peek_tag() {
        Some(t) if t == tag::implicit_constructed(0) => DistributionPointName::FullName(
            read_general_names(&mut outer, tag::implicit_constructed(0)).at("fullName")?,
        ),
        Some(t) if t == tag::implicit_constructed(1) => {
            let set = outer.read_expect(t)?;
            let rn = RelativeName {
                content: set.content,
                offset: set.content_offset(),
            };
            // Checked now so that a bad attribute is reported while decoding.
            rn.to_rfc4514().at("nameRelativeToCRLIssuer")?;
            DistributionPointName::NameRelativeToCrlIssuer(rn)
        }
        _ => {
            return Err(Error::invalid(
                outer.offset(),
                "expected fullName [0] or nameRelativeToCRLIssuer [1]",
            ))
        }
    };
    outer.finish()?;
    Ok(name)
}

/// ```asn1
/// IssuingDistributionPoint ::= SEQUENCE {
///      distributionPoint          [0] DistributionPointName OPTIONAL,
///      onlyContainsUserCerts      [1] BOOLEAN DEFAULT FALSE,
///      onlyContainsCACerts        [2] BOOLEAN DEFAULT FALSE,
///      onlySomeReasons            [3] ReasonFlags OPTIONAL,
///      indirectCRL                [4] BOOLEAN DEFAULT FALSE,
///      onlyContainsAttributeCerts [5] BOOLEAN DEFAULT FALSE }
///
///      -- at most one of onlyContainsUserCerts, onlyContainsCACerts,
///      -- and onlyContainsAttributeCerts may be set to TRUE.
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IssuingDistributionPoint<'a> {
    /// `[0]` distributionPoint: the name this CRL is published under, if given.
    pub distribution_point: Option<DistributionPointName<'a>>,
    /// `[1]` onlyContainsUserCerts: the CRL lists only end-entity certificates.
    pub only_contains_user_certs: bool,
    /// `[2]` onlyContainsCACerts: the CRL lists only CA certificates.
    pub only_contains_ca_certs: bool,
    /// `[3]` onlySomeReasons: the revocation reasons the CRL covers; absent means all.
    pub only_some_reasons: Option<NamedBits<'a>>,
    /// `[4]` indirectCRL: the CRL may list certificates of issuers other than its own.
    pub indirect_crl: bool,
    /// `[5]` onlyContainsAttributeCerts: the CRL lists only attribute certificates.
    pub only_contains_attribute_certs: bool,
}

impl<'a> IssuingDistributionPoint<'a> {
    /// Read an IssuingDistributionPoint (RFC 5280 §5.2.5); an empty SEQUENCE is refused as
    /// the section asks.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let start = s.offset();
        if s.is_empty() {
            // §5.2.5: "Conforming CRL issuers MUST NOT issue CRLs where the DER encoding
            // of the issuing distribution point extension is an empty sequence."
            s.deviate(
                start,
                ErrorKind::Invalid("expected a non-empty issuingDistributionPoint".into()),
            )?;
        }
        let distribution_point = if s.peek_tag() == Some(tag::explicit(0)) {
            Some(read_dp_name(&mut s).at("distributionPoint")?)
        } else {
            None
        };
        let only_contains_user_certs =
            read_flag(&mut s, tag::implicit(1)).at("onlyContainsUserCerts")?;
        let only_contains_ca_certs =
            read_flag(&mut s, tag::implicit(2)).at("onlyContainsCACerts")?;
        let only_some_reasons = if s.peek_tag() == Some(tag::implicit(3)) {
            Some(
                read_named_bits(&mut s, tag::implicit(3), REASON_FLAGS_BITS)
                    .at("onlySomeReasons")?,
            )
        } else {
            None
        };
        let indirect_crl = read_flag(&mut s, tag::implicit(4)).at("indirectCRL")?;
        let only_contains_attribute_certs =
            read_flag(&mut s, tag::implicit(5)).at("onlyContainsAttributeCerts")?;
        s.finish()?;
        let scopes = [
            only_contains_user_certs,
            only_contains_ca_certs,
            only_contains_attribute_certs,
        ];
        if scopes.iter().filter(|&&b| b).count() > 1 {
            s.deviate(
                start,
                ErrorKind::Invalid(
                    "expected at most one of onlyContainsUserCerts, onlyContainsCACerts and \
                     onlyContainsAttributeCerts"
                        .into(),
                ),
            )?;
        }
        Ok(IssuingDistributionPoint {
            distribution_point,
            only_contains_user_certs,
            only_contains_ca_certs,
            only_some_reasons,
            indirect_crl,
            only_contains_attribute_certs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dps(der: &[u8]) -> Result<Vec<DistributionPoint<'_>>> {
        let mut r = Reader::new(der);
        let v = read_distribution_points(&mut r)?;
        r.finish()?;
        Ok(v)
    }

    /// The usual form: one fullName URI.
    fn uri_dp(w: &mut Writer, uri: &str) {
        w.sequence(|w| {
            w.explicit(0, |w| {
                w.tlv(0xa0, |w| {
                    w.primitive(0x86, uri.as_bytes());
                });
            });
        });
    }

    #[test]
    fn full_name_uri() {
        let mut w = Writer::new();
        w.sequence(|w| uri_dp(w, "http://crl.example.com/ca.crl"));
        let der = w.finish();
        let v = dps(&der).unwrap();
        let Some(DistributionPointName::FullName(names)) = &v[0].distribution_point else {
            panic!("{v:?}")
        };
        assert_eq!(
            names[0],
            GeneralName::Uri("http://crl.example.com/ca.crl".into())
        );
        assert!(v[0].reasons.is_none() && v[0].crl_issuer.is_none());
    }

    #[test]
    fn relative_name_reasons_and_issuer() {
        // keyCompromise, cACompromise.
        let der = crate::ext::samples::relative_name_dp(&[0x05, 0x60], Some("ca.example"));
        let v = dps(&der).unwrap();
        let Some(DistributionPointName::NameRelativeToCrlIssuer(rn)) = &v[0].distribution_point
        else {
            panic!("{v:?}")
        };
        assert_eq!(rn.to_rfc4514().unwrap(), "CN=CRL1");
        assert_eq!(
            v[0].reasons.unwrap().set_names(),
            ["keyCompromise", "cACompromise"]
        );
        assert_eq!(v[0].crl_issuer.as_ref().map(Vec::len), Some(1));
    }

    #[test]
    fn dp_errors() {
        assert!(dps(&[0x30, 0x00]).is_err());
        // Reasons only.
        let err = dps(&[0x30, 0x06, 0x30, 0x04, 0x81, 0x02, 0x07, 0x80]).unwrap_err();
        assert_eq!((err.offset, err.path_string().as_str()), (4, "[0]"));
        // [0] holding neither alternative.
        let err = dps(&[0x30, 0x06, 0x30, 0x04, 0xa0, 0x02, 0x05, 0x00]).unwrap_err();
        assert_eq!(err.offset, 6);
        // A bad attribute inside nameRelativeToCRLIssuer is found at its offset: the
        // ATV's type is an empty OID at offset 10.
        let der = [
            0x30, 0x0a, 0x30, 0x08, 0xa0, 0x06, 0xa1, 0x04, 0x30, 0x02, 0x06, 0x00,
        ];
        let err = dps(&der).unwrap_err();
        assert_eq!(err.offset, 12);
        // Truncated URI.
        let mut w = Writer::new();
        w.sequence(|w| uri_dp(w, "http://x"));
        let mut der = w.finish();
        der.pop();
        assert!(dps(&der).is_err());
    }

    fn idp(der: &[u8]) -> Result<IssuingDistributionPoint<'_>> {
        let mut r = Reader::new(der);
        let v = IssuingDistributionPoint::read(&mut r)?;
        r.finish()?;
        Ok(v)
    }

    #[test]
    fn issuing_distribution_point() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.explicit(0, |w| {
                w.tlv(0xa0, |w| {
                    w.primitive(0x86, b"http://crl.example.com/1.crl");
                });
            });
            w.primitive(0x81, &[0xff]);
            w.primitive(0x83, &[0x07, 0x80]);
            w.primitive(0x84, &[0xff]);
        });
        let der = w.finish();
        let v = idp(&der).unwrap();
        assert!(v.distribution_point.is_some());
        assert!(v.only_contains_user_certs && !v.only_contains_ca_certs);
        assert_eq!(v.only_some_reasons.unwrap().set_names(), ["unused"]);
        assert!(v.indirect_crl && !v.only_contains_attribute_certs);

        // onlyContainsCACerts alone.
        let v = idp(&[0x30, 0x03, 0x82, 0x01, 0xff]).unwrap();
        assert!(v.only_contains_ca_certs);
        // Empty.
        assert!(idp(&[0x30, 0x00]).is_err());
        // Two scopes at once.
        assert!(idp(&[0x30, 0x06, 0x81, 0x01, 0xff, 0x82, 0x01, 0xff]).is_err());
        // An encoded DEFAULT FALSE.
        let err = idp(&[0x30, 0x03, 0x84, 0x01, 0x00]).unwrap_err();
        assert_eq!((err.offset, err.path_string().as_str()), (2, "indirectCRL"));
        // Fields out of order leave trailing data.
        let err = idp(&[0x30, 0x06, 0x82, 0x01, 0xff, 0x81, 0x01, 0xff]).unwrap_err();
        assert_eq!(err.offset, 5);
    }
}
