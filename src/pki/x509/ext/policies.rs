//! Certificate policies and the extensions that steer policy processing: certificate
//! policies, policy mappings, policy constraints and inhibitAnyPolicy (RFC 5280 §4.2.1.4,
//! §4.2.1.5, §4.2.1.11, §4.2.1.14).

use super::fields::{read_seq_of, read_tagged_u64};
use crate::der::oid_registry as oids;
use crate::der::Oid;
use crate::der::{integer, string, tag, Context, Error, ErrorKind, ObjectId, Reader, Result};
use std::borrow::Cow;
use std::collections::HashSet;

/// Statics, so that [`PolicyQualifier::id`] can hand out OIDs that outlive the call.
static CPS: Oid = oids::QT_CPS;
static UNOTICE: Oid = oids::QT_UNOTICE;

/// ```asn1
/// PolicyInformation ::= SEQUENCE {
///      policyIdentifier   CertPolicyId,
///      policyQualifiers   SEQUENCE SIZE (1..MAX) OF
///                              PolicyQualifierInfo OPTIONAL }
/// CertPolicyId ::= OBJECT IDENTIFIER
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyInformation<'a> {
    /// policyIdentifier: the policy's OID (anyPolicy, 2.5.29.32.0, stands for every
    /// policy).
    pub policy_identifier: ObjectId<'a>,
    /// Empty when the optional field is absent.
    pub policy_qualifiers: Vec<PolicyQualifier<'a>>,
}

/// ```asn1
/// PolicyQualifierInfo ::= SEQUENCE {
///      policyQualifierId  PolicyQualifierId,
///      qualifier          ANY DEFINED BY policyQualifierId }
/// -- policyQualifierIds for Internet policy qualifiers
/// id-qt-cps      OBJECT IDENTIFIER ::=  { id-qt 1 }
/// id-qt-unotice  OBJECT IDENTIFIER ::=  { id-qt 2 }
/// CPSuri ::= IA5String
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum PolicyQualifier<'a> {
    /// id-qt-cps: the URI of the Certification Practice Statement.
    CpsUri(Cow<'a, str>),
    /// id-qt-unotice: text to show to relying parties.
    UserNotice(UserNotice<'a>),
    /// A qualifier this profile does not define: its OID and the qualifier's DER.
    Other {
        /// policyQualifierId.
        id: ObjectId<'a>,
        /// The qualifier's complete DER.
        qualifier: &'a [u8],
    },
}

/// ```asn1
/// UserNotice ::= SEQUENCE {
///      noticeRef        NoticeReference OPTIONAL,
///      explicitText     DisplayText OPTIONAL }
/// NoticeReference ::= SEQUENCE {
///      organization     DisplayText,
///      noticeNumbers    SEQUENCE OF INTEGER }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UserNotice<'a> {
    /// `noticeRef`: an organisation's numbered notices, if given.
    pub notice_ref: Option<NoticeReference<'a>>,
    /// `explicitText`: the notice's text, if given.
    pub explicit_text: Option<Cow<'a, str>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// An organisation and the numbers of its notices, as a UserNotice refers to them.
pub struct NoticeReference<'a> {
    /// The organisation's name.
    pub organization: Cow<'a, str>,
    /// Each INTEGER's content octets (notice numbers are small in practice, but the
    /// ASN.1 does not bound them).
    pub notice_numbers: Vec<&'a [u8]>,
}

/// ```asn1
/// certificatePolicies ::= SEQUENCE SIZE (1..MAX) OF PolicyInformation
/// ```
pub(crate) fn read_certificate_policies<'a>(
    r: &mut Reader<'a>,
) -> Result<Vec<PolicyInformation<'a>>> {
    let at = r.offset();
    let list = read_seq_of(
        r,
        tag::SEQUENCE,
        "PolicyInformation",
        PolicyInformation::read,
    )?;
    // §4.2.1.4: "A certificate policy OID MUST NOT appear more than once in a
    // certificate policies extension."
    let mut seen = HashSet::with_capacity(list.len());
    for p in &list {
        if !seen.insert(p.policy_identifier) {
            r.deviate(
                at,
                ErrorKind::Invalid(format!(
                    "expected each policy once, found {} twice",
                    p.policy_identifier
                )),
            )?;
        }
    }
    Ok(list)
}

impl<'a> PolicyInformation<'a> {
    /// Read a PolicyInformation (RFC 5280 §4.2.1.4).
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let policy_identifier = s.read_oid().at("policyIdentifier")?;
        let policy_qualifiers = if s.is_empty() {
            Vec::new()
        } else {
            read_seq_of(
                &mut s,
                tag::SEQUENCE,
                "PolicyQualifierInfo",
                PolicyQualifier::read,
            )
            .at("policyQualifiers")?
        };
        s.finish()?;
        Ok(PolicyInformation {
            policy_identifier,
            policy_qualifiers,
        })
    }

    /// Whether this is anyPolicy (2.5.29.32.0).
    pub fn is_any_policy(&self) -> bool {
        self.policy_identifier == oids::CE_ANY_POLICY
    }
}

impl<'a> PolicyQualifier<'a> {
    /// Read a PolicyQualifierInfo.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let id = s.read_oid().at("policyQualifierId")?;
        let q = if id == oids::QT_CPS {
            let t = s.read_expect(tag::IA5_STRING).at("qualifier")?;
            PolicyQualifier::CpsUri(
                string::decode(&s, tag::IA5_STRING, t.content, t.content_offset())
                    .at("qualifier")?,
            )
        } else if id == oids::QT_UNOTICE {
            PolicyQualifier::UserNotice(UserNotice::read(&mut s).at("qualifier")?)
        } else {
            PolicyQualifier::Other {
                id,
                qualifier: s.read_raw().at("qualifier")?,
            }
        };
        s.finish()?;
        Ok(q)
    }

    /// The qualifier's OID.
    pub fn id(&self) -> ObjectId<'a> {
        match self {
            PolicyQualifier::CpsUri(_) => CPS.id(),
            PolicyQualifier::UserNotice(_) => UNOTICE.id(),
            PolicyQualifier::Other { id, .. } => *id,
        }
    }
}

impl<'a> UserNotice<'a> {
    /// Read a UserNotice.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let notice_ref = if s.peek_tag() == Some(tag::SEQUENCE) {
            Some(NoticeReference::read(&mut s).at("noticeRef")?)
        } else {
            None
        };
        let explicit_text = if s.is_empty() {
            None
        } else {
            Some(read_display_text(&mut s).at("explicitText")?)
        };
        s.finish()?;
        Ok(UserNotice {
            notice_ref,
            explicit_text,
        })
    }
}

impl<'a> NoticeReference<'a> {
    /// Read a NoticeReference.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let organization = read_display_text(&mut s).at("organization")?;
        let mut nums = s.read_sequence().at("noticeNumbers")?;
        let mut notice_numbers = Vec::new();
        while !nums.is_empty() {
            notice_numbers.push(nums.read_integer().at("noticeNumbers")?);
        }
        s.finish()?;
        Ok(NoticeReference {
            organization,
            notice_numbers,
        })
    }
}

/// ```asn1
/// DisplayText ::= CHOICE {
///      ia5String        IA5String      (SIZE (1..200)),
///      visibleString    VisibleString  (SIZE (1..200)),
///      bmpString        BMPString      (SIZE (1..200)),
///      utf8String       UTF8String     (SIZE (1..200)) }
/// ```
fn read_display_text<'a>(r: &mut Reader<'a>) -> Result<Cow<'a, str>> {
    let t = r.read_tlv()?;
    if !matches!(
        t.tag,
        tag::IA5_STRING | tag::VISIBLE_STRING | tag::BMP_STRING | tag::UTF8_STRING
    ) {
        return Err(Error::invalid(
            t.offset,
            format!(
                "expected a DisplayText string, found {}",
                tag::describe(t.tag)
            ),
        ));
    }
    let text = string::decode(r, t.tag, t.content, t.content_offset())?;
    let chars = text.chars().count();
    if !(1..=200).contains(&chars) {
        r.deviate(
            t.offset,
            ErrorKind::Invalid(format!(
                "expected DisplayText of 1 to 200 characters, found {chars}"
            )),
        )?;
    }
    Ok(text)
}

/// ```asn1
/// PolicyMappings ::= SEQUENCE SIZE (1..MAX) OF SEQUENCE {
///      issuerDomainPolicy      CertPolicyId,
///      subjectDomainPolicy     CertPolicyId }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PolicyMapping<'a> {
    /// issuerDomainPolicy: the policy as the issuing CA names it.
    pub issuer_domain_policy: ObjectId<'a>,
    /// subjectDomainPolicy: the subject CA's policy taken as equivalent.
    pub subject_domain_policy: ObjectId<'a>,
}

pub(crate) fn read_policy_mappings<'a>(r: &mut Reader<'a>) -> Result<Vec<PolicyMapping<'a>>> {
    read_seq_of(r, tag::SEQUENCE, "policy mapping", |r| {
        let mut s = r.read_sequence()?;
        let issuer_domain_policy = s.read_oid().at("issuerDomainPolicy")?;
        let subject_domain_policy = s.read_oid().at("subjectDomainPolicy")?;
        s.finish()?;
        Ok(PolicyMapping {
            issuer_domain_policy,
            subject_domain_policy,
        })
    })
}

/// ```asn1
/// PolicyConstraints ::= SEQUENCE {
///      requireExplicitPolicy           [0] SkipCerts OPTIONAL,
///      inhibitPolicyMapping            [1] SkipCerts OPTIONAL }
/// SkipCerts ::= INTEGER (0..MAX)
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PolicyConstraints {
    /// `[0]` requireExplicitPolicy: how many more certificates may follow before a policy
    /// is required, if limited.
    pub require_explicit_policy: Option<u64>,
    /// `[1]` inhibitPolicyMapping: how many more certificates may follow before mapping is
    /// refused, if limited.
    pub inhibit_policy_mapping: Option<u64>,
}

impl PolicyConstraints {
    /// Read a PolicyConstraints (RFC 5280 §4.2.1.11); a SEQUENCE with neither field is
    /// refused.
    pub fn read(r: &mut Reader<'_>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let start = s.offset();
        let require_explicit_policy =
            read_tagged_u64(&mut s, tag::implicit(0)).at("requireExplicitPolicy")?;
        let inhibit_policy_mapping =
            read_tagged_u64(&mut s, tag::implicit(1)).at("inhibitPolicyMapping")?;
        s.finish()?;
        // §4.2.1.11: "Conforming CAs MUST NOT issue certificates where policy constraints
        // is an empty sequence."
        if require_explicit_policy.is_none() && inhibit_policy_mapping.is_none() {
            s.deviate(
                start,
                ErrorKind::Invalid("expected at least one policy constraint, found none".into()),
            )?;
        }
        Ok(PolicyConstraints {
            require_explicit_policy,
            inhibit_policy_mapping,
        })
    }
}

/// Notice numbers as decimal when they fit in 64 bits (they always do in practice).
pub fn notice_number_u64(content: &[u8]) -> Option<u64> {
    integer::to_u64(content, 0).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::Writer;

    fn policies(der: &[u8]) -> Result<Vec<PolicyInformation<'_>>> {
        let mut r = Reader::new(der);
        let v = read_certificate_policies(&mut r)?;
        r.finish()?;
        Ok(v)
    }

    #[test]
    fn dv_policy_with_cps_and_notice() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::CABF_DV);
            });
            w.sequence(|w| {
                w.oid(&Oid::new("1.3.6.1.4.1.44947.1.1.1"));
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::QT_CPS);
                        w.ia5_string("http://cps.example.org");
                    });
                    w.sequence(|w| {
                        w.oid(&oids::QT_UNOTICE);
                        w.sequence(|w| {
                            w.sequence(|w| {
                                w.utf8_string("Example Org");
                                w.sequence(|w| {
                                    w.integer_u64(1);
                                    w.integer_u64(300);
                                });
                            });
                            w.primitive(tag::VISIBLE_STRING, b"Relying party terms apply");
                        });
                    });
                    w.sequence(|w| {
                        w.oid(&Oid::new("1.2.3.4"));
                        w.null();
                    });
                });
            });
        });
        let der = w.finish();
        let p = policies(&der).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].policy_identifier, oids::CABF_DV);
        assert!(p[0].policy_qualifiers.is_empty());
        let q = &p[1].policy_qualifiers;
        assert_eq!(
            q[0],
            PolicyQualifier::CpsUri("http://cps.example.org".into())
        );
        let PolicyQualifier::UserNotice(n) = &q[1] else {
            panic!("{:?}", q[1])
        };
        let nr = n.notice_ref.as_ref().unwrap();
        assert_eq!(nr.organization, "Example Org");
        assert_eq!(
            nr.notice_numbers
                .iter()
                .map(|c| notice_number_u64(c))
                .collect::<Vec<_>>(),
            [Some(1), Some(300)]
        );
        assert_eq!(
            n.explicit_text.as_deref(),
            Some("Relying party terms apply")
        );
        assert!(matches!(
            q[2],
            PolicyQualifier::Other {
                qualifier: [5, 0],
                ..
            }
        ));
        assert_eq!(q[2].id().to_string(), "1.2.3.4");
        assert_eq!(q[0].id(), oids::QT_CPS);
    }

    #[test]
    fn policy_errors() {
        assert!(policies(&[0x30, 0x00]).is_err());
        // Duplicate policy OID.
        let mut w = Writer::new();
        w.sequence(|w| {
            for _ in 0..2 {
                w.sequence(|w| {
                    w.oid(&oids::CABF_DV);
                });
            }
        });
        assert!(policies(&w.finish()).is_err());
        // CPS qualifier that is a UTF8String instead of IA5String.
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::CABF_DV);
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::QT_CPS);
                        w.utf8_string("x");
                    });
                });
            });
        });
        let der = w.finish();
        let err = policies(&der).unwrap_err();
        assert_eq!(err.path_string(), "[0].policyQualifiers[0].qualifier");
        assert_eq!(err.offset, der.len() - 3);
        // Empty policyQualifiers SEQUENCE.
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::CABF_DV);
                w.sequence(|_| {});
            });
        });
        assert!(policies(&w.finish()).is_err());
        // explicitText longer than 200 characters.
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&oids::CABF_DV);
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::QT_UNOTICE);
                        w.sequence(|w| {
                            w.utf8_string(&"x".repeat(201));
                        });
                    });
                });
            });
        });
        assert!(policies(&w.finish()).is_err());
    }

    #[test]
    fn mappings_and_constraints() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.oid(&Oid::new("1.2.3.1"));
                w.oid(&Oid::new("1.2.3.2"));
            });
        });
        let der = w.finish();
        let m = read_policy_mappings(&mut Reader::new(&der)).unwrap();
        assert_eq!(m[0].subject_domain_policy.to_string(), "1.2.3.2");
        assert!(read_policy_mappings(&mut Reader::new(&[0x30, 0x00])).is_err());

        let pc =
            PolicyConstraints::read(&mut Reader::new(&[0x30, 0x03, 0x80, 0x01, 0x00])).unwrap();
        assert_eq!(pc.require_explicit_policy, Some(0));
        assert_eq!(pc.inhibit_policy_mapping, None);
        let pc =
            PolicyConstraints::read(&mut Reader::new(&[0x30, 0x03, 0x81, 0x01, 0x02])).unwrap();
        assert_eq!(pc.inhibit_policy_mapping, Some(2));
        assert!(PolicyConstraints::read(&mut Reader::new(&[0x30, 0x00])).is_err());
        let err =
            PolicyConstraints::read(&mut Reader::new(&[0x30, 0x03, 0x80, 0x01, 0x80])).unwrap_err();
        assert_eq!(err.path_string(), "requireExplicitPolicy");
        assert_eq!(err.offset, 4);
    }
}
