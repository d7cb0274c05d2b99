//! Continuation-style DER writer (the CBB model): `w.sequence(|w| { w.integer_u64(2); … })`
//! writes into one growing buffer. Each constructed element reserves one length octet and
//! shifts its content only when the final length needs the long form.

use super::oid::Oid;
use super::tag;
use super::time::Time;

/// An element started with [`Writer::open`] and not yet closed. Not `Clone`: each is
/// closed or discarded exactly once.
#[derive(Debug)]
#[must_use = "close or discard the element"]
pub struct Open {
    len_pos: usize,
}

/// A growing DER encoding; each method appends one element and returns the writer, so
/// calls chain.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// An empty encoding.
    pub fn new() -> Self {
        Writer { buf: Vec::new() }
    }

    /// An empty encoding with room for `n` octets before it reallocates.
    pub fn with_capacity(n: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(n),
        }
    }

    /// The octets written.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }

    /// The octets written so far, the writer kept.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// How many octets have been written.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Append pre-encoded DER (a TBS, an SPKI, a Name copied byte for byte).
    #[inline]
    pub fn raw(&mut self, der: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(der);
        self
    }

    /// The tag and length of a TLV whose `len` content octets the caller appends next
    /// (content encoded elsewhere, too large to write twice: a CRL's entries).
    #[inline]
    pub fn header(&mut self, t: u8, len: usize) -> &mut Self {
        self.buf.push(t);
        push_length(&mut self.buf, len);
        self
    }

    /// A TLV whose content the closure writes; the length is back-patched.
    #[inline]
    pub fn tlv(&mut self, t: u8, f: impl FnOnce(&mut Writer)) -> &mut Self {
        let open = self.open(t);
        f(self);
        self.close(open);
        self
    }

    /// Start a constructed TLV whose content later calls write, for content produced
    /// outside one closure (a CRL's entries streamed from a database). Close it with
    /// [`Writer::close`] (innermost first) or drop it with [`Writer::discard`].
    #[inline]
    pub fn open(&mut self, t: u8) -> Open {
        self.buf.push(t);
        let len_pos = self.buf.len();
        self.buf.push(0);
        Open { len_pos }
    }

    /// Back-patch the length of an element started with [`Writer::open`].
    #[inline]
    pub fn close(&mut self, open: Open) {
        let len_pos = open.len_pos;
        let content_len = self.buf.len() - len_pos - 1;
        if content_len < 0x80 {
            self.buf[len_pos] = content_len as u8;
        } else {
            let n = (usize::BITS - content_len.leading_zeros()).div_ceil(8) as usize;
            // Make room for n more length octets and slide the content right once.
            self.buf.resize(self.buf.len() + n, 0);
            self.buf
                .copy_within(len_pos + 1..len_pos + 1 + content_len, len_pos + 1 + n);
            self.buf[len_pos] = 0x80 | n as u8;
            for i in 0..n {
                self.buf[len_pos + 1 + i] = (content_len >> (8 * (n - 1 - i))) as u8;
            }
        }
    }

    /// Remove an element started with [`Writer::open`], content and all.
    pub fn discard(&mut self, open: Open) {
        self.buf.truncate(open.len_pos - 1);
    }

    /// A TLV with given content bytes.
    #[inline]
    pub fn primitive(&mut self, t: u8, content: &[u8]) -> &mut Self {
        self.buf.push(t);
        push_length(&mut self.buf, content.len());
        self.buf.extend_from_slice(content);
        self
    }

    /// A SEQUENCE whose elements `f` writes.
    pub fn sequence(&mut self, f: impl FnOnce(&mut Writer)) -> &mut Self {
        self.tlv(tag::SEQUENCE, f)
    }

    /// A SET whose elements `f` writes, kept in the order written ([`Writer::set_of`]
    /// sorts them as DER needs for a SET OF).
    pub fn set(&mut self, f: impl FnOnce(&mut Writer)) -> &mut Self {
        self.tlv(tag::SET, f)
    }

    /// `SET OF`: DER sorts the encoded elements (X.690 §11.6); each closure writes one.
    pub fn set_of(&mut self, elements: &[&dyn Fn(&mut Writer)]) -> &mut Self {
        let mut encoded: Vec<Vec<u8>> = elements
            .iter()
            .map(|f| {
                let mut w = Writer::new();
                f(&mut w);
                w.finish()
            })
            .collect();
        encoded.sort();
        self.tlv(tag::SET, |w| {
            for e in &encoded {
                w.raw(e);
            }
        })
    }

    /// `[n] EXPLICIT`.
    pub fn explicit(&mut self, n: u8, f: impl FnOnce(&mut Writer)) -> &mut Self {
        self.tlv(tag::explicit(n), f)
    }

    /// A BOOLEAN: 0xFF for true, 0x00 for false (X.690 §11.1).
    pub fn boolean(&mut self, v: bool) -> &mut Self {
        self.primitive(tag::BOOLEAN, &[if v { 0xff } else { 0 }])
    }

    /// A NULL.
    pub fn null(&mut self) -> &mut Self {
        self.primitive(tag::NULL, &[])
    }

    /// A non-negative INTEGER in its shortest encoding.
    pub fn integer_u64(&mut self, v: u64) -> &mut Self {
        self.integer_unsigned(&v.to_be_bytes())
    }

    /// A non-negative INTEGER from big-endian magnitude bytes (leading zeros stripped,
    /// a 0x00 added when the high bit is set).
    pub fn integer_unsigned(&mut self, magnitude: &[u8]) -> &mut Self {
        self.integer_unsigned_tagged(tag::INTEGER, magnitude)
    }

    /// [`Writer::integer_unsigned`] under tag `t` (e.g. an `[n] IMPLICIT INTEGER`).
    pub fn integer_unsigned_tagged(&mut self, t: u8, magnitude: &[u8]) -> &mut Self {
        let first = magnitude
            .iter()
            .position(|&b| b != 0)
            .unwrap_or(magnitude.len());
        let m = &magnitude[first..];
        self.buf.push(t);
        if m.is_empty() {
            self.buf.extend_from_slice(&[1, 0]);
        } else if m[0] & 0x80 != 0 {
            push_length(&mut self.buf, m.len() + 1);
            self.buf.push(0);
            self.buf.extend_from_slice(m);
        } else {
            push_length(&mut self.buf, m.len());
            self.buf.extend_from_slice(m);
        }
        self
    }

    /// An ENUMERATED with value `v` (CRLReason, OCSPResponseStatus).
    pub fn enumerated(&mut self, v: u8) -> &mut Self {
        if v & 0x80 != 0 {
            self.primitive(tag::ENUMERATED, &[0, v])
        } else {
            self.primitive(tag::ENUMERATED, &[v])
        }
    }

    /// An OBJECT IDENTIFIER.
    pub fn oid(&mut self, oid: &Oid) -> &mut Self {
        self.primitive(tag::OID, oid.as_bytes())
    }

    /// An OCTET STRING holding `v`.
    pub fn octet_string(&mut self, v: &[u8]) -> &mut Self {
        self.primitive(tag::OCTET_STRING, v)
    }

    /// BIT STRING of whole octets (keys, signatures): unused bits 0.
    pub fn bit_string(&mut self, v: &[u8]) -> &mut Self {
        self.buf.push(tag::BIT_STRING);
        push_length(&mut self.buf, v.len() + 1);
        self.buf.push(0);
        self.buf.extend_from_slice(v);
        self
    }

    /// A named-bit BIT STRING (KeyUsage): bits numbered from the MSB of the first octet;
    /// DER drops trailing zero bits (X.690 §11.2.2).
    pub fn named_bits(&mut self, bits: &[usize]) -> &mut Self {
        let Some(&max) = bits.iter().max() else {
            return self.primitive(tag::BIT_STRING, &[0]);
        };
        let mut bytes = vec![0u8; max / 8 + 1];
        for &b in bits {
            bytes[b / 8] |= 0x80 >> (b % 8);
        }
        let unused = 7 - (max % 8) as u8;
        self.buf.push(tag::BIT_STRING);
        push_length(&mut self.buf, bytes.len() + 1);
        self.buf.push(unused);
        self.buf.extend_from_slice(&bytes);
        self
    }

    /// A UTF8String.
    pub fn utf8_string(&mut self, s: &str) -> &mut Self {
        self.primitive(tag::UTF8_STRING, s.as_bytes())
    }

    /// A PrintableString; the caller checks that `s` uses only its characters.
    pub fn printable_string(&mut self, s: &str) -> &mut Self {
        self.primitive(tag::PRINTABLE_STRING, s.as_bytes())
    }

    /// An IA5String; the caller checks that `s` is ASCII.
    pub fn ia5_string(&mut self, s: &str) -> &mut Self {
        self.primitive(tag::IA5_STRING, s.as_bytes())
    }

    /// RFC 5280 Time: UTCTime through 2049, GeneralizedTime after.
    pub fn time(&mut self, t: Time) -> &mut Self {
        if t.uses_utc_time() {
            self.primitive(tag::UTC_TIME, &t.utc_time_bytes())
        } else {
            self.generalized_time(t)
        }
    }

    /// A GeneralizedTime, `YYYYMMDDHHMMSSZ` (X.690 §11.7).
    pub fn generalized_time(&mut self, t: Time) -> &mut Self {
        match t.generalized_time_bytes() {
            Some(b) => self.primitive(tag::GENERALIZED_TIME, &b),
            None => self.primitive(tag::GENERALIZED_TIME, t.to_generalized_string().as_bytes()),
        }
    }
}

/// Append a DER length.
pub(crate) fn push_length(buf: &mut Vec<u8>, len: usize) {
    if len < 0x80 {
        buf.push(len as u8);
    } else {
        let n = (usize::BITS - len.leading_zeros()).div_ceil(8) as usize;
        buf.push(0x80 | n as u8);
        for i in (0..n).rev() {
            buf.push((len >> (8 * i)) as u8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::{parse_single, Reader};

    #[test]
    fn back_patches_short_and_long_lengths() {
        for n in [0usize, 1, 127, 128, 255, 256, 65_535, 65_536, 70_000] {
            let mut w = Writer::new();
            w.sequence(|w| {
                w.octet_string(&vec![0xab; n]);
            });
            let der = w.finish();
            let tlv = parse_single(&der).unwrap();
            let mut inner = Reader::new(tlv.content);
            assert_eq!(inner.read_octet_string().unwrap().len(), n);
        }
    }

    #[test]
    fn nested_long_lengths_shift_correctly() {
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.octet_string(&[1; 200]);
            });
            w.integer_u64(7);
        });
        let der = w.finish();
        let mut r = Reader::new(&der);
        let mut s = r.read_sequence().unwrap();
        let mut s2 = s.read_sequence().unwrap();
        assert_eq!(s2.read_octet_string().unwrap(), &[1; 200][..]);
        assert_eq!(s.read_u64().unwrap(), 7);
    }

    #[test]
    fn integers_are_minimal() {
        let enc = |m: &[u8]| {
            let mut w = Writer::new();
            w.integer_unsigned(m);
            w.finish()
        };
        assert_eq!(enc(&[0, 0, 5]), [2, 1, 5]);
        assert_eq!(enc(&[0x80]), [2, 2, 0, 0x80]);
        assert_eq!(enc(&[]), [2, 1, 0]);
        assert_eq!(enc(&[0, 0]), [2, 1, 0]);
        for v in [0u64, 1, 127, 128, 255, 256, u64::MAX] {
            let mut w = Writer::new();
            w.integer_u64(v);
            assert_eq!(Reader::new(w.as_bytes()).read_u64().unwrap(), v);
        }
    }

    #[test]
    fn named_bits_drop_trailing_zeros() {
        let mut w = Writer::new();
        w.named_bits(&[0, 5]); // digitalSignature, keyCertSign
        assert_eq!(w.finish(), [3, 2, 2, 0x84]);
        let mut w = Writer::new();
        w.named_bits(&[0]);
        assert_eq!(w.finish(), [3, 2, 7, 0x80]);
        let mut w = Writer::new();
        w.named_bits(&[8]); // decipherOnly
        assert_eq!(w.finish(), [3, 3, 7, 0, 0x80]);
    }

    #[test]
    fn set_of_is_sorted() {
        let mut w = Writer::new();
        w.set_of(&[
            &|w: &mut Writer| {
                w.integer_u64(300);
            },
            &|w: &mut Writer| {
                w.integer_u64(2);
            },
        ]);
        assert_eq!(w.finish(), [0x31, 7, 2, 1, 2, 2, 2, 1, 0x2c]);
    }

    #[test]
    fn times_pick_the_rfc5280_type() {
        let mut w = Writer::new();
        w.time(Time::parse_rfc3339("2049-12-31T23:59:59Z").unwrap());
        assert_eq!(w.as_bytes()[0], tag::UTC_TIME);
        let mut w = Writer::new();
        w.time(Time::parse_rfc3339("2050-01-01T00:00:00Z").unwrap());
        assert_eq!(w.as_bytes()[0], tag::GENERALIZED_TIME);
        assert_eq!(
            Reader::new(w.as_bytes()).read_time().unwrap().to_string(),
            "2050-01-01T00:00:00Z"
        );
    }
}
