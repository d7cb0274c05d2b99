//! One certificate's request when several sources say what it should be: what was asked
//! outright (`pkit issue cert`'s `--subject`, `--san`, `--profile`) wins over a template
//! ([`crate::template`]), which wins over the CSR, which wins over the CA's settings.
//! The key comes from the CSR or is new; the validity and the pointers are the caller's.

use super::issuer::{CaError, Request};
use super::pointers::Pointers;
use super::profile::Profile;
use super::template::Template;
use crate::der::{oid_registry as oids, Time};
use pkit_x509::alg::Algorithm;

/// An empty Name: the subject of a certificate that names its subject only in SANs.
const EMPTY_NAME: [u8; 2] = [0x30, 0x00];

/// What was asked for a certificate outright, and the template, if any.
#[derive(Debug, Clone, Default)]
pub struct Asked {
    /// The subject Name DER, when given.
    pub subject: Option<Vec<u8>>,
    /// The profile, when given.
    pub profile: Option<Profile>,
    /// subjectAltName entries (GeneralName TLVs); none given when empty.
    pub sans: Vec<Vec<u8>>,
    /// The template, when one was given.
    pub template: Option<Template>,
}

/// The key to certify and what its source asks for.
#[derive(Debug, Clone, Default)]
pub struct Keyed {
    /// Its SubjectPublicKeyInfo DER.
    pub spki: Vec<u8>,
    /// Its algorithm, when it is one pkit makes (`None` for some CSRs' keys).
    pub key_alg: Option<Algorithm>,
    /// The subject a CSR asks for; `None` for a new key.
    pub subject: Option<Vec<u8>>,
    /// The extensions a CSR asks for and the caller copies: (OID content, Extension TLV).
    pub extensions: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Asked {
    /// The profile: as asked, else what the template describes, else a TLS server's.
    pub fn profile(&self) -> Profile {
        match (self.profile, &self.template) {
            (Some(p), _) => p,
            (None, Some(t)) => t.implied_profile(),
            (None, None) => Profile::Server,
        }
    }

    /// The subjectAltName entries: as asked, else the template's.
    pub fn sans(&self) -> Vec<Vec<u8>> {
        match &self.template {
            Some(t) if self.sans.is_empty() => t.sans.clone(),
            _ => self.sans.clone(),
        }
    }

    /// The pointers the certificate carries before the caller's own replace any kind:
    /// the template's, else the CA's.
    pub fn base_pointers(&self, ca: &Pointers) -> Pointers {
        self.template
            .as_ref()
            .and_then(|t| t.pointers.clone())
            .unwrap_or_else(|| ca.clone())
    }

    /// The subject: as asked, else the template's, else the CSR's, else empty.
    fn subject(&self, key: &Keyed) -> Vec<u8> {
        self.subject
            .clone()
            .or_else(|| self.template.as_ref().and_then(|t| t.subject.clone()))
            .or_else(|| key.subject.clone())
            .unwrap_or_else(|| EMPTY_NAME.to_vec())
    }

    /// The extensions copied into the certificate: the template's, then the CSR's that
    /// the template does not set.
    fn extensions(&self, from_key: &[(Vec<u8>, Vec<u8>)]) -> Vec<(Vec<u8>, Vec<u8>)> {
        let Some(t) = &self.template else {
            return from_key.to_vec();
        };
        let mut all = t.extensions.clone();
        all.extend(
            from_key
                .iter()
                .filter(|(o, _)| !t.extensions.iter().any(|(x, _)| x == o))
                .cloned(),
        );
        all
    }

    /// The request for `key`, valid from `not_before` to `not_after`, pointing to
    /// `pointers`; `clip` cuts a validity past the CA's. Refused when the certificate
    /// would name nobody (no subject and no SAN, asked or copied).
    pub fn request(
        &self,
        key: Keyed,
        (not_before, not_after): (Time, Time),
        pointers: Pointers,
        clip: bool,
    ) -> Result<Request, CaError> {
        let subject = self.subject(&key);
        let sans = self.sans();
        let copied = self.extensions(&key.extensions);
        let san_oid = oids::CE_SUBJECT_ALT_NAME;
        let copied_san = copied
            .iter()
            .any(|(o, _)| o.as_slice() == san_oid.as_bytes());
        if subject == EMPTY_NAME && sans.is_empty() && !copied_san {
            return Err(CaError::Request(
                "the certificate needs a subject or at least one --san".into(),
            ));
        }
        Ok(Request {
            subject,
            spki: key.spki,
            key_alg: key.key_alg,
            profile: self.profile(),
            sans,
            not_before,
            not_after,
            path_len: None,
            copied,
            pointers: Some(pointers),
            name_constraints: None,
            clip,
            copied_wins: self.template.is_some(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(oid: &crate::der::Oid, tag: u8) -> (Vec<u8>, Vec<u8>) {
        (oid.as_bytes().to_vec(), vec![0x30, 0x01, tag])
    }

    fn template() -> Template {
        Template {
            subject: Some(b"template".to_vec()),
            profile: Some(Profile::Client),
            sans: vec![b"template san".to_vec()],
            pointers: Some(Pointers {
                ocsp: vec!["http://template.example/".into()],
                ..Pointers::default()
            }),
            extensions: vec![ext(&oids::CE_KEY_USAGE, 1)],
        }
    }

    fn csr() -> Keyed {
        Keyed {
            spki: b"spki".to_vec(),
            key_alg: None,
            subject: Some(b"csr".to_vec()),
            extensions: vec![ext(&oids::CE_KEY_USAGE, 2), ext(&oids::CE_EXT_KEY_USAGE, 3)],
        }
    }

    fn window() -> (Time, Time) {
        (Time { unix: 0 }, Time { unix: 1 })
    }

    #[test]
    fn what_is_asked_wins_over_the_template_which_wins_over_the_csr() {
        let ca = Pointers {
            crl: vec!["http://ca.example/ca.crl".into()],
            ..Pointers::default()
        };
        let bare = Asked::default();
        assert_eq!(bare.profile(), Profile::Server);
        assert_eq!(bare.base_pointers(&ca), ca);
        let r = bare.request(csr(), window(), ca.clone(), false).unwrap();
        assert_eq!(r.subject, b"csr");
        assert_eq!(r.copied, csr().extensions);
        assert!(!r.copied_wins);

        let templated = Asked {
            template: Some(template()),
            ..Asked::default()
        };
        assert_eq!(templated.profile(), Profile::Client);
        assert_eq!(templated.sans(), vec![b"template san".to_vec()]);
        assert_eq!(
            templated.base_pointers(&ca).ocsp,
            ["http://template.example/"]
        );
        let r = templated
            .request(csr(), window(), ca.clone(), true)
            .unwrap();
        assert_eq!(r.subject, b"template");
        // The template's keyUsage, then the CSR's extKeyUsage (its keyUsage is the
        // template's to set).
        assert_eq!(
            r.copied,
            vec![ext(&oids::CE_KEY_USAGE, 1), ext(&oids::CE_EXT_KEY_USAGE, 3)]
        );
        assert!(r.copied_wins && r.clip);

        let asked = Asked {
            subject: Some(b"asked".to_vec()),
            profile: Some(Profile::CodeSigning),
            sans: vec![b"asked san".to_vec()],
            template: Some(template()),
        };
        assert_eq!(asked.profile(), Profile::CodeSigning);
        let r = asked.request(csr(), window(), ca, false).unwrap();
        assert_eq!(r.subject, b"asked");
        assert_eq!(r.sans, vec![b"asked san".to_vec()]);
        assert_eq!(r.profile, Profile::CodeSigning);
    }

    #[test]
    fn a_certificate_must_name_someone() {
        let new_key = Keyed {
            spki: b"spki".to_vec(),
            key_alg: Some(Algorithm::EcdsaP256),
            ..Keyed::default()
        };
        let Err(e) =
            Asked::default().request(new_key.clone(), window(), Pointers::default(), false)
        else {
            panic!("a certificate naming nobody was asked for");
        };
        assert!(
            e.to_string()
                .contains("needs a subject or at least one --san"),
            "{e}"
        );
        let with_san = Asked {
            sans: vec![b"san".to_vec()],
            ..Asked::default()
        };
        let r = with_san
            .request(new_key.clone(), window(), Pointers::default(), false)
            .unwrap();
        assert_eq!(r.subject, EMPTY_NAME);
        // A SAN copied from the CSR names it too.
        let csr_san = Keyed {
            extensions: vec![ext(&oids::CE_SUBJECT_ALT_NAME, 4)],
            ..new_key
        };
        assert!(Asked::default()
            .request(csr_san, window(), Pointers::default(), false)
            .is_ok());
    }
}
