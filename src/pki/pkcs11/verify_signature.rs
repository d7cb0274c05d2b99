//! `Backend::verify` through the token: C_Verify under a public key object made once per
//! distinct SubjectPublicKeyInfo and kept for the run. Importing the key for every
//! signature is what the seed documents blame for their slowest NSS rows.

use super::key::ec_params;
use super::token::{failed, Token};
use cryptoki::error::{Error, RvError};
use cryptoki::mechanism::eddsa::{EddsaParams, EddsaSignatureScheme};
use cryptoki::mechanism::rsa::{PkcsMgfType, PkcsPssParams};
use cryptoki::mechanism::{Mechanism, MechanismType};
use cryptoki::object::{Attribute, KeyType, ObjectClass, ObjectHandle};
use cryptoki::session::Session;
use pkit_x509::alg::{Digest, SignatureScheme};
use pkit_x509::backend::{Backend, BackendError, Result, VerifyItem};
use pkit_x509::key::public::{curve_oid, ec_field_len, ecdsa_der_to_raw, PublicParts};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A public key the token holds as an object, with its parts.
type Known = (ObjectHandle, Arc<PublicParts>);

/// Signature verification inside a token: each public key is imported once as a
/// session object and kept for the next signature it checks.
pub(crate) struct TokenVerifier {
    token: Arc<Token>,
    /// Idle sessions: a verification takes one and gives it back. They are never closed
    /// before the verifier, because the key objects they created live with them.
    sessions: Mutex<Vec<Session>>,
    keys: Mutex<HashMap<Vec<u8>, Known>>,
}

impl TokenVerifier {
    /// A verifier with no sessions or keys yet.
    pub(crate) fn new(token: Arc<Token>) -> TokenVerifier {
        TokenVerifier {
            token,
            sessions: Mutex::new(Vec::new()),
            keys: Mutex::new(HashMap::new()),
        }
    }

    /// What the token says of `item` (`soft` hashes what the token's mechanism wants
    /// hashed first).
    pub(crate) fn verify(&self, soft: &Backend, item: &VerifyItem<'_>) -> Result<bool> {
        let session = self.take()?;
        let result = self.verify_in(&session, soft, item);
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(session);
        result
    }

    fn verify_in(&self, session: &Session, soft: &Backend, item: &VerifyItem<'_>) -> Result<bool> {
        let (scheme, message, signature) = (item.scheme, item.message, item.signature);
        let (key, parts) = self.key(session, item.spki_der)?;
        let mut sig = Cow::Borrowed(signature);
        let mut data = Cow::Borrowed(message);
        let mechanism = match (scheme, &*parts) {
            (
                SignatureScheme::EcdsaSha1
                | SignatureScheme::EcdsaSha256
                | SignatureScheme::EcdsaSha384
                | SignatureScheme::EcdsaSha512,
                PublicParts::Ec { alg, .. },
            ) => {
                // CKM_ECDSA verifies a hash against raw r || s.
                let Some(raw) = ecdsa_der_to_raw(signature, ec_field_len(*alg)) else {
                    return Ok(false);
                };
                sig = Cow::Owned(raw);
                let d = scheme.digest().unwrap_or(Digest::Sha256);
                data = Cow::Owned(soft.digest(d, message));
                Mechanism::Ecdsa
            }
            (SignatureScheme::Ed25519, PublicParts::Ed25519(_)) => {
                Mechanism::Eddsa(EddsaParams::new(EddsaSignatureScheme::Pure))
            }
            (SignatureScheme::RsaPkcs1Sha1, PublicParts::Rsa { .. }) => Mechanism::Sha1RsaPkcs,
            (SignatureScheme::RsaPkcs1Sha256, PublicParts::Rsa { .. }) => Mechanism::Sha256RsaPkcs,
            (SignatureScheme::RsaPkcs1Sha384, PublicParts::Rsa { .. }) => Mechanism::Sha384RsaPkcs,
            (SignatureScheme::RsaPkcs1Sha512, PublicParts::Rsa { .. }) => Mechanism::Sha512RsaPkcs,
            (SignatureScheme::RsaPss { digest, salt_len }, PublicParts::Rsa { .. }) => {
                type Pss = fn(PkcsPssParams) -> Mechanism<'static>;
                let (hash_alg, mgf, mech): (_, _, Pss) = match digest {
                    Digest::Sha1 => (
                        MechanismType::SHA1,
                        PkcsMgfType::MGF1_SHA1,
                        Mechanism::Sha1RsaPkcsPss,
                    ),
                    Digest::Sha256 => (
                        MechanismType::SHA256,
                        PkcsMgfType::MGF1_SHA256,
                        Mechanism::Sha256RsaPkcsPss,
                    ),
                    Digest::Sha384 => (
                        MechanismType::SHA384,
                        PkcsMgfType::MGF1_SHA384,
                        Mechanism::Sha384RsaPkcsPss,
                    ),
                    Digest::Sha512 => (
                        MechanismType::SHA512,
                        PkcsMgfType::MGF1_SHA512,
                        Mechanism::Sha512RsaPkcsPss,
                    ),
                    // pkit reads no RSASSA-PSS parameters naming SHA-224 (only DSA uses
                    // it), and cryptoki offers no SHA-224 PSS mechanism.
                    Digest::Sha224 => {
                        return Err(BackendError::Unsupported("RSASSA-PSS with SHA-224".into()))
                    }
                };
                mech(PkcsPssParams {
                    hash_alg,
                    mgf,
                    s_len: u64::from(salt_len).into(),
                })
            }
            (SignatureScheme::MlDsa44 | SignatureScheme::MlDsa65 | SignatureScheme::MlDsa87, _) => {
                return Err(BackendError::Unsupported(format!(
                    "ML-DSA verification: PKCS#11 module {} does not offer CKM_ML_DSA",
                    self.token.module
                )))
            }
            // A scheme this key's type cannot make: a signature that does not verify.
            _ => return Ok(false),
        };
        self.token
            .require(mechanism.mechanism_type(), "signature verification")?;
        match session.verify(&mechanism, key, &data, &sig) {
            Ok(()) => Ok(true),
            Err(Error::Pkcs11(RvError::SignatureInvalid | RvError::SignatureLenRange, _)) => {
                Ok(false)
            }
            Err(e) => Err(failed(&self.token.module, "C_Verify", &e)),
        }
    }

    fn take(&self) -> Result<Session> {
        let idle = self
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop();
        match idle {
            Some(s) => Ok(s),
            None => self.token.session(),
        }
    }

    /// The public key object for `spki` and the key's parts: made (in `session`) and
    /// parsed the first time only, as a verification per certificate asks again and again
    /// for the same CA key.
    fn key(&self, session: &Session, spki: &[u8]) -> Result<Known> {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((h, parts)) = keys.get(spki) {
            return Ok((*h, parts.clone()));
        }
        let parts = Arc::new(PublicParts::of_spki(spki)?);
        let mut template = vec![
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::Token(false),
            Attribute::Verify(true),
        ];
        let octets = |p: &[u8]| {
            let mut w = pkit_x509::der::Writer::new();
            w.octet_string(p);
            w.finish()
        };
        match &*parts {
            PublicParts::Ec { alg, point } => template.extend([
                Attribute::KeyType(KeyType::EC),
                Attribute::EcParams(ec_params(curve_oid(*alg))),
                Attribute::EcPoint(octets(point)),
            ]),
            PublicParts::Ed25519(point) => template.extend([
                Attribute::KeyType(KeyType::EC_EDWARDS),
                Attribute::EcParams(ec_params(pkit_x509::der::oid_registry::ED25519)),
                Attribute::EcPoint(octets(point)),
            ]),
            PublicParts::Rsa { n, e } => template.extend([
                Attribute::KeyType(KeyType::RSA),
                Attribute::Modulus(n.clone()),
                Attribute::PublicExponent(e.clone()),
            ]),
        }
        let h = session.create_object(&template).map_err(|e| match e {
            Error::Pkcs11(
                RvError::AttributeValueInvalid
                | RvError::TemplateInconsistent
                | RvError::DomainParamsInvalid
                | RvError::CurveNotSupported,
                _,
            ) => BackendError::BadKey(format!(
                "PKCS#11 module {} cannot take this public key: {e}",
                self.token.module
            )),
            e => failed(&self.token.module, "C_CreateObject", &e),
        })?;
        keys.insert(spki.to_vec(), (h, parts.clone()));
        Ok((h, parts))
    }
}
