//! JSON model of keys: SubjectPublicKeyInfo (RFC 5280 §4.1.2.7), PKCS#8
//! OneAsymmetricKey (RFC 5958 §2) and EncryptedPrivateKeyInfo (RFC 5958 §3), and the
//! password-based encryption parameters PKCS#12 shares with them.
//!
//! Private key bytes appear only with `--show-private`; everything else (algorithm,
//! size, public key, ML-DSA form) is shown always.

use super::json::{algid_json, b64, oid_json, spki_json};
use super::{Ctx, Described, Failure};
use crate::der::hex;
use crate::der::{Context, Reader, Result};
use pkit_x509::backend::BackendError;
use pkit_x509::detect::Kind;
use pkit_x509::key::encrypted::EncryptedPrivateKeyInfo;
use pkit_x509::key::ml_dsa::MlDsaPrivateKey;
use pkit_x509::key::pbe::{Kdf, PbeScheme};
use pkit_x509::key::pkcs8::PrivateKeyInfo;
use pkit_x509::spki::Spki;
use serde_json::{Map, Value};

/// `public_key`: a bare SubjectPublicKeyInfo.
pub(crate) fn describe_spki(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let (json, warnings) = super::json::with_reader(der, ctx, |mut r| {
        let s = Spki::read(&mut r).at("subjectPublicKeyInfo")?;
        r.finish()?;
        let mut m = Map::new();
        m.insert("type".into(), Kind::Spki.as_str().into());
        m.insert("public_key".into(), spki_json(&s)?);
        m.insert("pem".into(), super::json::pem_json(Kind::Spki, s.raw));
        Ok(Value::Object(m))
    })?;
    let mut d = Described::new(Kind::Spki, json, der);
    d.warnings = warnings;
    Ok(d)
}

/// `private_key`: an unencrypted PKCS#8 key, or a traditional OpenSSL key (`BEGIN RSA
/// PRIVATE KEY`: RFC 8017 RSAPrivateKey; `BEGIN EC PRIVATE KEY`: RFC 5915 ECPrivateKey),
/// described as the PKCS#8 key it stands for with `format` saying what it was.
pub(crate) fn describe_pkcs8(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let e = match describe_one_asymmetric_key(der, ctx) {
        Ok(d) => return Ok(d),
        Err(e) => e,
    };
    let Some(wrapped) = pkit_x509::key::inner::wrap_traditional(der) else {
        return Err(e);
    };
    let traditional = if pkit_x509::key::inner::EcPrivateKey::read(Reader::new(der)).is_ok() {
        "ec_private_key"
    } else {
        "rsa_private_key"
    };
    let mut d = describe_one_asymmetric_key(&wrapped, ctx)?;
    if let Value::Object(m) = &mut d.json {
        m.insert("format".into(), traditional.into());
    }
    Ok(d)
}

fn describe_one_asymmetric_key(der: &[u8], ctx: &Ctx) -> Result<Described> {
    let (json, warnings) = super::json::with_reader(der, ctx, |r| {
        let k = PrivateKeyInfo::parse(r)?;
        let mut m = Map::new();
        m.insert("type".into(), Kind::Pkcs8.as_str().into());
        private_key_fields(&k, ctx, &mut m)?;
        if ctx.show_private {
            m.insert("pem".into(), super::json::pem_json(Kind::Pkcs8, k.raw));
        }
        Ok(Value::Object(m))
    })?;
    let mut d = Described::new(Kind::Pkcs8, json, der);
    d.warnings = warnings;
    Ok(d)
}

/// `encrypted_private_key`: the protection, and with `--passin` the key inside.
pub(crate) fn describe_encrypted(der: &[u8], ctx: &Ctx) -> std::result::Result<Described, Failure> {
    let mut warnings = Vec::new();
    let (json, plain) = {
        let log = crate::der::Deviations::new();
        let r = if ctx.lenient {
            Reader::lenient(der, &log)
        } else {
            Reader::new(der)
        };
        let e = EncryptedPrivateKeyInfo::parse(r)?;
        let scheme = e.scheme()?;
        let mut m = Map::new();
        m.insert("type".into(), Kind::EncryptedPkcs8.as_str().into());
        m.insert("encryption_algorithm".into(), pbe_json(&scheme));
        m.insert(
            "encrypted_data_length".into(),
            e.encrypted_data.len().into(),
        );
        m.insert(
            "pem".into(),
            super::json::pem_json(Kind::EncryptedPkcs8, e.raw),
        );
        let plain = match &ctx.password {
            Some(pw) => Some(scheme.decrypt(
                ctx.backend,
                &pkit_x509::key::cost::Allowance::new(),
                Some(pw),
                e.encrypted_data,
            )?),
            None => None,
        };
        warnings.extend(log.take());
        (m, plain)
    };
    let mut m = json;
    let mut objects_key = None;
    if let Some(plain) = plain {
        // The decrypted key is new bytes: offsets in its errors count from its start.
        let inner = decrypted_key_json(&plain, ctx)?;
        m.insert("private_key".into(), inner);
        if ctx.show_private {
            objects_key = Some(plain);
        }
    }
    let mut d = Described::new(Kind::EncryptedPkcs8, Value::Object(m), der);
    d.warnings = warnings;
    if let Some(k) = objects_key {
        d.objects.push((Kind::Pkcs8, k));
    }
    Ok(d)
}

/// The JSON of a private key that decryption produced. A wrong password that still
/// unpads correctly gives bytes that are not a key; that is reported as a bad password.
pub(crate) fn decrypted_key_json(plain: &[u8], ctx: &Ctx) -> std::result::Result<Value, Failure> {
    let k = PrivateKeyInfo::parse(Reader::new(plain)).map_err(|e| {
        BackendError::BadPassword(format!(
            "the decrypted data is not a private key (wrong password?): {e}"
        ))
    })?;
    let mut m = Map::new();
    private_key_fields(&k, ctx, &mut m)?;
    Ok(Value::Object(m))
}

/// The fields of a OneAsymmetricKey: version, algorithm, type and size, public key,
/// ML-DSA form, attributes; the private bytes only with `--show-private`.
pub(crate) fn private_key_fields(
    k: &PrivateKeyInfo<'_>,
    ctx: &Ctx,
    m: &mut Map<String, Value>,
) -> Result<()> {
    m.insert("version".into(), (k.version + 1).into());
    m.insert("private_key_algorithm".into(), algid_json(&k.algorithm));
    let info = k.key_info()?;
    m.insert("key_type".into(), info.family.into());
    m.insert("key_bits".into(), info.bits.into());
    if let Some(p) = info.parameters {
        m.insert("parameters".into(), p.into());
    }
    if let Some(form) = k.ml_dsa_form()? {
        m.insert("ml_dsa_private_key_form".into(), form.name().into());
        if ctx.show_private {
            match form {
                MlDsaPrivateKey::Seed(s) => {
                    m.insert("seed_b64".into(), b64(s).into());
                }
                MlDsaPrivateKey::Expanded(e) => {
                    m.insert("expanded_key_b64".into(), b64(e).into());
                }
                MlDsaPrivateKey::Both { seed, expanded } => {
                    m.insert("seed_b64".into(), b64(seed).into());
                    m.insert("expanded_key_b64".into(), b64(expanded).into());
                }
            }
        }
    }
    if let Some(spki) = k.public_spki()? {
        let base = k.algorithm.offset;
        let s = Spki::read(&mut Reader::new(&[]).with_base(&spki, base))?;
        m.insert("public_key".into(), spki_json(&s)?);
    }
    if let Some(attrs) = &k.attributes {
        let mut out = Vec::new();
        for a in attrs.list()? {
            out.push(super::csr::attribute_json(&a)?);
        }
        m.insert("attributes".into(), Value::Array(out));
    }
    if ctx.show_private {
        m.insert("private_key_b64".into(), b64(k.private_key).into());
    }
    Ok(())
}

/// A password-based encryption scheme and its parameters (salts by length only: they
/// are not secret, but they are noise).
pub(crate) fn pbe_json(s: &PbeScheme<'_>) -> Value {
    let mut m = Map::new();
    match s {
        PbeScheme::Pbes2 {
            kdf,
            encryption_scheme,
            iv,
            ..
        } => {
            m.insert(
                "oid".into(),
                crate::der::oid_registry::PBES2.id().to_string().into(),
            );
            m.insert("name".into(), "PBES2".into());
            m.insert("kdf".into(), kdf_json(kdf));
            let mut c = match oid_json(encryption_scheme.oid) {
                Value::Object(c) => c,
                _ => Map::new(),
            };
            if let Some(iv) = iv {
                c.insert("iv".into(), hex(iv).into());
            } else if let Some(p) = encryption_scheme.params {
                c.insert("parameters_b64".into(), b64(p).into());
            }
            m.insert("encryption_scheme".into(), Value::Object(c));
        }
        PbeScheme::Pkcs12 {
            algorithm,
            salt,
            iterations,
            ..
        }
        | PbeScheme::Pbes1 {
            algorithm,
            salt,
            iterations,
        } => {
            m.insert("oid".into(), algorithm.to_string().into());
            m.insert("name".into(), algorithm.name().unwrap_or("").into());
            m.insert("salt_length".into(), salt.len().into());
            m.insert("iterations".into(), (*iterations).into());
        }
        PbeScheme::Unknown(a) => return algid_json(a),
    }
    Value::Object(m)
}

pub(crate) fn kdf_json(k: &Kdf<'_>) -> Value {
    let mut m = Map::new();
    match k {
        Kdf::Pbkdf2 {
            salt,
            iterations,
            key_length,
            prf,
        } => {
            m.insert(
                "oid".into(),
                crate::der::oid_registry::PBKDF2.id().to_string().into(),
            );
            m.insert("name".into(), "PBKDF2".into());
            match salt {
                Some(s) => m.insert("salt_length".into(), s.len().into()),
                None => m.insert("salt".into(), "otherSource".into()),
            };
            m.insert("iterations".into(), (*iterations).into());
            if let Some(k) = key_length {
                m.insert("key_length".into(), (*k).into());
            }
            let prf = match prf {
                Some(p) => algid_json(p),
                None => oid_json(crate::der::oid_registry::HMAC_SHA1.id()),
            };
            m.insert("prf".into(), prf);
        }
        Kdf::Scrypt {
            salt,
            cost,
            block_size,
            parallelization,
            key_length,
        } => {
            m.insert(
                "oid".into(),
                crate::der::oid_registry::SCRYPT.id().to_string().into(),
            );
            m.insert("name".into(), "id-scrypt".into());
            m.insert("salt_length".into(), salt.len().into());
            m.insert("cost".into(), (*cost).into());
            m.insert("block_size".into(), (*block_size).into());
            m.insert("parallelization".into(), (*parallelization).into());
            if let Some(k) = key_length {
                m.insert("key_length".into(), (*k).into());
            }
        }
        Kdf::Unknown(a) => return algid_json(a),
    }
    Value::Object(m)
}
