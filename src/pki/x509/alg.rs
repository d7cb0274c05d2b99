//! The algorithms pkit issues with, their names and aliases, and the AlgorithmIdentifiers
//! (RFC 5280 §4.1.1.2) they sign under. The backend speaks these enums; OIDs live here.

#![forbid(unsafe_code)]

use crate::der::oid_registry as oids;
use crate::der::{Oid, Writer};
use std::fmt;

/// A key type pkit can generate and sign with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// An ECDSA key on NIST P-256 (secp256r1).
    EcdsaP256,
    /// An ECDSA key on NIST P-384 (secp384r1).
    EcdsaP384,
    /// An Ed25519 key (RFC 8032).
    Ed25519,
    /// An RSA key with a 2048-bit modulus.
    Rsa2048,
    /// An RSA key with a 3072-bit modulus.
    Rsa3072,
    /// An RSA key with a 4096-bit modulus.
    Rsa4096,
    /// An ML-DSA-44 key (FIPS 204), security category 2.
    MlDsa44,
    /// An ML-DSA-65 key (FIPS 204), security category 3.
    MlDsa65,
    /// An ML-DSA-87 key (FIPS 204), security category 5.
    MlDsa87,
}

impl Algorithm {
    /// Every algorithm, in the order help texts list them.
    pub const ALL: [Algorithm; 9] = [
        Algorithm::EcdsaP256,
        Algorithm::EcdsaP384,
        Algorithm::Ed25519,
        Algorithm::Rsa2048,
        Algorithm::Rsa3072,
        Algorithm::Rsa4096,
        Algorithm::MlDsa44,
        Algorithm::MlDsa65,
        Algorithm::MlDsa87,
    ];

    /// Canonical CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::EcdsaP256 => "ecdsa-p256",
            Algorithm::EcdsaP384 => "ecdsa-p384",
            Algorithm::Ed25519 => "ed25519",
            Algorithm::Rsa2048 => "rsa2048",
            Algorithm::Rsa3072 => "rsa3072",
            Algorithm::Rsa4096 => "rsa4096",
            Algorithm::MlDsa44 => "ml-dsa-44",
            Algorithm::MlDsa65 => "ml-dsa-65",
            Algorithm::MlDsa87 => "ml-dsa-87",
        }
    }

    /// Parse a name, case-insensitively, accepting OpenSSL spellings (`prime256v1`,
    /// `secp384r1`, `ED25519`, `ML-DSA-65`, `mldsa65`, `rsa:2048`, `RSA-3072`, `p256`).
    pub fn from_name(s: &str) -> Option<Algorithm> {
        let norm: String = s
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ':' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        Some(match norm.as_str() {
            "ecdsap256" | "p256" | "prime256v1" | "secp256r1" | "ec256" | "ecp256" | "nistp256" => {
                Algorithm::EcdsaP256
            }
            "ecdsap384" | "p384" | "secp384r1" | "ec384" | "ecp384" | "nistp384" => {
                Algorithm::EcdsaP384
            }
            "ed25519" | "eddsa25519" => Algorithm::Ed25519,
            "rsa2048" | "rsa" => Algorithm::Rsa2048,
            "rsa3072" => Algorithm::Rsa3072,
            "rsa4096" => Algorithm::Rsa4096,
            "mldsa44" => Algorithm::MlDsa44,
            "mldsa65" => Algorithm::MlDsa65,
            "mldsa87" => Algorithm::MlDsa87,
            _ => return None,
        })
    }

    /// The comma-separated list of canonical names, for help and error messages.
    pub fn names_list() -> String {
        Algorithm::ALL.map(Algorithm::name).join(", ")
    }

    /// Whether this is one of the RSA sizes.
    pub fn is_rsa(self) -> bool {
        matches!(
            self,
            Algorithm::Rsa2048 | Algorithm::Rsa3072 | Algorithm::Rsa4096
        )
    }

    /// Whether this is one of the ML-DSA parameter sets.
    pub fn is_ml_dsa(self) -> bool {
        matches!(
            self,
            Algorithm::MlDsa44 | Algorithm::MlDsa65 | Algorithm::MlDsa87
        )
    }

    /// RSA modulus size in bits.
    pub fn rsa_bits(self) -> Option<u32> {
        match self {
            Algorithm::Rsa2048 => Some(2048),
            Algorithm::Rsa3072 => Some(3072),
            Algorithm::Rsa4096 => Some(4096),
            _ => None,
        }
    }

    /// The signature scheme pkit signs with for this key type.
    pub fn default_scheme(self) -> SignatureScheme {
        match self {
            Algorithm::EcdsaP256 => SignatureScheme::EcdsaSha256,
            Algorithm::EcdsaP384 => SignatureScheme::EcdsaSha384,
            Algorithm::Ed25519 => SignatureScheme::Ed25519,
            Algorithm::Rsa2048 | Algorithm::Rsa3072 | Algorithm::Rsa4096 => {
                SignatureScheme::RsaPkcs1Sha256
            }
            Algorithm::MlDsa44 => SignatureScheme::MlDsa44,
            Algorithm::MlDsa65 => SignatureScheme::MlDsa65,
            Algorithm::MlDsa87 => SignatureScheme::MlDsa87,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Hash functions the schemes use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Digest {
    /// SHA-1, for old signatures and the identifiers that name it.
    Sha1,
    /// Only for DSA signatures (dsa-with-sha224, RFC 5758 §3.1).
    Sha224,
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
}

impl Digest {
    /// The digest's length in bytes.
    pub fn output_len(self) -> usize {
        match self {
            Digest::Sha1 => 20,
            Digest::Sha224 => 28,
            Digest::Sha256 => 32,
            Digest::Sha384 => 48,
            Digest::Sha512 => 64,
        }
    }
}

/// A signature algorithm as named by an AlgorithmIdentifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureScheme {
    /// ecdsa-with-SHA1 (RFC 3279 §2.2.3).
    EcdsaSha1,
    /// ecdsa-with-SHA256 (RFC 5758 §3.2).
    EcdsaSha256,
    /// ecdsa-with-SHA384 (RFC 5758 §3.2).
    EcdsaSha384,
    /// ecdsa-with-SHA512 (RFC 5758 §3.2).
    EcdsaSha512,
    /// Ed25519 (RFC 8410 §3), which hashes internally.
    Ed25519,
    /// sha1WithRSAEncryption, PKCS#1 v1.5 (RFC 3279 §2.2.1).
    RsaPkcs1Sha1,
    /// sha256WithRSAEncryption, PKCS#1 v1.5 (RFC 4055 §5).
    RsaPkcs1Sha256,
    /// sha384WithRSAEncryption, PKCS#1 v1.5 (RFC 4055 §5).
    RsaPkcs1Sha384,
    /// sha512WithRSAEncryption, PKCS#1 v1.5 (RFC 4055 §5).
    RsaPkcs1Sha512,
    /// RSASSA-PSS with the same hash for MGF1 and the given salt length.
    RsaPss {
        /// The hash of the message and of MGF1.
        digest: Digest,
        /// The salt length in bytes.
        salt_len: u32,
    },
    /// ML-DSA-44 (RFC 9881), pure mode.
    MlDsa44,
    /// ML-DSA-65 (RFC 9881), pure mode.
    MlDsa65,
    /// ML-DSA-87 (RFC 9881), pure mode.
    MlDsa87,
    /// DSA (FIPS 186-4 §4) over SHA-1 (id-dsa-with-sha1, RFC 3279 §2.2.2), SHA-224 or
    /// SHA-256 (RFC 5758 §3.1). pkit verifies these and never signs with them.
    DsaSha1,
    /// dsa-with-SHA224 (RFC 5758 §3.1).
    DsaSha224,
    /// dsa-with-SHA256 (RFC 5758 §3.1).
    DsaSha256,
}

impl SignatureScheme {
    /// The digest the scheme applies to the message before signing; `None` for the schemes
    /// that sign the message itself (Ed25519, ML-DSA).
    pub fn digest(self) -> Option<Digest> {
        use SignatureScheme::*;
        match self {
            EcdsaSha1 | RsaPkcs1Sha1 | DsaSha1 => Some(Digest::Sha1),
            DsaSha224 => Some(Digest::Sha224),
            EcdsaSha256 | RsaPkcs1Sha256 | DsaSha256 => Some(Digest::Sha256),
            EcdsaSha384 | RsaPkcs1Sha384 => Some(Digest::Sha384),
            EcdsaSha512 | RsaPkcs1Sha512 => Some(Digest::Sha512),
            RsaPss { digest, .. } => Some(digest),
            Ed25519 | MlDsa44 | MlDsa65 | MlDsa87 => None,
        }
    }

    /// The OID of the AlgorithmIdentifier.
    pub fn oid(self) -> Oid {
        use SignatureScheme::*;
        match self {
            EcdsaSha1 => oids::ECDSA_WITH_SHA1,
            EcdsaSha256 => oids::ECDSA_WITH_SHA256,
            EcdsaSha384 => oids::ECDSA_WITH_SHA384,
            EcdsaSha512 => oids::ECDSA_WITH_SHA512,
            Ed25519 => oids::ED25519,
            RsaPkcs1Sha1 => oids::SHA1_WITH_RSA,
            RsaPkcs1Sha256 => oids::SHA256_WITH_RSA,
            RsaPkcs1Sha384 => oids::SHA384_WITH_RSA,
            RsaPkcs1Sha512 => oids::SHA512_WITH_RSA,
            RsaPss { .. } => oids::RSASSA_PSS,
            MlDsa44 => oids::ML_DSA_44,
            MlDsa65 => oids::ML_DSA_65,
            MlDsa87 => oids::ML_DSA_87,
            DsaSha1 => oids::DSA_WITH_SHA1,
            DsaSha224 => oids::DSA_WITH_SHA224,
            DsaSha256 => oids::DSA_WITH_SHA256,
        }
    }

    /// Write the AlgorithmIdentifier. RSA PKCS#1 carries NULL parameters (RFC 4055 §5);
    /// ECDSA (RFC 5758 §3.2), DSA (RFC 3279 §2.2.2, RFC 5758 §3.1), Ed25519 (RFC 8410
    /// §3) and ML-DSA (RFC 9881 §2) carry none.
    pub fn write_algorithm_identifier(self, w: &mut Writer) {
        w.sequence(|w| {
            w.oid(&self.oid());
            match self {
                SignatureScheme::RsaPkcs1Sha1
                | SignatureScheme::RsaPkcs1Sha256
                | SignatureScheme::RsaPkcs1Sha384
                | SignatureScheme::RsaPkcs1Sha512 => {
                    w.null();
                }
                SignatureScheme::RsaPss { digest, salt_len } => {
                    write_pss_params(w, digest, salt_len)
                }
                _ => {}
            }
        });
    }

    /// The AlgorithmIdentifier DER.
    pub fn algorithm_identifier(self) -> Vec<u8> {
        let mut w = Writer::with_capacity(16);
        self.write_algorithm_identifier(&mut w);
        w.finish()
    }
}

fn digest_oid(d: Digest) -> Oid {
    match d {
        Digest::Sha1 => oids::SHA1,
        Digest::Sha224 => oids::SHA224,
        Digest::Sha256 => oids::SHA256,
        Digest::Sha384 => oids::SHA384,
        Digest::Sha512 => oids::SHA512,
    }
}

/// RSASSA-PSS-params (RFC 4055 §3.1) with explicit hash, MGF1 and salt length.
fn write_pss_params(w: &mut Writer, digest: Digest, salt_len: u32) {
    w.sequence(|w| {
        w.explicit(0, |w| {
            w.sequence(|w| {
                w.oid(&digest_oid(digest));
            });
        });
        w.explicit(1, |w| {
            w.sequence(|w| {
                w.oid(&oids::MGF1);
                w.sequence(|w| {
                    w.oid(&digest_oid(digest));
                });
            });
        });
        w.explicit(2, |w| {
            w.integer_u64(u64::from(salt_len));
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases() {
        for (s, a) in [
            ("prime256v1", Algorithm::EcdsaP256),
            ("ECDSA-P256", Algorithm::EcdsaP256),
            ("secp384r1", Algorithm::EcdsaP384),
            ("ED25519", Algorithm::Ed25519),
            ("ML-DSA-65", Algorithm::MlDsa65),
            ("mldsa87", Algorithm::MlDsa87),
            ("rsa:3072", Algorithm::Rsa3072),
            ("RSA4096", Algorithm::Rsa4096),
        ] {
            assert_eq!(Algorithm::from_name(s), Some(a), "{s}");
        }
        assert_eq!(Algorithm::from_name("dsa"), None);
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::from_name(a.name()), Some(a));
        }
    }

    #[test]
    fn algorithm_identifiers() {
        assert_eq!(
            SignatureScheme::EcdsaSha256.algorithm_identifier(),
            [0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]
        );
        assert_eq!(
            SignatureScheme::RsaPkcs1Sha256.algorithm_identifier(),
            [
                0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b, 0x05,
                0x00
            ]
        );
        assert_eq!(
            SignatureScheme::Ed25519.algorithm_identifier(),
            [0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70]
        );
        assert_eq!(SignatureScheme::MlDsa65.algorithm_identifier().len(), 13);
        // id-dsa-with-sha1 (RFC 3279 §2.2.2), parameters absent.
        assert_eq!(
            SignatureScheme::DsaSha1.algorithm_identifier(),
            [0x30, 0x09, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x03]
        );
    }
}
