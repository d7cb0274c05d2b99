//! BOOLEAN, NULL, OCTET STRING and BIT STRING (X.690 §8.2, §8.8, §8.7, §8.6; DER §11.1, §11.2).

use super::error::{Error, ErrorKind, Result};
use super::reader::Reader;
use super::tag;

/// A BIT STRING's content split into its unused-bit count and data octets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitString<'a> {
    /// How many bits of the last octet are padding (0 to 7).
    pub unused_bits: u8,
    /// The data octets, padding included in the last one.
    pub bytes: &'a [u8],
}

impl<'a> BitString<'a> {
    /// Validate content octets at absolute `offset` (DER: unused bits 0..=7, zero when
    /// empty, and the unused bits themselves zero).
    pub fn parse(r: &Reader<'_>, content: &'a [u8], offset: usize) -> Result<Self> {
        let (&unused, bytes) = content.split_first().ok_or(Error::new(
            offset,
            ErrorKind::InvalidBitString("no unused-bits octet"),
        ))?;
        if unused > 7 {
            return Err(Error::new(
                offset,
                ErrorKind::InvalidBitString("unused-bits octet above 7"),
            ));
        }
        if bytes.is_empty() && unused != 0 {
            return Err(Error::new(
                offset,
                ErrorKind::InvalidBitString("unused bits in an empty string"),
            ));
        }
        if let Some(last) = bytes.last() {
            if last & ((1u8 << unused) - 1) != 0 {
                r.deviate(
                    offset + content.len() - 1,
                    ErrorKind::InvalidBitString("unused bits not zero"),
                )?;
            }
        }
        Ok(BitString {
            unused_bits: unused,
            bytes,
        })
    }

    /// Bit `n` counted from the most significant bit of the first octet (named-bit order).
    pub fn bit(&self, n: usize) -> bool {
        let len_bits = self.bytes.len() * 8 - usize::from(self.unused_bits);
        n < len_bits && self.bytes[n / 8] & (0x80 >> (n % 8)) != 0
    }

    /// Number of meaningful bits.
    pub fn bit_len(&self) -> usize {
        self.bytes.len() * 8 - usize::from(self.unused_bits)
    }
}

impl<'a> Reader<'a> {
    /// Read a BOOLEAN; DER allows only 0x00 and 0xFF, BER any non-zero octet for true.
    pub fn read_bool(&mut self) -> Result<bool> {
        let tlv = self.read_expect(tag::BOOLEAN)?;
        match tlv.content {
            [0x00] => Ok(false),
            [0xff] => Ok(true),
            [_] => {
                self.deviate(tlv.content_offset(), ErrorKind::InvalidBoolean)?;
                Ok(true)
            }
            _ => Err(Error::new(tlv.content_offset(), ErrorKind::InvalidBoolean)),
        }
    }

    /// Read a NULL, which must have empty content.
    pub fn read_null(&mut self) -> Result<()> {
        let tlv = self.read_expect(tag::NULL)?;
        if tlv.content.is_empty() {
            Ok(())
        } else {
            Err(Error::new(tlv.content_offset(), ErrorKind::InvalidNull))
        }
    }

    /// Read an OCTET STRING and return its content octets.
    #[inline]
    pub fn read_octet_string(&mut self) -> Result<&'a [u8]> {
        self.read(tag::OCTET_STRING)
    }

    /// Read a BIT STRING with its universal tag (see [`BitString::parse`] for the rules).
    #[inline]
    pub fn read_bit_string(&mut self) -> Result<BitString<'a>> {
        self.read_bit_string_tagged(tag::BIT_STRING)
    }

    /// A BIT STRING under an implicit tag (e.g. `[1] IMPLICIT UniqueIdentifier`).
    pub fn read_bit_string_tagged(&mut self, t: u8) -> Result<BitString<'a>> {
        let tlv = self.read_expect(t)?;
        BitString::parse(self, tlv.content, tlv.content_offset())
    }

    /// `DEFAULT FALSE` BOOLEAN: absent means false; DER forbids encoding the default.
    pub fn read_default_false(&mut self) -> Result<bool> {
        if self.peek_tag() != Some(tag::BOOLEAN) {
            return Ok(false);
        }
        let off = self.offset();
        let v = self.read_bool()?;
        if !v {
            self.deviate(off, ErrorKind::DefaultEncoded("FALSE"))?;
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::Deviations;

    #[test]
    fn booleans() {
        assert!(Reader::new(&[1, 1, 0xff]).read_bool().unwrap());
        assert!(!Reader::new(&[1, 1, 0]).read_bool().unwrap());
        assert_eq!(
            Reader::new(&[1, 1, 1]).read_bool().unwrap_err().kind,
            ErrorKind::InvalidBoolean
        );
        assert!(Reader::new(&[1, 2, 0, 0]).read_bool().is_err());
        let log = Deviations::new();
        assert!(Reader::lenient(&[1, 1, 1], &log).read_bool().unwrap());
        assert!(!log.is_empty());
    }

    #[test]
    fn null_must_be_empty() {
        Reader::new(&[5, 0]).read_null().unwrap();
        assert!(Reader::new(&[5, 1, 0]).read_null().is_err());
    }

    #[test]
    fn bit_string_rules() {
        let bs = Reader::new(&[3, 2, 7, 0x80]).read_bit_string().unwrap();
        assert_eq!(bs.bit_len(), 1);
        assert!(bs.bit(0));
        assert!(!bs.bit(1));
        Reader::new(&[3, 1, 0]).read_bit_string().unwrap();
        assert!(Reader::new(&[3, 0]).read_bit_string().is_err());
        assert!(Reader::new(&[3, 1, 1]).read_bit_string().is_err());
        assert!(Reader::new(&[3, 2, 8, 0]).read_bit_string().is_err());
        // Padding bit set: not DER.
        assert!(Reader::new(&[3, 2, 1, 0x01]).read_bit_string().is_err());
    }

    #[test]
    fn default_false_must_be_omitted() {
        assert!(Reader::new(&[1, 1, 0]).read_default_false().is_err());
        assert!(Reader::new(&[1, 1, 0xff]).read_default_false().unwrap());
        assert!(!Reader::new(&[4, 0]).read_default_false().unwrap());
    }
}
