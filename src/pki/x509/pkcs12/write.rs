//! Writing a PKCS#12 file (RFC 7292) of one key, its certificate and a chain, in the form
//! today's readers take by default: the key in a pkcs8ShroudedKeyBag and the certificates
//! in an encryptedData SafeContents, both PBES2 (PBKDF2-HMAC-SHA-256, AES-256-CBC), and
//! a SHA-256 HMAC over the whole with the PKCS#12 KDF — OpenSSL 3's `pkcs12 -export`
//! defaults, which OpenSSL 3.0, Java's keytool (8u301 and later) and Windows 10 1709 and
//! later open.
//!
//! ```asn1
//! PFX ::= SEQUENCE { version INTEGER {v3(3)}, authSafe ContentInfo, macData MacData OPTIONAL }
//! MacData ::= SEQUENCE { mac DigestInfo, macSalt OCTET STRING, iterations INTEGER DEFAULT 1 }
//! SafeBag ::= SEQUENCE { bagId OID, bagValue [0] EXPLICIT ANY, bagAttributes SET OF
//!                        PKCS12Attribute OPTIONAL }
//! CertBag ::= SEQUENCE { certId OID, certValue [0] EXPLICIT OCTET STRING }
//! ```

use crate::backend::pbe::{Hash, Pkcs12Purpose};
use crate::backend::{self, Backend};
use crate::der::oid_registry as oids;
use crate::der::{tag, Oid, Writer};
use crate::key::cost;
use crate::key::encrypted::encrypt_parts;
use crate::key::encrypted::KdfChoice;

/// MAC iterations: OpenSSL's default (`PKCS12_DEFAULT_ITER`), which every reader accepts.
const MAC_ITERATIONS: u64 = 2048;

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

/// Encode the PFX under `password` (UTF-8).
pub fn encode_pfx(be: &Backend, c: &Contents<'_>, password: &[u8]) -> backend::Result<Vec<u8>> {
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
    let (cert_alg, cert_ct) = encrypt_parts(be, &certs.finish(), password, KdfChoice::Pbkdf2)?;
    let mut shrouded = Writer::new();
    {
        let (key_alg, key_ct) = encrypt_parts(be, c.key_pkcs8, password, KdfChoice::Pbkdf2)?;
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
    let salt = be.pbe().random(16)?;
    let mac_key = be.pbe().pkcs12_kdf(
        &cost::bmp_password(Some(password))?,
        &salt,
        MAC_ITERATIONS as u32,
        Hash::Sha256,
        Pkcs12Purpose::Mac,
        32,
    )?;
    let mac = be.pbe().hmac(Hash::Sha256, &mac_key, &safe)?;
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
                    w.oid(&oids::SHA256);
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
