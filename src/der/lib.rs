//! The DER engine: bytes and tags, nothing about PKI.
//!
//! - [`Reader`]: zero-copy cursor, strict DER or lenient BER with a [`Deviations`] log;
//! - [`Writer`]: continuation-style builder with back-patched lengths;
//! - value rules: [`integer`], [`primitives`] (BOOLEAN, NULL, OCTET/BIT STRING),
//!   [`ObjectId`] and [`Oid`], [`Time`], [`string`];
//! - [`tls`]: the TLS presentation language (length-prefixed vectors, big-endian
//!   integers) that SCTs and MTC structures are written in, with the same errors;
//! - [`pem`]: PEM (RFC 7468), the text form DER travels in, read and written;
//! - [`oid_registry`]: every OID pkit names; [`tree`]: generic dump; [`hex()`]: bytes as
//!   lowercase hex, [`parse_hex`] back.
//!
//! Write a value, then read it back; a reader borrows the input and fails with the byte
//! offset and field path of what it expected:
//!
//! ```
//! use pkit_der::{integer, oid_registry as oids, Reader, Writer};
//!
//! let mut w = Writer::new();
//! w.sequence(|w| {
//!     w.integer_u64(42);
//!     w.oid(&oids::AT_COMMON_NAME);
//! });
//! let der = w.finish();
//! assert_eq!(der[0], 0x30);
//!
//! let mut seq = Reader::new(&der).read_sequence()?;
//! assert_eq!(integer::to_u64(seq.read_integer()?, 0)?, 42);
//! assert!(seq.read_oid()? == oids::AT_COMMON_NAME);
//!
//! // Truncated input: an error at the offset where the length overruns.
//! let err = Reader::new(&der[..4]).read_sequence().unwrap_err();
//! assert_eq!(err.offset, 1);
//! # Ok::<(), pkit_der::Error>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

mod error;
mod hex;
pub mod integer;
mod oid;
pub mod oid_registry;
pub mod pem;
pub mod primitives;
mod reader;
pub mod string;
pub mod tag;
mod time;
pub mod tls;
pub mod tree;
mod writer;

#[cfg(test)]
mod properties;

// The reader, writer, OID, time and error types are the crate's core and live at its root;
// their modules stay private so that each has one path.
pub use error::{Context, Error, ErrorKind, Result};
pub use hex::{hex, parse_hex};
pub use oid::{encode_dotted, push_base128, ObjectId, Oid};
pub use reader::{Deviation, Deviations, Reader, Tlv, MAX_DEPTH};
pub use time::{parse_generalized_time, parse_utc_time, Civil, Time};
pub use writer::{Open, Writer};

#[cfg(any(test, feature = "test-util"))]
pub use hex::unhex;
