//! PKCS#12 / PFX files (RFC 7292 §4, §5): the outer PFX, its MAC, the authenticated
//! safe of ContentInfos, and the bags inside SafeContents.
//!
//! The structure is read here; decryption parameters are read by
//! [`crate::key::pbe::PbeScheme`] and the cryptography comes from the backend. Like
//! CMS, PKCS#12 files are BER in practice (Java and Windows write indefinite lengths),
//! so callers read them with a lenient [`Reader`].

#![forbid(unsafe_code)]

use crate::algid::AlgId;
use crate::backend::pbe::{Hash, Pkcs12Purpose};
use crate::backend::{self, Backend, BackendError};
use crate::csr::Attributes;
use crate::der::oid_registry as oids;
use crate::der::{tag, Context, Error, ObjectId, Reader, Result};
use crate::key::cost;
use crate::key::pbe::{prf_hash, Kdf, PbeScheme};
use crate::pkcs7::{read_octets, ContentInfo, Octets};

/// RFC 7292 §4:
///
/// ```asn1
/// PFX ::= SEQUENCE {
///     version     INTEGER {v3(3)}(v3,...),
///     authSafe    ContentInfo,
///     macData     MacData OPTIONAL
/// }
///
/// MacData ::= SEQUENCE {
///     mac         DigestInfo,
///     macSalt     OCTET STRING,
///     iterations  INTEGER DEFAULT 1
///     -- Note: The default is for historical reasons and its use is
///     -- deprecated.
/// }
///
/// DigestInfo ::= SEQUENCE {
///     digestAlgorithm DigestAlgorithmIdentifier,
///     digest          Digest }
/// Digest ::= OCTET STRING
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Pfx<'a> {
    /// version: 3, the only one RFC 7292 defines.
    pub version: u64,
    /// authSafe: the AuthenticatedSafe, as data or signed data.
    pub auth_safe: ContentInfo<'a>,
    /// macData: the password MAC over `auth_safe`'s content, if present.
    pub mac_data: Option<MacData<'a>>,
    mode: Reader<'a>,
}

/// `MacData`.
#[derive(Debug, Clone, Copy)]
pub struct MacData<'a> {
    /// The MAC's digest algorithm (or PBMAC1, RFC 9579).
    pub digest_algorithm: AlgId<'a>,
    /// The MAC value.
    pub digest: &'a [u8],
    /// macSalt: the salt the MAC key is derived with.
    pub mac_salt: &'a [u8],
    /// iterations for the MAC key's derivation (DEFAULT 1).
    pub iterations: u64,
    mode: Reader<'a>,
}

impl<'a> Pfx<'a> {
    /// Parse a PFX spanning all of `r`.
    pub fn parse(mut r: Reader<'a>) -> Result<Self> {
        let mut s = r.read_sequence().at("pfx")?;
        r.finish()?;
        let vat = s.offset();
        let version = s.read_u64().at("version")?;
        if version != 3 {
            return Err(
                Error::invalid(vat, format!("expected version v3 (3), found {version}"))
                    .at("version"),
            );
        }
        let auth_safe = ContentInfo::read(&mut s).at("authSafe")?;
        let mac_data = if s.is_empty() {
            None
        } else {
            let mut m = s.read_sequence().at("macData")?;
            let mut di = m.read_sequence().at("macData.mac")?;
            let digest_algorithm = AlgId::read(&mut di).at("macData.mac.digestAlgorithm")?;
            let digest = di.read_octet_string().at("macData.mac.digest")?;
            di.finish().at("macData.mac")?;
            let mac_salt = m.read_octet_string().at("macData.macSalt")?;
            let iterations = if m.is_empty() {
                1
            } else {
                m.read_u64().at("macData.iterations")?
            };
            m.finish().at("macData")?;
            Some(MacData {
                digest_algorithm,
                digest,
                mac_salt,
                iterations,
                mode: m,
            })
        };
        s.finish().at("pfx")?;
        Ok(Pfx {
            version,
            auth_safe,
            mac_data,
            mode: s,
        })
    }

    /// The bytes the MAC covers and that hold the AuthenticatedSafe: the `data`
    /// content, or for a public-key-signed PFX the content the SignedData wraps.
    pub fn auth_safe_content(&self) -> Result<Octets<'a>> {
        let ci = &self.auth_safe;
        if ci.is(&oids::PKCS7_DATA) {
            return ci.data().at("authSafe")?.ok_or_else(|| {
                Error::invalid(ci.offset, "expected authSafe content").at("authSafe")
            });
        }
        if ci.is(&oids::PKCS7_SIGNED_DATA) {
            let sd = ci.signed_data().at("authSafe")?;
            return match sd.encap_content {
                Some(crate::pkcs7::EncapContent::Octets(o)) => Ok(o),
                _ => Err(Error::invalid(
                    ci.offset,
                    "expected signedData to encapsulate the authenticated safe as data",
                )
                .at("authSafe")),
            };
        }
        Err(Error::invalid(
            ci.offset,
            format!(
                "expected authSafe of type data or signedData, found {}",
                ci.content_type.name_or_dotted()
            ),
        )
        .at("authSafe"))
    }

    /// The reader mode the PFX was parsed with (for the layers inside).
    pub fn mode(&self) -> Reader<'a> {
        self.mode
    }
}

/// How the MAC key is made.
#[derive(Debug, Clone, Copy)]
pub enum MacScheme<'a> {
    /// RFC 7292 Appendix B: HMAC keyed by the PKCS#12 KDF with ID 3.
    Pkcs12 {
        /// The hash of the KDF and of the HMAC.
        hash: Hash,
    },
    /// RFC 9579 §4:
    ///
    /// ```asn1
    /// PBMAC1-params ::= SEQUENCE {
    ///     keyDerivationFunc AlgorithmIdentifier {{PBMAC1-KDFs}},
    ///     messageAuthScheme AlgorithmIdentifier {{PBMAC1-MACs}} }
    /// ```
    Pbmac1 {
        /// keyDerivationFunc: PBKDF2 in practice.
        kdf: Kdf<'a>,
        /// messageAuthScheme: the HMAC algorithm.
        mac: AlgId<'a>,
    },
    /// A digest or scheme pkit does not know.
    Unknown,
}

/// The digest behind a DigestAlgorithmIdentifier.
pub fn digest_hash(o: ObjectId<'_>) -> Option<Hash> {
    Some(if o == oids::SHA1 {
        Hash::Sha1
    } else if o == oids::SHA224 {
        Hash::Sha224
    } else if o == oids::SHA256 {
        Hash::Sha256
    } else if o == oids::SHA384 {
        Hash::Sha384
    } else if o == oids::SHA512 {
        Hash::Sha512
    } else if o == oids::SHA512_224 {
        Hash::Sha512_224
    } else if o == oids::SHA512_256 {
        Hash::Sha512_256
    } else if o == oids::MD5 {
        Hash::Md5
    } else {
        return None;
    })
}

impl<'a> MacData<'a> {
    /// How the MAC key is derived and the MAC computed.
    pub fn scheme(&self) -> Result<MacScheme<'a>> {
        let a = &self.digest_algorithm;
        if a.oid == oids::PBMAC1 {
            let p = a.params.ok_or_else(|| {
                Error::invalid(a.offset, "expected PBMAC1 parameters").at("macData")
            })?;
            let mut r = self.mode.with_base(p, a.offset + a.raw.len() - p.len());
            let mut s = r.read_sequence().at("macData.PBMAC1-params")?;
            r.finish().at("macData.PBMAC1-params")?;
            let kdf_alg = AlgId::read(&mut s).at("macData.PBMAC1-params.keyDerivationFunc")?;
            let kdf =
                Kdf::read(&self.mode, &kdf_alg).at("macData.PBMAC1-params.keyDerivationFunc")?;
            let mac = AlgId::read(&mut s).at("macData.PBMAC1-params.messageAuthScheme")?;
            s.finish().at("macData.PBMAC1-params")?;
            return Ok(MacScheme::Pbmac1 { kdf, mac });
        }
        Ok(match digest_hash(a.oid) {
            Some(hash) => MacScheme::Pkcs12 { hash },
            None => MacScheme::Unknown,
        })
    }

    /// Compute the MAC over `content` with `password` (`None`: absent, as opposed to
    /// empty) and compare it with the stored one. `Ok(false)` means wrong password or
    /// altered content.
    pub fn verify(
        &self,
        backend: &Backend,
        allowance: &cost::Allowance,
        scheme: &MacScheme<'_>,
        password: Option<&[u8]>,
        content: &[u8],
    ) -> backend::Result<bool> {
        let mac = match scheme {
            MacScheme::Pkcs12 { hash } => {
                let key = cost::pkcs12_kdf(
                    backend,
                    allowance,
                    &cost::bmp_password(password)?,
                    self.mac_salt,
                    self.iterations,
                    *hash,
                    Pkcs12Purpose::Mac,
                    hash.output_len(),
                )?;
                backend.pbe().hmac(*hash, &key, content)?
            }
            MacScheme::Pbmac1 { kdf, mac } => {
                let hash = prf_hash(Some(mac)).ok_or_else(|| {
                    BackendError::Unsupported(format!(
                        "PBMAC1 message authentication scheme {} is not supported",
                        mac.oid.name_or_dotted()
                    ))
                })?;
                // RFC 9579 §5: the KDF's keyLength gives the HMAC key size.
                let len = match kdf {
                    Kdf::Pbkdf2 {
                        key_length: Some(k),
                        ..
                    } => usize::try_from(*k)
                        .ok()
                        .filter(|k| *k <= 1024)
                        .ok_or_else(|| {
                            BackendError::BadKey(format!("PBMAC1 key length {k} is out of range"))
                        })?,
                    Kdf::Pbkdf2 { .. } => {
                        return Err(BackendError::BadKey(
                            "PBMAC1 requires a PBKDF2 keyLength (RFC 9579 §5)".into(),
                        ))
                    }
                    _ => {
                        return Err(BackendError::Unsupported(
                            "PBMAC1 with a KDF other than PBKDF2".into(),
                        ))
                    }
                };
                let key = kdf.derive(backend, allowance, password.unwrap_or_default(), len)?;
                backend.pbe().hmac(hash, &key, content)?
            }
            MacScheme::Unknown => {
                return Err(BackendError::Unsupported(format!(
                    "PKCS#12 MAC digest {} is not supported",
                    self.digest_algorithm.oid.name_or_dotted()
                )))
            }
        };
        Ok(ct_eq(&mac, self.digest))
    }
}

/// Compare two MACs without an early exit on the first differing byte.
fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `AuthenticatedSafe ::= SEQUENCE OF ContentInfo` (RFC 7292 §4.1): `data` when
/// unencrypted, `encryptedData` when password-encrypted, `envelopedData` when encrypted
/// to a public key.
pub fn authenticated_safe<'a>(mut r: Reader<'a>) -> Result<Vec<ContentInfo<'a>>> {
    let mut s = r.read_sequence().at("authenticatedSafe")?;
    r.finish().at("authenticatedSafe")?;
    let mut out = Vec::with_capacity(2);
    while !s.is_empty() {
        let i = out.len();
        out.push(
            ContentInfo::read(&mut s)
                .at_index(i)
                .at("authenticatedSafe")?,
        );
    }
    Ok(out)
}

/// RFC 5652 §8 (RFC 7292 §4.1 uses it for password-encrypted SafeContents):
///
/// ```asn1
/// EncryptedData ::= SEQUENCE {
///   version CMSVersion,
///   encryptedContentInfo EncryptedContentInfo,
///   unprotectedAttrs [1] IMPLICIT UnprotectedAttributes OPTIONAL }
///
/// EncryptedContentInfo ::= SEQUENCE {
///   contentType ContentType,
///   contentEncryptionAlgorithm ContentEncryptionAlgorithmIdentifier,
///   encryptedContent [0] IMPLICIT EncryptedContent OPTIONAL }
///
/// EncryptedContent ::= OCTET STRING
/// ```
#[derive(Debug, Clone)]
pub struct EncryptedData<'a> {
    /// version: the CMSVersion, 0 (or 2 with unprotectedAttrs, RFC 5652 §8).
    pub version: u64,
    /// contentType of the encrypted content (id-data for SafeContents).
    pub content_type: ObjectId<'a>,
    /// contentEncryptionAlgorithm: the PBE scheme, as encoded.
    pub algorithm: AlgId<'a>,
    /// `[0]` encryptedContent, BER segments joined; absent when the content is elsewhere.
    pub encrypted_content: Option<Octets<'a>>,
    mode: Reader<'a>,
}

impl<'a> EncryptedData<'a> {
    /// Read the EncryptedData an `encryptedData` ContentInfo wraps.
    pub fn from_content_info(ci: &ContentInfo<'a>) -> Result<Self> {
        let mut c = ci.content.ok_or_else(|| {
            Error::invalid(ci.offset, "expected content for encryptedData").at("contentInfo")
        })?;
        let mut s = c.read_sequence().at("encryptedData")?;
        c.finish().at("encryptedData")?;
        let version = s.read_u64().at("encryptedData.version")?;
        let mut e = s.read_sequence().at("encryptedData.encryptedContentInfo")?;
        let content_type = e
            .read_oid()
            .at("encryptedData.encryptedContentInfo.contentType")?;
        let algorithm = AlgId::read(&mut e)
            .at("encryptedData.encryptedContentInfo.contentEncryptionAlgorithm")?;
        let encrypted_content = if e.is_empty() {
            None
        } else {
            Some(
                read_octets(&mut e, tag::implicit(0))
                    .at("encryptedData.encryptedContentInfo.encryptedContent")?,
            )
        };
        e.finish().at("encryptedData.encryptedContentInfo")?;
        // unprotectedAttrs are not used by PKCS#12; skip them if present.
        s.read_optional(tag::implicit_constructed(1))?;
        s.finish().at("encryptedData")?;
        Ok(EncryptedData {
            version,
            content_type,
            algorithm,
            encrypted_content,
            mode: s,
        })
    }

    /// The contentEncryptionAlgorithm decoded as a PBE scheme.
    pub fn scheme(&self) -> Result<PbeScheme<'a>> {
        PbeScheme::read(&self.mode, &self.algorithm)
            .at("encryptedData.encryptedContentInfo.contentEncryptionAlgorithm")
    }
}

/// RFC 7292 §4.2:
///
/// ```asn1
/// SafeContents ::= SEQUENCE OF SafeBag
///
/// SafeBag ::= SEQUENCE {
///     bagId          BAG-TYPE.&id ({PKCS12BagSet}),
///     bagValue       [0] EXPLICIT BAG-TYPE.&Type({PKCS12BagSet}{@bagId}),
///     bagAttributes  SET OF PKCS12Attribute OPTIONAL
/// }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SafeBag<'a> {
    /// bagId: which bag this is.
    pub bag_id: ObjectId<'a>,
    /// A reader over the `[0]` wrapper's content.
    pub value: Reader<'a>,
    /// bagAttributes (friendlyName, localKeyID), if present.
    pub attributes: Option<Attributes<'a>>,
    /// Absolute byte offset of the SafeBag.
    pub offset: usize,
}

/// Which bag a SafeBag is (RFC 7292 §4.2.1–§4.2.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BagKind {
    /// keyBag: an unencrypted PKCS#8 key.
    Key,
    /// pkcs8ShroudedKeyBag: an EncryptedPrivateKeyInfo.
    ShroudedKey,
    /// certBag: a certificate.
    Cert,
    /// crlBag: a CRL.
    Crl,
    /// secretBag: a secret of the application's own type.
    Secret,
    /// safeContentsBag: a nested SafeContents.
    SafeContents,
    /// A bag type RFC 7292 does not define.
    Unknown,
}

/// The shape CertBag, CRLBag and SecretBag share:
///
/// ```asn1
/// CertBag ::= SEQUENCE {
///     certId      BAG-TYPE.&id   ({CertTypes}),
///     certValue   [0] EXPLICIT BAG-TYPE.&Type ({CertTypes}{@certId})
/// }
/// x509Certificate BAG-TYPE ::= {OCTET STRING IDENTIFIED BY {certTypes 1}}
/// sdsiCertificate BAG-TYPE ::= {IA5String IDENTIFIED BY {certTypes 2}}
///
/// CRLBag ::= SEQUENCE {
///     crlId      BAG-TYPE.&id ({CRLTypes}),
///     crltValue  [0] EXPLICIT BAG-TYPE.&Type ({CRLTypes}{@crlId})
/// }
/// x509CRL BAG-TYPE ::= {OCTET STRING IDENTIFIED BY {crlTypes 1}}
///
/// SecretBag ::= SEQUENCE {
///     secretTypeId   BAG-TYPE.&id ({SecretTypes}),
///     secretValue    [0] EXPLICIT BAG-TYPE.&Type ({SecretTypes} {@secretTypeId})
/// }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct TypedValue<'a> {
    /// The OID that says what the value is (e.g. x509Certificate).
    pub type_id: ObjectId<'a>,
    /// A reader over the `[0]` wrapper's content.
    pub value: Reader<'a>,
}

impl<'a> TypedValue<'a> {
    /// The value as an OCTET STRING (x509Certificate, x509CRL), BER segments joined.
    pub fn octets(&self) -> Result<Octets<'a>> {
        let mut v = self.value;
        let o = read_octets(&mut v, tag::OCTET_STRING)?;
        v.finish()?;
        Ok(o)
    }
}

/// Read a SafeContents spanning all of `r`.
pub fn safe_contents<'a>(mut r: Reader<'a>) -> Result<Vec<SafeBag<'a>>> {
    let mut s = r.read_sequence().at("safeContents")?;
    r.finish().at("safeContents")?;
    let mut out = Vec::with_capacity(4);
    while !s.is_empty() {
        let i = out.len();
        out.push(SafeBag::read(&mut s).at_index(i).at("safeContents")?);
    }
    Ok(out)
}

impl<'a> SafeBag<'a> {
    /// Read a SafeBag at the cursor.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let offset = r.offset();
        let mut s = r.read_sequence()?;
        let bag_id = s.read_oid().at("bagId")?;
        let v = s.read_expect(tag::explicit(0)).at("bagValue")?;
        let value = s.with_base(v.content, v.content_offset());
        let attributes = s
            .read_optional(tag::SET)?
            .map(|tlv| Attributes::new(s.with_base(tlv.content, tlv.content_offset())));
        s.finish()?;
        Ok(SafeBag {
            bag_id,
            value,
            attributes,
            offset,
        })
    }

    /// Which of the RFC 7292 bag types `bag_id` names.
    pub fn kind(&self) -> BagKind {
        let o = self.bag_id;
        if o == oids::P12_KEY_BAG {
            BagKind::Key
        } else if o == oids::P12_SHROUDED_KEY_BAG {
            BagKind::ShroudedKey
        } else if o == oids::P12_CERT_BAG {
            BagKind::Cert
        } else if o == oids::P12_CRL_BAG {
            BagKind::Crl
        } else if o == oids::P12_SECRET_BAG {
            BagKind::Secret
        } else if o == oids::P12_SAFE_CONTENTS_BAG {
            BagKind::SafeContents
        } else {
            BagKind::Unknown
        }
    }

    /// The bag value's one element, as a reader spanning exactly it.
    pub fn value_element(&self) -> Result<Reader<'a>> {
        let mut v = self.value;
        let start = v.remaining();
        let at = v.offset();
        let tlv = v.read_tlv().at("bagValue")?;
        v.finish().at("bagValue")?;
        Ok(v.with_base(&start[..tlv.total_len], at))
    }

    /// CertBag, CRLBag or SecretBag content.
    pub fn typed_value(&self) -> Result<TypedValue<'a>> {
        let mut v = self.value;
        let mut s = v.read_sequence().at("bagValue")?;
        v.finish().at("bagValue")?;
        let type_id = s.read_oid().at("bagValue.id")?;
        let w = s.read_expect(tag::explicit(0)).at("bagValue.value")?;
        s.finish().at("bagValue")?;
        Ok(TypedValue {
            type_id,
            value: s.with_base(w.content, w.content_offset()),
        })
    }
}

pub mod write;

#[cfg(test)]
mod tests;
