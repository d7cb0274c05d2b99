//! CRL generation (RFC 5280 §5): a v2 CertificateList over a CA's revoked certificates,
//! with the authority key identifier, a CRL number, and a reasonCode per entry.
//!
//! ```asn1
//! TBSCertList  ::=  SEQUENCE  {
//!      version                 Version OPTIONAL,      -- v2 (1) here
//!      signature               AlgorithmIdentifier,
//!      issuer                  Name,
//!      thisUpdate              Time,
//!      nextUpdate              Time OPTIONAL,         -- always present here
//!      revokedCertificates     SEQUENCE OF SEQUENCE  {
//!           userCertificate         CertificateSerialNumber,
//!           revocationDate          Time,
//!           crlEntryExtensions      Extensions OPTIONAL }  OPTIONAL,
//!      crlExtensions           [0]  EXPLICIT Extensions OPTIONAL }
//! ```
//!
//! The entries are encoded into one buffer as they stream in from the store
//! ([`RevokedList`]: a million-entry CRL is one ~55 MB allocation, no per-entry objects),
//! the TBSCertList is written around them in one copy, and the signature is wrapped
//! around the TBS without re-encoding it.

use super::crl_entries::RevokedList;
use super::issuer::Issuer;
use super::tbs::signed_envelope;
use crate::der::{oid_registry as oids, tag, Time, Writer};
use pkit_x509::alg::SignatureScheme;
use pkit_x509::backend::{BackendError, Signer};
use pkit_x509::ext::write::ext;

/// The issuing CA's side of a CRL: what goes into every TBSCertList it signs.
pub struct CrlIssuer<'a> {
    /// The CA certificate's subject Name TLV, copied byte for byte.
    pub name: &'a [u8],
    /// The CA's subject key identifier (for authorityKeyIdentifier).
    pub key_id: &'a [u8],
    /// The signature algorithm the CA signs its CRLs with.
    pub scheme: SignatureScheme,
}

impl Issuer {
    /// What this CA's CRLs say about their issuer.
    pub fn crl_issuer(&self) -> CrlIssuer<'_> {
        CrlIssuer {
            name: &self.subject,
            key_id: &self.key_id,
            scheme: self.scheme,
        }
    }
}

/// The CRL's own fields.
#[derive(Debug, Clone, Copy)]
pub struct CrlFields {
    /// thisUpdate (RFC 5280 §5.1.2.4): when the CRL was issued.
    pub this_update: Time,
    /// nextUpdate (RFC 5280 §5.1.2.5): when the next CRL is due at the latest.
    pub next_update: Time,
    /// cRLNumber (RFC 5280 §5.2.3): strictly increasing per CA.
    pub number: u64,
}

/// The TBSCertList over `entries`, for `issuer`'s CA. With `scope` (URLs) not empty, it
/// is a partitioned CRL: an issuingDistributionPoint (RFC 5280 §5.2.5, critical) names
/// the distribution point whose certificates it covers, as their cRLDistributionPoints
/// name it. An empty CRL omits revokedCertificates altogether (RFC 5280 §5.1.2.6:
/// absent, not empty). Every length is known before writing, so the entries are copied
/// once and never moved.
pub fn tbs_cert_list(
    issuer: &CrlIssuer<'_>,
    f: &CrlFields,
    scope: &[String],
    entries: &RevokedList,
) -> Vec<u8> {
    let mut head = Writer::with_capacity(issuer.name.len() + 64);
    head.integer_u64(1);
    issuer.scheme.write_algorithm_identifier(&mut head);
    head.raw(issuer.name);
    head.time(f.this_update);
    head.time(f.next_update);
    let mut list = Writer::new();
    if !entries.is_empty() {
        list.header(tag::SEQUENCE, entries.body().len());
    }
    let extensions = crl_extensions(issuer, f, scope);
    let content = head.len() + list.len() + entries.body().len() + extensions.len();
    let mut w = Writer::with_capacity(content + 8);
    w.header(tag::SEQUENCE, content)
        .raw(head.as_bytes())
        .raw(list.as_bytes())
        .raw(entries.body())
        .raw(&extensions);
    w.finish()
}

/// crlExtensions: the authority key identifier, the CRL number and, for a partitioned
/// CRL, its issuingDistributionPoint.
fn crl_extensions(issuer: &CrlIssuer<'_>, f: &CrlFields, scope: &[String]) -> Vec<u8> {
    let mut x = Writer::with_capacity(64);
    x.explicit(0, |w| {
        w.sequence(|w| {
            ext(w, &oids::CE_AUTHORITY_KEY_ID, false, |w| {
                w.sequence(|w| {
                    w.primitive(tag::implicit(0), issuer.key_id);
                });
            });
            ext(w, &oids::CE_CRL_NUMBER, false, |w| {
                w.integer_u64(f.number);
            });
            if !scope.is_empty() {
                ext(w, &oids::CE_ISSUING_DIST_POINT, true, |w| {
                    w.sequence(|w| crate::pointers::write_full_name(w, scope));
                });
            }
        });
    });
    x.finish()
}

/// Sign a TBSCertList: `CertificateList ::= SEQUENCE { tbs, signatureAlgorithm, signature }`.
pub fn sign_crl(tbs: &[u8], signer: &mut dyn Signer) -> Result<Vec<u8>, BackendError> {
    let signature = signer.sign(tbs)?;
    Ok(signed_envelope(tbs, signer.scheme(), &signature))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issuer::self_signed;
    use pkit_openssl as openssl;
    use pkit_x509::alg::Algorithm;
    use pkit_x509::cert::Certificate;
    use pkit_x509::crl::Crl;
    use pkit_x509::ext::CrlReason;
    use pkit_x509::signed::verify_signed;
    use pkit_x509::subject::parse_subject;

    const NOW: Time = Time {
        unix: 1_800_000_000,
    };

    #[test]
    fn builds_signs_and_parses_back() {
        let key = openssl::backend().generate(Algorithm::Ed25519).unwrap();
        let subject = parse_subject("CN=CRL Test CA").unwrap();
        let ca_der = self_signed(
            key.as_ref(),
            &subject,
            NOW.plus_seconds(-10),
            NOW.plus_seconds(86_400),
            None,
        )
        .unwrap();
        let ca = Certificate::from_der(&ca_der).unwrap();
        let key_id = ca.subject_key_id().unwrap();
        let issuer = CrlIssuer {
            name: ca.subject.raw,
            key_id: &key_id,
            scheme: key.algorithm().default_scheme(),
        };
        let fields = CrlFields {
            this_update: NOW,
            next_update: NOW.plus_seconds(7 * 86_400),
            number: 300,
        };
        let mut b = RevokedList::with_capacity(200);
        for i in 1..=200u32 {
            // Reasons cycle through none, unspecified and keyCompromise.
            let serial = (0x7f00 + i).to_be_bytes();
            let reason = match i % 4 {
                0 => None,
                1 => Some(0),
                _ => Some(1),
            };
            b.push(&serial, NOW.plus_seconds(-(i as i64)), reason);
        }
        assert_eq!(b.len(), 200);
        let tbs = tbs_cert_list(&issuer, &fields, &[], &b);
        let der = sign_crl(&tbs, key.signer().unwrap().as_mut()).unwrap();

        let crl = Crl::from_der(&der).unwrap();
        assert_eq!(crl.version, 1);
        assert_eq!(crl.issuer.raw, ca.subject.raw);
        assert_eq!(crl.this_update, NOW);
        assert_eq!(crl.next_update, Some(fields.next_update));
        assert_eq!(crl.revoked_count().unwrap(), 200);
        let entries: Vec<_> = crl.revoked().collect::<Result<_, _>>().unwrap();
        assert_eq!(entries[0].serial, [0x7f, 0x01]);
        assert_eq!(entries[0].revocation_date, NOW.plus_seconds(-1));
        // Only a real reason is encoded; unspecified and none leave no extension.
        for (i, e) in entries.iter().enumerate() {
            let n = i as u32 + 1;
            assert_eq!(e.extensions.is_some(), n % 4 >= 2, "entry {n}");
        }
        let reason = entries[1].extensions.unwrap();
        let ext = reason.find(&oids::CE_CRL_REASON).unwrap().unwrap();
        let mut r = crate::der::Reader::new(ext.value);
        assert_eq!(CrlReason::read(&mut r).unwrap().code(), 1);
        assert!(verify_signed(
            openssl::backend(),
            ca.spki.raw,
            &crl.signature_algorithm,
            crl.tbs_raw,
            crl.signature.bytes
        )
        .unwrap());
    }

    #[test]
    fn an_empty_crl_has_no_revoked_list() {
        let issuer = CrlIssuer {
            name: &[0x30, 0x00],
            key_id: &[1; 20],
            scheme: SignatureScheme::Ed25519,
        };
        let fields = CrlFields {
            this_update: NOW,
            next_update: NOW.plus_seconds(60),
            number: 1,
        };
        let tbs = tbs_cert_list(&issuer, &fields, &[], &RevokedList::default());
        let der = signed_envelope(&tbs, SignatureScheme::Ed25519, &[0; 64]);
        let crl = Crl::from_der(&der).unwrap();
        assert!(!crl.revoked_present);
        assert_eq!(crl.revoked_count().unwrap(), 0);
        assert!(crl.extensions.is_some());
    }
}
