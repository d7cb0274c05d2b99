//! OCSP request and response extensions with a value to decode (RFC 6960 §4.4, RFC 8954).
//! id-pkix-ocsp-nocheck and the extended-revoke marker are NULL and are read where they
//! are dispatched; archiveCutoff is a bare GeneralizedTime.

use super::fields::read_seq_of;
use crate::algid::AlgId;
use crate::der::{tag, Context, Error, ErrorKind, Reader, Result};

/// ```asn1
/// Nonce ::= OCTET STRING(SIZE(1..32))
/// ```
/// RFC 8954 §2.1 bounds the length; RFC 6960 did not, and some responders echo longer
/// nonces from old clients, so in lenient mode an out-of-range length is logged and the
/// nonce kept.
pub(crate) fn read_nonce<'a>(r: &mut Reader<'a>) -> Result<&'a [u8]> {
    let tlv = r.read_expect(tag::OCTET_STRING)?;
    match tlv.content.len() {
        0 => Err(Error::invalid(
            tlv.content_offset(),
            "expected a nonce of at least one octet",
        )),
        1..=32 => Ok(tlv.content),
        n => {
            r.deviate(
                tlv.offset,
                ErrorKind::Invalid(format!("expected a nonce of at most 32 octets, found {n}")),
            )?;
            Ok(tlv.content)
        }
    }
}

/// ```asn1
/// PreferredSignatureAlgorithms ::= SEQUENCE OF PreferredSignatureAlgorithm
/// PreferredSignatureAlgorithm ::= SEQUENCE {
///    sigIdentifier   AlgorithmIdentifier,
///    pubKeyAlgIdentifier   SMIMECapability OPTIONAL
///    }
/// ```
/// `SMIMECapability` (RFC 5751 §2.5.2) is `SEQUENCE { capabilityID OBJECT IDENTIFIER,
/// parameters ANY DEFINED BY capabilityID OPTIONAL }`, the same shape as an
/// AlgorithmIdentifier, so one reader serves both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PreferredSignatureAlgorithm<'a> {
    /// sigIdentifier: a signature algorithm the client prefers.
    pub sig_identifier: AlgId<'a>,
    /// pubKeyAlgIdentifier: the key algorithm it goes with, if given.
    pub pub_key_alg_identifier: Option<AlgId<'a>>,
}

pub(crate) fn read_preferred_signature_algorithms<'a>(
    r: &mut Reader<'a>,
) -> Result<Vec<PreferredSignatureAlgorithm<'a>>> {
    read_seq_of(r, tag::SEQUENCE, "PreferredSignatureAlgorithm", |r| {
        let mut s = r.read_sequence()?;
        let sig_identifier = AlgId::read(&mut s).at("sigIdentifier")?;
        let pub_key_alg_identifier = if s.is_empty() {
            None
        } else {
            Some(AlgId::read(&mut s).at("pubKeyAlgIdentifier")?)
        };
        s.finish()?;
        Ok(PreferredSignatureAlgorithm {
            sig_identifier,
            pub_key_alg_identifier,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::oid_registry as oids;
    use crate::der::Deviations;
    use crate::der::Writer;

    #[test]
    fn nonces() {
        let mut w = Writer::new();
        w.octet_string(&[0x5a; 32]);
        let der = w.finish();
        assert_eq!(read_nonce(&mut Reader::new(&der)).unwrap().len(), 32);
        let err = read_nonce(&mut Reader::new(&[0x04, 0x00])).unwrap_err();
        assert_eq!(err.offset, 2);
        let mut w = Writer::new();
        w.octet_string(&[1; 33]);
        let der = w.finish();
        assert!(read_nonce(&mut Reader::new(&der)).is_err());
        let log = Deviations::new();
        assert_eq!(
            read_nonce(&mut Reader::lenient(&der, &log)).unwrap().len(),
            33
        );
        // A nonce without its inner OCTET STRING (pre-RFC 8954 style raw bytes).
        assert!(read_nonce(&mut Reader::new(&[0x01, 0x02])).is_err());
    }

    #[test]
    fn preferred_signature_algorithms() {
        let der = crate::ext::samples::sample(&oids::PKIX_OCSP_PREF_SIG_ALGS);
        let v = read_preferred_signature_algorithms(&mut Reader::new(&der)).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].sig_identifier.oid, oids::ECDSA_WITH_SHA256);
        let pk = v[0].pub_key_alg_identifier.unwrap();
        assert_eq!(pk.oid, oids::EC_PUBLIC_KEY);
        assert!(pk.params.is_some());
        assert!(v[1].pub_key_alg_identifier.is_none());
        let err = read_preferred_signature_algorithms(&mut Reader::new(&[0x30, 0x02, 0x30, 0x00]))
            .unwrap_err();
        assert_eq!(err.path_string(), "[0].sigIdentifier");
    }
}
