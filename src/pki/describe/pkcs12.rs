//! JSON model of a PKCS#12 file (field names follow RFC 7292's ASN.1): the MAC (verified
//! when the password is known), each safe of the authenticated safe, and its bags.
//!
//! Password use follows what `openssl pkcs12` does: `--passin` when given; otherwise the
//! empty password, when the MAC shows that is what the file was written with.
//! Encrypted safes cannot be listed without the password: such a safe is described by
//! its encryption, its `bags` null, and the description marked `locked` (the command
//! line says so, and refuses to extract what it could not open); shrouded keys without
//! it are described by their encryption only.

use super::json::{b64, oid_json};
use super::key::{decrypted_key_json, pbe_json, private_key_fields};
use super::pkcs7::{contained_cert, contained_crl};
use super::{Ctx, Described, Failure};
use crate::der::oid_registry as oids;
use crate::der::{Context, Deviations, Reader};
use pkit_x509::backend::{Backend, BackendError};
use pkit_x509::detect::Kind;
use pkit_x509::key::cost::Allowance;
use pkit_x509::key::encrypted::EncryptedPrivateKeyInfo;
use pkit_x509::key::pkcs8::PrivateKeyInfo;
use pkit_x509::pkcs12::{
    authenticated_safe, safe_contents, BagKind, EncryptedData, MacData, MacScheme, Pfx, SafeBag,
};
use pkit_x509::pkcs7::ContentInfo;
use serde_json::{Map, Value};

/// SafeContentsBag nesting allowed (RFC 7292 allows recursion; real files use none).
const MAX_BAG_DEPTH: usize = 4;

type Out<T> = std::result::Result<T, Failure>;

/// The password, as far as it is known. PKCS#12 tells an empty password from an absent
/// one (RFC 7292 Appendix B.1), and files of both kinds exist.
struct Password {
    /// `Some(Some(p))`: typed or empty; `Some(None)`: absent; `None`: not known.
    known: Option<Option<Vec<u8>>>,
    /// Whether `--passin` gave it (then failures are errors, not guesses).
    given: bool,
    /// The key-derivation work left for this file: every guess and every safe and key
    /// spends from one allowance.
    allowance: Allowance,
}

impl Password {
    /// The passwords to try, in order: the known one, else empty and then absent.
    fn candidates(&self) -> Vec<Option<&[u8]>> {
        match &self.known {
            Some(k) => vec![k.as_deref()],
            None => vec![Some(&b""[..]), None],
        }
    }
}

pub(crate) fn describe(der: &[u8], ctx: &Ctx) -> Out<Described> {
    // BER is the norm for PKCS#12 (RFC 7292 §4 builds on CMS): no warnings for it.
    let container = Deviations::new();
    let pfx = Pfx::parse(Reader::lenient(der, &container))?;
    let mut d = Described::new(Kind::Pkcs12, Value::Null, der);
    // `-f pem` on a container gives what it contains.
    d.objects.clear();
    let mut m = Map::new();
    m.insert("type".into(), Kind::Pkcs12.as_str().into());
    m.insert("version".into(), pfx.version.into());
    m.insert(
        "auth_safe_content_type".into(),
        oid_json(pfx.auth_safe.content_type),
    );
    let content = pfx.auth_safe_content()?;
    let mut pw = Password {
        known: ctx.password.clone().map(Some),
        given: ctx.password.is_some(),
        allowance: Allowance::new(),
    };
    if let Some(mac) = &pfx.mac_data {
        m.insert(
            "mac_data".into(),
            mac_json(mac, &content.bytes, &mut pw, ctx.backend)?,
        );
    }
    let safes = authenticated_safe(content.reader(pfx.mode()))?;
    let mut out = Vec::with_capacity(safes.len());
    for (i, ci) in safes.iter().enumerate() {
        out.push(safe_json(i, ci, pfx.mode(), &pw, ctx, &mut d)?);
    }
    m.insert("auth_safe".into(), Value::Array(out));
    m.insert("pem".into(), super::json::pem_json(Kind::Pkcs12, der));
    d.json = Value::Object(m);
    Ok(d)
}

fn mac_json(mac: &MacData<'_>, content: &[u8], pw: &mut Password, backend: &Backend) -> Out<Value> {
    let scheme = mac.scheme()?;
    let mut m = Map::new();
    m.insert(
        "digest_algorithm".into(),
        super::json::algid_json(&mac.digest_algorithm),
    );
    if let MacScheme::Pbmac1 { kdf, mac: hmac } = &scheme {
        m.insert("kdf".into(), super::key::kdf_json(kdf));
        m.insert("message_auth_scheme".into(), super::json::algid_json(hmac));
    }
    m.insert("mac_salt_length".into(), mac.mac_salt.len().into());
    m.insert("iterations".into(), mac.iterations.into());
    let verified = if pw.given {
        let p = pw.candidates().first().copied().flatten();
        match mac.verify(backend, &pw.allowance, &scheme, p, content) {
            Ok(true) => Some(true),
            Ok(false) => {
                return Err(BackendError::BadPassword(
                    "PKCS#12 MAC does not verify: wrong password or altered file".into(),
                )
                .into())
            }
            Err(BackendError::Unsupported(why)) => {
                m.insert("not_verified".into(), why.into());
                None
            }
            Err(e) => return Err(e.into()),
        }
    } else {
        // Files written without a password carry a MAC under the empty or the absent
        // one; finding which also tells how their safes are encrypted.
        let found = pw
            .candidates()
            .into_iter()
            .find(|p| {
                matches!(
                    mac.verify(backend, &pw.allowance, &scheme, *p, content,),
                    Ok(true)
                )
            })
            .map(|p| p.map(<[u8]>::to_vec));
        match found {
            Some(p) => {
                m.insert(
                    "password".into(),
                    if p.is_some() { "empty" } else { "absent" }.into(),
                );
                pw.known = Some(p);
                Some(true)
            }
            None => None,
        }
    };
    m.insert("verified".into(), verified.into());
    Ok(Value::Object(m))
}

fn safe_json<'a>(
    i: usize,
    ci: &ContentInfo<'a>,
    mode: Reader<'a>,
    pw: &Password,
    ctx: &Ctx,
    d: &mut Described,
) -> Out<Value> {
    let mut m = Map::new();
    m.insert("content_type".into(), oid_json(ci.content_type));
    if ci.is(&oids::PKCS7_DATA) {
        let data = ci.data().at_index(i).at("authenticatedSafe")?;
        let bags = match &data {
            Some(o) => bags_json(safe_contents(o.reader(mode))?, pw, ctx, d, 0)?,
            None => Vec::new(),
        };
        m.insert("encrypted".into(), false.into());
        m.insert("bags".into(), Value::Array(bags));
    } else if ci.is(&oids::PKCS7_ENCRYPTED_DATA) {
        let ed = EncryptedData::from_content_info(ci)
            .at_index(i)
            .at("authenticatedSafe")?;
        let scheme = ed.scheme().at_index(i).at("authenticatedSafe")?;
        m.insert("encrypted".into(), true.into());
        m.insert("encryption_algorithm".into(), pbe_json(&scheme));
        let what = format!("safe {i} (certificates and keys)");
        let Some(ct) = &ed.encrypted_content else {
            m.insert("bags".into(), Value::Array(Vec::new()));
            return Ok(Value::Object(m));
        };
        // Decrypted bytes are new: their offsets count from the encrypted content's start.
        let mut plain = None;
        let mut last = None;
        for p in pw.candidates() {
            match scheme.decrypt(ctx.backend, &pw.allowance, p, &ct.bytes) {
                Ok(x) => {
                    let log = Deviations::new();
                    let r = Reader::lenient(&[], &log).with_base(&x, ct.offset);
                    match safe_contents(r) {
                        Ok(_) => {
                            plain = Some(x);
                            break;
                        }
                        Err(e) => {
                            last = Some(Failure::from(BackendError::BadPassword(format!(
                                "PKCS#12 {what}: the decrypted data is not a SafeContents \
                                 (wrong password?): {e}"
                            ))))
                        }
                    }
                }
                Err(BackendError::BadPassword(m)) => {
                    last = Some(BackendError::BadPassword(format!("PKCS#12 {what}: {m}")).into())
                }
                Err(e) => return Err(e.into()),
            }
        }
        let Some(plain) = plain else {
            if let (true, Some(f)) = (pw.given, last) {
                return Err(f);
            }
            // No password to open it: the safe as far as it can be seen, and the
            // description marked as missing its bags (the MAC said no empty password).
            m.insert("encrypted_data_length".into(), ct.bytes.len().into());
            m.insert("bags".into(), Value::Null);
            d.locked.get_or_insert_with(|| {
                format!("PKCS#12 {what} is encrypted: its bags are listed with --passin")
            });
            return Ok(Value::Object(m));
        };
        let log = Deviations::new();
        let bags = safe_contents(Reader::lenient(&[], &log).with_base(&plain, ct.offset))?;
        m.insert("bags".into(), Value::Array(bags_json(bags, pw, ctx, d, 0)?));
    } else {
        // envelopedData (encrypted to a public key) and anything else: named only.
        m.insert(
            "encrypted".into(),
            ci.is(&oids::PKCS7_ENVELOPED_DATA).into(),
        );
    }
    Ok(Value::Object(m))
}

fn bags_json(
    bags: Vec<SafeBag<'_>>,
    pw: &Password,
    ctx: &Ctx,
    d: &mut Described,
    depth: usize,
) -> Out<Vec<Value>> {
    let mut out = Vec::with_capacity(bags.len());
    for (i, bag) in bags.iter().enumerate() {
        out.push(bag_json(bag, pw, ctx, d, depth).map_err(|f| match f {
            Failure::Der(e) => Failure::Der(e.at(&format!("safeContents[{i}]"))),
            other => other,
        })?);
    }
    Ok(out)
}

fn bag_json(
    bag: &SafeBag<'_>,
    pw: &Password,
    ctx: &Ctx,
    d: &mut Described,
    depth: usize,
) -> Out<Value> {
    let mut m = Map::new();
    m.insert("bag_id".into(), oid_json(bag.bag_id));
    let mut attrs = Vec::new();
    if let Some(a) = &bag.attributes {
        for x in a.list().at("bagAttributes")? {
            attrs.push(super::csr::attribute_json(&x).at("bagAttributes")?);
        }
    }
    m.insert("bag_attributes".into(), Value::Array(attrs));
    match bag.kind() {
        BagKind::Cert | BagKind::Crl => {
            let tv = bag.typed_value()?;
            let is_cert = bag.kind() == BagKind::Cert;
            m.insert(
                if is_cert { "cert_id" } else { "crl_id" }.into(),
                oid_json(tv.type_id),
            );
            let x509 = if is_cert {
                tv.type_id == oids::PKCS9_X509_CERTIFICATE
            } else {
                tv.type_id == oids::PKCS9_X509_CRL
            };
            if x509 {
                let o = tv.octets().at("bagValue")?;
                let v = if is_cert {
                    contained_cert(&o.bytes, o.offset, ctx, d).at("bagValue.certValue")?
                } else {
                    contained_crl(&o.bytes, o.offset, ctx, d).at("bagValue.crlValue")?
                };
                m.insert(if is_cert { "certificate" } else { "crl" }.into(), v);
            } else {
                // sdsiCertificate and private types: shown as DER.
                let v = tv.value;
                m.insert("value_der_b64".into(), b64(v.remaining()).into());
            }
        }
        BagKind::Key => {
            let k = PrivateKeyInfo::parse(bag.value_element()?).at("bagValue")?;
            let mut km = Map::new();
            private_key_fields(&k, ctx, &mut km).at("bagValue")?;
            m.insert("private_key".into(), Value::Object(km));
            if ctx.show_private {
                d.objects.push((Kind::Pkcs8, k.raw.to_vec()));
            }
        }
        BagKind::ShroudedKey => {
            let e = EncryptedPrivateKeyInfo::parse(bag.value_element()?).at("bagValue")?;
            let scheme = e.scheme().at("bagValue")?;
            m.insert("encryption_algorithm".into(), pbe_json(&scheme));
            m.insert(
                "encrypted_data_length".into(),
                e.encrypted_data.len().into(),
            );
            let mut opened = None;
            for p in pw.candidates() {
                match scheme.decrypt(ctx.backend, &pw.allowance, p, e.encrypted_data) {
                    // A guess that unpads by chance yields bytes that are not a key.
                    Ok(x) if !pw.given && PrivateKeyInfo::parse(Reader::new(&x)).is_err() => {}
                    Ok(x) => {
                        opened = Some(x);
                        break;
                    }
                    // Without a password from the user, a key that neither the empty nor
                    // the absent password opens stays shrouded.
                    Err(BackendError::BadPassword(_)) if !pw.given => {}
                    Err(e) => return Err(e.into()),
                }
            }
            if let Some(plain) = opened {
                m.insert("private_key".into(), decrypted_key_json(&plain, ctx)?);
                if ctx.show_private {
                    d.objects.push((Kind::Pkcs8, plain));
                }
            }
        }
        BagKind::Secret => {
            let tv = bag.typed_value()?;
            m.insert("secret_type_id".into(), oid_json(tv.type_id));
            let raw = tv.value.remaining();
            m.insert("secret_value_length".into(), raw.len().into());
            if ctx.show_private {
                m.insert("secret_value_der_b64".into(), b64(raw).into());
            }
        }
        BagKind::SafeContents => {
            if depth >= MAX_BAG_DEPTH {
                return Err(crate::der::Error::invalid(
                    bag.offset,
                    format!("expected SafeContents nested at most {MAX_BAG_DEPTH} deep"),
                )
                .into());
            }
            let inner = safe_contents(bag.value).at("bagValue")?;
            m.insert(
                "bags".into(),
                Value::Array(bags_json(inner, pw, ctx, d, depth + 1)?),
            );
        }
        BagKind::Unknown => {
            m.insert("value_der_b64".into(), b64(bag.value.remaining()).into());
        }
    }
    Ok(Value::Object(m))
}
