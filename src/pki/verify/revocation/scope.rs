//! Which CRLs answer for which certificates (RFC 5280 §5.2.5, §6.3.3 (b), (d)): what a
//! CRL's own extensions say about its scope, what a certificate's basicConstraints and
//! cRLDistributionPoints say about where its status is published, and the reasons a CRL
//! covers for it; and which entries of a CRL speak for which certificate issuer.

#![forbid(unsafe_code)]

use crate::dn;
use std::cmp::Ordering;

use crate::crl_verify::RevokedIndex;
use crate::der::oid_registry as oids;
use crate::der::{hex, integer, tag, Reader, Writer};
use pkit_x509::cert::Certificate;
use pkit_x509::crl::Crl;
use pkit_x509::ext::GeneralName;
use pkit_x509::ext::{self, ExtensionValue};
use pkit_x509::ext::{
    DistributionPoint, DistributionPointName, IssuingDistributionPoint, REASON_FLAGS_BITS,
};

/// ReasonFlags bits 1..=8, keyCompromise to aACompromise (bit 0 is `unused`): what a CRL
/// must cover, alone or with others, before "not listed" means good (§6.3.3 (d), (j)).
pub(super) const ALL_REASONS: u16 = 0b1_1111_1110;

/// What a CRL's own extensions say (§5.2), read once when the set is built.
pub(super) struct Meta<'a> {
    /// cRLNumber (§5.2.3), magnitude octets.
    pub(super) number: Option<&'a [u8]>,
    /// BaseCRLNumber of a delta CRL (§5.2.4); `None` for a complete CRL.
    pub(super) base: Option<&'a [u8]>,
    pub(super) idp: Option<IssuingDistributionPoint<'a>>,
    /// The issuingDistributionPoint's DER, empty without one. A delta CRL applies only
    /// to a complete CRL of the same scope (§5.2.4), and equal encodings are the same
    /// scope.
    pub(super) scope: &'a [u8],
}

/// Read the CRL extensions pkit acts on and refuse any other critical one: §5.2 "if a
/// CRL contains a critical extension that the application cannot process, then the
/// application MUST NOT use that CRL to determine the status of certificates".
pub(super) fn read_meta<'a>(crl: &Crl<'a>) -> Result<Meta<'a>, String> {
    // §5.2.3, §5.2.4: every CRL, complete or delta, carries a non-critical cRLNumber
    // (a delta without one could not be ordered against the CRL it updates).
    crate::crl_verify::check_number(crl)?;
    let mut m = Meta {
        number: None,
        base: None,
        idp: None,
        scope: &[],
    };
    let Some(exts) = crl.extensions else {
        return Ok(m);
    };
    let list = exts
        .list()
        .map_err(|e| format!("its extensions do not decode: {e}"))?;
    for e in list {
        let value = ext::decode(e.oid, e.value, e.value_offset).map_err(|err| {
            format!(
                "its {} extension does not decode: {err}",
                e.oid.name_or_dotted()
            )
        })?;
        match value {
            ExtensionValue::CrlNumber(n) => m.number = Some(n),
            ExtensionValue::DeltaCrlIndicator(n) => m.base = Some(n),
            ExtensionValue::IssuingDistributionPoint(idp) => {
                m.idp = Some(idp);
                m.scope = e.value;
            }
            // Known CRL extensions (§5.2.1, §5.2.2, §5.2.6, §5.2.7) that do not change
            // which certificates the CRL answers for.
            ExtensionValue::AuthorityKeyIdentifier(_)
            | ExtensionValue::IssuerAltName(_)
            | ExtensionValue::FreshestCrl(_)
            | ExtensionValue::AuthorityInfoAccess(_) => {}
            _ => crate::crl_verify::check_crl_extension(&e)?,
        }
    }
    Ok(m)
}

/// The facts about the certificate that decide which CRLs are in scope.
pub(super) struct Subject<'a> {
    pub(super) is_ca: bool,
    pub(super) dps: Vec<DistributionPoint<'a>>,
}

pub(super) fn subject_facts<'a>(cert: &Certificate<'a>) -> Result<Subject<'a>, String> {
    let mut s = Subject {
        is_ca: false,
        dps: Vec::new(),
    };
    let Some(exts) = cert.extensions else {
        return Ok(s);
    };
    let list = exts
        .list()
        .map_err(|e| format!("the certificate's extensions do not decode: {e}"))?;
    for x in list {
        if x.oid != oids::CE_BASIC_CONSTRAINTS && x.oid != oids::CE_CRL_DIST_POINTS {
            continue;
        }
        match ext::decode(x.oid, x.value, x.value_offset).map_err(|e| {
            format!(
                "the certificate's {} does not decode: {e}",
                x.oid.name_or_dotted()
            )
        })? {
            ExtensionValue::BasicConstraints(bc) => s.is_ca = bc.ca,
            ExtensionValue::CrlDistributionPoints(d) => s.dps = d,
            _ => {}
        }
    }
    Ok(s)
}

/// A distribution point name in a form that compares: directory names by their DER
/// (relative names made absolute first), other names as decoded.
#[derive(Debug, PartialEq)]
pub(super) enum DpKey<'a> {
    Dir(Vec<u8>),
    Other(GeneralName<'a>),
}

pub(super) fn general_keys<'a>(names: &[GeneralName<'a>]) -> Vec<DpKey<'a>> {
    names
        .iter()
        .map(|g| match g {
            GeneralName::DirectoryName(n) => DpKey::Dir(n.raw.to_vec()),
            g => DpKey::Other(g.clone()),
        })
        .collect()
}

/// The names a DistributionPointName stands for. §4.2.1.13, §5.2.5: a
/// nameRelativeToCRLIssuer is appended to the CRL issuer's name (`base`).
pub(super) fn dp_keys<'a>(name: &DistributionPointName<'a>, base: &[u8]) -> Vec<DpKey<'a>> {
    match name {
        DistributionPointName::FullName(names) => general_keys(names),
        DistributionPointName::NameRelativeToCrlIssuer(rn) => append_rdn(base, rn.content)
            .map(DpKey::Dir)
            .into_iter()
            .collect(),
    }
}

/// `base` (a Name's DER) with one more RDN (the content of its SET) at the end.
pub(super) fn append_rdn(base: &[u8], rdn: &[u8]) -> Option<Vec<u8>> {
    let tlv = Reader::new(base).read_expect(tag::SEQUENCE).ok()?;
    let mut w = Writer::with_capacity(base.len() + rdn.len() + 8);
    w.sequence(|w| {
        w.raw(tlv.content);
        w.primitive(tag::SET, rdn);
    });
    Some(w.finish())
}

pub(super) fn reason_mask(bits: impl Iterator<Item = usize>) -> u16 {
    bits.filter(|n| (1..=8).contains(n))
        .fold(0, |m, n| m | (1u16 << n))
}

pub(super) fn reason_names(mask: u16) -> String {
    (1..=8)
        .filter(|n| mask & (1 << n) != 0)
        .map(|n| REASON_FLAGS_BITS[n])
        .collect::<Vec<_>>()
        .join(", ")
}

/// The reasons `crl` covers for `cert`, or why it does not cover it at all.
///
/// §6.3.3 (b)(2): onlyContainsUserCerts excludes CA certificates, onlyContainsCACerts
/// excludes the rest (decided by basicConstraints cA), onlyContainsAttributeCerts
/// excludes every public-key certificate; a CRL whose issuingDistributionPoint names a
/// distribution point covers a certificate only when one of the certificate's
/// cRLDistributionPoints has a name in common with it (or, for a point given only by
/// cRLIssuer, when the cRLIssuer names match). §6.3.3 (b)(1): a point that names a
/// cRLIssuer is served only by an indirect CRL of that issuer. §6.3.3 (d): the reasons
/// covered are the IDP's onlySomeReasons (all when absent) cut down to the matching
/// point's reasons.
pub(super) fn coverage(
    subject: &Subject<'_>,
    cert: &Certificate<'_>,
    crl: &Crl<'_>,
    m: &Meta<'_>,
) -> Result<u16, String> {
    let mut idp_mask = ALL_REASONS;
    let mut idp_names = None;
    if let Some(idp) = &m.idp {
        if idp.only_contains_attribute_certs {
            return Err(
                "it covers only attribute certificates (onlyContainsAttributeCerts)".into(),
            );
        }
        if idp.only_contains_user_certs && subject.is_ca {
            return Err(
                "it covers only end-entity certificates (onlyContainsUserCerts) and this is a CA"
                    .into(),
            );
        }
        if idp.only_contains_ca_certs && !subject.is_ca {
            return Err(
                "it covers only CA certificates (onlyContainsCACerts) and this is not a CA".into(),
            );
        }
        if let Some(bits) = idp.only_some_reasons {
            idp_mask = reason_mask(bits.set_bits());
        }
        idp_names = idp
            .distribution_point
            .as_ref()
            .map(|n| dp_keys(n, crl.issuer.raw));
    }
    let indirect = m.idp.as_ref().is_some_and(|i| i.indirect_crl);
    let direct = dn::equal(&crl.issuer, &cert.issuer);
    let mut matched = None;
    for dp in &subject.dps {
        let crl_issuer_dir = dp.crl_issuer.as_ref().and_then(|names| {
            names.iter().find_map(|g| match g {
                GeneralName::DirectoryName(n) => Some(n.raw),
                _ => None,
            })
        });
        let served =
            match &dp.crl_issuer {
                None => direct,
                Some(names) => indirect
                    && names.iter().any(
                        |g| matches!(g, GeneralName::DirectoryName(n) if dn::equal(n, &crl.issuer)),
                    ),
            };
        if !served {
            continue;
        }
        let names_match = match &idp_names {
            None => true,
            Some(want) => {
                let have = match (&dp.distribution_point, &dp.crl_issuer) {
                    (Some(n), _) => dp_keys(n, crl_issuer_dir.unwrap_or(cert.issuer.raw)),
                    (None, Some(issuers)) => general_keys(issuers),
                    (None, None) => Vec::new(),
                };
                have.iter().any(|h| want.contains(h))
            }
        };
        if names_match {
            let dp_mask = dp
                .reasons
                .map_or(ALL_REASONS, |b| reason_mask(b.set_bits()));
            *matched.get_or_insert(0) |= idp_mask & dp_mask;
        }
    }
    match (matched, idp_names) {
        (Some(mask), _) => Ok(mask),
        (None, _) if !direct => Err(
            "it is another issuer's CRL, and no distribution point of the certificate names \
             that issuer as cRLIssuer of an indirect CRL"
                .into(),
        ),
        (None, None) => Ok(idp_mask),
        (None, Some(_)) => Err(
            "its issuingDistributionPoint names a distribution point the certificate does not \
             list"
                .into(),
        ),
    }
}

/// CRL numbers in numeric order (magnitudes, so the longer is the larger).
pub(super) fn number_cmp(a: &[u8], b: &[u8]) -> Ordering {
    let (a, b) = (integer::unsigned_bytes(a), integer::unsigned_bytes(b));
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// The directory names of every cRLIssuer in the certificate's distribution points.
pub(super) fn crl_issuer_names<'a>(subject: &Subject<'a>) -> Vec<&'a [u8]> {
    subject
        .dps
        .iter()
        .flat_map(|dp| dp.crl_issuer.iter().flatten())
        .filter_map(|g| match g {
            GeneralName::DirectoryName(n) => Some(n.raw),
            _ => None,
        })
        .collect()
}

/// A cRLIssuer in the certificate's distribution points other than its own issuer.
pub(super) fn other_crl_issuer(subject: &Subject<'_>, cert: &Certificate<'_>) -> Option<String> {
    subject
        .dps
        .iter()
        .flat_map(|dp| dp.crl_issuer.iter().flatten())
        .find_map(|g| match g {
            GeneralName::DirectoryName(n) if !dn::equal(n, &cert.issuer) => {
                Some(n.to_rfc4514().unwrap_or_default())
            }
            GeneralName::DirectoryName(_) => None,
            GeneralName::Uri(u) => Some(u.to_string()),
            g => Some(format!("a {} name", g.kind())),
        })
}

/// The entries that concern certificates issued by `target`. §5.3.3: in an indirect CRL
/// an entry's certificateIssuer names the issuer of that entry and of the entries after
/// it up to the next certificateIssuer; before the first one, the CRL issuer is meant.
/// Entries for other issuers are left out so that a serial of another CA is never
/// applied to this CA's certificate. An unknown critical entry extension makes the whole
/// CRL unusable (§5.3).
pub(super) fn entries_for<'a>(crl: &Crl<'a>, target: &[u8]) -> Result<RevokedIndex<'a>, String> {
    let mut own = dn::key(&crl.issuer) == dn::key_der(target);
    let mut kept = Vec::new();
    for (i, e) in crl.revoked().enumerate() {
        let e = e.map_err(|err| format!("its entry {i} does not decode: {err}"))?;
        if let Some(exts) = e.extensions {
            let list = exts
                .list()
                .map_err(|err| format!("the extensions of its entry {i} do not decode: {err}"))?;
            for x in list {
                let name = || x.oid.name_or_dotted();
                let value = ext::decode(x.oid, x.value, x.value_offset).map_err(|err| {
                    format!("the {} of its entry {i} does not decode: {err}", name())
                })?;
                match value {
                    ExtensionValue::CertificateIssuer(names) => {
                        own = names
                            .iter()
                            .any(|n| matches!(n, GeneralName::DirectoryName(d) if dn::key(d) == dn::key_der(target)));
                    }
                    _ => crate::crl_verify::check_entry_extension(i, &x)?,
                }
            }
        }
        if own {
            kept.push(e);
        }
    }
    Ok(RevokedIndex::from_entries(kept))
}

pub(super) fn number_text(n: &[u8]) -> String {
    let n = integer::unsigned_bytes(n);
    if n.len() <= 8 {
        n.iter()
            .fold(0u64, |v, &b| (v << 8) | u64::from(b))
            .to_string()
    } else {
        format!("0x{}", hex(n))
    }
}
