//! What describing an object gives: its JSON, warnings, the objects `-f pem|der` emit,
//! certificate facts for `--summary`, a list printed as it is read, and why describing
//! failed.

use super::crl_entries;
use pkit::der::reader::Deviation;
use pkit::der::Time;
use pkit::pki::detect::Kind;
use serde_json::Value;

/// Facts about one certificate, for `--summary`.
#[derive(Debug, Clone)]
pub struct CertFacts {
    pub key: String,
    pub signature: String,
    pub not_before: Time,
    pub not_after: Time,
}

/// The result of describing one object.
#[derive(Debug)]
pub struct Described {
    pub kind: Kind,
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
}

/// A list too long to hold as JSON values: a million-entry CRL would be a million JSON
/// objects, gigabytes, before the first byte is printed. `json` holds an empty array under
/// the list's key; `-f json` writes the elements one by one from the object's DER
/// (`objects[0]`), and the other formats fill the array first ([`Described::fill_deferred`]).
#[derive(Debug, Clone, Copy)]
pub enum Deferred {
    /// A CRL's `revoked_certificates`, read in lenient mode or not.
    CrlEntries { lenient: bool },
}

impl Deferred {
    pub fn key(self) -> &'static str {
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
    pub fn new(kind: Kind, json: Value, der: &[u8]) -> Self {
        Described {
            kind,
            json,
            warnings: Vec::new(),
            objects: vec![(kind, der.to_vec())],
            certs: Vec::new(),
            deferred: None,
        }
    }

    /// Put the deferred list into `json`, for the formats that render from values.
    pub fn fill_deferred(&mut self) -> pkit::der::Result<()> {
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
pub enum Failure {
    Der(pkit::der::Error),
    Backend(pkit::pki::backend::BackendError),
}

impl From<pkit::der::Error> for Failure {
    fn from(e: pkit::der::Error) -> Self {
        Failure::Der(e)
    }
}

impl From<pkit::pki::backend::BackendError> for Failure {
    fn from(e: pkit::pki::backend::BackendError) -> Self {
        Failure::Backend(e)
    }
}

impl Failure {
    /// The CLI error for the input named `source`.
    pub fn into_cli(self, source: &str) -> crate::cmd::error::CliError {
        match self {
            Failure::Der(e) => crate::cmd::error::CliError::der(source, &e),
            Failure::Backend(e) => {
                let mut c = crate::cmd::error::CliError::from(e);
                c.message = format!("{source}: {}", c.message);
                c
            }
        }
    }
}
