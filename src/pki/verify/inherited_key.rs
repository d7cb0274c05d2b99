//! DSA keys that inherit their domain parameters: RFC 5280 §6.1.4 (d)–(f) carry a
//! working_public_key_parameters down the path, and RFC 3279 §2.3.2 says when a DSA
//! key without parameters takes its issuer's: "If the subjectPublicKeyInfo
//! AlgorithmIdentifier field omits the parameters component and the CA signed the
//! subject with a signature algorithm other than DSA, then clients MUST reject the
//! certificate" — so only when the issuer signed it with DSA. NIST PKITS 4.1.5 has
//! such a CA.
//!
//! Path building checks a signature as soon as it meets the issuer, before the path
//! above it is known; a parameterless DSA issuer's signatures are therefore checked once
//! the path is complete, with the key this module puts together, and path validation
//! (revocation included: that CA's CRLs are signed with the same key) sees the whole key.

use crate::der::oid_registry as oids;
use pkit_x509::alg::SignatureScheme;
use pkit_x509::cert::Certificate;

/// For each certificate of `path` (target first, anchor last), its public key as a
/// complete SPKI DER when it is a DSA key without parameters that inherits them from
/// the nearest DSA key with parameters above it; `None` for every other key, and for a
/// parameterless key that has nothing to inherit (it verifies nothing, as OpenSSL cannot
/// use it).
pub(crate) fn working_keys(path: &[Certificate<'_>]) -> Vec<Option<Vec<u8>>> {
    let mut out = vec![None; path.len()];
    // The parameters of the key above, while the chain of DSA keys holds.
    let mut working: Option<&[u8]> = None;
    for (i, c) in path.iter().enumerate().rev() {
        if c.spki.algorithm.oid != oids::DSA {
            working = None;
            continue;
        }
        if !c.spki.dsa_parameters_absent() {
            working = c.spki.algorithm.params;
            continue;
        }
        let signed_with_dsa = matches!(
            c.signature_algorithm.signature_scheme(),
            Ok(Some(
                SignatureScheme::DsaSha1 | SignatureScheme::DsaSha224 | SignatureScheme::DsaSha256
            ))
        );
        // The anchor has no issuer to inherit from.
        let inherited = working.filter(|_| signed_with_dsa && i + 1 < path.len());
        out[i] = inherited.and_then(|p| c.spki.with_parameters(p).ok());
        if out[i].is_none() {
            working = None;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkits(f: &str) -> Vec<u8> {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../tests/data/pkits/certs/"
        );
        std::fs::read(format!("{dir}{f}")).unwrap()
    }

    #[test]
    fn pkits_parameter_inheritance() {
        let files = [
            pkits("ValidDSAParameterInheritanceTest5EE.crt"),
            pkits("DSAParametersInheritedCACert.crt"),
            pkits("DSACACert.crt"),
            pkits("TrustAnchorRootCertificate.crt"),
        ];
        let path: Vec<Certificate<'_>> = files
            .iter()
            .map(|d| Certificate::from_der(d).unwrap())
            .collect();
        let keys = working_keys(&path);
        // The parameterless CA and the leaf under it (parameterless too) take the DSA
        // CA's parameters; keys with their own, and the RSA anchor's, are left alone.
        assert!(keys[2].is_none() && keys[3].is_none());
        for at in [0, 1] {
            let whole = keys[at].as_deref().unwrap();
            let spki = pkit_x509::spki::Spki::from_der(whole).unwrap();
            assert_eq!(spki.algorithm.params, path[2].spki.algorithm.params);
            assert_eq!(spki.key.bytes, path[at].spki.key.bytes);
        }
        // Without the DSA CA above it there is nothing to inherit.
        let keys = working_keys(&[path[0], path[1], path[3]]);
        assert!(keys.iter().all(Option::is_none));
        // Nor as the anchor.
        assert!(working_keys(&path[..2]).iter().all(Option::is_none));
    }
}
