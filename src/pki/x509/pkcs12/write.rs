//! Writing a PKCS#12 file (RFC 7292) of one key, its certificate and a chain, in the form
//! today's readers take by default: the key in a pkcs8ShroudedKeyBag and the certificates
//! in an encryptedData SafeContents, both PBES2 (PBKDF2-HMAC-SHA-256, AES-256-CBC), and
//! a SHA-256 HMAC over the whole with the PKCS#12 KDF — OpenSSL 3's `pkcs12 -export`
//! defaults, which OpenSSL 3.0, Java's keytool (8u301 and later) and Windows 10 1709 and
//! later open.
//!
//! [`Protection::Legacy`] writes what older readers need (Windows Server 2016 and
//! earlier, Windows 7, Java before 8u301): both parts under pbeWithSHAAnd3-KeyTripleDES-CBC
//! (RFC 7292 Appendix C) and a SHA-1 HMAC — what OpenSSL 1.1's `pkcs12 -export` wrote with
//! `-keypbe PBE-SHA1-3DES -certpbe PBE-SHA1-3DES -macalg sha1`, and Windows' own
//! "TripleDES-SHA1" export. Triple DES and SHA-1 are weak; the password is all that
//! protects the key.
//!
//! ```asn1
//! PFX ::= SEQUENCE { version INTEGER {v3(3)}, authSafe ContentInfo, macData MacData OPTIONAL }
//! MacData ::= SEQUENCE { mac DigestInfo, macSalt OCTET STRING, iterations INTEGER DEFAULT 1 }
//! SafeBag ::= SEQUENCE { bagId OID, bagValue [0] EXPLICIT ANY, bagAttributes SET OF
//!                        PKCS12Attribute OPTIONAL }
//! CertBag ::= SEQUENCE { certId OID, certValue [0] EXPLICIT OCTET STRING }
//! ```

use crate::algid::AlgId;
use crate::backend::pbe::{Hash, Pkcs12Purpose};
use crate::backend::{self, Backend};
use crate::der::oid_registry as oids;
use crate::der::{tag, Oid, Reader, Writer};
use crate::key::cost;
use crate::key::encrypted::encrypt_parts;
use crate::key::encrypted::KdfChoice;
use crate::key::pbe::PbeScheme;

/// MAC iterations: OpenSSL's default (`PKCS12_DEFAULT_ITER`), which every reader accepts.
const MAC_ITERATIONS: u64 = 2048;

/// Iterations of the legacy PBE: OpenSSL's default too (`PKCS12_DEFAULT_ITER`).
const LEGACY_ITERATIONS: u64 = 2048;

/// How the file is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protection {
    /// PBES2 (PBKDF2-HMAC-SHA-256, AES-256-CBC) and an HMAC-SHA-256 MAC.
    #[default]
    Modern,
    /// pbeWithSHAAnd3-KeyTripleDES-CBC for the key and the certificates and an
    /// HMAC-SHA-1 MAC, for readers that know nothing newer. Weak: see the module
    /// documentation.
    Legacy,
}

/// What goes in the file.
pub struct Contents<'a> {
    /// The private key, PKCS#8 DER (cleared by the caller).
    pub key_pkcs8: &'a [u8],
    /// The key's certificate.
    pub cert: &'a [u8],
    /// Further certificates (intermediates), in the order given.
    pub chain: &'a [Vec<u8>],
    /// The friendlyName of the key and its certificate: the alias keytool shows.
    pub friendly_name: &'a str,
}

/// The friendlyName a file gets when none is asked for: the certificate's subject as RFC
/// 4514 text, its first 64 characters (an alias keytool and the Windows store show whole);
/// empty when the subject does not decode.
pub fn default_friendly_name(cert: &[u8]) -> String {
    crate::cert::subject_dn(cert)
        .unwrap_or_default()
        .chars()
        .take(64)
        .collect()
}

/// Encode the PFX under `password` (UTF-8), protected as `protection` says.
pub fn encode_pfx(
    be: &Backend,
    c: &Contents<'_>,
    password: &[u8],
    protection: Protection,
) -> backend::Result<Vec<u8>> {
    let encrypt = |plain: &[u8]| match protection {
        Protection::Modern => encrypt_parts(be, plain, password, KdfChoice::Pbkdf2),
        Protection::Legacy => legacy_parts(be, plain, password),
    };
    // localKeyID pairs the key with its certificate: the certificate's SHA-1, as OpenSSL
    // writes it.
    let local_key_id = be.digest(crate::alg::Digest::Sha1, c.cert);
    let attributes = |w: &mut Writer, with_name: bool| {
        w.set(|w| {
            if with_name {
                w.sequence(|w| {
                    w.oid(&oids::PKCS9_FRIENDLY_NAME);
                    w.set(|w| {
                        let bmp: Vec<u8> = c
                            .friendly_name
                            .encode_utf16()
                            .flat_map(u16::to_be_bytes)
                            .collect();
                        w.primitive(tag::BMP_STRING, &bmp);
                    });
                });
            }
            w.sequence(|w| {
                w.oid(&oids::PKCS9_LOCAL_KEY_ID);
                w.set(|w| {
                    w.octet_string(&local_key_id);
                });
            });
        });
    };
    let mut certs = Writer::new();
    certs.sequence(|w| {
        for (i, der) in std::iter::once(c.cert)
            .chain(c.chain.iter().map(Vec::as_slice))
            .enumerate()
        {
            bag(
                w,
                &oids::P12_CERT_BAG,
                |w| {
                    w.sequence(|w| {
                        w.oid(&oids::PKCS9_X509_CERTIFICATE);
                        w.explicit(0, |w| {
                            w.octet_string(der);
                        });
                    });
                },
                |w| {
                    if i == 0 {
                        attributes(w, true);
                    }
                },
            );
        }
    });
    let (cert_alg, cert_ct) = encrypt(&certs.finish())?;
    let mut shrouded = Writer::new();
    {
        let (key_alg, key_ct) = encrypt(c.key_pkcs8)?;
        shrouded.sequence(|w| {
            w.raw(&key_alg);
            w.octet_string(&key_ct);
        });
    }
    let shrouded = shrouded.finish();
    let mut keys = Writer::new();
    keys.sequence(|w| {
        bag(
            w,
            &oids::P12_SHROUDED_KEY_BAG,
            |w| {
                w.raw(&shrouded);
            },
            |w| attributes(w, true),
        );
    });
    let keys = keys.finish();
    let mut safe = Writer::new();
    safe.sequence(|w| {
        // The certificates: encryptedData (version 0, data, PBES2, [0] IMPLICIT content).
        w.sequence(|w| {
            w.oid(&oids::PKCS7_ENCRYPTED_DATA);
            w.explicit(0, |w| {
                w.sequence(|w| {
                    w.integer_u64(0);
                    w.sequence(|w| {
                        w.oid(&oids::PKCS7_DATA);
                        w.raw(&cert_alg);
                        w.primitive(tag::implicit(0), &cert_ct);
                    });
                });
            });
        });
        // The key: data (the bag is encrypted itself).
        w.sequence(|w| {
            w.oid(&oids::PKCS7_DATA);
            w.explicit(0, |w| {
                w.octet_string(&keys);
            });
        });
    });
    let safe = safe.finish();
    // The legacy form keeps to the 8-byte salt of the readers it is for (OpenSSL's
    // PKCS12_SALT_LEN).
    let (mac_hash, mac_oid, salt_len) = match protection {
        Protection::Modern => (Hash::Sha256, &oids::SHA256, 16),
        Protection::Legacy => (Hash::Sha1, &oids::SHA1, 8),
    };
    let salt = be.pbe().random(salt_len)?;
    let mut bmp = cost::bmp_password(Some(password))?;
    let mac_key = be.pbe().pkcs12_kdf(
        &bmp,
        &salt,
        MAC_ITERATIONS as u32,
        mac_hash,
        Pkcs12Purpose::Mac,
        mac_hash.output_len(),
    );
    bmp.fill(0);
    let mac = be.pbe().hmac(mac_hash, &mac_key?, &safe)?;
    let mut w = Writer::with_capacity(safe.len() + 128);
    w.sequence(|w| {
        w.integer_u64(3);
        w.sequence(|w| {
            w.oid(&oids::PKCS7_DATA);
            w.explicit(0, |w| {
                w.octet_string(&safe);
            });
        });
        w.sequence(|w| {
            w.sequence(|w| {
                w.sequence(|w| {
                    w.oid(mac_oid);
                    w.null();
                });
                w.octet_string(&mac);
            });
            w.octet_string(&salt);
            w.integer_u64(MAC_ITERATIONS);
        });
    });
    Ok(w.finish())
}

/// `plain` encrypted under pbeWithSHAAnd3-KeyTripleDES-CBC with a random 8-byte salt:
/// the AlgorithmIdentifier TLV and the ciphertext.
fn legacy_parts(
    be: &Backend,
    plain: &[u8],
    password: &[u8],
) -> backend::Result<(Vec<u8>, Vec<u8>)> {
    let salt = be.pbe().random(8)?;
    let mut w = Writer::with_capacity(40);
    w.sequence(|w| {
        w.oid(&oids::PBE_SHA1_3DES);
        w.sequence(|w| {
            w.octet_string(&salt);
            w.integer_u64(LEGACY_ITERATIONS);
        });
    });
    let alg = w.finish();
    // Read back as any file's parameters are, so writing and reading derive the key by
    // the same code.
    let mode = Reader::new(&alg);
    let mut r = mode;
    let scheme = AlgId::read(&mut r)
        .and_then(|a| PbeScheme::read(&mode, &a))
        .map_err(|e| backend::BackendError::Crypto(format!("PKCS#12 PBE parameters: {e}")))?;
    let ct = scheme.encrypt(be, password, plain)?;
    Ok((alg, ct))
}

/// One SafeBag.
fn bag(
    w: &mut Writer,
    id: &Oid,
    value: impl FnOnce(&mut Writer),
    attributes: impl FnOnce(&mut Writer),
) {
    w.sequence(|w| {
        w.oid(id);
        w.explicit(0, value);
        attributes(w);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cert::test_cert;

    #[test]
    fn the_default_name_is_the_subject_cut_to_64_characters() {
        assert_eq!(
            default_friendly_name(&test_cert("CN=CA", "CN=leaf,O=Example")),
            "CN=leaf,O=Example"
        );
        let long = format!("CN={},O={}", "é".repeat(40), "x".repeat(40));
        let name = default_friendly_name(&test_cert("CN=CA", &long));
        assert_eq!(name.chars().count(), 64);
        assert!(long.starts_with(&name));
        assert_eq!(default_friendly_name(b"not a certificate"), "");
    }
}
