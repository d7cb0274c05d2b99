//! Character string types (X.680 §41, RFC 5280 DirectoryString): content checks for DER
//! and decoding to Rust `String` for display.

use super::error::{Error, ErrorKind, Result};
use super::reader::Reader;
use super::tag;
use std::borrow::Cow;

/// PrintableString's character set (X.680 §41.4) as a table: one load per byte.
static PRINTABLE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = printable_char(c as u8);
        c += 1;
    }
    t
};

/// Whether `b` is in PrintableString's character set: letters, digits, space and
/// `'()+,-./:=?`.
pub const fn printable_char(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b' ' | b'\'' | b'(' | b')' | b'+' | b',' | b'-' | b'.' | b'/' | b':' | b'=' | b'?'
        )
}

#[inline]
fn printable(c: u8) -> bool {
    PRINTABLE[usize::from(c)]
}

/// Decode string content of the given universal tag to text. Checks the character set;
/// a violation is an error in strict mode and a logged deviation in lenient mode (the
/// text is then decoded as Latin-1 so it can still be shown).
pub fn decode<'a>(r: &Reader<'_>, t: u8, content: &'a [u8], offset: usize) -> Result<Cow<'a, str>> {
    let invalid = |why| ErrorKind::InvalidString(why);
    match t {
        tag::UTF8_STRING => match std::str::from_utf8(content) {
            Ok(s) => Ok(Cow::Borrowed(s)),
            Err(e) => {
                r.deviate(offset + e.valid_up_to(), invalid("UTF8String is not UTF-8"))?;
                Ok(String::from_utf8_lossy(content))
            }
        },
        tag::PRINTABLE_STRING | tag::IA5_STRING | tag::NUMERIC_STRING | tag::VISIBLE_STRING => {
            // One monomorphic loop per string type (a function pointer per byte was a
            // tenth of the cost of formatting a DN).
            let bad = match t {
                tag::PRINTABLE_STRING => content.iter().position(|&c| !printable(c)),
                tag::NUMERIC_STRING => content
                    .iter()
                    .position(|&c| !(c.is_ascii_digit() || c == b' ')),
                tag::VISIBLE_STRING => content.iter().position(|&c| !(0x20..0x7f).contains(&c)),
                _ => content.iter().position(|&c| c >= 0x80),
            };
            if let Some(i) = bad {
                // PrintableString with '*', '@' or '&' is common in old certificates.
                let why = match t {
                    tag::PRINTABLE_STRING => "character not allowed in PrintableString",
                    tag::NUMERIC_STRING => "character not allowed in NumericString",
                    tag::VISIBLE_STRING => "character not allowed in VisibleString",
                    _ => "non-ASCII byte in IA5String",
                };
                r.deviate(offset + i, invalid(why))?;
                return Ok(Cow::Owned(content.iter().map(|&b| b as char).collect()));
            }
            // All bytes are ASCII here, so this cannot fail.
            Ok(std::str::from_utf8(content)
                .map_or_else(|_| Cow::Owned(String::new()), Cow::Borrowed))
        }
        // T.61 is in practice Latin-1 in certificates.
        tag::TELETEX_STRING | tag::VIDEOTEX_STRING | tag::GRAPHIC_STRING | tag::GENERAL_STRING => {
            Ok(match std::str::from_utf8(content) {
                Ok(s) => Cow::Borrowed(s),
                Err(_) => Cow::Owned(content.iter().map(|&b| b as char).collect()),
            })
        }
        tag::BMP_STRING => {
            if content.len() % 2 != 0 {
                return Err(Error::new(offset, invalid("BMPString of odd length")));
            }
            let units = content
                .chunks_exact(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]));
            let s: String = char::decode_utf16(units)
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect();
            Ok(Cow::Owned(s))
        }
        tag::UNIVERSAL_STRING => {
            if content.len() % 4 != 0 {
                return Err(Error::new(
                    offset,
                    invalid("UniversalString length not a multiple of 4"),
                ));
            }
            Ok(Cow::Owned(
                content
                    .chunks_exact(4)
                    .map(|c| {
                        char::from_u32(u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
                            .unwrap_or(char::REPLACEMENT_CHARACTER)
                    })
                    .collect(),
            ))
        }
        _ => Err(Error::new(offset, invalid("a string type"))),
    }
}

/// True for the universal tags `decode` understands.
pub fn is_string_tag(t: u8) -> bool {
    matches!(
        t,
        tag::UTF8_STRING
            | tag::PRINTABLE_STRING
            | tag::IA5_STRING
            | tag::NUMERIC_STRING
            | tag::VISIBLE_STRING
            | tag::TELETEX_STRING
            | tag::VIDEOTEX_STRING
            | tag::GRAPHIC_STRING
            | tag::GENERAL_STRING
            | tag::BMP_STRING
            | tag::UNIVERSAL_STRING
    )
}

impl<'a> Reader<'a> {
    /// Any string type, decoded.
    pub fn read_any_string(&mut self) -> Result<Cow<'a, str>> {
        let tlv = self.read_tlv()?;
        decode(self, tlv.tag, tlv.content, tlv.content_offset())
    }

    /// A string of one specific type (e.g. `[2] IMPLICIT IA5String` in GeneralName).
    pub fn read_string_as(&mut self, t: u8, as_type: u8) -> Result<Cow<'a, str>> {
        let tlv = self.read_expect(t)?;
        decode(self, as_type, tlv.content, tlv.content_offset())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::Deviations;

    fn dec(t: u8, c: &[u8]) -> Result<Cow<'_, str>> {
        decode(&Reader::new(&[]), t, c, 0)
    }

    #[test]
    fn charsets() {
        assert_eq!(
            dec(tag::PRINTABLE_STRING, b"Example CA").unwrap(),
            "Example CA"
        );
        assert!(dec(tag::PRINTABLE_STRING, b"a@b").is_err());
        assert!(dec(tag::IA5_STRING, &[0x80]).is_err());
        assert!(dec(tag::UTF8_STRING, &[0xc3]).is_err());
        assert_eq!(dec(tag::UTF8_STRING, "é".as_bytes()).unwrap(), "é");
        assert_eq!(dec(tag::BMP_STRING, &[0, b'h', 0, b'i']).unwrap(), "hi");
        assert!(dec(tag::BMP_STRING, &[0]).is_err());
        assert_eq!(dec(tag::UNIVERSAL_STRING, &[0, 0, 0, b'x']).unwrap(), "x");
        assert_eq!(dec(tag::TELETEX_STRING, &[0xe9]).unwrap(), "é");
        let log = Deviations::new();
        let r = Reader::lenient(&[], &log);
        assert_eq!(decode(&r, tag::PRINTABLE_STRING, b"a@b", 0).unwrap(), "a@b");
        assert_eq!(log.take().len(), 1);
    }
}
