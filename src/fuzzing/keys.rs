//! Targets for keys and key containers: SubjectPublicKeyInfo, PKCS#8 (plain and
//! encrypted, decrypted with a fixed password) and PKCS#12 (MAC checked and every safe
//! and shrouded key decrypted with it). The password-based KDFs run at the cost the
//! input asks for, within `pki::key::cost`'s limits (one allowance per input, as `parse`
//! has): an input over a second is a finding against those limits.

use super::fields::{self, both_modes};
use super::x509::contained;
use crate::der::oid_registry as oids;
use crate::der::{Deviations, Reader, Result};
use crate::pki::backend::openssl;
use crate::pki::cert::Certificate;
use crate::pki::crl::Crl;
use crate::pki::key::cost::Allowance;
use crate::pki::key::{EncryptedPrivateKeyInfo, PrivateKeyInfo};
use crate::pki::pkcs12::{authenticated_safe, safe_contents, BagKind, EncryptedData, Pfx, SafeBag};
use crate::pki::spki::Spki;
use std::hint::black_box;

/// The password every encrypted seed is made with (`fuzz/seed.sh`), and that the
/// `cryptography_vectors` PKCS#12 files mostly use.
pub const PASSWORD: &[u8] = b"cryptography";

/// How deep SafeContents bags may nest, as `parse` allows.
const MAX_BAG_DEPTH: usize = 4;

pub fn spki(data: &[u8]) {
    both_modes(data, |mut r| {
        let s = Spki::read(&mut r)?;
        r.finish()?;
        fields::spki(&s)
    });
}

/// A PKCS#8 key, plain or encrypted: an encrypted one is decrypted with [`PASSWORD`]
/// and the key inside described.
pub fn pkcs8(data: &[u8]) {
    // One allowance for both readings: `parse` reads a file once, in one mode.
    let allowance = Allowance::new();
    both_modes(data, |r| {
        let mode = r.with_base(&[], 0);
        match PrivateKeyInfo::parse(r) {
            Ok(k) => private_key(&mode, &k),
            Err(_) => {
                let e = EncryptedPrivateKeyInfo::parse(mode.with_base(data, 0))?;
                decrypt_key(&allowance, &e);
                Ok(())
            }
        }
    });
}

fn private_key(mode: &Reader<'_>, k: &PrivateKeyInfo<'_>) -> Result<()> {
    fields::algid(&k.algorithm);
    fields::show(k.key_info()?);
    if let Some(form) = k.ml_dsa_form()? {
        black_box(form.name());
    }
    if let Some(spki) = k.public_spki()? {
        let s = Spki::read(&mut Reader::new(&[]).with_base(&spki, k.algorithm.offset))?;
        fields::spki(&s)?;
    }
    black_box((k.rsa_bits().ok(), k.ec_private().ok()));
    fields::attributes(mode, k.attributes.as_ref())
}

/// Decrypt with [`PASSWORD`] and describe what comes out, as `parse --passin` does.
fn decrypt_key(allowance: &Allowance, e: &EncryptedPrivateKeyInfo<'_>) {
    let Ok(scheme) = e.scheme() else { return };
    fields::show(scheme);
    let plain = scheme.decrypt(
        openssl::backend(),
        allowance,
        Some(PASSWORD),
        e.encrypted_data,
    );
    if let Ok(plain) = plain {
        if let Ok(k) = PrivateKeyInfo::from_der(&plain) {
            let _ = private_key(&Reader::new(&[]), &k);
        }
    }
}

/// A PFX: the MAC checked with [`PASSWORD`], every safe opened (decrypted when
/// encrypted) and every bag described.
pub fn pkcs12(data: &[u8]) {
    // One allowance for both readings: `parse` reads a file once, in one mode.
    let allowance = Allowance::new();
    both_modes(data, |r| {
        let pfx = Pfx::parse(r)?;
        let content = pfx.auth_safe_content()?;
        if let Some(mac) = &pfx.mac_data {
            fields::algid(&mac.digest_algorithm);
            if let Ok(scheme) = mac.scheme() {
                fields::show(scheme);
                let ok = mac.verify(
                    openssl::backend(),
                    &allowance,
                    &scheme,
                    Some(PASSWORD),
                    &content.bytes,
                );
                black_box(ok.ok());
            }
        }
        let mode = pfx.mode();
        for ci in authenticated_safe(content.reader(mode))? {
            fields::oid(ci.content_type);
            if ci.is(&oids::PKCS7_DATA) {
                if let Some(o) = ci.data()? {
                    bags(&allowance, &mode, safe_contents(o.reader(mode))?, 0)?;
                }
            } else if ci.is(&oids::PKCS7_ENCRYPTED_DATA) {
                encrypted_safe(&allowance, &EncryptedData::from_content_info(&ci)?)?;
            }
        }
        Ok(())
    });
}

fn encrypted_safe(allowance: &Allowance, ed: &EncryptedData<'_>) -> Result<()> {
    let scheme = ed.scheme()?;
    fields::show(scheme);
    let Some(ct) = &ed.encrypted_content else {
        return Ok(());
    };
    let Ok(plain) = scheme.decrypt(openssl::backend(), allowance, Some(PASSWORD), &ct.bytes) else {
        return Ok(());
    };
    // Decrypted bytes are new: their offsets count from the encrypted content's start,
    // and `parse` reads them leniently (a wrong password shows as garbage, not BER).
    let log = Deviations::new();
    let mode = Reader::lenient(&[], &log).with_base(&plain, ct.offset);
    bags(allowance, &mode, safe_contents(mode)?, 0)
}

fn bags(
    allowance: &Allowance,
    mode: &Reader<'_>,
    list: Vec<SafeBag<'_>>,
    depth: usize,
) -> Result<()> {
    for bag in list {
        fields::oid(bag.bag_id);
        fields::attributes(mode, bag.attributes.as_ref())?;
        match bag.kind() {
            BagKind::Cert | BagKind::Crl => {
                let tv = bag.typed_value()?;
                fields::oid(tv.type_id);
                if tv.type_id == oids::PKCS9_X509_CERTIFICATE {
                    let o = tv.octets()?;
                    contained(mode, &o.bytes, o.offset, |m, r| {
                        fields::certificate(m, &Certificate::parse(r)?)
                    });
                } else if tv.type_id == oids::PKCS9_X509_CRL {
                    let o = tv.octets()?;
                    contained(mode, &o.bytes, o.offset, |m, r| {
                        fields::crl(m, &Crl::parse(r)?)
                    });
                }
            }
            BagKind::Key => private_key(mode, &PrivateKeyInfo::parse(bag.value_element()?)?)?,
            BagKind::ShroudedKey => {
                decrypt_key(
                    allowance,
                    &EncryptedPrivateKeyInfo::parse(bag.value_element()?)?,
                );
            }
            BagKind::Secret => {
                fields::oid(bag.typed_value()?.type_id);
            }
            BagKind::SafeContents if depth < MAX_BAG_DEPTH => {
                bags(allowance, mode, safe_contents(bag.value)?, depth + 1)?;
            }
            BagKind::SafeContents | BagKind::Unknown => {}
        }
    }
    Ok(())
}
