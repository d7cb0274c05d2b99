//! What the targets share: walking the parts of X.509 objects the way `pkit parse`
//! describes them (names as RFC 4514 text and as attributes, keys' algorithm and size,
//! every extension decoded), so that each decoder a field reaches runs on hostile bytes.

use crate::der::oid_registry as oids;
use crate::der::{string, tag, time, ObjectId, Reader, Result};
use crate::pki::algid::AlgId;
use crate::pki::cert::Certificate;
use crate::pki::crl::Crl;
use crate::pki::csr::{Attribute, Attributes};
use crate::pki::ext::{self, DistributionPointName, ExtensionValue, GeneralName};
use crate::pki::extension::Extensions;
use crate::pki::name::Name;
use crate::pki::spki::Spki;
use std::fmt::Write as _;
use std::hint::black_box;

/// Run `f` over `data` read strictly, then leniently, as `pkit parse` and `pkit parse
/// --lenient` do; the lenient run also formats every deviation it logged.
pub fn both_modes(data: &[u8], f: impl Fn(Reader<'_>) -> Result<()>) {
    let _ = f(Reader::new(data));
    let log = crate::der::Deviations::new();
    let _ = f(Reader::lenient(data, &log));
    for d in log.take() {
        black_box(format!("{d:?}"));
    }
}

/// A formatted value, kept from being optimised away.
pub fn show(v: impl std::fmt::Debug) {
    let mut s = String::new();
    let _ = write!(s, "{v:?}");
    black_box(s);
}

pub fn oid(o: ObjectId<'_>) {
    black_box((o.to_string(), o.name()));
}

pub fn algid(a: &AlgId<'_>) {
    oid(a.oid);
    black_box(a.name());
}

/// A Name as `parse` shows it: the RFC 4514 string and the attribute list.
pub fn name(n: &Name<'_>) -> Result<()> {
    black_box(n.to_rfc4514()?);
    for rdn in n.rdns()? {
        for a in rdn {
            oid(a.oid);
            black_box((a.type_name(), a.text()?));
        }
    }
    Ok(())
}

pub fn spki(s: &Spki<'_>) -> Result<()> {
    algid(&s.algorithm);
    show(s.key_info()?);
    black_box(crate::pki::alg::Algorithm::from_spki(s.raw));
    Ok(())
}

/// Every extension decoded in the reader's mode; one that fails to decode is shown as
/// an error by `parse`, so its failure does not stop the walk.
pub fn extensions(mode: &Reader<'_>, exts: Option<&Extensions<'_>>) -> Result<()> {
    let Some(exts) = exts else { return Ok(()) };
    for x in exts.list()? {
        oid(x.oid);
        if let Ok(v) = ext::decode_with(mode, x.oid, x.value, x.value_offset) {
            let _ = extension_value(&v);
        }
    }
    Ok(())
}

/// The names inside an extension value, formatted as `parse` formats them; the rest
/// through its `Debug` form, which reaches every decoded field.
fn extension_value(v: &ExtensionValue<'_>) -> Result<()> {
    use ExtensionValue as E;
    show(v);
    match v {
        E::SubjectAltName(n) | E::IssuerAltName(n) | E::CertificateIssuer(n) => {
            general_names(n)?;
        }
        E::AuthorityKeyIdentifier(aki) => {
            black_box(aki.serial_magnitude());
            if let Some(n) = &aki.authority_cert_issuer {
                general_names(n)?;
            }
        }
        E::CrlDistributionPoints(dps) | E::FreshestCrl(dps) => {
            for dp in dps {
                if let Some(n) = &dp.distribution_point {
                    dp_name(n)?;
                }
                if let Some(n) = &dp.crl_issuer {
                    general_names(n)?;
                }
            }
        }
        E::IssuingDistributionPoint(idp) => {
            if let Some(n) = &idp.distribution_point {
                dp_name(n)?;
            }
        }
        E::NameConstraints(nc) => {
            for t in [&nc.permitted_subtrees, &nc.excluded_subtrees]
                .into_iter()
                .flatten()
                .flatten()
            {
                general_names(std::slice::from_ref(&t.base))?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn general_names(names: &[GeneralName<'_>]) -> Result<()> {
    for g in names {
        match g {
            GeneralName::DirectoryName(n) => name(n)?,
            GeneralName::RegisteredId(o) => oid(*o),
            GeneralName::OtherName(o) => oid(o.type_id),
            other => show(other),
        }
    }
    Ok(())
}

fn dp_name(n: &DistributionPointName<'_>) -> Result<()> {
    match n {
        DistributionPointName::FullName(g) => general_names(g),
        DistributionPointName::NameRelativeToCrlIssuer(r) => r.to_rfc4514().map(|t| {
            black_box(t);
        }),
    }
}

/// A certificate's fields, as `parse` describes one (also inside PKCS#7, PKCS#12 and
/// OCSP messages).
pub fn certificate(mode: &Reader<'_>, c: &Certificate<'_>) -> Result<()> {
    black_box((c.serial_hex(), c.serial_is_negative(), c.is_self_issued()));
    black_box((c.is_ca(), c.subject_key_id(), c.basic_constraints()));
    algid(&c.signature_algorithm);
    black_box(c.check_signature_algorithms_match().is_ok());
    black_box(c.validity()?);
    name(&c.issuer)?;
    name(&c.subject)?;
    spki(&c.spki)?;
    extensions(mode, c.extensions.as_ref())?;
    // The MTC view of a certificate signed with an MTC proof.
    if let Ok(p) = crate::mtc::proof::MtcProof::decode(c.signature.bytes) {
        show(p);
    }
    Ok(())
}

/// A CRL's fields and every entry with its extensions.
pub fn crl(mode: &Reader<'_>, c: &Crl<'_>) -> Result<()> {
    algid(&c.signature_algorithm);
    black_box(c.check_signature_algorithms_match().is_ok());
    name(&c.issuer)?;
    black_box((c.this_update, c.next_update));
    black_box(c.revoked_count()?);
    for e in c.revoked() {
        let e = e?;
        black_box((e.serial_hex(), e.revocation_date));
        extensions(mode, e.extensions.as_ref())?;
    }
    extensions(mode, c.extensions.as_ref())
}

/// A PKCS#9 attribute (in a CSR, a CMS signer, a PKCS#12 bag) as `parse` shows it: an
/// extensionRequest's extensions, or each value as text, OID, time or octets.
pub fn attribute(mode: &Reader<'_>, a: &Attribute<'_>) -> Result<()> {
    oid(a.oid);
    if a.oid == oids::PKCS9_EXTENSION_REQUEST {
        if a.values().is_empty() {
            return Ok(());
        }
        let mut v = a.single_value()?;
        let exts = Extensions::read(&mut v)?;
        v.finish()?;
        return extensions(mode, Some(&exts));
    }
    let values = a.values();
    for v in a.value_tlvs()? {
        let at = v.content_offset();
        if string::is_string_tag(v.tag) {
            black_box(string::decode(&values, v.tag, v.content, at)?);
        } else if v.tag == tag::OID {
            oid(ObjectId::from_content(v.content, at)?);
        } else if v.tag == tag::UTC_TIME {
            black_box(time::parse_utc_time(&values, v.content, at)?);
        } else if v.tag == tag::GENERALIZED_TIME {
            black_box(time::parse_generalized_time(&values, v.content, at)?);
        }
    }
    Ok(())
}

pub fn attributes(mode: &Reader<'_>, list: Option<&Attributes<'_>>) -> Result<()> {
    for a in list.map(Attributes::list).transpose()?.unwrap_or_default() {
        attribute(mode, &a)?;
    }
    Ok(())
}
