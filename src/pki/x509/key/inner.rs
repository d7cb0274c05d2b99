//! The algorithm's own private key inside PKCS#8 `privateKey`: `RSAPrivateKey`
//! (RFC 8017 §A.1.2) and `ECPrivateKey` (RFC 5915 §3). Files written before PKCS#8
//! ("traditional" `RSA PRIVATE KEY` and `EC PRIVATE KEY`) hold one of them bare;
//! [`wrap_traditional`] puts it in the PKCS#8 envelope that says what it is.

use crate::der::primitives::BitString;
use crate::der::{oid_registry as oids, tag, Context, Error, Reader, Result, Writer};

/// RFC 8017 §A.1.2: `RSAPrivateKey ::= SEQUENCE { version Version, modulus INTEGER,
/// publicExponent INTEGER, privateExponent INTEGER, … }`; the modulus and exponent.
pub fn rsa_public<'a>(mut r: Reader<'a>) -> Result<(&'a [u8], &'a [u8])> {
    let mut s = r.read_sequence().at("privateKey.RSAPrivateKey")?;
    s.read_u64().at("privateKey.RSAPrivateKey.version")?;
    let n = s.read_integer().at("privateKey.RSAPrivateKey.modulus")?;
    let e = s
        .read_integer()
        .at("privateKey.RSAPrivateKey.publicExponent")?;
    Ok((n, e))
}

/// The parts of an `ECPrivateKey` a description needs:
///
/// ```asn1
/// ECPrivateKey ::= SEQUENCE {
///   version        INTEGER { ecPrivkeyVer1(1) } (ecPrivkeyVer1),
///   privateKey     OCTET STRING,
///   parameters [0] ECParameters {{ NamedCurve }} OPTIONAL,
///   publicKey  [1] BIT STRING OPTIONAL
/// }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct EcPrivateKey<'a> {
    /// The private key octets: the scalar, as long as the curve's order.
    pub private_key: &'a [u8],
    /// The `[0]` ECParameters content, when present.
    pub parameters: Option<&'a [u8]>,
    /// The `[1]` public key point, when present.
    pub public_key: Option<BitString<'a>>,
}

impl<'a> EcPrivateKey<'a> {
    /// Read the whole of `r` as one `ECPrivateKey`.
    pub fn read(mut r: Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence().at("privateKey.ECPrivateKey")?;
        r.finish().at("privateKey")?;
        let at = s.offset();
        let v = s.read_u64().at("privateKey.ECPrivateKey.version")?;
        if v != 1 {
            return Err(
                Error::invalid(at, format!("expected ecPrivkeyVer1 (1), found {v}"))
                    .at("privateKey.ECPrivateKey.version"),
            );
        }
        let d = s
            .read_octet_string()
            .at("privateKey.ECPrivateKey.privateKey")?;
        let parameters = s.read_optional(tag::explicit(0))?.map(|tlv| tlv.content);
        let public_key = match s.read_optional(tag::explicit(1))? {
            Some(tlv) => {
                let mut b = s.with_base(tlv.content, tlv.content_offset());
                let bits = b
                    .read_bit_string()
                    .at("privateKey.ECPrivateKey.publicKey")?;
                b.finish().at("privateKey.ECPrivateKey.publicKey")?;
                Some(bits)
            }
            None => None,
        };
        s.finish().at("privateKey.ECPrivateKey")?;
        Ok(EcPrivateKey {
            private_key: d,
            parameters,
            public_key,
        })
    }
}

/// A bare `RSAPrivateKey`, or an `ECPrivateKey` that names its curve, as PKCS#8 v1
/// (`rsaEncryption` with NULL parameters, RFC 8017 §A.1; `id-ecPublicKey` with the
/// named curve, RFC 5480 §2.1.1). `None` for anything else.
pub fn wrap_traditional(der: &[u8]) -> Option<Vec<u8>> {
    let mut algorithm = Writer::new();
    if let Ok(ec) = EcPrivateKey::read(Reader::new(der)) {
        let params = ec.parameters?;
        let mut p = Reader::new(params);
        p.read_oid().ok()?;
        p.finish().ok()?;
        algorithm.sequence(|w| {
            w.oid(&oids::EC_PUBLIC_KEY);
            w.raw(params);
        });
    } else if is_rsa_private_key(der) {
        algorithm.sequence(|w| {
            w.oid(&oids::RSA_ENCRYPTION);
            w.null();
        });
    } else {
        return None;
    }
    let mut w = Writer::with_capacity(der.len() + 32);
    w.sequence(|w| {
        w.integer_u64(0);
        w.raw(algorithm.as_bytes());
        w.octet_string(der);
    });
    Some(w.finish())
}

/// Shaped like OpenSSL's traditional `DSAPrivateKey` (version 0, p, q, g, y, x): a key of
/// an algorithm pkit does not sign with, to be refused as such rather than as malformed.
pub fn is_dsa_private_key(der: &[u8]) -> bool {
    let mut r = Reader::new(der);
    let Ok(mut s) = r.read_sequence() else {
        return false;
    };
    r.finish().is_ok() && (0..6).all(|_| s.read_integer().is_ok()) && s.finish().is_ok()
}

/// Shaped like an `RSAPrivateKey`: version, modulus, both exponents, two primes, two
/// CRT exponents and the coefficient, nine INTEGERs (more only for multi-prime keys).
fn is_rsa_private_key(der: &[u8]) -> bool {
    let mut r = Reader::new(der);
    let Ok(mut s) = r.read_sequence() else {
        return false;
    };
    r.finish().is_ok() && (0..9).all(|_| s.read_integer().is_ok())
}
