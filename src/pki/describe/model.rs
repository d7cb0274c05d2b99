//! What describing an object gives: its JSON, warnings, the objects `-f pem|der` emit,
//! certificate facts for `--summary`, a list printed as it is read, and why describing
//! failed.

use super::crl_entries;
use crate::der::Deviation;
use crate::der::Time;
use pkit_x509::detect::Kind;
use serde_json::Value;

/// Facts about one certificate, for `--summary`.
#[derive(Debug, Clone)]
pub struct CertFacts {
    /// The subject key as summaries group it: "RSA 2048", "EC P-256", "ML-DSA-65".
    pub key: String,
    /// The name of the algorithm the certificate is signed with.
    pub signature: String,
    /// The start of the validity period.
    pub not_before: Time,
    /// The end of the validity period.
    pub not_after: Time,
}

/// The result of describing one object.
#[derive(Debug)]
pub struct Described {
    /// What the object is.
    pub kind: Kind,
    /// The object as `parse -f json` prints it (a deferred list empty, see [`Deferred`]).
    pub json: Value,
    /// BER deviations accepted in lenient mode.
    pub warnings: Vec<Deviation>,
    /// What `-f pem` / `-f der` emit: the object itself, or the certificates and CRLs a
    /// PKCS#7/PKCS#12 container holds.
    pub objects: Vec<(Kind, Vec<u8>)>,
    /// Certificates found (the object itself or contained ones), for `--summary`.
    pub certs: Vec<CertFacts>,
    /// A list left empty in `json` and produced while printing (see [`Deferred`]).
    pub deferred: Option<Deferred>,
    /// What the description leaves out for want of a password (a PKCS#12 safe encrypted
    /// under one): said on stderr, and an error where its contents were asked for.
    pub locked: Option<String>,
}

/// A list too long to hold as JSON values: a million-entry CRL would be a million JSON
/// objects, gigabytes, before the first byte is printed. `json` holds an empty array under
/// the list's key; `-f json` writes the elements one by one from the object's DER
/// (`objects[0]`), and the other formats fill the array first ([`Described::fill_deferred`]).
#[derive(Debug, Clone, Copy)]
pub enum Deferred {
    /// A CRL's `revoked_certificates`, read in lenient mode or not.
    CrlEntries {
        /// Whether the entries are read as BER, deviations accepted.
        lenient: bool,
    },
}

impl Deferred {
    /// The key of the list in the object's JSON.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Deferred::CrlEntries { .. } => crl_entries::ENTRIES_KEY,
        }
    }
}

impl serde::Serialize for Described {
    /// The JSON of the object with its deferred list written element by element.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (Value::Object(m), Some(def)) = (&self.json, self.deferred) else {
            return self.json.serialize(s);
        };
        let der = self.objects.first().map_or(&[][..], |(_, d)| d.as_slice());
        let mut map = s.serialize_map(Some(m.len()))?;
        for (k, v) in m {
            if k == def.key() {
                match def {
                    Deferred::CrlEntries { lenient } => {
                        map.serialize_entry(k, &crl_entries::EntriesJson { der, lenient })?
                    }
                }
            } else {
                map.serialize_entry(k, v)?;
            }
        }
        map.end()
    }
}

impl Described {
    /// `json` describing the object `der` of type `kind`, itself the one object it emits,
    /// with no warnings, certificates or deferred list yet.
    pub fn new(kind: Kind, json: Value, der: &[u8]) -> Self {
        Described {
            kind,
            json,
            warnings: Vec::new(),
            objects: vec![(kind, der.to_vec())],
            certs: Vec::new(),
            deferred: None,
            locked: None,
        }
    }

    /// Put the deferred list into `json`, for the formats that render from values.
    pub fn fill_deferred(&mut self) -> crate::der::Result<()> {
        let Some(def) = self.deferred.take() else {
            return Ok(());
        };
        let der = self.objects.first().map_or(&[][..], |(_, d)| d.as_slice());
        let list = match def {
            Deferred::CrlEntries { lenient } => crl_entries::entries_json(der, lenient)?,
        };
        if let Value::Object(m) = &mut self.json {
            m.insert(def.key().into(), Value::Array(list));
        }
        Ok(())
    }
}

/// Why an object could not be described: its bytes (exit 3), or a password that is
/// missing or wrong (exit 3), or an algorithm this build lacks (exit 5).
#[derive(Debug)]
#[non_exhaustive]
pub enum Failure {
    /// The bytes do not decode as the object.
    Der(crate::der::Error),
    /// The backend could not open the object: a password missing or wrong, or an
    /// algorithm this build lacks.
    Backend(pkit_x509::backend::BackendError),
}

impl From<crate::der::Error> for Failure {
    fn from(e: crate::der::Error) -> Self {
        Failure::Der(e)
    }
}

impl From<pkit_x509::backend::BackendError> for Failure {
    fn from(e: pkit_x509::backend::BackendError) -> Self {
        Failure::Backend(e)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Der(e) => e.fmt(f),
            Failure::Backend(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Failure::Der(e) => Some(e),
            Failure::Backend(e) => Some(e),
        }
    }
}

impl Described {
    /// Name the input the object came from (`"source"` in the JSON): after the type for
    /// an ASN.1 tree, whose long node list comes last; at the end for the others.
    pub fn set_source(&mut self, name: &str) {
        if let Value::Object(m) = &mut self.json {
            if self.kind == Kind::Asn1 {
                m.shift_insert(1, "source".into(), name.into());
            } else {
                m.insert("source".into(), name.into());
            }
        }
    }
}
