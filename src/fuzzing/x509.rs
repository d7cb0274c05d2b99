//! Targets for the X.509 family `pkit parse` describes: certificates, CSRs, CRLs and
//! PKCS#7 / CMS bundles of them, each read strictly and leniently.

use super::fields::{self, both_modes};
use crate::der::oid_registry as oids;
use crate::der::{Reader, Result};
use crate::pki::cert::Certificate;
use crate::pki::crl::Crl;
use crate::pki::csr::Csr;
use crate::pki::pkcs7::{ContentInfo, SignerId};
use std::hint::black_box;

pub fn certificate(data: &[u8]) {
    both_modes(data, |r| {
        let mode = r.with_base(&[], 0);
        fields::certificate(&mode, &Certificate::parse(r)?)
    });
}

pub fn csr(data: &[u8]) {
    both_modes(data, |r| {
        let mode = r.with_base(&[], 0);
        let c = Csr::parse(r)?;
        black_box((c.version, c.tbs_raw()));
        fields::name(&c.subject)?;
        fields::spki(&c.spki)?;
        fields::algid(&c.signature_algorithm);
        fields::attributes(&mode, Some(&c.attributes))
    });
}

pub fn crl(data: &[u8]) {
    both_modes(data, |r| {
        let mode = r.with_base(&[], 0);
        fields::crl(&mode, &Crl::parse(r)?)
    });
}

/// A PKCS#7 / CMS message: SignedData opened (digest algorithms, every certificate and
/// CRL described, every signer with its attributes); other content types sized.
pub fn pkcs7(data: &[u8]) {
    both_modes(data, |r| {
        let mode = r.with_base(&[], 0);
        let ci = ContentInfo::parse(r)?;
        fields::oid(ci.content_type);
        if ci.is(&oids::PKCS7_DATA) {
            black_box(ci.data()?);
            return Ok(());
        }
        if !ci.is(&oids::PKCS7_SIGNED_DATA) {
            black_box(ci.content_tlv()?);
            return Ok(());
        }
        let sd = ci.signed_data()?;
        fields::oid(sd.encap_content_type);
        black_box((sd.is_degenerate(), sd.encapsulates_data()));
        for a in sd.digest_algorithms()? {
            fields::algid(&a);
        }
        for c in sd.certificates()? {
            black_box(c.kind());
            if c.is_certificate() {
                contained(&mode, c.raw, c.offset, |m, r| {
                    fields::certificate(m, &Certificate::parse(r)?)
                });
            }
        }
        for c in sd.crls()? {
            if c.is_crl() {
                contained(&mode, c.raw, c.offset, |m, r| {
                    fields::crl(m, &Crl::parse(r)?)
                });
            }
        }
        for s in sd.signer_infos()? {
            match &s.sid {
                SignerId::IssuerAndSerialNumber { issuer, serial } => {
                    fields::name(issuer)?;
                    black_box(crate::der::integer::unsigned_bytes(serial));
                }
                SignerId::SubjectKeyIdentifier(k) => {
                    black_box(k);
                }
            }
            fields::algid(&s.digest_algorithm);
            fields::algid(&s.signature_algorithm);
            fields::attributes(&mode, s.signed_attrs.as_ref())?;
            fields::attributes(&mode, s.unsigned_attrs.as_ref())?;
        }
        Ok(())
    });
}

/// An object inside a container, read in the container's mode at its own offset; its
/// failure is reported in its place by `parse`, so it does not end the walk.
pub fn contained(
    mode: &Reader<'_>,
    raw: &[u8],
    offset: usize,
    f: impl FnOnce(&Reader<'_>, Reader<'_>) -> Result<()>,
) {
    let r = mode.with_base(raw, offset);
    let _ = f(&r.with_base(&[], offset), r);
}
