//! AlgorithmIdentifier views (RFC 5280 §4.1.1.2) and their mapping to signature schemes.
//!
//! ```asn1
//! AlgorithmIdentifier ::= SEQUENCE {
//!     algorithm   OBJECT IDENTIFIER,
//!     parameters  ANY DEFINED BY algorithm OPTIONAL }
//! ```

#![forbid(unsafe_code)]

use crate::alg::{Digest, SignatureScheme};
use crate::der::oid_registry as oids;
use crate::der::{tag, Context, Error, ObjectId, Reader, Result};

/// A borrowed AlgorithmIdentifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlgId<'a> {
    /// The algorithm's OBJECT IDENTIFIER.
    pub oid: ObjectId<'a>,
    /// The parameters' full TLV, if present.
    pub params: Option<&'a [u8]>,
    /// The whole AlgorithmIdentifier TLV.
    pub raw: &'a [u8],
    /// Absolute byte offset of the AlgorithmIdentifier in the input.
    pub offset: usize,
}

impl<'a> AlgId<'a> {
    #[inline]
    /// Read an AlgorithmIdentifier (RFC 5280 §4.1.1.2): `SEQUENCE { algorithm OBJECT
    /// IDENTIFIER, parameters ANY OPTIONAL }`.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let offset = r.offset();
        let raw = r.remaining();
        let tlv = r.read_expect(tag::SEQUENCE)?;
        let mut s = r.with_base(tlv.content, tlv.content_offset());
        let oid = s.read_oid().at("algorithm")?;
        let params = if s.is_empty() {
            None
        } else {
            Some(s.read_raw().at("parameters")?)
        };
        s.finish()?;
        Ok(AlgId {
            oid,
            params,
            raw: &raw[..tlv.total_len],
            offset,
        })
    }

    /// The registry name or dotted OID.
    pub fn name(&self) -> String {
        self.oid.name_or_dotted()
    }

    /// The signature scheme this identifier names, if pkit can verify it.
    pub fn signature_scheme(&self) -> Result<Option<SignatureScheme>> {
        use SignatureScheme::*;
        let o = self.oid;
        let s = if o == oids::SHA256_WITH_RSA {
            RsaPkcs1Sha256
        } else if o == oids::SHA384_WITH_RSA {
            RsaPkcs1Sha384
        } else if o == oids::SHA512_WITH_RSA {
            RsaPkcs1Sha512
        } else if o == oids::SHA1_WITH_RSA {
            RsaPkcs1Sha1
        } else if o == oids::ECDSA_WITH_SHA256 {
            EcdsaSha256
        } else if o == oids::ECDSA_WITH_SHA384 {
            EcdsaSha384
        } else if o == oids::ECDSA_WITH_SHA512 {
            EcdsaSha512
        } else if o == oids::ECDSA_WITH_SHA1 {
            EcdsaSha1
        } else if o == oids::ED25519 {
            Ed25519
        } else if o == oids::ML_DSA_44 {
            MlDsa44
        } else if o == oids::ML_DSA_65 {
            MlDsa65
        } else if o == oids::ML_DSA_87 {
            MlDsa87
        } else if o == oids::DSA_WITH_SHA1 {
            DsaSha1
        } else if o == oids::DSA_WITH_SHA224 {
            DsaSha224
        } else if o == oids::DSA_WITH_SHA256 {
            DsaSha256
        } else if o == oids::RSASSA_PSS {
            return self.pss_params().map(Some);
        } else {
            return Ok(None);
        };
        Ok(Some(s))
    }

    /// RSASSA-PSS-params (RFC 4055 §3.1); pkit verifies the common form where MGF1 uses
    /// the same hash as the message.
    ///
    /// ```asn1
    /// RSASSA-PSS-params ::= SEQUENCE {
    ///     hashAlgorithm      [0] HashAlgorithm DEFAULT sha1,
    ///     maskGenAlgorithm   [1] MaskGenAlgorithm DEFAULT mgf1SHA1,
    ///     saltLength         [2] INTEGER DEFAULT 20,
    ///     trailerField       [3] TrailerField DEFAULT trailerFieldBC }
    /// ```
    fn pss_params(&self) -> Result<SignatureScheme> {
        let Some(p) = self.params else {
            return Ok(SignatureScheme::RsaPss {
                digest: Digest::Sha1,
                salt_len: 20,
            });
        };
        let base = Reader::new(&[]).with_base(p, self.offset);
        let mut r = base;
        let mut s = r.read_sequence().at("parameters")?;
        let mut digest = Digest::Sha1;
        let mut salt_len = 20u32;
        if let Some(t) = s.read_optional(tag::explicit(0))? {
            let mut h = s.with_base(t.content, t.content_offset());
            digest = digest_of(&AlgId::read(&mut h)?)?;
        }
        if let Some(t) = s.read_optional(tag::explicit(1))? {
            let mut m = s.with_base(t.content, t.content_offset());
            let mgf = AlgId::read(&mut m)?;
            if mgf.oid != oids::MGF1 {
                return Err(Error::invalid(mgf.offset, "expected MGF1 mask generation"));
            }
            if let Some(mp) = mgf.params {
                let mut mr = m.with_base(mp, mgf.offset);
                let mgf_digest = digest_of(&AlgId::read(&mut mr)?)?;
                if mgf_digest != digest {
                    return Err(Error::invalid(
                        mgf.offset,
                        "expected MGF1 with the message hash",
                    ));
                }
            }
        }
        if let Some(t) = s.read_optional(tag::explicit(2))? {
            let mut sr = s.with_base(t.content, t.content_offset());
            salt_len = u32::try_from(sr.read_u64()?)
                .map_err(|_| Error::invalid(t.offset, "expected a salt length below 2^32"))?;
        }
        Ok(SignatureScheme::RsaPss { digest, salt_len })
    }
}

fn digest_of(a: &AlgId<'_>) -> Result<Digest> {
    let o = a.oid;
    if o == oids::SHA256 {
        Ok(Digest::Sha256)
    } else if o == oids::SHA384 {
        Ok(Digest::Sha384)
    } else if o == oids::SHA512 {
        Ok(Digest::Sha512)
    } else if o == oids::SHA1 {
        Ok(Digest::Sha1)
    } else {
        Err(Error::invalid(
            a.offset,
            format!("expected a SHA hash, found {}", a.name()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_schemes_and_round_trips() {
        for s in [
            SignatureScheme::EcdsaSha256,
            SignatureScheme::RsaPkcs1Sha256,
            SignatureScheme::Ed25519,
            SignatureScheme::MlDsa87,
            SignatureScheme::DsaSha1,
            SignatureScheme::DsaSha224,
            SignatureScheme::DsaSha256,
            SignatureScheme::RsaPss {
                digest: Digest::Sha256,
                salt_len: 32,
            },
        ] {
            let der = s.algorithm_identifier();
            let a = AlgId::read(&mut Reader::new(&der)).unwrap();
            assert_eq!(a.signature_scheme().unwrap(), Some(s));
            assert_eq!(a.raw, &der[..]);
        }
    }
}
