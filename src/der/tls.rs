//! The TLS presentation language (RFC 8446 §3): big-endian unsigned integers and vectors
//! `opaque x<min..max>` prefixed with their length, the prefix as wide as `max` needs
//! (1 to 4 bytes). Certificate Transparency SCTs and every MTC structure (log entries,
//! proofs, the cosigned subtree message, checkpoint signatures) are written in it.
//!
//! Not DER, but it lives beside the DER engine because both are byte-level codecs with
//! the same error shape: every [`Error`] carries the absolute offset where decoding
//! stopped, a truncation names the bytes needed and available (at the end of the input,
//! as the DER reader reports it), and a vector whose length is outside `min..max`
//! names both.

use super::error::{Error, ErrorKind, Result};

/// Bytes of the length prefix of a vector whose largest length is `max`.
fn prefix_width(max: usize) -> usize {
    match max {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xff_ffff => 3,
        _ => 4,
    }
}

/// A bounds-checked cursor over TLS-encoded bytes. Offsets are absolute: the first byte
/// sits at the base given to [`Reader::with_base`].
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    base: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `data`, offsets counted from its first byte.
    pub fn new(data: &'a [u8]) -> Self {
        Reader::with_base(data, 0)
    }

    /// A reader over bytes whose first byte sits at absolute `offset`.
    pub fn with_base(data: &'a [u8], offset: usize) -> Self {
        Reader { data, base: offset }
    }

    /// The absolute offset of the next byte.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base
    }

    /// What has not been read yet.
    #[inline]
    pub fn remaining(&self) -> &'a [u8] {
        self.data
    }

    /// Whether every byte has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let available = self.data.len();
        if n > available {
            return Err(Error::new(
                self.base + available,
                ErrorKind::Truncated {
                    needed: n - available,
                    available,
                },
            ));
        }
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        self.base += n;
        Ok(head)
    }

    /// A fixed-size field (`opaque key_id[32]`).
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.bytes(N)?);
        Ok(a)
    }

    /// A big-endian unsigned integer of `n` ≤ 8 bytes.
    fn uint(&mut self, n: usize) -> Result<u64> {
        Ok(self
            .bytes(n)?
            .iter()
            .fold(0u64, |v, &b| (v << 8) | u64::from(b)))
    }

    /// Read a `uint8`.
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.bytes(1)?[0])
    }

    /// Read a big-endian `uint16`.
    pub fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    /// Read a big-endian `uint24`.
    pub fn u24(&mut self) -> Result<u32> {
        // Three bytes always fit.
        Ok(self.uint(3)? as u32)
    }

    /// Read a big-endian `uint32`.
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array()?))
    }

    /// `uint48` (MTC indices).
    pub fn u48(&mut self) -> Result<u64> {
        self.uint(6)
    }

    /// Read a big-endian `uint64`.
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_be_bytes(self.array()?))
    }

    /// `opaque x<min..max>`: the length prefix (as wide as `max` needs), checked against
    /// `min..=max`, then the body, as a reader positioned at its first byte.
    pub fn vector(&mut self, min: usize, max: usize) -> Result<Reader<'a>> {
        let at = self.base;
        let length = self.uint(prefix_width(max))? as usize;
        if length < min || length > max {
            return Err(Error::new(at, vector_length(length, min, max)));
        }
        let body_at = self.base;
        Ok(Reader::with_base(self.bytes(length)?, body_at))
    }

    /// Fail unless every byte has been read.
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
}

/// A growing TLS encoding. Vectors are written by a closure and their length prefix
/// back-patched, so nested vectors need no intermediate buffers.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// An empty encoding.
    pub fn new() -> Self {
        Writer::default()
    }

    /// An empty encoding with room for `n` bytes before it reallocates.
    pub fn with_capacity(n: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(n),
        }
    }

    /// The bytes written.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }

    /// How many bytes have been written.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Bytes as they are (fixed-size fields, pre-encoded structures).
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }

    /// The low `n` bytes of `v`, big-endian; `v` must fit them.
    fn uint(&mut self, n: usize, v: u64) -> Result<&mut Self> {
        if n < 8 && v >> (8 * n) != 0 {
            return Err(Error::new(self.buf.len(), ErrorKind::IntegerOverflow));
        }
        self.buf.extend_from_slice(&v.to_be_bytes()[8 - n..]);
        Ok(self)
    }

    /// Write a `uint8`.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }

    /// Write a big-endian `uint16`.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes(&v.to_be_bytes())
    }

    /// `uint24`: fails when `v` needs more than three bytes.
    pub fn u24(&mut self, v: u32) -> Result<&mut Self> {
        self.uint(3, u64::from(v))
    }

    /// Write a big-endian `uint32`.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_be_bytes())
    }

    /// `uint48`: fails when `v` needs more than six bytes.
    pub fn u48(&mut self, v: u64) -> Result<&mut Self> {
        self.uint(6, v)
    }

    /// Write a big-endian `uint64`.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_be_bytes())
    }

    /// `opaque x<min..max>` whose body `f` writes. The prefix (as wide as `max` needs) is
    /// reserved first and filled in afterwards; a body outside `min..=max` is an error
    /// at the prefix's offset, and nothing of the vector is kept.
    pub fn vector<E: From<Error>>(
        &mut self,
        min: usize,
        max: usize,
        f: impl FnOnce(&mut Writer) -> std::result::Result<(), E>,
    ) -> std::result::Result<&mut Self, E> {
        let at = self.buf.len();
        let width = prefix_width(max);
        self.buf.resize(at + width, 0);
        if let Err(e) = f(self) {
            self.buf.truncate(at);
            return Err(e);
        }
        let length = self.buf.len() - at - width;
        if length < min || length > max {
            self.buf.truncate(at);
            return Err(Error::new(at, vector_length(length, min, max)).into());
        }
        let prefix = (length as u64).to_be_bytes();
        self.buf[at..at + width].copy_from_slice(&prefix[8 - width..]);
        Ok(self)
    }

    /// `opaque x<min..max>` holding `body`.
    pub fn opaque(&mut self, min: usize, max: usize, body: &[u8]) -> Result<&mut Self> {
        self.vector(min, max, |w| {
            w.bytes(body);
            Ok::<(), Error>(())
        })
    }
}

/// The error for a vector of `length` bytes outside `min..=max` (bounds a length prefix
/// can state fit in `u32`; a longer body written is reported as `u32::MAX`).
fn vector_length(length: usize, min: usize, max: usize) -> ErrorKind {
    let narrow = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    ErrorKind::VectorLength {
        length: narrow(length),
        min: narrow(min),
        max: narrow(max),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_round_trip() {
        let mut w = Writer::new();
        w.u8(1)
            .u16(0x0203)
            .u32(0x0809_0a0b)
            .u64(0x1213_1415_1617_1819);
        w.u24(0x04_0506).unwrap();
        w.u48(0x0c0d_0e0f_1011).unwrap();
        let b = w.finish();
        assert_eq!(b.len(), 1 + 2 + 4 + 8 + 3 + 6);
        let mut r = Reader::with_base(&b, 10);
        assert_eq!(r.u8().unwrap(), 1);
        assert_eq!(r.u16().unwrap(), 0x0203);
        assert_eq!(r.u32().unwrap(), 0x0809_0a0b);
        assert_eq!(r.u64().unwrap(), 0x1213_1415_1617_1819);
        assert_eq!(r.u24().unwrap(), 0x04_0506);
        assert_eq!(r.u48().unwrap(), 0x0c0d_0e0f_1011);
        assert_eq!(r.offset(), 10 + b.len());
        r.finish().unwrap();
    }

    #[test]
    fn integers_that_do_not_fit() {
        let mut w = Writer::new();
        assert_eq!(w.u24(1 << 24).unwrap_err().kind, ErrorKind::IntegerOverflow);
        assert_eq!(w.u48(1 << 48).unwrap_err().kind, ErrorKind::IntegerOverflow);
        assert!(w.is_empty());
    }

    #[test]
    fn truncation_names_offset_and_bytes() {
        let mut r = Reader::with_base(&[1, 2, 3], 100);
        r.u8().unwrap();
        let e = r.u32().unwrap_err();
        assert_eq!(
            (e.offset, e.kind),
            (
                103,
                ErrorKind::Truncated {
                    needed: 2,
                    available: 2
                }
            )
        );
        // A failed read consumes nothing.
        assert_eq!(r.offset(), 101);
        assert_eq!(r.u16().unwrap(), 0x0203);
    }

    #[test]
    fn vectors_of_every_prefix_width() {
        for (max, width) in [(0xff, 1), (0xffff, 2), (0xff_ffff, 3), (0xffff_ffff, 4)] {
            let mut w = Writer::new();
            w.opaque(0, max, b"abc").unwrap();
            let b = w.finish();
            assert_eq!(b.len(), width + 3);
            assert_eq!(b[width - 1], 3);
            let mut r = Reader::new(&b);
            let v = r.vector(0, max).unwrap();
            assert_eq!((v.remaining(), v.offset()), (&b"abc"[..], width));
            r.finish().unwrap();
        }
    }

    #[test]
    fn nested_vectors_back_patch() {
        let mut w = Writer::new();
        w.vector(0, 0xff_ffff, |w| {
            w.opaque(1, 0xff, &[7])?;
            w.opaque(0, 0xffff, &[8, 9])?;
            Ok::<(), Error>(())
        })
        .unwrap();
        assert_eq!(w.finish(), [0, 0, 6, 1, 7, 0, 2, 8, 9]);
    }

    #[test]
    fn over_long_and_short_vectors() {
        // Writing: a body past max, or below min, leaves nothing behind.
        let mut w = Writer::new();
        w.u8(0xaa);
        let e = w.opaque(0, 0xff, &[0; 256]).unwrap_err();
        assert_eq!(
            (e.offset, e.kind),
            (
                1,
                ErrorKind::VectorLength {
                    length: 256,
                    min: 0,
                    max: 0xff
                }
            )
        );
        assert!(w.opaque(1, 0xff, &[]).is_err());
        // An error inside the body is passed on, and the vector dropped too.
        let inner: Result<&mut Writer> = w.vector(0, 0xffff, |w| {
            w.u8(1);
            w.u24(1 << 24)?;
            Ok(())
        });
        assert_eq!(inner.unwrap_err().kind, ErrorKind::IntegerOverflow);
        assert_eq!(w.finish(), [0xaa]);

        // Reading: a length outside min..max is named at the prefix.
        let e = Reader::with_base(&[0, 0], 5).vector(1, 0xffff).unwrap_err();
        assert_eq!(
            (e.offset, e.kind),
            (
                5,
                ErrorKind::VectorLength {
                    length: 0,
                    min: 1,
                    max: 0xffff
                }
            )
        );
        assert!(Reader::new(&[3, 0, 0, 0]).vector(0, 2).is_err());
        // A body longer than the input, and a prefix cut short.
        let e = Reader::with_base(&[0, 5, 1, 2], 5)
            .vector(0, 0xffff)
            .unwrap_err();
        assert_eq!(
            (e.offset, e.kind),
            (
                9,
                ErrorKind::Truncated {
                    needed: 3,
                    available: 2
                }
            )
        );
        assert!(matches!(
            Reader::new(&[0, 0]).vector(0, 0xff_ffff).unwrap_err().kind,
            ErrorKind::Truncated { .. }
        ));
    }

    #[test]
    fn must_be_at_end() {
        let mut r = Reader::with_base(&[1, 2, 3], 7);
        r.u8().unwrap();
        let e = r.finish().unwrap_err();
        assert_eq!(
            (e.offset, e.kind),
            (8, ErrorKind::TrailingData { count: 2 })
        );
        assert_eq!(r.array::<2>().unwrap(), [2, 3]);
        r.finish().unwrap();
    }
}
