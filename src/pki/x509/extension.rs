//! The Extensions list of certificates, CRLs, CRL entries, CSRs and OCSP messages
//! (RFC 5280 §4.1.2.9, §4.2).
//!
//! ```asn1
//! Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension
//! Extension  ::= SEQUENCE {
//!     extnID      OBJECT IDENTIFIER,
//!     critical    BOOLEAN DEFAULT FALSE,
//!     extnValue   OCTET STRING }
//! ```

#![forbid(unsafe_code)]

use crate::der::{tag, Context, ErrorKind, ObjectId, Oid, Reader, Result};

#[derive(Debug, Clone, Copy)]
/// One Extension (RFC 5280 §4.1.2.9): `SEQUENCE { extnID OBJECT IDENTIFIER, critical
/// BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`.
pub struct Extension<'a> {
    /// The extnID: which extension this is.
    pub oid: ObjectId<'a>,
    /// Whether a relying party that does not know the extension must reject the
    /// certificate.
    pub critical: bool,
    /// The extnValue OCTET STRING's content (the DER of the extension's own type).
    pub value: &'a [u8],
    /// Absolute offset of `value[0]`.
    pub value_offset: usize,
}

/// The content of an Extensions SEQUENCE, decoded entry by entry.
#[derive(Debug, Clone, Copy)]
pub struct Extensions<'a> {
    /// Reader over the SEQUENCE content, in the mode the certificate was read with.
    body: Reader<'a>,
}

impl<'a> Extensions<'a> {
    /// The SEQUENCE's content octets: equal bytes, equal extensions.
    pub fn content(&self) -> &'a [u8] {
        self.body.remaining()
    }

    /// Read an `Extensions` SEQUENCE at the cursor.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let tlv = r.read_expect(tag::SEQUENCE)?;
        Ok(Extensions {
            body: r.with_base(tlv.content, tlv.content_offset()),
        })
    }

    /// Whether the SEQUENCE holds no extensions.
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// Every extension, in order; rejects duplicates (RFC 5280 §4.2: "MUST NOT include
    /// more than one instance of a particular extension"). Lenient mode lists them all
    /// and reports each duplicate; lookups (`find`) then see the first.
    pub fn list(&self) -> Result<Vec<Extension<'a>>> {
        let mut out: Vec<Extension<'a>> = Vec::with_capacity(10);
        let mut seen = SeenOids::default();
        let mut r = self.body;
        while !r.is_empty() {
            let i = out.len();
            let at = r.offset();
            let e = match read_one(&mut r).at_index(i).at("extensions") {
                Ok(e) => e,
                // A lenient reader (`parse --lenient`, the linter) notes where the list
                // broke and shows the extensions before it.
                Err(e) if r.is_lenient() => {
                    r.deviate(e.offset, e.kind)?;
                    break;
                }
                Err(e) => return Err(e),
            };
            if !seen.first_time(e.oid) {
                r.deviate(
                    at,
                    ErrorKind::Invalid(format!("duplicate extension {}", e.oid.name_or_dotted())),
                )
                .at(&format!("extensions[{i}]"))?;
            }
            out.push(e);
        }
        Ok(out)
    }

    /// Every extension, in order, duplicates included (for a linter, which reports them).
    pub fn all(&self) -> Result<Vec<Extension<'a>>> {
        let mut out = Vec::with_capacity(10);
        let mut r = self.body;
        while !r.is_empty() {
            let i = out.len();
            out.push(read_one(&mut r).at_index(i).at("extensions")?);
        }
        Ok(out)
    }

    /// Every extension up to the first that does not decode, and that one's error (for
    /// a linter, which judges what it can read and reports where the list broke).
    pub fn all_partial(&self) -> (Vec<Extension<'a>>, Option<crate::der::Error>) {
        let mut out = Vec::with_capacity(10);
        let mut r = self.body;
        while !r.is_empty() {
            let i = out.len();
            match read_one(&mut r).at_index(i).at("extensions") {
                Ok(e) => out.push(e),
                Err(e) => return (out, Some(e)),
            }
        }
        (out, None)
    }

    /// Each extension as (OID content octets, the whole Extension TLV), for copying
    /// extensions byte for byte (a CSR's requested extensions into a certificate).
    pub fn raw_elements(&self) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let mut out = Vec::new();
        let mut r = self.body;
        while !r.is_empty() {
            let i = out.len();
            let raw = r.remaining();
            let e = read_one(&mut r).at_index(i).at("extensions")?;
            let len = raw.len() - r.remaining().len();
            out.push((e.oid.as_bytes().to_vec(), raw[..len].to_vec()));
        }
        Ok(out)
    }

    /// The extension with this OID, if present.
    pub fn find(&self, oid: &Oid) -> Result<Option<Extension<'a>>> {
        Ok(self.list()?.into_iter().find(|e| e.oid == *oid))
    }
}

/// The OIDs of a list read so far, to tell a repeated one in one pass: a scan while the
/// list is short (as every real one is), a hash set past that, so that a list of many
/// thousands (hostile input: a certificate, a CRL, an OCSP request) costs linear time
/// rather than quadratic — 100,000 extensions took 13 s to parse before.
/// The short list lives inline: nothing is allocated for a real one, which every
/// certificate parsed reads.
#[derive(Default)]
pub struct SeenOids<'a> {
    few: [&'a [u8]; SCAN],
    len: usize,
    many: Option<std::collections::HashSet<&'a [u8]>>,
}

/// OIDs kept inline before a hash set takes over.
const SCAN: usize = 16;

impl<'a> SeenOids<'a> {
    /// Whether `oid` is seen here for the first time; it is remembered.
    pub fn first_time(&mut self, oid: ObjectId<'a>) -> bool {
        let oid = oid.as_bytes();
        if let Some(set) = &mut self.many {
            return set.insert(oid);
        }
        if self.few[..self.len].contains(&oid) {
            return false;
        }
        if self.len < SCAN {
            self.few[self.len] = oid;
            self.len += 1;
        } else {
            let mut set: std::collections::HashSet<&'a [u8]> = self.few.iter().copied().collect();
            set.insert(oid);
            self.many = Some(set);
        }
        true
    }
}

fn read_one<'a>(r: &mut Reader<'a>) -> Result<Extension<'a>> {
    let mut s = r.read_sequence()?;
    let oid = s.read_oid().at("extnID")?;
    let critical = s.read_default_false().at("critical")?;
    let v = s.read_expect(tag::OCTET_STRING).at("extnValue")?;
    s.finish()?;
    Ok(Extension {
        oid,
        critical,
        value: v.content,
        value_offset: v.content_offset(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Repeats are told below the scan's length and past it, where the hash set takes
    /// over with everything seen before.
    #[test]
    fn repeated_oids_are_told_in_short_and_long_lists() {
        let encoded: Vec<[u8; 3]> = (0..100u8).map(|i| [0x2b, 0x06, i]).collect();
        let mut seen = SeenOids::default();
        for e in &encoded {
            assert!(seen.first_time(ObjectId::from_valid(e)));
        }
        for at in [0, 3, 16, 17, 99] {
            assert!(!seen.first_time(ObjectId::from_valid(&encoded[at])), "{at}");
        }
        let mut few = SeenOids::default();
        assert!(few.first_time(ObjectId::from_valid(&encoded[1])));
        assert!(!few.first_time(ObjectId::from_valid(&encoded[1])));
    }
}
