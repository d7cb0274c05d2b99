//! Decoders for the values of X.509 certificate, CRL, CRL entry and OCSP extensions.
//!
//! [`decode`] takes an extension's OID and the content of its `extnValue` OCTET STRING
//! (with that content's absolute offset in the input, so errors point at the right
//! byte) and returns a typed, borrowed [`ExtensionValue`]. Extensions pkit has no
//! decoder for come back as [`ExtensionValue::Unknown`] with their raw bytes. Decoding
//! is strict DER plus the structural rules the RFCs state for each type; a lenient
//! reader (see [`decode_with`]) logs those deviations instead of failing.
//!
//! The decoded types are all here, at `ext::`: [`GeneralName`] (the name forms most
//! extensions carry), [`NamedBits`] (keyUsage and the other bit strings),
//! [`AuthorityKeyIdentifier`], [`BasicConstraints`], [`PolicyInformation`] and its
//! kin, [`DistributionPoint`] and [`IssuingDistributionPoint`], [`CrlReason`],
//! [`AccessDescription`], [`NameConstraints`], [`SctList`] (Certificate Transparency),
//! [`PreferredSignatureAlgorithm`] (OCSP), [`TlsFeature`] and the rest; each family's
//! decoder sits in a private file of its own. [`write`](mod@write) wraps extension values
//! that pkit writes.

#![forbid(unsafe_code)]

// The families are private to the crate: their types and constants are public here, at
// `ext::`, and nowhere else.
pub(crate) mod aia;
pub(crate) mod basic_constraints;
pub(crate) mod crl;
pub(crate) mod crl_dp;
pub(crate) mod fields;
pub(crate) mod general_name;
pub(crate) mod key_id;
pub(crate) mod key_usage;
pub(crate) mod misc;
pub(crate) mod name_constraints;
pub(crate) mod ocsp;
pub(crate) mod policies;
pub(crate) mod sct;
pub mod write;

use crate::der::oid_registry as oids;
use crate::der::{ObjectId, Oid, Reader, Result, Time};
use std::borrow::Cow;

pub use aia::AccessDescription;
pub use basic_constraints::BasicConstraints;
pub use crl::CrlReason;
pub use crl_dp::{
    DistributionPoint, DistributionPointName, IssuingDistributionPoint, RelativeName,
    REASON_FLAGS_BITS,
};
pub use fields::NamedBits;
pub use general_name::{EdiPartyName, GeneralName, IpAddress, IpForm, OtherName};
pub use key_id::{key_identifier, AuthorityKeyIdentifier};
pub use key_usage::{ku, KEY_USAGE_BITS, NETSCAPE_CERT_TYPE_BITS};
pub use misc::{MsCertificateTemplate, TlsFeature};
pub use name_constraints::{GeneralSubtree, NameConstraints};
pub use ocsp::PreferredSignatureAlgorithm;
pub use policies::{
    notice_number_u64, NoticeReference, PolicyConstraints, PolicyInformation, PolicyMapping,
    PolicyQualifier, UserNotice,
};
pub use sct::{SctList, SctV1, SignedCertificateTimestamp};

/// A decoded extension value. Every variant borrows from the input.
#[derive(Debug, Clone, PartialEq)]
pub enum ExtensionValue<'a> {
    /// 2.5.29.17 (RFC 5280 §4.2.1.6): `SubjectAltName ::= GeneralNames`
    SubjectAltName(Vec<GeneralName<'a>>),
    /// 2.5.29.18 (RFC 5280 §4.2.1.7): `IssuerAltName ::= GeneralNames`
    IssuerAltName(Vec<GeneralName<'a>>),
    /// 2.5.29.15 (RFC 5280 §4.2.1.3)
    KeyUsage(NamedBits<'a>),
    /// 2.5.29.37 (RFC 5280 §4.2.1.12)
    ExtendedKeyUsage(Vec<ObjectId<'a>>),
    /// 2.5.29.19 (RFC 5280 §4.2.1.9)
    BasicConstraints(BasicConstraints),
    /// 2.5.29.14 (RFC 5280 §4.2.1.2): the key identifier octets.
    SubjectKeyIdentifier(&'a [u8]),
    /// 2.5.29.35 (RFC 5280 §4.2.1.1, §5.2.1)
    AuthorityKeyIdentifier(AuthorityKeyIdentifier<'a>),
    /// 2.5.29.31 (RFC 5280 §4.2.1.13)
    CrlDistributionPoints(Vec<DistributionPoint<'a>>),
    /// 2.5.29.46 (RFC 5280 §4.2.1.15, §5.2.6)
    FreshestCrl(Vec<DistributionPoint<'a>>),
    /// 1.3.6.1.5.5.7.1.1 (RFC 5280 §4.2.2.1)
    AuthorityInfoAccess(Vec<AccessDescription<'a>>),
    /// 1.3.6.1.5.5.7.1.11 (RFC 5280 §4.2.2.2)
    SubjectInfoAccess(Vec<AccessDescription<'a>>),
    /// 2.5.29.32 (RFC 5280 §4.2.1.4)
    CertificatePolicies(Vec<PolicyInformation<'a>>),
    /// 2.5.29.33 (RFC 5280 §4.2.1.5)
    PolicyMappings(Vec<PolicyMapping<'a>>),
    /// 2.5.29.36 (RFC 5280 §4.2.1.11)
    PolicyConstraints(PolicyConstraints),
    /// 2.5.29.54 (RFC 5280 §4.2.1.14):
    /// `InhibitAnyPolicy ::= SkipCerts`, `SkipCerts ::= INTEGER (0..MAX)`
    InhibitAnyPolicy(u64),
    /// 2.5.29.30 (RFC 5280 §4.2.1.10)
    NameConstraints(NameConstraints<'a>),
    /// 1.3.6.1.4.1.11129.2.4.2 (RFC 6962 §3.3), and the same list in OCSP (§3.3, 2.4.5).
    SctList(SctList<'a>),
    /// 1.3.6.1.4.1.11129.2.4.3 (RFC 6962 §3.1): "whose extnValue OCTET STRING contains
    /// ASN.1 NULL data (0x05 0x00)".
    CtPoison,
    /// 1.3.6.1.5.5.7.1.24 (RFC 7633 §6)
    TlsFeature(Vec<TlsFeature>),
    /// 2.5.29.20 (RFC 5280 §5.2.3): the INTEGER's magnitude octets, big-endian.
    CrlNumber(&'a [u8]),
    /// 2.5.29.27 (RFC 5280 §5.2.4): BaseCRLNumber, magnitude octets.
    DeltaCrlIndicator(&'a [u8]),
    /// 2.5.29.28 (RFC 5280 §5.2.5)
    IssuingDistributionPoint(IssuingDistributionPoint<'a>),
    /// 2.5.29.21 (RFC 5280 §5.3.1)
    CrlReason(CrlReason),
    /// 2.5.29.24 (RFC 5280 §5.3.2): `InvalidityDate ::= GeneralizedTime`
    InvalidityDate(Time),
    /// 2.5.29.29 (RFC 5280 §5.3.3): `CertificateIssuer ::= GeneralNames`
    CertificateIssuer(Vec<GeneralName<'a>>),
    /// 1.3.6.1.5.5.7.48.1.2 (RFC 8954 §2.1): the nonce octets.
    OcspNonce(&'a [u8]),
    /// 1.3.6.1.5.5.7.48.1.6 (RFC 6960 §4.4.4): `ArchiveCutoff ::= GeneralizedTime`
    OcspArchiveCutoff(Time),
    /// 1.3.6.1.5.5.7.48.1.8 (RFC 6960 §4.4.7.1)
    OcspPrefSigAlgs(Vec<PreferredSignatureAlgorithm<'a>>),
    /// 1.3.6.1.5.5.7.48.1.9 (RFC 6960 §4.4.8): "The value of the extension SHALL be
    /// NULL."
    OcspExtendedRevoke,
    /// 1.3.6.1.5.5.7.48.1.5 (RFC 6960 §4.2.2.2.1): "The value of the extension SHALL be
    /// NULL."
    OcspNoCheck,
    /// 2.16.840.1.113730.1.1 (Netscape certificate extensions)
    NetscapeCertType(NamedBits<'a>),
    /// 2.16.840.1.113730.1.13
    NetscapeComment(Cow<'a, str>),
    /// 1.3.6.1.4.1.311.21.7 ([MS-WCCE] §2.2.2.7.7.2)
    MsCertificateTemplate(MsCertificateTemplate<'a>),
    /// 1.3.6.1.4.1.311.20.2 ([MS-WCCE] §2.2.2.7.7.1)
    MsCertificateTemplateName(Cow<'a, str>),
    /// An extension pkit does not decode: the extnValue content as it is.
    Unknown(&'a [u8]),
}

/// A decoder reads exactly one value at the cursor; [`decode_with`] checks that nothing
/// follows it.
type Decoder = for<'a> fn(&mut Reader<'a>) -> Result<ExtensionValue<'a>>;

/// Which decoder an OID selects. A linear scan over a few dozen byte compares costs less
/// than the decoding that follows it.
static DECODERS: &[(Oid, Decoder)] = &[
    (oids::CE_SUBJECT_ALT_NAME, |r| {
        general_name::read_general_names(r, crate::der::tag::SEQUENCE)
            .map(ExtensionValue::SubjectAltName)
    }),
    (oids::CE_ISSUER_ALT_NAME, |r| {
        general_name::read_general_names(r, crate::der::tag::SEQUENCE)
            .map(ExtensionValue::IssuerAltName)
    }),
    (oids::CE_KEY_USAGE, |r| {
        key_usage::read_key_usage(r).map(ExtensionValue::KeyUsage)
    }),
    (oids::CE_EXT_KEY_USAGE, |r| {
        key_usage::read_extended_key_usage(r).map(ExtensionValue::ExtendedKeyUsage)
    }),
    (oids::CE_BASIC_CONSTRAINTS, |r| {
        BasicConstraints::read(r).map(ExtensionValue::BasicConstraints)
    }),
    (oids::CE_SUBJECT_KEY_ID, |r| {
        key_id::read_subject_key_identifier(r).map(ExtensionValue::SubjectKeyIdentifier)
    }),
    (oids::CE_AUTHORITY_KEY_ID, |r| {
        AuthorityKeyIdentifier::read(r).map(ExtensionValue::AuthorityKeyIdentifier)
    }),
    (oids::CE_CRL_DIST_POINTS, |r| {
        crl_dp::read_distribution_points(r).map(ExtensionValue::CrlDistributionPoints)
    }),
    (oids::CE_FRESHEST_CRL, |r| {
        crl_dp::read_distribution_points(r).map(ExtensionValue::FreshestCrl)
    }),
    (oids::PE_AUTHORITY_INFO_ACCESS, |r| {
        aia::read_info_access(r).map(ExtensionValue::AuthorityInfoAccess)
    }),
    (oids::PE_SUBJECT_INFO_ACCESS, |r| {
        aia::read_info_access(r).map(ExtensionValue::SubjectInfoAccess)
    }),
    (oids::CE_CERT_POLICIES, |r| {
        policies::read_certificate_policies(r).map(ExtensionValue::CertificatePolicies)
    }),
    (oids::CE_POLICY_MAPPINGS, |r| {
        policies::read_policy_mappings(r).map(ExtensionValue::PolicyMappings)
    }),
    (oids::CE_POLICY_CONSTRAINTS, |r| {
        PolicyConstraints::read(r).map(ExtensionValue::PolicyConstraints)
    }),
    (oids::CE_INHIBIT_ANY_POLICY, |r| {
        r.read_u64().map(ExtensionValue::InhibitAnyPolicy)
    }),
    (oids::CE_NAME_CONSTRAINTS, |r| {
        NameConstraints::read(r).map(ExtensionValue::NameConstraints)
    }),
    (oids::CT_PRECERT_SCTS, |r| {
        SctList::read(r).map(ExtensionValue::SctList)
    }),
    (oids::CT_OCSP_SCTS, |r| {
        SctList::read(r).map(ExtensionValue::SctList)
    }),
    (oids::CT_PRECERT_POISON, |r| {
        r.read_null().map(|()| ExtensionValue::CtPoison)
    }),
    (oids::PE_TLS_FEATURE, |r| {
        misc::read_tls_features(r).map(ExtensionValue::TlsFeature)
    }),
    (oids::CE_CRL_NUMBER, |r| {
        crl::read_crl_number(r).map(ExtensionValue::CrlNumber)
    }),
    (oids::CE_DELTA_CRL_INDICATOR, |r| {
        crl::read_crl_number(r).map(ExtensionValue::DeltaCrlIndicator)
    }),
    (oids::CE_ISSUING_DIST_POINT, |r| {
        IssuingDistributionPoint::read(r).map(ExtensionValue::IssuingDistributionPoint)
    }),
    (oids::CE_CRL_REASON, |r| {
        CrlReason::read(r).map(ExtensionValue::CrlReason)
    }),
    (oids::CE_INVALIDITY_DATE, |r| {
        r.read_generalized_time()
            .map(ExtensionValue::InvalidityDate)
    }),
    (oids::CE_CERTIFICATE_ISSUER, |r| {
        general_name::read_general_names(r, crate::der::tag::SEQUENCE)
            .map(ExtensionValue::CertificateIssuer)
    }),
    (oids::PKIX_OCSP_NONCE, |r| {
        ocsp::read_nonce(r).map(ExtensionValue::OcspNonce)
    }),
    (oids::PKIX_OCSP_ARCHIVE_CUTOFF, |r| {
        r.read_generalized_time()
            .map(ExtensionValue::OcspArchiveCutoff)
    }),
    (oids::PKIX_OCSP_PREF_SIG_ALGS, |r| {
        ocsp::read_preferred_signature_algorithms(r).map(ExtensionValue::OcspPrefSigAlgs)
    }),
    (oids::PKIX_OCSP_EXTENDED_REVOKE, |r| {
        r.read_null().map(|()| ExtensionValue::OcspExtendedRevoke)
    }),
    (oids::PKIX_OCSP_NOCHECK, |r| {
        r.read_null().map(|()| ExtensionValue::OcspNoCheck)
    }),
    (oids::NETSCAPE_CERT_TYPE, |r| {
        key_usage::read_netscape_cert_type(r).map(ExtensionValue::NetscapeCertType)
    }),
    (oids::NETSCAPE_COMMENT, |r| {
        misc::read_netscape_comment(r).map(ExtensionValue::NetscapeComment)
    }),
    (oids::MS_CERT_TEMPLATE, |r| {
        MsCertificateTemplate::read(r).map(ExtensionValue::MsCertificateTemplate)
    }),
    (oids::MS_CERT_TEMPLATE_NAME, |r| {
        misc::read_template_name(r).map(ExtensionValue::MsCertificateTemplateName)
    }),
];

/// True when pkit has a decoder for this extension.
pub fn is_known(oid: ObjectId<'_>) -> bool {
    DECODERS.iter().any(|(o, _)| oid == *o)
}

/// Decode an extension value strictly. `value` is the content of the `extnValue` OCTET
/// STRING and `value_offset` the absolute offset of its first byte in the input.
pub fn decode<'a>(
    oid: ObjectId<'a>,
    value: &'a [u8],
    value_offset: usize,
) -> Result<ExtensionValue<'a>> {
    decode_with(&Reader::new(&[]), oid, value, value_offset)
}

/// As [`decode`], in the mode of `ctx`: a lenient reader (`Reader::lenient`) logs DER
/// and RFC-rule deviations to its log and decodes what it can.
pub fn decode_with<'a>(
    ctx: &Reader<'a>,
    oid: ObjectId<'a>,
    value: &'a [u8],
    value_offset: usize,
) -> Result<ExtensionValue<'a>> {
    let Some((_, decoder)) = DECODERS.iter().find(|(o, _)| oid == *o) else {
        return Ok(ExtensionValue::Unknown(value));
    };
    let mut r = ctx.with_base(value, value_offset);
    let v = decoder(&mut r)?;
    r.finish()?;
    Ok(v)
}

#[cfg(any(test, feature = "test-util"))]
pub mod samples;
#[cfg(test)]
mod tests;
