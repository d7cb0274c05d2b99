//! Zero-copy DER cursor (the cryptobyte/CBS model): every read either advances over one
//! TLV and returns a borrowed span of its content, or fails with the absolute byte offset.
//!
//! Strict DER by default. A [`Reader`] made with [`Reader::lenient`] also accepts BER
//! length forms (non-minimal, indefinite) and records each deviation in a [`Deviations`]
//! log instead of failing; the value checks (INTEGER, BOOLEAN, BIT STRING, times,
//! strings) live in `values.rs` and consult the same mode through [`Reader::deviate`].

use super::error::{Error, ErrorKind, Result};
use super::tag;
use std::sync::Mutex;

/// Maximum nesting depth for recursive walks (tree dump, indefinite-length scanning).
/// Real PKI structures nest fewer than 20 levels; a 10,000-deep input is hostile.
pub const MAX_DEPTH: usize = 64;

/// One BER deviation accepted in lenient mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deviation {
    /// Absolute byte offset of the deviating encoding.
    pub offset: usize,
    /// The DER rule the input broke.
    pub what: ErrorKind,
}

/// The log a lenient reader appends to, one per parse. A mutex rather than a `RefCell`
/// so that parsed views (which keep their reader, and with it the log) are `Sync` and can
/// be shared across threads, as path building shares its certificate pools; only
/// lenient parses ever touch it.
#[derive(Debug, Default)]
pub struct Deviations(Mutex<Vec<Deviation>>);

impl Deviations {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }
    /// Record that the rule `what` was broken at `offset`.
    pub fn push(&self, offset: usize, what: ErrorKind) {
        self.log().push(Deviation { offset, what });
    }
    /// The deviations recorded so far, in the order recorded; the log is left empty.
    pub fn take(&self) -> Vec<Deviation> {
        std::mem::take(&mut *self.log())
    }
    /// Whether nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.log().is_empty()
    }
    /// The list; a panic elsewhere while it was held leaves it as it was, still usable.
    fn log(&self) -> std::sync::MutexGuard<'_, Vec<Deviation>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A decoded TLV header plus its content span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tlv<'a> {
    /// First identifier octet (class, constructed bit, low tag number or 0x1f).
    pub tag: u8,
    /// Full tag number (differs from `tag & 0x1f` only for high tag numbers).
    pub number: u32,
    /// Absolute offset of the identifier octet.
    pub offset: usize,
    /// Identifier + length octets.
    pub header_len: usize,
    /// Content octets (for indefinite length: up to, not including, the end-of-contents).
    pub content: &'a [u8],
    /// True when the length was indefinite (lenient mode only).
    pub indefinite: bool,
    /// Bytes the whole element occupies in the input, end-of-contents octets included.
    pub total_len: usize,
}

impl<'a> Tlv<'a> {
    /// Absolute offset of the first content octet.
    pub fn content_offset(&self) -> usize {
        self.offset + self.header_len
    }
    /// Whether the identifier octet has the constructed bit (X.690 §8.1.2.5).
    pub fn is_constructed(&self) -> bool {
        self.tag & tag::CONSTRUCTED != 0
    }
}

/// A cursor over DER bytes. Cheap to copy; sub-readers share the input.
#[derive(Clone, Copy)]
pub struct Reader<'a> {
    data: &'a [u8],
    /// Absolute offset of `data[0]` in the original input.
    base: usize,
    lenient: Option<&'a Deviations>,
}

impl std::fmt::Debug for Reader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("offset", &self.base)
            .field("remaining", &self.data.len())
            .field("lenient", &self.lenient.is_some())
            .finish()
    }
}

impl<'a> Reader<'a> {
    /// A strict DER reader over `data`, offsets counted from 0.
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Reader {
            data,
            base: 0,
            lenient: None,
        }
    }

    /// A reader that accepts BER deviations, logging each one.
    pub fn lenient(data: &'a [u8], log: &'a Deviations) -> Self {
        Reader {
            data,
            base: 0,
            lenient: Some(log),
        }
    }

    /// A reader over a sub-span whose first byte sits at absolute `offset`.
    #[inline]
    pub fn with_base(&self, data: &'a [u8], offset: usize) -> Self {
        Reader {
            data,
            base: offset,
            lenient: self.lenient,
        }
    }

    /// Absolute byte offset of the next unread octet in the whole input.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base
    }
    /// The octets not read yet.
    #[inline]
    pub fn remaining(&self) -> &'a [u8] {
        self.data
    }
    /// Whether every octet has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// Whether this reader accepts BER deviations and logs them instead of failing.
    pub fn is_lenient(&self) -> bool {
        self.lenient.is_some()
    }

    /// In strict mode, fail with `kind` at `offset`; in lenient mode, log it and go on.
    #[inline]
    pub fn deviate(&self, offset: usize, kind: ErrorKind) -> Result<()> {
        match self.lenient {
            Some(log) => {
                log.push(offset, kind);
                Ok(())
            }
            None => Err(Error::new(offset, kind)),
        }
    }

    /// The first identifier octet of the next element, if any.
    #[inline]
    pub fn peek_tag(&self) -> Option<u8> {
        self.data.first().copied()
    }

    /// Fail unless every byte has been consumed.
    #[inline]
    pub fn finish(&self) -> Result<()> {
        if self.data.is_empty() {
            Ok(())
        } else {
            Err(Error::new(
                self.base,
                ErrorKind::TrailingData {
                    count: self.data.len(),
                },
            ))
        }
    }

    /// Read the next element of any tag.
    #[inline(always)]
    pub fn read_tlv(&mut self) -> Result<Tlv<'a>> {
        if let Some(tlv) = self.fast_tlv() {
            return Ok(tlv);
        }
        self.read_tlv_general()
    }

    /// [`Self::read_tlv`] past its fast path (see [`Self::read_expect_general`]).
    #[inline(never)]
    fn read_tlv_general(&mut self) -> Result<Tlv<'a>> {
        let tlv = self.parse_tlv(0)?;
        self.data = &self.data[tlv.total_len..];
        self.base += tlv.total_len;
        Ok(tlv)
    }

    /// Read the next element, which must carry `expected` as its single identifier octet,
    /// and return its content.
    #[inline]
    pub fn read(&mut self, expected: u8) -> Result<&'a [u8]> {
        Ok(self.read_expect(expected)?.content)
    }

    /// As [`read`](Self::read) but returns the whole TLV (for callers that need offsets or
    /// the raw encoding).
    #[inline(always)]
    pub fn read_expect(&mut self, expected: u8) -> Result<Tlv<'a>> {
        if self.data.first() == Some(&expected) {
            if let Some(tlv) = self.fast_tlv() {
                return Ok(tlv);
            }
        }
        self.read_expect_general(expected)
    }

    /// [`Self::read_expect`] past its fast path: long or non-minimal lengths, high tag
    /// numbers, and every error. Kept out of line so the fast path inlines small.
    #[inline(never)]
    fn read_expect_general(&mut self, expected: u8) -> Result<Tlv<'a>> {
        match self.data.first() {
            None => Err(Error::new(
                self.base,
                ErrorKind::Truncated {
                    needed: 1,
                    available: 0,
                },
            )),
            Some(&found) if found != expected => Err(Error::new(
                self.base,
                ErrorKind::UnexpectedTag { expected, found },
            )),
            Some(_) => self.read_tlv(),
        }
    }

    /// Read a constructed element and return a reader over its content.
    #[inline]
    pub fn read_nested(&mut self, expected: u8) -> Result<Reader<'a>> {
        let tlv = self.read_expect(expected)?;
        Ok(self.with_base(tlv.content, tlv.content_offset()))
    }

    /// `SEQUENCE { … }` content as a reader.
    #[inline]
    pub fn read_sequence(&mut self) -> Result<Reader<'a>> {
        self.read_nested(tag::SEQUENCE)
    }

    /// Read the element only if its tag matches.
    #[inline]
    pub fn read_optional(&mut self, expected: u8) -> Result<Option<Tlv<'a>>> {
        if self.peek_tag() == Some(expected) {
            self.read_expect(expected).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The raw bytes (header included) of the next element, advancing over it.
    #[inline]
    pub fn read_raw(&mut self) -> Result<&'a [u8]> {
        let start = self.data;
        let tlv = self.read_tlv()?;
        Ok(&start[..tlv.total_len])
    }

    /// The common case, read without a call: a low tag number and a definite, minimal
    /// length of at most two octets — what nearly every element of a certificate is.
    /// `None` (nothing consumed) for anything else, which [`Self::parse_tlv`] then
    /// decides, errors included, exactly as it always has.
    #[inline(always)]
    fn fast_tlv(&mut self) -> Option<Tlv<'a>> {
        let d = self.data;
        if d.len() < 2 || d[0] & 0x1f == 0x1f {
            return None;
        }
        let (header_len, len) = match d[1] {
            l if l < 0x80 => (2, usize::from(l)),
            0x81 if d.len() >= 3 && d[2] >= 0x80 => (3, usize::from(d[2])),
            0x82 if d.len() >= 4 && d[2] != 0 => (4, usize::from(d[2]) << 8 | usize::from(d[3])),
            _ => return None,
        };
        if len > d.len() - header_len {
            return None;
        }
        let total_len = header_len + len;
        let tlv = Tlv {
            tag: d[0],
            number: u32::from(d[0] & 0x1f),
            offset: self.base,
            header_len,
            content: &d[header_len..total_len],
            indefinite: false,
            total_len,
        };
        self.data = &d[total_len..];
        self.base += total_len;
        Some(tlv)
    }

    /// Decode the header at the cursor without advancing. `depth` bounds the recursion
    /// needed to find the end of an indefinite-length element.
    fn parse_tlv(&self, depth: usize) -> Result<Tlv<'a>> {
        let d = self.data;
        let at = self.base;
        let truncated = |needed: usize, available: usize| {
            Error::new(at + available, ErrorKind::Truncated { needed, available })
        };
        let first = *d.first().ok_or_else(|| truncated(1, 0))?;
        let mut pos = 1;
        let mut number = u32::from(first & 0x1f);
        if number == 0x1f {
            // High tag number: base-128, minimal, fits u32.
            number = 0;
            loop {
                let b = *d.get(pos).ok_or_else(|| truncated(1, pos))?;
                if pos == 1 && b == 0x80 {
                    return Err(Error::invalid(
                        at + pos,
                        "expected a minimal high tag number",
                    ));
                }
                if number > (u32::MAX >> 7) {
                    return Err(Error::invalid(at + pos, "expected a tag number below 2^32"));
                }
                number = (number << 7) | u32::from(b & 0x7f);
                pos += 1;
                if b & 0x80 == 0 {
                    break;
                }
            }
        }
        let len_at = at + pos;
        let l0 = *d.get(pos).ok_or_else(|| truncated(1, pos))?;
        pos += 1;
        let length: Option<usize> = if l0 < 0x80 {
            Some(usize::from(l0))
        } else if l0 == 0x80 {
            None
        } else {
            let n = usize::from(l0 & 0x7f);
            if n > 4 {
                return Err(Error::new(len_at, ErrorKind::LengthTooLarge));
            }
            let bytes = d
                .get(pos..pos + n)
                .ok_or_else(|| truncated(n, d.len() - pos))?;
            pos += n;
            let mut v: usize = 0;
            for &b in bytes {
                v = (v << 8) | usize::from(b);
            }
            // Minimal: no leading zero octet, and long form only for lengths >= 128.
            if bytes[0] == 0 || v < 0x80 {
                self.deviate(len_at, ErrorKind::NonMinimalLength)?;
            }
            Some(v)
        };
        let available = d.len() - pos;
        match length {
            Some(len) => {
                if len > available {
                    return Err(Error::new(
                        len_at,
                        ErrorKind::LengthOverrun {
                            length: len,
                            available,
                        },
                    ));
                }
                Ok(Tlv {
                    tag: first,
                    number,
                    offset: at,
                    header_len: pos,
                    content: &d[pos..pos + len],
                    indefinite: false,
                    total_len: pos + len,
                })
            }
            None => {
                if first & tag::CONSTRUCTED == 0 {
                    return Err(Error::invalid(
                        len_at,
                        "expected a definite length on a primitive element",
                    ));
                }
                self.deviate(len_at, ErrorKind::IndefiniteLength)?;
                if depth >= MAX_DEPTH {
                    return Err(Error::new(at, ErrorKind::TooDeep { limit: MAX_DEPTH }));
                }
                // Walk children until the end-of-contents octets 00 00.
                let mut inner = self.with_base(&d[pos..], at + pos);
                loop {
                    if inner.data.len() >= 2 && inner.data[0] == 0 && inner.data[1] == 0 {
                        let content_len = inner.base - (at + pos);
                        return Ok(Tlv {
                            tag: first,
                            number,
                            offset: at,
                            header_len: pos,
                            content: &d[pos..pos + content_len],
                            indefinite: true,
                            total_len: pos + content_len + 2,
                        });
                    }
                    if inner.data.is_empty() {
                        return Err(Error::invalid(
                            inner.base,
                            "expected end-of-contents octets for an indefinite length",
                        ));
                    }
                    let child = inner.parse_tlv(depth + 1)?;
                    inner.data = &inner.data[child.total_len..];
                    inner.base += child.total_len;
                }
            }
        }
    }
}

/// Parse exactly one element spanning all of `data` (trailing bytes are an error); the
/// tests' way to read what a writer produced.
#[cfg(test)]
pub(crate) fn parse_single(data: &[u8]) -> Result<Tlv<'_>> {
    let mut r = Reader::new(data);
    let tlv = r.read_tlv()?;
    r.finish()?;
    Ok(tlv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nested_sequence_with_offsets() {
        // SEQUENCE { INTEGER 5, SEQUENCE { NULL } }
        let der = [0x30, 0x07, 0x02, 0x01, 0x05, 0x30, 0x02, 0x05, 0x00];
        let mut r = Reader::new(&der);
        let mut seq = r.read_sequence().unwrap();
        assert!(r.is_empty());
        assert_eq!(seq.offset(), 2);
        assert_eq!(seq.read(tag::INTEGER).unwrap(), &[5]);
        let mut inner = seq.read_sequence().unwrap();
        assert_eq!(inner.offset(), 7);
        assert_eq!(inner.read(tag::NULL).unwrap(), &[] as &[u8]);
        seq.finish().unwrap();
    }

    #[test]
    fn wrong_tag_names_both() {
        let der = [0x02, 0x01, 0x05];
        let err = Reader::new(&der).read(tag::SEQUENCE).unwrap_err();
        assert_eq!(err.offset, 0);
        assert_eq!(
            err.kind,
            ErrorKind::UnexpectedTag {
                expected: 0x30,
                found: 0x02
            }
        );
        assert!(err.to_string().contains("expected SEQUENCE"));
    }

    #[test]
    fn long_form_lengths() {
        let mut der = vec![0x04, 0x81, 0x80];
        der.extend(std::iter::repeat_n(0xaa, 0x80));
        let tlv = parse_single(&der).unwrap();
        assert_eq!(tlv.content.len(), 0x80);
        assert_eq!(tlv.header_len, 3);

        let mut der = vec![0x04, 0x82, 0x01, 0x00];
        der.extend(std::iter::repeat_n(0, 256));
        assert_eq!(parse_single(&der).unwrap().content.len(), 256);
    }

    #[test]
    fn rejects_non_minimal_length_strict_accepts_lenient() {
        let der = [0x04, 0x81, 0x01, 0xaa];
        let err = parse_single(&der).unwrap_err();
        assert_eq!(err.kind, ErrorKind::NonMinimalLength);
        assert_eq!(err.offset, 1);
        let der2 = [0x04, 0x82, 0x00, 0x01, 0xaa];
        assert_eq!(
            parse_single(&der2).unwrap_err().kind,
            ErrorKind::NonMinimalLength
        );

        let log = Deviations::new();
        let mut r = Reader::lenient(&der, &log);
        assert_eq!(r.read(tag::OCTET_STRING).unwrap(), &[0xaa]);
        let devs = log.take();
        assert_eq!(devs.len(), 1);
        assert_eq!(devs[0].offset, 1);
    }

    #[test]
    fn rejects_indefinite_length_strict_reads_it_lenient() {
        // SEQUENCE (indefinite) { INTEGER 1 } EOC
        let der = [0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00];
        assert_eq!(
            parse_single(&der).unwrap_err().kind,
            ErrorKind::IndefiniteLength
        );
        let log = Deviations::new();
        let mut r = Reader::lenient(&der, &log);
        let tlv = r.read_tlv().unwrap();
        assert!(tlv.indefinite);
        assert_eq!(tlv.content, &[0x02, 0x01, 0x01]);
        assert_eq!(tlv.total_len, 7);
        r.finish().unwrap();
        assert_eq!(log.take().len(), 1);
    }

    #[test]
    fn indefinite_without_eoc_fails() {
        let der = [0x30, 0x80, 0x02, 0x01, 0x01];
        let log = Deviations::new();
        assert!(Reader::lenient(&der, &log).read_tlv().is_err());
    }

    #[test]
    fn length_overrun_and_truncation() {
        let der = [0x30, 0x05, 0x02, 0x01];
        let err = parse_single(&der).unwrap_err();
        assert_eq!(
            err.kind,
            ErrorKind::LengthOverrun {
                length: 5,
                available: 2
            }
        );
        assert!(matches!(
            parse_single(&[0x30]).unwrap_err().kind,
            ErrorKind::Truncated { .. }
        ));
        assert!(matches!(
            parse_single(&[0x30, 0x82, 0x01]).unwrap_err().kind,
            ErrorKind::Truncated { .. }
        ));
        assert_eq!(
            parse_single(&[0x30, 0x85, 1, 1, 1, 1, 1]).unwrap_err().kind,
            ErrorKind::LengthTooLarge
        );
    }

    #[test]
    fn trailing_data_is_reported_at_its_offset() {
        let der = [0x05, 0x00, 0xff];
        let err = parse_single(&der).unwrap_err();
        assert_eq!(err.offset, 2);
        assert_eq!(err.kind, ErrorKind::TrailingData { count: 1 });
    }

    #[test]
    fn high_tag_numbers() {
        let der = [0x9f, 0x81, 0x00, 0x01, 0x07];
        let tlv = parse_single(&der).unwrap();
        assert_eq!(tlv.number, 128);
        assert_eq!(tlv.content, &[7]);
    }

    #[test]
    fn deep_indefinite_nesting_is_bounded() {
        let mut der = Vec::new();
        for _ in 0..10_000 {
            der.extend([0x30, 0x80]);
        }
        for _ in 0..10_000 {
            der.extend([0x00, 0x00]);
        }
        let log = Deviations::new();
        let err = Reader::lenient(&der, &log).read_tlv().unwrap_err();
        assert_eq!(err.kind, ErrorKind::TooDeep { limit: MAX_DEPTH });
    }
}
