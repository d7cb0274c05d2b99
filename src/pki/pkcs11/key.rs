//! A private key held in a token: generated there (sensitive, never extractable) or
//! found by its URI, and signing through per-thread sessions. The key's handle is valid
//! in every session of this process, so a thread's signer needs no lookup of its own.

use super::token::{failed, Token};
use super::uri::KeyUri;
use cryptoki::mechanism::eddsa::{EddsaParams, EddsaSignatureScheme};
use cryptoki::mechanism::{Mechanism, MechanismType};
use cryptoki::object::{Attribute, AttributeType, KeyType, ObjectClass, ObjectHandle};
use cryptoki::session::Session;
use pkit_x509::alg::{Algorithm, Digest, SignatureScheme};
use pkit_x509::backend::{BackendError, PrivateKey, Result, Signer};
use pkit_x509::key::ml_dsa::MlDsaKeyFormat;
use pkit_x509::key::public::{curve_oid, ec_field_len, ecdsa_raw_to_der, PublicParts};
use sha2::Digest as _;
use std::sync::{Arc, Mutex};

/// A private key object in a token, with its algorithm and public key: a
/// [`PrivateKey`] whose signatures the token makes.
pub struct TokenKey {
    token: Arc<Token>,
    handle: ObjectHandle,
    alg: Algorithm,
    spki: Vec<u8>,
    /// The key as messages name it: its URI without the PIN.
    name: String,
    /// For a session key (one made for a benchmark), the session that created it: its
    /// objects live as long as that session.
    _owner: Option<Mutex<Session>>,
}

impl std::fmt::Debug for TokenKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TokenKey({} {})", self.alg, self.name)
    }
}

/// How a token key of `alg` signs: the mechanism, and the digest pkit applies first
/// (CKM_ECDSA signs a hash; SoftHSM2 has no hashing ECDSA mechanism).
fn sign_mechanism(alg: Algorithm) -> Result<(Mechanism<'static>, Option<Prehash>)> {
    Ok(match alg {
        Algorithm::EcdsaP256 => (Mechanism::Ecdsa, Some(sha256)),
        Algorithm::EcdsaP384 => (Mechanism::Ecdsa, Some(sha384)),
        Algorithm::Ed25519 => (
            Mechanism::Eddsa(EddsaParams::new(EddsaSignatureScheme::Pure)),
            None,
        ),
        Algorithm::Rsa2048 | Algorithm::Rsa3072 | Algorithm::Rsa4096 => {
            (Mechanism::Sha256RsaPkcs, None)
        }
        a => {
            return Err(BackendError::Unsupported(format!(
                "{a} keys in PKCS#11 tokens need the PKCS#11 3.2 ML-DSA mechanisms, which \
                 pkit does not drive yet"
            )))
        }
    })
}

/// CKA_EC_PARAMS for a named curve (or Ed25519): the OID's DER.
pub(super) fn ec_params(oid: pkit_x509::der::Oid) -> Vec<u8> {
    let mut w = pkit_x509::der::Writer::new();
    w.oid(&oid);
    w.finish()
}

/// The key-pair generation mechanism and the public template's algorithm attributes.
fn keygen(alg: Algorithm) -> Result<(Mechanism<'static>, Vec<Attribute>)> {
    Ok(match alg {
        Algorithm::EcdsaP256 | Algorithm::EcdsaP384 => (
            Mechanism::EccKeyPairGen,
            vec![Attribute::EcParams(ec_params(curve_oid(alg)))],
        ),
        Algorithm::Ed25519 => (
            Mechanism::EccEdwardsKeyPairGen,
            vec![Attribute::EcParams(ec_params(
                pkit_x509::der::oid_registry::ED25519,
            ))],
        ),
        Algorithm::Rsa2048 | Algorithm::Rsa3072 | Algorithm::Rsa4096 => (
            Mechanism::RsaPkcsKeyPairGen,
            vec![
                Attribute::ModulusBits(u64::from(alg.rsa_bits().unwrap_or(2048)).into()),
                Attribute::PublicExponent(vec![0x01, 0x00, 0x01]),
            ],
        ),
        a => {
            return Err(BackendError::Unsupported(format!(
                "{a} keys in PKCS#11 tokens need CKM_ML_DSA_KEY_PAIR_GEN (PKCS#11 3.2), which \
                 pkit does not drive yet"
            )))
        }
    })
}

/// What a new key is called in the token.
pub struct NewKey<'a> {
    /// CKA_LABEL for both halves of the pair, if any.
    pub label: Option<&'a str>,
    /// CKA_ID for both halves of the pair, if any.
    pub id: Option<&'a [u8]>,
    /// A token object (kept) or a session object (gone with the session).
    pub persist: bool,
}

impl TokenKey {
    /// Generate an `alg` key pair in `token`: private half sensitive and never
    /// extractable, both halves labelled and given one CKA_ID (the SHA-1 of the public
    /// value when none is asked for, as NSS and OpenSC do).
    pub fn generate(
        token: Arc<Token>,
        alg: Algorithm,
        new: &NewKey<'_>,
        soft: &pkit_x509::backend::Backend,
    ) -> Result<TokenKey> {
        let (mechanism, mut public) = keygen(alg)?;
        token.require(mechanism.mechanism_type(), &format!("{alg} key generation"))?;
        token.require(
            sign_mechanism(alg)?.0.mechanism_type(),
            &format!("{alg} signing"),
        )?;
        let mut private = vec![
            Attribute::Token(new.persist),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(false),
            Attribute::Sign(true),
            // A signing key only: modules default some of these to true.
            Attribute::Decrypt(false),
            Attribute::Unwrap(false),
            Attribute::Derive(false),
        ];
        public.extend([
            Attribute::Token(new.persist),
            Attribute::Verify(true),
            Attribute::Encrypt(false),
            Attribute::Wrap(false),
        ]);
        for t in [&mut private, &mut public] {
            if let Some(l) = new.label {
                t.push(Attribute::Label(l.as_bytes().to_vec()));
            }
            if let Some(id) = new.id {
                t.push(Attribute::Id(id.to_vec()));
            }
        }
        let session = token.session()?;
        let (pub_handle, handle) = session
            .generate_key_pair(&mechanism, &public, &private)
            .map_err(|e| failed(&token.module, "C_GenerateKeyPair", &e))?;
        let parts = public_parts(&token, &session, alg, handle, Some(pub_handle))?;
        if new.id.is_none() {
            // Both halves get the CKA_ID or neither does (a module may refuse it): the
            // public half is found again by the private half's ID and label.
            let id = soft.digest(Digest::Sha1, public_value(&parts));
            if session
                .update_attributes(pub_handle, &[Attribute::Id(id.clone())])
                .is_ok()
                && session
                    .update_attributes(handle, &[Attribute::Id(id)])
                    .is_err()
            {
                let _ = session.update_attributes(pub_handle, &[Attribute::Id(Vec::new())]);
            }
        }
        let name = format!(
            "{alg} key {} in token {}",
            new.label.unwrap_or("(unlabelled)"),
            token.label
        );
        Ok(TokenKey {
            spki: parts.to_spki(),
            token,
            handle,
            alg,
            name,
            // A token object outlives its session; a session object needs it kept.
            _owner: (!new.persist).then_some(Mutex::new(session)),
        })
    }

    /// The private key `uri` names (object and/or id; type private if given).
    pub fn find(token: Arc<Token>, uri: &KeyUri) -> Result<TokenKey> {
        let shown = uri.without_pin().to_string();
        if uri.object_type.as_deref().is_some_and(|t| t != "private") {
            return Err(BackendError::Usage(format!(
                "{shown}: names a {} object; a signing key is type=private",
                uri.object_type.as_deref().unwrap_or("")
            )));
        }
        let mut template = vec![Attribute::Class(ObjectClass::PRIVATE_KEY)];
        if let Some(l) = &uri.object {
            template.push(Attribute::Label(l.as_bytes().to_vec()));
        }
        if let Some(id) = &uri.id {
            template.push(Attribute::Id(id.clone()));
        }
        let session = token.session()?;
        let found = session
            .find_objects(&template)
            .map_err(|e| failed(&token.module, "C_FindObjects", &e))?;
        let handle = match found.as_slice() {
            [h] => *h,
            [] => {
                return Err(BackendError::Unavailable(format!(
                    "{shown}: no private key in token {} matches",
                    token.label
                )))
            }
            many => {
                return Err(BackendError::Usage(format!(
                    "{shown}: {} private keys in token {} match; name one with object= or id=",
                    many.len(),
                    token.label
                )))
            }
        };
        let alg = key_algorithm(&token, &session, handle)?;
        let parts = public_parts(&token, &session, alg, handle, None)?;
        let alg = parts.algorithm()?;
        Ok(TokenKey {
            spki: parts.to_spki(),
            token,
            handle,
            alg,
            name: shown,
            _owner: None,
        })
    }

    /// The attributes that say the key cannot leave the token.
    pub fn protection(&self) -> Result<KeyProtection> {
        let session = self.token.session()?;
        let attrs = session
            .get_attributes(
                self.handle,
                &[
                    AttributeType::Sensitive,
                    AttributeType::Extractable,
                    AttributeType::NeverExtractable,
                    AttributeType::AlwaysSensitive,
                ],
            )
            .map_err(|e| failed(&self.token.module, "C_GetAttributeValue", &e))?;
        let mut p = KeyProtection::default();
        for a in attrs {
            match a {
                Attribute::Sensitive(v) => p.sensitive = v,
                Attribute::Extractable(v) => p.extractable = v,
                Attribute::NeverExtractable(v) => p.never_extractable = v,
                Attribute::AlwaysSensitive(v) => p.always_sensitive = v,
                _ => {}
            }
        }
        Ok(p)
    }

    /// The token that holds the key.
    pub fn token(&self) -> &Arc<Token> {
        &self.token
    }
}

/// CKA_SENSITIVE, CKA_EXTRACTABLE, CKA_NEVER_EXTRACTABLE, CKA_ALWAYS_SENSITIVE.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct KeyProtection {
    /// CKA_SENSITIVE: the key's value is never revealed in plain form.
    pub sensitive: bool,
    /// CKA_EXTRACTABLE: the key may leave the token wrapped under another key.
    pub extractable: bool,
    /// CKA_NEVER_EXTRACTABLE: the key has never been extractable.
    pub never_extractable: bool,
    /// CKA_ALWAYS_SENSITIVE: the key has been sensitive since it was made.
    pub always_sensitive: bool,
}

/// Which of pkit's algorithms the private key object is (RSA's size from its modulus,
/// later).
fn key_algorithm(token: &Token, session: &Session, handle: ObjectHandle) -> Result<Algorithm> {
    let attrs = session
        .get_attributes(handle, &[AttributeType::KeyType, AttributeType::EcParams])
        .map_err(|e| failed(&token.module, "C_GetAttributeValue", &e))?;
    let mut key_type = None;
    let mut params = None;
    for a in attrs {
        match a {
            Attribute::KeyType(t) => key_type = Some(t),
            Attribute::EcParams(p) => params = Some(p),
            _ => {}
        }
    }
    let oid_is = |oid: pkit_x509::der::Oid| params.as_deref() == Some(ec_params(oid).as_slice());
    use pkit_x509::der::oid_registry as oids;
    match key_type {
        Some(KeyType::RSA) => Ok(Algorithm::Rsa2048),
        Some(KeyType::EC) if oid_is(oids::SECP256R1) => Ok(Algorithm::EcdsaP256),
        Some(KeyType::EC) if oid_is(oids::SECP384R1) => Ok(Algorithm::EcdsaP384),
        Some(KeyType::EC_EDWARDS) if oid_is(oids::ED25519) => Ok(Algorithm::Ed25519),
        Some(KeyType::EC_EDWARDS)
            if params
                .as_deref()
                .is_some_and(|p| p.ends_with(b"edwards25519")) =>
        {
            Ok(Algorithm::Ed25519)
        }
        Some(t) => Err(BackendError::Unsupported(format!(
            "token {}: a {t} key, which is none of pkit's algorithms",
            token.label
        ))),
        None => Err(BackendError::BadKey(format!(
            "token {}: the key object has no CKA_KEY_TYPE",
            token.label
        ))),
    }
}

/// The public half of a key: RSA's modulus and exponent from the private object, an EC
/// point from the public object (found by the private key's CKA_ID when not given).
fn public_parts(
    token: &Token,
    session: &Session,
    alg: Algorithm,
    private: ObjectHandle,
    public: Option<ObjectHandle>,
) -> Result<PublicParts> {
    let get = |h: ObjectHandle, t: &[AttributeType]| {
        session
            .get_attributes(h, t)
            .map_err(|e| failed(&token.module, "C_GetAttributeValue", &e))
    };
    if alg.is_rsa() {
        let mut n = None;
        let mut e = None;
        for a in get(
            private,
            &[AttributeType::Modulus, AttributeType::PublicExponent],
        )? {
            match a {
                Attribute::Modulus(v) => n = Some(v),
                Attribute::PublicExponent(v) => e = Some(v),
                _ => {}
            }
        }
        let strip = |v: Vec<u8>| {
            let lead = v.iter().take_while(|&&b| b == 0).count();
            v[lead..].to_vec()
        };
        return match (n, e) {
            (Some(n), Some(e)) => Ok(PublicParts::Rsa {
                n: strip(n),
                e: strip(e),
            }),
            _ => Err(BackendError::BadKey(format!(
                "token {}: the RSA key has no readable modulus",
                token.label
            ))),
        };
    }
    let public = match public {
        Some(h) => h,
        None => {
            let mut template = vec![Attribute::Class(ObjectClass::PUBLIC_KEY)];
            for a in get(private, &[AttributeType::Id, AttributeType::Label])? {
                if matches!(a, Attribute::Id(_) | Attribute::Label(_)) {
                    template.push(a);
                }
            }
            let found = session
                .find_objects(&template)
                .map_err(|e| failed(&token.module, "C_FindObjects", &e))?;
            match found.as_slice() {
                [h] => *h,
                [] => {
                    return Err(BackendError::BadKey(format!(
                        "token {}: the key's public half is not in the token (no public key \
                         object with its CKA_ID and label)",
                        token.label
                    )))
                }
                // Taking one of several could put another key into a certificate.
                many => {
                    return Err(BackendError::Usage(format!(
                        "token {}: {} public key objects have this key's CKA_ID and label; \
                         remove the stale ones",
                        token.label,
                        many.len()
                    )))
                }
            }
        }
    };
    let point = get(public, &[AttributeType::EcPoint])?
        .into_iter()
        .find_map(|a| match a {
            Attribute::EcPoint(p) => Some(p),
            _ => None,
        })
        .ok_or_else(|| {
            BackendError::BadKey(format!(
                "token {}: the public key has no CKA_EC_POINT",
                token.label
            ))
        })?;
    let raw_len = match alg {
        Algorithm::Ed25519 => 32,
        a => 1 + 2 * ec_field_len(a),
    };
    // CKA_EC_POINT is a DER OCTET STRING (PKCS#11 2.40); some modules hand back the
    // bare point. The lengths tell which.
    let point = match point.len() {
        n if n == raw_len => point,
        n if n == raw_len + 2 && point[0] == 0x04 && usize::from(point[1]) == raw_len => {
            point[2..].to_vec()
        }
        n => {
            return Err(BackendError::BadKey(format!(
                "token {}: CKA_EC_POINT of {n} bytes is no {alg} public key",
                token.label
            )))
        }
    };
    Ok(match alg {
        Algorithm::Ed25519 => PublicParts::Ed25519(point),
        _ => PublicParts::Ec { alg, point },
    })
}

/// What the CKA_ID convention of NSS and OpenSC hashes (with SHA-1): the EC point, or
/// the RSA modulus.
fn public_value(parts: &PublicParts) -> &[u8] {
    match parts {
        PublicParts::Ec { point, .. } | PublicParts::Ed25519(point) => point,
        PublicParts::Rsa { n, .. } => n,
    }
}

impl PrivateKey for TokenKey {
    fn algorithm(&self) -> Algorithm {
        self.alg
    }

    fn public_key_der(&self) -> Result<Vec<u8>> {
        Ok(self.spki.clone())
    }

    fn to_pkcs8_der(&self, _format: MlDsaKeyFormat) -> Result<Vec<u8>> {
        Err(BackendError::Unsupported(format!(
            "{}: a key in a PKCS#11 token cannot be exported",
            self.name
        )))
    }

    fn signer(&self) -> Result<Box<dyn Signer>> {
        let (mechanism, prehash) = sign_mechanism(self.alg)?;
        self.token
            .require(mechanism.mechanism_type(), &format!("{} signing", self.alg))?;
        drop(mechanism);
        Ok(Box::new(TokenSigner {
            session: self.token.session()?,
            handle: self.handle,
            alg: self.alg,
            prehash,
            scheme: self.alg.default_scheme(),
            ecdsa: matches!(self.alg, Algorithm::EcdsaP256 | Algorithm::EcdsaP384),
            module: self.token.module.clone(),
        }))
    }
}

/// One thread's signing session. The mechanism is made per signature from `alg`:
/// cryptoki's `Mechanism` holds raw parameter pointers and may not cross threads.
struct TokenSigner {
    session: Session,
    handle: ObjectHandle,
    alg: Algorithm,
    prehash: Option<Prehash>,
    scheme: SignatureScheme,
    ecdsa: bool,
    module: String,
}

impl Signer for TokenSigner {
    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }

    fn sign(&mut self, message: &[u8]) -> Result<Vec<u8>> {
        let hashed;
        let data = match self.prehash {
            Some(hash) => {
                hashed = hash(message);
                &hashed[..]
            }
            None => message,
        };
        let (mechanism, _) = sign_mechanism(self.alg)?;
        let sig = self
            .session
            .sign(&mechanism, self.handle, data)
            .map_err(|e| failed(&self.module, "C_Sign", &e))?;
        if !self.ecdsa {
            return Ok(sig);
        }
        // CKM_ECDSA returns r || s, each as long as the curve's field.
        if sig.len() != 2 * ec_field_len(self.alg) {
            return Err(BackendError::Crypto(format!(
                "PKCS#11 module {}: C_Sign returned {} bytes for a {} signature",
                self.module,
                sig.len(),
                self.alg
            )));
        }
        Ok(ecdsa_raw_to_der(&sig))
    }
}

/// The hash CKM_ECDSA signs, computed here (the token signs the hash).
type Prehash = fn(&[u8]) -> Vec<u8>;

fn sha256(data: &[u8]) -> Vec<u8> {
    sha2::Sha256::digest(data).to_vec()
}

fn sha384(data: &[u8]) -> Vec<u8> {
    sha2::Sha384::digest(data).to_vec()
}

/// The mechanisms an `alg` key needs: generation and signing.
pub(crate) fn mechanisms(alg: Algorithm) -> Result<Vec<MechanismType>> {
    Ok(vec![
        keygen(alg)?.0.mechanism_type(),
        sign_mechanism(alg)?.0.mechanism_type(),
    ])
}
