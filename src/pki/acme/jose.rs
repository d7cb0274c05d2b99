//! The JOSE that ACME speaks (RFC 8555 §6.2): a flattened JWS whose protected header
//! names its algorithm, its key (`jwk`, for new accounts and revocation by certificate
//! key) or its account (`kid`), the nonce and the URL; JWKs (RFC 7517/7518/8037) turned
//! into the SubjectPublicKeyInfo pkit's OpenSSL backend verifies with, and their
//! thumbprints (RFC 7638) for key authorizations.
//!
//! Why written here: the JOSE crates either bring their own cryptography (an `openssl`
//! link beside the OpenSSL 3.5 pkit builds, or `ring` for compact JWTs only) or parse
//! JWKs into types pkit would still have to turn into DER. What ACME needs of JOSE is
//! three base64url fields, one JSON header and four key shapes; the signatures are
//! verified by the backend every other pkit signature goes through.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use pkit_der::oid_registry as oids;
use pkit_der::Writer;
use pkit_x509::alg::SignatureScheme;
use pkit_x509::backend::Backend;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// Base64url without padding (RFC 8555 §6.1 forbids the padding).
pub(crate) fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decode base64url; padding or other alphabets are refused, as the RFC wants.
pub(crate) fn unb64(s: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(s).ok()
}

/// Why a JWS was refused: the ACME error type and its detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoseError {
    /// `malformed`, `badSignatureAlgorithm`, `badPublicKey`, `unauthorized`.
    pub kind: &'static str,
    /// What was wrong, for the client.
    pub detail: String,
}

fn err(kind: &'static str, detail: impl Into<String>) -> JoseError {
    JoseError {
        kind,
        detail: detail.into(),
    }
}

/// A public key as a JWK describes it, with its SPKI for verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jwk {
    /// The JWK's members as sent.
    pub json: Map<String, Value>,
    /// The SubjectPublicKeyInfo DER.
    pub spki: Vec<u8>,
    /// RFC 7638 thumbprint, base64url.
    pub thumbprint: String,
}

fn member<'a>(jwk: &'a Map<String, Value>, name: &str) -> Result<&'a str, JoseError> {
    jwk.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| err("badPublicKey", format!("the JWK has no \"{name}\"")))
}

/// An RSA public exponent a verifier can afford: odd, 3 ≤ e ≤ 2^32 + 1 (what keys use:
/// 65537 nearly always, 3 now and then).
fn rsa_exponent_fits(e: &[u8]) -> bool {
    let e: Vec<u8> = e.iter().copied().skip_while(|b| *b == 0).collect();
    if e.len() > 8 {
        return false;
    }
    let mut value = [0u8; 8];
    value[8 - e.len()..].copy_from_slice(&e);
    let v = u64::from_be_bytes(value);
    v % 2 == 1 && (3..=(1 << 32) + 1).contains(&v)
}

fn member_bytes(jwk: &Map<String, Value>, name: &str) -> Result<Vec<u8>, JoseError> {
    unb64(member(jwk, name)?).ok_or_else(|| {
        err(
            "badPublicKey",
            format!("the JWK's \"{name}\" is not base64url"),
        )
    })
}

impl Jwk {
    /// Read a JWK: EC P-256 and P-384, RSA (2048 bits and more) and OKP Ed25519.
    pub fn from_json(v: &Value) -> Result<Jwk, JoseError> {
        let jwk = v
            .as_object()
            .ok_or_else(|| err("malformed", "\"jwk\" is not a JSON object"))?;
        let kty = member(jwk, "kty")?;
        let mut w = Writer::new();
        // The members RFC 7638 §3.2 hashes, in lexicographic order.
        let required: &[&str] = match kty {
            "EC" => {
                let (curve, len) = match member(jwk, "crv")? {
                    "P-256" => (oids::SECP256R1, 32),
                    "P-384" => (oids::SECP384R1, 48),
                    other => {
                        return Err(err(
                            "badPublicKey",
                            format!("curve {other} is not accepted"),
                        ))
                    }
                };
                let (x, y) = (member_bytes(jwk, "x")?, member_bytes(jwk, "y")?);
                if x.len() != len || y.len() != len {
                    return Err(err(
                        "badPublicKey",
                        "the EC point's coordinates have the wrong length",
                    ));
                }
                let mut point = vec![4u8];
                point.extend_from_slice(&x);
                point.extend_from_slice(&y);
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::EC_PUBLIC_KEY);
                        w.oid(&curve);
                    });
                    w.bit_string(&point);
                });
                &["crv", "kty", "x", "y"]
            }
            "RSA" => {
                let (n, e) = (member_bytes(jwk, "n")?, member_bytes(jwk, "e")?);
                // The writer drops leading zero octets; so does the size that counts.
                let octets = n.iter().skip_while(|b| **b == 0).count();
                // Bounded above too: every request is verified under the key a client
                // chose, and a 16,384-bit modulus or an exponent of thousands of bits
                // costs 15 to 20 times an ES256 verification.
                if !(256..=1024).contains(&octets) {
                    return Err(err(
                        "badPublicKey",
                        format!("an RSA key of {} bits; from 2048 to 8192 bits", octets * 8),
                    ));
                }
                if !rsa_exponent_fits(&e) {
                    return Err(err(
                        "badPublicKey",
                        "the RSA public exponent must be odd, from 3 to 2^32 + 1",
                    ));
                }
                let mut key = Writer::new();
                key.sequence(|w| {
                    w.integer_unsigned(&n);
                    w.integer_unsigned(&e);
                });
                let key = key.finish();
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::RSA_ENCRYPTION);
                        w.null();
                    });
                    w.bit_string(&key);
                });
                &["e", "kty", "n"]
            }
            "OKP" => {
                if member(jwk, "crv")? != "Ed25519" {
                    return Err(err(
                        "badPublicKey",
                        "of the OKP curves only Ed25519 is accepted",
                    ));
                }
                let x = member_bytes(jwk, "x")?;
                if x.len() != 32 {
                    return Err(err("badPublicKey", "an Ed25519 key is 32 bytes"));
                }
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::ED25519);
                    });
                    w.bit_string(&x);
                });
                &["crv", "kty", "x"]
            }
            other => {
                return Err(err(
                    "badPublicKey",
                    format!("key type {other} is not accepted"),
                ))
            }
        };
        let mut canonical = Map::new();
        for name in required {
            canonical.insert((*name).to_string(), jwk[*name].clone());
        }
        let text = Value::Object(canonical).to_string();
        Ok(Jwk {
            json: jwk.clone(),
            spki: w.finish(),
            thumbprint: b64(&Sha256::digest(text.as_bytes())),
        })
    }

    /// The key authorization of a challenge token (RFC 8555 §8.1).
    pub fn key_authorization(&self, token: &str) -> String {
        format!("{token}.{}", self.thumbprint)
    }
}

/// Who signed: a new key, or an account by its URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Signer {
    Jwk(Jwk),
    Kid(String),
}

/// A flattened JWS, parsed but not yet verified.
#[derive(Debug, Clone)]
pub(crate) struct Jws {
    pub alg: String,
    pub signer: Signer,
    pub nonce: Option<String>,
    pub url: String,
    /// The payload bytes (empty for POST-as-GET).
    pub payload: Vec<u8>,
    signing_input: Vec<u8>,
    signature: Vec<u8>,
}

impl Jws {
    /// Read a flattened JWS (RFC 7515 §7.2.2) from a request body.
    pub(crate) fn parse(body: &[u8]) -> Result<Jws, JoseError> {
        let v: Value = serde_json::from_slice(body)
            .map_err(|e| err("malformed", format!("the body is not JSON: {e}")))?;
        Self::from_value(&v)
    }

    /// Read a flattened JWS already parsed as JSON (an inner JWS).
    pub(crate) fn from_value(v: &Value) -> Result<Jws, JoseError> {
        let field = |name: &str| {
            v.get(name)
                .and_then(Value::as_str)
                .ok_or_else(|| err("malformed", format!("the JWS has no \"{name}\" string")))
        };
        let (protected, payload, signature) =
            (field("protected")?, field("payload")?, field("signature")?);
        if v.get("header").is_some() {
            return Err(err("malformed", "an unprotected header is not allowed"));
        }
        let header_bytes =
            unb64(protected).ok_or_else(|| err("malformed", "\"protected\" is not base64url"))?;
        let header: Map<String, Value> = serde_json::from_slice(&header_bytes)
            .map_err(|_| err("malformed", "the protected header is not a JSON object"))?;
        let alg = header
            .get("alg")
            .and_then(Value::as_str)
            .ok_or_else(|| err("malformed", "the protected header has no \"alg\""))?
            .to_string();
        let signer = match (header.get("jwk"), header.get("kid")) {
            (Some(j), None) => Signer::Jwk(Jwk::from_json(j)?),
            (None, Some(k)) => Signer::Kid(
                k.as_str()
                    .ok_or_else(|| err("malformed", "\"kid\" is not a string"))?
                    .to_string(),
            ),
            _ => {
                return Err(err(
                    "malformed",
                    "the protected header needs exactly one of \"jwk\" and \"kid\"",
                ))
            }
        };
        let url = header
            .get("url")
            .and_then(Value::as_str)
            .ok_or_else(|| err("malformed", "the protected header has no \"url\""))?
            .to_string();
        let nonce = header
            .get("nonce")
            .and_then(Value::as_str)
            .map(str::to_string);
        Ok(Jws {
            alg,
            signer,
            nonce,
            url,
            payload: unb64(payload)
                .ok_or_else(|| err("malformed", "\"payload\" is not base64url"))?,
            signing_input: format!("{protected}.{payload}").into_bytes(),
            signature: unb64(signature)
                .ok_or_else(|| err("malformed", "\"signature\" is not base64url"))?,
        })
    }

    /// The payload as JSON; `None` for POST-as-GET's empty payload.
    pub(crate) fn json(&self) -> Result<Option<Value>, JoseError> {
        if self.payload.is_empty() {
            return Ok(None);
        }
        serde_json::from_slice(&self.payload)
            .map(Some)
            .map_err(|e| err("malformed", format!("the payload is not JSON: {e}")))
    }

    /// Verify the signature with `spki` (DER): `badSignatureAlgorithm` for an algorithm
    /// pkit does not take, `malformed` for a signature that does not verify (as Boulder
    /// answers).
    pub(crate) fn verify(&self, backend: &Backend, spki: &[u8]) -> Result<(), JoseError> {
        // RFC 7518 §3.4 and RFC 8037: each algorithm is for one kind of key (ES384 over a
        // P-256 key would verify in OpenSSL, and is not a JWS).
        let info = pkit_x509::spki::Spki::from_der(spki)
            .ok()
            .and_then(|k| k.key_info().ok());
        let kind = info
            .as_ref()
            .map(|i| (i.family.as_str(), i.parameters.as_deref()));
        let fits = matches!(
            (self.alg.as_str(), kind),
            ("ES256", Some(("EC", Some("P-256"))))
                | ("ES384", Some(("EC", Some("P-384"))))
                | ("RS256", Some(("RSA", _)))
                | ("EdDSA", Some(("Ed25519", _)))
        );
        let known = matches!(self.alg.as_str(), "ES256" | "ES384" | "RS256" | "EdDSA");
        if known && !fits {
            return Err(err(
                "badSignatureAlgorithm",
                format!("{} is not the algorithm of this key", self.alg),
            ));
        }
        let (scheme, sig) = match self.alg.as_str() {
            "ES256" => (
                SignatureScheme::EcdsaSha256,
                ecdsa_der(&self.signature, 32)?,
            ),
            "ES384" => (
                SignatureScheme::EcdsaSha384,
                ecdsa_der(&self.signature, 48)?,
            ),
            "RS256" => (SignatureScheme::RsaPkcs1Sha256, self.signature.clone()),
            "EdDSA" => (SignatureScheme::Ed25519, self.signature.clone()),
            other => {
                return Err(err(
                    "badSignatureAlgorithm",
                    format!("{other} is not accepted: ES256, ES384, RS256 or EdDSA"),
                ))
            }
        };
        match backend.verify(spki, scheme, &self.signing_input, &sig) {
            Ok(true) => Ok(()),
            Ok(false) | Err(_) => Err(err("malformed", "the JWS signature does not verify")),
        }
    }
}

impl Jws {
    /// Whether an HS256 MAC (an external account binding's) verifies with `key`.
    pub(crate) fn mac_verifies(&self, key: &[u8]) -> bool {
        use hmac::{KeyInit, Mac};
        let Ok(mut mac) = hmac::Hmac::<Sha256>::new_from_slice(key) else {
            return false;
        };
        mac.update(&self.signing_input);
        mac.verify_slice(&self.signature).is_ok()
    }
}

/// JWS ECDSA signatures are r‖s of fixed width (RFC 7518 §3.4); OpenSSL wants DER.
fn ecdsa_der(sig: &[u8], width: usize) -> Result<Vec<u8>, JoseError> {
    if sig.len() != 2 * width {
        return Err(err("malformed", "the ECDSA signature has the wrong length"));
    }
    let mut w = Writer::new();
    w.sequence(|w| {
        w.integer_unsigned(&sig[..width]);
        w.integer_unsigned(&sig[width..]);
    });
    Ok(w.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn thumbprint_of_rfc7638_example() {
        // RFC 7638 §3.1's RSA key and thumbprint.
        let jwk = json!({
            "kty": "RSA",
            "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
            "e": "AQAB",
            "alg": "RS256",
            "kid": "2011-04-29"
        });
        let k = Jwk::from_json(&jwk).unwrap();
        assert_eq!(k.thumbprint, "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
        assert_eq!(
            k.key_authorization("tok"),
            "tok.NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
        );
        assert!(pkit_x509::spki::Spki::from_der(&k.spki).is_ok());
    }

    #[test]
    fn an_algorithm_must_fit_its_key() {
        // RFC 7638's RSA key with a JWS that claims ES256.
        let jwk = json!({
            "kty": "EC", "crv": "P-256",
            "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
            "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM",
        });
        let k = Jwk::from_json(&jwk).unwrap();
        let header = b64(
            json!({"alg": "ES384", "jwk": jwk, "url": "u", "nonce": "n"})
                .to_string()
                .as_bytes(),
        );
        let body = json!({"protected": header, "payload": "", "signature": b64(&[0u8; 96])});
        let jws = Jws::from_value(&body).unwrap();
        let e = jws.verify(pkit_openssl::backend(), &k.spki).unwrap_err();
        assert_eq!(e.kind, "badSignatureAlgorithm");
    }

    #[test]
    fn bad_jws_and_keys_are_refused() {
        assert_eq!(Jws::parse(b"{").unwrap_err().kind, "malformed");
        assert_eq!(
            Jws::parse(b"{\"protected\":\"e30\",\"payload\":\"\",\"signature\":\"\"}")
                .unwrap_err()
                .kind,
            "malformed"
        );
        let e = Jwk::from_json(&json!({"kty": "EC", "crv": "P-192", "x": "AA", "y": "AA"}))
            .unwrap_err();
        assert_eq!(e.kind, "badPublicKey");
        let e = Jwk::from_json(&json!({"kty": "oct", "k": "AA"})).unwrap_err();
        assert_eq!(e.kind, "badPublicKey");
        assert!(unb64("a+b/").is_none());
        assert!(ecdsa_der(&[1; 63], 32).is_err());
    }

    /// RSA account keys from 2048 to 8192 bits with an exponent a verifier can afford:
    /// a larger modulus, or an exponent of thousands of bits, would make each request's
    /// verification cost many times an ES256 one.
    #[test]
    fn rsa_keys_are_bounded_both_ways() {
        let rsa = |bits: usize, e: &[u8]| {
            let mut n = vec![0xc5; bits / 8];
            n[bits / 8 - 1] |= 1;
            Jwk::from_json(&json!({"kty": "RSA", "n": b64(&n), "e": b64(e)}))
        };
        for bits in [2048, 3072, 4096, 8192] {
            assert!(rsa(bits, &[1, 0, 1]).is_ok(), "{bits}");
        }
        for bits in [1024, 2040, 8200, 16384] {
            assert_eq!(
                rsa(bits, &[1, 0, 1]).unwrap_err().kind,
                "badPublicKey",
                "{bits}"
            );
        }
        assert!(rsa(2048, &[3]).is_ok());
        assert!(
            rsa(2048, &[0, 0, 1, 0, 0, 0, 1]).is_ok(),
            "2^32 + 1, leading zeros"
        );
        for e in [&[1][..], &[2], &[1, 0, 0], &[1, 0, 0, 0, 3], &[0xff; 256]] {
            assert_eq!(rsa(2048, e).unwrap_err().kind, "badPublicKey", "{e:?}");
        }
    }
}
