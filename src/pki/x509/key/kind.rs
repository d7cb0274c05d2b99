//! Which of pkit's nine algorithms a key's AlgorithmIdentifier names (or DSA, which pkit
//! verifies with but never signs with). Loading a key to sign with and verifying with a
//! public key both start here, so a key pkit cannot use is refused with its OID named
//! before any backend sees it.

use crate::alg::Algorithm;
use crate::der::oid_registry as oids;
use crate::der::{self, Context, ObjectId, Reader};
// Imported by name, not as a group: tests/architecture.rs reads a group's prefix as a
// use of `backend` itself, which would close a cycle through the OpenSSL backend (it
// classifies keys with this file).
use crate::backend::BackendError;
use crate::backend::Result;

/// What kind of key an AlgorithmIdentifier names. RSA keys get their size from the key
/// itself, so they are one kind here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// An RSA key of any size.
    Rsa,
    /// A DSA key (RFC 3279 §2.3.2): pkit verifies signatures made with one, as RFC 5280
    /// paths still hold them (NIST PKITS has two), but neither loads nor makes one.
    Dsa,
    /// A key of exactly one [`Algorithm`] (an EC curve, Ed25519 or an ML-DSA parameter
    /// set).
    Fixed(Algorithm),
}

/// Classify a key's AlgorithmIdentifier (RFC 5280 §4.1.1.2), given as the content of
/// its SEQUENCE: `algorithm OBJECT IDENTIFIER, parameters ANY DEFINED BY algorithm OPTIONAL`.
/// Keys outside pkit's nine algorithms are `Unsupported`, naming the OID.
pub fn key_kind(alg_id: &mut Reader<'_>) -> Result<KeyKind> {
    let oid = alg_id.read_oid().map_err(bad_key)?;
    if oid == oids::RSA_ENCRYPTION {
        return Ok(KeyKind::Rsa);
    }
    if oid == oids::DSA {
        return Ok(KeyKind::Dsa);
    }
    if oid == oids::EC_PUBLIC_KEY {
        // ECParameters ::= CHOICE { namedCurve OBJECT IDENTIFIER, … } (RFC 5480 §2.1.1);
        // only named curves are allowed in PKIX.
        let curve = alg_id.read_oid().map_err(bad_key)?;
        return if curve == oids::SECP256R1 {
            Ok(KeyKind::Fixed(Algorithm::EcdsaP256))
        } else if curve == oids::SECP384R1 {
            Ok(KeyKind::Fixed(Algorithm::EcdsaP384))
        } else {
            Err(unsupported("elliptic curve", curve))
        };
    }
    for (o, a) in [
        (oids::ED25519, Algorithm::Ed25519),
        (oids::ML_DSA_44, Algorithm::MlDsa44),
        (oids::ML_DSA_65, Algorithm::MlDsa65),
        (oids::ML_DSA_87, Algorithm::MlDsa87),
    ] {
        if oid == o {
            return Ok(KeyKind::Fixed(a));
        }
    }
    Err(unsupported("key algorithm", oid))
}

/// The key kind named by a SubjectPublicKeyInfo (RFC 5280 §4.1.2.7):
/// `SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }`.
/// An `id-RSASSA-PSS` key (RFC 4055 §1.2) is an RSA key here: pkit verifies with such
/// keys but does not sign with them.
pub fn spki_key_kind(spki: &[u8]) -> Result<KeyKind> {
    let mut r = Reader::new(spki);
    let mut s = r.read_sequence().map_err(bad_key)?;
    let mut a = s.read_sequence().at("algorithm").map_err(bad_key)?;
    let mut peek = a;
    if peek.read_oid().is_ok_and(|o| o == oids::RSASSA_PSS) {
        return Ok(KeyKind::Rsa);
    }
    key_kind(&mut a)
}

/// A key pkit has no algorithm for (`what`: "key algorithm", "elliptic curve"), naming
/// its OID and what pkit does handle.
pub fn unsupported(what: &str, o: ObjectId<'_>) -> BackendError {
    let named = match o.name() {
        Some(n) => format!("{n} ({o})"),
        None => o.to_string(),
    };
    BackendError::Unsupported(format!(
        "unsupported {what} {named}; pkit handles {}",
        Algorithm::names_list()
    ))
}

/// A structure that is not a key: `BadKeyAt`, with the DER error's place.
pub fn bad_key(e: der::Error) -> BackendError {
    BackendError::BadKeyAt(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::Writer;

    fn algid(oid: &crate::der::Oid, curve: Option<&crate::der::Oid>) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.oid(oid);
            if let Some(c) = curve {
                w.oid(c);
            }
        });
        w.finish()
    }

    fn kind(der: &[u8]) -> Result<KeyKind> {
        key_kind(&mut Reader::new(der).read_sequence().unwrap())
    }

    #[test]
    fn known_and_unknown_key_algorithms() {
        assert_eq!(kind(&algid(&oids::RSA_ENCRYPTION, None)), Ok(KeyKind::Rsa));
        // DSA, for verification only (parameters present or inherited).
        assert_eq!(kind(&algid(&oids::DSA, None)), Ok(KeyKind::Dsa));
        assert_eq!(
            kind(&algid(&oids::EC_PUBLIC_KEY, Some(&oids::SECP384R1))),
            Ok(KeyKind::Fixed(Algorithm::EcdsaP384))
        );
        // Ed448 (RFC 8410): a real key type, but not one of pkit's nine.
        match kind(&algid(&crate::der::Oid::new("1.3.101.113"), None)) {
            Err(BackendError::Unsupported(m)) => assert!(m.contains("Ed448"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            kind(&algid(&oids::EC_PUBLIC_KEY, None)),
            Err(BackendError::BadKeyAt(_))
        ));
    }
}
