//! The `pkit parse` model: any PKI object turned into the JSON that `parse -f json`
//! prints and `-f text` renders, with its warnings, the objects it holds and the facts
//! `--summary` counts. [`describe`] is the one entry point the command line, the fuzz
//! targets and the benchmarks call, with [`Ctx`] (the options and the backend) and
//! [`Described`] (what describing gives) or a [`Failure`]; [`Summary`] counts what a whole
//! input holds (`parse --summary`). Inside, one file per object type, sharing the common
//! JSON pieces.
//!
//! ```
//! use pkit_describe::{describe, Ctx};
//! use pkit_openssl as openssl;
//! use pkit_x509::detect::{self, Kind};
//!
//! // NIST PKITS's trust anchor, a DER file.
//! let der = std::fs::read("../../../tests/data/pkits/certs/TrustAnchorRootCertificate.crt").unwrap();
//! assert_eq!(detect::sniff(&der), Kind::Certificate);
//! let ctx = Ctx {
//!     now: pkit_der::Time::now(),
//!     show_private: false,
//!     password: None,
//!     lenient: false,
//!     backend: openssl::backend(),
//! };
//! let d = describe(Kind::Certificate, &der, &ctx).unwrap();
//! assert_eq!(d.json["subject_dn"], "CN=Trust Anchor,O=Test Certificates 2011,C=US");
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

/// The DER engine, under the path the modules use.
use pkit_der as der;

mod cert;
mod crl;
mod crl_entries;
mod csr;
mod ctx;
mod ext;
mod json;
mod key;
mod model;
mod mtc;
mod ocsp;
mod pkcs12;
mod pkcs7;
mod summary;

use pkit_x509::detect::Kind;
use serde_json::{json, Value};

pub use ctx::Ctx;
pub use json::with_reader;
pub use model::{CertFacts, Deferred, Described, Failure};
pub use summary::Summary;

/// Describe `der` as a `kind`: an unknown object (`Kind::Asn1`) as its ASN.1 tree.
pub fn describe(kind: Kind, der: &[u8], ctx: &Ctx) -> Result<Described, Failure> {
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
            let (nodes, warnings) = with_reader(der, ctx, crate::der::tree::walk)?;
            let nodes: Vec<Value> = nodes
                .iter()
                .map(|n| {
                    json!({
                        "depth": n.depth, "offset": n.offset, "header_length": n.header_len,
                        "length": n.content_len, "tag": n.label, "constructed": n.constructed,
                        "value": n.value,
                    })
                })
                .collect();
            let json = json!({"type": kind.as_str(), "nodes": nodes});
            let mut d = Described::new(kind, json, der);
            d.warnings = warnings;
            d
        }
    })
}
