//! Turning parsed objects into the JSON model that `-f json` prints and `-f text` renders.
//! One file per object type; the helpers here are shared by all of them.

pub mod cert;
pub mod crl;
pub mod csr;
pub mod ext;
pub mod key;
pub mod mtc;
pub mod ocsp;
pub mod pkcs12;
pub mod pkcs7;

use base64::Engine;
use pkit::der::hex;
use pkit::der::reader::Deviation;
use pkit::der::{Deviations, ObjectId, Reader, Time};
use pkit::pki::algid::AlgId;
use pkit::pki::detect::Kind;
use pkit::pki::name::Name;
use pkit::pki::spki::Spki;
use serde_json::{json, Map, Value};
use sha2::Digest as _;

/// Options that change what is described.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The time validity is judged against (`--now`).
    pub now: Time,
    /// Print private key material (`--show-private`).
    pub show_private: bool,
    /// Password for PKCS#12 and encrypted keys (`--passin`).
    pub password: Option<Vec<u8>>,
    /// Read BER, reporting deviations as warnings (`--lenient`).
    pub lenient: bool,
}

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
            Deferred::CrlEntries { .. } => crl::ENTRIES_KEY,
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
                        map.serialize_entry(k, &crl::EntriesJson { der, lenient })?
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
            Deferred::CrlEntries { lenient } => crl::entries_json(der, lenient)?,
        };
        if let Value::Object(m) = &mut self.json {
            m.insert(def.key().into(), Value::Array(list));
        }
        Ok(())
    }
}

/// Run `f` over a strict or lenient reader for `der`, collecting deviations.
pub fn with_reader<T>(
    der: &[u8],
    ctx: &Ctx,
    f: impl FnOnce(Reader<'_>) -> pkit::der::Result<T>,
) -> pkit::der::Result<(T, Vec<Deviation>)> {
    with_reader_mode(der, ctx.lenient, f)
}

/// [`with_reader`] for callers with an error type of their own.
pub fn with_reader_mode<T, E>(
    der: &[u8],
    lenient: bool,
    f: impl FnOnce(Reader<'_>) -> Result<T, E>,
) -> Result<(T, Vec<Deviation>), E> {
    let log = Deviations::new();
    let r = if lenient {
        Reader::lenient(der, &log)
    } else {
        Reader::new(der)
    };
    let v = f(r)?;
    Ok((v, log.take()))
}

pub fn oid_json(o: ObjectId<'_>) -> Value {
    json!({"oid": o.to_string(), "name": o.name().unwrap_or("")})
}

/// AlgorithmIdentifier: `{oid, name}`, plus `parameters_b64` when parameters other than
/// NULL are present.
pub fn algid_json(a: &AlgId<'_>) -> Value {
    let mut m = Map::new();
    m.insert("oid".into(), a.oid.to_string().into());
    m.insert("name".into(), a.oid.name().unwrap_or("").into());
    if let Some(p) = a.params {
        if p != [0x05, 0x00] {
            m.insert("parameters_b64".into(), b64(p).into());
        }
    }
    Value::Object(m)
}

pub fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub fn time_json(t: Time) -> Value {
    Value::String(t.to_string())
}

/// A Name as its RFC 4514 string.
pub fn dn(n: &Name<'_>) -> pkit::der::Result<String> {
    n.to_rfc4514()
}

/// A Name as a list of attributes, RDN order as encoded.
pub fn name_attributes_json(n: &Name<'_>) -> pkit::der::Result<Value> {
    let mut out = Vec::new();
    for rdn in n.rdns()? {
        for a in rdn {
            out.push(json!({
                "type": oid_json(a.oid),
                "value": a.text()?,
            }));
        }
    }
    Ok(Value::Array(out))
}

/// SubjectPublicKeyInfo: algorithm, family, size, key bytes, and the SHA-256 of the SPKI
/// (what pinning and MTC use).
pub fn spki_json(s: &Spki<'_>) -> pkit::der::Result<Value> {
    let info = s.key_info()?;
    let mut m = Map::new();
    m.insert("algorithm".into(), algid_json(&s.algorithm));
    m.insert("key_type".into(), info.family.into());
    m.insert("key_bits".into(), info.bits.into());
    if let Some(p) = info.parameters {
        m.insert("parameters".into(), p.into());
    }
    m.insert("public_key_b64".into(), b64(s.key.bytes).into());
    m.insert("sha256".into(), hex(&sha2::Sha256::digest(s.raw)).into());
    Ok(Value::Object(m))
}

/// "RSA 2048", "EC P-256", "ML-DSA-65" — the key label summaries group by.
pub fn key_label(s: &Spki<'_>) -> String {
    match s.key_info() {
        Ok(i) => match (i.family.as_str(), i.parameters, i.bits) {
            ("ML-DSA", Some(p), _) => p,
            (f, Some(p), _) => format!("{f} {p}"),
            (f, None, Some(b)) if f == "RSA" || f == "DSA" => format!("{f} {b}"),
            (f, _, _) => f.to_string(),
        },
        Err(_) => "unreadable key".into(),
    }
}

/// SHA-256 and SHA-1 fingerprints of the whole DER, lowercase hex.
pub fn fingerprints_json(der: &[u8]) -> Value {
    json!({
        "sha256": hex(&sha2::Sha256::digest(der)),
    })
}

/// The PEM text of an object.
pub fn pem_json(kind: Kind, der: &[u8]) -> Value {
    Value::String(super::io::pem_encode(kind.pem_label(), der))
}

/// One extension's JSON: `{oid, name, critical, value}`, the value decoded by
/// `pkit::pki::ext` (see `ext.rs`; unknown extensions show their DER).
pub fn extension_json(x: &pkit::pki::extension::Extension<'_>) -> Value {
    ext::extension_json(x.oid, x.critical, x.value, x.value_offset)
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
    pub fn into_cli(self, source: &str) -> super::error::CliError {
        match self {
            Failure::Der(e) => super::error::CliError::der(source, &e),
            Failure::Backend(e) => {
                let mut c = super::error::CliError::from(e);
                c.message = format!("{source}: {}", c.message);
                c
            }
        }
    }
}

/// Types other than certificates, dispatched to their own files.
pub fn other(kind: Kind, der: &[u8], ctx: &Ctx) -> Result<Described, Failure> {
    Ok(match kind {
        Kind::Certificate => cert::describe(der, ctx)?,
        Kind::Csr => csr::describe(der, ctx)?,
        Kind::Crl => crl::describe(der, ctx)?,
        Kind::OcspRequest => ocsp::describe_request(der, ctx)?,
        Kind::OcspResponse => ocsp::describe_response(der, ctx)?,
        Kind::Pkcs7 => pkcs7::describe(der, ctx)?,
        Kind::Pkcs12 => pkcs12::describe(der, ctx)?,
        Kind::Spki => key::describe_spki(der, ctx)?,
        Kind::Pkcs8 => key::describe_pkcs8(der, ctx)?,
        Kind::EncryptedPkcs8 => key::describe_encrypted(der, ctx)?,
        Kind::Checkpoint => mtc::describe_checkpoint(der)?,
        Kind::Asn1 => {
            let (nodes, warnings) = with_reader(der, ctx, pkit::der::tree::walk)?;
            let json = json!({"type": kind.as_str(), "elements": nodes.len()});
            let mut d = Described::new(kind, json, der);
            d.warnings = warnings;
            d
        }
    })
}
