//! The DER engine: bytes and tags, nothing about PKI.
//!
//! - [`reader`]: zero-copy cursor, strict DER or lenient BER with a deviation log;
//! - [`writer`]: continuation-style builder with back-patched lengths;
//! - value rules: [`integer`], [`primitives`] (BOOLEAN, NULL, OCTET/BIT STRING), [`oid`],
//!   [`time`], [`string`];
//! - [`tls`]: the TLS presentation language (length-prefixed vectors, big-endian
//!   integers) that SCTs and MTC structures are written in, with the same errors;
//! - [`oid_registry`]: every OID pkit names; [`tree`]: generic dump; [`hex()`]: bytes as
//!   lowercase hex.

#![forbid(unsafe_code)]

pub mod error;
mod hex;
pub mod integer;
pub mod oid;
pub mod oid_registry;
pub mod primitives;
pub mod reader;
pub mod string;
pub mod tag;
pub mod time;
pub mod tls;
pub mod tree;
pub mod writer;

#[cfg(test)]
mod properties;

pub use error::{Context, Error, ErrorKind, Result};
pub use hex::hex;
pub use oid::{ObjectId, Oid};
pub use reader::{Deviations, Reader};
pub use time::Time;
pub use writer::Writer;

#[cfg(test)]
pub use hex::unhex;
