//! Writing extensions: the `Extension` wrapper every writer (certificate profiles, CRLs,
//! CSRs, OCSP nonces, MTC certificates) puts its value in.
//!
//! ```asn1
//! Extension ::= SEQUENCE {
//!      extnID      OBJECT IDENTIFIER,
//!      critical    BOOLEAN DEFAULT FALSE,
//!      extnValue   OCTET STRING }
//! ```

use crate::der::{tag, Oid, Writer};

/// One `Extension`.
pub fn ext(w: &mut Writer, oid: &Oid, critical: bool, value: impl FnOnce(&mut Writer)) {
    w.sequence(|w| {
        w.oid(oid);
        if critical {
            w.boolean(true);
        }
        w.tlv(tag::OCTET_STRING, value);
    });
}
