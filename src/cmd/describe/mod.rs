//! Turning parsed objects into the JSON model that `-f json` prints and `-f text` renders.
//! One file per object type; what they share: [`ctx`] (the options), [`model`] (what
//! describing gives), [`json`] (the common JSON pieces).

pub mod cert;
pub mod crl;
pub mod crl_entries;
pub mod csr;
pub mod ctx;
pub mod ext;
pub mod json;
pub mod key;
pub mod model;
pub mod mtc;
pub mod ocsp;
pub mod pkcs12;
pub mod pkcs7;

use pkit::pki::detect::Kind;
use serde_json::json;

pub use ctx::Ctx;
pub use json::{
    algid_json, b64, dn, fingerprints_json, key_label, name_attributes_json, oid_json, pem_json,
    spki_json, time_json, with_reader,
};
pub use model::{CertFacts, Deferred, Described, Failure};

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
