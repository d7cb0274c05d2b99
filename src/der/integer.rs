//! INTEGER (X.690 §8.3): content is two's complement, big-endian, minimal.

use super::error::{Error, ErrorKind, Result};
use super::reader::Reader;
use super::tag;

/// Check the DER rules for INTEGER content octets at absolute `offset`.
pub fn check(r: &Reader<'_>, content: &[u8], offset: usize) -> Result<()> {
    match content {
        [] => Err(Error::new(offset, ErrorKind::EmptyInteger)),
        // A leading 0x00 is only allowed to keep the next octet's high bit clear, and a
        // leading 0xff only to keep it set.
        [0x00, next, ..] if next & 0x80 == 0 => r.deviate(offset, ErrorKind::NonMinimalInteger),
        [0xff, next, ..] if next & 0x80 != 0 => r.deviate(offset, ErrorKind::NonMinimalInteger),
        _ => Ok(()),
    }
}

/// True when the two's complement value is negative.
#[inline]
pub fn is_negative(content: &[u8]) -> bool {
    content.first().is_some_and(|b| b & 0x80 != 0)
}

/// The magnitude of a non-negative INTEGER, without the sign-padding zero octet.
#[inline]
pub fn unsigned_bytes(content: &[u8]) -> &[u8] {
    match content {
        [0x00, rest @ ..] if !rest.is_empty() => rest,
        _ => content,
    }
}

/// The content octets of the non-negative INTEGER whose magnitude is `magnitude`: a zero
/// octet goes first when the top bit is set, so that the value does not read as negative
/// (a serial number given as hex, `ff`, is 255, whose content is `00 ff`).
pub fn from_unsigned(magnitude: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if is_negative(magnitude) {
        let mut v = Vec::with_capacity(magnitude.len() + 1);
        v.push(0);
        v.extend_from_slice(magnitude);
        v.into()
    } else {
        magnitude.into()
    }
}

/// The value as `u64`, failing for negative or too-large values.
pub fn to_u64(content: &[u8], offset: usize) -> Result<u64> {
    if is_negative(content) {
        return Err(Error::new(offset, ErrorKind::NegativeInteger));
    }
    let mag = unsigned_bytes(content);
    if mag.len() > 8 {
        return Err(Error::new(offset, ErrorKind::IntegerOverflow));
    }
    Ok(mag.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
}

/// The value as `i64` (two's complement), failing when it does not fit.
pub fn to_i64(content: &[u8], offset: usize) -> Result<i64> {
    if content.len() > 8 {
        return Err(Error::new(offset, ErrorKind::IntegerOverflow));
    }
    let init: i64 = if is_negative(content) { -1 } else { 0 };
    Ok(content
        .iter()
        .fold(init, |acc, &b| (acc << 8) | i64::from(b)))
}

impl<'a> Reader<'a> {
    /// INTEGER content octets (validated, sign included).
    #[inline]
    pub fn read_integer(&mut self) -> Result<&'a [u8]> {
        let tlv = self.read_expect(tag::INTEGER)?;
        check(self, tlv.content, tlv.content_offset())?;
        Ok(tlv.content)
    }

    /// INTEGER as u64 (versions, path lengths, CRL numbers that fit).
    pub fn read_u64(&mut self) -> Result<u64> {
        let off = self.offset();
        let c = self.read_integer()?;
        to_u64(c, off)
    }

    /// ENUMERATED as i64 (same content rules as INTEGER).
    pub fn read_enumerated(&mut self) -> Result<i64> {
        let tlv = self.read_expect(tag::ENUMERATED)?;
        check(self, tlv.content, tlv.content_offset())?;
        to_i64(tlv.content, tlv.content_offset())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(der: &[u8]) -> Result<&[u8]> {
        Reader::new(der).read_integer()
    }

    #[test]
    fn minimal_rules() {
        assert_eq!(read(&[2, 1, 0]).unwrap(), &[0]);
        assert_eq!(read(&[2, 2, 0, 0x80]).unwrap(), &[0, 0x80]);
        assert_eq!(read(&[2, 1, 0xff]).unwrap(), &[0xff]);
        assert_eq!(
            read(&[2, 2, 0, 0x7f]).unwrap_err().kind,
            ErrorKind::NonMinimalInteger
        );
        assert_eq!(
            read(&[2, 2, 0xff, 0x80]).unwrap_err().kind,
            ErrorKind::NonMinimalInteger
        );
        assert_eq!(read(&[2, 0]).unwrap_err().kind, ErrorKind::EmptyInteger);
    }

    #[test]
    fn magnitudes_become_non_negative_content() {
        assert_eq!(&*from_unsigned(&[0xff]), &[0, 0xff]);
        assert_eq!(&*from_unsigned(&[0x7f, 0xff]), &[0x7f, 0xff]);
        assert_eq!(&*from_unsigned(&[0, 0xff]), &[0, 0xff]);
        assert_eq!(unsigned_bytes(&from_unsigned(&[0x80, 1])), &[0x80, 1]);
        assert!(!is_negative(&from_unsigned(&[0x80])));
    }

    #[test]
    fn conversions() {
        assert_eq!(to_u64(&[0x01, 0x00], 0).unwrap(), 256);
        assert_eq!(to_u64(&[0x00, 0xff], 0).unwrap(), 255);
        assert_eq!(
            to_u64(&[0xff], 0).unwrap_err().kind,
            ErrorKind::NegativeInteger
        );
        assert_eq!(to_i64(&[0xff], 0).unwrap(), -1);
        assert_eq!(to_i64(&[0xff, 0x7f], 0).unwrap(), -129);
        assert_eq!(
            to_u64(&[1, 2, 3, 4, 5, 6, 7, 8, 9], 0).unwrap_err().kind,
            ErrorKind::IntegerOverflow
        );
        assert_eq!(unsigned_bytes(&[0x00, 0x80]), &[0x80]);
        assert_eq!(unsigned_bytes(&[0x00]), &[0x00]);
    }
}
